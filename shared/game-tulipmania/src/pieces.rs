//! Colours, action cards and the per-colour counters shared by the state, the views and the
//! events (spec §0, §1.1).

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Florins (ƒ). Every amount in the game is a multiple of 25; the bank is a signed ledger,
/// so money is signed.
pub type Florins = i64;

/// The money in the game: `Σ cash + bank` is always this (spec §9.1).
pub const TOTAL_MONEY: Florins = 100_000;

/// Starting cash of every player (spec §1.2).
pub const STARTING_CASH: Florins = 700;

/// Buyer cards of each colour in the box (spec §1.1).
pub const BUYERS_PER_COLOUR: usize = 8;

/// Buyer cards dealt to each player at setup (spec §1.2).
pub const BUYERS_DEALT: usize = 3;

/// A tulip colour. Colours are listed in the game's order P, Y, O, B, R,
/// which is also the order colours enter play as seats are added.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Colour))]
pub enum Colour {
    /// Purple, in play at every table.
    Purple,
    /// Yellow, in play at every table.
    Yellow,
    /// Orange, in play at every table.
    Orange,
    /// Blue, in play with 4 or 5 players.
    Blue,
    /// Red, in play with 5 players only.
    Red,
}

impl Colour {
    /// Every colour, in the spec's order.
    pub const ALL: [Colour; 5] = [
        Colour::Purple,
        Colour::Yellow,
        Colour::Orange,
        Colour::Blue,
        Colour::Red,
    ];

    /// The colour as an index into per-colour arrays (0 = purple … 4 = red).
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colours in play with `n_seats` players (spec §1.2): the first `n_seats` colours.
    pub fn in_play(n_seats: u8) -> &'static [Colour] {
        &Colour::ALL[..usize::from(n_seats).min(5)]
    }

    /// The colour's lowercase name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Purple => "purple",
            Colour::Yellow => "yellow",
            Colour::Orange => "orange",
            Colour::Blue => "blue",
            Colour::Red => "red",
        }
    }
}

impl std::fmt::Display for Colour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// An action card. Every player owns one of each for the whole game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Card))]
pub enum Card {
    /// Rank 4: buy the tulip at the speculative price (the gold arrow's transition space).
    Speculate,
    /// Rank 3: spend two buyer cards of the colour; the bank pays the speculative price.
    SpeculateByProxy,
    /// Rank 2: buy the tulip at the current price.
    Purchase,
    /// Rank 1: spend one buyer card of the colour; the bank pays the current price.
    PurchaseByProxy,
    /// Rank 0: take no part in the sale.
    Pass,
}

impl Card {
    /// Every card, in the order `legal_actions` lists them (highest rank first).
    pub const ALL: [Card; 5] = [
        Card::Speculate,
        Card::SpeculateByProxy,
        Card::Purchase,
        Card::PurchaseByProxy,
        Card::Pass,
    ];

    /// The cards the seller may play after everybody passed (spec §4.1.5), in listing order.
    pub const SELLER: [Card; 3] = [Card::SpeculateByProxy, Card::PurchaseByProxy, Card::Pass];

    /// The card's rank: speculate 4 … pass 0.
    pub fn rank(self) -> u8 {
        match self {
            Card::Speculate => 4,
            Card::SpeculateByProxy => 3,
            Card::Purchase => 2,
            Card::PurchaseByProxy => 1,
            Card::Pass => 0,
        }
    }

    /// Whether the card moves the price along the gold (speculate) arrow.
    pub fn is_speculative(self) -> bool {
        matches!(self, Card::Speculate | Card::SpeculateByProxy)
    }

    /// The card's snake_case name, as in the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Card::Speculate => "speculate",
            Card::SpeculateByProxy => "speculate_by_proxy",
            Card::Purchase => "purchase",
            Card::PurchaseByProxy => "purchase_by_proxy",
            Card::Pass => "pass",
        }
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A count per colour, indexed by [`Colour::index`]. Used for tulips, stockpiles and buyer
/// hands (a hand is a multiset: only the number of cards of each colour matters).
pub type Counts = [u8; 5];

/// The counts of the colours in play, as a JSON object keyed by colour (views and events).
pub fn counts_map(counts: &Counts, n_seats: u8) -> BTreeMap<Colour, u8> {
    Colour::in_play(n_seats)
        .iter()
        .map(|&colour| (colour, counts[colour.index()]))
        .collect()
}

/// The sum of a count array.
pub fn total(counts: &Counts) -> u32 {
    counts.iter().map(|&count| u32::from(count)).sum()
}

/// Why a buyer card left play. Every removal is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::DiscardReason))]
pub enum DiscardReason {
    /// Spent on a purchase-by-proxy or speculate-by-proxy card.
    Proxy,
    /// The one-card penalty of a speculative burst (spec §4.4 step 1).
    BurstPenalty,
    /// Sold off together with a tulip during a burst (spec §4.4 step 2).
    BurstPair,
    /// Left in a hand or face up when its colour was removed (spec §4.4 step 4).
    BurstCleanup,
    /// Drawn from the deck or the reserve after its colour had burst (spec §4.1.6).
    BurstColourDraw,
    /// Left face up when the deck ran out (spec §4.1.6).
    Exhaustion,
}

/// One removed buyer card, with its colour and the reason (public).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::DiscardedBuyer))]
pub struct DiscardedBuyer {
    /// The card's colour.
    pub colour: Colour,
    /// Why it left play.
    pub reason: DiscardReason,
}
