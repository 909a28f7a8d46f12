//! The game state (§2). Every field is public and documented so that tests and tools can
//! build any position directly (see also [`crate::scenario`]); the engine itself only changes
//! it through `Game::apply`.

use crate::board::{Field, Side, Space, Tile, WinCondition, COLS, ROWS};
use crate::options::{Board, Options};
use game_core::Seat;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// A bonus tile (wheelbarrow) lying on a player's field: top-left corner and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::BonusTile))]
pub struct BonusTile {
    /// Row of the top-left space.
    pub row: u8,
    /// Column of the top-left space.
    pub col: u8,
    /// Rows covered: 2 or 3.
    pub height: u8,
    /// Columns covered: 3 or 2.
    pub width: u8,
}

impl BonusTile {
    /// The six spaces under the tile.
    pub fn spaces(self) -> impl Iterator<Item = Space> {
        (self.row..self.row + self.height).flat_map(move |row| {
            (self.col..self.col + self.width).map(move |col| Space::new(row, col))
        })
    }

    /// Whether the area has a legal shape and lies inside the field.
    pub fn is_on_field(self) -> bool {
        matches!((self.height, self.width), (2, 3) | (3, 2))
            && self.row >= 1
            && self.col >= 1
            && self.row + self.height - 1 <= ROWS
            && self.col + self.width - 1 <= COLS
    }
}

/// A tile a player may name in `buy_roll`: on the field, or above it by index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::TileRef))]
pub enum TileRef {
    /// The tile on this field space: `{"field": "r1c3"}`.
    Field(Space),
    /// The tile above the field with this index (0 = first gained): `{"above": 0}`.
    Above(u32),
}

/// One player's board and belongings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Player {
    /// The board side in use.
    pub board: Board,
    /// The tulip field.
    pub field: Field,
    /// Tiles placed above the field, in the order gained (index = stable id). Serialized as
    /// one string of tile letters (`"TTM"`).
    #[serde(with = "tile_letters")]
    pub above: Vec<Tile>,
    /// Bonus tiles claimed, in claim order (index = bonus id; wheelbarrow `i` holds die `i`).
    pub bonus_tiles: Vec<BonusTile>,
    /// Dice rolled on this player's turns, from the next TurnStart (4..=7).
    pub dice_count: usize,
}

impl Player {
    /// A player on `board` with a normal tulip tile on each flower space.
    pub fn new(board: Board, options: &Options) -> Player {
        let mut field = Field::default();
        for &space in options.start_spaces.of(board) {
            *field.cell_mut(space) = crate::board::Cell::Covered {
                tile: Tile::TULIP,
                bonus: None,
            };
        }
        let dice_count = field.dice_for();
        Player {
            board,
            field,
            above: Vec::new(),
            bonus_tiles: Vec::new(),
            dice_count,
        }
    }

    /// `tiles_total` (§2): covered spaces plus tiles above, any side or kind.
    pub fn tiles_total(&self) -> usize {
        self.field.covered_count() + self.above.len()
    }

    /// Tiles that may be flipped to buy a roll (§2, D11), field row-major then above.
    pub fn flippable(&self) -> Vec<TileRef> {
        let mut refs: Vec<TileRef> = Space::all()
            .filter(|&space| self.tile_ref_flippable(TileRef::Field(space)) == Some(true))
            .map(TileRef::Field)
            .collect();
        refs.extend(
            self.above
                .iter()
                .enumerate()
                .filter(|(_, tile)| tile.side == Side::Tulip)
                .map(|(i, _)| TileRef::Above(i as u32)),
        );
        refs
    }

    /// `None` if the reference names no tile; otherwise whether that tile may be flipped.
    pub fn tile_ref_flippable(&self, tile_ref: TileRef) -> Option<bool> {
        match tile_ref {
            TileRef::Field(space) => {
                if !space.is_valid() {
                    return None;
                }
                match self.field.cell(space) {
                    crate::board::Cell::Empty => None,
                    crate::board::Cell::Covered { tile, bonus } => {
                        Some(tile.side == Side::Tulip && bonus.is_none())
                    }
                }
            }
            TileRef::Above(index) => self
                .above
                .get(index as usize)
                .map(|tile| tile.side == Side::Tulip),
        }
    }
}

/// One die of the current turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Die))]
pub struct Die {
    /// The face shown, once rolled or set.
    pub value: Option<u8>,
    /// The wheelbarrow (bonus id) the die sits on, until released by a reroll.
    pub on_bonus: Option<u8>,
}

/// The active player's turn.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Turn))]
pub struct Turn {
    /// The dice, `dice_count` of them.
    pub dice: Vec<Die>,
    /// Rolls made this turn (the first roll is 1).
    pub roll_number: u8,
    /// Rolls bought this turn by flipping two tiles (0..=2).
    pub rolls_bought: u8,
    /// Bonus tiles claimed this turn.
    pub bonus_claims: u32,
    /// The tile gained this turn, once placed.
    pub placed: Option<TileRef>,
}

impl Turn {
    /// A fresh turn with `dice_count` blank dice.
    pub fn new(dice_count: usize) -> Turn {
        Turn {
            dice: vec![Die::default(); dice_count],
            ..Turn::default()
        }
    }

    /// The rolls allowed so far: 3 plus the rolls bought (§3.2).
    pub fn roll_budget(&self) -> u8 {
        3 + self.rolls_bought
    }
}

