//! The test harness every game runs (STYLE.md §8), generic over [`Game`].
//!
//! [`Playouts::run`] plays random games to the end using only `legal_actions` and checks, at
//! every step:
//! 1. no panic (a panic names the game's seed and step);
//! 2. a non-finished game has a seat with a legal action, and is waiting on someone;
//!    `waiting_on ⊆ to_act`; seats outside `to_act` have no legal actions;
//! 3. the game ends within `max_steps` accepted actions;
//! 4. every concrete listed action applies `Ok`, and a refused action (a stale action from an
//!    earlier step, an action by a seat that may not act) leaves the state equal to before; an
//!    action by a seat outside `to_act` is refused with [`RuleKind::Turn`];
//! 5. the state survives a serde round trip;
//! 6. replaying the same seed and actions gives the identical state and events;
//! 7. no leaks: re-dealing what a viewer cannot see ([`Redeal`]) leaves its view identical
//!    (checked right after setup too), and (7b) two states the viewer cannot tell apart
//!    re-deal alike from the same stream, and (7c) what [`Game::sensible`] says about a
//!    seat's legal moves does not change under its re-deals, nor (7d) its [`Game::plan`],
//!    which the rules accept; and no event of the setup's log reaches a viewer outside
//!    its audience, not even as an identical "redacted" twin ([`check_setup_events`]);
//! 8. setup events replay identically and survive a serde round trip;
//! 9. every schema entry of `legal_actions` is closed ([`crate::action_schema::closed_violations`]:
//!    objects with `required` naming every property and `additionalProperties: false`, the
//!    `type` tag a `const`), and a sample of it parses as an action ([`check_schema_entry`]);
//! 10. every refusal met (stale actions, idle seats, refused samples) has a code and kind
//!     listed by `RuleError::all_codes` ([`check_rule_codes`] checks the list itself);
//! 11. every action and event met reads as plain words, and a hidden event's sentence does
//!     not reach a viewer it is hidden from ([`check_action_words`], [`check_event_words`]);
//!     every chosen action's button label is plain words too ([`check_action_label`]);
//!
//! plus the game's own invariants, passed in as a closure.

use crate::words::{check_sentence, Names};
use crate::{
    sample, Game, GameRng, LegalAction, Logged, RuleError, RuleKind, Seat, SeatSet, Viewer,
};
use serde_json::Value;
use std::collections::BTreeMap;

pub use crate::search::Redeal;

/// The stream of property 7b's re-deals.
const REDEAL_PROBE: [u8; 32] = *b"beurs: a re-deal sees only views";

/// The 32-byte seed of game number `index` of a test run with base seed `base`.
pub fn game_seed(base: u64, index: u64) -> [u8; 32] {
    let mut seed = [0u8; 32];
    seed[..8].copy_from_slice(&base.to_le_bytes());
    seed[8..16].copy_from_slice(&index.to_le_bytes());
    seed[16..].copy_from_slice(b"beurs-playouts!!");
    seed
}

/// Fingerprints of the states setup deals with the default options, for every seat count
/// from `G::MIN_SEATS` to `G::MAX_SEATS` (fewest first) and three fixed seeds each (0 where
/// the default options refuse the count). A game crate pins them in a test: a change that
/// adds, drops or reorders a draw of the deal changes them, and recorded games would stop
/// replaying.
pub fn setup_fingerprints<G: Redeal>() -> Vec<u64> {
    let ruleset = crate::Erased::<G>::default();
    let mut fingerprints = Vec::new();
    for seats in G::MIN_SEATS..=G::MAX_SEATS {
        for seed in [[0; 32], [7; 32], game_seed(1637, 3)] {
            let fingerprint = crate::DynRuleset::setup(&ruleset, seats, &Value::Null, seed)
                .map_or(0, |game| fnv1a(&game.state_json()));
            fingerprints.push(fingerprint);
        }
    }
    fingerprints
}

