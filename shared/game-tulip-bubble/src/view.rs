//! What one viewer may see (spec §2.2): public fields, plus the viewer's own cash and
//! concealed tulips; everything once the game is over (D-30).

use crate::cards::{Collector, EventCard, Tulip, COLLECTOR_STACKS};
use crate::options::Options;
use crate::state::{Auction, EndReason, Loan, Payment, Phase, Resolution, Slot, TulipBubble};
use crate::track::Track;
use game_core::{Seat, SeatSet, Viewer};
use serde::Serialize;

/// One viewer's picture of the game.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::View))]
pub struct View {
    /// The seat looking, or `null` for a spectator.
    pub viewer: Option<Seat>,
    /// The options of this game.
    pub options: Options,
    /// Seats at the table.
    pub n_seats: u8,
    /// The round, from 1.
    pub round: u32,
    /// The start player of this round.
    pub start_player: Seat,
    /// Where the game is.
    pub phase: PhaseView,
    /// The price markers.
    pub track: Track,
    /// Tulips left in the deck.
    pub tulip_deck_count: usize,
    /// The deck, top first: only once the game is over.
    pub tulip_deck: Option<Vec<Tulip>>,
    /// The discard pile (sorted).
    pub tulip_discard: Vec<Tulip>,
    /// Next Shipment, left to right.
    pub next_shipment: Vec<Tulip>,
    /// New Arrivals with bid markers, left to right.
    pub new_arrivals: Vec<Slot>,
    /// Just Sold with bid markers, left to right.
    pub just_sold: Vec<Slot>,
    /// Event cards left in the deck.
    pub event_deck_count: usize,
    /// The event deck, top first: only once the game is over.
    pub event_deck: Option<Vec<EventCard>>,
    /// The event card removed at setup: only once the game is over.
    pub removed_event: Option<EventCard>,
    /// Revealed event cards, the setup event first.
    pub event_history: Vec<EventCard>,
    /// The three collector stacks (+10, +15, +20).
    pub collector_stacks: Vec<CollectorStackView>,
    /// Collectors already sold to.
    pub collectors_boxed: Vec<Collector>,
    /// Whether the Black Tulip is still for sale.
    pub black_tulip_available: bool,
    /// Every seat, by seat.
    pub players: Vec<PlayerView>,
}

/// A collector stack: its bonus, its face-up card and its size.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::CollectorStackView))]
pub struct CollectorStackView {
    /// The bonus of every card in the stack.
    pub bonus: i64,
    /// The face-up card, if the stack is not empty.
    pub top: Option<Collector>,
    /// Cards in the stack.
    pub count: usize,
    /// The whole stack, top first: only once the game is over.
    pub cards: Option<Vec<Collector>>,
}

/// One seat as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::PlayerView))]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// Cash: the viewer's own, or everyone's once the game is over; otherwise `null`.
    pub cash: Option<i64>,
    /// Concealed tulips, on the same terms as `cash` (not even the count is public).
    pub concealed: Option<Vec<Tulip>>,
    /// Financed tulips and their loans (public).
    pub financed: Vec<Loan>,
    /// Bid markers in hand.
    pub markers_available: usize,
    /// Whether the seat sold to a collector this round.
    pub collector_used_this_round: bool,
    /// Whether the seat has ended its Selling turn this round.
    pub selling_done: bool,
}

/// The public phase cursor.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::PhaseView))]
pub enum PhaseView {
    /// `seller` is taking its Selling turn.
    Selling {
        /// The seat selling now.
        seller: Seat,
    },
    /// Sealed Black Tulip decisions.
    BlackTulipWindow {
        /// Seats that have decided.
        submitted: SeatSet,
        /// The viewer's own decision, once submitted.
        your_claim: Option<bool>,
    },
    /// Bid placement.
    BidPlacement {
        /// 1 or 2.
        pass: u8,
        /// The seat placing now.
        placer: Seat,
    },
    /// An auction.
    Auction {
        /// The resolution walk.
        resolution: Resolution,
        /// The auction.
        auction: Auction,
        /// The smallest acceptable bid.
        minimum_bid: i64,
    },
    /// A payment choice.
    Payment {
        /// The resolution walk.
        resolution: Resolution,
        /// The purchase.
        payment: Payment,
    },
    /// The game is over.
    GameOver {
        /// Why.
        reason: EndReason,
        /// The winners.
        winners: SeatSet,
        /// Black Tulip claimants.
        claimants: SeatSet,
        /// Every seat's score (cash − loans).
        scores: Vec<i64>,
    },
}

/// The view of `viewer` (§2.2).
pub fn view(game: &TulipBubble, viewer: Viewer) -> View {
    let over = game.is_over();
    let sees_all_of = |seat: Seat| over || viewer.seat() == Some(seat);
    let phase = match &game.phase {
        Phase::Selling { seller } => PhaseView::Selling { seller: *seller },
        Phase::BlackTulipWindow { submitted, claims } => PhaseView::BlackTulipWindow {
            submitted: *submitted,
            your_claim: viewer
                .seat()
                .filter(|seat| submitted.contains(*seat))
                .map(|seat| claims.contains(seat)),
        },
        Phase::BidPlacement { pass, placer } => PhaseView::BidPlacement {
            pass: *pass,
            placer: *placer,
        },
        Phase::Auction {
            resolution,
            auction,
        } => PhaseView::Auction {
            resolution: resolution.clone(),
            auction: auction.clone(),
            minimum_bid: game.minimum_bid().unwrap_or(auction.market_price + 1),
        },
        Phase::Payment {
            resolution,
            payment,
        } => PhaseView::Payment {
            resolution: resolution.clone(),
            payment: payment.clone(),
        },
        Phase::GameOver {
            reason,
            winners,
            claimants,
        } => PhaseView::GameOver {
            reason: *reason,
            winners: *winners,
            claimants: *claimants,
            scores: game.scores(),
        },
    };
    let players = Seat::all(game.n_seats)
        .map(|seat| {
            let player = &game.players[seat.index()];
            let visible = sees_all_of(seat);
            PlayerView {
                seat,
                cash: visible.then_some(player.cash),
                concealed: visible.then(|| player.concealed.clone()),
                financed: player.financed.clone(),
                markers_available: game.markers_available(seat),
                collector_used_this_round: player.collector_used_this_round,
                selling_done: player.selling_done,
            }
        })
        .collect();
    let collector_stacks = game
        .collector_stacks
        .iter()
        .zip(COLLECTOR_STACKS)
        .map(|(stack, (bonus, _))| CollectorStackView {
            bonus,
            top: stack.first().copied(),
            count: stack.len(),
            cards: over.then(|| stack.clone()),
        })
        .collect();
    View {
        viewer: viewer.seat(),
        options: game.options.clone(),
        n_seats: game.n_seats,
        round: game.round,
        start_player: game.start_player,
        phase,
        track: game.track,
        tulip_deck_count: game.tulip_deck.len(),
        tulip_deck: over.then(|| game.tulip_deck.clone()),
        tulip_discard: game.tulip_discard.clone(),
        next_shipment: game.next_shipment.clone(),
        new_arrivals: game.new_arrivals.clone(),
        just_sold: game.just_sold.clone(),
        event_deck_count: game.event_deck.len(),
        event_deck: over.then(|| game.event_deck.clone()),
        removed_event: over.then_some(game.removed_event),
        event_history: game.event_history.clone(),
        collector_stacks,
        collectors_boxed: game.collectors_boxed.clone(),
        black_tulip_available: game.black_tulip_available,
        players,
    }
}
