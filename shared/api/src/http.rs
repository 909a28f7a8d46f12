//! The HTTP vocabulary of the routes: typed extractors whose rejections are our problems,
//! and [`Reply`], a successful answer.
//!
//! Every extractor here rejects with an [`ApiError`], so a malformed path, query, header or
//! body becomes an RFC 9457 problem with a stable code, never axum's plain-text rejection.

use crate::error::{ApiError, Error, InternalDetail};
use axum::body::Bytes;
use axum::extract::FromRef;
use axum::extract::{FromRequest, FromRequestParts, Path, Query, Request};
use axum::http::request::Parts;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;
use service::auth::Credential;
use service::game::VersionTags;
use service::AppCtx;
use std::sync::Arc;

/// Bodies larger than this are refused with 413 (DESIGN.md §5).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// A successful reply: a status, a JSON body (or none), extra headers, and what went wrong
/// after the change was made, for the log only.
pub struct Reply {
    status: StatusCode,
    body: String,
    headers: Vec<(HeaderName, String)>,
    detail: Option<String>,
}

impl Reply {
    /// A JSON reply.
    pub fn json(status: u16, value: &impl Serialize) -> Reply {
        Reply::raw(
            status,
            serde_json::to_string(value).expect("responses serialize"),
        )
    }

    /// A reply whose body is already serialized JSON.
    pub fn raw(status: u16, body: String) -> Reply {
        Reply {
            status: StatusCode::from_u16(status).expect("a valid status"),
            body,
            headers: Vec::new(),
            detail: None,
        }
    }

    /// The reply with one more member, `name`, in its body, which must be a JSON object
    /// without that member (as the stored answer to a move is): the object is not parsed
    /// again, the member is written before its closing brace.
    pub fn member(mut self, name: &str, value: &impl Serialize) -> Reply {
        debug_assert!(self.body.starts_with('{') && self.body.ends_with('}'));
        let closing = self.body.pop();
        if self.body.len() > 1 {
            self.body.push(',');
        }
        self.body
            .push_str(&serde_json::to_string(name).expect("a string serializes"));
        self.body.push(':');
        self.body
            .push_str(&serde_json::to_string(value).expect("responses serialize"));
        self.body.extend(closing);
        self
    }

    /// A reply without a body (204).
    pub fn empty(status: u16) -> Reply {
        Reply::raw(status, String::new())
    }

    /// Something that failed after the change this reply reports was made (a bot that could
    /// not move): the edge logs it as an error on the request's line; the client is not told.
    pub fn detail(mut self, detail: Option<String>) -> Reply {
        self.detail = detail;
        self
    }

    /// Adds a header.
    pub fn header(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((HeaderName::from_static(name), value));
        self
    }
}

impl IntoResponse for Reply {
    fn into_response(self) -> Response {
        let empty = self.body.is_empty();
        let mut response = (self.status, self.body).into_response();
        let headers = response.headers_mut();
        if empty {
            headers.remove(axum::http::header::CONTENT_TYPE);
        } else {
            headers.insert(
                axum::http::header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
        }
        for (name, value) in self.headers {
            if let Ok(value) = HeaderValue::from_str(&value) {
                headers.append(name, value);
            }
        }
        if let Some(detail) = self.detail {
            response.extensions_mut().insert(InternalDetail(detail));
        }
        response
    }
}

/// Path parameters, deserialized; a parameter that does not fit is a 400 problem.
pub struct Params<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Params<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(Params(value)),
            Err(rejection) => Err(Error::Malformed(rejection.body_text()).into()),
        }
    }
}

/// Query parameters, deserialized; a parameter that does not fit is a 400 problem.
/// Parameters the route does not know are ignored.
pub struct QueryParams<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for QueryParams<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(QueryParams(value)),
            Err(rejection) => {
                Err(Error::Malformed(format!("bad query string: {}", rejection.body_text())).into())
            }
        }
    }
}

