//! The shop's and the browser's calls, as the bench makes them: a session created through the
//! merchant API (`POST /v1/sessions`, as the shop's back end does), and the pay call exactly as
//! the checkout frame sends it (`POST /v1/checkout/{id}/pay` with `X-Client-Secret`, an
//! `Idempotency-Key` per attempt, the typed card, billing address and browser data), from the
//! client address the caller names (`X-Forwarded-For`, believed from loopback). During a
//! card-testing alert the server asks for a proof of work (428): a caller that [`Solves`] it
//! finds the number as the frame does (here natively, far faster than a browser) and sends the
//! call again under a new key; one that does not is refused.

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use checkout_server::risk::proof;

use serde_json::{Value, json};

use super::target::MERCHANT_KEY;

/// A checkout session as the browser holds it.
#[derive(Clone, Debug)]
pub struct Session {
    pub id: String,
    pub secret: String,
    pub reference: String,
}

/// What the shop puts on a session besides the amount.
pub struct SessionFields<'a> {
    pub reference: &'a str,
    pub amount: u64,
    pub email: Option<&'a str>,
    pub customer_id: Option<&'a str>,
}

/// A card as typed into the form.
pub struct TypedCard<'a> {
    pub number: &'a str,
    pub expiry: (&'a str, &'a str),
    pub cvc: &'a str,
    pub name: &'a str,
}

/// Whether a caller solves the proof of work the server asks for during an alert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Solves {
    /// As the checkout frame does.
    Yes,
    /// A bot that does not run the challenge.
    No,
}

/// Proofs of work solved by every caller of this process, and the time they took (ns).
pub static PROOFS_SOLVED: AtomicU64 = AtomicU64::new(0);
/// See [`PROOFS_SOLVED`].
pub static PROOF_NANOS: AtomicU64 = AtomicU64::new(0);

/// The server's answer to one pay call, as far as the caller needs it.
#[derive(Debug)]
pub enum PayAnswer {
    /// Sent to the gateway, which asked for 3-D Secure: the bank's page.
    Redirect(String),
    /// Answered at once with a result (a decline, blocked or not, looks the same).
    Result { payment_id: String, state: String },
    /// Refused before any payment was made (rate limit 429, `payment_in_progress` 409, …).
    Refused { status: u16, code: String },
    /// The call failed (connection, unreadable answer).
    Failed,
}

/// Creates a session through the merchant API.
pub async fn create_session(
    http: &reqwest::Client,
    base: &str,
    fields: &SessionFields<'_>,
) -> anyhow::Result<Session> {
    let mut body =
        json!({"amount": fields.amount, "currency": "JPY", "reference": fields.reference});
    if let Some(email) = fields.email {
        body["email"] = json!(email);
    }
    if let Some(customer) = fields.customer_id {
        body["customer_id"] = json!(customer);
    }
    let response = http
        .post(format!("{base}/v1/sessions"))
        .bearer_auth(MERCHANT_KEY)
        .json(&body)
        .send()
        .await?;
    let status = response.status();
    let answer: Value = response.json().await?;
    let text = |field: &str| answer[field].as_str().map(str::to_owned);
    match (status.as_u16(), text("id"), text("client_secret")) {
        (201, Some(id), Some(secret)) => Ok(Session {
            id,
            secret,
            reference: fields.reference.to_owned(),
        }),
        _ => anyhow::bail!("session not created: {status} {answer}"),
    }
}

/// How a pay call pays.
pub enum Method<'a> {
    /// A typed card; `save` ticks "save this card" (a customer's checkout).
    Typed { card: &'a TypedCard<'a>, save: bool },
    /// A card saved for the checkout's customer, by its id.
    Saved(&'a str),
}

/// One pay call with `card` on `session` from `client`; asked for a proof of work, a caller
/// that `solves` it calls again with the answer.
pub async fn pay(
    http: &reqwest::Client,
    base: &str,
    session: &Session,
    card: &TypedCard<'_>,
    client: IpAddr,
    solves: Solves,
) -> PayAnswer {
    let method = Method::Typed { card, save: false };
    pay_with(http, base, session, &method, client, solves)
        .await
        .0
}

