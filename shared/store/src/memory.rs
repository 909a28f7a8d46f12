//! [`MemoryStore`]: the whole store in a few maps behind one lock, for unit tests.

use std::collections::BTreeMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::common::{check_commit, lobby_limit, lobby_page, log_start, message_page, PageCursor};
use crate::{
    AppRecord, Commit, CreationWindow, DeliveryStatus, GameRecord, GameStore, IdempotencyRecord,
    ListPage, ListQuery, LogEntry, MessagePage, OutboxMessage, Owner, PlayerRecord, Status,
    StoreError,
};

/// A store that keeps everything in memory and forgets it when dropped. For unit tests; it
/// passes the same contract suite as the durable stores.
#[derive(Debug, Default)]
pub struct MemoryStore {
    // One lock around everything, so a commit's checks and writes are one atomic step, exactly
    // like a database transaction. A std mutex is right here: it is never held across an
    // `.await`, and the critical sections are a few map operations.
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    games: BTreeMap<String, GameRecord>,
    /// Keyed by (game id, seq), so one game's log is a contiguous, ascending range.
    log: BTreeMap<(String, u64), LogEntry>,
    /// Keyed by (game id, seat, key).
    idempotency: BTreeMap<(String, u8, String), IdempotencyRecord>,
    /// The outbox, keyed by message id.
    outbox: BTreeMap<String, OutboxMessage>,
    /// Apps, by id.
    apps: BTreeMap<String, AppRecord>,
    /// Each origin's creations in its latest hour.
    creations: BTreeMap<String, CreationWindow>,
    /// Players, by (app, id).
    players: BTreeMap<(String, String), PlayerRecord>,
    /// Which games each player sits in: (app, player) to (created_at, game id).
    player_games: BTreeMap<(String, String), std::collections::BTreeSet<(u64, String)>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// One page of the games `wanted` keeps, oldest first, in `query`'s ruleset and after its
    /// cursor. A full scan is fine for a test store; SqliteStore uses an index.
    fn page(
        &self,
        query: &ListQuery,
        wanted: impl Fn(&GameRecord) -> bool,
    ) -> Result<ListPage, StoreError> {
        // Validate the cursor before looking at any data, as the SQLite store does.
        let after = query.cursor.as_deref().map(PageCursor::parse).transpose()?;
        let limit = lobby_limit(query.limit);

        let inner = self.lock();
        let mut listed: Vec<&GameRecord> = inner
            .games
            .values()
            .filter(|g| wanted(g))
            .filter(|g| query.ruleset.as_ref().is_none_or(|r| *r == g.ruleset))
            .filter(|g| {
                after
                    .as_ref()
                    .is_none_or(|c| (g.created_at, g.id.as_str()) > (c.created_at, c.id.as_str()))
            })
            .collect();
        listed.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));

        let found = listed.into_iter().take(limit + 1).cloned().collect();
        Ok(lobby_page(found, limit))
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Every method checks everything before it mutates anything, and the mutations
        // themselves cannot fail halfway, so a panic in another thread cannot have left the maps
        // inconsistent: recovering the guard from a poisoned lock is safe.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[async_trait::async_trait]
impl GameStore for MemoryStore {
    async fn create(&self, record: &GameRecord) -> Result<(), StoreError> {
        let mut inner = self.lock();
        if inner.games.contains_key(&record.id) {
            return Err(StoreError::AlreadyExists(record.id.clone()));
        }
        inner.games.insert(record.id.clone(), record.clone());
        Ok(())
    }

