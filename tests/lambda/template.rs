//! infra/template.yaml against the route map `api::lambda::FUNCTIONS`: every HTTP function
//! of the map is one template function, deployed from the one `api` binary, with exactly the
//! map's routes, a policy that matches its table access, and its timeout; and no template
//! function serves a route the map does not give it. The map itself covers every route of
//! `api::api_routes()` (the unit tests of `api::lambda`), so a route left out of the
//! template fails here.

use api::lambda::{Route, RouteFunction, TableAccess, DEFAULT_TIMEOUT_SECONDS, FUNCTIONS};
use std::collections::{BTreeMap, BTreeSet};
use yaml_rust2::{Yaml, YamlLoader};

/// The template as committed.
fn committed_template() -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../infra/template.yaml");
    std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// An HTTP function as the template declares it.
#[derive(Debug, Default)]
struct Declared {
    binary: Option<String>,
    code_uri: Option<String>,
    timeout: Option<i64>,
    /// Every action of every policy statement (`dynamodb:GetItem`, …).
    actions: BTreeSet<String>,
    routes: BTreeSet<(String, String)>,
}

/// The template's HTTP functions, by name (the suffix of `FunctionName`, after the stack
/// name), and the `Globals` timeout. CloudFormation's short tags (`!Sub`, `!Ref`, …) are
/// read as the plain value they tag.
fn declared_functions(template: &str) -> (BTreeMap<String, Declared>, Option<i64>) {
    let documents = YamlLoader::load_from_str(template).expect("the template is YAML");
    let root = &documents[0];
    let global_timeout = root["Globals"]["Function"]["Timeout"].as_i64();
    let mut functions = BTreeMap::new();
    let resources = root["Resources"].as_hash().expect("Resources");
    for (logical_id, resource) in resources {
        if resource["Type"].as_str() != Some("AWS::Serverless::Function") {
            continue;
        }
        let properties = &resource["Properties"];
        let mut declared = Declared {
            binary: resource["Metadata"]["BuildProperties"]["Binary"]
                .as_str()
                .map(str::to_owned),
            code_uri: properties["CodeUri"].as_str().map(str::to_owned),
            timeout: properties["Timeout"].as_i64(),
            ..Declared::default()
        };
        for event in properties["Events"]
            .as_hash()
            .into_iter()
            .flat_map(|h| h.values())
        {
            if event["Type"].as_str() == Some("HttpApi") {
                let method = event["Properties"]["Method"].as_str().unwrap_or("?");
                let path = event["Properties"]["Path"].as_str().unwrap_or("?");
                declared.routes.insert((method.to_owned(), path.to_owned()));
            }
        }
        if declared.routes.is_empty() {
            continue; // not an HTTP function (notify, sweep-deadlines)
        }
        for policy in properties["Policies"].as_vec().into_iter().flatten() {
            for statement in policy["Statement"].as_vec().into_iter().flatten() {
                let actions = &statement["Action"];
                let actions = match actions {
                    Yaml::Array(list) => list.iter().filter_map(Yaml::as_str).collect(),
                    other => other.as_str().into_iter().collect::<Vec<_>>(),
                };
                declared
                    .actions
                    .extend(actions.into_iter().map(str::to_owned));
            }
        }
        let name = properties["FunctionName"]
            .as_str()
            .and_then(|name| name.strip_prefix("${AWS::StackName}-"))
            .unwrap_or_else(|| {
                panic!("{logical_id:?}: FunctionName is not ${{AWS::StackName}}-<name>")
            });
        let previous = functions.insert(name.to_owned(), declared);
        assert!(
            previous.is_none(),
            "two template functions are named {name}"
        );
    }
    (functions, global_timeout)
}

fn route_key(route: &Route) -> (String, String) {
    (route.method.as_str().to_owned(), route.path.to_owned())
}

