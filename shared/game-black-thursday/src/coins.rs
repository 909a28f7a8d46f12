//! The coins (common stock and penalty certificates): portfolios, the bag, draws and
//! returns (spec §5.4–§5.6), and how a coin is shown to someone who may or may not know
//! its value.

use crate::event::{CoinInfo, Event, Events, Transfer};
use crate::ids::Handle;
use crate::pieces::{suit_of, value_of};
use crate::state::{BlackThursday, Held};
use game_core::{GameRng, Logged, Seat, SeatSet};

/// A coin as seen by someone who knows its value (`full`) or not.
pub fn coin_info(held: &Held, full: bool) -> CoinInfo {
    CoinInfo {
        handle: held.handle,
        suit: held.suit(),
        value: full.then(|| value_of(held.coin)),
    }
}

/// Pushes a private event for `seat` and its redacted twin for everyone else.
pub(crate) fn private_pair(events: &mut Events, seat: Seat, full: Event, redacted: Event) {
    events.push(Logged::private(seat, full));
    events.push(Logged::others(seat, redacted));
}

pub(crate) fn redact(coins: &[CoinInfo]) -> Vec<CoinInfo> {
    coins
        .iter()
        .map(|c| CoinInfo {
            value: None,
            ..c.clone()
        })
        .collect()
}

pub(crate) fn redact_transfers(transfers: &[Transfer]) -> Vec<Transfer> {
    transfers
        .iter()
        .map(|t| Transfer {
            coin: CoinInfo {
                value: None,
                ..t.coin.clone()
            },
            ..t.clone()
        })
        .collect()
}

/// Inserts `held` into a portfolio kept in ascending handle order.
pub fn insert_held(coins: &mut Vec<Held>, held: Held) {
    let at = coins.partition_point(|c| c.handle < held.handle);
    coins.insert(at, held);
}

impl BlackThursday {
    /// Draws a coin (spec §5.4) and gives it to `seat` with a fresh handle.
    pub(crate) fn draw_to(&mut self, seat: Seat, rng: &mut GameRng) -> CoinInfo {
        let coin = self.bag.remove(rng.index(self.bag.len()));
        let handle = Handle(self.counters.handle);
        self.counters.handle += 1;
        let held = Held {
            handle,
            coin,
            known_by: SeatSet::only(seat),
        };
        let info = coin_info(&held, true);
        insert_held(&mut self.players[seat.index()].coins, held);
        info
    }

    /// Returns coins to the bag (their handles retire).
    pub(crate) fn return_to_bag(&mut self, seat: Seat, handles: &[Handle]) -> Vec<CoinInfo> {
        let mut returned = Vec::new();
        for &handle in handles {
            let coins = &mut self.players[seat.index()].coins;
            if let Some(pos) = coins.iter().position(|c| c.handle == handle) {
                let held = coins.remove(pos);
                returned.push(coin_info(&held, true));
                let at = self.bag.partition_point(|&c| c < held.coin);
                self.bag.insert(at, held.coin);
            }
        }
        returned
    }

    /// Moves a uniform random `m`-subset of `from`'s coins to `to` (spec §5.6).
    pub(crate) fn move_random(
        &mut self,
        from: Seat,
        to: Seat,
        m: usize,
        rng: &mut GameRng,
    ) -> Vec<Transfer> {
        let mut moved = Vec::new();
        for _ in 0..m.min(self.players[from.index()].coins.len()) {
            let coins = &mut self.players[from.index()].coins;
            let mut held = coins.remove(rng.index(coins.len()));
            held.known_by.insert(to);
            moved.push(Transfer {
                from,
                to,
                coin: coin_info(&held, true),
            });
            insert_held(&mut self.players[to.index()].coins, held);
        }
        moved
    }

    /// The public suits of coins in the bag, per suit (derivable: 6 minus those held).
    pub fn bag_by_suit(&self) -> Vec<u8> {
        let mut counts = vec![0u8; 4];
        for &coin in &self.bag {
            counts[suit_of(coin).index()] += 1;
        }
        counts
    }
}
