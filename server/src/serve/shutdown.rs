//! Stopping: the signal that starts it (Ctrl-C, or SIGTERM on Unix) and the wait for the
//! work requests left behind, bounded by what a pay call may take.

use crate::web::AppState;

/// Completes on Ctrl-C or, on Unix, SIGTERM.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(error) = tokio::signal::ctrl_c().await {
            tracing::error!(%error, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(error) => {
                tracing::error!(%error, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("shutting down: finishing in-flight requests");
}

/// Waits for the work requests left behind (a pay whose shopper disconnected, a webhook
/// being judged), at most as long as a pay call can take; what is still running then is
/// cut off and left to the reconciler (a pending payment settles through the status
/// endpoint).
pub(super) async fn finish_background_work(state: &AppState) {
    let tasks = &state.tasks;
    tasks.close();
    if tasks.is_empty() {
        return;
    }
    tracing::info!(
        tasks = tasks.len(),
        "waiting for work the requests left behind"
    );
    let limit = crate::payments::abandoned_after(state.config.gateway.timeout).unsigned_abs();
    if tokio::time::timeout(limit, tasks.wait()).await.is_err() {
        tracing::warn!(
            tasks = tasks.len(),
            "stopping with work still running; the reconciler settles its payments"
        );
    }
}
