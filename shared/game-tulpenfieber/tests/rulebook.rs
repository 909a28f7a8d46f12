//! The worked examples of the spec (§8), one test each and named after them, plus setup,
//! option and JSON-shape checks. Unless a test says otherwise: two players, seat 0 = Floris
//! on board I (r1c2, r1c6, r2c4), seat 1 = Marieke on board II (r1c3, r1c6, r2c4), default
//! options. Scripted dice (`RNG → …`) come from `scenario::scripted_rng`.

use game_core::{Game, GameRng, LegalAction, RuleError, Seat, SeatSet, SetupError, Viewer};
use game_tulpenfieber::scenario::{game, game_with, scripted_rng, space};
use game_tulpenfieber::{
    AbovePlacement, Action, BonusTile, Cell, DiceSummary, Die, GameResult, Options, Phase, Side,
    SoloTier, Space, Tile, TileKind, TileRef, Tulpenfieber, WinCondition,
};
// The error type is `Error` now; this alias keeps the assertions below as they were.
use game_tulpenfieber::Error as TulpenfieberError;

const FLORIS: u8 = 0;
const MARIEKE: u8 = 1;

fn any_rng() -> GameRng {
    GameRng::for_entry([1; 32], 1)
}

/// Applies an action that must be accepted.
fn ok(game: &mut Tulpenfieber, seat: u8, action: Action) {
    if let Err(error) = game.apply(Seat(seat), action.clone(), &mut any_rng()) {
        panic!("{action:?} was refused: {error}");
    }
}

/// Applies an action with scripted dice.
fn ok_rolling(game: &mut Tulpenfieber, seat: u8, action: Action, dice: &[u8]) {
    if let Err(error) = game.apply(Seat(seat), action.clone(), &mut scripted_rng(dice)) {
        panic!("{action:?} was refused: {error}");
    }
}

/// Asserts that an action is refused with `code` and leaves the state unchanged.
fn refused(game: &mut Tulpenfieber, seat: u8, action: Action, code: &str) -> TulpenfieberError {
    let before = game.clone();
    let error = game
        .apply(Seat(seat), action.clone(), &mut any_rng())
        .expect_err("the action must be refused");
    assert_eq!(error.code(), code, "{action:?}: {error}");
    assert_eq!(*game, before, "a refused action changed the state");
    error
}

fn spaces(names: &[&str]) -> Vec<Space> {
    names.iter().map(|name| space(name)).collect()
}

fn place(name: &str) -> Action {
    Action::Place { space: space(name) }
}

fn reroll(dice: &[u32]) -> Action {
    Action::Reroll {
        dice: dice.to_vec(),
    }
}

fn field(name: &str) -> TileRef {
    TileRef::Field(space(name))
}

fn buy(first: TileRef, second: TileRef) -> Action {
    Action::BuyRoll {
        flip: [first, second],
    }
}

fn claim(row: i64, col: i64, height: i64, width: i64) -> Action {
    Action::ClaimBonus {
        row,
        col,
        height,
        width,
    }
}

fn values(game: &Tulpenfieber) -> Vec<u8> {
    game.turn
        .dice
        .iter()
        .map(|die| die.value.unwrap_or(0))
        .collect()
}

fn side(game: &Tulpenfieber, seat: u8, name: &str) -> Side {
    match game.players[usize::from(seat)].field.cell(space(name)) {
        Cell::Covered { tile, .. } => tile.side,
        Cell::Empty => panic!("{name} is empty"),
    }
}

/// Marieke's field after E1: r1c3 M, r1c6 M, r2c4 T, r4c7 T.
fn marieke_after_e1() -> Tulpenfieber {
    game(2)
        .with_tiles(MARIEKE, &["r4c7"])
        .with_moneybags(MARIEKE, &["r1c3", "r1c6"])
}

/// Floris' field of E6's figure: r1c2, r1c6 T; r1–r3 × c3–c4 under bonus tile 0.
fn floris_e6_figure() -> Tulpenfieber {
    game(2)
        .with_tiles(FLORIS, &["r1c3", "r1c4", "r2c3", "r3c3", "r3c4"])
        .with_bonus(FLORIS, 1, 3, 3, 2)
        .with_synced_dice()
}

/// §8.1 E1, "Marieke buys a fourth roll".
#[test]
fn e1_marieke_buys_a_fourth_roll() {
    let mut g = game(2).rolling(MARIEKE, &[1, 3, 6, 6], 3);
    assert_eq!(g.legal_spaces(), spaces(&["r1c7"]));
    // 1. The budget of three rolls is used up.
    refused(&mut g, MARIEKE, reroll(&[0]), "rule-violation");
    // 2. Flip two flower tiles.
    ok(&mut g, MARIEKE, buy(field("r1c3"), field("r1c6")));
    assert_eq!(side(&g, MARIEKE, "r1c3"), Side::Moneybag);
    assert_eq!(side(&g, MARIEKE, "r1c6"), Side::Moneybag);
    assert_eq!((g.turn.rolls_bought, g.turn.roll_number), (1, 3));
    assert_eq!(g.phase, Phase::RollBought);
    // 3. The bought roll must be made first.
    refused(&mut g, MARIEKE, place("r1c7"), "wrong-phase");
    // 4. RNG → 6, 6.
    ok_rolling(&mut g, MARIEKE, reroll(&[0, 1]), &[6, 6]);
    assert_eq!(values(&g), vec![6, 6, 6, 6]);
    assert_eq!(g.turn.roll_number, 4);
    assert_eq!(g.phase, Phase::Rolling);
    assert_eq!(g.legal_spaces(), spaces(&["r1c7", "r2c7", "r3c7", "r4c7"]));
    // 5. r1c3 already shows its moneybag.
    let error = refused(
        &mut g,
        MARIEKE,
        buy(field("r2c4"), field("r1c3")),
        "rule-violation",
    );
    assert_eq!(error, TulpenfieberError::NotFlippable(field("r1c3")));
    // 6. Place in row 4: no win.
    ok(&mut g, MARIEKE, place("r4c7"));
    assert_eq!(g.phase, Phase::AfterPlacement);
    assert!(g.result.is_none());
    // 7. Still 4 dice (Lmax = 2); Floris is next.
    ok(&mut g, MARIEKE, Action::EndTurn {});
    assert_eq!(g.players[1].dice_count, 4);
    assert_eq!(g.active, Seat(FLORIS));
}

