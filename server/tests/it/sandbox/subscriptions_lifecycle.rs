//! The subscription lifecycle over HTTP: creation (with and without trial), discounted then
//! full-price cycles, expiry, pause and resume, cancel.

use serde_json::Value;
use time::Duration;

use super::{
    CHALLENGE, Emulator, VISA, creation, history, id_of, parse_time, plan, with_discount,
    with_trial,
};

fn ok(entries: &[(u64, u64)]) -> Vec<(u64, String, u64)> {
    entries
        .iter()
        .map(|(cycle, amount)| (*cycle, "SUCCESSFUL".to_owned(), *amount))
        .collect()
}

#[tokio::test]
async fn trial_then_discounted_then_full_price_cycles_until_expiry() {
    let emulator = Emulator::start().await;
    let body = creation(
        VISA,
        with_discount(with_trial(plan("MONTHLY", 1, 4), 7), 10, 2),
    );
    let before = emulator.now().await;
    let created = emulator.create(&body).await;
    let after = emulator.now().await;

    assert_eq!(created["success"], true);
    assert_eq!(created["status_code"], 201);
    assert_eq!(created["is_live"], false);
    assert_eq!(created["transaction_type"], "CAPTURE");
    assert_eq!(created["gateway_response"]["version"], "1");
    assert_eq!(created["gateway_response"]["type"], "INFO");
    assert_eq!(created["gateway_response"]["code"], "INFO0000");
    assert_eq!(
        created["payment_details"]["amount"], 0,
        "a trial starts with a zero-amount card verification"
    );
    assert_eq!(created["payment_details"]["response_code"], 0);
    assert_eq!(
        created["payment_details"]["card"]["number"],
        "424242******4242"
    );
    assert!(created["transaction_details"]["stored_payment_method_id"].is_string());
    assert_eq!(
        created["merchant_details"]["billing_details"]["shipping_address"]["address1"],
        "2-2 Minato"
    );
    assert!(created.get("risk-details").is_some());

    let details = &created["subscription_details"];
    assert_eq!(details["status"], "ACTIVE");
    assert_eq!(details["type"], "CYCLE");
    assert_eq!(details["max_cycle_count"], 4);
    assert_eq!(details["completed_payment_cycle"], 0);
    assert_eq!(details["next_payment_cycle"], 1);
    let first_due = parse_time(&details["next_payment_date"]);
    assert!(first_due >= before + Duration::days(7) && first_due <= after + Duration::days(7));
    assert!(details.get("last_payment_status").is_none());
    assert!(details.get("subscription_transaction_details").is_none());
    let plan = &details["subscription_plan_details"];
    assert_eq!(plan["name"], "Gold plan");
    assert_eq!(plan["desc"], "Gold membership");
    assert_eq!(plan["billing_cycle_type"], "MONTHS");
    assert_eq!(plan["billing_cycle_interval"], 1);
    assert_eq!(plan["amount"], 1000);
    assert_eq!(plan["ccy"], "JPY");
    assert_eq!(plan["trial_period_duration"], "7");
    assert_eq!(plan["trial_period_duration_type"], "DAYS");
    assert_eq!(plan["plan_discount_percentage"], 10);
    assert_eq!(plan["plan_discount_duration"], 2);

    let id = id_of(&created);
    emulator.advance_days(6).await;
    let in_trial = emulator.subscription(&id).await;
    assert_eq!(history(&in_trial), ok(&[]));
    assert!(in_trial.get("last_payment_status").is_none());

    emulator.advance_days(1).await;
    let first = emulator.subscription(&id).await;
    assert_eq!(history(&first), ok(&[(1, 900)]));
    assert_eq!(first["completed_payment_cycle"], 1);
    assert_eq!(first["next_payment_cycle"], 2);
    assert_eq!(first["last_payment_status"], "SUCCESSFUL");

    emulator.advance_days(31).await;
    emulator.advance_days(31).await;
    let third = emulator.subscription(&id).await;
    assert_eq!(history(&third), ok(&[(1, 900), (2, 900), (3, 1000)]));

    emulator.advance_days(31).await;
    let last = emulator.subscription(&id).await;
    assert_eq!(
        history(&last),
        ok(&[(1, 900), (2, 900), (3, 1000), (4, 1000)])
    );
    assert_eq!(last["status"], "ACTIVE", "the last paid month is served");
    assert_eq!(last["completed_payment_cycle"], 4);
    assert_eq!(last["next_payment_cycle"], Value::Null);
    assert_eq!(last["next_payment_date"], Value::Null);

    emulator.advance_days(31).await;
    let expired = emulator.subscription(&id).await;
    assert_eq!(expired["status"], "EXPIRED");
    assert_eq!(history(&expired).len(), 4);
    emulator.advance_days(365).await;
    assert_eq!(history(&emulator.subscription(&id).await).len(), 4);

    for entry in expired["subscription_transaction_details"]
        .as_array()
        .expect("history")
    {
        assert_eq!(entry["ccy"], "JPY");
        assert_eq!(entry["event"], "CAPTURED");
        assert!(entry["ref"].is_u64());
        parse_time(&entry["transaction_date"]);
        let status = emulator
            .transaction(entry["id"].as_str().expect("id"))
            .await;
        assert_eq!(status["transaction_type"], "CAPTURE");
        assert_eq!(status["payment_details"]["amount"], entry["amount"]);
        assert_eq!(status["payment_details"]["response_code"], 0);
        assert_eq!(status["transaction_details"]["ref"], entry["ref"]);
    }
}

