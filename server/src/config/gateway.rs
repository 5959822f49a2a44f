//! Where the gateway is and how to call it (`GATEWAY_*`), and what stands in for it while none
//! is configured: the in-process emulator's credentials and plans ([`EmulatorDefaults`]).

use std::time::Duration;

use checkout::contract::PlanTerms;
use secrecy::SecretString;

use super::error::ConfigError;
use super::source::Layers;
use super::{SANDBOX_MERCHANT_ID, missing, or_default, values};

/// Where the gateway is and how to call it.
#[derive(Debug, Clone)]
pub struct GatewaySettings {
    /// `GATEWAY_BASE_URL`; `None` mounts the in-process emulator.
    pub base_url: Option<String>,
    /// `GATEWAY_API_KEY`.
    pub api_key: SecretString,
    /// `GATEWAY_X_API_KEY`.
    pub x_api_key: SecretString,
    /// `GATEWAY_MERCHANT_ID`.
    pub merchant_id: String,
    /// `GATEWAY_CONNECT_TIMEOUT_MS`.
    pub connect_timeout: Duration,
    /// `GATEWAY_TIMEOUT_MS`.
    pub timeout: Duration,
}

impl GatewaySettings {
    /// True when no real gateway is configured: the emulator runs in-process, no real money.
    pub fn is_sandbox(&self) -> bool {
        self.base_url.is_none()
    }
}

/// What the configuration falls back to while no gateway is configured (`GATEWAY_BASE_URL`
/// unset), supplied by whoever mounts the in-process emulator: the credentials it accepts
/// (unless `GATEWAY_API_KEY`/`GATEWAY_X_API_KEY` are set) and the plans its demo shop sells
/// (unless the file has a `[plans]` table).
#[derive(Debug, Clone, Default)]
pub struct EmulatorDefaults {
    /// `GATEWAY_API_KEY` without a gateway.
    pub api_key: String,
    /// `GATEWAY_X_API_KEY` without a gateway.
    pub x_api_key: String,
    /// The plan catalogue without a gateway.
    pub plans: Vec<PlanTerms>,
}

/// `GATEWAY_*`: a real gateway's address and credentials, or the emulator's.
pub(super) fn resolve(
    layers: &Layers,
    emulator: &EmulatorDefaults,
) -> Result<GatewaySettings, ConfigError> {
    let get = |key| layers.get(key);
    let base_url = get("GATEWAY_BASE_URL").map(values::base_url).transpose()?;
    let required = |key: &'static str, sandbox_default: &str| match get(key) {
        Some(s) => values::secret(s, 1),
        None if base_url.is_none() => Ok(SecretString::from(sandbox_default.to_owned())),
        None => Err(missing(key)),
    };
    let api_key = required("GATEWAY_API_KEY", &emulator.api_key)?;
    let x_api_key = required("GATEWAY_X_API_KEY", &emulator.x_api_key)?;
    let merchant_id = match get("GATEWAY_MERCHANT_ID") {
        Some(s) => values::text(s, 128)?,
        None if base_url.is_none() => SANDBOX_MERCHANT_ID.to_owned(),
        None => return Err(missing("GATEWAY_MERCHANT_ID")),
    };
    Ok(GatewaySettings {
        api_key,
        x_api_key,
        merchant_id,
        connect_timeout: or_default(
            get("GATEWAY_CONNECT_TIMEOUT_MS"),
            |s| values::millis(s, 100, 60_000),
            || Ok(Duration::from_secs(5)),
        )?,
        timeout: or_default(
            get("GATEWAY_TIMEOUT_MS"),
            |s| values::millis(s, 100, 300_000),
            || Ok(Duration::from_secs(30)),
        )?,
        base_url,
    })
}
