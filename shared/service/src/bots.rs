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

pub use crate::allowance::{Allowance, DRIVE_BUDGET, STRONG_MOVE_TIME};
use crate::ctx::AppCtx;
use crate::dto::{Author, BotKind, SubmitAction};
use crate::error::Error;
use crate::game::{self, engine_of, load_record, update, Change, Guard, Moved, Updated};
use game_core::search::{Budget, Choice};
use game_core::{DynGame, GameRng, Seat, SeatSet, Viewer};
use serde_json::Value;
use std::sync::Arc;
use store::{GameRecord, Status};

/// The most times a bot samples a move before it takes a complete listed action instead.
pub const SAMPLES: u32 = 20;

/// The most bot moves one request plays: more than any of the five games takes from the deal
/// to the end with every seat a bot (random Tulpenfieber games run to about 4,000 moves), and
/// a bound if a bot ever kept moving without ending its turn.
pub const MAX_MOVES_PER_DRIVE: u32 = 10_000;

/// Everything a bot may know when it moves: its seat's view and legal actions, as that
/// seat's player reads them, and what a searching bot concluded from worlds drawn for that
/// seat (`DynGame::search_move`, which re-deals everything the seat cannot see).
#[derive(Clone, Debug, PartialEq)]
pub struct BotInput {
    /// The seat the bot plays.
    pub seat: Seat,
    /// The seat's view (`GET /v1/games/{id}` with the seat's token gives the same).
    pub view: Value,
    /// The seat's legal actions (`GET …/legal-actions` gives the same entries).
    pub legal: Vec<Value>,
    /// A searching bot's chosen move, tried first.
    pub proposal: Option<Value>,
    /// Whether a searching bot chose to let another waiting seat move first.
    pub waits: bool,
    /// Sensible random moves (`DynGame::sensible_moves`, drawn in a world re-dealt for the
    /// seat): the `random` bot's moves, and what any bot tries after its proposal while the
    /// rules refuse what it tried.
    pub samples: Vec<Value>,
}

impl BotInput {
    /// What `seat` of `engine`'s game may see and do, with no proposal (the `random` bot's
    /// whole input).
    pub fn of(engine: &dyn DynGame, seat: Seat) -> BotInput {
        BotInput {
            seat,
            view: engine.view_json(Viewer::Seat(seat)),
            legal: engine.legal_actions(seat),
            proposal: None,
            waits: false,
            samples: Vec::new(),
        }
    }

    /// Draws [`SAMPLES`] sensible random moves for the seat ([`BotInput::samples`]).
    pub fn sample(&mut self, engine: &dyn DynGame, rng: &mut GameRng) {
        self.samples = engine.sensible_moves(self.seat, SAMPLES, rng);
    }

    /// [`BotInput::of`] with what `bot` thought (see [`BotKind::think`]), searched on a
    /// blocking thread so the search does not hold up the server's other requests.
    pub async fn prepared(
        engine: Arc<dyn DynGame>,
        seat: Seat,
        bot: BotKind,
        may_wait: bool,
        allowance: Allowance,
        mut rng: GameRng,
    ) -> Result<BotInput, Error> {
        if bot == BotKind::Random {
            let mut input = BotInput::of(engine.as_ref(), seat);
            input.think(bot, engine.as_ref(), may_wait, allowance, &mut rng);
            return Ok(input);
        }
        tokio::task::spawn_blocking(move || {
            let mut input = BotInput::of(engine.as_ref(), seat);
            input.think(bot, engine.as_ref(), may_wait, allowance, &mut rng);
            input
        })
        .await
        .map_err(|error| Error::Internal(format!("a bot's search failed: {error}")))
    }

