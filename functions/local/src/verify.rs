//! `beurs verify`: offline replay of a finished game's audit, read from a file or fetched
//! (every page of it) from an `http://` or `https://` URL.

use anyhow::{bail, Context};
use service::audit::{Audit, Verified};
use std::time::Duration;
use store::SeedScheme;

/// The page size asked for when the URL names none: the server's documented maximum.
pub const PAGE_LIMIT: u32 = 1000;

/// Reads a complete audit from a file, or fetches every page of it from an `http(s)://` URL.
pub async fn load(source: &str) -> anyhow::Result<Audit> {
    if source.starts_with("http://") || source.starts_with("https://") {
        fetch(source)
            .await
            .with_context(|| format!("fetching the audit from {source}"))
    } else {
        let text = std::fs::read_to_string(source)
            .with_context(|| format!("reading the audit from {source}"))?;
        serde_json::from_str(&text).with_context(|| format!("{source} is not an audit document"))
    }
}

/// Checks an audit against the rules this binary was built with.
pub fn check(audit: &Audit) -> anyhow::Result<Verified> {
    service::audit::verify(&service::registry(), audit)
        .map_err(|error| anyhow::anyhow!("audit rejected: {error}"))
}

/// What the seed scheme of a verified audit binds, in words for the report.
pub fn binding(audit: &Audit) -> &'static str {
    match audit.seed_scheme {
        SeedScheme::V2 => "the seed binds the id, ruleset, rules version, options and seat count",
        SeedScheme::V1 => {
            "legacy seed scheme v1: the id, ruleset and options are not bound by the seed"
        }
    }
}

/// The HTTP client of `beurs verify`: rustls with the platform's roots, so public https
/// endpoints (the AWS deployment) work as well as a local `http://` server.
fn client() -> anyhow::Result<reqwest::Client> {
    reqwest::Client::builder()
        .user_agent(concat!("beurs-verify/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(Duration::from_secs(10))
        .timeout(Duration::from_secs(60))
        .build()
        .context("building the HTTP client")
}

/// Fetches page after page (`?after=<next_after>`) until `next_after` is null, and returns
/// the audit with every entry. A server that does not page answers everything at once.
async fn fetch(url: &str) -> anyhow::Result<Audit> {
    let client = client()?;
    let mut url = reqwest::Url::parse(url).context("not a valid URL")?;
    if !url.query_pairs().any(|(name, _)| name == "limit") {
        url.query_pairs_mut()
            .append_pair("limit", &PAGE_LIMIT.to_string());
    }
    let mut audit = page(&client, url.clone()).await?;
    let mut next = audit.next_after.take();
    while let Some(after) = next {
        let mut page_url = url.clone();
        let kept: Vec<(String, String)> = url
            .query_pairs()
            .filter(|(name, _)| name != "after")
            .map(|(name, value)| (name.into_owned(), value.into_owned()))
            .collect();
        page_url
            .query_pairs_mut()
            .clear()
            .extend_pairs(kept)
            .append_pair("after", &after.to_string());
        let mut more = page(&client, page_url).await?;
        if !same_game(&audit, &more) {
            bail!("the game changed while its audit was read (page after {after}); try again");
        }
        if more.entries.is_empty() {
            bail!("the page after {after} is empty but not the last");
        }
        next = more.next_after.take();
        if let Some(following) = next.filter(|&following| following <= after) {
            bail!("the page after {after} points back to {following}");
        }
        audit.entries.append(&mut more.entries);
    }
    Ok(audit)
}

/// One page of the audit.
async fn page(client: &reqwest::Client, url: reqwest::Url) -> anyhow::Result<Audit> {
    let response = client.get(url.clone()).send().await?;
    let status = response.status();
    let body = response.bytes().await?;
    if !status.is_success() {
        let text = String::from_utf8_lossy(&body);
        let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        bail!("GET {url} answered {status}: {text:.300}");
    }
    serde_json::from_slice(&body).with_context(|| format!("GET {url}: the answer is not an audit"))
}

/// Whether two pages are of the same game in the same state (everything but the entries).
fn same_game(first: &Audit, page: &Audit) -> bool {
    first.id == page.id
        && first.ruleset == page.ruleset
        && first.rules_version == page.rules_version
        && first.status == page.status
        && first.seats == page.seats
        && first.options == page.options
        && first.seed_commitment == page.seed_commitment
        && first.seed_scheme == page.seed_scheme
        && first.server_secret == page.server_secret
        && first.entropies == page.entropies
        && first.outcome == page.outcome
}
