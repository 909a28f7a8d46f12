//! Apps and their keys, as the operator manages them (docs/apps.md).

use crate::time::rfc3339;
use serde::{Deserialize, Serialize};
use store::{AppRecord, KeyRecord, Scope};
use utoipa::ToSchema;

/// Create an app.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateApp {
    /// The app's name (1 to 80 characters), for the operator's listings.
    #[schema(example = "Tulip Club")]
    pub name: String,
    /// The first key's scopes: any of `games:create`, `games:admin`, `bots:seat`,
    /// `webhooks:manage`, `games:read`; every scope when left out.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>, example = json!(["games:create", "games:admin", "games:read"]))]
    pub scopes: Option<Vec<Scope>>,
}

/// Issue another key to an app (the first half of a rotation).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct IssueKey {
    /// The new key's scopes; those of the app's newest live key when left out.
    #[serde(default)]
    #[schema(value_type = Option<Vec<String>>)]
    pub scopes: Option<Vec<Scope>>,
}

/// One key of an app (never the key itself, which is shown once).
#[derive(Debug, Serialize, ToSchema)]
pub struct AppKeyInfo {
    /// The key's id (`k_…`): what revoking names.
    pub id: String,
    /// What the key may do.
    #[schema(value_type = Vec<String>)]
    pub scopes: Vec<Scope>,
    /// When it was issued (RFC 3339).
    pub created_at: String,
    /// When it was revoked (RFC 3339), if it was: from then on it is refused with 401.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<String>,
}

/// An app.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppInfo {
    /// The app id (`a_…`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// When it was created (RFC 3339).
    pub created_at: String,
    /// Its keys, live and revoked, oldest first.
    pub keys: Vec<AppKeyInfo>,
}

/// A key just issued, with its app. The key is shown only here.
#[derive(Debug, Serialize, ToSchema)]
pub struct IssuedKey {
    /// The app.
    pub app: AppInfo,
    /// The new key's id.
    pub key_id: String,
    /// The key (`bk_…`): send it as `Authorization: Bearer <key>`. Keep it; it is never shown
    /// again.
    pub key: String,
}

/// Every app of the deployment.
#[derive(Debug, Serialize, ToSchema)]
pub struct AppList {
    /// The apps, oldest first.
    pub apps: Vec<AppInfo>,
}

impl From<&KeyRecord> for AppKeyInfo {
    fn from(key: &KeyRecord) -> AppKeyInfo {
        AppKeyInfo {
            id: key.id.clone(),
            scopes: key.scopes.clone(),
            created_at: rfc3339(key.created_at),
            revoked_at: key.revoked_at.map(rfc3339),
        }
    }
}

impl From<&AppRecord> for AppInfo {
    fn from(app: &AppRecord) -> AppInfo {
        AppInfo {
            id: app.id.clone(),
            name: app.name.clone(),
            created_at: rfc3339(app.created_at),
            keys: app.keys.iter().map(AppKeyInfo::from).collect(),
        }
    }
}