/// §8.1 E2, "Three 2s: top three rows of column 2".
#[test]
fn e2_three_twos_reach_the_top_three_rows() {
    let mut g = marieke_after_e1().rolling(MARIEKE, &[2, 5, 2, 2], 2);
    assert_eq!(g.legal_spaces(), spaces(&["r1c2", "r2c2", "r3c2"]));
    let error = refused(&mut g, MARIEKE, place("r4c2"), "rule-violation");
    assert_eq!(error, TulpenfieberError::NoMatch(space("r4c2")));
    ok(&mut g, MARIEKE, place("r3c2"));
    assert_eq!(g.players[1].field.longest_line(), 2);
}

/// §8.1 E3, "Floris' straight choices" (D2).
#[test]
fn e3_floris_straight_choices() {
    let mut g = game(2).rolling(FLORIS, &[5, 3, 2, 4], 3);
    assert_eq!(g.legal_spaces(), spaces(&["r1c4", "r3c4"]));
    // {2,3,4,5} contains neither 1234 nor 3456: row 2 fails whatever the occupancy.
    assert!(!g.dice_summary().matches(space("r2c4"), &g.options));
    ok(&mut g, FLORIS, place("r1c4"));
}

/// §8.1 E4, "Floris' fifth die, vertical in the middle column" (§3.3).
#[test]
fn e4_fifth_die_from_the_middle_column() {
    let mut g = game(2)
        .with_tiles(FLORIS, &["r1c4"])
        .rolling(FLORIS, &[2, 3, 4, 5], 1);
    assert_eq!(g.legal_spaces(), spaces(&["r3c4"]));
    ok(&mut g, FLORIS, place("r3c4"));
    assert_eq!(g.players[0].field.dice_for(), 5);
    assert_eq!(
        g.players[0].dice_count, 4,
        "the new die counts from the next turn"
    );
    ok(&mut g, FLORIS, Action::EndTurn {});
    assert_eq!(g.players[0].dice_count, 5);
    assert_eq!(g.turn_start(FLORIS).turn.dice.len(), 5);
}

/// §8.1 E5, "Marieke's fifth die, diagonal": the moneybag at the line's start counts.
#[test]
fn e5_fifth_die_from_a_diagonal() {
    let mut g =
        marieke_after_e1()
            .with_tiles(MARIEKE, &["r3c2"])
            .rolling(MARIEKE, &[4, 1, 4, 4], 1);
    assert_eq!(g.legal_spaces(), spaces(&["r1c5", "r2c5", "r3c5"]));
    ok(&mut g, MARIEKE, place("r3c5"));
    ok(&mut g, MARIEKE, Action::EndTurn {});
    assert_eq!(g.players[1].dice_count, 5);
}

/// §8.1 E6, "Floris' 3×2 bonus tile" (§3.4, D9).
#[test]
fn e6_floris_claims_a_three_by_two_bonus_tile() {
    let g = game(2)
        .with_tiles(FLORIS, &["r1c3", "r1c4", "r2c3", "r3c4"])
        .with_synced_dice();
    assert_eq!(g.players[0].dice_count, 5);
    let mut g = g.rolling(FLORIS, &[3, 6, 3, 1, 3], 2);
    assert_eq!(g.bonus_supply, 10);
    assert_eq!(g.legal_spaces(), spaces(&["r3c3"]));
    ok(&mut g, FLORIS, place("r3c3"));
    assert_eq!(g.phase, Phase::AfterPlacement);
    ok(&mut g, FLORIS, claim(1, 3, 3, 2));
    assert_eq!(
        g.players[0].bonus_tiles,
        vec![BonusTile {
            row: 1,
            col: 3,
            height: 3,
            width: 2
        }]
    );
    for name in ["r1c3", "r1c4", "r2c3", "r2c4", "r3c3", "r3c4"] {
        assert_eq!(
            g.players[0].field.cell(space(name)),
            Cell::Covered {
                tile: Tile::TULIP,
                bonus: Some(0)
            }
        );
    }
    assert_eq!((g.bonus_supply, g.turn.bonus_claims), (9, 1));
    assert_eq!(
        g.build_view().players[0].field[..3],
        [".Ttt.T.", "..tt...", "..tt..."]
    );
    let error = refused(&mut g, FLORIS, claim(4, 1, 2, 3), "rule-violation");
    assert_eq!(error, TulpenfieberError::ClaimLimitReached(1));
    ok(&mut g, FLORIS, Action::EndTurn {});
    assert_eq!(g.players[0].dice_count, 5);
}

/// §8.1 E7, "Floris sets a face on his bonus tile, 6 dice": the wheelbarrow die counts.
#[test]
fn e7_wheelbarrow_die_counts_with_six_dice() {
    let mut g = floris_e6_figure()
        .with_tiles(FLORIS, &["r4c4"])
        .with_synced_dice()
        .turn_start(FLORIS);
    assert_eq!(g.phase, Phase::AwaitBonusDice);
    assert_eq!(g.turn.dice, vec![Die::default(); 6]);
    refused(&mut g, FLORIS, Action::Roll {}, "wrong-phase");
    ok(&mut g, FLORIS, Action::SetBonusDie { bonus: 0, face: 4 });
    assert_eq!(
        g.turn.dice[0],
        Die {
            value: Some(4),
            on_bonus: Some(0)
        }
    );
    assert_eq!(g.phase, Phase::AwaitFirstRoll);
    ok_rolling(&mut g, FLORIS, Action::Roll {}, &[2, 4, 4, 6, 1]);
    assert_eq!(values(&g), vec![4, 2, 4, 4, 6, 1]);
    assert_eq!(
        g.turn.dice[0].on_bonus,
        Some(0),
        "the first roll leaves the wheelbarrow die alone"
    );
    assert_eq!(g.turn.roll_number, 1);
    assert_eq!(g.legal_spaces(), spaces(&["r1c5", "r2c5", "r3c5"]));
    let without_wheelbarrow = DiceSummary::of(g.turn.dice[1..].iter().map(|die| die.value));
    let field = &g.players[0].field;
    let legal: Vec<Space> = Space::all()
        .filter(|&s| !field.is_covered(s) && without_wheelbarrow.matches(s, &g.options))
        .collect();
    assert_eq!(legal, spaces(&["r1c5"]));
}

