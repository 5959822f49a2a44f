//! Running the checkout server: open the store (migrations applied), build the gateway client
//! for `GATEWAY_BASE_URL` — or, without it, for an in-process gateway that the caller mounts on
//! the same listener ([`Mounts`]) — bind the internal operations listener when `OPS_LISTEN`
//! is set, then serve until the shutdown signal ([`shutdown_signal`]: SIGTERM or Ctrl-C),
//! letting in-flight requests finish. Beside the requests run the reconciler and the worker
//! sending events to the shop (`events::deliver`; the endpoint `MERCHANT_WEBHOOK_URL` names is
//! set up before serving). This crate knows no emulator: the `checkout-server`
//! binary composes one in.

use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use anyhow::Context as _;
use axum::Router;
use secrecy::ExposeSecret as _;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;

use crate::api;
use crate::config::fingerprint_key::sandbox_key_file;
use crate::config::{CardFingerprintKey, Config, OpsAccess};
use crate::dashboard::auth::accounts::{DEMO_ADMIN_EMAIL, DemoAdmin};
use crate::dashboard::listener::DashboardListener;
use crate::events::configured::configure_endpoint;
use crate::events::deliver::Deliverer;
use crate::events::run;
use crate::events::services::DeliveryServices;
use crate::gateway::{GatewayClient, GatewayConfig};
use crate::web::AppState;

mod shutdown;

use shutdown::finish_background_work;
pub use shutdown::shutdown_signal;

/// Where a server being built can be reached, for whoever mounts something beside its API.
#[derive(Debug, Clone)]
pub struct Addresses {
    /// The public base URL (`PUBLIC_BASE_URL`, or `http://<listening address>`).
    pub public: String,
    /// A base URL this process can connect to (the bound address, "any" as loopback).
    pub internal: String,
}

/// What the caller mounts beside the API.
#[derive(Default)]
pub struct Mounts {
    /// An in-process gateway, `(path prefix, router)`: with no `GATEWAY_BASE_URL` the client
    /// calls it at `<internal address><prefix>`. Without either, the server does not start.
    pub gateway: Option<(String, Router)>,
}

/// A server ready to run: store open, gateway chosen, routers built, sockets bound.
pub struct Server {
    listener: TcpListener,
    router: Router,
    /// The `OPS_LISTEN` listener and what it serves.
    ops: Option<(TcpListener, Router)>,
    ops_address: Option<SocketAddr>,
    /// The merchant dashboard on `DASHBOARD_LISTEN` (unless `off`).
    dashboard: Option<DashboardListener>,
    state: AppState,
    /// The worker sending events to the shop's endpoints.
    deliverer: Deliverer,
    in_process_gateway: Option<String>,
    address: SocketAddr,
}

impl Server {
    /// Builds the server on `listener` (and on `OPS_LISTEN`, bound here, when set) with what
    /// `mounts` returns once the server's addresses are known.
    pub async fn build(
        mut config: Config,
        listener: TcpListener,
        mounts: impl FnOnce(&Addresses) -> Mounts,
    ) -> anyhow::Result<Self> {
        let address = listener
            .local_addr()
            .context("cannot read the listening address")?;
        let addresses = Addresses {
            public: config.public_base_url_for(address),
            internal: format!("http://{}", reachable(address)),
        };
        let mounts = mounts(&addresses);
        let base_url = addresses.public;
        let keys = config
            .secrets_key
            .key_ring(config.database_url.expose_secret())
            .context("cannot read the key for secrets at rest")?;
        let store = crate::store::connect(config.database_url.expose_secret(), keys)
            .await
            .context("cannot open the database (DATABASE_URL)")?;
        if config.card_fingerprint_key.is_none() {
            // The sandbox without CARD_FINGERPRINT_KEY (a real gateway requires it).
            let key = match sandbox_key_file(config.database_url.expose_secret()) {
                Some(file) => CardFingerprintKey::load_or_create(&file)?,
                None => CardFingerprintKey::generate(),
            };
            config.card_fingerprint_key = Some(key);
        }
        if let Some(endpoint) = &config.webhooks.configured_endpoint {
            configure_endpoint(store.as_ref(), endpoint)
                .await
                .context("cannot set up the webhook endpoint MERCHANT_WEBHOOK_URL names")?;
        }
        let gateway_settings = &config.gateway;
        let (gateway_base, in_process) = match (&gateway_settings.base_url, &mounts.gateway) {
            (Some(url), _) => (url.clone(), None),
            (None, Some((prefix, _))) => (
                format!("{}{prefix}", addresses.internal),
                Some(prefix.clone()),
            ),
            (None, None) => {
                anyhow::bail!("GATEWAY_BASE_URL is unset and no in-process gateway is mounted")
            }
        };
        let mut client_config = GatewayConfig::new(
            gateway_base,
            gateway_settings.api_key.clone(),
            gateway_settings.x_api_key.clone(),
        );
        client_config.connect_timeout = gateway_settings.connect_timeout;
        client_config.total_timeout = gateway_settings.timeout;
        let gateway = GatewayClient::new(client_config)
            .context("cannot build the gateway client (GATEWAY_*)")?;
        let ops = match config.ops_access.listener() {
            Some(ops_listen) => Some(
                TcpListener::bind(ops_listen)
                    .await
                    .with_context(|| format!("cannot listen on {ops_listen} (OPS_LISTEN)"))?,
            ),
            None => None,
        };
        let ops_address = ops
            .as_ref()
            .map(TcpListener::local_addr)
            .transpose()
            .context("cannot read the OPS_LISTEN address")?;
        let state = AppState::new(config, base_url, store, gateway);
        let delivery = DeliveryServices::new(state.store.clone(), &state.config)
            .context("cannot build the client events are sent with")?;
        let deliverer = Deliverer::new(
            delivery,
            format!("webhooks-{}", state.payments.instance_id()),
        );
        let mut router = api::app(state.clone());
        if let (Some(prefix), Some((_, gateway))) = (&in_process, mounts.gateway) {
            router = router.nest(prefix, gateway);
        }
        let ops = ops.map(|listener| (listener, api::ops_app(state.clone())));
        let dashboard = DashboardListener::bind(&state).await?;
        let server = Self {
            listener,
            router,
            ops,
            ops_address,
            dashboard,
            state,
            deliverer,
            in_process_gateway: in_process,
            address,
        };
        for warning in server.state.config.warnings() {
            tracing::warn!("{warning}");
        }
        let whereabouts = server.ops_whereabouts();
        if matches!(server.state.config.ops_access, OpsAccess::Closed) {
            tracing::warn!("/metrics and /readyz: {whereabouts}");
        } else {
            tracing::info!("/metrics and /readyz: {whereabouts}");
        }
        Ok(server)
    }

