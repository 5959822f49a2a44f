//! A second web server on another origin (another port): a merchant's own site that hosts a
//! copy of the built component (`dist/`) and pages of its own, and talks to the checkout
//! server across origins (CORS). It runs on its own thread and runtime, so a scenario that
//! blocks its own thread never stalls it; dropping it stops it.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use axum::Router;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::response::IntoResponse;
use axum::routing::get;
use tokio::sync::oneshot;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

/// A running static site.
pub struct StaticSite {
    /// `http://127.0.0.1:<port>`.
    pub base: String,
    _server: Background,
}

impl StaticSite {
    /// Serves `pages` (path → HTML) and every file of `dist` on a free loopback port.
    pub fn start(dist: &Path, pages: Vec<(&'static str, String)>) -> Self {
        Self::start_on(Self::bind(), dist, pages)
    }

    /// A free loopback socket for [`StaticSite::start_on`], whose address is known before the
    /// pages are written.
    pub fn bind() -> std::net::TcpListener {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind the static site");
        listener
            .set_nonblocking(true)
            .expect("non-blocking listener");
        listener
    }

    /// [`StaticSite::start`] on `listener` (from [`StaticSite::bind`]).
    pub fn start_on(
        listener: std::net::TcpListener,
        dist: &Path,
        pages: Vec<(&'static str, String)>,
    ) -> Self {
        let address: SocketAddr = listener.local_addr().expect("address");
        let mut router = Router::new();
        for (path, html) in pages {
            router = router.route(
                path,
                get(move || {
                    let html = html.clone();
                    async move {
                        (
                            [
                                (CONTENT_TYPE, "text/html; charset=utf-8"),
                                (CACHE_CONTROL, "no-store"),
                            ],
                            html,
                        )
                            .into_response()
                    }
                }),
            );
        }
        // Compressed as any shop's web server would send it.
        let router = router
            .fallback_service(ServeDir::new(dist))
            .layer(CompressionLayer::new());
        Self {
            base: format!("http://{address}"),
            _server: Background::serve(listener, router),
        }
    }
}

/// A router served on its own thread and runtime (a scenario that blocks its own thread never
/// stalls it); dropping it shuts the server down gracefully and waits for it.
pub struct Background {
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Background {
    /// Serves `router` on `listener` (bound, non-blocking).
    pub fn serve(listener: std::net::TcpListener, router: Router) -> Self {
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("background server runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("tokio listener");
                let _ = axum::serve(listener, router)
                    .with_graceful_shutdown(async {
                        let _ = stopped.await;
                    })
                    .await;
            });
        });
        Self {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The component's files in `dist/`: (JS glue, wasm, stylesheets), as absolute paths on a
/// site that serves `dist/` at its root.
#[derive(Debug, Clone)]
pub struct Bundle {
    /// `/checkout-<hash>.js`.
    pub js: String,
    /// `/checkout-<hash>_bg.wasm`.
    pub wasm: String,
    /// The component's stylesheets (`checkout*.css` at the top of `dist/`).
    pub css: Vec<String>,
}

impl Bundle {
    /// Finds the files trunk wrote.
    pub fn find(dist: &Path) -> Self {
        let names: Vec<String> = std::fs::read_dir(dist)
            .unwrap_or_else(|e| panic!("read {}: {e}", dist.display()))
            .filter_map(|entry| entry.ok())
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect();
        let pick = |test: &dyn Fn(&str) -> bool, what: &str| {
            names
                .iter()
                .find(|n| test(n))
                .map(|n| format!("/{n}"))
                .unwrap_or_else(|| panic!("no {what} in {}: {names:?}", dist.display()))
        };
        let mut css: Vec<String> = names
            .iter()
            .filter(|n| n.ends_with(".css"))
            .map(|n| format!("/{n}"))
            .collect();
        css.sort();
        Self {
            wasm: pick(&|n| n.ends_with("_bg.wasm"), "wasm module"),
            js: pick(
                &|n| n.ends_with(".js") && !n.ends_with("_bg.js") && n.starts_with("checkout"),
                "JS glue",
            ),
            css,
        }
    }

    /// `<link>` tags for the stylesheets, marked for `<card-checkout>` to adopt.
    pub fn css_links(&self) -> String {
        self.css
            .iter()
            .map(|href| format!("<link rel=\"stylesheet\" data-card-checkout href=\"{href}\">"))
            .collect()
    }
}

/// The `dist/` directory to serve.
pub fn dist() -> PathBuf {
    super::tools::require_dist()
}
