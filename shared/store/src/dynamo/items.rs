//! Conversion between the store's types and DynamoDB items.
//!
//! Each item keeps its whole value as one JSON string attribute, `data` (exactly what
//! SqliteStore keeps in its `record`/`entry` columns, so both stores round-trip the same
//! bytes), next to the few attributes DynamoDB itself must see: the keys, `version` for the
//! commit condition, the lobby index keys and the TTL.

use std::collections::HashMap;
use std::time::Duration;

use aws_sdk_dynamodb::types::AttributeValue;

use super::keys;
use crate::{
    AppRecord, GameRecord, IdempotencyRecord, LogEntry, OutboxMessage, PlayerRecord, Status,
    StoreError,
};

/// A DynamoDB item.
pub(crate) type Item = HashMap<String, AttributeValue>;

/// The JSON document attribute.
pub(crate) const DATA: &str = "data";
/// The record's version, the attribute commits are conditioned on.
pub(crate) const VERSION: &str = "version";

fn s(value: impl Into<String>) -> AttributeValue {
    AttributeValue::S(value.into())
}

fn n(value: u64) -> AttributeValue {
    AttributeValue::N(value.to_string())
}

fn to_json(value: &impl serde::Serialize, what: &str) -> Result<String, StoreError> {
    serde_json::to_string(value)
        .map_err(|error| StoreError::Backend(format!("serializing {what}: {error}")))
}

/// The `data` attribute of an item, parsed.
fn data_of<T: serde::de::DeserializeOwned>(item: &Item, what: &str) -> Result<T, StoreError> {
    let data = match item.get(DATA) {
        Some(AttributeValue::S(data)) => data,
        _ => return Err(StoreError::Backend(format!("{what} item has no data"))),
    };
    serde_json::from_str(data)
        .map_err(|error| StoreError::Backend(format!("{what} item does not parse: {error}")))
}

/// The META item of `record`. `finished_ttl` sets the TTL attribute on a finished game.
pub(crate) fn meta_item(
    record: &GameRecord,
    finished_ttl: Option<Duration>,
) -> Result<Item, StoreError> {
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(keys::game_pk(&record.id)));
    item.insert(keys::SK.into(), s(keys::meta_sk()));
    item.insert(VERSION.into(), n(record.version));
    item.insert("status".into(), s(record.status.as_str()));
    item.insert("ruleset".into(), s(&record.ruleset));
    item.insert("created_at".into(), n(record.created_at));
    item.insert(DATA.into(), s(to_json(record, "game record")?));
    if record.status == Status::Open && !record.invite_only {
        let lobby_sk = keys::lobby_sk(record.created_at, &record.id);
        item.insert(keys::GSI1PK.into(), s(keys::lobby_pk()));
        item.insert(keys::GSI1SK.into(), s(&lobby_sk));
        item.insert(
            keys::GSI2PK.into(),
            s(keys::lobby_ruleset_pk(&record.ruleset)),
        );
        item.insert(keys::GSI2SK.into(), s(lobby_sk));
    }
    let owner = match (&record.app, &record.origin) {
        (Some(app), _) => Some(keys::app_games_pk(app)),
        (None, Some(origin)) => Some(keys::origin_pk(origin)),
        (None, None) => None,
    };
    if let (Some(owner), false) = (owner, record.status == Status::Finished) {
        item.insert(keys::GSI4PK.into(), s(owner));
        item.insert(
            keys::GSI4SK.into(),
            s(keys::lobby_sk(record.created_at, &record.id)),
        );
    }
    if let Some(due_at) = record.due_at {
        item.insert(keys::GSI3PK.into(), s(keys::due_pk()));
        item.insert(keys::GSI3SK.into(), s(keys::due_sk(due_at, &record.id)));
    }
    if let (Status::Finished, Some(ttl)) = (record.status, finished_ttl) {
        let expires_at = (record.updated_at / 1_000).saturating_add(ttl.as_secs());
        item.insert(keys::TTL_ATTRIBUTE.into(), n(expires_at));
    }
    Ok(item)
}

/// The item of app `app`.
pub(crate) fn app_item(app: &AppRecord) -> Result<Item, StoreError> {
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(keys::apps_pk()));
    item.insert(keys::SK.into(), s(keys::app_sk(&app.id)));
    item.insert(VERSION.into(), n(app.version));
    item.insert(DATA.into(), s(to_json(app, "app")?));
    Ok(item)
}

/// The item of player `player`.
pub(crate) fn player_item(player: &PlayerRecord) -> Result<Item, StoreError> {
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(keys::players_pk(&player.app)));
    item.insert(keys::SK.into(), s(keys::player_sk(&player.id)));
    item.insert(VERSION.into(), n(player.version));
    item.insert(DATA.into(), s(to_json(player, "player")?));
    Ok(item)
}

/// The player in a player item.
pub(crate) fn player_of(item: &Item) -> Result<PlayerRecord, StoreError> {
    data_of(item, "player")
}

