//! A reverse proxy in front of checkout-server (as a CDN would be) that holds back the
//! component's wasm until the test releases it: the scenario types into the frame document's
//! HTML form while the component cannot start yet. Everything else passes through unchanged,
//! through [`Relay`], which the examples' sites relay their shop backend with too.
//! It runs on its own thread and runtime ([`Background`]).

use std::net::SocketAddr;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use tokio::sync::watch;

use super::site::Background;

/// A running proxy.
pub struct HoldingProxy {
    /// `http://127.0.0.1:<port>`: use it as checkout-server's address.
    pub base: String,
    release: watch::Sender<bool>,
    _server: Background,
}

#[derive(Clone)]
struct Upstream {
    relay: Relay,
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
            relay: Relay::to(upstream),
            released,
        };
        let router = Router::new().fallback(forward).with_state(state);
        Self {
            base: format!("http://{address}"),
            release,
            _server: Background::serve(listener, router),
        }
    }

    /// Lets the held wasm (and any later request for it) through.
    pub fn release(&self) {
        let _ = self.release.send(true);
    }
}

impl Drop for HoldingProxy {
    /// Lets a held request finish, so the server can stop gracefully.
    fn drop(&mut self) {
        self.release();
    }
}

async fn forward(State(upstream): State<Upstream>, request: Request) -> Response {
    if request.uri().path().ends_with("_bg.wasm") {
        let mut released = upstream.released.clone();
        let _ = released.wait_for(|released| *released).await;
    }
    upstream.relay.send(request, None).await
}

/// Where requests are relayed: a base URL, and a client that hands redirects back unfollowed.
#[derive(Clone)]
pub struct Relay {
    /// The base URL, without a trailing `/`.
    pub base: String,
    client: reqwest::Client,
}

impl Relay {
    /// Relays to `base`.
    pub fn to(base: &str) -> Self {
        Self {
            base: base.trim_end_matches('/').to_owned(),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .expect("client"),
        }
    }

    /// Sends `request` on (same path and query, headers but `Host`, and `Origin` set to
    /// `origin` when given) and answers with what came back.
    pub async fn send(&self, request: Request, origin: Option<&str>) -> Response {
        let (parts, body) = request.into_parts();
        let path = parts
            .uri
            .path_and_query()
            .map_or("/", |p| p.as_str())
            .to_owned();
        let Ok(body) = axum::body::to_bytes(body, usize::MAX).await else {
            return StatusCode::BAD_REQUEST.into_response();
        };
        let mut headers = parts.headers.clone();
        headers.remove("host");
        if let Some(origin) = origin.and_then(|o| o.parse().ok()) {
            headers.insert("origin", origin);
        }
        let sent = self
            .client
            .request(parts.method.clone(), format!("{}{path}", self.base))
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
}
