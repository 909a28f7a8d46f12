//! Random playouts with game-core's harness (STYLE §8) for every seat count and every option
//! that changes the flow of play, checking the spec's invariants (§9) after every action.
//!
//! Step bounds: a random bot needs about 5 actions per turn, and because it keeps dice at
//! random it rarely rolls the four and five of a kind rows 4 and 5 need, so it places most
//! tiles above the field and a game takes hundreds of turns. Each test states its bound,
//! 2 to 3 times the longest game observed over its 1000 seeded games (printed by each
//! test), so a game that stalls is still caught.
//!
//! Options without a run of their own: `bonus_supply` (the shared supply runs out in most
//! four-player games, which the four-player test asserts), and `side_need`,
//! `straight_sets`, `start_spaces`, `two_player_boards` and `wildcard_threshold`, which
//! change which spaces match or where tiles start but not the sequence of play.
//!
//! The whole file plays about 16 million actions with every harness check on (about 3.5 CPU
//! minutes in the dev profile): random games are long; 1000 games per seat count and 500
//! per option variant.

use game_core::testing::{PlayoutStats, Playouts};
use game_core::{Game, Seat, Viewer};
use game_tulpenfieber::{
    AbovePlacement, Cell, GameResult, Options, Phase, Side, SoloTier, Space, TileKind, Tulpenfieber,
};
use std::cell::{Cell as Counter, RefCell};
use std::rc::Rc;

/// How often the hard parts of the rules came up, to show the playouts exercise them.
#[derive(Default, Debug)]
struct Coverage {
    /// Games that ended with the bonus supply empty.
    supply_exhausted: Counter<u64>,
    /// Wheelbarrow dice released by a reroll.
    wheelbarrow_released: Counter<u64>,
    /// Turns that bought a second roll (a 5th roll).
    second_roll_bought: Counter<u64>,
    /// Turns with two or more bonus claims.
    several_claims: Counter<u64>,
    /// Placements made with a wildcard (six or more equal dice).
    wildcards: Counter<u64>,
    /// Tiles placed above the field.
    placed_above: Counter<u64>,
}

fn bump(counter: &Counter<u64>) {
    counter.set(counter.get() + 1);
}

/// What the invariant closure remembers between consecutive states of one game.
#[derive(Default)]
struct Tracker {
    previous: Option<Tulpenfieber>,
    /// Rolls bought by each player (this solo round / this game): I3.
    bought: Vec<u32>,
    /// Placements by each player (this solo round / this game): I1.
    placements: Vec<u32>,
    /// Tiles each player started with (this solo round / this game): I1.
    start_tiles: Vec<usize>,
}

fn moneybags(game: &Tulpenfieber, seat: usize) -> u32 {
    let player = &game.players[seat];
    let field = player
        .field
        .cells
        .iter()
        .flatten()
        .filter(|cell| matches!(cell, Cell::Covered { tile, .. } if tile.side == Side::Moneybag))
        .count();
    (field
        + player
            .above
            .iter()
            .filter(|tile| tile.side == Side::Moneybag)
            .count()) as u32
}

fn solo_round(game: &Tulpenfieber) -> u8 {
    game.solo.as_ref().map_or(0, |solo| solo.round)
}

