//! Where the binary puts the two crates together: without `GATEWAY_BASE_URL`, checkout-server
//! runs with checkout-sandbox's emulator mounted in-process (its keys and demo plans as the
//! configuration's defaults) and the demo shop on every path the API does not route. With a
//! real gateway nothing of the sandbox is mounted.

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

/// What to mount beside the API of a server configured by `config`.
pub fn mounts(config: &Config) -> impl FnOnce(&Addresses) -> Mounts + use<> {
    let config = config.clone();
    move |addresses| {
        if config.gateway.base_url.is_some() {
            return Mounts::default();
        }
        let sandbox = InProcess::new(SandboxConfig::default(), host(&config, addresses));
        Mounts {
            gateway: Some((PREFIX.to_owned(), sandbox.gateway)),
            site: Some(sandbox.shop),
        }
    }
}

/// What the in-process emulator and shop need to know of the server at `addresses`.
pub fn host(config: &Config, addresses: &Addresses) -> Host {
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
