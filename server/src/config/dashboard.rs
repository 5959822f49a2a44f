//! Where the merchant dashboard is served and how browsers reach it, and how long a staff
//! session lives.
//!
//! | key | default | meaning |
//! |---|---|---|
//! | `DASHBOARD_LISTEN` | `127.0.0.1:8082` | the dashboard's own listener (port 0 picks one); `off` serves none. Keep it internal or behind a TLS proxy |
//! | `DASHBOARD_PUBLIC_URL` | `http://<its listening address>` | the origin browsers use; every POST must come from it (`Origin`), and with `https://` the session cookie is `Secure` and `__Host-` prefixed. Plain `http://` only on a loopback host, unless `DASHBOARD_ALLOW_HTTP` |
//! | `DASHBOARD_ALLOW_HTTP` | `false` | `true` accepts a plain-`http://` `DASHBOARD_PUBLIC_URL` on another host (a private network you trust: the session cookie and passwords then cross it unencrypted) |
//! | `REVIEW_PENDING_AFTER_MINUTES` | 10 | a `pending` payment older than this shows in the review queue (1 to 43200) |
//! | `DASHBOARD_TIME_ZONE` | `UTC` | the IANA time zone whose days the overview counts in (`Europe/Berlin`); a page's `tz` parameter overrides it |
//! | `DASHBOARD_REQUIRE_2FA` | `false` | `true`: an `admin` without two-factor sign-in (TOTP) is sent to enrol and reaches nothing else until done |

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use super::error::ConfigError;
use super::source::{Layers, Setting};
use super::values;

/// Default `DASHBOARD_LISTEN`.
pub const DEFAULT_DASHBOARD_LISTEN: &str = "127.0.0.1:8082";

/// Default `REVIEW_PENDING_AFTER_MINUTES`.
pub const DEFAULT_REVIEW_PENDING_AFTER_MINUTES: u64 = 10;

/// A staff session ends after this long without a request: the session check and the
/// reconciler's sweep of dead sessions both go by it. Fixed, not a setting.
pub const SESSION_IDLE: time::Duration = time::Duration::minutes(30);
/// A staff session ends this long after login, however busy. Fixed, not a setting.
pub const SESSION_ABSOLUTE: time::Duration = time::Duration::hours(12);

/// `DASHBOARD_LISTEN`, `DASHBOARD_PUBLIC_URL` (with `DASHBOARD_ALLOW_HTTP`),
/// `REVIEW_PENDING_AFTER_MINUTES`, `DASHBOARD_TIME_ZONE`, `DASHBOARD_REQUIRE_2FA`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DashboardSettings {
    /// Where to listen; `None`: no dashboard (`off`).
    pub listen: Option<SocketAddr>,
    /// The public origin, without a trailing slash; `None`: `http://<bound address>`.
    pub public_url: Option<String>,
    /// How old a `pending` payment is before the review queue lists it.
    pub review_pending_after: Duration,
    /// The overview's default time zone, an IANA name known to the bundled tz database.
    pub time_zone: String,
    /// Admins must have two-factor sign-in before reaching any page.
    pub require_2fa: bool,
}

/// The zone named `name`: an IANA name such as `Europe/Berlin`, or `UTC`. Only names are
/// taken (letters, digits, `/ _ - +`, no `..`), never a path.
pub fn time_zone(name: &str) -> Result<jiff::tz::TimeZone, String> {
    let allowed = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_' | b'-' | b'+');
    if name.is_empty()
        || name.len() > 64
        || name.starts_with('/')
        || name.contains("..")
        || !name.bytes().all(allowed)
    {
        return Err("must be an IANA time zone name such as Europe/Berlin".to_owned());
    }
    jiff::tz::TimeZone::get(name)
        .map_err(|_| format!("{name} is not an IANA time zone name (such as Europe/Berlin or UTC)"))
}

/// `DASHBOARD_PUBLIC_URL`: an https origin, or http on a loopback host (the browser and the
/// server on one machine), or any http origin when `allow_http`. A cookie ignores ports, and
/// over plain http every proxy and Wi-Fi on the way reads the session and the password.
fn public_url(setting: &Setting, allow_http: bool) -> Result<String, ConfigError> {
    let url = values::base_url(setting)?;
    let host = reqwest::Url::parse(&url)
        .ok()
        .and_then(|parsed| parsed.host_str().map(str::to_owned))
        .unwrap_or_default();
    let loopback = match host.trim_matches(['[', ']']).parse::<IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host == "localhost" || host.ends_with(".localhost"),
    };
    if url.starts_with("http://") && !loopback && !allow_http {
        return Err(ConfigError::Invalid {
            key: setting.label(),
            reason: "plain http:// is taken only on a loopback host: the session cookie and \
                     passwords would cross the network unencrypted. Serve the dashboard over \
                     https (a TLS proxy), or set DASHBOARD_ALLOW_HTTP=true on a network you trust"
                .to_owned(),
        });
    }
    Ok(url)
}

