//! Actions (§4), the events they produce, and the errors that refuse them.

use crate::board::{Space, WinCondition};
use crate::state::{BonusTile, GameResult, SoloTier, TileRef};
use game_core::Seat;
use serde::{Deserialize, Serialize};

/// A move by the active player. The acting seat is the authenticated caller, never a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Action))]
pub enum Action {
    /// A1: choose the face of the die on wheelbarrow `bonus` at turn start.
    SetBonusDie {
        /// The bonus tile (0 = first claimed).
        bonus: u32,
        /// The face, 1-6.
        face: i64,
    },
    /// A2: the first roll of the turn (dice on wheelbarrows stay).
    Roll {},
    /// A3: roll these dice again; the others are kept. A wheelbarrow die named here is
    /// released for the rest of the turn.
    Reroll {
        /// Die indices, non-empty and distinct.
        dice: Vec<u32>,
    },
    /// A4: flip two tulip-side tiles to moneybags to buy one more roll (after roll 3 or 4).
    BuyRoll {
        /// The two distinct tiles to flip.
        #[cfg_attr(feature = "openapi", schema(min_items = 2, max_items = 2))]
        flip: [TileRef; 2],
    },
    /// A5: put a new tile on an empty space whose requirement the dice meet.
    Place {
        /// The space.
        space: Space,
    },
    /// A6: put the new tile above the field (only when no empty space matches, by default).
    PlaceAbove {},
    /// A7: lay a bonus tile on six covered spaces (2 rows × 3 columns or 3 × 2).
    ClaimBonus {
        /// Row of the top-left space.
        row: i64,
        /// Column of the top-left space.
        col: i64,
        /// 2 or 3.
        height: i64,
        /// 3 or 2.
        width: i64,
    },
    /// A8: end the turn; the next seat starts.
    EndTurn {},
    /// A9 (solo): start the next round, putting the multicoloured tile on an eligible space
    /// (`null` exactly when none is eligible).
    StartNextRound {
        /// The eligible space, or `null`.
        multicolor: Option<Space>,
    },
}

impl Action {
    /// The action's `type` tag.
    pub fn name(&self) -> &'static str {
        match self {
            Action::SetBonusDie { .. } => "set_bonus_die",
            Action::Roll {} => "roll",
            Action::Reroll { .. } => "reroll",
            Action::BuyRoll { .. } => "buy_roll",
            Action::Place { .. } => "place",
            Action::PlaceAbove {} => "place_above",
            Action::ClaimBonus { .. } => "claim_bonus",
            Action::EndTurn {} => "end_turn",
            Action::StartNextRound { .. } => "start_next_round",
        }
    }
}

/// One die value drawn by a roll.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::RolledDie))]
pub struct RolledDie {
    /// The die index.
    pub die: u8,
    /// The face drawn.
    pub value: u8,
}

