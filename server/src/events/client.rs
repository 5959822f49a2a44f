//! The HTTP client events go out with, guarded against server-side request forgery: a merchant
//! names the URL, so it could otherwise make this server post into its own network.
//!
//! - Only the URLs [`check_target_url`] passes: `http` and `https` with a host.
//! - Unless private targets are allowed (`WEBHOOK_ALLOW_PRIVATE`), every address a host name
//!   resolves to passes [`target::is_public`](crate::webhook_rules::target::is_public) in the client's own
//!   DNS resolver ([`PublicOnly`]), so the check applies to the address actually connected to
//!   (a name cannot pass a check and then resolve elsewhere); an IP-literal host, which the
//!   client does not resolve, is checked before sending.
//! - No redirects followed (a 3xx is a failed attempt), no proxy from the environment.
//! - Connect timeout 3 s, whole exchange 10 s; at most 4 KB of the answer's body is read, and
//!   never kept or logged.
//!
//! Errors are described without the URL (it may carry the shop's credentials) and without the
//! addresses a name resolved to (they are stored and shown with the delivery).

use std::error::Error as StdError;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::header::{CONTENT_TYPE, HeaderMap, HeaderValue};

use crate::webhook_rules::target::{check_target_url, is_public};

/// The `User-Agent` of every delivery.
pub const USER_AGENT: &str = concat!(
    "checkout-server/",
    env!("CARGO_PKG_VERSION"),
    " (webhooks; +https://www.standardwebhooks.com)"
);

/// The client's time and size limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClientLimits {
    /// Longest wait for a connection.
    pub connect_timeout: Duration,
    /// Longest wait for the whole exchange, answer body included.
    pub timeout: Duration,
    /// Most bytes of an answer's body read (then the connection is dropped).
    pub max_body_bytes: usize,
}

impl Default for ClientLimits {
    fn default() -> Self {
        Self {
            connect_timeout: Duration::from_secs(3),
            timeout: Duration::from_secs(10),
            max_body_bytes: 4 * 1024,
        }
    }
}

/// What came of one request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// The answer's status, when one came.
    pub status: Option<u16>,
    /// What went wrong, when no answer came (never a response body, never the URL).
    pub error: Option<String>,
    /// From sending until the answer (its body read as far as read) or the error.
    pub duration: Duration,
}

impl Answer {
    /// Whether the endpoint took the event (2xx).
    pub fn delivered(&self) -> bool {
        self.status
            .is_some_and(|status| (200..300).contains(&status))
    }

    /// A request not sent, for `reason`.
    pub fn failed(reason: String) -> Self {
        Self {
            status: None,
            error: Some(reason),
            duration: Duration::ZERO,
        }
    }
}

/// Posts events to the shop's endpoints. Cloning shares the connection pool.
#[derive(Clone, Debug)]
pub struct WebhookClient {
    http: reqwest::Client,
    allow_private: bool,
    limits: ClientLimits,
}

impl WebhookClient {
    /// A client; `allow_private` lifts the address check (the sandbox, `WEBHOOK_ALLOW_PRIVATE`).
    pub fn new(allow_private: bool, limits: ClientLimits) -> Result<Self, reqwest::Error> {
        let mut builder = reqwest::Client::builder()
            .user_agent(USER_AGENT)
            .redirect(reqwest::redirect::Policy::none())
            .no_proxy()
            .connect_timeout(limits.connect_timeout)
            .timeout(limits.timeout)
            .pool_idle_timeout(Duration::from_secs(30))
            .pool_max_idle_per_host(32);
        if !allow_private {
            builder = builder.dns_resolver(Arc::new(PublicOnly));
        }
        Ok(Self {
            http: builder.build()?,
            allow_private,
            limits,
        })
    }

    /// Whether private targets are allowed.
    pub fn allows_private(&self) -> bool {
        self.allow_private
    }

