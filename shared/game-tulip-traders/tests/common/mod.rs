//! Fixture helpers shared by the rulebook and option tests.
#![allow(dead_code)]

use game_core::{Game, GameRng, LegalAction, Seat};
use game_tulip_traders::{Action, Card, Cell, Error, Event, Options, Phase, TulipTraders};

pub const A: Seat = Seat(0);
pub const B: Seat = Seat(1);
pub const C: Seat = Seat(2);
pub const D: Seat = Seat(3);

pub fn card(id: &str) -> Card {
    serde_json::from_str(&format!("\"{id}\"")).unwrap_or_else(|_| panic!("no card {id}"))
}

pub fn cell(id: &str) -> Cell {
    serde_json::from_str(&format!("\"M:{id}\"")).unwrap_or_else(|_| panic!("no cell {id}"))
}

pub fn cards(ids: &[&str]) -> Vec<Card> {
    ids.iter().map(|id| card(id)).collect()
}

/// `"S-Y 3  K-OY 2  P-O X"` rows → grid rows (`X` = crisis with 0 tokens).
pub fn parse_rows(rows: &[&str]) -> Vec<Vec<(Cell, u32, bool)>> {
    rows.iter()
        .map(|row| {
            let words: Vec<&str> = row.split_whitespace().collect();
            words
                .chunks(2)
                .map(|pair| match pair[1] {
                    "X" => (cell(pair[0]), 0, true),
                    n => (cell(pair[0]), n.parse().unwrap(), false),
                })
                .collect()
        })
        .collect()
}

pub fn set_grid(g: &mut TulipTraders, rows: &[&str]) {
    let parsed = parse_rows(rows);
    let refs: Vec<&[(Cell, u32, bool)]> = parsed.iter().map(|r| r.as_slice()).collect();
    g.set_grid(&refs);
}

/// The grid in the same notation, one string per row.
pub fn grid_rows(g: &TulipTraders) -> Vec<String> {
    (0..g.grid.rows)
        .map(|r| {
            (0..g.grid.cols)
                .map(|c| {
                    let x = g.grid.at(r, c).unwrap();
                    let value = if x.crisis {
                        "X".to_string()
                    } else {
                        x.tokens.to_string()
                    };
                    format!("{} {}", x.cell.card().id(), value)
                })
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

pub fn expect_grid(g: &TulipTraders, rows: &[&str]) {
    let want: Vec<String> = rows
        .iter()
        .map(|r| r.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(grid_rows(g), want);
}

pub fn tokens(g: &TulipTraders, id: &str) -> u32 {
    g.cell(cell(id)).unwrap().tokens
}

pub fn in_crisis(g: &TulipTraders, id: &str) -> bool {
    g.cell(cell(id)).unwrap().crisis
}

pub fn rng() -> GameRng {
    GameRng::for_entry([7; 32], 1)
}

pub fn act(g: &mut TulipTraders, seat: Seat, action: Action) -> Vec<game_core::Logged<Event>> {
    g.apply(seat, action.clone(), &mut rng())
        .unwrap_or_else(|e| panic!("{action:?} by {seat} refused: {e}"))
}

pub fn refused(g: &TulipTraders, seat: Seat, action: Action) -> Error {
    let mut copy = g.clone();
    let err = copy
        .apply(seat, action, &mut rng())
        .expect_err("the action should be refused");
    assert_eq!(&copy, g, "a refusal changed the state");
    err
}

pub fn code(e: &Error) -> &'static str {
    game_core::RuleError::code(e)
}

pub fn offer(ids: &[&str], buyer: Seat, declared: u32) -> Action {
    Action::OfferLot {
        cards: cards(ids),
        buyer,
        declared,
    }
}

/// A game with `n` seats and the given fp, after everyone abstained in round 1: fp has drawn
/// its first three cards (P5_OFFER).
pub fn base(n: u8, fp: u8) -> TulipTraders {
    let options = Options {
        first_player: Some(fp),
        allow_two_players: true,
        // The spec's scenarios (§8) are written for the rules-v1 tables and hand growth.
        ..Options::legacy()
    };
    let mut g = TulipTraders::setup(n, &options, &mut GameRng::for_entry([3; 32], 0))
        .unwrap()
        .0;
    for _ in 0..n {
        let seat = g.actor().unwrap();
        act(
            &mut g,
            seat,
            Action::DeclareInvestment {
                option: "abstain".into(),
            },
        );
    }
    assert!(matches!(g.phase, Phase::Offer { .. }));
    g
}

pub fn bottom(g: &TulipTraders, k: usize) -> Vec<Card> {
    g.portfolio_deck[g.portfolio_deck.len() - k..].to_vec()
}

/// The first concrete legal action of the actor (never a reveal).
pub fn first_concrete(g: &TulipTraders) -> (Seat, Action) {
    let seat = g.actor().unwrap();
    let action = g
        .legal_actions(seat)
        .into_iter()
        .filter_map(|e| match e {
            LegalAction::Action { action } if action != Action::RevealPortfolio {} => Some(action),
            _ => None,
        })
        .next()
        .unwrap();
    (seat, action)
}

pub const G0: [&str; 3] = [
    "S-Y 3  K-OY 2  P-O 1",
    "L-Pk 0  D-Y 1  S-Pu 0",
    "L-R 1  S-R 0  P-Pu 2",
];
pub const G1: [&str; 3] = [
    "L-R 1  S-R 3  S-Y 1",
    "D-Pu 1  L-PuR 2  P-O 1",
    "K-OY 1  P-Y 1  D-O 1",
];
pub const G1_PO_CRISIS: [&str; 3] = [
    "L-R 1  S-R 3  S-Y 1",
    "D-Pu 1  L-PuR 2  P-O X",
    "K-OY 1  P-Y 1  D-O 1",
];
pub const G2: [&str; 3] = [
    "L-R 1  S-R 3  S-Y 2  S-Pk 2",
    "D-Pu 1  L-PuR 2  P-O X  P-Pk 1",
    "K-OY 1  P-Y 1  D-O 2  D-R 1",
];
pub const G3: [&str; 4] = [
    "L-R 4  S-R 6  S-Y 2  S-Pk 3",
    "D-Pu 1  P-R 5  D-O 2  P-Pk 1",
    "K-OY 2  P-Y 3  P-O 1  D-R 1",
    "L-Y 1  D-PkPu 2  S-O 0  L-PuR 4",
];
pub const G3P: [&str; 4] = [
    "L-R 2  S-R X  S-Y 0  S-Pk 3",
    "D-Pu 1  P-R 1  D-O 2  P-Pk 1",
    "K-OY 0  P-Y X  P-O X  D-R 1",
    "L-Y 1  D-PkPu 2  S-O 0  L-PuR 4",
];
/// S10's market values on a 4×5 grid (round 4); the unlisted cells hold 0.
pub const G10: [&str; 4] = [
    "L-Y 3  P-Y 2  D-Y 4  K-OY X  L-PuR 6",
    "S-OPk 2  P-YR 5  D-PkPu 1  S-R 7  S-Pu 9",
    "L-R 0  L-Pk 0  L-O 0  L-Pu 0  S-Pk 0",
    "S-O 0  S-Y 0  P-R 0  P-Pk 0  P-O 0",
];
