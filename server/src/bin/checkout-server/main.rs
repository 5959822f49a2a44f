//! `checkout-server` command line. Each subcommand is one function; `anyhow` lives only here.
//! The binary is where checkout-server meets checkout-sandbox ([`compose`]).
//!
//! - `checkout-server serve [--config checkout.toml]`: run the checkout server (configuration:
//!   defaults, then the file, then environment variables; see `checkout_server::config`).
//!   Without `GATEWAY_BASE_URL` the gateway emulator runs in-process (no real money) and the
//!   demo shop runs on `DEMO_LISTEN` (default 127.0.0.1:8081), a second origin; the emulator's
//!   state (stored cards, transactions, subscriptions, clock) is kept, sealed, in
//!   `gateway-emulator.state` in the data directory (`SANDBOX_STATE`, `--sandbox-state`).
//! - `checkout-server sandbox --listen 127.0.0.1:8090 [--api-key K --x-api-key X] [--state
//!   FILE]`: run the gateway emulator alone, printing its base URL and the credentials it
//!   accepts; in memory unless `--state` names a file.
//! - `checkout-server users add|list|disable|reset-2fa`: the dashboard's staff accounts ([`users`]).
//! - `checkout-server keys generate|rotate`: the key sealing secrets at rest ([`keys`]).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use checkout_sandbox::api::API_PREFIX;
use checkout_sandbox::faults::ArmedFault;
use checkout_sandbox::persist::{Persistence, StateFile};
use checkout_sandbox::{self as sandbox, DEFAULT_API_KEY, DEFAULT_X_API_KEY, SandboxConfig};
use checkout_server::config::{Config, LogFormat, component};
use checkout_server::serve::{Server, shutdown_signal};
use clap::{Args, Parser, Subcommand};
use secrecy::{ExposeSecret, SecretString};
use tokio::net::TcpListener;

mod compose;
mod keys;
mod open_store;
mod users;

/// The merchant's checkout server and its gateway emulator.
#[derive(Debug, Parser)]
#[command(name = "checkout-server", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run the checkout server (with the in-process gateway emulator unless GATEWAY_BASE_URL
    /// is set).
    Serve(ServeArgs),
    /// Run the gateway emulator alone (docs/sandbox.md).
    Sandbox(SandboxArgs),
    /// Manage the dashboard's staff accounts.
    Users(users::UsersArgs),
    /// The key sealing secrets at rest: generate one, or re-seal under the current one.
    Keys(keys::KeysArgs),
}

/// Options of `checkout-server serve`; every setting is a config-file key or an environment
/// variable (LISTEN, DATABASE_URL, GATEWAY_BASE_URL, MERCHANT_SECRET_KEY, ...).
#[derive(Debug, Args)]
struct ServeArgs {
    /// TOML configuration file (keys in lower case, plans under [plans.<id>]); environment
    /// variables override it.
    #[arg(long, value_name = "FILE", env = "CHECKOUT_CONFIG")]
    config: Option<PathBuf>,
    /// Faults of the in-process emulator for the whole run (only without GATEWAY_BASE_URL),
    /// `[ENDPOINT=]FAULT[*COUNT]`, comma-separated, e.g. `acs=refuse-framing` (the bank's page
    /// refuses the 3-D Secure dialog's frame); `POST /_sandbox/sandbox/faults` arms them at run
    /// time.
    #[arg(
        long = "sandbox-fault",
        env = "SANDBOX_FAULTS",
        value_name = "[ENDPOINT=]FAULT[*COUNT]",
        value_delimiter = ','
    )]
    sandbox_faults: Vec<ArmedFault>,
    /// Where the in-process emulator keeps its state (stored cards, transactions,
    /// subscriptions, its clock) across restarts, sealed with AES-256-GCM under the key file
    /// beside it (same name, extension `.key`): `data-dir` (default) for
    /// `gateway-emulator.state` beside the SQLite database (`data/` with PostgreSQL), a file
    /// path, or `off` to keep it in memory only. Written at most once a second and at a
    /// graceful stop; a file that cannot be opened stops the start (move it aside to start
    /// empty).
    #[arg(
        long = "sandbox-state",
        env = "SANDBOX_STATE",
        value_name = "data-dir|FILE|off",
        default_value = "data-dir"
    )]
    sandbox_state: compose::EmulatorState,
}

