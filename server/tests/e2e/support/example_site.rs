//! A shop example of `examples/` on its own origin, as its developer runs it: the example's
//! files (a Vite build's `dist/`, or the plain HTML example's folder) at `/`, and `/demo/*`
//! relayed to the demo shop's backend as the page's own requests (what the examples' Vite dev
//! server does: a shop's backend shares its page's origin). It runs on its own thread and
//! runtime ([`Background`]).

use std::path::Path;

use axum::Router;
use axum::extract::{Request, State};
use axum::response::Response;
use axum::routing::any;
use tower_http::services::ServeDir;

use super::holding_proxy::Relay;
use super::site::Background;

/// A running example.
pub struct ExampleSite {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    _server: Background,
}

impl ExampleSite {
    /// Serves `dir` on `listener`, relaying `/demo/*` to the demo shop at `demo`.
    pub fn start_on(listener: std::net::TcpListener, dir: &Path, demo: &str) -> Self {
        let base = format!("http://{}", listener.local_addr().expect("address"));
        let backend = Relay::to(demo);
        let router = Router::new()
            .route("/demo/{*rest}", any(to_backend))
            .with_state(backend)
            .fallback_service(ServeDir::new(dir));
        Self {
            base,
            _server: Background::serve(listener, router),
        }
    }
}

async fn to_backend(State(backend): State<Relay>, request: Request) -> Response {
    backend.send(request, Some(&backend.base)).await
}
