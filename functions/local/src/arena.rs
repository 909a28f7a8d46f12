//! `beurs bots`: one bot against the others at a four-seat table, many games per ruleset, and
//! the win rates and move times of the bot under test. A benchmark, not a test: it measures
//! the bots the server runs (`service::bots`), with the same inputs and the same fallbacks, on
//! the engines directly (no HTTP, no store), so the times are the bots' own.
//!
//! The tested bot takes each seat in turn (game `i` puts it at seat `i mod seats`), so no seat
//! order favours it. Each game has its own seed, so a run is reproducible up to the strong
//! bot's time limit (how many playouts fit in it). That limit and the reported move times are
//! CPU time of the thinking thread ([`Allowance::CPU_ONLY`]), so a run beside other work
//! plays the same bot as a run on an idle machine, only slower.

use cpu_time::ThreadTime;
use game_core::testing::game_seed;
use game_core::{DynRuleset, GameRng, Seat, SeatSet};
use service::bots::{Allowance, BotInput, Streak, SAMPLES};
use service::dto::BotKind;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What to play.
#[derive(Clone, Debug)]
pub struct Config {
    /// The rulesets, by id.
    pub rulesets: Vec<String>,
    /// Games per ruleset.
    pub games: u64,
    /// Seats at the table.
    pub seats: u8,
    /// The bot under test (one seat).
    pub bot: BotKind,
    /// The bot at every other seat.
    pub against: BotKind,
    /// Games played at once, each on its own thread.
    pub threads: usize,
    /// The base seed of the games.
    pub seed: u64,
}

/// The games of one ruleset, from the tested bot's side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played to the end.
    pub games: u64,
    /// Games that hit the move limit (not counted in `games`).
    pub unfinished: u64,
    /// Wins, a shared win counting its share.
    pub wins: f64,
    /// Moves the tested bot made.
    pub moves: u64,
    /// Its thinking time (CPU time of its thread), all moves together.
    pub think: Duration,
    /// Its longest think.
    pub longest: Duration,
    /// Its moves that searched (more than one candidate).
    pub searched: u64,
    /// Of those, the moves whose search narrowed the candidates to one before it ended.
    pub narrowed: u64,
    /// All moves of all finished games, every seat.
    pub all_moves: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.games += other.games;
        self.unfinished += other.unfinished;
        self.wins += other.wins;
        self.moves += other.moves;
        self.think += other.think;
        self.longest = self.longest.max(other.longest);
        self.searched += other.searched;
        self.narrowed += other.narrowed;
        self.all_moves += other.all_moves;
    }

    /// The tested bot's share of the wins, in percent.
    pub fn win_rate(&self) -> f64 {
        100.0 * self.wins / self.games.max(1) as f64
    }

    /// Its mean time per move.
    pub fn mean_think(&self) -> Duration {
        self.think / u32::try_from(self.moves.max(1)).unwrap_or(u32::MAX)
    }
}

/// The most moves a game may take before it counts as unfinished.
const MOVE_LIMIT: u64 = 50_000;

/// Plays one game: `Ok(tally)` of that game alone.
pub fn play_game(ruleset: &dyn DynRuleset, config: &Config, index: u64) -> anyhow::Result<Tally> {
    let seed = game_seed(config.seed, index);
    let mut engine = ruleset
        .setup(config.seats, &serde_json::json!({}), seed)
        .map_err(|error| anyhow::anyhow!("{}: {error}", ruleset.id()))?;
    let tested = Seat((index % u64::from(config.seats)) as u8);
    let mut rng = GameRng::for_entry(game_seed(config.seed ^ 0xB075, index), 0);
    let mut tally = Tally::default();
    let mut step = 0u64;
    // Seats that chose to wait since the last move (as `service::bots::drive` keeps them).
    let mut declined = SeatSet::EMPTY;
    let mut streak = Streak::default();
    while engine.outcome().is_none() {
        if step == MOVE_LIMIT {
            tally.unfinished = 1;
            return Ok(tally);
        }
        // A random seat of those the game waits on that has not chosen to wait: several may
        // act at once (a negotiation), and no seat should always go first.
        let ready: Vec<Seat> = engine
            .waiting_on()
            .iter()
            .filter(|&seat| !declined.contains(seat))
            .collect();
        let Some(&seat) = rng.choose(&ready) else {
            anyhow::bail!("{} game {index} waits on nobody", ruleset.id());
        };
        let bot = if seat == tested {
            config.bot
        } else {
            config.against
        };
        let started = ThreadTime::now();
        let mut input = BotInput::of(engine.as_ref(), seat);
        let choice = input.think(
            bot,
            engine.as_ref(),
            ready.len() > 1,
            Allowance::CPU_ONLY,
            &mut rng,
        );
        streak.curb(&mut input);
        if seat == tested {
            let thought = started.elapsed();
            tally.moves += 1;
            tally.think += thought;
            tally.longest = tally.longest.max(thought);
            if let Some(choice) = choice.filter(|choice| choice.candidates > 1) {
                tally.searched += 1;
                tally.narrowed += u64::from(choice.finalists == 1);
            }
        }
        if input.waits {
            declined.insert(seat);
            continue;
        }
        declined = SeatSet::EMPTY;
        streak.moved(seat);
        step += 1;
        let mut dice = GameRng::for_entry(seed, step);
        let tries = SAMPLES + u32::from(input.proposal.is_some());
        let moved = (0..=tries).any(|attempt| {
            input
                .attempt(attempt, &mut rng)
                .is_some_and(|action| engine.apply_json(seat, &action, &mut dice).is_ok())
        });
        if !moved {
            anyhow::bail!(
                "{} game {index}: the {} bot of {seat} found no move",
                ruleset.id(),
                bot.as_str()
            );
        }
    }
    let outcome = engine.outcome().expect("the loop ends at the outcome");
    tally.games = 1;
    tally.all_moves = step;
    if outcome.winners.contains(tested) {
        tally.wins = 1.0 / outcome.winners.len() as f64;
    }
    Ok(tally)
}

