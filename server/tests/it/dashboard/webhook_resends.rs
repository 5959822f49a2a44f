//! Sending webhooks again from the dashboard: an operator sends one event again, and the
//! given-up deliveries of a time range, each through the confirmation step, once on a double
//! submit, really delivered again to the shop's receiver.

use checkout_server::store::prelude::*;
use time::{Duration, OffsetDateTime};

use super::support::{Browser, hidden, location, paid};
use crate::api::support::Harness;
use crate::events::receiver::support::{attempts, delivery, drain, worker};
use crate::ops::support::ops_suite;

use super::webhooks::{CONFIG, instant, receiving, session_event};

ops_suite!(
    an_operator_sends_one_event_again_once,
    an_operator_sends_the_given_up_deliveries_of_a_range_again,
);

async fn an_operator_sends_one_event_again_once(h: &Harness) {
    let (_, receiver, endpoint_id) = receiving(h).await;
    let (session, _) = paid(h, 1200).await;
    let worker = worker(h, "redeliver-test", true);
    drain(&worker).await;
    let event_id = session_event(h, &session.id).await;
    assert_eq!(receiver.accepted().len(), 1);

    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let page = operator.get(&format!("/webhooks/events/{event_id}")).await;
    let key = hidden(&page.text, "idempotency_key").expect("the form's key");
    let path = format!("/webhooks/events/{event_id}/redeliver");
    let ask = [
        ("csrf", operator.csrf.as_str()),
        ("idempotency_key", key.as_str()),
        ("endpoint_id", ""),
    ];
    let confirm = operator.post(&path, &ask).await;
    assert_eq!(confirm.status, 200, "{}", confirm.text);
    assert!(
        confirm.text.contains("again to every endpoint it went to"),
        "{}",
        confirm.text
    );
    assert_eq!(
        drain(&worker).await.claimed,
        0,
        "not before the confirmation"
    );

    let confirmed = [ask[0], ask[1], ask[2], ("confirm", "yes")];
    let done = operator.post(&path, &confirmed).await;
    assert_eq!(done.status, 303, "{}", done.text);
    assert_eq!(
        location(&done),
        format!("/webhooks/events/{event_id}?done=redeliver&count=1")
    );
    let again = operator.post(&path, &confirmed).await;
    assert_eq!(
        location(&again),
        format!("/webhooks/events/{event_id}?done=repeat")
    );
    let sent = drain(&worker).await;
    assert_eq!(sent.delivered, 1, "{sent:?}");
    let received = receiver.accepted();
    assert_eq!(received.len(), 2, "sent again once");
    assert!(received.iter().all(|r| r.id == event_id && r.verified));
    assert_eq!(attempts(h, &endpoint_id).await.len(), 2);
    let shown = operator.get(location(&done)).await;
    assert!(
        shown.text.contains("1 deliveries are due now"),
        "{}",
        shown.text
    );

    let lines = h.store().object_audit(&event_id).await.unwrap();
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert_eq!(
        (
            lines[0].entry.action.as_str(),
            lines[0].entry.outcome.as_str()
        ),
        ("redeliver", "ok")
    );
    assert_eq!(lines[0].entry.staff_email, "operator@shop.example");
    assert_eq!(lines[0].entry.address.as_deref(), Some("127.0.0.1"));
}

async fn an_operator_sends_the_given_up_deliveries_of_a_range_again(h: &Harness) {
    let (_, receiver, endpoint_id) = receiving(h).await;
    receiver.fail_all();
    let (session, _) = paid(h, 900).await;
    let worker = worker(h, "range-test", true);
    for pass in 0.. {
        if worker.run_once().await.failed == 1 {
            break;
        }
        assert!(pass < 30, "never given up");
        worker.clock().advance(Duration::hours(11));
    }
    let event_id = session_event(h, &session.id).await;
    assert_eq!(
        delivery(h, &event_id, &endpoint_id).await.state,
        DeliveryState::Failed
    );
    // The shop fixed its receiver and enabled the endpoint again (as the API does).
    receiver.heal();
    h.store()
        .update_endpoint(
            &endpoint_id,
            EndpointUpdate {
                status: Some((EndpointStatus::Enabled, None)),
                ..EndpointUpdate::default()
            },
        )
        .await
        .unwrap();
    let tried = receiver.received().len();

    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let page = operator.get(&format!("/webhooks/{endpoint_id}")).await;
    assert!(
        page.text.contains("1 deliveries"),
        "one given up: {}",
        page.text
    );
    let path = format!("/webhooks/{endpoint_id}/redeliver_failed");
    let now = OffsetDateTime::now_utc();
    let send = |key: &'static str, from: OffsetDateTime, to: OffsetDateTime| {
        let operator = operator.clone();
        let path = path.clone();
        async move {
            let (from, to) = (instant(from), instant(to));
            operator
                .post(
                    &path,
                    &[
                        ("csrf", operator.csrf.as_str()),
                        ("idempotency_key", key),
                        ("from", from.as_str()),
                        ("to", to.as_str()),
                        ("confirm", "yes"),
                    ],
                )
                .await
        }
    };
    let before = send(
        "yesterday",
        now - Duration::days(2),
        now - Duration::days(1),
    )
    .await;
    assert_eq!(
        location(&before),
        format!("/webhooks/{endpoint_id}?done=redeliver_failed&count=0")
    );
    assert_eq!(drain(&worker).await.claimed, 0, "nothing of that range");

    let backwards = send("backwards", now, now - Duration::hours(1)).await;
    assert_eq!(backwards.status, 400);
    assert!(backwards.text.contains("to:"), "{}", backwards.text);
    let garbage = operator
        .post(
            &path,
            &[
                ("csrf", operator.csrf.as_str()),
                ("idempotency_key", "garbage"),
                ("from", "last tuesday"),
                ("to", "2026-01-01T00:00"),
            ],
        )
        .await;
    assert_eq!(garbage.status, 400);
    assert!(garbage.text.contains("from:"), "{}", garbage.text);

    let around = (now - Duration::hours(1), now + Duration::hours(1));
    let done = send("today", around.0, around.1).await;
    assert_eq!(
        location(&done),
        format!("/webhooks/{endpoint_id}?done=redeliver_failed&count=1"),
        "{}",
        done.text
    );
    let again = send("today", around.0, around.1).await;
    assert_eq!(
        location(&again),
        format!("/webhooks/{endpoint_id}?done=repeat")
    );
    let sent = drain(&worker).await;
    assert_eq!(sent.delivered, 1, "{sent:?}");
    let received = receiver.received();
    assert_eq!(received.len(), tried + 1, "sent again once");
    let last = received.last().expect("the last request");
    assert_eq!(
        (last.id.as_str(), last.status, last.verified),
        (event_id.as_str(), 200, true)
    );
    assert_eq!(
        delivery(h, &event_id, &endpoint_id).await.state,
        DeliveryState::Delivered
    );

    let lines = h.store().object_audit(&endpoint_id).await.unwrap();
    let outcomes: Vec<&str> = lines.iter().map(|l| l.entry.outcome.as_str()).collect();
    assert_eq!(outcomes, ["ok", "invalid_field", "ok"], "{lines:?}");
    assert!(lines.iter().all(|l| l.entry.action == "redeliver_failed"));
}
