//! The OpenAPI document's `links`: how an answer leads to the next call (a session to its pay,
//! the pay to its payment's refund, an endpoint to its secret's rotation, a block to its
//! deletion), which a generated client and schemathesis's stateful phase follow
//! (`scripts/schemathesis.sh`). Each link must name an operation of the document, fill only
//! parameters that operation takes (a path or query parameter it declares, or the header of
//! its security scheme), and take each from a field the answer's schema has or a path
//! parameter of the request answered.

use checkout_server::api::openapi::OPENAPI_JSON;
use serde_json::Value;

use super::openapi::{METHODS, resolved};

/// The links the API's stateful chains need: (from operation, to operation).
const CHAINS: &[(&str, &str)] = &[
    ("createSession", "pay"),
    ("createSession", "getSession"),
    ("pay", "getPayment"),
    ("pay", "refundPayment"),
    ("getSession", "refundPayment"),
    ("createWebhookEndpoint", "rotateWebhookEndpointSecret"),
    ("createWebhookEndpoint", "deleteWebhookEndpoint"),
    ("createRiskBlock", "deleteRiskBlock"),
    ("listEvents", "redeliverEvent"),
    ("listCustomerCards", "deleteCustomerCard"),
];

/// Every operation: (operation id, its path item, the operation).
fn operations(doc: &Value) -> Vec<(&str, &Value, &Value)> {
    let mut found = Vec::new();
    for item in doc["paths"].as_object().expect("paths").values() {
        for method in METHODS {
            if let Some(operation) = item.get(method) {
                let id = operation["operationId"].as_str().expect("operationId");
                found.push((id, item, operation));
            }
        }
    }
    found
}

/// Whether `schema` (or one of its alternatives) has the field at `pointer` (`/a/0/b`).
fn has_field(doc: &Value, schema: &Value, pointer: &[&str]) -> bool {
    let schema = resolved(doc, schema);
    let Some((first, rest)) = pointer.split_first() else {
        return true;
    };
    let alternatives = ["oneOf", "anyOf", "allOf"].iter().any(|key| {
        schema[key]
            .as_array()
            .is_some_and(|options| options.iter().any(|o| has_field(doc, o, pointer)))
    });
    let direct = if first.parse::<usize>().is_ok() {
        schema
            .get("items")
            .is_some_and(|items| has_field(doc, items, rest))
    } else {
        schema["properties"]
            .get(*first)
            .is_some_and(|field| has_field(doc, field, rest))
    };
    direct || alternatives
}

/// Whether `operation` (under `item`) takes the parameter `qualified` (`path.id`, `id`,
/// `header.X-Client-Secret`).
fn takes(doc: &Value, item: &Value, operation: &Value, qualified: &str) -> bool {
    let (place, name) = qualified.split_once('.').unwrap_or(("", qualified));
    let declared = operation["parameters"]
        .as_array()
        .into_iter()
        .flatten()
        .chain(item["parameters"].as_array().into_iter().flatten())
        .map(|p| resolved(doc, p))
        .any(|p| p["name"] == name && (place.is_empty() || p["in"] == place));
    let security_header = place == "header"
        && operation["security"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_object)
            .flat_map(|schemes| schemes.keys())
            .any(|scheme| {
                let scheme = &doc["components"]["securitySchemes"][scheme];
                scheme["in"] == "header" && scheme["name"] == name
            });
    declared || security_header
}

#[test]
fn links_lead_from_each_answer_to_the_next_call() {
    let doc: Value = serde_json::from_str(OPENAPI_JSON).expect("the document is JSON");
    let operations = operations(&doc);
    let by_id = |id: &str| operations.iter().find(|(op, _, _)| *op == id);
    let mut chains = Vec::new();
    for (from, _, operation) in &operations {
        for (status, response) in operation["responses"].as_object().expect("responses") {
            let response = resolved(&doc, response);
            for (name, link) in response["links"].as_object().into_iter().flatten() {
                let at = format!("{from} {status} link {name}");
                let to = link["operationId"].as_str().expect("operationId");
                let (_, item, target) =
                    by_id(to).unwrap_or_else(|| panic!("{at}: no operation {to}"));
                let (_, source_item, source) = by_id(from).expect("the source");
                let schema = response["content"]["application/json"]["schema"].clone();
                for (parameter, expression) in link["parameters"].as_object().expect("parameters") {
                    assert!(
                        takes(&doc, item, target, parameter),
                        "{at}: {to} takes no parameter {parameter}"
                    );
                    let expression = expression.as_str().unwrap_or_default();
                    // A parameter of the request answered, or a field of the answer.
                    if let Some(name) = expression.strip_prefix("$request.path.") {
                        assert!(
                            takes(&doc, source_item, source, &format!("path.{name}")),
                            "{at}: {from} has no path parameter {name}"
                        );
                        continue;
                    }
                    let pointer = expression
                        .strip_prefix("$response.body#/")
                        .unwrap_or_else(|| panic!("{at}: {expression} is not a body field"));
                    let pointer: Vec<&str> = pointer.split('/').collect();
                    assert!(
                        has_field(&doc, &schema, &pointer),
                        "{at}: the answer has no field {expression}"
                    );
                }
                chains.push((from.to_string(), to.to_owned()));
            }
        }
    }
    for (from, to) in CHAINS {
        assert!(
            chains.iter().any(|(f, t)| f == from && t == to),
            "no link from {from} to {to}: {chains:?}"
        );
    }
}
