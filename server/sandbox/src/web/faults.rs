//! The middleware that applies faults to gateway API calls: from the `x-sandbox-fault`
//! request header and from the armed-fault book.

use std::time::Duration;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::SandboxError;
use crate::faults::respond::{after_processing, before_processing, spoiling_stage};
use crate::faults::{Fault, Stage, normalise_endpoint, parse_fault_list};
use crate::state::SandboxState;

/// Request header naming faults for this one call (comma-separated, see [`crate::faults::Fault`]).
pub const FAULT_HEADER: &str = "x-sandbox-fault";

/// Webhook and page faults a call asked for in its `x-sandbox-fault` header; the 3DS endpoints
/// keep them with the transaction and apply them when its webhook is sent or its page shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RequestedWebhookFaults(pub Vec<Fault>);

/// Applies the call's faults: latency first, then the first spoiling fault before or after
/// running the handler. Mounted with `route_layer` so the matched route names the endpoint.
pub async fn inject_faults(
    State(state): State<SandboxState>,
    matched: Option<MatchedPath>,
    mut request: Request,
    next: Next,
) -> Response {
    let mut faults = match request.headers().get(FAULT_HEADER) {
        None => Vec::new(),
        Some(value) => match value.to_str().map(parse_fault_list) {
            Ok(Ok(faults)) => faults,
            Ok(Err(error)) => {
                return SandboxError::invalid(FAULT_HEADER, error.to_string()).into_response();
            }
            Err(_) => {
                return SandboxError::invalid(FAULT_HEADER, "must be ASCII text").into_response();
            }
        },
    };
    let endpoint = matched
        .as_ref()
        .map_or_else(String::new, |path| endpoint_name(path.as_str()));
    faults.extend(state.faults.take_http(&endpoint));
    if faults.is_empty() {
        return next.run(request).await;
    }

    let webhook_faults: Vec<Fault> = faults
        .iter()
        .copied()
        .filter(|fault| fault.is_webhook_fault() || fault.is_page_fault())
        .collect();
    if !webhook_faults.is_empty() {
        request
            .extensions_mut()
            .insert(RequestedWebhookFaults(webhook_faults));
    }
    let latency = total_delay(&faults, Stage::Before);
    if !latency.is_zero() {
        tokio::time::sleep(latency).await;
    }
    let spoiler = faults
        .iter()
        .find_map(|fault| spoiling_stage(fault).map(|stage| (fault, stage)));
    let late = total_delay(&faults, Stage::After);
    match spoiler {
        None => {
            let response = next.run(request).await;
            answer_late(late, &endpoint).await;
            response
        }
        Some((fault, Stage::Before)) => {
            tracing::info!(%fault, endpoint, "sandbox fault injected before processing");
            before_processing(fault)
        }
        Some((fault, Stage::After)) => {
            let response = next.run(request).await;
            answer_late(late, &endpoint).await;
            tracing::info!(%fault, endpoint, "sandbox fault injected after processing");
            after_processing(fault, response).await
        }
    }
}

/// The delay the call's latency faults add at `stage`: before processing (`latency:<ms>`) or
/// between processing and the answer (`latency:<ms>:after`).
fn total_delay(faults: &[Fault], stage: Stage) -> Duration {
    faults
        .iter()
        .map(|fault| match (fault, stage) {
            (Fault::Latency(delay), Stage::Before) | (Fault::SlowAnswer(delay), Stage::After) => {
                *delay
            }
            _ => Duration::ZERO,
        })
        .sum()
}

/// Holds a processed call's answer for `delay`: whatever it did is recorded already, so a
/// caller that gives up meanwhile has lost the answer, not the call.
async fn answer_late(delay: Duration, endpoint: &str) {
    if delay.is_zero() {
        return;
    }
    tracing::info!(
        delay_ms = u64::try_from(delay.as_millis()).unwrap_or(u64::MAX),
        endpoint,
        "sandbox fault: call processed, answer held back"
    );
    tokio::time::sleep(delay).await;
}

/// The route template after the API prefix, wherever the router is nested:
/// `/gw/api/v1/server-to-server-interface/transaction/status/{id}` → `transaction/status/{id}`.
fn endpoint_name(matched_path: &str) -> String {
    match matched_path.find("server-to-server-interface/") {
        Some(start) => {
            normalise_endpoint(&matched_path[start + "server-to-server-interface/".len()..])
        }
        None => normalise_endpoint(matched_path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latency_before_and_after_processing_add_up_apart() {
        let faults = parse_fault_list("latency:10,latency:20:after,latency:5,latency:1:after")
            .expect("valid");
        assert_eq!(
            total_delay(&faults, Stage::Before),
            Duration::from_millis(15)
        );
        assert_eq!(
            total_delay(&faults, Stage::After),
            Duration::from_millis(21)
        );
    }

    #[test]
    fn endpoint_names_ignore_the_mount_prefix() {
        assert_eq!(
            endpoint_name("/api/v1/server-to-server-interface/payment"),
            "payment"
        );
        assert_eq!(
            endpoint_name("/gateway/api/v1/server-to-server-interface/transaction/status/{id}"),
            "transaction/status/{id}"
        );
        assert_eq!(
            endpoint_name("/sandbox/clock/advance"),
            "sandbox/clock/advance"
        );
    }
}
