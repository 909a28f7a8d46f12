//! Tulip Traders as a pure rules crate: a growing market grid with booms and crises, sealed
//! lots sold down a chain of players, accusations with fines and market disruption,
//! liquidation and bankruptcy, and complete-portfolio scoring.
//!
//! The rules are `/work/shared/rules/tulip-traders.md` (cited as §n, decisions as D-nn);
//! `docs/rules/tulip-traders.md` restates them as implemented.
//!
//! Layout (the skeleton every rules crate shares; `docs/game-crate-guide.md`):
//! - `game`: `impl Game` and `impl Redeal`: constants, associated types, and every trait
//!   method, each the rule itself or a call of the same-named function below;
//! - [`options`]: every configurable decision (§7.2);
//! - [`state`]: the state (the `Game` type), phases, derived values (`mv`, `cap`, `E`, ord);
//! - [`setup`]: the deal (§1.8) and the re-deal of what a viewer cannot see (`redeal`);
//! - [`action`]: the actions (§4.1);
//! - [`event`]: the log events (§2.5) and `private_pair`;
//! - [`error`]: the rule errors and their codes;
//! - [`rules`]: `check` (the single legality test) and `apply` (effect, automatic steps,
//!   forced actions);
//! - [`legal`]: what a seat may do now, `legal_actions`;
//! - [`view`]: `View` and `view`, per-viewer views (§2.4);
//! - `words`: the summary and the log's sentences;
//! - concept files: [`cards`] (card and cell ids, types, colours, `shares`), `rounds` (the
//!   round machine: Phases 1–4, 6, automatic steps), `market` (grid growth, booms, crisis
//!   moves, investment, disruption), `lots` (the Phase 5 chain, settlement, liquidation,
//!   bankruptcy), [`scoring`] (patterns, scores, ranking, the outcome) and [`greedy`] (a
//!   greedy player for measurements and tests);
//! - [`scenario`]: helpers for building arbitrary positions in tests.
//!
//! Architecture invariant: no I/O, no clock, no RNG other than the `GameRng` passed in; the
//! state holds no RNG. `check` is the only legality test: `apply` runs it before mutating.
//!
//! Glossary: fp = first player; ord = survivors from fp going left; RV/RC = ripple value and
//! cost of the round; mv = market value; cap = purse + mv of held tulips; E(s) = eligible
//! buyers of seller s.

pub mod action;
pub mod cards;
pub mod error;
pub mod event;
mod game;
pub mod greedy;
pub mod legal;
mod lots;
mod market;
pub mod options;
mod rounds;
pub mod rules;
pub mod scenario;
pub mod scoring;
pub mod setup;
pub mod state;
pub mod view;
mod words;

pub use action::Action;
pub use cards::{Card, Cell};
pub use error::Error;
pub use event::Event;
pub use lots::MAX_DECLARED;
pub use market::Side;
pub use options::Options;
pub use state::{Phase, TulipTraders};
pub use view::View;
