//! The webhook pages over HTTP, with a shop's receiver on loopback and a delivery worker the
//! test drives: a viewer sees the endpoints' health, events and attempts and no action, and
//! gets a 403 on each action POST (an operator too on rotation, which is the admins'); the
//! event list filters and pages; below admin an address shows no credentials. Sending again
//! is in webhook_resends.rs, rotation in webhook_rotation.rs; both use the helpers here.

use checkout_server::store::prelude::*;
use checkout_server::webhook_rules::secret::new_secret;
use secrecy::{ExposeSecret as _, SecretString};
use time::{Duration, OffsetDateTime};

use super::support::{Browser, location, paid};
use crate::api::support::Harness;
use crate::events::receiver::Receiver;
use crate::events::receiver::support::{drain, endpoint, event_ids, worker};
use crate::ops::support::ops_suite;

/// The server's own worker stays quiet after its first pass: the tests drive theirs.
pub(super) const CONFIG: &[(&str, &str)] = &[("WEBHOOK_DELIVERY_INTERVAL_MS", "86400000")];

ops_suite!(
    a_viewer_sees_health_and_no_action,
    the_event_list_filters_and_pages,
    below_admin_an_address_shows_no_credentials,
);

/// A range form's instant.
pub(super) fn instant(at: OffsetDateTime) -> String {
    at.format(checkout_server::dashboard::pages::format::INSTANT_FORMAT)
        .expect("formats")
}

/// A receiver of the shop's and an endpoint to it taking `session.completed`, signing with a
/// fresh secret.
pub(super) async fn receiving(h: &Harness) -> (SecretString, Receiver, String) {
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
pub(super) async fn session_event(h: &Harness, session_id: &str) -> String {
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
