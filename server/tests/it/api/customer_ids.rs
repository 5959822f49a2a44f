//! One rule for a customer id at every route that takes one, the store's (1 to 64
//! characters, no control character): an id a customer's cards and tokens accept is accepted
//! by `POST /v1/sessions` too (a `/`, a space, letters beyond ASCII), and one the store would
//! refuse is a 400 `invalid_field` naming `customer_id` at each of them.

use serde_json::json;

use crate::api::support::{Harness, Reply, api_suite};
use crate::ops::support::send;

api_suite!(every_route_takes_the_ids_the_store_keeps);

/// `id` with every byte outside unreserved characters percent-encoded, for a path segment.
fn path_segment(id: &str) -> String {
    id.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

async fn create_session(h: &Harness, customer_id: &str) -> Reply {
    let body =
        json!({"amount": 100, "currency": "JPY", "reference": "r", "customer_id": customer_id});
    send(
        h.merchant(reqwest::Method::POST, "/v1/sessions")
            .json(&body),
    )
    .await
}

async fn list_cards(h: &Harness, customer_id: &str) -> Reply {
    let path = format!("/v1/customers/{}/cards", path_segment(customer_id));
    send(h.merchant(reqwest::Method::GET, &path)).await
}

async fn issue_token(h: &Harness, customer_id: &str) -> Reply {
    let path = format!("/v1/customers/{}/tokens", path_segment(customer_id));
    send(h.merchant(reqwest::Method::POST, &path)).await
}

async fn every_route_takes_the_ids_the_store_keeps(h: &Harness) {
    for id in ["shop/42", "Kundin Zoë", "客户-7", &"x".repeat(64)] {
        let session = create_session(h, id).await;
        assert_eq!(session.status, 201, "{id}: {}", session.text);
        let stored = h
            .store()
            .get_session(session.json["id"].as_str().expect("id"))
            .await
            .expect("read")
            .expect("stored");
        assert_eq!(stored.customer_id.as_deref(), Some(id));
        let cards = list_cards(h, id).await;
        assert_eq!(cards.status, 200, "{id}: {}", cards.text);
        let token = issue_token(h, id).await;
        assert_eq!(token.status, 201, "{id}: {}", token.text);
        assert_eq!(token.json["customer_id"], id);
    }
    for id in ["", "a\u{0}b", "line\nbreak", &"x".repeat(65)] {
        let replies = [
            ("POST /v1/sessions", create_session(h, id).await),
            ("cards", list_cards(h, id).await),
            ("tokens", issue_token(h, id).await),
        ];
        for (route, reply) in replies {
            // An empty path segment matches no route at all.
            if id.is_empty() && route != "POST /v1/sessions" {
                continue;
            }
            reply.assert_error(400, "invalid_field", Some("customer_id"));
            let message = reply.json["error"]["message"].as_str().unwrap_or_default();
            assert!(
                message.starts_with("customer_id: must be 1 to 64 characters"),
                "{route} {id:?}: {message}"
            );
        }
    }
}
