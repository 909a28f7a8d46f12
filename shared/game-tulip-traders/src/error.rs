//! Rule errors (§4.1) with the spec's kebab-case codes. Messages never reveal hidden cards.

use crate::cards::Cell;
use game_core::Seat;

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// Another seat must act.
    #[error("it is not {0}'s turn")]
    NotYourTurn(Seat),
    /// This action type is not allowed in this state.
    #[error("this action is not allowed in the current phase")]
    WrongPhase,
    /// A cell id that is not on the grid.
    #[error("{0} is not on the grid")]
    UnknownCell(Cell),
    /// A card the seat does not hold.
    #[error("a listed card is not in your hand")]
    CardNotInHand,
    /// A card listed twice.
    #[error("a card is listed twice")]
    DuplicateCard,
    /// The wrong number of cards.
    #[error("expected {expected} cards, got {got}")]
    WrongCardCount {
        /// Required count.
        expected: usize,
        /// Given count.
        got: usize,
    },
    /// An investment option name that is not configured.
    #[error("unknown investment option '{0}'")]
    UnknownOption(String),
    /// The option costs more than the purse.
    #[error("the option costs {cost}, more than the purse")]
    OptionUnaffordable {
        /// Its cost.
        cost: u32,
    },
    /// The side does not give the round's grid shape.
    #[error("adding a line on that side does not give this round's grid")]
    IllegalSide,
    /// MoveCrisis from a cell without a crisis.
    #[error("{0} is not in crisis")]
    SourceNotInCrisis(Cell),
    /// MoveCrisis onto a cell already in crisis.
    #[error("{0} is already in crisis")]
    TargetInCrisis(Cell),
    /// MoveCrisis onto the same cell.
    #[error("source and target are the same cell")]
    SameCell,
    /// MoveCrisis between cards sharing nothing.
    #[error("{0} and {1} share neither a colour nor a type")]
    NoSharedAttribute(Cell, Cell),
    /// The purse cannot pay RC.
    #[error("the manipulation fee is {fee}, more than the purse")]
    FeeUnaffordable {
        /// RC(r).
        fee: u32,
    },
    /// Investment on a cell in crisis.
    #[error("{0} is in crisis")]
    CellInCrisis(Cell),
    /// An allocation of zero.
    #[error("every amount must be at least 1")]
    AmountNotPositive,
    /// The allocation does not add up to the earmark.
    #[error("the allocation adds up to {got}, not the earmark {earmark}")]
    AllocationSumMismatch {
        /// Sum given.
        got: u64,
        /// Earmark.
        earmark: u32,
    },
    /// A buyer the mode does not allow.
    #[error("{0} may not be the buyer of this lot")]
    BuyerNotAllowed(Seat),
    /// Declared below the minimum.
    #[error("the declared value must be at least {min}")]
    DeclaredTooLow {
        /// The minimum.
        min: u32,
    },
    /// Declared above MAX_DECLARED.
    #[error("the declared value must be at most {max}")]
    DeclaredTooHigh {
        /// MAX_DECLARED.
        max: u32,
    },
    /// `cap < declared`: the buyer must accuse.
    #[error("the price cannot be raised even by liquidating everything")]
    BuyUnaffordable,
    /// A liquidation set given although the purse suffices.
    #[error("the purse already covers the amount; liquidate nothing")]
    LiquidationNotAllowed,
    /// The set does not raise enough.
    #[error("the liquidated cards do not raise enough")]
    LiquidationInsufficient,
    /// Some card of the set is not needed.
    #[error("the liquidation set is larger than needed")]
    LiquidationExcessive,
    /// Only tulips can be liquidated.
    #[error("only tulip cards can be liquidated")]
    NotATulip,
    /// RevealPortfolio without a pattern.
    #[error("the hand is not a complete portfolio")]
    NoCompletePortfolio,
}

game_core::rule_error! {
    Error {
        Error::GameOver => "game-over", GameOver;
        Error::NotYourTurn(_) => "not-your-turn", Turn;
        Error::WrongPhase => "wrong-phase", Rule;
        Error::UnknownCell(_) => "unknown-cell", Rule;
        Error::CardNotInHand => "card-not-in-hand", Rule;
        Error::DuplicateCard => "duplicate-card", Rule;
        Error::WrongCardCount { .. } => "wrong-card-count", Rule;
        Error::UnknownOption(_) => "unknown-option", Rule;
        Error::OptionUnaffordable { .. } => "option-unaffordable", Rule;
        Error::IllegalSide => "illegal-side", Rule;
        Error::SourceNotInCrisis(_) => "source-not-in-crisis", Rule;
        Error::TargetInCrisis(_) => "target-in-crisis", Rule;
        Error::SameCell => "same-cell", Rule;
        Error::NoSharedAttribute(..) => "no-shared-attribute", Rule;
        Error::FeeUnaffordable { .. } => "fee-unaffordable", Rule;
        Error::CellInCrisis(_) => "cell-in-crisis", Rule;
        Error::AmountNotPositive => "amount-not-positive", Rule;
        Error::AllocationSumMismatch { .. } => "allocation-sum-mismatch", Rule;
        Error::BuyerNotAllowed(_) => "buyer-not-allowed", Rule;
        Error::DeclaredTooLow { .. } => "declared-too-low", Rule;
        Error::DeclaredTooHigh { .. } => "declared-too-high", Rule;
        Error::BuyUnaffordable => "buy-unaffordable", Rule;
        Error::LiquidationNotAllowed => "liquidation-not-allowed", Rule;
        Error::LiquidationInsufficient => "liquidation-insufficient", Rule;
        Error::LiquidationExcessive => "liquidation-excessive", Rule;
        Error::NotATulip => "not-a-tulip", Rule;
        Error::NoCompletePortfolio => "no-complete-portfolio", Rule;
    }
}
