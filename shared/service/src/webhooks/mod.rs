//! Webhooks (DESIGN.md §6): the policy, and the pieces of one delivery attempt.
//!
//! - A move (or the claim that starts a game) computes its notifications with
//!   [`crate::game::notifications`] and commits them in the same atomic commit as the move:
//!   the outbox.
//! - A [`crate::delivery::Deliverer`] makes delivery attempts: it signs ([`sign`]), re-checks
//!   the URL on fresh DNS answers ([`url`]), posts ([`deliver`]) and records the attempt and
//!   the next one (with [`RetryPolicy`]). Locally `beurs serve` runs it over the SQLite outbox;
//!   on AWS `functions/notify` calls it from the table's stream and SQS.
//!
//! Architecture invariant: a notification's body is fixed when its move commits, from the
//! projections the recipient may see (a seat's own view; the spectator's for the admin), so
//! retries resend the same bytes and nothing hidden can leak into a payload later.

pub mod chat;
pub mod deliver;
pub mod sign;
pub mod url;

use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// The most subscriptions one game may have (all seats and the admin together).
pub const MAX_HOOKS_PER_GAME: usize = 16;

/// When attempts are retried: exponential backoff with jitter (DESIGN.md §6).
#[derive(Clone, Debug, PartialEq)]
pub struct RetryPolicy {
    /// The wait after the n-th failed attempt (before jitter); its length + 1 is the number of
    /// attempts.
    pub delays: Vec<Duration>,
    /// Each wait is multiplied by a random factor in `1 - jitter ..= 1 + jitter`.
    pub jitter: f64,
    /// The deadline of one attempt, connection to status line.
    pub attempt_timeout: Duration,
}

impl Default for RetryPolicy {
    /// 12 attempts: after 5 s, 30 s, 2 min, 10 min, 1 h, 3 h and then every 6 h, each ±20 %.
    /// The last attempt comes 34 h (at least 27 h with the jitter) after the first, so a
    /// receiver may be down for a day and lose nothing.
    fn default() -> RetryPolicy {
        const MINUTE: u64 = 60;
        const HOUR: u64 = 60 * MINUTE;
        let seconds = [5, 30, 2 * MINUTE, 10 * MINUTE, HOUR, 3 * HOUR];
        let mut delays: Vec<Duration> = seconds.iter().map(|&s| Duration::from_secs(s)).collect();
        delays.extend([Duration::from_secs(6 * HOUR); 5]);
        RetryPolicy {
            delays,
            jitter: 0.2,
            attempt_timeout: Duration::from_secs(10),
        }
    }
}

impl RetryPolicy {
    /// The same schedule with every wait multiplied by `factor` (tests and demos use small
    /// factors; the number of attempts is unchanged).
    pub fn scaled(factor: f64) -> RetryPolicy {
        let mut policy = RetryPolicy::default();
        for delay in &mut policy.delays {
            *delay = delay.mul_f64(factor.max(0.0));
        }
        policy
    }

    /// How many attempts a notification gets.
    pub fn max_attempts(&self) -> u32 {
        u32::try_from(self.delays.len() + 1).unwrap_or(u32::MAX)
    }

    /// The wait after failed attempt `attempt` (1-based), jittered by `unit` in `0.0..1.0`, or
    /// `None` when that was the last attempt.
    pub fn delay_after(&self, attempt: u32, unit: f64) -> Option<Duration> {
        let base = *self
            .delays
            .get(usize::try_from(attempt).ok()?.checked_sub(1)?)?;
        let factor = 1.0 + self.jitter * (2.0 * unit.clamp(0.0, 1.0) - 1.0);
        Some(base.mul_f64(factor.max(0.0)))
    }
}

/// How this server treats webhooks.
#[derive(Clone, Debug)]
pub struct WebhookConfig {
    /// Dev mode: plain `http` (and `https`) to loopback receivers is allowed.
    pub dev: bool,
    /// The retry schedule.
    pub retry: RetryPolicy,
    /// Poked after a commit that queued notifications, so a local worker delivers at once.
    pub wake: Arc<Notify>,
}

impl Default for WebhookConfig {
    fn default() -> WebhookConfig {
        WebhookConfig {
            dev: false,
            retry: RetryPolicy::default(),
            wake: Arc::new(Notify::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_schedule_spans_more_than_a_day_with_eight_or_more_attempts() {
        let policy = RetryPolicy::default();
        assert!(policy.max_attempts() >= 8);
        let shortest: Duration = (1..policy.max_attempts())
            .map(|n| policy.delay_after(n, 0.0).unwrap())
            .sum();
        assert!(
            shortest >= Duration::from_secs(24 * 3600),
            "even with the jitter at its lowest the attempts span {shortest:?}"
        );
        assert_eq!(policy.delay_after(1, 0.5), Some(Duration::from_secs(5)));
        assert_eq!(
            policy.delay_after(policy.max_attempts() - 1, 0.5),
            Some(Duration::from_secs(6 * 3600)),
            "the waits grow to about six hours"
        );
        assert_eq!(policy.delay_after(policy.max_attempts(), 0.5), None);
        assert_eq!(policy.delay_after(0, 0.5), None);
    }

    #[test]
    fn jitter_stays_within_its_band() {
        let policy = RetryPolicy::default();
        let low = policy.delay_after(2, 0.0).unwrap();
        let high = policy.delay_after(2, 0.999_999).unwrap();
        assert_eq!(low, Duration::from_secs(24));
        assert!(high > Duration::from_secs(35) && high <= Duration::from_secs(36));
        let scaled = RetryPolicy::scaled(0.01);
        assert_eq!(scaled.delay_after(1, 0.5), Some(Duration::from_millis(50)));
        assert_eq!(scaled.max_attempts(), policy.max_attempts());
    }
}
