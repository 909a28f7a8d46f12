//! The `beurs` command line, parsed by clap: `beurs [serve] [OPTIONS]`, `beurs verify SOURCE`,
//! `beurs bench [OPTIONS]`, `beurs bots [OPTIONS]`, `beurs openapi`. Every serve option also reads an environment
//! variable (`BEURS_ADDR`, `BEURS_DB`, `BEURS_DEV`, `BEURS_STORE`, `BEURS_TABLE`,
//! `BEURS_CORS_ORIGINS`); a flag wins over its variable.
//!
//! `beurs` with no subcommand serves, so `cargo run --release` starts the server, and the serve
//! options may be given without the word `serve` (`beurs --addr 0.0.0.0:9000`).

use crate::store_choice::{StoreArgs, StoreChoice};
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{Args, CommandFactory, FromArgMatches, Parser, Subcommand};
use service::dto::BotKind;
use std::path::PathBuf;
use std::time::Duration;

/// Beurs: rules-as-a-service for board games. With no command, serves the API.
#[derive(Debug, Parser)]
#[command(name = "beurs", args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// What to do (serve if none is given).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The serve options, when `beurs` is run without a command.
    #[command(flatten)]
    pub serve: ServeArgs,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Serve the API on one port (the default command)
    Serve(ServeArgs),
    /// Replay a finished game's audit and check the commitment, the seed and every hash
    Verify(VerifyArgs),
    /// Random players over HTTP, and the store-only commit rate on the same disk
    Bench(BenchArgs),
    /// One bot against three others, many games per ruleset: win rates and move times
    Bots(BotsArgs),
    /// Create, list, rotate and revoke apps' API keys (docs/apps.md)
    Apps(AppsArgs),
    /// Print the OpenAPI document
    Openapi,
}

/// `beurs apps`.
#[derive(Clone, Debug, Args)]
pub struct AppsArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: AppsAction,
    /// The SQLite file (with --store sqlite)
    #[arg(
        long,
        env = "BEURS_DB",
        hide_env_values = true,
        value_name = "PATH",
        default_value = "beurs.sqlite",
        global = true
    )]
    pub db: PathBuf,
    /// The store.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// What `beurs apps` does.
#[derive(Clone, Debug, Subcommand)]
pub enum AppsAction {
    /// Create an app and its first key (printed once)
    Create {
        /// The app's name
        name: String,
        /// A scope of the key (repeatable): games:create, games:admin, bots:seat,
        /// webhooks:manage, games:read. None: every scope
        #[arg(long, value_parser = parse_scope)]
        scope: Vec<store::Scope>,
    },
    /// List the apps and their keys (never the keys themselves)
    List,
    /// Issue another key to an app (at most two live): move its clients, then revoke the old
    Rotate {
        /// The app id (a_…)
        app: String,
        /// The new key's scopes (repeatable); none: the newest live key's
        #[arg(long, value_parser = parse_scope)]
        scope: Vec<store::Scope>,
    },
    /// Revoke one of an app's keys: from now on it is refused
    Revoke {
        /// The app id (a_…)
        app: String,
        /// The key's id (k_…), as `beurs apps list` shows it
        key: String,
    },
}

fn parse_scope(scope: &str) -> Result<store::Scope, String> {
    scope.parse().map_err(|_| {
        format!("{scope:?} is not a scope: games:create, games:admin, bots:seat, webhooks:manage or games:read")
    })
}

