//! Time-related behaviour of the subscription endpoints: the hanging test card on creation,
//! and concurrent creations, reads and clock advances never billing a cycle twice.

use std::sync::Arc;
use std::time::{Duration, Instant};

use checkout_sandbox::SandboxConfig;
use serde_json::Value;

use super::{Emulator, VISA, creation, history, id_of, plan};

/// Answers only after the configured hang duration.
const HANG: &str = "4000000000000259";

#[tokio::test]
async fn the_hanging_card_answers_late_but_the_subscription_exists_at_once() {
    let hang = Duration::from_millis(400);
    let emulator = Arc::new(
        Emulator::start_with(SandboxConfig {
            hang,
            ..SandboxConfig::default()
        })
        .await,
    );
    let started = Instant::now();
    let creating = {
        let emulator = Arc::clone(&emulator);
        tokio::spawn(async move { emulator.create(&creation(HANG, plan("DAYS", 7, 3))).await })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    let (_, list) = emulator.get("subscription/list").await;
    assert_eq!(
        list["subscription_details"].as_array().map(Vec::len),
        Some(1),
        "recorded before the late answer: {list}"
    );
    let created = creating.await.expect("task");
    assert!(
        started.elapsed() >= hang,
        "answered after {:?}",
        started.elapsed()
    );
    assert_eq!(created["subscription_details"]["status"], "ACTIVE");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_creations_reads_and_clock_moves_bill_each_cycle_once() {
    let emulator = Arc::new(Emulator::start().await);
    let mut tasks = Vec::new();
    for index in 0..16 {
        let emulator = Arc::clone(&emulator);
        tasks.push(tokio::spawn(async move {
            let created = emulator.create(&creation(VISA, plan("DAYS", 1, 30))).await;
            if index % 4 == 0 {
                emulator.advance_days(1).await;
            }
            let (status, _) = emulator.get("subscription/list").await;
            assert_eq!(status, 200);
            emulator.subscription(&id_of(&created)).await;
        }));
    }
    for task in tasks {
        task.await.expect("task");
    }
    emulator.advance_days(1).await;

    let (_, list) = emulator.get("subscription/list").await;
    let items = list["subscription_details"].as_array().expect("array");
    assert_eq!(items.len(), 16);
    let mut billed = 0;
    for item in items {
        let cycles: Vec<u64> = history(item).iter().map(|(cycle, ..)| *cycle).collect();
        let expected: Vec<u64> = (1..=cycles.len() as u64).collect();
        assert_eq!(cycles, expected, "each cycle once, in order: {item}");
        assert!(
            cycles.len() >= 2,
            "the last advance billed cycle 2 at least: {item}"
        );
        assert_eq!(item["completed_payment_cycle"], cycles.len());
        billed += cycles.len();
    }
    let (_, state) = emulator.get("/sandbox/state").await;
    let transactions = state["transactions"].as_array().map_or(0, Vec::len);
    assert_eq!(transactions, billed, "no charge outside the histories");
    let cycle_ids: Vec<&Value> = items
        .iter()
        .flat_map(|item| {
            item["subscription_transaction_details"]
                .as_array()
                .into_iter()
                .flatten()
        })
        .map(|entry| &entry["id"])
        .collect();
    let mut unique = cycle_ids.clone();
    unique.sort_by_key(|id| id.to_string());
    unique.dedup();
    assert_eq!(unique.len(), cycle_ids.len());
}

/// Arms `fault` for the next creation call only, through the control API.
async fn arm_creation_fault(emulator: &Emulator, fault: &str) {
    let body = serde_json::json!({"endpoint": "subscription/payment", "fault": fault, "count": 1});
    let (status, armed) = emulator.post("/sandbox/faults", Some(&body)).await;
    assert_eq!(status, 201, "{armed}");
}

/// The subscriptions the merchant's list holds.
async fn listed(emulator: &Emulator) -> Vec<Value> {
    let (status, list) = emulator.get("subscription/list").await;
    assert_eq!(status, 200, "{list}");
    list["subscription_details"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

#[tokio::test]
async fn a_sign_up_whose_answer_is_lost_still_exists_in_the_list() {
    let emulator = Emulator::start().await;
    arm_creation_fault(&emulator, "status:502:after").await;
    let (status, answer) = emulator
        .post(
            "subscription/payment",
            Some(&creation(VISA, plan("MONTHLY", 1, 12))),
        )
        .await;
    assert_eq!(status, 502, "{answer}");
    assert_eq!(answer["gateway_response"]["code"], "ERR9000");
    assert!(answer.get("subscription_details").is_none(), "{answer}");
    let list = listed(&emulator).await;
    assert_eq!(list.len(), 1, "processed before the answer was lost");
    assert_eq!(list[0]["status"], "ACTIVE");
    let first = &list[0]["subscription_transaction_details"][0];
    assert_eq!(
        (first["cycle"].as_u64(), first["status"].as_str()),
        (Some(1), Some("SUCCESSFUL"))
    );
    let charge = emulator
        .transaction(first["id"].as_str().expect("transaction id"))
        .await;
    assert_eq!(
        charge["merchant_details"]["merchant_txn_ref"], "sub-order-0001",
        "the first charge names the sign-up's reference: {charge}"
    );
    // The next call is not spoiled: the fault was armed for one.
    emulator
        .create(&creation(VISA, plan("MONTHLY", 1, 12)))
        .await;
    assert_eq!(listed(&emulator).await.len(), 2);
}

#[tokio::test]
async fn a_slow_sign_up_is_created_before_its_late_answer() {
    let emulator = Arc::new(Emulator::start().await);
    arm_creation_fault(&emulator, "latency:400:after").await;
    let started = Instant::now();
    let creating = {
        let emulator = Arc::clone(&emulator);
        tokio::spawn(async move { emulator.create(&creation(VISA, plan("DAYS", 7, 3))).await })
    };
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert_eq!(
        listed(&emulator).await.len(),
        1,
        "created before the answer"
    );
    let created = creating.await.expect("task");
    assert!(
        started.elapsed() >= Duration::from_millis(400),
        "answered after {:?}",
        started.elapsed()
    );
    assert_eq!(created["subscription_details"]["status"], "ACTIVE");
}
