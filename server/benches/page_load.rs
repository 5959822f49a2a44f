//! Page load of the card form in headless Chromium, as a shopper waits for it, by path: the
//! shop's page loads `/checkout.js` in its head (script tag), or holds the loader itself (the
//! inline snippet: the text of `/checkout.js` in a `<script data-server>` after a preconnect,
//! which is what the npm package's bundle amounts to); optionally (`--with-inline-component`)
//! the component's wasm in the shop's own page; the hosted page of a payment link
//! (`/pay/{link}` on checkout-server's origin: the card form inline, no frame, no session
//! until Pay); and a plain HTML card form, the limit: on the shop's site for the frame paths,
//! and for the hosted page with the response headers checkout-server gives its own pages
//! (`page_load/plain_site.rs`: a plain form "on the same server" pays for checkout-server's
//! `Cross-Origin-Opener-Policy` as the hosted page does). Each
//! unthrottled and throttled like a slow phone (DevTools: 4x CPU, 1.6 Mbps down / 750 Kbps up,
//! 150 ms RTT), and each twice in the same fresh Chromium profile: the first visit (cold
//! cache), then the return visit (the same shop again, a new session, after `about:blank`).
//!
//! Recorded in the browser by a watcher injected into every document (`page_load/scripts.rs`),
//! in milliseconds after the top page's navigation start:
//! - **typeable**: the first animation frame with an enabled, rendered card number input,
//!   wherever it is (top page, shadow root or card frame);
//! - **ready**: the element's `ready` event on the shop's page;
//! - **start-up**: the loader's, from its arrival (the end of `/checkout.js`'s response, or an
//!   inline loader's first run) to the card frame's request (or its lookup in the cache);
//!
//! and the page's cumulative layout shift (CLS) once the form is ready.
//!
//! Chromium runs with site isolation off, so the card frame shares the page's process and the
//! DevTools throttling and watcher reach it; this is also how Chrome on Android runs
//! cross-origin frames on most phones.
//!
//! `PAGE_LOAD_DEBUG=1` also prints each load's raw figures: the waterfall of the loader and
//! the card frame (its request, bytes, first paint, script, session's part and wasm).
//!
//! Run: `cargo bench -p checkout-server --bench page_load [-- --runs 10 --hosted-only]` after the release
//! build of the component (`scripts/component.sh`). Needs Chromium and
//! chromedriver (skips with a notice otherwise).

// The suite's every_engine! macro (and its re-export) is for the tests only.
#[allow(dead_code, unused_macros, unused_imports)]
#[path = "../tests/e2e/support/mod.rs"]
mod support;

#[path = "page_load/plain_site.rs"]
mod plain_site;
#[path = "page_load/report.rs"]
mod report;
#[path = "page_load/scripts.rs"]
mod scripts;

use std::time::Duration;

use fantoccini::Client;
use plain_site::PlainSite;
use serde_json::{Value, json};
use support::browser::Browser;
use support::cdp;
use support::embed_pages::checkout_page;
use support::engine::Engine;
use support::merchant::Merchant;
use support::server::{Process, ServeOptions};
use support::site::{Bundle, StaticSite};

/// Chromium flags of every run: the card frame in the page's process.
const SAME_PROCESS_FRAMES: &[&str] = &[
    "--disable-site-isolation-trials",
    "--disable-features=IsolateOrigins,site-per-process",
];

/// How the form reaches the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// `<script src=".../checkout.js">` in the shop's head.
    Script,
    /// The loader in the page's own script: the npm package's bundle, or the inline snippet.
    Snippet,
    /// The component's wasm in the shop's own page (`--with-inline-component`).
    Component,
    /// The plain HTML card form on the shop's site: the frame paths' limit.
    Plain,
    /// The same form with checkout-server's response headers: the hosted page's limit.
    ServerPlain,
    /// A payment link's hosted page, `/pay/{link}` on checkout-server's origin.
    Hosted,
}

impl Mode {
    fn label(self) -> &'static str {
        match self {
            Self::Script => "frame, /checkout.js",
            Self::Snippet => "frame, npm / inline",
            Self::Component => "inline component",
            Self::Plain => "plain HTML form",
            Self::ServerPlain => "plain, server headers",
            Self::Hosted => "hosted page /pay/…",
        }
    }
}

/// A shopper's first visit (cold cache) or their return to the same shop (same browser).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Visit {
    First,
    Return,
}

const VISITS: [Visit; 2] = [Visit::First, Visit::Return];

