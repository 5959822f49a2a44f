//! What the subscription endpoints refuse, and failing cycles: refused transitions leave the
//! subscription unchanged, a card declining later cycles records failed attempts, unknown ids
//! are 404, and auth and validation failures get the emulator's failure body.

use reqwest::Method;
use serde_json::{Value, json};

use super::{
    APPROVE_ONCE, Auth, DO_NOT_HONOUR, Emulator, VISA, creation, history, id_of, parse_time, plan,
};

/// Asserts the emulator's failure body with `status` and `code`; returns the message.
fn failure(status: u16, body: &Value, expected_status: u16, code: &str) -> String {
    assert_eq!(status, expected_status, "{body}");
    assert_eq!(body["success"], false, "{body}");
    assert_eq!(body["status_code"], expected_status, "{body}");
    assert_eq!(body["is_live"], false, "{body}");
    assert_eq!(body["gateway_response"]["type"], "ERROR", "{body}");
    assert_eq!(body["gateway_response"]["version"], "1", "{body}");
    assert_eq!(body["gateway_response"]["code"], code, "{body}");
    body["gateway_response"]["message"]
        .as_str()
        .expect("message")
        .to_owned()
}

/// Tries `operation` and asserts it is refused with the transition code and changes nothing.
async fn refused(emulator: &Emulator, id: &str, operation: &str, from: &str) {
    let before = emulator.subscription(id).await;
    let (status, body) = emulator.operate(id, operation).await;
    let message = failure(status, &body, 400, "ERR4001");
    assert_eq!(
        message,
        format!("cannot {operation} a subscription that is {from}")
    );
    assert_eq!(
        emulator.subscription(id).await,
        before,
        "{operation} changed state"
    );
}

#[tokio::test]
async fn every_refused_transition_leaves_the_subscription_unchanged() {
    let emulator = Emulator::start().await;
    let id = id_of(&emulator.create(&creation(VISA, plan("DAYS", 7, 2))).await);
    refused(&emulator, &id, "resume", "ACTIVE").await;
    assert_eq!(emulator.operate(&id, "pause").await.0, 200);
    refused(&emulator, &id, "pause", "PAUSED").await;
    assert_eq!(emulator.operate(&id, "cancel").await.0, 200);
    for operation in ["pause", "resume", "cancel"] {
        refused(&emulator, &id, operation, "CANCELLED").await;
    }

    let expiring = id_of(&emulator.create(&creation(VISA, plan("DAYS", 1, 1))).await);
    emulator.advance_days(2).await;
    assert_eq!(emulator.subscription(&expiring).await["status"], "EXPIRED");
    for operation in ["pause", "resume", "cancel"] {
        refused(&emulator, &expiring, operation, "EXPIRED").await;
    }
}

#[tokio::test]
async fn a_card_declining_later_cycles_records_failed_attempts() {
    let emulator = Emulator::start().await;
    let created = emulator
        .create(&creation(APPROVE_ONCE, plan("WEEKLY", 1, 3)))
        .await;
    assert_eq!(created["success"], true, "the first charge is approved");
    let id = id_of(&created);
    let cycle_2_due = parse_time(&created["subscription_details"]["next_payment_date"]);

    emulator.advance_days(7).await;
    let failed_once = emulator.subscription(&id).await;
    assert_eq!(failed_once["last_payment_status"], "FAILED");
    assert_eq!(failed_once["status"], "ACTIVE");
    assert_eq!(failed_once["completed_payment_cycle"], 1);
    assert_eq!(failed_once["next_payment_cycle"], 2);
    assert_eq!(
        parse_time(&failed_once["next_payment_date"]),
        cycle_2_due + time::Duration::days(1),
        "retried the next day"
    );
    let entry = &failed_once["subscription_transaction_details"][1];
    assert_eq!(entry["status"], "FAILED");
    assert_eq!(entry["event"], "DECLINED");
    assert_eq!(entry["cycle"], 2);
    assert_eq!(entry["amount"], 1000);
    let declined = emulator
        .transaction(entry["id"].as_str().expect("id"))
        .await;
    assert_eq!(declined["success"], false);
    assert_eq!(declined["payment_details"]["response_code"], 51);

    emulator.advance_days(3).await;
    let given_up = emulator.subscription(&id).await;
    let failed = |cycle| (cycle, "FAILED".to_owned(), 1000);
    assert_eq!(
        history(&given_up),
        [
            (1, "SUCCESSFUL".to_owned(), 1000),
            failed(2),
            failed(2),
            failed(2)
        ],
        "three attempts, then the cycle is closed unpaid"
    );
    assert_eq!(given_up["completed_payment_cycle"], 2);
    assert_eq!(given_up["next_payment_cycle"], 3);
    assert_eq!(given_up["last_payment_status"], "FAILED");
}

