//! The refusals a route documents: each status it can answer with a problem, and what that
//! status means on that route. Every refusal has the same body, an RFC 9457 [`Problem`] as
//! `application/problem+json`, so a route lists `status => description` pairs through
//! [`problems!`] (and the groups below that several routes share) instead of spelling the
//! body at each status.

use crate::error::Problem;
use std::collections::BTreeMap;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::ToSchema;

/// `(status, description)` pairs as responses whose body is a [`Problem`].
pub(crate) fn problem_responses(entries: &[(u16, &str)]) -> BTreeMap<String, RefOr<Response>> {
    let body = || {
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name(Problem::name())))
            .build()
    };
    entries
        .iter()
        .map(|&(status, description)| {
            let response = ResponseBuilder::new()
                .description(description)
                .content("application/problem+json", body())
                .build();
            (status.to_string(), RefOr::T(response))
        })
        .collect()
}

/// Declares a type for a route's `responses(...)` whose `IntoResponses` are the given
/// `status => description` pairs, each with a [`Problem`] body.
macro_rules! problems {
    ($(#[$doc:meta])* $name:ident { $($status:literal => $description:literal),+ $(,)? }) => {
        $(#[$doc])*
        pub struct $name;

        impl utoipa::IntoResponses for $name {
            fn responses() -> std::collections::BTreeMap<
                String,
                utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
            > {
                $crate::routes::problems::problem_responses(&[$(($status, $description)),+])
            }
        }
    };
}
pub(crate) use problems;

problems! {
    /// A JSON request body the edge or the extractor refuses.
    JsonBodyRefused {
        413 => "Body over 64 KiB",
        415 => "Body is not JSON",
    }
}

problems! {
    /// A stored game of a rules version this server no longer plays.
    RetiredRules {
        410 => "The game was recorded under a rules version this server no longer plays",
    }
}

problems! {
    /// The `{id}` of the path names no game.
    NoSuchGame {
        404 => "No such game",
    }
}

problems! {
    /// A route that needs a token got none, or one of no game.
    BadToken {
        401 => "Missing or invalid token",
    }
}

problems! {
    /// A header (`Authorization`, `If-Match`, `Idempotency-Key`) that does not parse.
    BadHeader {
        400 => "Malformed header",
    }
}
