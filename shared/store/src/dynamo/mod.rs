//! [`DynamoStore`]: games in one DynamoDB table, for the scale-out path (DESIGN.md §1, §4).
//!
//! Layout and access patterns: [`keys`]. Item conversion: `items.rs`. A commit is ONE
//! `TransactWriteItems`: the META item conditioned on `version = :expected`, the LOG item and
//! the IDEM item each on `attribute_not_exists(SK)`. A cancelled transaction whose reasons say
//! `ConditionalCheckFailed` or `TransactionConflict` is [`StoreError::VersionConflict`], or
//! [`StoreError::NotFound`] when the META check failed because there is no META item (the
//! check returns the old item, `ALL_OLD`, so this costs no extra read).
//!
//! Cost of a plain move through the API: one consistent `GetItem` (the record) and one
//! `TransactWriteItems` of two items (META and LOG); with an `Idempotency-Key`, one more
//! `GetItem` and a third item in the transaction.

mod items;
pub mod keys;
pub mod testing;

use std::fmt;
use std::time::Duration;

use aws_sdk_dynamodb::error::{DisplayErrorContext, SdkError};
use aws_sdk_dynamodb::operation::transact_write_items::TransactWriteItemsError;
use aws_sdk_dynamodb::types::{
    AttributeDefinition, AttributeValue, BillingMode, DeleteRequest, GlobalSecondaryIndex,
    KeySchemaElement, KeyType, Projection, ProjectionType, Put,
    ReturnValuesOnConditionCheckFailure, ScalarAttributeType, Select, StreamSpecification,
    StreamViewType, TableStatus, TimeToLiveSpecification, TransactWriteItem, WriteRequest,
};
use aws_sdk_dynamodb::Client;

use crate::common::{check_commit, lobby_limit, lobby_page, log_start, message_page, PageCursor};
use crate::{
    AppRecord, Commit, GameRecord, GameStore, IdempotencyRecord, ListPage, ListQuery, LogEntry,
    MessagePage, OutboxMessage, Owner, PlayerRecord, StoreError,
};
use items::Item;

/// A store in one DynamoDB table laid out as [`keys`] describes.
///
/// Clones share the SDK client (its connection pool), so a clone per handler is cheap.
#[derive(Clone)]
pub struct DynamoStore {
    client: Client,
    table: String,
    finished_ttl: Option<Duration>,
}

impl fmt::Debug for DynamoStore {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DynamoStore")
            .field("table", &self.table)
            .field("finished_ttl", &self.finished_ttl)
            .finish_non_exhaustive()
    }
}

/// A backend failure with the SDK's whole error chain (the `Display` of an `SdkError` alone
/// says only "service error").
fn backend<E: std::error::Error + 'static>(what: &str, error: E) -> StoreError {
    StoreError::Backend(format!("{what}: {}", DisplayErrorContext(error)))
}

impl DynamoStore {
    /// A store over `table` (which must exist, laid out as [`DynamoStore::create_table`]
    /// makes it), through `client`. Finished games are kept until deleted.
    pub fn new(client: Client, table: impl Into<String>) -> DynamoStore {
        DynamoStore {
            client,
            table: table.into(),
            finished_ttl: None,
        }
    }

    /// A store over `table` with a client configured from the environment (region,
    /// credentials, and `AWS_ENDPOINT_URL` for DynamoDB Local or another endpoint), as in a
    /// Lambda function.
    pub async fn from_env(table: impl Into<String>) -> DynamoStore {
        let config = aws_config::load_defaults(aws_config::BehaviorVersion::latest()).await;
        DynamoStore::new(Client::new(&config), table)
    }

    /// Lets DynamoDB delete a finished game's record `ttl` after it finished (TTL on the
    /// `expires_at` attribute, which the table must have enabled). The log and idempotency
    /// items are not covered: see docs/aws.md.
    pub fn with_finished_ttl(mut self, ttl: Duration) -> DynamoStore {
        self.finished_ttl = Some(ttl);
        self
    }

    /// The table's name.
    pub fn table(&self) -> &str {
        &self.table
    }