    /// Lets a searching `bot` think about `engine`'s game for its seat and keeps what it
    /// concluded: a proposal, or to wait (only if `may_wait`: another seat the game waits on
    /// could move first). It searches worlds re-dealt for the seat, never `engine`'s state.
    /// `strong` searches within `allowance`. The `random` bot does not search; every bot
    /// draws its [`BotInput::samples`] here.
    pub fn think(
        &mut self,
        bot: BotKind,
        engine: &dyn DynGame,
        may_wait: bool,
        allowance: Allowance,
        rng: &mut GameRng,
    ) -> Option<Choice<Value>> {
        self.sample(engine, rng);
        let choice = match bot {
            BotKind::Random => None,
            BotKind::Basic => {
                engine.search_move(self.seat, &Budget::BASIC, may_wait, &mut || 0.0, rng)
            }
            BotKind::Strong => engine.search_move(
                self.seat,
                &Budget::STRONG,
                may_wait,
                &mut allowance.clock(),
                rng,
            ),
        };
        if let Some(choice) = &choice {
            self.waits = choice.action.is_none();
            self.proposal = choice.action.clone();
        }
        choice
    }
}

/// The most moves in a row one seat's searching bot plans; past it, the bot samples like the
/// `random` bot until another seat moves. Longer than any ordinary turn, it stops a bot going
/// round in circles where the rules let a seat act for ever: in a Black Thursday negotiation
/// it could switch its acceptance between two offers, each switch a legal move.
pub const STREAK_LIMIT: u32 = 24;

/// Who moved last and how many times in a row (see [`STREAK_LIMIT`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct Streak {
    seat: Option<Seat>,
    moves: u32,
}

impl Streak {
    /// Records a move by `seat`.
    pub fn moved(&mut self, seat: Seat) {
        if self.seat == Some(seat) {
            self.moves += 1;
        } else {
            *self = Streak {
                seat: Some(seat),
                moves: 1,
            };
        }
    }

    /// Drops `input`'s proposal and its wish to wait once its seat's streak is too long.
    pub fn curb(&self, input: &mut BotInput) {
        if self.seat == Some(input.seat) && self.moves >= STREAK_LIMIT {
            input.proposal = None;
            input.waits = false;
        }
    }
}

impl BotInput {
    /// The bot's move to try after `attempt` moves of this turn were refused: its proposal,
    /// then its sensible samples, then a sample of its legal list (as a person would pick it:
    /// [`game_core::sample::Spread::Sensible`]), and once [`SAMPLES`] were refused, a
    /// complete listed action. `None` when it has nothing to offer.
    pub fn attempt(&self, attempt: u32, rng: &mut GameRng) -> Option<Value> {
        self.attempt_drawing(attempt, game_core::sample::Spread::Sensible, rng)
    }

    /// [`BotInput::attempt`] with the numbers of its samples of the legal list drawn as
    /// `spread` says (before issue 33 the `random` bot drew them uniformly).
    pub fn attempt_drawing(
        &self,
        attempt: u32,
        spread: game_core::sample::Spread,
        rng: &mut GameRng,
    ) -> Option<Value> {
        let tried = self.proposal.iter().chain(&self.samples);
        if let Some(action) = tried.clone().nth(attempt as usize) {
            return Some(action.clone());
        }
        if attempt < SAMPLES {
            if self.legal.is_empty() {
                return None;
            }
            let sampled = game_core::sample::random_action_spread(&self.legal, spread, rng);
            if sampled.is_some() {
                return sampled;
            }
        }
        // Every try was refused (a constraint no schema states): any complete action.
        self.legal
            .iter()
            .find_map(|entry| entry.get("action").cloned())
    }
}

/// Hands `seat` of `next` to `bot` for the rest of the game: its player resigned (and chose
/// the bot, `random` unless named), or its clock dropped it (`random`).
pub fn hand_over(next: &mut GameRecord, seat: u8, bot: BotKind) {
    if let Some(seat_record) = next.seats.get_mut(usize::from(seat)) {
        seat_record.resigned = true;
        seat_record.bot = Some(bot.as_str().to_string());
    }
}

/// Whether a bot plays any seat of the game (only then is there anything to [`drive`]).
pub fn has_bots(record: &GameRecord) -> bool {
    record.seats.iter().any(|seat| seat.bot.is_some())
}

/// The seats of `waiting` that bots play, with their bots, and the rest (players).
pub(crate) fn split_waiting(
    record: &GameRecord,
    waiting: SeatSet,
) -> (Vec<(Seat, BotKind)>, SeatSet) {
    let mut bots = Vec::new();
    let mut players = SeatSet::EMPTY;
    for seat in waiting.iter() {
        match record
            .seats
            .get(usize::from(seat.0))
            .and_then(|s| s.bot.as_deref())
        {
            Some(bot) => bots.push((seat, BotKind::from_stored(bot))),
            None => players.insert(seat),
        }
    }
    (bots, players)
}

