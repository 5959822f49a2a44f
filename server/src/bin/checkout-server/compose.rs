//! Where the binary puts the two crates together: without `GATEWAY_BASE_URL`, checkout-server
//! runs with checkout-sandbox's emulator mounted in-process (its keys and demo plans as the
//! configuration's defaults) and the demo shop on every path the API does not route. With a
//! real gateway nothing of the sandbox is mounted. The integration tests compose their servers
//! with this same file.

use checkout_sandbox::in_process::{Host, InProcess, PREFIX};
use checkout_sandbox::{DEFAULT_API_KEY, DEFAULT_X_API_KEY, SandboxConfig, demo};
use checkout_server::config::{Config, EmulatorDefaults};
use checkout_server::serve::{Addresses, Mounts};

/// The configuration's fallbacks while no gateway is configured.
pub fn emulator_defaults() -> EmulatorDefaults {
    EmulatorDefaults {
        api_key: DEFAULT_API_KEY.to_owned(),
        x_api_key: DEFAULT_X_API_KEY.to_owned(),
        plans: demo::plans::plans(),
    }
}

/// The emulator (configured from `template`) and demo shop for a server configured by
/// `config` at `addresses`; `None` with a real gateway.
pub fn in_process(
    config: &Config,
    template: SandboxConfig,
    addresses: &Addresses,
) -> Option<InProcess> {
    config
        .gateway
        .base_url
        .is_none()
        .then(|| InProcess::new(template, host(config, addresses)))
}

/// Mounts `sandbox`: the emulator under [`PREFIX`], the shop on every other path.
pub fn mount(sandbox: Option<InProcess>) -> Mounts {
    sandbox.map_or_else(Mounts::default, |sandbox| Mounts {
        gateway: Some((PREFIX.to_owned(), sandbox.gateway)),
        site: Some(sandbox.shop),
    })
}

/// What the in-process emulator and shop need to know of the server at `addresses`.
fn host(config: &Config, addresses: &Addresses) -> Host {
    Host {
        public_url: addresses.public.clone(),
        internal_url: addresses.internal.clone(),
        api_key: config.gateway.api_key.clone(),
        x_api_key: config.gateway.x_api_key.clone(),
        merchant_secret_key: config.merchant.secret_key.clone(),
        merchant_name: config.merchant.name.clone(),
        plans: config.plans.iter().cloned().collect(),
    }
}
