//! Gateway client configuration: where the gateway is, the two credentials, time limits and
//! the retry policy for safe reads.

use std::time::Duration;

use secrecy::SecretString;

use super::retry::RetryPolicy;

/// Everything [`GatewayClient::new`](super::GatewayClient::new) needs.
///
/// `Debug` is safe to log: `SecretString` prints `[REDACTED]`.
#[derive(Debug, Clone)]
pub struct GatewayConfig {
    /// Scheme, host, port and optionally a path prefix, e.g. `https://api.paymentoptions.com`
    /// or `http://127.0.0.1:8080/_sandbox` (an emulator mounted under a prefix); the client
    /// appends `/api/v1/server-to-server-interface/...`.
    pub base_url: String,
    /// The API key, sent as the Basic-auth username (base64 of the key alone).
    pub api_key: SecretString,
    /// The `x-api-key` header value.
    pub x_api_key: SecretString,
    /// Limit on establishing the TCP/TLS connection.
    pub connect_timeout: Duration,
    /// Limit on a whole attempt: connect, send, and read the full response.
    pub total_timeout: Duration,
    /// Retries for safe reads (status, subscription get and list). POSTs are never retried.
    pub retry: RetryPolicy,
}

impl GatewayConfig {
    /// A configuration with 5 s connect and 30 s total time limits and the default retry policy.
    pub fn new(
        base_url: impl Into<String>,
        api_key: SecretString,
        x_api_key: SecretString,
    ) -> Self {
        Self {
            base_url: base_url.into(),
            api_key,
            x_api_key,
            connect_timeout: Duration::from_secs(5),
            total_timeout: Duration::from_secs(30),
            retry: RetryPolicy::default(),
        }
    }
}
