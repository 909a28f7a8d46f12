//! A plain greedy player, the game's [`game_core::Game::plan`]: the move a person with a
//! simple plan would make. The searching bots follow it in their playouts and try it first
//! (decision 46 in docs/decisions.md); without it their random playouts never string
//! together the many consistent moves the Black Tulip takes (from ƒ20 to more than ƒ120).
//!
//! The plan:
//! - it forecasts what each tulip will sell for on the next Selling turn ([`Forecast`]): the
//!   next Market Response as the cards now in Next Shipment, New Arrivals and Just Sold
//!   would move the markers (§3.6 C1), then each market event still unseen, equally likely
//!   (the Bust, which makes every tulip worthless, only from round 8: §5.3);
//! - it marks the cards whose forecast beats their market price the most (less ƒ1 per other
//!   marker on the card: an auction eats the gain), as long as its cash and ƒ[`CREDIT`] of
//!   loans pay for all it has marked at market prices;
//! - in an auction it bids the minimum while the lot's forecast is ƒ[`MARGIN`] more than
//!   that, and passes otherwise; it pays cash when it can, else it finances;
//! - on its Selling turn it sells to the best collector it can, then to the market every
//!   tulip whose forecast is no better than its price now, then ends its turn;
//! - in the Black Tulip window it claims when it may, and buys its loans back first when
//!   its cash would still be above the threshold.
//!
//! It decides only from what its seat sees: public fields and its own cash and hand (the
//! playout harness checks that its move does not change under the seat's re-deals).

use crate::action::{Action, PaymentMethod};
use crate::cards::{price, EventCard, Tulip};
use crate::legal::collector_sets;
use crate::state::{Phase, TulipBubble};
use crate::track::Track;
use game_core::Seat;

/// How much more than its bid the lot's forecast must be.
pub const MARGIN: i64 = 2;

/// How much the greedy player may owe, beyond its cash, for the cards it marks.
pub const CREDIT: i64 = 20;

/// The round from which the Bust may be the next event: it lies at position 8, 9 or 10 of
/// the event deck, revealed in that round (§5.3).
const BUST_FROM_ROUND: u32 = 8;

/// The greedy player's move for `seat`, if the game waits on it (`None` for a seat that may
/// only buy back, and once the game is over).
pub fn choose(game: &TulipBubble, seat: Seat) -> Option<Action> {
    if game.is_over() || !game.required_actors().contains(seat) {
        return None;
    }
    let me = &game.players[seat.index()];
    let action = match &game.phase {
        Phase::Selling { .. } => sell(game, seat),
        Phase::BlackTulipWindow { .. } => {
            let threshold = game.options.black_tulip_threshold;
            let affordable = me.financed.iter().find(|loan| loan.loan <= me.cash);
            if me.financed.is_empty() && me.cash > threshold {
                Action::BlackTulipDecision { claim: true }
            } else if let Some(loan) = affordable.filter(|_| me.cash - me.debt() > threshold) {
                Action::BuyBack {
                    tulip: loan.tulip.id(),
                }
            } else {
                Action::BlackTulipDecision { claim: false }
            }
        }
        Phase::BidPlacement { pass, .. } => {
            let limit = if *pass == 1 { 2 } else { 1 };
            Action::PlaceBids {
                cards: marks(game, seat, limit.min(game.markers_available(seat)))
                    .into_iter()
                    .map(Tulip::id)
                    .collect(),
            }
        }
        Phase::Auction { auction, .. } => {
            let minimum = game.minimum_bid()?;
            let worth = Forecast::of(game).price(game, auction.tulip);
            let bid = minimum + MARGIN <= worth
                && minimum <= me.cash + CREDIT - me.debt()
                && minimum <= game.options.bid_cap;
            if bid {
                Action::AuctionBid { amount: minimum }
            } else {
                Action::AuctionPass {}
            }
        }
        Phase::Payment { payment, .. } => Action::ChoosePayment {
            method: if me.cash >= payment.price {
                PaymentMethod::Cash
            } else {
                PaymentMethod::Finance
            },
        },
        Phase::GameOver { .. } => return None,
    };
    Some(action)
}

/// Where the markers may stand on the next Selling turn, each with its probability, and
/// the probability that the Bust comes first.
#[derive(Clone, Debug, PartialEq)]
pub struct Forecast {
    /// The possible tracks: the next Market Response, then each unseen event.
    pub tracks: Vec<(f64, Track)>,
    /// The probability that the next event is the Bust.
    pub bust: f64,
}

