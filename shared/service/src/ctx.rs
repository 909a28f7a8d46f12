//! What every handler and worker needs: the store, the registered games, the caches and the
//! webhook configuration, built once per process (or Lambda cold start).

use crate::{allowance, catalog, dice, dto, states, streams, webhooks};
use game_core::Registry;
use std::sync::Arc;
use store::GameStore;

/// What every handler needs: built once per process (or Lambda cold start).
pub struct AppCtx {
    /// Where games live.
    pub store: Arc<dyn GameStore>,
    /// The rulesets on offer.
    pub registry: Registry,
    /// The OpenAPI document as the HTTP edge sends it, built there on first use: the
    /// service only keeps it for the life of the process.
    pub openapi_json: std::sync::OnceLock<String>,
    /// What `GET /v1/rulesets` answers, built on first use ([`AppCtx::rulesets`]).
    rulesets: std::sync::OnceLock<dto::RulesetList>,
    /// Webhook policy (dev mode, retries) and the delivery worker's wake-up signal.
    pub webhooks: webhooks::WebhookConfig,
    /// The id of every game this process commits a change to, as it commits: long-polls
    /// (`GET /v1/games/{id}?after_version=…&wait=…`) wake on it.
    pub changes: tokio::sync::broadcast::Sender<String>,
    /// Engine states already loaded, by game and version.
    pub states: states::StateCache,
    /// Seeds of started games already derived, by game.
    pub seeds: states::SeedCache,
    /// What a `strong` bot may spend on one move ([`allowance::Allowance::SERVER`] unless a test
    /// asks for less).
    pub strong_allowance: allowance::Allowance,
    /// The longest one request (or one sweep of a game) spends playing bots before it answers
    /// ([`allowance::DRIVE_BUDGET`] unless a test asks otherwise).
    pub drive_budget: std::time::Duration,
    /// `true` once the server is stopping ([`AppCtx::stop`]): long-polls answer at once.
    pub stopping: tokio::sync::watch::Sender<bool>,
    /// The event streams open in this process, and how this deployment serves them.
    pub streams: streams::Streams,
    /// Where game ids, server secrets and bots' dice come from ([`dice::Dice::Os`] unless a
    /// test chooses a seed).
    pub dice: dice::Dice,
    /// How long a finished game is kept after its last change before the deadline worker
    /// deletes it whole; `None` keeps finished games.
    pub retention: Option<std::time::Duration>,
    /// Whether games need app keys, and the apps' quotas ([`crate::apps::Limits`]).
    pub limits: crate::apps::Limits,
    /// SHA-256 (hex) of the operator's key (`BEURS_OPERATOR_KEY`), which manages apps over
    /// HTTP; `None` turns those routes off.
    pub operator_key_hash: Option<String>,
}

/// How many change notices a slow long-poll may fall behind before it re-reads the store
/// anyway.
const CHANGES_BUFFER: usize = 256;

impl AppCtx {
    /// A context over `store` with every registered game.
    ///
    /// Cheap: the ruleset list and the OpenAPI document (which deal trial games) are built
    /// when first asked for, so a Lambda function that never serves them never builds them.
    pub fn new(store: Arc<dyn GameStore>) -> AppCtx {
        AppCtx {
            store,
            registry: catalog::registry(),
            openapi_json: std::sync::OnceLock::new(),
            rulesets: std::sync::OnceLock::new(),
            webhooks: webhooks::WebhookConfig::default(),
            changes: tokio::sync::broadcast::channel(CHANGES_BUFFER).0,
            states: states::StateCache::new(states::DEFAULT_CAPACITY),
            seeds: states::SeedCache::new(states::DEFAULT_CAPACITY),
            strong_allowance: allowance::Allowance::SERVER,
            drive_budget: allowance::DRIVE_BUDGET,
            stopping: tokio::sync::watch::channel(false).0,
            streams: streams::Streams::default(),
            dice: dice::Dice::Os,
            retention: None,
            limits: crate::apps::Limits::default(),
            operator_key_hash: None,
        }
    }

    /// The server is stopping: waiting long-polls answer now with the game as it is, and
    /// streams end with a `retry` hint.
    pub fn stop(&self) {
        self.stopping.send_replace(true);
    }

    /// What `GET /v1/rulesets` answers (built on the first call).
    pub fn rulesets(&self) -> &dto::RulesetList {
        self.rulesets
            .get_or_init(|| catalog::ruleset_list(&self.registry))
    }

    /// The same context drawing game ids, server secrets and bots' dice from `dice`: a test
    /// that needs a situation to arise chooses the seed it arises under.
    pub fn with_dice(mut self, dice: dice::Dice) -> AppCtx {
        self.dice = dice;
        self
    }

    /// The same context with `strong` bots thinking within `allowance`: tests that play
    /// whole games against `strong` bots give it a few milliseconds, so that they measure
    /// the bots' behaviour, not their patience.
    pub fn with_strong_allowance(mut self, allowance: allowance::Allowance) -> AppCtx {
        self.strong_allowance = allowance;
        self
    }

    /// The same context with one request playing bots for at most `budget` of wall time
    /// before it answers and leaves the rest to the deadline worker. Tests that are about
    /// what a request does with its bots give it minutes, so that a busy machine makes them
    /// slower, not different; the limit itself has a test of its own.
    pub fn with_drive_budget(mut self, budget: std::time::Duration) -> AppCtx {
        self.drive_budget = budget;
        self
    }

    /// The same context serving streams as `streams` says (one batch per request on Lambda).
    pub fn with_streams(mut self, streams: streams::Streams) -> AppCtx {
        self.streams = streams;
        self
    }

    /// The same context with another webhook configuration (dev mode, a test schedule).
    pub fn with_webhooks(mut self, config: webhooks::WebhookConfig) -> AppCtx {
        self.webhooks = config;
        self
    }

    /// The same context deleting finished games `period` after their last change (the
    /// deadline worker does it, [`crate::deadlines::sweep`]).
    pub fn with_retention(mut self, period: std::time::Duration) -> AppCtx {
        self.retention = Some(period);
        self
    }

    /// The same context with an operator key, which manages apps over HTTP.
    pub fn with_operator_key(mut self, key: &str) -> AppCtx {
        self.operator_key_hash = Some(crate::auth::sha256_hex(key.as_bytes()));
        self
    }

    /// The same context under `limits` (app keys required or not, the apps' quotas).
    pub fn with_limits(mut self, limits: crate::apps::Limits) -> AppCtx {
        self.limits = limits;
        self
    }
}
