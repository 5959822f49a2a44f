//! Page load of the card form in headless Chromium, as a shopper waits for it: frame mode (the
//! shop's page loads `/checkout.js`, the form runs in checkout-server's frame), the same with
//! the npm package (the loader in the page's own script, `CardCheckout.configure` naming
//! checkout-server), inline mode (the component in the shop's own page) and a plain HTML card
//! form, each unthrottled and throttled like a slow phone (DevTools: 4× CPU, 1.6 Mbps down /
//! 750 Kbps up, 150 ms RTT).
//!
//! Every run is a fresh Chromium profile (cold cache). Two moments, in milliseconds after the
//! top page's navigation start, recorded in the browser by a watcher injected into every
//! document (`page_load/scripts.rs`):
//! - **first input typeable**: the first animation frame with an enabled, rendered card
//!   number input, wherever it is (top page, shadow root or card frame);
//! - **component ready**: the element's `ready` event on the shop's page;
//!
//! and the page's cumulative layout shift (CLS) once the form is ready.
//!
//! Chromium runs with site isolation off, so the card frame shares the page's process and the
//! DevTools throttling and watcher reach it; this is also how Chrome on Android runs
//! cross-origin frames on most phones.
//!
//! `PAGE_LOAD_DEBUG=1` also prints each run's raw figures, with the parse (DOMContentLoaded)
//! and first paint of the top page and of the card frame.
//!
//! Run: `cargo bench -p checkout-server --bench page_load [-- --runs 10]` after the release
//! build of the component (`scripts/component.sh`). Needs Chromium and
//! chromedriver (skips with a notice otherwise).

// The suite's every_engine! macro (and its re-export) is for the tests only.
#[allow(dead_code, unused_macros, unused_imports)]
#[path = "../tests/e2e/support/mod.rs"]
mod support;

#[path = "page_load/scripts.rs"]
mod scripts;

use std::time::Duration;

use fantoccini::Client;
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
    Frame,
    Npm,
    Inline,
    Plain,
}

impl Mode {
    const ALL: [Self; 4] = [Self::Frame, Self::Npm, Self::Inline, Self::Plain];

    fn label(self) -> &'static str {
        match self {
            Self::Frame => "frame (/checkout.js)",
            Self::Npm => "frame (npm package)",
            Self::Inline => "inline component",
            Self::Plain => "plain HTML form",
        }
    }
}

/// What one run measured.
struct Sample {
    typeable: f64,
    ready: Option<f64>,
    /// Frame mode: the card frame's document parsed, and first painted.
    frame: Option<(f64, f64)>,
    /// The top page's cumulative layout shift once the form is ready.
    shift: f64,
}

/// Every sample, by mode and throttling.
#[derive(Default)]
struct Samples {
    typeable: [[Vec<f64>; 2]; 4],
    ready: [[Vec<f64>; 2]; 4],
    frame_parsed: [Vec<f64>; 2],
    frame_painted: [Vec<f64>; 2],
    shift: [[Vec<f64>; 2]; 4],
}

struct Rig {
    site: StaticSite,
    server: Process,
    merchant: Merchant,
}

fn main() {
    let runs = runs_from_args();
    let Some(tools) = Engine::Chromium.tools() else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(measure(&tools, runs));
}

fn runs_from_args() -> usize {
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            return args
                .next()
                .and_then(|n| n.parse().ok())
                .expect("--runs takes a number");
        }
    }
    10
}

async fn measure(tools: &support::engine::Tools, runs: usize) {
    let dist = support::tools::require_dist();
    let bundle = Bundle::find(&dist);
    let listener = StaticSite::bind();
    let site_origin = format!("http://{}", listener.local_addr().expect("address"));
    let server = Process::serve(ServeOptions {
        gateway: None,
        env: vec![("ALLOWED_ORIGINS".into(), site_origin)],
    });
    let site = StaticSite::start_on(
        listener,
        &dist,
        vec![
            ("/checkout.html", checkout_page(&bundle)),
            ("/shop.html", scripts::shop_page(&server.base)),
            ("/npm.html", scripts::npm_shop_page(&server.base)),
            ("/plain.html", scripts::plain_form_page()),
        ],
    );
    let rig = Rig {
        merchant: Merchant::new(&server.base),
        site,
        server,
    };
    let mut samples = Samples::default();
    let mut bytes = Vec::new();
    for run in 0..runs {
        for (throttle, throttled) in [false, true].into_iter().enumerate() {
            for (index, mode) in Mode::ALL.into_iter().enumerate() {
                let browser =
                    Browser::open_with(Engine::Chromium, tools, SAME_PROCESS_FRAMES).await;
                let sample = load(&browser.client, &rig, mode, throttled).await;
                if run == 0 && !throttled && mode != Mode::Plain {
                    bytes.push((mode, transferred(&browser.client, mode).await));
                }
                browser.close().await;
                samples.typeable[index][throttle].push(sample.typeable);
                samples.shift[index][throttle].push(sample.shift);
                if let Some(ready) = sample.ready {
                    samples.ready[index][throttle].push(ready);
                }
                if let (Mode::Frame, Some((parsed, painted))) = (mode, sample.frame) {
                    samples.frame_parsed[throttle].push(parsed);
                    samples.frame_painted[throttle].push(painted);
                }
            }
        }
        eprintln!("[page_load] run {} of {runs} done", run + 1);
    }
    report(&samples, runs, &bytes, &bundle);
}

