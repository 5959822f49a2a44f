//! Where the merchant dashboard is served and how browsers reach it.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `DASHBOARD_LISTEN` | `127.0.0.1:8082` | the dashboard's own listener (port 0 picks one); `off` serves none. Keep it internal or behind a TLS proxy |
//! | `DASHBOARD_PUBLIC_URL` | `http://<its listening address>` | the origin browsers use; every POST must come from it (`Origin`), and with `https://` the session cookie is `Secure` and `__Host-` prefixed |

use std::net::SocketAddr;

use super::error::ConfigError;
use super::source::Layers;
use super::values;

/// Default `DASHBOARD_LISTEN`.
pub const DEFAULT_DASHBOARD_LISTEN: &str = "127.0.0.1:8082";

/// `DASHBOARD_LISTEN`, `DASHBOARD_PUBLIC_URL`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DashboardSettings {
    /// Where to listen; `None`: no dashboard (`off`).
    pub listen: Option<SocketAddr>,
    /// The public origin, without a trailing slash; `None`: `http://<bound address>`.
    pub public_url: Option<String>,
}

impl DashboardSettings {
    /// Reads this file's keys (also listed in `source::KEYS`) from `layers`.
    pub(super) fn resolve(layers: &Layers) -> Result<Self, ConfigError> {
        let listen = match layers.get("DASHBOARD_LISTEN") {
            Some(setting) if setting.value.trim().eq_ignore_ascii_case("off") => None,
            Some(setting) => Some(values::socket_addr(setting)?),
            None => DEFAULT_DASHBOARD_LISTEN.parse().ok(),
        };
        let public_url = layers
            .get("DASHBOARD_PUBLIC_URL")
            .map(values::base_url)
            .transpose()?;
        Ok(Self { listen, public_url })
    }

    /// The public origin once the listener is bound.
    pub fn public_url_for(&self, bound: SocketAddr) -> String {
        self.public_url
            .clone()
            .unwrap_or_else(|| format!("http://{bound}"))
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::config::tests::emulator;

    #[test]
    fn default_listener_off_and_bad_values() {
        let config = Config::from_pairs(&[], &emulator()).expect("defaults");
        assert_eq!(
            config.dashboard.listen.map(|a| a.to_string()).as_deref(),
            Some(super::DEFAULT_DASHBOARD_LISTEN)
        );
        let off = Config::from_pairs(&[("DASHBOARD_LISTEN", "off")], &emulator()).expect("off");
        assert_eq!(off.dashboard.listen, None);
        for (key, value) in [
            ("DASHBOARD_LISTEN", "localhost"),
            ("DASHBOARD_PUBLIC_URL", "dash.example"),
        ] {
            let err = Config::from_pairs(&[(key, value)], &emulator())
                .expect_err(key)
                .to_string();
            assert!(err.starts_with(&format!("{key} (environment)")), "{err}");
        }
    }
}
