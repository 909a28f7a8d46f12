//! Bots that search: a determinized Monte-Carlo search from one seat's point of view.
//!
//! A searching bot knows its seat's legal actions and can draw *worlds*: full states its seat
//! cannot tell apart from the real one, with everything hidden from the seat re-dealt at
//! random ([`Redeal`]). It never holds the real state. [`choose`] is generic over the world
//! source, so what a bot may know is fixed by its caller. [`choose_for`] draws the worlds with
//! [`Redeal::redeal`] for the seat; the API ([`crate::DynGame::search_move`]) and the
//! measurements ([`crate::testing::play_table`]) choose through it.
//!
//! The search (decision 30 in docs/decisions.md):
//! - the *candidates* are the seat's complete legal actions plus a few samples of each
//!   parameterised entry (a bid, a trade), checked against the first world drawn;
//! - the budget is spent by *sequential halving*: in each phase every candidate still in is
//!   played out equally often, then the worse half (by mean score) is dropped, until one is
//!   left or the budget or the caller's time allowance ends the search; the best mean still
//!   in wins. The phases share the playouts the search can afford: the budget's, or, when
//!   the caller's clock says fewer fit in its time, as many as fit at the rate seen so far
//!   (re-estimated after every round), so a clock that binds still leaves time to narrow;
//! - a *round* of playouts plays every candidate still in from the same fresh world with the
//!   same dice (common random numbers), so the candidates are compared on equal luck and a
//!   small difference between two moves shows in far fewer playouts than with independent
//!   draws;
//! - a playout applies the candidate (the root of a tree of depth one: opponents' replies
//!   are not searched, they are played out) and plays the game out with random moves for
//!   every seat, each a sensible move ([`Game::sensible`], integers near their minimum);
//! - in a game with a plan ([`Game::plan`], a greedy player's move), every seat of a playout
//!   follows its plan [`PLAN_ODDS`] of the time and moves at random otherwise, and the
//!   plan's move is the first candidate; the candidates are then cut to one per
//!   [`PLAN_CANDIDATES`] of the budget's playouts (the plan's move and others drawn at
//!   random), and when the clock binds, the first round cuts them further to one per
//!   [`CLOCK_CANDIDATES`] of the playouts the clock allows, so that each is played out
//!   often enough to tell (decision 46). Random moves
//!   never string together the many consistent moves some goals take (Tulip Bubble's Black
//!   Tulip needs ƒ121 in cash, from ƒ20); a playout that follows a plan reaches them;
//! - a playout scores the seat's share of the win plus a little for its rank, so that among
//!   losing lines the better placed ones still count.
//!
//! No clock here (game-core reads none): the caller bounds the search by playouts and by a
//! `spent` callback, the share of its time allowance used so far (0 at the start, 1 or more
//! when the time is up), which it may back with a clock.

use crate::{sample, Game, GameRng, LegalAction, Outcome, Seat, Viewer};

/// How often a seat of a playout follows its [`Game::plan`] when it has one: 3 times in 4.
/// The rest are random sensible moves, so that the playouts still explore (a search that
/// only followed the plan would only ever confirm it).
pub const PLAN_ODDS: (u64, u64) = (3, 4);

/// With a plan, the search keeps at most one candidate per this many playouts of its
/// budget (at least two): `basic`'s 48 playouts then try 6 moves 8 times each, instead of
/// up to 56 bid placements once or never.
pub const PLAN_CANDIDATES: u32 = 8;

/// When the clock binds, the first round keeps about one candidate per this many of the
/// playouts the clock allows (rounded up, and at least two played).
pub const CLOCK_CANDIDATES: u32 = 32;

