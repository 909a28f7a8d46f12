//! `GET /v1/games/{id}/events` and `GET /v1/me/events`: Server-Sent Events, a snapshot and
//! then each change, every event redacted for its reader like every read.
//!
//! An event's id is a cursor, `<version>-<log length>`: resuming with it as `Last-Event-ID`
//! sends the log entries committed since and the game as it is now, so nothing is lost
//! between two connections. [`service::streams`] says how a deployment serves a stream (open,
//! or one batch per request behind API Gateway) and how many one client may hold.

use super::problems::{problems, NoSuchGame, RetiredRules};
use crate::error::{ApiError, Code, Error};
use crate::http::{Bearer, Params};
use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use service::auth::{identify, sha256_hex, Caller, Credential};
use service::clock::Clock;
use service::ctx::AppCtx;
use service::dto::{MyGame, MyGames};
use service::game::games::envelope;
use service::game::games::wait_for_version;
use service::game::load_record;
use service::history::log_items;
use service::me::{my_game, token_game};
use service::streams::{Full, Holder, Slot, StreamMode, HEARTBEAT, MAX_BATCH_WAIT};
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use store::{GameRecord, Status};
use tokio::sync::mpsc;
use tokio_stream::wrappers::ReceiverStream;
use tokio_stream::StreamExt;

/// How long an open stream waits for a change before it looks again whether its client is
/// still there (heartbeats go out meanwhile, from the response body).
pub(super) const OPEN_WAIT: Duration = Duration::from_secs(25);

/// The most log entries one read of the store returns while a batch is gathered.
const LOG_PAGE: usize = 200;

/// Events a stream may have written and its client not yet read.
pub(super) const BUFFERED_EVENTS: usize = 64;

/// The most log entries one batch carries: a reader far behind catches up in several
/// batches (each of them one response on AWS, well under Lambda's 6 MB).
const MAX_BATCH_ENTRIES: usize = 500;

/// How long a stream waits for its client to read before it gives up on it: a client that
/// stopped reading frees its place, and a stopping server is not held up by it.
const SEND_TIMEOUT: Duration = Duration::from_secs(20);

/// Where a reader of a stream is: the game's version and log length of the last `game` (or
/// `games`) event it got. Sent as each such event's id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Cursor {
    version: u64,
    log_len: u64,
}

impl Cursor {
    fn of(record: &GameRecord) -> Cursor {
        Cursor {
            version: record.version,
            log_len: record.log_len,
        }
    }

    fn id(self) -> String {
        format!("{}-{}", self.version, self.log_len)
    }

    /// The cursor a client sent back as `Last-Event-ID`, if it is one this stream could have
    /// sent: two decimal numbers, neither past the game as it is now, and for a `me` stream
    /// (`with_seen`) what the reader had been told of its seat: a third ([`Seen::bits`]), and
    /// since issue 54 a fourth and fifth (the seat's turns and reminders so far,
    /// [`Seen::counts`]; an id of three parts is still taken).
    fn parse(
        sent: &str,
        record: &GameRecord,
        with_seen: bool,
    ) -> Result<(Cursor, Option<Seen>), Error> {
        let bad = || {
            Error::refused(
                Code::InvalidLastEventId,
                "Last-Event-ID must be the id of an event this stream sent \
                 (`<version>-<log length>`); reconnect without it for a fresh snapshot",
            )
        };
        let number = |text: &str| {
            (!text.is_empty() && text.bytes().all(|byte| byte.is_ascii_digit()))
                .then(|| text.parse::<u64>().ok())
                .flatten()
                .ok_or_else(bad)
        };
        let parts: Vec<&str> = sent.split('-').collect();
        let count = |text: &str| number(text).and_then(|n| u32::try_from(n).map_err(|_| bad()));
        let (version, log_len, seen) = match (parts.as_slice(), with_seen) {
            ([version, log_len], _) => (version, log_len, None),
            ([version, log_len, bits], true) => {
                let seen = Seen::from_bits(number(bits)?, None).ok_or_else(bad)?;
                (version, log_len, Some(seen))
            }
            ([version, log_len, bits, turns, reminders], true) => {
                let counts = Some((count(turns)?, count(reminders)?));
                let seen = Seen::from_bits(number(bits)?, counts).ok_or_else(bad)?;
                (version, log_len, Some(seen))
            }
            _ => return Err(bad()),
        };
        let cursor = Cursor {
            version: number(version)?,
            log_len: number(log_len)?,
        };
        if cursor.version > record.version || cursor.log_len > record.log_len {
            return Err(bad());
        }
        Ok((cursor, seen))
    }
}

