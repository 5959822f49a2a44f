//! Fixture tests for the gateway wire types: every sample shape of gateway-interface.md and
//! gateway-notes.md deserialises, and re-serialises with the same field names (compared
//! recursively), and canonical fixtures come back byte-for-byte equal as JSON values.

use std::collections::BTreeSet;
use std::path::PathBuf;

use checkout::card::CardSecret;
use checkout::wire::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Loads `tests/fixtures/gateway/{name}.json`.
pub(crate) fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/gateway")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

pub(crate) fn parse<T: DeserializeOwned>(name: &str) -> (Value, T) {
    let input = fixture(name);
    let typed: T = serde_json::from_value(input.clone())
        .unwrap_or_else(|e| panic!("{name} does not deserialise: {e}"));
    (input, typed)
}

pub(crate) fn reserialise<T: Serialize>(typed: &T) -> Value {
    serde_json::to_value(typed).expect("serialises")
}

/// Asserts both values have the same object keys at every level (arrays item by item).
pub(crate) fn assert_same_keys(expected: &Value, actual: &Value, path: &str) {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            let ek: BTreeSet<&String> = e.keys().collect();
            let ak: BTreeSet<&String> = a.keys().collect();
            assert_eq!(ek, ak, "keys differ at `{path}`");
            for (key, value) in e {
                assert_same_keys(value, &a[key], &format!("{path}.{key}"));
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            assert_eq!(e.len(), a.len(), "array length differs at `{path}`");
            for (i, (ev, av)) in e.iter().zip(a).enumerate() {
                assert_same_keys(ev, av, &format!("{path}[{i}]"));
            }
        }
        (Value::Object(_), other) | (Value::Array(_), other) => {
            panic!("`{path}` became {other}")
        }
        _ => {}
    }
}

/// Canonical fixture: same keys and the very same JSON after a round trip.
pub(crate) fn exact_round_trip<T: DeserializeOwned + Serialize>(name: &str) -> T {
    let (input, typed) = parse::<T>(name);
    let output = reserialise(&typed);
    assert_same_keys(&input, &output, name);
    assert_eq!(input, output, "{name} changed in the round trip");
    typed
}

#[test]
fn payment_requests_round_trip_and_validate() {
    let card: PaymentRequest = exact_round_trip("request_payment_card");
    assert_eq!(card.form(), PaymentForm::Card);
    assert_eq!(card.amount.minor_units(), 1000);
    card.validate(true).expect("card form is valid");
    let browser = card.browser_info.as_ref().expect("browser_info");
    assert!(!browser.java_enabled);
    assert_eq!(browser.challenge_window, "05");

    let store: PaymentRequest = exact_round_trip("request_payment_card_store");
    store.validate(false).expect("store form is valid");
    assert_eq!(
        store
            .payment_method
            .as_ref()
            .and_then(|m| m.store_payment_method),
        Some(true)
    );

    let token: PaymentRequest = exact_round_trip("request_payment_token");
    assert_eq!(token.form(), PaymentForm::Token);
    token.validate(false).expect("token form is valid");

    let v2: PaymentRequest = exact_round_trip("request_payment_v2");
    v2.validate(true).expect("3DS form is valid");
}

#[test]
fn request_card_is_masked_in_debug_but_sent_in_full() {
    let (_, request) = parse::<PaymentRequest>("request_payment_card");
    let shown = format!("{request:?}");
    assert!(!shown.contains("5200000000001005"), "{shown}");
    assert!(!shown.contains("\"123\""), "{shown}");
    let card = request.card.as_ref().expect("card");
    assert_eq!(card.number.expose(), "5200000000001005");
    assert_eq!(reserialise(&request)["card"]["cvc"], "123");
}

#[test]
fn subscription_request_round_trips_and_validates() {
    let request: SubscriptionPaymentRequest = exact_round_trip("request_subscription");
    request.validate().expect("valid");
    assert_eq!(request.subscription.cycle_type, CycleType::Monthly);
    assert_eq!(
        request.subscription.subscription_end_type,
        SubscriptionEndType::Cycle
    );
    assert_eq!(
        request.subscription.trial_period_duration_type,
        TrialPeriodType::Days
    );
}

#[test]
fn adjustment_requests_round_trip() {
    let capture: CaptureRequest = exact_round_trip("request_capture");
    capture.validate().expect("valid");
    assert_eq!(capture.amount.minor_units(), 800);
    let refund: RefundRequest = exact_round_trip("request_refund");
    refund.validate().expect("valid");
    let void: VoidRequest = exact_round_trip("request_void");
    void.validate().expect("valid");
    assert_eq!(void.transaction_id.len(), 36);
}

