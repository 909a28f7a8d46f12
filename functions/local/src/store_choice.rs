//! Where `beurs serve` keeps its games: the embedded SQLite file (the default) or a DynamoDB
//! table (`--store dynamodb --table NAME`, or `BEURS_STORE=dynamodb` and `BEURS_TABLE`).
//! [`StoreArgs`] are those flags as clap parses them; [`StoreChoice`] is what they choose.
//!
//! DynamoDB support is compiled in only with the `dynamo` feature
//! (`cargo build --release --features dynamo`), so the default binary carries no AWS SDK.
//! The client is configured from the usual AWS environment: region, credentials, and
//! `AWS_ENDPOINT_URL` for moto or DynamoDB Local. The table must exist (deploy
//! infra/template.yaml, or pass `--create-table` against a local endpoint).

use anyhow::{bail, Context};
use std::path::Path;
use std::sync::Arc;
use store::GameStore;

/// The kinds of store `beurs serve` can use: `sqlite` or `dynamodb` (`dynamo` is accepted
/// too, in any case; empty is SQLite, so an empty `BEURS_STORE` is the same as none).
/// [`StoreArgs::store`] stays a string that [`StoreKind::parse`] reads when serving, so that
/// a bad `BEURS_STORE` in the environment does not break the other commands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum StoreKind {
    /// The embedded SQLite file (`--db`).
    #[default]
    #[value(alias = "")]
    Sqlite,
    /// A DynamoDB table (`--table`), as the Lambda functions use.
    #[value(name = "dynamodb", alias = "dynamo")]
    DynamoDb,
}

impl StoreKind {
    /// A store's name, as `--store` or `BEURS_STORE` gives it (surrounding blanks ignored).
    pub fn parse(name: &str) -> Result<StoreKind, String> {
        <StoreKind as clap::ValueEnum>::from_str(name.trim(), true)
            .map_err(|_| format!("unknown store '{}': use sqlite or dynamodb", name.trim()))
    }
}

/// The store flags of `beurs serve`, as clap parses them (see [`crate::cli`]).
#[derive(Clone, Debug, Default, PartialEq, Eq, clap::Args)]
pub struct StoreArgs {
    /// Where games are kept: sqlite (the --db file) or dynamodb (the --table; needs a build
    /// with --features dynamo, and AWS_ENDPOINT_URL for moto or DynamoDB Local)
    #[arg(
        long,
        env = "BEURS_STORE",
        hide_env_values = true,
        value_name = "sqlite|dynamodb",
        default_value = "sqlite"
    )]
    pub store: String,
    /// The DynamoDB table (with --store dynamodb)
    #[arg(long, env = "BEURS_TABLE", hide_env_values = true, value_name = "NAME")]
    pub table: Option<String>,
    /// Create the table first if it does not exist (for moto and DynamoDB Local)
    #[arg(long)]
    pub create_table: bool,
    /// Whether `table` came from `BEURS_TABLE` rather than `--table` (set by [`crate::cli`]).
    #[arg(skip)]
    pub table_from_env: bool,
}

/// The store flags of `beurs serve`: which store, and the DynamoDB table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StoreChoice {
    /// Which store.
    pub kind: StoreKind,
    /// The DynamoDB table (required with [`StoreKind::DynamoDb`]).
    pub table: Option<String>,
    /// Create the table first if it does not exist (for moto and DynamoDB Local).
    pub create_table: bool,
}

/// What `--store dynamodb` answers in a build without the `dynamo` feature.
const WITHOUT_DYNAMO: &str = "this beurs was built without DynamoDB support; rebuild it with \
    the `dynamo` feature: cargo build --release --features dynamo (or: cargo run --release \
    --features dynamo -- serve --store dynamodb --table NAME)";

impl StoreChoice {
    /// From the parsed flags. `BEURS_TABLE` alone does not switch stores (the functions'
    /// environment may set it): a table from the environment is used only with DynamoDB,
    /// while `--table` with SQLite is a mistake [`StoreChoice::check`] reports.
    ///
    /// The store name is checked here rather than by clap, so that a bad `BEURS_STORE` fails
    /// `beurs serve` only, not `beurs verify` or `beurs bench`.
    pub fn from_args(args: StoreArgs) -> anyhow::Result<StoreChoice> {
        let kind = StoreKind::parse(&args.store).map_err(anyhow::Error::msg)?;
        let table = match args.table {
            Some(table) if table.is_empty() && !args.table_from_env => {
                bail!("--table needs a table name")
            }
            Some(table) if table.is_empty() => None,
            Some(_) if args.table_from_env && kind == StoreKind::Sqlite => None,
            table => table,
        };
        Ok(StoreChoice {
            kind,
            table,
            create_table: args.create_table,
        })
    }

    /// Checks that the choice can be served by this build: a DynamoDB store needs a table
    /// and a binary built with the `dynamo` feature.
    pub fn check(&self) -> anyhow::Result<()> {
        match self.kind {
            StoreKind::Sqlite if self.table.is_some() || self.create_table => {
                bail!(
                    "--table and --create-table go with --store dynamodb (the SQLite file is --db)"
                )
            }
            StoreKind::Sqlite => Ok(()),
            StoreKind::DynamoDb if self.table.is_none() => {
                bail!("--store dynamodb needs --table NAME (or BEURS_TABLE)")
            }
            StoreKind::DynamoDb if !cfg!(feature = "dynamo") => bail!("{WITHOUT_DYNAMO}"),
            StoreKind::DynamoDb => Ok(()),
        }
    }

