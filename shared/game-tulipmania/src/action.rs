//! Actions, events and errors: the JSON shapes and kebab-case codes of spec §4.0.

use crate::types::{Card, Colour, DiscardReason};
use game_core::Seat;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

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

/// Why the game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::EndReason))]
pub enum EndReason {
    /// `FINAL_BURST`: only one colour was left, and it burst at once.
    FinalBurst,
    /// `ALL_DECLINE`: a full round of idle turns; every tulip was liquidated.
    AllDecline,
    /// `TURN_CAP`: the `max_turns` option was reached; every tulip was liquidated.
    TurnCap,
}

impl EndReason {
    /// The reason as reported in `Outcome::reason`: `final_burst`, `all_decline`, `turn_cap`.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::FinalBurst => "final_burst",
            EndReason::AllDecline => "all_decline",
            EndReason::TurnCap => "turn_cap",
        }
    }
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

/// Why a move was refused (spec §4.0). Messages never mention hidden information.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TulipError {
    /// `game-over`.
    #[error("the game is over")]
    GameOver,
    /// `already-committed`.
    #[error("you have already committed a card for this sale")]
    AlreadyCommitted,
    /// `not-your-turn`.
    #[error("{0} may not act now")]
    NotYourTurn(Seat),
    /// `wrong-phase`.
    #[error("{action} is not accepted in the {phase} phase")]
    WrongPhase {
        /// The action type.
        action: &'static str,
        /// The phase.
        phase: &'static str,
    },
    /// `colour-not-live`.
    #[error("{0} is not in play")]
    ColourNotLive(Colour),
    /// `no-such-tulip`.
    #[error("you hold no {0} tulip")]
    NoSuchTulip(Colour),
    /// `must-sell`.
    #[error("with {0} tulips you must sell one")]
    MustSell(u32),
    /// `illegal-card`.
    #[error("{0} is not legal for you in this sale")]
    IllegalCard(Card),
    /// `seller-card-not-allowed`.
    #[error("the seller may play only speculate_by_proxy, purchase_by_proxy or pass, not {0}")]
    SellerCardNotAllowed(Card),
    /// `bad-face-up-index`.
    #[error("there is no face-up slot {index}; there are {len}")]
    BadFaceUpIndex {
        /// The slot asked for.
        index: u32,
        /// The number of face-up slots.
        len: usize,
    },
    /// `same-colour-as-sold`.
    #[error("you sold a {0} tulip this turn and may not buy one")]
    SameColourAsSold(Colour),
    /// `no-stock`.
    #[error("the {0} stockpile is empty")]
    NoStock(Colour),
    /// `insufficient-cash`.
    #[error("a tulip costs {price} and you have {cash}")]
    InsufficientCash {
        /// The price.
        price: i64,
        /// The player's cash.
        cash: i64,
    },
}

game_core::rule_error! {
    TulipError {
        TulipError::GameOver => "game-over", GameOver;
        TulipError::AlreadyCommitted => "already-committed", Turn;
        TulipError::NotYourTurn(_) => "not-your-turn", Turn;
        TulipError::WrongPhase { .. } => "wrong-phase", Rule;
        TulipError::ColourNotLive(_) => "colour-not-live", Rule;
        TulipError::NoSuchTulip(_) => "no-such-tulip", Rule;
        TulipError::MustSell(_) => "must-sell", Rule;
        TulipError::IllegalCard(_) => "illegal-card", Rule;
        TulipError::SellerCardNotAllowed(_) => "seller-card-not-allowed", Rule;
        TulipError::BadFaceUpIndex { .. } => "bad-face-up-index", Rule;
        TulipError::SameColourAsSold(_) => "same-colour-as-sold", Rule;
        TulipError::NoStock(_) => "no-stock", Rule;
        TulipError::InsufficientCash { .. } => "insufficient-cash", Rule;
    }
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
