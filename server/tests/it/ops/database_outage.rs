//! A database outage under load: a PostgreSQL of its own (a throwaway cluster in a temporary
//! directory, from scripts/postgres.sh) is stopped, and started again only once a request
//! has been refused (at least 2.4 s later), while four shoppers create sessions, pay and ask
//! for results, and a staff member reads the dashboard; the load goes on 3 s after. So the
//! outage is certain however slow the machine, not a matter of timing. Whatever failed only
//! because the database was unreachable answers 503 with `Retry-After` (code `unavailable`
//! on the APIs), never 500; every pay answered 200 is recorded once the database is back.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use checkout_server::store::prelude::*;
use serde_json::json;

use crate::api::support::{Backend, Harness, Reply, TestSession, cards, pay_body};
use crate::dashboard::support::{Browser, staff};
use crate::store::POSTGRES_ENV;

/// How long the load runs before the outage.
const BEFORE: Duration = Duration::from_secs(2);
/// The shortest outage.
const OUTAGE: Duration = Duration::from_millis(2400);
/// How long the database may stay down before some request must have been refused.
const REFUSAL_WAIT: Duration = Duration::from_secs(60);
/// How long the load runs after the database is back.
const AFTER: Duration = Duration::from_secs(3);

/// A cluster of its own: stopping it disturbs no other test.
struct OwnPostgres {
    dir: PathBuf,
    port: String,
}

impl OwnPostgres {
    fn script(&self, action: &str) -> String {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let done = Command::new(root.join("scripts/postgres.sh"))
            .arg(action)
            .env("PG_TEST_DIR", &self.dir)
            .env("PG_TEST_PORT", &self.port)
            .output()
            .expect("scripts/postgres.sh runs");
        assert!(
            done.status.success(),
            "postgres.sh {action}: {}",
            String::from_utf8_lossy(&done.stderr)
        );
        String::from_utf8_lossy(&done.stdout).into_owned()
    }

    /// Starts it; its `DATABASE_URL`.
    fn start(&self) -> String {
        let out = self.script("start");
        out.lines()
            .find_map(|line| line.strip_prefix("DATABASE_URL_POSTGRES="))
            .expect("the script prints the URL")
            .to_owned()
    }
}

