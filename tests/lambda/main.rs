//! The Lambda functions' requests: API Gateway (HTTP API, payload 2.0) and function-URL
//! events from `fixtures/apigw/`, parsed as the Lambda runtime parses them and answered by
//! the app every function runs (`api::edge::app`); and infra/template.yaml against the
//! route map (`template`).

mod claim_seat;
mod create_game;
mod create_webhook;
mod delete_game;
mod delete_webhook;
mod function_url;
mod get_audit;
mod get_game;
mod get_log;
mod get_openapi;
mod list_deliveries;
mod list_games;
mod list_legal_actions;
mod list_rulesets;
mod list_webhooks;
mod submit_action;
mod template;
