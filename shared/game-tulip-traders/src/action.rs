//! Actions (§4, wire format §4.1): the JSON shapes of the moves a player sends.

use crate::cards::{Card, Cell};
use crate::market::Side;
use game_core::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A move. The acting seat is the authenticated caller, never a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_traders::Action))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// A1: choose an investment option by name (`"abstain"`, `"broker"`, `"patron"`).
    DeclareInvestment {
        /// The option name.
        option: String,
    },
    /// A2: discard exactly the excess over the limit (Phase 1).
    Discard {
        /// The cards, in deck-bottom order.
        cards: Vec<Card>,
    },
    /// A3: fp adds a market line.
    AddMarketLine {
        /// The side.
        side: Side,
    },
    /// A4: move a crisis to a sharing card, paying RC.
    MoveCrisis {
        /// A cell in crisis.
        from: Cell,
        /// A cell not in crisis sharing a colour or type with `from`.
        to: Cell,
    },
    /// A5: skip the manipulation turn.
    PassManipulation {},
    /// A6: place the whole earmark as tokens.
    PlaceInvestment {
        /// Tokens per cell, each at least 1, summing to the earmark.
        alloc: BTreeMap<Cell, u32>,
    },
    /// A7: offer three cards from the hand.
    OfferLot {
        /// Exactly three cards.
        cards: Vec<Card>,
        /// The buyer.
        buyer: Seat,
        /// The declared value.
        declared: u32,
    },
    /// A8: buy, liquidating a non-excessive set if the purse is short.
    Buy {
        /// Tulips to liquidate, in order (empty when the purse suffices).
        #[serde(default)]
        liquidate: Vec<Card>,
    },
    /// A9: accuse the seller of over-declaring.
    Accuse {},
    /// A10: liquidate to pay a pending debt.
    Liquidate {
        /// A non-excessive set of tulips, in order.
        cards: Vec<Card>,
    },
    /// A11: return exactly the excess over the limit (Phase 6).
    ReturnExcess {
        /// The cards, in deck-bottom order.
        cards: Vec<Card>,
    },
    /// A12: reveal a complete portfolio, ending the game.
    RevealPortfolio {},
    /// A13: decline to reveal.
    DeclineReveal {},
}