/// The note that `player` of `app` sits in game `game` (created at `created_at`).
pub(crate) fn player_game_item(app: &str, player: &str, game: &str, created_at: u64) -> Item {
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(keys::game_pk(game)));
    item.insert(keys::SK.into(), s(keys::player_games_pk(app, player)));
    item.insert(keys::GSI5PK.into(), s(keys::player_games_pk(app, player)));
    item.insert(keys::GSI5SK.into(), s(keys::lobby_sk(created_at, game)));
    item
}

/// The app in an app item.
pub(crate) fn app_of(item: &Item) -> Result<AppRecord, StoreError> {
    data_of(item, "app")
}

/// The record in a META item.
pub(crate) fn record_of(item: &Item) -> Result<GameRecord, StoreError> {
    data_of(item, "game record")
}

/// The LOG item of `entry` in game `id`.
pub(crate) fn log_item(id: &str, entry: &LogEntry) -> Result<Item, StoreError> {
    let sk = keys::log_sk(entry.seq).ok_or_else(|| {
        StoreError::Backend(format!(
            "log entry {} of game {id} is beyond the largest seq {}",
            entry.seq,
            keys::MAX_SEQ
        ))
    })?;
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(keys::game_pk(id)));
    item.insert(keys::SK.into(), s(sk));
    item.insert("seq".into(), n(entry.seq));
    item.insert(DATA.into(), s(to_json(entry, "log entry")?));
    Ok(item)
}

/// The entry in a LOG item.
pub(crate) fn entry_of(item: &Item) -> Result<LogEntry, StoreError> {
    data_of(item, "log entry")
}

/// The IDEM item of `record` in game `id`.
pub(crate) fn idempotency_item(id: &str, record: &IdempotencyRecord) -> Result<Item, StoreError> {
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(keys::game_pk(id)));
    item.insert(
        keys::SK.into(),
        s(keys::idempotency_sk(record.seat, &record.key)),
    );
    item.insert("seq".into(), n(record.seq));
    item.insert(DATA.into(), s(to_json(record, "idempotency record")?));
    Ok(item)
}

/// The record in an IDEM item.
pub(crate) fn idempotency_of(item: &Item) -> Result<IdempotencyRecord, StoreError> {
    data_of(item, "idempotency record")
}

/// The OUT item of a notification. Its `status` attribute is plain, so the stream's event
/// filter (infra/template.yaml) can pick new pending notifications without parsing `data`.
pub(crate) fn outbox_item(message: &OutboxMessage) -> Result<Item, StoreError> {
    let mut item = Item::new();
    item.insert(keys::PK.into(), s(keys::game_pk(&message.game_id)));
    item.insert(keys::SK.into(), s(keys::outbox_sk(message)));
    item.insert("status".into(), s(message.status.as_str()));
    item.insert(DATA.into(), s(to_json(message, "notification")?));
    Ok(item)
}

/// The notification in an OUT item.
pub fn message_of(item: &Item) -> Result<OutboxMessage, StoreError> {
    data_of(item, "notification")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::sample_record;

    #[test]
    fn only_open_public_games_carry_the_lobby_keys() {
        let open = sample_record("g_open");
        assert!(meta_item(&open, None).unwrap().contains_key(keys::GSI1PK));
        let mut invite = open.clone();
        invite.invite_only = true;
        let mut active = open.clone();
        active.status = Status::Active;
        for hidden in [invite, active] {
            let item = meta_item(&hidden, None).unwrap();
            for key in [keys::GSI1PK, keys::GSI1SK, keys::GSI2PK, keys::GSI2SK] {
                assert!(!item.contains_key(key), "{key} on {hidden:?}");
            }
        }
    }

    #[test]
    fn only_finished_games_expire_and_only_with_a_ttl() {
        let mut game = sample_record("g_ttl");
        let day = Duration::from_secs(86_400);
        assert!(!meta_item(&game, Some(day))
            .unwrap()
            .contains_key(keys::TTL_ATTRIBUTE));
        game.status = Status::Finished;
        assert!(!meta_item(&game, None)
            .unwrap()
            .contains_key(keys::TTL_ATTRIBUTE));
        let item = meta_item(&game, Some(day)).unwrap();
        assert_eq!(
            item.get(keys::TTL_ATTRIBUTE),
            Some(&n(game.updated_at / 1_000 + 86_400))
        );
    }

    #[test]
    fn items_round_trip() {
        let game = sample_record("g_round");
        assert_eq!(record_of(&meta_item(&game, None).unwrap()).unwrap(), game);
        let idem = IdempotencyRecord {
            seat: 2,
            key: "k".into(),
            seq: 4,
            response: "{}".into(),
        };
        assert_eq!(
            idempotency_of(&idempotency_item("g_round", &idem).unwrap()).unwrap(),
            idem
        );
    }
}
