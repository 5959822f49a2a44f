//! The subscriptions pages over HTTP: nobody in without a session; a viewer reads the list and
//! a subscription's billing history (its first charge linked to its payment) and gets no
//! action and a 403 on each action POST; an operator pauses, resumes and cancels through the
//! confirmation step, each once on a double submit, at the gateway, and in the audit log; the
//! list's filters and pages return the right rows and bad filters name their field.

use checkout_server::store::prelude::*;

use super::support::{Browser, hidden, location};
use crate::api::support::Harness;
use crate::ops::support::{
    gateway_subscription_status, merchant_subscription, ops_suite, subscribe, unique,
};

/// One customer holds many subscriptions to one plan here (the pages are filled that way).
const CONFIG: &[(&str, &str)] = &[("SUBSCRIPTION_SEVERAL_PER_PLAN", "true")];

ops_suite!(
    a_viewer_reads_and_cannot_act,
    an_operator_pauses_resumes_and_cancels_once_each,
    filters_and_pages_return_the_right_rows,
);

/// The gateway's status of subscription `id`.
async fn at_gateway(h: &Harness, id: &str) -> String {
    let view = merchant_subscription(h, id).await;
    let gateway_id = view["gateway_subscription_id"]
        .as_str()
        .expect("gateway id");
    gateway_subscription_status(h, gateway_id).await
}

/// Subscription rows on a list page (their links; the pager links to `/subscriptions?`).
fn rows(html: &str) -> usize {
    html.matches("<a href=\"/subscriptions/").count()
}

