//! Logging in and out: the cookie's attributes, lock-out after repeated failures (even the
//! right password is then refused), the per-address limit, idle and absolute expiry, logout
//! ending the session server-side, and a disabled account losing its sessions.

use checkout_server::dashboard::auth::accounts;
use checkout_server::store::prelude::*;
use sqlx::postgres::PgPool;
use sqlx::sqlite::SqlitePool;

use super::support::{Browser, PASSWORD, dashboard_suite, location, staff};
use crate::api::support::Harness;

dashboard_suite!(
    login_sets_a_strict_cookie_and_logout_ends_the_session,
    repeated_failures_lock_the_account,
    one_address_cannot_guess_fast,
    idle_and_old_sessions_expire,
    a_disabled_account_is_logged_out,
    the_audit_log_cannot_be_rewritten
);

async fn login_sets_a_strict_cookie_and_logout_ends_the_session(h: &Harness) {
    staff(h, "op@shop.example", StaffRole::Operator).await;
    let mut browser = Browser::new(h);
    let reply = browser.login("OP@shop.example ", PASSWORD).await;
    assert_eq!((reply.status, location(&reply)), (303, "/"));
    let cookie = reply.headers["set-cookie"].to_str().expect("cookie");
    assert!(cookie.starts_with("dashboard_session="), "{cookie}");
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    let page = browser.get("/payments").await;
    assert_eq!(page.status, 200, "{}", page.text);
    browser.csrf = super::support::hidden(&page.text, "csrf").expect("csrf");
    let stolen = browser.clone();
    let out = browser.post("/logout", &[("csrf", &browser.csrf)]).await;
    assert_eq!((out.status, location(&out)), (303, "/login"));
    assert!(
        out.headers["set-cookie"]
            .to_str()
            .unwrap()
            .contains("Max-Age=0")
    );
    let replayed = stolen.get("/payments").await;
    assert_eq!(
        (replayed.status, location(&replayed)),
        (303, "/login"),
        "the old cookie is dead server-side"
    );
}

async fn repeated_failures_lock_the_account(h: &Harness) {
    staff(h, "op@shop.example", StaffRole::Operator).await;
    let mut browser = Browser::new(h);
    for attempt in 0..5 {
        let reply = browser.login("op@shop.example", "wrong password!!").await;
        assert_eq!(reply.status, 403, "attempt {attempt}: {}", reply.text);
        assert!(browser.cookie.is_none());
    }
    let right = browser.login("op@shop.example", PASSWORD).await;
    assert_eq!(right.status, 403, "locked: {}", right.text);
    assert!(browser.cookie.is_none());
    let user = h
        .store()
        .staff_by_email("op@shop.example")
        .await
        .unwrap()
        .expect("account");
    assert!(user.locked_at(time::OffsetDateTime::now_utc()));
    let log = h.store().list_audit(None, 100).await.unwrap();
    let outcomes: Vec<&str> = log
        .iter()
        .filter(|l| l.entry.action == "login_failed")
        .map(|l| l.entry.outcome.as_str())
        .collect();
    assert_eq!(
        outcomes,
        [
            "locked",
            "wrong_password_locked",
            "wrong_password",
            "wrong_password",
            "wrong_password",
            "wrong_password"
        ]
    );
    let text = format!("{log:?}");
    assert!(!text.contains("wrong password!!"), "no password in the log");
}

async fn one_address_cannot_guess_fast(h: &Harness) {
    let mut browser = Browser::new(h);
    let mut statuses = Vec::new();
    for n in 0..11 {
        let reply = browser
            .login(&format!("nobody{n}@shop.example"), "some password")
            .await;
        statuses.push(reply.status);
    }
    assert!(statuses[..10].iter().all(|s| *s == 403), "{statuses:?}");
    assert_eq!(statuses[10], 429, "{statuses:?}");
}

async fn idle_and_old_sessions_expire(h: &Harness) {
    let idle = Browser::as_role(h, "idle@shop.example", StaffRole::Viewer).await;
    let old = Browser::as_role(h, "old@shop.example", StaffRole::Viewer).await;
    let now = time::OffsetDateTime::now_utc();
    let ms = |t: time::OffsetDateTime| (t.unix_timestamp_nanos() / 1_000_000) as i64;
    let thirty_one_minutes_ago = ms(now - time::Duration::minutes(31));
    let a_second_ago = ms(now - time::Duration::SECOND);
    execute(
        h,
        "UPDATE staff_sessions SET last_seen_at = $1 WHERE staff_id = \
         (SELECT id FROM staff_users WHERE email = 'idle@shop.example')",
        thirty_one_minutes_ago,
    )
    .await;
    execute(
        h,
        "UPDATE staff_sessions SET expires_at = $1 WHERE staff_id = \
         (SELECT id FROM staff_users WHERE email = 'old@shop.example')",
        a_second_ago,
    )
    .await;
    for browser in [&idle, &old] {
        let reply = browser.get("/payments").await;
        assert_eq!((reply.status, location(&reply)), (303, "/login"));
    }
    let fresh = Browser::as_role(h, "fresh@shop.example", StaffRole::Viewer).await;
    assert_eq!(fresh.get("/payments").await.status, 200);
}

async fn a_disabled_account_is_logged_out(h: &Harness) {
    let mut browser = Browser::as_role(h, "gone@shop.example", StaffRole::Operator).await;
    accounts::disable(h.store().as_ref(), "gone@shop.example")
        .await
        .expect("disabled");
    let reply = browser.get("/payments").await;
    assert_eq!((reply.status, location(&reply)), (303, "/login"));
    let again = browser.login("gone@shop.example", PASSWORD).await;
    assert_eq!(again.status, 403, "{}", again.text);
}

async fn the_audit_log_cannot_be_rewritten(h: &Harness) {
    Browser::as_role(h, "op@shop.example", StaffRole::Operator).await;
    let lines = h.store().list_audit(None, 10).await.unwrap();
    assert_eq!(
        lines.len(),
        2,
        "the account's creation and its login: {lines:?}"
    );
    for sql in [
        "UPDATE audit_log SET outcome = 'nothing happened' WHERE id = $1",
        "DELETE FROM audit_log WHERE id = $1",
    ] {
        let refused = try_execute(h, sql, lines[0].id).await;
        assert!(
            refused.as_ref().is_err_and(|e| e.contains("append-only")),
            "{sql}: {refused:?}"
        );
    }
    let after = h.store().list_audit(None, 10).await.unwrap();
    assert_eq!(after[0].entry.outcome, "ok");
}

/// Runs `sql` with `$1 = value` on the harness's database, behind the store's back; it must
/// change one row.
async fn execute(h: &Harness, sql: &str, value: i64) {
    assert_eq!(try_execute(h, sql, value).await, Ok(1), "{sql}");
}

/// Runs `sql` with `$1 = value`: the rows changed, or the database's error.
async fn try_execute(h: &Harness, sql: &str, value: i64) -> Result<u64, String> {
    if h.sqlite_path.is_some() {
        let pool = SqlitePool::connect(&h.database_url).await.expect("sqlite");
        let done = sqlx::query(sql).bind(value).execute(&pool).await;
        pool.close().await;
        done.map(|d| d.rows_affected()).map_err(|e| e.to_string())
    } else {
        let pool = PgPool::connect(&h.database_url).await.expect("postgres");
        let done = sqlx::query(sql).bind(value).execute(&pool).await;
        pool.close().await;
        done.map(|d| d.rows_affected()).map_err(|e| e.to_string())
    }
}