/// The `Last-Event-ID` header, if sent; 400 if it is not text.
pub(super) fn last_event_id(headers: &HeaderMap) -> Result<Option<&str>, Error> {
    headers
        .get("last-event-id")
        .map(|value| {
            value.to_str().map_err(|_| {
                Error::refused(
                    Code::InvalidLastEventId,
                    "Last-Event-ID must be visible ASCII",
                )
            })
        })
        .transpose()
}

/// A place for one more stream of `holder`, or 429 `too-many-streams`.
pub(super) fn open_slot(ctx: &AppCtx, holder: Holder) -> Result<Slot, Error> {
    ctx.streams.open(holder).map_err(|full| {
        let message = match full {
            Full::Holder(limit) => format!(
                "this token (or, without one, this game's spectators) already holds {limit} \
                 open streams; close one first"
            ),
            Full::Process => "the server holds as many streams as it serves; \
                              retry in a while, or long-poll meanwhile"
                .to_string(),
        };
        Error::refused(Code::TooManyStreams, message)
    })
}

problems! {
    /// How `game_events` refuses a request, beyond the shared refusals it lists.
    GameEventsRefused {
        400 => "A malformed header, or a `Last-Event-ID` this game's stream never sent (`invalid-last-event-id`)",
        401 => "The token is not valid for this game",
        429 => "The token, or without one the game's spectators, already holds as many streams as it may (`too-many-streams`)",
    }
}

/// Follow a game
///
/// A Server-Sent Events stream (`text/event-stream`) of the game as the caller may see it:
/// a seat's token shows that seat's view, no token or the admin token the spectator's.
///
/// Events:
/// - `game`: the game envelope, as `GET /v1/games/{id}` answers it. The first event is one
///   (the snapshot); each change sends one more. Its `id` is the position to resume from.
/// - `log`: one new log entry, as `GET /v1/games/{id}/log` lists it, sent before the `game`
///   event of the change that made it.
///
/// Resume after a dropped connection by sending the last `id` received as `Last-Event-ID`
/// (`EventSource` does this by itself): the stream sends the log entries since then and the
/// game as it is now, and nothing is lost. A comment line is sent every 15 seconds while
/// nothing happens. When the server stops, or where responses are buffered (AWS: each
/// response carries one batch, within 25 seconds), the stream ends with a `retry` hint and
/// the client reconnects with `Last-Event-ID`.
///
/// Browsers' `EventSource` cannot send a token: a seat's page reads the stream with
/// `fetch` (docs/api.md, "Streams").
#[utoipa::path(
    get,
    path = "/v1/games/{id}/events",
    tag = "games",
    params(
        ("id" = String, Path, description = "The game id"),
        ("Last-Event-ID" = Option<String>, Header, description = "Resume after this event (`<version>-<log length>`, the `id` of an event this stream sent)"),
    ),
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "An event stream: `game` and `log` events", content_type = "text/event-stream", body = String),
        GameEventsRefused,
        NoSuchGame,
        RetiredRules,
    )
)]
pub async fn game_events(
    State(ctx): State<Arc<AppCtx>>,
    Params(id): Params<String>,
    headers: HeaderMap,
    bearer: Bearer,
) -> Result<Response, ApiError> {
    let record = load_record(&ctx, &id).await?;
    identify(&record, bearer.who())?;
    let resume = last_event_id(&headers)?
        .map(|sent| Cursor::parse(sent, &record, false))
        .transpose()?
        .map(|(cursor, _)| cursor);
    let holder = match bearer.who() {
        Credential::Token(token) => Holder::Token(sha256_hex(token.as_bytes())),
        // An app key's streams count against the key.
        Credential::App(key) => Holder::Token(key.key.clone()),
        // A player's streams count against the player, whichever of their tokens opens them.
        Credential::Player(player) => service::players::stream_holder(player),
        Credential::Anonymous => Holder::Anonymous(record.id.clone()),
    };
    // The place first: a client at its limit costs no reading of the log.
    let slot = open_slot(&ctx, holder)?;
    // The first batch is gathered here, so that a game that cannot be shown (retired rules)
    // is refused with a problem rather than in the middle of a stream.
    let mut reader = Reader::Game {
        who: bearer.0.clone(),
    };
    let first = reader.batch(&ctx, &record, resume).await?;
    Ok(stream(slot, ctx.clone(), record, first, reader))
}

