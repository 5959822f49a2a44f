//! What the OpenAPI document promises about request shapes, held to on the server (issue 37
//! item 12; `scripts/schemathesis.sh` checks the whole API against the document): a whole
//! number may be written `1.0`, `null` is an absent optional field, a body must be a JSON
//! object (serde would read an array as the fields in order), a list's `customer_id` follows
//! the customer id rule, and the served document names the configured plans. (A full
//! endpoint list is a 409 `limit_reached`: `events::endpoints`.)

use reqwest::Method;
use serde_json::Value;

use super::support::{Harness, Reply, api_suite};

api_suite!(
    request_shapes_match_the_document,
    the_served_document_names_the_catalogue,
);

async fn send(h: &Harness, method: Method, path: &str, body: &str) -> Reply {
    Reply::read(
        h.merchant(method, path)
            .header("Content-Type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .expect("sent"),
    )
    .await
}

async fn request_shapes_match_the_document(h: &Harness) {
    let created = send(
        h,
        Method::POST,
        "/v1/sessions",
        r#"{"amount": 1500.0, "currency": "EUR", "reference": "whole-1", "email": null}"#,
    )
    .await;
    assert_eq!(created.status, 201, "{}", created.text);
    assert_eq!(created.json["amount"], 1500);
    let fraction = send(
        h,
        Method::POST,
        "/v1/sessions",
        r#"{"amount": 1500.5, "currency": "EUR", "reference": "whole-2"}"#,
    )
    .await;
    fraction.assert_error(400, "invalid_field", Some("amount"));
    for body in ["[1500, \"EUR\", \"r\"]", "\"text\"", "null"] {
        let refused = send(h, Method::POST, "/v1/sessions", body).await;
        refused.assert_error(400, "invalid_body", None);
    }
    let listed = send(h, Method::GET, "/v1/payments?customer_id=a%01b", "").await;
    listed.assert_error(400, "invalid_field", Some("customer_id"));
}

async fn the_served_document_names_the_catalogue(h: &Harness) {
    let served: Value = h
        .api
        .get(format!("{}/openapi.json", h.base))
        .send()
        .await
        .expect("sent")
        .json()
        .await
        .expect("JSON");
    let branch = &served["components"]["schemas"]["CreateSession"]["oneOf"][1];
    let plans: Vec<&str> = branch["oneOf"]
        .as_array()
        .expect("one alternative per plan")
        .iter()
        .filter_map(|plan| plan["properties"]["plan_id"]["const"].as_str())
        .collect();
    let configured: Vec<&str> = h
        .state
        .config
        .plans
        .iter()
        .map(|plan| plan.id.as_str())
        .collect();
    assert_eq!(plans, configured);
}
