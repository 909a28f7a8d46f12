//! `/v1/games/{id}/webhooks`: subscriptions and their deliveries (DESIGN.md §6).
//!
//! Subscriptions live in the game record, so creating or deleting one is a version-conditioned
//! commit like any other change (and bumps the version, the store's guard against lost
//! updates); it is a [`Change::subscriptions`], so a move guarded by the version before it
//! still applies. Each caller sees and manages only its
//! own: a seat its seat's, the admin the admin's.

use super::problems::{problems, BadHeader, BadToken, JsonBodyRefused, NoSuchGame};
use crate::error::{ApiError, Code, Error};
use crate::http::{limit_in, Bearer, JsonBody, Params, QueryParams, Reply};
use axum::extract::State;
use serde::Deserialize;
use service::auth::{identify, Caller};
use service::ctx::AppCtx;
use service::dto::{
    CreateWebhook, CreatedWebhook, Delivery, DeliveryAttempt, DeliveryList, DeliveryStatus,
    Webhook, WebhookEvent, WebhookList,
};
use service::game::{load_record, update, Change, Guard};
use service::time::{now_ms, rfc3339};
use service::webhooks::{chat, sign, url, MAX_HOOKS_PER_GAME};
use std::sync::Arc;
use store::{GameRecord, HookRecord, OutboxMessage, Status};

/// The subscriber a caller is: its seat, or `None` for the admin.
fn subscriber(caller: Caller) -> Result<Option<u8>, Error> {
    match caller {
        Caller::Seat(seat) => Ok(Some(seat)),
        Caller::Admin => Ok(None),
        Caller::Anonymous => Err(Error::Unauthorized(
            "webhooks need a seat or admin token (Authorization: Bearer …)",
        )),
    }
}

fn webhook_of(hook: &HookRecord) -> Webhook {
    let events = hook
        .events
        .iter()
        .filter_map(|event| WebhookEvent::parse(event))
        .collect();
    Webhook {
        id: hook.id.clone(),
        url: hook.url.clone(),
        events,
        seat: hook.seat,
        created_at: rfc3339(hook.created_at),
        disabled: hook.disabled.clone(),
        format: hook.format.into(),
        link: hook.link.clone(),
    }
}

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
    let record = load_record(&ctx, &id).await?;
    let seat = subscriber(identify(&record, bearer.token())?)?;
    let allowed = if seat.is_some() {
        WebhookEvent::SEAT
    } else {
        WebhookEvent::ADMIN
    };
    let mut events: Vec<WebhookEvent> = match &body.events {
        None => allowed.to_vec(),
        Some(events) if events.is_empty() => {
            return Err(Error::refused(
                Code::InvalidEvents,
                "events must name at least one notification type",
            )
            .into())
        }
        Some(events) => events.clone(),
    };
    // Kept in the order of their names, as before the types were an enum.
    events.sort_unstable_by_key(|event| event.as_str());
    events.dedup();
    if let Some(refused) = events.iter().find(|event| !allowed.contains(event)) {
        return Err(Error::refused(
            Code::EventNotAllowed,
            format!(
                "{} may subscribe to {} only, not {}",
                if seat.is_some() {
                    "a seat"
                } else {
                    "the admin"
                },
                allowed
                    .iter()
                    .map(|event| event.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                refused.as_str()
            ),
        )
        .into());
    }
    let dev = ctx.webhooks.dev;
    let format = store::HookFormat::from(body.format);
    let target = url::parse(&body.url, dev).map_err(url_problem)?;
    chat::check_platform(&target, format, dev).map_err(url_problem)?;
    let link = match &body.link {
        Some(link) => Some(
            chat::check_link(link, dev)
                .map_err(|error| Error::refused(Code::InvalidLink, error.to_string()))?,
        ),
        None => None,
    };
    url::resolve(&target, dev).await.map_err(url_problem)?;

    let hook = HookRecord {
        id: sign::new_hook_id()?,
        seat,
        url: body.url.clone(),
        events: events
            .iter()
            .map(|event| event.as_str().to_string())
            .collect(),
        secret: sign::new_secret()?,
        created_at: now_ms(),
        disabled: None,
        format,
        link,
    };
    update(&ctx, record, &Guard::default(), |record| {
        if record.status == Status::Finished {
            return Err(Error::refused(
                Code::GameOver,
                "the game is over: there is nothing left to notify",
            ));
        }
        if record.hooks.len() >= MAX_HOOKS_PER_GAME {
            return Err(Error::refused(
                Code::TooManyWebhooks,
                format!("a game has at most {MAX_HOOKS_PER_GAME} webhook subscriptions"),
            ));
        }
        let mut next = record.clone();
        next.hooks.push(hook.clone());
        Ok(Change::subscriptions(next, ()))
    })
    .await?;
    let created = CreatedWebhook {
        webhook: webhook_of(&hook),
        secret: hook.secret.clone(),
    };
    Ok(Reply::json(201, &created))
}

