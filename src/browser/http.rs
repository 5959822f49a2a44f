//! Requests to checkout-server's browser API through `gloo-net`. Request bodies are serialized
//! with serde-wasm-bindgen and the browser's `JSON`; answers are read by `json`, so no JSON
//! library and no generic deserializer ships in the wasm.

use super::json::{self, Json};
use crate::contract::routes::{
    self, CLIENT_SECRET_HEADER, CUSTOMER_SUBSCRIPTIONS_ROUTE, CUSTOMER_TOKEN_HEADER,
    IDEMPOTENCY_KEY_HEADER,
};
use crate::contract::{
    ApiErrorBody, CheckoutView, CustomerSubscriptions, PayRequest, PayResponse, PaymentResult,
    SubscriptionAction, SubscriptionView,
};
use gloo_net::http::Request;
use wasm_bindgen::JsValue;

/// Why a request gave no usable answer.
#[derive(Debug, thiserror::Error)]
pub enum FetchError {
    /// No response: offline, DNS, CORS refusal, connection reset.
    #[error("the payment server could not be reached")]
    Network,
    /// A non-2xx answer, with the server's error body when it sent one.
    #[error("the payment server answered with status {status}")]
    Status {
        /// HTTP status.
        status: u16,
        /// `error` of the `{ "error": ... }` body.
        error: Option<ApiErrorBody>,
    },
    /// A 2xx answer whose body is not the expected JSON.
    #[error("the payment server's answer could not be read")]
    Decode,
}

/// Where checkout-server is and the credentials the component holds for it.
#[derive(Clone, Debug, Default)]
pub struct Api {
    base: String,
    session: String,
    client_secret: String,
    customer_token: String,
}

impl Api {
    /// `server` is the origin (or base URL) of checkout-server; empty means this page's origin.
    pub fn new(server: &str, session: &str, client_secret: &str, customer_token: &str) -> Self {
        Self {
            base: server.trim_end_matches('/').to_owned(),
            session: session.to_owned(),
            client_secret: client_secret.to_owned(),
            customer_token: customer_token.to_owned(),
        }
    }

    /// `GET /v1/checkout/{session}`, unless the document carries the view (frame mode).
    pub async fn checkout(&self) -> Result<CheckoutView, FetchError> {
        if let Some(view) = super::carried::take(&self.session) {
            return Ok(view);
        }
        let path = routes::checkout_path(&self.session);
        decode(
            self.send(&path, self.secret(), None).await?,
            json::checkout_view,
        )
    }

    /// `POST /v1/checkout/{session}/pay` with the attempt's `Idempotency-Key`.
    pub async fn pay(&self, request: &PayRequest, key: &str) -> Result<PayResponse, FetchError> {
        let body = serde_wasm_bindgen::to_value(request).map_err(|_| FetchError::Decode)?;
        let path = routes::pay_path(&self.session);
        decode(
            self.send(&path, self.secret(), Some((&body, key))).await?,
            json::pay_response,
        )
    }

    /// `GET /v1/checkout/{session}/result`.
    pub async fn result(&self) -> Result<PaymentResult, FetchError> {
        let path = routes::result_path(&self.session);
        decode(
            self.send(&path, self.secret(), None).await?,
            json::payment_result,
        )
    }

    /// `GET /v1/customer/subscriptions`.
    pub async fn subscriptions(&self) -> Result<CustomerSubscriptions, FetchError> {
        let answer = self
            .send(CUSTOMER_SUBSCRIPTIONS_ROUTE, self.customer(), None)
            .await?;
        decode(answer, |j| {
            Some(CustomerSubscriptions {
                subscriptions: j.all("subscriptions", json::subscription_view)?,
            })
        })
    }

    /// `POST /v1/customer/subscriptions/{id}/{action}`.
    pub async fn subscription_action(
        &self,
        id: &str,
        action: SubscriptionAction,
        key: &str,
    ) -> Result<SubscriptionView, FetchError> {
        let path = routes::subscription_action_path(id, action);
        let body = js_sys::Object::new().into();
        decode(
            self.send(&path, self.customer(), Some((&body, key)))
                .await?,
            json::subscription_view,
        )
    }

    fn secret(&self) -> (&'static str, &str) {
        (CLIENT_SECRET_HEADER, &self.client_secret)
    }

    fn customer(&self) -> (&'static str, &str) {
        (CUSTOMER_TOKEN_HEADER, &self.customer_token)
    }

    /// GET `path`, or POST it with a JSON body and an idempotency key; the parsed JSON answer.
    async fn send(
        &self,
        path: &str,
        auth: (&str, &str),
        post: Option<(&JsValue, &str)>,
    ) -> Result<JsValue, FetchError> {
        let url = [self.base.as_str(), path].concat();
        let request = match post {
            None => Request::get(&url).header(auth.0, auth.1).build(),
            Some((body, key)) => {
                let text = js_sys::JSON::stringify(body)
                    .ok()
                    .and_then(|t| t.as_string())
                    .unwrap_or_default();
                Request::post(&url)
                    .header(auth.0, auth.1)
                    .header(IDEMPOTENCY_KEY_HEADER, key)
                    .header("Content-Type", "application/json")
                    .body(text)
            }
        }
        .map_err(|_| FetchError::Network)?;
        let response = request.send().await.map_err(|_| FetchError::Network)?;
        let text = response.text().await.map_err(|_| FetchError::Network)?;
        let json = js_sys::JSON::parse(&text).ok();
        if response.ok() {
            return json.ok_or(FetchError::Decode);
        }
        let error = json.and_then(|j| json::api_error(&Json(j)));
        Err(FetchError::Status {
            status: response.status(),
            error,
        })
    }
}

fn decode<T>(answer: JsValue, read: fn(&Json) -> Option<T>) -> Result<T, FetchError> {
    read(&Json(answer)).ok_or(FetchError::Decode)
}
