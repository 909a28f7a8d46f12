//! Every OpenAPI component of this game is named `tulip_traders.*`, so names stay unique across
//! the games the API serves (only with the `openapi` feature, which the API enables).
#![cfg(feature = "openapi")]

#[test]
fn schema_names_are_prefixed() {
    game_core::testing::assert_schema_names_prefixed::<game_tulip_traders::TulipTraders>(
        "tulip_traders",
        "tulip_traders.Card",
    );
}
