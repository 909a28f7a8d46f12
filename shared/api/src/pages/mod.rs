//! The pages beside the contract: the OpenAPI document itself, its reference page, the root
//! and the reference web client (clients/web), and the router of everything.

pub mod docs;
pub mod play;

use axum::routing::get;
use service::AppCtx;
use std::sync::Arc;
use utoipa_axum::router::OpenApiRouter;

/// The routes outside the OpenAPI document, all `GET`: the document itself, the reference
/// page and its script, the root, and the reference web client (clients/web). The Lambda
/// route map ([`crate::lambda::FUNCTIONS`]) must serve each of them too.
pub const PAGE_ROUTES: [&str; 6] = [
    "/openapi.json",
    "/docs",
    "/docs/assets/{file}",
    "/",
    "/play",
    "/play/{file}",
];

/// The router of [`PAGE_ROUTES`], each with its handler.
fn page_routes() -> OpenApiRouter<Arc<AppCtx>> {
    let [openapi, docs, docs_asset, root, play, play_file] = PAGE_ROUTES;
    OpenApiRouter::new()
        .route(openapi, get(docs::get_openapi))
        .route(docs, get(docs::get_docs))
        .route(docs_asset, get(docs::get_docs_asset))
        .route(root, get(docs::get_root))
        .route(play, get(play::get_play))
        .route(play_file, get(play::get_play_file))
}

/// The router of every route, without the edge.
pub fn router() -> axum::Router<Arc<AppCtx>> {
    crate::routes::api_routes()
        .merge(page_routes())
        .split_for_parts()
        .0
}