/// Something that happened. Every event is public.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Event))]
pub enum Event {
    /// Setup (log entry 0): each seat's tulip-field board. No randomness is used at setup.
    BoardsDealt {
        /// The board of each seat, by seat.
        boards: Vec<crate::options::Board>,
    },
    /// A turn began.
    TurnStarted {
        /// The active seat.
        seat: Seat,
        /// TurnStarts so far (per round in solo).
        turn_number: u32,
        /// Dice this turn.
        dice_count: u8,
        /// Dice that must be set on wheelbarrows first.
        wheelbarrow_dice: u8,
    },
    /// A wheelbarrow die got its face.
    BonusDieSet {
        /// The active seat.
        seat: Seat,
        /// The wheelbarrow (bonus id) and die index.
        bonus: u8,
        /// The face chosen.
        face: u8,
    },
    /// Dice were rolled (`roll`) or rolled again (`reroll`).
    Rolled {
        /// The active seat.
        seat: Seat,
        /// The roll number this roll became (1..=5).
        roll_number: u8,
        /// The values drawn, in ascending die order.
        rolled: Vec<RolledDie>,
        /// All dice values after the roll.
        dice: Vec<u8>,
    },
    /// Two tiles were flipped to buy a roll.
    RollBought {
        /// The active seat.
        seat: Seat,
        /// The tiles now showing moneybags.
        flipped: [TileRef; 2],
        /// Rolls bought this turn so far.
        rolls_bought: u8,
    },
    /// A tile went onto the field.
    TilePlaced {
        /// The active seat.
        seat: Seat,
        /// The space.
        space: Space,
    },
    /// A tile went above the field.
    TilePlacedAbove {
        /// The active seat.
        seat: Seat,
        /// Its index above the field.
        index: u32,
    },
    /// A bonus tile was laid on the field.
    BonusClaimed {
        /// The active seat.
        seat: Seat,
        /// Its bonus id.
        bonus: u8,
        /// The area it covers.
        area: BonusTile,
        /// Bonus tiles left in the supply.
        supply_left: u32,
    },
    /// A turn ended.
    TurnEnded {
        /// The seat whose turn ended.
        seat: Seat,
        /// The dice it will roll from its next turn.
        dice_count: u8,
    },
    /// A multiplayer game was won.
    GameWon {
        /// The winner.
        seat: Seat,
        /// The condition met.
        condition: WinCondition,
    },
    /// A solo round ended.
    RoundEnded {
        /// The round that ended.
        round: u8,
        /// Its score (tiles the player has).
        score: u32,
        /// The condition met.
        condition: WinCondition,
        /// Spaces that may take the next round's multicoloured tile (none after round 3).
        eligible: Vec<crate::board::Space>,
    },
    /// A solo round began.
    RoundStarted {
        /// The new round.
        round: u8,
        /// Where the new multicoloured tile went, if anywhere.
        multicolor: Option<Space>,
    },
    /// The solo game ended.
    SoloFinished {
        /// The final result.
        result: GameResult,
        /// The rating.
        tier: SoloTier,
    },
}

/// Why an action was refused (§4). `code()` is the spec's kebab-case code; messages reveal
/// nothing (there is nothing hidden).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TulpenfieberError {
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
    TulpenfieberError {
        TulpenfieberError::GameOver => "game-over", GameOver;
        TulpenfieberError::NotYourTurn(_) => "not-your-turn", Turn;
        TulpenfieberError::WrongPhase { .. } => "wrong-phase", Rule;
        TulpenfieberError::NoSuchBonus(_)
        | TulpenfieberError::FaceOutOfRange(_)
        | TulpenfieberError::EmptyReroll
        | TulpenfieberError::NoSuchDie { .. }
        | TulpenfieberError::DuplicateDie(_)
        | TulpenfieberError::NoSuchTile(_)
        | TulpenfieberError::SameTileTwice
        | TulpenfieberError::NoSuchSpace(_)
        | TulpenfieberError::BadAreaShape { .. }
        | TulpenfieberError::AreaOffField { .. }
        => "bad-parameter", Rule;
        TulpenfieberError::WheelbarrowWithoutDie(_)
        | TulpenfieberError::BonusDieAlreadySet(_)
        | TulpenfieberError::RollBudgetUsed(_)
        | TulpenfieberError::RollsNotUsedUp(_)
        | TulpenfieberError::NoMoreRollsToBuy
        | TulpenfieberError::NotFlippable(_)
        | TulpenfieberError::SpaceCovered(_)
        | TulpenfieberError::NoMatch(_)
        | TulpenfieberError::MustPlaceOnField
        | TulpenfieberError::AreaNotCovered
        | TulpenfieberError::AreaOverlapsBonus(_)
        | TulpenfieberError::ClaimLimitReached(_)
        | TulpenfieberError::BonusSupplyEmpty
        | TulpenfieberError::NotEligible(_)
        | TulpenfieberError::MulticolorRequired
        => "rule-violation", Rule;
    }
}