/// Plays `config.games` games of `ruleset` on `config.threads` threads.
pub fn play_ruleset(ruleset: &dyn DynRuleset, config: &Config) -> anyhow::Result<Tally> {
    let next = AtomicU64::new(0);
    let total = Mutex::new(Tally::default());
    let failure: Mutex<Option<anyhow::Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= config.games {
                    break;
                }
                match play_game(ruleset, config, index) {
                    Ok(tally) => total.lock().expect("tally lock").add(&tally),
                    Err(error) => {
                        *failure.lock().expect("failure lock") = Some(error);
                        next.store(config.games, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    if let Some(error) = failure.into_inner().expect("failure lock") {
        return Err(error);
    }
    Ok(total.into_inner().expect("tally lock"))
}

/// Runs the benchmark and prints a Markdown table, one row per ruleset.
pub fn run(config: &Config) -> anyhow::Result<()> {
    let registry = service::registry();
    println!(
        "{} (1 seat) against {} ({} seats), {} games per ruleset, {} threads, seed {}",
        config.bot.as_str(),
        config.against.as_str(),
        config.seats - 1,
        config.games,
        config.threads,
        config.seed
    );
    println!();
    println!("| ruleset | games | wins | win rate | fair share | CPU ms/move (mean) | CPU ms/move (max) | searches narrowed to one | moves/game |");
    println!("|---|---|---|---|---|---|---|---|---|");
    for id in &config.rulesets {
        let ruleset = registry
            .get(id)
            .ok_or_else(|| anyhow::anyhow!("unknown ruleset '{id}'"))?;
        let started = Instant::now();
        let tally = play_ruleset(ruleset, config)?;
        println!(
            "| {id} | {} | {:.1} | {:.1} % | {:.1} % | {:.1} | {:.1} | {} | {:.0} |",
            tally.games,
            tally.wins,
            tally.win_rate(),
            100.0 / f64::from(config.seats),
            tally.mean_think().as_secs_f64() * 1e3,
            tally.longest.as_secs_f64() * 1e3,
            match tally.searched {
                0 => "-".to_string(),
                searched => format!("{:.0} %", 100.0 * tally.narrowed as f64 / searched as f64),
            },
            tally.all_moves as f64 / tally.games.max(1) as f64,
        );
        if tally.unfinished > 0 {
            println!(
                "|   ({} games of {id} hit the {MOVE_LIMIT}-move limit and are left out) ||||||||",
                tally.unfinished
            );
        }
        eprintln!("{id}: {:.0} s", started.elapsed().as_secs_f64());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_run_finishes_every_game_and_times_the_tested_bot_only() {
        let registry = service::registry();
        let ruleset = registry.get("tulip-bubble").expect("registered");
        let config = Config {
            rulesets: vec!["tulip-bubble".into()],
            games: 4,
            seats: 4,
            bot: BotKind::Basic,
            against: BotKind::Random,
            threads: 2,
            seed: 7,
        };
        let tally = play_ruleset(ruleset, &config).expect("the games play");
        assert_eq!(tally.games + tally.unfinished, 4);
        assert_eq!(tally.unfinished, 0);
        assert!(tally.moves > 0 && tally.moves < tally.all_moves);
        assert!((0.0..=4.0).contains(&tally.wins));
        // `basic` has no clock: its searches run their phases out.
        assert!(tally.searched > 0 && tally.narrowed > 0, "{tally:?}");
    }
}