/// `GET /v1/me/events` with a seat's or the admin's token: that token's game
/// ([`super::me_events::my_events`] is the route).
pub(super) async fn token_events(
    ctx: Arc<AppCtx>,
    headers: &HeaderMap,
    bearer: &Bearer,
) -> Result<Response, ApiError> {
    let (record, _) = token_game(&ctx, bearer.token()).await?;
    let (resume, seen) = match last_event_id(headers)? {
        Some(sent) => {
            let (cursor, seen) = Cursor::parse(sent, &record, true)?;
            (Some(cursor), seen)
        }
        None => (None, None),
    };
    let token = bearer.token().unwrap_or_default().to_owned();
    let slot = open_slot(&ctx, Holder::Token(sha256_hex(token.as_bytes())))?;
    let mut reader = Reader::Me { token, seen };
    let first = reader.batch(&ctx, &record, resume).await?;
    Ok(stream(slot, ctx.clone(), record, first, reader))
}

/// What a `me` stream's reader last knew of its seat, to tell `turn`, `reminder` and
/// `finished` from the change that caused them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Seen {
    pub(super) your_turn: bool,
    pub(super) reminded: bool,
    pub(super) finished: bool,
    /// The seat's turns and reminders so far ([`store::SeatRecord::turns`],
    /// `SeatClock::reminders`): a reader told of `n` is told of each one after; `None` from an
    /// id sent before they were counted (the flags above then decide, once each).
    pub(super) counts: Option<(u32, u32)>,
}

impl Seen {
    /// As the third part of a `games` event's id, so that a resumed stream (and every request
    /// on AWS) still tells `turn`, `reminder` and `finished` once each.
    pub(super) fn bits(self) -> u64 {
        u64::from(self.your_turn) | u64::from(self.reminded) << 1 | u64::from(self.finished) << 2
    }

    pub(super) fn from_bits(bits: u64, counts: Option<(u32, u32)>) -> Option<Seen> {
        (bits < 8).then_some(Seen {
            your_turn: bits & 1 != 0,
            reminded: bits & 2 != 0,
            finished: bits & 4 != 0,
            counts,
        })
    }

    /// How many `turn` and `reminder` notices tell a reader who was told `before` of `self`.
    pub(super) fn notices_since(self, before: Seen) -> (u32, u32) {
        match (self.counts, before.counts) {
            (Some((turns, reminders)), Some((told_turns, told_reminders))) => (
                turns.saturating_sub(told_turns),
                reminders.saturating_sub(told_reminders),
            ),
            _ => (
                u32::from(self.your_turn && !before.your_turn),
                u32::from(self.reminded && !before.reminded),
            ),
        }
    }
}

/// A batch of events and the position its reader is at once it has them.
type Batch = (Vec<Event>, Cursor);

