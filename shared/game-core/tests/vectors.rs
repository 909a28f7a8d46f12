//! The randomness test vectors of docs/fairness.md ("Test vectors"), in
//! `docs/fairness-vectors.json`: for fixed seeds and streams, the first words of each stream,
//! `below(n)` draws, die faces and shuffles, in plain JSON that any language reads (64-bit
//! words as decimal strings, so that a JavaScript verifier loses no bits). This test fails if
//! the engine's draws and the committed vectors disagree; `UPDATE_VECTORS=1` writes them
//! anew (only for a new seed scheme: an old audit must replay forever).

use game_core::GameRng;
use serde_json::{json, Value};
use std::path::PathBuf;

/// The seeds: all zeros, 0x07 repeated (the unit tests' seed), and 0, 1, …, 31.
fn seeds() -> Vec<[u8; 32]> {
    let counting: [u8; 32] = std::array::from_fn(|i| i as u8);
    vec![[0u8; 32], [7u8; 32], counting]
}

/// The streams: setup (0), the first moves, and one past 32 bits.
const STREAMS: [u64; 4] = [0, 1, 7, (1 << 32) + 5];

/// The ranges `below` is drawn from: a coin, small dice and decks, and one just above 2^63,
/// where about half of all words are rejected.
const RANGES: [u64; 7] = [2, 3, 6, 7, 52, 1000, (1 << 63) + 1];

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|byte| format!("{byte:02x}")).collect()
}

fn vectors() -> Value {
    let mut cases = Vec::new();
    for seed in seeds() {
        for stream in STREAMS {
            let rng = || GameRng::for_entry(seed, stream);
            let mut words = rng();
            let words: Vec<String> = (0..8).map(|_| words.next_u64().to_string()).collect();
            let below: Vec<Value> = RANGES
                .iter()
                .map(|&n| {
                    let mut draws = rng();
                    let draws: Vec<String> = (0..8).map(|_| draws.below(n).to_string()).collect();
                    json!({"n": n.to_string(), "draws": draws})
                })
                .collect();
            let mut dice = rng();
            let dice: Vec<u8> = (0..12).map(|_| dice.roll_d6()).collect();
            let shuffles: Vec<Value> = [10usize, 52]
                .iter()
                .map(|&len| {
                    let mut items: Vec<usize> = (0..len).collect();
                    rng().shuffle(&mut items);
                    json!({"len": len, "order": items})
                })
                .collect();
            cases.push(json!({
                "seed": hex(&seed),
                "stream": stream.to_string(),
                "first_words": words,
                "below": below,
                "roll_d6": dice,
                "shuffle": shuffles,
            }));
        }
    }
    json!({
        "description": "Beurs randomness test vectors (docs/fairness.md): each case draws from a fresh stream of ChaCha20 keyed by `seed` with stream id `stream`. first_words: the first eight 64-bit outputs. below: eight draws of below(n) each, from a fresh stream per n. roll_d6: twelve faces from one fresh stream. shuffle: Fisher-Yates of [0, len) from a fresh stream per len. 64-bit numbers are decimal strings.",
        "cases": cases,
    })
}

#[test]
fn the_engine_draws_what_the_committed_vectors_say() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/fairness-vectors.json");
    let generated = serde_json::to_string_pretty(&vectors()).expect("vectors serialize") + "\n";
    if std::env::var("UPDATE_VECTORS").is_ok_and(|value| value == "1") {
        std::fs::write(&path, &generated).expect("write docs/fairness-vectors.json");
    }
    let committed = std::fs::read_to_string(&path).expect("docs/fairness-vectors.json");
    let committed: Value = serde_json::from_str(&committed).expect("the vectors are JSON");
    assert_eq!(
        committed,
        vectors(),
        "the engine's draws differ from docs/fairness-vectors.json: an old audit would no longer replay"
    );
}

#[test]
fn the_vectors_agree_with_the_pinned_unit_values() {
    // The unit tests pin seed 0x07: the vectors must say the same of it.
    let vectors = vectors();
    let case = vectors["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .find(|case| case["seed"] == hex(&[7u8; 32]) && case["stream"] == "0")
        .expect("the 0x07 case of stream 0");
    assert_eq!(case["first_words"][0], "4753173749397848308");
    assert_eq!(case["first_words"][1], "8104706558872646932");
}
