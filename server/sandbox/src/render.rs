//! Renders recorded transactions in the three forms of the contract's transaction response:
//! payment (`risk-details`, billing and device details, token), status (`risk_details`,
//! `responseDescription`, `transaction_details.billing_details`) and webhook (`risk-details: {}`).

use axum::http::StatusCode;

use super::config::SandboxConfig;
use super::ledger::{Outcome, StateSummary, TransactionRecord};
use checkout::wire::{
    AdditionalData, BillingDetails, DeviceDetails, GatewayResponse, GatewayResponseType,
    GatewayTimestamp, MerchantDetails, PaymentDataSource, PaymentDetails, ResponseAmount,
    ResponseCard, RiskDetails, StatusCodeField, TransactionDetails, TransactionRef,
    TransactionResponse,
};

/// HTTP status (and `status_code`) of a payment-form answer: 201 for an approval (a
/// transaction was created), 412 for a decline (the emulator's choice; the body is the full
/// transaction with `success: false` and the response code).
pub fn payment_status(record: &TransactionRecord) -> StatusCode {
    match record.outcome {
        Outcome::Declined(_) => StatusCode::PRECONDITION_FAILED,
        Outcome::Approved | Outcome::Pending => StatusCode::CREATED,
    }
}

/// The answer to `/payment`, `/authorization`, `/capture`, `/refund`, `/void` and the
/// subscription creation. `with_shipping` adds `billing_details.shipping_address`
/// (subscription responses).
pub fn payment_response(
    config: &SandboxConfig,
    record: &TransactionRecord,
    with_shipping: bool,
) -> TransactionResponse {
    let summary = StateSummary::of(record);
    let merchant = &record.merchant;
    TransactionResponse {
        status_code: StatusCodeField::snake(payment_status(record).as_u16()),
        merchant_details: Some(MerchantDetails {
            billing_details: Some(BillingDetails {
                billing_address: Some(merchant.billing_address.clone()),
                shipping_address: if with_shipping {
                    merchant.shipping_address.clone()
                } else {
                    None
                },
            }),
            device_details: Some(DeviceDetails {
                visited_ip: Some(merchant.customer_ip.clone()),
                merchant_ip: merchant.merchant_ip.clone(),
                customer_ip: Some(merchant.customer_ip.clone()),
            }),
            ..merchant_details(config, record)
        }),
        transaction_details: Some(TransactionDetails {
            stored_payment_method_id: Some(record.stored_payment_method_id.clone()),
            ..transaction_details(record)
        }),
        risk_details_hyphen: Some(risk(record)),
        ..envelope(config, record, &summary)
    }
}

/// The answer to `GET /transaction/status/{id}`: status 200, `risk_details`, the current
/// state's code and `responseDescription`, addresses under `transaction_details`.
pub fn status_response(config: &SandboxConfig, record: &TransactionRecord) -> TransactionResponse {
    let summary = StateSummary::of(record);
    let mut payment_details = payment_details(record);
    payment_details.response_description = Some(summary.description.clone());
    TransactionResponse {
        status_code: StatusCodeField::snake(StatusCode::OK.as_u16()),
        payment_details: Some(payment_details),
        transaction_details: Some(TransactionDetails {
            billing_details: Some(BillingDetails {
                billing_address: Some(record.merchant.billing_address.clone()),
                shipping_address: record.merchant.shipping_address.clone(),
            }),
            ..transaction_details(record)
        }),
        risk_details_underscore: Some(risk(record)),
        ..envelope(config, record, &summary)
    }
}

/// The 3DS webhook body: the payment envelope with `risk-details: {}`; `status_code` 200 for
/// an approval (as in the vendor's sample) and 412 for a decline. The token appears in
/// `transaction_details` only when the payment stored a card.
pub fn webhook_body(config: &SandboxConfig, record: &TransactionRecord) -> TransactionResponse {
    let summary = StateSummary::of(record);
    let status = match record.outcome {
        Outcome::Declined(_) => StatusCode::PRECONDITION_FAILED,
        Outcome::Approved | Outcome::Pending => StatusCode::OK,
    };
    TransactionResponse {
        status_code: StatusCodeField::snake(status.as_u16()),
        transaction_details: Some(TransactionDetails {
            stored_payment_method_id: record.stored_payment_method_id.clone().map(Some),
            ..transaction_details(record)
        }),
        risk_details_hyphen: Some(RiskDetails::default()),
        ..envelope(config, record, &summary)
    }
}

/// The fields every form shares; the form-specific ones are filled by the callers.
fn envelope(
    config: &SandboxConfig,
    record: &TransactionRecord,
    summary: &StateSummary,
) -> TransactionResponse {
    let kind = if summary.informative {
        GatewayResponseType::Info
    } else {
        GatewayResponseType::Error
    };
    TransactionResponse {
        success: summary.success,
        status_code: StatusCodeField::default(),
        is_live: Some(false),
        transaction_type: Some(record.kind.transaction_type()),
        gateway_response: GatewayResponse {
            version: Some("1".to_owned()),
            kind,
            code: summary.code.to_owned(),
            message: summary.message.clone(),
        },
        merchant_details: Some(merchant_details(config, record)),
        payment_details: Some(payment_details(record)),
        transaction_details: Some(transaction_details(record)),
        risk_details_hyphen: None,
        risk_details_underscore: None,
        subscription_details: None,
    }
}

fn merchant_details(config: &SandboxConfig, record: &TransactionRecord) -> MerchantDetails {
    MerchantDetails {
        legal_name: Some(config.merchant_legal_name.clone()),
        mid: Some(config.merchant_mid.clone()),
        merchant_txn_ref: Some(record.merchant.merchant_txn_ref.clone()),
        billing_details: None,
        device_details: None,
    }
}

fn payment_details(record: &TransactionRecord) -> PaymentDetails {
    let card = &record.card;
    PaymentDetails {
        amount: ResponseAmount::new(record.amount),
        response_code: record.response_code(),
        auth_code: record.auth_code.clone(),
        currency: record.currency.code.to_owned(),
        payment_method: Some("card".to_owned()),
        scheme: Some(card.scheme.clone()),
        card: Some(ResponseCard {
            name: Some(card.name.clone()),
            number: card.masked_number.clone(),
            exp_month: card.exp_month.clone(),
            exp_year: card.exp_year.clone(),
        }),
        additional_data: Some(AdditionalData {
            payment_data_source: Some(PaymentDataSource {
                kind: "card".to_owned(),
            }),
        }),
        response_description: None,
    }
}

fn transaction_details(record: &TransactionRecord) -> TransactionDetails {
    TransactionDetails {
        id: record.id.to_string(),
        reference: TransactionRef::Number(record.reference),
        timestamp: GatewayTimestamp::from_datetime(record.created_at),
        merchant_txn_ref: Some(record.merchant.merchant_txn_ref.clone()),
        stored_payment_method_id: None,
        billing_details: None,
    }
}

/// `risk_score`: 100 for a risk-rule rejection, 0 otherwise, `null` while pending.
fn risk(record: &TransactionRecord) -> RiskDetails {
    let score = match &record.outcome {
        Outcome::Pending => None,
        Outcome::Declined(decline) if decline.code == super::error::codes::RISK_VELOCITY => {
            Some(100.into())
        }
        Outcome::Approved | Outcome::Declined(_) => Some(0.into()),
    };
    RiskDetails {
        risk_score: Some(score),
    }
}
