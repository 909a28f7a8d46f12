//! The HTTP API's Lambda functions: which routes each one serves, what it may do to the
//! table and how long it may run. This list is the one place the route-to-function map
//! lives (docs/decisions.md #37):
//!
//! - infra/template.yaml deploys the one `api` binary (functions/api) once per entry, and a
//!   test (`tests/lambda/template.rs`) checks the template against this list: every entry is
//!   one function with exactly these routes, policy and timeout, and no other function serves
//!   a route;
//! - [`tests`] below check that the list serves every route of [`crate::routes::api_routes`] exactly
//!   once;
//! - the Lambda end-to-end test (`tests/api/lambda_e2e.rs`) routes each request as API
//!   Gateway would, with [`function_for`], and fails unless every function answered.
//!
//! Every function serves whatever reaches it with the whole router (docs/decisions.md #1):
//! the split only gives each route group its own permissions, timeout and log group
//! (`/aws/lambda/<stack>-<name>`, Lambda's own).

/// An HTTP method a route function is invoked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Method {
    /// `GET` (API Gateway sends `HEAD` to the same route).
    Get,
    /// `POST`.
    Post,
    /// `DELETE`.
    Delete,
    /// `OPTIONS`: CORS preflights only.
    Options,
}

impl Method {
    /// The method as HTTP spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Delete => "DELETE",
            Method::Options => "OPTIONS",
        }
    }

    /// The method HTTP spells `method`, if a route function can be invoked for it.
    pub fn parse(method: &str) -> Option<Method> {
        match method {
            "GET" | "HEAD" => Some(Method::Get),
            "POST" => Some(Method::Post),
            "DELETE" => Some(Method::Delete),
            "OPTIONS" => Some(Method::Options),
            _ => None,
        }
    }
}

/// One route of API Gateway's HTTP API: a method and a path template in its syntax
/// (`{name}` is one segment, `{name+}` the rest of the path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Route {
    /// The method.
    pub method: Method,
    /// The path template.
    pub path: &'static str,
}

/// What a function's IAM policy lets it do to the games table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableAccess {
    /// Nothing: it serves documents built from the code alone.
    None,
    /// Reads only (GetItem, and Query where it lists).
    Read,
    /// Reads, and commits with conditional puts (GetItem, PutItem; Query where it counts an
    /// app's games or lists apps).
    Write,
    /// [`TableAccess::Write`], and counts what it creates: an atomic `UpdateItem` of a
    /// counter (a client address's hourly creations, docs/apps.md).
    Create,
    /// Reads, and deletes a game's items (GetItem, Query, DeleteItem, BatchWriteItem).
    Delete,
}

/// One Lambda function of the HTTP API.
#[derive(Clone, Copy, Debug)]
pub struct RouteFunction {
    /// Its name: the suffix of its `FunctionName` (`<stack>-<name>`).
    pub name: &'static str,
    /// Its table access.
    pub access: TableAccess,
    /// Its timeout in seconds.
    pub timeout_seconds: u32,
    /// The routes API Gateway sends it.
    pub routes: &'static [Route],
}

/// The timeout of a function that answers at once (the template's `Globals`).
pub const DEFAULT_TIMEOUT_SECONDS: u32 = 10;

/// The route of CORS preflights: every path, answered by the edge's CORS layer.
pub const PREFLIGHT: Route = Route {
    method: Method::Options,
    path: "/{proxy+}",
};

const fn get(path: &'static str) -> Route {
    Route {
        method: Method::Get,
        path,
    }
}

const fn post(path: &'static str) -> Route {
    Route {
        method: Method::Post,
        path,
    }
}

const fn function(
    name: &'static str,
    access: TableAccess,
    routes: &'static [Route],
) -> RouteFunction {
    RouteFunction {
        name,
        access,
        timeout_seconds: DEFAULT_TIMEOUT_SECONDS,
        routes,
    }
}

