//! Where `beurs serve` keeps its games: the embedded SQLite file (the default) or a DynamoDB
//! table (`--store dynamodb --table NAME`, or `BEURS_STORE=dynamodb` and `BEURS_TABLE`).
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

/// The kinds of store `beurs serve` can use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StoreKind {
    /// The embedded SQLite file (`--db`).
    #[default]
    Sqlite,
    /// A DynamoDB table (`--table`), as the Lambda functions use.
    DynamoDb,
}

impl StoreKind {
    /// `sqlite` or `dynamodb` (`dynamo` is accepted too).
    fn parse(name: &str) -> anyhow::Result<StoreKind> {
        match name.trim().to_ascii_lowercase().as_str() {
            "sqlite" => Ok(StoreKind::Sqlite),
            "dynamodb" | "dynamo" => Ok(StoreKind::DynamoDb),
            other => bail!("unknown store '{other}': use sqlite or dynamodb"),
        }
    }
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

/// The flags [`StoreChoice::set_flag`] understands; the first two take a value.
pub const FLAGS: [&str; 3] = ["--store", "--table", "--create-table"];

impl StoreChoice {
    /// From `BEURS_STORE` and `BEURS_TABLE` (unset or empty: SQLite, no table).
    pub fn from_env() -> anyhow::Result<StoreChoice> {
        let var = |name| std::env::var(name).ok().filter(|value| !value.is_empty());
        StoreChoice::from_values(var("BEURS_STORE").as_deref(), var("BEURS_TABLE"))
    }

    /// From the values of `BEURS_STORE` and `BEURS_TABLE`.
    pub fn from_values(store: Option<&str>, table: Option<String>) -> anyhow::Result<StoreChoice> {
        let kind = store
            .map(StoreKind::parse)
            .transpose()
            .context("BEURS_STORE")?
            .unwrap_or_default();
        // BEURS_TABLE alone does not switch stores (the functions' environment may set it);
        // it is used only with BEURS_STORE=dynamodb.
        let table = table.filter(|_| kind == StoreKind::DynamoDb);
        Ok(StoreChoice {
            kind,
            table,
            create_table: false,
        })
    }

    /// Applies one of [`FLAGS`]; `value` is asked for only by the flags that take one.
    pub fn set_flag(
        &mut self,
        flag: &str,
        value: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<()> {
        match flag {
            "--store" => self.kind = StoreKind::parse(&value()?)?,
            "--table" => {
                let table = value()?;
                if table.is_empty() {
                    bail!("--table needs a table name");
                }
                self.table = Some(table);
            }
            "--create-table" => self.create_table = true,
            other => bail!("'{other}' is not a store flag"),
        }
        Ok(())
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

    fn parsed(flags: &[&str]) -> anyhow::Result<StoreChoice> {
        let mut choice = StoreChoice::default();
        let mut flags = flags.iter();
        while let Some(flag) = flags.next() {
            choice.set_flag(flag, || {
                flags
                    .next()
                    .map(|value| value.to_string())
                    .context("needs a value")
            })?;
        }
        Ok(choice)
    }

    #[test]
    fn sqlite_is_the_default() {
        let choice = StoreChoice::from_values(None, None).unwrap();
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
        let choice = StoreChoice::from_values(Some("dynamodb"), Some("games".into())).unwrap();
        assert_eq!(choice.kind, StoreKind::DynamoDb);
        assert_eq!(choice.table.as_deref(), Some("games"));
        let sqlite = StoreChoice::from_values(None, Some("games".into())).unwrap();
        assert_eq!(
            sqlite,
            StoreChoice::default(),
            "BEURS_TABLE alone keeps SQLite"
        );
        let error = StoreChoice::from_values(Some("postgres"), None).unwrap_err();
        assert!(
            format!("{error:#}").contains("unknown store 'postgres'"),
            "{error:#}"
        );
    }

    #[test]
    fn bad_flags_are_refused() {
        assert!(parsed(&["--store", "redis"]).is_err());
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