/// Plays the bots game `id` waits on, one committed move at a time, until it waits on
/// players alone, is over, or [`MAX_MOVES_PER_DRIVE`] moves or the context's drive budget
/// ([`DRIVE_BUDGET`] by default) were spent.
/// Returns how many were played.
///
/// Each move is conditioned on the version the bot decided at: if anything else landed
/// first (a player's move, another request driving the same bots), the bot looks again.
///
/// Every bot the game waits on moves, whether players are waited on beside it or not (a
/// sealed choice, an answer to an offer): no table waits on a bot once the request that made
/// it due has returned. Where several bots are waited on at once, a searching bot may choose
/// to let another of them move first; the last one must move.
pub async fn drive(ctx: &AppCtx, id: &str) -> Result<u32, Error> {
    let mut played = 0;
    let started = std::time::Instant::now();
    // Bots that chose to wait since the last move.
    let mut declined = SeatSet::EMPTY;
    let mut streak = Streak::default();
    // Each round loads the game once; a round that commits nothing (a lost race) still counts,
    // so the loop ends whatever happens.
    for _round in 0..MAX_MOVES_PER_DRIVE * 2 {
        if played == MAX_MOVES_PER_DRIVE || started.elapsed() >= ctx.drive_budget {
            break;
        }
        let record = load_record(ctx, id).await?;
        if record.status != Status::Active {
            break;
        }
        let Some(engine) = engine_of(ctx, &record)? else {
            break;
        };
        let (bots, _players) = split_waiting(&record, engine.waiting_on());
        let Some(&(seat, bot)) = bots.iter().find(|(seat, _)| !declined.contains(*seat)) else {
            break;
        };
        let may_wait = bots
            .iter()
            .any(|&(other, _)| other != seat && !declined.contains(other));
        let mut input = BotInput::prepared(
            engine,
            seat,
            bot,
            may_wait,
            ctx.strong_allowance,
            ctx.dice.rng()?,
        )
        .await?;
        streak.curb(&mut input);
        if input.waits {
            declined.insert(seat);
            continue;
        }
        // The dice of this move alone: a drive that plays nothing draws nothing, so a test's
        // seeded dice stay in step with its own requests whatever the workers sweep.
        if play_one(
            ctx,
            &record,
            bot,
            &input,
            &mut ctx.dice.rng()?,
            Author::Bot,
            &|_| Ok(()),
        )
        .await?
        {
            played += 1;
            streak.moved(seat);
            declined = SeatSet::EMPTY;
        }
    }
    Ok(played)
}

/// What a caller adds to a bot move's commit (the clock's timeout bookkeeping and webhooks).
pub(crate) type Decorate<'a> = &'a (dyn Fn(&mut Change<Moved>) -> Result<(), Error> + Sync);

/// One bot move at `record`'s version, logged as chosen `by` the bot or the clock, with
/// `decorate` applied to its commit: `true` once one is committed, `false` if the game moved
/// on first.
pub(crate) async fn play_one(
    ctx: &AppCtx,
    record: &GameRecord,
    bot: BotKind,
    input: &BotInput,
    rng: &mut GameRng,
    by: Author,
    decorate: Decorate<'_>,
) -> Result<bool, Error> {
    let guard = Guard::at(record.version);
    let tries = SAMPLES + u32::from(input.proposal.is_some());
    for attempt in 0..=tries {
        let Some(action) = input.attempt(attempt, rng) else {
            break;
        };
        let body = SubmitAction { action };
        let outcome = update(ctx, record.clone(), &guard, |record| {
            let mut change = game::apply(ctx, record, input.seat.0, &body, None, Some(by))?;
            decorate(&mut change)?;
            Ok(change)
        })
        .await;
        match outcome {
            Ok(Updated::Committed {
                value: game::Moved { engine, .. },
                version,
                ..
            }) => {
                ctx.states.insert(&record.id, version, Arc::from(engine));
                return Ok(true);
            }
            Ok(Updated::Replayed(_)) => {
                return Err(Error::Internal("a bot move has no idempotency key".into()))
            }
            // A sample the rules refuse: try another.
            Err(error) if error.refused_by_rules() => continue,
            // The game moved on (or the seat no longer acts): look again.
            Err(error) if error.moved_on() => return Ok(false),
            Err(error) => return Err(error),
        }
    }
    Err(Error::Internal(format!(
        "the {} bot of seat {} in game {} found no move the rules accept",
        bot.as_str(),
        input.seat.0,
        record.id
    )))
}

