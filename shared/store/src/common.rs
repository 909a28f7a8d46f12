//! Rules every store applies the same way, kept in one place so the stores cannot drift apart:
//! commit preconditions, the lobby page size and the page cursor format (lobby, deliveries).

use std::fmt;

use crate::{Commit, GameRecord, ListPage, MessagePage, OutboxMessage, StoreError};

/// The largest lobby page (ListQuery documents 1..=100).
pub(crate) const MAX_LOBBY_LIMIT: usize = 100;

/// Rejects a commit that breaks the preconditions `Commit` documents. These are bugs in the
/// caller, not races, so they are not `VersionConflict` (a retry would fail the same way); they
/// are checked before anything is read so that a bad commit can never write a version that goes
/// backwards, which would defeat optimistic concurrency for every later writer.
pub(crate) fn check_commit(commit: &Commit) -> Result<(), StoreError> {
    let record = &commit.record;
    if commit.expected_version.checked_add(1) != Some(record.version) {
        return Err(StoreError::Backend(format!(
            "invalid commit for game {}: record version {} is not expected version {} + 1",
            record.id, record.version, commit.expected_version
        )));
    }
    if let Some(message) = commit.outbox.iter().find(|m| m.game_id != record.id) {
        return Err(StoreError::Backend(format!(
            "invalid commit for game {}: notification {} is for game {}",
            record.id, message.id, message.game_id
        )));
    }
    Ok(())
}

/// The page size actually used for a lobby query. Out-of-range limits are clamped rather than
/// refused: the API validates what clients send, and a store should not fail a listing over it.
pub(crate) fn lobby_limit(limit: usize) -> usize {
    limit.clamp(1, MAX_LOBBY_LIMIT)
}

/// The first log seq of a page that follows `after` (0 for the first page), or `None` when
/// nothing can follow it (`after` is `u64::MAX`).
pub(crate) fn log_start(after: Option<u64>) -> Option<u64> {
    after.map_or(Some(0), |after| after.checked_add(1))
}

/// Where a page of the lobby or of a subscription's notifications ended: the sort key
/// `(created_at, id)` of its last game or notification.
///
/// Written as `<created_at>.<id>`. It is opaque to clients but deliberately plain (not base64):
/// it reveals nothing that the listed game does not already show, and it is easy to debug.
/// Keying on the sort key rather than an offset means games created or started between two
/// page requests neither duplicate nor skip the games that remain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PageCursor {
    pub(crate) created_at: u64,
    pub(crate) id: String,
}

impl PageCursor {
    /// The cursor that resumes after `game`.
    pub(crate) fn of(game: &GameRecord) -> PageCursor {
        PageCursor {
            created_at: game.created_at,
            id: game.id.clone(),
        }
    }

    /// Parses a cursor from a client. Anything this module did not write is `BadCursor`; a
    /// cursor is client input, so it must never panic.
    pub(crate) fn parse(cursor: &str) -> Result<PageCursor, StoreError> {
        let (created_at, id) = cursor.split_once('.').ok_or(StoreError::BadCursor)?;
        // `u64::from_str` accepts a leading `+`; insisting on digits keeps one spelling per cursor.
        if created_at.is_empty() || !created_at.bytes().all(|b| b.is_ascii_digit()) {
            return Err(StoreError::BadCursor);
        }
        let created_at = created_at.parse().map_err(|_| StoreError::BadCursor)?;
        if id.is_empty() || id.chars().any(char::is_control) {
            return Err(StoreError::BadCursor);
        }
        Ok(PageCursor {
            created_at,
            id: id.to_owned(),
        })
    }
}

impl PageCursor {
    /// The cursor that resumes after `message` in a subscription's notifications.
    pub(crate) fn of_message(message: &OutboxMessage) -> PageCursor {
        PageCursor {
            created_at: message.created_at,
            id: message.id.clone(),
        }
    }
}

/// The page of games `found` (in lobby order, at most `limit + 1` of them, all after the
/// cursor): the extra one only says that another page exists.
pub(crate) fn lobby_page(mut found: Vec<GameRecord>, limit: usize) -> ListPage {
    let more = found.len() > limit;
    found.truncate(limit);
    let next_cursor = if more {
        found.last().map(|g| PageCursor::of(g).to_string())
    } else {
        None
    };
    ListPage {
        games: found,
        next_cursor,
    }
}

/// The page of notifications `found` (newest first, at most `limit + 1` of them, all after
/// the cursor): the extra one only says that another page exists.
pub(crate) fn message_page(mut found: Vec<OutboxMessage>, limit: usize) -> MessagePage {
    let more = found.len() > limit;
    found.truncate(limit);
    let next_cursor = if more {
        found.last().map(|m| PageCursor::of_message(m).to_string())
    } else {
        None
    };
    MessagePage {
        messages: found,
        next_cursor,
    }
}

impl fmt::Display for PageCursor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.created_at, self.id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursor_round_trips_even_when_the_id_has_dots() {
        let cursor = PageCursor {
            created_at: 1_700_000_000_000,
            id: "g_a.b".to_owned(),
        };
        assert_eq!(PageCursor::parse(&cursor.to_string()).unwrap(), cursor);
    }

    #[test]
    fn malformed_cursors_are_refused() {
        for bad in [
            "",
            ".",
            "123",
            "123.",
            ".g_1",
            "+1.g_1",
            "-1.g_1",
            "1x.g_1",
            "99999999999999999999.g_1",
            "1.g\n",
        ] {
            assert!(
                matches!(PageCursor::parse(bad), Err(StoreError::BadCursor)),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_log_page_starts_after_its_cursor() {
        assert_eq!(log_start(None), Some(0));
        assert_eq!(log_start(Some(4)), Some(5));
        assert_eq!(log_start(Some(u64::MAX)), None);
    }

    #[test]
    fn limits_are_clamped_to_one_page() {
        assert_eq!(lobby_limit(0), 1);
        assert_eq!(lobby_limit(3), 3);
        assert_eq!(lobby_limit(1000), MAX_LOBBY_LIMIT);
    }
}