/// `beurs serve`.
#[derive(Clone, Debug, Args)]
pub struct ServeArgs {
    /// Listen address
    #[arg(
        long,
        env = "BEURS_ADDR",
        hide_env_values = true,
        value_name = "HOST:PORT",
        default_value = "127.0.0.1:8080"
    )]
    pub addr: String,
    /// The SQLite file (with --store sqlite)
    #[arg(
        long,
        env = "BEURS_DB",
        hide_env_values = true,
        value_name = "PATH",
        default_value = "beurs.sqlite"
    )]
    pub db: PathBuf,
    /// Dev mode: webhooks may call loopback receivers over plain http
    #[arg(
        long,
        env = "BEURS_DEV",
        hide_env_values = true,
        value_parser = clap::builder::FalseyValueParser::new()
    )]
    pub dev: bool,
    /// An origin browser front-ends may call the API from (repeatable; the variable takes a
    /// comma-separated list). None given: any origin (the API uses bearer tokens, never
    /// cookies; docs/api.md, CORS)
    #[arg(
        long = "cors-origin",
        env = "BEURS_CORS_ORIGINS",
        hide_env_values = true,
        value_name = "ORIGIN",
        value_delimiter = ','
    )]
    pub cors_origins: Vec<String>,
    /// Open connections at most; further clients wait to be accepted
    #[arg(
        long,
        env = "BEURS_MAX_CONNECTIONS",
        default_value_t = 1024,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub max_connections: usize,
    /// Milliseconds a connection may take to send a request's head, and may stay idle
    /// between requests, before it is closed
    #[arg(
        long,
        env = "BEURS_HEADER_TIMEOUT_MS",
        default_value_t = 10_000,
        value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..)
    )]
    pub header_timeout_ms: u64,
    /// Delete a finished game, with everything stored under it, this many days after its
    /// last change (the deadline worker does it). Unset: finished games are kept
    #[arg(
        long = "finished-retention-days",
        env = "BEURS_FINISHED_RETENTION_DAYS",
        value_name = "DAYS",
        value_parser = clap::builder::RangedU64ValueParser::<u64>::new().range(1..=36_500)
    )]
    pub finished_retention_days: Option<u64>,
    /// Only app keys may create games (a deployment shared by several apps; docs/apps.md).
    /// Off: anyone may create games, under the per-address limits
    #[arg(long = "require-app-key", env = "BEURS_REQUIRE_APP_KEY")]
    pub require_app_key: bool,
    /// Requests per second each app key, and each client address without a key, may keep
    /// up (0: unlimited)
    #[arg(
        long = "requests-per-second",
        env = "BEURS_REQUESTS_PER_SECOND",
        default_value_t = 100
    )]
    pub requests_per_second: u32,
    /// Requests at once each key or address may burst to
    #[arg(
        long = "request-burst",
        env = "BEURS_REQUEST_BURST",
        default_value_t = 200
    )]
    pub request_burst: u32,
    /// Games each client address may create per hour without an app key (0: unlimited)
    #[arg(
        long = "keyless-creations-per-hour",
        env = "BEURS_KEYLESS_CREATIONS_PER_HOUR",
        default_value_t = service::apps::KEYLESS_CREATIONS_PER_HOUR
    )]
    pub keyless_creations_per_hour: u32,
    /// Unfinished games each client address may hold, created without an app key (0:
    /// unlimited)
    #[arg(
        long = "keyless-live-games",
        env = "BEURS_KEYLESS_LIVE_GAMES",
        default_value_t = service::apps::KEYLESS_LIVE_GAMES
    )]
    pub keyless_live_games: u32,
    /// Games one app may create per clock hour
    #[arg(
        long = "app-creations-per-hour",
        env = "BEURS_APP_CREATIONS_PER_HOUR",
        default_value_t = 1_000
    )]
    pub app_creations_per_hour: u32,
    /// Games of one app that may be unfinished at once
    #[arg(
        long = "app-live-games",
        env = "BEURS_APP_LIVE_GAMES",
        default_value_t = 500
    )]
    pub app_live_games: u32,
    /// The store.
    #[command(flatten)]
    pub store: StoreArgs,
}

/// `beurs verify`.
#[derive(Clone, Debug, Args)]
pub struct VerifyArgs {
    /// An audit file, or a game's audit URL (http:// or https://, every page is fetched)
    #[arg(value_name = "AUDIT.json|URL")]
    pub source: String,
}

