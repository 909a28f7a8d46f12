//! Setup (spec §1.2, §1.3) and the normative deal order of spec §5; also the re-deal of what
//! a viewer cannot see (`game_core::Redeal`, for the no-leak test and the bots).

use crate::board::Board;
use crate::event::Event;
use crate::options::Options;
use crate::pieces::Card;
use crate::pieces::{
    counts_map, total, Colour, Florins, BUYERS_DEALT, BUYERS_PER_COLOUR, STARTING_CASH, TOTAL_MONEY,
};
use crate::rules::Log;
use crate::state::{Phase, Tulipmania};
use game_core::{GameRng, Logged, Seat, SetupError, Viewer};
use std::sync::Arc;

/// The fewest players.
pub const MIN_PLAYERS: u8 = 3;
/// The most players.
pub const MAX_PLAYERS: u8 = 5;

/// The per-player-count parameters of spec §1.2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Parameters {
    /// Tulips per colour in play, `T`.
    pub tulips_per_colour: u8,
    /// Buyer deck size `N`, face-up cards included.
    pub deck_size: usize,
    /// Face-up buyers `k`.
    pub face_up: usize,
    /// Reserve deck size `M`.
    pub reserve: usize,
}

impl Parameters {
    /// The parameters for `n_seats` players (3–5).
    pub fn for_seats(n_seats: u8) -> Parameters {
        match n_seats {
            3 => Parameters {
                tulips_per_colour: 9,
                deck_size: 11,
                face_up: 2,
                reserve: 4,
            },
            4 => Parameters {
                tulips_per_colour: 10,
                deck_size: 14,
                face_up: 2,
                reserve: 6,
            },
            _ => Parameters {
                tulips_per_colour: 11,
                deck_size: 18,
                face_up: 3,
                reserve: 7,
            },
        }
    }
}

/// Tulips of each in-play colour outside the box after setup: `T − 1` (one is the marker).
pub fn tulips_in_circulation(n_seats: u8) -> u8 {
    Parameters::for_seats(n_seats).tulips_per_colour - 1
}

