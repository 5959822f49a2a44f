//! Completing a 3DS payment: the cardholder's choice (or the frictionless pass) settles the
//! pending transaction, posts the webhook, and says where to send the browser.

use reqwest::Url;

use crate::acs_sessions::DecisionRefused;
use crate::charge::{decide as issuer_decision, settle_token};
use crate::error::codes;
use crate::ledger::{Decline, Outcome, RecordKind, auth_code_for};
use crate::render::webhook_body;
use crate::state::SandboxState;

/// What the cardholder chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Choice {
    /// Authentication succeeded: the issuer then decides as for any charge.
    Approve,
    /// Authentication failed: declined (`ERR2002`, response code 5).
    Reject,
}

/// Why a decision could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecideError {
    /// Unknown token or decided already.
    Refused(DecisionRefused),
    /// The pending transaction is gone: an emulator bug.
    TransactionMissing,
}

/// Settles the session `token` with `choice`; returns the address to redirect the browser to:
/// `success_url` for an approval, `decline_url` otherwise, with `transaction_id` and
/// `merchant_txn_ref` query parameters appended.
pub fn decide(state: &SandboxState, token: &str, choice: Choice) -> Result<String, DecideError> {
    let session = state
        .acs
        .begin_decision(token)
        .map_err(DecideError::Refused)?;
    let now = state.clock.now();
    let outcome = match choice {
        Choice::Approve => issuer_decision(state, &session.card, session.purpose, now),
        Choice::Reject => Outcome::Declined(Decline {
            response_code: 5,
            code: codes::THREE_DS_REJECTED,
            reason: "the cardholder did not complete authentication".to_owned(),
        }),
    };
    let stored = settle_token(
        state,
        &session.card,
        session.store_payment_method,
        &outcome,
        now,
    );
    let approved = outcome == Outcome::Approved;
    let record = state
        .ledger
        .update(&session.transaction_id, |record| {
            record.outcome = outcome;
            record.stored_payment_method_id = stored;
            if approved {
                record.auth_code = Some(auth_code_for(record.reference));
                if record.kind == RecordKind::Purchase {
                    record.money.captured = record.amount;
                }
            }
            record.clone()
        })
        .ok_or(DecideError::TransactionMissing)?;
    let body = webhook_body(&state.config, &record);
    let mut faults = session.webhook_faults.clone();
    faults.extend(state.faults.take_webhook());
    state.webhooks.send(
        state.config.webhook,
        &session.return_url.webhook_url,
        &body,
        faults,
    );
    let target = if approved {
        &session.return_url.success_url
    } else {
        &session.return_url.decline_url
    };
    Ok(with_query(
        target,
        &record.id.to_string(),
        &record.merchant.merchant_txn_ref,
    ))
}

/// Appends `transaction_id` and `merchant_txn_ref` to `url`, keeping its own query and fragment.
fn with_query(url: &str, transaction_id: &str, merchant_txn_ref: &str) -> String {
    match Url::parse(url) {
        Ok(mut parsed) => {
            parsed
                .query_pairs_mut()
                .append_pair("transaction_id", transaction_id)
                .append_pair("merchant_txn_ref", merchant_txn_ref);
            parsed.into()
        }
        // Return addresses are checked when the payment starts, so this is not reached; keep
        // the address usable anyway.
        Err(_) => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_parameters_keeping_the_existing_query() {
        assert_eq!(
            with_query("https://shop.example/ok?order=1#top", "abc", "ref 1&2"),
            "https://shop.example/ok?order=1&transaction_id=abc&merchant_txn_ref=ref+1%262#top"
        );
        assert_eq!(
            with_query("http://127.0.0.1:9/pay/7/success", "abc", "r"),
            "http://127.0.0.1:9/pay/7/success?transaction_id=abc&merchant_txn_ref=r"
        );
    }
}