/// Who reads a stream, and what it has been told.
enum Reader {
    /// `GET /v1/games/{id}/events`, with the caller's token (none: a spectator).
    Game { who: Credential },
    /// `GET /v1/me/events`, with the caller's token and what the last batch told it.
    Me { token: String, seen: Option<Seen> },
}

impl Reader {
    /// The events that bring this reader, last told `from` (`None`: a new reader), toward
    /// `record` (all the way, unless it is more than [`MAX_BATCH_ENTRIES`] log entries
    /// behind), and where it is then; no events if it has this version. `None` when the
    /// token no longer opens the game (its seat was given to someone else): the stream ends.
    async fn batch(
        &mut self,
        ctx: &AppCtx,
        record: &GameRecord,
        from: Option<Cursor>,
    ) -> Result<Option<Batch>, Error> {
        match (self, from) {
            (Reader::Game { .. }, Some(from)) if from.version == record.version => {
                Ok(Some((Vec::new(), from)))
            }
            (Reader::Game { who }, _) => game_batch(ctx, record, who, from).await,
            // What the reader was told is learnt even when nothing is sent, so that the
            // next change's `turn` or `finished` is told.
            (Reader::Me { token, seen }, from) => {
                let told = from.filter(|from| from.version == record.version);
                Ok(my_batch(ctx, record, token, seen)?.map(|batch| match told {
                    Some(from) => (Vec::new(), from),
                    None => batch,
                }))
            }
        }
    }
}

/// The events that bring a game stream's reader at `from` up to `record`: the log entries
/// it has not had, then the game. At most [`MAX_BATCH_ENTRIES`] entries: a reader further
/// behind gets them without the game, the last entry carrying the id to resume from.
async fn game_batch(
    ctx: &AppCtx,
    record: &GameRecord,
    who: &Credential,
    from: Option<Cursor>,
) -> Result<Option<Batch>, Error> {
    let Ok(caller) = identify(record, who) else {
        return Ok(None);
    };
    // A player token is checked again at every batch, as a seat token is against the record:
    // a revoked one ends the stream.
    if let Credential::Player(player) = who {
        if !service::players::still_live(ctx.store.as_ref(), player).await? {
            return Ok(None);
        }
    }
    let mut events = Vec::new();
    if let Some(from) = from {
        let mut after = from.log_len.checked_sub(1);
        while after.map_or(0, |after| after + 1) < record.log_len {
            let room = MAX_BATCH_ENTRIES - events.len();
            let entries = ctx.store.log(&record.id, after, LOG_PAGE.min(room)).await?;
            // Entries past the record's length were committed after it was read: the next
            // batch sends them with the game they belong to.
            let entries: Vec<_> = entries
                .into_iter()
                .filter(|entry| entry.seq < record.log_len)
                .collect();
            let Some(last) = entries.last() else { break };
            after = Some(last.seq);
            for item in log_items(ctx, record, &entries, caller.viewer()) {
                events.push(json_event(StreamEvent::Log, &item)?);
            }
            let reached = after.map_or(0, |after| after + 1);
            if events.len() >= MAX_BATCH_ENTRIES && reached < record.log_len {
                let partway = Cursor {
                    version: from.version,
                    log_len: reached,
                };
                if let Some(last) = events.pop() {
                    events.push(last.id(partway.id()));
                }
                return Ok(Some((events, partway)));
            }
        }
    }
    let game = envelope(ctx, record, caller)?;
    events.push(json_event(StreamEvent::Game, &game)?.id(Cursor::of(record).id()));
    Ok(Some((events, Cursor::of(record))))
}

