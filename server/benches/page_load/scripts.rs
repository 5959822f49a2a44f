//! What the page-load benchmark runs in the browser: the watcher injected into every document
//! (top page and card frame alike), the collector, the byte counter, and the pages: the plain
//! HTML form the checkout is compared with, and the shop's checkout page with the loader as a
//! script tag or inline.

/// Injected before any script of every document (`Page.addScriptToEvaluateOnNewDocument`).
/// Records, as milliseconds after the top page's navigation start:
/// - `typeable`: the first animation frame in which an enabled, rendered `#cc-number` exists
///   (document or shadow roots; in the card frame it is reported to the top page);
/// - `ready`: the first `ready` event reaching the top document (the loader's in frame mode,
///   the component's in inline mode);
/// - `frameParsed`, `framePainted`: the card frame's document parsed (`DOMContentLoaded`) and
///   first painted, in frame mode;
/// - `shift`: the top page's cumulative layout shift (CLS) so far.
const WATCH: &str = r#"(() => {
  // A frame's first, empty document (before the loader's POST answers) is not the form's.
  if (location.href === 'about:blank') return;
  const now = () => performance.timeOrigin + performance.now();
  // `raw`: a figure that is not a moment (bytes), kept as it is.
  function report(kind, at, raw) {
    if (window === top) {
      const bench = window.__ccBench;
      if (!(kind in bench)) bench[kind] = raw ? at : at - performance.timeOrigin;
    } else {
      top.postMessage({ ccBench: kind, at, raw }, '*');
    }
  }
  if (window === top) {
    // Layout shift (CLS) of the top page: how far content moved while the form came in.
    window.__ccBench = { shift: 0 };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__ccBench.shift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
    addEventListener('message', (event) => {
      if (event.data && typeof event.data.ccBench === 'string') report(event.data.ccBench, event.data.at, event.data.raw);
    });
    document.addEventListener('ready', () => report('ready', now()), true);
    // The loader's start-up: when it defined the element, and when the shop's page could
    // first see checkout.js (its response's end; an inline loader has none).
    const define = customElements.define;
    customElements.define = function (name, ...rest) {
      if (name === 'card-checkout') report('loaderRan', now());
      return define.call(this, name, ...rest);
    };
    addEventListener('load', () => {
      const script = performance.getEntriesByType('resource').find((e) => e.name.endsWith('/checkout.js'));
      if (script) report('loaderArrived', performance.timeOrigin + script.responseEnd);
    });
  } else {
    // When the card frame's navigation began, and when its request left (its own clock; a
    // document from the cache has no request: then when it was looked up).
    const navigation = performance.getEntriesByType('navigation')[0];
    report('frameStart', performance.timeOrigin);
    if (navigation) {
      report('frameRequest', performance.timeOrigin + (navigation.requestStart || navigation.fetchStart));
      report('frameBytes', navigation.transferSize, true);
    }
    // The frame's own requests, for the waterfall: its script, the session's part, the wasm.
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const name = entry.name.includes('/frame/session') ? 'session' :
          entry.name.endsWith('.wasm') ? 'wasm' : /\/frame-[^/]*\.js$/.test(entry.name) ? 'frameJs' : null;
        if (!name) continue;
        report(name + 'Start', performance.timeOrigin + entry.startTime);
        report(name + 'End', performance.timeOrigin + entry.responseEnd);
      }
    }).observe({ type: 'resource', buffered: true });
    // The card frame's document: parsed, and first painted (its own clock, reported absolute).
    document.addEventListener('DOMContentLoaded', () => report('frameParsed', now()));
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.name === 'first-paint') report('framePainted', performance.timeOrigin + entry.startTime);
      }
    }).observe({ type: 'paint', buffered: true });
  }
  /*DEEP_FIND*/
  let seen = false;
  function look() {
    if (seen) return;
    const input = deepFind('#cc-number');
    if (input && !input.disabled && input.getClientRects().length > 0) {
      seen = true;
      requestAnimationFrame(() => report('typeable', now()));
    } else {
      requestAnimationFrame(look);
    }
  }
  look();
})();"#;

/// [`WATCH`] with the e2e suite's shadow-root search included.
pub fn watch() -> String {
    WATCH.replace("/*DEEP_FIND*/", super::support::page::DEEP_FIND)
}

/// Waits until the watcher has `typeable` (and `ready`, when `arguments[0]` is true), then
/// half a second more for the layout to settle, and returns what it recorded.
pub const COLLECT: &str = r#"
const done = arguments[arguments.length - 1];
const wantReady = arguments[0];
(function wait() {
  const bench = window.__ccBench || {};
  if ('typeable' in bench && (!wantReady || 'ready' in bench)) setTimeout(() => done(window.__ccBench), 500);
  else setTimeout(wait, 20);
})();
"#;

/// Sums the sizes of the document and every resource it loaded.
pub const BYTES: &str = r#"
const entries = performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'));
let transfer = 0, encoded = 0, count = 0;
for (const e of entries) { transfer += e.transferSize; encoded += e.encodedBodySize; count += 1; }
return { transfer, encoded, count };
"#;

/// A plain HTML card form with the same fields and no script: the benchmark's baseline.
pub fn plain_form_page() -> String {
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

/// A shop's checkout page as the README shows it: `/checkout.js` from checkout-server in the
/// head (found by the browser's preload scanner), then `<card-checkout>` with the session the
/// shop's backend would render into the page (here from the query string), and a footer below
/// it (what a layout shift would move).
pub fn shop_page(server: &str) -> String {
    checkout_page_with(
        &format!(r#"<script src="{server}/checkout.js"></script>"#),
        "",
    )
}

/// The same shop with the loader in the page itself: the inline snippet (`loader`, the text
/// of checkout-server's `/checkout.js`, pasted as is into a `<script data-server>`; the npm
/// package's bundle amounts to the same), after a preconnect to checkout-server.
pub fn snippet_shop_page(server: &str, loader: &str) -> String {
    checkout_page_with(
        &format!(
            "<link rel=\"preconnect\" href=\"{server}\">\n<script data-server=\"{server}\">{loader}</script>"
        ),
        "",
    )
}

/// The checkout page with `head` (how the loader arrives) and `setup` run before the element.
fn checkout_page_with(head: &str, setup: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Shop: checkout</title>
{head}</head>
<body>
<h1>Checkout</h1>
<div id="checkout"></div>
<script>
{setup}
const params = new URLSearchParams(location.search);
const element = document.createElement('card-checkout');
element.setAttribute('session', params.get('session'));
element.setAttribute('client-secret', params.get('secret'));
element.setAttribute('locale', 'en');
document.getElementById('checkout').append(element);
</script>
<footer><p>Free returns within 30 days. Questions? Write to help@shop.example.</p></footer>
</body>
</html>
"#
    )
}
