//! What a Lambda function does at cold start besides connecting to DynamoDB: build the
//! context (the registry and the OpenAPI document) and the router behind the edge. Every
//! route function mounts the whole router (docs/decisions.md #1), so this is that choice's
//! start-up cost. `cargo bench -p api --bench cold_start`.

use criterion::{criterion_main, Criterion};
use std::hint::black_box;
use std::sync::Arc;

fn cold_start(c: &mut Criterion) {
    c.bench_function(
        "AppCtx::new (the registry; the rest is built on first use)",
        |b| b.iter(|| black_box(service::AppCtx::new(Arc::new(store::MemoryStore::new())))),
    );
    // What the first GET /openapi.json or /docs (get-openapi's cold start) adds.
    c.bench_function("the OpenAPI document (ruleset list + document)", |b| {
        b.iter(|| {
            let ctx = service::AppCtx::new(Arc::new(store::MemoryStore::new()));
            black_box(api::openapi::openapi_json(&ctx).len())
        })
    });
    let ctx = Arc::new(service::AppCtx::new(Arc::new(store::MemoryStore::new())));
    let config = api::edge::EdgeConfig::default();
    c.bench_function("edge::app (every route + the edge's layers)", |b| {
        b.iter(|| black_box(api::edge::app(ctx.clone(), &config)))
    });
}

mod group {
    //! The benchmark group (a private module, so the generated function needs no docs).
    use super::cold_start;
    criterion::criterion_group!(benches, cold_start);
}

criterion_main!(group::benches);
