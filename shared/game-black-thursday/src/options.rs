//! Options (spec §1.4). Defaults are the standard game.

use crate::pieces::{Space, Suit};
use serde::{Deserialize, Serialize};

/// The building layout: each named layout is a fixed list of slot origins; `custom` gives its
/// own list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Layout))]
pub enum Layout {
    /// 2 tiles wide, 12 high: 4×24 spaces, 24 tiles (the standard game).
    #[default]
    #[serde(rename = "tower_2x12")]
    Tower2x12,
    /// 3 tiles wide, 8 high: 6×16 spaces, 24 tiles.
    #[serde(rename = "tower_3x8")]
    Tower3x8,
    /// A one-tile apex on a two-tile tier on a 3×7 body, each tier offset by one space.
    #[serde(rename = "tower_3x7_pyramid")]
    Tower3x7Pyramid,
    /// 1 tile wide, 15 high: 2×30 spaces, 15 random tiles; the other 9 are out of play.
    #[serde(rename = "tower_1x15")]
    Tower1x15,
    /// Any list of slot origins (1..=24, no overlap, no dead-end space above the ground).
    Custom(Vec<Space>),
}

impl Layout {
    /// The slot origins, in slot-id (reading) order: by y, then by x.
    pub fn origins(&self) -> Vec<Space> {
        let mut origins: Vec<Space> = match self {
            Layout::Tower2x12 => grid(2, 12, 0, 0),
            Layout::Tower3x8 => grid(3, 8, 0, 0),
            Layout::Tower3x7Pyramid => {
                let mut list = vec![Space::new(2, 0), Space::new(1, 2), Space::new(3, 2)];
                list.extend(grid(3, 7, 0, 4));
                list
            }
            Layout::Tower1x15 => grid(1, 15, 0, 0),
            Layout::Custom(list) => list.clone(),
        };
        origins.sort_by_key(|space| (space.y, space.x));
        origins
    }
}

fn grid(wide: u16, high: u16, x0: u16, y0: u16) -> Vec<Space> {
    let mut list = Vec::new();
    for j in 0..high {
        for i in 0..wide {
            list.push(Space::new(x0 + 2 * i, y0 + 2 * j));
        }
    }
    list
}

/// Starting certificates: one number for every seat, or one per seat (a handicap).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::StartingCoins))]
pub enum StartingCoins {
    /// The same number for every seat.
    Each(u8),
    /// One number per seat, in seat order.
    PerSeat(Vec<u8>),
}

impl Default for StartingCoins {
    fn default() -> Self {
        StartingCoins::Each(5)
    }
}

impl StartingCoins {
    /// The number for every seat of an `n`-seat game (`None` if a per-seat list has the
    /// wrong length).
    pub fn per_seat(&self, n: usize) -> Option<Vec<u8>> {
        match self {
            StartingCoins::Each(count) => Some(vec![*count; n]),
            StartingCoins::PerSeat(list) => (list.len() == n).then(|| list.clone()),
        }
    }
}

/// Limits on trading sessions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Limits))]
pub struct Limits {
    /// The most offers (of any status) in one session.
    pub max_offers_per_session: u32,
    /// The most terms in one offer.
    pub max_terms_per_offer: u32,
    /// The longest promise text, in characters.
    pub max_promise_chars: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_offers_per_session: 64,
            max_terms_per_offer: 32,
            max_promise_chars: 500,
        }
    }
}

/// Options chosen at creation. `Default` is the standard game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = black_thursday::Options))]
pub struct Options {
    /// The building layout (default `tower_2x12`).
    pub layout: Layout,
    /// Certificates dealt to each seat at setup (default 5 each).
    pub starting_coins: StartingCoins,
    /// The pawn suit of each seat, a permutation of the suits (cosmetic).
    pub pawn_suits: Vec<Suit>,
    /// Session limits.
    pub limits: Limits,
    /// The largest `amount` of one action-point term (our addition D-A1, default 100):
    /// keeps AP ledgers bounded.
    pub max_ap_per_term: u32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            layout: Layout::default(),
            starting_coins: StartingCoins::default(),
            pawn_suits: Suit::ALL.to_vec(),
            limits: Limits::default(),
            max_ap_per_term: 100,
        }
    }
}