/// FNV-1a, 64 bits: a stable fingerprint (std's hasher may change between releases).
fn fnv1a(text: &str) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in text.bytes() {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// Holds a game's declarations to its rules: [`Game::SEATS_WITH_OPTIONS`] and the range
/// [`Game::MIN_SEATS`]..=[`Game::MAX_SEATS`] are exactly the counts `setup` deals (with the
/// default options, or only with the named option on), and [`Game::ACTIONS`] names each tag
/// once and includes every pass and any-time move. [`Playouts::run`] calls it.
pub fn check_declarations<G: Game>() {
    let defaults = serde_json::to_value(G::Options::default()).expect("options serialize");
    let deals = |seats: u8, options: &Value| {
        let options: G::Options = serde_json::from_value(options.clone())
            .unwrap_or_else(|error| panic!("options {options} do not parse: {error}"));
        G::setup(seats, &options, &mut GameRng::for_entry([7; 32], 0)).is_ok()
    };
    assert!(
        G::MIN_SEATS >= 1 && G::MIN_SEATS <= G::MAX_SEATS,
        "a bad seat range"
    );
    for seats in G::MIN_SEATS..=G::MAX_SEATS {
        match G::SEATS_WITH_OPTIONS
            .iter()
            .find(|(count, _)| *count == seats)
        {
            None => assert!(
                deals(seats, &defaults),
                "{seats} seats do not deal by default"
            ),
            Some((_, option)) => {
                assert!(
                    !deals(seats, &defaults),
                    "{seats} seats deal by default but are declared to need {option}"
                );
                let mut with = defaults.clone();
                with[*option] = Value::Bool(true);
                assert!(
                    deals(seats, &with),
                    "{seats} seats do not deal with {option} on"
                );
            }
        }
    }
    for (seats, option) in G::SEATS_WITH_OPTIONS {
        assert!(
            (G::MIN_SEATS..=G::MAX_SEATS).contains(seats),
            "{seats} seats (with {option}) are outside the seat range"
        );
    }
    for (index, tag) in G::ACTIONS.iter().enumerate() {
        assert!(
            !G::ACTIONS[..index].contains(tag),
            "{tag} is declared twice"
        );
    }
    for tag in G::PASSES.iter().chain(G::ANY_TIME) {
        assert!(
            G::ACTIONS.contains(tag),
            "{tag} is not one of the game's actions"
        );
    }
}

/// An action's `type` tag is one of [`Game::ACTIONS`].
pub fn check_action_type<G: Game>(action: &G::Action) {
    let json = serde_json::to_value(action).expect("actions serialize");
    let tag = json["type"]
        .as_str()
        .unwrap_or_else(|| panic!("{json} has no type tag"));
    assert!(
        G::ACTIONS.contains(&tag),
        "{tag} is not declared in Game::ACTIONS"
    );
}

/// A batch of random games with one seat count and one set of options.
pub struct Playouts<G: Game> {
    /// Seats at the table.
    pub n_seats: u8,
    /// The options every game uses.
    pub options: G::Options,
    /// How many games to play.
    pub games: u64,
    /// The most accepted actions a game may take before the test fails (the stated bound).
    pub max_steps: usize,
    /// Base seed; game `i` uses `game_seed(seed, i)`.
    pub seed: u64,
    /// Check the no-leak property every this many steps (0 = never).
    pub leak_check_every: usize,
    /// Check the undo-cannot-peek property on the moves of every this many steps that may be
    /// taken back (0 = never): the check re-deals and replays the move for every viewer.
    pub undo_check_every: usize,
    /// Try every concrete listed action on a copy at every step (the "every listed action
    /// applies" property). Costs one clone per listed action.
    pub try_every_listed_action: bool,
    /// Actions a seat may send at any time, outside its turn (e.g. Tulip Bubble's buy-back).
    /// A seat outside `to_act` sending one is refused for what it names, not for turn order,
    /// so the turn-order check uses the acting seat's first listed action not of this kind.
    pub any_time: fn(&G::Action) -> bool,
}

/// What a batch of playouts did, for assertions and for the test log.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    /// Games finished.
    pub games: u64,
    /// Accepted actions over all games.
    pub steps: u64,
    /// The longest game, in accepted actions.
    pub longest_game: usize,
    /// How many games ended for each reason.
    pub reasons: BTreeMap<String, u64>,
    /// How many winners each seat had (ties count for every winner).
    pub wins_by_seat: Vec<u64>,
    /// Refused actions checked to leave the state unchanged.
    pub refusals_checked: u64,
    /// Re-deals that produced a different state (so the no-leak check had teeth).
    pub redeals_that_changed_state: u64,
    /// Moves that could be taken back ([`crate::takeback_allowed`]) among those sampled
    /// ([`Playouts::undo_check_every`]), each checked to show no viewer anything it could not see before (the
    /// undo-cannot-peek property).
    pub undoable_moves: u64,
}

impl<G: Game> Playouts<G> {
    /// A batch with the default options: 200 games of at most 10,000 steps.
    pub fn new(n_seats: u8) -> Self {
        Playouts {
            n_seats,
            options: G::Options::default(),
            games: 200,
            max_steps: 10_000,
            seed: 1637,
            leak_check_every: 5,
            undo_check_every: 8,
            try_every_listed_action: true,
            any_time: |_| false,
        }
    }

    /// Says which actions a seat may send outside its turn.
    pub fn any_time(mut self, any_time: fn(&G::Action) -> bool) -> Self {
        self.any_time = any_time;
        self
    }

    /// Sets the options.
    pub fn options(mut self, options: G::Options) -> Self {
        self.options = options;
        self
    }

    /// Sets the number of games.
    pub fn games(mut self, games: u64) -> Self {
        self.games = games;
        self
    }

    /// Sets the step bound.
    pub fn max_steps(mut self, max_steps: usize) -> Self {
        self.max_steps = max_steps;
        self
    }

    /// Sets the base seed.
    pub fn seed(mut self, seed: u64) -> Self {
        self.seed = seed;
        self
    }

