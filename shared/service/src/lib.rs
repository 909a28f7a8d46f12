//! The Beurs game service (DESIGN.md §3–§6): everything but HTTP.
//!
//! Layout:
//! - [`game`]: the commit loop ([`game::update`]) and the changes it commits: moves, undos,
//!   pauses and vacations, seats, with the notifications each causes.
//! - [`log`]: the typed log ([`log::Entry`]) and the one replayer; [`seed`] and [`audit`]:
//!   the committed seed, the audit document and its offline verification; [`history`]: what
//!   the log tells a reader (a page of it, the audit, the game after an entry).
//! - [`moves`], [`seats`] and [`rematch`]: a seat's move, who sits where, a rematch (and the
//!   bots that move after each).
//! - [`bots`], [`clock`], [`deadlines`]: who else moves, and when a seat's time runs out.
//! - [`subscriptions`], [`delivery`] and [`webhooks`]: a game's webhook subscriptions, the
//!   outbox and signed webhook delivery.
//! - [`dto`]: the typed results the service answers with (views, listings, log entries,
//!   notifications); [`error`]: its one error type, with stable codes and no HTTP statuses.
//! - [`ctx`]: what every request and worker needs, built once per process.
//!
//! Architecture invariant: nothing here knows HTTP (the `api` crate maps the service to
//! routes and problems). It never hands an engine state to a client: clients get
//! `view(viewer)` and projected events only, and the seed and secret appear only in the
//! audit of a finished game.

pub mod allowance;
pub mod apps;
pub mod audit;
pub mod auth;
pub mod bots;
pub mod catalog;
pub mod clock;
pub mod ctx;
pub mod deadlines;
pub mod delivery;
pub mod dice;
pub mod dto;
#[cfg(feature = "dynamo")]
mod env;
pub mod error;
pub mod game;
pub mod history;
pub mod log;
pub mod me;
pub mod moves;
pub mod players;
pub mod rematch;
pub mod seats;
pub mod seed;
pub mod states;
pub mod streams;
pub mod subscriptions;
pub mod time;
pub mod webhooks;

pub use catalog::registry;
pub use ctx::AppCtx;
#[cfg(feature = "dynamo")]
pub use env::EnvError;
pub use error::{Code, Error};
