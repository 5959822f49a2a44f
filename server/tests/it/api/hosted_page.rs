//! The hosted page of a payment link (`GET /pay/{link}`) as a bot or a payer's browser loads
//! it, on both backends: the card form inline under a strict policy, in the browser's language
//! or the one the switcher picked; a thousand loads from one address make no session and no
//! payment (only the Pay button does); a link that takes no payment says so with no form; the
//! price is written in the page's language, and a total that follows the quantity only where
//! the page's script keeps it (the server charges quantity × unit). The
//! component is a stand-in `COMPONENT_DIR` laid out as the built one (no trunk build needed).

use std::path::Path;

use checkout_server::store::model::{AfterPayment, Ask, LinkAmount, NewPaymentLink, PaymentLink};
use reqwest::header::{ACCEPT_LANGUAGE, CONTENT_SECURITY_POLICY};

use super::support::{Backend, Harness};

/// The built card form's page as scripts/component.sh leaves it, in what the hosted page
/// uses: the head's module script starting the wasm, the inlined stylesheet, the frame's
/// script, the form's place.
const TEMPLATE: &str = "<!doctype html>\n<html lang=\"en\"><head><title>Card payment</title>\
    <script type=\"module\">import init from '/frame/checkout-0123.js'; await init();</script>\
    <style id=\"checkout-css\">.cc-root{color:black}</style>\
    <script src=\"/frame/frame-4567.js\" type=\"module\"></script></head>\
    <body><main id=\"checkout\"></main></body></html>";

async fn start(backend: Backend, dir: &Path) -> Option<Harness> {
    std::fs::write(dir.join("index.html"), TEMPLATE).expect("template");
    let component = dir.display().to_string();
    let extra = [("COMPONENT_DIR", component.as_str())];
    match backend {
        Backend::Postgres(_) => Harness::start_postgres_with(&extra).await,
        sqlite => Some(Harness::start_with(sqlite, &extra).await),
    }
}

fn tea() -> NewPaymentLink {
    NewPaymentLink {
        description: "Oolong tea, 100 g".into(),
        currency: "EUR".into(),
        amount: LinkAmount::Fixed { amount: 1250 },
        quantity_max: Some(5),
        reusable: true,
        payment_limit: Some(3),
        expires_at: None,
        ask_email: Ask::Required,
        ask_payer_reference: Ask::Optional,
        billing_fields: vec![checkout::contract::BillingField::Country],
        after_payment: AfterPayment::Receipt,
        plan_id: None,
    }
}

/// The tea's link, made through the service, and its hosted page's address.
async fn tea_page(h: &Harness) -> (PaymentLink, String) {
    let link = h.state.links.create(tea()).await.expect("link made");
    let url = format!("{}/pay/{}", h.base, link.public_id);
    (link, url)
}

/// Rows of `table` in the harness's database.
async fn rows(h: &Harness, table: &str) -> i64 {
    let sql = format!("SELECT COUNT(*) FROM {table}");
    if h.sqlite_path.is_some() {
        let pool = sqlx::SqlitePool::connect(&h.database_url)
            .await
            .expect("db");
        let n = sqlx::query_scalar(&sql)
            .fetch_one(&pool)
            .await
            .expect("count");
        pool.close().await;
        n
    } else {
        let pool = sqlx::PgPool::connect(&h.database_url).await.expect("db");
        let n = sqlx::query_scalar(&sql)
            .fetch_one(&pool)
            .await
            .expect("count");
        pool.close().await;
        n
    }
}

async fn a_thousand_loads_make_no_session_and_no_payment(backend: Backend) {
    let dir = tempfile::tempdir().expect("dir");
    let Some(h) = start(backend, dir.path()).await else {
        return;
    };
    let (link, url) = tea_page(&h).await;
    let browser = reqwest::Client::new();
    for load in 0..1000 {
        let page = browser.get(&url).send().await.expect("page");
        assert_eq!(page.status(), 200, "load {load}");
        if load == 0 {
            let policy = page.headers()[CONTENT_SECURITY_POLICY]
                .to_str()
                .expect("ascii")
                .to_owned();
            let html = page.text().await.expect("html");
            assert!(
                html.contains("id=\"cc-number\""),
                "the card form inline: {html}"
            );
            assert!(!html.contains("<iframe name"), "no card frame: {html}");
            assert!(
                !html.contains("frame-4567.js"),
                "not the frame's script: {html}"
            );
            assert!(html.contains("Oolong tea, 100 g") && html.contains("€12.50 each"));
            assert!(html.contains("name=\"email\"") && html.contains("name=\"quantity\""));
            assert!(html.contains(&format!("/pay/{}/session", link.public_id)));
            assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
            let scripts = policy
                .split(';')
                .find(|directive| directive.trim().starts_with("script-src"))
                .expect("a script-src");
            assert!(!scripts.contains("unsafe-inline"), "{policy}");
            assert!(
                scripts.contains("'self' 'wasm-unsafe-eval' 'sha256-"),
                "{policy}"
            );
        }
    }
    assert_eq!(rows(&h, "checkout_sessions").await, 0, "no session");
    assert_eq!(rows(&h, "payments").await, 0, "no payment");
    let figures = h.state.links.figures(&link.id).await.expect("figures");
    assert_eq!(figures.views, 1000, "every load counted as a view");
    assert_eq!(figures.places_taken, 0);
    h.finish().await;
}