    /// The address the socket is bound to.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The address the `OPS_LISTEN` socket is bound to, when it is set.
    pub fn ops_address(&self) -> Option<SocketAddr> {
        self.ops_address
    }

    /// The address the dashboard (`DASHBOARD_LISTEN`) is bound to, unless it is `off`.
    pub fn dashboard_address(&self) -> Option<SocketAddr> {
        self.dashboard.as_ref().map(|dashboard| dashboard.address)
    }

    /// The dashboard's state, unless it is `off` (its sign-in limits, for tests to read).
    pub fn dashboard_state(&self) -> Option<&crate::dashboard::DashboardState> {
        self.dashboard.as_ref().map(|dashboard| &dashboard.state)
    }

    /// Where `/metrics` and `/readyz` are served, in words (banner and start-up log).
    fn ops_whereabouts(&self) -> String {
        let base = self.base_url();
        match (self.ops_address, &self.state.config.ops_access) {
            (Some(ops), _) => {
                format!("http://{ops}/metrics, /readyz  (OPS_LISTEN; keep it internal)")
            }
            (None, OpsAccess::Token(_)) => {
                format!("{base}/metrics, /readyz  (Authorization: Bearer <OPS_TOKEN>)")
            }
            (None, OpsAccess::Open) => format!("{base}/metrics, /readyz  (open: sandbox)"),
            (None, _) => {
                "not served (a real gateway: set OPS_LISTEN, internal, or OPS_TOKEN)".to_owned()
            }
        }
    }

    /// The server's public base URL.
    pub fn base_url(&self) -> &str {
        &self.state.urls.base
    }

    /// The application state (store, gateway, payments, config).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// The worker sending events to the shop (tests drive a second one beside it).
    pub fn deliverer(&self) -> &Deliverer {
        &self.deliverer
    }

