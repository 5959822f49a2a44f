//! `/metrics` after a payment: payments by outcome, gateway latency by endpoint, webhook
//! events by verdict, HTTP requests by route, the reconciler's lag; valid exposition text
//! with no id, token or secret in it.

use std::time::Duration;

use crate::api::support::{Harness, cards, param};
use crate::ops::support::{ops_suite, reconciler, send, wait_until};

const CONFIG: &[(&str, &str)] = &[];

ops_suite!(metrics_after_a_payment);

async fn metrics_text(h: &Harness) -> String {
    let reply = send(h.api.get(format!("{}/metrics", h.base))).await;
    assert_eq!(reply.status, 200);
    let content_type = reply.headers["content-type"].to_str().expect("ascii");
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    reply.text
}

async fn metrics_after_a_payment(h: &Harness) {
    let session = h.session(2000, serde_json::json!({})).await;
    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    let landed = h.complete_3ds(&redirect, "approve").await;
    assert_eq!(param(&landed, "checkout").as_deref(), Some("paid"));
    wait_until("the webhook verdict", Duration::from_secs(5), || async {
        metrics_text(h)
            .await
            .contains("checkout_webhook_events{verdict=\"confirmed\"} 1")
    })
    .await;
    reconciler(h).run_once().await;

    let text = metrics_text(h).await;
    for expected in [
        "checkout_store_up 1",
        "checkout_payments{state=\"captured\"} 1",
        "checkout_webhook_events{verdict=\"confirmed\"} 1",
        "checkout_reconciler_lag_seconds 0",
        "checkout_reconciler_backlog{kind=\"payments\"} 0",
        "checkout_reconciler_events_total{event=\"pass\"}",
        "# TYPE checkout_gateway_request_duration_seconds histogram",
        "checkout_gateway_request_duration_seconds_bucket{endpoint=\"paymentv2\",le=\"+Inf\"}",
        "checkout_gateway_request_duration_seconds_count{endpoint=\"transaction_status\"}",
        "checkout_gateway_requests_total{endpoint=\"paymentv2\",result=\"2xx\"}",
        "checkout_http_requests_total{route=\"/v1/checkout/{session_id}/pay\",method=\"POST\",status=\"200\"}",
        "checkout_http_requests_total{route=\"/hooks/gateway/{payment_id}/{token}\",method=\"POST\",status=\"200\"}",
        "checkout_http_request_duration_seconds_bucket{route=\"/v1/sessions\",le=\"0.001\"}",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in\n{text}");
    }
    // Every sample line is `name{labels} number`.
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (series, value) = line
            .rsplit_once(' ')
            .unwrap_or_else(|| panic!("bad line {line}"));
        assert!(value.parse::<f64>().is_ok(), "bad value in {line}");
        let name = series.split('{').next().unwrap_or_default();
        assert!(
            name.starts_with("checkout_")
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'),
            "{line}"
        );
    }
    let payment = h.stored_payment(&session).await;
    for secret in [
        session.id.as_str(),
        session.secret.as_str(),
        payment.id.as_str(),
        &session.reference,
    ] {
        assert!(!text.contains(secret), "metrics leak an id or secret");
    }
}