    /// Creates the table with the layout of [`keys`] (as `infra/template.yaml` declares it:
    /// on-demand, both lobby indexes, TTL on `expires_at`, a `KEYS_ONLY` stream for
    /// `functions/notify`), and waits until it is active. For tests and local use; deployments
    /// create it from the template.
    pub async fn create_table(&self) -> Result<(), StoreError> {
        let built = |error| backend("building the table definition", error);
        let string_attribute = |name: &str| {
            AttributeDefinition::builder()
                .attribute_name(name)
                .attribute_type(ScalarAttributeType::S)
                .build()
                .map_err(built)
        };
        let key = |name: &str, key_type: KeyType| {
            KeySchemaElement::builder()
                .attribute_name(name)
                .key_type(key_type)
                .build()
                .map_err(built)
        };
        let index = |name: &str,
                     pk: &str,
                     sk: &str,
                     projection: ProjectionType|
         -> Result<GlobalSecondaryIndex, StoreError> {
            GlobalSecondaryIndex::builder()
                .index_name(name)
                .key_schema(key(pk, KeyType::Hash)?)
                .key_schema(key(sk, KeyType::Range)?)
                .projection(Projection::builder().projection_type(projection).build())
                .build()
                .map_err(built)
        };
        let mut request = self
            .client
            .create_table()
            .table_name(&self.table)
            .billing_mode(BillingMode::PayPerRequest)
            .key_schema(key(keys::PK, KeyType::Hash)?)
            .key_schema(key(keys::SK, KeyType::Range)?)
            .global_secondary_indexes(index(
                keys::GSI1,
                keys::GSI1PK,
                keys::GSI1SK,
                ProjectionType::All,
            )?)
            .global_secondary_indexes(index(
                keys::GSI2,
                keys::GSI2PK,
                keys::GSI2SK,
                ProjectionType::All,
            )?)
            .global_secondary_indexes(index(
                keys::GSI3,
                keys::GSI3PK,
                keys::GSI3SK,
                ProjectionType::KeysOnly,
            )?)
            .global_secondary_indexes(index(
                keys::GSI4,
                keys::GSI4PK,
                keys::GSI4SK,
                ProjectionType::All,
            )?)
            .global_secondary_indexes(index(
                keys::GSI5,
                keys::GSI5PK,
                keys::GSI5SK,
                ProjectionType::KeysOnly,
            )?)
            .stream_specification(
                StreamSpecification::builder()
                    .stream_enabled(true)
                    .stream_view_type(StreamViewType::KeysOnly)
                    .build()
                    .map_err(built)?,
            );
        for name in [
            keys::PK,
            keys::SK,
            keys::GSI1PK,
            keys::GSI1SK,
            keys::GSI2PK,
            keys::GSI2SK,
            keys::GSI3PK,
            keys::GSI3SK,
            keys::GSI4PK,
            keys::GSI4SK,
            keys::GSI5PK,
            keys::GSI5SK,
        ] {
            request = request.attribute_definitions(string_attribute(name)?);
        }
        request
            .send()
            .await
            .map_err(|error| backend("creating the table", error))?;

        // A new table is CREATING for a few seconds on DynamoDB (DynamoDB Local and moto make
        // it ACTIVE at once); TTL can only be enabled on an active table.
        let mut waited = Duration::ZERO;
        loop {
            let described = self
                .client
                .describe_table()
                .table_name(&self.table)
                .send()
                .await
                .map_err(|error| backend("describing the table", error))?;
            let status = described.table().and_then(|table| table.table_status());
            if status == Some(&TableStatus::Active) {
                break;
            }
            if waited > Duration::from_secs(120) {
                return Err(StoreError::Backend(format!(
                    "table {} is not active after two minutes: {status:?}",
                    self.table
                )));
            }
            tokio::time::sleep(Duration::from_millis(500)).await;
            waited += Duration::from_millis(500);
        }
        self.client
            .update_time_to_live()
            .table_name(&self.table)
            .time_to_live_specification(
                TimeToLiveSpecification::builder()
                    .attribute_name(keys::TTL_ATTRIBUTE)
                    .enabled(true)
                    .build()
                    .map_err(built)?,
            )
            .send()
            .await
            .map_err(|error| backend("enabling TTL", error))?;
        Ok(())
    }

    /// A conditional `Put` of `item` for a transaction.
    fn put(&self, item: Item, condition: &str) -> Result<Put, StoreError> {
        Put::builder()
            .table_name(&self.table)
            .set_item(Some(item))
            .condition_expression(condition)
            .build()
            .map_err(|error| backend("building a put", error))
    }

