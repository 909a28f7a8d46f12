//! The game log: what an entry is, how it is stored, and the one way a move is played from it.
//!
//! An entry's action is a game's move, or one of the API's own entries ([`OwnEntry`]): the
//! undo move, and the notes a pause, a resume or a vacation leave (they change no state and
//! draw nothing). [`Entry::of`] tells them apart, once; no other module reads an action's
//! `type` to decide. A move draws from the random stream of its place among the moves still
//! standing ([`Place::stream`]): the live path ([`crate::game`]) and the [`Replayer`] (history,
//! `beurs verify`) both play a move with [`play_move`], so they cannot disagree on a draw.

use game_core::adapter::{ActionError, Applied, LoggedJson};
use game_core::{DynGame, GameRng, Seat, Visibility};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The most moves a seat may take back in a row; older ones are forgotten. Each is a copy of
/// the state kept in the record, which every move rewrites (and DynamoDB bills by the
/// kilobyte and caps at 400 KB): three keep the record at most four states long.
pub const MAX_TAKEBACKS: usize = 3;

/// The API's own log entries, as logged: `{"type": "undo", "move": k}`, `{"type": "pause"}`,
/// `{"type": "resume"}`, `{"type": "vacation", "on": …, "ran_out": …}`. No ruleset has an
/// action of these types (a test checks).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum OwnEntry {
    /// A seat takes its last move back. `taken` is the entry it takes back (logged; a client's
    /// request has none).
    Undo {
        /// The `seq` of the move taken back.
        #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
        taken: Option<u64>,
    },
    /// The admin stops every clock.
    Pause,
    /// The admin starts them again.
    Resume,
    /// A seat goes on vacation (`on`) or comes back (`ran_out`: its allowance ran out).
    Vacation {
        /// Going (true) or back (false).
        on: bool,
        /// On coming back: whether the allowance ran out (the deadline worker ended it).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ran_out: Option<bool>,
    },
}

impl OwnEntry {
    /// The `type` of each own entry.
    pub const TYPES: [&'static str; 4] = ["undo", "pause", "resume", "vacation"];

    /// Whether it is a note (time stood still or ran again) rather than an undo.
    pub fn is_note(self) -> bool {
        !matches!(self, OwnEntry::Undo { .. })
    }

    /// The entry as logged.
    pub fn action(self) -> Value {
        serde_json::to_value(self).expect("an own entry serializes")
    }
}

/// A logged action, parsed once.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Entry<'a> {
    /// A move of the game (the deal's entry is `null`).
    Move(&'a Value),
    /// One of the API's own entries.
    Own(OwnEntry),
}

impl<'a> Entry<'a> {
    /// What `action` is: an own entry if it parses as one, else a game's move.
    pub fn of(action: &'a Value) -> Entry<'a> {
        let tagged = action
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|kind| OwnEntry::TYPES.contains(&kind));
        match tagged.then(|| OwnEntry::deserialize(action)) {
            Some(Ok(own)) => Entry::Own(own),
            _ => Entry::Move(action),
        }
    }

    /// Whether it is a note.
    pub fn is_note(&self) -> bool {
        self.note().is_some()
    }

    /// The note it is, if it is one.
    pub fn note(&self) -> Option<OwnEntry> {
        match *self {
            Entry::Own(own) if own.is_note() => Some(own),
            _ => None,
        }
    }

    /// Whether it is the undo move.
    pub fn is_undo(&self) -> bool {
        matches!(self, Entry::Own(OwnEntry::Undo { .. }))
    }
}

/// Where an entry stands in the log: its `seq`, and how many notes and undos came before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Place {
    /// The entry's `seq`.
    pub seq: u64,
    /// Notes before it.
    pub notes: u64,
    /// Undos before it.
    pub undone: u64,
}

impl Place {
    /// The random stream of the entry: its place among the moves still standing. Notes are
    /// left out, and each undo takes one move away and adds one entry, so the stream is
    /// `seq - notes - 2 × undone`; it equals `seq` in a game without notes or undos, and a
    /// move made after an undo draws exactly what it would have drawn had the undone move
    /// never been made.
    pub fn stream(self) -> u64 {
        self.seq
            .saturating_sub(self.notes)
            .saturating_sub(2 * self.undone)
    }
}

/// Plays `action` by `seat` on `game`, the move at `place` of a game dealt by `seed`, drawing
/// from its stream. The live path and the [`Replayer`] both play moves here.
pub fn play_move(
    game: &mut dyn DynGame,
    seed: [u8; 32],
    place: Place,
    seat: u8,
    action: &Value,
) -> Result<Applied, ActionError> {
    let mut rng = GameRng::for_entry(seed, place.stream());
    game.apply_json(Seat(seat), action, &mut rng)
}

/// The hash recorded after every log entry: SHA-256 (hex) of the state's JSON.
pub fn state_hash(state_json: &str) -> String {
    crate::auth::sha256_hex(state_json.as_bytes())
}

/// The stored form of an entry's action: the action and who may read it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StoredAction {
    /// The action (`null` for the setup entry).
    pub action: Value,
    /// Who may read it.
    pub visibility: Visibility,
    /// Who chose the move when it was not the seat's player: a bot, or the clock (a timeout).
    /// Entries written before this field existed have none: their player chose.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<crate::dto::Author>,
}

/// The stored events of an entry, parsed.
pub fn stored_events(events: &Value) -> Vec<LoggedJson> {
    serde_json::from_value(events.clone()).unwrap_or_default()
}

