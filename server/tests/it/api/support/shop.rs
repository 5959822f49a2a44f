//! The shop's landing pages: a tiny server that answers 200 and remembers the query each
//! final redirect brought.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{RawQuery, State};
use axum::routing::get;
use tokio::task::JoinHandle;

/// The shop's landing pages: answer 200 and remember the query they were given.
pub struct Shop {
    pub base: String,
    pub visits: Arc<Mutex<Vec<String>>>,
    task: JoinHandle<()>,
}

impl Shop {
    pub(super) async fn start() -> Self {
        let visits = Arc::new(Mutex::new(Vec::new()));
        let app = Router::new()
            .route("/{page}", get(visit))
            .with_state(visits.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind shop");
        let address: SocketAddr = listener.local_addr().expect("shop address");
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self {
            base: format!("http://{address}"),
            visits,
            task,
        }
    }

    /// `base + path`.
    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }
}

impl Drop for Shop {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn visit(
    State(visits): State<Arc<Mutex<Vec<String>>>>,
    RawQuery(query): RawQuery,
) -> &'static str {
    visits
        .lock()
        .expect("visits")
        .push(query.unwrap_or_default());
    "thank you"
}