/// Games with hidden information say how to re-deal it: the searching bots draw their
/// worlds with it, and the no-leak property checks it.
pub trait Redeal: Game {
    /// A state `viewer` cannot tell apart from `self`: everything hidden from `viewer` is
    /// re-dealt at random among the places `viewer` cannot see (e.g. the other hands and the
    /// deck are shuffled together and dealt back in the same sizes). Games without hidden
    /// information return a clone.
    ///
    /// The result must depend only on what `viewer` sees and on `rng`: pools are put in a
    /// fixed order before they are shuffled, so that two states `viewer` cannot tell apart
    /// re-deal to the same state from the same stream (the playout harness checks this). A
    /// bot's worlds therefore carry nothing of the real hidden state.
    fn redeal(&self, viewer: Viewer, rng: &mut GameRng) -> Self;
}

/// How much one search may spend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The most playouts (one world drawn, one candidate tried, one game played out, each).
    pub playouts: u32,
    /// A playout of a game with a [`Game::standing`] stops after this many moves and is
    /// scored by it.
    pub depth: u32,
    /// How many samples of each parameterised legal entry become candidates.
    pub samples_per_schema: u32,
}

impl Budget {
    /// The `basic` bot's budget: 48 playouts shared by its candidates, each cut after 24
    /// moves. Cheap, and already far better than chance.
    pub const BASIC: Budget = Budget {
        playouts: 48,
        depth: 24,
        samples_per_schema: 4,
    };

    /// The `strong` bot's budget: up to 2,000 playouts, ended earlier by the caller's
    /// time limit.
    pub const STRONG: Budget = Budget {
        playouts: 2_000,
        depth: 48,
        samples_per_schema: 12,
    };
}

/// What a search found: the move, and how much it looked.
#[derive(Clone, Debug, PartialEq)]
pub struct Choice<A> {
    /// The move to play, or `None` to wait: another seat the game also waits on should move
    /// first (offered only when the caller allows it).
    pub action: Option<A>,
    /// Playouts run.
    pub playouts: u32,
    /// Candidates considered.
    pub candidates: usize,
    /// Candidates still in when the search ended (1 when halving ran its course).
    pub finalists: usize,
}

struct Candidate<A> {
    /// `None`: wait for another waiting seat to move.
    action: Option<A>,
    visits: u32,
    total: f64,
    refused: bool,
}

/// [`choose`] for `seat` of the game `state`, over worlds re-dealt from what `seat` sees:
/// how a bot chooses its move in a real game.
pub fn choose_for<G: Redeal>(
    state: &G,
    seat: Seat,
    budget: &Budget,
    may_wait: bool,
    spent: &mut dyn FnMut() -> f64,
    rng: &mut GameRng,
) -> Option<Choice<G::Action>> {
    let legal = state.legal_actions(seat);
    let mut worlds = |rng: &mut GameRng| state.redeal(Viewer::Seat(seat), rng);
    choose::<G>(seat, &legal, &mut worlds, budget, may_wait, spent, rng)
}