/// What one load measured.
struct Sample {
    typeable: f64,
    ready: Option<f64>,
    /// Frame modes: the loader's start-up, from its arrival (the end of checkout.js's
    /// response, or an inline loader's first run) to the card frame's request.
    startup: Option<f64>,
    /// The top page's cumulative layout shift once the form is ready.
    shift: f64,
}

/// Every sample of one figure, by mode, visit and throttling.
type Table = [[[Vec<f64>; 2]; 2]; 6];

/// Adds a sample, when there is one, to the figures of `[mode, visit, throttling]`.
trait Record {
    fn record(&mut self, at: [usize; 3], value: Option<f64>);
}

impl Record for Table {
    fn record(&mut self, [mode, visit, throttle]: [usize; 3], value: Option<f64>) {
        self[mode][visit][throttle].extend(value);
    }
}

/// Every sample.
#[derive(Default)]
struct Samples {
    typeable: Table,
    ready: Table,
    startup: Table,
    shift: Table,
}

struct Rig {
    site: StaticSite,
    server: Process,
    merchant: Merchant,
    /// The hosted page of a payment link made for the run.
    hosted: String,
    plain: PlainSite,
}

/// The command line: `--runs N` (default 10), `--with-inline-component`, `--hosted-only` (the
/// hosted page and the plain forms).
struct Args {
    runs: usize,
    modes: Vec<Mode>,
}

fn main() {
    let args = args();
    let Some(tools) = Engine::Chromium.tools() else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(measure(&tools, &args));
}

fn args() -> Args {
    let mut parsed = Args {
        runs: 10,
        modes: vec![
            Mode::Script,
            Mode::Snippet,
            Mode::Hosted,
            Mode::ServerPlain,
            Mode::Plain,
        ],
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            parsed.runs = args
                .next()
                .and_then(|n| n.parse().ok())
                .expect("--runs takes a number");
        } else if arg == "--with-inline-component" {
            parsed.modes.insert(2, Mode::Component);
        } else if arg == "--hosted-only" {
            parsed
                .modes
                .retain(|mode| matches!(mode, Mode::Hosted | Mode::ServerPlain | Mode::Plain));
        }
    }
    parsed
}

async fn measure(tools: &support::engine::Tools, args: &Args) {
    let dist = support::tools::require_dist();
    let bundle = Bundle::find(&dist);
    let listener = StaticSite::bind();
    let site_origin = format!("http://{}", listener.local_addr().expect("address"));
    let server = Process::serve(ServeOptions {
        gateway: None,
        env: vec![("ALLOWED_ORIGINS".into(), site_origin)],
    });
    let loader = server.loader_text().await;
    let site = StaticSite::start_on(
        listener,
        &dist,
        vec![
            ("/checkout.html", checkout_page(&bundle)),
            ("/shop.html", scripts::shop_page(&server.base)),
            (
                "/snippet.html",
                scripts::snippet_shop_page(&server.base, &loader),
            ),
            ("/plain.html", scripts::plain_form_page()),
        ],
    );
    let merchant = Merchant::new(&server.base);
    let link = merchant
        .post(
            "/v1/payment_links",
            json!({ "description": "Bench tea", "amount": 1850, "currency": "EUR",
                "reusable": true, "billing_fields": ["country", "postal_code"] }),
        )
        .await;
    let hosted = link["url"]
        .as_str()
        .unwrap_or_else(|| panic!("the link's address: {link}"))
        .to_owned();
    let plain = PlainSite::start(&hosted, scripts::plain_form_page()).await;
    let rig = Rig {
        merchant,
        site,
        server,
        hosted,
        plain,
    };
    let mut samples = Samples::default();
    let mut bytes = Vec::new();
    for run in 0..args.runs {
        for (throttle, throttled) in [false, true].into_iter().enumerate() {
            for &mode in &args.modes {
                let browser =
                    Browser::open_with(Engine::Chromium, tools, SAME_PROCESS_FRAMES).await;
                for (visit, kind) in VISITS.into_iter().enumerate() {
                    let sample = load(&browser.client, &rig, mode, throttled, kind).await;
                    let plain = matches!(mode, Mode::Plain | Mode::ServerPlain);
                    if run == 0 && !throttled && !plain {
                        bytes.push((mode, kind, transferred(&browser.client, mode).await));
                    }
                    let at = [mode as usize, visit, throttle];
                    samples.typeable.record(at, Some(sample.typeable));
                    samples.shift.record(at, Some(sample.shift));
                    samples.ready.record(at, sample.ready);
                    samples.startup.record(at, sample.startup);
                }
                browser.close().await;
            }
        }
        eprintln!("[page_load] run {} of {} done", run + 1, args.runs);
    }
    report::report(&samples, args, &bytes, &bundle);
}