    /// Serves (on both listeners when `OPS_LISTEN` is set) until `shutdown` completes, then
    /// finishes in-flight requests, lets the event deliveries in flight finish (briefly) and
    /// closes the database pool.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> anyhow::Result<()> {
        let service = self
            .router
            .into_make_service_with_connect_info::<SocketAddr>();
        let reconciler = crate::reconcile::spawn(
            self.state.reconciler_services(),
            self.state.config.timing.reconcile_interval,
        );
        let stop = CancellationToken::new();
        let delivery_stop = CancellationToken::new();
        let delivery = run::spawn(self.deliverer.clone(), delivery_stop.clone());
        let signal = tokio::spawn({
            let stop = stop.clone();
            async move {
                shutdown.await;
                stop.cancel();
            }
        });
        let public = async {
            let served = axum::serve(self.listener, service)
                .with_graceful_shutdown(stop.clone().cancelled_owned())
                .await
                .context("the server stopped with an error");
            stop.cancel();
            served
        };
        let internal = async {
            let Some((listener, router)) = self.ops else {
                return Ok(());
            };
            let served = axum::serve(listener, router)
                .with_graceful_shutdown(stop.clone().cancelled_owned())
                .await
                .context("the operations listener (OPS_LISTEN) stopped with an error");
            stop.cancel();
            served
        };
        let dashboard = async {
            let Some(dashboard) = self.dashboard else {
                return Ok(());
            };
            let service = dashboard
                .router
                .into_make_service_with_connect_info::<SocketAddr>();
            let served = axum::serve(dashboard.listener, service)
                .with_graceful_shutdown(stop.clone().cancelled_owned())
                .await
                .context("the dashboard listener (DASHBOARD_LISTEN) stopped with an error");
            stop.cancel();
            served
        };
        let (served, ops_served, dashboard_served) = tokio::join!(public, internal, dashboard);
        signal.abort();
        let served = served.and(ops_served).and(dashboard_served);
        finish_background_work(&self.state).await;
        delivery_stop.cancel();
        if let Err(error) = delivery.await {
            tracing::error!(%error, "the event delivery task failed");
        }
        reconciler.abort();
        self.state.store.close().await;
        tracing::info!("checkout-server stopped");
        served
    }

    /// Tells the operator where everything is, `beside` (`(label, address)` of what the
    /// caller serves next to the server) first. The sandbox line is loud on purpose.
    pub fn print_banner(&self, beside: &[(&str, &str)]) {
        let base = self.base_url();
        let config = &self.state.config;
        println!("checkout-server listening on {}", self.address);
        for (label, address) in beside {
            println!("  {:<15} {address}", format!("{label}:"));
        }
        println!(
            "  merchant API:   {base}/v1/sessions  (Authorization: Bearer <MERCHANT_SECRET_KEY>)"
        );
        println!("  browser API:    {base}/v1/checkout/<session_id>");
        println!("  operations:     {}", self.ops_whereabouts());
        match &self.dashboard {
            Some(dashboard) => {
                println!(
                    "  dashboard:      {}/  (DASHBOARD_LISTEN; keep it internal)",
                    dashboard.public_url
                );
                match &dashboard.demo_login {
                    Some(DemoAdmin::Ready(password)) => println!(
                        "  staff login:    {DEMO_ADMIN_EMAIL} / {}  (admin, generated for this run)",
                        password.expose_secret()
                    ),
                    Some(DemoAdmin::Disabled) => println!(
                        "  staff login:    {DEMO_ADMIN_EMAIL} is disabled and stays so \
                         (use an account from `checkout-server users add`)"
                    ),
                    None => {}
                }
            }
            None => println!("  dashboard:      off (DASHBOARD_LISTEN=off)"),
        }
        let origins = &config.merchant.allowed_origins;
        println!(
            "  shop origins:   {}  (ALLOWED_ORIGINS, read at start: restart after changing it)",
            if origins.is_empty() {
                "none".to_owned()
            } else {
                origins.join(", ")
            }
        );
        println!("  database:       {}", self.state.store.backend_name());
        if config.merchant.secret_key_generated {
            println!(
                "  merchant key:   {}  (generated for this run; set MERCHANT_SECRET_KEY to keep one)",
                config.merchant.secret_key.expose_secret()
            );
        }
        match (&config.gateway.base_url, &self.in_process_gateway) {
            (Some(url), _) => println!(
                "  gateway:        {url} (merchant {})",
                config.gateway.merchant_id
            ),
            (None, prefix) => {
                let prefix = prefix.as_deref().unwrap_or_default();
                println!(
                    "  gateway:        {base}{prefix} (in-process emulator; test cards in docs/sandbox.md)"
                );
                println!(
                    "*** SANDBOX: no real money. No GATEWAY_BASE_URL is set; payments go to the built-in emulator. ***"
                );
                tracing::warn!(
                    "SANDBOX: no real money; GATEWAY_BASE_URL is unset, the in-process gateway emulator is used"
                );
            }
        }
    }
}

/// An address this process can connect to: the bound one, with "any" replaced by loopback.
pub fn reachable(address: SocketAddr) -> SocketAddr {
    let ip = match address.ip() {
        IpAddr::V4(v4) if v4.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v6) if v6.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    SocketAddr::new(ip, address.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unspecified_addresses_become_loopback() {
        let any: SocketAddr = "0.0.0.0:8080".parse().expect("addr");
        assert_eq!(reachable(any).to_string(), "127.0.0.1:8080");
        let v6: SocketAddr = "[::]:1".parse().expect("addr");
        assert_eq!(reachable(v6).to_string(), "[::1]:1");
        let set: SocketAddr = "192.0.2.1:1".parse().expect("addr");
        assert_eq!(reachable(set), set);
    }
}