/// `beurs bench`.
#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    /// Concurrent clients, each playing its own games
    #[arg(
        long,
        default_value_t = 16,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..)
    )]
    pub clients: usize,
    /// Seconds of play per ruleset
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// A ruleset id, or all
    #[arg(long, value_name = "ID|all", default_value = "all")]
    pub ruleset: String,
    /// Bench a running server (http:// or https:// base URL) instead of starting one
    #[arg(long)]
    pub url: Option<String>,
    /// Where the started server and the store-only run keep their databases [default: the
    /// system's temporary directory]
    #[arg(long, value_name = "PATH")]
    pub dir: Option<PathBuf>,
    /// The beurs binary to start as the server [default: this one]; another build's binary
    /// compares two builds in one run
    #[arg(long, value_name = "PATH", conflicts_with = "url")]
    pub server_bin: Option<PathBuf>,
    /// Count the server's instructions per committed move under valgrind's cachegrind
    /// (needs valgrind) instead of timing it: repeatable where CPU time is noisy. A fresh
    /// server per ruleset, about 50 times slower; latencies and rates are not reported
    #[arg(long, conflicts_with = "url")]
    pub instructions: bool,
    /// Requests per move: `three` reads the game, then the seat's legal actions, then posts
    /// the move; `two` asks for the legal actions with the move's answer and with the next
    /// seat's read of the game (`include=legal_actions`)
    #[arg(long, value_enum, default_value_t = crate::bench::Pattern::Three)]
    pub pattern: crate::bench::Pattern,
    /// Pin the server this bench starts to CPU 0 and the clients to CPU 1
    /// (`sched_setaffinity`, Linux), to measure what one server core does
    #[arg(long, conflicts_with_all = ["url", "instructions"])]
    pub pin: bool,
    /// Leave out the store-only runs (the store's commit rate on the same disk) after each
    /// ruleset
    #[arg(long)]
    pub skip_store: bool,
    /// Play on past --seconds until this many moves are committed per ruleset (at most five
    /// minutes more): the same work however busy the machine is
    #[arg(long, default_value_t = 0, value_name = "N")]
    pub min_moves: u64,
}

/// `beurs bots`.
#[derive(Clone, Debug, Args)]
pub struct BotsArgs {
    /// The bot under test, at one seat
    #[arg(long, value_enum, default_value_t = BotKind::Strong)]
    pub bot: BotKind,
    /// The bot at every other seat
    #[arg(long, value_enum, default_value_t = BotKind::Random)]
    pub against: BotKind,
    /// Games per ruleset
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..))]
    pub games: u64,
    /// Seats at the table
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u8).range(2..=8))]
    pub seats: u8,
    /// A ruleset id, or all
    #[arg(long, value_name = "ID|all", default_value = "all")]
    pub ruleset: String,
    /// Games played at once [default: one per core]
    #[arg(long)]
    pub threads: Option<usize>,
    /// The base seed of the games
    #[arg(long, default_value_t = 1637)]
    pub seed: u64,
}

impl BotsArgs {
    /// The arena's configuration.
    pub fn into_config(self) -> crate::arena::Config {
        crate::arena::Config {
            rulesets: rulesets(self.ruleset),
            games: self.games,
            seats: self.seats,
            bot: self.bot,
            against: self.against,
            threads: self.threads.unwrap_or_else(|| {
                std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
            }),
            seed: self.seed,
        }
    }
}

/// The ruleset ids `all` (every registered one) or one id stands for.
fn rulesets(choice: String) -> Vec<String> {
    if choice == "all" {
        service::registry()
            .iter()
            .map(|ruleset| ruleset.id().to_string())
            .collect()
    } else {
        vec![choice]
    }
}

