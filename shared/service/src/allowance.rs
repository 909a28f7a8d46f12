//! How long the server's bots may think and play: a `strong` bot's allowance for one move,
//! and the time one request spends playing bots. A setting of the context ([`crate::AppCtx`])
//! as much as of the bots, so it sits below both.

use cpu_time::ThreadTime;
use std::time::{Duration, Instant};

/// The longest one request spends playing bots before it answers, unless its context says
/// otherwise (`AppCtx::drive_budget`). What is left is due at once (`GameRecord::due_at`),
/// so the deadline worker plays on: a game of bots alone may take thousands of moves, which
/// on DynamoDB would outlast the request.
pub const DRIVE_BUDGET: std::time::Duration = std::time::Duration::from_secs(5);

/// How long the `strong` bot searches for one move, in CPU time of its thread (it may stop
/// sooner, at [`game_core::search::Budget::STRONG`]'s playouts).
pub const STRONG_MOVE_TIME: Duration = Duration::from_millis(100);

/// What a `strong` bot may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// Time, as servers and the benchmark count it.
    Time {
        /// CPU time of the thread that searches. Counting CPU rather than wall time, a busy
        /// machine makes the bot slower, not weaker.
        cpu: Duration,
        /// Wall time, if bounded: the server's guard, so that a request whose bot thread
        /// waits for a core still answers in time.
        wall: Option<Duration>,
    },
    /// A number of readings of the clock (the search reads it once a playout): the same
    /// choices on any machine, however busy, for tests that need a bot's moves to repeat.
    Readings(u32),
}

impl Allowance {
    /// The server's: [`STRONG_MOVE_TIME`] of CPU, and at most four times that of wall time.
    pub const SERVER: Allowance = Allowance::Time {
        cpu: STRONG_MOVE_TIME,
        wall: Some(Duration::from_millis(400)),
    };

    /// The benchmark's (`beurs bots`): the same CPU time and no wall limit, so a run beside
    /// other work measures the same bot as a run on an idle machine.
    pub const CPU_ONLY: Allowance = Allowance::Time {
        cpu: STRONG_MOVE_TIME,
        wall: None,
    };

    /// A clock for one search: the share of this allowance spent since the call (for time,
    /// by whichever of CPU and wall time is further along).
    pub(crate) fn clock(self) -> impl FnMut() -> f64 {
        let cpu_started = ThreadTime::now();
        let wall_started = Instant::now();
        let mut readings = 0u32;
        move || match self {
            Allowance::Time { cpu, wall } => {
                let cpu = cpu_started.elapsed().as_secs_f64() / cpu.as_secs_f64();
                let wall = wall.map_or(0.0, |wall| {
                    wall_started.elapsed().as_secs_f64() / wall.as_secs_f64()
                });
                cpu.max(wall)
            }
            Allowance::Readings(allowed) => {
                let share = f64::from(readings) / f64::from(allowed.max(1));
                readings = readings.saturating_add(1);
                share
            }
        }
    }
}
