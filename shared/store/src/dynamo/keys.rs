//! Every DynamoDB key Beurs reads or writes, built in this one place (STYLE.md §2, §7).
//!
//! # Access patterns
//!
//! One table, generic key names (`PK`, `SK`, `GSI1PK`, ...) with typed prefixes, so that all of
//! a game's items form one item collection (DESIGN.md §4). Written down before the keys:
//!
//! | # | pattern | operation and key |
//! |---|---|---|
//! | 1 | load a game's record | `GetItem` `PK=GAME#<id>`, `SK=META` (consistent) |
//! | 2 | create a game unless the id is taken | `PutItem` META, `attribute_not_exists(PK)` |
//! | 3 | commit a change | one `TransactWriteItems`: `Put` META if `version = :expected`, `Put` `SK=LOG#<seq:010>` and `Put` `SK=IDEM#<seat>#<key>` if `attribute_not_exists(SK)` |
//! | 4 | read a game's log after `seq` | `Query` `PK=GAME#<id>`, `SK BETWEEN LOG#<seq+1> AND LOG#9999999999`, ascending |
//! | 5 | look up an idempotency key | `GetItem` `PK=GAME#<id>`, `SK=IDEM#<seat>#<key>` (consistent) |
//! | 6 | the lobby, every ruleset | `Query` index `GSI1`: `GSI1PK=LOBBY`, `GSI1SK > <cursor>`, ascending |
//! | 7 | the lobby of one ruleset | `Query` index `GSI2`: `GSI2PK=LOBBY#<ruleset>`, `GSI2SK > <cursor>`, ascending |
//! | 8 | forget finished games | TTL on the `expires_at` attribute (Unix seconds) |
//! | 9 | queue a notification with the move | a `Put` of `SK=OUT#<hook>#<created_at:013>#<msg>` in the commit's transaction; the table's stream carries it to `notify` |
//! | 10 | record a delivery attempt | `PutItem` of that OUT item, `attribute_exists(SK)` |
//! | 11 | a subscription's recent deliveries | `Query` `PK=GAME#<id>`, `begins_with(SK, OUT#<hook>#)`, descending |
//! | 12 | games the deadline worker must visit | `Query` index `GSI3` (keys only): `GSI3PK=DUE`, `GSI3SK <= <now:020>#~`, ascending |
//! | 13 | an app's unfinished games, and how many | `Query` index `GSI4`: `GSI4PK=APP#<app>`, `GSI4SK > <cursor>`, ascending (`Select=COUNT` for the quota) |
//! | 14 | load, create or save an app | `GetItem`/`PutItem` `PK=APPS`, `SK=APP#<id>` (`version` conditions a save) |
//! | 15 | every app | `Query` `PK=APPS` |
//! | 16 | an address's unfinished keyless games, how many | `Query` index `GSI4`: `GSI4PK=ORIGIN#<origin>`, `Select=COUNT` |
//! | 18 | load or save a player of an app | `GetItem`/`PutItem` `PK=PLAYERS#<app>`, `SK=PLAYER#<id>` (`version` conditions a save; `attribute_not_exists` a new one) |
//! | 19 | note that a player sits in a game, or forget it | `PutItem` `PK=GAME#<id>`, `SK=PLAYER#<app>#<player>` with the `GSI5` keys, or without them to forget it (deleted with the game's partition) |
//! | 20 | a player's games, newest first | `Query` index `GSI5` (keys only): `GSI5PK=PLAYER#<app>#<player>`, `GSI5SK < <cursor>`, descending; then each game's META |
//! | 17 | count an address's keyless creation in an hour | `UpdateItem` `PK=ORIGIN#<origin>`, `SK=CREATIONS#<hour:010>`: `ADD created 1` if `attribute_not_exists(created) OR created < :limit`; TTL two hours on |
//!
//! Both lobby indexes are sparse: only the META item of an open, public game carries their
//! attributes, so a game leaves them (in the same `Put`) as soon as it starts or is found to be
//! invite-only, and they stay as small as the lobby. Their sort key `<created_at:020>#<id>`
//! orders by creation time, then id, which is exactly the order of the lobby and its cursor.
//! Webhook subscriptions live inside the META item (DESIGN.md §4 reserved `SK=HOOK#<id>`; see
//! docs/decisions.md): a move must know whom to notify, and reading them with the record keeps
//! a move at one read.
//!
//! `GSI3` is sparse too: only a game with something pending (a deadline, a reminder, a bot to
//! move) carries its keys, with the sort key `<due_at:020>#<id>`. It is one partition: a
//! deployment past DynamoDB's 1,000 writes a second per partition would shard its key.
//!
//! There is no `Scan` anywhere: every pattern above is a key lookup or a `Query`.

