//! Options chosen at game creation (§7.2). The defaults are the standard game; the
//! requirement grid, the flower spaces and the two-player boards are data here because the
//! spec reconstructs them (D1, D2, D4, D5) and they should be replaceable without code.

use crate::board::Space;
use game_core::SetupError;
use serde::{Deserialize, Serialize};

/// A side of a tulip-field board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Board))]
pub enum Board {
    /// Front side I (seat 1).
    I,
    /// Front side II (seat 2).
    II,
    /// Front side III (seat 3).
    III,
    /// Front side IV (seat 4).
    IV,
    /// The back side without a numeral, used only in the solo game.
    #[serde(rename = "back")]
    Back,
}

/// When a tile may go above the field instead of onto it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::AbovePlacement))]
pub enum AbovePlacement {
    /// Only when no empty space matches the dice (the rulebook's reading; default).
    #[default]
    WhenNoMatch,
    /// Whenever the player likes (a variant some reviews describe).
    Always,
}

/// The flower (starting) spaces of each board side. **Reconstructed**: the
/// printed positions are lost; replace this table when they are known.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::StartSpaces))]
pub struct StartSpaces {
    /// Board I. Default r1c2, r1c6, r2c4 (reconstructed).
    #[serde(rename = "I")]
    pub one: Vec<Space>,
    /// Board II. Default r1c3, r1c6, r2c4 (reconstructed).
    #[serde(rename = "II")]
    pub two: Vec<Space>,
    /// Board III. Default r1c3, r1c5, r2c4 (reconstructed).
    #[serde(rename = "III")]
    pub three: Vec<Space>,
    /// Board IV. Default r1c4, r2c3, r2c5 (reconstructed).
    #[serde(rename = "IV")]
    pub four: Vec<Space>,
    /// The solo back. Default r1c3, r1c5 (the count of 2 is in the rulebook; the positions
    /// are reconstructed).
    pub back: Vec<Space>,
}

/// §1.3 default flower spaces, `(row, col)` per board side I, II, III, IV, back.
/// **[RECONSTRUCTED]**.
pub const DEFAULT_START_SPACES: [&[(u8, u8)]; 5] = [
    &[(1, 2), (1, 6), (2, 4)],
    &[(1, 3), (1, 6), (2, 4)],
    &[(1, 3), (1, 5), (2, 4)],
    &[(1, 4), (2, 3), (2, 5)],
    &[(1, 3), (1, 5)],
];

/// §1.2 default dice of one face needed by a side space, per row 1..5. Rows 1 and 5 are
/// sourced, row 4 is inferred, rows 2 and 3 are **[RECONSTRUCTED]**.
pub const DEFAULT_SIDE_NEED: [u8; 5] = [2, 3, 3, 4, 5];

/// §1.2 default alternatives of the straights column, per row 1..5: a row matches when every
/// face of one alternative shows on at least one die. **[RECONSTRUCTED]** except the
/// 3-dice straight of row 1 and the 1–6 run of row 5.
pub const DEFAULT_STRAIGHT_SETS: [&[&[u8]]; 5] = [
    &[&[1, 2, 3], &[2, 3, 4], &[3, 4, 5], &[4, 5, 6]],
    &[&[1, 2, 3, 4], &[3, 4, 5, 6]],
    &[&[2, 3, 4, 5]],
    &[&[1, 2, 3, 4, 5], &[2, 3, 4, 5, 6]],
    &[&[1, 2, 3, 4, 5, 6]],
];

impl Default for StartSpaces {
    fn default() -> Self {
        let spaces = |i: usize| {
            DEFAULT_START_SPACES[i]
                .iter()
                .map(|&(row, col)| Space::new(row, col))
                .collect()
        };
        StartSpaces {
            one: spaces(0),
            two: spaces(1),
            three: spaces(2),
            four: spaces(3),
            back: spaces(4),
        }
    }
}

impl StartSpaces {
    /// The flower spaces of one board side.
    pub fn of(&self, board: Board) -> &[Space] {
        match board {
            Board::I => &self.one,
            Board::II => &self.two,
            Board::III => &self.three,
            Board::IV => &self.four,
            Board::Back => &self.back,
        }
    }
}

