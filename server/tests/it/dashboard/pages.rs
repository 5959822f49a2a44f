//! The payments list: newest first, found by the card's last four, the currency and an
//! amount range in that currency's unit; bad filters refused naming the field; the detail
//! page shows the card as brand, first six, last four and expiry, never more, and a timeline
//! with each state change's event and its delivery to each of the shop's endpoints.

use checkout_server::store::prelude::*;
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::ExposeSecret;

use super::support::{Browser, dashboard_suite, paid};
use crate::api::support::Harness;
use crate::events::receiver::Receiver;
use crate::events::receiver::support::{drain, endpoint, worker};

dashboard_suite!(
    the_list_filters_and_the_detail_shows_the_card,
    the_timeline_shows_each_event_and_its_deliveries
);

async fn the_list_filters_and_the_detail_shows_the_card(h: &Harness) {
    let (small, small_id) = paid(h, 1000).await;
    let (large, large_id) = paid(h, 5000).await;
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let all = viewer.get("/payments").await;
    let (at_small, at_large) = (
        all.text.find(&small.reference).expect("small listed"),
        all.text.find(&large.reference).expect("large listed"),
    );
    assert!(at_large < at_small, "newest first");
    let found = viewer
        .get("/payments?last4=4242&currency=eur&min=20&max=50.00")
        .await;
    assert_eq!(found.status, 200, "{}", found.text);
    assert!(found.text.contains(&large.reference), "{}", found.text);
    assert!(!found.text.contains(&small.reference), "{}", found.text);
    let none = viewer.get("/payments?last4=0000").await;
    assert!(none.text.contains("No payment matches"), "{}", none.text);
    let by_reference = viewer
        .get(&format!("/payments?reference={}", small.reference))
        .await;
    assert!(by_reference.text.contains(&format!("/payments/{small_id}")));
    assert!(!by_reference.text.contains(&format!("/payments/{large_id}")));
    for (query, field) in [
        ("last4=42", "last4"),
        ("min=5", "min"),
        ("state=paid", "state"),
        ("from=yesterday", "from"),
        ("after=nonsense", "after"),
    ] {
        let bad = viewer.get(&format!("/payments?{query}")).await;
        assert_eq!(bad.status, 400, "{query}: {}", bad.text);
        assert!(
            bad.text.contains(&format!("{field}:")),
            "{query}: {}",
            bad.text
        );
    }
    let detail = viewer.get(&format!("/payments/{small_id}")).await;
    assert!(
        detail.text.contains("Visa 424242…4242, 12/2030"),
        "{}",
        detail.text
    );
    assert!(
        !detail.text.contains("4242424242424242"),
        "no full card number"
    );
    assert_eq!(viewer.get("/payments/not-a-payment").await.status, 404);
    assert_eq!(
        viewer
            .get("/payments/00000000-0000-4000-8000-000000000000")
            .await
            .status,
        404
    );
}

async fn the_timeline_shows_each_event_and_its_deliveries(h: &Harness) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    let healthy = endpoint(h, &receiver.url(), &[], secret.expose_secret()).await;
    let (_, id) = paid(h, 1000).await;
    receiver.fail_all();
    let pass = drain(&worker(h, "timeline-test", true)).await;
    assert!(pass.retried > 0, "{pass:?}");
    receiver.heal();
    let store = h.store();
    let events = store.object_events(&id).await.unwrap();
    let captured = events
        .iter()
        .find(|e| e.kind == "payment.captured")
        .expect("payment.captured written");
    store
        .redeliver(
            &captured.id,
            Some(&healthy),
            time::OffsetDateTime::now_utc(),
        )
        .await
        .unwrap();
    drain(&worker(h, "timeline-test", true)).await;

    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let page = viewer.get(&format!("/payments/{id}")).await;
    assert!(
        page.text.contains("Event to the shop: payment.captured"),
        "{}",
        page.text
    );
    let deliveries = store.event_deliveries(&captured.id).await.unwrap();
    assert_eq!(deliveries.len(), 1, "{deliveries:?}");
    let line = format!(
        "payment.captured to endpoint {healthy}: delivered ({} attempts)",
        deliveries[0].attempts
    );
    assert!(deliveries[0].attempts >= 2, "{deliveries:?}");
    assert!(page.text.contains(&line), "{line} in {}", page.text);
}
