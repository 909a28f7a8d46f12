//! Every OpenAPI component of this game is named `tulpenfieber.*`, so names stay unique across
//! the games the API serves (only with the `openapi` feature, which the API enables).
#![cfg(feature = "openapi")]

#[test]
fn schema_names_are_prefixed() {
    game_core::testing::assert_schema_names_prefixed::<game_tulpenfieber::Tulpenfieber>(
        "tulpenfieber",
        "tulpenfieber.Die",
    );
}
