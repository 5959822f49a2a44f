//! Events to the shop through the merchant API: webhook endpoints (create, list, update,
//! disable, rotate, delete, the secret shown only when issued, the URL and type checks) and
//! the events themselves (each change a shop acts on, listed, filtered, paged, with their
//! deliveries, sent again); and their delivery to a receiver of the shop's (signed, retried,
//! in order per object, never to private addresses unless allowed, shared by instances).

mod api;
mod attempts;
mod delivery;
mod endpoint_refusals;
mod endpoints;
mod instances;
mod listing;
pub mod receiver;
mod retries;
mod safety;

use serde_json::{Value, json};

use crate::api::support::{Harness, Reply};

/// Where the test endpoints point: port 9 (discard) on loopback, where connections are
/// refused at once, so a delivery worker that runs meanwhile records failures and nothing else.
pub const DEAD_URL: &str = "http://127.0.0.1:9/events";

/// `method path` with the merchant key and, when given, a JSON body.
pub async fn call(h: &Harness, method: reqwest::Method, path: &str, body: Option<Value>) -> Reply {
    let mut request = h.merchant(method, path);
    if let Some(body) = body {
        request = request.json(&body);
    }
    Reply::read(request.send().await.expect("sent")).await
}

/// Creates an endpoint with `body` merged over `{url: DEAD_URL}`; asserts 201.
pub async fn create_endpoint(h: &Harness, extra: Value) -> Value {
    let mut body = json!({"url": DEAD_URL});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let reply = call(
        h,
        reqwest::Method::POST,
        "/v1/webhook_endpoints",
        Some(body),
    )
    .await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json
}