    /// What a cancelled commit means: see the module documentation.
    fn commit_error(
        &self,
        commit: &Commit,
        error: SdkError<TransactWriteItemsError>,
    ) -> StoreError {
        let id = &commit.record.id;
        let Some(TransactWriteItemsError::TransactionCanceledException(cancelled)) =
            error.as_service_error()
        else {
            return backend(&format!("committing to game {id}"), error);
        };
        let reasons = cancelled.cancellation_reasons();
        // Item 0 is META: its check failed without an old item, so there is no such game.
        if let Some(meta) = reasons.first() {
            if meta.code() == Some("ConditionalCheckFailed") && meta.item().is_none() {
                return StoreError::NotFound(id.clone());
            }
        }
        let lost_race = reasons.iter().any(|reason| {
            matches!(
                reason.code(),
                Some("ConditionalCheckFailed" | "TransactionConflict")
            )
        });
        if lost_race {
            StoreError::VersionConflict {
                id: id.clone(),
                expected: commit.expected_version,
            }
        } else {
            backend(&format!("committing to game {id}"), error)
        }
    }

    /// One page of `query` from `index` partition `pk` (games of `ruleset` only, when given),
    /// in lobby order after the query's cursor.
    async fn listing(
        &self,
        index: (&str, &str, &str),
        pk: String,
        ruleset: Option<&str>,
        query: &ListQuery,
    ) -> Result<ListPage, StoreError> {
        // Validate the cursor before any request, as the other stores do.
        let after = query.cursor.as_deref().map(PageCursor::parse).transpose()?;
        let after = after.as_ref();
        let limit = lobby_limit(query.limit);
        let (index_name, pk_name, sk_name) = index;
        // One extra game tells whether another page exists.
        let wanted = limit + 1;
        let mut games = Vec::new();
        let mut start: Option<Item> = None;
        loop {
            let mut request = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(index_name)
                .expression_attribute_names("#pk", pk_name)
                .expression_attribute_values(":pk", AttributeValue::S(pk.clone()))
                .limit(i32::try_from(wanted - games.len()).unwrap_or(i32::MAX))
                .set_exclusive_start_key(start.take());
            request = match after {
                Some(cursor) => request
                    .key_condition_expression("#pk = :pk AND #sk > :after")
                    .expression_attribute_names("#sk", sk_name)
                    .expression_attribute_values(
                        ":after",
                        AttributeValue::S(keys::lobby_sk(cursor.created_at, &cursor.id)),
                    ),
                None => request.key_condition_expression("#pk = :pk"),
            };
            if let Some(ruleset) = ruleset {
                request = request
                    .filter_expression("#ruleset = :ruleset")
                    .expression_attribute_names("#ruleset", "ruleset")
                    .expression_attribute_values(":ruleset", AttributeValue::S(ruleset.into()));
            }
            let page = request
                .send()
                .await
                .map_err(|error| backend("listing the lobby", error))?;
            for item in page.items() {
                games.push(items::record_of(item)?);
            }
            match page.last_evaluated_key() {
                Some(key) if games.len() < wanted => start = Some(key.clone()),
                _ => return Ok(lobby_page(games, limit)),
            }
        }
    }
}

