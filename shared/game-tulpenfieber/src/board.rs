//! The tulip field (§1.2, §3.3, §6.1): spaces, cells, tiles, the dice-matching predicate,
//! the lines from row 1 that earn extra dice, and the instant-win predicate.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

/// Rows of the field (r1 at the top).
pub const ROWS: u8 = 5;
/// Columns of the field (c1 at the left).
pub const COLS: u8 = 7;
/// The straights column (§1.2).
pub const MIDDLE_COL: u8 = 4;
/// The most dice a player can roll (§3.3).
pub const MAX_DICE: usize = 7;
/// The dice every player starts with (§3.3).
pub const BASE_DICE: usize = 4;

/// A space of the field, written `"r<row>c<col>"` in JSON (`"r3c5"`).
///
/// A string that does not have that shape deserializes to the invalid space `r0c0`, so that
/// the engine can refuse it with `bad-parameter` (§4) instead of treating the request as
/// malformed. Rows and columns out of range are kept as given and refused the same way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Space {
    /// Row, 1 (top) to 5 (bottom) when valid.
    pub row: u8,
    /// Column, 1 (left) to 7 (right) when valid.
    pub col: u8,
}

impl Space {
    /// The space at `row`, `col` (1-based; not checked).
    pub const fn new(row: u8, col: u8) -> Space {
        Space { row, col }
    }

    /// Whether the space lies on the 5×7 field.
    pub fn is_valid(self) -> bool {
        (1..=ROWS).contains(&self.row) && (1..=COLS).contains(&self.col)
    }

    /// Parses `"r<row>c<col>"`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Space> {
        let rest = text.strip_prefix('r')?;
        let (row, col) = rest.split_once('c')?;
        let all_digits =
            |s: &str| !s.is_empty() && s.len() <= 3 && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(row) || !all_digits(col) {
            return None;
        }
        Some(Space {
            row: row.parse().ok()?,
            col: col.parse().ok()?,
        })
    }

    /// Every valid space, row-major.
    pub fn all() -> impl Iterator<Item = Space> {
        (1..=ROWS).flat_map(|row| (1..=COLS).map(move |col| Space { row, col }))
    }

    /// The face a side column asks for, or `None` for the straights column (§1.2).
    pub fn face(self) -> Option<u8> {
        match self.col {
            1..=3 => Some(self.col),
            5..=7 => Some(self.col - 1),
            _ => None,
        }
    }
}

impl fmt::Display for Space {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "r{}c{}", self.row, self.col)
    }
}

impl Serialize for Space {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Space {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        Ok(Space::parse(&text).unwrap_or(Space { row: 0, col: 0 }))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for Space {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .pattern(Some("^r[1-5]c[1-7]$"))
            .description(Some("a space of the tulip field, row 1-5 (top to bottom) and column 1-7 (left to right)"))
            .examples([serde_json::json!("r3c5")])
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for Space {
    fn name() -> std::borrow::Cow<'static, str> {
        std::borrow::Cow::Borrowed("tulpenfieber.Space")
    }
}

/// The kind of a tile: colour has no effect, only the solo multicoloured tiles differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::TileKind))]
pub enum TileKind {
    /// An ordinary tulip tile.
    Normal,
    /// A solo multicoloured tile (§6.3).
    Multicolor,
}

/// Which side of a tile is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Side))]
pub enum Side {
    /// Tulip side up: may still be flipped to buy a roll.
    Tulip,
    /// Moneybag side up: flipped to pay for a bought roll (§4 A4); permanent.
    Moneybag,
}

/// A tile on the field or above it. Serialized as one letter: `T` tulip, `M` moneybag,
/// `X` multicoloured tulip, `Y` multicoloured moneybag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    /// Normal or multicoloured.
    pub kind: TileKind,
    /// The side up.
    pub side: Side,
}

impl Tile {
    /// A normal tile, tulip side up: what every placement adds.
    pub const TULIP: Tile = Tile {
        kind: TileKind::Normal,
        side: Side::Tulip,
    };
    /// A multicoloured tile, tulip side up (solo only).
    pub const MULTICOLOR: Tile = Tile {
        kind: TileKind::Multicolor,
        side: Side::Tulip,
    };
}

/// One space of a field. Serialized compactly as `"."` (empty), the tile's letter, or the
/// tile's letter followed by the id of the bonus tile lying on it (`"T0"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Cell {
    /// No tile.
    #[default]
    Empty,
    /// A tile, possibly under a bonus tile (the index into the player's `bonus_tiles`).
    Covered {
        /// The tile.
        tile: Tile,
        /// The bonus tile lying on it, if any.
        bonus: Option<u8>,
    },
}

