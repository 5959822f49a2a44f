//! The review queue's subscriptions (issue 46): one the gateway bills that checkout-server did
//! not start, found by the whole-list check, is listed on `/review` with why, and on its page;
//! a viewer reads it and cannot act; an operator marks it looked at, through a confirmation
//! step, once, and it leaves the queue (the audit log says who).

use checkout_server::store::prelude::*;

use super::support::{Browser, location};
use crate::api::support::Harness;
use crate::ops::support::{in_seconds, ops_suite, reconciler};
use crate::subs::found_at_gateway::create_at_gateway;

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(a_found_subscription_is_in_the_review_queue_until_looked_at);

async fn a_found_subscription_is_in_the_review_queue_until_looked_at(h: &Harness) {
    let gateway_id = create_at_gateway(h).await;
    let report = reconciler(h).run_once_at(in_seconds(7200)).await;
    assert_eq!(report.subscriptions_found, 1, "{report:?}");
    let id = h
        .store()
        .find_subscription_by_gateway_id(&gateway_id)
        .await
        .unwrap()
        .expect("recorded")
        .id;

    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let queue = viewer.get("/review").await;
    assert_eq!(queue.status, 200, "{}", queue.text);
    assert!(queue.text.contains(&gateway_id), "{}", queue.text);
    assert!(
        queue.text.contains("found in the gateway&#39;s list")
            || queue.text.contains("found in the gateway's list"),
        "{}",
        queue.text
    );
    assert!(
        queue.text.contains("1 found"),
        "the last comparison: {}",
        queue.text
    );
    assert!(
        !queue.text.contains("/acknowledge"),
        "no action for a viewer"
    );
    let refused = viewer
        .post(
            &format!("/subscriptions/{id}/acknowledge"),
            &[("csrf", viewer.csrf.as_str()), ("confirm", "yes")],
        )
        .await;
    assert_eq!(refused.status, 403, "{}", refused.text);

    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let page = operator.get(&format!("/subscriptions/{id}")).await;
    assert!(page.text.contains("found in the gateway"), "{}", page.text);
    assert!(
        page.text
            .contains(&format!("/subscriptions/{id}/acknowledge")),
        "{}",
        page.text
    );
    let path = format!("/subscriptions/{id}/acknowledge");
    let confirm = operator
        .post(&path, &[("csrf", operator.csrf.as_str())])
        .await;
    assert_eq!(confirm.status, 200, "{}", confirm.text);
    assert!(confirm.text.contains("Yes, looked at"), "{}", confirm.text);
    assert!(
        h.store().subscriptions_to_review(10).await.unwrap().len() == 1,
        "nothing done before the confirmation"
    );
    let form = [("csrf", operator.csrf.as_str()), ("confirm", "yes")];
    let done = operator.post(&path, &form).await;
    assert_eq!(
        (done.status, location(&done)),
        (
            303,
            format!("/subscriptions/{id}?done=acknowledged").as_str()
        )
    );
    let again = operator.post(&path, &form).await;
    assert_eq!(location(&again), format!("/subscriptions/{id}?done=repeat"));
    assert!(
        h.store()
            .subscriptions_to_review(10)
            .await
            .unwrap()
            .is_empty()
    );
    let queue = operator.get("/review").await;
    assert!(!queue.text.contains(&gateway_id), "{}", queue.text);
    let audit = h.store().object_audit(&id).await.unwrap();
    assert_eq!(audit.len(), 1, "audited once");
    assert_eq!(audit[0].entry.action, "acknowledge");
    assert_eq!(audit[0].entry.staff_email, "operator@shop.example");
}
