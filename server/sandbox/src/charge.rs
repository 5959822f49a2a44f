//! Charging a card or a stored token: the one path `/payment`, `/authorization`, the 3DS
//! endpoints and subscription billing share. It applies the test-card behaviour, stores the
//! card when asked, and records the transaction so `/transaction/status` finds it.

use std::sync::Arc;

use axum::http::StatusCode;
use checkout::card::YearMonth;
use time::OffsetDateTime;
use uuid::Uuid;

use super::card_check::{CardSnapshot, ValidatedCard};
use super::charge_card::{ChargeCard, ChargePurpose};
use super::error::{SandboxError, codes};
use super::ledger::{
    Decline, MerchantContext, MoneyState, Outcome, RecordKind, StateSummary, TransactionRecord,
    auth_code_for,
};
use super::render::{payment_response, payment_status};
use super::state::SandboxState;
use super::test_cards::{CardBehaviour, EXPIRED_CARD, INSUFFICIENT_FUNDS, behaviour_of};
use checkout::currency::Currency;
use checkout::wire::{Address, TransactionResponse, TransactionType};

/// What pays: full card details or a token from an earlier stored payment.
#[derive(Debug, Clone)]
pub enum ChargeSource {
    /// Validated card details (card form).
    Card(ValidatedCard),
    /// A `stored_payment_method_id` (token form).
    Token(String),
}

/// Everything a charge needs. Build `card` with [`ValidatedCard::from_wire`].
#[derive(Debug, Clone)]
pub struct ChargeRequest {
    /// Amount in minor units (validated positive).
    pub amount: u64,
    /// A known currency.
    pub currency: Currency,
    /// Card or token.
    pub source: ChargeSource,
    /// Store the card and return a token (card form only; ignored for tokens).
    pub store_payment_method: bool,
    /// `merchant_id` as sent.
    pub merchant_id: String,
    /// `merchant_txn_ref` as sent.
    pub merchant_txn_ref: String,
    /// `billing_address` as sent.
    pub billing_address: Address,
    /// `shipping_address` as sent.
    pub shipping_address: Option<Address>,
    /// `customer_ip` as sent.
    pub customer_ip: String,
    /// The caller's address, when known (`device_details.merchant_ip`).
    pub merchant_ip: Option<String>,
    /// `CAPTURE` (purchase) or `PRE_AUTH` (authorization only); anything else is treated as
    /// a purchase.
    pub transaction_type: TransactionType,
    /// Payment or subscription cycle.
    pub purpose: ChargePurpose,
}

/// The recorded result of a charge.
#[derive(Debug, Clone)]
pub struct ChargeOutcome {
    /// `transaction_details.id`.
    pub transaction_id: Uuid,
    /// `transaction_details.ref`.
    pub reference: u64,
    /// Approved (`response_code` 0).
    pub approved: bool,
    /// `payment_details.response_code`.
    pub response_code: i64,
    /// `gateway_response.code` (`INFO0000`, `ERR2001`, `ERR3010`).
    pub gateway_code: &'static str,
    /// `gateway_response.message`.
    pub gateway_message: String,
    /// The token created by this charge, or the token it was paid with.
    pub stored_payment_method_id: Option<String>,
    /// When it was recorded (sandbox clock).
    pub charged_at: OffsetDateTime,
    /// The card's test behaviour (the HTTP handler delays its answer for [`CardBehaviour::Hang`]).
    pub behaviour: CardBehaviour,
    record: TransactionRecord,
}

impl ChargeOutcome {
    /// HTTP status of the payment answer: 201 approved, 412 declined.
    pub fn http_status(&self) -> StatusCode {
        payment_status(&self.record)
    }

    /// The payment-form transaction response (`with_shipping` for subscription creation).
    pub fn to_response(&self, state: &SandboxState, with_shipping: bool) -> TransactionResponse {
        payment_response(&state.config, &self.record, with_shipping)
    }

    /// The transaction as recorded.
    pub fn record(&self) -> &TransactionRecord {
        &self.record
    }
}

/// Charges `request.source` and records the transaction. Fails only for an unknown token
/// (400, `ERR0007`); declines are outcomes, not errors.
pub fn charge(state: &SandboxState, request: ChargeRequest) -> Result<ChargeOutcome, SandboxError> {
    let now = state.clock.now();
    let card = ChargeCard::resolve(state, &request.source)?;
    let outcome = decide(state, &card, request.purpose, now);
    let token = settle_token(state, &card, request.store_payment_method, &outcome, now);
    let kind = record_kind(&request.transaction_type);
    let record = new_record(
        state,
        &request,
        kind,
        Arc::clone(&card.snapshot),
        outcome,
        token,
        now,
    );
    state.ledger.insert(record.clone());
    Ok(ChargeOutcome::from_record(record, card.behaviour))
}

impl ChargeOutcome {
    pub(crate) fn from_record(record: TransactionRecord, behaviour: CardBehaviour) -> Self {
        let summary = StateSummary::of(&record);
        Self {
            transaction_id: record.id,
            reference: record.reference,
            approved: record.is_approved(),
            response_code: record.response_code(),
            gateway_code: summary.code,
            gateway_message: summary.message,
            stored_payment_method_id: record.stored_payment_method_id.clone(),
            charged_at: record.created_at,
            behaviour,
            record,
        }
    }
}

