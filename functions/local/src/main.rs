//! `beurs`: the self-hosted Beurs server and its tools.
//!
//! This file only parses arguments and hands over to the library (`local`'s modules and the
//! `api` crate), as mini-redis's `bin/` does.

use anyhow::{bail, Context};

const USAGE: &str = "usage:
  beurs [serve] [--addr HOST:PORT] [--db PATH] [--dev]
                                                 serve the API (default 127.0.0.1:8080, ./beurs.sqlite);
                                                 --dev lets webhooks call loopback receivers over http
        [--store sqlite|dynamodb] [--table NAME] [--create-table]
                                                 or from a DynamoDB table (a build with --features dynamo;
                                                 AWS_ENDPOINT_URL for moto or DynamoDB Local)
  beurs verify <audit.json | http://…/audit>     replay a finished game's audit and check every hash
  beurs bench [--clients 16] [--seconds 20] [--ruleset ID|all] [--url http://…] [--dir PATH]
                                                 random players over HTTP + store-only commit rate
  beurs openapi                                  print the OpenAPI document
environment: BEURS_ADDR, BEURS_DB, BEURS_DEV=1, BEURS_STORE, BEURS_TABLE";

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (command, rest) = match args.first().map(String::as_str) {
        Some("serve") | None => ("serve", args.get(1..).unwrap_or(&[])),
        Some(flag) if flag.starts_with("--") => ("serve", &args[..]),
        Some(command) => (command, &args[1..]),
    };
    match command {
        "serve" => local::serve::run(local::serve::Config::from_args(rest)?).await,
        "verify" => {
            let [source] = rest else { bail!("{USAGE}") };
            let audit = local::verify::load(source)
                .await
                .with_context(|| format!("reading the audit from {source}"))?;
            let verified = local::verify::check(&audit)?;
            println!(
                "ok: {} ({}) verified: commitment, seed and {} log entries replay exactly",
                audit.id, audit.ruleset, verified.entries
            );
            Ok(())
        }
        "bench" => local::bench::run(local::bench::Config::from_args(rest)?).await,
        "openapi" => {
            let spec = api::openapi::spec(&api::registry());
            println!("{}", serde_json::to_string_pretty(&spec)?);
            Ok(())
        }
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        other => bail!("unknown command '{other}'\n{USAGE}"),
    }
}
