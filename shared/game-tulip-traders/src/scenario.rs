//! Building arbitrary positions for tests (§8's Givens are injected fixtures). Every state
//! field is `pub`; these helpers keep the card and money bookkeeping (I1, I4, I5) intact
//! while moving things around.

use crate::cards::{Card, Cell};
use crate::state::{Grid, GridCell, TulipTraders};
use game_core::Seat;

impl TulipTraders {
    /// Takes `card` out of wherever it is (deck, a hand, the lot in flight, the supply).
    pub fn take_card(&mut self, card: Card) {
        self.portfolio_deck.retain(|&c| c != card);
        self.sack_supply.retain(|&c| c != card);
        for player in &mut self.players {
            player.remove_card(card);
        }
        if let Some(offer) = self.offer.as_mut() {
            offer.lot.retain(|&c| c != card);
        }
    }

    /// Replaces `seat`'s hand with `cards`; its old cards go to the deck bottom (SACKs to the
    /// supply) and the new ones are taken from wherever they were.
    pub fn set_hand(&mut self, seat: Seat, cards: &[Card]) {
        let old = std::mem::take(&mut self.players[seat.index()].hand);
        for card in old {
            self.dispose(card);
        }
        for &card in cards {
            self.take_card(card);
            self.players[seat.index()].add_card(card);
        }
    }

    /// Replaces the grid with `rows` (each cell `(card, tokens, crisis)`), returning Market
    /// cards to the deck and adjusting `bank_issued` by the change in tokens.
    pub fn set_grid(&mut self, rows: &[&[(Cell, u32, bool)]]) {
        let before: i64 = self
            .grid
            .slots
            .iter()
            .flatten()
            .map(|c| i64::from(c.tokens))
            .sum();
        let old: Vec<Cell> = self.grid.slots.iter().flatten().map(|c| c.cell).collect();
        self.market_deck.extend(old);
        let cols = rows.first().map_or(0, |r| r.len());
        let mut grid = Grid::empty(rows.len(), cols);
        for (r, row) in rows.iter().enumerate() {
            for (c, &(cell, tokens, crisis)) in row.iter().enumerate() {
                self.market_deck.retain(|&m| m != cell);
                grid.slots[r * cols + c] = Some(GridCell {
                    cell,
                    tokens,
                    crisis,
                });
            }
        }
        self.grid = grid;
        let after: i64 = self
            .grid
            .slots
            .iter()
            .flatten()
            .map(|c| i64::from(c.tokens))
            .sum();
        self.bank_issued += after - before;
    }

    /// Sets a purse, adjusting `bank_issued`.
    pub fn set_purse(&mut self, seat: Seat, purse: u32) {
        self.bank_issued += i64::from(purse) - i64::from(self.players[seat.index()].purse);
        self.players[seat.index()].purse = purse;
    }

    /// Puts `cards` on top of the Portfolio deck, in order (taken from wherever they were).
    pub fn stack_deck(&mut self, cards: &[Card]) {
        for &card in cards {
            self.take_card(card);
        }
        let mut deck = cards.to_vec();
        deck.append(&mut self.portfolio_deck);
        self.portfolio_deck = deck;
    }

    /// Puts `cells` on top of the Market deck, in order (they must not be on the grid).
    pub fn stack_market(&mut self, cells: &[Cell]) {
        self.market_deck.retain(|c| !cells.contains(c));
        let mut deck = cells.to_vec();
        deck.append(&mut self.market_deck);
        self.market_deck = deck;
    }
}