impl Cli {
    /// Parses `args` (the program name first). `Err` is clap's: help, or a usage error.
    pub fn try_parse_args<I, T>(args: I) -> Result<Cli, clap::Error>
    where
        I: IntoIterator<Item = T>,
        T: Into<std::ffi::OsString> + Clone,
    {
        let matches = Cli::command().try_get_matches_from(args)?;
        let mut cli = Cli::from_arg_matches(&matches)?;
        // Whether the table came from BEURS_TABLE, which alone must not fail a SQLite serve.
        let (serve, serve_matches) = match &mut cli.command {
            Some(Command::Serve(serve)) => (serve, matches.subcommand_matches("serve")),
            _ => (&mut cli.serve, Some(&matches)),
        };
        serve.store.table_from_env = serve_matches
            .is_some_and(|matches| matches.value_source("table") == Some(ValueSource::EnvVariable));
        Ok(cli)
    }
}

impl ServeArgs {
    /// The server's configuration.
    pub fn into_config(self) -> anyhow::Result<crate::serve::Config> {
        Ok(crate::serve::Config {
            addr: self.addr,
            db: self.db,
            store: StoreChoice::from_args(self.store)?,
            dev: self.dev,
            cors_origins: self
                .cors_origins
                .into_iter()
                .map(|origin| origin.trim().to_string())
                .filter(|origin| !origin.is_empty())
                .collect(),
            limits: crate::serve::Limits {
                max_connections: self.max_connections,
                header_timeout: Duration::from_millis(self.header_timeout_ms),
                ..crate::serve::Limits::default()
            },
            retention: self
                .finished_retention_days
                .map(|days| Duration::from_secs(days * 86_400)),
            apps: service::apps::Limits {
                require_app_key: self.require_app_key,
                creations_per_hour: self.app_creations_per_hour,
                live_games: self.app_live_games,
                keyless_creations_per_hour: (self.keyless_creations_per_hour > 0)
                    .then_some(self.keyless_creations_per_hour),
                keyless_live_games: (self.keyless_live_games > 0)
                    .then_some(self.keyless_live_games),
            },
            requests: (self.requests_per_second > 0).then_some(api::edge::RequestRate {
                per_second: self.requests_per_second,
                burst: self.request_burst.max(self.requests_per_second),
            }),
            // Read from the environment only: a key on the command line shows in `ps`.
            operator_key: std::env::var("BEURS_OPERATOR_KEY")
                .ok()
                .map(|key| key.trim().to_owned())
                .filter(|key| !key.is_empty()),
        })
    }
}

impl BenchArgs {
    /// The bench's configuration (`all` is every registered ruleset).
    pub fn into_config(self) -> crate::bench::Config {
        crate::bench::Config {
            clients: self.clients,
            duration: Duration::from_secs(self.seconds),
            rulesets: rulesets(self.ruleset),
            url: self.url,
            dir: self.dir.unwrap_or_else(std::env::temp_dir),
            server_bin: self.server_bin,
            instructions: self.instructions,
            pattern: self.pattern,
            pin: self.pin,
            skip_store: self.skip_store,
            min_moves: self.min_moves,
        }
    }
}