    /// Plays every game, checking the properties above and `invariant` after setup and after
    /// every accepted action. `invariant` panics (asserts) on a violation.
    pub fn run(&self, invariant: impl Fn(&G)) -> PlayoutStats
    where
        G: Redeal,
    {
        check_declarations::<G>();
        let mut stats = PlayoutStats {
            wins_by_seat: vec![0; usize::from(self.n_seats)],
            ..Default::default()
        };
        for index in 0..self.games {
            self.play_one(index, &invariant, &mut stats);
        }
        stats
    }

    fn play_one(&self, index: u64, invariant: &impl Fn(&G), stats: &mut PlayoutStats)
    where
        G: Redeal,
    {
        let seed = game_seed(self.seed, index);
        let bot_seed = game_seed(self.seed ^ 0xB07, index);
        let mut context = PanicContext {
            ruleset: G::RULESET,
            n_seats: self.n_seats,
            index,
            base_seed: self.seed,
            step: 0,
        };
        let (mut state, setup_events) = G::setup(
            self.n_seats,
            &self.options,
            &mut GameRng::for_entry(seed, 0),
        )
        .unwrap_or_else(|error| panic!("setup failed: {error}"));
        invariant(&state);
        check_setup_events(&state, &setup_events);
        check_event_words(&state, &setup_events);
        if self.leak_check_every > 0 {
            let mut bot = GameRng::for_entry(bot_seed, 0);
            self.check_no_leak(&state, &mut bot, stats);
        }
        let mut history: Vec<(Seat, G::Action)> = Vec::new();
        let mut events: Vec<Vec<Logged<G::Event>>> = Vec::new();
        let mut recent: Vec<G::Action> = Vec::new();

        loop {
            let step = history.len() + 1;
            context.step = step;
            let to_act = state.to_act();
            if to_act.is_empty() {
                let outcome = state
                    .outcome()
                    .expect("a game nobody can act in must have an outcome");
                *stats.reasons.entry(outcome.reason.clone()).or_default() += 1;
                for winner in outcome.winners.iter() {
                    stats.wins_by_seat[winner.index()] += 1;
                }
                break;
            }
            assert!(
                step <= self.max_steps,
                "the game did not finish within {} steps",
                self.max_steps
            );
            assert!(
                state.outcome().is_none(),
                "a game with seats to act has an outcome"
            );
            let waiting_on = state.waiting_on();
            assert!(!waiting_on.is_empty(), "an unfinished game waits on nobody");
            assert!(
                waiting_on.is_subset(to_act),
                "waiting_on {waiting_on:?} is not within to_act {to_act:?}"
            );
            for seat in Seat::all(self.n_seats).filter(|seat| !to_act.contains(*seat)) {
                assert!(
                    state.legal_actions(seat).is_empty(),
                    "{seat} is not in to_act but has legal actions"
                );
            }

            let mut bot = GameRng::for_entry(bot_seed, step as u64);
            let acting: Vec<Seat> = to_act.iter().collect();
            let seat = *bot.choose(&acting).expect("to_act is not empty");
            let legal = state.legal_actions(seat);
            assert!(
                !legal.is_empty(),
                "{seat} is in to_act but has no legal action"
            );

            // Its own stream, so that the check does not change the bot's choices.
            let mut checker = GameRng::for_entry(bot_seed, (1 << 32) + step as u64);
            for entry in &legal {
                if let LegalAction::Schema { label, schema } = entry {
                    check_schema_entry::<G>(label, schema, &mut checker);
                }
            }
            if self.try_every_listed_action {
                for entry in &legal {
                    if let LegalAction::Action { action } = entry {
                        let mut copy = state.clone();
                        if let Err(error) = copy.apply(
                            seat,
                            action.clone(),
                            &mut GameRng::for_entry(seed, step as u64),
                        ) {
                            panic!("listed action {action:?} by {seat} was refused: {error}");
                        }
                    }
                }
            }
            self.check_refusals(&state, seat, to_act, &recent, &mut bot, stats);

            if self.leak_check_every > 0 && step % self.leak_check_every == 0 {
                self.check_no_leak(&state, &mut bot, stats);
            }

            let action = choose_action::<G>(&state, seat, &legal, &mut bot, seed, step);
            check_action_label(&state, &action, seat);
            let mut rng = GameRng::for_entry(seed, step as u64);
            // A sample of the moves is checked for the undo-cannot-peek property.
            let before = (self.undo_check_every > 0 && step % self.undo_check_every == 0)
                .then(|| state.clone());
            let step_events = state
                .apply(seat, action.clone(), &mut rng)
                .unwrap_or_else(|error| {
                    panic!("chosen action {action:?} by {seat} was refused: {error}")
                });
            if let Some(before) = before.filter(|_| {
                crate::takeback_allowed(&state, seat, &action, &step_events, rng.drawn())
            }) {
                stats.undoable_moves += 1;
                self.check_undo_cannot_peek(&before, &state, seat, &action, &step_events, step);
            }
            invariant(&state);
            check_phase_shown(&state);
            check_action_words::<G>(&action, seat, state.n_seats());
            check_action_type::<G>(&action);
            check_event_words(&state, &step_events);
            if index < 20 || step % 16 == 0 {
                let json = serde_json::to_string(&state).expect("state serializes");
                let back: G = serde_json::from_str(&json).expect("state deserializes");
                assert!(back == state, "the state changed in a serde round trip");
            }
            if recent.len() >= 32 {
                recent.remove(0);
            }
            recent.push(action.clone());
            history.push((seat, action));
            events.push(step_events);
        }

        stats.games += 1;
        stats.steps += history.len() as u64;
        stats.longest_game = stats.longest_game.max(history.len());
        self.check_replay(seed, &setup_events, &history, &events, &state);
    }