    async fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        Ok(self.lock().games.get(id).cloned())
    }

    async fn commit(&self, commit: &Commit) -> Result<(), StoreError> {
        check_commit(commit)?;
        let id = &commit.record.id;
        let conflict = || StoreError::VersionConflict {
            id: id.clone(),
            expected: commit.expected_version,
        };

        let mut inner = self.lock();
        // All checks first, then all writes: that is what makes the commit all-or-nothing.
        let stored = inner
            .games
            .get(id)
            .ok_or_else(|| StoreError::NotFound(id.clone()))?;
        if stored.version != commit.expected_version {
            return Err(conflict());
        }
        if let Some(entry) = &commit.entry {
            if inner.log.contains_key(&(id.clone(), entry.seq)) {
                return Err(conflict());
            }
        }
        if let Some(idem) = &commit.idempotency {
            if inner
                .idempotency
                .contains_key(&(id.clone(), idem.seat, idem.key.clone()))
            {
                return Err(conflict());
            }
        }

        inner.games.insert(id.clone(), commit.record.clone());
        if let Some(entry) = &commit.entry {
            inner.log.insert((id.clone(), entry.seq), entry.clone());
        }
        if let Some(idem) = &commit.idempotency {
            inner
                .idempotency
                .insert((id.clone(), idem.seat, idem.key.clone()), idem.clone());
        }
        for message in &commit.outbox {
            inner.outbox.insert(message.id.clone(), message.clone());
        }
        Ok(())
    }

    async fn log(
        &self,
        id: &str,
        after: Option<u64>,
        limit: usize,
    ) -> Result<Vec<LogEntry>, StoreError> {
        let Some(start) = log_start(after) else {
            return Ok(Vec::new());
        };
        let inner = self.lock();
        let range = (id.to_owned(), start)..=(id.to_owned(), u64::MAX);
        Ok(inner
            .log
            .range(range)
            .take(limit)
            .map(|(_, entry)| entry.clone())
            .collect())
    }

    async fn idempotency(
        &self,
        id: &str,
        seat: u8,
        key: &str,
    ) -> Result<Option<IdempotencyRecord>, StoreError> {
        Ok(self
            .lock()
            .idempotency
            .get(&(id.to_owned(), seat, key.to_owned()))
            .cloned())
    }

    async fn list_open(&self, query: &ListQuery) -> Result<ListPage, StoreError> {
        self.page(query, |g| g.status == Status::Open && !g.invite_only)
    }

    async fn due_messages(&self, now: u64, limit: usize) -> Result<Vec<OutboxMessage>, StoreError> {
        let inner = self.lock();
        let mut due: Vec<&OutboxMessage> = inner
            .outbox
            .values()
            .filter(|m| m.status == DeliveryStatus::Pending)
            .filter(|m| m.next_attempt_at.unwrap_or(0) <= now)
            .collect();
        due.sort_by_key(|m| m.next_attempt_at.unwrap_or(0));
        Ok(due.into_iter().take(limit).cloned().collect())
    }

    async fn due_games(&self, now: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        let inner = self.lock();
        let mut due: Vec<(u64, &String)> = inner
            .games
            .values()
            .filter_map(|game| Some((game.due_at?, &game.id)))
            .filter(|(due_at, _)| *due_at <= now)
            .collect();
        due.sort();
        Ok(due
            .into_iter()
            .take(limit)
            .map(|(_, id)| id.clone())
            .collect())
    }

    async fn update_message(&self, message: &OutboxMessage) -> Result<(), StoreError> {
        let mut inner = self.lock();
        match inner.outbox.get_mut(&message.id) {
            Some(stored) if stored.game_id == message.game_id => {
                *stored = message.clone();
                Ok(())
            }
            _ => Err(StoreError::NotFound(message.id.clone())),
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
        let inner = self.lock();
        let mut found: Vec<&OutboxMessage> = inner
            .outbox
            .values()
            .filter(|m| m.game_id == game_id && m.hook_id == hook_id)
            .filter(|m| {
                before.as_ref().is_none_or(|before| {
                    (m.created_at, m.id.as_str()) < (before.created_at, before.id.as_str())
                })
            })
            .collect();
        found.sort_by(|a, b| (b.created_at, &b.id).cmp(&(a.created_at, &a.id)));
        let found = found.into_iter().take(limit + 1).cloned().collect();
        Ok(message_page(found, limit))
    }

    async fn delete(&self, id: &str) -> Result<(), StoreError> {
        let mut inner = self.lock();
        if inner.games.remove(id).is_none() {
            return Err(StoreError::NotFound(id.to_owned()));
        }
        inner.log.retain(|(game, _), _| game != id);
        inner.idempotency.retain(|(game, _, _), _| game != id);
        inner.outbox.retain(|_, message| message.game_id != id);
        Ok(())
    }

    async fn finished_before(&self, before: u64, limit: usize) -> Result<Vec<String>, StoreError> {
        let inner = self.lock();
        let mut finished: Vec<(u64, &String)> = inner
            .games
            .values()
            .filter(|game| game.status == Status::Finished && game.updated_at < before)
            .map(|game| (game.updated_at, &game.id))
            .collect();
        finished.sort();
        Ok(finished
            .into_iter()
            .take(limit)
            .map(|(_, id)| id.clone())
            .collect())
    }

    async fn list_app(&self, app: &str, query: &ListQuery) -> Result<ListPage, StoreError> {
        self.page(query, |g| {
            g.app.as_deref() == Some(app) && g.status != Status::Finished
        })
    }

    async fn live_games(&self, owner: Owner<'_>) -> Result<u64, StoreError> {
        let inner = self.lock();
        Ok(inner
            .games
            .values()
            .filter(|g| g.status != Status::Finished)
            .filter(|g| match owner {
                Owner::App(app) => g.app.as_deref() == Some(app),
                Owner::Origin(origin) => g.origin.as_deref() == Some(origin),
            })
            .count() as u64)
    }

    async fn count_creation(
        &self,
        origin: &str,
        hour: u64,
        limit: u32,
    ) -> Result<Option<u32>, StoreError> {
        let mut inner = self.lock();
        let window = inner
            .creations
            .entry(origin.to_owned())
            .or_insert(CreationWindow { hour, created: 0 });
        if window.hour != hour {
            *window = CreationWindow { hour, created: 0 };
        }
        if window.created >= limit {
            return Ok(None);
        }
        window.created += 1;
        Ok(Some(window.created))
    }

    async fn create_app(&self, app: &AppRecord) -> Result<(), StoreError> {
        let mut inner = self.lock();
        if inner.apps.contains_key(&app.id) {
            return Err(StoreError::AlreadyExists(app.id.clone()));
        }
        inner.apps.insert(app.id.clone(), app.clone());
        Ok(())
    }

    async fn load_app(&self, id: &str) -> Result<Option<AppRecord>, StoreError> {
        Ok(self.lock().apps.get(id).cloned())
    }

    async fn save_app(&self, app: &AppRecord, expected_version: u64) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let stored = inner
            .apps
            .get_mut(&app.id)
            .ok_or_else(|| StoreError::NotFound(app.id.clone()))?;
        if stored.version != expected_version {
            return Err(StoreError::VersionConflict {
                id: app.id.clone(),
                expected: expected_version,
            });
        }
        *stored = app.clone();
        Ok(())
    }

    async fn apps(&self) -> Result<Vec<AppRecord>, StoreError> {
        let inner = self.lock();
        let mut apps: Vec<AppRecord> = inner.apps.values().cloned().collect();
        apps.sort_by(|a, b| (a.created_at, &a.id).cmp(&(b.created_at, &b.id)));
        Ok(apps)
    }

    async fn load_player(&self, app: &str, id: &str) -> Result<Option<PlayerRecord>, StoreError> {
        Ok(self
            .lock()
            .players
            .get(&(app.to_owned(), id.to_owned()))
            .cloned())
    }

    async fn save_player(
        &self,
        player: &PlayerRecord,
        expected_version: u64,
    ) -> Result<(), StoreError> {
        let mut inner = self.lock();
        let key = (player.app.clone(), player.id.clone());
        let stored = inner.players.get(&key).map_or(0, |player| player.version);
        if stored != expected_version {
            return Err(StoreError::VersionConflict {
                id: player.id.clone(),
                expected: expected_version,
            });
        }
        inner.players.insert(key, player.clone());
        Ok(())
    }

    async fn add_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
        created_at: u64,
    ) -> Result<(), StoreError> {
        self.lock()
            .player_games
            .entry((app.to_owned(), player.to_owned()))
            .or_default()
            .insert((created_at, game.to_owned()));
        Ok(())
    }

    async fn remove_player_game(
        &self,
        app: &str,
        player: &str,
        game: &str,
    ) -> Result<(), StoreError> {
        if let Some(games) = self
            .lock()
            .player_games
            .get_mut(&(app.to_owned(), player.to_owned()))
        {
            games.retain(|(_, id)| id != game);
        }
        Ok(())
    }

    async fn player_games(
        &self,
        app: &str,
        player: &str,
        query: &ListQuery,
    ) -> Result<ListPage, StoreError> {
        let before = query.cursor.as_deref().map(PageCursor::parse).transpose()?;
        let limit = lobby_limit(query.limit);
        let inner = self.lock();
        let games: Vec<GameRecord> = inner
            .player_games
            .get(&(app.to_owned(), player.to_owned()))
            .into_iter()
            .flatten()
            .rev()
            .filter(|(created_at, id)| {
                before.as_ref().is_none_or(|before| {
                    (*created_at, id.as_str()) < (before.created_at, before.id.as_str())
                })
            })
            .filter_map(|(_, id)| inner.games.get(id).cloned())
            .take(limit + 1)
            .collect();
        Ok(lobby_page(games, limit))
    }
}
