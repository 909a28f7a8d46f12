//! Fuzzes the HTTP router: arbitrary method, path, headers and body into the whole app (`api::edge::app`).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| beurs_fuzz::fuzz_http(data));
