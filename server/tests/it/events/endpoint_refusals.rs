//! What `/v1/webhook_endpoints` refuses: bad input is a 400 naming the field, unknown ids are
//! 404s, a seventeenth endpoint is refused, and with a real gateway a private address is
//! refused unless `WEBHOOK_ALLOW_PRIVATE=true`.

use checkout_server::store::prelude::*;
use reqwest::Method;
use serde_json::{Value, json};

use super::{DEAD_URL, call, create_endpoint};
use crate::api::support::{Backend, Harness, Reply, UNREACHABLE_GATEWAY, api_suite};

api_suite!(
    bad_endpoint_input_names_the_field,
    unknown_endpoints_are_not_found,
    a_shop_has_at_most_sixteen_endpoints,
);

async fn bad_endpoint_input_names_the_field(h: &Harness) {
    let post = |body: Value| call(h, Method::POST, "/v1/webhook_endpoints", Some(body));
    for url in [
        "ftp://shop.example/events",
        "javascript:alert(1)",
        "file:///etc/passwd",
        "shop.example/events",
        "",
        "http://",
    ] {
        post(json!({"url": url}))
            .await
            .assert_error(400, "invalid_field", Some("url"));
    }
    let long = format!("https://shop.example/{}", "a".repeat(2048));
    post(json!({"url": long}))
        .await
        .assert_error(400, "invalid_field", Some("url"));
    post(json!({}))
        .await
        .assert_error(400, "invalid_field", Some("url"));
    post(json!({"url": 5}))
        .await
        .assert_error(400, "invalid_field", Some("url"));
    for types in [
        json!(["payment.paid"]),
        json!([]),
        json!(["*", "payment.captured"]),
        json!(["PAYMENT.CAPTURED"]),
    ] {
        post(json!({"url": DEAD_URL, "event_types": types}))
            .await
            .assert_error(400, "invalid_field", Some("event_types"));
    }
    post(json!({"url": DEAD_URL, "event_types": "payment.captured"}))
        .await
        .assert_error(400, "invalid_field", Some("event_types"));
    for description in ["x".repeat(501), "a\u{0}b".to_owned()] {
        post(json!({"url": DEAD_URL, "description": description}))
            .await
            .assert_error(400, "invalid_field", Some("description"));
    }
    post(json!({"url": DEAD_URL, "secret": "whsec_mine"}))
        .await
        .assert_error(400, "invalid_field", Some("secret"));
    let listed = call(h, Method::GET, "/v1/webhook_endpoints", None).await;
    assert_eq!(listed.json["data"], json!([]), "nothing was created");

    let created = create_endpoint(h, json!({})).await;
    let path = format!(
        "/v1/webhook_endpoints/{}",
        created["id"].as_str().expect("id")
    );
    for (body, field) in [
        (json!({"url": "gopher://shop.example/"}), "url"),
        (json!({"event_types": ["payment.lost"]}), "event_types"),
        (json!({"status": "paused"}), "status"),
        (json!({"status": null, "colour": "red"}), "colour"),
    ] {
        call(h, Method::POST, &path, Some(body)).await.assert_error(
            400,
            "invalid_field",
            Some(field),
        );
    }
    let unchanged = call(h, Method::GET, &path, None).await;
    assert_eq!(unchanged.json["url"], DEAD_URL);
    assert_eq!(unchanged.json["status"], "enabled");

    // Unauthenticated: 401 on every route.
    let anonymous = Reply::read(
        h.api
            .get(format!("{}/v1/webhook_endpoints", h.base))
            .send()
            .await
            .expect("sent"),
    )
    .await;
    assert_eq!(anonymous.status, 401, "{}", anonymous.text);
}

