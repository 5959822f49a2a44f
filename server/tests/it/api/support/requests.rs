//! The harness's requests: merchant and browser calls (sessions, pay, the session's views),
//! a browser walked through 3-D Secure, and what the emulator and the store recorded.

use checkout_sandbox::ledger::RecordKind;
use checkout_server::store::prelude::*;
use serde_json::{Value, json};

use super::harness::Harness;
use super::reply::{Reply, TestSession, pay_body};
use super::{MERCHANT_KEY, of_session};
use crate::sandbox::support::AcsForm;

impl Harness {
    /// The store behind the server.
    pub fn store(&self) -> &std::sync::Arc<dyn Store> {
        &self.state.store
    }

    /// A merchant request with the bearer key.
    pub fn merchant(&self, method: reqwest::Method, path: &str) -> reqwest::RequestBuilder {
        self.api
            .request(method, format!("{}{path}", self.base))
            .bearer_auth(MERCHANT_KEY)
    }

    /// Creates a session (201 expected) for `amount` JPY with a unique reference; `extra`
    /// fields are merged into the body.
    pub async fn session(&self, amount: u64, extra: Value) -> TestSession {
        let reference = format!("order-{}", &uuid::Uuid::new_v4().simple().to_string()[..12]);
        let mut body = json!({"amount": amount, "currency": "JPY", "reference": reference});
        if let (Some(body), Some(extra)) = (body.as_object_mut(), extra.as_object()) {
            body.extend(extra.clone());
        }
        let reply = Reply::read(
            self.merchant(reqwest::Method::POST, "/v1/sessions")
                .json(&body)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 201, "{}", reply.text);
        TestSession {
            id: reply.json["id"].as_str().expect("id").to_owned(),
            secret: reply.json["client_secret"]
                .as_str()
                .expect("secret")
                .to_owned(),
            reference: reply.json["reference"]
                .as_str()
                .expect("reference")
                .to_owned(),
        }
    }

    /// A browser call on `session`'s API with its client secret.
    pub fn checkout(
        &self,
        method: reqwest::Method,
        session: &TestSession,
        suffix: &str,
    ) -> reqwest::RequestBuilder {
        self.api
            .request(
                method,
                format!("{}/v1/checkout/{}{suffix}", self.base, session.id),
            )
            .header("X-Client-Secret", &session.secret)
    }

    /// `POST .../pay` with `body` and an optional `Idempotency-Key`.
    pub async fn pay(&self, session: &TestSession, body: &Value, key: Option<&str>) -> Reply {
        let mut request = self
            .checkout(reqwest::Method::POST, session, "/pay")
            .json(body);
        if let Some(key) = key {
            request = request.header("Idempotency-Key", key);
        }
        Reply::read(request.send().await.expect("sent")).await
    }

    /// `GET /v1/checkout/{id}`: the session's view as the card form reads it.
    pub async fn view(&self, session: &TestSession) -> Value {
        self.checkout_json(session, "").await
    }

    /// `GET .../result`.
    pub async fn result(&self, session: &TestSession) -> Value {
        self.checkout_json(session, "/result").await
    }

    /// A `GET` of the browser API under the session's path (`suffix` after its id), which
    /// must answer 200.
    async fn checkout_json(&self, session: &TestSession, suffix: &str) -> Value {
        let reply = Reply::read(
            self.checkout(reqwest::Method::GET, session, suffix)
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.json
    }

    /// Pays with `number` and expects the 3DS redirect; returns its URL.
    pub async fn pay_to_redirect(&self, session: &TestSession, number: &str) -> String {
        let reply = self.pay(session, &pay_body(number, "123"), None).await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        assert_eq!(reply.json["next_action"], "redirect", "{}", reply.text);
        reply.json["redirect_url"]
            .as_str()
            .expect("redirect_url")
            .to_owned()
    }

    /// Walks a browser through 3DS: opens `redirect_url`, submits the ACS form with
    /// `decision` when a challenge is shown, follows every redirect and returns the URL it
    /// lands on (the shop's page).
    pub async fn complete_3ds(&self, redirect_url: &str, decision: &str) -> reqwest::Url {
        let page = self
            .browser
            .get(redirect_url)
            .send()
            .await
            .expect("ACS reachable");
        if page.url().as_str().starts_with(&self.shop.base) {
            return page.url().clone();
        }
        assert_eq!(page.status(), 200, "ACS page");
        let html = page.text().await.expect("ACS html");
        let landed = AcsForm::parse(&html).submit(&self.browser, decision).await;
        let url = landed.url().clone();
        assert!(url.as_str().starts_with(&self.shop.base), "landed on {url}");
        assert_eq!(landed.status(), 200);
        url
    }

    /// Transactions the emulator recorded for `reference` that charge or reserve money.
    pub fn gateway_charges(&self, reference: &str) -> usize {
        self.sandbox
            .ledger
            .all()
            .iter()
            .filter(|r| of_session(&r.merchant.merchant_txn_ref, reference))
            .filter(|r| matches!(r.kind, RecordKind::Purchase | RecordKind::Authorization))
            .count()
    }

    /// Transactions of any kind the emulator recorded for `reference`.
    pub fn gateway_records(&self, reference: &str, kind: RecordKind) -> usize {
        self.sandbox
            .ledger
            .all()
            .iter()
            .filter(|r| of_session(&r.merchant.merchant_txn_ref, reference) && r.kind == kind)
            .count()
    }

    /// The merchant view of payment `id`.
    pub async fn payment(&self, id: &str) -> Value {
        let reply = Reply::read(
            self.merchant(reqwest::Method::GET, &format!("/v1/payments/{id}"))
                .send()
                .await
                .expect("sent"),
        )
        .await;
        assert_eq!(reply.status, 200, "{}", reply.text);
        reply.json
    }

    /// Every payment of `session` as stored, newest first.
    pub async fn stored_payments(&self, session: &TestSession) -> Vec<Payment> {
        self.state
            .payments
            .session_payments(&session.id, 50)
            .await
            .expect("payments")
            .items
    }

    /// The payment (store record) of a session, newest first.
    pub async fn stored_payment(&self, session: &TestSession) -> Payment {
        let page = self
            .store()
            .list_payments(PaymentQuery {
                session_id: Some(session.id.clone()),
                limit: 1,
                ..PaymentQuery::default()
            })
            .await
            .expect("list");
        page.items.into_iter().next().expect("a payment")
    }
}
