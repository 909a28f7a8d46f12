//! The complete game state (spec §2.1). Fields are public so that tests and tools can build
//! any position (see the crate docs); clients only ever see [`crate::View`].

use crate::cards::{price, Collector, EventCard, Tulip};
use crate::options::Options;
use crate::track::Track;
use game_core::{Seat, SeatSet};
use serde::{Deserialize, Serialize};

/// The full state of one game of Tulip Bubble. This type implements [`game_core::Game`].
///
/// Ordered lists run left to right (areas) or top to bottom (decks, stacks): index 0 is the
/// leftmost card or the top card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TulipBubble {
    /// The options the game was created with.
    pub options: Options,
    /// Seats at the table (3..=5).
    pub n_seats: u8,
    /// The round, from 1.
    pub round: u32,
    /// The start player of this round.
    pub start_player: Seat,
    /// The price markers.
    pub track: Track,
    /// The face-down tulip deck, top first (secret).
    pub tulip_deck: Vec<Tulip>,
    /// The face-up discard pile, kept sorted (it is a multiset).
    pub tulip_discard: Vec<Tulip>,
    /// Next Shipment: face up, cannot be bid on.
    pub next_shipment: Vec<Tulip>,
    /// New Arrivals, with the bid markers on each card.
    pub new_arrivals: Vec<Slot>,
    /// Just Sold, with the bid markers on each card; sales go on the right.
    pub just_sold: Vec<Slot>,
    /// The face-down event deck, top first (secret).
    pub event_deck: Vec<EventCard>,
    /// The event card removed unseen at setup (secret until the game ends).
    pub removed_event: EventCard,
    /// Revealed event cards in order (the setup event first).
    pub event_history: Vec<EventCard>,
    /// The collector stacks +10, +15 and +20, top first; only the top card is face up.
    pub collector_stacks: [Vec<Collector>; 3],
    /// Collectors that have been sold to, in order.
    pub collectors_boxed: Vec<Collector>,
    /// Whether the Black Tulip is still on its spot (false once it is bought).
    pub black_tulip_available: bool,
    /// Each seat's holdings, by seat.
    pub players: Vec<Player>,
    /// Where the game is.
    pub phase: Phase,
}

/// A card in New Arrivals or Just Sold, with the seats whose bid marker is on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Slot))]
pub struct Slot {
    /// The card.
    pub tulip: Tulip,
    /// Seats with a marker on it.
    pub markers: SeatSet,
}

impl Slot {
    /// An unmarked card.
    pub fn new(tulip: Tulip) -> Slot {
        Slot {
            tulip,
            markers: SeatSet::EMPTY,
        }
    }
}

/// A financed tulip: face up in front of its owner, holding one of the owner's markers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Loan))]
pub struct Loan {
    /// The tulip.
    pub tulip: Tulip,
    /// The amount owed to the bank (the purchase price).
    pub loan: i64,
}

/// One seat's holdings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// i64 behind the screen (private).
    pub cash: i64,
    /// Tulips behind the screen, sorted (private, including the count).
    pub concealed: Vec<Tulip>,
    /// Financed tulips, in purchase order (public).
    pub financed: Vec<Loan>,
    /// Whether the seat sold to a collector this round.
    pub collector_used_this_round: bool,
    /// Whether the seat has ended its Selling turn this round.
    pub selling_done: bool,
}

impl Player {
    /// A seat at setup: 20 fl, nothing else (S2).
    pub fn new(cash: i64) -> Player {
        Player {
            cash,
            concealed: Vec::new(),
            financed: Vec::new(),
            collector_used_this_round: false,
            selling_done: false,
        }
    }

    /// The sum of the seat's loans.
    pub fn debt(&self) -> i64 {
        self.financed.iter().map(|loan| loan.loan).sum()
    }

    /// The loan on `tulip`, if the seat financed it.
    pub fn loan_on(&self, tulip: Tulip) -> Option<i64> {
        self.financed
            .iter()
            .find(|loan| loan.tulip == tulip)
            .map(|loan| loan.loan)
    }

    /// Puts a tulip behind the screen, keeping the list sorted.
    pub fn conceal(&mut self, tulip: Tulip) {
        let at = self.concealed.partition_point(|&held| held < tulip);
        self.concealed.insert(at, tulip);
    }
}

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::EndReason))]
pub enum EndReason {
    /// The Bubble Bust was revealed (§6.2).
    Bust,
    /// Someone bought the Black Tulip (§6.1).
    BlackTulip,
}

impl EndReason {
    /// The reason string of the outcome.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Bust => "bust",
            EndReason::BlackTulip => "black_tulip",
        }
    }
}

/// The resolution of the bids: the snapshot of NA then JS taken when resolution starts,
/// and the position of the card being resolved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Resolution))]
pub struct Resolution {
    /// NA left to right, then JS left to right.
    pub queue: Vec<Tulip>,
    /// The index in `queue` of the card being resolved.
    pub cursor: usize,
}

/// An open ascending auction.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Auction))]
pub struct Auction {
    /// The card.
    pub tulip: Tulip,
    /// Its market price.
    pub market_price: i64,
    /// Seats with a marker on it, clockwise from the start player.
    pub participants: Vec<Seat>,
    /// Participants that have not passed.
    pub active: SeatSet,
    /// The highest bid so far and who made it.
    pub high_bid: Option<HighBid>,
    /// The seat to bid or pass.
    pub actor: Seat,
}

