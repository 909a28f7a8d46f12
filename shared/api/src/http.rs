//! Request parsing and response building shared by every route.

use crate::error::ApiError;
use lambda_http::{Body, Request, RequestExt, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// Bodies larger than this are refused with 413 (DESIGN.md §5).
pub const MAX_BODY_BYTES: usize = 64 * 1024;

/// A successful reply before it becomes a response.
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// JSON body.
    pub body: String,
    /// Extra headers.
    pub headers: Vec<(&'static str, String)>,
}

impl Reply {
    /// A JSON reply.
    pub fn json(status: u16, value: &impl Serialize) -> Reply {
        Reply {
            status,
            body: serde_json::to_string(value).expect("responses serialize"),
            headers: Vec::new(),
        }
    }

    /// A reply whose body is already serialized JSON.
    pub fn raw(status: u16, body: String) -> Reply {
        Reply {
            status,
            body,
            headers: Vec::new(),
        }
    }

    /// A reply without a body (204).
    pub fn empty(status: u16) -> Reply {
        Reply::raw(status, String::new())
    }

    /// Adds a header.
    pub fn header(mut self, name: &'static str, value: String) -> Reply {
        self.headers.push((name, value));
        self
    }
}

/// Turns a route's result into a response: the one place errors become problem+json.
pub fn respond(request: &Request, result: Result<Reply, ApiError>) -> Response<Body> {
    match result {
        Ok(reply) => {
            let mut builder = Response::builder().status(reply.status);
            if !reply.body.is_empty() {
                builder = builder.header("content-type", "application/json");
            }
            for (name, value) in reply.headers {
                builder = builder.header(name, value);
            }
            builder
                .body(Body::Text(reply.body))
                .expect("valid response")
        }
        Err(error) => {
            if let ApiError::Internal(detail) = &error {
                // 5xx: the detail goes to the log only. Client errors are not logged as errors.
                eprintln!(
                    "internal error on {} {}: {detail}",
                    request.method(),
                    request.uri().path()
                );
            }
            let problem = error.to_problem(request.uri().path());
            let mut builder = Response::builder()
                .status(problem.status)
                .header("content-type", "application/problem+json");
            if let ApiError::MethodNotAllowed { allow } = &error {
                builder = builder.header("allow", *allow);
            }
            builder
                .body(Body::Text(
                    serde_json::to_string(&problem).expect("problems serialize"),
                ))
                .expect("valid response")
        }
    }
}

/// The request body as bytes, refusing oversized bodies.
pub fn body_bytes(request: &Request) -> Result<&[u8], ApiError> {
    let bytes: &[u8] = match request.body() {
        Body::Empty => &[],
        Body::Text(text) => text.as_bytes(),
        Body::Binary(bytes) => bytes,
        _ => &[],
    };
    if bytes.len() > MAX_BODY_BYTES {
        return Err(ApiError::PayloadTooLarge {
            limit: MAX_BODY_BYTES,
        });
    }
    Ok(bytes)
}

/// Parses a JSON body into `T` (whose serde attributes reject unknown fields).
pub fn json_body<T: DeserializeOwned>(request: &Request) -> Result<T, ApiError> {
    let bytes = body_bytes(request)?;
    if let Some(content_type) = request.headers().get("content-type") {
        let content_type = content_type.to_str().unwrap_or("").to_ascii_lowercase();
        let media_type = content_type.split(';').next().unwrap_or("").trim();
        if media_type != "application/json" && !media_type.ends_with("+json") {
            return Err(ApiError::UnsupportedMediaType);
        }
    }
    if bytes.is_empty() {
        return Err(ApiError::BadRequest("the request needs a JSON body".into()));
    }
    let mut value: serde_json::Value = serde_json::from_slice(bytes)
        .map_err(|error| ApiError::BadRequest(format!("invalid JSON body: {error}")))?;
    integral_floats_to_integers(&mut value);
    T::deserialize(value)
        .map_err(|error| ApiError::BadRequest(format!("invalid request body: {error}")))
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

/// A path parameter set by the router (locally) or by API Gateway.
pub fn path_param(request: &Request, name: &str) -> Result<String, ApiError> {
    request
        .path_parameters_ref()
        .and_then(|parameters| parameters.first(name))
        .map(str::to_string)
        .ok_or(ApiError::RouteNotFound)
}

/// The query string's parameters (decoded), from the request URI.
pub fn query_params(request: &Request) -> Result<Vec<(String, String)>, ApiError> {
    let Some(query) = request.uri().query() else {
        return Ok(Vec::new());
    };
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            Ok((percent_decode(name)?, percent_decode(value)?))
        })
        .collect()
}

fn percent_decode(text: &str) -> Result<String, ApiError> {
    let bad = || ApiError::BadRequest("the query string is not valid percent-encoded UTF-8".into());
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes.get(i + 1..i + 3).ok_or_else(bad)?;
                let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            byte => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// A header's value as text, if present. Non-ASCII header values are a bad request.
pub fn header<'a>(request: &'a Request, name: &str) -> Result<Option<&'a str>, ApiError> {
    match request.headers().get(name) {
        None => Ok(None),
        Some(value) => value
            .to_str()
            .map(Some)
            .map_err(|_| ApiError::BadRequest(format!("the {name} header is not visible ASCII"))),
    }
}

/// The bearer token, if an `Authorization` header is present.
pub fn bearer_token(request: &Request) -> Result<Option<&str>, ApiError> {
    match header(request, "authorization")? {
        None => Ok(None),
        Some(value) => {
            let (scheme, token) = value.split_once(' ').unwrap_or((value, ""));
            if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
                return Err(ApiError::Unauthorized(
                    "the Authorization header must be 'Bearer <token>'",
                ));
            }
            Ok(Some(token.trim()))
        }
    }
}

/// The version named by `If-Match` (`"7"`, `W/"7"` or `7`), if the header is present.
pub fn if_match(request: &Request) -> Result<Option<String>, ApiError> {
    Ok(header(request, "if-match")?.map(|value| {
        let value = value.trim();
        let value = value.strip_prefix("W/").unwrap_or(value);
        value.trim_matches('"').to_string()
    }))
}

/// The `Idempotency-Key`, validated: 1 to 255 visible ASCII characters.
pub fn idempotency_key(request: &Request) -> Result<Option<String>, ApiError> {
    match header(request, "idempotency-key")? {
        None => Ok(None),
        Some(key)
            if !key.is_empty()
                && key.len() <= 255
                && key.bytes().all(|byte| byte.is_ascii_graphic()) =>
        {
            Ok(Some(key.to_string()))
        }
        Some(_) => Err(ApiError::BadRequest(
            "Idempotency-Key must be 1 to 255 visible ASCII characters".into(),
        )),
    }
}

/// A bare 500 problem, for the (never expected) case of a handler returning `Err`.
pub fn respond_internal(path: &str, detail: &str) -> Response<Body> {
    eprintln!("handler error on {path}: {detail}");
    let problem = ApiError::Internal(detail.to_string()).to_problem(path);
    Response::builder()
        .status(500)
        .header("content-type", "application/problem+json")
        .body(Body::Text(
            serde_json::to_string(&problem).expect("problems serialize"),
        ))
        .expect("valid response")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percent_decoding() {
        assert_eq!(percent_decode("a%20b+c").unwrap(), "a b c");
        assert!(percent_decode("%zz").is_err());
        assert!(percent_decode("%ff").is_err());
        assert!(percent_decode("%2").is_err());
    }
}
