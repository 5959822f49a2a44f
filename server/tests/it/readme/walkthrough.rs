//! A newcomer follows README.md's integration guide against a real server: each curl snippet
//! run as written (test servers standing in for the addresses it names) answers what it
//! documents; the session the first one creates is paid as a shopper would (Visa, 3-D
//! Secure); the endpoint the second registers receives the signed `session.completed`; the
//! Python events snippet, given that very delivery and the secret the registration answered,
//! marks the order paid, while a wrong secret or a changed body make it raise; then the
//! snippets about the paid order (those naming `$SESSION_ID` or `$PAYMENT_ID`) confirm it from
//! the backend and refund it, and `payment.refunded` reaches the shop.

use std::time::Duration;

use checkout_server::webhook_rules::secret::new_secret;
use secrecy::ExposeSecret as _;
use serde_json::{Value, json};

use super::curl::{self, Answer};
use super::events::{self, Delivery, Recorder};
use super::snippets::{self, program};
use crate::api::support::{Backend, Harness, MERCHANT_KEY, TestSession, cards, eventually};

/// Where the README's snippets send requests: checkout-server (the `make run` default and the
/// example production address), and the shop's backend.
const README_SERVERS: &[&str] = &["http://127.0.0.1:8080", "https://pay.example.com"];
const README_SHOP: &str = "https://shop.example";

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_newcomer_follows_the_integration_guide() {
    let what = "README.md's curl snippets";
    let (Some(sh), Some(curl)) = (program("sh", what), program("curl", what)) else {
        return;
    };
    let recorder = Recorder::start().await;
    let h = Harness::start(Backend::Sqlite).await;
    let mut addresses: Vec<(String, String)> = README_SERVERS
        .iter()
        .map(|s| ((*s).to_owned(), h.base.clone()))
        .collect();
    addresses.push((README_SHOP.to_owned(), recorder.base.clone()));

    // The other sh snippets are checkout-server commands (commands.rs).
    let (before, after): (Vec<_>, Vec<_>) = snippets::of("sh")
        .into_iter()
        .filter(|s| s.code.contains("curl "))
        .partition(|s| !s.code.contains("$SESSION_ID") && !s.code.contains("$PAYMENT_ID"));
    let key = vec![("MERCHANT_SECRET_KEY".to_owned(), MERCHANT_KEY.to_owned())];
    let mut answers: Vec<Answer> = Vec::new();
    for snippet in before {
        answers.push(run_curl(&sh, &curl, snippet, &addresses, key.clone()).await);
    }

    let created = find(&answers, "client_secret", "a session (POST /v1/sessions)");
    let session = TestSession {
        id: text(created, "id"),
        secret: text(created, "client_secret"),
        reference: text(created, "reference"),
    };
    let endpoint = find(
        &answers,
        "secret",
        "a webhook endpoint (POST /v1/webhook_endpoints)",
    );
    let secret = text(endpoint, "secret");
    let url = text(endpoint, "url");

    let redirect = h.pay_to_redirect(&session, cards::VISA_OK).await;
    h.complete_3ds(&redirect, "approve").await;
    let delivery: Delivery = eventually(
        "session.completed at the shop",
        Duration::from_secs(20),
        || {
            let found = recorder.first("session.completed");
            async move { found }
        },
    )
    .await;
    assert_eq!(
        format!("{}{}", recorder.base, delivery.path),
        url,
        "delivered where registered"
    );
    let event = delivery.json();
    assert_eq!(event["data"]["object"]["id"], session.id.as_str());

    if let Some(python) = events::python() {
        let [snippet] = snippets::of("python")
            .try_into()
            .expect("one Python snippet");
        let paid = events::run(&python, &snippet, &delivery, &secret);
        assert_eq!(
            paid.routes,
            std::slice::from_ref(&delivery.path),
            "README.md:{}: the route is where events go",
            snippet.line
        );
        assert_eq!(paid.raised, None, "README.md:{}: {paid:?}", snippet.line);
        assert_eq!(
            paid.answer,
            Some(json!(["", 204])),
            "README.md:{}",
            snippet.line
        );
        assert_eq!(
            paid.marked,
            [json!([session.reference, event["id"]])],
            "README.md:{}",
            snippet.line
        );

        let stranger = new_secret();
        let forged = events::run(&python, &snippet, &delivery, stranger.expose_secret());
        assert_eq!(
            forged.raised.as_deref(),
            Some("WebhookVerificationError"),
            "{forged:?}"
        );
        assert!(forged.marked.is_empty(), "{forged:?}");

        let mut changed = delivery.clone();
        changed.body = changed.body.replace(&session.reference, "order-9999");
        assert_ne!(changed.body, delivery.body);
        let tampered = events::run(&python, &snippet, &changed, &secret);
        assert_eq!(
            tampered.raised.as_deref(),
            Some("WebhookVerificationError"),
            "{tampered:?}"
        );
        assert!(tampered.marked.is_empty(), "{tampered:?}");
    }

    // The paid order, from the backend: confirmed, then refunded.
    let mut variables = key;
    variables.push(("SESSION_ID".to_owned(), session.id.clone()));
    assert!(
        after.len() >= 2,
        "README.md confirms and refunds the order in curl snippets naming $SESSION_ID and \
         $PAYMENT_ID"
    );
    for snippet in after {
        if snippet.code.contains("$PAYMENT_ID") {
            assert!(
                variables.iter().any(|(name, _)| name == "PAYMENT_ID"),
                "README.md:{}: uses $PAYMENT_ID before any snippet shows a payment's id",
                snippet.line
            );
        }
        let answer = run_curl(&sh, &curl, snippet, &addresses, variables.clone()).await;
        if let Some(id) = answer.json["payments"][0]["id"].as_str() {
            variables.push(("PAYMENT_ID".to_owned(), id.to_owned()));
        }
    }
    let refunded: Delivery = eventually(
        "payment.refunded at the shop",
        Duration::from_secs(20),
        || {
            let found = recorder.first("payment.refunded");
            async move { found }
        },
    )
    .await;
    assert_eq!(
        refunded.json()["data"]["object"]["state"],
        "partially_refunded"
    );
    h.finish().await;
}

/// Runs `snippet` with `variables` and checks it answers what it documents.
async fn run_curl(
    sh: &std::path::Path,
    curl: &std::path::Path,
    snippet: snippets::Snippet,
    addresses: &[(String, String)],
    variables: Vec<(String, String)>,
) -> Answer {
    assert!(
        snippet.code.contains("curl "),
        "README.md:{}: an sh snippet without curl",
        snippet.line
    );
    let (sh, curl, addresses) = (sh.to_owned(), curl.to_owned(), addresses.to_owned());
    // Blocking (a process) while the server answers on the runtime's other threads.
    tokio::task::spawn_blocking(move || {
        let answer = curl::run(&sh, &curl, &snippet, &addresses, &variables);
        curl::assert_documented(&snippet, &answer);
        answer
    })
    .await
    .unwrap_or_else(|e| std::panic::resume_unwind(e.into_panic()))
}

/// The answer with a string `field`.
fn find<'a>(answers: &'a [Answer], field: &str, what: &str) -> &'a Value {
    answers
        .iter()
        .map(|a| &a.json)
        .find(|json| json[field].is_string())
        .unwrap_or_else(|| panic!("no README.md curl snippet creates {what}: {answers:?}"))
}

/// `json[field]` as a string.
fn text(json: &Value, field: &str) -> String {
    json[field]
        .as_str()
        .unwrap_or_else(|| panic!("no {field} in {json}"))
        .to_owned()
}
