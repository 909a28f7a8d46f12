//! `/v1/apps`: the operator manages apps and their keys (docs/apps.md). Every route needs the
//! operator's key (`BEURS_OPERATOR_KEY`); [`service::apps`] does the work.

use super::problems::{problems, BadHeader, JsonBodyRefused};
use crate::error::ApiError;
use crate::http::{bearer_token, JsonBody, OptionalJsonBody, Params, Reply};
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use service::apps;
use service::ctx::AppCtx;
use service::dto::{AppInfo, AppList, CreateApp, IssueKey, IssuedKey};
use std::sync::Arc;

/// The operator, as the request's bearer token proves.
pub struct Operator;

impl FromRequestParts<Arc<AppCtx>> for Operator {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, ctx: &Arc<AppCtx>) -> Result<Self, ApiError> {
        let token = bearer_token(parts)?;
        apps::check_operator(ctx.operator_key_hash.as_deref(), token.as_deref())?;
        Ok(Operator)
    }
}

problems! {
    /// How the operator's routes refuse a request.
    OperatorRefused {
        401 => "No operator key, or another key",
        403 => "This deployment has no operator key (BEURS_OPERATOR_KEY)",
    }
}

problems! {
    /// How `create_app` refuses a request, beyond the shared refusals it lists.
    CreateAppRefused {
        400 => "Malformed body (an unknown scope, say)",
        422 => "The name is empty, too long or has control characters",
    }
}

/// Create an app
///
/// Creates an app with one key holding the scopes asked for (every scope when none are
/// named). The key is shown only in this answer; the server keeps its SHA-256.
#[utoipa::path(
    post,
    path = "/v1/apps",
    tag = "apps",
    request_body = CreateApp,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Created; the key is shown only now", body = IssuedKey),
        CreateAppRefused,
        OperatorRefused,
        BadHeader,
        JsonBodyRefused,
    )
)]
pub async fn create_app(
    State(ctx): State<Arc<AppCtx>>,
    _operator: Operator,
    JsonBody(body): JsonBody<CreateApp>,
) -> Result<Reply, ApiError> {
    let issued = apps::create(
        ctx.store.as_ref(),
        &body.name,
        body.scopes.as_deref().unwrap_or_default(),
    )
    .await?;
    Ok(Reply::json(201, &issued_key(&issued)))
}

/// List apps
///
/// Every app of the deployment with its keys (their ids and scopes, never the keys).
#[utoipa::path(
    get,
    path = "/v1/apps",
    tag = "apps",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Every app, oldest first", body = AppList),
        OperatorRefused,
        BadHeader,
    )
)]
pub async fn list_apps(
    State(ctx): State<Arc<AppCtx>>,
    _operator: Operator,
) -> Result<Reply, ApiError> {
    let apps = apps::list(ctx.store.as_ref()).await?;
    Ok(Reply::json(
        200,
        &AppList {
            apps: apps.iter().map(AppInfo::from).collect(),
        },
    ))
}

problems! {
    /// How `issue_key` refuses a request, beyond the shared refusals it lists.
    IssueKeyRefused {
        400 => "Malformed body",
        404 => "No such app",
        422 => "The app already has two live keys: revoke one first",
    }
}

/// Issue a key (rotate)
///
/// Issues another key to the app, for a rotation without downtime: both keys work until the
/// old one is revoked. An app has at most two live keys. The key is shown only here.
#[utoipa::path(
    post,
    path = "/v1/apps/{app}/keys",
    tag = "apps",
    params(("app" = String, Path, description = "The app id")),
    request_body = IssueKey,
    security(("bearer" = [])),
    responses(
        (status = 201, description = "Issued; the key is shown only now", body = IssuedKey),
        IssueKeyRefused,
        OperatorRefused,
        BadHeader,
        JsonBodyRefused,
    )
)]
pub async fn issue_key(
    State(ctx): State<Arc<AppCtx>>,
    Params(app): Params<String>,
    _operator: Operator,
    OptionalJsonBody(body): OptionalJsonBody<IssueKey>,
) -> Result<Reply, ApiError> {
    let body = body.unwrap_or_default();
    let issued = apps::rotate(
        ctx.store.as_ref(),
        &app,
        body.scopes.as_deref().unwrap_or_default(),
    )
    .await?;
    Ok(Reply::json(201, &issued_key(&issued)))
}

problems! {
    /// How `revoke_key` refuses a request, beyond the shared refusals it lists.
    RevokeKeyRefused {
        404 => "No such app, or no such key of it",
    }
}

/// Revoke a key
///
/// From now on the key is refused with 401. Games it created stay the app's.
#[utoipa::path(
    delete,
    path = "/v1/apps/{app}/keys/{key}",
    tag = "apps",
    params(
        ("app" = String, Path, description = "The app id"),
        ("key" = String, Path, description = "The key's id (`k_…`)"),
    ),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "Revoked; the app as it is now", body = AppInfo),
        RevokeKeyRefused,
        OperatorRefused,
        BadHeader,
    )
)]
pub async fn revoke_key(
    State(ctx): State<Arc<AppCtx>>,
    Params((app, key)): Params<(String, String)>,
    _operator: Operator,
) -> Result<Reply, ApiError> {
    let app = apps::revoke(ctx.store.as_ref(), &app, &key).await?;
    Ok(Reply::json(200, &AppInfo::from(&app)))
}

fn issued_key(issued: &apps::Issued) -> IssuedKey {
    IssuedKey {
        app: AppInfo::from(&issued.app),
        key_id: issued.record.id.clone(),
        key: issued.key.clone(),
    }
}
