//! `/capture`, `/refund` and `/void` on the emulator: their own transactions and codes, the
//! original's status reflecting them, and every refused transition.

use serde_json::{Value, json};

use super::support::{Gateway, Reply, payment_body};

fn amount_body(id: &str, amount: u64) -> Value {
    json!({"transactionId": id, "amount": amount.to_string(), "merchant_id": "merchant-1", "notes": "test"})
}

fn void_body(id: &str) -> Value {
    json!({"transactionId": id, "merchant_id": "merchant-1"})
}

async fn authorize(gateway: &Gateway) -> String {
    let reply = gateway
        .post("authorization", &payment_body("4242424242424242"))
        .await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.id()
}

async fn purchase(gateway: &Gateway) -> String {
    let reply = gateway
        .post("payment", &payment_body("4242424242424242"))
        .await;
    assert_eq!(reply.status, 201, "{}", reply.text);
    reply.id()
}

fn assert_created(reply: &Reply, transaction_type: &str, code: &str, amount: u64) {
    assert_eq!(reply.status, 201, "{}", reply.text);
    assert_eq!(reply.json["success"], true);
    assert_eq!(reply.json["status_code"], 201);
    assert_eq!(reply.json["is_live"], false);
    assert_eq!(reply.json["transaction_type"], transaction_type);
    assert_eq!(reply.code(), code);
    assert_eq!(reply.json["gateway_response"]["version"], "1");
    assert_eq!(reply.json["payment_details"]["amount"], amount);
    assert_eq!(reply.json["payment_details"]["response_code"], 0);
    assert_eq!(
        reply.json["payment_details"]["card"]["number"],
        "424242******4242"
    );
}

async fn description(gateway: &Gateway, id: &str) -> (String, String) {
    let status = gateway.status(id).await;
    assert_eq!(status.status, 200, "{}", status.text);
    (
        status.code().to_owned(),
        status.json["payment_details"]["responseDescription"]
            .as_str()
            .unwrap_or_default()
            .to_owned(),
    )
}

#[tokio::test]
async fn partial_capture_then_partial_refunds() {
    let gateway = Gateway::start().await;
    let auth = authorize(&gateway).await;
    let capture = gateway.post("capture", &amount_body(&auth, 600)).await;
    assert_created(&capture, "CAPTURE", "INFO0001", 600);
    assert_ne!(capture.id(), auth);
    let (code, text) = description(&gateway, &auth).await;
    assert_eq!(
        (code.as_str(), text.as_str()),
        ("INFO0001", "Partially captured")
    );
    let (code, _) = description(&gateway, &capture.id()).await;
    assert_eq!(code, "INFO0001");

    let first = gateway.post("refund", &amount_body(&auth, 200)).await;
    assert_created(&first, "REFUND", "INFO0002", 200);
    let second = gateway
        .post("refund", &amount_body(&capture.id(), 400))
        .await;
    assert_created(&second, "REFUND", "INFO0002", 400);
    let (code, text) = description(&gateway, &auth).await;
    assert_eq!((code.as_str(), text.as_str()), ("INFO0002", "Refunded"));
    let (code, text) = description(&gateway, &first.id()).await;
    assert_eq!((code.as_str(), text.as_str()), ("INFO0002", "Refunded"));
    let status = gateway.status(&second.id()).await;
    assert_eq!(status.json["transaction_type"], "REFUND");
}

#[tokio::test]
async fn full_capture_and_purchase_refunds() {
    let gateway = Gateway::start().await;
    let auth = authorize(&gateway).await;
    let capture = gateway.post("capture", &amount_body(&auth, 1000)).await;
    assert_created(&capture, "CAPTURE", "INFO0001", 1000);
    assert_eq!(description(&gateway, &auth).await.1, "Captured");

    let sale = purchase(&gateway).await;
    let refund = gateway.post("refund", &amount_body(&sale, 250)).await;
    assert_created(&refund, "REFUND", "INFO0002", 250);
    assert_eq!(description(&gateway, &sale).await.1, "Partially refunded");
}

#[tokio::test]
async fn void_of_an_open_authorization() {
    let gateway = Gateway::start().await;
    let auth = authorize(&gateway).await;
    let void = gateway.post("void", &void_body(&auth)).await;
    assert_created(&void, "VOID", "INFO0003", 1000);
    let (code, text) = description(&gateway, &auth).await;
    assert_eq!((code.as_str(), text.as_str()), ("INFO0003", "Voided"));
    let status = gateway.status(&void.id()).await;
    assert_eq!(status.json["transaction_type"], "VOID");
}

#[tokio::test]
async fn every_refused_capture() {
    let gateway = Gateway::start().await;
    let sale = purchase(&gateway).await;
    gateway
        .post("capture", &amount_body(&sale, 1))
        .await
        .failure(400, "ERR1001");
    let auth = authorize(&gateway).await;
    let message = gateway
        .post("capture", &amount_body(&auth, 1001))
        .await
        .failure(400, "ERR1002");
    assert!(message.contains("amount"), "{message}");
    assert_eq!(
        gateway
            .post("capture", &amount_body(&auth, 10))
            .await
            .status,
        201
    );
    gateway
        .post("capture", &amount_body(&auth, 10))
        .await
        .failure(400, "ERR1003");
    let voided = authorize(&gateway).await;
    assert_eq!(gateway.post("void", &void_body(&voided)).await.status, 201);
    gateway
        .post("capture", &amount_body(&voided, 10))
        .await
        .failure(400, "ERR1003");
    let declined = gateway
        .post("authorization", &payment_body("4000000000009995"))
        .await;
    gateway
        .post("capture", &amount_body(&declined.id(), 10))
        .await
        .failure(400, "ERR1007");
    let capture_of_capture = gateway
        .post("capture", &amount_body(&authorize(&gateway).await, 5))
        .await;
    gateway
        .post("capture", &amount_body(&capture_of_capture.id(), 1))
        .await
        .failure(400, "ERR1001");
    let unknown = uuid::Uuid::new_v4().to_string();
    gateway
        .post("capture", &amount_body(&unknown, 1))
        .await
        .failure(404, "ERR0005");
    let mut other_merchant = amount_body(&authorize(&gateway).await, 1);
    other_merchant["merchant_id"] = json!("merchant-2");
    gateway
        .post("capture", &other_merchant)
        .await
        .failure(404, "ERR0005");
}