/// The game's options. Missing fields take the standard game's value; unknown
/// fields are refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Options))]
pub struct Options {
    /// Dice of the column's face a side space needs, per row 1..5 (reconstructed).
    /// Non-decreasing, each 1..=5. Default `[2,3,3,4,5]`.
    pub side_need: [u8; 5],
    /// The straights column: per row 1..5, the alternatives (sets of faces), any one of
    /// which matches (reconstructed). Rows 1-3 sets have at most 4 faces, row 4 at most
    /// 5, row 5 at most 6.
    pub straight_sets: [Vec<Vec<u8>>; 5],
    /// The flower spaces of each board side (reconstructed): distinct spaces in rows 1-3.
    pub start_spaces: StartSpaces,
    /// The boards of a two-player game (reconstructed). Two distinct boards of I-IV.
    pub two_player_boards: [Board; 2],
    /// When `place_above` is allowed. Default `when_no_match`.
    pub above_placement: AbovePlacement,
    /// Bonus tiles a player may claim in one turn; `null` = unlimited. Default 1.
    pub max_bonus_claims_per_turn: Option<u32>,
    /// Bonus tiles in the shared supply (per solo round). Default 10.
    pub bonus_supply: u32,
    /// Dice of one face that make every empty space legal: 6 or 7; larger disables it.
    pub wildcard_threshold: u8,
}

impl Default for Options {
    fn default() -> Self {
        let straight_sets =
            DEFAULT_STRAIGHT_SETS.map(|row| row.iter().map(|set| set.to_vec()).collect());
        Options {
            side_need: DEFAULT_SIDE_NEED,
            straight_sets,
            start_spaces: StartSpaces::default(),
            two_player_boards: [Board::I, Board::II],
            above_placement: AbovePlacement::WhenNoMatch,
            max_bonus_claims_per_turn: Some(1),
            bonus_supply: 10,
            wildcard_threshold: 6,
        }
    }
}

impl Options {
    /// §7.2: refuses options outside the ranges that guarantee the game can end.
    pub fn validate(&self) -> Result<(), SetupError> {
        let invalid = |message: String| Err(SetupError::InvalidOptions(message));
        if self.side_need.iter().any(|need| !(1..=5).contains(need)) {
            return invalid("side_need entries must be between 1 and 5".into());
        }
        if self.side_need.windows(2).any(|pair| pair[0] > pair[1]) {
            return invalid("side_need must not decrease from row 1 to row 5".into());
        }
        for (row, sets) in self.straight_sets.iter().enumerate() {
            let max_faces = [4, 4, 4, 5, 6][row];
            if sets.is_empty() {
                return invalid(format!("straight_sets row {} has no alternative", row + 1));
            }
            for set in sets {
                let mut sorted = set.clone();
                sorted.sort_unstable();
                sorted.dedup();
                if set.is_empty()
                    || sorted.len() != set.len()
                    || set.iter().any(|face| !(1..=6).contains(face))
                {
                    return invalid(format!(
                        "straight_sets row {} needs non-empty sets of distinct faces 1-6",
                        row + 1
                    ));
                }
                if set.len() > max_faces {
                    return invalid(format!(
                        "straight_sets row {} sets may have at most {max_faces} faces",
                        row + 1
                    ));
                }
            }
        }
        for board in [Board::I, Board::II, Board::III, Board::IV, Board::Back] {
            let spaces = self.start_spaces.of(board);
            if spaces
                .iter()
                .any(|space| !space.is_valid() || space.row > 3)
            {
                return invalid(format!(
                    "start spaces of board {board:?} must lie in rows 1-3"
                ));
            }
            let mut sorted = spaces.to_vec();
            sorted.sort_unstable();
            sorted.dedup();
            if sorted.len() != spaces.len() {
                return invalid(format!("start spaces of board {board:?} must be distinct"));
            }
        }
        let [first, second] = self.two_player_boards;
        if first == second || first == Board::Back || second == Board::Back {
            return invalid("two_player_boards must be two distinct boards of I-IV".into());
        }
        if self.max_bonus_claims_per_turn == Some(0) {
            return invalid("max_bonus_claims_per_turn must be at least 1 (or null)".into());
        }
        if self.wildcard_threshold < 6 {
            return invalid("wildcard_threshold must be 6 or more".into());
        }
        Ok(())
    }

    /// The bonus-claim limit per turn, `u32::MAX` for unlimited.
    pub fn claim_limit(&self) -> u32 {
        self.max_bonus_claims_per_turn.unwrap_or(u32::MAX)
    }
}