/// A JSON request body, parsed into `T` (whose serde attributes reject unknown fields).
///
/// As with `axum::Json`, the body must be declared JSON (`Content-Type: application/json` or
/// a `+json` type): anything else, or no `Content-Type`, is a 415, and nothing is read
/// (issue 54: a body sent as another media type was applied). Unlike `axum::Json`, integral
/// floats count as integers (see [`integral_floats_to_integers`]). A body over
/// [`MAX_BODY_BYTES`] is a 413.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        if !declared_json(&request) {
            return Err(ApiError::UnsupportedMediaType);
        }
        Ok(JsonBody(json_body(&body_bytes(request, state).await?)?))
    }
}

/// An optional JSON request body: none at all (no `Content-Type` needed) or `null` is
/// `None`; anything else is read as [`JsonBody`] reads it.
pub struct OptionalJsonBody<T>(pub Option<T>);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for OptionalJsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> Result<Self, ApiError> {
        let declared = declared_json(&request);
        let bytes = body_bytes(request, state).await?;
        if bytes.is_empty() {
            return Ok(OptionalJsonBody(None));
        }
        if !declared {
            return Err(ApiError::UnsupportedMediaType);
        }
        Ok(OptionalJsonBody(json_body::<Option<T>>(&bytes)?))
    }
}

/// Whether the request declares its body JSON (`application/json` or a `+json` type).
fn declared_json(request: &Request) -> bool {
    let content_type = request
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .map(|value| value.to_str().unwrap_or("").to_ascii_lowercase())
        .unwrap_or_default();
    let media_type = content_type.split(';').next().unwrap_or("").trim();
    media_type == "application/json" || media_type.ends_with("+json")
}

/// The request's body, at most [`MAX_BODY_BYTES`] (413 beyond).
async fn body_bytes<S: Send + Sync>(request: Request, state: &S) -> Result<Bytes, ApiError> {
    Bytes::from_request(request, state)
        .await
        .map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                ApiError::PayloadTooLarge {
                    limit: MAX_BODY_BYTES,
                }
            } else {
                Error::Malformed(format!(
                    "the request body could not be read: {}",
                    rejection.body_text()
                ))
                .into()
            }
        })
}

/// Parses a JSON body into `T`.
pub fn json_body<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    if bytes.is_empty() {
        return Err(Error::Malformed("the request needs a JSON body".into()));
    }
    let mut value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|error| Error::Malformed(format!("invalid JSON body: {error}")))?;
    integral_floats_to_integers(&mut value);
    T::deserialize(value)
        .map_err(|error| Error::Malformed(format!("invalid request body: {error}")))
}

/// JSON Schema counts `8.0` as an integer; serde does not. Rewrites every float with no
/// fractional part (and well within the integer range) as an integer, so clients whose JSON
/// library writes every number as a float are not refused for a spelling.
pub fn integral_floats_to_integers(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Number(number) if number.is_f64() => {
            let float = number.as_f64().unwrap_or(f64::NAN);
            if float.fract() == 0.0 && float.abs() < 9.0e15 {
                *value = serde_json::Value::from(float as i64);
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(integral_floats_to_integers),
        serde_json::Value::Object(object) => {
            object.values_mut().for_each(integral_floats_to_integers)
        }
        _ => {}
    }
}

/// A header's value as text, if present. Non-ASCII header values are a bad request.
fn header<'a>(parts: &'a Parts, name: &str) -> Result<Option<&'a str>, Error> {
    match parts.headers.get(name) {
        None => Ok(None),
        Some(value) => value
            .to_str()
            .map(Some)
            .map_err(|_| Error::Malformed(format!("the {name} header is not visible ASCII"))),
    }
}

/// What the request presented in its `Authorization` header: nothing, a game's token, or an
/// app key, which is checked here against its app (a revoked or unknown key is 401 before
/// the route runs).
pub struct Bearer(pub Credential);

