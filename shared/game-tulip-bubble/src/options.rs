//! Options chosen when a game is created (spec §7).

use game_core::Seat;
use serde::{Deserialize, Serialize};

/// Game options. Every field has a serde default; the defaults are the standard game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Options))]
pub struct Options {
    /// Optional rule: run the Market Response on the dealt cards at setup, before the
    /// setup event is revealed.
    pub opening_market_response: bool,
    /// Optional rule "Investment Leverages are EVIL": a financed tulip cannot be sold
    /// to the market; it must be bought back first.
    pub evil_leverage: bool,
    /// The price of a rank-A tulip at levels I and II (reconstructed: no
    /// source prints them). Each must be at least 1.
    pub a_price_low: [i64; 2],
    /// The round-1 start player; `null` draws one at random.
    pub start_player: Option<Seat>,
    /// Guilders each seat starts with (standard: 20).
    pub starting_cash: i64,
    /// A Black Tulip claim needs cash strictly above this (standard: 120, "over 120").
    pub black_tulip_threshold: i64,
    /// The highest bid accepted (a technical cap of 1,000,000, not a rule of the game).
    pub bid_cap: i64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            opening_market_response: false,
            evil_leverage: false,
            a_price_low: [6, 10],
            start_player: None,
            starting_cash: 20,
            black_tulip_threshold: 120,
            bid_cap: 1_000_000,
        }
    }
}
