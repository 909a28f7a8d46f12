//! Actions: the JSON shapes of the moves a player sends (spec §4.0).

use crate::pieces::{Card, Colour};
use serde::{Deserialize, Serialize};

/// A player's move. The acting seat is the authenticated seat, never a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Action))]
pub enum Action {
    /// The current player offers one tulip of `colour` for sale.
    SellTulip {
        /// The colour sold.
        colour: Colour,
    },
    /// Sell nothing this turn: allowed only with exactly one tulip.
    SkipSale {},
    /// Commit a sealed action card for the sale.
    CommitCard {
        /// The card placed face down.
        card: Card,
    },
    /// The seller's card, played after everyone else passed.
    PlaySellerCard {
        /// `speculate_by_proxy`, `purchase_by_proxy` or `pass`.
        card: Card,
    },
    /// Draw a buyer card: the top deck card (`face_up` null or absent) or face-up
    /// slot `face_up`.
    DrawBuyer {
        /// The face-up slot taken, or null for the top of the deck.
        #[serde(default)]
        face_up: Option<u32>,
    },
    /// Buy a tulip of `colour` from the stockpile.
    BuyTulip {
        /// The colour bought.
        colour: Colour,
    },
    /// Buy nothing this turn.
    SkipPurchase {},
}

impl Action {
    /// The action's `type` tag.
    pub fn kind(&self) -> &'static str {
        match self {
            Action::SellTulip { .. } => "sell_tulip",
            Action::SkipSale {} => "skip_sale",
            Action::CommitCard { .. } => "commit_card",
            Action::PlaySellerCard { .. } => "play_seller_card",
            Action::DrawBuyer { .. } => "draw_buyer",
            Action::BuyTulip { .. } => "buy_tulip",
            Action::SkipPurchase {} => "skip_purchase",
        }
    }
}
