//! Actions (§4, wire format §4.1), the single legality check and the legal-action list.

use crate::cards::{Card, Cell};
use crate::error::TulipError;
use crate::lots::MAX_DECLARED;
use crate::market::{Side, SIDES};
use crate::rounds::check_cards_in_hand;
use crate::scoring::bonus;
use crate::state::{Phase, TulipTraders};
use game_core::{LegalAction, Seat};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

/// A move. The acting seat is the authenticated caller, never a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Action))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// A1: choose an investment option by name (`"abstain"`, `"broker"`, `"patron"`).
    DeclareInvestment {
        /// The option name.
        option: String,
    },
    /// A2: discard exactly the excess over the limit (Phase 1).
    Discard {
        /// The cards, in deck-bottom order.
        cards: Vec<Card>,
    },
    /// A3: fp adds a market line.
    AddMarketLine {
        /// The side.
        side: Side,
    },
    /// A4: move a crisis to a sharing card, paying RC.
    MoveCrisis {
        /// A cell in crisis.
        from: Cell,
        /// A cell not in crisis sharing a colour or type with `from`.
        to: Cell,
    },
    /// A5: skip the manipulation turn.
    PassManipulation {},
    /// A6: place the whole earmark as tokens.
    PlaceInvestment {
        /// Tokens per cell, each at least 1, summing to the earmark.
        alloc: BTreeMap<Cell, u32>,
    },
    /// A7: offer three cards from the hand.
    OfferLot {
        /// Exactly three cards.
        cards: Vec<Card>,
        /// The buyer.
        buyer: Seat,
        /// The declared value.
        declared: u32,
    },
    /// A8: buy, liquidating a non-excessive set if the purse is short.
    Buy {
        /// Tulips to liquidate, in order (empty when the purse suffices).
        #[serde(default)]
        liquidate: Vec<Card>,
    },
    /// A9: accuse the seller of over-declaring.
    Accuse {},
    /// A10: liquidate to pay a pending debt.
    Liquidate {
        /// A non-excessive set of tulips, in order.
        cards: Vec<Card>,
    },
    /// A11: return exactly the excess over the limit (Phase 6).
    ReturnExcess {
        /// The cards, in deck-bottom order.
        cards: Vec<Card>,
    },
    /// A12: reveal a complete portfolio, ending the game.
    RevealPortfolio {},
    /// A13: decline to reveal.
    DeclineReveal {},
}

