//! What a viewer sees (§2). Everything is public, so every seat and every spectator gets
//! the same view; it is still built field by field so that nothing but the rules' state
//! (no RNG, no seed) can reach a client.

use crate::board::{Cell, Space, COLS, ROWS};
use crate::options::Board;
use crate::state::{BonusTile, GameResult, Phase, Solo, Tulpenfieber, Turn};
use game_core::{Seat, Viewer};
use serde::Serialize;

/// One player's board as shown to everyone.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::PlayerView))]
pub struct PlayerView {
    /// The seat (0-based).
    pub seat: Seat,
    /// The board side.
    pub board: Board,
    /// The field, one 7-character string per row, top row first. `.` empty, `T` tulip,
    /// `M` moneybag, `X` multicoloured tulip, `Y` multicoloured moneybag; lower case (`t`,
    /// `m`, `x`, `y`) = under a bonus tile.
    pub field: Vec<String>,
    /// Tiles above the field, one letter per tile in index order, coded as in `field`.
    pub above: String,
    /// Bonus tiles on the field, by bonus id.
    pub bonus_tiles: Vec<BonusTile>,
    /// Dice this player rolls from its next turn start.
    pub dice_count: usize,
    /// Tiles the player has (field and above, any side): the solo round score.
    pub tiles_total: usize,
}

/// The whole game as any viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulpenfieber::View))]
pub struct View {
    /// Every player, by seat.
    pub players: Vec<PlayerView>,
    /// The seat whose turn it is.
    pub active: Seat,
    /// The phase.
    pub phase: Phase,
    /// The current turn: dice, rolls made and bought, claims, placed tile.
    pub turn: Turn,
    /// The empty spaces of the active player that the current dice match (while rolling).
    pub legal_spaces: Vec<Space>,
    /// Bonus tiles left in the supply.
    pub bonus_supply: u32,
    /// TurnStarts so far (per round in solo).
    pub turn_number: u32,
    /// Solo round and round scores.
    pub solo: Option<Solo>,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
}

/// The one-letter code of a cell in [`PlayerView::field`].
pub fn cell_char(cell: Cell) -> char {
    match cell {
        Cell::Empty => '.',
        Cell::Covered { tile, bonus: None } => tile.letter(),
        Cell::Covered {
            tile,
            bonus: Some(_),
        } => tile.letter().to_ascii_lowercase(),
    }
}

/// Builds the view of `viewer`: everything is public (§2), so every viewer gets the same.
pub fn view(game: &Tulpenfieber, _viewer: Viewer) -> View {
    let players = game
        .players
        .iter()
        .enumerate()
        .map(|(seat, player)| PlayerView {
            seat: Seat(seat as u8),
            board: player.board,
            field: (1..=ROWS)
                .map(|row| {
                    (1..=COLS)
                        .map(|col| cell_char(player.field.cell(Space::new(row, col))))
                        .collect()
                })
                .collect(),
            above: player
                .above
                .iter()
                .map(|&tile| cell_char(Cell::Covered { tile, bonus: None }))
                .collect(),
            bonus_tiles: player.bonus_tiles.clone(),
            dice_count: player.dice_count,
            tiles_total: player.tiles_total(),
        })
        .collect();
    let legal_spaces = if game.phase == Phase::Rolling {
        game.legal_spaces()
    } else {
        Vec::new()
    };
    View {
        players,
        active: game.active,
        phase: game.phase.clone(),
        turn: game.turn.clone(),
        legal_spaces,
        bonus_supply: game.bonus_supply,
        turn_number: game.turn_number,
        solo: game.solo.clone(),
        result: game.result.clone(),
    }
}

impl Tulpenfieber {
    /// The view, the same for every viewer: [`view`] for a spectator.
    pub fn build_view(&self) -> View {
        view(self, Viewer::Spectator)
    }
}
