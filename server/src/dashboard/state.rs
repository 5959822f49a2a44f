//! The dashboard router's state: the server's [`AppState`] (store, payment service, config),
//! the dashboard's public origin and the sign-in limits. Cloning is one `Arc` increment.

use std::ops::Deref;
use std::sync::Arc;

use crate::web::AppState;

use super::auth::limits::LoginLimits;

/// Handle to the dashboard's state.
#[derive(Clone)]
pub struct DashboardState {
    inner: Arc<Shared>,
}

/// What every dashboard handler reaches through [`DashboardState`]'s `Deref`.
pub struct Shared {
    /// The server's state: the same store and services the merchant API uses.
    pub app: AppState,
    /// `DASHBOARD_PUBLIC_URL` (or `http://<bound address>`): the only origin POSTs may come from.
    pub origin: String,
    /// The origin is https: cookies are `Secure` and `__Host-` prefixed.
    pub secure: bool,
    /// Sign-in limits: attempts per client address and in all, hashes at once.
    pub limits: LoginLimits,
}

impl DashboardState {
    /// State for a dashboard reached at `public_url` (no trailing slash).
    pub fn new(app: AppState, public_url: &str) -> Self {
        let origin = origin_of(public_url);
        Self {
            inner: Arc::new(Shared {
                app,
                secure: origin.starts_with("https://"),
                origin,
                limits: LoginLimits::new(),
            }),
        }
    }
}

impl Deref for DashboardState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.inner
    }
}

/// `scheme://host[:port]` of a base URL (a path after it is dropped: `Origin` has none).
fn origin_of(url: &str) -> String {
    let url = url.trim_end_matches('/');
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let host = rest.split('/').next().unwrap_or(rest);
    format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        host.to_ascii_lowercase()
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn origins_drop_paths_and_case() {
        assert_eq!(
            super::origin_of("HTTPS://Dash.Example:8443/admin/"),
            "https://dash.example:8443"
        );
        assert_eq!(
            super::origin_of("http://127.0.0.1:8082"),
            "http://127.0.0.1:8082"
        );
    }
}