/// The index of each app's unfinished games: its name and key attributes. Sparse like the
/// lobby: a game leaves it (in the same `Put`) when it finishes.
pub const GSI4: &str = "GSI4";
/// Partition key of [`GSI4`].
pub const GSI4PK: &str = "GSI4PK";
/// Sort key of [`GSI4`].
pub const GSI4SK: &str = "GSI4SK";

/// `APP#<app>`: an app's partition of [`GSI4`].
pub fn app_games_pk(app: &str) -> String {
    format!("APP#{app}")
}

/// `ORIGIN#<origin>`: the [`GSI4`] partition of the games created without a key from one
/// client address (by its pseudonym), and the table partition of that address's hourly
/// creation counters.
pub fn origin_pk(origin: &str) -> String {
    format!("ORIGIN#{origin}")
}

/// `CREATIONS#<hour:010>`: an address's creation counter for one clock hour (Unix hours).
pub fn creations_sk(hour: u64) -> String {
    format!("CREATIONS#{hour:010}")
}

/// The index of each player's games: its name and key attributes. Only the notes that a
/// player sits in a game carry its keys.
pub const GSI5: &str = "GSI5";
/// Partition key of [`GSI5`].
pub const GSI5PK: &str = "GSI5PK";
/// Sort key of [`GSI5`].
pub const GSI5SK: &str = "GSI5SK";

/// `PLAYERS#<app>`: the partition of an app's players.
pub fn players_pk(app: &str) -> String {
    format!("PLAYERS#{app}")
}

/// `PLAYER#<id>`: a player's record in [`players_pk`].
pub fn player_sk(id: &str) -> String {
    format!("PLAYER#{id}")
}

/// `PLAYER#<app>#<player>`: a player's partition of [`GSI5`], and the sort key of the note
/// in a game's partition that the player sits in it.
pub fn player_games_pk(app: &str, player: &str) -> String {
    format!("PLAYER#{app}#{player}")
}

/// `APPS`: the one partition of every app's record (an operator's handful of items).
pub fn apps_pk() -> &'static str {
    "APPS"
}

/// `APP#<id>`: an app's record in [`apps_pk`].
pub fn app_sk(id: &str) -> String {
    format!("APP#{id}")
}

/// The index of games that need the deadline worker: its name and key attributes.
pub const GSI3: &str = "GSI3";
/// Partition key of [`GSI3`].
pub const GSI3PK: &str = "GSI3PK";
/// Sort key of [`GSI3`].
pub const GSI3SK: &str = "GSI3SK";

/// `DUE`: the one partition of [`GSI3`].
pub fn due_pk() -> &'static str {
    "DUE"
}

/// `<due_at:020>#<id>`: the [`GSI3`] sort key, in due order. `~` sorts after every character
/// of a game id, so `due_sk(now, "~")` bounds every game due at `now`.
pub fn due_sk(due_at: u64, id: &str) -> String {
    format!("{due_at:020}#{id}")
}

