//! Where the binary puts the two crates together: without `GATEWAY_BASE_URL`, checkout-server
//! runs with checkout-sandbox's emulator mounted in-process (its keys and demo plans as the
//! configuration's defaults) and, unless `DEMO_LISTEN=off`, the demo shop on a listener of its
//! own, a second origin that is allowed to embed the card form. With a real gateway nothing of the
//! sandbox runs. The integration tests compose their servers with this same file.
//!
//! `serve` keeps the emulator's state across restarts ([`emulator_persistence`]): the file
//! `gateway-emulator.state` in the data directory, sealed with `gateway-emulator.key` beside
//! it (checkout_sandbox::persist); the tests keep it in memory unless one asks.

use anyhow::Context as _;
use axum::Router;
use std::path::PathBuf;

use checkout_sandbox::in_process::{Host, InProcess, PREFIX};
use checkout_sandbox::persist::{PersistError, Persistence, STATE_FILE_NAME, StateFile};
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, SandboxConfig, demo};
use checkout_server::config::{Config, EmulatorDefaults};
use checkout_server::serve::{Addresses, Mounts, reachable};
use checkout_server::store::key_files::sandbox_key_path;
use secrecy::ExposeSecret as _;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// The configuration's fallbacks while no gateway is configured.
pub fn emulator_defaults() -> EmulatorDefaults {
    EmulatorDefaults {
        api_key: DEFAULT_API_KEY.to_owned(),
        x_api_key: DEFAULT_X_API_KEY.to_owned(),
        plans: demo::plans::plans(),
    }
}

/// Where `serve`'s in-process emulator keeps its state (`SANDBOX_STATE`, `--sandbox-state`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmulatorState {
    /// `gateway-emulator.state` in the data directory: beside the SQLite file, `data/` with
    /// PostgreSQL; in memory with an in-memory database (nothing else of it survives either).
    DataDirectory,
    /// This file (its key beside it, extension `.key`).
    File(PathBuf),
    /// `off`: in memory only; a restart forgets it.
    Off,
}

impl std::str::FromStr for EmulatorState {
    type Err = std::convert::Infallible;

    /// `off`, `data-dir` (the default), or a file path.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Ok(match text.trim() {
            "off" => Self::Off,
            "" | "data-dir" => Self::DataDirectory,
            path => Self::File(PathBuf::from(path)),
        })
    }
}

/// Opens the state file `setting` names for the in-process emulator of a server configured by
/// `config` (none with a real gateway): reads what it holds, so a wrong key or a damaged file
/// stops the start here, naming the file and what to do. When another running instance's
/// emulator already keeps its state there (several instances on one PostgreSQL database share
/// `data/`), this one keeps its own in memory, with a warning: the file is the other's.
pub fn emulator_persistence(
    config: &Config,
    setting: &EmulatorState,
) -> anyhow::Result<Option<Persistence>> {
    if !config.gateway.is_sandbox() {
        return Ok(None);
    }
    let path = match setting {
        EmulatorState::Off => return Ok(None),
        EmulatorState::File(path) => path.clone(),
        EmulatorState::DataDirectory => {
            match sandbox_key_path(config.database_url.expose_secret(), STATE_FILE_NAME) {
                Some(path) => path,
                None => return Ok(None),
            }
        }
    };
    let file = StateFile::at(path).context("SANDBOX_STATE")?;
    match Persistence::open(file) {
        Ok(persistence) => Ok(Some(persistence)),
        Err(error @ PersistError::InUse { .. }) => {
            tracing::warn!(
                %error,
                "the in-process gateway emulator keeps its state in memory only for this run"
            );
            Ok(None)
        }
        Err(error) => Err(error).context("SANDBOX_STATE"),
    }
}

/// The demo shop's socket, bound before the server is built so its origin can be allowed.
pub struct DemoListener {
    /// The bound socket.
    pub listener: TcpListener,
    /// `http://<address>` ("any" as loopback): the shop's base URL and origin.
    pub base: String,
}