impl TulipTraders {
    /// The single source of legality: `Ok` iff `apply` would accept the action.
    pub fn check(&self, seat: Seat, action: &Action) -> Result<(), TulipError> {
        if self.phase == Phase::GameOver {
            return Err(TulipError::GameOver);
        }
        let actor = self.actor().ok_or(TulipError::GameOver)?;
        if seat != actor {
            return Err(TulipError::NotYourTurn(seat));
        }
        let player = self.player(seat);
        let row = self.row();
        match (&self.phase, action) {
            (Phase::Declare, Action::DeclareInvestment { option }) => {
                let chosen = self
                    .options
                    .investment_options
                    .iter()
                    .find(|o| &o.name == option)
                    .ok_or_else(|| TulipError::UnknownOption(option.clone()))?;
                let cost = chosen.cost_rv * row.rv;
                if player.purse < cost {
                    return Err(TulipError::OptionUnaffordable { cost });
                }
                Ok(())
            }
            (Phase::Discard, Action::Discard { cards })
            | (Phase::Return, Action::ReturnExcess { cards }) => {
                let expected = player.hand.len() - player.limit as usize;
                if cards.len() != expected {
                    return Err(TulipError::WrongCardCount {
                        expected,
                        got: cards.len(),
                    });
                }
                check_cards_in_hand(player, cards)
            }
            (Phase::AddLine, Action::AddMarketLine { side }) => {
                if self.side_allowed(*side) {
                    Ok(())
                } else {
                    Err(TulipError::IllegalSide)
                }
            }
            (Phase::Manipulate, Action::MoveCrisis { from, to }) => {
                let source = self.cell(*from).ok_or(TulipError::UnknownCell(*from))?;
                let target = self.cell(*to).ok_or(TulipError::UnknownCell(*to))?;
                if !source.crisis {
                    return Err(TulipError::SourceNotInCrisis(*from));
                }
                if from == to {
                    return Err(TulipError::SameCell);
                }
                if target.crisis {
                    return Err(TulipError::TargetInCrisis(*to));
                }
                if !from.shares(*to) {
                    return Err(TulipError::NoSharedAttribute(*from, *to));
                }
                if player.purse < row.rc {
                    return Err(TulipError::FeeUnaffordable { fee: row.rc });
                }
                Ok(())
            }
            (Phase::Manipulate, Action::PassManipulation {}) => Ok(()),
            (Phase::Place, Action::PlaceInvestment { alloc }) => {
                let mut sum = 0u64;
                for (&cell, &n) in alloc {
                    let c = self.cell(cell).ok_or(TulipError::UnknownCell(cell))?;
                    if c.crisis {
                        return Err(TulipError::CellInCrisis(cell));
                    }
                    if n == 0 {
                        return Err(TulipError::AmountNotPositive);
                    }
                    sum += u64::from(n);
                }
                if sum != u64::from(player.earmark) {
                    return Err(TulipError::AllocationSumMismatch {
                        got: sum,
                        earmark: player.earmark,
                    });
                }
                Ok(())
            }
            (
                Phase::Offer {
                    min, final_offer, ..
                },
                Action::OfferLot {
                    cards,
                    buyer,
                    declared,
                },
            ) => {
                if cards.len() != 3 {
                    return Err(TulipError::WrongCardCount {
                        expected: 3,
                        got: cards.len(),
                    });
                }
                check_cards_in_hand(player, cards)?;
                let allowed = if *final_offer {
                    *buyer == self.fp
                } else {
                    self.eligible_buyers(seat).contains(buyer)
                };
                if !allowed {
                    return Err(TulipError::BuyerNotAllowed(*buyer));
                }
                if declared < min {
                    return Err(TulipError::DeclaredTooLow { min: *min });
                }
                if *declared > MAX_DECLARED {
                    return Err(TulipError::DeclaredTooHigh { max: MAX_DECLARED });
                }
                Ok(())
            }
            (Phase::Respond, Action::Buy { liquidate }) => {
                let declared = self.offer.as_ref().map_or(0, |o| o.declared);
                if self.cap(seat) < u64::from(declared) {
                    return Err(TulipError::BuyUnaffordable);
                }
                self.check_liquidation(seat, declared, liquidate)
            }
            (Phase::Respond, Action::Accuse {}) => Ok(()),
            (Phase::Liquidate { debt }, Action::Liquidate { cards }) => {
                self.check_liquidation(seat, debt.amount, cards)
            }
            (Phase::Reveal, Action::RevealPortfolio {}) => {
                if bonus(&player.hand, &self.options) > 0 {
                    Ok(())
                } else {
                    Err(TulipError::NoCompletePortfolio)
                }
            }
            (Phase::Reveal, Action::DeclineReveal {}) => Ok(()),
            _ => Err(TulipError::WrongPhase),
        }
    }