/// Options of `checkout-server sandbox`.
#[derive(Debug, Args)]
struct SandboxArgs {
    /// Address to listen on; port 0 picks a free port.
    #[arg(long, env = "SANDBOX_LISTEN", default_value = "127.0.0.1:8090")]
    listen: SocketAddr,
    /// API key accepted as the Basic username.
    #[arg(long, env = "SANDBOX_API_KEY", default_value = DEFAULT_API_KEY)]
    api_key: String,
    /// Value accepted in the `x-api-key` header.
    #[arg(long, env = "SANDBOX_X_API_KEY", default_value = DEFAULT_X_API_KEY)]
    x_api_key: String,
    /// Public URL of the emulator when it sits behind a proxy (default: http://<listen>).
    #[arg(long, env = "SANDBOX_PUBLIC_BASE_URL")]
    public_base_url: Option<String>,
    /// Seconds the hanging test card (4000000000000259) takes to answer.
    #[arg(long, default_value_t = 120)]
    hang_seconds: u64,
    /// Webhook attempts in total, the first included.
    #[arg(long, default_value_t = 8)]
    webhook_attempts: u32,
    /// Milliseconds before the second webhook attempt; doubles per attempt up to 60 s.
    #[arg(long, default_value_t = 1000)]
    webhook_base_delay_ms: u64,
    /// Fault active for the whole run, `[ENDPOINT=]FAULT[*COUNT]`, e.g.
    /// `payment=status:503:after*2` or `latency:200`; repeatable.
    #[arg(long = "fault", value_name = "[ENDPOINT=]FAULT[*COUNT]")]
    faults: Vec<ArmedFault>,
    /// Merchant legal name shown on transactions and the 3DS page.
    #[arg(long, default_value = "Sandbox Merchant Ltd")]
    merchant_name: String,
    /// Merchant id (`mid`) shown on transactions.
    #[arg(long, default_value = "SANDBOX-MID-0001")]
    merchant_mid: String,
    /// Keep the emulator's state (stored cards, transactions, subscriptions, its clock) in
    /// FILE across restarts, sealed with AES-256-GCM under the key file beside it (same name,
    /// extension `.key`, created with mode 0600). Written at most once a second and at Ctrl-C;
    /// a file that cannot be opened stops the start (move it aside to start empty). Default:
    /// in memory only.
    #[arg(long, value_name = "FILE")]
    state: Option<PathBuf>,
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Serve(args) => run_serve(args).await,
        Command::Sandbox(args) => {
            checkout_server::logging::init(LogFormat::Text).context("cannot start logging")?;
            run_sandbox(args).await
        }
        Command::Users(args) => users::run(args).await,
        Command::Keys(args) => keys::run(args).await,
    }
}

/// Loads the configuration (a bad value, or no card form's build where `COMPONENT_DIR` says,
/// stops here, naming its key), starts logging in the configured format, binds the server
/// (and, in the sandbox, the demo shop) and serves until SIGTERM or Ctrl-C.
async fn run_serve(args: ServeArgs) -> anyhow::Result<()> {
    let mut config = Config::load(args.config.as_deref(), &compose::emulator_defaults())
        .context("configuration")?;
    config.component_dir =
        component::locate_here(&config.component_dir).context("configuration")?;
    checkout_server::logging::init(config.log_format).context("cannot start logging")?;
    let persistence = compose::emulator_persistence(&config, &args.sandbox_state)?;
    let state_file = persistence
        .as_ref()
        .map(|persistence| persistence.file.path().display().to_string());
    let listener = TcpListener::bind(config.listen)
        .await
        .with_context(|| format!("cannot listen on {} (LISTEN)", config.listen))?;
    let demo = compose::bind_demo(&mut config).await?;
    let composed = config.clone();
    let shop_url = demo.as_ref().map(|demo| demo.base.clone());
    let mut shop = None;
    let mut keeper = None;
    let server = Server::build(config, listener, |addresses| {
        let mut sandbox = compose::in_process(
            &composed,
            SandboxConfig {
                default_faults: args.sandbox_faults.clone(),
                persistence,
                ..SandboxConfig::default()
            },
            addresses,
            shop_url.as_deref(),
        );
        keeper = sandbox.as_mut().and_then(|sandbox| sandbox.keeper.take());
        let (mounts, site) = compose::mount(sandbox);
        shop = site;
        mounts
    })
    .await?;
    let shop_task = compose::serve_demo(demo, shop);
    let shop_page =
        shop_url.map(|url| format!("{url}/  (its own origin, embedding the card form)"));
    let link_page = compose::demo_link(server.state())
        .await
        .context("the demo's payment link")?
        .map(|url| format!("{url}  (a payment link: pay it with a test card)"));
    let beside: Vec<_> = shop_page
        .iter()
        .map(|page| ("demo shop", page.as_str()))
        .chain(link_page.iter().map(|page| ("payment link", page.as_str())))
        .chain(
            state_file
                .iter()
                .map(|file| ("emulator state", file.as_str())),
        )
        .collect();
    server.print_banner(&beside);
    let served = server.run(shutdown_signal()).await;
    if let Some(task) = shop_task {
        task.abort();
    }
    if let Some(keeper) = keeper {
        keeper
            .finish()
            .context("the gateway emulator's last changes")?;
    }
    served
}

