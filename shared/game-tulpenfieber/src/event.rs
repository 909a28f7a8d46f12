//! Events: what the log records. Every event is public.

use crate::board::{Space, WinCondition};
use crate::state::{BonusTile, GameResult, SoloTier, TileRef};
use game_core::Seat;
use serde::{Deserialize, Serialize};

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