    /// Property 4b: actions that are refused leave the state exactly as it was.
    fn check_refusals(
        &self,
        state: &G,
        seat: Seat,
        to_act: SeatSet,
        recent: &[G::Action],
        bot: &mut GameRng,
        stats: &mut PlayoutStats,
    ) {
        let mut candidates: Vec<(Seat, G::Action)> = Vec::new();
        for _ in 0..2 {
            if let Some(action) = bot.choose(recent) {
                let any_seat = Seat(bot.below(u64::from(self.n_seats)) as u8);
                candidates.push((any_seat, action.clone()));
            }
        }
        // A seat that may not act must be refused whatever it sends; a turn action (not an
        // any-time one) as a turn-order error.
        if let Some(idle) = Seat::all(self.n_seats).find(|other| !to_act.contains(*other)) {
            let legal = state.legal_actions(seat);
            if let Some(LegalAction::Action { action }) = legal.first() {
                candidates.push((idle, action.clone()));
            }
            let turn_action = legal.into_iter().find_map(|entry| match entry {
                LegalAction::Action { action } if !(self.any_time)(&action) => Some(action),
                _ => None,
            });
            if let Some(action) = turn_action {
                assert_turn_refused(state, idle, action);
            }
        }
        for (who, action) in candidates {
            let mut copy = state.clone();
            let result = copy.apply(who, action.clone(), &mut GameRng::for_entry([0; 32], 1));
            if let Err(error) = &result {
                assert_code_listed(error);
                stats.refusals_checked += 1;
                assert!(
                    copy == *state,
                    "refused action {action:?} by {who} changed the state"
                );
            } else {
                assert!(
                    to_act.contains(who),
                    "{who} acted with {action:?} without being in to_act"
                );
            }
        }
    }

    /// Property 7: re-dealing what a viewer cannot see does not change what it sees.
    /// Property 9: a move that may be taken back showed nobody anything. For every viewer,
    /// the same move in worlds re-dealt for that viewer (states it cannot tell from
    /// `before`) causes the same events it may see and leaves it the same view: what the
    /// move showed it, it could have worked out before. So undoing the move leaves no one
    /// knowing more than before it was made.
    fn check_undo_cannot_peek(
        &self,
        before: &G,
        after: &G,
        seat: Seat,
        action: &G::Action,
        events: &[Logged<G::Event>],
        step: usize,
    ) where
        G: Redeal,
    {
        // Its own stream, so that the check does not change the bot's choices.
        let mut redealer = GameRng::for_entry(REDEAL_PROBE, (2 << 32) + step as u64);
        let viewers = Seat::all(self.n_seats)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for viewer in viewers {
            let seen = |state: &G, events: &[Logged<G::Event>]| {
                let shown: Vec<&G::Event> = events
                    .iter()
                    .filter(|logged| logged.visibility.shows(viewer))
                    .map(|logged| &logged.event)
                    .collect();
                (
                    serde_json::to_string(&state.view(viewer)).expect("views serialize"),
                    serde_json::to_string(&shown).expect("events serialize"),
                )
            };
            // What the viewer saw of the real move, worked out only once a world differs.
            let mut real = None;
            for _ in 0..2 {
                let mut world = before.redeal(viewer, &mut redealer);
                // A world the same as the real one (nothing hidden from this viewer, as in
                // Tulpenfieber) replays the same move the same way: nothing to compare.
                if world == *before {
                    continue;
                }
                // A move legal only with the mover's real hidden holding cannot be made in
                // a world that deals it otherwise; such worlds say nothing here.
                let Ok(world_events) =
                    world.apply(seat, action.clone(), &mut GameRng::for_entry([0; 32], 1))
                else {
                    continue;
                };
                assert_eq!(
                    &seen(&world, &world_events),
                    real.get_or_insert_with(|| seen(after, events)),
                    "{seat}'s move {action:?} may be taken back, but it showed {viewer:?} \
                     something it could not see before"
                );
            }
        }
    }