/// Binds the demo shop at `DEMO_LISTEN` when `config` has no real gateway (and the shop is
/// not `off`), and lets its origin embed the card form: it joins `ALLOWED_ORIGINS`, and is
/// where shoppers land after 3-D Secure unless `SUCCESS_URL`/`DECLINE_URL` say otherwise.
pub async fn bind_demo(config: &mut Config) -> anyhow::Result<Option<DemoListener>> {
    let Some(listen) = config.demo_listen.filter(|_| config.gateway.is_sandbox()) else {
        return Ok(None);
    };
    let listener = TcpListener::bind(listen)
        .await
        .with_context(|| format!("cannot listen on {listen} (DEMO_LISTEN)"))?;
    let address = listener
        .local_addr()
        .context("cannot read the demo shop's address")?;
    let base = format!("http://{}", reachable(address));
    let merchant = &mut config.merchant;
    merchant.allowed_origins.push(base.clone());
    let landing = format!("{base}/");
    merchant.success_url.get_or_insert_with(|| landing.clone());
    merchant.decline_url.get_or_insert(landing);
    Ok(Some(DemoListener { listener, base }))
}

/// The emulator (configured from `template`) and demo shop (at `shop_url`, from
/// [`bind_demo`]; none when it is `off`) for a server configured by `config` at `addresses`;
/// `None` with a real gateway.
pub fn in_process(
    config: &Config,
    template: SandboxConfig,
    addresses: &Addresses,
    shop_url: Option<&str>,
) -> Option<InProcess> {
    config
        .gateway
        .is_sandbox()
        .then(|| InProcess::new(template, host(config, addresses, shop_url)))
}

/// Mounts `sandbox`'s emulator under [`PREFIX`]; its shop router is returned to serve on the
/// demo listener.
pub fn mount(sandbox: Option<InProcess>) -> (Mounts, Option<Router>) {
    sandbox.map_or_else(
        || (Mounts::default(), None),
        |sandbox| {
            let mounts = Mounts {
                gateway: Some((PREFIX.to_owned(), sandbox.gateway)),
            };
            (mounts, sandbox.shop)
        },
    )
}

/// Serves the demo shop's `site` on its listener, when both exist (the sandbox); the task runs
/// until it is aborted.
pub fn serve_demo(
    demo: Option<DemoListener>,
    site: Option<Router>,
) -> Option<JoinHandle<std::io::Result<()>>> {
    let (demo, site) = demo.zip(site)?;
    Some(tokio::spawn(async move {
        axum::serve(demo.listener, site).await
    }))
}

/// What the in-process emulator and shop need to know of the server at `addresses`.
fn host(config: &Config, addresses: &Addresses, shop_url: Option<&str>) -> Host {
    Host {
        public_url: addresses.public.clone(),
        shop_url: shop_url.map(str::to_owned),
        internal_url: addresses.internal.clone(),
        api_key: config.gateway.api_key.clone(),
        x_api_key: config.gateway.x_api_key.clone(),
        merchant_secret_key: config.merchant.secret_key.clone(),
        merchant_name: config.merchant.name.clone(),
        plans: config.plans.iter().cloned().collect(),
        shop_origins: config.merchant.allowed_origins.clone(),
    }
}

/// What the demo's payment link sells.
pub const DEMO_LINK_DESCRIPTION: &str = "Demo T-shirt (sandbox: test cards only)";

/// The address of the demo's payment link (issue 48), so a newcomer can pay one at once: made
/// at the first start, found again at the next (the newest active one of that description).
/// `None` with a real gateway: nothing of the demo is made in live mode.
pub async fn demo_link(state: &checkout_server::web::AppState) -> anyhow::Result<Option<String>> {
    use checkout_server::store::model::{AfterPayment, Ask, LinkAmount, NewPaymentLink};
    if !state.config.gateway.is_sandbox() {
        return Ok(None);
    }
    let links = state.links.list(100, None).await?;
    let now = time::OffsetDateTime::now_utc();
    let found = links.items.into_iter().find(|link| {
        link.active && !link.is_expired_at(now) && link.terms.description == DEMO_LINK_DESCRIPTION
    });
    let link = match found {
        Some(link) => link,
        None => {
            state
                .links
                .create(NewPaymentLink {
                    description: DEMO_LINK_DESCRIPTION.to_owned(),
                    currency: "EUR".to_owned(),
                    amount: LinkAmount::Fixed { amount: 2500 },
                    quantity_max: Some(5),
                    reusable: true,
                    payment_limit: None,
                    expires_at: None,
                    ask_email: Ask::Optional,
                    ask_payer_reference: Ask::Optional,
                    billing_fields: Vec::new(),
                    after_payment: AfterPayment::Receipt,
                    plan_id: None,
                })
                .await?
        }
    };
    Ok(Some(state.urls.link_page(&link.public_id)))
}