/// One pay call with `method`, as [`pay`]; and whether the server asked for a proof of work.
pub async fn pay_with(
    http: &reqwest::Client,
    base: &str,
    session: &Session,
    method: &Method<'_>,
    client: IpAddr,
    solves: Solves,
) -> (PayAnswer, bool) {
    let mut body = json!({
        "billing_address": {"country": "JP", "postal_code": "100-0001"},
        "browser_info": {"screen_width": 1440, "screen_height": 900, "color_depth": 24,
            "java_enabled": false, "language": "ja-JP",
            "user_agent": "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131.0",
            "time_zone": "Asia/Tokyo", "time_zone_offset_minutes": -540,
            "challenge_window": "05"},
    });
    match method {
        Method::Typed { card, save } => {
            body["card"] = json!({"number": card.number, "expiry_month": card.expiry.0,
                "expiry_year": card.expiry.1, "cvc": card.cvc, "name": card.name});
            body["save_card"] = json!(save);
        }
        Method::Saved(id) => body["saved_card_id"] = json!(id),
    }
    let (answer, challenge) = pay_once(http, base, session, &body, client).await;
    let asked = challenge.is_some();
    let Some(challenge) = challenge.filter(|_| solves == Solves::Yes) else {
        return (answer, asked);
    };
    // Off the async threads: they serve the server under test in this same process.
    let started = Instant::now();
    let solved = tokio::task::spawn_blocking(move || proof::solve(&challenge)).await;
    let Ok(Some(solution)) = solved else {
        return (answer, asked);
    };
    PROOFS_SOLVED.fetch_add(1, Ordering::Relaxed);
    PROOF_NANOS.fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
    body["proof_of_work"] = json!(solution);
    (pay_once(http, base, session, &body, client).await.0, asked)
}

/// The ids of the cards saved for `session`'s customer, as the checkout form reads them.
pub async fn saved_cards(
    http: &reqwest::Client,
    base: &str,
    session: &Session,
    client: IpAddr,
) -> Vec<String> {
    let answer: Option<Value> = async {
        http.get(format!("{base}/v1/checkout/{}", session.id))
            .header("X-Client-Secret", &session.secret)
            .header("X-Forwarded-For", client.to_string())
            .send()
            .await
            .ok()?
            .json()
            .await
            .ok()
    }
    .await;
    answer
        .and_then(|view| view["saved_cards"].as_array().cloned())
        .into_iter()
        .flatten()
        .filter_map(|card| card["id"].as_str().map(str::to_owned))
        .collect()
}

/// One call with `body`, and the challenge when the server asked for a proof of work.
async fn pay_once(
    http: &reqwest::Client,
    base: &str,
    session: &Session,
    body: &Value,
    client: IpAddr,
) -> (PayAnswer, Option<checkout::contract::ProofChallenge>) {
    let sent = http
        .post(format!("{base}/v1/checkout/{}/pay", session.id))
        .header("X-Client-Secret", &session.secret)
        .header("Idempotency-Key", uuid::Uuid::new_v4().to_string())
        .header("X-Forwarded-For", client.to_string())
        .json(body)
        .send()
        .await;
    let Ok(response) = sent else {
        return (PayAnswer::Failed, None);
    };
    let status = response.status().as_u16();
    let Ok(answer) = response.json::<Value>().await else {
        return (PayAnswer::Failed, None);
    };
    let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
    let challenge = serde_json::from_value(answer["error"]["challenge"].clone()).ok();
    let answer = match (status, answer["next_action"].as_str()) {
        (200, Some("redirect")) => PayAnswer::Redirect(text(&answer["redirect_url"])),
        (200, Some(_)) => PayAnswer::Result {
            payment_id: text(&answer["result"]["payment_id"]),
            state: text(&answer["result"]["state"]),
        },
        _ => PayAnswer::Refused {
            status,
            code: text(&answer["error"]["code"]),
        },
    };
    (answer, challenge)
}

/// The session's result as the browser reads it: `(payment id, state)`.
pub async fn result(
    http: &reqwest::Client,
    base: &str,
    session: &Session,
    client: IpAddr,
) -> Option<(String, String)> {
    let answer: Value = http
        .get(format!("{base}/v1/checkout/{}/result", session.id))
        .header("X-Client-Secret", &session.secret)
        .header("X-Forwarded-For", client.to_string())
        .send()
        .await
        .ok()?
        .json()
        .await
        .ok()?;
    Some((
        answer["payment_id"].as_str()?.to_owned(),
        answer["state"].as_str()?.to_owned(),
    ))
}