    /// POSTs `body` (JSON) to `url` with `headers`; never fails, the answer tells.
    pub async fn post(&self, url: &str, headers: HeaderMap, body: Vec<u8>) -> Answer {
        let url = match check_target_url(url, self.allow_private) {
            Ok(url) => url,
            Err(refusal) => return Answer::failed(refusal.to_string()),
        };
        let started = Instant::now();
        let sent = self
            .http
            .post(url)
            .headers(headers)
            .header(CONTENT_TYPE, HeaderValue::from_static("application/json"))
            .body(body)
            .send()
            .await;
        let mut response = match sent {
            Ok(response) => response,
            Err(error) => {
                return Answer {
                    status: None,
                    error: Some(describe(&error, &self.limits)),
                    duration: started.elapsed(),
                };
            }
        };
        let status = response.status().as_u16();
        // Read a little of the body (so a small answer leaves the connection reusable), never
        // more than the limit, and throw it away.
        let mut read = 0;
        while read < self.limits.max_body_bytes {
            match response.chunk().await {
                Ok(Some(chunk)) => read += chunk.len(),
                Ok(None) | Err(_) => break,
            }
        }
        Answer {
            status: Some(status),
            error: None,
            duration: started.elapsed(),
        }
    }
}

/// An error in words: what kind, and its innermost causes, without the URL.
fn describe(error: &reqwest::Error, limits: &ClientLimits) -> String {
    if error.is_timeout() {
        return if error.is_connect() {
            format!(
                "connect timed out after {} ms",
                limits.connect_timeout.as_millis()
            )
        } else {
            format!("no answer within {} ms", limits.timeout.as_millis())
        };
    }
    let kind = if error.is_connect() {
        "cannot connect"
    } else if error.is_request() || error.is_body() {
        "sending failed"
    } else {
        "request failed"
    };
    let mut causes: Vec<String> = Vec::new();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !causes.iter().any(|known| known.contains(&text)) {
            causes.push(text);
        }
        source = cause.source();
    }
    // The innermost causes say most ("Connection refused", the resolver's refusal).
    let detail = causes
        .iter()
        .rev()
        .take(2)
        .rev()
        .cloned()
        .collect::<Vec<_>>()
        .join(": ");
    let mut text = if detail.is_empty() {
        kind.to_owned()
    } else {
        format!("{kind}: {detail}")
    };
    if text.len() > 300 {
        let mut cut = 300;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
    }
    text
}

/// A resolver that keeps only the public addresses of a name and fails when none is left, so
/// a connection can only ever be made to an address [`is_public`] allows.
#[derive(Debug, Clone, Copy, Default)]
pub struct PublicOnly;

/// A name that resolved to no public address. It does not say which addresses: the error is
/// stored and shown with the delivery, and would map the server's network (the log has them).
#[derive(Debug, thiserror::Error)]
#[error("{host} resolves to no public address; WEBHOOK_ALLOW_PRIVATE is false")]
struct NotPublic {
    host: String,
}

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let resolved: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let public: Vec<SocketAddr> = resolved
                .iter()
                .copied()
                .filter(|address| is_public(address.ip()))
                .collect();
            if public.is_empty() {
                let found = resolved
                    .iter()
                    .map(|address| address.ip().to_string())
                    .collect::<Vec<_>>()
                    .join(", ");
                tracing::warn!(%host, addresses = %found, "webhook target resolves to no public address");
                let refused: Box<dyn StdError + Send + Sync> = Box::new(NotPublic { host });
                return Err(refused);
            }
            let addresses: Addrs = Box::new(public.into_iter());
            Ok(addresses)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn delivery_errors_name_no_resolved_address() {
        for allow_private in [false, true] {
            let client = WebhookClient::new(allow_private, ClientLimits::default()).unwrap();
            let answer = client
                .post("http://localhost:9/events", HeaderMap::new(), Vec::new())
                .await;
            let error = answer.error.expect("nothing listens on port 9");
            for address in ["127.0.0.1", "::1"] {
                assert!(!error.contains(address), "{allow_private}: {error}");
            }
            if !allow_private {
                assert!(
                    error.contains("localhost resolves to no public address"),
                    "{error}"
                );
            }
        }
    }

    #[tokio::test]
    async fn names_resolving_to_internal_addresses_are_refused() {
        let refused = PublicOnly
            .resolve("localhost".parse::<Name>().expect("a name"))
            .await
            .err()
            .expect("localhost is loopback");
        assert!(
            refused.to_string().contains("no public address"),
            "{refused}"
        );
    }
}
