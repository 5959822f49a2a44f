//! `DASHBOARD_REQUIRE_2FA=true`: an admin without two-factor sign-in is sent to the account
//! page from every other page until enrolled (an operator is not).

use checkout_server::store::prelude::*;

use super::support::{Browser, PASSWORD, dashboard_suite, hidden, location, staff};
use super::totp_support::enrol;
use crate::api::support::Harness;

mod required {
    use super::*;

    dashboard_suite!(with [("DASHBOARD_REQUIRE_2FA", "true")]; an_admin_must_enrol_before_anything_else);
}

const ADMIN: &str = "admin@shop.example";

async fn an_admin_must_enrol_before_anything_else(h: &Harness) {
    Browser::as_role(h, "ops@shop.example", StaffRole::Operator).await;
    staff(h, ADMIN, StaffRole::Admin).await;
    let mut admin = Browser::new(h);
    let login = admin.login(ADMIN, PASSWORD).await;
    assert_eq!(login.status, 303, "{}", login.text);
    for path in ["/payments", "/review", "/audit", "/payments/x"] {
        let page = admin.get(path).await;
        assert_eq!((page.status, location(&page)), (303, "/account"), "{path}");
    }
    let account = admin.get("/account").await;
    assert_eq!(account.status, 200, "{}", account.text);
    assert!(
        account.text.contains("requires two-factor"),
        "{}",
        account.text
    );
    admin.csrf = hidden(&account.text, "csrf").expect("csrf");
    enrol(&mut admin).await;
    let payments = admin.get("/payments").await;
    assert_eq!(payments.status, 200, "{}", payments.text);
    assert_eq!(admin.get("/audit").await.status, 200);
}