#[tokio::test]
async fn a_declined_creation_charge_creates_nothing() {
    let emulator = Emulator::start().await;
    let (status, body) = emulator
        .post(
            "subscription/payment",
            Some(&creation(DO_NOT_HONOUR, plan("DAYS", 7, 3))),
        )
        .await;
    assert_eq!(status, 412, "{body}");
    assert_eq!(body["success"], false);
    assert_eq!(body["payment_details"]["response_code"], 5);
    assert!(body.get("subscription_details").is_none());
    let (_, list) = emulator.get("subscription/list").await;
    assert_eq!(list["subscription_details"], json!([]));
}

#[tokio::test]
async fn list_returns_every_subscription_in_creation_order() {
    let emulator = Emulator::start().await;
    let (status, empty) = emulator.get("subscription/list").await;
    assert_eq!(status, 200, "{empty}");
    assert_eq!(empty["subscription_details"], json!([]));

    let mut ids = Vec::new();
    for _ in 0..4 {
        ids.push(id_of(
            &emulator.create(&creation(VISA, plan("DAYS", 1, 1))).await,
        ));
    }
    assert_eq!(emulator.operate(&ids[1], "pause").await.0, 200);
    assert_eq!(emulator.operate(&ids[2], "cancel").await.0, 200);
    emulator.advance_days(1).await;
    let active = id_of(&emulator.create(&creation(VISA, plan("DAYS", 7, 5))).await);
    ids.push(active);

    let (status, list) = emulator.get("subscription/list").await;
    assert_eq!(status, 200, "{list}");
    assert_eq!(list["success"], true);
    assert_eq!(list["status_code"], 200);
    assert_eq!(list["is_live"], false);
    let items = list["subscription_details"].as_array().expect("array");
    let listed: Vec<(&str, &str)> = items
        .iter()
        .map(|item| {
            assert!(item.get("last_payment_status").is_none(), "{item}");
            assert!(
                item["subscription_transaction_details"].is_array(),
                "{item}"
            );
            (
                item["id"].as_str().expect("id"),
                item["status"].as_str().expect("status"),
            )
        })
        .collect();
    let expected: Vec<(&str, &str)> = ids
        .iter()
        .map(String::as_str)
        .zip(["EXPIRED", "PAUSED", "CANCELLED", "EXPIRED", "ACTIVE"])
        .collect();
    assert_eq!(listed, expected);
}

#[tokio::test]
async fn unknown_and_malformed_ids() {
    let emulator = Emulator::start().await;
    let unknown = uuid::Uuid::new_v4().to_string();
    let (status, body) = emulator.get(&format!("subscription/{unknown}")).await;
    failure(status, &body, 404, "ERR0005");
    for operation in ["pause", "resume", "cancel"] {
        let (status, body) = emulator.operate(&unknown, operation).await;
        failure(status, &body, 404, "ERR0005");
    }
    let (status, body) = emulator.get("subscription/not-a-subscription").await;
    failure(status, &body, 404, "ERR0005");
    let too_long = "a".repeat(37);
    let (status, body) = emulator.get(&format!("subscription/{too_long}")).await;
    let message = failure(status, &body, 400, "ERR0003");
    assert!(message.contains("subscription_id"), "{message}");
    let (status, body) = emulator.operate(&too_long, "pause").await;
    failure(status, &body, 400, "ERR0003");
}

#[tokio::test]
async fn every_subscription_endpoint_requires_both_credentials() {
    let emulator = Emulator::start().await;
    let id = id_of(&emulator.create(&creation(VISA, plan("DAYS", 7, 3))).await);
    let body = creation(VISA, plan("DAYS", 7, 3));
    let calls = [
        (Method::POST, "subscription/payment".to_owned(), Some(&body)),
        (Method::GET, "subscription/list".to_owned(), None),
        (Method::GET, format!("subscription/{id}"), None),
        (Method::POST, format!("subscription/{id}/pause"), None),
        (Method::POST, format!("subscription/{id}/resume"), None),
        (Method::POST, format!("subscription/{id}/cancel"), None),
    ];
    for (method, path, body) in calls {
        for auth in [Auth::Missing, Auth::WrongKey] {
            let (status, answer) = emulator.send(method.clone(), &path, body, auth).await;
            failure(status, &answer, 401, "ERR0001");
            assert!(!answer.to_string().contains("not-the-key"), "{answer}");
        }
    }
    let details = emulator.subscription(&id).await;
    assert_eq!(details["status"], "ACTIVE", "refused calls changed nothing");
    let (_, list) = emulator.get("subscription/list").await;
    assert_eq!(
        list["subscription_details"].as_array().map(Vec::len),
        Some(1)
    );
}

