//! The JSON shapes of requests and responses, one file per resource. Doc comments become the
//! OpenAPI descriptions.
//!
//! Fields typed `serde_json::Value` carry a game's own JSON (its options, actions, views and
//! events); the OpenAPI document narrows them to the `anyOf` of every game's schema.

mod actions;
mod apps;
mod common;
mod games;
mod log;
mod notifications;
mod rulesets;
mod seats;
mod webhooks;

pub use actions::*;
pub use apps::*;
pub use common::*;
pub use games::*;
pub use log::*;
pub use notifications::*;
pub use rulesets::*;
pub use seats::*;
pub use webhooks::*;
