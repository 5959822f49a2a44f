//! The shop learns which link a payment came through: `payment.captured` and
//! `session.completed` reach its endpoint (signed, by the delivery worker, as every event
//! does) carrying `payment_link_id`, and so do the events `GET /v1/events` lists.

use checkout_server::webhook_rules::secret::new_secret;
use secrecy::ExposeSecret as _;
use serde_json::json;

use super::{create_link, link_session};
use crate::api::support::{Harness, api_suite, cards};
use crate::events::receiver::Receiver;
use crate::events::receiver::support::{drain, endpoint, worker};

api_suite!(the_shops_endpoint_receives_events_naming_the_link);

async fn the_shops_endpoint_receives_events_naming_the_link(h: &Harness) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    endpoint(h, &receiver.url(), &[], secret.expose_secret()).await;
    let link = create_link(
        h,
        json!({"reusable": true, "ask_payer_reference": "optional"}),
    )
    .await;
    let session = link_session(h, &link, json!({"payer_reference": "PO-77"})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let payment_id = h.result(&session).await["payment_id"].clone();

    drain(&worker(h, "links-test", true)).await;
    let accepted = receiver.accepted();
    let captured = accepted
        .iter()
        .find(|r| r.kind == "payment.captured")
        .expect("payment.captured delivered");
    assert!(captured.verified);
    assert_eq!(captured.body["data"]["object"]["id"], payment_id);
    assert_eq!(
        captured.body["data"]["object"]["payment_link_id"],
        link["id"]
    );
    let completed = accepted
        .iter()
        .find(|r| r.kind == "session.completed")
        .expect("session.completed delivered");
    assert_eq!(completed.body["data"]["object"]["id"], session.id.as_str());
    assert_eq!(
        completed.body["data"]["object"]["payment_link_id"],
        link["id"]
    );
    assert_eq!(completed.body["data"]["object"]["payer_reference"], "PO-77");
}
