//! Fuzzes the tulipmania-1637 adapter: a game from the input's seed, then actions and raw JSON.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beurs_fuzz::fuzz_game("tulipmania-1637", data));
