//! `GET /payments/export.csv`: the payments the list's filters select (the same query
//! parameters as `/payments`, read by the same [`Filters`]), newest first, as CSV streamed
//! from the store in keyset batches of [`PaymentLine`]s (only the fields that leave): memory
//! stays that of one batch whatever the size of the set. Any staff role may export; every
//! export is written to the audit log with its filters.
//!
//! What leaves: ids, times (RFC 3339, UTC), reference, state, amounts in minor units and in
//! the currency's major unit, the card as brand, first six and last four only, the customer,
//! and the decline reason. A cell starting with `=`, `+`, `-`, `@`, tab or carriage return is
//! prefixed with `'` so a spreadsheet never reads it as a formula.

use std::borrow::Cow;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Query, RawQuery, State};
use axum::http::HeaderValue;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use futures_util::stream;

use super::audit::{Actor, record};
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::money;
use super::pages::filters::Filters;
use super::pages::format;
use super::state::DashboardState;
use crate::store::model::{PaymentLine, PaymentQuery};
use crate::store::prelude::*;
use crate::store::transitions::state_name;

/// Rows read from the store per batch.
pub const BATCH: u32 = 1_000;

/// The header row.
pub const COLUMNS: [&str; 14] = [
    "id",
    "created_at",
    "reference",
    "state",
    "currency",
    "amount_minor",
    "amount",
    "captured_minor",
    "refunded_minor",
    "card_brand",
    "card_first6",
    "card_last4",
    "customer_id",
    "decline_reason",
];

/// Longest filter text kept in the audit line.
const AUDIT_QUERY_CHARS: usize = 300;

/// `GET /payments/export.csv`.
pub async fn csv(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Query(filters): Query<Filters>,
    RawQuery(raw): RawQuery,
) -> Result<Response, DashboardError> {
    let mut query = filters.query()?;
    query.after = None;
    query.limit = BATCH;
    query.bulk = true;
    let detail: String = raw
        .unwrap_or_default()
        .chars()
        .take(AUDIT_QUERY_CHARS)
        .collect();
    record(
        &state,
        &Actor::staff(&staff, address),
        "export",
        None,
        "ok",
        Some(format!("payments.csv?{detail}")),
    )
    .await;
    let name = format!(
        "attachment; filename=\"payments-{}.csv\"",
        time::OffsetDateTime::now_utc().date()
    );
    let disposition = HeaderValue::from_str(&name)
        .map_err(|_| DashboardError::Internal("content-disposition".into()))?;
    Ok((
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            (CONTENT_DISPOSITION, disposition),
        ],
        Body::from_stream(batches(state.app.store.clone(), query)),
    )
        .into_response())
}

/// Where the stream stands between batches.
enum Next {
    /// The header is still to be written, then the batch `query` asks for.
    Header(PaymentQuery),
    /// The batch `query` asks for.
    Batch(PaymentQuery),
    /// Nothing left.
    Done,
}

/// The CSV, one chunk per batch (the first with the header row). A failing read ends the
/// stream with an error, so the client sees a broken download, never a short file that looks
/// whole.
pub fn batches(
    store: Arc<dyn Store>,
    query: PaymentQuery,
) -> impl futures_util::Stream<Item = Result<Vec<u8>, std::io::Error>> + Send {
    stream::unfold(Next::Header(query), move |next| {
        let store = store.clone();
        async move {
            let (header, mut query) = match next {
                Next::Header(query) => (true, query),
                Next::Batch(query) => (false, query),
                Next::Done => return None,
            };
            let page = match store.payment_lines(query.clone()).await {
                Ok(page) => page,
                Err(error) => {
                    tracing::error!(%error, "payments export failed");
                    return Some((Err(std::io::Error::other(error.to_string())), Next::Done));
                }
            };
            let chunk = encode(header, &page.items);
            let next = match page.next {
                Some(cursor) => {
                    query.after = Some(cursor);
                    Next::Batch(query)
                }
                None => Next::Done,
            };
            Some((chunk, next))
        }
    })
}

/// `rows` as CSV lines, after the header row when `header`.
pub fn encode(header: bool, rows: &[PaymentLine]) -> Result<Vec<u8>, std::io::Error> {
    let mut writer = csv::Writer::from_writer(Vec::with_capacity(rows.len() * 160 + 256));
    if header {
        writer.write_record(COLUMNS)?;
    }
    for p in rows {
        let brand = p
            .card_brand
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default();
        let created = format::iso(p.created_at);
        let cells = [
            safe(&p.id),
            safe(&created),
            safe(&p.merchant_txn_ref),
            safe(state_name(p.state)),
            safe(&p.currency),
            Cow::Owned(p.amount.to_string()),
            Cow::Owned(money::major_text(p.amount, &p.currency)),
            Cow::Owned(p.captured_amount.to_string()),
            Cow::Owned(p.refunded_amount.to_string()),
            safe(&brand),
            safe(p.card_bin.as_ref().map_or("", |b| b.as_str())),
            safe(p.card_last4.as_ref().map_or("", |l| l.as_str())),
            safe(p.customer_id.as_deref().unwrap_or("")),
            safe(p.decline_code.map_or("", decline_text)),
        ];
        writer.write_record(cells.iter().map(|cell| cell.as_bytes()))?;
    }
    writer.into_inner().map_err(|e| e.into_error())
}

fn decline_text(code: checkout::contract::DeclineCode) -> &'static str {
    super::overview::reasons::describe(code).0
}

/// `cell`, with a `'` before it when a spreadsheet would take it for a formula (borrowed
/// as it is otherwise).
pub fn safe(cell: &str) -> Cow<'_, str> {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => Cow::Owned(format!("'{cell}")),
        _ => Cow::Borrowed(cell),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formula_cells_are_neutralised() {
        assert_eq!(safe("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(safe("+1"), "'+1");
        assert_eq!(safe("-2+3"), "'-2+3");
        assert_eq!(safe("@SUM(A1)"), "'@SUM(A1)");
        assert_eq!(safe("\tx"), "'\tx");
        assert_eq!(safe("order-1"), "order-1");
        assert_eq!(safe(""), "");
    }

    #[test]
    fn the_header_comes_once() {
        let header = String::from_utf8(encode(true, &[]).expect("csv")).expect("utf-8");
        assert_eq!(header.trim_end(), COLUMNS.join(","));
        assert!(encode(false, &[]).expect("csv").is_empty());
    }
}
