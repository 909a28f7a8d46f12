//! Fuzzes the tulip-traders adapter: a game from the input's seed, then actions and raw JSON.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beurs_fuzz::fuzz_game("tulip-traders", data));
