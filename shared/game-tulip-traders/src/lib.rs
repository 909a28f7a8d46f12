//! Tulip Traders as a pure rules crate: a growing market grid with booms and crises, sealed
//! lots sold down a chain of players, accusations with fines and market disruption,
//! liquidation and bankruptcy, and complete-portfolio scoring.
//!
//! The rules are `/work/shared/rules/tulip-traders.md` (cited as §n, decisions as D-nn);
//! `docs/rules/tulip-traders.md` restates them as implemented.
//!
//! Layout:
//! - [`cards`]: card and cell ids, types, colours, `shares`;
//! - [`options`]: every configurable decision (§7.2);
//! - [`state`]: the state (the `Game` type), phases, derived values (`mv`, `cap`, `E`, ord);
//! - `rounds`: setup and the round machine (Phases 1–4, 6, automatic steps);
//! - `market`: grid growth, booms, crisis moves, investment, disruption;
//! - `lots`: the Phase 5 chain, settlement, liquidation, bankruptcy;
//! - [`scoring`]: patterns, scores, ranking;
//! - [`actions`]: the actions, the single legality check and `legal_actions`;
//! - [`events`], [`error`], [`view`]: log events, rule errors, per-viewer views;
//! - [`scenario`]: helpers for building arbitrary positions in tests.
//!
//! Architecture invariant: no I/O, no clock, no RNG other than the `GameRng` passed in; the
//! state holds no RNG. `check` is the only legality test: `apply` runs it before mutating.
//!
//! Glossary: fp = first player; ord = survivors from fp going left; RV/RC = ripple value and
//! cost of the round; mv = market value; cap = purse + mv of held tulips; E(s) = eligible
//! buyers of seller s.

pub mod actions;
pub mod cards;
pub mod error;
pub mod events;
mod game;
pub mod greedy;
mod lots;
mod market;
pub mod options;
mod rounds;
pub mod scenario;
pub mod scoring;
pub mod state;
pub mod view;
mod words;

pub use actions::Action;
pub use cards::{Card, Cell};
pub use error::TulipError;
pub use events::Event;
pub use lots::MAX_DECLARED;
pub use market::Side;
pub use options::Options;
pub use state::{Phase, TulipTraders};
pub use view::TulipView;