/// The table's partition key attribute.
pub const PK: &str = "PK";
/// The table's sort key attribute.
pub const SK: &str = "SK";
/// The lobby index (every ruleset): its name and key attributes.
pub const GSI1: &str = "GSI1";
/// Partition key of [`GSI1`].
pub const GSI1PK: &str = "GSI1PK";
/// Sort key of [`GSI1`].
pub const GSI1SK: &str = "GSI1SK";
/// The lobby index by ruleset: its name and key attributes.
pub const GSI2: &str = "GSI2";
/// Partition key of [`GSI2`].
pub const GSI2PK: &str = "GSI2PK";
/// Sort key of [`GSI2`].
pub const GSI2SK: &str = "GSI2SK";
/// The TTL attribute (Unix seconds), set on the META item of a finished game when the store
/// is configured with a TTL.
pub const TTL_ATTRIBUTE: &str = "expires_at";

/// The largest `seq` a log sort key can hold (`LOG#<seq:010>`).
pub const MAX_SEQ: u64 = 9_999_999_999;

/// `GAME#<id>`: the partition of everything about one game.
pub fn game_pk(id: &str) -> String {
    format!("GAME#{id}")
}

/// The game id of a [`game_pk`], or `None` for any other key.
pub fn game_id_of(pk: &str) -> Option<&str> {
    pk.strip_prefix("GAME#")
}

/// `META`: the game record.
pub fn meta_sk() -> &'static str {
    "META"
}

/// `LOG#<seq:010>`: one log entry; zero-padded so that string order is `seq` order.
/// `None` when `seq` exceeds [`MAX_SEQ`].
pub fn log_sk(seq: u64) -> Option<String> {
    (seq <= MAX_SEQ).then(|| format!("LOG#{seq:010}"))
}

/// `IDEM#<seat>#<key>`: the first response to an idempotent request. The seat is a number
/// followed by `#`, so no (seat, key) pair can spell another's sort key.
pub fn idempotency_sk(seat: u8, key: &str) -> String {
    format!("IDEM#{seat}#{key}")
}

/// `OUT#<hook>#<created_at:013>#<msg>`: a notification in the outbox, sorted by subscription,
/// then time, so one subscription's deliveries are one key range.
pub fn outbox_sk(message: &crate::OutboxMessage) -> String {
    outbox_sk_of(&message.hook_id, message.created_at, &message.id)
}

/// The sort key of a subscription's notification, from its parts.
pub fn outbox_sk_of(hook_id: &str, created_at: u64, id: &str) -> String {
    format!("{}{created_at:013}#{id}", outbox_prefix(hook_id))
}

/// `OUT#<hook>#`: the prefix of one subscription's notifications.
pub fn outbox_prefix(hook_id: &str) -> String {
    format!("OUT#{hook_id}#")
}

/// `LOBBY`: the one partition of [`GSI1`].
pub fn lobby_pk() -> &'static str {
    "LOBBY"
}

/// `LOBBY#<ruleset>`: a partition of [`GSI2`].
pub fn lobby_ruleset_pk(ruleset: &str) -> String {
    format!("LOBBY#{ruleset}")
}

/// `<created_at:020>#<id>`: the lobby order. Fixed-width, so that byte order (DynamoDB's
/// order for strings) is `(created_at, id)` order.
pub fn lobby_sk(created_at: u64, id: &str) -> String {
    format!("{created_at:020}#{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_keys_sort_like_their_seqs() {
        let seqs = [0, 1, 9, 10, 99, 1_000_000, MAX_SEQ];
        let keys: Vec<String> = seqs.iter().map(|&seq| log_sk(seq).unwrap()).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
        assert_eq!(log_sk(MAX_SEQ + 1), None);
    }

    #[test]
    fn lobby_keys_sort_by_creation_time_then_id() {
        let games = [(5, "g_b"), (5, "g_c"), (40, "g_a"), (u64::MAX, "g_0")];
        let keys: Vec<String> = games.iter().map(|(at, id)| lobby_sk(*at, id)).collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(keys, sorted);
    }

    #[test]
    fn idempotency_keys_of_different_seats_differ() {
        assert_ne!(idempotency_sk(1, "1#k"), idempotency_sk(11, "k"));
        assert_ne!(idempotency_sk(1, "k"), idempotency_sk(2, "k"));
    }
}