async fn unknown_endpoints_are_not_found(h: &Harness) {
    for id in ["we_00000000000000000000000000000000", "nothing", "a%00b"] {
        let path = format!("/v1/webhook_endpoints/{id}");
        call(h, Method::GET, &path, None)
            .await
            .assert_error(404, "not_found", None);
        call(h, Method::POST, &path, Some(json!({"description": "x"})))
            .await
            .assert_error(404, "not_found", None);
        call(h, Method::DELETE, &path, None)
            .await
            .assert_error(404, "not_found", None);
        call(h, Method::POST, &format!("{path}/rotate_secret"), None)
            .await
            .assert_error(404, "not_found", None);
        // With a key too: the id never reaches the idempotency records.
        for (suffix, body) in [("", json!({})), ("/rotate_secret", json!({}))] {
            let reply = Reply::read(
                h.merchant(Method::POST, &format!("{path}{suffix}"))
                    .header("Idempotency-Key", "unknown-endpoint")
                    .json(&body)
                    .send()
                    .await
                    .expect("sent"),
            )
            .await;
            reply.assert_error(404, "not_found", None);
        }
        call(h, Method::GET, &format!("{path}/deliveries"), None)
            .await
            .assert_error(404, "not_found", None);
    }
}

/// A real gateway (nobody answers at it; no payment is made) and the given extra settings.
async fn real_gateway(extra: &[(&'static str, &'static str)]) -> Harness {
    let mut pairs = UNREACHABLE_GATEWAY.to_vec();
    pairs.push(("RECONCILE_INTERVAL_SECONDS", "86400"));
    pairs.extend_from_slice(extra);
    Harness::start_with(Backend::Sqlite, &pairs).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_real_gateway_refuses_private_addresses_unless_allowed() {
    let h = real_gateway(&[]).await;
    for url in [
        "http://127.0.0.1:3000/events",
        "http://10.0.0.5/events",
        "http://169.254.169.254/latest/meta-data",
        "http://[::1]/events",
        "http://localhost:3000/events",
    ] {
        call(
            &h,
            Method::POST,
            "/v1/webhook_endpoints",
            Some(json!({"url": url})),
        )
        .await
        .assert_error(400, "invalid_field", Some("url"));
    }
    let public = create_endpoint(&h, json!({"url": "https://93.184.216.34/events"})).await;
    call(
        &h,
        Method::POST,
        &format!(
            "/v1/webhook_endpoints/{}",
            public["id"].as_str().expect("id")
        ),
        Some(json!({"url": "http://192.168.1.10/events"})),
    )
    .await
    .assert_error(400, "invalid_field", Some("url"));
    h.finish().await;

    let allowed = real_gateway(&[("WEBHOOK_ALLOW_PRIVATE", "true")]).await;
    create_endpoint(&allowed, json!({"url": "http://10.0.0.5/events"})).await;
    allowed.finish().await;
}

async fn a_shop_has_at_most_sixteen_endpoints(h: &Harness) {
    let mut ids = Vec::new();
    for _ in 0..MAX_ENDPOINTS {
        let created = create_endpoint(h, json!({})).await;
        ids.push(created["id"].as_str().expect("id").to_owned());
    }
    let body = json!({"url": DEAD_URL});
    let refused = call(h, Method::POST, "/v1/webhook_endpoints", Some(body.clone())).await;
    // A conflict with what the store holds, not a bad request: the same body succeeds once
    // an endpoint is deleted.
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert_eq!(
        refused.json["error"]["code"], "limit_reached",
        "{}",
        refused.text
    );
    let listed = call(h, Method::GET, "/v1/webhook_endpoints", None).await;
    assert_eq!(
        listed.json["data"].as_array().map(Vec::len),
        Some(MAX_ENDPOINTS),
        "{}",
        listed.text
    );

    let path = format!("/v1/webhook_endpoints/{}", ids[0]);
    let deleted = call(h, Method::DELETE, &path, None).await;
    assert_eq!(deleted.status, 204, "{}", deleted.text);
    let again = call(h, Method::POST, "/v1/webhook_endpoints", Some(body)).await;
    assert_eq!(again.status, 201, "{}", again.text);
}
