//! A game's webhook subscriptions (DESIGN.md §6): each caller subscribes, lists, deletes and
//! reads the deliveries of its own only (a seat its seat's, the admin the admin's).
//!
//! Subscriptions live in the game record, so creating or deleting one is a version-conditioned
//! commit like any other change (and bumps the version, the store's guard against lost
//! updates); it is a [`Change::subscriptions`], so a move guarded by the version before it
//! still applies.

use crate::auth::{identify, Caller, Credential};
use crate::ctx::AppCtx;
use crate::dto::{
    CreateWebhook, CreatedWebhook, Delivery, DeliveryAttempt, DeliveryList, DeliveryStatus,
    Webhook, WebhookEvent, WebhookList,
};
use crate::error::{Code, Error};
use crate::game::{load_record, update, Change, Guard};
use crate::time::{now_ms, rfc3339};
use crate::webhooks::{chat, sign, url, MAX_HOOKS_PER_GAME};
use store::Scope;
use store::{GameRecord, HookRecord, OutboxMessage, Status};

/// Subscribes the caller (`token`) to game `id`'s notifications as `body` asks, once its URL
/// passes every check; the answer holds the signing secret (shown once).
pub async fn create(
    ctx: &AppCtx,
    id: &str,
    who: &Credential,
    body: CreateWebhook,
) -> Result<CreatedWebhook, Error> {
    let record = load_record(ctx, id).await?;
    let seat = subscriber(identify(&record, who)?)?;
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
            ))
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
        ));
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
    update(ctx, record, &Guard::default(), |record| {
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
    Ok(created)
}

/// The caller's own subscriptions in game `id`, without secrets.
pub async fn list(ctx: &AppCtx, id: &str, who: &Credential) -> Result<WebhookList, Error> {
    let record = load_record(ctx, id).await?;
    let seat = subscriber(identify(&record, who)?)?;
    let webhooks = record
        .hooks
        .iter()
        .filter(|hook| hook.seat == seat)
        .map(webhook_of)
        .collect();
    Ok(WebhookList { webhooks })
}

/// Deletes the caller's subscription `hook_id` of game `id`; what it had not delivered is
/// cancelled.
pub async fn delete(ctx: &AppCtx, id: &str, who: &Credential, hook_id: &str) -> Result<(), Error> {
    let record = load_record(ctx, id).await?;
    let seat = subscriber(identify(&record, who)?)?;
    update(ctx, record, &Guard::default(), |record| {
        own_hook(record, seat, hook_id)?;
        let mut next = record.clone();
        next.hooks.retain(|hook| hook.id != hook_id);
        Ok(Change::subscriptions(next, ()))
    })
    .await?;
    Ok(())
}

/// One page (`after`, `limit`) of the deliveries of the caller's subscription `hook_id`.
pub async fn deliveries(
    ctx: &AppCtx,
    id: &str,
    who: &Credential,
    hook_id: &str,
    after: Option<&str>,
    limit: usize,
) -> Result<DeliveryList, Error> {
    let record = load_record(ctx, id).await?;
    let seat = subscriber(identify(&record, who)?)?;
    if !sign::is_hook_id(hook_id) {
        return Err(Error::HookNotFound);
    }
    own_hook(&record, seat, hook_id)?;
    let page = ctx.store.messages(id, hook_id, after, limit).await?;
    let deliveries = page.messages.iter().map(delivery_of).collect();
    Ok(DeliveryList {
        deliveries,
        next_after: page.next_cursor,
    })
}

/// The subscriber a caller is: its seat, or `None` for the admin.
fn subscriber(caller: Caller) -> Result<Option<u8>, Error> {
    match caller {
        Caller::Seat(seat) => Ok(Some(seat)),
        Caller::Admin => Ok(None),
        Caller::App(scopes) => scopes.require(Scope::WebhooksManage).map(|()| None),
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

fn url_problem(error: url::UrlError) -> Error {
    Error::refused(error.code(), error.to_string())
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
