//! Card-testing thresholds set in the dashboard (`/risk`, admins): a threshold set there
//! applies to the next try at once on this instance and on another after its reconciler pass,
//! is audited with the value before and after, and a reset brings the configuration file's
//! back. Viewers and operators cannot change one; a bad value is refused naming the field.

use serde_json::json;

use super::support::{Browser, dashboard_suite, location};
use crate::api::risk::{assert_blocked, declined, session, try_card, visa};
use crate::api::support::{Harness, cards};
use checkout_server::store::prelude::*;

dashboard_suite!(
    an_admin_sets_a_threshold_every_instance_applies,
    only_admins_change_thresholds,
);

/// The newest audit line.
async fn last_audit(h: &Harness) -> NewAuditEntry {
    h.store()
        .list_audit(None, 1)
        .await
        .expect("audit")
        .remove(0)
        .entry
}

async fn an_admin_sets_a_threshold_every_instance_applies(h: &Harness) {
    let other = h.beside(&[]).await;
    let admin = Browser::as_role(h, "admin@example.com", StaffRole::Admin).await;
    let saved = admin
        .post(
            "/risk/rules/cards_per_session",
            &[
                ("csrf", admin.csrf.as_str()),
                ("threshold", "1"),
                ("action", "set"),
            ],
        )
        .await;
    assert_eq!(saved.status, 303, "{}", saved.text);
    assert!(location(&saved).starts_with("/risk?saved=cards_per_session"));
    let line = last_audit(h).await;
    assert_eq!(
        (
            line.action.as_str(),
            line.object_type.as_deref(),
            line.object_id.as_deref()
        ),
        (
            "risk_threshold_set",
            Some("risk_rule"),
            Some("cards_per_session")
        )
    );
    assert_eq!(line.detail.as_deref(), Some("threshold 100000 → 1"));
    let page = admin.get("/risk").await;
    assert!(page.text.contains("admin@example.com, "), "{}", page.text);
    // This instance: a second new card in a session is blocked.
    let s = session(h, json!({})).await;
    declined(h, &s, cards::DO_NOT_HONOUR).await;
    let reply = try_card(h, &s, &visa(7)).await;
    assert_blocked(h, &s, &reply, "cards_per_session", 1).await;
    // The other instance applies it on its reconciler pass, which reads the store (its own
    // timer may have run one already: the pass is called here so the test need not wait).
    other
        .state
        .payments
        .risk()
        .refresh_overrides()
        .await
        .expect("read");
    assert_eq!(
        other.state.payments.risk().settings().max_cards_per_session,
        1
    );
    // Reset: the configuration file's threshold again, audited.
    let reset = admin
        .post(
            "/risk/rules/cards_per_session",
            &[("csrf", admin.csrf.as_str()), ("action", "reset")],
        )
        .await;
    assert_eq!(reset.status, 303, "{}", reset.text);
    assert_eq!(
        h.state.payments.risk().settings().max_cards_per_session,
        100_000
    );
    let line = last_audit(h).await;
    assert_eq!(line.action, "risk_threshold_reset");
    assert_eq!(line.detail.as_deref(), Some("threshold 1 → 100000"));
    other.finish().await;
}

async fn only_admins_change_thresholds(h: &Harness) {
    for role in [StaffRole::Viewer, StaffRole::Operator] {
        let email = format!("{}@example.com", role.as_str());
        let browser = Browser::as_role(h, &email, role).await;
        let page = browser.get("/risk").await;
        assert_eq!(page.status, 200);
        assert!(page.text.contains("cards_per_address"), "{}", page.text);
        assert!(
            !page.text.contains("Change a threshold"),
            "no form for a {role:?}"
        );
        let refused = browser
            .post(
                "/risk/rules/cards_per_session",
                &[("csrf", browser.csrf.as_str()), ("threshold", "1")],
            )
            .await;
        assert_eq!(refused.status, 403, "{}", refused.text);
    }
    assert!(h.store().risk_overrides().await.expect("read").is_empty());
    let admin = Browser::as_role(h, "admin@example.com", StaffRole::Admin).await;
    for bad in ["0", "many", "100001"] {
        let refused = admin
            .post(
                "/risk/rules/cards_per_session",
                &[("csrf", admin.csrf.as_str()), ("threshold", bad)],
            )
            .await;
        assert_eq!(refused.status, 400, "{bad}: {}", refused.text);
        assert!(refused.text.contains("threshold"), "{}", refused.text);
    }
    let unknown = admin
        .post(
            "/risk/rules/no_such_rule",
            &[("csrf", admin.csrf.as_str()), ("threshold", "2")],
        )
        .await;
    assert_eq!(unknown.status, 404);
    assert!(h.store().risk_overrides().await.expect("read").is_empty());
}
