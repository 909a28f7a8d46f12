//! What a seat may do now: `legal_actions` (§4.1) and the schema entries it builds, every
//! concrete candidate filtered through `check`.

use crate::action::Action;
use crate::cards::{Card, Cell};
use crate::lots::MAX_DECLARED;
use crate::market::SIDES;
use crate::state::{Phase, TulipTraders};
use crate::words;
use game_core::{seat_choice, LegalAction, Seat};
use serde_json::json;
use std::collections::BTreeMap;

impl TulipTraders {
    /// §4.1 `legal_actions(seat)`.
    pub fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
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
                    format!("Invest your {earmark} tokens: at least 1 on each market you choose, none in crisis"),
                    "place_investment",
                    json!({
                        "alloc": {
                            "type": "object",
                            "minProperties": 1,
                            "maxProperties": max_cells,
                            "propertyNames": {"enum": open, "x-enum-labels": open.iter().map(|&at| words::cell(at)).collect::<Vec<_>>()},
                            "additionalProperties": {"type": "integer", "minimum": 1, "maximum": earmark},
                            "title": "Tokens per market",
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
                    format!("Offer three cards to a buyer, declared worth ƒ{min} or more"),
                    "offer_lot",
                    json!({
                        "cards": {"type": "array", "items": {"enum": player.hand, "x-enum-labels": player.hand.iter().map(|&one| words::card(one)).collect::<Vec<_>>()}, "minItems": 3, "maxItems": 3, "uniqueItems": true, "title": "Three cards from your hand"},
                        "buyer": seat_choice("Buyer", buyers.iter().copied()),
                        // One range; `examples` suggest what a buyer would believe (the bots
                        // draw near the minimum themselves, game_core::sample::Spread).
                        "declared": {
                            "title": "Declared value (ƒ)", "type": "integer", "minimum": min, "maximum": MAX_DECLARED,
                            "default": min, "examples": [min, min.saturating_add(15).min(MAX_DECLARED)],
                        },
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
