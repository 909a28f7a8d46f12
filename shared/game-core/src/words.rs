//! Sentences for the log: every ruleset says in words what its actions and events mean
//! ("Anna bids ƒ300 for the red tulip"), so any client can show a readable log without
//! knowing the game.
//!
//! A sentence is built from what the reader may see: the API describes the projected event
//! (a redacted twin, not the private event) and only actions the reader may read, so a
//! sentence never says more than the JSON beside it.

use crate::Seat;

/// The players' names, by seat, for sentences. A seat without a name is "Seat N" (1-based,
/// as players count).
#[derive(Clone, Copy, Debug)]
pub struct Names<'a> {
    names: &'a [Option<String>],
}

impl<'a> Names<'a> {
    /// Names by seat index; `None` for a seat not yet claimed.
    pub fn new(names: &'a [Option<String>]) -> Self {
        Names { names }
    }

    /// The name of `seat`, or "Seat N" when it has none.
    pub fn seat(&self, seat: Seat) -> String {
        match self.names.get(seat.index()) {
            Some(Some(name)) if !name.trim().is_empty() => name.clone(),
            _ => format!("Seat {}", seat.index() + 1),
        }
    }

    /// The names of `seats`, joined as a list reads: "Anna", "Anna and Ben",
    /// "Anna, Ben and Cas".
    pub fn list(&self, seats: impl IntoIterator<Item = Seat>) -> String {
        let names: Vec<String> = seats.into_iter().map(|seat| self.seat(seat)).collect();
        join_words(&names)
    }
}

/// Joins words as a list reads: "a", "a and b", "a, b and c"; "nobody" when empty.
pub fn join_words(words: &[String]) -> String {
    match words {
        [] => "nobody".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// `count` things, in the singular for one: `plural(1, "die", "dice")` is "1 die",
/// `plural(3, "die", "dice")` is "3 dice".
pub fn plural(count: impl Into<u64>, one: &str, many: &str) -> String {
    let count = count.into();
    if count == 1 {
        format!("1 {one}")
    } else {
        format!("{count} {many}")
    }
}

/// A place in a ranking: "1st", "2nd", "3rd", "4th", "11th", "21st".
pub fn ordinal(place: impl Into<u64>) -> String {
    let place = place.into();
    let suffix = match (place % 10, place % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// Money in guilders as the games print it: `ƒ250`.
pub fn guilders(amount: impl std::fmt::Display) -> String {
    format!("ƒ{amount}")
}

/// Checks that `sentence` reads as words for a player: not empty, no JSON or Rust debug
/// syntax (`{`, `}`, `[`, `]`, `"`), no snake_case identifiers (`_`), no `None`/`Some(`.
/// Panics with the sentence and `what` produced it. The playout harness applies it to every
/// action and event met.
pub fn check_sentence(sentence: &str, what: &dyn std::fmt::Debug) {
    let bad = sentence.trim().is_empty()
        || sentence.contains(['{', '}', '[', ']', '"', '_'])
        || sentence.contains("None")
        || sentence.contains("Some(");
    assert!(
        !bad,
        "the sentence {sentence:?} for {what:?} is not plain words"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unnamed_seats_are_counted_from_one() {
        let names = [Some("Anna".to_string()), None, Some("  ".to_string())];
        let names = Names::new(&names);
        assert_eq!(names.seat(Seat(0)), "Anna");
        assert_eq!(names.seat(Seat(1)), "Seat 2");
        assert_eq!(names.seat(Seat(2)), "Seat 3");
        assert_eq!(names.seat(Seat(7)), "Seat 8");
    }

    #[test]
    fn lists_read_like_english() {
        let names = [Some("Anna".to_string()), Some("Ben".to_string()), None];
        let names = Names::new(&names);
        assert_eq!(names.list([]), "nobody");
        assert_eq!(names.list([Seat(1)]), "Ben");
        assert_eq!(names.list([Seat(0), Seat(1)]), "Anna and Ben");
        assert_eq!(
            names.list([Seat(0), Seat(1), Seat(2)]),
            "Anna, Ben and Seat 3"
        );
    }

    #[test]
    #[should_panic(expected = "is not plain words")]
    fn debug_output_is_not_a_sentence() {
        check_sentence("PlayCard { card: 3 }", &"an action");
    }

    #[test]
    #[should_panic(expected = "is not plain words")]
    fn snake_case_is_not_a_sentence() {
        check_sentence("Anna did place_bid", &"an action");
    }

    #[test]
    fn counts_and_places_read_like_english() {
        assert_eq!(plural(1u8, "die", "dice"), "1 die");
        assert_eq!(plural(0u8, "die", "dice"), "0 dice");
        assert_eq!(plural(3u32, "token", "tokens"), "3 tokens");
        let places: Vec<String> = [1u8, 2, 3, 4, 11, 12, 13, 21, 22, 101]
            .map(ordinal)
            .to_vec();
        assert_eq!(
            places,
            ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st"]
        );
    }

    #[test]
    fn a_sentence_passes() {
        check_sentence("Anna bids ƒ300 for the red tulip.", &"an action");
    }
}