impl Forecast {
    /// The forecast from what everyone sees: the areas, the track, the events revealed.
    pub fn of(game: &TulipBubble) -> Forecast {
        let mut responded = game.track;
        responded.market_response(game.area_counts());
        let unseen: Vec<EventCard> = EventCard::others()
            .filter(|card| !game.event_history.contains(card))
            .collect();
        // Every decision point comes after its round's event: the next one opens the next
        // round. How many cards the event deck holds is public.
        let bust_possible = game.round + 1 >= BUST_FROM_ROUND
            && !game.event_history.contains(&EventCard::BUST)
            && !game.event_deck.is_empty();
        let bust = if bust_possible {
            1.0 / game.event_deck.len() as f64
        } else {
            0.0
        };
        let each = (1.0 - bust) / unseen.len().max(1) as f64;
        let tracks = unseen
            .iter()
            .map(|card| {
                let mut track = responded;
                track.apply_event(card.effect());
                (each, track)
            })
            .collect();
        Forecast { tracks, bust }
    }

    /// What `tulip` should sell for on the next Selling turn (nothing after a Bust).
    pub fn price(&self, game: &TulipBubble, tulip: Tulip) -> i64 {
        let expected: f64 = self
            .tracks
            .iter()
            .map(|(chance, track)| {
                let level = track.level(tulip.colour());
                chance * price(tulip.rank(), level, game.options.a_price_low) as f64
            })
            .sum();
        expected.round() as i64
    }
}

/// The cards `seat` marks: up to `limit` of those it has not marked, the best forecast gain
/// first (at least ƒ1 after ƒ1 less per other marker on the card), while its cash and
/// [`CREDIT`] pay for every card it has marked at market price. In resolution order (New
/// Arrivals, then Just Sold, each left to right), as they are listed.
fn marks(game: &TulipBubble, seat: Seat, limit: usize) -> Vec<Tulip> {
    if limit == 0 {
        return Vec::new();
    }
    let forecast = Forecast::of(game);
    let slots: Vec<_> = game.new_arrivals.iter().chain(&game.just_sold).collect();
    let me = &game.players[seat.index()];
    let mut committed: i64 = me.debt()
        + slots
            .iter()
            .filter(|slot| slot.markers.contains(seat))
            .map(|slot| game.price_of(slot.tulip))
            .sum::<i64>();
    let mut open: Vec<(usize, i64)> = slots
        .iter()
        .enumerate()
        .filter(|(_, slot)| !slot.markers.contains(seat))
        .map(|(at, slot)| {
            let gain = forecast.price(game, slot.tulip) - game.price_of(slot.tulip);
            (at, gain - slot.markers.len() as i64)
        })
        .filter(|&(_, gain)| gain >= 1)
        .collect();
    // The best gain first; ties in resolution order.
    open.sort_by_key(|&(at, gain)| (-gain, at));
    let mut chosen = Vec::new();
    for (at, _) in open {
        let cost = game.price_of(slots[at].tulip);
        if chosen.len() < limit && committed + cost <= me.cash + CREDIT {
            committed += cost;
            chosen.push(at);
        }
    }
    chosen.sort_unstable();
    chosen.into_iter().map(|at| slots[at].tulip).collect()
}

/// A Selling turn: the best collector sale, then one market sale, then the end of the turn.
fn sell(game: &TulipBubble, seat: Seat) -> Action {
    let me = &game.players[seat.index()];
    if !me.collector_used_this_round {
        let best = game
            .collector_stacks
            .iter()
            .filter_map(|stack| stack.first())
            .flat_map(|&collector| {
                collector_sets(&me.concealed, collector)
                    .into_iter()
                    .map(move |set| (collector, set))
            })
            .max_by_key(|(collector, set)| {
                set.iter().map(|&tulip| game.price_of(tulip)).sum::<i64>() + collector.bonus()
            });
        if let Some((collector, set)) = best {
            return Action::SellToCollector {
                collector,
                tulips: set.iter().map(|tulip| tulip.id()).collect(),
            };
        }
    }
    let forecast = Forecast::of(game);
    let falls = |tulip: Tulip| forecast.price(game, tulip) <= game.price_of(tulip);
    if let Some(&tulip) = me.concealed.iter().find(|&&tulip| falls(tulip)) {
        return Action::SellToMarket { tulip: tulip.id() };
    }
    let sellable = me.financed.iter().find(|loan| {
        falls(loan.tulip)
            && !game.options.evil_leverage
            && me.cash + game.price_of(loan.tulip) >= loan.loan
    });
    if let Some(loan) = sellable {
        return Action::SellToMarket {
            tulip: loan.tulip.id(),
        };
    }
    Action::EndSellingTurn {}
}