    fn check_no_leak(&self, state: &G, bot: &mut GameRng, stats: &mut PlayoutStats)
    where
        G: Redeal,
    {
        let viewers = Seat::all(self.n_seats)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator]);
        for viewer in viewers {
            let twin = state.redeal(viewer, bot);
            if twin != *state {
                stats.redeals_that_changed_state += 1;
            }
            let seen = serde_json::to_string(&state.view(viewer)).expect("views serialize");
            let seen_in_twin = serde_json::to_string(&twin.view(viewer)).expect("views serialize");
            assert_eq!(
                seen, seen_in_twin,
                "the view of {viewer:?} depends on something it cannot see"
            );
            assert_eq!(twin.to_act(), state.to_act(), "a re-deal changed to_act");
            // 7b: a re-deal depends only on what the viewer sees, so the searching bots'
            // worlds carry nothing of the real hidden state: the state and its twin re-deal
            // alike from the same stream (its own, so the bot's choices do not change).
            let probe = |of: &G| of.redeal(viewer, &mut GameRng::for_entry(REDEAL_PROBE, 0));
            assert!(
                probe(state) == probe(&twin),
                "a re-deal for {viewer:?} depends on something it cannot see"
            );
            // 7c: what the bots call sensible is decided from what the seat sees.
            // Samples from their own stream, so the bot's choices do not change.
            if let Viewer::Seat(seat) = viewer {
                let mut sampler = GameRng::for_entry(REDEAL_PROBE, 1);
                for entry in state.legal_actions(seat) {
                    let action = match entry {
                        LegalAction::Action { action } => Some(action),
                        LegalAction::Schema { schema, .. } => {
                            sample::sample_spread(&schema, sample::Spread::Sensible, &mut sampler)
                                .and_then(|value| serde_json::from_value(value).ok())
                        }
                    };
                    if let Some(action) = action {
                        assert_eq!(
                            state.sensible(seat, &action),
                            twin.sensible(seat, &action),
                            "whether {action:?} is sensible for {seat} depends on something it cannot see"
                        );
                    }
                }
                // 7d: the plan the searching bots follow is decided from what the seat
                // sees too, and the rules accept it (its own stream again).
                let plan = |of: &G| of.plan(seat, &mut GameRng::for_entry(REDEAL_PROBE, 2));
                let planned = plan(state);
                assert_eq!(
                    planned,
                    plan(&twin),
                    "{seat}'s plan depends on something it cannot see"
                );
                if let Some(action) = planned {
                    let mut applied = state.clone();
                    let mut rng = GameRng::for_entry(REDEAL_PROBE, 3);
                    assert!(
                        applied.apply(seat, action.clone(), &mut rng).is_ok(),
                        "the rules refuse {seat}'s plan {action:?}"
                    );
                }
            }
        }
    }

    /// Property 6: the same seed and actions reproduce the same state and events (setup's
    /// included).
    fn check_replay(
        &self,
        seed: [u8; 32],
        setup_events: &[Logged<G::Event>],
        history: &[(Seat, G::Action)],
        events: &[Vec<Logged<G::Event>>],
        last: &G,
    ) {
        let (mut state, replayed_setup) = G::setup(
            self.n_seats,
            &self.options,
            &mut GameRng::for_entry(seed, 0),
        )
        .expect("setup replays");
        assert!(
            replayed_setup == setup_events,
            "the replayed setup produced different events"
        );
        for (step, ((seat, action), expected)) in history.iter().zip(events).enumerate() {
            let mut rng = GameRng::for_entry(seed, step as u64 + 1);
            let replayed = state
                .apply(*seat, action.clone(), &mut rng)
                .expect("the replay accepts every action");
            assert!(
                replayed == *expected,
                "replay step {} produced different events",
                step + 1
            );
        }
        assert!(state == *last, "the replay ended in a different state");
    }
}

/// Asserts that [`Game::phase`] is the phase the public view shows (`"phase": "<name>"`, at
/// the top or inside a part of the view), so that a refusal's hint names it as the view does.
pub fn check_phase_shown<G: Game>(state: &G) {
    let view = serde_json::to_string(&state.view(Viewer::Spectator)).expect("a view serializes");
    let phase = state.phase();
    assert!(
        view.contains(&format!("\"phase\":\"{phase}\"")),
        "the phase {phase:?} is not the one the spectator view shows: {view}"
    );
}

/// Asserts that `seat` (not in `to_act`) sending `action` is refused with [`RuleKind::Turn`]
/// and that the refusal changes nothing.
pub fn assert_turn_refused<G: Game>(state: &G, seat: Seat, action: G::Action) {
    assert!(
        !state.to_act().contains(seat),
        "{seat} is in to_act; pick a seat that may not act"
    );
    let mut copy = state.clone();
    match copy.apply(seat, action.clone(), &mut GameRng::for_entry([0; 32], 1)) {
        Ok(_) => panic!("{seat} acted with {action:?} without being in to_act"),
        Err(error) => {
            assert_code_listed(&error);
            assert_eq!(
                error.kind(),
                RuleKind::Turn,
                "{action:?} by {seat} (not in to_act) was refused as {} ({error}), not as a turn-order error",
                error.code()
            );
        }
    }
    assert!(
        copy == *state,
        "a refused action by {seat} changed the state"
    );
}

