//! Events: what the log records, with the JSON shapes of spec §4.0.

use crate::pieces::{Card, Colour, DiscardReason};
use crate::state::EndReason;
use game_core::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Who paid a seller, or a selling player in a burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Payer))]
pub enum Payer {
    /// The winning player paid from his cash.
    Winner,
    /// The bank paid.
    Bank,
}

/// Where a drawn card came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Pile))]
pub enum Pile {
    /// The face-down buyer deck.
    Deck,
    /// The reserve deck.
    Reserve,
}

/// A revealed action card of one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::RevealedCard))]
pub struct RevealedCard {
    /// Who played it.
    pub seat: Seat,
    /// The card.
    pub card: Card,
}

/// Something that happened, as recorded in the log. Each is logged with a visibility: a card
/// drawn into a hand is private to the drawer, and the others get a twin without the colour.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Event))]
pub enum Event {
    /// Setup (log entry 0): the public part of the deal. Each seat starts with one tulip of
    /// every colour in play and the starting cash.
    GameDealt {
        /// The first player (drawn unless the options gave it).
        first_player: Seat,
        /// The face-up buyer cards, by slot.
        face_up: Vec<Colour>,
        /// Cards in the face-down deck.
        deck: u32,
        /// Cards in the reserve.
        reserve: u32,
    },
    /// Setup (log entry 0): a player's buyer cards. The colours are only in the player's own
    /// copy; the others get a twin with the count alone.
    BuyersDealt {
        /// The player.
        seat: Seat,
        /// How many buyer cards.
        count: u32,
        /// The cards by colour (null in the others' twin).
        buyers: Option<BTreeMap<Colour, u8>>,
    },
    /// The current player offered a tulip for sale.
    TulipOffered {
        /// The seller.
        seller: Seat,
        /// The colour offered.
        colour: Colour,
    },
    /// The current player kept his only tulip.
    SaleSkipped {
        /// The current player.
        seat: Seat,
    },
    /// A player placed an action card face down (which card is not said).
    CardCommitted {
        /// Who committed.
        seat: Seat,
    },
    /// Every committed card was turned face up.
    CardsRevealed {
        /// The cards, by seat.
        cards: Vec<RevealedCard>,
    },
    /// The card that would have won is not legal for its player and now counts as a pass.
    IllegalCardReplaced {
        /// The player.
        seat: Seat,
        /// The card replaced.
        card: Card,
    },
    /// The seller played a card face up after everybody passed.
    SellerCardPlayed {
        /// The seller.
        seat: Seat,
        /// The card.
        card: Card,
    },
    /// The sale was resolved.
    SaleResolved {
        /// The seller.
        seller: Seat,
        /// The colour sold.
        colour: Colour,
        /// The winner, or null if everybody passed.
        winner: Option<Seat>,
        /// The winning card (`pass` when everybody passed).
        card: Card,
        /// What the seller received.
        price: i64,
        /// Who paid it.
        paid_by: Payer,
        /// Who received the tulip, or null if it went to the stockpile.
        tulip_to: Option<Seat>,
        /// The price space before the move.
        from: String,
        /// The price space after the move.
        to: String,
    },
    /// A player discarded buyer cards (public, with their colours).
    BuyersDiscarded {
        /// The player.
        seat: Seat,
        /// Their colour.
        colour: Colour,
        /// How many.
        count: u8,
        /// Why.
        reason: DiscardReason,
    },
    /// The priority card changed hands.
    PriorityPassed {
        /// The previous holder.
        from: Seat,
        /// The new holder.
        to: Seat,
    },
    /// A colour burst.
    BurstStarted {
        /// The colour.
        colour: Colour,
        /// Whether a speculate card caused it (then the penalty applies).
        speculative: bool,
        /// The player whose card caused it (exempt from the penalty).
        card_player: Option<Seat>,
        /// Whether this is the final burst of the last live colour (which ends the game).
        final_burst: bool,
    },
    /// One step of a burst sell-off: every listed player sold one tulip at `price`.
    TulipsSoldOff {
        /// The colour.
        colour: Colour,
        /// Whether these were tulip-and-buyer pairs (step 2) or plain tulips (step 3).
        pairs: bool,
        /// The players who sold.
        seats: Vec<Seat>,
        /// What each received from the bank.
        price: i64,
        /// The price space they sold at.
        from: String,
        /// The space the marker then moved down to.
        to: String,
    },
    /// A face-up buyer card was discarded.
    FaceUpDiscarded {
        /// The slot it was in.
        slot: u32,
        /// Its colour.
        colour: Colour,
        /// Why.
        reason: DiscardReason,
    },
    /// A face-up slot was refilled.
    FaceUpRefilled {
        /// The slot.
        slot: u32,
        /// The new card.
        colour: Colour,
        /// Where it came from.
        from: Pile,
    },
    /// A face-up slot could not be refilled and was removed; later slots shift left.
    FaceUpSlotRemoved {
        /// The slot removed.
        slot: u32,
    },
    /// A burst colour was taken out of play: its stockpile and markers are removed.
    ColourRemoved {
        /// The colour.
        colour: Colour,
        /// Stockpile tulips removed with it.
        stock_removed: u8,
    },
    /// A player took a buyer card. From the deck, the colour is shown only to the drawer.
    BuyerDrawn {
        /// The player.
        seat: Seat,
        /// The face-up slot taken, or null for the deck.
        face_up: Option<u32>,
        /// The colour (null in the twin the other players see for a deck draw).
        colour: Option<Colour>,
    },
    /// A card of a burst colour came off a pile; it was shown and discarded.
    BurstColourDrawn {
        /// Its colour.
        colour: Colour,
        /// The pile.
        from: Pile,
    },
    /// The drawer was given a replacement from the reserve (or nothing, if it ran out).
    ReplacementReceived {
        /// The player.
        seat: Seat,
        /// Whether a card was received.
        received: bool,
        /// Its colour (only in the drawer's copy).
        colour: Option<Colour>,
    },
    /// The face-down deck ran out: the face-up cards are discarded and drawing is over.
    DeckExhausted {
        /// The face-up cards discarded.
        discarded: Vec<Colour>,
    },
    /// The current player bought a tulip from the stockpile.
    TulipBought {
        /// The player.
        seat: Seat,
        /// The colour.
        colour: Colour,
        /// The price paid to the bank.
        price: i64,
        /// The price space before the move.
        from: String,
        /// The price space after the move.
        to: String,
    },
    /// The current player bought nothing.
    PurchaseSkipped {
        /// The player.
        seat: Seat,
    },
    /// A turn ended and the current player card passed left.
    TurnEnded {
        /// The player whose turn ended.
        seat: Seat,
        /// Whether the turn was idle (no sale, draw or purchase).
        idle: bool,
        /// Consecutive idle turns so far.
        idle_turns: u32,
        /// The new current player.
        current_player: Seat,
        /// The priority holder.
        priority_holder: Seat,
        /// The new turn number.
        turn_number: u32,
    },
    /// Every held tulip was sold at its colour's current price.
    Liquidated {
        /// What each seat received, by seat.
        payouts: Vec<i64>,
    },
    /// The game is over.
    GameEnded {
        /// Why.
        reason: EndReason,
        /// Final cash, by seat.
        cash: Vec<i64>,
        /// Ranks, by seat (1 = best; equal cash shares a rank).
        ranks: Vec<u8>,
    },
}