/// The events of a `me` stream for `record`: `turn`, `reminder` and `finished` for what
/// changed since `seen` (nothing on a snapshot), then `games`; `seen` becomes now.
fn my_batch(
    ctx: &AppCtx,
    record: &GameRecord,
    token: &str,
    seen: &mut Option<Seen>,
) -> Result<Option<Batch>, Error> {
    let seat = match identify(record, &Credential::Token(token.to_owned())) {
        Ok(Caller::Seat(seat)) => Some(seat),
        Ok(Caller::Admin) => None,
        Ok(Caller::Anonymous | Caller::App(_)) | Err(_) => return Ok(None),
    };
    let game = my_game(ctx, record, seat)?;
    let now = seen_of(record, seat, &game)?;
    let mut events = Vec::new();
    if let Some(before) = seen.replace(now) {
        notices(&mut events, &game, now, before)?;
    }
    let (turns, reminders) = now.counts.unwrap_or_default();
    let id = format!(
        "{}-{}-{turns}-{reminders}",
        Cursor::of(record).id(),
        now.bits()
    );
    events.push(
        json_event(
            StreamEvent::Games,
            &MyGames {
                games: vec![game],
                next_after: None,
            },
        )?
        .id(id),
    );
    Ok(Some((events, Cursor::of(record))))
}

/// What a `me` stream tells of `record` now, for the holder of `seat` (`game` is its entry).
pub(super) fn seen_of(record: &GameRecord, seat: Option<u8>, game: &MyGame) -> Result<Seen, Error> {
    let seat_clock = match (seat, Clock::of(record)?) {
        (Some(seat), Some(clock)) => clock.seats.get(usize::from(seat)).cloned(),
        _ => None,
    };
    let turns = seat
        .and_then(|seat| record.seats.get(usize::from(seat)))
        .map_or(0, |seat| seat.turns);
    Ok(Seen {
        your_turn: game.your_turn,
        reminded: seat_clock.as_ref().is_some_and(|clock| clock.reminded),
        finished: record.status == Status::Finished,
        counts: Some((
            turns,
            seat_clock.as_ref().map_or(0, |clock| clock.reminders),
        )),
    })
}

/// The `turn`, `reminder` and `finished` notices for a reader told `before` of a game that
/// is `now` (each with the game as it is now: a reader behind by several turns is told each
/// one).
pub(super) fn notices(
    events: &mut Vec<Event>,
    game: &MyGame,
    now: Seen,
    before: Seen,
) -> Result<(), Error> {
    let (turns, reminders) = now.notices_since(before);
    for _ in 0..turns {
        events.push(json_event(StreamEvent::Turn, game)?);
    }
    for _ in 0..reminders {
        events.push(json_event(StreamEvent::Reminder, game)?);
    }
    if now.finished && !before.finished {
        events.push(json_event(StreamEvent::Finished, game)?);
    }
    Ok(())
}

/// The names of the events the streams send. The routes' documentation and docs/api.md name
/// them (a test holds both to this enum).
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum StreamEvent {
    /// A game stream: the game as the reader may see it, at a version.
    Game,
    /// A game stream: a log entry as the reader may read it.
    Log,
    /// A `me` stream: the reader's games.
    Games,
    /// A `me` stream: a game now waits on the reader's seat.
    Turn,
    /// A `me` stream: the seat's move clock is running out.
    Reminder,
    /// A `me` stream: a game of the reader's is over.
    Finished,
}

impl StreamEvent {
    /// The events of `GET /v1/games/{id}/events`.
    pub const GAME_STREAM: [StreamEvent; 2] = [StreamEvent::Game, StreamEvent::Log];
    /// The events of `GET /v1/me/events`.
    pub const MY_STREAM: [StreamEvent; 4] = [
        StreamEvent::Games,
        StreamEvent::Turn,
        StreamEvent::Reminder,
        StreamEvent::Finished,
    ];