/// Every HTTP function, in the template's order.
pub const FUNCTIONS: &[RouteFunction] = &[
    function("create-game", TableAccess::Create, &[post("/v1/games")]),
    function("list-games", TableAccess::Read, &[get("/v1/games")]),
    function(
        "claim-seat",
        TableAccess::Write,
        &[
            post("/v1/games/{id}/seats/{seat}"),
            Route {
                method: Method::Delete,
                path: "/v1/games/{id}/seats/{seat}",
            },
            post("/v1/games/{id}/seats/{seat}/resign"),
            post("/v1/games/{id}/seats/{seat}/replace"),
            // A rematch creates a game and claims a seat in it, like a claim.
            post("/v1/games/{id}/rematch"),
            // Pauses and vacations change the game's clock, like a resignation its seats.
            post("/v1/games/{id}/pause"),
            post("/v1/games/{id}/resume"),
            post("/v1/games/{id}/seats/{seat}/vacation"),
            Route {
                method: Method::Delete,
                path: "/v1/games/{id}/seats/{seat}/vacation",
            },
        ],
    ),
    RouteFunction {
        // Long-polls (`?after_version=…&wait=…`) wait up to 25 s, within API Gateway's 29 s.
        timeout_seconds: 28,
        ..function(
            "get-game",
            TableAccess::Read,
            &[
                get("/v1/games/{id}"),
                get("/v1/me/games"),
                // Streams answer one batch per request here (service::streams::StreamMode).
                get("/v1/games/{id}/events"),
                get("/v1/me/events"),
            ],
        )
    },
    function(
        "list-legal-actions",
        TableAccess::Read,
        &[get("/v1/games/{id}/legal-actions")],
    ),
    function(
        "submit-action",
        TableAccess::Write,
        &[post("/v1/games/{id}/actions")],
    ),
    function(
        "get-log",
        TableAccess::Read,
        &[
            get("/v1/games/{id}/log"),
            get("/v1/games/{id}/history/{seq}"),
        ],
    ),
    function(
        "get-audit",
        TableAccess::Read,
        &[get("/v1/games/{id}/audit")],
    ),
    function(
        "create-webhook",
        TableAccess::Write,
        &[post("/v1/games/{id}/webhooks")],
    ),
    function(
        "list-webhooks",
        TableAccess::Read,
        &[get("/v1/games/{id}/webhooks")],
    ),
    function(
        "delete-webhook",
        TableAccess::Write,
        &[Route {
            method: Method::Delete,
            path: "/v1/games/{id}/webhooks/{hook}",
        }],
    ),
    function(
        "delete-game",
        TableAccess::Delete,
        &[Route {
            method: Method::Delete,
            path: "/v1/games/{id}",
        }],
    ),
    function(
        "list-deliveries",
        TableAccess::Read,
        &[get("/v1/games/{id}/webhooks/{hook}/deliveries")],
    ),
    function(
        "manage-apps",
        TableAccess::Write,
        &[
            post("/v1/apps"),
            get("/v1/apps"),
            post("/v1/apps/{app}/keys"),
            Route {
                method: Method::Delete,
                path: "/v1/apps/{app}/keys/{key}",
            },
        ],
    ),
    function(
        "manage-players",
        TableAccess::Write,
        &[
            post("/v1/players/{player_id}/tokens"),
            get("/v1/players/{player_id}/tokens"),
            Route {
                method: Method::Delete,
                path: "/v1/players/{player_id}/tokens/{token_id}",
            },
            get("/v1/players/{player_id}/games"),
        ],
    ),
    function("list-rulesets", TableAccess::None, &[get("/v1/rulesets")]),
    function(
        "get-openapi",
        TableAccess::None,
        &[
            get("/openapi.json"),
            get("/docs"),
            get("/docs/assets/{file}"),
            get("/play"),
            get("/play/{file}"),
            get("/"),
            PREFLIGHT,
        ],
    ),
];

/// The function API Gateway would invoke for `method path` (a request path, no query), as
/// its HTTP API chooses: of the routes that match, the one with the most literal segments.
pub fn function_for(method: &str, path: &str) -> Option<&'static RouteFunction> {
    let method = Method::parse(method)?;
    FUNCTIONS
        .iter()
        .flat_map(|function| function.routes.iter().map(move |route| (function, route)))
        .filter(|(_, route)| route.method == method)
        .filter_map(|(function, route)| Some((function, literal_segments(route.path, path)?)))
        .max_by_key(|(_, literals)| *literals)
        .map(|(function, _)| function)
}

