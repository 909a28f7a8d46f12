//! Server-side players: seats claimed for a bot, and seats whose player resigned.
//!
//! A bot decides from its [`BotInput`] alone: the seat's view and legal actions, exactly what
//! `GET /v1/games/{id}` and `GET …/legal-actions` show that seat's player, never the engine
//! state. Its move then goes through the same commit path as a player's (the rules check it,
//! it is logged, it notifies), so a refused sample costs it nothing but another try.
//!
//! Who plays the bots: every request that commits a change (a claim, a move, a resignation)
//! calls [`drive`] before it answers, which plays the bots the game waits on until it waits
//! on a player again or is over. The same code runs in `beurs serve` and in the Lambda
//! functions, with no worker to schedule (docs/decisions.md 27).

use crate::auth::random_bytes;
use crate::dto::{BotKind, SubmitAction};
use crate::error::ApiError;
use crate::http::IfMatch;
use crate::routes::{actions, engine_of, load_record, update, Guard, Updated};
use crate::AppCtx;
use game_core::{GameRng, Seat, SeatSet, Viewer};
use serde_json::Value;
use std::sync::Arc;
use store::{GameRecord, Status};

/// The most times a bot samples a move before it takes a complete listed action instead.
const SAMPLES: u32 = 20;

/// The most bot moves one request plays: more than any of the five games takes from the deal
/// to the end with every seat a bot (random Tulpenfieber games run to about 4,000 moves), and
/// a bound if a bot ever kept moving without ending its turn.
pub const MAX_MOVES_PER_DRIVE: u32 = 10_000;

/// Everything a bot may know when it moves: its seat's view and legal actions, as that
/// seat's player reads them.
#[derive(Clone, Debug, PartialEq)]
pub struct BotInput {
    /// The seat the bot plays.
    pub seat: Seat,
    /// The seat's view (`GET /v1/games/{id}` with the seat's token gives the same).
    pub view: Value,
    /// The seat's legal actions (`GET …/legal-actions` gives the same entries).
    pub legal: Vec<Value>,
}

impl BotInput {
    /// What `seat` of `engine`'s game may see and do: the only way a bot's input is made.
    pub fn of(engine: &dyn game_core::DynGame, seat: Seat) -> BotInput {
        BotInput {
            seat,
            view: engine.view_json(Viewer::Seat(seat)),
            legal: engine.legal_actions(seat),
        }
    }
}

impl BotKind {
    /// The bot's next move, or `None` when it has none to offer. `attempt` counts the moves
    /// of this turn the rules refused so far.
    pub fn choose(self, input: &BotInput, attempt: u32, rng: &mut GameRng) -> Option<Value> {
        match self {
            BotKind::Random if attempt < SAMPLES => {
                game_core::sample::random_action(&input.legal, rng)
            }
            // Every sample was refused (a constraint no schema states): any complete action.
            BotKind::Random => input
                .legal
                .iter()
                .find_map(|entry| entry.get("action").cloned()),
        }
    }
}

/// Whether a bot plays any seat of the game (only then is there anything to [`drive`]).
pub fn has_bots(record: &GameRecord) -> bool {
    record.seats.iter().any(|seat| seat.bot.is_some())
}

/// The bot seat the game waits on first, with its bot.
fn bot_to_move(record: &GameRecord, waiting: SeatSet) -> Option<(Seat, BotKind)> {
    waiting.iter().find_map(|seat| {
        let bot = record.seats.get(usize::from(seat.0))?.bot.as_deref()?;
        Some((seat, BotKind::from_stored(bot)))
    })
}

/// Plays the bots game `id` waits on, one committed move at a time, until it waits on a
/// player, is over, or [`MAX_MOVES_PER_DRIVE`] moves were played. Returns how many were.
///
/// Each move is conditioned on the version the bot decided at: if anything else landed
/// first (a player's move, another request driving the same bots), the bot looks again.
pub async fn drive(ctx: &AppCtx, id: &str) -> Result<u32, ApiError> {
    let mut rng = GameRng::for_entry(random_bytes::<32>()?, 0);
    let mut played = 0;
    // Each round loads the game once; a round that commits nothing (a lost race) still counts,
    // so the loop ends whatever happens.
    for _round in 0..MAX_MOVES_PER_DRIVE * 2 {
        if played == MAX_MOVES_PER_DRIVE {
            break;
        }
        let record = load_record(ctx, id).await?;
        if record.status != Status::Active {
            break;
        }
        let Some(engine) = engine_of(ctx, &record)? else {
            break;
        };
        let Some((seat, bot)) = bot_to_move(&record, engine.waiting_on()) else {
            break;
        };
        let input = BotInput::of(engine.as_ref(), seat);
        if play_one(ctx, &record, bot, &input, &mut rng).await? {
            played += 1;
        }
    }
    Ok(played)
}

/// One bot move at `record`'s version: `true` once one is committed, `false` if the game
/// moved on first.
async fn play_one(
    ctx: &AppCtx,
    record: &GameRecord,
    bot: BotKind,
    input: &BotInput,
    rng: &mut GameRng,
) -> Result<bool, ApiError> {
    let guard = Guard {
        if_match: IfMatch::Tags(vec![(false, record.version.to_string())]),
        replay: None,
    };
    for attempt in 0..=SAMPLES {
        let Some(action) = bot.choose(input, attempt, rng) else {
            break;
        };
        let body = SubmitAction { action };
        let outcome = update(ctx, record.clone(), &guard, |record| {
            actions::apply(ctx, record, input.seat.0, &body, None)
        })
        .await;
        match outcome {
            Ok(Updated::Committed {
                value: (_, engine),
                version,
            }) => {
                ctx.states.insert(&record.id, version, Arc::from(engine));
                return Ok(true);
            }
            Ok(Updated::Replayed(_)) => {
                return Err(ApiError::Internal(
                    "a bot move has no idempotency key".into(),
                ))
            }
            // A sample the rules refuse: try another.
            Err(ApiError::Unprocessable { .. }) => continue,
            // The game moved on (or the seat no longer acts): look again.
            Err(ApiError::StaleVersion { .. } | ApiError::Conflict { .. }) => return Ok(false),
            Err(error) => return Err(error),
        }
    }
    Err(ApiError::Internal(format!(
        "the {} bot of seat {} in game {} found no move the rules accept",
        bot.as_str(),
        input.seat.0,
        record.id
    )))
}

/// [`drive`] for a handler that has already committed its own change: a bot that cannot move
/// is logged, not answered, because the caller's change stands.
pub async fn drive_after_commit(ctx: &AppCtx, id: &str) {
    if let Err(error) = drive(ctx, id).await {
        tracing::error!(game = id, %error, "bots could not move");
    }
}