#[test]
fn payment_responses_round_trip() {
    let payment: TransactionResponse = exact_round_trip("response_payment");
    assert_eq!(payment.status_code.get(), Some(201));
    assert_eq!(payment.transaction_type, Some(TransactionType::PreAuth));
    assert!(payment.is_approved());
    assert!(payment.risk_details_hyphen.is_some() && payment.risk_details_underscore.is_none());
    assert_eq!(
        payment.risk().and_then(|r| r.risk_score.clone()),
        Some(Some(12.into()))
    );
    let details = payment.transaction_details.as_ref().expect("details");
    assert_eq!(details.stored_payment_method_id, Some(None));
    assert_eq!(details.reference, TransactionRef::Number(100245));
    assert!(details.timestamp.parse().is_some());
    let device = payment
        .merchant_details
        .as_ref()
        .and_then(|m| m.device_details.as_ref());
    assert_eq!(
        device.and_then(|d| d.customer_ip.as_deref()),
        Some("203.0.113.7")
    );

    let token: TransactionResponse = exact_round_trip("response_payment_token");
    assert_eq!(token.transaction_type, Some(TransactionType::Capture));
    assert_eq!(
        token.transaction_details.as_ref().and_then(|d| d.token()),
        Some("pm_7f3c9a1e2b4d")
    );

    let auth: TransactionResponse = exact_round_trip("response_authorization");
    assert_eq!(auth.gateway_response.kind, GatewayResponseType::Info);
}

#[test]
fn status_response_keeps_underscore_risk_key_and_billing_details() {
    let status: TransactionResponse = exact_round_trip("response_status");
    assert!(status.risk_details_underscore.is_some() && status.risk_details_hyphen.is_none());
    assert!(status.risk().is_some());
    let payment = status.payment_details.as_ref().expect("payment_details");
    assert_eq!(payment.response_description.as_deref(), Some("Approved"));
    assert_eq!(
        payment.card.as_ref().map(|c| c.number.as_str()),
        Some("520000******1005")
    );
    let details = status
        .transaction_details
        .as_ref()
        .expect("transaction_details");
    assert!(details.stored_payment_method_id.is_none());
    let billing = details.billing_details.as_ref().expect("billing_details");
    assert!(billing.billing_address.is_some() && billing.shipping_address.is_some());
}

#[test]
fn webhook_keeps_empty_risk_object() {
    let webhook: WebhookNotification = exact_round_trip("webhook_notification");
    assert_eq!(webhook.risk(), Some(&RiskDetails::default()));
    assert_eq!(reserialise(&webhook)["risk-details"], serde_json::json!({}));
}

#[test]
fn three_ds_initiation_keeps_camel_status_code() {
    let start: ThreeDsInitiationResponse = exact_round_trip("response_three_ds_initiation");
    assert_eq!(start.status_code.camel, Some(200));
    assert_eq!(start.status_code.get(), Some(200));
    assert!(start.success);
}

#[test]
fn subscription_responses_round_trip() {
    let created: TransactionResponse = exact_round_trip("response_subscription_creation");
    let sub = created
        .subscription_details
        .as_ref()
        .expect("subscription_details");
    assert_eq!(sub.status, SubscriptionStatus::Active);
    assert_eq!(
        (sub.completed_payment_cycle, sub.next_payment_cycle),
        (1, Some(2))
    );
    assert!(sub.last_payment_status.is_none() && sub.subscription_transaction_details.is_none());
    let shipping = created
        .merchant_details
        .as_ref()
        .and_then(|m| m.billing_details.as_ref())
        .and_then(|b| b.shipping_address.as_ref());
    assert!(shipping.is_some());

    for (name, status) in [
        ("response_subscription_pause", SubscriptionStatus::Paused),
        ("response_subscription_resume", SubscriptionStatus::Active),
        (
            "response_subscription_cancel",
            SubscriptionStatus::Cancelled,
        ),
    ] {
        let managed: SubscriptionManagementResponse = exact_round_trip(name);
        assert_eq!(managed.subscription_details.status, status, "{name}");
        assert_eq!(
            managed.gateway_response.as_ref().map(|g| g.code.as_str()),
            Some("INFO3000")
        );
    }

    let retrieved: SubscriptionRetrieveResponse =
        exact_round_trip("response_subscription_retrieve");
    let plan = &retrieved.subscription_details.subscription_plan_details;
    assert_eq!(plan.billing_cycle_type, CycleType::Months);
    assert_eq!(plan.amount.minor_units(), 1000);
    let history = retrieved
        .subscription_details
        .subscription_transaction_details
        .as_ref()
        .expect("history");
    assert_eq!(history[0].amount.minor_units(), 900);
    assert_eq!(history[0].event, SubscriptionEvent::Captured);
    assert_eq!(history[0].status, SubscriptionPaymentStatus::Successful);

    let list: SubscriptionListResponse = exact_round_trip("response_subscription_list");
    let statuses: Vec<_> = list
        .subscription_details
        .iter()
        .map(|s| s.status.clone())
        .collect();
    assert_eq!(
        statuses,
        [
            SubscriptionStatus::Active,
            SubscriptionStatus::Cancelled,
            SubscriptionStatus::Expired
        ]
    );
}