/// Opens `mode`'s page once in `client` and waits for the watcher's figures.
async fn load(client: &Client, rig: &Rig, mode: Mode, throttled: bool) -> Sample {
    client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(Duration::from_secs(90)),
            Some(Duration::from_secs(90)),
            Some(Duration::ZERO),
        ))
        .await
        .expect("timeouts");
    let devtools = |command, params| async move {
        cdp::execute(client, command, params)
            .await
            .unwrap_or_else(|error| panic!("{error}"))
    };
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
    client
        .goto(&url_of(rig, mode).await)
        .await
        .expect("page opens");
    let figures = client
        .execute_async(scripts::COLLECT, vec![Value::from(mode != Mode::Plain)])
        .await
        .unwrap_or_else(|error| {
            panic!("{} never became typeable and ready: {error}", mode.label())
        });
    if std::env::var_os("PAGE_LOAD_DEBUG").is_some() {
        eprintln!("{} throttled={throttled}: {figures}", mode.label());
    }
    let frame = match (
        figures["frameParsed"].as_f64(),
        figures["framePainted"].as_f64(),
    ) {
        (Some(parsed), Some(painted)) => Some((parsed, painted)),
        _ => None,
    };
    Sample {
        typeable: figures["typeable"].as_f64().expect("typeable time"),
        ready: figures["ready"].as_f64(),
        frame,
        shift: figures["shift"].as_f64().unwrap_or(0.0),
    }
}

/// The page of `mode`, with a new session for the checkout modes.
async fn url_of(rig: &Rig, mode: Mode) -> String {
    let page = match mode {
        Mode::Plain => return format!("{}/plain.html", rig.site.base),
        Mode::Frame => "shop.html",
        Mode::Npm => "npm.html",
        Mode::Inline => "checkout.html",
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
    if matches!(mode, Mode::Frame | Mode::Npm) {
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

fn report(samples: &Samples, runs: usize, bytes: &[(Mode, (f64, f64))], bundle: &Bundle) {
    println!(
        "page load, headless Chromium, cold cache, median (p90) of {runs} runs; \
         throttled = 4x CPU, 1.6 Mbps down / 750 Kbps up, 150 ms RTT"
    );
    println!(
        "{:<22} {:>30} {:>30}",
        "", "first input typeable (ms)", "component ready (ms)"
    );
    println!(
        "{:<22} {:>15}{:>15} {:>15}{:>15}",
        "", "unthrottled", "throttled", "unthrottled", "throttled"
    );
    let cell = |values: &[f64]| {
        if values.is_empty() {
            return "-".to_owned();
        }
        let stats = Stats::of(values);
        format!("{:.0} ({:.0})", stats.median, stats.p90)
    };
    for (index, mode) in Mode::ALL.into_iter().enumerate() {
        let typeable = &samples.typeable[index];
        let ready = &samples.ready[index];
        println!(
            "{:<22} {:>15}{:>15} {:>15}{:>15}",
            mode.label(),
            cell(&typeable[0]),
            cell(&typeable[1]),
            cell(&ready[0]),
            cell(&ready[1]),
        );
    }
    let plain = &samples.typeable[Mode::Plain as usize];
    for mode in [Mode::Frame, Mode::Npm, Mode::Inline] {
        let typeable = &samples.typeable[mode as usize];
        let ratio = |throttle: usize| {
            Stats::of(&typeable[throttle]).median / Stats::of(&plain[throttle]).median.max(0.1)
        };
        println!(
            "{:<22} typeable / plain form: {:.2}x unthrottled, {:.2}x throttled (target <= 1.3x)",
            mode.label(),
            ratio(0),
            ratio(1)
        );
    }
    println!("targets for component ready: <= 150 ms unthrottled, <= 1000 ms throttled");
    let shifts: Vec<String> = Mode::ALL
        .into_iter()
        .enumerate()
        .map(|(index, mode)| {
            let shift = &samples.shift[index];
            let median = |values: &[f64]| Stats::of(values).median;
            format!(
                "{} {:.3} / {:.3}",
                mode.label(),
                median(&shift[0]),
                median(&shift[1])
            )
        })
        .collect();
    println!(
        "layout shift of the page (CLS, median, unthrottled / throttled): {}",
        shifts.join("; ")
    );
    println!(
        "frame mode, the card frame's document: parsed {} / {} ms, first paint {} / {} ms \
         (unthrottled / throttled)",
        cell(&samples.frame_parsed[0]),
        cell(&samples.frame_parsed[1]),
        cell(&samples.frame_painted[0]),
        cell(&samples.frame_painted[1]),
    );
    println!(
        "bytes transferred (first unthrottled run; JS {}, wasm {}):",
        bundle.js, bundle.wasm
    );
    for (mode, (transfer, encoded)) in bytes {
        println!(
            "  {:<22} {transfer:7.1} KB transferred, {encoded:7.1} KB of bodies",
            mode.label()
        );
    }
}

struct Stats {
    median: f64,
    p90: f64,
}

impl Stats {
    fn of(samples: &[f64]) -> Self {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let index = ((sorted.len() as f64 - 1.0) * q).round() as usize;
            sorted.get(index).copied().unwrap_or(f64::NAN)
        };
        Self {
            median: at(0.5),
            p90: at(0.9),
        }
    }
}
