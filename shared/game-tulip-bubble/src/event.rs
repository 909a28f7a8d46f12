//! Log events (spec §2.3). All are public except the sealed Black Tulip decision, which is
//! logged privately for its author with a redacted twin for everyone else.

use crate::action::PaymentMethod;
use crate::cards::{Collector, EventCard, Tulip};
use crate::state::EndReason;
use crate::track::Track;
use game_core::{Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Event))]
pub enum Event {
    /// The setup (log entry 0): the opening market, collectors and start player. Followed by
    /// the opening `market_response` (if the option is on) and the setup `market_event`.
    GameDealt {
        /// The price track as first laid out (S1), before any response or event.
        track: Track,
        /// The Next Shipment, left to right.
        next_shipment: Vec<Tulip>,
        /// New Arrivals, left to right.
        new_arrivals: Vec<Tulip>,
        /// Just Sold, left to right.
        just_sold: Vec<Tulip>,
        /// The face-up collector of each stack, in stack order.
        collectors: Vec<Option<Collector>>,
        /// The start player.
        start_player: Seat,
    },
    /// A market event card was revealed; `track` is the track after its move.
    MarketEvent {
        /// The round the card opens.
        round: u32,
        /// The card.
        card: EventCard,
        /// The price track after the move.
        track: Track,
    },
    /// The Next Shipment became New Arrivals and a new shipment was drawn.
    ShipmentArrived {
        /// The new New Arrivals, left to right.
        new_arrivals: Vec<Tulip>,
        /// The new Next Shipment, left to right (short if deck and discard ran out).
        next_shipment: Vec<Tulip>,
        /// Whether the discard pile was shuffled into a new deck during the draw.
        reshuffled: bool,
    },
    /// The start player token moved on; the Selling phase begins.
    StartPlayerPassed {
        /// The new start player.
        seat: Seat,
    },
    /// A tulip was sold to the market.
    SoldToMarket {
        /// The seller.
        seat: Seat,
        /// The tulip, now the rightmost card of Just Sold.
        tulip: Tulip,
        /// The market price received.
        price: i64,
        /// The loan repaid from the price, for a financed tulip.
        loan_repaid: Option<i64>,
    },
    /// Three tulips were sold to a collector.
    SoldToCollector {
        /// The seller.
        seat: Seat,
        /// The collector, now boxed.
        collector: Collector,
        /// The three tulips, now discarded.
        tulips: Vec<Tulip>,
        /// Market prices plus bonus.
        amount: i64,
        /// The collector now face up on that stack, if any.
        next_collector: Option<Collector>,
    },
    /// A loan was repaid and the tulip went behind the screen.
    BoughtBack {
        /// The seat.
        seat: Seat,
        /// The tulip.
        tulip: Tulip,
        /// The loan repaid.
        loan: i64,
    },
    /// A seat ended its Selling turn.
    SellingTurnEnded {
        /// The seat.
        seat: Seat,
    },
    /// The Black Tulip window opened; every seat must decide.
    BlackTulipWindowOpened,
    /// A seat submitted its sealed decision. `claim` is shown only to the author.
    BlackTulipDecisionSubmitted {
        /// The seat.
        seat: Seat,
        /// The decision (author only; `null` for everyone else).
        claim: Option<bool>,
    },
    /// All Black Tulip decisions are in and revealed.
    BlackTulipWindowClosed {
        /// The seats that claimed the Black Tulip.
        claimants: SeatSet,
    },
    /// Bid placement started (pass 1 or 2).
    PlacementPassStarted {
        /// The pass, 1 or 2.
        pass: u8,
    },
    /// A seat placed bid markers.
    BidsPlaced {
        /// The seat.
        seat: Seat,
        /// The pass, 1 or 2.
        pass: u8,
        /// The cards marked (possibly none).
        cards: Vec<Tulip>,
    },
    /// An auction started.
    AuctionStarted {
        /// The tulip.
        tulip: Tulip,
        /// Its market price, the floor of the first bid.
        market_price: i64,
        /// The bidders in turn order.
        participants: Vec<Seat>,
    },
    /// A bid.
    AuctionBid {
        /// The bidder.
        seat: Seat,
        /// The amount.
        amount: i64,
    },
    /// A seat left the auction.
    AuctionPassed {
        /// The seat.
        seat: Seat,
    },
    /// A tulip must be paid for by `buyer` at `price`.
    PurchaseDue {
        /// The tulip.
        tulip: Tulip,
        /// The buyer.
        buyer: Seat,
        /// The price.
        price: i64,
        /// Whether it was won in an auction (otherwise a single marker).
        auction: bool,
    },
    /// A tulip was bought.
    TulipBought {
        /// The buyer.
        seat: Seat,
        /// The tulip.
        tulip: Tulip,
        /// The price.
        price: i64,
        /// Cash or finance.
        method: PaymentMethod,
    },
    /// The bid premium paid to the other participants.
    PremiumPaid {
        /// The receivers.
        seats: SeatSet,
        /// The amount each received (rounded down).
        amount: i64,
    },
    /// The Market Response (at the end of a round, or at setup with that option).
    MarketResponse {
        /// Cards of each colour (R, W, Y) counted in NS, NA and JS.
        counts: [usize; 3],
        /// The track after the response.
        track: Track,
    },
    /// Unsold cards of New Arrivals and Just Sold went to the discard pile.
    TulipsDiscarded {
        /// The cards.
        tulips: Vec<Tulip>,
    },
    /// The game ended; everything is revealed.
    GameEnded {
        /// Why.
        reason: EndReason,
        /// The winners.
        winners: SeatSet,
        /// Every seat's cash at the end, by seat.
        cash: Vec<i64>,
        /// Every seat's score (cash − loans), by seat.
        scores: Vec<i64>,
        /// The event card removed unseen at setup.
        removed_event: EventCard,
    },
}
