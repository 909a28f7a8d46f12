//! Game options (spec §7.1). `Default` is the standard game; unknown fields are rejected.

use crate::board::{BoardOption, BottomDescent};
use serde::{Deserialize, Serialize};

/// The options chosen when a game is created.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::Options))]
pub struct Options {
    /// The market board: `"reconstructed_v1"` (default) or a replacement table,
    /// `{"spaces": [...]}`, whose spaces must form a valid board.
    pub board: BoardOption,
    /// The seat that starts (`0..n-1`); `null` draws it at random during setup.
    pub first_player: Option<u8>,
    /// What happens to an action card that is not legal for its player.
    pub illegal_card_policy: IllegalCardPolicy,
    /// Which idle turns end the game by "all players decline".
    pub idle_round_rule: IdleRoundRule,
    /// Where a burst descent goes from the bottom row.
    pub bottom_descent: BottomDescent,
    /// End the game (liquidating every tulip) once this many turns are complete; `null` = no
    /// cap. Must be at least 1.
    pub max_turns: Option<u32>,
    /// How equal cash is ranked at the end.
    pub cash_tie: CashTie,
}

/// What happens to an action card that is not legal for the sale.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::IllegalCardPolicy))]
pub enum IllegalCardPolicy {
    /// Any card may be committed; an illegal card that would win becomes a public pass and
    /// the winner is found again (the rulebook).
    #[default]
    ReplaceAndReassess,
    /// An illegal card is refused with `illegal-card` when it is committed or played.
    RejectOnCommit,
}

/// Which run of idle turns ends the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::IdleRoundRule))]
pub enum IdleRoundRule {
    /// Any `n` consecutive idle turns.
    #[default]
    Sliding,
    /// At least `n` consecutive idle turns, counted when the current player card returns to
    /// the first player (a whole round from the first player was idle).
    Anchored,
}

/// How equal final cash is ranked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = tulipmania::CashTie))]
pub enum CashTie {
    /// Equal cash shares the rank; everyone tied for first wins.
    #[default]
    Shared,
}
