//! One HTTP exchange with the gateway: headers, time limits, and the retry rule.
//!
//! `GET`s are retried per [`RetryPolicy`]; `POST`s are sent exactly once. A `POST` that fails
//! before the connection is established is `Transport` (nothing was sent); any failure after
//! that (timeout, reset, unreadable body) is `OutcomeUnknown`. Interpreting the answer is
//! `outcome.rs`'s job.

use std::error::Error as _;
use std::time::{Duration, Instant};

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use reqwest::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, HeaderValue, RETRY_AFTER};
use reqwest::{Method, Url};
use secrecy::ExposeSecret;

use super::config::GatewayConfig;
use super::error::GatewayError;
use super::retry::RetryPolicy;
use crate::metrics::gateway::CallResult;

/// Path prefix of every server-to-server endpoint (gateway-interface.md, "Endpoints").
pub const API_PREFIX: &str = "/api/v1/server-to-server-interface/";

/// A complete HTTP answer: status and the whole body.
#[derive(Debug)]
pub(crate) struct Reply {
    pub status: u16,
    pub body: Vec<u8>,
    retry_after: Option<Duration>,
}

impl Reply {
    /// A reply with no `Retry-After` hint (for interpreting canned answers in tests).
    #[cfg(test)]
    pub(crate) fn new(status: u16, body: &[u8]) -> Self {
        Self {
            status,
            body: body.to_vec(),
            retry_after: None,
        }
    }
}

/// Why one attempt produced no [`Reply`].
enum AttemptError {
    /// The connection was never established: the request was not sent.
    NotSent(String),
    /// The request may have reached the gateway.
    AfterSend(String),
}

/// The HTTP side of the client. Holds the credentials as ready, sensitive header values.
#[derive(Clone)]
pub(crate) struct Transport {
    http: reqwest::Client,
    base: Url,
    authorization: HeaderValue,
    x_api_key: HeaderValue,
    retry: RetryPolicy,
}

impl Transport {
    /// Builds the HTTP client. Fails on a base URL that is not plain `http(s)://host[:port]`
    /// or on credentials that cannot be header values.
    pub fn new(config: &GatewayConfig) -> Result<Self, GatewayError> {
        let base = parse_base_url(&config.base_url)?;
        if config.connect_timeout.is_zero() || config.total_timeout.is_zero() {
            return Err(config_error("timeouts must be greater than zero"));
        }
        // Basic auth with the API key as username and no password: the contract says "The key
        // is base64-encoded", so the header is base64(key), without the `:` separator.
        let encoded = BASE64.encode(config.api_key.expose_secret().as_bytes());
        let authorization = sensitive(&format!("Basic {encoded}"), "api_key")?;
        let x_api_key = sensitive(config.x_api_key.expose_secret(), "x_api_key")?;
        let http = reqwest::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.total_timeout)
            // A redirect could carry the credentials elsewhere and re-send a POST.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| config_error(&format!("HTTP client: {}", chain(&e))))?;
        Ok(Self {
            http,
            base,
            authorization,
            x_api_key,
            retry: config.retry,
        })
    }

    /// The base URL (no credentials in it: `new` refuses user info).
    pub fn base_url(&self) -> &str {
        self.base.as_str()
    }

    /// Sends a `POST` exactly once. `body` is JSON; `None` sends no body and no Content-Type.
    pub async fn post(&self, path: &str, body: Option<Vec<u8>>) -> Result<Reply, GatewayError> {
        let url = self.url(path)?;
        match self.attempt(Method::POST, url, body, usize::MAX).await {
            Ok(reply) => Ok(reply),
            Err(AttemptError::NotSent(reason)) => {
                tracing::warn!(%reason, "gateway not reached; request not sent");
                Err(GatewayError::Transport { reason })
            }
            Err(AttemptError::AfterSend(reason)) => {
                tracing::warn!(%reason, "gateway outcome unknown");
                Err(GatewayError::OutcomeUnknown { reason })
            }
        }
    }

    /// Sends a `GET`, retrying transport failures and HTTP 429/502/503/504 with backoff.
    /// After the last attempt a retryable status is returned as a [`Reply`] for `outcome.rs`
    /// to turn into an error; a transport failure becomes `Transport`.
    pub async fn get(&self, path: &str) -> Result<Reply, GatewayError> {
        self.get_at_most(path, usize::MAX).await
    }

    /// [`get`](Self::get), reading at most `max_body` bytes of the answer: a longer body is
    /// not read into memory (`Transport`, retried like any failed read).
    pub async fn get_at_most(&self, path: &str, max_body: usize) -> Result<Reply, GatewayError> {
        let url = self.url(path)?;
        let mut attempt = 1;
        loop {
            let result = self.attempt(Method::GET, url.clone(), None, max_body).await;
            let (should_retry, retry_after) = match &result {
                Ok(reply) => (is_retryable_status(reply.status), reply.retry_after),
                Err(_) => (true, None),
            };
            if !should_retry || !self.retry.allows_another(attempt) {
                return result.map_err(|error| {
                    let (AttemptError::NotSent(reason) | AttemptError::AfterSend(reason)) = error;
                    GatewayError::Transport { reason }
                });
            }
            let wait = self.retry.backoff(attempt, retry_after);
            match &result {
                Ok(reply) => tracing::warn!(
                    http_status = reply.status,
                    attempt,
                    ?wait,
                    "retrying gateway read"
                ),
                Err(AttemptError::NotSent(reason) | AttemptError::AfterSend(reason)) => {
                    tracing::warn!(%reason, attempt, ?wait, "retrying gateway read")
                }
            }
            tokio::time::sleep(wait).await;
            attempt += 1;
        }
    }

    fn url(&self, path: &str) -> Result<Url, GatewayError> {
        // A base path (an emulator mounted under a prefix) is kept in front of the API prefix.
        let base_path = self.base.path().trim_end_matches('/');
        self.base
            .join(&format!("{base_path}{API_PREFIX}{path}"))
            .map_err(|e| config_error(&format!("cannot build the URL for `{path}`: {e}")))
    }

    /// One HTTP exchange, timed for `/metrics` (`crate::metrics::gateway`).
    async fn attempt(
        &self,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
        max_body: usize,
    ) -> Result<Reply, AttemptError> {
        let path = url.path();
        let path = path
            .split_once(API_PREFIX)
            .map_or(path, |(_, tail)| tail)
            .to_owned();
        let started = Instant::now();
        let result = self.exchange(method, url, body, max_body).await;
        let ended = match &result {
            Ok(reply) => CallResult::Status(reply.status),
            Err(_) => CallResult::Failed,
        };
        crate::metrics::gateway::observe(&path, started.elapsed(), ended);
        result
    }

    async fn exchange(
        &self,
        method: Method,
        url: Url,
        body: Option<Vec<u8>>,
        max_body: usize,
    ) -> Result<Reply, AttemptError> {
        let started = Instant::now();
        let mut request = self
            .http
            .request(method, url)
            .header(AUTHORIZATION, self.authorization.clone())
            .header("x-api-key", self.x_api_key.clone())
            .header(ACCEPT, "application/json");
        if let Some(body) = body {
            request = request.header(CONTENT_TYPE, "application/json").body(body);
        }
        let response = request.send().await.map_err(|e| {
            if e.is_connect() {
                AttemptError::NotSent(chain(&e))
            } else {
                AttemptError::AfterSend(chain(&e))
            }
        })?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = read_body(response, status, max_body).await?;
        tracing::debug!(
            http_status = status,
            elapsed_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            "gateway answered"
        );
        Ok(Reply {
            status,
            body,
            retry_after,
        })
    }
}