impl<S> FromRequestParts<S> for Bearer
where
    S: Send + Sync,
    Arc<AppCtx>: FromRef<S>,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, ApiError> {
        let Some(token) = bearer_token(parts)? else {
            return Ok(Bearer(Credential::Anonymous));
        };
        let ctx = Arc::<AppCtx>::from_ref(state);
        if service::players::is_player_token(&token) {
            let player = service::players::authenticate(ctx.store.as_ref(), &token).await?;
            return Ok(Bearer(Credential::Player(player)));
        }
        if !service::apps::is_app_key(&token) {
            return Ok(Bearer(Credential::Token(token)));
        }
        let key = service::apps::authenticate(ctx.store.as_ref(), &token).await?;
        Ok(Bearer(Credential::App(key)))
    }
}

/// Where a request came from, as the keyless quotas count it ([`service::apps::Origin`]):
/// the peer's address locally, API Gateway's `sourceIp` on Lambda, `None` when the server
/// was not told (a router called directly, as in tests).
pub struct ClientOrigin(pub Option<service::apps::Origin>);

impl<S: Send + Sync> FromRequestParts<S> for ClientOrigin {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientOrigin(
            parts
                .extensions
                .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
                .map(|peer| service::apps::Origin::of(peer.0.ip())),
        ))
    }
}

/// The token of an `Authorization: Bearer <token>` header, if the request sent one; any
/// other `Authorization` is 401.
pub fn bearer_token(parts: &Parts) -> Result<Option<String>, ApiError> {
    match header(parts, "authorization")? {
        None => Ok(None),
        Some(value) => bearer_of(value)
            .map(|token| Some(token.to_string()))
            .ok_or_else(|| {
                Error::Unauthorized("the Authorization header must be 'Bearer <token>'").into()
            }),
    }
}

