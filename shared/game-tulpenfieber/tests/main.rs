//! Every integration test of this crate, in one binary (one link instead of one per file;
//! docs/testing.md). Each module is one file of tests/.

mod openapi_names;
mod playouts;
mod rule_codes;
mod rulebook;
mod setup_pin;
mod words;