#[async_trait::async_trait]
impl GameStore for DynamoStore {
    async fn create(&self, record: &GameRecord) -> Result<(), StoreError> {
        let item = items::meta_item(record, self.finished_ttl)?;
        match self.conditional_put(item, "attribute_not_exists(PK)").await {
            Ok(true) => Ok(()),
            Ok(false) => Err(StoreError::AlreadyExists(record.id.clone())),
            Err(error) => Err(backend(&format!("creating game {}", record.id), error)),
        }
    }

    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.consistent_get(
            keys::game_pk(id),
            keys::meta_sk().to_owned(),
            &format!("loading game {id}"),
        )
        .await?
        .as_ref()
        .map(items::record_of)
        .transpose()
    }

    async fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        check_commit(commit)?;
        let id = &commit.record.id;
        let meta = Put::builder()
            .table_name(&self.table)
            .set_item(Some(items::meta_item(&commit.record, self.finished_ttl)?))
            .condition_expression("#version = :expected")
            .expression_attribute_names("#version", items::VERSION)
            .expression_attribute_values(
                ":expected",
                AttributeValue::N(commit.expected_version.to_string()),
            )
            .return_values_on_condition_check_failure(ReturnValuesOnConditionCheckFailure::AllOld)
            .build()
            .map_err(|error| backend("building a put", error))?;
        let mut writes = vec![TransactWriteItem::builder().put(meta).build()];
        if let Some(entry) = &commit.entry {
            let put = self.put(items::log_item(id, entry)?, "attribute_not_exists(SK)")?;
            writes.push(TransactWriteItem::builder().put(put).build());
        }
        if let Some(idempotency) = &commit.idempotency {
            let put = self.put(
                items::idempotency_item(id, idempotency)?,
                "attribute_not_exists(SK)",
            )?;
            writes.push(TransactWriteItem::builder().put(put).build());
        }
        for message in &commit.outbox {
            let put = self.put(items::outbox_item(message)?, "attribute_not_exists(SK)")?;
            writes.push(TransactWriteItem::builder().put(put).build());
        }
        self.client
            .transact_write_items()
            .set_transact_items(Some(writes))
            .send()
            .await
            .map(|_| ())
            .map_err(|error| self.commit_error(commit, error))
    }

    async fn log(
        &self,
        id: &str,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<LogEntry>, StoreError> {
        // Nothing can be stored past MAX_SEQ.
        let from = log_start(after).and_then(keys::log_sk);
        let (Some(from), Some(to)) = (from, keys::log_sk(keys::MAX_SEQ)) else {
            return Ok(Vec::new());
        };
        let mut entries = Vec::new();
        let mut start_key: Option<Item> = None;
        while entries.len() < limit {
            // A page stops at 1 MB; keep reading until `limit` entries or the end.
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk AND SK BETWEEN :from AND :to")
                .expression_attribute_values(":pk", AttributeValue::S(keys::game_pk(id)))
                .expression_attribute_values(":from", AttributeValue::S(from.clone()))
                .expression_attribute_values(":to", AttributeValue::S(to.clone()))
                .consistent_read(true)
                .limit(i32::try_from(limit - entries.len()).unwrap_or(i32::MAX))
                .set_exclusive_start_key(start_key.take())
                .send()
                .await
                .map_err(|error| backend(&format!("reading the log of game {id}"), error))?;
            for item in page.items() {
                entries.push(items::entry_of(item)?);
            }
            match page.last_evaluated_key() {
                Some(key) => start_key = Some(key.clone()),
                None => break,
            }
        }
        Ok(entries)
    }

    async fn idempotency(
        &self,
        id: &str,
        seat: u8,
        key: &str,
    ) -> Result<Option<IdempotencyRecord>, StoreError> {
        self.consistent_get(
            keys::game_pk(id),
            keys::idempotency_sk(seat, key),
            &format!("looking up a key of game {id}"),
        )
        .await?
        .as_ref()
        .map(items::idempotency_of)
        .transpose()
    }

    async fn list_open(&self, query: &ListQuery) -> Result<ListPage, StoreError> {
        match &query.ruleset {
            Some(ruleset) => {
                self.listing(
                    (keys::GSI2, keys::GSI2PK, keys::GSI2SK),
                    keys::lobby_ruleset_pk(ruleset),
                    None,
                    query,
                )
                .await
            }
            None => {
                self.listing(
                    (keys::GSI1, keys::GSI1PK, keys::GSI1SK),
                    keys::lobby_pk().to_owned(),
                    None,
                    query,
                )
                .await
            }
        }
    }

    /// DynamoDB's outbox is drained by the table's stream (`functions/notify`), not polled:
    /// there is no index of due messages to read, and none is needed.
    async fn due_messages(
        &self,
        _now: u64,
        _limit: usize,
    ) -> Result<Vec<OutboxMessage>, StoreError> {
        Ok(Vec::new())
    }

    async fn due_games(&self, now: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        let mut ids = Vec::new();
        let mut start: Option<Item> = None;
        while ids.len() < limit {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(keys::GSI3)
                .key_condition_expression("#pk = :pk AND #sk <= :now")
                .expression_attribute_names("#pk", keys::GSI3PK)
                .expression_attribute_names("#sk", keys::GSI3SK)
                .expression_attribute_values(":pk", AttributeValue::S(keys::due_pk().into()))
                .expression_attribute_values(":now", AttributeValue::S(keys::due_sk(now, "~")))
                .limit(i32::try_from(limit - ids.len()).unwrap_or(i32::MAX))
                .set_exclusive_start_key(start.take())
                .send()
                .await
                .map_err(|error| backend("listing due games", error))?;
            for item in page.items() {
                let id = match item.get(keys::PK) {
                    Some(AttributeValue::S(pk)) => keys::game_id_of(pk).map(str::to_owned),
                    _ => None,
                };
                ids.push(id.ok_or_else(|| {
                    StoreError::Backend("a due-index item without a game key".into())
                })?);
            }
            match page.last_evaluated_key() {
                Some(key) => start = Some(key.clone()),
                None => break,
            }
        }
        Ok(ids)
    }

    async fn update_message(&self, message: &OutboxMessage) -> Result<(), StoreError> {
        let item = items::outbox_item(message)?;
        match self.conditional_put(item, "attribute_exists(SK)").await {
            Ok(true) => Ok(()),
            Ok(false) => Err(StoreError::NotFound(message.id.clone())),
            Err(error) => Err(backend(
                &format!("updating notification {}", message.id),
                error,
            )),
        }
    }

    async fn messages(
        &self,
        game_id: &str,
        hook_id: &str,
        cursor: Option<&str>,
        limit: usize,
    ) -> Result<MessagePage, StoreError> {
        let before = cursor.map(PageCursor::parse).transpose()?;
        let mut query = self
            .client
            .query()
            .table_name(&self.table)
            .key_condition_expression("PK = :pk AND begins_with(SK, :prefix)")
            .expression_attribute_values(":pk", AttributeValue::S(keys::game_pk(game_id)))
            .expression_attribute_values(":prefix", AttributeValue::S(keys::outbox_prefix(hook_id)))
            .scan_index_forward(false)
            .consistent_read(true)
            // One extra item tells whether another page exists.
            .limit(i32::try_from(limit.saturating_add(1)).unwrap_or(i32::MAX));
        if let Some(before) = &before {
            query = query
                .exclusive_start_key("PK", AttributeValue::S(keys::game_pk(game_id)))
                .exclusive_start_key(
                    "SK",
                    AttributeValue::S(keys::outbox_sk_of(hook_id, before.created_at, &before.id)),
                );
        }
        let page = query
            .send()
            .await
            .map_err(|error| backend(&format!("listing deliveries of {hook_id}"), error))?;
        let found = page
            .items()
            .iter()
            .take(limit + 1)
            .map(items::message_of)
            .collect::<Result<Vec<_>, _>>()?;
        Ok(message_page(found, limit))
    }

    async fn delete(&self, id: &str) -> Result<(), StoreError> {
        // The META item first, on the condition that it is there: from then on every read
        // of the game is `NotFound`, whatever is left of its partition.
        let removed = self
            .client
            .delete_item()
            .table_name(&self.table)
            .key(keys::PK, AttributeValue::S(keys::game_pk(id)))
            .key(keys::SK, AttributeValue::S(keys::meta_sk().to_owned()))
            .condition_expression("attribute_exists(PK)")
            .send()
            .await;
        match removed {
            Ok(_) => {}
            Err(error)
                if error
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                return Err(StoreError::NotFound(id.to_owned()))
            }
            Err(error) => return Err(backend(&format!("deleting game {id}"), error)),
        }
        self.delete_partition(id).await
    }

    async fn finished_before(
        &self,
        _before: u64,
        _limit: usize,
    ) -> Result<Vec<String>, StoreError> {
        // DynamoDB forgets a finished game by itself: the TTL removes its META item, and the
        // table's stream tells `notify` to delete the rest ([`DynamoStore::delete_partition`]).
        Ok(Vec::new())
    }

    async fn list_app(&self, app: &str, query: &ListQuery) -> Result<ListPage, StoreError> {
        // The index holds every ruleset of the app: the ruleset is a filter, not a key.
        self.listing(
            (keys::GSI4, keys::GSI4PK, keys::GSI4SK),
            keys::app_games_pk(app),
            query.ruleset.as_deref(),
            query,
        )
        .await
    }

    async fn live_games(&self, owner: Owner<'_>) -> Result<u64, StoreError> {
        let partition = match owner {
            Owner::App(app) => keys::app_games_pk(app),
            Owner::Origin(origin) => keys::origin_pk(origin),
        };
        let mut count = 0u64;
        let mut start: Option<Item> = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(keys::GSI4)
                .key_condition_expression("#pk = :pk")
                .expression_attribute_names("#pk", keys::GSI4PK)
                .expression_attribute_values(":pk", AttributeValue::S(partition.clone()))
                .select(Select::Count)
                .set_exclusive_start_key(start.take())
                .send()
                .await
                .map_err(|error| backend(&format!("counting the games of {partition}"), error))?;
            count += u64::try_from(page.count()).unwrap_or(0);
            match page.last_evaluated_key() {
                Some(key) => start = Some(key.clone()),
                None => return Ok(count),
            }
        }
    }

    async fn count_creation(
        &self,
        origin: &str,
        hour: u64,
        limit: u32,
    ) -> Result<Option<u32>, StoreError> {
        // A counter per address and hour, forgotten by the TTL an hour after its hour ends
        // (removing it is harmless at any time after: a later hour has its own counter).
        let expires_at = hour.saturating_add(2).saturating_mul(3_600);
        let counted = self
            .client
            .update_item()
            .table_name(&self.table)
            .key(keys::PK, AttributeValue::S(keys::origin_pk(origin)))
            .key(keys::SK, AttributeValue::S(keys::creations_sk(hour)))
            .update_expression("ADD created :one SET #ttl = :ttl")
            .condition_expression("attribute_not_exists(created) OR created < :limit")
            .expression_attribute_names("#ttl", keys::TTL_ATTRIBUTE)
            .expression_attribute_values(":one", AttributeValue::N("1".into()))
            .expression_attribute_values(":ttl", AttributeValue::N(expires_at.to_string()))
            .expression_attribute_values(":limit", AttributeValue::N(limit.to_string()))
            .return_values(aws_sdk_dynamodb::types::ReturnValue::UpdatedNew)
            .send()
            .await;
        match counted {
            Ok(output) => {
                let created = output
                    .attributes()
                    .and_then(|attributes| attributes.get("created"))
                    .and_then(|value| value.as_n().ok())
                    .and_then(|value| value.parse::<u32>().ok())
                    .ok_or_else(|| {
                        StoreError::Backend(format!(
                            "counting a creation of {origin}: DynamoDB returned no count"
                        ))
                    })?;
                Ok(Some(created).filter(|created| *created <= limit))
            }
            Err(error)
                if error
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                Ok(None)
            }
            Err(error) => Err(backend(&format!("counting a creation of {origin}"), error)),
        }
    }

    async fn create_app(&self, app: &AppRecord) -> Result<(), StoreError> {
        let item = items::app_item(app)?;
        match self.conditional_put(item, "attribute_not_exists(PK)").await {
            Ok(true) => Ok(()),
            Ok(false) => Err(StoreError::AlreadyExists(app.id.clone())),
            Err(error) => Err(backend(&format!("creating app {}", app.id), error)),
        }
    }

    async fn load_app(&self, id: &str) -> Result<Option<AppRecord>, StoreError> {
        self.consistent_get(
            keys::apps_pk().to_owned(),
            keys::app_sk(id),
            &format!("loading app {id}"),
        )
        .await?
        .as_ref()
        .map(items::app_of)
        .transpose()
    }

    async fn save_app(&self, app: &AppRecord, expected_version: u64) -> Result<(), StoreError> {
        let saved = self
            .put_if(
                self.client
                    .put_item()
                    .table_name(&self.table)
                    .set_item(Some(items::app_item(app)?))
                    .condition_expression("#version = :expected")
                    .expression_attribute_names("#version", items::VERSION)
                    .expression_attribute_values(
                        ":expected",
                        AttributeValue::N(expected_version.to_string()),
                    ),
            )
            .await
            .map_err(|error| backend(&format!("saving app {}", app.id), error))?;
        if saved {
            return Ok(());
        }
        // The condition fails on a missing item too: tell the two apart.
        match self.load_app(&app.id).await? {
            None => Err(StoreError::NotFound(app.id.clone())),
            Some(_) => Err(StoreError::VersionConflict {
                id: app.id.clone(),
                expected: expected_version,
            }),
        }
    }

    async fn load_player(&self, app: &str, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        self.consistent_get(
            keys::players_pk(app),
            keys::player_sk(id),
            &format!("loading player {id} of {app}"),
        )
        .await?
        .as_ref()
        .map(items::player_of)
        .transpose()
    }

    async fn save_player(
        &self,
        player: &PlayerRecord,
        expected_version: u64,
    ) -> Result<(), StoreError> {
        let request = self
            .client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(items::player_item(player)?));
        let request = if expected_version == 0 {
            request.condition_expression("attribute_not_exists(PK)")
        } else {
            request
                .condition_expression("#version = :expected")
                .expression_attribute_names("#version", items::VERSION)
                .expression_attribute_values(
                    ":expected",
                    AttributeValue::N(expected_version.to_string()),
                )
        };
        let saved = self
            .put_if(request)
            .await
            .map_err(|error| backend(&format!("saving player {}", player.id), error))?;
        if saved {
            Ok(())
        } else {
            Err(StoreError::VersionConflict {
                id: player.id.clone(),
                expected: expected_version,
            })
        }
    }

    async fn add_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
        created_at: u64,
    ) -> Result<(), StoreError> {
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(items::player_game_item(app, player, game, created_at)))
            .send()
            .await
            .map(drop)
            .map_err(|error| backend(&format!("noting that {player} sits in {game}"), error))
    }

    async fn remove_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
    ) -> Result<(), StoreError> {
        // Overwritten without its index keys rather than deleted: the note leaves GSI5 at
        // once, the item goes with the game's partition, and the functions that take seats
        // need no DeleteItem.
        let mut item = Item::new();
        item.insert(keys::PK.into(), AttributeValue::S(keys::game_pk(game)));
        item.insert(
            keys::SK.into(),
            AttributeValue::S(keys::player_games_pk(app, player)),
        );
        self.client
            .put_item()
            .table_name(&self.table)
            .set_item(Some(item))
            .send()
            .await
            .map(drop)
            .map_err(|error| backend(&format!("forgetting that {player} sits in {game}"), error))
    }

    async fn player_games(
        &self,
        app: &str,
        player: &str,
        query: &ListQuery,
    ) -> Result<ListPage, StoreError> {
        let before = query.cursor.as_deref().map(PageCursor::parse).transpose()?;
        let limit = lobby_limit(query.limit);
        let wanted = limit + 1;
        let mut games = Vec::new();
        let mut start: Option<Item> = None;
        loop {
            let mut request = self
                .client
                .query()
                .table_name(&self.table)
                .index_name(keys::GSI5)
                .expression_attribute_names("#pk", keys::GSI5PK)
                .expression_attribute_values(
                    ":pk",
                    AttributeValue::S(keys::player_games_pk(app, player)),
                )
                .scan_index_forward(false)
                .limit(i32::try_from(wanted - games.len()).unwrap_or(i32::MAX))
                .set_exclusive_start_key(start.take());
            request = match &before {
                Some(cursor) => request
                    .key_condition_expression("#pk = :pk AND #sk < :before")
                    .expression_attribute_names("#sk", keys::GSI5SK)
                    .expression_attribute_values(
                        ":before",
                        AttributeValue::S(keys::lobby_sk(cursor.created_at, &cursor.id)),
                    ),
                None => request.key_condition_expression("#pk = :pk"),
            };
            let page = request
                .send()
                .await
                .map_err(|error| backend("listing a player's games", error))?;
            // Keys only: each game's record is one consistent read (a page holds few games).
            for item in page.items() {
                let Some(AttributeValue::S(pk)) = item.get(keys::PK) else {
                    continue;
                };
                let Some(id) = pk.strip_prefix("GAME#") else {
                    continue;
                };
                if let Some(record) = self.load(id).await? {
                    games.push(record);
                }
            }
            match page.last_evaluated_key() {
                Some(key) if games.len() < wanted => start = Some(key.clone()),
                _ => return Ok(lobby_page(games, limit)),
            }
        }
    }

    async fn apps(&self) -> Result<Vec<AppRecord>, StoreError> {
        let mut apps = Vec::new();
        let mut start: Option<Item> = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("#pk = :pk")
                .expression_attribute_names("#pk", keys::PK)
                .expression_attribute_values(":pk", AttributeValue::S(keys::apps_pk().into()))
                .consistent_read(true)
                .set_exclusive_start_key(start.take())
                .send()
                .await
                .map_err(|error| backend("listing apps", error))?;
            for item in page.items() {
                apps.push(items::app_of(item)?);
            }
            match page.last_evaluated_key() {
                Some(key) => start = Some(key.clone()),
                None => break,
            }
        }
        apps.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(apps)
    }
}