/// How many literal segments of `template` a request for `path` matches, if it matches.
fn literal_segments(template: &str, path: &str) -> Option<usize> {
    let mut wanted = template.split('/').skip(1);
    let mut given = path.split('/').skip(1);
    let mut literals = 0;
    loop {
        match (wanted.next(), given.next()) {
            (None, None) => return Some(literals),
            (Some(part), Some(segment)) if part.starts_with('{') && part.ends_with("+}") => {
                return (!segment.is_empty()).then_some(literals);
            }
            (Some(part), Some(segment)) if part.starts_with('{') => {
                if segment.is_empty() {
                    return None;
                }
            }
            (Some(part), Some(segment)) if part == segment => literals += 1,
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Every route `api_routes()` mounts, as (method, path): the contract's operations and
    /// the pages.
    fn mounted() -> Vec<(Method, String)> {
        let (_, document) = crate::routes::api_routes().split_for_parts();
        let mut routes = Vec::new();
        for (path, item) in &document.paths.paths {
            assert!(
                item.put.is_none() && item.patch.is_none() && item.options.is_none(),
                "{path}: a method this map cannot name yet"
            );
            let methods = [
                (item.get.is_some(), Method::Get),
                (item.post.is_some(), Method::Post),
                (item.delete.is_some(), Method::Delete),
            ];
            for (_, method) in methods.into_iter().filter(|(present, _)| *present) {
                routes.push((method, path.clone()));
            }
        }
        routes.extend(crate::pages::PAGE_ROUTES.map(|path| (Method::Get, path.to_owned())));
        routes
    }

    #[test]
    fn every_mounted_route_is_served_by_exactly_one_function() {
        let mut served: BTreeMap<(Method, String), Vec<&str>> = BTreeMap::new();
        for function in FUNCTIONS {
            for route in function.routes {
                let key = (route.method, route.path.to_owned());
                served.entry(key).or_default().push(function.name);
            }
        }
        for route in mounted() {
            let functions = served.remove(&route).unwrap_or_default();
            assert_eq!(functions.len(), 1, "{route:?} is served by {functions:?}");
        }
        // What is left must be the preflight alone: a function route the router does not
        // mount would be a route that answers 404 in production.
        let left: Vec<(Method, String)> = served.into_keys().collect();
        let preflight = (PREFLIGHT.method, PREFLIGHT.path.to_owned());
        assert_eq!(left, vec![preflight], "routes no handler serves");
    }

    #[test]
    fn function_names_are_unique_and_each_function_has_a_route() {
        let mut names: Vec<&str> = FUNCTIONS.iter().map(|function| function.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), FUNCTIONS.len());
        assert!(FUNCTIONS.iter().all(|function| !function.routes.is_empty()));
    }

    #[test]
    fn requests_go_to_the_function_api_gateway_would_choose() {
        let cases = [
            ("GET", "/v1/rulesets", Some("list-rulesets")),
            ("POST", "/v1/games", Some("create-game")),
            ("GET", "/v1/games", Some("list-games")),
            ("GET", "/v1/games/g_1", Some("get-game")),
            ("HEAD", "/v1/games/g_1", Some("get-game")),
            ("GET", "/v1/me/games", Some("get-game")),
            ("POST", "/v1/games/g_1/seats/0", Some("claim-seat")),
            ("POST", "/v1/games/g_1/seats/0/resign", Some("claim-seat")),
            ("DELETE", "/v1/games/g_1/seats/0", Some("claim-seat")),
            (
                "GET",
                "/v1/games/g_1/legal-actions",
                Some("list-legal-actions"),
            ),
            ("POST", "/v1/games/g_1/actions", Some("submit-action")),
            (
                "DELETE",
                "/v1/games/g_1/webhooks/wh_1",
                Some("delete-webhook"),
            ),
            (
                "GET",
                "/v1/games/g_1/webhooks/wh_1/deliveries",
                Some("list-deliveries"),
            ),
            ("GET", "/docs/assets/redoc.js", Some("get-openapi")),
            ("GET", "/", Some("get-openapi")),
            ("OPTIONS", "/v1/games/g_1/actions", Some("get-openapi")),
            ("GET", "/v1/games//log", None),
            ("GET", "/v1/games/g_1/nothing", None),
            ("PUT", "/v1/games", None),
            ("OPTIONS", "/", None),
        ];
        for (method, path, expected) in cases {
            let found = function_for(method, path).map(|function| function.name);
            assert_eq!(found, expected, "{method} {path}");
        }
    }
}