impl Tile {
    /// The tile's letter.
    pub fn letter(self) -> char {
        match (self.kind, self.side) {
            (TileKind::Normal, Side::Tulip) => 'T',
            (TileKind::Normal, Side::Moneybag) => 'M',
            (TileKind::Multicolor, Side::Tulip) => 'X',
            (TileKind::Multicolor, Side::Moneybag) => 'Y',
        }
    }

    /// The tile a letter stands for.
    pub fn from_letter(letter: char) -> Option<Tile> {
        let (kind, side) = match letter {
            'T' => (TileKind::Normal, Side::Tulip),
            'M' => (TileKind::Normal, Side::Moneybag),
            'X' => (TileKind::Multicolor, Side::Tulip),
            'Y' => (TileKind::Multicolor, Side::Moneybag),
            _ => return None,
        };
        Some(Tile { kind, side })
    }
}

impl Serialize for Tile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_char(self.letter())
    }
}

impl<'de> Deserialize<'de> for Tile {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let letter = char::deserialize(deserializer)?;
        Tile::from_letter(letter)
            .ok_or_else(|| serde::de::Error::custom(format!("{letter:?} is not a tile")))
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Cell::Empty => serializer.serialize_str("."),
            Cell::Covered { tile, bonus: None } => serializer.serialize_char(tile.letter()),
            Cell::Covered {
                tile,
                bonus: Some(id),
            } => serializer.collect_str(&format_args!("{}{id}", tile.letter())),
        }
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        if text == "." {
            return Ok(Cell::Empty);
        }
        let mut chars = text.chars();
        let tile = chars.next().and_then(Tile::from_letter);
        let rest = chars.as_str();
        let bonus = if rest.is_empty() {
            Ok(None)
        } else {
            rest.parse::<u8>().map(Some)
        };
        match (tile, bonus) {
            (Some(tile), Ok(bonus)) => Ok(Cell::Covered { tile, bonus }),
            _ => Err(serde::de::Error::custom(format!("{text:?} is not a cell"))),
        }
    }
}

impl Cell {
    /// Whether a tile lies here (any side, with or without a bonus tile).
    pub fn is_covered(self) -> bool {
        matches!(self, Cell::Covered { .. })
    }
}

/// A player's 5×7 field, `cells[row - 1][col - 1]`.
///
/// Serialized compactly as 5 strings (rows, top first) of 7 two-character cells: `..` empty,
/// otherwise the tile's letter followed by `.` or by the id of the bonus tile on it (`T0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Field {
    /// The cells, row-major.
    pub cells: [[Cell; COLS as usize]; ROWS as usize],
}

impl Serialize for Field {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rows = self.cells.iter().map(|row| {
            let mut text = String::with_capacity(2 * COLS as usize);
            for cell in row {
                match cell {
                    Cell::Empty => text.push_str(".."),
                    Cell::Covered { tile, bonus } => {
                        text.push(tile.letter());
                        match bonus {
                            Some(id) if *id < 10 => text.push(char::from(b'0' + id)),
                            _ => text.push('.'),
                        }
                    }
                }
            }
            text
        });
        serializer.collect_seq(rows)
    }
}

