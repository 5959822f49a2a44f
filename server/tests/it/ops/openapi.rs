//! `/openapi.json`: a valid OpenAPI 3.1 document that covers every route the API registers.
//!
//! axum cannot list a router's routes, so the test walks the router's source instead: every
//! `.route(PATH, METHODS)` call in `server/src/api/` (path literals and the route constants
//! they use), each method of it, must be an operation of the document, and the document may
//! describe nothing else. Every operation must declare responses, and every `$ref` resolve.
//! And the API's rule that `null` is an absent optional field is stated: every optional field
//! of a JSON request body, at any depth, admits `null` (issue 49: `endpoint_id` did not).

use std::collections::BTreeSet;
use std::path::Path;

use checkout::contract::routes::{
    CHECKOUT_ROUTE, CUSTOMER_SUBSCRIPTIONS_ROUTE, PAY_ROUTE, RESULT_ROUTE,
};
use checkout_server::api::openapi::OPENAPI_JSON;
use checkout_server::payments::urls::{
    LINK_PAGE_ROUTE, LINK_SESSION_ROUTE, RECEIPT_ROUTE, RETURN_ROUTE, WEBHOOK_ROUTE,
};
use serde_json::Value;

use crate::api::support::Harness;
use crate::ops::support::{ops_suite, send};

const CONFIG: &[(&str, &str)] = &[];

pub(super) const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

ops_suite!(the_document_is_served);

/// The route constants used in `.route(...)` calls, by name.
fn constant(name: &str) -> Option<&'static str> {
    Some(match name {
        "CHECKOUT_ROUTE" => CHECKOUT_ROUTE,
        "PAY_ROUTE" => PAY_ROUTE,
        "RESULT_ROUTE" => RESULT_ROUTE,
        "CUSTOMER_SUBSCRIPTIONS_ROUTE" => CUSTOMER_SUBSCRIPTIONS_ROUTE,
        "WEBHOOK_ROUTE" => WEBHOOK_ROUTE,
        "RETURN_ROUTE" => RETURN_ROUTE,
        "LINK_PAGE_ROUTE" => LINK_PAGE_ROUTE,
        "LINK_SESSION_ROUTE" => LINK_SESSION_ROUTE,
        "RECEIPT_ROUTE" => RECEIPT_ROUTE,
        _ => return None,
    })
}

/// The text between the parenthesis opening at `open` and its match.
fn balanced(text: &str, open: usize) -> &str {
    let mut depth = 0usize;
    for (offset, ch) in text[open..].char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return &text[open + 1..open + offset];
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses in a .route(...) call");
}

/// `(path, method)` of every route registered in the API's source files.
fn source_routes() -> BTreeSet<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src")
        .join("api");
    let mut files = vec![dir.clone()];
    let mut routes = BTreeSet::new();
    while let Some(path) = files.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("readable dir") {
                files.push(entry.expect("entry").path());
            }
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some("rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("readable source");
        let mut from = 0;
        while let Some(found) = text[from..].find(".route(") {
            let open = from + found + ".route".len();
            let call = balanced(&text, open);
            from = open + call.len();
            let (first, rest) = call.split_once(',').expect("route(path, methods)");
            let first = first.trim();
            let route = match first.strip_prefix('"').and_then(|p| p.strip_suffix('"')) {
                // A catch-all `{*file}` is the path parameter `{file}` in OpenAPI.
                Some(literal) => literal.replace("{*", "{"),
                None => constant(first)
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: unknown route constant {first}; teach the test",
                            path.display()
                        )
                    })
                    .to_owned(),
            };
            for method in METHODS {
                let called = rest.match_indices(&format!("{method}(")).any(|(at, _)| {
                    at == 0
                        || !rest.as_bytes()[at - 1].is_ascii_alphanumeric()
                            && rest.as_bytes()[at - 1] != b'_'
                });
                if called {
                    routes.insert((route.clone(), method.to_owned()));
                }
            }
        }
    }
    routes
}

fn document_routes(doc: &Value) -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            if item.get(method).is_some() {
                routes.insert((path.clone(), method.to_owned()));
            }
        }
    }
    routes
}

fn check_refs(value: &Value, doc: &Value, at: &str) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(target)) = map.get("$ref") {
                let pointer = target
                    .strip_prefix('#')
                    .unwrap_or_else(|| panic!("{at}: external $ref {target}"));
                assert!(
                    doc.pointer(pointer).is_some(),
                    "{at}: $ref {target} does not resolve"
                );
            }
            for (key, inner) in map {
                check_refs(inner, doc, &format!("{at}/{key}"));
            }
        }
        Value::Array(items) => {
            for (index, inner) in items.iter().enumerate() {
                check_refs(inner, doc, &format!("{at}/{index}"));
            }
        }
        _ => {}
    }
}

#[test]
fn every_route_is_documented_and_nothing_else() {
    let doc: Value = serde_json::from_str(OPENAPI_JSON).expect("the document is JSON");
    assert!(
        doc["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1.")),
        "OpenAPI 3.1"
    );
    let source = source_routes();
    assert!(
        source.len() >= 25,
        "the walk found too few routes: {source:?}"
    );
    assert!(source.contains(&("/v1/checkout/{session_id}/pay".into(), "post".into())));
    let documented = document_routes(&doc);
    let missing: Vec<_> = source.difference(&documented).collect();
    assert!(
        missing.is_empty(),
        "routes missing from openapi.json: {missing:?}"
    );
    let extra: Vec<_> = documented.difference(&source).collect();
    assert!(
        extra.is_empty(),
        "openapi.json describes routes the server does not have: {extra:?}"
    );
}

