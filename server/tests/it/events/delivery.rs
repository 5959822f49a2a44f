//! Events reach the shop from `checkout-server serve` itself: the endpoint
//! `MERCHANT_WEBHOOK_URL` names is set up at start, a payment paid through the sandbox sends
//! `payment.captured` and `session.completed` within moments, each signed so the Standard
//! Webhooks crate verifies it as a shop would, with the same `webhook-id` as the event; during
//! a secret rotation's overlap both secrets sign. The metrics count what was fanned out and
//! delivered.

use checkout_server::config::CONFIG_ENDPOINT_ID;
use checkout_server::store::prelude::*;
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::ExposeSecret as _;

use super::receiver::Receiver;
use super::receiver::support::{PATIENCE, attempts, delivery, paid};
use crate::api::support::{Backend, Harness};
use crate::ops::support::{start, wait_until};

/// Runs each scenario on SQLite and, when configured, on Postgres, with a receiver of its own
/// that the server's configuration names.
macro_rules! receiver_suite {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    super::$name(crate::api::support::Backend::Sqlite).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
                async fn $name() {
                    let Some(backend) = crate::ops::support::postgres() else { return };
                    super::$name(backend).await;
                }
            )+
        }
    };
}

receiver_suite!(a_paid_payment_reaches_the_shop_signed);

async fn configured(backend: Backend, receiver: &Receiver, secret: &str) -> Harness {
    let url = receiver.url();
    start(
        backend,
        &[
            ("MERCHANT_WEBHOOK_URL", url.as_str()),
            ("MERCHANT_WEBHOOK_SECRET", secret),
        ],
    )
    .await
}

async fn a_paid_payment_reaches_the_shop_signed(backend: Backend) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    let h = configured(backend, &receiver, secret.expose_secret()).await;
    let endpoint = h
        .store()
        .get_endpoint(CONFIG_ENDPOINT_ID)
        .await
        .expect("read")
        .expect("MERCHANT_WEBHOOK_URL set up an endpoint");
    assert_eq!(endpoint.url, receiver.url());
    assert_eq!(endpoint.event_types, EventTypes::All);
    assert_eq!(endpoint.status, EndpointStatus::Enabled);

    let (session, payment) = paid(&h, 1500).await;
    let arrived = |kind: &'static str, object: String| {
        let receiver = &receiver;
        move || {
            let found = receiver
                .accepted()
                .iter()
                .any(|r| r.kind == kind && r.object_id == object);
            async move { found }
        }
    };
    wait_until(
        "payment.captured at the shop",
        PATIENCE,
        arrived("payment.captured", payment.id.clone()),
    )
    .await;
    wait_until(
        "session.completed at the shop",
        PATIENCE,
        arrived("session.completed", session.id.clone()),
    )
    .await;

    // The worker records an attempt after the answer: wait for the records.
    let store = h.store().clone();
    wait_until("every delivery recorded", PATIENCE, || {
        let store = store.clone();
        async move {
            store
                .oldest_pending_delivery()
                .await
                .expect("read")
                .is_none()
        }
    })
    .await;
    for received in receiver.received() {
        assert!(received.verified, "{received:?}");
        assert_eq!(received.status, 200);
        assert_eq!(received.body["id"], received.id.as_str());
        assert!(received.id.starts_with("evt_"), "{}", received.id);
        assert!(
            received.user_agent.starts_with("checkout-server/"),
            "{}",
            received.user_agent
        );
        assert_eq!(received.content_type, "application/json");
        assert!(received.signature.starts_with("v1,"));
        assert!(
            !received.signature.contains(' '),
            "one secret, one signature"
        );
        let event = h
            .store()
            .get_event(&received.id)
            .await
            .expect("read")
            .expect("the event exists");
        assert_eq!(received.body["type"], event.kind.as_str());
        // The receiver has answered; the worker records the outcome just after.
        wait_until("the delivery recorded as delivered", PATIENCE, || async {
            delivery(&h, &received.id, CONFIG_ENDPOINT_ID).await.state == DeliveryState::Delivered
        })
        .await;
    }
    let captured = receiver
        .accepted()
        .into_iter()
        .find(|r| r.kind == "payment.captured")
        .expect("captured");
    assert_eq!(captured.body["data"]["object"]["object"], "payment");
    assert_eq!(captured.body["data"]["object"]["state"], "captured");
    let logged = attempts(&h, CONFIG_ENDPOINT_ID).await;
    assert!(
        logged
            .iter()
            .all(|a| a.status_code == Some(200) && a.error.is_none()),
        "{logged:?}"
    );

    // A rotation with an overlap: both secrets sign, so a shop still holding the old one
    // accepts the next event.
    let until = time::OffsetDateTime::now_utc() + time::Duration::hours(1);
    h.store()
        .rotate_endpoint_secret(CONFIG_ENDPOINT_ID, new_secret(), until)
        .await
        .expect("rotated")
        .expect("exists");
    let (second_session, second) = paid(&h, 700).await;
    wait_until(
        "the second payment at the shop",
        PATIENCE,
        arrived("payment.captured", second.id.clone()),
    )
    .await;
    let rotated: Vec<_> = receiver
        .received()
        .into_iter()
        .filter(|r| r.object_id == second.id || r.object_id == second_session.id)
        .collect();
    assert!(!rotated.is_empty());
    for received in rotated {
        assert!(received.verified, "the old secret still verifies");
        assert_eq!(
            received.signature.split(' ').count(),
            2,
            "{}",
            received.signature
        );
    }

    let metrics = h
        .api
        .get(format!("{}/metrics", h.base))
        .send()
        .await
        .expect("metrics")
        .text()
        .await
        .expect("text");
    for line in [
        "checkout_events_total{type=\"payment.captured\"}",
        "checkout_event_deliveries_total{outcome=\"delivered\"}",
        "checkout_event_delivery_oldest_pending_seconds",
    ] {
        assert!(metrics.contains(line), "{line} missing from /metrics");
    }
    assert!(!metrics.contains(secret.expose_secret()));
    h.finish().await;
}
