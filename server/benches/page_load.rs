//! Page load of the checkout form in headless Chromium, beside a plain HTML card form served
//! the same way (same static server, same machine), and the bytes the checkout page transfers.
//!
//! For each run a fresh Chromium profile (cold cache) opens the page; the time is read in the
//! page, from navigation start (`performance.timeOrigin`):
//! - checkout: the moment after the component's `ready` event when `#cc-number` exists (in
//!   its shadow root) and is enabled, i.e. a person could start typing;
//! - plain form: `domInteractive` of the navigation (its inputs work from then on).
//!
//! Bytes: the Resource Timing `transferSize` (and `encodedBodySize`) of the document and every
//! resource it loaded, summed; cross-origin API answers without `Timing-Allow-Origin` report 0
//! and are counted separately.
//!
//! Run: `cargo bench -p checkout-server --bench page_load [-- --runs 10]` after
//! `trunk build --release`. Needs Chromium and chromedriver (skips with a notice otherwise).

#[allow(dead_code)]
#[path = "../tests/e2e/support/mod.rs"]
mod support;

use std::time::Duration;

use serde_json::{Value, json};
use support::browser::Browser;
use support::embed_pages::checkout_page;
use support::merchant::Merchant;
use support::page::Page;
use support::server::{Process, ServeOptions};
use support::site::{Bundle, StaticSite};

/// Records, in the page, when the card number input became usable after `ready`.
const WATCH_READY: &str = r#"
const done = arguments[arguments.length - 1];
function deep(selector) {
  const roots = [document];
  while (roots.length) {
    const root = roots.shift();
    const hit = root.querySelector(selector);
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return null;
}
function check() {
  const input = deep('#cc-number');
  if (input && !input.disabled && document.querySelector('#events li[data-event=ready]')) {
    done(performance.now());
  } else {
    requestAnimationFrame(check);
  }
}
check();
"#;

/// Sums the document's and its resources' sizes.
const BYTES: &str = r#"
const entries = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));
let transfer = 0, encoded = 0, hidden = 0;
const byType = {};
for (const e of entries) {
  transfer += e.transferSize; encoded += e.encodedBodySize;
  if (e.transferSize === 0 && e.encodedBodySize === 0) hidden += 1;
  const kind = e.initiatorType || 'navigation';
  byType[kind] = (byType[kind] || 0) + e.transferSize;
}
return { transfer, encoded, hidden, count: entries.length, byType };
"#;

struct Options {
    runs: usize,
}

impl Options {
    fn from_args() -> Self {
        let mut options = Self { runs: 10 };
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            if arg == "--runs" {
                options.runs = args
                    .next()
                    .and_then(|v| v.parse().ok())
                    .filter(|n| *n > 0)
                    .unwrap_or_else(|| panic!("--runs needs a positive number"));
            }
        }
        options
    }
}

fn main() {
    let options = Options::from_args();
    let Some(tools) = support::tools::browser_tools() else {
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(measure(&tools, &options));
}

async fn measure(tools: &support::tools::Tools, options: &Options) {
    let dist = support::tools::require_dist();
    let bundle = Bundle::find(&dist);
    let site = StaticSite::start(
        &dist,
        vec![
            ("/checkout.html", checkout_page(&bundle)),
            ("/plain.html", plain_form_page()),
        ],
    );
    let server = Process::serve(ServeOptions {
        gateway: None,
        env: vec![("ALLOWED_ORIGINS".into(), site.base.clone())],
    });
    let merchant = Merchant::new(&server.base);

    let mut checkout_ms = Vec::new();
    let mut plain_ms = Vec::new();
    let mut bytes = Value::Null;
    for run in 0..options.runs {
        let (session, secret) = merchant
            .create_session(json!({
                "amount": 1850, "currency": "EUR",
                "reference": format!("bench-{run}-{}", uuid::Uuid::new_v4().simple()),
            }))
            .await;
        let url = format!(
            "{}/checkout.html?session={session}&secret={secret}&server={}",
            site.base, server.base
        );
        let browser = Browser::open(tools).await;
        let page = Page::new(browser.client.clone(), "bench");
        page.client
            .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
                Some(Duration::from_secs(60)),
                Some(Duration::from_secs(60)),
                Some(Duration::ZERO),
            ))
            .await
            .expect("timeouts");
        page.goto(&url).await;
        let ready = page
            .client
            .execute_async(WATCH_READY, vec![])
            .await
            .expect("form became ready");
        checkout_ms.push(ready.as_f64().expect("a time"));
        if run == 0 {
            bytes = page.eval(BYTES).await;
        }
        browser.close().await;

        let browser = Browser::open(tools).await;
        let page = Page::new(browser.client.clone(), "bench");
        page.goto(&format!("{}/plain.html", site.base)).await;
        page.find_ready("#cc-number").await;
        let interactive = page
            .eval("return performance.getEntriesByType('navigation')[0].domInteractive;")
            .await;
        plain_ms.push(interactive.as_f64().expect("a time"));
        browser.close().await;
    }
    report(&checkout_ms, &plain_ms, &bytes, &bundle);
}

fn report(checkout_ms: &[f64], plain_ms: &[f64], bytes: &Value, bundle: &Bundle) {
    let checkout = Stats::of(checkout_ms);
    let plain = Stats::of(plain_ms);
    println!(
        "page load, headless Chromium, cold cache, {} runs each",
        checkout_ms.len()
    );
    println!(
        "  checkout form interactive: median {:7.1} ms   p90 {:7.1} ms   min {:7.1} ms",
        checkout.median, checkout.p90, checkout.min
    );
    println!(
        "  plain HTML form:           median {:7.1} ms   p90 {:7.1} ms   min {:7.1} ms",
        plain.median, plain.p90, plain.min
    );
    println!(
        "  ratio (median):            {:.1}x",
        checkout.median / plain.median.max(0.1)
    );
    let number = |key: &str| bytes[key].as_f64().unwrap_or(0.0);
    println!(
        "bytes for the checkout page ({} entries; JS {}, wasm {}):",
        bytes["count"], bundle.js, bundle.wasm
    );
    println!(
        "  transferred {:.1} KB (bodies {:.1} KB encoded); {} cross-origin entries report no size",
        number("transfer") / 1024.0,
        number("encoded") / 1024.0,
        bytes["hidden"]
    );
    if let Some(by_type) = bytes["byType"].as_object() {
        for (kind, size) in by_type {
            println!(
                "    {kind:<12} {:8.1} KB",
                size.as_f64().unwrap_or(0.0) / 1024.0
            );
        }
    }
}

struct Stats {
    median: f64,
    p90: f64,
    min: f64,
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
            min: sorted.first().copied().unwrap_or(f64::NAN),
        }
    }
}

/// A plain HTML card form with the same fields and no script: the baseline of the page-load
/// benchmark. "Interactive" for it is the number field being present and enabled.
fn plain_form_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Plain card form</title></head>
<body>
<form method="post" action="/pay">
<label for="cc-name">Name on card</label><input id="cc-name" autocomplete="cc-name">
<label for="cc-number">Card number</label><input id="cc-number" inputmode="numeric" autocomplete="cc-number">
<label for="cc-exp">Expiry (MM / YY)</label><input id="cc-exp" inputmode="numeric" autocomplete="cc-exp">
<label for="cc-csc">CVC</label><input id="cc-csc" inputmode="numeric" autocomplete="cc-csc">
<label for="country">Country</label><input id="country" autocomplete="country">
<label for="postal">Postal code</label><input id="postal" autocomplete="postal-code">
<button id="cc-submit">Pay</button>
</form>
</body>
</html>
"#
    .to_owned()
}
