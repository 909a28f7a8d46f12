//! Actions (spec §4, wire format §4.12) and the rule errors (§4.11).

use crate::cards::{CardId, Collector};
use serde::{Deserialize, Serialize};

/// How a buyer pays for a tulip it won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::PaymentMethod))]
pub enum PaymentMethod {
    /// Pay the price from cash; the tulip goes behind the screen.
    Cash,
    /// Take a loan of the price; the tulip stays face up, holding the buyer's bid marker.
    Finance,
}

/// A move. The acting seat is the authenticated caller, never a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Action))]
pub enum Action {
    /// Sell a concealed or financed tulip to the market during one's Selling turn.
    SellToMarket {
        /// The tulip sold.
        tulip: CardId,
    },
    /// Sell exactly three concealed tulips to a face-up collector (once per round).
    SellToCollector {
        /// The face-up collector.
        collector: Collector,
        /// Exactly three concealed tulips.
        tulips: Vec<CardId>,
    },
    /// Repay a loan; the tulip goes behind the screen. Allowed at any decision point.
    BuyBack {
        /// The financed tulip.
        tulip: CardId,
    },
    /// End one's Selling turn (a turn never ends by itself).
    EndSellingTurn {},
    /// The sealed Black Tulip decision.
    BlackTulipDecision {
        /// Whether to buy the Black Tulip (needs more than 120 fl and no loans).
        claim: bool,
    },
    /// Place 0–2 bid markers (pass 1) or 0–1 (pass 2) on cards in New Arrivals or
    /// Just Sold.
    PlaceBids {
        /// The cards to mark.
        cards: Vec<CardId>,
    },
    /// Raise the auction.
    AuctionBid {
        /// The bid: above the market price, or above the high bid; at most `bid_cap`
        /// (1,000,000 by default).
        amount: i64,
    },
    /// Leave the auction.
    AuctionPass {},
    /// Pay for the tulip just won.
    ChoosePayment {
        /// Cash or finance.
        method: PaymentMethod,
    },
}

/// Why an action was refused (§4.11). Messages never reveal hidden information.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TulipBubbleError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// This action does not exist in the current state.
    #[error("this action is not possible in the current phase")]
    WrongPhase,
    /// The seat is not the one the game is waiting for.
    #[error("it is not your turn")]
    NotYourTurn,
    /// The seat already submitted its sealed Black Tulip decision.
    #[error("you have already submitted your decision")]
    AlreadyCommitted,
    /// No tulip card has this id.
    #[error("there is no tulip card {0:?}")]
    UnknownCard(String),
    /// The tulip is not behind the seat's screen (or financed by it, for a market sale).
    #[error("you do not own {0}")]
    NotOwned(String),
    /// The tulip is not one of the seat's financed tulips.
    #[error("{0} is not one of your financed tulips")]
    NotFinanced(String),
    /// The seat's cash does not cover the payment.
    #[error("you need {needed} fl but have {available} fl")]
    InsufficientCash {
        /// What the action costs.
        needed: i64,
        /// The seat's cash (its own information).
        available: i64,
    },
    /// With `evil_leverage`, a financed tulip cannot be sold to the market.
    #[error("financed tulips cannot be sold to the market with the evil leverage rule; buy it back first")]
    FinancedSaleForbidden,
    /// Collectors never take financed tulips.
    #[error("{0} is financed; collectors only buy concealed tulips")]
    FinancedToCollector(String),
    /// The collector is not the face-up card of a stack.
    #[error("collector {0:?} is not available")]
    CollectorUnavailable(Collector),
    /// The seat already sold to a collector this round.
    #[error("you have already sold to a collector this round")]
    CollectorLimit,
    /// The cards do not form the collector's set (or are not exactly three).
    #[error("these cards do not satisfy {0:?}")]
    InvalidSet(Collector),
    /// More cards than this placement pass allows.
    #[error("at most {limit} cards may be marked in this pass")]
    TooManyMarkers {
        /// The pass limit (2 or 1).
        limit: usize,
    },
    /// More cards than the seat has bid markers left.
    #[error("you have only {available} bid markers available")]
    NoMarkersAvailable {
        /// Markers the seat has left.
        available: usize,
    },
    /// The same card was named twice.
    #[error("{0} is named twice")]
    DuplicateCard(String),
    /// The card is not in New Arrivals or Just Sold.
    #[error("{0} cannot be bid on")]
    CardNotBiddable(String),
    /// The seat's marker is already on this card.
    #[error("your marker is already on {0}")]
    AlreadyMarked(String),
    /// The bid does not exceed the market price or the high bid.
    #[error("the bid must be at least {minimum}")]
    BidTooLow {
        /// The smallest acceptable bid.
        minimum: i64,
    },
    /// The bid exceeds the technical cap `bid_cap` (D-8, 1,000,000 by default).
    #[error("the bid must be at most {maximum}")]
    BidTooHigh {
        /// The cap.
        maximum: i64,
    },
    /// A Black Tulip claim needs more than 120 fl and no financed tulips.
    #[error("you need more than 120 fl and no financed tulips to buy the Black Tulip")]
    NotEligible,
    /// Cash payment needs cash of at least the price.
    #[error("you cannot pay {price} fl in cash")]
    CashNotAllowed {
        /// The price to pay.
        price: i64,
    },
}

game_core::rule_error! {
    TulipBubbleError {
        TulipBubbleError::GameOver => "game-over", GameOver;
        TulipBubbleError::WrongPhase => "wrong-phase", Rule;
        TulipBubbleError::NotYourTurn => "not-your-turn", Turn;
        TulipBubbleError::AlreadyCommitted => "already-committed", Turn;
        TulipBubbleError::UnknownCard(_) => "unknown-card", Rule;
        TulipBubbleError::NotOwned(_) => "not-owned", Rule;
        TulipBubbleError::NotFinanced(_) => "not-financed", Rule;
        TulipBubbleError::InsufficientCash { .. } => "insufficient-cash", Rule;
        TulipBubbleError::FinancedSaleForbidden => "financed-sale-forbidden", Rule;
        TulipBubbleError::FinancedToCollector(_) => "financed-to-collector", Rule;
        TulipBubbleError::CollectorUnavailable(_) => "collector-unavailable", Rule;
        TulipBubbleError::CollectorLimit => "collector-limit", Rule;
        TulipBubbleError::InvalidSet(_) => "invalid-set", Rule;
        TulipBubbleError::TooManyMarkers { .. } => "too-many-markers", Rule;
        TulipBubbleError::NoMarkersAvailable { .. } => "no-markers-available", Rule;
        TulipBubbleError::DuplicateCard(_) => "duplicate-card", Rule;
        TulipBubbleError::CardNotBiddable(_) => "card-not-biddable", Rule;
        TulipBubbleError::AlreadyMarked(_) => "already-marked", Rule;
        TulipBubbleError::BidTooLow { .. } => "bid-too-low", Rule;
        TulipBubbleError::BidTooHigh { .. } => "bid-too-high", Rule;
        TulipBubbleError::NotEligible => "not-eligible", Rule;
        TulipBubbleError::CashNotAllowed { .. } => "cash-not-allowed", Rule;
    }
}