/// The highest bid of an auction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::HighBid))]
pub struct HighBid {
    /// Who bid.
    pub seat: Seat,
    /// How much.
    pub amount: i64,
}

/// A purchase waiting for its payment choice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Payment))]
pub struct Payment {
    /// The card.
    pub tulip: Tulip,
    /// Who must pay.
    pub buyer: Seat,
    /// What it costs.
    pub price: i64,
    /// Its market price (for the premium).
    pub market_price: i64,
    /// Everyone who had a marker on it, clockwise from the start player.
    pub participants: Vec<Seat>,
}

/// The decision points (§3.1) and the end of the game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, strum::IntoStaticStr)]
#[strum(serialize_all = "snake_case")]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// §3.4: `seller` takes its Selling turn.
    Selling {
        /// The seat selling now.
        seller: Seat,
    },
    /// §3.5 B0: sealed Black Tulip decisions.
    BlackTulipWindow {
        /// Seats that have decided.
        submitted: SeatSet,
        /// Seats that claimed (sealed until all have decided).
        claims: SeatSet,
    },
    /// §3.5 B1: bid placement.
    BidPlacement {
        /// 1 or 2.
        pass: u8,
        /// The seat placing now.
        placer: Seat,
    },
    /// §3.5 B3: an auction during resolution.
    Auction {
        /// The resolution walk.
        resolution: Resolution,
        /// The auction.
        auction: Auction,
    },
    /// §3.5 B4: a payment during resolution.
    Payment {
        /// The resolution walk.
        resolution: Resolution,
        /// The purchase.
        payment: Payment,
    },
    /// §6: the game is over.
    GameOver {
        /// Why.
        reason: EndReason,
        /// The winners (joint victory on ties).
        winners: SeatSet,
        /// Black Tulip claimants (empty after a Bust).
        claimants: SeatSet,
    },
}

impl TulipBubble {
    /// The market price of `tulip` now (§1.3).
    pub fn price_of(&self, tulip: Tulip) -> i64 {
        price(
            tulip.rank(),
            self.track.level(tulip.colour()),
            self.options.a_price_low,
        )
    }

    /// Bid markers `seat` has in hand: 3 minus its financed tulips minus its markers on
    /// cards in New Arrivals and Just Sold.
    pub fn markers_available(&self, seat: Seat) -> usize {
        let placed = self
            .new_arrivals
            .iter()
            .chain(&self.just_sold)
            .filter(|slot| slot.markers.contains(seat))
            .count();
        3usize.saturating_sub(self.players[seat.index()].financed.len() + placed)
    }

    /// The seats clockwise from the start player.
    pub fn seats_from_start(&self) -> impl Iterator<Item = Seat> + '_ {
        (0..self.n_seats).map(move |offset| Seat((self.start_player.0 + offset) % self.n_seats))
    }

    /// The slot of `tulip` in New Arrivals or Just Sold.
    pub fn slot(&self, tulip: Tulip) -> Option<&Slot> {
        self.new_arrivals
            .iter()
            .chain(&self.just_sold)
            .find(|slot| slot.tulip == tulip)
    }

    pub(crate) fn slot_mut(&mut self, tulip: Tulip) -> Option<&mut Slot> {
        self.new_arrivals
            .iter_mut()
            .chain(self.just_sold.iter_mut())
            .find(|slot| slot.tulip == tulip)
    }

    /// The cards of each colour (by [`crate::Colour::index`]) in Next Shipment, New Arrivals
    /// and Just Sold: what the Market Response counts (§3.6 C1).
    pub fn area_counts(&self) -> [usize; 3] {
        let mut counts = [0usize; 3];
        let areas = self.next_shipment.iter().chain(
            self.new_arrivals
                .iter()
                .chain(&self.just_sold)
                .map(|slot| &slot.tulip),
        );
        for tulip in areas {
            counts[tulip.colour().index()] += 1;
        }
        counts
    }

    /// Each seat's score: cash minus loans (§6.2, §6.3).
    pub fn scores(&self) -> Vec<i64> {
        self.players
            .iter()
            .map(|player| player.cash - player.debt())
            .collect()
    }

    /// Whether the game has ended.
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::GameOver { .. })
    }

    /// The seats the game is waiting for (the required actors of §3.8).
    pub fn required_actors(&self) -> SeatSet {
        match &self.phase {
            Phase::Selling { seller } => SeatSet::only(*seller),
            Phase::BlackTulipWindow { submitted, .. } => Seat::all(self.n_seats)
                .filter(|seat| !submitted.contains(*seat))
                .collect(),
            Phase::BidPlacement { placer, .. } => SeatSet::only(*placer),
            Phase::Auction { auction, .. } => SeatSet::only(auction.actor),
            Phase::Payment { payment, .. } => SeatSet::only(payment.buyer),
            Phase::GameOver { .. } => SeatSet::EMPTY,
        }
    }

    /// Whether `seat` can repay at least one of its loans now.
    pub fn can_buy_back(&self, seat: Seat) -> bool {
        let player = &self.players[seat.index()];
        !self.is_over() && player.financed.iter().any(|loan| loan.loan <= player.cash)
    }
}
