//! `beurs`: the self-hosted Beurs server and its tools.
//!
//! This file only parses arguments ([`local::cli`]) and hands over to the library (`local`'s
//! modules and the `api` crate), as mini-redis's `bin/` does. A failure is one line on stderr,
//! `beurs: <what failed>: <why>`, and exit code 1 (2 for a usage error).

use local::cli::{Cli, Command};
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: the server allocates and frees many short-lived JSON
/// values per request, which glibc spent ~14 % of the server's CPU on (docs/benchmarks.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = match Cli::try_parse_args(std::env::args_os()) {
        Ok(cli) => cli,
        Err(error) => {
            let (report, code) = local::cli::clap_error_report(&error);
            if code == 0 {
                print!("{report}");
            } else {
                eprintln!("{report}");
            }
            return ExitCode::from(u8::try_from(code).unwrap_or(2));
        }
    };
    let result = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(anyhow::Error::from)
        .and_then(|runtime| runtime.block_on(run(cli)));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("beurs: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command.unwrap_or(Command::Serve(cli.serve)) {
        Command::Serve(serve) => local::serve::run(serve.into_config()?).await,
        Command::Verify(verify) => {
            let source = verify.source;
            let audit = local::verify::load(&source).await?;
            let verified = local::verify::check(&audit)?;
            println!(
                "ok: {} ({}) verified: commitment, seed and {} log entries replay exactly; {}",
                audit.id,
                audit.ruleset,
                verified.entries,
                local::verify::binding(&audit)
            );
            Ok(())
        }
        Command::Bench(bench) => local::bench::run(bench.into_config()).await,
        Command::Bots(bots) => {
            let config = bots.into_config();
            tokio::task::spawn_blocking(move || local::arena::run(&config)).await?
        }
        Command::Apps(args) => local::apps::run(args).await,
        Command::Openapi => {
            let spec = api::openapi::spec(&service::registry());
            println!("{}", serde_json::to_string_pretty(&spec)?);
            Ok(())
        }
    }
}