#[test]
fn operations_are_complete_and_refs_resolve() {
    let doc: Value = serde_json::from_str(OPENAPI_JSON).expect("the document is JSON");
    let mut ids = BTreeSet::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let where_ = format!("{method} {path}");
            let id = operation["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{where_}: no operationId"));
            assert!(
                ids.insert(id.to_owned()),
                "{where_}: duplicate operationId {id}"
            );
            assert!(
                operation["summary"].as_str().is_some_and(|s| !s.is_empty()),
                "{where_}: no summary"
            );
            let responses = operation["responses"]
                .as_object()
                .unwrap_or_else(|| panic!("{where_}: no responses"));
            assert!(!responses.is_empty(), "{where_}: no responses");
            for name in path.split('{').skip(1).filter_map(|p| p.split('}').next()) {
                let declared = operation["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .chain(item["parameters"].as_array().into_iter().flatten())
                    .any(|p| {
                        p["in"] == "path" && p["name"] == name
                            || p["$ref"]
                                .as_str()
                                .is_some_and(|r| r.ends_with(&format!("/{name}")))
                    });
                assert!(declared, "{where_}: path parameter {name} not declared");
            }
        }
    }
    check_refs(&doc, &doc, "#");
}

/// The schema `value` points to, through any `$ref`s.
pub(super) fn resolved<'a>(doc: &'a Value, mut value: &'a Value) -> &'a Value {
    while let Some(target) = value["$ref"].as_str() {
        value = doc
            .pointer(target.trim_start_matches('#'))
            .unwrap_or_else(|| panic!("$ref {target} does not resolve"));
    }
    value
}

/// Whether `schema` admits `null`.
fn admits_null(doc: &Value, schema: &Value) -> bool {
    let schema = resolved(doc, schema);
    let typed_null = match &schema["type"] {
        Value::String(t) => t == "null",
        Value::Array(types) => types.iter().any(|t| t == "null"),
        _ => false,
    };
    typed_null
        || schema["const"].is_null() && schema.get("const").is_some()
        || schema["enum"]
            .as_array()
            .is_some_and(|values| values.contains(&Value::Null))
        || ["anyOf", "oneOf"].iter().any(|key| {
            schema[key]
                .as_array()
                .is_some_and(|options| options.iter().any(|o| admits_null(doc, o)))
        })
}

/// `at` of each optional property under `schema` (its branches and nested objects included)
/// whose schema does not admit `null`, added to `found`.
fn optional_not_nullable(doc: &Value, schema: &Value, at: &str, found: &mut Vec<String>) {
    let schema = resolved(doc, schema);
    let required: Vec<&str> = schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        let here = format!("{at}.{name}");
        if !required.contains(&name.as_str()) && !admits_null(doc, property) {
            found.push(here.clone());
        }
        optional_not_nullable(doc, property, &here, found);
    }
    for key in ["allOf", "anyOf", "oneOf"] {
        for (index, branch) in schema[key].as_array().into_iter().flatten().enumerate() {
            optional_not_nullable(doc, branch, &format!("{at}[{key} {index}]"), found);
        }
    }
    if let Some(items) = schema.get("items") {
        optional_not_nullable(doc, items, &format!("{at}[]"), found);
    }
}

#[test]
fn every_optional_field_of_a_json_body_may_be_null() {
    let doc: Value = serde_json::from_str(OPENAPI_JSON).expect("the document is JSON");
    let mut found = Vec::new();
    let mut bodies = 0;
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for method in METHODS {
            let body = &item[method]["requestBody"]["content"]["application/json"]["schema"];
            if !body.is_null() {
                bodies += 1;
                optional_not_nullable(&doc, body, &format!("{method} {path}"), &mut found);
            }
        }
    }
    assert!(bodies >= 10, "too few JSON bodies found: {bodies}");
    assert!(
        found.is_empty(),
        "optional fields the document does not let be null (the server reads null as absent): \
         {found:?}"
    );
}

async fn the_document_is_served(h: &Harness) {
    let reply = send(h.api.get(format!("{}/openapi.json", h.base))).await;
    assert_eq!(reply.status, 200);
    assert_eq!(reply.headers["content-type"], "application/json");
    // The file, with the configuration's plans and token lifetime written in (api/openapi.rs).
    let mut file = serde_json::from_str::<Value>(OPENAPI_JSON).expect("JSON");
    let mut served = reply.json.clone();
    for doc in [&mut file, &mut served] {
        let schemas = &mut doc["components"]["schemas"];
        schemas["CreateSession"]["oneOf"][1] = Value::Null;
        schemas["TokenRequest"]["properties"]["ttl_seconds"]["maximum"] = Value::Null;
    }
    assert_eq!(served, file);
    assert!(reply.json["components"]["schemas"]["CreateSession"]["oneOf"][1]["oneOf"].is_array());
}
