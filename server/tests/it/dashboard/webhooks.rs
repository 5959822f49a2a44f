//! The webhook pages over HTTP, with a shop's receiver on loopback and a delivery worker the
//! test drives: a viewer sees the endpoints' health, events and attempts and no action, and
//! gets a 403 on each action POST (an operator too on rotation, which is the admins'); an
//! operator sends one event again, and the given-up deliveries of a time range, each through
//! the confirmation step, once on a double submit, really delivered again; an admin rotates a
//! secret, sees it once, and the shop verifies the next event with it.

use checkout_server::store::prelude::*;
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::{ExposeSecret as _, SecretString};
use time::{Duration, OffsetDateTime};

use super::support::{Browser, hidden, location, paid};
use crate::api::support::Harness;
use crate::events::receiver::Receiver;
use crate::events::receiver::support::{attempts, delivery, drain, endpoint, event_ids, worker};
use crate::ops::support::ops_suite;

/// The server's own worker stays quiet after its first pass: the tests drive theirs.
const CONFIG: &[(&str, &str)] = &[("WEBHOOK_DELIVERY_INTERVAL_MS", "86400000")];

ops_suite!(
    a_viewer_sees_health_and_no_action,
    an_operator_sends_one_event_again_once,
    an_operator_sends_the_given_up_deliveries_of_a_range_again,
    only_an_admin_rotates_and_the_new_secret_signs,
    the_event_list_filters_and_pages,
    below_admin_an_address_shows_no_credentials,
);

/// A range form's instant.
fn instant(at: OffsetDateTime) -> String {
    at.format(checkout_server::dashboard::pages::format::INSTANT_FORMAT)
        .expect("formats")
}

/// A receiver of the shop's and an endpoint to it taking `session.completed`, signing with a
/// fresh secret.
async fn receiving(h: &Harness) -> (SecretString, Receiver, String) {
    let secret = new_secret();
    let receiver = Receiver::start(secret.expose_secret()).await;
    let endpoint_id = endpoint(
        h,
        &receiver.url(),
        &["session.completed"],
        secret.expose_secret(),
    )
    .await;
    (secret, receiver, endpoint_id)
}

/// The completed session's event of payment `session_id`.
async fn session_event(h: &Harness, session_id: &str) -> String {
    event_ids(h, session_id).await.remove(0)
}