/// Where the game stands.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Phase))]
pub enum Phase {
    /// Turn start: the active player must set a face on each wheelbarrow die.
    AwaitBonusDice,
    /// Ready for the mandatory first roll.
    AwaitFirstRoll,
    /// At least one roll made: reroll, buy a roll, or place.
    Rolling,
    /// Two tiles were just flipped: the bought roll must be made now.
    RollBought,
    /// The tile is placed: optionally claim bonus tiles, then end the turn.
    AfterPlacement,
    /// Solo only: choose where the multicoloured tile goes for the next round.
    SoloBetweenRounds {
        /// The spaces that may take the multicoloured tile (empty: pass `null`).
        eligible: Vec<Space>,
    },
    /// The game is over.
    GameOver,
}

/// The solo rating of a three-round total; lower totals are better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::SoloTier))]
pub enum SoloTier {
    /// 42 tiles or fewer.
    Legendary,
    /// 43 to 50 tiles.
    VeryGood,
    /// 51 to 60 tiles.
    Won,
    /// More than 60 tiles.
    Lost,
}

impl SoloTier {
    /// §6.3: the tier of a total (thresholds inclusive, D17).
    pub fn of(total: u32) -> SoloTier {
        match total {
            0..=42 => SoloTier::Legendary,
            43..=50 => SoloTier::VeryGood,
            51..=60 => SoloTier::Won,
            _ => SoloTier::Lost,
        }
    }

    /// The `Outcome::reason` of a solo game with this tier.
    pub fn reason(self) -> &'static str {
        match self {
            SoloTier::Legendary => "solo_legendary",
            SoloTier::VeryGood => "solo_very_good",
            SoloTier::Won => "solo_won",
            SoloTier::Lost => "solo_lost",
        }
    }
}

/// Solo bookkeeping.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::Solo))]
pub struct Solo {
    /// The round in play or just finished (1..=3).
    pub round: u8,
    /// `tiles_total` at the end of each finished round.
    pub round_scores: Vec<u32>,
}

/// How the game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::GameResult))]
pub enum GameResult {
    /// Multiplayer: the first player to meet a win condition.
    Winner {
        /// The winning seat (0-based).
        seat: Seat,
        /// The condition met.
        condition: WinCondition,
    },
    /// Solo: the three round scores and the rating.
    SoloResult {
        /// Tiles at the end of rounds 1, 2 and 3.
        round_scores: Vec<u32>,
        /// Their sum.
        total: u32,
        /// The rating of the total.
        tier: SoloTier,
    },
}

/// The complete state of a game of Tulpenfieber: the type implementing `game_core::Game`.
///
/// Everything here is public information (§2); the RNG is not part of the state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tulpenfieber {
    /// The options, fixed at creation (shared: cloning a state does not copy them). Omitted
    /// from the serialized state when they are the standard game's.
    #[serde(
        with = "shared_options",
        default = "shared_options::standard",
        skip_serializing_if = "shared_options::is_standard"
    )]
    pub options: Arc<Options>,
    /// The players by seat (index = 0-based seat = turn order).
    pub players: Vec<Player>,
    /// The seat whose turn it is.
    pub active: Seat,
    /// The phase of the turn or game.
    pub phase: Phase,
    /// The active player's turn.
    pub turn: Turn,
    /// Bonus tiles left in the shared supply.
    pub bonus_supply: u32,
    /// TurnStarts so far (per round in solo), from 1.
    pub turn_number: u32,
    /// Solo bookkeeping; `None` in a multiplayer game.
    pub solo: Option<Solo>,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
}

/// The phase's name as used in `wrong-phase` messages.
pub fn phase_name(phase: &Phase) -> &'static str {
    match phase {
        Phase::AwaitBonusDice => "await_bonus_dice",
        Phase::AwaitFirstRoll => "await_first_roll",
        Phase::Rolling => "rolling",
        Phase::RollBought => "roll_bought",
        Phase::AfterPlacement => "after_placement",
        Phase::SoloBetweenRounds { .. } => "solo_between_rounds",
        Phase::GameOver => "game_over",
    }
}

impl Tulpenfieber {
    /// The active player.
    pub fn active_player(&self) -> &Player {
        &self.players[self.active.index()]
    }

    /// `k` of §3.2: the dice that go onto wheelbarrows at this turn's start.
    pub fn wheelbarrow_dice(&self) -> usize {
        self.active_player()
            .bonus_tiles
            .len()
            .min(self.turn.dice.len())
    }
}

/// Serializes the shared options as a plain `Options` object.
mod shared_options {
    use crate::options::Options;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::sync::Arc;

    pub fn serialize<S: Serializer>(
        options: &Arc<Options>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        options.as_ref().serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Arc<Options>, D::Error> {
        Options::deserialize(deserializer).map(Arc::new)
    }

    pub fn standard() -> Arc<Options> {
        Arc::new(Options::default())
    }

    pub fn is_standard(options: &Arc<Options>) -> bool {
        static STANDARD: std::sync::OnceLock<Options> = std::sync::OnceLock::new();
        **options == *STANDARD.get_or_init(Options::default)
    }
}

/// Serializes a list of tiles as one string of tile letters.
mod tile_letters {
    use crate::board::Tile;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(tiles: &[Tile], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&tiles.iter().map(|tile| tile.letter()).collect::<String>())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<Tile>, D::Error> {
        let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
        text.chars()
            .map(|letter| {
                Tile::from_letter(letter)
                    .ok_or_else(|| serde::de::Error::custom(format!("{letter:?} is not a tile")))
            })
            .collect()
    }
}
