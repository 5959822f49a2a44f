//! Everything an emulator run can be configured with, and the documented defaults.

use std::time::Duration;

use secrecy::SecretString;

use super::faults::ArmedFault;
use super::persist::Persistence;

/// The API key the emulator accepts when none is configured (Basic username, no password).
pub const DEFAULT_API_KEY: &str = "sandbox_api_key";
/// The `x-api-key` value the emulator accepts when none is configured.
pub const DEFAULT_X_API_KEY: &str = "sandbox_x_api_key";

/// Configuration of one emulator instance.
#[derive(Debug, Clone)]
pub struct SandboxConfig {
    /// Expected Basic username (the merchant's API key); see [`DEFAULT_API_KEY`].
    pub api_key: SecretString,
    /// Expected `x-api-key` header; see [`DEFAULT_X_API_KEY`].
    pub x_api_key: SecretString,
    /// Absolute URL at which [`router`](super::router) is reachable, without a trailing slash,
    /// including any path prefix it is mounted under (`http://127.0.0.1:8080/gateway`). Every
    /// absolute URL the emulator emits (3DS `url` and `redirect_url`, the ACS form action) is
    /// built from it. `None`: [`serve`](super::serve) fills in `http://<listening address>`;
    /// a bare router then emits root-relative URLs.
    pub public_base_url: Option<String>,
    /// How webhooks are retried.
    pub webhook: WebhookRetry,
    /// How long a call with the hanging test card takes to answer (default 120 s).
    pub hang: Duration,
    /// Largest accepted request body in bytes (default 64 KiB); larger bodies get 413.
    pub body_limit: usize,
    /// `merchant_details.legal_name` on every transaction, and the name on the ACS page.
    pub merchant_legal_name: String,
    /// `merchant_details.mid` on every transaction.
    pub merchant_mid: String,
    /// Faults active from the start of the run (see [`super::faults`]).
    pub default_faults: Vec<ArmedFault>,
    /// Origins whose pages may show the 3-D Secure page in a frame (the shops' pages, as a
    /// challenge is shown in the shop's own page), besides the emulator's own origin (where
    /// checkout-server's dialog page frames it, when the emulator runs inside it); empty: any
    /// page, like an issuer's page that cannot know every shop. The `refuse-framing` fault
    /// refuses every frame.
    pub acs_frame_ancestors: Vec<String>,
    /// Where the state is kept across restarts, and what it held at start; `None` (the
    /// default): in memory only (see [`super::persist`]).
    pub persistence: Option<Persistence>,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        Self {
            api_key: SecretString::from(DEFAULT_API_KEY),
            x_api_key: SecretString::from(DEFAULT_X_API_KEY),
            public_base_url: None,
            webhook: WebhookRetry::default(),
            hang: Duration::from_secs(120),
            body_limit: 64 * 1024,
            merchant_legal_name: "Sandbox Merchant Ltd".to_owned(),
            merchant_mid: "SANDBOX-MID-0001".to_owned(),
            default_faults: Vec::new(),
            acs_frame_ancestors: Vec::new(),
            persistence: None,
        }
    }
}

/// Webhook retry schedule: attempt 1 at once, then attempt `n` (n ≥ 2) after
/// `base_delay × 2^(n−2)` capped at `max_delay`. With the defaults that is 1 s, 2 s, 4 s, 8 s,
/// 16 s, 32 s, 60 s: eight attempts over about two minutes. An attempt fails on a connection
/// error, a timeout or any non-2xx status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WebhookRetry {
    /// Total attempts including the first (default 8).
    pub max_attempts: u32,
    /// Delay before the second attempt (default 1 s); doubles each time.
    pub base_delay: Duration,
    /// Longest delay between two attempts (default 60 s).
    pub max_delay: Duration,
    /// Time allowed for one attempt, connect to response (default 10 s).
    pub attempt_timeout: Duration,
}

impl Default for WebhookRetry {
    fn default() -> Self {
        Self {
            max_attempts: 8,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(60),
            attempt_timeout: Duration::from_secs(10),
        }
    }
}

impl WebhookRetry {
    /// The wait before attempt number `attempt` (1-based): zero for the first.
    pub fn delay_before(&self, attempt: u32) -> Duration {
        if attempt <= 1 {
            return Duration::ZERO;
        }
        let doublings = (attempt - 2).min(31);
        self.base_delay
            .checked_mul(1u32 << doublings)
            .map_or(self.max_delay, |delay| delay.min(self.max_delay))
    }
}

impl SandboxConfig {
    /// The CSP `frame-ancestors` sources of the 3-D Secure page: `'none'` when `refused`, its
    /// own origin and the configured shop origins, or any page (`*`) when none are configured.
    pub(crate) fn acs_frame_ancestors(&self, refused: bool) -> String {
        if refused {
            "'none'".to_owned()
        } else if self.acs_frame_ancestors.is_empty() {
            "*".to_owned()
        } else {
            format!("'self' {}", self.acs_frame_ancestors.join(" "))
        }
    }

    /// Joins `path` (starting with `/`) to the public base URL.
    pub(crate) fn public_url(&self, path: &str) -> String {
        match &self.public_base_url {
            Some(base) => format!("{}{path}", base.trim_end_matches('/')),
            None => path.to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_schedule_doubles_up_to_the_cap() {
        let retry = WebhookRetry::default();
        let delays: Vec<u64> = (1..=retry.max_attempts)
            .map(|n| retry.delay_before(n).as_secs())
            .collect();
        assert_eq!(delays, [0, 1, 2, 4, 8, 16, 32, 60]);
    }

    #[test]
    fn huge_attempt_numbers_stay_at_the_cap() {
        let retry = WebhookRetry::default();
        assert_eq!(retry.delay_before(40), retry.max_delay);
        assert_eq!(retry.delay_before(u32::MAX), retry.max_delay);
    }

    #[test]
    fn the_acs_page_is_framed_by_the_shops_unless_refused() {
        let mut config = SandboxConfig::default();
        assert_eq!(config.acs_frame_ancestors(false), "*");
        config.acs_frame_ancestors = vec!["https://a.example".into(), "https://b.example".into()];
        assert_eq!(
            config.acs_frame_ancestors(false),
            "'self' https://a.example https://b.example"
        );
        assert_eq!(config.acs_frame_ancestors(true), "'none'");
    }

    #[test]
    fn public_urls_join_without_double_slashes() {
        let mut config = SandboxConfig {
            public_base_url: Some("http://127.0.0.1:9/gw/".to_owned()),
            ..SandboxConfig::default()
        };
        assert_eq!(
            config.public_url("/sandbox/acs"),
            "http://127.0.0.1:9/gw/sandbox/acs"
        );
        config.public_base_url = None;
        assert_eq!(config.public_url("/sandbox/acs"), "/sandbox/acs");
    }
}
