//! Actions (spec §4, wire format §4.12).

use crate::cards::{CardId, Collector};
use serde::{Deserialize, Serialize};

/// How a buyer pays for a tulip it won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::PaymentMethod))]
pub enum PaymentMethod {
    /// Pay the price from cash; the tulip goes behind the screen.
    Cash,
    /// Take a loan of the price; the tulip stays face up, holding the buyer's bid marker.
    Finance,
}

/// A move. The acting seat is the authenticated caller, never a field.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulip_bubble::Action))]
pub enum Action {
    /// Sell a concealed or financed tulip to the market during one's Selling turn.
    SellToMarket {
        /// The tulip sold.
        tulip: CardId,
    },
    /// Sell exactly three concealed tulips to a face-up collector (once per round).
    SellToCollector {
        /// The face-up collector.
        collector: Collector,
        /// Exactly three concealed tulips.
        tulips: Vec<CardId>,
    },
    /// Repay a loan; the tulip goes behind the screen. Allowed at any decision point.
    BuyBack {
        /// The financed tulip.
        tulip: CardId,
    },
    /// End one's Selling turn (a turn never ends by itself).
    EndSellingTurn {},
    /// The sealed Black Tulip decision.
    BlackTulipDecision {
        /// Whether to buy the Black Tulip (needs more than 120 fl and no loans).
        claim: bool,
    },
    /// Place 0–2 bid markers (pass 1) or 0–1 (pass 2) on cards in New Arrivals or
    /// Just Sold.
    PlaceBids {
        /// The cards to mark.
        cards: Vec<CardId>,
    },
    /// Raise the auction.
    AuctionBid {
        /// The bid: above the market price, or above the high bid; at most `bid_cap`
        /// (1,000,000 by default).
        amount: i64,
    },
    /// Leave the auction.
    AuctionPass {},
    /// Pay for the tulip just won.
    ChoosePayment {
        /// Cash or finance.
        method: PaymentMethod,
    },
}