/// The move `seat` should play, from its `legal` actions, searching over worlds drawn by
/// `worlds`, within `budget` and until `spent` reaches 1 (checked before each playout). With
/// `may_wait`, waiting is a candidate too, tried by letting another seat of `to_act` move
/// first: in phases where several seats may act (a negotiation, sealed bids) a bot then
/// moves when moving helps, instead of always. `None` when nothing is possible.
pub fn choose<G: Game>(
    seat: Seat,
    legal: &[LegalAction<G::Action>],
    worlds: &mut dyn FnMut(&mut GameRng) -> G,
    budget: &Budget,
    may_wait: bool,
    spent: &mut dyn FnMut() -> f64,
    rng: &mut GameRng,
) -> Option<Choice<G::Action>> {
    let first = worlds(rng);
    // The plan's move comes first, so that it survives the cut below and ties go its way.
    let plan = first.plan(seat, rng);
    let mut actions: Vec<G::Action> = plan.iter().cloned().collect();
    for entry in legal {
        match entry {
            LegalAction::Action { action } => actions.push(action.clone()),
            LegalAction::Schema { schema, .. } => {
                for _ in 0..budget.samples_per_schema {
                    actions.extend(sample_action::<G>(schema, rng));
                }
            }
        }
    }
    let mut candidates: Vec<Candidate<G::Action>> = Vec::new();
    let fresh = |action| Candidate {
        action,
        visits: 0,
        total: 0.0,
        refused: false,
    };
    for action in actions {
        if candidates
            .iter()
            .any(|known| known.action.as_ref() == Some(&action))
        {
            continue;
        }
        if first.clone().apply(seat, action.clone(), rng).is_ok() {
            candidates.push(fresh(Some(action)));
        }
    }
    // Only sensible moves are candidates, unless the seat has none (`Game::sensible` depends
    // only on what the seat sees, so the world answers as the real game would).
    let sensible = |candidate: &Candidate<G::Action>| {
        candidate
            .action
            .as_ref()
            .is_some_and(|action| first.sensible(seat, action))
    };
    if candidates.iter().any(sensible) {
        candidates.retain(sensible);
    }
    if plan.is_some() {
        cut_candidates(&mut candidates, plan.as_ref(), budget, rng);
    }
    if candidates.is_empty() {
        return None;
    }
    if may_wait && others_act(&first, seat) {
        add_wait(&mut candidates, plan.is_some(), fresh(None));
    }
    if candidates.len() == 1 {
        return candidates.pop().map(|only| Choice {
            action: only.action,
            playouts: 0,
            candidates: 1,
            finalists: 1,
        });
    }

    let mut playouts = 0;
    let mut world = Some(first);
    let mut live: Vec<usize> = (0..candidates.len()).collect();
    let phases_for = |live: usize| live.next_power_of_two().trailing_zeros().max(1);
    let mut phases = phases_for(live.len());
    // With a plan, the first round also sizes the field to a clock that binds: it stops
    // taking in candidates (in their random order, the plan's move first) once it has
    // played one per [`CLOCK_CANDIDATES`] of the playouts the clock allows. (`basic` has no
    // clock; `strong`'s 100 ms allow far fewer Tulip Bubble playouts than its 2,000, which
    // spread over 250 candidates told them apart by noise.)
    let mut sizing = plan.is_some();
    // The candidates the first round took in: all of them, unless it sized the field to
    // the clock or the budget or the clock ran out before it was through.
    let mut reached = candidates.len();
    let mut phase = 0;
    'search: while phase < phases {
        // Each phase plays rounds until its share of the affordable playouts is spent (at
        // least one round); the share is re-estimated after every round.
        let mut rounds = 0;
        loop {
            if rounds > 0 {
                let total = affordable(budget.playouts, playouts, spent());
                let phase_end = total * f64::from(phase + 1) / f64::from(phases);
                if f64::from(playouts) + live.len() as f64 > phase_end {
                    break;
                }
            }
            rounds += 1;
            // One round: every live candidate from the same world, with the same dice.
            let base = world.take().unwrap_or_else(|| worlds(rng));
            let dice = seed_from(rng);
            let mut played: u32 = 0;
            for (position, &index) in live.iter().enumerate() {
                let used = spent();
                if playouts >= budget.playouts || used >= 1.0 {
                    if sizing {
                        reached = position;
                    }
                    break 'search;
                }
                if sizing && played >= 2 {
                    let fit = affordable(budget.playouts, playouts, used);
                    if fit < f64::from(budget.playouts)
                        && f64::from(played * CLOCK_CANDIDATES) >= fit
                    {
                        reached = position;
                        break;
                    }
                }
                let mut state = base.clone();
                let mut playout_rng = GameRng::for_entry(dice, 0);
                let candidate = &mut candidates[index];
                let applied = match &candidate.action {
                    Some(action) => state.apply(seat, action.clone(), &mut playout_rng).is_ok(),
                    None => {
                        others_act(&state, seat)
                            && random_step_by(&mut state, seat, false, &mut playout_rng)
                    }
                };
                if !applied {
                    // Refused in this world: what the seat cannot see decided it. Dropped.
                    candidate.refused = true;
                    continue;
                }
                candidate.visits += 1;
                candidate.total += play_out(&mut state, seat, budget.depth, &mut playout_rng);
                playouts += 1;
                played += 1;
            }
            if sizing {
                sizing = false;
                live.truncate(reached);
                phases = phases_for(live.len());
            }
            live.retain(|&index| !candidates[index].refused);
            if live.is_empty() {
                break 'search;
            }
        }
        if live.len() <= 1 {
            break;
        }
        halve(&mut live, &candidates);
        phase += 1;
    }
    if sizing {
        // The first round did not finish: the candidates it never reached were not played.
        live.truncate(reached);
        live.retain(|&index| !candidates[index].refused);
    }
    let finalists = live.len();
    let best = best_of(&live, &candidates)?;
    Some(Choice {
        action: candidates.swap_remove(best).action,
        playouts,
        candidates: reached,
        finalists,
    })
}

