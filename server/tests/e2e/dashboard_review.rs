//! Scenario: a 3-D Secure payment the shopper abandoned, settled by a person. The shopper
//! meets the issuer's page and closes it without answering, so neither the gateway's webhook
//! nor the return visit ever tells the server the outcome, and the gateway offers no lookup
//! by reference. Once the clock passes the payment's review deadline (moved here in the
//! server's own database: nobody waits 30 minutes), the reconciler hands it to a person; an
//! operator finds it in the review queue, resolves it as failed with a note through the
//! confirmation step using the keyboard alone, and the merchant API and the payment's
//! timeline agree.

use std::time::Duration;

use fantoccini::key::Key;
use time::OffsetDateTime;

use crate::support::dashboard::{Dashboard, every_field_is_labelled};
use crate::support::form::{Card, fill_billing, pay, type_card};
use crate::support::server::Process;
use crate::support::shop::DemoShop;
use crate::support::{Page, run};

/// The card the emulator always challenges.
const CHALLENGE_CARD: &str = "4000002500003155";
/// How far back the payment's creation is moved: past the queue's 10 minutes and the
/// reconciler's 30-minute deadline for an outcome.
const MINUTES_AGO: i64 = 31;
const NOTE: &str = "Shopper left the issuer's page; no charge in the gateway portal";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn an_abandoned_challenge_is_resolved_in_the_review_queue() {
    run("dashboard-review", |page: Page| async move {
        let shop = DemoShop::start();
        let session = shop.buy(&page, "teapot").await;
        type_card(&page, Card::test(CHALLENGE_CARD)).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        page.find_ready("#acs-approve").await;
        // The shopper closes the tab on the issuer's page.
        page.goto("about:blank").await;
        let payment = shop
            .merchant
            .wait_payment_state(&session, "pending", Duration::from_secs(10))
            .await;
        let id = payment["id"].as_str().expect("payment id").to_owned();
        let reference = payment["reference"].as_str().expect("reference").to_owned();

        move_clock_past_deadline(&shop.server, &id).await;
        shop.merchant
            .wait_payment_state(&session, "needs_review", Duration::from_secs(20))
            .await;

        let dashboard = Dashboard::of(&shop.server);
        dashboard.log_in_as_admin(&page).await;
        page.goto(&format!("{}/review", dashboard.address)).await;
        let queue = page.wait_text("main", &reference).await;
        assert!(
            queue.contains("needs review") && queue.contains(&format!("{MINUTES_AGO} min")),
            "the queue shows the payment's state and age:\n{queue}"
        );
        every_field_is_labelled(&page, "review queue").await;

        // Keyboard only: the note, Enter, then Enter on the confirmation's button.
        page.click(&format!("#note-{id}")).await;
        page.type_focused(NOTE).await;
        page.press(Key::Enter).await;
        let confirmation = page.wait_text("main", "Resolve as failed").await;
        assert!(confirmation.contains(NOTE), "{confirmation}");
        page.eval("document.querySelector('main form button.danger').focus(); return null;")
            .await;
        page.press(Key::Enter).await;
        let timeline = page.wait_text("main", "Resolved as failed.").await;
        assert!(
            timeline.contains(NOTE) && timeline.contains(&dashboard.admin_email),
            "the timeline shows the note and who resolved it:\n{timeline}"
        );
        let after = shop.merchant.get(&format!("/v1/payments/{id}")).await;
        assert_eq!(after["state"], "failed", "{after}");

        page.goto(&format!("{}/review", dashboard.address)).await;
        page.wait_text("main", "Nothing to review.").await;
    })
    .await;
}

/// Moves payment `id` [`MINUTES_AGO`] minutes into the past in `server`'s database, with its
/// review deadline and next check now due, as if that much time had gone by.
async fn move_clock_past_deadline(server: &Process, id: &str) {
    let now_ms = i64::try_from(OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000)
        .expect("milliseconds fit");
    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", server.database()))
        .await
        .expect("the server's database");
    let moved = sqlx::query(
        "UPDATE payments SET created_at = created_at - ?, review_deadline = ?, next_check_at = ? \
         WHERE id = ?",
    )
    .bind(MINUTES_AGO * 60_000)
    .bind(now_ms - 1_000)
    .bind(now_ms - 1_000)
    .bind(id)
    .execute(&pool)
    .await
    .expect("payment moved back in time");
    assert_eq!(moved.rows_affected(), 1);
    pool.close().await;
}
