//! A merchant's receiver on loopback: records every webhook and browser visit, can fail its
//! first answers, and waits for posts.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{Method, StatusCode, Uri};
use serde_json::Value;

/// One request the receiver got.
#[derive(Debug, Clone)]
pub struct Received {
    pub method: Method,
    pub uri: Uri,
    pub body: Bytes,
}

impl Received {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("webhook body is JSON")
    }
}

#[derive(Clone, Default)]
struct ReceiverState {
    received: Arc<Mutex<Vec<Received>>>,
    failures_left: Arc<Mutex<u32>>,
}

/// The merchant side: records every request (webhooks and browser landings) and answers 200,
/// or 503 for the first `failures` webhook posts.
pub struct Receiver {
    address: SocketAddr,
    state: ReceiverState,
    task: tokio::task::JoinHandle<()>,
}

impl Receiver {
    /// A receiver on an ephemeral port.
    pub async fn start() -> Self {
        Self::start_on("127.0.0.1:0".parse().expect("address"), 0).await
    }

    /// A receiver on `address` that answers the first `failures` POSTs with 503.
    pub async fn start_on(address: SocketAddr, failures: u32) -> Self {
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .expect("receiver binds");
        let address = listener.local_addr().expect("address");
        let state = ReceiverState::default();
        *state.failures_left.lock().expect("lock") = failures;
        let app = Router::new().fallback(record).with_state(state.clone());
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.expect("receiver serves");
        });
        Self {
            address,
            state,
            task,
        }
    }

    /// An absolute URL on the receiver.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    /// Everything received so far.
    pub fn received(&self) -> Vec<Received> {
        self.state.received.lock().expect("lock").clone()
    }

    /// The POSTs received so far (webhook attempts, failed ones included).
    pub fn posts(&self) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|r| r.method == Method::POST)
            .collect()
    }

    /// Waits until `count` POSTs arrived or `timeout` passes; returns them.
    pub async fn wait_for_posts(&self, count: usize, timeout: Duration) -> Vec<Received> {
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            let posts = self.posts();
            if posts.len() >= count || tokio::time::Instant::now() >= deadline {
                return posts;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn record(
    State(state): State<ReceiverState>,
    method: Method,
    uri: Uri,
    body: Bytes,
) -> StatusCode {
    let is_post = method == Method::POST;
    state
        .received
        .lock()
        .expect("lock")
        .push(Received { method, uri, body });
    let mut failures = state.failures_left.lock().expect("lock");
    if is_post && *failures > 0 {
        *failures -= 1;
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    StatusCode::OK
}

/// A free loopback port (bound, then released) for a receiver that starts late.
pub fn reserve_address() -> SocketAddr {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("binds");
    listener.local_addr().expect("address")
}
