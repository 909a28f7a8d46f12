//! Actions (§4): the JSON shapes of the moves a player sends.

use crate::board::Space;
use crate::state::TileRef;
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