impl DashboardSettings {
    /// Reads this file's keys (also listed in `source::KEYS`) from `layers`.
    pub(super) fn resolve(layers: &Layers) -> Result<Self, ConfigError> {
        let listen = match layers.get("DASHBOARD_LISTEN") {
            Some(setting) => values::listen_or_off(setting)?,
            None => DEFAULT_DASHBOARD_LISTEN.parse().ok(),
        };
        let allow_http = layers
            .get("DASHBOARD_ALLOW_HTTP")
            .map(values::boolean)
            .transpose()?
            .unwrap_or(false);
        let public_url = layers
            .get("DASHBOARD_PUBLIC_URL")
            .map(|setting| public_url(setting, allow_http))
            .transpose()?;
        let review_pending_after = match layers.get("REVIEW_PENDING_AFTER_MINUTES") {
            Some(setting) => values::minutes(setting, 1, 43_200)?,
            None => Duration::from_secs(DEFAULT_REVIEW_PENDING_AFTER_MINUTES * 60),
        };
        let time_zone = match layers.get("DASHBOARD_TIME_ZONE") {
            Some(setting) => {
                let name = setting.value.trim();
                time_zone(name).map_err(|reason| ConfigError::Invalid {
                    key: setting.label(),
                    reason,
                })?;
                name.to_owned()
            }
            None => "UTC".to_owned(),
        };
        let require_2fa = layers
            .get("DASHBOARD_REQUIRE_2FA")
            .map(values::boolean)
            .transpose()?
            .unwrap_or(false);
        Ok(Self {
            listen,
            public_url,
            review_pending_after,
            time_zone,
            require_2fa,
        })
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
        assert_eq!(config.dashboard.review_pending_after.as_secs(), 600);
        let hour = Config::from_pairs(&[("REVIEW_PENDING_AFTER_MINUTES", "60")], &emulator())
            .expect("an hour");
        assert_eq!(hour.dashboard.review_pending_after.as_secs(), 3600);
        assert_eq!(config.dashboard.time_zone, "UTC");
        let berlin = Config::from_pairs(&[("DASHBOARD_TIME_ZONE", "Europe/Berlin")], &emulator())
            .expect("Berlin");
        assert_eq!(berlin.dashboard.time_zone, "Europe/Berlin");
        assert!(!config.dashboard.require_2fa);
        let strict =
            Config::from_pairs(&[("DASHBOARD_REQUIRE_2FA", "true")], &emulator()).expect("2fa");
        assert!(strict.dashboard.require_2fa);
        for (key, value) in [
            ("DASHBOARD_LISTEN", "localhost"),
            ("DASHBOARD_PUBLIC_URL", "dash.example"),
            ("REVIEW_PENDING_AFTER_MINUTES", "0"),
            ("DASHBOARD_TIME_ZONE", "Europe/Atlantis"),
            ("DASHBOARD_TIME_ZONE", "../zoneinfo/UTC"),
            ("DASHBOARD_REQUIRE_2FA", "sometimes"),
            ("DASHBOARD_PUBLIC_URL", "http://dash.shop.example"),
            ("DASHBOARD_PUBLIC_URL", "http://192.168.1.20:8082"),
            ("DASHBOARD_ALLOW_HTTP", "perhaps"),
        ] {
            let err = Config::from_pairs(&[(key, value)], &emulator())
                .expect_err(key)
                .to_string();
            assert!(err.starts_with(&format!("{key} (environment)")), "{err}");
        }
    }

    #[test]
    fn plain_http_only_on_loopback_or_when_allowed() {
        let public = |pairs: &[(&str, &str)]| {
            Config::from_pairs(pairs, &emulator()).map(|c| c.dashboard.public_url)
        };
        for taken in [
            "https://dash.shop.example",
            "http://127.0.0.1:8082",
            "http://[::1]:8082",
            "http://localhost:8082",
            "http://dash.localhost",
        ] {
            let url = public(&[("DASHBOARD_PUBLIC_URL", taken)]).expect(taken);
            assert_eq!(url.as_deref(), Some(taken));
        }
        let err = public(&[("DASHBOARD_PUBLIC_URL", "http://dash.shop.example")])
            .expect_err("plain http")
            .to_string();
        assert!(err.contains("DASHBOARD_ALLOW_HTTP=true"), "{err}");
        let allowed = public(&[
            ("DASHBOARD_PUBLIC_URL", "http://dash.shop.example"),
            ("DASHBOARD_ALLOW_HTTP", "true"),
        ])
        .expect("allowed");
        assert_eq!(allowed.as_deref(), Some("http://dash.shop.example"));
    }
}
