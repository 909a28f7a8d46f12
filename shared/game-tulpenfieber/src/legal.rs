//! What a seat may do now: `legal_actions` (and its schema entries for the reroll and
//! buy-roll families) and `canonical_legal_actions`, every candidate filtered through `check`.

use crate::action::Action;
use crate::board::Space;
use crate::options::AbovePlacement;
use crate::state::{Phase, TileRef, Tulpenfieber};
use game_core::{LegalAction, Seat};

impl Tulpenfieber {
    /// Every action `seat` may take now as concrete actions, in the canonical order of §4
    /// (up to 127 rerolls and every pair of flippable tiles). `legal_actions` lists the same
    /// actions but folds the `reroll` and `buy_roll` families into one schema entry each.
    pub fn canonical_legal_actions(&self, seat: Seat) -> Vec<Action> {
        self.candidates(seat, false)
            .into_iter()
            .filter_map(|entry| match entry {
                Candidate::Action(action) => Some(action),
                Candidate::Rerolls | Candidate::BuyRolls(_) => None,
            })
            .collect()
    }

    /// `Game::legal_actions`: concrete actions, except that `reroll` and `buy_roll` are one
    /// `LegalAction::Schema` entry each (a die subset, a pair of flippable tiles), so that a
    /// client or random bot sees one entry per kind of choice rather than 127 rerolls.
    pub fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        let n_dice = self.turn.dice.len();
        self.candidates(seat, true)
            .into_iter()
            .map(|entry| match entry {
                Candidate::Action(action) => LegalAction::action(action),
                Candidate::Rerolls => LegalAction::closed_schema(
                    "Reroll some of the dice",
                    "reroll",
                    serde_json::json!({
                        "dice": {"type": "array", "items": {"enum": (0..n_dice).collect::<Vec<usize>>()}, "minItems": 1, "maxItems": n_dice, "uniqueItems": true, "title": "Dice to reroll", "default": []}
                    }),
                ),
                Candidate::BuyRolls(flippable) => LegalAction::closed_schema(
                    "Turn two tiles to moneybags to buy a roll",
                    "buy_roll",
                    serde_json::json!({
                        "flip": {"type": "array", "items": {"enum": flippable}, "minItems": 2, "maxItems": 2, "uniqueItems": true, "title": "Two tiles to turn", "default": []}
                    }),
                ),
            })
            .collect()
    }

    /// The legal actions in canonical order; with `compact`, the reroll and buy families
    /// become single markers.
    fn candidates(&self, seat: Seat, compact: bool) -> Vec<Candidate> {
        if self.phase == Phase::GameOver || seat != self.active {
            return Vec::new();
        }
        let mut candidates: Vec<Action> = Vec::new();
        let mut entries: Vec<Candidate> = Vec::new();
        match &self.phase {
            Phase::AwaitBonusDice => {
                for bonus in 0..self.wheelbarrow_dice() as u32 {
                    for face in 1..=6 {
                        candidates.push(Action::SetBonusDie { bonus, face });
                    }
                }
            }
            Phase::AwaitFirstRoll => candidates.push(Action::Roll {}),
            Phase::Rolling | Phase::RollBought => {
                let n = self.turn.dice.len() as u32;
                let may_reroll = self.phase == Phase::RollBought
                    || self.turn.roll_number < self.turn.roll_budget();
                if may_reroll {
                    if compact {
                        entries.push(Candidate::Rerolls);
                    } else {
                        for mask in 1u32..(1 << n) {
                            let dice = (0..n).filter(|i| mask & (1 << i) != 0).collect();
                            candidates.push(Action::Reroll { dice });
                        }
                    }
                }
                if self.phase == Phase::Rolling {
                    if self.turn.roll_number == self.turn.roll_budget()
                        && self.turn.rolls_bought < 2
                    {
                        let flippable = self.active_player().flippable();
                        if compact {
                            if flippable.len() >= 2 {
                                entries.push(Candidate::BuyRolls(flippable));
                            }
                        } else {
                            for (i, &first) in flippable.iter().enumerate() {
                                for &second in &flippable[i + 1..] {
                                    candidates.push(Action::BuyRoll {
                                        flip: [first, second],
                                    });
                                }
                            }
                        }
                    }
                    let legal = self.legal_spaces();
                    let any_legal = !legal.is_empty();
                    candidates.extend(legal.into_iter().map(|space| Action::Place { space }));
                    if !any_legal || self.options.above_placement == AbovePlacement::Always {
                        candidates.push(Action::PlaceAbove {});
                    }
                }
            }
            Phase::AfterPlacement => {
                for space in Space::all() {
                    for (height, width) in [(2, 3), (3, 2)] {
                        candidates.push(Action::ClaimBonus {
                            row: i64::from(space.row),
                            col: i64::from(space.col),
                            height,
                            width,
                        });
                    }
                }
                candidates.push(Action::EndTurn {});
            }
            Phase::SoloBetweenRounds { eligible } => {
                if eligible.is_empty() {
                    candidates.push(Action::StartNextRound { multicolor: None });
                } else {
                    candidates.extend(eligible.iter().map(|&space| Action::StartNextRound {
                        multicolor: Some(space),
                    }));
                }
            }
            Phase::GameOver => {}
        }
        entries.extend(
            candidates
                .into_iter()
                .filter(|action| self.check(seat, action).is_ok())
                .map(Candidate::Action),
        );
        entries
    }
}

/// One entry of the legal-action list before it is rendered.
enum Candidate {
    /// A concrete action.
    Action(Action),
    /// Every reroll (a legal die subset).
    Rerolls,
    /// Every pair of these flippable tiles.
    BuyRolls(Vec<TileRef>),
}