/// Keeps the plan's move (when it is a candidate) first and others in a random order, at
/// most one per [`PLAN_CANDIDATES`] playouts of the budget (at least two in all). The
/// search's first round may cut the field further, to the playouts its clock allows.
fn cut_candidates<A: PartialEq>(
    candidates: &mut Vec<Candidate<A>>,
    plan: Option<&A>,
    budget: &Budget,
    rng: &mut GameRng,
) {
    let keep = (budget.playouts / PLAN_CANDIDATES).max(2) as usize;
    let planned = candidates
        .iter()
        .position(|candidate| candidate.action.as_ref() == plan);
    let first = planned.map(|index| candidates.remove(index));
    rng.shuffle(candidates);
    candidates.truncate(keep - usize::from(first.is_some()));
    candidates.splice(0..0, first);
}

/// Adds the candidate of waiting: last, or with a plan right after the plan's move, so that
/// the first round's sizing to the clock (which keeps a prefix) never cuts it.
fn add_wait<A>(candidates: &mut Vec<Candidate<A>>, planned: bool, wait: Candidate<A>) {
    if planned {
        candidates.insert(candidates.len().min(1), wait);
    } else {
        candidates.push(wait);
    }
}

/// How many playouts a search can afford in all: the `budget`, or fewer when its clock says
/// so: after `done` playouts with a share `spent` of the time used, about `done / spent` fit
/// in the whole allowance. Before the first playout (or on a clock that has not moved) the
/// budget is all there is to go by.
fn affordable(budget: u32, done: u32, spent: f64) -> f64 {
    let budget = f64::from(budget);
    if done == 0 || spent <= 0.0 {
        return budget;
    }
    budget.min(f64::from(done) / spent)
}

impl<A> Candidate<A> {
    fn mean(&self) -> f64 {
        self.total / f64::from(self.visits.max(1))
    }
}

/// The finalist of `live` with the best mean reward, among those played and not refused; of
/// equal means the earliest candidate (the plan's move when it is one), as [`halve`] keeps
/// it. A search cut short by its clock can end with several finalists.
fn best_of<A>(live: &[usize], candidates: &[Candidate<A>]) -> Option<usize> {
    live.iter()
        .copied()
        .filter(|&index| !candidates[index].refused && candidates[index].visits > 0)
        .max_by(|&a, &b| {
            let by_mean = candidates[a].mean().total_cmp(&candidates[b].mean());
            by_mean.then(b.cmp(&a))
        })
}

/// Keeps the better half of `live` (rounded up) by mean reward; ties keep the earlier one.
fn halve<A>(live: &mut Vec<usize>, candidates: &[Candidate<A>]) {
    live.sort_by(|&a, &b| candidates[b].mean().total_cmp(&candidates[a].mean()));
    live.truncate(live.len().div_ceil(2));
}

/// A fresh seed for one round's dice.
fn seed_from(rng: &mut GameRng) -> [u8; 32] {
    let mut seed = [0; 32];
    for chunk in seed.chunks_exact_mut(8) {
        chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
    }
    seed
}