    /// The event's name on the wire.
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// `value` as the data of an event `name`.
pub(super) fn json_event(name: StreamEvent, value: &impl serde::Serialize) -> Result<Event, Error> {
    Event::default()
        .event(name.as_str())
        .json_data(value)
        .map_err(|error| Error::Internal(format!("an event did not serialize: {error}")))
}

/// The response of a stream: `first`, then what `reader` makes of each newer version of the
/// game, until the client goes away or stops reading, the token no longer opens the game,
/// the server stops or (one-batch mode) one batch has been sent. `slot` is held until the
/// body is dropped.
fn stream(
    slot: Slot,
    ctx: Arc<AppCtx>,
    record: GameRecord,
    first: Option<Batch>,
    mut reader: Reader,
) -> Response {
    let (sender, receiver) = mpsc::channel::<Event>(BUFFERED_EVENTS);
    let mode = ctx.streams.mode;
    tokio::spawn(async move {
        let ended = follow(&ctx, record, first, &mut reader, &sender).await;
        if let Err(error) = ended {
            tracing::warn!(%error, "a stream ended early");
        }
        // Whatever ended it, tell the client when to come back.
        let retry = Event::default().retry(mode.retry());
        let _ = tokio::time::timeout(Duration::from_secs(1), sender.send(retry)).await;
    });
    sse_response(slot, mode, receiver)
}

/// The response of a stream whose events come from `receiver`, holding its `slot` for as
/// long as the client reads: heartbeats on an open stream, and no proxy buffering.
pub(super) fn sse_response(
    slot: Slot,
    mode: StreamMode,
    receiver: mpsc::Receiver<Event>,
) -> Response {
    let body = ReceiverStream::new(receiver).map(move |event| {
        // The slot lives as long as the body: a client that goes away frees it.
        let _held = &slot;
        Ok::<_, Infallible>(event)
    });
    let sse = Sse::new(body);
    let mut response = match mode {
        StreamMode::Open => sse
            .keep_alive(KeepAlive::new().interval(HEARTBEAT).text("heartbeat"))
            .into_response(),
        StreamMode::OneBatch => sse.into_response(),
    };
    // Proxies such as nginx would otherwise hold the events back.
    response.headers_mut().insert(
        "x-accel-buffering",
        axum::http::HeaderValue::from_static("no"),
    );
    response
}

/// Hands `events` to the client; `false` once it has gone, has not read for
/// [`SEND_TIMEOUT`], or the server is stopping.
pub(super) async fn deliver(
    ctx: &AppCtx,
    sender: &mpsc::Sender<Event>,
    events: Vec<Event>,
) -> bool {
    let mut stopping = ctx.stopping.subscribe();
    for event in events {
        let sent = tokio::select! {
            sent = tokio::time::timeout(SEND_TIMEOUT, sender.send(event)) => matches!(sent, Ok(Ok(()))),
            _ = stopping.changed() => false,
        };
        if !sent {
            return false;
        }
    }
    true
}

/// The stream's loop: send `first`, then a batch for each newer version.
async fn follow(
    ctx: &AppCtx,
    mut record: GameRecord,
    first: Option<Batch>,
    reader: &mut Reader,
    sender: &mpsc::Sender<Event>,
) -> Result<(), Error> {
    let Some((first, mut sent)) = first else {
        return Ok(());
    };
    let mut batches = 0usize;
    if !first.is_empty() {
        batches += 1;
        if !deliver(ctx, sender, first).await {
            return Ok(());
        }
    }
    loop {
        let one_batch = ctx.streams.mode == StreamMode::OneBatch;
        if *ctx.stopping.borrow() || (one_batch && batches > 0) {
            return Ok(());
        }
        let wait = if one_batch { MAX_BATCH_WAIT } else { OPEN_WAIT };
        record = tokio::select! {
            record = wait_for_version(ctx, record, sent.version, wait) => record?,
            () = sender.closed() => return Ok(()),
        };
        if record.version <= sent.version {
            if one_batch {
                return Ok(());
            }
            continue;
        }
        let Some((events, reached)) = reader.batch(ctx, &record, Some(sent)).await? else {
            return Ok(());
        };
        sent = reached;
        batches += 1;
        if !deliver(ctx, sender, events).await {
            return Ok(());
        }
    }
}