/// §9 invariants that hold in every single state.
fn check_state(game: &Tulpenfieber) {
    let options = &game.options;
    let n = game.players.len();
    let active = game.active.index();
    let turn = &game.turn;
    // I4 roll budget.
    assert!(
        turn.roll_number <= 3 + turn.rolls_bought && turn.rolls_bought <= 2,
        "I4: {turn:?}"
    );
    assert!(
        turn.rolls_bought == 0 || turn.roll_number >= 3,
        "I4: bought before roll 3"
    );
    // I5 dice.
    let in_turn = !matches!(
        game.phase,
        Phase::SoloBetweenRounds { .. } | Phase::GameOver
    );
    if in_turn {
        assert_eq!(
            turn.dice.len(),
            game.players[active].dice_count,
            "I5: dice in the turn"
        );
    }
    for (seat, player) in game.players.iter().enumerate() {
        assert!(
            (4..=7).contains(&player.dice_count),
            "I5: dice count {}",
            player.dice_count
        );
        let before_placement = matches!(
            game.phase,
            Phase::AwaitBonusDice | Phase::AwaitFirstRoll | Phase::Rolling | Phase::RollBought
        );
        // Only the active player's field changes, so the others are checked at turn starts.
        let turn_start = matches!(game.phase, Phase::AwaitBonusDice | Phase::AwaitFirstRoll);
        if (seat != active && turn_start) || (seat == active && before_placement) {
            assert_eq!(
                player.dice_count,
                player.field.dice_for(),
                "I5: dice_count agrees with the field"
            );
        }
    }
    if matches!(
        game.phase,
        Phase::Rolling | Phase::RollBought | Phase::AfterPlacement
    ) {
        assert!(
            turn.dice.iter().all(|die| die.value.is_some()),
            "I5: unrolled die while rolling"
        );
    }
    if game.phase == Phase::AwaitFirstRoll || game.phase == Phase::AwaitBonusDice {
        assert_eq!(turn.roll_number, 0);
        assert!(turn.placed.is_none());
    }
    // I6 bonus geometry and supply.
    let mut claimed = 0u32;
    for player in &game.players {
        claimed += player.bonus_tiles.len() as u32;
        let mut marks = [[None; 7]; 5];
        for (id, area) in player.bonus_tiles.iter().enumerate() {
            assert!(area.is_on_field(), "I6: area off the field");
            for space in area.spaces() {
                let (r, c) = (usize::from(space.row - 1), usize::from(space.col - 1));
                assert!(marks[r][c].is_none(), "I6: overlapping bonus tiles");
                marks[r][c] = Some(id as u8);
            }
        }
        for space in Space::all() {
            let (r, c) = (usize::from(space.row - 1), usize::from(space.col - 1));
            match player.field.cell(space) {
                Cell::Empty => assert!(marks[r][c].is_none(), "I6: bonus tile over an empty space"),
                Cell::Covered { bonus, .. } => {
                    assert_eq!(bonus, marks[r][c], "I6: bonus marks differ from areas")
                }
            }
        }
        // I15 flower spaces.
        if in_turn {
            for &space in options.start_spaces.of(player.board) {
                assert!(
                    player.field.is_covered(space),
                    "I15: flower space {space} empty"
                );
            }
        }
    }
    assert_eq!(
        claimed + game.bonus_supply,
        options.bonus_supply,
        "I6: bonus tiles conserved"
    );
    // I8 wheelbarrow dice.
    let k = game.players[active].bonus_tiles.len().min(turn.dice.len());
    for (index, die) in turn.dice.iter().enumerate() {
        if let Some(bonus) = die.on_bonus {
            assert!(
                usize::from(bonus) < k && usize::from(bonus) == index,
                "I8: die {index} on wheelbarrow {bonus}"
            );
        }
    }
    // I11 matching monotonicity (on the current dice).
    if game.phase == Phase::Rolling {
        let summary = game.dice_summary();
        let legal = game.legal_spaces();
        let empty: Vec<Space> = Space::all()
            .filter(|&s| !game.players[active].field.is_covered(s))
            .collect();
        if summary.max_count() >= options.wildcard_threshold {
            assert_eq!(legal, empty, "I11: wildcard");
        } else if turn.dice.len() < 6 {
            assert!(
                !legal.contains(&Space::new(5, 4)),
                "I11: r5c4 without 6 dice"
            );
        }
        // I13: in Rolling, place or place_above is always legal.
        assert!(
            !legal.is_empty()
                || game
                    .check(game.active, &game_tulpenfieber::Action::PlaceAbove {})
                    .is_ok(),
            "I13: no placement possible"
        );
    }
    // I10 terminal correctness.
    match (&game.solo, &game.phase) {
        (None, Phase::GameOver) => {
            let Some(GameResult::Winner { seat, condition }) = game.result else {
                panic!("I10: game over without a winner")
            };
            assert_eq!(
                game.players[seat.index()].field.win(),
                Some(condition),
                "I10: winner's field"
            );
            assert_eq!(seat, game.active);
            for (other, player) in game.players.iter().enumerate() {
                assert!(
                    other == seat.index() || player.field.win().is_none(),
                    "I10: two winners"
                );
            }
            assert!(game.legal_actions(seat).is_empty());
        }
        (None, _) => {
            assert!(game.result.is_none());
            assert!(
                game.players
                    .iter()
                    .all(|player| player.field.win().is_none()),
                "I10: a won game goes on"
            );
        }
        (Some(solo), phase) => {
            // I16 solo bookkeeping.
            assert_eq!(n, 1);
            let finished = matches!(phase, Phase::SoloBetweenRounds { .. } | Phase::GameOver);
            let expected = usize::from(solo.round) - usize::from(!finished);
            assert_eq!(solo.round_scores.len(), expected, "I16: round scores");
            assert_eq!(
                game.players[0].field.win().is_some(),
                finished,
                "I16: round end iff win"
            );
            let field = &game.players[0].field;
            for row in 1..=5u8 {
                let multicolor = (1..=7).filter(|&col| matches!(field.cell(Space::new(row, col)), Cell::Covered { tile, .. } if tile.kind == TileKind::Multicolor)).count();
                let allowed =
                    usize::from((row == 4 && solo.round >= 2) || (row == 5 && solo.round >= 3));
                assert!(
                    multicolor <= allowed,
                    "I16: {multicolor} multicoloured tiles in row {row}"
                );
            }
            if *phase == Phase::GameOver {
                let Some(GameResult::SoloResult {
                    round_scores,
                    total,
                    tier,
                }) = &game.result
                else {
                    panic!("I16: no solo result")
                };
                assert_eq!(round_scores, &solo.round_scores);
                assert_eq!(round_scores.len(), 3);
                assert_eq!(*total, round_scores.iter().sum::<u32>());
                assert_eq!(*tier, SoloTier::of(*total));
            }
        }
    }
}