/// Plays `state` out with random moves for every seat and scores the end for `seat`. A game
/// with a [`Game::standing`] stops after `depth` moves and is scored by it; one without plays
/// on to the end (or [`PLAYOUT_LIMIT`] moves, scored as a draw).
fn play_out<G: Game>(state: &mut G, seat: Seat, depth: u32, rng: &mut GameRng) -> f64 {
    let mut cut = depth;
    if state.standing().is_none() {
        cut = PLAYOUT_LIMIT;
    }
    for _ in 0..cut {
        if state.to_act().is_empty() || !random_step(state, rng) {
            break;
        }
    }
    match state.outcome().or_else(|| state.standing()) {
        Some(outcome) => reward(&outcome, seat),
        None => 1.0 / f64::from(state.n_seats().max(1)),
    }
}

/// The longest playout of a game without a [`Game::standing`].
pub const PLAYOUT_LIMIT: u32 = 20_000;

/// What an ended game is worth to `seat`, in 0..=1: its share of the win (ties share it),
/// weighted 0.8, plus 0.2 for its rank (1 for first, 0 for last).
pub fn reward(outcome: &Outcome, seat: Seat) -> f64 {
    let n = outcome.ranks.len();
    let win = if outcome.winners.contains(seat) {
        1.0 / outcome.winners.len().max(1) as f64
    } else {
        0.0
    };
    let rank = outcome.ranks.get(seat.index()).copied().unwrap_or(n as u8);
    let placing = if n > 1 {
        (n as f64 - f64::from(rank)) / (n as f64 - 1.0)
    } else {
        1.0
    };
    0.8 * win + 0.2 * placing
}

/// Whether a seat other than `seat` may act in `state`.
fn others_act<G: Game>(state: &G, seat: Seat) -> bool {
    state.to_act().iter().any(|other| other != seat)
}

/// One move by a random seat of `to_act`: its [`Game::plan`] [`PLAN_ODDS`] of the time when
/// it has one, else as the `random` bot plays: a sensible action ([`sensible_action`]), up
/// to 20 tries while the rules refuse them, else a complete listed entry. `false` if
/// nothing was accepted.
pub fn random_step<G: Game>(state: &mut G, rng: &mut GameRng) -> bool {
    random_step_by(state, Seat(u8::MAX), true, rng)
}

/// [`random_step`] by a seat of `to_act` that is `seat` only if `including`.
fn random_step_by<G: Game>(state: &mut G, seat: Seat, including: bool, rng: &mut GameRng) -> bool {
    let acting: Vec<Seat> = state
        .to_act()
        .iter()
        .filter(|&acting| including || acting != seat)
        .collect();
    let Some(&seat) = rng.choose(&acting) else {
        return false;
    };
    // The seat's plan, most of the time (odds drawn only when there is one, so that games
    // without a plan play out exactly as before).
    if let Some(action) = state.plan(seat, rng) {
        if rng.below(PLAN_ODDS.1) < PLAN_ODDS.0 && state.apply(seat, action, rng).is_ok() {
            return true;
        }
    }
    let legal = state.legal_actions(seat);
    for _ in 0..20 {
        let Some(action) = sensible_action(state, seat, &legal, rng) else {
            return false;
        };
        if state.apply(seat, action, rng).is_ok() {
            return true;
        }
    }
    legal.iter().any(|entry| match entry {
        LegalAction::Action { action } => state.apply(seat, action.clone(), rng).is_ok(),
        LegalAction::Schema { .. } => false,
    })
}

/// How many draws [`sensible_action`] makes before it settles for a move that is not
/// sensible.
pub const SENSIBLE_DRAWS: u32 = 20;

/// A random move of `seat` from its `legal` actions that the game calls sensible
/// ([`Game::sensible`]): a uniformly chosen entry, a parameterised one sampled with
/// [`sample::Spread::Sensible`], drawn again (up to [`SENSIBLE_DRAWS`] times) while the move
/// is not sensible; then the first sensible complete entry; then any entry. `None` only when
/// `legal` is empty (or no schema samples). The rules may still refuse the move (a constraint
/// no schema states): the caller tries again.
pub fn sensible_action<G: Game>(
    state: &G,
    seat: Seat,
    legal: &[LegalAction<G::Action>],
    rng: &mut GameRng,
) -> Option<G::Action> {
    let mut fallback = None;
    for _ in 0..SENSIBLE_DRAWS {
        let action = match rng.choose(legal)? {
            LegalAction::Action { action } => action.clone(),
            LegalAction::Schema { schema, .. } => match sample_action::<G>(schema, rng) {
                Some(action) => action,
                None => continue,
            },
        };
        if state.sensible(seat, &action) {
            return Some(action);
        }
        fallback.get_or_insert(action);
    }
    let complete = legal.iter().filter_map(|entry| match entry {
        LegalAction::Action { action } => Some(action),
        LegalAction::Schema { .. } => None,
    });
    complete
        .clone()
        .find(|action| state.sensible(seat, action))
        .or_else(|| complete.clone().next())
        .cloned()
        .or(fallback)
}

