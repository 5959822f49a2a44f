//! Faults a shopper could hit, with the emulator in its own process so its record of what was
//! charged survives a killed checkout server:
//!
//! The frictionless 3-D Secure card is used, so the flow is: pay, the gateway's 3DS address,
//! the server's return page, the partner's landing page.
//!
//! - crash: the server is killed (SIGKILL) after the gateway approved but before the approval
//!   was recorded; after a restart the reconciler settles the payment exactly once, the
//!   customer's order page shows it paid, and the gateway holds one charge;
//! - gateway down while the customer comes back from 3-D Secure: the page says "confirming",
//!   never "declined", and once the gateway answers again the payment is settled, once;
//! - gateway too slow to answer the pay call: the shopper sees "confirming", not a decline, and
//!   the server never sends the charge a second time.

use std::time::Duration;

use crate::support::form::{Card, fill_billing, ids, pay, type_card};
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::{Page, run};

/// The log line of the armed failpoint (server/src/failpoint.rs).
const FAILPOINT_LINE: &str = "FAILPOINT after_gateway_before_record reached";
/// English texts of the result view.
const PAID: &str = "Payment successful";
const CONFIRMING: &str = "Confirming your payment";

/// A 3-D Secure card the issuer approves without a challenge: the browser goes to the
/// gateway's 3DS address, which sends it straight on to the server's return page.
const FRICTIONLESS_CARD: &str = "4000000000001000";

/// Types the frictionless card on the partner's checkout page and submits it.
async fn type_and_pay(page: &Page, rig: &PartnerRig, session: &str, secret: &str) {
    page.goto(&rig.checkout_url(session, secret)).await;
    type_card(page, Card::test(FRICTIONLESS_CARD)).await;
    fill_billing(page, "FR", "75001").await;
}

