//! Rule errors (§4.1) with the spec's kebab-case codes. Messages never reveal hidden cards.

use crate::cards::Cell;
use game_core::{RuleError, RuleKind, Seat};

/// Why an action was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TulipError {
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

impl RuleError for TulipError {
    fn code(&self) -> &'static str {
        match self {
            TulipError::GameOver => "game-over",
            TulipError::NotYourTurn(_) => "not-your-turn",
            TulipError::WrongPhase => "wrong-phase",
            TulipError::UnknownCell(_) => "unknown-cell",
            TulipError::CardNotInHand => "card-not-in-hand",
            TulipError::DuplicateCard => "duplicate-card",
            TulipError::WrongCardCount { .. } => "wrong-card-count",
            TulipError::UnknownOption(_) => "unknown-option",
            TulipError::OptionUnaffordable { .. } => "option-unaffordable",
            TulipError::IllegalSide => "illegal-side",
            TulipError::SourceNotInCrisis(_) => "source-not-in-crisis",
            TulipError::TargetInCrisis(_) => "target-in-crisis",
            TulipError::SameCell => "same-cell",
            TulipError::NoSharedAttribute(..) => "no-shared-attribute",
            TulipError::FeeUnaffordable { .. } => "fee-unaffordable",
            TulipError::CellInCrisis(_) => "cell-in-crisis",
            TulipError::AmountNotPositive => "amount-not-positive",
            TulipError::AllocationSumMismatch { .. } => "allocation-sum-mismatch",
            TulipError::BuyerNotAllowed(_) => "buyer-not-allowed",
            TulipError::DeclaredTooLow { .. } => "declared-too-low",
            TulipError::DeclaredTooHigh { .. } => "declared-too-high",
            TulipError::BuyUnaffordable => "buy-unaffordable",
            TulipError::LiquidationNotAllowed => "liquidation-not-allowed",
            TulipError::LiquidationInsufficient => "liquidation-insufficient",
            TulipError::LiquidationExcessive => "liquidation-excessive",
            TulipError::NotATulip => "not-a-tulip",
            TulipError::NoCompletePortfolio => "no-complete-portfolio",
        }
    }

    fn kind(&self) -> RuleKind {
        match self {
            TulipError::GameOver => RuleKind::GameOver,
            TulipError::NotYourTurn(_) => RuleKind::Turn,
            TulipError::WrongPhase
            | TulipError::UnknownCell(_)
            | TulipError::CardNotInHand
            | TulipError::DuplicateCard
            | TulipError::WrongCardCount { .. }
            | TulipError::UnknownOption(_)
            | TulipError::OptionUnaffordable { .. }
            | TulipError::IllegalSide
            | TulipError::SourceNotInCrisis(_)
            | TulipError::TargetInCrisis(_)
            | TulipError::SameCell
            | TulipError::NoSharedAttribute(..)
            | TulipError::FeeUnaffordable { .. }
            | TulipError::CellInCrisis(_)
            | TulipError::AmountNotPositive
            | TulipError::AllocationSumMismatch { .. }
            | TulipError::BuyerNotAllowed(_)
            | TulipError::DeclaredTooLow { .. }
            | TulipError::DeclaredTooHigh { .. }
            | TulipError::BuyUnaffordable
            | TulipError::LiquidationNotAllowed
            | TulipError::LiquidationInsufficient
            | TulipError::LiquidationExcessive
            | TulipError::NotATulip
            | TulipError::NoCompletePortfolio => RuleKind::Rule,
        }
    }
}