impl<'de> Deserialize<'de> for Field {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let rows = <[String; ROWS as usize]>::deserialize(deserializer)?;
        let mut field = Field::default();
        for (r, row) in rows.iter().enumerate() {
            let bytes = row.as_bytes();
            if bytes.len() != 2 * COLS as usize {
                return Err(serde::de::Error::custom(format!(
                    "field row {row:?} is not 7 cells"
                )));
            }
            for c in 0..COLS as usize {
                let (letter, mark) = (char::from(bytes[2 * c]), bytes[2 * c + 1]);
                field.cells[r][c] = match (letter, mark) {
                    ('.', b'.') => Cell::Empty,
                    (letter, mark) => {
                        let tile = Tile::from_letter(letter).ok_or_else(|| {
                            serde::de::Error::custom(format!("{letter:?} is not a tile"))
                        })?;
                        let bonus = match mark {
                            b'.' => None,
                            b'0'..=b'9' => Some(mark - b'0'),
                            _ => {
                                return Err(serde::de::Error::custom(format!(
                                    "bad bonus mark in {row:?}"
                                )))
                            }
                        };
                        Cell::Covered { tile, bonus }
                    }
                };
            }
        }
        Ok(field)
    }
}

impl Field {
    /// The cell at a valid space.
    pub fn cell(&self, space: Space) -> Cell {
        self.cells[usize::from(space.row - 1)][usize::from(space.col - 1)]
    }

    /// The cell at a valid space, mutably.
    pub fn cell_mut(&mut self, space: Space) -> &mut Cell {
        &mut self.cells[usize::from(space.row - 1)][usize::from(space.col - 1)]
    }

    /// Whether the valid space holds a tile.
    pub fn is_covered(&self, space: Space) -> bool {
        self.cell(space).is_covered()
    }

    /// The number of covered spaces.
    pub fn covered_count(&self) -> usize {
        self.cells
            .iter()
            .flatten()
            .filter(|cell| cell.is_covered())
            .count()
    }

    /// §3.3: the longest straight line of covered spaces that starts in row 1 and runs
    /// down, down-right or down-left (D7: no horizontal runs, no bends).
    pub fn longest_line(&self) -> u8 {
        let mut longest = 0;
        for start_col in 1..=COLS as i8 {
            for step in [-1i8, 0, 1] {
                let mut length = 0;
                for i in 0..ROWS as i8 {
                    let col = start_col + i * step;
                    if !(1..=COLS as i8).contains(&col)
                        || !self.is_covered(Space::new(1 + i as u8, col as u8))
                    {
                        break;
                    }
                    length += 1;
                }
                longest = longest.max(length);
            }
        }
        longest
    }

    /// §3.3 / D8: the dice a player with this field rolls, `4 + max(0, Lmax - 2)`.
    pub fn dice_for(&self) -> usize {
        BASE_DICE + usize::from(self.longest_line().saturating_sub(2))
    }

    /// §6.1: which instant-win condition the field meets, if any.
    pub fn win(&self) -> Option<WinCondition> {
        let row4_full = (1..=COLS).all(|col| self.is_covered(Space::new(4, col)));
        if row4_full {
            return Some(WinCondition::RowFourComplete);
        }
        let row5: Vec<bool> = (1..=COLS)
            .map(|col| self.is_covered(Space::new(5, col)))
            .collect();
        if row5
            .windows(3)
            .any(|run| run.iter().all(|&covered| covered))
        {
            return Some(WinCondition::RowFiveThreeAdjacent);
        }
        if row5.iter().filter(|&&covered| covered).count() >= 4 {
            return Some(WinCondition::RowFiveFourTiles);
        }
        None
    }
}

/// The instant-win condition that ended a multiplayer game or a solo round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::WinCondition))]
pub enum WinCondition {
    /// All seven spaces of row 4 are covered.
    RowFourComplete,
    /// Three adjacent spaces of row 5 are covered.
    RowFiveThreeAdjacent,
    /// At least four spaces of row 5 are covered.
    RowFiveFourTiles,
}

impl WinCondition {
    /// The `Outcome::reason` of a multiplayer game won this way.
    pub fn reason(self) -> &'static str {
        match self {
            WinCondition::RowFourComplete => "row_four_complete",
            WinCondition::RowFiveThreeAdjacent => "row_five_three_adjacent",
            WinCondition::RowFiveFourTiles => "row_five_four_tiles",
        }
    }
}