/// A game played forward from its log as the server played it: each move with the random
/// stream of its place among the moves still standing, each undo by returning to the state
/// before the move it takes back (docs/api.md, "Undo"). It keeps every move that may be taken
/// back as the server does, and refuses an undo the server could not have accepted.
pub struct Replayer {
    game: Box<dyn DynGame>,
    seed: [u8; 32],
    seq: u64,
    undone: u64,
    notes: u64,
    takebacks: Vec<(u64, u8, Box<dyn DynGame>)>,
}

impl Replayer {
    /// A replay of the game `game` was dealt as, by `seed` (after entry 0).
    pub fn new(game: Box<dyn DynGame>, seed: [u8; 32]) -> Replayer {
        Replayer {
            game,
            seed,
            seq: 0,
            undone: 0,
            notes: 0,
            takebacks: Vec::new(),
        }
    }

    /// The game after the entries replayed so far.
    pub fn game(&self) -> &dyn DynGame {
        self.game.as_ref()
    }

    /// [`Replayer::entry`] of a seat's entry.
    pub fn step(&mut self, seat: u8, action: &Value) -> Result<Vec<LoggedJson>, String> {
        self.entry(Some(seat), action)
    }

    /// Replays the next log entry, `action` by `seat` (none for the admin's notes, a pause or
    /// a resume): the events it caused (none for an undo or a note), or why it does not
    /// replay.
    pub fn entry(&mut self, seat: Option<u8>, action: &Value) -> Result<Vec<LoggedJson>, String> {
        let seq = self.seq + 1;
        let seat = match (Entry::of(action), seat) {
            (Entry::Own(own), _) if own.is_note() => {
                // A pause or a vacation: time stood still, nothing in the game changed.
                self.notes += 1;
                self.seq = seq;
                return Ok(Vec::new());
            }
            (_, None) => return Err("an action entry has no seat".into()),
            (Entry::Own(OwnEntry::Undo { taken }), Some(seat)) => {
                let Some((move_seq, mover, before)) = self.takebacks.pop() else {
                    return Err("an undo, with no move that could be taken back".into());
                };
                if mover != seat || Some(move_seq) != taken {
                    return Err(format!(
                        "an undo of move {taken:?} by seat {seat}, where the move that could be \
                         taken back was {move_seq} by seat {mover}"
                    ));
                }
                self.game = before;
                self.undone += 1;
                self.seq = seq;
                return Ok(Vec::new());
            }
            (_, Some(seat)) => seat,
        };
        let before = self.game.clone_box();
        let place = Place {
            seq,
            notes: self.notes,
            undone: self.undone,
        };
        let applied = play_move(self.game.as_mut(), self.seed, place, seat, action)
            .map_err(|error| format!("the action is refused: {error}"))?;
        // As the server keeps them (game::undo::after_move), except that the audit does not
        // say who chose a move: a bot's or the clock's move that could be taken back is kept
        // too. The server's list is then a tail of this one, so every undo it accepted pops
        // the same move here.
        if !applied.undoable || self.takebacks.last().is_some_and(|last| last.1 != seat) {
            self.takebacks.clear();
        }
        if applied.undoable {
            if self.takebacks.len() == MAX_TAKEBACKS {
                self.takebacks.remove(0);
            }
            self.takebacks.push((seq, seat, before));
        }
        self.seq = seq;
        Ok(applied.events)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_entry_is_parsed_once_into_its_kind() {
        let roll = json!({"type": "roll"});
        assert_eq!(Entry::of(&roll), Entry::Move(&roll));
        assert_eq!(Entry::of(&Value::Null), Entry::Move(&Value::Null));
        let undo = json!({"type": "undo", "move": 4});
        assert_eq!(
            Entry::of(&undo),
            Entry::Own(OwnEntry::Undo { taken: Some(4) })
        );
        assert!(Entry::of(&json!({"type": "undo"})).is_undo());
        assert!(Entry::of(&json!({"type": "pause"})).is_note());
        assert!(Entry::of(&json!({"type": "vacation", "on": true})).is_note());
        assert!(!Entry::of(&undo).is_note());
        // A malformed own entry is no own entry (the engine refuses it as a move).
        let broken = json!({"type": "vacation"});
        assert_eq!(Entry::of(&broken), Entry::Move(&broken));
    }

    #[test]
    fn own_entries_are_logged_as_before() {
        let logged = [
            (
                OwnEntry::Undo { taken: Some(3) },
                json!({"type": "undo", "move": 3}),
            ),
            (OwnEntry::Pause, json!({"type": "pause"})),
            (OwnEntry::Resume, json!({"type": "resume"})),
            (
                OwnEntry::Vacation {
                    on: true,
                    ran_out: None,
                },
                json!({"type": "vacation", "on": true}),
            ),
            (
                OwnEntry::Vacation {
                    on: false,
                    ran_out: Some(true),
                },
                json!({"type": "vacation", "on": false, "ran_out": true}),
            ),
        ];
        for (entry, json) in logged {
            assert_eq!(entry.action(), json);
            assert_eq!(Entry::of(&json), Entry::Own(entry));
        }
    }

    #[test]
    fn no_ruleset_has_an_action_of_an_own_entrys_type() {
        for ruleset in crate::catalog::registry().iter() {
            for kind in OwnEntry::TYPES {
                assert!(
                    !ruleset.action_types().contains(&kind),
                    "{} has an action {kind}",
                    ruleset.id()
                );
            }
        }
    }

    #[test]
    fn the_stream_is_the_place_among_the_moves_still_standing() {
        let place = |seq, notes, undone| Place { seq, notes, undone }.stream();
        assert_eq!(place(3, 0, 0), 3);
        assert_eq!(place(6, 0, 1), 4);
        assert_eq!(place(8, 0, 2), 4);
        assert_eq!(place(6, 2, 0), 4);
        assert_eq!(place(5, 1, 1), 2);
    }
}
