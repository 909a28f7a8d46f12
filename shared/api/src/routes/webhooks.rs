//! `/v1/games/{id}/webhooks`: subscriptions and their deliveries (DESIGN.md §6). The service
//! keeps them ([`service::subscriptions`]): each caller sees and manages only its own.

use super::problems::{problems, BadHeader, BadToken, JsonBodyRefused, NoSuchGame};
use crate::error::ApiError;
use crate::http::{limit_in, Bearer, JsonBody, Params, QueryParams, Reply};
use axum::extract::State;
use serde::Deserialize;
use service::ctx::AppCtx;
use service::dto::{CreateWebhook, CreatedWebhook, DeliveryList, WebhookList};
use service::subscriptions;
use std::sync::Arc;

problems! {
    /// How `create_webhook` refuses a request, beyond the shared refusals it lists.
    CreateWebhookRefused {
        400 => "Malformed body",
        409 => "The game is over, or it kept changing",
        422 => "URL refused, event not allowed for this caller, or too many subscriptions",
    }
}

/// Subscribe to notifications
///
/// A seat token subscribes its seat to `turn` (the game now waits on the seat) and `finished`;
/// the admin token subscribes to `action` (every move, public information only) and
/// `finished`. Deliveries follow the Standard Webhooks specification (`webhook-id`,
/// `webhook-timestamp`, `webhook-signature`), are retried with backoff for more than a day,
/// and can be inspected under `…/deliveries`. The signing secret is shown only in this
/// response. The URL must be `https` and must not resolve to a private, loopback, link-local
/// or metadata address. With `format` `discord` or `slack` the body is instead that
/// platform's incoming-webhook message, a sentence naming the game, the player and the
/// `link` you give; the URL must then be the platform's webhook address.
#[utoipa::path(
    post,
    path = "/v1/games/{id}/webhooks",
    tag = "webhooks",
    params(("id" = String, Path, description = "The game id")),
    request_body = CreateWebhook,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Subscribed; the secret is shown only now", body = CreatedWebhook),
        CreateWebhookRefused,
        BadToken,
        NoSuchGame,
        JsonBodyRefused,
    )
)]
pub async fn create_webhook(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
    JsonBody(body): JsonBody<CreateWebhook>,
) -> Result<Reply, ApiError> {
    let created = subscriptions::create(&ctx, &id, bearer.who(), body).await?;
    Ok(Reply::json(201, &created))
}

/// List your subscriptions
///
/// The caller's own subscriptions in this game (a seat's, or the admin's), without secrets.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/webhooks",
    tag = "webhooks",
    params(("id" = String, Path, description = "The game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Your subscriptions", body = WebhookList),
        BadHeader,
        BadToken,
        NoSuchGame,
    )
)]
pub async fn list_webhooks(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    let list = subscriptions::list(&ctx, &id, bearer.who()).await?;
    Ok(Reply::json(200, &list))
}

problems! {
    /// How `delete_webhook` refuses a request, beyond the shared refusals it lists.
    DeleteWebhookRefused {
        404 => "No such game or subscription of yours",
        409 => "The game kept changing",
    }
}

/// Unsubscribe
///
/// Deletes one of the caller's subscriptions. Notifications not yet delivered are cancelled.
#[utoipa::path(
    delete,
    path = "/v1/games/{id}/webhooks/{hook}",
    tag = "webhooks",
    params(
        ("id" = String, Path, description = "The game id"),
        ("hook" = String, Path, description = "The subscription id"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 204, description = "Deleted"),
        DeleteWebhookRefused,
        BadHeader,
        BadToken,
    )
)]
pub async fn delete_webhook(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, hook_id)): Params<(String, String)>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    subscriptions::delete(&ctx, &id, bearer.who(), &hook_id).await?;
    Ok(Reply::empty(204))
}

problems! {
    /// How `list_deliveries` refuses a request, beyond the shared refusals it lists.
    ListDeliveriesRefused {
        400 => "Malformed query or header",
        404 => "No such game or subscription of yours",
    }
}

/// List recent deliveries
///
/// One subscription's notifications, newest first, each with its attempts (time, the
/// receiver's status or the error) and, while pending, when the next attempt is due.
#[utoipa::path(
    get,
    path = "/v1/games/{id}/webhooks/{hook}/deliveries",
    tag = "webhooks",
    params(
        ("id" = String, Path, description = "The game id"),
        ("hook" = String, Path, description = "The subscription id"),
        ("after" = Option<String>, Query, description = "The `next_after` of the previous page", pattern = "^[0-9]{1,19}\\.[^\\u0000-\\u001f\\u007f-\\u009f]+$"),
        ("limit" = Option<u32>, Query, description = "Deliveries per page, 1 to 100 (default 50)", minimum = 1, maximum = 100),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "One page of deliveries, newest first", body = DeliveryList),
        ListDeliveriesRefused,
        BadToken,
    )
)]
pub async fn list_deliveries(
    State(ctx): State<Arc<AppCtx>>,
    Params((id, hook_id)): Params<(String, String)>,
    QueryParams(params): QueryParams<DeliveryParams>,
    bearer: Bearer,
) -> Result<Reply, ApiError> {
    let limit = limit_in(params.limit, 50, 100)?;
    let after = params.after.as_deref();
    let list = subscriptions::deliveries(&ctx, &id, bearer.who(), &hook_id, after, limit).await?;
    Ok(Reply::json(200, &list))
}

/// The deliveries' query parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeliveryParams {
    after: Option<String>,
    limit: Option<u32>,
}
