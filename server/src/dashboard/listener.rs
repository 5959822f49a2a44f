//! The dashboard's own listener (`DASHBOARD_LISTEN`), bound while the server is built, and,
//! in the sandbox, the generated admin login the banner prints (as it prints the generated
//! merchant key); with a real gateway, that login is disabled if the database still has it.

use std::net::SocketAddr;

use anyhow::Context as _;
use axum::Router;
use tokio::net::TcpListener;

use super::auth::accounts::{DEMO_ADMIN_EMAIL, DemoAdmin, demo_admin, retire_demo_admin};
use super::{DashboardState, app};
use crate::web::AppState;

/// A bound dashboard, ready to serve.
pub struct DashboardListener {
    /// The socket.
    pub listener: TcpListener,
    /// What it serves.
    pub router: Router,
    /// The state behind it (its sign-in limits, for tests and benchmarks to read).
    pub state: DashboardState,
    /// Where it is bound.
    pub address: SocketAddr,
    /// The origin browsers use.
    pub public_url: String,
    /// The sandbox's admin login for this run ([`DEMO_ADMIN_EMAIL`]); `None` with a real
    /// gateway.
    pub demo_login: Option<DemoAdmin>,
}

impl DashboardListener {
    /// Binds `DASHBOARD_LISTEN` (`None` when it is `off`) and builds the dashboard over
    /// `state`; in the sandbox, (re)creates the admin login, and with a real gateway disables
    /// it.
    pub async fn bind(state: &AppState) -> anyhow::Result<Option<Self>> {
        let settings = &state.config.dashboard;
        let Some(listen) = settings.listen else {
            return Ok(None);
        };
        let listener = TcpListener::bind(listen)
            .await
            .with_context(|| format!("cannot listen on {listen} (DASHBOARD_LISTEN)"))?;
        let address = listener
            .local_addr()
            .context("cannot read the DASHBOARD_LISTEN address")?;
        let public_url = settings.public_url_for(address);
        let store = state.store.as_ref();
        let demo_login = if state.config.gateway.is_sandbox() {
            let login = demo_admin(store)
                .await
                .context("cannot create the sandbox's dashboard admin")?;
            Some(login)
        } else {
            if retire_demo_admin(store)
                .await
                .context("cannot disable the sandbox's dashboard admin")?
            {
                tracing::warn!(
                    account = DEMO_ADMIN_EMAIL,
                    "a real gateway is configured and this database still had the sandbox's \
                     generated admin login enabled: it is now disabled and its sessions ended \
                     (sign in with accounts from `checkout-server users add`)"
                );
            }
            None
        };
        let dashboard = DashboardState::new(state.clone(), &public_url);
        let router = app(dashboard.clone());
        Ok(Some(Self {
            listener,
            router,
            state: dashboard,
            address,
            public_url,
            demo_login,
        }))
    }
}