/// §9 invariants about consecutive states of one game.
fn check_transition(
    before: &Tulpenfieber,
    after: &Tulpenfieber,
    tracker: &mut Tracker,
    coverage: &Coverage,
) {
    let n = after.players.len();
    let new_round = solo_round(before) != solo_round(after);
    if new_round {
        tracker.bought = vec![0; n];
        tracker.placements = vec![0; n];
        tracker.start_tiles = after.players.iter().map(|p| p.tiles_total()).collect();
        assert_eq!(after.turn_number, 1);
        return;
    }
    // I17 turn order.
    if before.active != after.active {
        assert_eq!(
            after.active,
            before.active.left(n as u8),
            "I17: active skipped a seat"
        );
        assert_eq!(
            after.turn_number,
            before.turn_number + 1,
            "I17: turn number"
        );
        assert_eq!(
            before.phase,
            Phase::AfterPlacement,
            "I17: turn ended without a placement"
        );
    } else {
        assert!(
            after.turn_number == before.turn_number || n == 1,
            "I17: turn number moved without end_turn"
        );
    }
    let same_turn = before.active == after.active && before.turn_number == after.turn_number;
    let active = after.active.index();
    if same_turn {
        // I8: on_bonus only goes Some -> None; a bonus die keeps its face until released.
        for (old, new) in before.turn.dice.iter().zip(&after.turn.dice) {
            if old.on_bonus.is_some() && new.on_bonus.is_some() {
                assert_eq!(old, new, "I8: bonus die changed while on its wheelbarrow");
            }
            if old.on_bonus.is_some() && new.on_bonus.is_none() {
                bump(&coverage.wheelbarrow_released);
            }
            if old.on_bonus.is_none() && old.value.is_some() {
                assert!(
                    new.on_bonus.is_none(),
                    "I8: a die went back onto a wheelbarrow"
                );
            }
        }
        // I9: one placement per turn.
        if before.turn.placed.is_some() {
            assert_eq!(
                before.turn.placed, after.turn.placed,
                "I9: second placement"
            );
        }
        if before.turn.placed.is_none() && after.turn.placed.is_some() {
            tracker.placements[active] += 1;
            if before.dice_summary().max_count() >= before.options.wildcard_threshold {
                bump(&coverage.wildcards);
            }
            if let Some(game_tulpenfieber::TileRef::Field(space)) = after.turn.placed {
                assert!(
                    !before.players[active].field.is_covered(space),
                    "I9: placed on a covered space"
                );
                assert!(
                    before.dice_summary().matches(space, &before.options),
                    "I9: placed without a match"
                );
            } else {
                bump(&coverage.placed_above);
                if before.options.above_placement == AbovePlacement::WhenNoMatch {
                    assert!(
                        before.legal_spaces().is_empty(),
                        "I9: placed above with a matching space"
                    );
                }
            }
        }
        if after.turn.rolls_bought > before.turn.rolls_bought {
            tracker.bought[active] += 1;
            if after.turn.rolls_bought == 2 {
                bump(&coverage.second_roll_bought);
            }
        }
        if after.turn.bonus_claims == 2 && before.turn.bonus_claims == 1 {
            bump(&coverage.several_claims);
        }
    }
    for seat in 0..n {
        let (old, new) = (&before.players[seat], &after.players[seat]);
        // I5: dice never decrease within a game or round.
        assert!(new.dice_count >= old.dice_count, "I5: dice decreased");
        // Only the active player's field may change (I17: one player acts at a time).
        if seat != active && seat != before.active.index() {
            assert_eq!(old, new, "a waiting player's board changed");
            continue;
        }
        // I2 / I7: coverage monotone, kind fixed, side only Tulip -> Moneybag, frozen under bonus.
        for space in Space::all() {
            match (old.field.cell(space), new.field.cell(space)) {
                (Cell::Covered { .. }, Cell::Empty) => panic!("I2: {space} became empty"),
                (Cell::Covered { tile: a, bonus }, Cell::Covered { tile: b, .. }) => {
                    assert_eq!(a.kind, b.kind, "I2: kind changed");
                    assert!(
                        a.side == b.side || (a.side == Side::Tulip && b.side == Side::Moneybag),
                        "I2: moneybag flipped back"
                    );
                    assert!(
                        bonus.is_none() || a.side == b.side,
                        "I7: flipped under a bonus tile"
                    );
                }
                _ => {}
            }
        }
        assert!(new.above.len() >= old.above.len(), "I2: above shrank");
        // I3 flip parity, I1 tile conservation.
        assert_eq!(
            moneybags(after, seat),
            2 * tracker.bought[seat],
            "I3: moneybags vs rolls bought"
        );
        assert_eq!(
            new.tiles_total(),
            tracker.start_tiles[seat] + tracker.placements[seat] as usize,
            "I1: tiles conserved"
        );
    }
    // I10: nothing happens after the end.
    assert_ne!(
        before.phase,
        Phase::GameOver,
        "I10: action accepted after game over"
    );
}