async fn the_page_speaks_the_browsers_language_or_the_one_chosen(backend: Backend) {
    let dir = tempfile::tempdir().expect("dir");
    let Some(h) = start(backend, dir.path()).await else {
        return;
    };
    let (_, url) = tea_page(&h).await;
    let browser = reqwest::Client::new();
    let arabic = browser
        .get(&url)
        .header(ACCEPT_LANGUAGE, "ar-EG,ar;q=0.9,en;q=0.5")
        .send()
        .await
        .expect("page");
    let html = arabic.text().await.expect("html");
    assert!(html.contains("<html lang=\"ar\" dir=\"rtl\">"), "{html}");
    assert!(
        html.contains("الكمية"),
        "the quantity's label in Arabic: {html}"
    );
    assert!(html.contains("href=\"?lang=de\""), "the switcher: {html}");
    let german = browser
        .get(format!("{url}?lang=de"))
        .header(ACCEPT_LANGUAGE, "ar")
        .send()
        .await
        .expect("page");
    let html = german.text().await.expect("html");
    assert!(html.contains("<html lang=\"de\" dir=\"ltr\">"), "{html}");
    assert!(
        html.contains("Menge") && html.contains("(optional)"),
        "{html}"
    );
    h.finish().await;
}

async fn a_link_that_takes_no_payment_shows_why_and_no_form(backend: Backend) {
    let dir = tempfile::tempdir().expect("dir");
    let Some(h) = start(backend, dir.path()).await else {
        return;
    };
    let browser = reqwest::Client::new();
    let page = |id: String| {
        let browser = browser.clone();
        let url = format!("{}/pay/{id}", h.base);
        async move {
            let page = browser.get(url).send().await.expect("page");
            let status = page.status().as_u16();
            (status, page.text().await.expect("html"))
        }
    };
    let unknown = page("A".repeat(43)).await;
    assert_eq!(unknown.0, 404);
    assert!(
        unknown
            .1
            .contains("There is no payment link at this address")
    );
    let hostile = page("%3Cscript%3Ex%3C%2Fscript%3E".into()).await;
    assert_eq!(hostile.0, 404);
    assert!(!hostile.1.contains("<script>x"), "{}", hostile.1);

    let off = h.state.links.create(tea()).await.expect("link made");
    h.state
        .links
        .deactivate(&off.id)
        .await
        .expect("deactivated");
    let expired = NewPaymentLink {
        expires_at: Some(time::OffsetDateTime::now_utc() - time::Duration::minutes(1)),
        ..tea()
    };
    let expired = h.state.links.create(expired).await;
    for (status, html, reason) in [
        (page(off.public_id.clone()).await, "payment_link_inactive"),
        (
            match expired {
                Ok(link) => page(link.public_id).await,
                // A link cannot be made already expired: make it expire in the database.
                Err(_) => {
                    let link = h.state.links.create(tea()).await.expect("link made");
                    // Milliseconds since the epoch: 2020-01-01.
                    h.execute(&format!(
                        "UPDATE payment_links SET expires_at = 1577836800000 WHERE id = '{}'",
                        link.id
                    ))
                    .await;
                    page(link.public_id).await
                }
            },
            "payment_link_expired",
        ),
    ]
    .map(|((status, html), reason)| (status, html, reason))
    {
        assert_eq!(status, 410, "{reason}: {html}");
        assert!(
            html.contains(&format!("data-reason=\"{reason}\"")),
            "{html}"
        );
        assert!(!html.contains("cc-number"), "no card form: {html}");
        assert!(!html.contains("<form"), "no form at all: {html}");
    }
    assert_eq!(rows(&h, "checkout_sessions").await, 0);
    h.finish().await;
}

/// What the page's first paint does not need stays out of it: of the component's stylesheet
/// (when the build names its file) only the rules its HTML can match, the language list closed
/// (no other script's names laid out), the bank's frame only a template (no document).
async fn the_first_paint_carries_only_what_it_shows(backend: Backend) {
    let dir = tempfile::tempdir().expect("dir");
    let Some(h) = start(backend, dir.path()).await else {
        return;
    };
    let built = TEMPLATE.replace(
        "<style id=\"checkout-css\">.cc-root{color:black}",
        "<style id=\"checkout-css\" data-href=\"/frame/checkout-89ab.css\">.cc-root{color:black}\
         .cc-field input{font:inherit}.cc-saved legend{margin:0}.cc-outcome h2{margin:0}\
         :host([hidden]){display:none}",
    );
    std::fs::write(dir.path().join("index.html"), built).expect("template");
    let (_, url) = tea_page(&h).await;
    let html = reqwest::get(format!("{url}?lang=ja"))
        .await
        .expect("page")
        .text()
        .await
        .expect("html");
    assert!(
        html.contains(
            "<style id=\"checkout-css\" data-href=\"/frame/checkout-89ab.css\">\
             .cc-root{color:black}.cc-field input{font:inherit}</style>"
        ),
        "{html}"
    );
    assert!(
        html.contains("<details><summary>言語: 日本語</summary><ul><li><a href=\"?lang=en\""),
        "{html}"
    );
    assert_eq!(
        html.matches("<iframe").count(),
        html.matches("<template><iframe").count(),
        "{html}"
    );
    h.finish().await;
}

