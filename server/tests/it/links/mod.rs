//! Payment links (issue 48): the merchant API, the payer's session start (the server prices
//! it and checks every bound), the places of one-payment and limited links (taken before the
//! gateway is called, freed by a failed payment, and on PostgreSQL never both given to two
//! payers at the last place), and `payment_link_id` on sessions, payments and events.

mod after_paying;
mod api;
mod checkout;
mod demo;
mod events;
mod limits;
mod places;
mod race;
mod subscription;

use reqwest::Method;
use serde_json::{Value, json};

use crate::api::support::{Harness, Reply, TestSession};
use crate::events::call;

/// Creates a link with `body` merged over a one-payment 1500 JPY invoice; asserts 201.
pub async fn create_link(h: &Harness, extra: Value) -> Value {
    let mut body = json!({"description": "Invoice 42", "amount": 1500, "currency": "JPY"});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
        body.extend(extra.clone());
    }
    let reply = call(h, Method::POST, "/v1/payment_links", Some(body)).await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.json
}

/// The public id in a link's `url` (`…/pay/<public id>`).
pub fn public_id(link: &Value) -> String {
    let url = link["url"].as_str().expect("url");
    url.rsplit_once("/pay/")
        .expect("a /pay/ address")
        .1
        .to_owned()
}

/// `POST /pay/{public_id}/session` with `body`, as the hosted page sends it.
pub async fn start(h: &Harness, public_id: &str, body: Value) -> Reply {
    let request = h
        .api
        .post(format!("{}/pay/{public_id}/session", h.base))
        .json(&body);
    Reply::read(request.send().await.expect("sent")).await
}

/// A session started from `link` with `body`; asserts 201.
pub async fn link_session(h: &Harness, link: &Value, body: Value) -> TestSession {
    let reply = start(h, &public_id(link), body).await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    TestSession {
        id: reply.json["session_id"]
            .as_str()
            .expect("session id")
            .to_owned(),
        secret: reply.json["client_secret"]
            .as_str()
            .expect("secret")
            .to_owned(),
        reference: link["id"].as_str().expect("link id").to_owned(),
    }
}