/// A random action matching `schema`, if it samples and parses, drawn as a person would
/// ([`sample::Spread::Sensible`]: a bid near the minimum), for the candidates and for the
/// playouts alike.
fn sample_action<G: Game>(schema: &serde_json::Value, rng: &mut GameRng) -> Option<G::Action> {
    let value = sample::sample_spread(schema, sample::Spread::Sensible, rng)?;
    serde_json::from_value(value).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SeatSet;

    fn outcome(ranks: Vec<u8>, winners: &[u8]) -> Outcome {
        Outcome {
            scores: vec![0; ranks.len()],
            ranks,
            winners: winners.iter().map(|&s| Seat(s)).collect::<SeatSet>(),
            reason: "test".into(),
        }
    }

    #[test]
    fn rewards_order_win_shared_win_and_places() {
        let alone = reward(&outcome(vec![1, 2, 3, 4], &[0]), Seat(0));
        let shared = reward(&outcome(vec![1, 1, 3, 4], &[0, 1]), Seat(0));
        let second = reward(&outcome(vec![1, 2, 3, 4], &[0]), Seat(1));
        let last = reward(&outcome(vec![1, 2, 3, 4], &[0]), Seat(3));
        assert_eq!(alone, 1.0);
        assert!(alone > shared && shared > second && second > last);
        assert_eq!(last, 0.0);
    }

    #[test]
    fn the_affordable_playouts_follow_the_clock_when_it_binds() {
        // No playout yet, or a clock that has not moved: the budget.
        assert_eq!(affordable(2_000, 0, 0.5), 2_000.0);
        assert_eq!(affordable(2_000, 40, 0.0), 2_000.0);
        // 40 playouts in a tenth of the time: 400 fit.
        assert_eq!(affordable(2_000, 40, 0.1), 400.0);
        // A fast game: the budget binds first.
        assert_eq!(affordable(2_000, 400, 0.1), 2_000.0);
        // Past the allowance: fewer than already played (no further round fits).
        assert!(affordable(2_000, 100, 1.25) < 100.0);
    }

    #[test]
    fn with_a_plan_the_candidates_are_cut_to_the_plans_move_and_a_random_few() {
        let candidates = || -> Vec<Candidate<u32>> {
            (0..20)
                .map(|n| Candidate {
                    action: Some(n),
                    visits: 0,
                    total: 0.0,
                    refused: false,
                })
                .collect()
        };
        let actions = |kept: &[Candidate<u32>]| -> Vec<u32> {
            kept.iter()
                .filter_map(|candidate| candidate.action)
                .collect()
        };
        let mut rng = GameRng::for_entry([3; 32], 0);
        // `basic`'s 48 playouts: six candidates, the plan's move first, the others distinct.
        let mut kept = candidates();
        cut_candidates(&mut kept, Some(&13), &Budget::BASIC, &mut rng);
        let mut chosen = actions(&kept);
        assert_eq!((chosen.len(), chosen[0]), (6, 13));
        chosen.sort_unstable();
        chosen.dedup();
        assert_eq!(chosen.len(), 6);
        // Not the first six: drawn at random.
        assert_ne!(actions(&kept), [13, 0, 1, 2, 3, 4]);
        // A plan that is not a candidate (not sensible, refused): six others.
        let mut kept = candidates();
        cut_candidates(&mut kept, Some(&99), &Budget::BASIC, &mut rng);
        assert_eq!(kept.len(), 6);
        assert!(!actions(&kept).contains(&99));
        // `strong`'s budget keeps 250: nothing is cut, but the plan's move comes first and
        // the others in a random order (the first round may cut the field to its clock).
        let mut kept = candidates();
        cut_candidates(&mut kept, Some(&13), &Budget::STRONG, &mut rng);
        let mut chosen = actions(&kept);
        assert_eq!((chosen.len(), chosen[0]), (20, 13));
        assert_ne!(
            chosen[1..],
            (0..20).filter(|&n| n != 13).collect::<Vec<_>>()[..]
        );
        chosen.sort_unstable();
        assert_eq!(chosen, (0..20).collect::<Vec<_>>());
        // A tiny budget still leaves a choice of two.
        let tiny = Budget {
            playouts: 3,
            ..Budget::BASIC
        };
        let mut kept = candidates();
        cut_candidates(&mut kept, Some(&13), &tiny, &mut rng);
        assert_eq!((kept.len(), kept[0].action), (2, Some(13)));
    }

    #[test]
    fn the_best_finalist_has_the_best_mean_and_of_equal_means_the_earliest() {
        let candidate = |visits, total, refused| Candidate {
            action: Some(0u32),
            visits,
            total,
            refused,
        };
        // Means 0.5, 0.75, 0.75, 1.0 (refused), none (never played).
        let candidates = [
            candidate(2, 1.0, false),
            candidate(4, 3.0, false),
            candidate(4, 3.0, false),
            candidate(1, 1.0, true),
            candidate(0, 0.0, false),
        ];
        assert_eq!(best_of(&[0, 1, 2, 3, 4], &candidates), Some(1));
        assert_eq!(best_of(&[2, 1], &candidates), Some(1));
        assert_eq!(best_of(&[0, 2], &candidates), Some(2));
        assert_eq!(best_of(&[3, 4], &candidates), None);
        // The plan's move (index 0) wins a tie at the top.
        let tied = [candidate(2, 1.0, false), candidate(4, 2.0, false)];
        assert_eq!(best_of(&[0, 1], &tied), Some(0));
        assert_eq!(best_of(&[1, 0], &tied), Some(0));
    }

    #[test]
    fn waiting_comes_right_after_the_plans_move_and_last_without_a_plan() {
        let candidate = |action| Candidate {
            action,
            visits: 0,
            total: 0.0,
            refused: false,
        };
        let actions = |kept: &[Candidate<u32>]| -> Vec<Option<u32>> {
            kept.iter().map(|candidate| candidate.action).collect()
        };
        let three = || vec![candidate(Some(7)), candidate(Some(1)), candidate(Some(2))];
        let mut planned = three();
        add_wait(&mut planned, true, candidate(None));
        assert_eq!(actions(&planned), [Some(7), None, Some(1), Some(2)]);
        let mut unplanned = three();
        add_wait(&mut unplanned, false, candidate(None));
        assert_eq!(actions(&unplanned), [Some(7), Some(1), Some(2), None]);
        let mut alone = Vec::new();
        add_wait(&mut alone, true, candidate(None));
        assert_eq!(actions(&alone), [None]);
    }

    #[test]
    fn halving_keeps_the_better_half_by_mean_reward() {
        let candidate = |visits, total| Candidate {
            action: Some(()),
            visits,
            total,
            refused: false,
        };
        // Means 0.3, 0.8, 0.5, 0.1, 0.6.
        let candidates = [
            candidate(10, 3.0),
            candidate(10, 8.0),
            candidate(10, 5.0),
            candidate(10, 1.0),
            candidate(10, 6.0),
        ];
        let mut live = vec![0, 1, 2, 3, 4];
        halve(&mut live, &candidates);
        assert_eq!(live, [1, 4, 2]);
        halve(&mut live, &candidates);
        assert_eq!(live, [1, 4]);
        halve(&mut live, &candidates);
        assert_eq!(live, [1]);
    }
}
