//! Running the emulator on a socket: [`serve`] for the CLI and [`Sandbox`] for tests, which
//! start it on `127.0.0.1:0` and read the base URL back. Either keeps the state in its file
//! while it runs when `SandboxConfig::persistence` says so ([`StateKeeper`]).

use std::io;
use std::net::SocketAddr;

use tokio::net::{TcpListener, ToSocketAddrs};
use tokio::task::JoinHandle;

use super::config::SandboxConfig;
use super::keeper::StateKeeper;
use super::router;
use super::state::SandboxState;

/// Serves the emulator on `listener` until the process stops (or the future is dropped, which
/// writes the state's last changes when it is persisted). Without a configured
/// `public_base_url`, the emulator's URLs use `http://<listening address>`.
pub async fn serve(config: SandboxConfig, listener: TcpListener) -> io::Result<()> {
    let state = prepare(config, &listener)?;
    let _keeper = StateKeeper::for_state(&state);
    run(state, listener).await
}

/// A running emulator; dropping it stops accepting connections.
#[derive(Debug)]
pub struct Sandbox {
    base_url: String,
    address: SocketAddr,
    state: SandboxState,
    task: JoinHandle<io::Result<()>>,
    keeper: Option<StateKeeper>,
}

impl Sandbox {
    /// Starts the emulator on `address` (use `127.0.0.1:0` for an ephemeral port) with
    /// `config`, on the current tokio runtime.
    pub async fn start_on(address: impl ToSocketAddrs, config: SandboxConfig) -> io::Result<Self> {
        let listener = TcpListener::bind(address).await?;
        let address = listener.local_addr()?;
        let state = prepare(config, &listener)?;
        let base_url = state.config.public_url("");
        let task = tokio::spawn(run(state.clone(), listener));
        let keeper = StateKeeper::for_state(&state);
        Ok(Self {
            base_url,
            address,
            state,
            task,
            keeper,
        })
    }

    /// Starts the emulator on an ephemeral loopback port.
    pub async fn start(config: SandboxConfig) -> io::Result<Self> {
        Self::start_on("127.0.0.1:0", config).await
    }

    /// The base URL, without a trailing slash (`http://127.0.0.1:41234`).
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The full URL of a gateway endpoint: `api_url("payment")`.
    pub fn api_url(&self, endpoint: &str) -> String {
        format!(
            "{}{}/{}",
            self.base_url,
            super::api::API_PREFIX,
            endpoint.trim_start_matches('/')
        )
    }

    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The emulator's state (for assertions beside the HTTP API).
    pub fn state(&self) -> &SandboxState {
        &self.state
    }
}

impl Drop for Sandbox {
    /// Stops accepting connections, then writes the state's last changes when it is persisted.
    fn drop(&mut self) {
        self.task.abort();
        drop(self.keeper.take());
    }
}

fn prepare(mut config: SandboxConfig, listener: &TcpListener) -> io::Result<SandboxState> {
    if config.public_base_url.is_none() {
        config.public_base_url = Some(format!("http://{}", listener.local_addr()?));
    }
    Ok(SandboxState::new(config))
}

async fn run(state: SandboxState, listener: TcpListener) -> io::Result<()> {
    let app = router(state).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, app).await
}
