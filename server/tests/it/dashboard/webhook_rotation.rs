//! Rotating a webhook endpoint's secret from the dashboard: only an admin rotates, sees the
//! new secret once, and the shop verifies the next event with it.

use checkout_server::store::prelude::*;
use secrecy::ExposeSecret as _;

use super::support::{Browser, hidden, paid};
use crate::api::support::Harness;
use crate::events::receiver::Receiver;
use crate::events::receiver::support::{drain, worker};
use crate::ops::support::ops_suite;

use super::webhooks::{CONFIG, receiving};

ops_suite!(only_an_admin_rotates_and_the_new_secret_signs);

async fn only_an_admin_rotates_and_the_new_secret_signs(h: &Harness) {
    let (old, receiver, endpoint_id) = receiving(h).await;
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    let page = admin.get(&format!("/webhooks/{endpoint_id}")).await;
    assert!(
        page.text
            .contains(&format!("action=\"/webhooks/{endpoint_id}/rotate\"")),
        "{}",
        page.text
    );
    assert!(
        !page.text.contains("whsec_"),
        "no secret on the endpoint's page"
    );
    let key = hidden(&page.text, "idempotency_key").expect("the form's key");
    let path = format!("/webhooks/{endpoint_id}/rotate");
    let ask = [
        ("csrf", admin.csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("overlap_hours", "0"),
    ];
    let confirm = admin.post(&path, &ask).await;
    assert_eq!(confirm.status, 200, "{}", confirm.text);
    assert!(!confirm.text.contains("whsec_"));
    let stored = h
        .store()
        .get_endpoint(&endpoint_id)
        .await
        .unwrap()
        .expect("endpoint");
    assert_eq!(
        stored.secret.expose_secret(),
        old.expose_secret(),
        "not before the confirmation"
    );

    let too_long = admin
        .post(
            &path,
            &[
                ask[0],
                ("idempotency_key", "long"),
                ("overlap_hours", "500"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(too_long.status, 400);
    assert!(
        too_long.text.contains("overlap_hours:"),
        "{}",
        too_long.text
    );

    let confirmed = [ask[0], ask[1], ask[2], ("confirm", "yes")];
    let done = admin.post(&path, &confirmed).await;
    assert_eq!(done.status, 200, "{}", done.text);
    let shown = hidden_secret(&done.text);
    let stored = h
        .store()
        .get_endpoint(&endpoint_id)
        .await
        .unwrap()
        .expect("endpoint");
    assert_eq!(
        stored.secret.expose_secret(),
        shown,
        "the page shows the new secret"
    );
    assert_ne!(shown, old.expose_secret());
    let again = admin.post(&path, &confirmed).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert!(again.text.contains("rotated once"), "{}", again.text);
    assert_eq!(hidden_secret(&again.text), shown, "rotated once");

    // The shop takes the new secret; with no overlap the old one signs no more.
    let shop = Receiver::start(&shown).await;
    h.store()
        .update_endpoint(
            &endpoint_id,
            EndpointUpdate {
                url: Some(shop.url()),
                ..EndpointUpdate::default()
            },
        )
        .await
        .unwrap();
    paid(h, 700).await;
    drain(&worker(h, "rotate-test", true)).await;
    let received = shop.received();
    assert_eq!(received.len(), 1);
    assert!(
        received[0].verified,
        "the new secret verifies the signature"
    );
    assert!(receiver.received().is_empty());

    let lines = h.store().object_audit(&endpoint_id).await.unwrap();
    let outcomes: Vec<&str> = lines.iter().map(|l| l.entry.outcome.as_str()).collect();
    assert_eq!(outcomes, ["invalid_field", "ok"], "{lines:?}");
    assert!(lines.iter().all(|l| {
        l.entry.action == "rotate_secret"
            && !l
                .entry
                .detail
                .as_deref()
                .unwrap_or_default()
                .contains("whsec_")
    }));
}

/// The secret on the rotation's answer page.
fn hidden_secret(html: &str) -> String {
    let start = html.find("value=\"whsec_").expect("a secret on the page") + "value=\"".len();
    let end = html[start..].find('"').expect("the value ends");
    html[start..start + end].to_owned()
}
