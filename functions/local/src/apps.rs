//! `beurs apps`: the operator creates, lists, rotates and revokes apps' keys in the store
//! the server uses (docs/apps.md). The same work as the `/v1/apps` routes, without a server.

use crate::cli::{AppsAction, AppsArgs};
use crate::store_choice::StoreChoice;
use service::apps;
use store::{AppRecord, KeyRecord};

/// Runs one `beurs apps` command and prints what it did.
pub async fn run(args: AppsArgs) -> anyhow::Result<()> {
    let (store, _) = StoreChoice::from_args(args.store)?.open(&args.db).await?;
    let store = store.as_ref();
    let printed = match args.action {
        AppsAction::Create { name, scope } => issued(&apps::create(store, &name, &scope).await?),
        AppsAction::List => {
            let listed = apps::list(store).await?;
            if listed.is_empty() {
                "no apps yet: beurs apps create NAME".to_owned()
            } else {
                listed.iter().map(describe).collect::<Vec<_>>().join("\n")
            }
        }
        AppsAction::Rotate { app, scope } => issued(&apps::rotate(store, &app, &scope).await?),
        AppsAction::Revoke { app, key } => {
            format!(
                "revoked {key}\n{}",
                describe(&apps::revoke(store, &app, &key).await?)
            )
        }
    };
    println!("{printed}");
    Ok(())
}

fn issued(issued: &apps::Issued) -> String {
    format!(
        "{}\nnew key {}: {}\n(shown once: keep it; the server stores only its hash)",
        describe(&issued.app),
        issued.record.id,
        issued.key
    )
}

fn describe(app: &AppRecord) -> String {
    let keys: Vec<String> = app.keys.iter().map(key_line).collect();
    format!("app {} \"{}\"\n{}", app.id, app.name, keys.join("\n"))
}

fn key_line(key: &KeyRecord) -> String {
    let scopes: Vec<&str> = key.scopes.iter().map(|scope| scope.into()).collect();
    let state = match key.revoked_at {
        Some(at) => format!("revoked {}", service::time::rfc3339(at)),
        None => "live".to_owned(),
    };
    format!(
        "  key {} ({state}, issued {}): {}",
        key.id,
        service::time::rfc3339(key.created_at),
        scopes.join(" ")
    )
}
