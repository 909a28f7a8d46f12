//! `GET /openapi.json`, `GET /docs`, `GET /docs/assets/{file}` and `GET /`: the contract, raw
//! and browsable.
//!
//! `/docs` is a small page that runs [Redoc](https://github.com/Redocly/redoc) over
//! `/openapi.json`. Redoc's standalone bundle is vendored in `shared/api/assets/` (copied from
//! the npm package locked in `tools/reference/`, whose check proves the copy is byte-identical)
//! and compiled into the binary, so the page loads nothing from any other host. The bundle is
//! served under a name holding its SHA-256, so browsers may cache it for good.

use crate::error::ApiError;
use crate::http::Reply;
use axum::extract::{Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, X_CONTENT_TYPE_OPTIONS};
use axum::response::{IntoResponse, Redirect, Response};
use service::ctx::AppCtx;
use sha2::{Digest, Sha256};
use std::sync::{Arc, OnceLock};

/// Redoc's standalone bundle (MIT), exactly as its npm package ships it (a `static`, not a
/// `const`: a const would be copied into the binary at every use).
pub static REDOC_BUNDLE: &[u8] = include_bytes!("../../assets/redoc.standalone.js");
/// Redoc's license.
const REDOC_LICENSE: &str = include_str!("../../assets/redoc.LICENSE");
/// The licenses of what the bundle contains (the bundle's last line points here).
const BUNDLE_LICENSES: &str = include_str!("../../assets/redoc.standalone.js.LICENSE.txt");

/// Where the bundle's licenses are served, next to the bundle.
const LICENSE_FILES: [(&str, &str); 2] = [
    ("redoc.LICENSE.txt", REDOC_LICENSE),
    ("redoc.standalone.js.LICENSE.txt", BUNDLE_LICENSES),
];

/// The bundle's file name under `/docs/assets/`: `redoc.standalone.<16 hex of its SHA-256>.js`.
pub fn bundle_file() -> &'static str {
    static NAME: OnceLock<String> = OnceLock::new();
    NAME.get_or_init(|| {
        let digest = Sha256::digest(REDOC_BUNDLE);
        let hex: String = digest[..8]
            .iter()
            .map(|byte| format!("{byte:02x}"))
            .collect();
        format!("redoc.standalone.{hex}.js")
    })
}

/// Serve the OpenAPI document.
pub async fn get_openapi(State(ctx): State<Arc<AppCtx>>) -> Reply {
    Reply::raw(200, crate::openapi::openapi_json(&ctx).to_owned())
}

/// Serve the reference page: Redoc over `/openapi.json`, from this server only.
pub async fn get_docs() -> Response {
    (
        [
            (CONTENT_TYPE, "text/html; charset=utf-8"),
            // Short, so a new release's bundle name is picked up at once.
            (CACHE_CONTROL, "no-cache"),
        ],
        page(),
    )
        .into_response()
}

/// Serve the vendored bundle (cached for a year: its name changes with its bytes) and its
/// licenses.
pub async fn get_docs_asset(Path(file): Path<String>) -> Result<Response, ApiError> {
    if file == bundle_file() {
        return Ok((
            [
                (CONTENT_TYPE, "text/javascript; charset=utf-8"),
                (CACHE_CONTROL, "public, max-age=31536000, immutable"),
                (X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            REDOC_BUNDLE,
        )
            .into_response());
    }
    let (_, text) = LICENSE_FILES
        .iter()
        .find(|(name, _)| *name == file)
        .ok_or(ApiError::RouteNotFound)?;
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8"),
            (CACHE_CONTROL, "public, max-age=86400"),
            (X_CONTENT_TYPE_OPTIONS, "nosniff"),
        ],
        *text,
    )
        .into_response())
}

/// `/` points newcomers to the reference.
pub async fn get_root() -> Redirect {
    Redirect::to("/docs")
}

