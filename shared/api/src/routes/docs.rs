//! `GET /openapi.json`, `GET /docs` and `GET /`: the contract, raw and browsable.

use crate::http::Reply;
use crate::AppCtx;
use axum::extract::State;
use axum::response::{Html, Redirect};
use serde_json::Value;
use std::fmt::Write;
use std::sync::Arc;

/// Serve the OpenAPI document.
pub async fn get_openapi(State(ctx): State<Arc<AppCtx>>) -> Reply {
    Reply::raw(200, ctx.openapi_json.to_string())
}

/// Serve a browsable, self-contained reference page (no scripts, no CDN).
pub async fn get_docs(State(ctx): State<Arc<AppCtx>>) -> Html<String> {
    Html(render(&ctx.openapi_json))
}

/// `/` points newcomers to the reference.
pub async fn get_root() -> Redirect {
    Redirect::to("/docs")
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn render(spec: &Value) -> String {
    let mut html = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Beurs API</title><style>\
         body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.5}\
         code,pre{background:#f4f4f4;border-radius:4px}pre{padding:.6rem;overflow:auto;max-height:24rem}\
         .op{border:1px solid #ddd;border-radius:6px;padding:.5rem 1rem;margin:1rem 0}\
         .method{font-weight:bold;text-transform:uppercase;margin-right:.5rem}\
         </style></head><body>",
    );
    let info = &spec["info"];
    let _ = write!(
        html,
        "<h1>{}</h1><p>{}</p><p>The machine-readable contract is at <a href=\"/openapi.json\">/openapi.json</a>.</p><h2>Routes</h2>",
        escape(info["title"].as_str().unwrap_or("API")),
        escape(info["description"].as_str().unwrap_or(""))
    );
    if let Some(paths) = spec["paths"].as_object() {
        for (path, operations) in paths {
            let Some(operations) = operations.as_object() else {
                continue;
            };
            for (method, operation) in operations {
                let _ = write!(
                    html,
                    "<div class=\"op\"><p><span class=\"method\">{}</span><code>{}</code> — {}</p><p>{}</p>",
                    escape(method),
                    escape(path),
                    escape(operation["summary"].as_str().unwrap_or("")),
                    escape(operation["description"].as_str().unwrap_or(""))
                );
                if let Some(parameters) = operation["parameters"].as_array() {
                    html.push_str("<p>Parameters:</p><ul>");
                    for parameter in parameters {
                        let _ = write!(
                            html,
                            "<li><code>{}</code> ({}): {}</li>",
                            escape(parameter["name"].as_str().unwrap_or("")),
                            escape(parameter["in"].as_str().unwrap_or("")),
                            escape(parameter["description"].as_str().unwrap_or(""))
                        );
                    }
                    html.push_str("</ul>");
                }
                if let Some(responses) = operation["responses"].as_object() {
                    html.push_str("<p>Responses:</p><ul>");
                    for (status, response) in responses {
                        let _ = write!(
                            html,
                            "<li><code>{}</code> {}</li>",
                            escape(status),
                            escape(response["description"].as_str().unwrap_or(""))
                        );
                    }
                    html.push_str("</ul>");
                }
                html.push_str("</div>");
            }
        }
    }
    html.push_str("<h2>Schemas</h2>");
    if let Some(schemas) = spec["components"]["schemas"].as_object() {
        for (name, schema) in schemas {
            let pretty = serde_json::to_string_pretty(schema).unwrap_or_default();
            let _ = write!(
                html,
                "<h3 id=\"{0}\">{0}</h3><pre>{1}</pre>",
                escape(name),
                escape(&pretty)
            );
        }
    }
    html.push_str("</body></html>");
    html
}
