//! Tulpenfieber (Uwe Rosenberg, AMIGO) as a pure rules crate for Beurs: 1–4 players race to
//! fill their tulip fields with dice combinations; the solo game is three rounds scored by
//! the tiles used. The rules implemented are `/work/shared/rules/tulpenfieber.md` (draft v1);
//! section numbers (§) and decisions (D) in comments refer to it, and
//! `docs/rules/tulpenfieber.md` restates them with every decision taken.
//!
//! Layout (the skeleton every rules crate shares; `docs/game-crate-guide.md`):
//! - [`game`]: `impl Game` and `impl Redeal`: constants, associated types, and every trait
//!   method, each the rule itself or a call of the same-named function below;
//! - [`options`]: the options of §7.2, including the reconstructed requirement grid and
//!   flower spaces as replaceable data;
//! - [`state`]: the state model of §2 (all fields public), its phases and their names;
//! - [`setup`]: the deal (§1.4, §1.5);
//! - [`action`]: the actions (§4);
//! - [`event`]: the events and the types only they use;
//! - [`error`]: the errors and their codes;
//! - `rules`: the turn state machine: `check` (the single source of legality) and `apply`;
//! - [`legal`]: `legal_actions` and `canonical_legal_actions`;
//! - [`view`]: `View` and `view`, the view every viewer gets;
//! - `words`: the summary and the log's sentences;
//! - concept files: [`board`] (spaces, tiles, the field, lines and extra dice (§3.3), the
//!   instant-win predicate (§6.1)) and [`dice`] (dice matching, §1.2);
//! - [`scenario`]: helpers to build positions for tests and tools.
//!
//! Architecture invariant: `Tulpenfieber::check` is the only place that decides legality;
//! `apply` calls it before any mutation, and `legal_actions` filters candidates through it.
//! All information is public; the only randomness is dice, drawn from the `GameRng` passed
//! to `apply`, one `roll_d6` per rolled die in ascending die order (§5).
//!
//! Glossary: *flower space* = starting space; *wheelbarrow* = bonus tile, whose die
//! (*wheelbarrow die*) is set to a chosen face at turn start; *above* = tiles placed above
//! the field when the dice match no empty space; seats are 0-based (the spec's seat k is
//! seat k−1).

pub mod action;
pub mod board;
pub mod dice;
pub mod error;
pub mod event;
pub mod game;
pub mod legal;
pub mod options;
mod rules;
pub mod scenario;
pub mod setup;
pub mod state;
pub mod view;
mod words;

pub use action::Action;
pub use board::{Cell, Field, Side, Space, Tile, TileKind, WinCondition};
pub use dice::DiceSummary;
pub use error::Error;
pub use event::{Event, RolledDie};
pub use options::{AbovePlacement, Board, Options, StartSpaces};
pub use state::{
    phase_name, BonusTile, Die, GameResult, Phase, Player, Solo, SoloTier, TileRef, Tulpenfieber,
    Turn,
};
pub use view::{PlayerView, View};
