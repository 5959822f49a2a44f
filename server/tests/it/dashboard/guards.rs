//! Nobody in who does not belong: no session → the login page; the wrong role → 403; a POST
//! without the session's CSRF token, with a wrong one, or from another origin → 403, and
//! nothing happens; the headers every page carries.

use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;

use super::support::{Browser, dashboard_suite, hidden, location, paid};
use crate::api::support::Harness;

dashboard_suite!(
    no_session_goes_to_the_login_page,
    roles_decide_what_is_reachable,
    a_viewer_sees_no_action_and_cannot_post_one,
    csrf_token_and_origin_are_required,
    pages_carry_a_strict_policy
);

async fn no_session_goes_to_the_login_page(h: &Harness) {
    let (_, id) = paid(h, 1000).await;
    let anonymous = Browser::new(h);
    for path in ["/payments", &format!("/payments/{id}"), "/audit", "/"] {
        let reply = anonymous.get(path).await;
        assert_eq!(reply.status, 303, "{path}: {}", reply.text);
        let to = location(&reply);
        assert!(to == "/login" || to == "/payments", "{path} → {to}");
    }
    let refund = anonymous
        .post(
            &format!("/payments/{id}/refund"),
            &[("amount", "1.00"), ("confirm", "yes")],
        )
        .await;
    assert_eq!((refund.status, location(&refund)), (303, "/login"));
    let forged = Browser {
        cookie: Some("dashboard_session=not-a-session".into()),
        ..Browser::new(h)
    };
    let reply = forged.get("/payments").await;
    assert_eq!((reply.status, location(&reply)), (303, "/login"));
    let login = anonymous.get("/login").await;
    assert_eq!(login.status, 200);
    assert!(
        login.text.contains("<label for=\"email\">"),
        "{}",
        login.text
    );
}

async fn roles_decide_what_is_reachable(h: &Harness) {
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let admin = Browser::as_role(h, "admin@shop.example", StaffRole::Admin).await;
    for browser in [&viewer, &operator] {
        let audit = browser.get("/audit").await;
        assert_eq!(audit.status, 403, "{}", audit.text);
        assert!(
            !browser
                .get("/payments")
                .await
                .text
                .contains("href=\"/audit\"")
        );
    }
    let audit = admin.get("/audit").await;
    assert_eq!(audit.status, 200, "{}", audit.text);
    assert!(
        audit.text.contains("operator@shop.example"),
        "logins are in the log"
    );
    assert!(
        admin
            .get("/payments")
            .await
            .text
            .contains("href=\"/audit\"")
    );
}

async fn a_viewer_sees_no_action_and_cannot_post_one(h: &Harness) {
    let (session, id) = paid(h, 1000).await;
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    let page = viewer.get(&format!("/payments/{id}")).await;
    assert_eq!(page.status, 200, "{}", page.text);
    assert!(page.text.contains("10.00 EUR"), "{}", page.text);
    for action in ["refund", "capture", "void"] {
        assert!(
            !page.text.contains(&format!("/{action}\"")),
            "{action} form shown"
        );
    }
    assert!(hidden(&page.text, "idempotency_key").is_none());
    for action in ["refund", "capture", "void"] {
        let reply = viewer
            .post(
                &format!("/payments/{id}/{action}"),
                &[
                    ("csrf", &viewer.csrf),
                    ("idempotency_key", "viewer-try"),
                    ("confirm", "yes"),
                ],
            )
            .await;
        assert_eq!(reply.status, 403, "{action}: {}", reply.text);
    }
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Refund), 0);
    let payment = h.store().get_payment(&id).await.unwrap().expect("payment");
    assert_eq!(payment.refunded_amount, 0);
}

async fn csrf_token_and_origin_are_required(h: &Harness) {
    let (session, id) = paid(h, 1000).await;
    let operator = Browser::as_role(h, "operator@shop.example", StaffRole::Operator).await;
    let path = format!("/payments/{id}/refund");
    let form = |csrf: &'static str| {
        vec![
            ("csrf", csrf),
            ("idempotency_key", "csrf-test"),
            ("amount", "1.00"),
            ("confirm", "yes"),
        ]
    };
    let missing = operator
        .post(
            &path,
            &[
                ("idempotency_key", "k"),
                ("amount", "1.00"),
                ("confirm", "yes"),
            ],
        )
        .await;
    assert_eq!(missing.status, 403, "{}", missing.text);
    assert_eq!(operator.post(&path, &form("0000")).await.status, 403);
    let csrf = operator.csrf.clone();
    let good = [
        ("csrf", csrf.as_str()),
        ("idempotency_key", "csrf-test"),
        ("amount", "1.00"),
        ("confirm", "yes"),
    ];
    for origin in [Some("http://evil.example"), Some("null"), None] {
        let reply = operator.post_from(origin, &path, &good).await;
        assert_eq!(reply.status, 403, "{origin:?}: {}", reply.text);
    }
    let logout = operator.post("/logout", &[]).await;
    assert_eq!(logout.status, 403, "logout needs the token too");
    assert_eq!(
        operator.get("/payments").await.status,
        200,
        "still logged in"
    );
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Refund), 0);
    let done = operator.post(&path, &good).await;
    assert_eq!(done.status, 303, "{}", done.text);
    assert_eq!(h.gateway_records(&session.reference, RecordKind::Refund), 1);
}

async fn pages_carry_a_strict_policy(h: &Harness) {
    let viewer = Browser::as_role(h, "viewer@shop.example", StaffRole::Viewer).await;
    for path in ["/login", "/payments"] {
        let page = viewer.get(path).await;
        let csp = page.headers["content-security-policy"]
            .to_str()
            .expect("csp");
        assert!(csp.contains("script-src 'self'"), "{csp}");
        assert!(!csp.contains("unsafe-inline"), "{csp}");
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert_eq!(page.headers["referrer-policy"], "same-origin");
        assert_eq!(page.headers["cache-control"], "no-store");
        assert!(!page.text.contains("<script"), "{path} needs no script");
    }
    let css = viewer.get("/assets/dashboard.css").await;
    assert_eq!(css.status, 200);
    assert!(css.text.contains("prefers-color-scheme: dark"));
}
