//! Fixture tests for the tolerance real traffic needs: amounts and refs in either JSON type,
//! nulls, unknown fields and enum values, either status-code key, four-digit years.

use checkout::wire::*;
use serde_json::Value;

use super::wire::{assert_same_keys, exact_round_trip, parse, reserialise};

/// Removes keys starting with `unknown_` at every level.
fn without_unknown(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(k, _)| !k.starts_with("unknown_"))
                .map(|(k, v)| (k.clone(), without_unknown(v)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(without_unknown).collect()),
        other => other.clone(),
    }
}

#[test]
fn amount_as_string_is_read_and_written_as_number_in_responses() {
    let (input, response) = parse::<TransactionResponse>("variant_response_amount_string");
    let output = reserialise(&response);
    assert_same_keys(&input, &output, "variant_response_amount_string");
    assert_eq!(output["payment_details"]["amount"], serde_json::json!(1000));
}

#[test]
fn amount_as_number_is_read_and_written_as_string_in_requests() {
    let (input, request) = parse::<PaymentRequest>("variant_request_amount_number");
    let output = reserialise(&request);
    assert_same_keys(&input, &output, "variant_request_amount_number");
    assert_eq!(output["amount"], serde_json::json!("1000"));
}

#[test]
fn ref_as_string_is_kept_as_string() {
    let response: TransactionResponse = exact_round_trip("variant_response_ref_string");
    let reference = &response
        .transaction_details
        .as_ref()
        .expect("details")
        .reference;
    assert_eq!(reference, &TransactionRef::Text("100245".into()));
    assert_eq!(reference.as_u64(), Some(100245));
}

#[test]
fn nulls_are_accepted_and_written_back_as_null() {
    let response: TransactionResponse = exact_round_trip("variant_response_nulls");
    let payment = response.payment_details.as_ref().expect("payment_details");
    assert!(
        payment.auth_code.is_none() && payment.payment_method.is_none() && payment.scheme.is_none()
    );
    assert_eq!(
        response.risk().and_then(|r| r.risk_score.clone()),
        Some(None)
    );
    let details = response.transaction_details.as_ref().expect("details");
    assert_eq!(details.token(), None);
}

#[test]
fn unknown_fields_are_ignored_and_unknown_enum_values_kept() {
    let (input, response) = parse::<TransactionResponse>("variant_response_unknown_fields");
    let output = reserialise(&response);
    let expected = without_unknown(&input);
    assert_same_keys(&expected, &output, "variant_response_unknown_fields");
    assert_eq!(expected, output);
    assert_eq!(
        response.transaction_type,
        Some(TransactionType::Other("SETTLEMENT".into()))
    );
}

#[test]
fn status_code_key_is_kept_as_read() {
    let start: ThreeDsInitiationResponse = exact_round_trip("variant_three_ds_snake_status");
    assert_eq!(
        (start.status_code.snake, start.status_code.camel),
        (Some(200), None)
    );
    assert_eq!(start.is_live, Some(false));
    let payment: TransactionResponse = exact_round_trip("variant_response_camel_status");
    assert_eq!(payment.status_code.get(), Some(201));
    assert!(reserialise(&payment).get("status_code").is_none());
}

#[test]
fn four_digit_expiry_year_is_accepted() {
    let request: PaymentRequest = exact_round_trip("variant_request_four_digit_year");
    request.validate(false).expect("four-digit year accepted");
}

#[test]
fn subscription_tolerates_drifting_types_and_unknown_status() {
    let (input, response) =
        parse::<SubscriptionRetrieveResponse>("variant_subscription_retrieve_tolerant");
    let output = reserialise(&response);
    assert_same_keys(&input, &output, "variant_subscription_retrieve_tolerant");
    let sub = &response.subscription_details;
    assert_eq!(sub.status, SubscriptionStatus::Other("SUSPENDED".into()));
    assert_eq!(
        sub.subscription_plan_details.trial_period_duration_type,
        TrialPeriodType::NoTrial
    );
    assert_eq!(
        output["subscription_details"]["subscription_plan_details"]["plan_discount_percentage"],
        serde_json::json!(12.5)
    );
    let item = &output["subscription_details"]["subscription_transaction_details"][0];
    assert_eq!(
        (item["ref"].clone(), item["amount"].clone()),
        (serde_json::json!("100247"), serde_json::json!(900))
    );
}
