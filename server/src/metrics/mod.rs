//! `/metrics` in the Prometheus text format (version 0.0.4), hand-rolled on atomics.
//!
//! | metric | type | source |
//! |---|---|---|
//! | `checkout_payments{state}` | gauge | the store: payments by state (outcome) |
//! | `checkout_webhook_events{verdict}` | gauge | the store: webhook deliveries by verdict |
//! | `checkout_reconciler_lag_seconds` | gauge | the store: how long the oldest overdue check has waited |
//! | `checkout_reconciler_backlog{kind}` | gauge | the store: payments / subscriptions overdue |
//! | `checkout_reconciler_events_total{event}` | counter | this process's reconciler |
//! | `checkout_reconciler_last_pass_timestamp_seconds` | gauge | this process's reconciler |
//! | `checkout_gateway_request_duration_seconds{endpoint}` | histogram | every gateway HTTP attempt |
//! | `checkout_gateway_requests_total{endpoint,result}` | counter | every gateway HTTP attempt |
//! | `checkout_http_requests_total{route,method,status}` | counter | every request served |
//! | `checkout_http_request_duration_seconds{route}` | histogram | every request served |
//! | `checkout_store_up` | gauge | 1 when the store answered the queries above |
//!
//! Store figures cover the whole database (every instance); counters cover this process.

pub mod gateway;
pub mod histogram;
pub mod http;
pub mod reconcile;

use std::fmt::Write as _;

use time::OffsetDateTime;

use crate::store::Store;
use crate::store::transitions::state_name;

/// The `Content-Type` of the exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Every metric, as the text `/metrics` answers.
pub async fn render(store: &dyn Store) -> String {
    let mut out = String::with_capacity(8 * 1024);
    let store_up = write_store_figures(&mut out, store).await;
    out.push_str(
        "# HELP checkout_store_up Whether the store answered the queries of this scrape.\n",
    );
    out.push_str("# TYPE checkout_store_up gauge\n");
    let _ = writeln!(out, "checkout_store_up {}", u8::from(store_up));
    reconcile::write(&mut out);
    gateway::write(&mut out);
    http::write(&mut out);
    out
}

async fn write_store_figures(out: &mut String, store: &dyn Store) -> bool {
    let now = OffsetDateTime::now_utc();
    let (payments, webhooks, backlog) = match tokio::try_join!(
        store.count_payments_by_state(),
        store.count_webhooks_by_verdict(),
        store.reconcile_backlog(now),
    ) {
        Ok(figures) => figures,
        Err(error) => {
            tracing::warn!(%error, "metrics: the store did not answer");
            return false;
        }
    };
    out.push_str("# HELP checkout_payments Payments in the store, by state.\n");
    out.push_str("# TYPE checkout_payments gauge\n");
    for (state, count) in payments {
        let _ = writeln!(
            out,
            "checkout_payments{{state=\"{}\"}} {count}",
            state_name(state)
        );
    }
    out.push_str("# HELP checkout_webhook_events Webhook deliveries received, by verdict.\n");
    out.push_str("# TYPE checkout_webhook_events gauge\n");
    for (verdict, count) in webhooks {
        let _ = writeln!(
            out,
            "checkout_webhook_events{{verdict=\"{}\"}} {count}",
            verdict.as_str()
        );
    }
    out.push_str(
        "# HELP checkout_reconciler_backlog Items due for the reconciler and not yet handled.\n",
    );
    out.push_str("# TYPE checkout_reconciler_backlog gauge\n");
    let _ = writeln!(
        out,
        "checkout_reconciler_backlog{{kind=\"payments\"}} {}",
        backlog.payments_due
    );
    let _ = writeln!(
        out,
        "checkout_reconciler_backlog{{kind=\"subscriptions\"}} {}",
        backlog.subscriptions_due
    );
    out.push_str("# HELP checkout_reconciler_lag_seconds How long the oldest overdue reconciler item has waited.\n");
    out.push_str("# TYPE checkout_reconciler_lag_seconds gauge\n");
    let lag_ms = backlog.lag_at(now).whole_milliseconds();
    let lag_us = u64::try_from(lag_ms.max(0))
        .unwrap_or(u64::MAX)
        .saturating_mul(1000);
    let _ = writeln!(
        out,
        "checkout_reconciler_lag_seconds {}",
        histogram::seconds(lag_us)
    );
    true
}