/// Each scenario on SQLite and, when `TEST_DATABASE_URL_POSTGRES` is set, on PostgreSQL.
macro_rules! on_both_backends {
    ($($name:ident),+ $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::Backend::Sqlite).await;
                }
            )+
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::Backend::Postgres(String::new())).await;
                }
            )+
        }
    };
}

/// The `#hosted-config` JSON of the page `html`.
fn script_config(html: &str) -> serde_json::Value {
    let start = html
        .find("id=\"hosted-config\">")
        .map(|at| at + "id=\"hosted-config\">".len())
        .expect("the page's options");
    let end = html[start..].find("</script>").expect("their end") + start;
    serde_json::from_str(&html[start..end]).expect("JSON")
}

async fn the_price_is_written_in_the_payers_language_and_never_a_total_it_cannot_keep(
    backend: Backend,
) {
    let dir = tempfile::tempdir().expect("dir");
    let Some(h) = start(backend, dir.path()).await else {
        return;
    };
    let browser = reqwest::Client::new();
    let load = |url: String| {
        let browser = browser.clone();
        async move {
            let page = browser.get(url).send().await.expect("page");
            assert_eq!(page.status(), 200);
            page.text().await.expect("html")
        }
    };
    // A quantity: the unit price as such; the total hidden and empty for the script to keep
    // (the server charges quantity × unit, which a page without script cannot show), and the
    // pay button naming no amount.
    let (link, url) = tea_page(&h).await;
    let html = load(format!("{url}?lang=en")).await;
    assert!(html.contains(">€12.50 each</p>"), "{html}");
    assert!(
        html.contains("<p id=\"hp-total\" class=\"hp-amount\" hidden data-unit=\"1250\" \
                       data-currency=\"EUR\" data-exponent=\"2\">Total <output id=\"hp-total-amount\" \
                       for=\"hp-quantity\"></output></p>"),
        "{html}"
    );
    let config = script_config(&html);
    assert_eq!(config["pay"], "Pay", "{config}");
    assert_eq!(config["pay_total"], "Pay {0}", "{config}");
    assert!(!html.contains("Pay €"), "no amount on the button: {html}");
    let started = h
        .api
        .post(format!("{}/pay/{}/session", h.base, link.public_id))
        .json(
            &serde_json::json!({"quantity": 3, "email": "payer@example.test",
                                  "billing_address": {"country": "DE"}}),
        )
        .send()
        .await
        .expect("started");
    assert_eq!(started.status(), 201);
    let started: serde_json::Value = started.json().await.expect("json");
    assert_eq!(
        started["amount"], 3750,
        "the server charges 3 × 12.50: {started}"
    );

    // One at a fixed price: the amount on the page and its button, as German writes it.
    let one = NewPaymentLink {
        quantity_max: None,
        ..tea()
    };
    let one = h.state.links.create(one).await.expect("link made");
    let html = load(format!("{}/pay/{}?lang=de", h.base, one.public_id)).await;
    assert!(
        html.contains("<p id=\"hp-price\" class=\"hp-amount\">12,50\u{a0}€</p>"),
        "{html}"
    );
    assert!(!html.contains("id=\"hp-total\""), "no total: {html}");
    let pay = script_config(&html)["pay"].as_str().map(str::to_owned);
    assert!(
        pay.as_deref()
            .is_some_and(|pay| pay.contains("12,50\u{a0}€")),
        "{pay:?}"
    );
    // A currency without decimals, in Japanese.
    let yen = NewPaymentLink {
        currency: "JPY".into(),
        amount: LinkAmount::Fixed { amount: 1500 },
        quantity_max: None,
        ..tea()
    };
    let yen = h.state.links.create(yen).await.expect("link made");
    let html = load(format!("{}/pay/{}?lang=ja", h.base, yen.public_id)).await;
    assert!(html.contains(">￥1,500</p>"), "{html}");
    h.finish().await;
}

on_both_backends!(
    the_price_is_written_in_the_payers_language_and_never_a_total_it_cannot_keep,
    a_thousand_loads_make_no_session_and_no_payment,
    the_page_speaks_the_browsers_language_or_the_one_chosen,
    a_link_that_takes_no_payment_shows_why_and_no_form,
    the_first_paint_carries_only_what_it_shows,
);