    /// §4.1 `legal_actions(seat)`.
    pub fn legal(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        if self.actor() != Some(seat) {
            return Vec::new();
        }
        let player = self.player(seat);
        let concrete = |actions: Vec<Action>| -> Vec<LegalAction<Action>> {
            actions
                .into_iter()
                .filter(|a| self.check(seat, a).is_ok())
                .map(LegalAction::action)
                .collect()
        };
        match &self.phase {
            Phase::Declare => concrete(
                self.options
                    .investment_options
                    .iter()
                    .map(|o| Action::DeclareInvestment {
                        option: o.name.clone(),
                    })
                    .collect(),
            ),
            Phase::Discard | Phase::Return => {
                let k = player.hand.len() - player.limit as usize;
                let discard = self.phase == Phase::Discard;
                subsets(&player.hand, k)
                    .into_iter()
                    .map(|cards| {
                        LegalAction::action(if discard {
                            Action::Discard { cards }
                        } else {
                            Action::ReturnExcess { cards }
                        })
                    })
                    .collect()
            }
            Phase::AddLine => concrete(
                SIDES
                    .iter()
                    .map(|&side| Action::AddMarketLine { side })
                    .collect(),
            ),
            Phase::Manipulate => {
                let mut out = Vec::new();
                if player.purse >= self.row().rc {
                    let cells: Vec<_> = self.grid.slots.iter().flatten().copied().collect();
                    for from in cells.iter().filter(|c| c.crisis) {
                        for to in cells
                            .iter()
                            .filter(|c| !c.crisis && from.cell.shares(c.cell))
                        {
                            out.push(LegalAction::action(Action::MoveCrisis {
                                from: from.cell,
                                to: to.cell,
                            }));
                        }
                    }
                }
                out.push(LegalAction::action(Action::PassManipulation {}));
                out
            }
            Phase::Place => {
                let open: Vec<Cell> = self
                    .grid
                    .slots
                    .iter()
                    .flatten()
                    .filter(|c| !c.crisis)
                    .map(|c| c.cell)
                    .collect();
                let earmark = player.earmark;
                // Every amount is at least 1, so at most `earmark` cells get tokens.
                let max_cells = open.len().min(earmark as usize);
                let mut out = vec![LegalAction::closed_schema(
                    format!("place_investment: split your earmark of {earmark} over cells not in crisis, at least 1 per cell; the amounts must add up to {earmark}"),
                    "place_investment",
                    json!({
                        "alloc": {
                            "type": "object",
                            "minProperties": 1,
                            "maxProperties": max_cells,
                            "propertyNames": {"enum": open},
                            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": earmark},
                            "description": format!("Tokens per cell; the amounts must add up to {earmark}, the earmark."),
                            "x-sum-of-values": earmark,
                            "x-refused-with": "allocation-sum-mismatch",
                        }
                    }),
                )];
                for cell in open {
                    out.push(LegalAction::action(Action::PlaceInvestment {
                        alloc: BTreeMap::from([(cell, earmark)]),
                    }));
                }
                out
            }
            Phase::Offer {
                min, final_offer, ..
            } => {
                let buyers: Vec<Seat> = if *final_offer {
                    vec![self.fp]
                } else {
                    self.eligible_buyers(seat)
                };
                let mut lowest = buyers.clone();
                lowest.sort();
                let mut out = vec![LegalAction::closed_schema(
                    "offer_lot: three cards from your hand, an allowed buyer and a declared value",
                    "offer_lot",
                    json!({
                        "cards": {"type": "array", "items": {"enum": player.hand}, "minItems": 3, "maxItems": 3, "uniqueItems": true},
                        "buyer": {"enum": buyers},
                        // min..=MAX_DECLARED, split into a near range and the rest so that a
                        // random bot also tries realistic prices (the union is the same set).
                        "declared": {"anyOf": [
                            {"type": "integer", "minimum": min, "maximum": min.saturating_add(15).min(MAX_DECLARED)},
                            {"type": "integer", "minimum": min, "maximum": MAX_DECLARED},
                        ]},
                    }),
                )];
                if let Some(&buyer) = lowest.first() {
                    out.push(LegalAction::action(Action::OfferLot {
                        cards: player.hand[..3].to_vec(),
                        buyer,
                        declared: *min,
                    }));
                }
                out
            }
            Phase::Respond => {
                let declared = self.offer.as_ref().map_or(0, |o| o.declared);
                let mut out = Vec::new();
                if self.cap(seat) >= u64::from(declared) {
                    if player.purse >= declared {
                        out.push(LegalAction::action(Action::Buy {
                            liquidate: Vec::new(),
                        }));
                    } else {
                        for set in self.liquidation_sets(seat, declared) {
                            out.push(LegalAction::action(Action::Buy { liquidate: set }));
                        }
                    }
                }
                out.push(LegalAction::action(Action::Accuse {}));
                out
            }
            Phase::Liquidate { debt } => self
                .liquidation_sets(seat, debt.amount)
                .into_iter()
                .map(|cards| LegalAction::action(Action::Liquidate { cards }))
                .collect(),
            Phase::Reveal => concrete(vec![Action::RevealPortfolio {}, Action::DeclineReveal {}]),
            Phase::GameOver => Vec::new(),
        }
    }
}

/// Every `k`-subset of `cards`, each in the given (catalogue) order.
fn subsets(cards: &[Card], k: usize) -> Vec<Vec<Card>> {
    let mut out = Vec::new();
    fn go(
        cards: &[Card],
        k: usize,
        start: usize,
        current: &mut Vec<Card>,
        out: &mut Vec<Vec<Card>>,
    ) {
        if current.len() == k {
            out.push(current.clone());
            return;
        }
        for i in start..cards.len() {
            if cards.len() - i < k - current.len() {
                break;
            }
            current.push(cards[i]);
            go(cards, k, i + 1, current, out);
            current.pop();
        }
    }
    go(cards, k, 0, &mut Vec::new(), &mut out);
    out
}
