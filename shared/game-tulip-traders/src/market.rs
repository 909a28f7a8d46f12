//! The market grid (§2.3, §3.3, §3.6): placement with booms, line growth, crisis moves,
//! investment and disruption.

use crate::cards::{Card, Cell};
use crate::event::Event;
use crate::state::{Grid, GridCell, TulipTraders};
use game_core::{Logged, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A side of the grid for Phase 2 (A3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Side))]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// A new first row.
    Top,
    /// A new last row.
    Bottom,
    /// A new first column.
    Left,
    /// A new last column.
    Right,
}

/// The four sides in A3 order.
pub const SIDES: [Side; 4] = [Side::Top, Side::Bottom, Side::Left, Side::Right];

impl Grid {
    /// An empty grid of the given size.
    pub fn empty(rows: usize, cols: usize) -> Grid {
        Grid {
            rows,
            cols,
            slots: vec![None; rows * cols],
        }
    }

    /// The slot at (row, col).
    pub fn at(&self, row: usize, col: usize) -> Option<&GridCell> {
        self.slots[row * self.cols + col].as_ref()
    }

    /// The (row, col) of a Market card.
    pub fn position(&self, cell: Cell) -> Option<(usize, usize)> {
        let at = self
            .slots
            .iter()
            .position(|slot| slot.is_some_and(|c| c.cell == cell))?;
        Some((at / self.cols, at % self.cols))
    }

    /// Slot indices of the orthogonal neighbours, in the fixed order up, left, right, down.
    pub fn neighbours(&self, row: usize, col: usize) -> Vec<usize> {
        let mut out = Vec::with_capacity(4);
        if row > 0 {
            out.push((row - 1) * self.cols + col);
        }
        if col > 0 {
            out.push(row * self.cols + col - 1);
        }
        if col + 1 < self.cols {
            out.push(row * self.cols + col + 1);
        }
        if row + 1 < self.rows {
            out.push((row + 1) * self.cols + col);
        }
        out
    }

    /// Inserts an empty line on `side`; returns the slot indices of the new line in fill order.
    pub fn insert_line(&mut self, side: Side) -> Vec<usize> {
        let (rows, cols) = (self.rows, self.cols);
        let (new_rows, new_cols) = match side {
            Side::Top | Side::Bottom => (rows + 1, cols),
            Side::Left | Side::Right => (rows, cols + 1),
        };
        let mut slots = vec![None; new_rows * new_cols];
        for r in 0..rows {
            for c in 0..cols {
                let (nr, nc) = match side {
                    Side::Top => (r + 1, c),
                    Side::Left => (r, c + 1),
                    Side::Bottom | Side::Right => (r, c),
                };
                slots[nr * new_cols + nc] = self.slots[r * cols + c];
            }
        }
        self.rows = new_rows;
        self.cols = new_cols;
        self.slots = slots;
        match side {
            Side::Top => (0..new_cols).collect(),
            Side::Bottom => (0..new_cols).map(|c| rows * new_cols + c).collect(),
            Side::Left => (0..new_rows).map(|r| r * new_cols).collect(),
            Side::Right => (0..new_rows).map(|r| r * new_cols + cols).collect(),
        }
    }

    /// The grid size the side would give.
    pub fn size_after(&self, side: Side) -> (usize, usize) {
        match side {
            Side::Top | Side::Bottom => (self.rows + 1, self.cols),
            Side::Left | Side::Right => (self.rows, self.cols + 1),
        }
    }
}

impl TulipTraders {
    /// Places a Market card into an empty slot and runs Boom (§3.3, D-05) with RV `rv`.
    pub(crate) fn place_market_card(
        &mut self,
        slot: usize,
        cell: Cell,
        rv: u32,
        events: &mut Vec<Logged<Event>>,
    ) {
        let (row, col) = (slot / self.grid.cols, slot % self.grid.cols);
        self.grid.slots[slot] = Some(GridCell {
            cell,
            tokens: 0,
            crisis: false,
        });
        events.push(Logged::public(Event::MarketCardPlaced { cell, row, col }));
        for neighbour in self.grid.neighbours(row, col) {
            let Some(other) = self.grid.slots[neighbour] else {
                continue;
            };
            if !cell.shares(other.cell) {
                continue;
            }
            let neighbour_gain = if other.crisis {
                if !self.options.crisis_neighbour_booms {
                    continue;
                }
                0
            } else {
                rv
            };
            if let Some(placed) = self.grid.slots[slot].as_mut() {
                placed.tokens += rv;
            }
            if let Some(m) = self.grid.slots[neighbour].as_mut() {
                m.tokens += neighbour_gain;
            }
            self.bank_issued += i64::from(rv + neighbour_gain);
            events.push(Logged::public(Event::Boom {
                placed: cell,
                neighbour: other.cell,
                placed_gain: rv,
                neighbour_gain,
            }));
        }
    }