/// §8.2 X1, "Buying out of sequence" (D11).
#[test]
fn x1_buying_out_of_sequence() {
    let mut g = game(2).rolling(MARIEKE, &[1, 3, 6, 6], 2);
    let error = refused(
        &mut g,
        MARIEKE,
        buy(field("r1c3"), field("r1c6")),
        "rule-violation",
    );
    assert_eq!(error, TulpenfieberError::RollsNotUsedUp(3));
    ok(&mut g, MARIEKE, reroll(&[0]));
    assert_eq!(g.turn.roll_number, 3);
    assert!(g
        .check(Seat(MARIEKE), &buy(field("r1c3"), field("r1c6")))
        .is_ok());

    // With two more flippable tiles above the field, two rolls can be bought, then no more.
    let mut g = game(2)
        .with_above(MARIEKE, 2)
        .rolling(MARIEKE, &[1, 3, 6, 6], 3);
    ok(&mut g, MARIEKE, buy(field("r1c3"), field("r1c6")));
    ok(&mut g, MARIEKE, reroll(&[0]));
    ok(&mut g, MARIEKE, buy(field("r2c4"), TileRef::Above(0)));
    ok(&mut g, MARIEKE, reroll(&[0]));
    assert_eq!((g.turn.roll_number, g.turn.rolls_bought), (5, 2));
    refused(&mut g, MARIEKE, reroll(&[1]), "rule-violation");
    let error = refused(
        &mut g,
        MARIEKE,
        buy(TileRef::Above(1), field("r4c7")),
        "bad-parameter",
    );
    assert_eq!(error, TulpenfieberError::NoSuchTile(field("r4c7")));
    g = g.with_above(MARIEKE, 1);
    refused(
        &mut g,
        MARIEKE,
        buy(TileRef::Above(1), TileRef::Above(2)),
        "rule-violation",
    );
    let only_placements = g.legal_actions(Seat(MARIEKE)).into_iter().all(|entry| {
        matches!(
            entry,
            LegalAction::Action {
                action: Action::Place { .. } | Action::PlaceAbove {}
            }
        )
    });
    assert!(only_placements);
}

/// §8.2 X2, "What can be flipped" (§2 `flippable`, D11).
#[test]
fn x2_what_can_be_flipped() {
    let mut g = floris_e6_figure()
        .with_above(FLORIS, 1)
        .rolling(FLORIS, &[3, 6, 3, 1, 3], 3);
    assert_eq!(
        g.players[0].flippable(),
        vec![field("r1c2"), field("r1c6"), TileRef::Above(0)]
    );
    let error = refused(
        &mut g,
        FLORIS,
        buy(field("r1c3"), field("r1c2")),
        "rule-violation",
    );
    assert_eq!(error, TulpenfieberError::NotFlippable(field("r1c3")));
    let error = refused(
        &mut g,
        FLORIS,
        buy(field("r1c2"), field("r1c2")),
        "bad-parameter",
    );
    assert_eq!(error, TulpenfieberError::SameTileTwice);
    ok(&mut g, FLORIS, buy(field("r1c2"), TileRef::Above(0)));
    assert_eq!(side(&g, FLORIS, "r1c2"), Side::Moneybag);
    assert_eq!(g.players[0].above[0].side, Side::Moneybag);
    ok(&mut g, FLORIS, reroll(&[1]));
    assert_eq!(g.turn.roll_number, 4);
    let error = refused(
        &mut g,
        FLORIS,
        buy(field("r1c6"), field("r1c2")),
        "rule-violation",
    );
    assert_eq!(error, TulpenfieberError::NotFlippable(field("r1c2")));
    assert_eq!(g.players[0].flippable(), vec![field("r1c6")]);
}

/// §8.2 X3, "`place_above` only when nothing matches" (D13).
#[test]
fn x3_place_above_only_when_nothing_matches() {
    let mut g = marieke_after_e1().rolling(MARIEKE, &[1, 2, 4, 6], 1);
    assert!(g.legal_spaces().is_empty());
    refused(&mut g, MARIEKE, place("r1c1"), "rule-violation");
    ok(&mut g, MARIEKE, Action::PlaceAbove {});
    assert_eq!(g.players[1].above, vec![Tile::TULIP]);
    assert_eq!(g.turn.placed, Some(TileRef::Above(0)));
    assert_eq!(g.phase, Phase::AfterPlacement);
    assert!(g.result.is_none());

    let mut g = marieke_after_e1().rolling(MARIEKE, &[1, 1, 4, 6], 1);
    assert_eq!(g.legal_spaces(), spaces(&["r1c1"]));
    let error = refused(&mut g, MARIEKE, Action::PlaceAbove {}, "rule-violation");
    assert_eq!(error, TulpenfieberError::MustPlaceOnField);

    // The `always` variant allows it.
    let options = Options {
        above_placement: AbovePlacement::Always,
        ..Options::default()
    };
    let mut g = game_with(2, &options).rolling(MARIEKE, &[1, 1, 4, 6], 1);
    ok(&mut g, MARIEKE, Action::PlaceAbove {});
}

/// §8.2 X4, "Wildcard six of a kind" (D14).
#[test]
fn x4_six_of_a_kind_is_a_wildcard() {
    let g = game(2)
        .with_tiles(FLORIS, &["r2c2", "r3c2", "r4c2"])
        .with_synced_dice();
    assert_eq!(g.players[0].dice_count, 6);
    let mut g = g.rolling(FLORIS, &[3, 3, 3, 3, 3, 3], 1);
    let legal = g.legal_spaces();
    assert_eq!(legal.len(), 29);
    assert!(legal.iter().all(|&s| !g.players[0].field.is_covered(s)));
    ok(&mut g, FLORIS, place("r5c4"));
    assert!(g.result.is_none());
    ok(&mut g, FLORIS, Action::EndTurn {});
    assert_eq!(g.players[0].dice_count, 6);
}

