//! `legal_actions` (spec §4.12): candidates in the spec's order, each confirmed by `check`.

use crate::action::{Action, PaymentMethod};
use crate::cards::{Collector, Tulip};
use crate::state::{Phase, TulipBubble};
use game_core::{LegalAction, Seat};
use serde_json::json;

impl TulipBubble {
    /// Everything `seat` may do now, in the order of §4.12.
    pub fn legal_actions(&self, seat: Seat) -> Vec<LegalAction<Action>> {
        let mut candidates: Vec<Action> = Vec::new();
        let mut bid_schema = None;
        if self.is_over() || seat.0 >= self.n_seats {
            return Vec::new();
        }
        let player = &self.players[seat.index()];
        if self.required_actors().contains(seat) {
            match &self.phase {
                Phase::Selling { .. } => {
                    for &tulip in &player.concealed {
                        candidates.push(Action::SellToMarket { tulip: tulip.id() });
                    }
                    for loan in &player.financed {
                        candidates.push(Action::SellToMarket {
                            tulip: loan.tulip.id(),
                        });
                    }
                    if !player.collector_used_this_round {
                        for collector in self
                            .collector_stacks
                            .iter()
                            .filter_map(|stack| stack.first())
                        {
                            for set in collector_sets(&player.concealed, *collector) {
                                candidates.push(Action::SellToCollector {
                                    collector: *collector,
                                    tulips: set.iter().map(|tulip| tulip.id()).collect(),
                                });
                            }
                        }
                    }
                    candidates.push(Action::EndSellingTurn {});
                }
                Phase::BlackTulipWindow { .. } => {
                    candidates.push(Action::BlackTulipDecision { claim: false });
                    candidates.push(Action::BlackTulipDecision { claim: true });
                }
                Phase::BidPlacement { pass, .. } => {
                    let limit = if *pass == 1 { 2 } else { 1 }.min(self.markers_available(seat));
                    let open: Vec<Tulip> = self
                        .new_arrivals
                        .iter()
                        .chain(&self.just_sold)
                        .filter(|slot| !slot.markers.contains(seat))
                        .map(|slot| slot.tulip)
                        .collect();
                    candidates.push(Action::PlaceBids { cards: Vec::new() });
                    if limit >= 1 {
                        for tulip in &open {
                            candidates.push(Action::PlaceBids {
                                cards: vec![tulip.id()],
                            });
                        }
                    }
                    if limit >= 2 {
                        for (index, first) in open.iter().enumerate() {
                            for second in &open[index + 1..] {
                                candidates.push(Action::PlaceBids {
                                    cards: vec![first.id(), second.id()],
                                });
                            }
                        }
                    }
                }
                Phase::Auction { .. } => {
                    candidates.push(Action::AuctionPass {});
                    let cap = self.options.bid_cap;
                    if let Some(minimum) = self.minimum_bid().filter(|&minimum| minimum <= cap) {
                        bid_schema = Some(LegalAction::closed_schema(
                            format!("Bid ƒ{minimum} or more"),
                            "auction_bid",
                            json!({
                                "amount": {"type": "integer", "minimum": minimum, "maximum": cap,
                                    "title": "Your bid (ƒ)", "default": minimum}
                            }),
                        ));
                    }
                }
                Phase::Payment { .. } => {
                    candidates.push(Action::ChoosePayment {
                        method: PaymentMethod::Finance,
                    });
                    candidates.push(Action::ChoosePayment {
                        method: PaymentMethod::Cash,
                    });
                }
                Phase::GameOver { .. } => {}
            }
        }
        for loan in &player.financed {
            candidates.push(Action::BuyBack {
                tulip: loan.tulip.id(),
            });
        }
        let mut legal: Vec<LegalAction<Action>> = Vec::with_capacity(candidates.len() + 1);
        let mut candidates = candidates
            .into_iter()
            .filter(|action| self.check(seat, action).is_ok())
            .map(LegalAction::action);
        // The bid schema goes right after `auction_pass`, before the buy-backs.
        if let Some(schema) = bid_schema {
            legal.extend(candidates.next());
            legal.push(schema);
        }
        legal.extend(candidates);
        legal
    }
}

/// One 3-card set per distinct combination of (colour, kind) that `collector` accepts,
/// made of the lowest copies held. Copies of a kind are interchangeable, so listing every
/// combination of copy numbers would only repeat the same move (apply accepts any copies).
pub fn collector_sets(concealed: &[Tulip], collector: Collector) -> Vec<[Tulip; 3]> {
    // Group the (sorted) hand by colour and kind.
    let mut groups: Vec<Vec<Tulip>> = Vec::new();
    for &tulip in concealed {
        match groups.last_mut() {
            Some(group)
                if group[0].colour() == tulip.colour() && group[0].kind() == tulip.kind() =>
            {
                group.push(tulip)
            }
            _ => groups.push(vec![tulip]),
        }
    }
    let mut sets = Vec::new();
    for a in 0..groups.len() {
        for b in a..groups.len() {
            for c in b..groups.len() {
                let mut used = vec![0usize; groups.len()];
                let mut pick = |group: usize| {
                    let card = groups[group].get(used[group]).copied();
                    used[group] += 1;
                    card
                };
                if let (Some(x), Some(y), Some(z)) = (pick(a), pick(b), pick(c)) {
                    if collector.accepts([x, y, z]) {
                        sets.push([x, y, z]);
                    }
                }
            }
        }
    }
    sets
}