impl ChargeCard {
    /// Looks the token up, or takes the validated card (dropping its CVC).
    pub fn resolve(state: &SandboxState, source: &ChargeSource) -> Result<Self, SandboxError> {
        match source {
            ChargeSource::Card(card) => Ok(Self {
                behaviour: behaviour_of(card.number.secret().expose()),
                number: card.number.clone(),
                expiry: card.expiry,
                snapshot: Arc::new(card.snapshot()),
                token_used: None,
            }),
            ChargeSource::Token(token) => {
                let stored = state.tokens.get(token).ok_or_else(|| {
                    SandboxError::refused(
                        codes::UNKNOWN_TOKEN,
                        "`payment_method.stored_payment_method_id` names no stored card",
                    )
                })?;
                Ok(Self {
                    behaviour: behaviour_of(stored.number.secret().expose()),
                    number: stored.number,
                    expiry: stored.expiry,
                    snapshot: Arc::new(stored.snapshot),
                    token_used: Some(token.clone()),
                })
            }
        }
    }
}

/// The emulated issuer's and risk engine's answer for `card`.
pub(crate) fn decide(
    state: &SandboxState,
    card: &ChargeCard,
    purpose: ChargePurpose,
    now: OffsetDateTime,
) -> Outcome {
    let issuer = |decline: super::test_cards::IssuerDecline| {
        Outcome::Declined(Decline {
            response_code: decline.response_code,
            code: codes::ISSUER_DECLINED,
            reason: decline.description.to_owned(),
        })
    };
    if card.token_used.is_some() && card.expiry.is_expired_at(YearMonth::of(now)) {
        return issuer(EXPIRED_CARD);
    }
    match card.behaviour {
        CardBehaviour::Decline(decline) => issuer(decline),
        CardBehaviour::Velocity => {
            if state
                .velocity
                .record_use(card.number.secret().expose(), now)
            {
                Outcome::Approved
            } else {
                Outcome::Declined(Decline {
                    response_code: -8009,
                    code: codes::RISK_VELOCITY,
                    reason: "the same card was used more than twice in ten minutes".to_owned(),
                })
            }
        }
        CardBehaviour::ApproveOnce => {
            let reuse = card.token_used.is_some()
                || matches!(purpose, ChargePurpose::SubscriptionCycle { cycle } if cycle > 1);
            if reuse {
                issuer(INSUFFICIENT_FUNDS)
            } else {
                Outcome::Approved
            }
        }
        CardBehaviour::Approve
        | CardBehaviour::Hang
        | CardBehaviour::Frictionless
        | CardBehaviour::Challenge => Outcome::Approved,
    }
}

/// Stores the card when asked and approved; otherwise keeps the token that paid, if any.
pub(crate) fn settle_token(
    state: &SandboxState,
    card: &ChargeCard,
    store: bool,
    outcome: &Outcome,
    now: OffsetDateTime,
) -> Option<String> {
    match &card.token_used {
        Some(token) => Some(token.clone()),
        None if store && *outcome == Outcome::Approved => Some(state.tokens.store(
            &card.number,
            card.expiry,
            &card.snapshot,
            now,
        )),
        None => None,
    }
}

/// Purchase for `CAPTURE`, authorization for `PRE_AUTH`.
pub(crate) fn record_kind(transaction_type: &TransactionType) -> RecordKind {
    match transaction_type {
        TransactionType::PreAuth => RecordKind::Authorization,
        TransactionType::Capture
        | TransactionType::Refund
        | TransactionType::Void
        | TransactionType::Other(_) => RecordKind::Purchase,
    }
}

/// A new purchase or authorization record for `request`.
pub(crate) fn new_record(
    state: &SandboxState,
    request: &ChargeRequest,
    kind: RecordKind,
    card: Arc<CardSnapshot>,
    outcome: Outcome,
    stored_payment_method_id: Option<String>,
    now: OffsetDateTime,
) -> TransactionRecord {
    let reference = state.ledger.next_reference();
    let approved = outcome == Outcome::Approved;
    let captured = if approved && kind == RecordKind::Purchase {
        request.amount
    } else {
        0
    };
    TransactionRecord {
        id: Uuid::new_v4(),
        reference,
        kind,
        created_at: now,
        amount: request.amount,
        currency: request.currency,
        outcome,
        auth_code: approved.then(|| auth_code_for(reference)),
        card,
        stored_payment_method_id,
        merchant: Arc::new(MerchantContext {
            merchant_id: request.merchant_id.clone(),
            merchant_txn_ref: request.merchant_txn_ref.clone(),
            customer_ip: request.customer_ip.clone(),
            merchant_ip: request.merchant_ip.clone(),
            billing_address: request.billing_address.clone(),
            shipping_address: request.shipping_address.clone(),
        }),
        parent: None,
        money: MoneyState {
            captured,
            ..MoneyState::default()
        },
    }
}