/// What to print for a clap error, and the exit code: help goes to stdout whole (exit 0); a
/// usage error is one line on stderr, `beurs: <what is wrong> (see 'beurs serve --help')`,
/// exit 2.
pub fn clap_error_report(error: &clap::Error) -> (String, i32) {
    let rendered = error.render().to_string();
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        return (rendered, error.exit_code());
    }
    // The message is the first paragraph ("error: …" and any indented details); the usage
    // names the command whose --help to point to.
    let message = rendered
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let message = message.strip_prefix("error: ").unwrap_or(&message);
    let command = rendered
        .lines()
        .find_map(|line| line.trim().strip_prefix("Usage: "))
        .map(|usage| {
            usage
                .split_whitespace()
                .take_while(|word| !word.starts_with(['[', '<']))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .filter(|command| !command.is_empty())
        .unwrap_or_else(|| "beurs".to_string());
    (
        format!("beurs: {message} (see '{command} --help')"),
        error.exit_code(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_args(std::iter::once("beurs").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_line_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn no_command_serves_and_serve_flags_work_without_the_word_serve() {
        let cli = parse(&[]).unwrap();
        assert!(cli.command.is_none());
        let cli = parse(&["--addr", "0.0.0.0:9000", "--dev"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.serve.addr, "0.0.0.0:9000");
        assert!(cli.serve.dev);
        let Some(Command::Serve(serve)) = parse(&["serve", "--db", "x.sqlite"]).unwrap().command
        else {
            panic!("not serve")
        };
        assert_eq!(serve.db, PathBuf::from("x.sqlite"));
    }

    #[test]
    fn cors_origins_repeat_and_split_on_commas() {
        let cli = parse(&[
            "serve",
            "--cors-origin",
            "https://a.example",
            "--cors-origin",
            "https://b.example,https://c.example",
        ])
        .unwrap();
        let Some(Command::Serve(serve)) = cli.command else {
            panic!("not serve")
        };
        let config = serve.into_config().unwrap();
        assert_eq!(
            config.cors_origins,
            [
                "https://a.example",
                "https://b.example",
                "https://c.example"
            ]
        );
    }

    #[test]
    fn verify_and_bench_take_their_arguments() {
        let Some(Command::Verify(verify)) = parse(&["verify", "a.json"]).unwrap().command else {
            panic!("not verify")
        };
        assert_eq!(verify.source, "a.json");
        assert!(parse(&["verify"]).is_err());
        let Some(Command::Bench(bench)) =
            parse(&["bench", "--clients", "2", "--ruleset", "tulip-bubble"])
                .unwrap()
                .command
        else {
            panic!("not bench")
        };
        let config = bench.into_config();
        assert_eq!(config.clients, 2);
        assert_eq!(config.rulesets, ["tulip-bubble"]);
        assert!(parse(&["bench", "--clients", "0"]).is_err());
        assert!(!config.instructions);
        let Some(Command::Bench(bench)) = parse(&["bench", "--instructions"]).unwrap().command
        else {
            panic!("not bench")
        };
        assert!(bench.into_config().instructions);
        // Counting needs a server this bench starts.
        assert!(parse(&["bench", "--instructions", "--url", "http://127.0.0.1:1"]).is_err());
        let Some(Command::Bots(bots)) = parse(&[
            "bots",
            "--bot",
            "basic",
            "--games",
            "3",
            "--ruleset",
            "tulpenfieber",
        ])
        .unwrap()
        .command
        else {
            panic!("not bots")
        };
        let config = bots.into_config();
        assert_eq!(
            (config.bot, config.against),
            (BotKind::Basic, BotKind::Random)
        );
        assert_eq!((config.games, config.seats), (3, 4));
        assert_eq!(config.rulesets, ["tulpenfieber"]);
        assert!(parse(&["bots", "--bot", "clever"]).is_err());
        assert!(parse(&["bots", "--games", "0"]).is_err());
    }

    #[test]
    fn a_bad_store_fails_serve_only() {
        // `--store` stands for BEURS_STORE here: the variable is checked the same way, when
        // serving, so a bad value in the environment does not break the other commands.
        let cli = parse(&["--store", "postgres"]).unwrap();
        let error = cli.serve.into_config().unwrap_err();
        assert!(
            format!("{error:#}").contains("unknown store 'postgres'"),
            "{error:#}"
        );
        assert!(parse(&["verify", "a.json"]).is_ok());
    }

    #[test]
    fn usage_errors_are_one_line_that_points_to_the_right_help() {
        let error = parse(&["serve", "--nosuchflag"]).unwrap_err();
        let (message, code) = clap_error_report(&error);
        assert_eq!(code, 2);
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains("--nosuchflag"), "{message}");
        assert!(message.ends_with("(see 'beurs serve --help')"), "{message}");
        let (message, _) = clap_error_report(&parse(&["verify"]).unwrap_err());
        assert!(!message.contains('\n'), "{message}");
        assert!(message.contains("AUDIT.json|URL"), "{message}");
        let (help, code) = clap_error_report(&parse(&["--help"]).unwrap_err());
        assert_eq!(code, 0);
        assert!(help.contains("verify") && help.contains("--addr"), "{help}");
    }
}
