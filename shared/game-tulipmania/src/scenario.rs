//! Positions for tests and tools, following the table conventions of spec §8.
//!
//! [`table`] builds the `T3`/`T4`/`T5` position: seat 0 Ann, 1 Bill, 2 Charles, 3 Dave,
//! 4 Eve; Bill is the current player and Ann holds priority; phase `sell_choice`; the buyer
//! deck is exhausted (deck, face-up row and reserve empty); every marker is on `r0c1`; every
//! player has ƒ700 and one tulip of each colour; the stockpile holds 5 of each; no player
//! holds buyer cards. Adjust it through the public fields and the helpers of
//! [`Tulipmania`] (`set_cash`, `set_marker`, `set_buyers`), then call
//! [`balance_buyers`] so the buyer-card total of invariant 4 holds again.

use crate::board::Board;
use crate::options::Options;
use crate::pieces::{
    Colour, DiscardReason, DiscardedBuyer, Florins, BUYERS_PER_COLOUR, STARTING_CASH, TOTAL_MONEY,
};
use crate::setup::tulips_in_circulation;
use crate::state::{Phase, Tulipmania};
use game_core::Seat;
use std::sync::Arc;

/// Ann, seat 0.
pub const ANN: Seat = Seat(0);
/// Bill, seat 1.
pub const BILL: Seat = Seat(1);
/// Charles, seat 2.
pub const CHARLES: Seat = Seat(2);
/// Dave, seat 3.
pub const DAVE: Seat = Seat(3);
/// Eve, seat 4.
pub const EVE: Seat = Seat(4);

/// The spec §8 test table for `n_seats` players with the default options.
pub fn table(n_seats: u8) -> Tulipmania {
    table_with(n_seats, &Options::default())
}

/// The spec §8 test table for `n_seats` players with `options`.
///
/// # Panics
/// If the options' board is invalid.
pub fn table_with(n_seats: u8, options: &Options) -> Tulipmania {
    let board = Board::from_option(&options.board, options.bottom_descent).expect("a valid board");
    let n = usize::from(n_seats);
    let mut one_each = [0u8; 5];
    let mut stock = [0u8; 5];
    let mut markers = [None; 5];
    for colour in Colour::in_play(n_seats) {
        one_each[colour.index()] = 1;
        stock[colour.index()] = tulips_in_circulation(n_seats) - n_seats;
        markers[colour.index()] = Some(board.start);
    }
    let mut game = Tulipmania {
        n_seats,
        options: options.clone(),
        board: Arc::new(board),
        first_player: Seat(0),
        turn_number: 1,
        phase: Phase::SellChoice,
        current_player: Seat(1),
        priority_holder: Seat(0),
        cash: vec![STARTING_CASH; n],
        bank: TOTAL_MONEY - STARTING_CASH * n as Florins,
        tulips: vec![one_each; n],
        stock,
        markers,
        burst_order: Vec::new(),
        buyers: vec![[0; 5]; n],
        deck: Vec::new(),
        face_up: Vec::new(),
        deck_exhausted: true,
        reserve: Vec::new(),
        buyer_discard: Vec::new(),
        in_transit: None,
        sold_colour_this_turn: None,
        did_sell: false,
        did_draw: false,
        did_buy: false,
        idle_turns: 0,
        draws: 0,
    };
    balance_buyers(&mut game);
    game
}

/// Makes the buyer discard pile hold exactly the cards of each colour in play that are not in
/// a hand, the deck, the face-up row or the reserve (so invariant 4 holds), recorded with
/// reason `exhaustion`. Colours over-committed elsewhere are left alone.
pub fn balance_buyers(game: &mut Tulipmania) {
    game.buyer_discard.clear();
    for &colour in game.colours() {
        let in_hands: usize = game
            .buyers
            .iter()
            .map(|hand| usize::from(hand[colour.index()]))
            .sum();
        let elsewhere = [&game.deck, &game.face_up, &game.reserve]
            .iter()
            .map(|pile| pile.iter().filter(|&&card| card == colour).count())
            .sum::<usize>();
        let missing = BUYERS_PER_COLOUR.saturating_sub(in_hands + elsewhere);
        for _ in 0..missing {
            game.buyer_discard.push(DiscardedBuyer {
                colour,
                reason: DiscardReason::Exhaustion,
            });
        }
    }
}

/// Marks `colour` as already burst: no tulips, no stock, no buyers, marker removed, and
/// appended to the burst order.
pub fn burst_colour(game: &mut Tulipmania, colour: Colour) {
    for seat in 0..usize::from(game.n_seats) {
        game.tulips[seat][colour.index()] = 0;
        game.buyers[seat][colour.index()] = 0;
    }
    game.stock[colour.index()] = 0;
    game.markers[colour.index()] = None;
    game.burst_order.push(colour);
}
