//! What the Server-Sent Event streams share: how a deployment serves them (open for as long
//! as the client listens, or one batch per request where responses are buffered) and how
//! many one client may hold. The routes are the api crate's `routes::events`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How a deployment serves a stream.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StreamMode {
    /// `beurs serve`: the response stays open, event after event, with heartbeats, until the
    /// client goes away or the server stops.
    #[default]
    Open,
    /// Lambda behind API Gateway, whose responses are buffered: a response carries one batch
    /// (what a resume has missed, or the next change within [`MAX_BATCH_WAIT`]) and ends with
    /// `retry: 0`, so an `EventSource` reconnects at once with `Last-Event-ID`: a long-poll in
    /// the stream's own format (docs/api.md, "Streams").
    OneBatch,
}

/// The longest a one-batch stream waits for a change: within API Gateway's 29 seconds, like
/// a long-poll.
pub const MAX_BATCH_WAIT: Duration = Duration::from_secs(25);

/// How often an open stream sends a heartbeat comment while nothing happens, so proxies
/// keep it and clients see it alive.
pub const HEARTBEAT: Duration = Duration::from_secs(15);

/// The reconnection delay an open stream suggests when it ends (a `retry` field): the server
/// is stopping, so a second's pause spares it a storm of reconnections.
pub const RETRY: Duration = Duration::from_secs(1);

impl StreamMode {
    /// The reconnection delay a stream suggests when it ends: [`RETRY`] for an open stream
    /// (the server is stopping); none after a batch, since the next request is the next
    /// long-poll and a pause would only delay the next change.
    pub fn retry(self) -> Duration {
        match self {
            StreamMode::Open => RETRY,
            StreamMode::OneBatch => Duration::ZERO,
        }
    }
}

/// How many streams one client may hold at once: per token, and per game for readers
/// without a token; and how many the process serves in all (below `beurs serve`'s
/// connection limit, so streams never take every connection).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StreamLimits {
    /// Streams one bearer token may hold.
    pub per_token: usize,
    /// Streams readers without a token may hold on one game.
    pub anonymous_per_game: usize,
    /// Streams the process serves in all.
    pub total: usize,
}

impl Default for StreamLimits {
    fn default() -> StreamLimits {
        StreamLimits {
            per_token: 4,
            anonymous_per_game: 32,
            total: 512,
        }
    }
}

/// Who holds a stream, for [`StreamLimits`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Holder {
    /// A bearer token, by its SHA-256 (never the token itself).
    Token(String),
    /// A reader without a token, by the game it reads.
    Anonymous(String),
}

/// The streams open in this process, by holder.
#[derive(Debug, Default)]
pub struct Streams {
    /// How this deployment serves them.
    pub mode: StreamMode,
    /// How many one client may hold.
    pub limits: StreamLimits,
    open: Arc<Mutex<Open>>,
}

#[derive(Debug, Default)]
struct Open {
    by_holder: HashMap<Holder, usize>,
    total: usize,
}

/// Why a stream was not opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// The holder has its limit open.
    Holder(usize),
    /// The process has its limit open.
    Process,
}

/// One open stream: dropping it (the stream ended, or its client went away and the body was
/// dropped) frees its place.
#[derive(Debug)]
pub struct Slot {
    holder: Holder,
    open: Arc<Mutex<Open>>,
}

impl Streams {
    /// Streams served as `mode`, with the default limits.
    pub fn new(mode: StreamMode) -> Streams {
        Streams {
            mode,
            ..Streams::default()
        }
    }

    /// The same streams with other limits.
    pub fn with_limits(mut self, limits: StreamLimits) -> Streams {
        self.limits = limits;
        self
    }

    /// A place for one more stream of `holder`, if it and the process are under their limits.
    pub fn open(&self, holder: Holder) -> Result<Slot, Full> {
        let limit = match holder {
            Holder::Token(_) => self.limits.per_token,
            Holder::Anonymous(_) => self.limits.anonymous_per_game,
        };
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if open.total >= self.limits.total {
            return Err(Full::Process);
        }
        let held = open.by_holder.entry(holder.clone()).or_default();
        if *held >= limit {
            return Err(Full::Holder(limit));
        }
        *held += 1;
        open.total += 1;
        Ok(Slot {
            holder,
            open: self.open.clone(),
        })
    }

    /// How many streams are open in this process.
    pub fn open_count(&self) -> usize {
        self.open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
            .total
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut open = self
            .open
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        open.total = open.total.saturating_sub(1);
        if let Some(held) = open.by_holder.get_mut(&self.holder) {
            *held -= 1;
            if *held == 0 {
                open.by_holder.remove(&self.holder);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_gets_its_limit_and_a_dropped_slot_frees_its_place() {
        let streams = Streams {
            limits: StreamLimits {
                per_token: 2,
                anonymous_per_game: 1,
                total: 4,
            },
            ..Streams::default()
        };
        let token = Holder::Token("a".into());
        let first = streams.open(token.clone()).unwrap();
        let _second = streams.open(token.clone()).unwrap();
        assert_eq!(streams.open(token.clone()).unwrap_err(), Full::Holder(2));
        // Another holder is not held back by the first one's streams.
        let _spectator = streams.open(Holder::Anonymous("g".into())).unwrap();
        assert_eq!(
            streams.open(Holder::Anonymous("g".into())).unwrap_err(),
            Full::Holder(1)
        );
        drop(first);
        let _third = streams.open(token.clone()).unwrap();
        assert_eq!(streams.open_count(), 3);
        let _other = streams.open(Holder::Token("b".into())).unwrap();
        assert_eq!(
            streams.open(Holder::Token("c".into())).unwrap_err(),
            Full::Process
        );
    }
}
