//! Counting what happened, from the two sides that know: the gateway emulator's ledger (what
//! reached the gateway, by the session reference it was sent with) and the server's payments
//! in state `blocked` with their `risk_rule`, read through the merchant API
//! (`GET /v1/payments?state=blocked`, page by page). The server's answers to the bot are not
//! trusted for either: a blocked try is answered as an ordinary decline.

use std::collections::{BTreeMap, HashMap, HashSet};

use checkout_sandbox::Sandbox;
use checkout_sandbox::ledger::RecordKind;
use serde_json::Value;

use super::target::MERCHANT_KEY;

/// Charges (sales and authorizations) the emulator recorded for `references`.
pub fn gateway_charges(sandbox: &Sandbox, references: &HashSet<String>) -> usize {
    sandbox
        .state()
        .ledger
        .all()
        .iter()
        .filter(|r| matches!(r.kind, RecordKind::Purchase | RecordKind::Authorization))
        // Each attempt's reference is the session's with `-<attempt number>` appended.
        .filter(|r| {
            r.merchant
                .merchant_txn_ref
                .rsplit_once('-')
                .is_some_and(|(session, n)| {
                    references.contains(session) && n.bytes().all(|b| b.is_ascii_digit())
                })
        })
        .count()
}

/// A blocked payment: its session and rule.
pub struct Blocked {
    pub session_id: String,
    pub rule: String,
}

/// Every blocked payment by id, through the merchant API.
pub async fn blocked_payments(
    http: &reqwest::Client,
    base: &str,
) -> anyhow::Result<HashMap<String, Blocked>> {
    let mut blocked = HashMap::new();
    let mut after: Option<String> = None;
    loop {
        let mut query = vec![("state", "blocked".to_owned()), ("limit", "100".to_owned())];
        if let Some(cursor) = after.take() {
            query.push(("after", cursor));
        }
        let page: Value = http
            .get(format!("{base}/v1/payments"))
            .query(&query)
            .bearer_auth(MERCHANT_KEY)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        for payment in page["data"].as_array().into_iter().flatten() {
            let text = |field: &str| payment[field].as_str().unwrap_or("?").to_owned();
            blocked.insert(
                text("id"),
                Blocked {
                    session_id: text("session_id"),
                    rule: text("risk_rule"),
                },
            );
        }
        match page["next_cursor"].as_str() {
            Some(cursor) => after = Some(cursor.to_owned()),
            None => return Ok(blocked),
        }
    }
}

/// Blocked payments of `sessions`, counted by rule.
pub fn by_rule(
    blocked: &HashMap<String, Blocked>,
    sessions: &HashSet<String>,
) -> BTreeMap<String, usize> {
    let mut rules = BTreeMap::new();
    for payment in blocked
        .values()
        .filter(|b| sessions.contains(&b.session_id))
    {
        *rules.entry(payment.rule.clone()).or_default() += 1;
    }
    rules
}