    /// Whether `side` gives this round's grid (§1.5, A3).
    pub fn side_allowed(&self, side: Side) -> bool {
        let (rows, cols) = self.grid.size_after(side);
        let target = 5 + usize::from(self.round);
        let line = match side {
            Side::Top | Side::Bottom => self.grid.cols,
            Side::Left | Side::Right => self.grid.rows,
        };
        rows + cols == target
            && rows.abs_diff(cols) <= 1
            && rows <= 5
            && cols <= 5
            && line <= self.market_deck.len()
    }

    /// A3: adds the line, drawing and booming card by card.
    pub(crate) fn add_line(&mut self, side: Side, events: &mut Vec<Logged<Event>>) {
        let rv = self.rv();
        for slot in self.grid.insert_line(side) {
            let cell = self.market_deck.remove(0);
            self.place_market_card(slot, cell, rv, events);
        }
    }

    /// Sends a cell into crisis; returns the tokens removed to the bank.
    pub(crate) fn put_in_crisis(&mut self, cell: Cell) -> u32 {
        let wipes = self.options.crisis_arrival_wipes;
        let Some(c) = self
            .grid
            .slots
            .iter_mut()
            .flatten()
            .find(|c| c.cell == cell)
        else {
            return 0;
        };
        c.crisis = true;
        let removed = if wipes {
            std::mem::take(&mut c.tokens)
        } else {
            0
        };
        self.bank_issued -= i64::from(removed);
        removed
    }

    /// A4 (checked): moves a crisis and charges RC.
    pub(crate) fn move_crisis(
        &mut self,
        seat: Seat,
        from: Cell,
        to: Cell,
        events: &mut Vec<Logged<Event>>,
    ) {
        let fee = self.row().rc;
        self.players[seat.index()].purse -= fee;
        self.players[seat.index()].manipulated = true;
        self.bank_issued -= i64::from(fee);
        if let Some(c) = self
            .grid
            .slots
            .iter_mut()
            .flatten()
            .find(|c| c.cell == from)
        {
            c.crisis = false;
        }
        let tokens_removed = self.put_in_crisis(to);
        events.push(Logged::public(Event::CrisisMoved {
            seat,
            from,
            to,
            fee,
            tokens_removed,
        }));
    }

    /// A6 (checked): the earmark becomes tokens.
    pub(crate) fn place_investment(
        &mut self,
        seat: Seat,
        alloc: &BTreeMap<Cell, u32>,
        events: &mut Vec<Logged<Event>>,
    ) {
        for (&cell, &n) in alloc {
            if let Some(c) = self
                .grid
                .slots
                .iter_mut()
                .flatten()
                .find(|c| c.cell == cell)
            {
                c.tokens += n;
            }
        }
        self.players[seat.index()].earmark = 0;
        events.push(Logged::public(Event::InvestmentPlaced {
            seat,
            alloc: alloc.clone(),
        }));
    }

    /// §3.6 Disruption of a revealed lying lot, after the fine.
    pub(crate) fn disrupt(&mut self, lot: &[Card], events: &mut Vec<Logged<Event>>) {
        let rv = self.rv();
        let hit: Vec<Cell> = lot
            .iter()
            .filter_map(|c| c.cell())
            .filter(|cell| self.cell(*cell).is_some())
            .collect();
        // Step 1: every lot tulip on the grid goes into crisis.
        for &h in &hit {
            let tokens_removed = self.put_in_crisis(h);
            events.push(Logged::public(Event::CrisisPlaced {
                cell: h,
                tokens_removed,
            }));
        }
        // Step 2: ripples, one hit per (lot card, matching neighbour); never spreading further.
        for &h in &hit {
            let Some((row, col)) = self.grid.position(h) else {
                continue;
            };
            for slot in self.grid.neighbours(row, col) {
                let Some(m) = self.grid.slots[slot] else {
                    continue;
                };
                if m.crisis || !h.shares(m.cell) {
                    continue;
                }
                if m.tokens >= rv {
                    if let Some(c) = self.grid.slots[slot].as_mut() {
                        c.tokens -= rv;
                    }
                    self.bank_issued -= i64::from(rv);
                    events.push(Logged::public(Event::Ripple {
                        cell: m.cell,
                        tokens_removed: rv,
                    }));
                } else {
                    // Below RV: the cell goes into crisis (its remainder goes to the bank).
                    let wipes = self.options.crisis_arrival_wipes;
                    let removed = m.tokens;
                    if let Some(c) = self.grid.slots[slot].as_mut() {
                        c.crisis = true;
                        c.tokens = if wipes { 0 } else { m.tokens };
                    }
                    let removed = if wipes { removed } else { 0 };
                    self.bank_issued -= i64::from(removed);
                    events.push(Logged::public(Event::CrisisPlaced {
                        cell: m.cell,
                        tokens_removed: removed,
                    }));
                }
            }
        }
        // Step 3: a lot with no tulip bursts the bubble.
        if !lot.iter().any(|c| c.is_tulip()) {
            self.collapse_flag = true;
            events.push(Logged::public(Event::CollapseTriggered));
        }
    }
}