/// The page. Paths are relative (`/docs` resolves them against `/`), so the page also works
/// behind a path prefix.
fn page() -> String {
    static PAGE: OnceLock<String> = OnceLock::new();
    PAGE.get_or_init(|| {
        format!(
            r##"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Beurs API reference</title>
<style>body{{margin:0}}</style>
<link rel="icon" href="data:,">
<script>
// Redoc's side menu shows a logo from its makers' site: this page loads nothing from other
// hosts, so such an image gets an empty source instead (Redoc then leaves the logo out).
(function () {{
  var remote = function (value) {{ return /^(https?:)?\/\//i.test(String(value)); }};
  var setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (name, value) {{
    if (this instanceof HTMLImageElement && String(name).toLowerCase() === 'src' && remote(value)) value = 'data:,';
    return setAttribute.call(this, name, value);
  }};
  var src = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, 'src');
  Object.defineProperty(HTMLImageElement.prototype, 'src', {{
    configurable: true,
    enumerable: src.enumerable,
    get: src.get,
    set: function (value) {{ src.set.call(this, remote(value) ? 'data:,' : value); }}
  }});
}})();
</script>
</head>
<body>
<noscript><p>The reference needs JavaScript. The contract itself is at <a href="openapi.json">/openapi.json</a>.</p></noscript>
<div id="reference"></div>
<script src="docs/assets/{bundle}"></script>
<script>
Redoc.init('openapi.json', {{
  expandResponses: '200,201',
  requiredPropsFirst: true,
  pathInMiddlePanel: true,
  jsonSampleExpandLevel: 3,
  hideHostname: true,
  theme: {{
    colors: {{ primary: {{ main: '#b4232f' }} }},
    typography: {{
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
      headings: {{ fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' }},
      code: {{ fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' }}
    }},
    sidebar: {{ width: '280px' }}
  }}
}}, document.getElementById('reference'));
</script>
</body>
</html>
"##,
            bundle = bundle_file()
        )
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use http_body_util::BodyExt;
    use tower::ServiceExt;

    async fn get(path: &str) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
        let ctx = Arc::new(AppCtx::new(Arc::new(store::MemoryStore::new())));
        let app = crate::pages::router().with_state(ctx);
        let reply = app
            .oneshot(Request::get(path).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = reply.status();
        let headers = reply.headers().clone();
        let body = reply.into_body().collect().await.unwrap().to_bytes();
        (status, headers, body.to_vec())
    }

    #[tokio::test]
    async fn the_docs_page_loads_only_local_assets() {
        let (status, headers, body) = get("/docs").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[CONTENT_TYPE], "text/html; charset=utf-8");
        let html = String::from_utf8(body).unwrap();
        assert!(html.contains("Redoc.init('openapi.json'"), "{html}");
        let script = format!("<script src=\"docs/assets/{}\"></script>", bundle_file());
        assert!(html.contains(&script), "{html}");
        // No other host: no absolute URL in any src or href, no protocol-relative one.
        for attribute in ["src=\"", "href=\"", "init('"] {
            for (at, _) in html.match_indices(attribute) {
                let value = &html[at + attribute.len()..];
                assert!(
                    !value.starts_with("http") && !value.starts_with("//"),
                    "{}",
                    &value[..40.min(value.len())]
                );
            }
        }
        assert!(!html.contains("cdn."), "no CDN");
    }

    #[tokio::test]
    async fn the_bundle_is_served_with_a_long_cache() {
        assert!(bundle_file().starts_with("redoc.standalone.") && bundle_file().ends_with(".js"));
        let (status, headers, body) = get(&format!("/docs/assets/{}", bundle_file())).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[CONTENT_TYPE], "text/javascript; charset=utf-8");
        assert_eq!(
            headers[CACHE_CONTROL],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(headers[X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(body, REDOC_BUNDLE);
        assert!(body.len() > 500_000, "the real bundle, not a stub");
        let (status, headers, body) = get("/docs/assets/redoc.LICENSE.txt").await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers[CONTENT_TYPE], "text/plain; charset=utf-8");
        assert!(String::from_utf8(body).unwrap().contains("MIT"));
        let (status, ..) = get("/docs/assets/redoc.standalone.js.LICENSE.txt").await;
        assert_eq!(status, StatusCode::OK);
        // Another name (an older bundle, a guess) is not found.
        let (status, ..) = get("/docs/assets/redoc.standalone.js").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        let (status, ..) = get("/docs/assets/..%2Fopenapi.json").await;
        assert_eq!(status, StatusCode::NOT_FOUND);
    }
}