async fn a_viewer_sees_health_and_no_action(h: &Harness) {
    let (secret, receiver, endpoint_id) = receiving(h).await;
    let (session, _) = paid(h, 1000).await;
    drain(&worker(h, "viewer-test", true)).await;
    let event_id = session_event(h, &session.id).await;

    let anonymous = Browser::new(h);
    for path in [
        "/webhooks".to_owned(),
        format!("/webhooks/{endpoint_id}"),
        format!("/webhooks/events/{event_id}"),
    ] {
        let reply = anonymous.get(&path).await;
        assert_eq!((reply.status, location(&reply)), (303, "/login"), "{path}");
    }

    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let list = viewer.get("/webhooks").await;
    assert_eq!(list.status, 200, "{}", list.text);
    assert!(list.text.contains(&receiver.url()), "{}", list.text);
    assert!(list.text.contains("100 % (1 of 1)"), "{}", list.text);
    let page = viewer.get(&format!("/webhooks/{endpoint_id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(
        page.text
            .contains(&format!("href=\"/webhooks/events/{event_id}\"")),
        "{}",
        page.text
    );
    assert!(page.text.contains("HTTP 200"), "{}", page.text);
    assert!(
        !page.text.contains("idempotency_key"),
        "no action: {}",
        page.text
    );
    let event = viewer.get(&format!("/webhooks/events/{event_id}")).await;
    assert_eq!(event.status, 200, "{}", event.text);
    assert!(event.text.contains("delivered"), "{}", event.text);
    assert!(
        !event.text.contains("idempotency_key"),
        "no action: {}",
        event.text
    );
    let events = viewer.get("/webhooks/events?type=session.completed").await;
    assert!(events.text.contains(&event_id), "{}", events.text);
    let bad = viewer.get("/webhooks/events?type=payment.paid").await;
    assert_eq!(bad.status, 400);
    assert!(bad.text.contains("type:"), "{}", bad.text);

    let now = OffsetDateTime::now_utc();
    let form = |csrf: &str| {
        vec![
            ("csrf", csrf.to_owned()),
            ("idempotency_key", "a-key".to_owned()),
            ("confirm", "yes".to_owned()),
            ("from", instant(now - Duration::hours(1))),
            ("to", instant(now + Duration::hours(1))),
            ("overlap_hours", "0".to_owned()),
        ]
    };
    let posts = [
        format!("/webhooks/events/{event_id}/redeliver"),
        format!("/webhooks/{endpoint_id}/redeliver_failed"),
        format!("/webhooks/{endpoint_id}/rotate"),
    ];
    for path in &posts {
        let fields = form(&viewer.csrf);
        let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let reply = viewer.post(path, &pairs).await;
        assert_eq!(reply.status, 403, "{path}: {}", reply.text);
    }
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    assert!(
        !operator
            .get(&format!("/webhooks/{endpoint_id}"))
            .await
            .text
            .contains("/rotate"),
        "an operator is offered no rotation"
    );
    let fields = form(&operator.csrf);
    let pairs: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(operator.post(&posts[2], &pairs).await.status, 403);
    let without_token: Vec<(&str, &str)> = pairs
        .iter()
        .copied()
        .filter(|(k, _)| *k != "csrf")
        .collect();
    for path in &posts[..2] {
        assert_eq!(
            operator.post(path, &without_token).await.status,
            403,
            "{path}"
        );
    }
    drain(&worker(h, "viewer-test", true)).await;
    assert_eq!(receiver.received().len(), 1, "nothing was sent again");
    let stored = h
        .store()
        .get_endpoint(&endpoint_id)
        .await
        .unwrap()
        .expect("endpoint");
    assert_eq!(
        stored.secret.expose_secret(),
        secret.expose_secret(),
        "not rotated"
    );
}

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

async fn the_event_list_filters_and_pages(h: &Harness) {
    let mut sessions = Vec::new();
    for amount in 0..13 {
        sessions.push(paid(h, 1000 + amount).await.0);
    }
    let all = h
        .store()
        .list_events(EventQuery {
            limit: 100,
            ..EventQuery::default()
        })
        .await
        .unwrap()
        .items;
    assert!((26..=50).contains(&all.len()), "{} events", all.len());
    let rows = |html: &str| html.matches("<a href=\"/webhooks/events/").count();

    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let first = viewer.get("/webhooks/events").await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(rows(&first.text), 25, "a full page");
    assert!(first.text.contains(&all[0].id), "newest first");
    let next = first
        .text
        .split("href=\"/webhooks/events?")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a next page")
        .replace("&amp;", "&");
    let second = viewer.get(&format!("/webhooks/events?{next}")).await;
    assert_eq!(rows(&second.text), all.len() - 25, "{}", second.text);
    assert!(
        second.text.contains(&all[all.len() - 1].id),
        "the oldest last"
    );
    assert!(!second.text.contains("rel=\"next\""));

    let completed = viewer.get("/webhooks/events?type=session.completed").await;
    assert_eq!(rows(&completed.text), 13, "{}", completed.text);
    for session in &sessions {
        assert!(
            completed
                .text
                .contains(&session_event(h, &session.id).await)
        );
    }
    let one = &sessions[4].id;
    let about = viewer.get(&format!("/webhooks/events?object={one}")).await;
    let expected = event_ids(h, one).await;
    assert_eq!(rows(&about.text), expected.len(), "{}", about.text);
    assert!(expected.iter().all(|id| about.text.contains(id)));
    let bad = viewer.get("/webhooks/events?after=1_x").await;
    assert_eq!(bad.status, 400);
    assert!(bad.text.contains("after:"), "{}", bad.text);
}

/// The secret on the rotation's answer page.
fn hidden_secret(html: &str) -> String {
    let start = html.find("value=\"whsec_").expect("a secret on the page") + "value=\"".len();
    let end = html[start..].find('"').expect("the value ends");
    html[start..start + end].to_owned()
}

async fn below_admin_an_address_shows_no_credentials(h: &Harness) {
    let url = "https://ops:s3cret@hooks.shop.example/in?token=t0ken";
    let endpoint_id = endpoint(h, url, &[], new_secret().expose_secret()).await;
    let pages = ["/webhooks".to_owned(), format!("/webhooks/{endpoint_id}")];
    for (email, role) in [
        ("viewer@shop.example", StaffRole::Viewer),
        ("operator@shop.example", StaffRole::Operator),
    ] {
        let staff = Browser::as_role(h, email, role).await;
        for path in &pages {
            let page = staff.get(path).await;
            assert_eq!(page.status, 200, "{path}: {}", page.text);
            assert!(
                page.text.contains("https://…@hooks.shop.example/in?…"),
                "{role:?} {path}: {}",
                page.text
            );
            for secret in ["s3cret", "t0ken", "ops:"] {
                assert!(
                    !page.text.contains(secret),
                    "{role:?} {path} shows {secret}"
                );
            }
        }
    }
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    for path in &pages {
        let page = admin.get(path).await;
        assert!(page.text.contains(url), "admin {path}: {}", page.text);
    }
}
