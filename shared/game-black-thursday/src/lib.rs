//! Black Thursday (Clark D. Rodeffer, v0.3.0β, a piecepack game) for Beurs: a pure rules
//! crate implementing [`game_core::Game`] after the spec `rules/black-thursday.md`.
//!
//! Investors descend a skyscraper of piecepack tiles. Face-down tiles are brokerage offices;
//! face-up tiles are windows of opportunity of their suit, and the pip quarter is the window
//! of great opportunity. Stepping onto a window forces a sale of that suit, or a jump that
//! brings penalty certificates. Players buy, trade with the bag and negotiate sessions of
//! binding terms and free-text promises. The fewest shares wins.
//!
//! Layout: [`pieces`] (suits, coins, tiles, spaces), [`options`], [`state`] (the full state,
//! with `pub` fields for scenario tests), [`board`] (geometry), [`rules`] (the single
//! legality check), [`flow`] (setup, turn machine, turn commands, jump, end), [`trading`]
//! (sessions, agreements, claims), [`legal`] (`legal_actions`, `to_act`), [`view`],
//! [`event`], [`words`] (the log in sentences, the summary), [`game`] (trait impls).
//!
//! Architecture invariant: [`BlackThursday::check`] decides legality; `apply` calls it before
//! mutating anything, and `legal_actions` lists only what it accepts.
//!
//! Glossary: *handle* = a coin's public name while outside the bag; *AP* = action points;
//! *group* = the other participants of a session; *pointer* = a participant's acceptance.

pub mod action;
pub mod board;
pub mod event;
pub mod flow;
pub mod game;
pub mod ids;
pub mod legal;
pub mod options;
pub mod pieces;
pub mod rules;
pub mod state;
pub mod trading;
pub mod view;
pub mod words;

pub use action::{Action, Error, Exit, MoveTarget, Term};
pub use board::SpaceKind;
pub use event::{CoinInfo, Event, Standing, Transfer};
pub use ids::{AgreementId, ClaimId, Handle, OfferId, PromiseId, SessionId};
pub use legal::PROMISE_TEXTS;
pub use options::{Layout, Limits, Options, StartingCoins};
pub use pieces::{Piece, Space, Suit};
pub use state::{
    BlackThursday, Claim, ClaimStatus, Held, Offer, OfferStatus, Phase, Player, Position, Promise,
    PromiseStatus, Session, SessionStatus, Slot, Status, Turn,
};
pub use view::BlackThursdayView;
