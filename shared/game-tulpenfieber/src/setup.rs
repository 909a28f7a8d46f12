//! Setup (§1.4, §1.5): each seat's board and starting field, then the first turn.

use crate::event::Event;
use crate::options::{Board, Options};
use crate::state::{Phase, Player, Solo, Tulpenfieber, Turn};
use game_core::{Game, GameRng, Logged, Seat, SetupError};

/// Deals a new game. §1.4 / §1.5: no randomness is used at setup. Logs `boards_dealt` and the first
/// `turn_started`, both public.
pub fn setup(
    n_seats: u8,
    options: &Options,
    _rng: &mut GameRng,
) -> Result<(Tulpenfieber, Vec<Logged<Event>>), SetupError> {
    if !(Tulpenfieber::MIN_SEATS..=Tulpenfieber::MAX_SEATS).contains(&n_seats) {
        return Err(SetupError::SeatCount {
            min: Tulpenfieber::MIN_SEATS,
            max: Tulpenfieber::MAX_SEATS,
            got: n_seats,
        });
    }
    options.validate()?;
    let boards: Vec<Board> = match n_seats {
        1 => vec![Board::Back],
        2 => options.two_player_boards.to_vec(),
        3 => vec![Board::I, Board::II, Board::III],
        _ => vec![Board::I, Board::II, Board::III, Board::IV],
    };
    let players = boards
        .into_iter()
        .map(|board| Player::new(board, options))
        .collect();
    let solo = (n_seats == 1).then(|| Solo {
        round: 1,
        round_scores: Vec::new(),
    });
    let mut game = Tulpenfieber {
        options: std::sync::Arc::new(options.clone()),
        players,
        active: Seat(0),
        phase: Phase::AwaitFirstRoll,
        turn: Turn::default(),
        bonus_supply: options.bonus_supply,
        turn_number: 1,
        solo,
        result: None,
    };
    let mut events = vec![Event::BoardsDealt {
        boards: game.players.iter().map(|player| player.board).collect(),
    }];
    game.start_turn(&mut events);
    Ok((game, events.into_iter().map(Logged::public).collect()))
}