fn invariants(coverage: Rc<Coverage>) -> impl Fn(&Tulpenfieber) {
    let tracker = RefCell::new(Tracker::default());
    move |game: &Tulpenfieber| {
        if game.phase == Phase::GameOver && game.bonus_supply == 0 {
            bump(&coverage.supply_exhausted);
        }
        check_state(game);
        let mut tracker = tracker.borrow_mut();
        let fresh = tracker
            .previous
            .as_ref()
            .is_none_or(|previous| previous.phase == Phase::GameOver);
        if fresh {
            let n = game.players.len();
            tracker.bought = vec![0; n];
            tracker.placements = vec![0; n];
            tracker.start_tiles = game.players.iter().map(|p| p.tiles_total()).collect();
            assert_eq!(game.turn_number, 1);
        } else {
            let previous = tracker.previous.take().expect("checked above");
            check_transition(&previous, game, &mut tracker, &coverage);
        }
        // The view is the same for every viewer (§2): checked at turn starts to keep it cheap.
        if game.phase == Phase::AwaitFirstRoll && game.turn_number % 5 == 1 {
            let spectator = game.view(Viewer::Spectator);
            assert!(
                Seat::all(game.n_seats()).all(|seat| game.view(Viewer::Seat(seat)) == spectator),
                "views differ"
            );
        }
        tracker.previous = Some(game.clone());
    }
}

/// Games per seat count: 500 (was 1000; the binary took 235 s of a 41-minute CI run, over
/// the 35-minute budget). Each game is thousands of random actions, so 500 still make
/// millions of checked steps per seat count and reach every ending and coverage mark below.
const GAMES: u64 = 500;

fn run(n_seats: u8, options: Options, max_steps: usize) -> (PlayoutStats, Rc<Coverage>) {
    run_games(n_seats, options, max_steps, GAMES)
}