async fn run_sandbox(args: SandboxArgs) -> anyhow::Result<()> {
    anyhow::ensure!(!args.api_key.is_empty(), "--api-key must not be empty");
    anyhow::ensure!(!args.x_api_key.is_empty(), "--x-api-key must not be empty");
    anyhow::ensure!(
        args.webhook_attempts > 0,
        "--webhook-attempts must be at least 1"
    );
    let listener = TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("cannot listen on {}", args.listen))?;
    let address = listener
        .local_addr()
        .context("cannot read the listening address")?;
    let base_url = args.public_base_url.clone().map_or_else(
        || format!("http://{address}"),
        |url| url.trim_end_matches('/').to_owned(),
    );
    let defaults = SandboxConfig::default();
    let config = SandboxConfig {
        api_key: SecretString::from(args.api_key),
        x_api_key: SecretString::from(args.x_api_key),
        public_base_url: Some(base_url.clone()),
        webhook: sandbox::WebhookRetry {
            max_attempts: args.webhook_attempts,
            base_delay: Duration::from_millis(args.webhook_base_delay_ms),
            ..defaults.webhook
        },
        hang: Duration::from_secs(args.hang_seconds),
        merchant_legal_name: args.merchant_name,
        merchant_mid: args.merchant_mid,
        default_faults: args.faults,
        persistence: args
            .state
            .map(|path| StateFile::at(path).and_then(Persistence::open))
            .transpose()
            .context("--state")?,
        ..defaults
    };
    print_banner(&base_url, &config);
    tokio::select! {
        served = sandbox::serve(config, listener) => served.context("the emulator stopped")?,
        signal = tokio::signal::ctrl_c() => {
            signal.context("cannot listen for Ctrl-C")?;
            tracing::info!("stopping the emulator");
        }
    }
    Ok(())
}

/// Tells the operator where the emulator is and which credentials it accepts (sandbox keys,
/// meant to be shared with the test client).
fn print_banner(base_url: &str, config: &SandboxConfig) {
    let api_key = config.api_key.expose_secret();
    println!("gateway emulator listening on {base_url}");
    println!("  GATEWAY_BASE_URL={base_url}  (for checkout-server serve, which adds the API path)");
    println!("  API path:       {base_url}{API_PREFIX}…  (for other clients)");
    println!("  GATEWAY_API_KEY={api_key}");
    println!("  Authorization:  Basic {}", BASE64.encode(api_key));
    println!("  GATEWAY_X_API_KEY={}", config.x_api_key.expose_secret());
    println!("  control API:    {base_url}/sandbox/state, /sandbox/faults, /sandbox/clock/advance");
    match &config.persistence {
        Some(persistence) => println!(
            "  state:          {} (sealed; kept across restarts)",
            persistence.file.path().display()
        ),
        None => println!("  state:          in memory (--state FILE keeps it across restarts)"),
    }
    for fault in &config.default_faults {
        println!(
            "  fault:          {} on {}",
            fault.fault,
            fault.endpoint.as_deref().unwrap_or("every endpoint")
        );
    }
}