    /// Opens the chosen store (SQLite at `db`); returns it and a description for the banner.
    pub async fn open(&self, db: &Path) -> anyhow::Result<(Arc<dyn GameStore>, String)> {
        self.check()?;
        match (self.kind, self.table.as_deref()) {
            (StoreKind::DynamoDb, Some(table)) => self.open_dynamodb(table).await,
            _ => {
                let store = store::SqliteStore::open(db)
                    .with_context(|| format!("opening {}", db.display()))?;
                Ok((Arc::new(store), format!("database {}", db.display())))
            }
        }
    }

    #[cfg(feature = "dynamo")]
    async fn open_dynamodb(&self, table: &str) -> anyhow::Result<(Arc<dyn GameStore>, String)> {
        let store = store::DynamoStore::from_env(table).await;
        if self.create_table {
            // An existing table is fine: creating it again fails, and the first request
            // reports a table that is really missing.
            if let Err(error) = store.create_table().await {
                eprintln!("beurs: not creating table {table}: {error}");
            }
        }
        Ok((Arc::new(store), format!("DynamoDB table {table}")))
    }

    #[cfg(not(feature = "dynamo"))]
    async fn open_dynamodb(&self, _table: &str) -> anyhow::Result<(Arc<dyn GameStore>, String)> {
        bail!("{WITHOUT_DYNAMO}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    /// The store flags alone, parsed as `beurs serve` parses them (the environment is not
    /// read here: these tests run in parallel with others that may set it).
    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        store: StoreArgs,
    }

    fn parsed(flags: &[&str]) -> anyhow::Result<StoreChoice> {
        let flags = Flags::try_parse_from(std::iter::once("serve").chain(flags.iter().copied()))?;
        StoreChoice::from_args(flags.store)
    }

    fn from_env(store: &str, table: &str) -> anyhow::Result<StoreChoice> {
        StoreChoice::from_args(StoreArgs {
            store: store.to_string(),
            table: Some(table.to_string()),
            create_table: false,
            table_from_env: true,
        })
    }

    #[test]
    fn sqlite_is_the_default() {
        let choice = parsed(&[]).unwrap();
        assert_eq!(choice, StoreChoice::default());
        assert_eq!(choice.kind, StoreKind::Sqlite);
        choice.check().unwrap();
    }

    #[test]
    fn flags_choose_dynamodb_and_its_table() {
        let choice =
            parsed(&["--store", "dynamodb", "--table", "beurs", "--create-table"]).unwrap();
        assert_eq!(
            choice,
            StoreChoice {
                kind: StoreKind::DynamoDb,
                table: Some("beurs".into()),
                create_table: true,
            }
        );
        // The order does not matter, and `dynamo` and any case are accepted.
        assert_eq!(
            parsed(&["--table", "t", "--store", "DynamoDB"])
                .unwrap()
                .kind,
            StoreKind::DynamoDb
        );
        assert_eq!(
            parsed(&["--store", "dynamo"]).unwrap().kind,
            StoreKind::DynamoDb
        );
    }

    #[test]
    fn the_environment_chooses_too() {
        let choice = from_env("dynamodb", "games").unwrap();
        assert_eq!(choice.kind, StoreKind::DynamoDb);
        assert_eq!(choice.table.as_deref(), Some("games"));
        let sqlite = from_env("", "games").unwrap();
        assert_eq!(
            sqlite,
            StoreChoice::default(),
            "BEURS_TABLE alone keeps SQLite"
        );
        sqlite.check().unwrap();
        assert_eq!(from_env("sqlite", "").unwrap(), StoreChoice::default());
        assert_eq!(from_env("DynamoDB", "t").unwrap().kind, StoreKind::DynamoDb);
        let error = from_env("postgres", "").unwrap_err();
        assert!(
            format!("{error:#}").contains("unknown store 'postgres'"),
            "{error:#}"
        );
    }

    #[test]
    fn bad_flags_are_refused() {
        let error = parsed(&["--store", "redis"]).unwrap_err();
        assert!(
            format!("{error:#}").contains("unknown store 'redis'"),
            "{error:#}"
        );
        assert!(parsed(&["--store"]).is_err());
        assert!(parsed(&["--table", ""]).is_err());
        assert!(parsed(&["--addr", "x"]).is_err());
    }

    #[test]
    fn inconsistent_choices_fail_the_check() {
        let error = parsed(&["--store", "dynamodb"])
            .unwrap()
            .check()
            .unwrap_err();
        assert!(error.to_string().contains("needs --table"), "{error}");
        let error = parsed(&["--table", "t"]).unwrap().check().unwrap_err();
        assert!(
            error.to_string().contains("go with --store dynamodb"),
            "{error}"
        );
    }

    #[cfg(not(feature = "dynamo"))]
    #[tokio::test]
    async fn without_the_feature_dynamodb_says_how_to_rebuild() {
        let choice = parsed(&["--store", "dynamodb", "--table", "t"]).unwrap();
        let error = choice.check().unwrap_err().to_string();
        assert!(error.contains("--features dynamo"), "{error}");
        let error = choice.open(Path::new("unused.sqlite")).await.err().unwrap();
        assert!(error.to_string().contains("--features dynamo"), "{error}");
    }

    #[cfg(feature = "dynamo")]
    #[test]
    fn with_the_feature_dynamodb_passes_the_check() {
        parsed(&["--store", "dynamodb", "--table", "t"])
            .unwrap()
            .check()
            .unwrap();
    }
}