/// Deals a new game (spec §1.3 with the draws of spec §5) and logs the deal: a public
/// `game_dealt`, then per seat a private `buyers_dealt` with its twin for the others.
pub fn setup(
    n_seats: u8,
    options: &Options,
    rng: &mut GameRng,
) -> Result<(Tulipmania, Log), SetupError> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&n_seats) {
        return Err(SetupError::SeatCount {
            min: MIN_PLAYERS,
            max: MAX_PLAYERS,
            got: n_seats,
        });
    }
    if options.max_turns == Some(0) {
        return Err(SetupError::InvalidOptions(
            "max_turns must be at least 1".into(),
        ));
    }
    let board = Board::from_option(&options.board, options.bottom_descent)
        .map_err(|error| SetupError::InvalidOptions(error.to_string()))?;
    // §5 step 1: the first player, drawn only if not given.
    let first_player = match options.first_player {
        Some(seat) if seat < n_seats => Seat(seat),
        Some(seat) => {
            return Err(SetupError::InvalidOptions(format!(
                "first_player {seat} is not a seat of a {n_seats}-player game"
            )))
        }
        None => Seat(rng.below(u64::from(n_seats)) as u8),
    };
    // §5 step 2: shuffle the canonical list, deal round-robin from f, then deck, then reserve.
    let colours = Colour::in_play(n_seats);
    let mut cards: Vec<Colour> = colours
        .iter()
        .flat_map(|&colour| [colour; BUYERS_PER_COLOUR])
        .collect();
    rng.shuffle(&mut cards);
    let n = usize::from(n_seats);
    let mut buyers = vec![[0u8; 5]; n];
    for (i, card) in cards[..BUYERS_DEALT * n].iter().enumerate() {
        let seat = (usize::from(first_player.0) + i) % n;
        buyers[seat][card.index()] += 1;
    }
    let parameters = Parameters::for_seats(n_seats);
    let dealt = BUYERS_DEALT * n;
    let mut deck = cards[dealt..dealt + parameters.deck_size].to_vec();
    let reserve = cards[dealt + parameters.deck_size..].to_vec();
    debug_assert_eq!(reserve.len(), parameters.reserve);
    let face_up: Vec<Colour> = deck.drain(..parameters.face_up).collect();

    let mut one_each = [0u8; 5];
    let mut stock = [0u8; 5];
    let mut markers = [None; 5];
    for colour in colours {
        one_each[colour.index()] = 1;
        stock[colour.index()] = tulips_in_circulation(n_seats) - n_seats;
        markers[colour.index()] = Some(board.start);
    }
    let mut game = Tulipmania {
        n_seats,
        options: options.clone(),
        board: Arc::new(board),
        first_player,
        turn_number: 1,
        phase: Phase::SellChoice,
        current_player: first_player,
        priority_holder: first_player.right(n_seats),
        cash: vec![STARTING_CASH; n],
        bank: TOTAL_MONEY - STARTING_CASH * n as Florins,
        tulips: vec![one_each; n],
        stock,
        markers,
        burst_order: Vec::new(),
        buyers,
        deck,
        face_up,
        deck_exhausted: false,
        reserve,
        buyer_discard: Vec::new(),
        in_transit: None,
        sold_colour_this_turn: None,
        did_sell: false,
        did_draw: false,
        did_buy: false,
        idle_turns: 0,
        draws: 0,
    };
    let mut log = vec![Logged::public(Event::GameDealt {
        first_player,
        face_up: game.face_up.clone(),
        deck: game.deck.len() as u32,
        reserve: game.reserve.len() as u32,
    })];
    for seat in Seat::all(n_seats) {
        let hand = &game.buyers[seat.index()];
        let dealt = |buyers| Event::BuyersDealt {
            seat,
            count: total(hand),
            buyers,
        };
        log.push(Logged::private(
            seat,
            dealt(Some(counts_map(hand, n_seats))),
        ));
        log.push(Logged::others(seat, dealt(None)));
    }
    game.turn_start(&mut log);
    Ok((game, log))
}

/// A state `viewer` cannot tell from this one: the buyer cards it cannot see (other hands,
/// deck, reserve) are shuffled together and dealt back in the same sizes, hands getting
/// only live colours as the rules guarantee; other seats' sealed cards are re-drawn.
pub fn redeal(game: &Tulipmania, viewer: Viewer, rng: &mut GameRng) -> Tulipmania {
    let mut twin = game.clone();
    let hidden: Vec<Seat> = Seat::all(game.n_seats)
        .filter(|&seat| viewer.seat() != Some(seat))
        .collect();
    let mut pool: Vec<Colour> = Vec::new();
    for &seat in &hidden {
        for colour in Colour::ALL {
            for _ in 0..game.buyers[seat.index()][colour.index()] {
                pool.push(colour);
            }
        }
    }
    pool.extend_from_slice(&game.deck);
    pool.extend_from_slice(&game.reserve);
    // Sorted first, so the re-deal depends only on what the viewer sees (Redeal).
    pool.sort_unstable();
    rng.shuffle(&mut pool);
    for &seat in &hidden {
        let wanted = total(&game.buyers[seat.index()]);
        let mut hand = [0u8; 5];
        for _ in 0..wanted {
            let at = pool
                .iter()
                .position(|&card| game.is_live(card))
                .expect("the hands held this many live cards");
            hand[pool.remove(at).index()] += 1;
        }
        twin.buyers[seat.index()] = hand;
    }
    twin.reserve = pool.split_off(game.deck.len());
    twin.deck = pool;
    if let Phase::Commit { commits } = &mut twin.phase {
        for &seat in &hidden {
            if let Some(card) = commits[seat.index()].as_mut() {
                *card = Card::ALL[rng.index(Card::ALL.len())];
            }
        }
    }
    twin
}