impl Drop for OwnPostgres {
    fn drop(&mut self) {
        let _ = self.script("stop");
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// What the load and the outage tell each other: a request was refused (the outage was
/// seen), and the load is over.
#[derive(Default)]
struct Progress {
    refused: AtomicBool,
    over: AtomicBool,
}

impl Progress {
    /// Keeps `answer` in `answers`, noting a refusal.
    fn record(&self, answers: &mut Vec<Answer>, answer: Answer) {
        if answer.status == 503 {
            self.refused.store(true, Ordering::SeqCst);
        }
        answers.push(answer);
    }

    fn going_on(&self) -> bool {
        !self.over.load(Ordering::SeqCst)
    }
}

/// What one request answered.
#[derive(Debug)]
struct Answer {
    what: &'static str,
    status: u16,
    retry_after: bool,
    code: String,
}

impl Answer {
    fn of(what: &'static str, reply: &Reply) -> Self {
        Self {
            what,
            status: reply.status,
            retry_after: reply.headers.contains_key("retry-after"),
            code: reply.json["error"]["code"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
        }
    }
}

async fn send(request: reqwest::RequestBuilder) -> Option<Reply> {
    Some(Reply::read(request.send().await.ok()?).await)
}

/// One shopper paying orders while the load goes on; what each request answered, and the
/// sessions whose pay call answered 200.
async fn shopper(h: &Harness, progress: &Progress) -> (Vec<Answer>, Vec<String>) {
    let mut answers = Vec::new();
    let mut paid = Vec::new();
    while progress.going_on() {
        let reference = format!(
            "outage-{}",
            &uuid::Uuid::new_v4().simple().to_string()[..12]
        );
        let body = json!({"amount": 1500, "currency": "JPY", "reference": reference});
        let Some(created) = send(
            h.merchant(reqwest::Method::POST, "/v1/sessions")
                .json(&body),
        )
        .await
        else {
            continue;
        };
        progress.record(&mut answers, Answer::of("create session", &created));
        if created.status != 201 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        let session = TestSession {
            id: created.json["id"].as_str().expect("id").to_owned(),
            secret: created.json["client_secret"]
                .as_str()
                .expect("secret")
                .to_owned(),
            reference,
        };
        let pay = h.checkout(reqwest::Method::POST, &session, "/pay");
        if let Some(reply) = send(pay.json(&pay_body(cards::VISA_OK, "123"))).await {
            progress.record(&mut answers, Answer::of("pay", &reply));
            if reply.status == 200 {
                paid.push(session.id.clone());
            }
        }
        if let Some(reply) = send(h.checkout(reqwest::Method::GET, &session, "")).await {
            progress.record(&mut answers, Answer::of("read session", &reply));
        }
    }
    (answers, paid)
}

/// A staff member reloading the payments page while the load goes on.
async fn staff_member(browser: &Browser, progress: &Progress) -> Vec<Answer> {
    let mut answers = Vec::new();
    while progress.going_on() {
        let page = browser.get("/payments").await;
        let answer = Answer {
            what: "dashboard",
            status: page.status,
            retry_after: page.headers.contains_key("retry-after"),
            code: String::new(),
        };
        progress.record(&mut answers, answer);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    answers
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_outage_answers_503_and_loses_nothing() {
    if std::env::var(POSTGRES_ENV).is_err() {
        eprintln!("SKIPPED: the database outage needs PostgreSQL installed ({POSTGRES_ENV})");
        return;
    }
    let dir = std::env::temp_dir().join(format!("checkout-outage-{}", std::process::id()));
    let mut postgres = OwnPostgres {
        dir,
        port: "55433".to_owned(),
    };
    let url = postgres.start();
    let port = url
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next())
        .expect("a port")
        .to_owned();
    // Started again on the same port once stopped.
    postgres.port = port;
    let h = Harness::start_with(Backend::Postgres(url), &[("GATEWAY_TIMEOUT_MS", "5000")]).await;
    staff(&h, "ops@shop.example", StaffRole::Viewer).await;
    let mut browser = Browser::new(&h);
    let login = browser
        .login("ops@shop.example", crate::dashboard::support::PASSWORD)
        .await;
    assert_eq!(login.status, 303, "{}", login.text);

    let progress = Progress::default();
    let outage = async {
        tokio::time::sleep(BEFORE).await;
        let stopped = tokio::task::block_in_place(|| postgres.script("stop"));
        tokio::time::sleep(OUTAGE).await;
        // Down until the outage has been seen: a request refused, however slow the machine.
        let deadline = Instant::now() + REFUSAL_WAIT;
        while !progress.refused.load(Ordering::SeqCst) && Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        tokio::task::block_in_place(|| postgres.start());
        tokio::time::sleep(AFTER).await;
        progress.over.store(true, Ordering::SeqCst);
        stopped
    };
    let (one, two, three, four, dashboard, _) = tokio::join!(
        shopper(&h, &progress),
        shopper(&h, &progress),
        shopper(&h, &progress),
        shopper(&h, &progress),
        staff_member(&browser, &progress),
        outage
    );
    let mut answers: Vec<Answer> = dashboard;
    let mut paid: Vec<String> = Vec::new();
    for (mine, sessions) in [one, two, three, four] {
        answers.extend(mine);
        paid.extend(sessions);
    }
    let count = |f: &dyn Fn(&Answer) -> bool| answers.iter().filter(|a| f(a)).count();
    let refused = count(&|a| a.status == 503);
    println!(
        "{} answers: {} refused with 503, {} pays answered 200",
        answers.len(),
        refused,
        paid.len()
    );
    let errors: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.status >= 500 && a.status != 503)
        .collect();
    assert!(
        errors.is_empty(),
        "server errors during the outage: {errors:?}"
    );
    assert!(
        refused > 0,
        "no request was refused in {REFUSAL_WAIT:?} with the database down: {answers:?}"
    );
    for answer in answers.iter().filter(|a| a.status == 503) {
        assert!(answer.retry_after, "503 without Retry-After: {answer:?}");
        if answer.what != "dashboard" {
            assert_eq!(answer.code, "unavailable", "{answer:?}");
        }
    }
    for session in &paid {
        let recorded = h
            .state
            .payments
            .session_payments(session, 10)
            .await
            .expect("the database is back")
            .items
            .len();
        assert_eq!(
            recorded, 1,
            "session {session}: the accepted pay is recorded"
        );
    }
    h.finish().await;
}