async fn a_viewer_reads_and_cannot_act(h: &Harness) {
    let (_, id) = subscribe(
        h,
        &unique("cust"),
        "demo-weekly",
        crate::api::support::cards::VISA_OK,
    )
    .await;
    let anonymous = Browser::new(h);
    for path in ["/subscriptions".to_owned(), format!("/subscriptions/{id}")] {
        let reply = anonymous.get(&path).await;
        assert_eq!((reply.status, location(&reply)), (303, "/login"), "{path}");
    }
    let post = anonymous
        .post(&format!("/subscriptions/{id}/pause"), &[("confirm", "yes")])
        .await;
    assert_eq!((post.status, location(&post)), (303, "/login"));

    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let list = viewer.get("/subscriptions").await;
    assert_eq!(list.status, 200, "{}", list.text);
    assert!(
        list.text.contains(&format!("href=\"/subscriptions/{id}\"")),
        "{}",
        list.text
    );
    assert!(list.text.contains("5.00 USD"), "{}", list.text);
    let page = viewer.get(&format!("/subscriptions/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    let first = h
        .store()
        .get_subscription(&id)
        .await
        .unwrap()
        .expect("stored")
        .first_payment_id
        .expect("a first payment");
    assert!(page.text.contains("Billing history"), "{}", page.text);
    assert!(
        page.text.contains(&format!("href=\"/payments/{first}\"")),
        "the first charge links its payment: {}",
        page.text
    );
    assert!(
        !page.text.contains("idempotency_key"),
        "no action form: {}",
        page.text
    );
    assert!(
        page.text.contains("href=\"/webhooks\""),
        "the navigation links both pages"
    );

    for action in ["pause", "resume", "cancel"] {
        let reply = viewer
            .post(
                &format!("/subscriptions/{id}/{action}"),
                &[
                    ("csrf", viewer.csrf.as_str()),
                    ("idempotency_key", "viewer-key"),
                    ("confirm", "yes"),
                ],
            )
            .await;
        assert_eq!(reply.status, 403, "{action}: {}", reply.text);
    }

    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let path = format!("/subscriptions/{id}/pause");
    let key = [("idempotency_key", "operator-key"), ("confirm", "yes")];
    let no_token = operator.post(&path, &key).await;
    assert_eq!(no_token.status, 403, "{}", no_token.text);
    let wrong = operator
        .post(&path, &[("csrf", "0".repeat(64).as_str()), key[0], key[1]])
        .await;
    assert_eq!(wrong.status, 403, "{}", wrong.text);
    let elsewhere = operator
        .post_from(
            Some("https://evil.example"),
            &path,
            &[("csrf", operator.csrf.as_str()), key[0], key[1]],
        )
        .await;
    assert_eq!(elsewhere.status, 403, "{}", elsewhere.text);
    assert_eq!(at_gateway(h, &id).await, "ACTIVE", "nothing happened");
    assert!(h.store().object_audit(&id).await.unwrap().is_empty());
}

async fn an_operator_pauses_resumes_and_cancels_once_each(h: &Harness) {
    let (_, id) = subscribe(
        h,
        &unique("cust"),
        "demo-weekly",
        crate::api::support::cards::VISA_OK,
    )
    .await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    for (action, gateway_status, stored) in [
        ("pause", "PAUSED", "paused"),
        ("resume", "ACTIVE", "active"),
        ("cancel", "CANCELLED", "cancelled"),
    ] {
        let page = operator.get(&format!("/subscriptions/{id}")).await;
        assert!(
            page.text
                .contains(&format!("action=\"/subscriptions/{id}/{action}\"")),
            "{action} offered: {}",
            page.text
        );
        let key = hidden(&page.text, "idempotency_key").expect("the form's key");
        let path = format!("/subscriptions/{id}/{action}");
        let ask = [
            ("csrf", operator.csrf.as_str()),
            ("idempotency_key", key.as_str()),
        ];
        let confirm = operator.post(&path, &ask).await;
        assert_eq!(confirm.status, 200, "{}", confirm.text);
        assert!(
            confirm.text.contains("name=\"confirm\" value=\"yes\""),
            "{}",
            confirm.text
        );
        assert_ne!(
            at_gateway(h, &id).await,
            gateway_status,
            "not before the confirmation"
        );

        let confirmed = [ask[0], ask[1], ("confirm", "yes")];
        let done = operator.post(&path, &confirmed).await;
        assert_eq!(done.status, 303, "{action}: {}", done.text);
        assert_eq!(
            location(&done),
            format!("/subscriptions/{id}?done={action}")
        );
        let again = operator.post(&path, &confirmed).await;
        assert_eq!(
            location(&again),
            format!("/subscriptions/{id}?done=repeat"),
            "{}",
            again.text
        );
        assert_eq!(at_gateway(h, &id).await, gateway_status);
        let view = merchant_subscription(h, &id).await;
        assert_eq!(view["status"], stored);
    }

    let lines = h.store().object_audit(&id).await.unwrap();
    let actions: Vec<(&str, &str)> = lines
        .iter()
        .map(|l| (l.entry.action.as_str(), l.entry.outcome.as_str()))
        .collect();
    assert_eq!(
        actions,
        [("pause", "ok"), ("resume", "ok"), ("cancel", "ok")],
        "once each"
    );
    for line in &lines {
        assert_eq!(line.entry.staff_email, "operator@shop.example");
        assert_eq!(line.entry.address.as_deref(), Some("127.0.0.1"));
        assert_eq!(line.entry.object_type.as_deref(), Some("subscription"));
        assert_eq!(
            (line.entry.amount, line.entry.currency.as_deref()),
            (Some(500), Some("USD"))
        );
    }
    let page = operator.get(&format!("/subscriptions/{id}")).await;
    assert!(
        !page.text.contains("idempotency_key"),
        "a cancelled one has no action"
    );
    assert!(
        page.text.contains("cancel by operator@shop.example: ok"),
        "{}",
        page.text
    );

    // A refusal of the service is shown and audited, and changes nothing.
    let refused = operator
        .post(
            &format!("/subscriptions/{id}/resume"),
            &[
                ("csrf", operator.csrf.as_str()),
                ("idempotency_key", "late"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    let last = h
        .store()
        .object_audit(&id)
        .await
        .unwrap()
        .pop()
        .expect("a line");
    assert_eq!(
        (last.entry.action.as_str(), last.entry.outcome.as_str()),
        ("resume", "subscription_final")
    );

    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    let audit = admin.get("/audit").await;
    assert!(
        audit
            .text
            .contains(&format!("href=\"/subscriptions/{id}\"")),
        "{}",
        audit.text
    );
}

async fn filters_and_pages_return_the_right_rows(h: &Harness) {
    let many = unique("many");
    let mut ids = Vec::new();
    for _ in 0..26 {
        ids.push(
            subscribe(h, &many, "demo-weekly", crate::api::support::cards::VISA_OK)
                .await
                .1,
        );
    }
    let other = unique("other");
    let (_, monthly) = subscribe(
        h,
        &other,
        "demo-monthly",
        crate::api::support::cards::VISA_OK,
    )
    .await;
    let paused = ids[3].clone();
    h.merchant(
        reqwest::Method::POST,
        &format!("/v1/subscriptions/{paused}/pause"),
    )
    .send()
    .await
    .expect("paused");

    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let first = viewer.get(&format!("/subscriptions?customer={many}")).await;
    assert_eq!(first.status, 200, "{}", first.text);
    assert_eq!(rows(&first.text), 25, "a full page");
    assert!(first.text.contains(&ids[25]), "newest first");
    let next = first
        .text
        .split("href=\"/subscriptions?")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("a next page")
        .replace("&amp;", "&");
    assert!(next.contains(&format!("customer={many}")), "{next}");
    let second = viewer.get(&format!("/subscriptions?{next}")).await;
    assert_eq!(rows(&second.text), 1, "{}", second.text);
    assert!(second.text.contains(&ids[0]), "the oldest on the last page");
    assert!(!second.text.contains("rel=\"next\""));

    let only_paused = viewer
        .get(&format!("/subscriptions?customer={many}&status=paused"))
        .await;
    assert_eq!(rows(&only_paused.text), 1);
    assert!(only_paused.text.contains(&paused));
    let by_plan = viewer
        .get("/subscriptions?plan=demo-monthly&currency=jpy")
        .await;
    assert!(by_plan.text.contains(&monthly), "{}", by_plan.text);
    assert!(!by_plan.text.contains(&ids[0]));
    let wrong_currency = viewer
        .get(&format!("/subscriptions?customer={other}&currency=USD"))
        .await;
    assert_eq!(rows(&wrong_currency.text), 0);
    assert!(wrong_currency.text.contains("No subscription matches"));

    for (query, field) in [
        ("status=gone", "status:"),
        ("currency=EURO", "currency:"),
        ("after=nonsense", "after:"),
    ] {
        let bad = viewer.get(&format!("/subscriptions?{query}")).await;
        assert_eq!(bad.status, 400, "{query}: {}", bad.text);
        assert!(bad.text.contains(field), "{query}: {}", bad.text);
    }
    let missing = viewer.get("/subscriptions/no-such-subscription").await;
    assert_eq!(missing.status, 404);
}
