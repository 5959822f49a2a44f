//! `/metrics` in the Prometheus text format (version 0.0.4), through the `metrics` facade and
//! `metrics-exporter-prometheus`'s recorder (no listener of its own: our `/metrics` route
//! renders it).
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
//! | `checkout_events_total{type}` | counter | events fanned out to the shop's endpoints |
//! | `checkout_event_deliveries_total{outcome}` | counter | delivery attempts: delivered, retried, failed |
//! | `checkout_event_delivery_duration_seconds` | histogram | every delivery attempt |
//! | `checkout_event_delivery_oldest_pending_seconds` | gauge | the store: age of the oldest pending delivery |
//! | `checkout_card_testing_suspected` | gauge | the store: 1 while a card-testing alert is open |
//! | `checkout_card_testing_alerts_total{step}` | counter | card-testing alerts this process raised or ended |
//! | `checkout_store_up` | gauge | 1 when the store answered the queries above |
//!
//! Store figures cover the whole database (every instance): they are set as gauges from the
//! store just before each render. Counters and histograms cover this process: the recorder is
//! process-wide, installed once, as the atomics it replaced were (several servers in one test
//! process share it; tests compare before and after).

pub mod card_testing;
pub mod events;
pub mod gateway;
pub mod http;
pub mod reconcile;

use std::sync::OnceLock;

use metrics::{describe_gauge, gauge};
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use time::OffsetDateTime;

use crate::store::Store;
use crate::store::transitions::state_name;

/// The `Content-Type` of the exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// Upper bounds of the latency buckets, in seconds (1 ms to 30 s).
const LATENCY_BOUNDS: [f64; 14] = [
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0,
];

/// The process's recorder, installed on first use (the first metric recorded or rendered).
pub fn recorder() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder = PrometheusBuilder::new()
            .set_buckets_for_metric(
                Matcher::Suffix("_duration_seconds".to_owned()),
                &LATENCY_BOUNDS,
            )
            .map(PrometheusBuilder::build_recorder)
            .unwrap_or_else(|_| PrometheusBuilder::new().build_recorder());
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("metrics: another recorder was installed first; /metrics stays empty");
        }
        describe();
        handle
    })
}

/// Every metric, as the text `/metrics` answers.
pub async fn render(store: &dyn Store) -> String {
    let handle = recorder();
    let store_up = set_store_figures(store).await;
    gauge!("checkout_store_up").set(f64::from(u8::from(store_up)));
    handle.render()
}

fn describe() {
    describe_gauge!("checkout_payments", "Payments in the store, by state.");
    describe_gauge!(
        "checkout_webhook_events",
        "Webhook deliveries received, by verdict."
    );
    describe_gauge!(
        "checkout_reconciler_backlog",
        "Items due for the reconciler and not yet handled."
    );
    describe_gauge!(
        "checkout_reconciler_lag_seconds",
        "How long the oldest overdue reconciler item has waited."
    );
    describe_gauge!(
        "checkout_store_up",
        "Whether the store answered the queries of this scrape."
    );
    card_testing::describe();
    events::describe();
    gateway::describe();
    http::describe();
    reconcile::describe();
}

/// Sets the store's gauges; false when the store did not answer (they keep their last values).
async fn set_store_figures(store: &dyn Store) -> bool {
    let now = OffsetDateTime::now_utc();
    let (payments, webhooks, backlog, oldest_delivery, alert) = match tokio::try_join!(
        store.count_payments_by_state(),
        store.count_webhooks_by_verdict(),
        store.reconcile_backlog(now),
        store.oldest_pending_delivery(),
        store.open_card_testing_alert(),
    ) {
        Ok(figures) => figures,
        Err(error) => {
            tracing::warn!(%error, "metrics: the store did not answer");
            return false;
        }
    };
    for (state, count) in payments {
        gauge!("checkout_payments", "state" => state_name(state)).set(count as f64);
    }
    for (verdict, count) in webhooks {
        gauge!("checkout_webhook_events", "verdict" => verdict.as_str()).set(count as f64);
    }
    gauge!("checkout_reconciler_backlog", "kind" => "payments").set(backlog.payments_due as f64);
    gauge!("checkout_reconciler_backlog", "kind" => "subscriptions")
        .set(backlog.subscriptions_due as f64);
    let lag = backlog.lag_at(now).as_seconds_f64().max(0.0);
    gauge!("checkout_reconciler_lag_seconds").set(lag);
    events::oldest_pending(oldest_delivery, now);
    card_testing::set_open(alert.is_some());
    true
}