/// What is wrong with one declared function against its map entry.
fn check_function(function: &RouteFunction, declared: &Declared, problems: &mut Vec<String>) {
    let name = function.name;
    if declared.binary.as_deref() != Some("api") {
        problems.push(format!(
            "{name}: Binary is {:?}, not the api binary",
            declared.binary
        ));
    }
    if declared.code_uri.as_deref() != Some("..") {
        problems.push(format!(
            "{name}: CodeUri is {:?}, not the workspace (..)",
            declared.code_uri
        ));
    }
    let routes: BTreeSet<(String, String)> = function.routes.iter().map(route_key).collect();
    for missing in routes.difference(&declared.routes) {
        problems.push(format!(
            "{name}: the template does not route {} {} to it",
            missing.0, missing.1
        ));
    }
    for extra in declared.routes.difference(&routes) {
        problems.push(format!(
            "{name}: the template routes {} {} to it, the map does not",
            extra.0, extra.1
        ));
    }
    let reads = [
        "dynamodb:GetItem",
        "dynamodb:Query",
        "dynamodb:BatchGetItem",
    ];
    let writes_allowed = ["dynamodb:GetItem", "dynamodb:PutItem", "dynamodb:Query"];
    let creates_allowed = [
        "dynamodb:GetItem",
        "dynamodb:PutItem",
        "dynamodb:Query",
        "dynamodb:UpdateItem",
    ];
    let deletes_allowed = [
        "dynamodb:GetItem",
        "dynamodb:Query",
        "dynamodb:DeleteItem",
        "dynamodb:BatchWriteItem",
    ];
    let actions: Vec<&str> = declared.actions.iter().map(String::as_str).collect();
    let fits = match function.access {
        TableAccess::None => actions.is_empty(),
        TableAccess::Read => !actions.is_empty() && actions.iter().all(|a| reads.contains(a)),
        TableAccess::Write => {
            actions.contains(&"dynamodb:PutItem")
                && actions.iter().all(|a| writes_allowed.contains(a))
        }
        TableAccess::Create => {
            actions.contains(&"dynamodb:UpdateItem")
                && actions.iter().all(|a| creates_allowed.contains(a))
        }
        TableAccess::Delete => {
            actions.contains(&"dynamodb:DeleteItem")
                && actions.iter().all(|a| deletes_allowed.contains(a))
        }
    };
    if !fits {
        problems.push(format!(
            "{name}: policy actions {actions:?} do not fit {:?} access",
            function.access
        ));
    }
    let timeout = declared.timeout.unwrap_or(DEFAULT_TIMEOUT_SECONDS.into());
    if timeout != i64::from(function.timeout_seconds) {
        problems.push(format!(
            "{name}: timeout {timeout} s, the map says {} s",
            function.timeout_seconds
        ));
    }
}

/// Every disagreement between `template` and the route map.
fn problems(template: &str) -> Vec<String> {
    let (mut declared, global_timeout) = declared_functions(template);
    let mut problems = Vec::new();
    if global_timeout != Some(DEFAULT_TIMEOUT_SECONDS.into()) {
        problems.push(format!(
            "Globals timeout {global_timeout:?}, not {DEFAULT_TIMEOUT_SECONDS}"
        ));
    }
    for function in FUNCTIONS {
        match declared.remove(function.name) {
            Some(found) => check_function(function, &found, &mut problems),
            None => problems.push(format!(
                "{}: no template function of that name",
                function.name
            )),
        }
    }
    for (name, extra) in declared {
        problems.push(format!(
            "{name}: a template HTTP function the map does not know, serving {:?}",
            extra.routes
        ));
    }
    problems
}

#[test]
fn the_template_deploys_every_route_function_of_the_map() {
    let found = problems(&committed_template());
    assert!(
        found.is_empty(),
        "infra/template.yaml disagrees with api::lambda::FUNCTIONS:\n{}",
        found.join("\n")
    );
}

#[test]
fn a_route_left_out_of_the_template_is_found() {
    let template = committed_template();
    // Drop the route event of POST /v1/games/{id}/actions (submit-action's only route).
    let event = "            Method: POST\n            Path: /v1/games/{id}/actions\n";
    assert!(
        template.contains(event),
        "the template's submit-action route changed shape"
    );
    let without = template.replace(
        event,
        "            Method: POST\n            Path: /v1/games/{id}/moves\n",
    );
    let found = problems(&without);
    assert!(
        found
            .iter()
            .any(|p| p.contains("does not route POST /v1/games/{id}/actions")),
        "{found:?}"
    );
    assert!(
        found.iter().any(|p| p.contains("/v1/games/{id}/moves")),
        "{found:?}"
    );
}

#[test]
fn a_read_only_function_given_write_access_is_found() {
    let template = committed_template();
    // get-log's policy gains PutItem.
    let marker = "FunctionName: !Sub \"${AWS::StackName}-get-log\"";
    let at = template.find(marker).expect("get-log in the template");
    let policy = "Action: [dynamodb:GetItem, dynamodb:Query]";
    let offset = template[at..].find(policy).expect("get-log's policy") + at;
    let mut changed = template.clone();
    changed.replace_range(
        offset..offset + policy.len(),
        "Action: [dynamodb:GetItem, dynamodb:Query, dynamodb:PutItem]",
    );
    let found = problems(&changed);
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("get-log: policy actions")),
        "{found:?}"
    );
}