/// [`run`] with `games` games.
fn run_games(
    n_seats: u8,
    options: Options,
    max_steps: usize,
    games: u64,
) -> (PlayoutStats, Rc<Coverage>) {
    let mut playouts = Playouts::<Tulpenfieber>::new(n_seats)
        .options(options)
        .games(games)
        .max_steps(max_steps);
    // Everything is public and `redeal` is a clone, so the no-leak check cannot fail; it
    // still runs (every 25 steps rather than 5) to exercise every viewer's view.
    playouts.leak_check_every = 25;
    // Likewise the undo-cannot-peek check (every 64 steps rather than 8): a re-dealt world
    // is the real one, so it has nothing to compare here; it still runs, less often.
    playouts.undo_check_every = 64;
    let started = std::time::Instant::now();
    let coverage = Rc::new(Coverage::default());
    let stats = playouts.run(invariants(coverage.clone()));
    eprintln!(
        "{n_seats} seats: {:?} for {} steps",
        started.elapsed(),
        stats.steps
    );
    eprintln!("{n_seats} seats: {stats:?}");
    assert_eq!(stats.games, games);
    // Everything is public: a re-deal is a clone, so no re-deal can change the state.
    assert_eq!(stats.redeals_that_changed_state, 0);
    assert!(stats.refusals_checked > 0);
    assert!(stats.longest_game <= max_steps);
    eprintln!("{n_seats} seats: {coverage:?}");
    assert!(
        coverage.wheelbarrow_released.get() > 0 && coverage.second_roll_bought.get() > 0,
        "{coverage:?}"
    );
    assert!(
        coverage.wildcards.get() > 0 && coverage.placed_above.get() > 0,
        "{coverage:?}"
    );
    (stats, coverage)
}

fn assert_multiplayer_reasons(stats: &PlayoutStats) {
    let total: u64 = stats.reasons.values().sum();
    assert_eq!(total, stats.games);
    for reason in stats.reasons.keys() {
        assert!(
            [
                "row_four_complete",
                "row_five_three_adjacent",
                "row_five_four_tiles"
            ]
            .contains(&reason.as_str()),
            "{reason}"
        );
    }
    assert!(
        stats.reasons.get("row_four_complete").copied().unwrap_or(0) > 0,
        "{stats:?}"
    );
    assert!(
        stats
            .reasons
            .get("row_five_three_adjacent")
            .copied()
            .unwrap_or(0)
            > 0,
        "{stats:?}"
    );
    assert!(
        stats.wins_by_seat.iter().all(|&wins| wins > 0),
        "every seat wins sometimes: {stats:?}"
    );
}

/// §1.5, §6.3: the three-round solo game. Step bound 20,000: the longest of 1000 such
/// games took about 7,000 actions (three rounds of a random player, who mostly places above
/// the field once the easy spaces are full).
#[test]
fn solo_playouts() {
    let (stats, _) = run(1, Options::default(), 20_000);
    let total: u64 = stats.reasons.values().sum();
    assert_eq!(total, GAMES);
    assert!(
        stats
            .reasons
            .keys()
            .all(|reason| reason.starts_with("solo_")),
        "{stats:?}"
    );
    assert!(stats.reasons.contains_key("solo_lost"), "{stats:?}");
}

/// §1.4, two players (boards I and II). Step bound 10,000: the longest of these games takes
/// about 4,600 actions.
#[test]
fn two_player_playouts() {
    assert_multiplayer_reasons(&run(2, Options::default(), 10_000).0);
}

/// §1.4, three players (boards I–III). Step bound 15,000: the longest game takes about
/// 5,400 actions.
#[test]
fn three_player_playouts() {
    assert_multiplayer_reasons(&run(3, Options::default(), 15_000).0);
}

/// §1.4, four players (boards I–IV). Step bound 20,000: the longest game takes about 7,600
/// actions.
#[test]
fn four_player_playouts() {
    let (stats, coverage) = run(4, Options::default(), 20_000);
    assert_multiplayer_reasons(&stats);
    // Four players can exhaust the shared supply of 10 bonus tiles.
    assert!(coverage.supply_exhausted.get() > 0, "{coverage:?}");
}

/// D13 variant: `place_above` allowed at any time, which adds a choice to every roll and
/// slows the race. Step bound 15,000 (two players; the longest game takes about 8,200
/// actions). 250 games: the variant changes one choice, which every game makes hundreds of
/// times; the seat counts above play [`GAMES`] each.
#[test]
fn place_above_always_playouts() {
    let options = Options {
        above_placement: AbovePlacement::Always,
        ..Options::default()
    };
    assert_multiplayer_reasons(&run_games(2, options, 15_000, 250).0);
}

/// D9 variant: unlimited bonus claims per turn, so a turn may lay several bonus tiles.
/// Step bound 10,000 (two players; the longest game takes about 4,600 actions). 250 games,
/// as for the other variant.
#[test]
fn unlimited_bonus_claims_playouts() {
    let options = Options {
        max_bonus_claims_per_turn: None,
        ..Options::default()
    };
    let (stats, coverage) = run_games(2, options, 10_000, 250);
    assert_multiplayer_reasons(&stats);
    assert!(coverage.several_claims.get() > 0, "{coverage:?}");
}
