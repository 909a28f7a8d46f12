//! Helpers that build the "Given" positions of the spec's worked examples (§8) and any
//! other position a test or tool needs. They write the public state directly and do not
//! check the rules; the engine's invariants (e.g. `dice_count == dice_for(field)`) are the
//! caller's responsibility. Not used by the engine itself.

use crate::board::{Cell, Side, Space, Tile};
use crate::options::Options;
use crate::state::{BonusTile, Die, Phase, Tulpenfieber, Turn};
use game_core::{Game, GameRng, Seat};

/// The space named `"r<row>c<col>"`.
///
/// # Panics
/// If the name is not a valid space (a mistake in the test, not client input).
pub fn space(name: &str) -> Space {
    Space::parse(name)
        .filter(|space| space.is_valid())
        .unwrap_or_else(|| panic!("{name} is not a space"))
}

/// A freshly set-up game with default options.
///
/// # Panics
/// If `n_seats` is not 1-4.
pub fn game(n_seats: u8) -> Tulpenfieber {
    game_with(n_seats, &Options::default())
}

/// A freshly set-up game with `options`.
///
/// # Panics
/// If the seat count or the options are invalid.
pub fn game_with(n_seats: u8, options: &Options) -> Tulpenfieber {
    Tulpenfieber::setup(n_seats, options, &mut GameRng::for_entry([0; 32], 0))
        .unwrap_or_else(|error| panic!("setup failed: {error}"))
        .0
}

/// A `GameRng` whose first `roll_d6` draws are exactly `values` (it searches the streams of
/// a fixed seed), standing in for the spec's scripted dice `RNG → v1, v2, …`.
///
/// # Panics
/// If a value is not 1-6 or no stream is found within a generous search.
pub fn scripted_rng(values: &[u8]) -> GameRng {
    assert!(
        values.iter().all(|v| (1..=6).contains(v)),
        "dice values are 1-6"
    );
    let limit = 50u64 * 6u64.pow(values.len() as u32);
    for entry in 0..limit {
        let mut probe = GameRng::for_entry([42; 32], entry);
        if values.iter().all(|&value| probe.roll_d6() == value) {
            return GameRng::for_entry([42; 32], entry);
        }
    }
    panic!("no stream draws {values:?}")
}

impl Tulpenfieber {
    /// Puts normal tiles, tulip side up, on the named spaces of `seat`'s field.
    pub fn with_tiles(mut self, seat: u8, names: &[&str]) -> Self {
        for name in names {
            *self.players[usize::from(seat)].field.cell_mut(space(name)) = Cell::Covered {
                tile: Tile::TULIP,
                bonus: None,
            };
        }
        self
    }

    /// Turns the tiles on the named spaces of `seat`'s field moneybag side up.
    ///
    /// # Panics
    /// If a named space is empty.
    pub fn with_moneybags(mut self, seat: u8, names: &[&str]) -> Self {
        for name in names {
            match self.players[usize::from(seat)].field.cell_mut(space(name)) {
                Cell::Covered { tile, .. } => tile.side = Side::Moneybag,
                Cell::Empty => panic!("{name} is empty"),
            }
        }
        self
    }

    /// Removes the tiles on the named spaces of `seat`'s field.
    pub fn without_tiles(mut self, seat: u8, names: &[&str]) -> Self {
        for name in names {
            *self.players[usize::from(seat)].field.cell_mut(space(name)) = Cell::Empty;
        }
        self
    }

    /// Adds `count` tulip-side tiles above `seat`'s field.
    pub fn with_above(mut self, seat: u8, count: usize) -> Self {
        self.players[usize::from(seat)]
            .above
            .extend(std::iter::repeat_n(Tile::TULIP, count));
        self
    }

    /// Lays a bonus tile on `seat`'s field (the cells must be covered) and takes it from the
    /// supply.
    pub fn with_bonus(mut self, seat: u8, row: u8, col: u8, height: u8, width: u8) -> Self {
        let area = BonusTile {
            row,
            col,
            height,
            width,
        };
        let player = &mut self.players[usize::from(seat)];
        let id = player.bonus_tiles.len() as u8;
        for space in area.spaces() {
            if let Cell::Covered { bonus, .. } = player.field.cell_mut(space) {
                *bonus = Some(id);
            }
        }
        player.bonus_tiles.push(area);
        self.bonus_supply -= 1;
        self
    }

    /// Sets every player's `dice_count` to `dice_for(field)`, as at a turn start.
    pub fn with_synced_dice(mut self) -> Self {
        for player in &mut self.players {
            player.dice_count = player.field.dice_for();
        }
        self
    }

    /// Makes it `seat`'s turn, in phase `Rolling` after `roll_number` rolls with these dice
    /// (none on a wheelbarrow). The player's `dice_count` becomes `dice.len()`.
    pub fn rolling(mut self, seat: u8, dice: &[u8], roll_number: u8) -> Self {
        self.active = Seat(seat);
        self.players[usize::from(seat)].dice_count = dice.len();
        self.turn = Turn {
            dice: dice
                .iter()
                .map(|&value| Die {
                    value: Some(value),
                    on_bonus: None,
                })
                .collect(),
            roll_number,
            ..Turn::default()
        };
        self.phase = Phase::Rolling;
        self
    }

    /// Makes it `seat`'s turn from its start (TurnStart of §3.2) with its current
    /// `dice_count` and bonus tiles.
    pub fn turn_start(mut self, seat: u8) -> Self {
        self.active = Seat(seat);
        self.start_turn(&mut Vec::new());
        self
    }

    /// Makes it `seat`'s turn in phase `AfterPlacement` (tile already placed, no claims yet).
    pub fn after_placement(mut self, seat: u8) -> Self {
        self.active = Seat(seat);
        let dice_count = self.players[usize::from(seat)].dice_count;
        self.turn = Turn {
            dice: vec![
                Die {
                    value: Some(1),
                    on_bonus: None
                };
                dice_count
            ],
            roll_number: 1,
            ..Turn::default()
        };
        self.phase = Phase::AfterPlacement;
        self
    }
}