#[tokio::test]
async fn every_refused_refund() {
    let gateway = Gateway::start().await;
    let auth = authorize(&gateway).await;
    gateway
        .post("refund", &amount_body(&auth, 1))
        .await
        .failure(400, "ERR1004");
    let sale = purchase(&gateway).await;
    gateway
        .post("refund", &amount_body(&sale, 1001))
        .await
        .failure(400, "ERR1005");
    assert_eq!(
        gateway
            .post("refund", &amount_body(&sale, 900))
            .await
            .status,
        201
    );
    let message = gateway
        .post("refund", &amount_body(&sale, 101))
        .await
        .failure(400, "ERR1005");
    assert!(message.contains("100"), "names what is left: {message}");
    let refund = gateway.post("refund", &amount_body(&sale, 100)).await;
    assert_eq!(refund.status, 201);
    gateway
        .post("refund", &amount_body(&refund.id(), 1))
        .await
        .failure(400, "ERR1004");
    let voided = authorize(&gateway).await;
    let void = gateway.post("void", &void_body(&voided)).await;
    gateway
        .post("refund", &amount_body(&void.id(), 1))
        .await
        .failure(400, "ERR1004");
    gateway
        .post("refund", &amount_body(&voided, 1))
        .await
        .failure(400, "ERR1004");
    let declined = gateway
        .post("payment", &payment_body("4000000000000002"))
        .await;
    gateway
        .post("refund", &amount_body(&declined.id(), 1))
        .await
        .failure(400, "ERR1007");
}

#[tokio::test]
async fn every_refused_void() {
    let gateway = Gateway::start().await;
    let sale = purchase(&gateway).await;
    gateway
        .post("void", &void_body(&sale))
        .await
        .failure(400, "ERR1006");
    let captured = authorize(&gateway).await;
    assert_eq!(
        gateway
            .post("capture", &amount_body(&captured, 1))
            .await
            .status,
        201
    );
    gateway
        .post("void", &void_body(&captured))
        .await
        .failure(400, "ERR1006");
    let auth = authorize(&gateway).await;
    let void = gateway.post("void", &void_body(&auth)).await;
    assert_eq!(void.status, 201);
    gateway
        .post("void", &void_body(&auth))
        .await
        .failure(400, "ERR1006");
    gateway
        .post("void", &void_body(&void.id()))
        .await
        .failure(400, "ERR1006");
    let declined = gateway
        .post("authorization", &payment_body("4000000000000119"))
        .await;
    gateway
        .post("void", &void_body(&declined.id()))
        .await
        .failure(400, "ERR1007");
    let state_before = gateway.transaction_count().await;
    gateway
        .post("void", &void_body(&auth))
        .await
        .failure(400, "ERR1006");
    assert_eq!(
        gateway.transaction_count().await,
        state_before,
        "a refusal records nothing"
    );
}

#[tokio::test]
async fn adjustment_requests_are_validated() {
    let gateway = Gateway::start().await;
    let auth = authorize(&gateway).await;
    let message = gateway
        .post("capture", &amount_body(&auth, 0))
        .await
        .failure(400, "ERR0003");
    assert!(message.contains("amount"), "{message}");
    let mut short_id = amount_body("abc", 1);
    let message = gateway
        .post("refund", &short_id)
        .await
        .failure(400, "ERR0003");
    assert!(message.contains("transactionId"), "{message}");
    short_id["transactionId"] = json!("x".repeat(37));
    gateway
        .post("refund", &short_id)
        .await
        .failure(400, "ERR0003");
    let mut no_merchant = void_body(&auth);
    no_merchant["merchant_id"] = json!("");
    let message = gateway
        .post("void", &no_merchant)
        .await
        .failure(400, "ERR0003");
    assert!(message.contains("merchant_id"), "{message}");
    let missing = gateway
        .post(
            "capture",
            &json!({"transactionId": auth, "merchant_id": "merchant-1"}),
        )
        .await;
    let message = missing.failure(400, "ERR0002");
    assert!(message.contains("amount"), "{message}");
    let same_length_unknown = "z".repeat(36);
    gateway
        .post("void", &void_body(&same_length_unknown))
        .await
        .failure(404, "ERR0005");
}

#[tokio::test]
async fn concurrent_refunds_never_exceed_the_captured_amount() {
    let gateway = std::sync::Arc::new(Gateway::start().await);
    let sale = purchase(&gateway).await;
    let tasks: Vec<_> = (0..12)
        .map(|_| {
            let gateway = std::sync::Arc::clone(&gateway);
            let body = amount_body(&sale, 200);
            tokio::spawn(async move { gateway.post("refund", &body).await.status })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.expect("task"));
    }
    assert_eq!(
        statuses.iter().filter(|&&s| s == 201).count(),
        5,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|&&s| s == 400).count(),
        7,
        "{statuses:?}"
    );
    assert_eq!(description(&gateway, &sale).await.1, "Refunded");
}
