//! Why an action was refused: the error type and its kebab-case codes (§4).

use crate::board::Space;
use crate::state::TileRef;
use game_core::Seat;

/// Why an action was refused (§4). `code()` is the spec's kebab-case code; messages reveal
/// nothing (there is nothing hidden).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The seat is not the active seat.
    #[error("it is not {0}'s turn")]
    NotYourTurn(Seat),
    /// The action is not accepted in the current phase.
    #[error("{action} is not possible in phase {phase}")]
    WrongPhase {
        /// The action's type.
        action: &'static str,
        /// The current phase.
        phase: &'static str,
    },
    /// `set_bonus_die` names a bonus tile the player does not have.
    #[error("there is no bonus tile {0}")]
    NoSuchBonus(u32),
    /// A face outside 1-6.
    #[error("face {0} is not between 1 and 6")]
    FaceOutOfRange(i64),
    /// `reroll` with no dice.
    #[error("reroll needs at least one die")]
    EmptyReroll,
    /// A die index that does not exist.
    #[error("there is no die {die} (this turn has {dice} dice)")]
    NoSuchDie {
        /// The index given.
        die: u32,
        /// Dice this turn.
        dice: usize,
    },
    /// A die index listed twice.
    #[error("die {0} is listed twice")]
    DuplicateDie(u32),
    /// A tile reference to an empty or nonexistent space, or a missing above index.
    #[error("there is no tile at {0:?}")]
    NoSuchTile(TileRef),
    /// `buy_roll` names the same tile twice.
    #[error("the two tiles to flip must differ")]
    SameTileTwice,
    /// A space name that is not r1c1..r5c7.
    #[error("{0} is not a space of the field")]
    NoSuchSpace(Space),
    /// A bonus area that is not 2×3 or 3×2.
    #[error("a bonus tile is 2x3 or 3x2, not {height}x{width}")]
    BadAreaShape {
        /// Rows asked for.
        height: i64,
        /// Columns asked for.
        width: i64,
    },
    /// A bonus area that sticks out of the field.
    #[error("the area at row {row}, column {col} does not fit on the field")]
    AreaOffField {
        /// Top row asked for.
        row: i64,
        /// Left column asked for.
        col: i64,
    },
    /// `set_bonus_die` for a wheelbarrow that gets no die this turn (more bonus tiles than dice).
    #[error("wheelbarrow {0} gets no die this turn")]
    WheelbarrowWithoutDie(u32),
    /// `set_bonus_die` for a wheelbarrow whose die is already set.
    #[error("the die on wheelbarrow {0} is already set")]
    BonusDieAlreadySet(u32),
    /// No rolls left this turn (buy one first, if possible).
    #[error("all {0} rolls of this turn are used")]
    RollBudgetUsed(u8),
    /// `buy_roll` before the current rolls are used up.
    #[error("a roll can only be bought after roll {0}")]
    RollsNotUsedUp(u8),
    /// `buy_roll` after two rolls were already bought.
    #[error("at most two rolls can be bought per turn")]
    NoMoreRollsToBuy,
    /// A tile that shows its moneybag or lies under a bonus tile.
    #[error("the tile at {0:?} cannot be flipped")]
    NotFlippable(TileRef),
    /// `place` on a covered space.
    #[error("{0} is already covered")]
    SpaceCovered(Space),
    /// `place` on a space whose requirement the dice do not meet.
    #[error("the dice do not meet the requirement of {0}")]
    NoMatch(Space),
    /// `place_above` while some empty space matches.
    #[error("the tile must go on the field: an empty space matches the dice")]
    MustPlaceOnField,
    /// A bonus area with an empty space.
    #[error("every space under a bonus tile must be covered")]
    AreaNotCovered,
    /// A bonus area overlapping another bonus tile.
    #[error("the area overlaps bonus tile {0}")]
    AreaOverlapsBonus(u8),
    /// More bonus claims than the per-turn limit.
    #[error("only {0} bonus tile(s) may be claimed per turn")]
    ClaimLimitReached(u32),
    /// The bonus supply is empty.
    #[error("no bonus tiles are left")]
    BonusSupplyEmpty,
    /// `start_next_round` with a space that may not take the multicoloured tile.
    #[error("{0} may not take the multicoloured tile")]
    NotEligible(Space),
    /// `start_next_round` with `null` although a space is eligible.
    #[error("the multicoloured tile must be placed on an eligible space")]
    MulticolorRequired,
}

game_core::rule_error! {
    Error {
        Error::GameOver => "game-over", GameOver;
        Error::NotYourTurn(_) => "not-your-turn", Turn;
        Error::WrongPhase { .. } => "wrong-phase", Rule;
        Error::NoSuchBonus(_)
        | Error::FaceOutOfRange(_)
        | Error::EmptyReroll
        | Error::NoSuchDie { .. }
        | Error::DuplicateDie(_)
        | Error::NoSuchTile(_)
        | Error::SameTileTwice
        | Error::NoSuchSpace(_)
        | Error::BadAreaShape { .. }
        | Error::AreaOffField { .. }
        => "bad-parameter", Rule;
        Error::WheelbarrowWithoutDie(_)
        | Error::BonusDieAlreadySet(_)
        | Error::RollBudgetUsed(_)
        | Error::RollsNotUsedUp(_)
        | Error::NoMoreRollsToBuy
        | Error::NotFlippable(_)
        | Error::SpaceCovered(_)
        | Error::NoMatch(_)
        | Error::MustPlaceOnField
        | Error::AreaNotCovered
        | Error::AreaOverlapsBonus(_)
        | Error::ClaimLimitReached(_)
        | Error::BonusSupplyEmpty
        | Error::NotEligible(_)
        | Error::MulticolorRequired
        => "rule-violation", Rule;
    }
}