#[test]
fn adjustment_responses_round_trip() {
    for (name, kind, code) in [
        ("response_capture", TransactionType::Capture, "INFO0001"),
        ("response_refund", TransactionType::Refund, "INFO0002"),
        ("response_void", TransactionType::Void, "INFO0003"),
    ] {
        let response: TransactionResponse = exact_round_trip(name);
        assert_eq!(response.transaction_type, Some(kind), "{name}");
        assert_eq!(response.gateway_response.code, code, "{name}");
    }
}

#[test]
fn failure_and_declined_bodies() {
    let failure: FailureBody = exact_round_trip("response_failure");
    assert!(!failure.success);
    assert_eq!(failure.status_code.get(), Some(406));
    assert_eq!(failure.gateway_response.kind, GatewayResponseType::Error);
    assert_eq!(
        reserialise(&FailureBody::new(406, "ERR1006", "Invalid card")),
        fixture("response_failure")
    );

    let declined: TransactionResponse = exact_round_trip("response_payment_declined");
    assert!(!declined.is_approved());
    assert_eq!(declined.response_code(), Some(51));
    assert_eq!(
        declined
            .payment_details
            .as_ref()
            .and_then(|p| p.auth_code.clone()),
        None
    );
}

#[test]
fn invalid_requests_name_the_field() {
    let (_, mut both) = parse::<PaymentRequest>("request_payment_card");
    both.payment_method = Some(PaymentMethod::token("pm_1"));
    assert_eq!(
        both.validate(false).unwrap_err().field,
        "payment_method.stored_payment_method_id"
    );

    let (_, mut no_return) = parse::<PaymentRequest>("request_payment_v2");
    no_return.return_url = None;
    assert_eq!(no_return.validate(true).unwrap_err().field, "return_url");
    assert!(no_return.validate(false).is_ok());

    let (_, mut long_ref) = parse::<PaymentRequest>("request_payment_card");
    long_ref.merchant_txn_ref = "r".repeat(46);
    assert_eq!(
        long_ref.validate(false).unwrap_err().field,
        "merchant_txn_ref"
    );

    let (_, mut token_with_browser) = parse::<PaymentRequest>("request_payment_token");
    token_with_browser.browser_info = parse::<PaymentRequest>("request_payment_card")
        .1
        .browser_info;
    assert_eq!(
        token_with_browser.validate(false).unwrap_err().field,
        "browser_info"
    );

    let (_, mut bad_cvc) = parse::<PaymentRequest>("request_payment_card");
    if let Some(card) = bad_cvc.card.as_mut() {
        card.cvc = CardSecret::new("12");
    }
    let error = bad_cvc.validate(false).unwrap_err();
    assert_eq!(error.field, "card.cvc");
    assert!(!error.to_string().contains("12\""));

    let (_, mut plan) = parse::<SubscriptionPaymentRequest>("request_subscription");
    plan.subscription.discount_percentage = 101;
    assert_eq!(
        plan.validate().unwrap_err().field,
        "subscription.discount_percentage"
    );

    let (_, mut capture) = parse::<CaptureRequest>("request_capture");
    capture.amount = RequestAmount::new(0);
    assert_eq!(capture.validate().unwrap_err().field, "amount");
}

#[test]
fn malformed_amounts_are_rejected() {
    let mut body = fixture("request_payment_card");
    body["amount"] = serde_json::json!("10.50");
    let error = serde_json::from_value::<PaymentRequest>(body)
        .unwrap_err()
        .to_string();
    assert!(error.contains("minor units"), "{error}");
}
