//! Black Thursday (Clark D. Rodeffer, v0.3.0β, a piecepack game) for Beurs: a pure rules
//! crate implementing [`game_core::Game`] after the spec `rules/black-thursday.md`.
//!
//! Investors descend a skyscraper of piecepack tiles. Face-down tiles are brokerage offices;
//! face-up tiles are windows of opportunity of their suit, and the pip quarter is the window
//! of great opportunity. Stepping onto a window forces a sale of that suit, or a jump that
//! brings penalty certificates. Players buy, trade with the bag and negotiate sessions of
//! binding terms and free-text promises. The fewest shares wins.
//!
//! # Layout
//! - `lib.rs`: this documentation, the modules and the re-exports.
//! - [`game`]: the `Game` and `Redeal` impls, each method a rule of a few lines or a call of
//!   the function of the same name in its role's file.
//! - [`options`]: the [`Options`] and the types only options use ([`Layout`], [`Limits`],
//!   [`StartingCoins`]).
//! - [`state`]: the full state [`BlackThursday`] (with `pub` fields for scenario tests), its
//!   [`Phase`] and small accessors.
//! - [`setup`]: the deal (`setup`) and the opening roll.
//! - [`action`]: the [`Action`] and its trade [`Term`]s.
//! - [`event`]: the log's [`Event`].
//! - [`error`]: the rule [`Error`] and its codes.
//! - [`rules`]: `check` (the single legality check) and `apply`, which hands each command to
//!   [`turn`] or [`trading`].
//! - [`legal`]: `legal_actions` (with the `post_offer` schema) and `to_act`.
//! - [`view`]: the per-viewer [`View`] and `view`.
//! - [`words`]: the summary and the log in sentences.
//! - Concept files: [`pieces`] (suits, coins, tiles, spaces), [`ids`] (handles and the
//!   session, offer, promise, claim and agreement ids), [`board`] (geometry), [`coins`]
//!   (portfolios, the bag, draws, what a coin shows to whom), [`turn`] (the turn machine,
//!   turn commands, the jump, the end check), [`trading`] (sessions, agreements, claims),
//!   [`scoring`] (standings and ranks), `sensible` (what the bots call a sensible move).
//!
//! Architecture invariant: [`BlackThursday::check`] decides legality; `apply` calls it before
//! mutating anything, and `legal_actions` lists only what it accepts.
//!
//! Glossary: *handle* = a coin's public name while outside the bag; *AP* = action points;
//! *group* = the other participants of a session; *pointer* = a participant's acceptance.

pub mod action;
pub mod board;
pub mod coins;
pub mod error;
pub mod event;
pub mod game;
pub mod ids;
pub mod legal;
pub mod options;
pub mod pieces;
pub mod rules;
pub mod scoring;
mod sensible;
pub mod setup;
pub mod state;
pub mod trading;
pub mod turn;
pub mod view;
pub mod words;

pub use action::{Action, Exit, MoveTarget, Term};
pub use board::SpaceKind;
pub use error::Error;
pub use event::{CoinInfo, Event, Standing, Transfer};
pub use ids::{AgreementId, ClaimId, Handle, OfferId, PromiseId, SessionId};
pub use legal::PROMISE_TEXTS;
pub use options::{Layout, Limits, Options, StartingCoins};
pub use pieces::{Piece, Space, Suit};
pub use state::{
    BlackThursday, Claim, ClaimStatus, Held, Offer, OfferStatus, Phase, Player, Position, Promise,
    PromiseStatus, Session, SessionStatus, Slot, Status, Turn,
};
pub use view::View;