/// Checks [`Game::describe_action`] for `action` by `seat`: plain words
/// ([`crate::words::check_sentence`]) that name the actor.
pub fn check_action_words<G: Game>(action: &G::Action, seat: Seat, n_seats: u8) {
    let names = seat_names(n_seats);
    let sentence = G::describe_action(action, seat, &Names::new(&names));
    check_sentence(&sentence, action);
}

/// Checks [`Game::label_action`] for `action` by `seat` in `state`, where it is legal: plain
/// words for a button, not the log's sentence (no full stop, not opening with the actor's
/// name).
pub fn check_action_label<G: Game>(state: &G, action: &G::Action, seat: Seat) {
    let names = seat_names(state.n_seats());
    let names = Names::new(&names);
    let label = state.label_action(seat, action, &names);
    check_sentence(&label, action);
    assert!(
        !label.ends_with('.') && !label.starts_with(&names.seat(seat)),
        "the label {label:?} of {action:?} reads as a log sentence"
    );
}

/// Checks [`Game::describe_event`] for `events`: every sentence is plain words, and a
/// hidden event's sentence reaches no viewer it is hidden from through the sentence of an
/// event that viewer sees (a redacted twin must say less).
pub fn check_event_words<G: Game>(state: &G, events: &[Logged<G::Event>]) {
    let names = seat_names(state.n_seats());
    let names = Names::new(&names);
    let sentences: Vec<String> = events
        .iter()
        .map(|logged| {
            let sentence = G::describe_event(&logged.event, &names);
            check_sentence(&sentence, &logged.event);
            sentence
        })
        .collect();
    let viewers: Vec<Viewer> = Seat::all(state.n_seats())
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    for (hidden, hidden_sentence) in events.iter().zip(&sentences) {
        if hidden.visibility == crate::Visibility::Public {
            continue;
        }
        for &viewer in viewers.iter().filter(|&&v| !hidden.visibility.shows(v)) {
            for (seen, seen_sentence) in events.iter().zip(&sentences) {
                if seen.visibility.shows(viewer) && seen.event != hidden.event {
                    assert!(
                        seen_sentence != hidden_sentence,
                        "the sentence {hidden_sentence:?} of {:?} (for {:?}) reaches {viewer:?} \
                         through {:?}",
                        hidden.event,
                        hidden.visibility,
                        seen.event
                    );
                }
            }
        }
    }
}

/// Distinct names for `n_seats` seats, as sentences in the harness name them.
fn seat_names(n_seats: u8) -> Vec<Option<String>> {
    const NAMES: [&str; 8] = [
        "Anna", "Ben", "Cas", "Dirk", "Eva", "Floor", "Gijs", "Hanna",
    ];
    NAMES
        .iter()
        .take(usize::from(n_seats))
        .map(|name| Some((*name).to_string()))
        .collect()
}

/// Checks the events of a fresh `setup`: they survive a serde round trip, and no event reaches
/// a viewer outside its audience: for every non-public event and every viewer (each seat and
/// the spectator) that may not see it, no event that viewer may see carries the same JSON (a
/// "redacted twin" that is not redacted). A game's own tests pin what its setup events say.
pub fn check_setup_events<G: Game>(state: &G, events: &[Logged<G::Event>]) {
    let json = serde_json::to_string(events).expect("setup events serialize");
    let back: Vec<Logged<G::Event>> =
        serde_json::from_str(&json).expect("setup events deserialize");
    assert!(back == events, "setup events changed in a serde round trip");
    let viewers: Vec<Viewer> = Seat::all(state.n_seats())
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .collect();
    for hidden in events
        .iter()
        .filter(|logged| logged.visibility != crate::Visibility::Public)
    {
        for &viewer in &viewers {
            if hidden.visibility.shows(viewer) {
                continue;
            }
            for seen in events
                .iter()
                .filter(|logged| logged.visibility.shows(viewer))
            {
                assert!(
                    seen.event != hidden.event,
                    "setup event {:?} (for {:?}) reaches {viewer:?} through a twin with {:?}",
                    hidden.event,
                    hidden.visibility,
                    seen.visibility
                );
            }
        }
    }
}

/// Whether `E::all_codes` lists the code and kind of `error`.
fn all_codes_contain<E: RuleError>(error: &E) -> bool {
    E::all_codes().contains(&(error.code(), error.kind()))
}

/// Property 10: `error`'s code and kind are listed by `RuleError::all_codes`.
pub fn assert_code_listed<E: RuleError>(error: &E) {
    assert!(
        all_codes_contain(error),
        "refusal {error:?} answered {} ({:?}), which all_codes does not list",
        error.code(),
        error.kind()
    );
}

