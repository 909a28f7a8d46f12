//! Why a move was refused: the error type and its kebab-case codes (spec §4.0).

use crate::pieces::{Card, Colour};
use game_core::Seat;

/// Why a move was refused (spec §4.0). Messages never mention hidden information.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Error {
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
    Error {
        Error::GameOver => "game-over", GameOver;
        Error::AlreadyCommitted => "already-committed", Turn;
        Error::NotYourTurn(_) => "not-your-turn", Turn;
        Error::WrongPhase { .. } => "wrong-phase", Rule;
        Error::ColourNotLive(_) => "colour-not-live", Rule;
        Error::NoSuchTulip(_) => "no-such-tulip", Rule;
        Error::MustSell(_) => "must-sell", Rule;
        Error::IllegalCard(_) => "illegal-card", Rule;
        Error::SellerCardNotAllowed(_) => "seller-card-not-allowed", Rule;
        Error::BadFaceUpIndex { .. } => "bad-face-up-index", Rule;
        Error::SameColourAsSold(_) => "same-colour-as-sold", Rule;
        Error::NoStock(_) => "no-stock", Rule;
        Error::InsufficientCash { .. } => "insufficient-cash", Rule;
    }
}
