//! The demo shop's client of checkout-server's merchant API: what every shop backend does,
//! over HTTP with `Authorization: Bearer <MERCHANT_SECRET_KEY>`, so the demo exercises the very
//! endpoints a merchant integrates against (`POST /v1/sessions`,
//! `POST /v1/customers/{id}/tokens`, `/v1/webhook_endpoints`).

use std::time::Duration;

use axum::http::StatusCode;
use secrecy::{ExposeSecret as _, SecretString};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::error::DemoError;

/// Body of `POST /v1/sessions` as the demo fills it.
#[derive(Debug, Serialize)]
pub struct NewSession {
    /// Minor units; `None` for a plan (the server prices it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<u64>,
    /// ISO 4217 code; `None` for a plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// The order reference.
    pub reference: String,
    /// Capture at once (`true`) or authorise only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub capture: Option<bool>,
    /// The shopper, when they buy as a customer (saved cards, subscriptions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub customer_id: Option<String>,
    /// A plan of the catalogue: the session is a subscription's first payment.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan_id: Option<String>,
    /// What is bought, shown on the form.
    pub description: String,
}

/// The part of the created session the page needs.
#[derive(Debug, Deserialize)]
pub struct CreatedSession {
    /// Session id.
    pub id: String,
    /// Its client secret.
    pub client_secret: String,
}

/// A customer token as `POST /v1/customers/{id}/tokens` issues it.
#[derive(Debug, Deserialize)]
pub struct IssuedToken {
    /// The token (`customer-token` attribute of the component).
    pub token: String,
    /// RFC 3339.
    pub expires_at: String,
}

/// A webhook endpoint as the merchant API shows it: the secret only when just created or
/// rotated.
#[derive(Debug, Deserialize)]
pub struct Endpoint {
    /// `we_…`.
    pub id: String,
    /// Where events go.
    pub url: String,
    /// The signing secret (`whsec_…`).
    #[serde(default)]
    pub secret: Option<SecretString>,
}

#[derive(Debug, Deserialize)]
struct EndpointList {
    data: Vec<Endpoint>,
}

/// Where checkout-server is and the merchant key to call it with.
#[derive(Debug, Clone)]
pub struct MerchantApi {
    http: reqwest::Client,
    base_url: String,
    secret_key: SecretString,
}

impl MerchantApi {
    /// A client of the merchant API at `base_url` (reachable from this process).
    pub fn new(base_url: String, secret_key: SecretString) -> Self {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()
            .unwrap_or_default();
        Self {
            http,
            base_url: base_url.trim_end_matches('/').to_owned(),
            secret_key,
        }
    }

    /// `POST /v1/sessions`.
    pub async fn create_session(&self, session: &NewSession) -> Result<CreatedSession, DemoError> {
        self.post("/v1/sessions", session).await
    }

    /// `POST /v1/customers/{id}/tokens` with the server's default lifetime.
    pub async fn customer_token(&self, customer_id: &str) -> Result<IssuedToken, DemoError> {
        let path = format!("/v1/customers/{customer_id}/tokens");
        self.post(&path, &serde_json::json!({})).await
    }

    /// The signing secret of the endpoint for `url`: the endpoint is created, or, when one for
    /// `url` exists already (a restart: the secret is only ever shown once), its secret is
    /// rotated at once (no overlap: nobody else holds the old one).
    pub async fn webhook_secret(&self, url: &str) -> Result<SecretString, DemoError> {
        let list: EndpointList = self.get("/v1/webhook_endpoints").await?;
        let endpoint: Endpoint = match list.data.iter().find(|endpoint| endpoint.url == url) {
            Some(existing) => {
                let path = format!("/v1/webhook_endpoints/{}/rotate_secret", existing.id);
                self.post(&path, &serde_json::json!({"overlap_seconds": 0}))
                    .await?
            }
            None => {
                let body = serde_json::json!({
                    "url": url,
                    "event_types": ["session.completed", "payment.refunded"],
                    "description": "the demo shop's order book",
                });
                self.post("/v1/webhook_endpoints", &body).await?
            }
        };
        endpoint
            .secret
            .ok_or_else(|| DemoError::Upstream("the endpoint came back without its secret".into()))
    }

    async fn get<T: DeserializeOwned>(&self, path: &str) -> Result<T, DemoError> {
        let request = self.http.get(format!("{}{path}", self.base_url));
        self.send(request).await
    }

    async fn post<T: DeserializeOwned>(
        &self,
        path: &str,
        body: &impl Serialize,
    ) -> Result<T, DemoError> {
        let request = self
            .http
            .post(format!("{}{path}", self.base_url))
            .json(body);
        self.send(request).await
    }

    async fn send<T: DeserializeOwned>(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<T, DemoError> {
        let answer = request
            .bearer_auth(self.secret_key.expose_secret())
            .send()
            .await
            .map_err(|error| DemoError::Upstream(error.without_url().to_string()))?;
        let status = answer.status();
        let bytes = answer
            .bytes()
            .await
            .map_err(|error| DemoError::Upstream(error.without_url().to_string()))?;
        if !status.is_success() {
            let status = StatusCode::from_u16(status.as_u16()).unwrap_or(StatusCode::BAD_GATEWAY);
            return Err(DemoError::MerchantApi {
                status,
                body: bytes,
            });
        }
        serde_json::from_slice(&bytes).map_err(|error| DemoError::Upstream(error.to_string()))
    }
}