#[tokio::test]
async fn without_trial_creation_charges_cycle_1_and_a_far_jump_bills_the_rest() {
    let emulator = Emulator::start().await;
    let created = emulator
        .create(&creation(VISA, with_discount(plan("DAYS", 7, 3), 10, 1)))
        .await;
    assert_eq!(created["payment_details"]["amount"], 900);
    let details = &created["subscription_details"];
    assert_eq!(details["completed_payment_cycle"], 1);
    assert_eq!(details["next_payment_cycle"], 2);
    assert_eq!(details["status"], "ACTIVE");
    let created_at = parse_time(&created["transaction_details"]["timestamp"]);
    assert_eq!(
        parse_time(&details["next_payment_date"]),
        created_at + Duration::days(7)
    );

    emulator.advance_days(365).await;
    let id = id_of(&created);
    let done = emulator.subscription(&id).await;
    assert_eq!(history(&done), ok(&[(1, 900), (2, 1000), (3, 1000)]));
    assert_eq!(done["status"], "EXPIRED");
    assert_eq!(
        done["subscription_transaction_details"][0]["id"], created["transaction_details"]["id"],
        "cycle 1 is the creation charge"
    );
}

#[tokio::test]
async fn the_vendor_sample_challenge_card_is_approved_without_3ds() {
    let emulator = Emulator::start().await;
    let created = emulator
        .create(&creation(CHALLENGE, plan("MONTHLY", 1, 12)))
        .await;
    assert_eq!(created["success"], true);
    assert_eq!(created["payment_details"]["amount"], 1000);
    assert_eq!(
        created["payment_details"]["card"]["number"],
        "400000******1091"
    );
    assert_eq!(created["subscription_details"]["status"], "ACTIVE");
    let text = created.to_string();
    assert!(!text.contains("4000000000001091"), "full number leaked");
    assert!(!text.contains("\"123\""), "CVC leaked");
}

#[tokio::test]
async fn a_cycle_due_while_paused_is_billed_once_on_resume() {
    let emulator = Emulator::start().await;
    let created = emulator
        .create(&creation(VISA, plan("WEEKLY", 1, 10)))
        .await;
    let id = id_of(&created);

    let (status, paused) = emulator.operate(&id, "pause").await;
    assert_eq!(status, 200, "{paused}");
    assert_eq!(paused["success"], true);
    assert_eq!(paused["status_code"], 200);
    assert_eq!(paused["is_live"], false);
    assert_eq!(paused["gateway_response"]["type"], "INFO");
    assert_eq!(paused["gateway_response"]["code"], "INFO3000");
    assert_eq!(paused["gateway_response"]["version"], "1");
    assert_eq!(paused["subscription_details"]["status"], "PAUSED");

    emulator.advance_days(30).await;
    let while_paused = emulator.subscription(&id).await;
    assert_eq!(while_paused["status"], "PAUSED");
    assert_eq!(history(&while_paused), ok(&[(1, 1000)]));

    let before_resume = emulator.now().await;
    let (status, resumed) = emulator.operate(&id, "resume").await;
    let after_resume = emulator.now().await;
    assert_eq!(status, 200, "{resumed}");
    assert_eq!(resumed["gateway_response"]["code"], "INFO3000");
    let details = &resumed["subscription_details"];
    assert_eq!(details["status"], "ACTIVE");
    assert_eq!(
        history(details),
        ok(&[(1, 1000), (2, 1000)]),
        "one cycle billed, not the four weeks of the pause"
    );
    assert_eq!(details["completed_payment_cycle"], 2);
    assert_eq!(details["last_payment_status"], "SUCCESSFUL");
    let next = parse_time(&details["next_payment_date"]);
    assert!(
        next >= before_resume + Duration::days(7) && next <= after_resume + Duration::days(7),
        "the schedule restarts from the resume"
    );

    emulator.advance_days(7).await;
    assert_eq!(
        history(&emulator.subscription(&id).await),
        ok(&[(1, 1000), (2, 1000), (3, 1000)])
    );
}

#[tokio::test]
async fn a_short_pause_keeps_the_schedule() {
    let emulator = Emulator::start().await;
    let created = emulator
        .create(&creation(VISA, plan("WEEKLY", 1, 10)))
        .await;
    let id = id_of(&created);
    let due = created["subscription_details"]["next_payment_date"].clone();
    assert_eq!(emulator.operate(&id, "pause").await.0, 200);
    emulator.advance_days(2).await;
    let (status, resumed) = emulator.operate(&id, "resume").await;
    assert_eq!(status, 200, "{resumed}");
    assert_eq!(resumed["subscription_details"]["next_payment_date"], due);
    assert_eq!(
        resumed["subscription_details"]["completed_payment_cycle"],
        1
    );
}

#[tokio::test]
async fn cancel_from_active_and_from_paused_is_final() {
    let emulator = Emulator::start().await;
    let active = id_of(&emulator.create(&creation(VISA, plan("DAYS", 1, 30))).await);
    let paused = id_of(&emulator.create(&creation(VISA, plan("DAYS", 1, 30))).await);
    assert_eq!(emulator.operate(&paused, "pause").await.0, 200);

    for id in [&active, &paused] {
        let (status, cancelled) = emulator.operate(id, "cancel").await;
        assert_eq!(status, 200, "{cancelled}");
        assert_eq!(cancelled["gateway_response"]["code"], "INFO3000");
        let details = &cancelled["subscription_details"];
        assert_eq!(details["status"], "CANCELLED");
        assert_eq!(details["next_payment_date"], Value::Null);
        assert_eq!(details["next_payment_cycle"], Value::Null);
    }
    emulator.advance_days(60).await;
    for id in [&active, &paused] {
        let details = emulator.subscription(id).await;
        assert_eq!(details["status"], "CANCELLED");
        assert_eq!(
            history(&details),
            ok(&[(1, 1000)]),
            "nothing billed after cancel"
        );
    }
}
