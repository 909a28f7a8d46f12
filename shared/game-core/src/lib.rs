//! The contract between Beurs and its games.
//!
//! - [`Game`]: the trait every rules crate implements (DESIGN.md §2), shaped after OpenSpiel's
//!   `State`: setup, who acts, legal actions, apply, per-viewer views, outcome.
//! - [`GameRng`]: the only source of randomness, one ChaCha20 stream per log entry (§3).
//! - [`adapter`]: the type-erased JSON-in/JSON-out face of a game, and the [`Registry`] of
//!   rulesets the API serves.
//! - [`testing`]: the harness every game runs (random playouts, determinism, serde round trip,
//!   "an `Err` changes nothing", no-leak).
//! - [`action_schema`]: builds closed JSON Schemas for parameterised legal actions.
//! - [`words`]: the names and checks for the sentences each game writes for its log.
//! - [`search`]: the searching bots (determinized Monte-Carlo over a seat's possible worlds)
//!   and [`Redeal`], which draws those worlds.
//! - [`pick`]: combination moves (the cards to discard) listed as one choice to fill step by
//!   step.
//! - [`sample`]: builds random instances of the JSON Schemas that parameterised legal actions
//!   carry, so a random bot can play every game from `legal_actions` alone.
//!
//! Architecture invariant: no I/O, no async, no clock, no global RNG, here or in any game.
//! A game replays exactly from (seed, options, seats, actions).

pub mod action_schema;
pub mod adapter;
mod game;
pub mod pick;
mod rng;
pub mod sample;
pub mod search;
mod seat;
pub mod testing;
pub mod words;

pub use action_schema::{action_object, closed_object, seat_choice, with_unstated_rule};
pub use adapter::{Dealt, DynGame, DynRuleset, Erased, Registry};
pub use game::*;
pub use rng::GameRng;
pub use search::Redeal;
pub use seat::{Seat, SeatSet, Viewer, MAX_SEATS};