/// §8.2 X5, "Taking the bonus die back into the roll" (D10).
#[test]
fn x5_releasing_the_wheelbarrow_die() {
    let mut g = floris_e6_figure().turn_start(FLORIS);
    assert_eq!(
        (g.players[0].dice_count, g.phase.clone()),
        (5, Phase::AwaitBonusDice)
    );
    ok(&mut g, FLORIS, Action::SetBonusDie { bonus: 0, face: 6 });
    ok_rolling(&mut g, FLORIS, Action::Roll {}, &[1, 2, 3, 5]);
    assert_eq!(values(&g), vec![6, 1, 2, 3, 5]);
    ok_rolling(&mut g, FLORIS, reroll(&[0]), &[4]);
    assert_eq!(
        g.turn.dice[0],
        Die {
            value: Some(4),
            on_bonus: None
        }
    );
    assert_eq!(g.turn.roll_number, 2);
    refused(
        &mut g,
        FLORIS,
        Action::SetBonusDie { bonus: 0, face: 6 },
        "wrong-phase",
    );
    assert_eq!(g.legal_spaces(), spaces(&["r4c4"]));
    ok(&mut g, FLORIS, place("r4c4"));
    ok(&mut g, FLORIS, Action::EndTurn {});
    assert_eq!(g.players[0].dice_count, 6);
}

/// §8.2 X6, "Two dice gained by one placement" (D8).
#[test]
fn x6_two_dice_from_one_placement() {
    let g = game(2)
        .with_tiles(FLORIS, &["r2c1", "r3c1", "r4c1"])
        .with_synced_dice();
    assert_eq!(g.players[0].dice_count, 4);
    let mut g = g.rolling(FLORIS, &[1, 6, 1, 5], 1);
    assert_eq!(g.legal_spaces(), spaces(&["r1c1"]));
    ok(&mut g, FLORIS, place("r1c1"));
    ok(&mut g, FLORIS, Action::EndTurn {});
    assert_eq!(g.players[0].dice_count, 6);
}

/// §8.2 X7, "Lines that do not count" (D7).
#[test]
fn x7_lines_that_do_not_count() {
    let mut g = game(2)
        .with_tiles(FLORIS, &["r1c1", "r1c3"])
        .after_placement(FLORIS);
    ok(&mut g, FLORIS, Action::EndTurn {});
    assert_eq!(g.players[0].dice_count, 4);
    let g = game(2).with_tiles(FLORIS, &["r2c1", "r3c2", "r4c3"]);
    assert_eq!(g.players[0].field.dice_for(), 4);
}

/// §8.2 X8, "Row 5 wins and non-wins" (§6.1, §6.2).
#[test]
fn x8_row_five_wins_and_non_wins() {
    let base = game(2).with_tiles(FLORIS, &["r2c2", "r3c2", "r4c2"]);
    let mut g = base
        .clone()
        .with_tiles(FLORIS, &["r5c5", "r5c7"])
        .with_synced_dice()
        .rolling(FLORIS, &[5, 5, 2, 5, 5, 5], 1);
    ok(&mut g, FLORIS, place("r5c6"));
    assert_eq!(g.phase, Phase::GameOver);
    assert_eq!(
        g.result,
        Some(GameResult::Winner {
            seat: Seat(FLORIS),
            condition: WinCondition::RowFiveThreeAdjacent
        })
    );
    refused(&mut g, FLORIS, claim(1, 1, 2, 3), "game-over");
    refused(&mut g, FLORIS, Action::EndTurn {}, "game-over");
    assert_eq!(g.to_act(), SeatSet::EMPTY);
    let outcome = g.outcome().expect("finished");
    assert_eq!(outcome.scores, vec![1, 0]);
    assert_eq!(outcome.ranks, vec![1, 2]);
    assert_eq!(outcome.winners, SeatSet::only(Seat(FLORIS)));
    assert_eq!(outcome.reason, "row_five_three_adjacent");

    let mut g = base
        .with_tiles(FLORIS, &["r5c1", "r5c3"])
        .with_synced_dice()
        .rolling(FLORIS, &[4, 4, 4, 4, 4, 1], 1);
    ok(&mut g, FLORIS, place("r5c5"));
    assert_eq!(g.phase, Phase::AfterPlacement);
    let mut g = g.rolling(FLORIS, &[6, 6, 6, 6, 6, 1], 1);
    ok(&mut g, FLORIS, place("r5c7"));
    assert_eq!(
        g.result,
        Some(GameResult::Winner {
            seat: Seat(FLORIS),
            condition: WinCondition::RowFiveFourTiles
        })
    );
}

/// §8.2 X9, "Row 4 complete".
#[test]
fn x9_row_four_complete() {
    let g = game(2)
        .with_tiles(
            FLORIS,
            &[
                "r2c2", "r3c2", "r4c1", "r4c2", "r4c3", "r4c4", "r4c5", "r4c6",
            ],
        )
        .with_synced_dice();
    assert_eq!(g.players[0].dice_count, 6);
    let mut g = g.rolling(FLORIS, &[6, 6, 6, 6, 2, 3], 1);
    ok(&mut g, FLORIS, place("r4c7"));
    assert_eq!(
        g.result,
        Some(GameResult::Winner {
            seat: Seat(FLORIS),
            condition: WinCondition::RowFourComplete
        })
    );
}

/// §8.2 X10, "Bonus-claim legality" (§3.4, D9).
#[test]
fn x10_bonus_claim_legality() {
    let given = floris_e6_figure()
        .with_moneybags(FLORIS, &["r1c6"])
        .with_tiles(FLORIS, &["r1c5", "r2c5", "r3c5", "r2c6", "r3c6"])
        .with_synced_dice();
    assert_eq!(given.players[0].dice_count, 5);
    let mut g = given.clone().after_placement(FLORIS);
    let error = refused(&mut g, FLORIS, claim(1, 4, 3, 2), "rule-violation");
    assert_eq!(error, TulpenfieberError::AreaOverlapsBonus(0));
    let error = refused(&mut g, FLORIS, claim(1, 5, 2, 3), "rule-violation");
    assert_eq!(error, TulpenfieberError::AreaNotCovered);
    ok(&mut g, FLORIS, claim(1, 5, 3, 2));
    assert_eq!(
        g.players[0].field.cell(space("r1c6")),
        Cell::Covered {
            tile: Tile {
                kind: TileKind::Normal,
                side: Side::Moneybag
            },
            bonus: Some(1)
        }
    );
    refused(&mut g, FLORIS, claim(1, 5, 3, 2), "rule-violation");
    let error = refused(&mut g, FLORIS, claim(4, 6, 2, 3), "bad-parameter");
    assert_eq!(error, TulpenfieberError::AreaOffField { row: 4, col: 6 });
    refused(&mut g, FLORIS, claim(1, 1, 2, 2), "bad-parameter");

    // Variant: an empty supply.
    let mut g = given.after_placement(FLORIS);
    g.bonus_supply = 0;
    let error = refused(&mut g, FLORIS, claim(1, 5, 3, 2), "rule-violation");
    assert_eq!(error, TulpenfieberError::BonusSupplyEmpty);
}

