//! The closed set of rule codes the API publishes for this game: every code the error type can
//! answer, listed by `RuleError::all_codes`. The error type implements `RuleError` with
//! `game_core::rule_error!`, so a variant without a code does not compile and the list is
//! complete by construction; the playouts check every refusal they meet against it too.

use game_core::testing::check_rule_codes;
use game_core::{DynRuleset, Erased, Game, RuleKind};
use game_tulip_traders::TulipTraders;

#[test]
fn rule_codes_are_a_closed_kebab_case_set() {
    let codes = check_rule_codes::<<TulipTraders as Game>::Error>();
    assert_eq!(codes.len(), 27, "{codes:?}");
    assert!(codes.contains(&("game-over", RuleKind::GameOver)));
    assert!(codes.contains(&("not-your-turn", RuleKind::Turn)));
    assert_eq!(Erased::<TulipTraders>::default().rule_codes(), codes);
}