impl DynamoStore {
    /// Deletes every item left in game `id`'s partition (its log, idempotency and outbox
    /// items), a page of keys at a time in batches of 25; the META item, if still there, too.
    /// What a deletion does after removing the META item, and what `notify` does when the
    /// TTL has removed it. Deleting what is already gone is not an error.
    pub async fn delete_partition(&self, id: &str) -> Result<(), StoreError> {
        let failed = |error| backend(&format!("deleting the items of game {id}"), error);
        let mut start_key: Option<Item> = None;
        loop {
            let page = self
                .client
                .query()
                .table_name(&self.table)
                .key_condition_expression("PK = :pk")
                .expression_attribute_values(":pk", AttributeValue::S(keys::game_pk(id)))
                .projection_expression("PK, SK")
                .consistent_read(true)
                .set_exclusive_start_key(start_key.take())
                .send()
                .await
                .map_err(|error| backend(&format!("listing the items of game {id}"), error))?;
            for batch in page.items().chunks(25) {
                let mut requests = batch
                    .iter()
                    .map(|key| {
                        DeleteRequest::builder()
                            .set_key(Some(key.clone()))
                            .build()
                            .map(|delete| WriteRequest::builder().delete_request(delete).build())
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|error| backend("building a delete request", error))?;
                // What DynamoDB leaves unprocessed (throttling) is sent again, after a pause.
                for attempt in 0u32.. {
                    let written = self
                        .client
                        .batch_write_item()
                        .request_items(&self.table, requests)
                        .send()
                        .await
                        .map_err(failed)?;
                    requests = written
                        .unprocessed_items()
                        .and_then(|items| items.get(&self.table))
                        .cloned()
                        .unwrap_or_default();
                    if requests.is_empty() {
                        break;
                    }
                    if attempt >= 8 {
                        return Err(StoreError::Backend(format!(
                            "deleting the items of game {id}: still throttled after {attempt} retries"
                        )));
                    }
                    tokio::time::sleep(Duration::from_millis(50 << attempt.min(5))).await;
                }
            }
            match page.last_evaluated_key() {
                Some(key) => start_key = Some(key.clone()),
                None => return Ok(()),
            }
        }
    }

    /// `PutItem` of `item` if `condition` holds: `Ok(false)` when the condition failed (nothing
    /// was written), the SDK's error otherwise.
    async fn conditional_put(
        &self,
        item: Item,
        condition: &str,
    ) -> Result<bool, SdkError<aws_sdk_dynamodb::operation::put_item::PutItemError>> {
        self.put_if(
            self.client
                .put_item()
                .table_name(&self.table)
                .set_item(Some(item))
                .condition_expression(condition),
        )
        .await
    }

    /// Sends a conditional `PutItem`: `false` when its condition failed.
    async fn put_if(
        &self,
        request: aws_sdk_dynamodb::operation::put_item::builders::PutItemFluentBuilder,
    ) -> Result<bool, SdkError<aws_sdk_dynamodb::operation::put_item::PutItemError>> {
        match request.send().await {
            Ok(_) => Ok(true),
            Err(error)
                if error
                    .as_service_error()
                    .is_some_and(|e| e.is_conditional_check_failed_exception()) =>
            {
                Ok(false)
            }
            Err(error) => Err(error),
        }
    }

    /// The item at (`pk`, `sk`), read consistently, if there is one; `what` names it in an
    /// error.
    async fn consistent_get(
        &self,
        pk: String,
        sk: String,
        what: &str,
    ) -> Result<Option<Item>, StoreError> {
        let found = self
            .client
            .get_item()
            .table_name(&self.table)
            .key(keys::PK, AttributeValue::S(pk))
            .key(keys::SK, AttributeValue::S(sk))
            .consistent_read(true)
            .send()
            .await
            .map_err(|error| backend(what, error))?;
        Ok(found.item)
    }

    /// One notification, by the key its stream record carries (`PK`, `SK`), read consistently:
    /// what `notify` loads before each attempt.
    pub async fn message_at(
        &self,
        pk: &str,
        sk: &str,
    ) -> Result<Option<OutboxMessage>, StoreError> {
        self.consistent_get(
            pk.to_owned(),
            sk.to_owned(),
            &format!("loading notification {sk}"),
        )
        .await?
        .as_ref()
        .map(items::message_of)
        .transpose()
    }
}
