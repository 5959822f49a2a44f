//! The lock-out under concurrent guesses: a crowd of wrong guesses sent at once, each from its
//! own address, then the right one while they are in flight. Every attempt reserves its place
//! in the account's lock-out before it is checked, so at most [`FAILURES_BEFORE_LOCK`] wrong
//! guesses are ever evaluated and the right one, arriving after the lock, is refused. The
//! same for the password (`POST /login`), the code step (`POST /login/code`) and turning
//! two-factor sign-in off with a stolen session (`POST /account/two-factor/disable`).

use checkout_server::dashboard::auth::limits::FAILURES_BEFORE_LOCK;
use checkout_server::store::prelude::*;
use tokio::task::JoinHandle;

use super::crowd::{RIGHT_ONE_AFTER, address, answers, assert_no_server_error, fields, post_as};
use super::support::{Browser, PASSWORD, dashboard_suite, hidden, location, staff};
use super::totp_support::{code_at, enrol, password_step, unix_now};
use crate::api::support::{Harness, Reply};

dashboard_suite!(
    with [("TRUSTED_PROXIES", "127.0.0.1")];
    concurrent_wrong_passwords_are_not_all_tried,
    concurrent_wrong_codes_are_not_all_tried,
    concurrent_wrong_proofs_cannot_turn_two_factor_off
);

/// Wrong guesses sent at once.
const GUESSES: usize = 30;
const OPERATOR: &str = "op@shop.example";
const ADMIN: &str = "admin@shop.example";

/// How many `action` lines of the audit log have an outcome starting with `evaluated`.
async fn evaluated(h: &Harness, action: &str, evaluated: &str) -> usize {
    let lines = h.store().list_audit(None, 500).await.expect("audit");
    lines
        .iter()
        .filter(|l| l.entry.action == action && l.entry.outcome.starts_with(evaluated))
        .count()
}

/// [`GUESSES`] wrong `form`s to `path` at once, then `right` after [`RIGHT_ONE_AFTER`]: every
/// answer (the right one's last).
async fn crowd_then_right(
    browser: &Browser,
    path: &str,
    wrong: &[(&str, &str)],
    right: &[(&str, &str)],
) -> (Vec<Reply>, Reply) {
    let tasks: Vec<JoinHandle<Reply>> = (0..GUESSES)
        .map(|n| post_as(browser, address(n), path, fields(wrong)))
        .collect();
    tokio::time::sleep(RIGHT_ONE_AFTER).await;
    let right = post_as(browser, address(GUESSES), path, fields(right))
        .await
        .expect("request task");
    let wrong = answers(tasks).await;
    assert_no_server_error(&wrong);
    assert_no_server_error(std::slice::from_ref(&right));
    (wrong, right)
}

async fn concurrent_wrong_passwords_are_not_all_tried(h: &Harness) {
    staff(h, OPERATOR, StaffRole::Operator).await;
    let browser = Browser::new(h);
    let (_, right) = crowd_then_right(
        &browser,
        "/login",
        &[("email", OPERATOR), ("password", "wrong password!!")],
        &[("email", OPERATOR), ("password", PASSWORD)],
    )
    .await;
    let tried = evaluated(h, "login_failed", "wrong_password").await;
    assert!(
        (1..=FAILURES_BEFORE_LOCK as usize).contains(&tried),
        "{tried} wrong passwords were evaluated; the lock-out allows {FAILURES_BEFORE_LOCK}"
    );
    assert_ne!(
        (right.status, location(&right)),
        (303, "/"),
        "the right password logged in after the account was locked"
    );
    assert_eq!(evaluated(h, "login", "ok").await, 0);
}

async fn concurrent_wrong_codes_are_not_all_tried(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    let (key, _) = enrol(&mut admin).await;
    let logins_before = evaluated(h, "login", "ok").await;
    password_step(&mut admin, ADMIN).await;
    // Well-formed recovery codes that are not this account's: each costs one verification.
    let (_, right) = crowd_then_right(
        &admin,
        "/login/code",
        &[("code", "abcd-efgh-ijkm-npqr")],
        &[("code", &code_at(&key, unix_now() + 30))],
    )
    .await;
    let tried = evaluated(h, "login_failed", "wrong_").await;
    assert!(
        (1..=FAILURES_BEFORE_LOCK as usize).contains(&tried),
        "{tried} wrong codes were evaluated; the lock-out allows {FAILURES_BEFORE_LOCK}"
    );
    assert_ne!(
        (right.status, location(&right)),
        (303, "/"),
        "the right code logged in after the account was locked"
    );
    assert_eq!(evaluated(h, "login", "ok").await, logins_before);
}

async fn concurrent_wrong_proofs_cannot_turn_two_factor_off(h: &Harness) {
    let mut admin = Browser::as_role(h, ADMIN, StaffRole::Admin).await;
    enrol(&mut admin).await;
    let page = admin.get("/account").await;
    admin.csrf = hidden(&page.text, "csrf").expect("csrf");
    let csrf = admin.csrf.clone();
    let (_, right) = crowd_then_right(
        &admin,
        "/account/two-factor/disable",
        &[("csrf", &csrf), ("proof", "not my password at all")],
        &[("csrf", &csrf), ("proof", PASSWORD)],
    )
    .await;
    let tried = evaluated(h, "2fa_disable", "wrong_proof").await;
    assert!(
        (1..=FAILURES_BEFORE_LOCK as usize).contains(&tried),
        "{tried} wrong proofs were evaluated; the lock-out allows {FAILURES_BEFORE_LOCK}"
    );
    assert_ne!(
        (right.status, location(&right)),
        (303, "/account"),
        "the right password turned two-factor sign-in off after the account was locked"
    );
    let user = h
        .store()
        .staff_by_email(ADMIN)
        .await
        .expect("read")
        .expect("admin");
    assert!(user.has_two_factor(), "two-factor sign-in is still on");
}
