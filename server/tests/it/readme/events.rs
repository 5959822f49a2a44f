//! The shop's side of the README's events: a recorder standing in for the shop's endpoint
//! (it keeps each delivery's path, headers and raw body exactly as checkout-server sent them),
//! and the README's Python snippet run on such a delivery by `events_snippet.py` with the
//! official `standardwebhooks` package from the Python backend sample's venv
//! (examples/backend-python/.venv, installed by scripts/backend-samples.sh).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex, PoisonError};

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use serde_json::{Value, json};
use tokio::task::JoinHandle;

use super::snippets::{self, Snippet, root};

/// One request as checkout-server sent it.
#[derive(Debug, Clone)]
pub struct Delivery {
    /// The request's path.
    pub path: String,
    /// Its headers, names in lower case.
    pub headers: BTreeMap<String, String>,
    /// Its body, untouched.
    pub body: String,
}

impl Delivery {
    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).expect("a JSON event")
    }
}

type Deliveries = Arc<Mutex<Vec<Delivery>>>;

/// A shop's endpoint on 127.0.0.1 answering 204 to every POST, recording each.
pub struct Recorder {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    deliveries: Deliveries,
    task: JoinHandle<()>,
}

impl Drop for Recorder {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Recorder {
    /// A recorder on a port of its own.
    pub async fn start() -> Self {
        let deliveries = Deliveries::default();
        let app = Router::new()
            .fallback(record)
            .with_state(deliveries.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the recorder");
        let port = listener.local_addr().expect("address").port();
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            base: format!("http://127.0.0.1:{port}"),
            deliveries,
            task,
        }
    }

    /// The first delivery of an event of `kind`, if one came.
    pub fn first(&self, kind: &str) -> Option<Delivery> {
        let deliveries = self
            .deliveries
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        deliveries
            .iter()
            .find(|d| d.json()["type"] == kind)
            .cloned()
    }
}

async fn record(
    State(deliveries): State<Deliveries>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let headers = headers
        .iter()
        .map(|(name, value)| {
            let value = value.to_str().unwrap_or_default().to_owned();
            (name.as_str().to_owned(), value)
        })
        .collect();
    deliveries
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(Delivery {
            path: uri.path().to_owned(),
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        });
    StatusCode::NO_CONTENT
}

/// The venv's Python, or `None` after a loud notice when this machine has no `python3`.
pub fn python() -> Option<PathBuf> {
    snippets::program("python3", "README.md's Python events snippet")?;
    let venv = root().join("examples/backend-python/.venv");
    assert!(
        venv.join(".installed").is_file(),
        "{} is not installed: run scripts/setup.sh test (scripts/backend-samples.sh)",
        venv.display()
    );
    Some(venv.join("bin/python"))
}

/// What the snippet did with one delivery (`events_snippet.py`'s report).
#[derive(Debug)]
pub struct Outcome {
    /// The routes the snippet registered.
    pub routes: Vec<String>,
    /// The view's answer (body, status), when it returned.
    pub answer: Option<Value>,
    /// The exception's class, when it raised.
    pub raised: Option<String>,
    /// The snippet's `mark_paid` calls: `[reference, event id]` each.
    pub marked: Vec<Value>,
}

/// Runs `snippet` with `python` on `delivery`, verifying with `secret`.
pub fn run(python: &PathBuf, snippet: &Snippet, delivery: &Delivery, secret: &str) -> Outcome {
    let dir = tempfile::tempdir().expect("temp dir");
    let code = dir.path().join("snippet.py");
    let request = dir.path().join("request.json");
    std::fs::write(&code, &snippet.code).expect("write the snippet");
    let body = json!({"body": delivery.body, "headers": delivery.headers});
    std::fs::write(&request, body.to_string()).expect("write the request");
    let runner = root().join("server/tests/it/readme/events_snippet.py");
    let output = Command::new(python)
        .arg(&runner)
        .arg(&code)
        .arg(&request)
        .env("CHECKOUT_WEBHOOK_SECRET", secret)
        .output()
        .unwrap_or_else(|e| panic!("run {}: {e}", python.display()));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "README.md:{}: the snippet could not be run: {stdout}{}",
        snippet.line,
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_str(&stdout).expect("the runner's JSON report");
    let strings = |v: &Value| -> Vec<String> {
        v.as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str().map(str::to_owned))
            .collect()
    };
    Outcome {
        routes: strings(&report["routes"]),
        answer: report.get("answer").cloned(),
        raised: report["raised"].as_str().map(str::to_owned),
        marked: report["marked"].as_array().cloned().unwrap_or_default(),
    }
}
