//! The rule errors (spec §4.11) and their codes.

use crate::cards::Collector;

/// Why an action was refused (§4.11). Messages never reveal hidden information.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
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
    Error {
        Error::GameOver => "game-over", GameOver;
        Error::WrongPhase => "wrong-phase", Rule;
        Error::NotYourTurn => "not-your-turn", Turn;
        Error::AlreadyCommitted => "already-committed", Turn;
        Error::UnknownCard(_) => "unknown-card", Rule;
        Error::NotOwned(_) => "not-owned", Rule;
        Error::NotFinanced(_) => "not-financed", Rule;
        Error::InsufficientCash { .. } => "insufficient-cash", Rule;
        Error::FinancedSaleForbidden => "financed-sale-forbidden", Rule;
        Error::FinancedToCollector(_) => "financed-to-collector", Rule;
        Error::CollectorUnavailable(_) => "collector-unavailable", Rule;
        Error::CollectorLimit => "collector-limit", Rule;
        Error::InvalidSet(_) => "invalid-set", Rule;
        Error::TooManyMarkers { .. } => "too-many-markers", Rule;
        Error::NoMarkersAvailable { .. } => "no-markers-available", Rule;
        Error::DuplicateCard(_) => "duplicate-card", Rule;
        Error::CardNotBiddable(_) => "card-not-biddable", Rule;
        Error::AlreadyMarked(_) => "already-marked", Rule;
        Error::BidTooLow { .. } => "bid-too-low", Rule;
        Error::BidTooHigh { .. } => "bid-too-high", Rule;
        Error::NotEligible => "not-eligible", Rule;
        Error::CashNotAllowed { .. } => "cash-not-allowed", Rule;
    }
}
