//! What the issue-45 tests share: the gateway's ledger read per session (each attempt's
//! `merchant_txn_ref` is the session's reference with its number), a bank that approves a
//! 3-D Secure attempt while the shopper never comes back, the events a shop receives, and the
//! backend samples' order rule run on them.

use std::io::Write as _;
use std::process::{Command, Stdio};

use checkout_sandbox::ledger::RecordKind;
use checkout_server::events::render;
use serde_json::{Value, json};

use crate::api::support::{Harness, TestSession, eventually, of_session, param};
use crate::ops::support::arm;
use crate::sandbox::support::AcsForm;

/// A charge the gateway holds for a session: approved, not voided, not refunded in full.
#[derive(Debug, Clone)]
pub struct LiveCharge {
    /// The attempt's reference as the gateway saw it.
    pub merchant_txn_ref: String,
    /// What is still taken or reserved, minor units.
    pub amount: u64,
}

/// The charges the gateway holds for the session whose reference is `reference`.
pub fn live_charges(h: &Harness, reference: &str) -> Vec<LiveCharge> {
    h.sandbox
        .ledger
        .all()
        .iter()
        .filter(|r| of_session(&r.merchant.merchant_txn_ref, reference) && r.is_approved())
        .filter(|r| matches!(r.kind, RecordKind::Purchase | RecordKind::Authorization))
        .filter(|r| !r.money.voided)
        .filter_map(|r| {
            let reserved = r.kind == RecordKind::Authorization && r.money.captured == 0;
            let amount = if reserved {
                r.amount
            } else {
                r.money.captured.saturating_sub(r.money.refunded)
            };
            (amount > 0).then(|| LiveCharge {
                merchant_txn_ref: r.merchant.merchant_txn_ref.to_string(),
                amount,
            })
        })
        .collect()
}

/// What the gateway holds for the session whose reference is `reference`, in all.
pub fn held(h: &Harness, reference: &str) -> u64 {
    live_charges(h, reference).iter().map(|c| c.amount).sum()
}

/// The ids of `session`'s payments, oldest first.
pub async fn attempt_ids(h: &Harness, session: &TestSession) -> Vec<String> {
    let mut ids: Vec<String> = h
        .stored_payments(session)
        .await
        .into_iter()
        .map(|p| p.id)
        .collect();
    ids.reverse();
    ids
}

/// Waits until payment `id` is in `state` (merchant view) and returns that view.
pub async fn until_state(h: &Harness, id: &str, state: &str) -> Value {
    eventually(
        &format!("payment {id} {state}"),
        std::time::Duration::from_secs(5),
        || async {
            let view = h.payment(id).await;
            (view["state"] == state).then_some(view)
        },
    )
    .await
}

/// The shopper's way to the bank and back, without waiting for it: the session's 3-D Secure
/// redirects are dated back past the double-click guard (within it a second pay is the same
/// click and answered `payment_in_progress`).
pub async fn back_from_the_bank(h: &Harness, session: &TestSession) {
    h.execute(&format!(
        "UPDATE payments SET redirected_at = redirected_at - 5000 \
         WHERE session_id = '{}' AND redirected_at IS NOT NULL",
        session.id
    ))
    .await;
}

/// The bank decides `decision` on the attempt at `redirect` while the shopper never comes
/// back (the tab was closed): the ACS form is submitted and its redirect back not followed.
/// With `lose_webhook` the gateway's webhook is lost too. The transaction id, if approved.
pub async fn bank_decides_unseen(
    h: &Harness,
    redirect: &str,
    decision: &str,
    lose_webhook: bool,
) -> Option<String> {
    if lose_webhook {
        arm(h, "webhook=drop-webhook*1");
    }
    let page = h.browser.get(redirect).send().await.expect("ACS");
    let html = page.text().await.expect("ACS html");
    let answer = AcsForm::parse(&html).submit(&h.api, decision).await;
    answer
        .headers()
        .get(reqwest::header::LOCATION)
        .and_then(|l| l.to_str().ok())
        .and_then(|l| reqwest::Url::parse(l).ok())
        .and_then(|back| param(&back, "transaction_id"))
}

/// Every event about `session` and its payments, as the shop receives them, in the order
/// they were written.
pub async fn shop_events(h: &Harness, session_id: &str) -> Vec<Value> {
    let mut ids = vec![session_id.to_owned()];
    ids.extend(
        h.state
            .payments
            .session_payments(session_id, 50)
            .await
            .expect("payments")
            .items
            .into_iter()
            .map(|p| p.id),
    );
    let mut stored = Vec::new();
    for id in ids {
        stored.extend(h.store().object_events(&id).await.expect("events"));
    }
    stored.sort_by_key(|e| e.seq);
    stored
        .iter()
        .map(|e| {
            let body = render(e, &h.state.config.plans).expect("rendered");
            serde_json::to_value(body).expect("json")
        })
        .collect()
}

/// Runs `first` and then `second` as two transactions that overlap where the backend allows
/// it: on PostgreSQL `second` starts while `first` is still uncommitted, and `first` commits
/// a moment later (whatever `second` waits for); SQLite has one writer, so they run one after
/// the other. Whether they overlapped.
pub async fn overlapping(h: &Harness, first: &str, second: &str) -> bool {
    if h.sqlite_path.is_some() {
        h.execute(first).await;
        h.execute(second).await;
        return false;
    }
    let pool = sqlx::PgPool::connect(&h.database_url).await.expect("db");
    let mut one = pool.begin().await.expect("begin");
    sqlx::query(first).execute(&mut *one).await.expect("first");
    let other = pool.clone();
    let second = second.to_owned();
    let two = tokio::spawn(async move {
        let mut two = other.begin().await.expect("begin");
        sqlx::query(&second)
            .execute(&mut *two)
            .await
            .expect("second");
        two.commit().await.expect("second commits");
    });
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    one.commit().await.expect("first commits");
    two.await.expect("second ran");
    pool.close().await;
    true
}

/// `session.completed` events among `events`.
pub fn completions(events: &[Value]) -> Vec<&Value> {
    events
        .iter()
        .filter(|e| e["type"] == "session.completed")
        .collect()
}

/// A backend sample whose order rule the tests run.
#[derive(Debug, Clone, Copy)]
pub enum Sample {
    /// examples/backend-python (`replay.py`).
    Python,
    /// examples/backend-node (`replay.mjs`).
    Node,
}

/// The order the sample makes of `events` for a session of `amount` JPY: its view as JSON.
pub fn replay(sample: Sample, session_id: &str, amount: u64, events: &[Value]) -> Value {
    let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../examples");
    let (program, script, dir) = match sample {
        Sample::Python => ("python3", "replay.py", "backend-python"),
        Sample::Node => ("node", "replay.mjs", "backend-node"),
    };
    let mut child = Command::new(program)
        .arg(script)
        .current_dir(format!("{examples}/{dir}"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{program} runs the {dir} sample: {e}"));
    let input = json!({
        "order": {"amount": amount, "currency": "JPY", "session_id": session_id},
        "events": events,
    });
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.to_string().as_bytes())
        .expect("events written");
    let output = child.wait_with_output().expect("sample ran");
    assert!(output.status.success(), "{dir} replay failed");
    serde_json::from_slice(&output.stdout).expect("the order as JSON")
}
