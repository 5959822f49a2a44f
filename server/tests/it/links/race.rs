//! Two payers at once at a link's last place, on PostgreSQL (SQLite has one writer at a time):
//! one payment is recorded and sent, the other is refused before the gateway is called, so
//! the gateway emulator sees one charge. Tried on several links, so an interleaving that let
//! both through would show.

use serde_json::{Value, json};

use super::{create_link, link_session};
use crate::api::support::{Harness, Reply, cards, pay_body};

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_payers_at_the_last_place_are_charged_once() {
    let Some(h) = Harness::start_postgres().await else {
        return;
    };
    for round in 0..6 {
        // A one-payment link, and a limited one with one place left.
        let link = if round % 2 == 0 {
            create_link(&h, json!({})).await
        } else {
            let link = create_link(&h, json!({"reusable": true, "payment_limit": 2})).await;
            let session = link_session(&h, &link, json!({})).await;
            let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
            h.complete_3ds(&redirect, "approve").await;
            link
        };
        let id = link["id"].as_str().expect("id");
        let before = h.gateway_charges(id);
        let a = link_session(&h, &link, json!({})).await;
        let b = link_session(&h, &link, json!({})).await;
        let body = pay_body(cards::VISA_OK, "123");
        let (one, other) = tokio::join!(h.pay(&a, &body, None), h.pay(&b, &body, None));
        let outcomes = [outcome(&one), outcome(&other)];
        assert!(
            outcomes.contains(&"sent") && outcomes.contains(&"refused"),
            "round {round}: {outcomes:?}: {} / {}",
            one.text,
            other.text
        );
        assert_eq!(h.gateway_charges(id), before + 1, "round {round}");
        let recorded = h.stored_payments(&a).await.len() + h.stored_payments(&b).await.len();
        assert_eq!(
            recorded, 1,
            "round {round}: the refused payer's payment is never recorded"
        );
    }
    h.finish().await;
}

/// `sent` (the gateway was called: a 3-D Secure redirect) or `refused` (the link's place was
/// taken); anything else is a failure of the test.
fn outcome(reply: &Reply) -> &'static str {
    match (reply.status, &reply.json) {
        (200, json) if json["next_action"] == "redirect" => "sent",
        (409, json) if json["error"]["code"] == Value::from("payment_link_unavailable") => {
            "refused"
        }
        _ => "unexpected",
    }
}