/// The token of an `Authorization` value `Bearer <token>` (the scheme in any case), if the
/// value is one.
pub fn bearer_of(value: &str) -> Option<&str> {
    let (scheme, token) = value.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

impl Bearer {
    /// The game token, if the request sent one (not an app key).
    pub fn token(&self) -> Option<&str> {
        self.0.token()
    }

    /// What the request presented.
    pub fn who(&self) -> &Credential {
        &self.0
    }
}

/// The `If-Match` precondition (RFC 9110 §13.1.1), if the request sent one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IfMatch(pub VersionTags);

impl IfMatch {
    /// Parses the header's value: `*` or a comma-separated list of entity tags.
    pub fn parse(value: &str) -> Result<VersionTags, Error> {
        let value = value.trim();
        if value == "*" {
            return Ok(VersionTags::Any);
        }
        let malformed = || {
            Error::Malformed(
                "If-Match must be * or entity tags as the ETag header gives them, e.g. \"7\""
                    .into(),
            )
        };
        // `#entity-tag`: tags separated by commas and optional spaces; a tag's opaque part may
        // itself hold commas, so the list is scanned, not split.
        let mut tags = Vec::new();
        let mut rest = value;
        loop {
            let (weak, quoted) = match rest.strip_prefix("W/") {
                Some(after) => (true, after),
                None => (false, rest),
            };
            let inner = quoted.strip_prefix('"').ok_or_else(malformed)?;
            let close = inner.find('"').ok_or_else(malformed)?;
            let opaque = &inner[..close];
            if !opaque
                .bytes()
                .all(|byte| byte == 0x21 || (0x23..=0x7e).contains(&byte))
            {
                return Err(malformed());
            }
            tags.push((weak, opaque.to_string()));
            rest = inner[close + 1..].trim_start_matches([' ', '\t']);
            if rest.is_empty() {
                break;
            }
            rest = rest
                .strip_prefix(',')
                .ok_or_else(malformed)?
                .trim_start_matches([' ', '\t']);
        }
        Ok(VersionTags::Tags(tags))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for IfMatch {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        match header(parts, "if-match")? {
            // An empty field names no tag: no precondition, as if it were absent.
            None => Ok(IfMatch(VersionTags::Absent)),
            Some(value) if value.trim().is_empty() => Ok(IfMatch(VersionTags::Absent)),
            Some(value) => Ok(IfMatch(IfMatch::parse(value)?)),
        }
    }
}

/// The `If-None-Match` condition of a read (RFC 9110 §13.1.2), if the request sent one: a
/// read whose version it names is answered `304 Not Modified` with no body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IfNoneMatch(VersionTags);

impl IfNoneMatch {
    /// Whether the client's copy at the tags it named is still the game's `version`: `*`, or
    /// one of its tags (compared weakly, as RFC 9110 has it for this header).
    pub fn fresh(&self, version: u64) -> bool {
        match &self.0 {
            VersionTags::Absent => false,
            VersionTags::Any => true,
            VersionTags::Tags(tags) => {
                let current = version.to_string();
                tags.iter().any(|(_, tag)| *tag == current)
            }
        }
    }

    /// A 304 with the version's `ETag` and no body when the client's copy is fresh.
    pub fn not_modified(&self, version: u64) -> Option<Reply> {
        self.fresh(version)
            .then(|| Reply::empty(304).header("etag", format!("\"{version}\"")))
    }

    /// `reply`, or [`IfNoneMatch::not_modified`] when the client's copy is fresh.
    pub fn answer(
        &self,
        version: u64,
        reply: impl FnOnce() -> Result<Reply, ApiError>,
    ) -> Result<Reply, ApiError> {
        self.not_modified(version).map_or_else(reply, Ok)
    }
}

impl<S: Send + Sync> FromRequestParts<S> for IfNoneMatch {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        match header(parts, "if-none-match")? {
            None => Ok(IfNoneMatch::default()),
            Some(value) if value.trim().is_empty() => Ok(IfNoneMatch::default()),
            Some(value) => IfMatch::parse(value).map(IfNoneMatch).map_err(|_| {
                Error::Malformed(
                    "If-None-Match must be * or entity tags as the ETag header gives them, e.g. \"7\""
                        .into(),
                )
                .into()
            }),
        }
    }
}

/// The `Idempotency-Key`, validated: 1 to 255 visible ASCII characters.
pub struct IdempotencyKey(pub Option<String>);

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKey {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, ApiError> {
        match header(parts, "idempotency-key")? {
            None => Ok(IdempotencyKey(None)),
            Some(key)
                if !key.is_empty()
                    && key.len() <= 255
                    && key.bytes().all(|byte| byte.is_ascii_graphic()) =>
            {
                Ok(IdempotencyKey(Some(key.to_string())))
            }
            Some(_) => Err(Error::Malformed(
                "Idempotency-Key must be 1 to 255 visible ASCII characters".into(),
            )
            .into()),
        }
    }
}

/// A page size from a query, checked against its range.
pub fn limit_in(limit: Option<u32>, default: u32, max: u32) -> Result<usize, ApiError> {
    match limit {
        None => Ok(default as usize),
        Some(limit) if (1..=max).contains(&limit) => Ok(limit as usize),
        Some(_) => {
            Err(Error::Malformed(format!("limit must be an integer from 1 to {max}")).into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn if_match_compares_strongly() {
        let strong = IfMatch::parse("\"5\"").unwrap();
        assert!(strong.matches(5));
        assert!(!strong.matches(6));
        let weak = IfMatch::parse("W/\"5\"").unwrap();
        assert!(!weak.matches(5), "a weak tag never matches If-Match");
        let list = IfMatch::parse("W/\"5\", \"6\"").unwrap();
        assert!(list.matches(6) && !list.matches(5));
        // An opaque tag may hold a comma; lists may have spaces around their commas.
        let commas = IfMatch::parse("\",x\"  ,   W/\"y\" , \"\" ,\"9\"").unwrap();
        assert!(commas.matches(9));
        assert_eq!(
            commas,
            VersionTags::Tags(vec![
                (false, ",x".into()),
                (true, "y".into()),
                (false, String::new()),
                (false, "9".into())
            ])
        );
        assert!(IfMatch::parse("*").unwrap().matches(99));
    }

    #[test]
    fn malformed_if_match_is_refused() {
        for value in [
            "5",
            "\"5",
            "W/5",
            "\"5\" \"6\"",
            "\"a b\"",
            "null",
            "\"5\",",
            ",\"5\"",
        ] {
            assert!(IfMatch::parse(value).is_err(), "{value:?}");
        }
    }
}
