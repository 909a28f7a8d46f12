//! `GET /v1/me/events`: a seat's or the admin's token follows its game
//! ([`super::events::token_events`]); a player token gets one stream for every game of the
//! app the player sits in (docs/api.md, "Players across games"). The same events as a seat token's `me`
//! stream (`turn`, `reminder`, `finished`, then `games` with all of the player's games), and
//! an id that holds, for each game, what the reader was told of it: a resumed stream tells
//! each notice it missed once, games joined meanwhile included, and nothing twice.

use super::events::{
    deliver, json_event, last_event_id, notices, open_slot, seen_of, sse_response, Seen,
    StreamEvent, BUFFERED_EVENTS, OPEN_WAIT,
};
use super::problems::{problems, RetiredRules};
use crate::error::{ApiError, Code, Error};
use crate::http::Bearer;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::Event;
use axum::response::Response;
use service::auth::{Credential, PlayerKey};
use service::ctx::AppCtx;
use service::dto::MyGames;
use service::streams::{StreamMode, MAX_BATCH_WAIT};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// The most games one player stream follows: the player's newest.
pub const FOLLOWED_GAMES: usize = 100;

/// How often a player stream reads the player's games again without a change seen in this
/// process: games joined meanwhile, and commits made by another process (every Lambda
/// instance is another process). Each read is the player's games (one query and a read per
/// game), so this is a cost as well as a delay.
const POLL: Duration = Duration::from_secs(5);

/// The prefix of a player stream's event ids.
const ID_PREFIX: &str = "p1.";

/// What a player stream last told its reader: each followed game and what was told of it.
type Told = BTreeMap<String, Seen>;

/// The id of a `games` event that told `told`: `p1.` and, per game, `<id>~<bits>~<turns>~
/// <reminders>`, comma-separated.
fn id_of(told: &Told) -> String {
    let games: Vec<String> = told
        .iter()
        .map(|(id, seen)| {
            let (turns, reminders) = seen.counts.unwrap_or_default();
            format!("{id}~{}~{turns}~{reminders}", seen.bits())
        })
        .collect();
    format!("{ID_PREFIX}{}", games.join(","))
}

/// What an id this stream sent says it told; 400 `invalid-last-event-id` for anything else.
fn told_of(id: &str) -> Result<Told, Error> {
    let bad = || {
        Error::refused(
            Code::InvalidLastEventId,
            "Last-Event-ID is not an id this stream sent",
        )
    };
    let games = id.strip_prefix(ID_PREFIX).ok_or_else(bad)?;
    let mut told = Told::new();
    for game in games.split(',').filter(|game| !game.is_empty()) {
        let parts: Vec<&str> = game.split('~').collect();
        let [id, bits, turns, reminders] = parts[..] else {
            return Err(bad());
        };
        let number = |text: &str| text.parse::<u32>().map_err(|_| bad());
        let seen = Seen::from_bits(
            u64::from(number(bits)?),
            Some((number(turns)?, number(reminders)?)),
        )
        .ok_or_else(bad)?;
        if !service::auth::is_game_id(id) || told.insert(id.to_owned(), seen).is_some() {
            return Err(bad());
        }
    }
    if told.len() > FOLLOWED_GAMES {
        return Err(bad());
    }
    Ok(told)
}

/// The events that bring a reader told `before` (`None`: a new reader, who gets the games
/// alone) up to the player's games now, and what it is told then; `None` once the token is
/// revoked (the stream ends).
async fn batch(
    ctx: &AppCtx,
    key: &PlayerKey,
    before: Option<&Told>,
) -> Result<Option<(Vec<Event>, Told)>, Error> {
    if !service::players::still_live(ctx.store.as_ref(), key).await? {
        return Ok(None);
    }
    let (seated, _) =
        service::players::seated(ctx, &key.app, &key.player, None, FOLLOWED_GAMES).await?;
    let mut events = Vec::new();
    let mut games = Vec::new();
    let mut told = Told::new();
    for service::players::Seated { record, seat, game } in seated {
        let now = seen_of(&record, Some(seat), &game)?;
        if let Some(before) = before {
            // A game the reader was not told of (joined, or started, while it was away):
            // every notice of it so far.
            let was = before.get(&record.id).copied().unwrap_or(Seen {
                your_turn: false,
                reminded: false,
                finished: false,
                counts: Some((0, 0)),
            });
            notices(&mut events, &game, now, was)?;
        }
        told.insert(record.id, now);
        games.push(game);
    }
    let all = MyGames {
        games,
        next_after: None,
    };
    events.push(json_event(StreamEvent::Games, &all)?.id(id_of(&told)));
    Ok(Some((events, told)))
}

problems! {
    /// How `my_events` refuses a request, beyond the shared refusals it lists.
    MyEventsRefused {
        400 => "A malformed header, or a `Last-Event-ID` this stream never sent (`invalid-last-event-id`)",
        401 => "No token, or a token no game knows",
        429 => "The token already holds as many streams as it may (`too-many-streams`)",
    }
}

