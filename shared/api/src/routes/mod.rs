//! The route handlers, one module per resource, and what they share.

pub mod actions;
pub mod docs;
pub mod events;
pub mod games;
pub mod history;
pub mod log;
pub mod me;
pub mod pauses;
pub mod play;
mod problems;
pub mod rematch;
pub mod rulesets;
pub mod seats;
pub mod webhooks;

/// The `ETag` of a version.
pub fn etag(version: u64) -> String {
    format!("\"{version}\"")
}