/// [`drive`] for a handler that has already committed its own change: a bot that cannot move
/// is not answered, because the caller's change stands. What went wrong is returned for the
/// log: the handler passes it to the reply's `detail` (in the api crate), so it is logged on the
/// request's line with its request id.
pub async fn drive_after_commit(ctx: &AppCtx, id: &str) -> Option<String> {
    drive(ctx, id)
        .await
        .err()
        .map(|error| format!("bots of game {id} could not move: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use game_core::testing::{game_seed, random_move, Redeal};
    use game_core::{DynGame, Game};

    /// The no-leak property applied to what a bot decides from: re-dealing everything a seat
    /// cannot see (the other hands, the decks) leaves that seat's bot input unchanged, at
    /// every step of random games, so no bot can play on hidden information.
    /// `hidden`: whether the game hides anything at all (Tulpenfieber does not), so that a
    /// re-deal that never changes anything is caught as a test that proves nothing.
    fn bot_inputs_hide_what_the_seat_cannot_see<G: Game + Redeal>(n_seats: u8, hidden: bool) {
        let mut redealt = 0;
        for game in 0..2 {
            let seed = game_seed(17, game);
            let (mut state, _) = G::setup(
                n_seats,
                &G::Options::default(),
                &mut GameRng::for_entry(seed, 0),
            )
            .expect("deals");
            let mut shuffler = GameRng::for_entry(seed, 1 << 40);
            for step in 1..=150u64 {
                for seat in Seat::all(n_seats) {
                    let twin = state.redeal(Viewer::Seat(seat), &mut shuffler);
                    if twin != state {
                        redealt += 1;
                    }
                    assert_eq!(
                        BotInput::of(&state as &dyn DynGame, seat),
                        BotInput::of(&twin as &dyn DynGame, seat),
                        "{}: seat {seat:?}'s bot input depends on what it cannot see (step {step})",
                        G::RULESET
                    );
                }
                let Some((seat, action)) = random_move(&state, &mut shuffler) else {
                    break;
                };
                state
                    .apply(seat, action, &mut GameRng::for_entry(seed, step))
                    .expect("a random legal move applies");
            }
        }
        assert_eq!(
            redealt > 0,
            hidden,
            "{}: re-deals changed {redealt} states",
            G::RULESET
        );
    }

    #[test]
    fn bot_inputs_of_every_ruleset_hide_what_their_seat_cannot_see() {
        bot_inputs_hide_what_the_seat_cannot_see::<game_tulipmania::Tulipmania>(4, true);
        bot_inputs_hide_what_the_seat_cannot_see::<game_tulip_bubble::TulipBubble>(4, true);
        bot_inputs_hide_what_the_seat_cannot_see::<game_tulip_traders::TulipTraders>(4, true);
        bot_inputs_hide_what_the_seat_cannot_see::<game_tulpenfieber::Tulpenfieber>(4, false);
        bot_inputs_hide_what_the_seat_cannot_see::<game_black_thursday::BlackThursday>(4, true);
    }

    #[test]
    fn a_streak_past_the_limit_drops_the_proposal_until_another_seat_moves() {
        let mut input = BotInput {
            seat: Seat(1),
            view: Value::Null,
            legal: vec![],
            proposal: Some(serde_json::json!({"type": "pass"})),
            waits: false,
            samples: Vec::new(),
        };
        let mut streak = Streak::default();
        for _ in 0..STREAK_LIMIT - 1 {
            streak.moved(Seat(1));
        }
        streak.curb(&mut input);
        assert!(
            input.proposal.is_some(),
            "under the limit the proposal stands"
        );
        streak.moved(Seat(1));
        let mut other = input.clone();
        other.seat = Seat(2);
        streak.curb(&mut other);
        assert!(other.proposal.is_some(), "another seat is not curbed");
        input.waits = true;
        streak.curb(&mut input);
        assert_eq!((input.proposal.clone(), input.waits), (None, false));
        streak.moved(Seat(2));
        streak.moved(Seat(1));
        let mut fresh = other.clone();
        fresh.seat = Seat(1);
        streak.curb(&mut fresh);
        assert!(
            fresh.proposal.is_some(),
            "another seat's move resets the streak"
        );
    }

    /// Every ruleset's declared action tags (`Game::ACTIONS`, which the wrong-ruleset check
    /// and the pass policy rely on) are exactly the tags of its action schema, and it names a
    /// pass (the `pass` timeout policy needs one).
    #[test]
    fn declared_action_tags_are_the_action_schemas_tags() {
        for ruleset in crate::catalog::registry().iter() {
            let schema =
                serde_json::to_value(ruleset.schemas().action.1).expect("schemas serialize");
            let in_schema: Vec<&str> = schema["oneOf"]
                .as_array()
                .expect("an action schema is a oneOf")
                .iter()
                .map(|variant| {
                    let tag = &variant["properties"]["type"];
                    tag["enum"][0]
                        .as_str()
                        .or_else(|| tag["const"].as_str())
                        .expect("every variant has a type tag")
                })
                .collect();
            assert_eq!(in_schema, ruleset.action_types(), "{}", ruleset.id());
            assert!(
                !ruleset.passes().is_empty(),
                "{} names no pass",
                ruleset.id()
            );
        }
    }

    /// The searching bots, on a fresh deal of every ruleset: what they propose is a move the
    /// engine accepts for that seat (the search plays from re-dealt worlds, so this is not
    /// given).
    #[test]
    fn searching_bots_propose_moves_the_real_game_accepts() {
        for ruleset in crate::catalog::registry().iter() {
            let seats = ruleset.seat_range().0.max(3);
            for (index, bot) in [BotKind::Basic, BotKind::Strong].into_iter().enumerate() {
                let mut engine = ruleset
                    .setup(seats, &serde_json::json!({}), game_seed(9, index as u64))
                    .expect("a deal");
                let mut rng = GameRng::for_entry(game_seed(10, index as u64), 0);
                for _ in 0..12 {
                    if engine.outcome().is_some() {
                        break;
                    }
                    let seat = engine.waiting_on().iter().next().expect("someone to move");
                    let mut input = BotInput::of(engine.as_ref(), seat);
                    input.think(bot, engine.as_ref(), false, Allowance::CPU_ONLY, &mut rng);
                    assert!(!input.waits, "a bot that may not wait waited");
                    let proposal = input.proposal.expect("a proposal");
                    engine
                        .apply_json(seat, &proposal, &mut rng)
                        .unwrap_or_else(|error| {
                            panic!("{}: {proposal} refused: {error}", ruleset.id())
                        });
                }
            }
        }
    }

    /// A clock that runs out long before `strong`'s playout budget (here: after 300 looks at
    /// it, about one per playout) still leaves the search time to narrow its candidates to
    /// one: the phases share what the clock allows, not what the budget would.
    #[test]
    fn a_clock_that_binds_still_lets_the_search_narrow_to_one() {
        let mut searched = 0;
        for ruleset in crate::catalog::registry().iter() {
            let seats = ruleset.seat_range().0.max(3);
            let mut engine = ruleset
                .setup(seats, &serde_json::json!({}), game_seed(11, 0))
                .expect("a deal");
            let mut rng = GameRng::for_entry(game_seed(12, 0), 0);
            for _ in 0..6 {
                if engine.outcome().is_some() {
                    break;
                }
                let seat = engine.waiting_on().iter().next().expect("someone to move");
                let mut looks = 0.0;
                let mut spent = || {
                    looks += 1.0;
                    looks / 300.0
                };
                let choice = engine
                    .search_move(seat, &Budget::STRONG, false, &mut spent, &mut rng)
                    .expect("a move");
                if choice.candidates > 1 {
                    searched += 1;
                    assert!(choice.playouts < 300, "{}: {choice:?}", ruleset.id());
                    assert_eq!(choice.finalists, 1, "{}: {choice:?}", ruleset.id());
                }
                let action = choice.action.expect("a move, not a wait");
                engine
                    .apply_json(seat, &action, &mut rng)
                    .expect("the search's move is legal");
            }
        }
        assert!(
            searched >= 5,
            "only {searched} searches had a choice to make"
        );
    }

    #[test]
    fn a_bot_tries_its_proposal_then_its_samples_then_the_list_then_a_complete_action() {
        let bid = |amount: i64| serde_json::json!({"type": "bid", "amount": amount});
        let input = BotInput {
            seat: Seat(0),
            view: serde_json::json!({}),
            legal: vec![
                serde_json::json!({"action": {"type": "pass"}}),
                serde_json::json!({"label": "bid", "schema": {"type": "object", "properties": {"type": {"const": "bid"}, "amount": {"type": "integer", "minimum": 1, "maximum": 3}}}}),
            ],
            proposal: Some(bid(3)),
            waits: false,
            samples: vec![bid(1), bid(2)],
        };
        let mut rng = GameRng::for_entry([7; 32], 0);
        assert_eq!(input.attempt(0, &mut rng), Some(bid(3)));
        assert_eq!(input.attempt(1, &mut rng), Some(bid(1)));
        assert_eq!(input.attempt(2, &mut rng), Some(bid(2)));
        // The samples spent: draws from the listed actions.
        let mut seen_bid = false;
        for _ in 0..50 {
            let action = input.attempt(3, &mut rng).expect("an action");
            match action["type"].as_str() {
                Some("pass") => {}
                Some("bid") => {
                    let amount = action["amount"].as_i64().expect("an amount");
                    assert!((1..=3).contains(&amount), "{action}");
                    seen_bid = true;
                }
                _ => panic!("not a listed action: {action}"),
            }
        }
        assert!(seen_bid, "the schema entry is never sampled");
        // Once every try is spent, a complete listed action.
        assert_eq!(
            input.attempt(SAMPLES + 3, &mut rng),
            Some(serde_json::json!({"type": "pass"}))
        );
        let empty = BotInput {
            legal: Vec::new(),
            proposal: None,
            samples: Vec::new(),
            ..input
        };
        assert_eq!(empty.attempt(0, &mut rng), None);
    }

    /// The `random` bot's samples are the game's sensible moves: in Tulip Bubble's auctions
    /// no sampled bid is above what the lot could bring back (at most 40 fl), where a uniform
    /// draw up to the 1,000,000 safety cap would almost always be.
    #[test]
    fn the_random_bots_bids_stay_within_the_worth_of_the_lot() {
        let registry = crate::catalog::registry();
        let ruleset = registry
            .get("tulip-bubble")
            .expect("Tulip Bubble is registered");
        let mut bids = 0;
        for game in 0..20 {
            let mut engine = ruleset
                .setup(3, &serde_json::json!({}), game_seed(21, game))
                .expect("a deal");
            let mut rng = GameRng::for_entry(game_seed(22, game), 0);
            while engine.outcome().is_none() {
                let seat = engine.waiting_on().iter().next().expect("someone to move");
                let mut input = BotInput::of(engine.as_ref(), seat);
                input.think(
                    BotKind::Random,
                    engine.as_ref(),
                    false,
                    Allowance::CPU_ONLY,
                    &mut rng,
                );
                let moved = (0..=SAMPLES).any(|attempt| {
                    let Some(action) = input.attempt(attempt, &mut rng) else {
                        return false;
                    };
                    if action["type"] == "auction_bid" {
                        bids += 1;
                        assert!(
                            action["amount"].as_i64().is_some_and(|amount| amount <= 40),
                            "{action}"
                        );
                    }
                    engine.apply_json(seat, &action, &mut rng).is_ok()
                });
                assert!(moved, "the random bot found no move");
            }
        }
        assert!(bids > 20, "only {bids} bids in 20 games");
    }
}
