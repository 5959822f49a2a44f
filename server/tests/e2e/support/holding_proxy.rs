//! A reverse proxy in front of checkout-server (as a CDN would be) that holds back the
//! component's wasm until the test releases it: the scenario types into the frame document's
//! HTML form while the component cannot start yet. Everything else passes through unchanged.
//! It runs on its own thread and runtime (like [`super::site::StaticSite`]).

use std::net::SocketAddr;
use std::thread::JoinHandle;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::{oneshot, watch};

/// A running proxy.
pub struct HoldingProxy {
    /// `http://127.0.0.1:<port>`: use it as checkout-server's address.
    pub base: String,
    release: watch::Sender<bool>,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

#[derive(Clone)]
struct Upstream {
    base: String,
    client: reqwest::Client,
    released: watch::Receiver<bool>,
}

impl HoldingProxy {
    /// Proxies to `upstream` (a base URL), holding every `*_bg.wasm` answer.
    pub fn start(upstream: &str) -> Self {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind the proxy");
        listener.set_nonblocking(true).expect("non-blocking");
        let address: SocketAddr = listener.local_addr().expect("address");
        let (release, released) = watch::channel(false);
        let state = Upstream {
            base: upstream.trim_end_matches('/').to_owned(),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
            released,
        };
        let router = Router::new().fallback(forward).with_state(state);
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("proxy runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let _ = axum::serve(listener, router)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await;
            });
        });
        Self {
            base: format!("http://{address}"),
            release,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// Lets the held wasm (and any later request for it) through.
    pub fn release(&self) {
        let _ = self.release.send(true);
    }
}

impl Drop for HoldingProxy {
    fn drop(&mut self) {
        self.release();
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let path = parts
        .uri
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_owned();
    if parts.uri.path().ends_with("_bg.wasm") {
        let mut released = upstream.released.clone();
        let _ = released.wait_for(|released| *released).await;
    }
    let Ok(body) = axum::body::to_bytes(body, usize::MAX).await else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let mut headers = parts.headers.clone();
    headers.remove("host");
    let sent = upstream
        .client
        .request(parts.method.clone(), format!("{}{path}", upstream.base))
        .headers(headers)
        .body(body)
        .send()
        .await;
    let Ok(answer) = sent else {
        return StatusCode::BAD_GATEWAY.into_response();
    };
    let status = answer.status();
    let mut headers: HeaderMap = answer.headers().clone();
    headers.remove("transfer-encoding");
    headers.remove("connection");
    let bytes: Bytes = answer.bytes().await.unwrap_or_default();
    let mut response = Response::new(Body::from(bytes));
    *response.status_mut() = status;
    *response.headers_mut() = headers;
    response
}
