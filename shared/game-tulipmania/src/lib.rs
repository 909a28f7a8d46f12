//! Tulipmania 1637 (Scott Nicholson, JKLM Games, 2009) for 3–5 players, as a pure rules
//! crate implementing [`game_core::Game`] with ruleset id `tulipmania-1637`.
//!
//! The rules implemented are those of the spec `rules/tulipmania.md` (section numbers in
//! comments refer to it); `docs/rules/tulipmania.md` restates them with every decision.
//!
//! Layout (the skeleton every rules crate shares; `docs/game-crate-guide.md`):
//! - [`game`]: `impl Game` and `impl Redeal`: constants, associated types, and every trait
//!   method, each the rule itself or a call of the same-named function below;
//! - [`options`]: the options of spec §7.1;
//! - [`state`]: the full state, its quiescent phases and why the game ended;
//! - [`setup`]: the deal (spec §1.3, §5) and the re-deal of hidden cards (`redeal`);
//! - [`action`]: the actions (spec §4.0);
//! - [`event`]: the events and the types only they use (spec §4.0);
//! - [`error`]: the error codes (spec §4.0);
//! - [`rules`]: `check` (the single source of legality) and `apply`, the state machine
//!   (spec §3–§4);
//! - [`legal`]: what a seat may do now, `legal_actions`;
//! - [`view`]: `View` and `view`, what one viewer may see (spec §2);
//! - [`words`]: the summary and the log's sentences;
//! - concept files: [`pieces`] (colours, action cards, counts, money, discard reasons) and
//!   [`board`] (the market board as data: the reconstructed default table, the validation
//!   of replacement tables and the bottom-row descent, spec §1.5);
//! - [`scenario`]: the test-table conventions of spec §8 for building positions.
//!
//! Architecture invariant: no I/O, no clock, no randomness outside setup (which draws only
//! from the `GameRng` it is given); the state is plain data, so a game replays exactly from
//! its seed, options and accepted actions.
//!
//! Glossary: a *buyer* card is the rulebook's buyer card (a right to buy by proxy); a
//! *marker* is the tulip that marks a colour's price on the board; the *stock* is the
//! stockpile; the *seller* is the current player during his sale; a colour is *live* until it
//! bursts.

pub mod action;
pub mod board;
pub mod error;
pub mod event;
pub mod game;
pub mod legal;
pub mod options;
pub mod pieces;
pub mod rules;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod view;
pub mod words;

pub use action::Action;
pub use board::{Board, BoardName, BoardOption, BottomDescent, SpaceKind, SpaceSpec};
pub use error::Error;
pub use event::Event;
pub use options::{CashTie, IdleRoundRule, IllegalCardPolicy, Options};
pub use pieces::{Card, Colour, Florins};
pub use state::{EndReason, Phase, Tulipmania};
pub use view::View;