/// Opens `mode`'s page in `client` (a new browser for the first visit, the same one again for
/// the return) and waits for the watcher's figures.
async fn load(client: &Client, rig: &Rig, mode: Mode, throttled: bool, visit: Visit) -> Sample {
    let devtools = |command, params| async move {
        cdp::execute(client, command, params)
            .await
            .unwrap_or_else(|error| panic!("{error}"))
    };
    if visit == Visit::First {
        client
            .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
                Some(Duration::from_secs(90)),
                Some(Duration::from_secs(90)),
                Some(Duration::ZERO),
            ))
            .await
            .expect("timeouts");
        devtools(
            "Page.addScriptToEvaluateOnNewDocument",
            json!({ "source": scripts::watch() }),
        )
        .await;
        if throttled {
            devtools("Network.enable", json!({})).await;
            devtools(
                "Network.emulateNetworkConditions",
                json!({
                    "offline": false,
                    "latency": 150,
                    "downloadThroughput": 1_600_000 / 8,
                    "uploadThroughput": 750_000 / 8,
                }),
            )
            .await;
            devtools("Emulation.setCPUThrottlingRate", json!({ "rate": 4 })).await;
        }
    } else {
        // The shopper left the shop and comes back later: nothing of the page is alive.
        client.goto("about:blank").await.expect("away");
    }
    client
        .goto(&url_of(rig, mode).await)
        .await
        .expect("page opens");
    let figures = client
        .execute_async(
            scripts::COLLECT,
            // The hosted page's component starts when Pay is pressed: nothing says `ready`.
            vec![Value::from(!matches!(
                mode,
                Mode::Plain | Mode::ServerPlain | Mode::Hosted
            ))],
        )
        .await
        .unwrap_or_else(|error| {
            panic!("{} never became typeable and ready: {error}", mode.label())
        });
    if std::env::var_os("PAGE_LOAD_DEBUG").is_some() {
        eprintln!(
            "{} {visit:?} throttled={throttled}: {figures}",
            mode.label()
        );
    }
    let arrived = figures["loaderArrived"]
        .as_f64()
        .or(figures["loaderRan"].as_f64());
    let startup = match (arrived, figures["frameRequest"].as_f64()) {
        (Some(arrived), Some(request)) => Some(request - arrived),
        _ => None,
    };
    Sample {
        typeable: figures["typeable"].as_f64().expect("typeable time"),
        ready: figures["ready"].as_f64(),
        startup,
        shift: figures["shift"].as_f64().unwrap_or(0.0),
    }
}

/// The page of `mode`, with a new session for the checkout modes.
async fn url_of(rig: &Rig, mode: Mode) -> String {
    let page = match mode {
        Mode::Plain => return format!("{}/plain.html", rig.site.base),
        Mode::ServerPlain => return rig.plain.url.clone(),
        Mode::Hosted => return rig.hosted.clone(),
        Mode::Script => "shop.html",
        Mode::Snippet => "snippet.html",
        Mode::Component => "checkout.html",
    };
    let (session, secret) = rig
        .merchant
        .create_session(json!({
            "amount": 1850, "currency": "EUR",
            "reference": format!("bench-{}", uuid::Uuid::new_v4().simple()),
        }))
        .await;
    format!(
        "{}/{page}?session={session}&secret={secret}&server={}",
        rig.site.base, rig.server.base
    )
}

/// Bytes the page and, in frame mode, the card frame transferred: `(transfer, encoded)` KB.
async fn transferred(client: &Client, mode: Mode) -> (f64, f64) {
    let mut documents = vec![client.execute(scripts::BYTES, vec![]).await.expect("bytes")];
    if matches!(mode, Mode::Script | Mode::Snippet) {
        let script =
            "return document.querySelector('card-checkout').shadowRoot.querySelector('iframe');";
        let found = client
            .execute(script, vec![])
            .await
            .expect("the card frame");
        let id = found["element-6066-11e4-a52e-4f735466cecf"]
            .as_str()
            .expect("an element")
            .to_owned();
        let frame = fantoccini::elements::Element::from_element_id(
            client.clone(),
            fantoccini::elements::ElementRef::from(id),
        );
        frame.enter_frame().await.expect("into the card frame");
        documents.push(client.execute(scripts::BYTES, vec![]).await.expect("bytes"));
        client.enter_parent_frame().await.expect("back to the page");
    }
    let sum = |key: &str| {
        documents
            .iter()
            .map(|d| d[key].as_f64().unwrap_or(0.0))
            .sum::<f64>()
            / 1024.0
    };
    (sum("transfer"), sum("encoded"))
}