/// Checks a game's list of rule codes ([`RuleError::all_codes`]): not empty, kebab-case
/// (`[a-z0-9]` words joined by `-`), each code once (so with one kind), `game-over` (if
/// listed) of kind `GameOver` and `not-your-turn` (if listed) of kind `Turn`. Returns the
/// list for further assertions.
pub fn check_rule_codes<E: RuleError>() -> Vec<(&'static str, RuleKind)> {
    let codes = E::all_codes();
    assert!(!codes.is_empty(), "no rule codes listed");
    for (index, &(code, kind)) in codes.iter().enumerate() {
        let kebab = !code.is_empty()
            && code.split('-').all(|word| {
                !word.is_empty()
                    && word
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            });
        assert!(kebab, "rule code '{code}' is not kebab-case");
        assert!(
            codes[..index].iter().all(|&(other, _)| other != code),
            "rule code '{code}' is listed twice (with two kinds?)"
        );
        match code {
            "game-over" => assert_eq!(kind, RuleKind::GameOver, "game-over's kind"),
            "not-your-turn" => assert_eq!(kind, RuleKind::Turn, "not-your-turn's kind"),
            _ => {}
        }
    }
    codes
}

/// Property 9: a legal-action schema entry is closed (every object lists every property as
/// `required` and forbids others, the `type` tag is a `const`), its label is set, and a
/// sample of it parses as an action of `G` (legality is the engine's business).
pub fn check_schema_entry<G: Game>(label: &str, schema: &Value, bot: &mut GameRng) {
    assert!(
        !label.trim().is_empty(),
        "a schema entry without a label: {schema}"
    );
    let found = crate::action_schema::closed_violations(schema);
    assert!(
        found.is_empty(),
        "the schema of '{label}' is not closed: {found:?}\n{schema}"
    );
    let Some(candidate) = sample::sample(schema, bot) else {
        panic!("cannot sample the schema of '{label}': {schema}");
    };
    if let Err(error) = serde_json::from_value::<G::Action>(candidate.clone()) {
        panic!("a sample of '{label}' is not an action ({error}): {candidate}");
    }
}

/// Picks the bot's action: a random listed entry; a schema entry is sampled (up to 20 times,
/// checking that every refusal leaves the state unchanged), falling back to a concrete entry.
fn choose_action<G: Game>(
    state: &G,
    seat: Seat,
    legal: &[LegalAction<G::Action>],
    bot: &mut GameRng,
    seed: [u8; 32],
    step: usize,
) -> G::Action {
    let entry = &legal[bot.index(legal.len())];
    match entry {
        LegalAction::Action { action } => action.clone(),
        LegalAction::Schema { label, schema } => {
            for _ in 0..20 {
                let Some(candidate) = sample::sample(schema, bot) else {
                    panic!("cannot sample the schema of '{label}': {schema}");
                };
                let action: G::Action =
                    serde_json::from_value(candidate.clone()).unwrap_or_else(|error| {
                        panic!("a sample of '{label}' is not an action ({error}): {candidate}")
                    });
                let mut copy = state.clone();
                match copy.apply(
                    seat,
                    action.clone(),
                    &mut GameRng::for_entry(seed, step as u64),
                ) {
                    Ok(_) => return action,
                    Err(error) => {
                        assert_code_listed(&error);
                        assert!(
                            copy == *state,
                            "refused sample {candidate} changed the state"
                        );
                    }
                }
            }
            let concrete = legal.iter().find_map(|entry| match entry {
                LegalAction::Action { action } => Some(action.clone()),
                LegalAction::Schema { .. } => None,
            });
            concrete.unwrap_or_else(|| {
                panic!("20 samples of '{label}' were all refused and there is no concrete action")
            })
        }
    }
}

/// Who plays a seat of [`play_table`]'s tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TablePlayer {
    /// The game's greedy player (the caller's `greedy`), `g`.
    Greedy,
    /// The `basic` bot: the search within [`Budget::BASIC`](crate::search::Budget::BASIC), in
    /// worlds re-dealt for its seat, with no clock, `b`.
    Basic,
    /// A sensible random move, as the `random` bot plays, `r`.
    Random,
}

impl TablePlayer {
    /// The command line of the typed-table examples, `[games] [table]`: the number of games
    /// (200 when absent), the table's letters (`default` when absent), one per seat (`g`,
    /// `b`, `r`), and its players. Panics on a letter that names no player.
    pub fn from_args(default: &str) -> (u64, String, Vec<TablePlayer>) {
        let mut args = std::env::args().skip(1);
        let games = args.next().and_then(|n| n.parse().ok()).unwrap_or(200);
        let letters = args.next().unwrap_or_else(|| default.to_string());
        let table = letters
            .chars()
            .map(|letter| match letter {
                'g' => TablePlayer::Greedy,
                'b' => TablePlayer::Basic,
                'r' => TablePlayer::Random,
                other => panic!("{other:?} is not g (greedy), b (basic) or r (random)"),
            })
            .collect();
        (games, letters, table)
    }
}

/// What [`play_table`] played.
pub struct TableGames<G> {
    /// Each game's final state.
    pub finals: Vec<G>,
    /// Games by their outcome's reason.
    pub endings: BTreeMap<String, u64>,
    /// Wins by seat (a shared win counts for each winner).
    pub wins: Vec<u64>,
}

