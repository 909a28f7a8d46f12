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

impl TulipTraders {
    /// Returns every grid card to the Market-deck bottom (their tokens to the bank) and leaves
    /// an empty 3×3 grid, ready for [`Self::fill_setup_grid`].
    pub fn clear_grid(&mut self) {
        let tokens: i64 = self
            .grid
            .slots
            .iter()
            .flatten()
            .map(|c| i64::from(c.tokens))
            .sum();
        self.bank_issued -= tokens;
        let old: Vec<Cell> = self.grid.slots.iter().flatten().map(|c| c.cell).collect();
        self.market_deck.extend(old);
        self.grid = Grid::empty(3, 3);
    }

    /// Runs setup step 3 (§1.8) on an empty 3×3 grid: nine top draws, row-major, each with
    /// its booms at RV(1). Returns the events.
    pub fn fill_setup_grid(&mut self) -> Vec<game_core::Logged<crate::Event>> {
        let mut events = Vec::new();
        let rv = self.options.round_table[0].rv;
        for slot in 0..9 {
            let cell = self.market_deck.remove(0);
            self.place_market_card(slot, cell, rv, &mut events);
        }
        events
    }

    /// Puts a sealed lot in flight (P5_RESPOND) from `seller` to `buyer`; the cards are taken
    /// from wherever they were.
    pub fn set_offer(
        &mut self,
        seller: Seat,
        buyer: Seat,
        declared: u32,
        min: u32,
        final_offer: bool,
        lot: &[Card],
    ) {
        for &card in lot {
            self.take_card(card);
        }
        self.offer = Some(crate::state::Offer {
            seller,
            buyer,
            declared,
            min,
            final_offer,
            revealed: false,
            lot: lot.to_vec(),
        });
        self.phase = crate::state::Phase::Respond;
    }
}
