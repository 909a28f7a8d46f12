//! Tulip Bubble (Kouyou, Moaideas Game Design, English 1st edition 2017, rules revision
//! 4.0.1) for 3–5 players, as a pure rules crate implementing [`game_core::Game`].
//!
//! The rules implemented are `docs/rules/tulip-bubble.md` (the design spec is
//! `rules/tulip-bubble.md` of the design kit); section numbers (§3.5) and decisions (D-12)
//! in comments refer to that spec.
//!
//! # Layout
//! - `lib.rs`: this documentation, the modules and the re-exports.
//! - `game`: the `Game` and `testing::Redeal` impls, each method a rule of a few lines or a
//!   call of the function of the same name in its role's file.
//! - [`options`]: the [`Options`] of §7.
//! - [`state`]: the full state [`TulipBubble`] and its phase machine [`Phase`].
//! - `setup`: the deal (`setup`, §1.7) in the RNG order of §5.1.
//! - [`action`]: the [`Action`] and its [`PaymentMethod`].
//! - [`event`]: the log's [`Event`].
//! - [`error`]: the rule [`Error`] and its codes (§4.11).
//! - `rules`: `check` (the single source of legality) and `apply` with every effect, plus
//!   the automatic steps (resolution, premium, Cleanup, Event phase, game end).
//! - `legal`: `legal_actions` in the order of §4.12.
//! - [`view`]: the per-viewer [`View`] and `view`.
//! - [`words`]: the summary and the log's sentences.
//! - `sensible`: what the bots call a sensible move (a bid within the lot's worth).
//! - [`greedy`]: a plain greedy player, the game's `plan` for the searching bots.
//! - [`cards`]: tulips, price chart, collectors and market events (ids, const tables).
//! - [`track`]: price-marker movement with collisions and boundaries, Market Response.
//!
//! # Architecture invariant
//! No I/O, clock or RNG state: all randomness comes from the `GameRng` passed to `setup`
//! and `apply`, so a game replays exactly from (seed, options, seats, actions). `apply`
//! calls `check` first and mutates only after it passed, so a refused action changes
//! nothing.
//!
//! # Building positions in tests
//! Every field of [`TulipBubble`] is public and documented so that scenario tests can set
//! up any position (deal with `setup`, then overwrite areas, players, track and phase).
//! Such states must keep the invariants of spec §10 for the rules to hold.
//!
//! # Glossary
//! - *Concealed*: behind a player's screen (private, even the count).
//! - *Financed*: bought with a loan; face up and holding one of the owner's bid markers.
//! - *NS / NA / JS*: the Next Shipment, New Arrivals and Just Sold areas.
//! - *Premium*: what the other bidders get when an auction beats the market price.

pub mod action;
pub mod cards;
pub mod error;
pub mod event;
mod game;
pub mod greedy;
mod legal;
pub mod options;
mod rules;
mod sensible;
mod setup;
pub mod state;
pub mod track;
pub mod view;
pub mod words;

pub use action::{Action, PaymentMethod};
pub use cards::{
    CardId, Collector, Colour, EventCard, EventEffect, Guilders, Kind, Rank, Tulip,
    COLLECTOR_STACKS,
};
pub use error::Error;
pub use event::Event;
pub use legal::collector_sets;
pub use options::Options;
pub use setup::{event_deck, initial_track};
pub use state::{
    Auction, EndReason, HighBid, Loan, Payment, Phase, Player, Resolution, Slot, TulipBubble,
};
pub use track::Track;
pub use view::{CollectorStackView, PhaseView, PlayerView, View};
