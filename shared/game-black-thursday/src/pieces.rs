//! Piecepack components (spec §1.1): suits, tiles and coins, and board spaces.

use serde::{Deserialize, Serialize};

/// A piecepack suit, listed in canonical order. Each suit is one company.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Suit))]
pub enum Suit {
    /// Sun Textiles.
    Suns,
    /// Sickle Moon Steel.
    Moons,
    /// Crown Petroleum.
    Crowns,
    /// Clean Arms Chemical.
    Arms,
}

impl Suit {
    /// All suits in canonical order.
    pub const ALL: [Suit; 4] = [Suit::Suns, Suit::Moons, Suit::Crowns, Suit::Arms];

    /// The canonical index 0..4.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// A tile or coin identity: suit and value 0..=5. Its canonical index is
/// `suit * 6 + value`, 0..24.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Piece))]
pub struct Piece {
    /// The suit.
    pub suit: Suit,
    /// The value: 0 is the null, 1 the ace.
    pub value: u8,
}

impl Piece {
    /// The piece with canonical index `index` (0..24).
    pub fn from_index(index: u8) -> Piece {
        Piece {
            suit: Suit::ALL[usize::from(index / 6)],
            value: index % 6,
        }
    }

    /// The canonical index.
    pub fn index(self) -> u8 {
        self.suit as u8 * 6 + self.value
    }
}

/// The suit of the coin or tile with canonical index `index`.
pub fn suit_of(index: u8) -> Suit {
    Suit::ALL[usize::from(index / 6)]
}

/// The value (= shares) of the coin with canonical index `index`.
pub fn value_of(index: u8) -> u8 {
    index % 6
}

/// A board space: `x` is the column from the left, `y` the row from the top.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Space))]
pub struct Space {
    /// Column, from 0 at the left.
    pub x: u16,
    /// Row, from 0 at the top.
    pub y: u16,
}

impl Space {
    /// The space at `(x, y)`.
    pub const fn new(x: u16, y: u16) -> Space {
        Space { x, y }
    }
}