/// The emulator's transactions for `reference` that took money (approved purchases).
async fn charges(rig: &PartnerRig, reference: &str) -> Vec<serde_json::Value> {
    rig.emulator
        .transactions_for(reference)
        .await
        .into_iter()
        .filter(|t| t["outcome"] == "approved")
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn killed_after_gateway_approval_then_settled_once_by_the_reconciler() {
    run("crash", |page: Page| async move {
        let mut rig = PartnerRig::start(
            EmulatorAt::OwnProcess { hang_seconds: 120 },
            vec![
                (
                    "CHECKOUT_FAILPOINT".into(),
                    "after_gateway_before_record".into(),
                ),
                // The killed process's reconciler may hold a lease on the payment (3 × gateway
                // timeout + 30 s); a 3 s timeout lets the restarted one take over within 39 s.
                ("GATEWAY_TIMEOUT_MS".into(), "3000".into()),
            ],
        );
        let (session, secret, reference) = rig.session(4200, "EUR", "crash").await;
        type_and_pay(&page, &rig, &session, &secret).await;

        // Pay: the gateway approves; its webhook and the shopper's return reach the server,
        // which confirms the approval and stops right before recording it. Kill it there.
        let button = page.find_ready(ids::SUBMIT).await;
        let clicking = tokio::spawn(async move { button.click().await });
        rig.server
            .wait_for_log(FAILPOINT_LINE, Duration::from_secs(30))
            .await;
        rig.server.kill();
        let _ = clicking.await;
        let before_crash = rig.server.log_text();
        assert!(
            !before_crash.contains("payment settled"),
            "the crash came before the approval was recorded:\n{before_crash}"
        );

        // The gateway id was noted before the crash, so the restarted reconciler may settle the
        // payment at once: what matters is that it ends captured, once.
        rig.server.unset_env("CHECKOUT_FAILPOINT");
        rig.server.restart();

        // The reconciler settles it; the customer reopens their order page and sees it paid.
        let paid = rig
            .merchant
            .wait_payment_state(&session, "captured", Duration::from_secs(60))
            .await;
        page.goto(&rig.landing_url(&session)).await;
        page.wait_text_any(ids::RESULT, &[PAID], Duration::from_secs(30))
            .await;
        page.screenshot("paid-after-restart").await;
        assert_eq!(paid["amount"], 4200);
        assert_eq!(
            rig.merchant.session_payments(&session).await.len(),
            1,
            "no second payment"
        );
        let log = rig.server.log_text();
        assert!(
            log.contains("reconciler settled a payment"),
            "the reconciler settled it:\n{log}"
        );
        let charged = charges(&rig, &reference).await;
        assert_eq!(
            charged.len(),
            1,
            "exactly one charge at the gateway: {charged:?}"
        );
        assert_eq!(
            rig.emulator.transactions_for(&reference).await.len(),
            1,
            "and no other transaction"
        );
        rig.server.assert_no_card_data(&[FRICTIONLESS_CARD]);
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn gateway_down_on_return_shows_confirming_then_settles_once() {
    run("gateway-down", |page: Page| async move {
        let rig = PartnerRig::start(EmulatorAt::OwnProcess { hang_seconds: 120 }, vec![]);
        let (session, secret, reference) = rig.session(1999, "USD", "down").await;
        type_and_pay(&page, &rig, &session, &secret).await;

        // The gateway's status endpoint goes down as the shopper pays: neither the return
        // visit nor the webhook can confirm the outcome.
        rig.emulator
            .arm_fault(Some("transaction/status/{id}"), "status:503", 10_000)
            .await;
        pay(&page).await;
        let shown = page
            .wait_text_any(
                ids::RESULT,
                &[CONFIRMING, PAID, "declined"],
                Duration::from_secs(30),
            )
            .await;
        assert!(
            shown.contains(CONFIRMING),
            "the shopper is told it is being confirmed, not declined: {shown}"
        );
        page.screenshot("confirming").await;
        assert!(!page.url().await.contains("checkout=declined"));

        // The gateway comes back; the payment is settled without a second charge.
        rig.emulator.clear_faults().await;
        rig.merchant
            .wait_payment_state(&session, "captured", Duration::from_secs(60))
            .await;
        page.wait_text_any(ids::RESULT, &[PAID], Duration::from_secs(30))
            .await;
        page.screenshot("paid").await;
        assert_eq!(
            charges(&rig, &reference).await.len(),
            1,
            "one charge at the gateway"
        );
        assert_eq!(
            rig.merchant.session_payments(&session).await.len(),
            1,
            "one payment"
        );
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn gateway_too_slow_on_pay_shows_confirming_and_never_charges_twice() {
    run("gateway-slow", |page: Page| async move {
        // The hanging card keeps the gateway's answer for 20 s; the server gives up after 2 s.
        let rig = PartnerRig::start(
            EmulatorAt::OwnProcess { hang_seconds: 20 },
            vec![("GATEWAY_TIMEOUT_MS".into(), "2000".into())],
        );
        let (session, secret, reference) = rig.session(800, "EUR", "slow").await;
        page.goto(&rig.checkout_url(&session, &secret)).await;
        type_card(&page, Card::test("4000000000000259")).await;
        fill_billing(&page, "DE", "10115").await;
        pay(&page).await;
        let shown = page
            .wait_text_any(
                "body",
                &[CONFIRMING, "declined", PAID],
                Duration::from_secs(30),
            )
            .await;
        assert!(
            shown.contains(CONFIRMING),
            "the shopper sees it is being confirmed: {shown}"
        );
        assert!(
            !shown.to_lowercase().contains("declined"),
            "never a decline: {shown}"
        );
        page.screenshot("confirming").await;

        let payments = rig.merchant.session_payments(&session).await;
        assert_eq!(payments.len(), 1, "{payments:?}");
        assert_eq!(
            payments[0]["state"], "pending",
            "outcome unknown: kept pending for the status endpoint"
        );
        // The page is told which payment is under way, to follow it on its server.
        let payment_id = payments[0]["id"].as_str().expect("payment id");
        let processing = page
            .wait_text("#events li[data-event=processing]", payment_id)
            .await;
        assert!(
            processing.contains(payment_id) && processing.contains("\"state\":\"pending\""),
            "processing names the payment: {processing}"
        );
        // The call reached the gateway once and is never sent again: not by the server, not by
        // the page (the pay button stays disabled while the outcome is unknown).
        let transactions = rig.emulator.transactions_for(&reference).await;
        assert_eq!(
            transactions.len(),
            1,
            "the pay call reached the gateway once: {transactions:?}"
        );
        assert!(
            page.try_find(ids::SUBMIT).await.is_none()
                || page.prop(ids::SUBMIT, "disabled").await.as_deref() == Some("true"),
            "no way to pay again while the outcome is unknown"
        );
    })
    .await;
}