/// Plays `games` games of `table` (a player per seat): their final states, endings and wins. A
/// greedy or `basic` seat with no move plays a sensible random one. Game `n` is dealt from
/// `game_seed(1637, n)` and its players draw from `game_seed(1638, n)`. `watch` sees each
/// move before it is applied, refused ones too; a refused move (a random draw the rules
/// refuse) is chosen again at the next step. For the measurements of docs/bots.md (each
/// game's `examples/tables.rs`).
pub fn play_table<G: Redeal>(
    games: u64,
    table: &[TablePlayer],
    options: &G::Options,
    mut greedy: impl FnMut(&G, Seat, &mut GameRng) -> Option<G::Action>,
    mut watch: impl FnMut(&G, Seat, &G::Action),
) -> TableGames<G> {
    use crate::search::{self, Budget};
    let seats = u8::try_from(table.len()).expect("a table of a few seats");
    let mut played = TableGames {
        finals: Vec::new(),
        endings: BTreeMap::new(),
        wins: vec![0; table.len()],
    };
    for game in 0..games {
        let seed = game_seed(1637, game);
        let (mut state, _) =
            G::setup(seats, options, &mut GameRng::for_entry(seed, 0)).expect("a deal");
        let mut rng = GameRng::for_entry(game_seed(1638, game), 0);
        let mut step = 0;
        while state.outcome().is_none() {
            step += 1;
            assert!(step < 20_000, "game {game} does not end");
            let seat = state.waiting_on().iter().next().expect("someone to move");
            let action = match table[seat.index()] {
                TablePlayer::Greedy => greedy(&state, seat, &mut rng),
                TablePlayer::Basic => {
                    search::choose_for(&state, seat, &Budget::BASIC, false, &mut || 0.0, &mut rng)
                        .and_then(|choice| choice.action)
                }
                TablePlayer::Random => None,
            }
            .or_else(|| {
                let legal = state.legal_actions(seat);
                search::sensible_action(&state, seat, &legal, &mut rng)
            })
            .expect("a move");
            watch(&state, seat, &action);
            let _ = state.apply(seat, action, &mut GameRng::for_entry(seed, step));
        }
        let outcome = state.outcome().expect("the game is over");
        for winner in outcome.winners.iter() {
            played.wins[winner.index()] += 1;
        }
        *played.endings.entry(outcome.reason).or_default() += 1;
        played.finals.push(state);
    }
    played
}

/// A random seat of `to_act` and a random legal action for it, as a random bot plays: schema
/// entries are sampled (up to 20 tries, each checked on a copy), falling back to a concrete
/// entry. `None` once the game is over. For benches and bots; the playout harness uses the
/// same choice.
pub fn random_move<G: Game>(state: &G, bot: &mut GameRng) -> Option<(Seat, G::Action)> {
    let acting: Vec<Seat> = state.to_act().iter().collect();
    let seat = *bot.choose(&acting)?;
    let legal = state.legal_actions(seat);
    if legal.is_empty() {
        return None;
    }
    // Validation never depends on the dice, so any stream serves for the trial applies.
    let action = choose_action::<G>(state, seat, &legal, bot, [0; 32], 1);
    Some((seat, action))
}

/// Asserts that every OpenAPI component a game contributes is named `<prefix>.<Type>` (or is
/// one of game-core's shared `Seat`/`SeatSet`), so names stay unique across the games the API
/// serves, and that `expected` (a type the game is known to use) is among them.
#[cfg(feature = "openapi")]
pub fn assert_schema_names_prefixed<G: Redeal>(prefix: &str, expected: &str) {
    use crate::DynRuleset;
    let schemas = crate::Erased::<G>::default().schemas();
    let prefix = format!("{prefix}.");
    for (name, _) in [
        &schemas.options,
        &schemas.action,
        &schemas.view,
        &schemas.event,
    ] {
        assert!(name.starts_with(&prefix), "{name} is not named {prefix}*");
    }
    let names: Vec<&str> = schemas
        .components
        .iter()
        .map(|(name, _)| name.as_str())
        .collect();
    for name in &names {
        assert!(
            name.starts_with(&prefix) || ["Seat", "SeatSet"].contains(name),
            "{name} is not named {prefix}*"
        );
    }
    assert!(
        names.contains(&expected),
        "{expected} is missing from {names:?}"
    );
}

/// A random playable action, as JSON, from the erased legal-action list: used by HTTP test
/// clients. The same choice as the server's random bot ([`sample::random_action`]).
pub use sample::random_action as random_action_json;

/// Prints which game failed when a check panics, so it can be replayed.
struct PanicContext {
    ruleset: &'static str,
    n_seats: u8,
    index: u64,
    base_seed: u64,
    step: usize,
}

impl Drop for PanicContext {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!(
                "playout failed: {} with {} seats, game {} of base seed {} (seed = game_seed({}, {})), step {}",
                self.ruleset, self.n_seats, self.index, self.base_seed, self.base_seed, self.index, self.step
            );
        }
    }
}