#[tokio::test]
async fn creation_validation_names_the_field() {
    let emulator = Emulator::start().await;
    let base = creation(VISA, plan("MONTHLY", 1, 12));
    let edits: [(&str, Value, u16, &str, &str); 12] = [
        (
            "cycle_type",
            json!("YEARLY"),
            400,
            "ERR0003",
            "subscription.cycle_type",
        ),
        (
            "subscription_end_type",
            json!("UNLIMITED"),
            400,
            "ERR0003",
            "subscription.subscription_end_type",
        ),
        (
            "max_cycle_count",
            json!(0),
            400,
            "ERR0003",
            "subscription.max_cycle_count",
        ),
        (
            "max_cycle_count",
            json!(1001),
            400,
            "ERR0003",
            "subscription.max_cycle_count",
        ),
        (
            "cycle_interval",
            json!(13),
            400,
            "ERR0003",
            "subscription.cycle_interval",
        ),
        (
            "cycle_interval",
            json!(-1),
            400,
            "ERR0002",
            "subscription.cycle_interval",
        ),
        (
            "plan_name",
            json!("   "),
            400,
            "ERR0003",
            "subscription.plan_name",
        ),
        (
            "plan_name",
            json!("x".repeat(129)),
            400,
            "ERR0003",
            "subscription.plan_name",
        ),
        (
            "has_discount",
            json!(true),
            400,
            "ERR0003",
            "subscription.discount_percentage",
        ),
        (
            "has_trial_period",
            json!(true),
            400,
            "ERR0003",
            "subscription.trial_period_duration",
        ),
        (
            "cycle_type",
            json!(3),
            400,
            "ERR0002",
            "subscription.cycle_type",
        ),
        (
            "plan_desc",
            json!("d".repeat(513)),
            400,
            "ERR0003",
            "subscription.plan_desc",
        ),
    ];
    for (field, value, status, code, named) in edits {
        let mut body = base.clone();
        body["subscription"][field] = value;
        let (got, answer) = emulator.post("subscription/payment", Some(&body)).await;
        let message = failure(got, &answer, status, code);
        assert!(message.contains(named), "{field}: {message}");
    }

    let mut months_trial = base.clone();
    months_trial["subscription"]["has_trial_period"] = json!(true);
    months_trial["subscription"]["trial_period_duration"] = json!(1);
    months_trial["subscription"]["trial_period_duration_type"] = json!("MONTHS");
    let (got, answer) = emulator
        .post("subscription/payment", Some(&months_trial))
        .await;
    let message = failure(got, &answer, 400, "ERR0003");
    assert!(
        message.contains("subscription.trial_period_duration_type"),
        "{message}"
    );

    let mut full_discount = base.clone();
    full_discount["subscription"]["has_discount"] = json!(true);
    full_discount["subscription"]["discount_percentage"] = json!(100);
    full_discount["subscription"]["discount_duration"] = json!(1);
    let (got, answer) = emulator
        .post("subscription/payment", Some(&full_discount))
        .await;
    let message = failure(got, &answer, 400, "ERR0003");
    assert!(
        message.contains("subscription.discount_percentage"),
        "{message}"
    );

    let top_level: [(&str, Value, u16, &str, &str); 5] = [
        (
            "merchant_txn_ref",
            json!("r".repeat(46)),
            400,
            "ERR0003",
            "merchant_txn_ref",
        ),
        ("currency", json!("ABC"), 400, "ERR0003", "currency"),
        ("amount", json!("0"), 400, "ERR0003", "amount"),
        (
            "customer_ip",
            json!("not-an-ip"),
            400,
            "ERR0003",
            "customer_ip",
        ),
        ("subscription", Value::Null, 400, "ERR0002", "subscription"),
    ];
    for (field, value, status, code, named) in top_level {
        let mut body = base.clone();
        body[field] = value;
        let (got, answer) = emulator.post("subscription/payment", Some(&body)).await;
        let message = failure(got, &answer, status, code);
        assert!(message.contains(named), "{field}: {message}");
    }

    let mut bad_card = base.clone();
    bad_card["card"]["number"] = json!("4242424242424241");
    let (got, answer) = emulator.post("subscription/payment", Some(&bad_card)).await;
    let message = failure(got, &answer, 406, "ERR0004");
    assert!(message.contains("card.number"), "{message}");
    assert!(!answer.to_string().contains("4242424242424241"));

    let (_, list) = emulator.get("subscription/list").await;
    assert_eq!(
        list["subscription_details"],
        json!([]),
        "nothing was created"
    );
}

#[tokio::test]
async fn list_and_payment_are_not_taken_for_ids() {
    let emulator = Emulator::start().await;
    let (status, body) = emulator.get("subscription/payment").await;
    failure(status, &body, 405, "ERR0008");
    let (status, body) = emulator.post("subscription/list", None).await;
    failure(status, &body, 405, "ERR0008");
}