/// §8.2 X11, "Malformed parameters" (§4 `bad-parameter`). `set_bonus_die` is checked in
/// `AwaitBonusDice`: in `Rolling` the phase check comes first (§4 check order).
#[test]
fn x11_malformed_parameters() {
    let mut g = game(2)
        .with_tiles(FLORIS, &["r1c4", "r3c4"])
        .with_synced_dice()
        .rolling(FLORIS, &[1, 2, 3, 4, 5], 1);
    assert_eq!(
        refused(&mut g, FLORIS, reroll(&[]), "bad-parameter"),
        TulpenfieberError::EmptyReroll
    );
    assert_eq!(
        refused(&mut g, FLORIS, reroll(&[1, 1]), "bad-parameter"),
        TulpenfieberError::DuplicateDie(1)
    );
    assert_eq!(
        refused(&mut g, FLORIS, reroll(&[5]), "bad-parameter"),
        TulpenfieberError::NoSuchDie { die: 5, dice: 5 }
    );
    refused(
        &mut g,
        FLORIS,
        Action::SetBonusDie { bonus: 0, face: 7 },
        "wrong-phase",
    );
    let error = refused(
        &mut g,
        FLORIS,
        Action::Place {
            space: Space::new(6, 1),
        },
        "bad-parameter",
    );
    assert_eq!(error, TulpenfieberError::NoSuchSpace(Space::new(6, 1)));
    // A space name that parses as JSON but names no space is a bad parameter too.
    let nonsense: Action = serde_json::from_str(r#"{"type":"place","space":"hello"}"#).unwrap();
    refused(&mut g, FLORIS, nonsense, "bad-parameter");

    let mut g = floris_e6_figure().turn_start(FLORIS);
    assert_eq!(
        refused(
            &mut g,
            FLORIS,
            Action::SetBonusDie { bonus: 0, face: 7 },
            "bad-parameter"
        ),
        TulpenfieberError::FaceOutOfRange(7)
    );
    assert_eq!(
        refused(
            &mut g,
            FLORIS,
            Action::SetBonusDie { bonus: 1, face: 3 },
            "bad-parameter"
        ),
        TulpenfieberError::NoSuchBonus(1)
    );
    ok(&mut g, FLORIS, Action::SetBonusDie { bonus: 0, face: 3 });
}

/// §8.2 X12, "Turn-phase guards".
#[test]
fn x12_turn_phase_guards() {
    let mut g = game(2);
    assert_eq!(g.phase, Phase::AwaitFirstRoll);
    refused(&mut g, FLORIS, place("r1c1"), "wrong-phase");
    refused(
        &mut g,
        FLORIS,
        Action::SetBonusDie { bonus: 0, face: 1 },
        "wrong-phase",
    );
    refused(&mut g, MARIEKE, Action::Roll {}, "not-your-turn");
    assert!(g.legal_actions(Seat(MARIEKE)).is_empty());
    assert_eq!(
        g.legal_actions(Seat(FLORIS)),
        vec![LegalAction::action(Action::Roll {})]
    );
}

/// §8.2 X13, "Solo round transitions" (§6.3, D17, D23).
#[test]
fn x13_solo_round_transitions() {
    // Round 1: 17 tiles on the field before the last placement, 2 above.
    let g = game(1)
        .with_tiles(
            0,
            &[
                "r1c1", "r2c1", "r3c1", "r1c2", "r1c4", "r1c6", "r1c7", "r2c2", "r2c3", "r2c4",
                "r2c5",
            ],
        )
        .with_tiles(0, &["r4c2", "r4c4", "r5c1", "r5c2"])
        .with_above(0, 2)
        .with_synced_dice();
    assert_eq!(g.players[0].dice_count, 5);
    let mut g = g.rolling(0, &[3, 3, 3, 3, 3], 1);
    ok(&mut g, 0, place("r5c3"));
    assert_eq!(g.players[0].field.covered_count(), 18);
    assert_eq!(g.solo.as_ref().unwrap().round_scores, vec![20]);
    assert_eq!(
        g.phase,
        Phase::SoloBetweenRounds {
            eligible: spaces(&["r4c2", "r4c4"])
        }
    );
    assert_eq!(
        refused(
            &mut g,
            0,
            Action::StartNextRound {
                multicolor: Some(space("r5c1"))
            },
            "rule-violation"
        ),
        TulpenfieberError::NotEligible(space("r5c1"))
    );
    assert_eq!(
        refused(
            &mut g,
            0,
            Action::StartNextRound { multicolor: None },
            "rule-violation"
        ),
        TulpenfieberError::MulticolorRequired
    );
    ok(
        &mut g,
        0,
        Action::StartNextRound {
            multicolor: Some(space("r4c4")),
        },
    );
    assert_eq!(
        g.build_view().players[0].field,
        vec!["..T.T..", ".......", ".......", "...X...", "......."]
    );
    assert!(g.players[0].above.is_empty());
    assert_eq!(
        (g.bonus_supply, g.players[0].dice_count, g.turn_number),
        (10, 4, 1)
    );
    assert_eq!(g.phase, Phase::AwaitFirstRoll);
    assert_eq!(g.players[0].tiles_total(), 3);

    // Round 2 ends by completing row 4 with 21 tiles; r4c4 was flipped meanwhile.
    let mut g = g
        .with_tiles(0, &["r4c1", "r4c2", "r4c3", "r4c5", "r4c6"])
        .with_moneybags(0, &["r4c4"])
        .with_above(0, 12)
        .rolling(0, &[6, 6, 6, 6], 3);
    ok(&mut g, 0, place("r4c7"));
    assert_eq!(g.solo.as_ref().unwrap().round_scores, vec![20, 21]);
    assert_eq!(g.phase, Phase::SoloBetweenRounds { eligible: vec![] });
    ok(&mut g, 0, Action::StartNextRound { multicolor: None });
    assert_eq!(
        g.build_view().players[0].field,
        vec!["..T.T..", ".......", ".......", "...X...", "......."]
    );
    assert_eq!(
        g.players[0].field.cell(space("r4c4")),
        Cell::Covered {
            tile: Tile::MULTICOLOR,
            bonus: None
        }
    );

    // Round 3 ends with 19 tiles: 60 in total, tier Won.
    let mut g = g
        .with_tiles(0, &["r4c1", "r4c2", "r4c3", "r4c5", "r4c6"])
        .with_above(0, 10)
        .rolling(0, &[6, 6, 6, 6], 1);
    ok(&mut g, 0, place("r4c7"));
    assert_eq!(g.phase, Phase::GameOver);
    assert_eq!(
        g.result,
        Some(GameResult::SoloResult {
            round_scores: vec![20, 21, 19],
            total: 60,
            tier: SoloTier::Won
        })
    );
    let outcome = g.outcome().expect("finished");
    assert_eq!(
        (outcome.scores, outcome.ranks, outcome.winners),
        (vec![60], vec![1], SeatSet::only(Seat(0)))
    );
    assert_eq!(outcome.reason, "solo_won");
}

/// §6.3: the solo tiers are inclusive thresholds (D17); a lost game has no winner.
#[test]
fn solo_tiers_and_lost_outcome() {
    assert_eq!(
        [42, 43, 50, 51, 60, 61].map(SoloTier::of),
        [
            SoloTier::Legendary,
            SoloTier::VeryGood,
            SoloTier::VeryGood,
            SoloTier::Won,
            SoloTier::Won,
            SoloTier::Lost
        ]
    );
    let mut g = game(1);
    g.phase = Phase::GameOver;
    g.result = Some(GameResult::SoloResult {
        round_scores: vec![30, 30, 30],
        total: 90,
        tier: SoloTier::Lost,
    });
    let outcome = g.outcome().expect("finished");
    assert_eq!(outcome.winners, SeatSet::EMPTY);
    assert_eq!(outcome.reason, "solo_lost");
}

/// §1.3, §1.4, §1.5: boards by seat count, flower tiles, 4 dice, the first turn.
#[test]
fn setup_boards_and_flower_spaces() {
    let g = game(4);
    let fields: Vec<Vec<String>> = g
        .build_view()
        .players
        .into_iter()
        .map(|player| player.field[..2].to_vec())
        .collect();
    assert_eq!(
        fields,
        vec![
            vec![".T...T.".to_string(), "...T...".into()],
            vec!["..T..T.".into(), "...T...".into()],
            vec!["..T.T..".into(), "...T...".into()],
            vec!["...T...".into(), "..T.T..".into()],
        ]
    );
    assert!(g.players.iter().all(|player| player.dice_count == 4
        && player.above.is_empty()
        && player.bonus_tiles.is_empty()));
    assert_eq!(
        (g.active, g.turn_number, g.bonus_supply, g.phase.clone()),
        (Seat(0), 1, 10, Phase::AwaitFirstRoll)
    );
    assert_eq!(g.turn.dice.len(), 4);
    let solo = game(1);
    assert_eq!(solo.build_view().players[0].field[0], "..T.T..");
    assert_eq!(
        solo.solo.as_ref().map(|s| (s.round, s.round_scores.len())),
        Some((1, 0))
    );
    let boards: Vec<_> = game(2).players.iter().map(|p| p.board).collect();
    assert_eq!(
        boards,
        vec![game_tulpenfieber::Board::I, game_tulpenfieber::Board::II]
    );
    let options = Options {
        two_player_boards: [game_tulpenfieber::Board::IV, game_tulpenfieber::Board::III],
        ..Options::default()
    };
    assert_eq!(
        game_with(2, &options).players[0].board,
        game_tulpenfieber::Board::IV
    );
}

/// §7.2: out-of-range options and seat counts are setup errors; unknown fields are refused.
#[test]
fn invalid_options_and_seat_counts() {
    let mut rng = any_rng();
    assert!(matches!(
        Tulpenfieber::setup(5, &Options::default(), &mut rng),
        Err(SetupError::SeatCount { .. })
    ));
    assert!(matches!(
        Tulpenfieber::setup(0, &Options::default(), &mut rng),
        Err(SetupError::SeatCount { .. })
    ));
    let bad = [
        Options {
            side_need: [2, 3, 2, 4, 5],
            ..Options::default()
        },
        Options {
            side_need: [0, 3, 3, 4, 5],
            ..Options::default()
        },
        Options {
            wildcard_threshold: 5,
            ..Options::default()
        },
        Options {
            max_bonus_claims_per_turn: Some(0),
            ..Options::default()
        },
        Options {
            two_player_boards: [game_tulpenfieber::Board::I, game_tulpenfieber::Board::I],
            ..Options::default()
        },
    ];
    for options in bad {
        assert!(
            matches!(
                Tulpenfieber::setup(2, &options, &mut rng),
                Err(SetupError::InvalidOptions(_))
            ),
            "{options:?}"
        );
    }
    let mut options = Options::default();
    options.straight_sets[0] = vec![vec![1, 2, 3, 4, 5]];
    assert!(Tulpenfieber::setup(2, &options, &mut rng).is_err());
    let mut options = Options::default();
    options.start_spaces.one = vec![space("r4c1")];
    assert!(Tulpenfieber::setup(2, &options, &mut rng).is_err());
    assert!(serde_json::from_str::<Options>(r#"{"colour": "red"}"#).is_err());
    let partial: Options =
        serde_json::from_str(r#"{"side_need": [2,2,3,4,5], "max_bonus_claims_per_turn": null}"#)
            .unwrap();
    assert_eq!(partial.side_need, [2, 2, 3, 4, 5]);
    assert_eq!(partial.max_bonus_claims_per_turn, None);
    assert_eq!(partial.bonus_supply, 10);
    let custom = Tulpenfieber::setup(3, &partial, &mut rng)
        .expect("valid options")
        .0;
    // Non-standard options are kept in the stored state (standard ones are left out).
    let json = serde_json::to_string(&custom).unwrap();
    assert!(json.contains("side_need"));
    assert_eq!(serde_json::from_str::<Tulpenfieber>(&json).unwrap(), custom);
    assert!(!serde_json::to_string(&game(3))
        .unwrap()
        .contains("side_need"));
}

/// §1.2: the requirement table (30 side combinations + 10 straights = 40).
#[test]
fn requirement_table() {
    let options = Options::default();
    let summary = |dice: &[u8]| DiceSummary::of(dice.iter().map(|&v| Some(v)));
    assert!(summary(&[1, 1]).matches(space("r1c1"), &options));
    assert!(!summary(&[1, 1]).matches(space("r2c1"), &options));
    assert!(summary(&[6, 6, 6]).matches(space("r3c7"), &options));
    assert!(summary(&[5, 5, 5, 5]).matches(space("r4c6"), &options));
    assert!(!summary(&[5, 5, 5, 5]).matches(space("r5c6"), &options));
    assert!(summary(&[4, 4, 4, 4, 4]).matches(space("r5c5"), &options));
    assert!(summary(&[4, 5, 6]).matches(space("r1c4"), &options));
    assert!(summary(&[3, 4, 5, 6]).matches(space("r2c4"), &options));
    assert!(!summary(&[3, 4, 5, 6]).matches(space("r3c4"), &options));
    assert!(summary(&[6, 5, 4, 3, 2]).matches(space("r4c4"), &options));
    assert!(!summary(&[6, 5, 4, 3, 2]).matches(space("r5c4"), &options));
    assert!(summary(&[1, 2, 3, 4, 5, 6]).matches(space("r5c4"), &options));
    let combinations: usize = options.straight_sets.iter().map(Vec::len).sum::<usize>() + 30;
    assert_eq!(combinations, 40);
    // The wildcard threshold is an option.
    let seven = Options {
        wildcard_threshold: 7,
        ..Options::default()
    };
    assert!(!summary(&[2; 6]).matches(space("r5c4"), &seven));
    assert!(summary(&[2; 6]).matches(space("r5c4"), &options));
}

/// §4 JSON shapes A1–A9 round-trip exactly.
#[test]
fn action_json_shapes() {
    let shapes = [
        r#"{"type":"set_bonus_die","bonus":0,"face":4}"#,
        r#"{"type":"roll"}"#,
        r#"{"type":"reroll","dice":[0,2]}"#,
        r#"{"type":"buy_roll","flip":[{"field":"r1c3"},{"above":0}]}"#,
        r#"{"type":"place","space":"r3c5"}"#,
        r#"{"type":"place_above"}"#,
        r#"{"type":"claim_bonus","row":1,"col":3,"height":3,"width":2}"#,
        r#"{"type":"end_turn"}"#,
        r#"{"type":"start_next_round","multicolor":"r4c4"}"#,
        r#"{"type":"start_next_round","multicolor":null}"#,
    ];
    for shape in shapes {
        let action: Action = serde_json::from_str(shape).unwrap_or_else(|e| panic!("{shape}: {e}"));
        assert_eq!(serde_json::to_string(&action).unwrap(), shape);
    }
    for malformed in [
        r#"{"type":"dance"}"#,
        r#"{"type":"roll","extra":1}"#,
        r#"{"type":"buy_roll","flip":[{"field":"r1c3"}]}"#,
        r#"{"type":"place","space":5}"#,
    ] {
        assert!(
            serde_json::from_str::<Action>(malformed).is_err(),
            "{malformed}"
        );
    }
}

/// §4 legal-action enumeration: canonical order, the reroll/buy families as schemas in
/// `legal_actions`, and every seat but the active one gets nothing.
#[test]
fn legal_action_lists() {
    let g = game(2)
        .with_above(MARIEKE, 1)
        .rolling(MARIEKE, &[1, 3, 6, 6], 3);
    let canonical = g.canonical_legal_actions(Seat(MARIEKE));
    // Four flippable tiles (r1c3, r1c6, r2c4, A0): 6 pairs, then r1c7. No reroll is left.
    assert_eq!(canonical.len(), 7);
    assert_eq!(canonical[0], buy(field("r1c3"), field("r1c6")));
    assert_eq!(canonical[5], buy(field("r2c4"), TileRef::Above(0)));
    assert_eq!(canonical[6], place("r1c7"));
    let listed = g.legal_actions(Seat(MARIEKE));
    assert_eq!(listed.len(), 2);
    assert!(
        matches!(&listed[0], LegalAction::Schema { schema, .. } if schema["properties"]["type"]["const"] == "buy_roll")
    );
    assert!(g.legal_actions(Seat(FLORIS)).is_empty());

    let g = game(2).rolling(FLORIS, &[1, 2, 4, 6], 1);
    let canonical = g.canonical_legal_actions(Seat(FLORIS));
    assert_eq!(
        canonical.len(),
        15 + 1,
        "15 rerolls of 4 dice, then place_above"
    );
    assert_eq!(canonical[0], reroll(&[0]));
    assert_eq!(canonical[2], reroll(&[0, 1]));
    assert_eq!(canonical[15], Action::PlaceAbove {});
    for action in canonical {
        assert!(g
            .clone()
            .apply(Seat(FLORIS), action, &mut any_rng())
            .is_ok());
    }
    // Sampling the reroll schema gives valid rerolls.
    let listed = g.legal_actions(Seat(FLORIS));
    let LegalAction::Schema { schema, .. } = &listed[0] else {
        panic!("reroll is a schema")
    };
    let mut rng = any_rng();
    for _ in 0..50 {
        let sample = game_core::sample::sample(schema, &mut rng).expect("samplable");
        let action: Action = serde_json::from_value(sample).expect("an action");
        assert!(g.check(Seat(FLORIS), &action).is_ok(), "{action:?}");
    }

    let g = floris_e6_figure()
        .with_tiles(FLORIS, &["r1c5", "r2c5", "r3c5", "r2c6", "r3c6"])
        .after_placement(FLORIS);
    let claims: Vec<Action> = g.canonical_legal_actions(Seat(FLORIS));
    assert_eq!(claims, vec![claim(1, 5, 3, 2), Action::EndTurn {}]);
}

/// §2: one view for everyone, no RNG in it; every event is public and carries the dice.
#[test]
fn views_and_events_are_public() {
    let mut g = game(3);
    let events = g
        .apply(Seat(0), Action::Roll {}, &mut scripted_rng(&[3, 3, 5, 1]))
        .unwrap();
    assert!(events
        .iter()
        .all(|logged| logged.visibility == game_core::Visibility::Public));
    let json = serde_json::to_value(&events[0].event).unwrap();
    assert_eq!(json["type"], "rolled");
    assert_eq!(json["dice"], serde_json::json!([3, 3, 5, 1]));
    let spectator = serde_json::to_value(g.view(Viewer::Spectator)).unwrap();
    for seat in 0..3 {
        assert_eq!(
            serde_json::to_value(g.view(Viewer::Seat(Seat(seat)))).unwrap(),
            spectator
        );
    }
    assert_eq!(spectator["legal_spaces"], serde_json::json!(["r1c3"]));
    assert_eq!(
        Tulpenfieber::action_visibility(&Action::Roll {}, Seat(0)),
        game_core::Visibility::Public
    );
    // The state survives a JSON round trip.
    let back: Tulpenfieber = serde_json::from_str(&serde_json::to_string(&g).unwrap()).unwrap();
    assert_eq!(back, g);
}

/// §3.4, D10, D21: only `min(bonus tiles, dice)` wheelbarrows get a die; a die is set once;
/// if every die sits on a wheelbarrow, the first roll throws nothing but still counts. The
/// position is artificial (bonus tiles without a field under them): it tests the mechanism.
#[test]
fn wheelbarrow_dice_are_limited_by_the_dice() {
    let mut g = game(2);
    let area = BonusTile {
        row: 1,
        col: 1,
        height: 2,
        width: 3,
    };
    g.players[0].bonus_tiles = vec![area; 5];
    let mut g = g.turn_start(FLORIS);
    assert_eq!(g.phase, Phase::AwaitBonusDice);
    assert_eq!(g.wheelbarrow_dice(), 4);
    let error = refused(
        &mut g,
        FLORIS,
        Action::SetBonusDie { bonus: 4, face: 2 },
        "rule-violation",
    );
    assert_eq!(error, TulpenfieberError::WheelbarrowWithoutDie(4));
    refused(
        &mut g,
        FLORIS,
        Action::SetBonusDie { bonus: 5, face: 2 },
        "bad-parameter",
    );
    ok(&mut g, FLORIS, Action::SetBonusDie { bonus: 2, face: 5 });
    let error = refused(
        &mut g,
        FLORIS,
        Action::SetBonusDie { bonus: 2, face: 6 },
        "rule-violation",
    );
    assert_eq!(error, TulpenfieberError::BonusDieAlreadySet(2));
    for bonus in [0, 1, 3] {
        ok(&mut g, FLORIS, Action::SetBonusDie { bonus, face: 6 });
    }
    assert_eq!(g.phase, Phase::AwaitFirstRoll);
    let events = g
        .apply(Seat(FLORIS), Action::Roll {}, &mut any_rng())
        .unwrap();
    assert_eq!(values(&g), vec![6, 6, 5, 6]);
    assert_eq!(g.turn.roll_number, 1);
    let rolled = serde_json::to_value(&events[0].event).unwrap();
    assert_eq!(rolled["rolled"], serde_json::json!([]));
    // Rerolling releases a wheelbarrow die for the rest of the turn.
    ok(&mut g, FLORIS, reroll(&[2]));
    assert_eq!(g.turn.dice[2].on_bonus, None);
    assert_eq!(g.turn.dice[0].on_bonus, Some(0));
}

/// §4 A4, A5, A7: actions refused in the wrong phases; `end_turn` only after placing.
#[test]
fn phase_guards_for_every_action() {
    let mut g = game(2).rolling(FLORIS, &[1, 2, 4, 6], 1);
    refused(&mut g, FLORIS, Action::EndTurn {}, "wrong-phase");
    refused(&mut g, FLORIS, claim(1, 1, 2, 3), "wrong-phase");
    refused(&mut g, FLORIS, Action::Roll {}, "wrong-phase");
    refused(
        &mut g,
        FLORIS,
        Action::StartNextRound { multicolor: None },
        "wrong-phase",
    );
    let mut g = g.after_placement(FLORIS);
    refused(&mut g, FLORIS, reroll(&[0]), "wrong-phase");
    refused(
        &mut g,
        FLORIS,
        buy(field("r1c2"), field("r1c6")),
        "wrong-phase",
    );
    refused(&mut g, FLORIS, Action::PlaceAbove {}, "wrong-phase");
    refused(&mut g, MARIEKE, Action::EndTurn {}, "not-your-turn");
    ok(&mut g, FLORIS, Action::EndTurn {});
    assert_eq!(
        (g.active, g.turn_number, g.phase.clone()),
        (Seat(MARIEKE), 2, Phase::AwaitFirstRoll)
    );
}

/// Setup logs, publicly, each seat's board (`boards_dealt`) and the first `turn_started`.
#[test]
fn setup_logs_the_boards_and_the_first_turn() {
    let (g, events) =
        Tulpenfieber::setup(3, &Options::default(), &mut GameRng::for_entry([0; 32], 0)).unwrap();
    assert!(events
        .iter()
        .all(|logged| logged.visibility == game_core::Visibility::Public));
    let json: Vec<serde_json::Value> = events
        .iter()
        .map(|logged| serde_json::to_value(&logged.event).unwrap())
        .collect();
    assert_eq!(
        json[0],
        serde_json::json!({"type": "boards_dealt", "boards": ["I", "II", "III"]})
    );
    assert_eq!(json[1]["type"], "turn_started");
    assert_eq!(json[1]["seat"], 0);
    assert_eq!(g.active, Seat(0));
}