fn url_problem(error: url::UrlError) -> Error {
    Error::refused(error.code(), error.to_string())
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
    let record = load_record(&ctx, &id).await?;
    let seat = subscriber(identify(&record, bearer.token())?)?;
    let webhooks = record
        .hooks
        .iter()
        .filter(|hook| hook.seat == seat)
        .map(webhook_of)
        .collect();
    Ok(Reply::json(200, &WebhookList { webhooks }))
}

/// The caller's subscription `hook` of the game, or 404.
fn own_hook<'a>(
    record: &'a GameRecord,
    seat: Option<u8>,
    hook: &str,
) -> Result<&'a HookRecord, Error> {
    record
        .hooks
        .iter()
        .find(|candidate| candidate.id == hook && candidate.seat == seat)
        .ok_or(Error::HookNotFound)
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
    let record = load_record(&ctx, &id).await?;
    let seat = subscriber(identify(&record, bearer.token())?)?;
    update(&ctx, record, &Guard::default(), |record| {
        own_hook(record, seat, &hook_id)?;
        let mut next = record.clone();
        next.hooks.retain(|hook| hook.id != hook_id);
        Ok(Change::subscriptions(next, ()))
    })
    .await?;
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
    let record = load_record(&ctx, &id).await?;
    let seat = subscriber(identify(&record, bearer.token())?)?;
    if !sign::is_hook_id(&hook_id) {
        return Err(Error::HookNotFound.into());
    }
    own_hook(&record, seat, &hook_id)?;
    let page = ctx
        .store
        .messages(&id, &hook_id, params.after.as_deref(), limit)
        .await?;
    let deliveries = page.messages.iter().map(delivery_of).collect();
    Ok(Reply::json(
        200,
        &DeliveryList {
            deliveries,
            next_after: page.next_cursor,
        },
    ))
}

/// The deliveries' query parameters.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeliveryParams {
    after: Option<String>,
    limit: Option<u32>,
}

fn delivery_of(message: &OutboxMessage) -> Delivery {
    Delivery {
        id: message.id.clone(),
        // Every stored notification was written with one of the three types.
        kind: WebhookEvent::parse(&message.event).unwrap_or(WebhookEvent::Action),
        status: match message.status {
            store::DeliveryStatus::Pending => DeliveryStatus::Pending,
            store::DeliveryStatus::Delivered => DeliveryStatus::Delivered,
            store::DeliveryStatus::Failed => DeliveryStatus::Failed,
            store::DeliveryStatus::Cancelled => DeliveryStatus::Cancelled,
        },
        created_at: rfc3339(message.created_at),
        attempts: message
            .attempts
            .iter()
            .map(|attempt| DeliveryAttempt {
                attempt: attempt.attempt,
                at: rfc3339(attempt.at),
                status_code: attempt.status_code,
                error: attempt.error.clone(),
            })
            .collect(),
        next_attempt_at: message.next_attempt_at.map(rfc3339),
    }
}