/// Follow your games
///
/// A Server-Sent Events stream (`text/event-stream`) of the games the bearer token is in:
/// what a "my games" page or a notifier needs, without a webhook.
///
/// Events:
/// - `games`: the list `GET /v1/me/games` answers. The first event is one (the snapshot);
///   each change of a game sends one more. Its `id` is the position to resume from.
/// - `turn`: the game (an entry of that list) now waits on your seat.
/// - `reminder`: your seat's move clock sent its reminder.
/// - `finished`: the game ended.
///
/// `turn`, `reminder` and `finished` come before the `games` event of the same change.
/// Resuming with `Last-Event-ID` sends the list as it is now if anything changed since.
/// Heartbeats, the end of a stream and AWS are as for `GET /v1/games/{id}/events`.
///
/// With a player token (`bp_…`), one stream follows every game of the app the player sits
/// in (their newest 100, games joined later included); each `games` event's id (`p1.…`)
/// records what was told of each game, so a resumed stream tells every `turn`, `reminder`
/// and `finished` it missed once, then follows on.
#[utoipa::path(
    get,
    path = "/v1/me/events",
    tag = "games",
    params(
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this event (the `id` of a `games` event this stream sent)"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "An event stream: `games`, `turn`, `reminder` and `finished` events", content_type = "text/event-stream", body = String),
        MyEventsRefused,
        RetiredRules,
    )
)]
pub async fn my_events(
    State(ctx): State<Arc<AppCtx>>,
    headers: HeaderMap,
    bearer: Bearer,
) -> Result<Response, ApiError> {
    if let Credential::Player(player) = bearer.who() {
        return player_events(ctx, &headers, player.clone()).await;
    }
    super::events::token_events(ctx, &headers, &bearer).await
}

/// `GET /v1/me/events` for player `key`.
pub async fn player_events(
    ctx: Arc<AppCtx>,
    headers: &HeaderMap,
    key: PlayerKey,
) -> Result<Response, ApiError> {
    let resumed = last_event_id(headers)?.map(told_of).transpose()?;
    let slot = open_slot(&ctx, service::players::stream_holder(&key))?;
    let Some((first, told)) = batch(&ctx, &key, resumed.as_ref()).await? else {
        return Err(Error::Unauthorized("the player token is not valid, or was revoked").into());
    };
    // A reader that resumes with nothing new is sent nothing until something changes.
    let first = if resumed.as_ref() == Some(&told) {
        Vec::new()
    } else {
        first
    };
    let (sender, receiver) = mpsc::channel::<Event>(BUFFERED_EVENTS);
    let mode = ctx.streams.mode;
    let follower = ctx.clone();
    tokio::spawn(async move {
        if let Err(error) = follow(&follower, &key, first, told, &sender).await {
            tracing::warn!(%error, "a player stream ended early");
        }
        let retry = Event::default().retry(mode.retry());
        let _ = tokio::time::timeout(Duration::from_secs(1), sender.send(retry)).await;
    });
    Ok(sse_response(slot, mode, receiver))
}

/// The stream's loop: send `first`, then a batch whenever what the reader would be told
/// changes. A commit of a followed game in this process wakes it at once; otherwise it reads
/// again every [`POLL`] (new games, other processes' commits).
async fn follow(
    ctx: &AppCtx,
    key: &PlayerKey,
    first: Vec<Event>,
    mut told: Told,
    sender: &mpsc::Sender<Event>,
) -> Result<(), Error> {
    let one_batch = ctx.streams.mode == StreamMode::OneBatch;
    if !first.is_empty() && (!deliver(ctx, sender, first).await || one_batch) {
        return Ok(());
    }
    let mut changes = ctx.changes.subscribe();
    let mut stopping = ctx.stopping.subscribe();
    let deadline = tokio::time::Instant::now() + if one_batch { MAX_BATCH_WAIT } else { OPEN_WAIT };
    loop {
        if *ctx.stopping.borrow() {
            return Ok(());
        }
        if one_batch && tokio::time::Instant::now() >= deadline {
            return Ok(());
        }
        let next_read = tokio::time::Instant::now() + POLL;
        loop {
            let changed = tokio::select! {
                changed = tokio::time::timeout_at(next_read, changes.recv()) => changed,
                _ = stopping.changed() => return Ok(()),
                () = sender.closed() => return Ok(()),
            };
            match changed {
                Ok(Ok(id)) if told.contains_key(&id) => break,
                Ok(Ok(_)) => continue,
                // Lagged, closed, or the poll's time: read again.
                _ => break,
            }
        }
        let Some((events, now)) = batch(ctx, key, Some(&told)).await? else {
            return Ok(());
        };
        if now == told {
            continue;
        }
        told = now;
        if !deliver(ctx, sender, events).await || one_batch {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_what_was_told_and_nothing_else_parses() {
        let mut told = Told::new();
        told.insert(
            "g_AAAAAAAAAAAAAAAAAAAAAA".to_owned(),
            Seen {
                your_turn: true,
                reminded: false,
                finished: false,
                counts: Some((3, 1)),
            },
        );
        told.insert(
            "g_BBBBBBBBBBBBBBBBBBBBBB".to_owned(),
            Seen {
                your_turn: false,
                reminded: false,
                finished: true,
                counts: Some((9, 0)),
            },
        );
        let id = id_of(&told);
        assert_eq!(told_of(&id).unwrap(), told);
        assert_eq!(told_of("p1.").unwrap(), Told::new());
        for bad in [
            "",
            "p2.",
            "12-3",
            "p1.g_AAAAAAAAAAAAAAAAAAAAAA~1~3",
            "p1.g_AAAAAAAAAAAAAAAAAAAAAA~9~3~1",
            "p1.g_AAAAAAAAAAAAAAAAAAAAAA~1~-3~1",
            "p1.nogame~1~3~1",
            "p1.g_AAAAAAAAAAAAAAAAAAAAAA~1~3~1,g_AAAAAAAAAAAAAAAAAAAAAA~1~3~1",
        ] {
            assert!(told_of(bad).is_err(), "{bad:?} parsed");
        }
    }
}