/// The whole body of `response`, refused once it passes `max_body` bytes (by its declared
/// length before anything is read, or as it arrives).
async fn read_body(
    mut response: reqwest::Response,
    status: u16,
    max_body: usize,
) -> Result<Vec<u8>, AttemptError> {
    let too_long = || {
        AttemptError::AfterSend(format!(
            "HTTP {status}, body longer than the {max_body} bytes read"
        ))
    };
    let declared = response
        .content_length()
        .and_then(|length| usize::try_from(length).ok());
    if declared.is_some_and(|length| length > max_body) {
        return Err(too_long());
    }
    let mut body = Vec::with_capacity(declared.unwrap_or(0).min(1 << 20));
    while let Some(chunk) = response.chunk().await.map_err(|e| {
        AttemptError::AfterSend(format!("HTTP {status}, body unreadable: {}", chain(&e)))
    })? {
        if body.len().saturating_add(chunk.len()) > max_body {
            return Err(too_long());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

/// HTTP statuses a safe read retries.
fn is_retryable_status(status: u16) -> bool {
    matches!(status, 429 | 502 | 503 | 504)
}

fn parse_base_url(text: &str) -> Result<Url, GatewayError> {
    let url = Url::parse(text).map_err(|e| config_error(&format!("base_url: {e}")))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(config_error("base_url must use http or https"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(config_error(
            "base_url must not contain credentials; use api_key",
        ));
    }
    if url.query().is_some() || url.fragment().is_some() || url.path().contains("/api/v1") {
        return Err(config_error(
            "base_url must be scheme, host, port and at most a path prefix (the client adds /api/v1/...)",
        ));
    }
    Ok(url)
}

fn sensitive(value: &str, name: &str) -> Result<HeaderValue, GatewayError> {
    let mut header = HeaderValue::from_str(value).map_err(|_| {
        config_error(&format!(
            "{name} contains characters not allowed in a header"
        ))
    })?;
    header.set_sensitive(true);
    Ok(header)
}

fn config_error(reason: &str) -> GatewayError {
    GatewayError::Config {
        reason: reason.to_owned(),
    }
}

/// The error's causes without the URL ("timed out: operation timed out",
/// "client error (Connect): tcp connect error: Connection refused").
fn chain(error: &reqwest::Error) -> String {
    let mut parts = Vec::new();
    if error.is_timeout() {
        parts.push("timed out".to_owned());
    }
    let mut source = error.source();
    while let Some(cause) = source {
        parts.push(cause.to_string());
        source = cause.source();
    }
    if parts.is_empty() {
        parts.push(error.to_string());
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_url_must_be_bare_origin() {
        assert!(parse_base_url("http://127.0.0.1:8080").is_ok());
        assert!(parse_base_url("https://api.paymentoptions.com/").is_ok());
        assert!(parse_base_url("ftp://x").is_err());
        assert!(parse_base_url("https://user:pw@host").is_err());
        assert!(parse_base_url("https://host/api/v1").is_err());
        assert!(parse_base_url("http://127.0.0.1:8080/_sandbox").is_ok());
        assert!(parse_base_url("http://127.0.0.1:8080/?x=1").is_err());
        assert!(parse_base_url("not a url").is_err());
    }

    #[test]
    fn retryable_statuses() {
        for status in [429, 502, 503, 504] {
            assert!(is_retryable_status(status));
        }
        for status in [200, 400, 404, 500] {
            assert!(!is_retryable_status(status));
        }
    }
}
