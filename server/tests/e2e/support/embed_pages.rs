//! Pages of the "partner shop" on the second origin. They load the component from their own
//! copy of `dist/` and put `<card-checkout>` inside a shadow root of their own, as a merchant
//! with a web-component based site would. Session id, client secret and server address come
//! in the query string (the partner's backend would render them into the page).
//!
//! Every event the element sends is listed in `#events` (`<li data-event=NAME>` with the
//! JSON of its detail), so a scenario can check what crossed the boundary; script errors and
//! console errors are listed in `#page-errors`.

use super::site::Bundle;

/// `/embed.html?session=..&secret=..&server=..[&locale=..][&three_d_secure=..]`: the checkout
/// form.
pub fn checkout_page(bundle: &Bundle) -> String {
    page(
        bundle,
        "Partner shop: checkout",
        r#"
const session = params.get('session');
const secret = params.get('secret');
const server = params.get('server');
sessionStorage.setItem('checkout:' + session, JSON.stringify({ secret, server }));
mountInShadow({ session, 'client-secret': secret, server, locale: params.get('locale') || 'en',
  'three-d-secure': params.get('three_d_secure') });
"#,
    )
}

/// `/done.html?checkout=..&session_id=..&payment_id=..`: where the checkout server sends the
/// customer back (`SUCCESS_URL` / `DECLINE_URL`); shows the result with checkout-server's
/// `/checkout.js` (mode `result` is a page of checkout-server's own, in its frame; the card
/// form's wasm has none), in the partner's shadow DOM, events listed as on the other pages.
pub fn landing_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Partner shop: your order</title>
<style>body { font-family: sans-serif; max-width: 40rem; margin: 2rem auto; }</style>
</head>
<body>
<h1>Partner shop: your order</h1>
<p>Landing: <span id="landing"></span></p>
<div id="partner-widget"></div>
<ol id="events"></ol>
<ol id="page-errors"></ol>
<script>
addEventListener('error', (e) => {
  const item = document.createElement('li');
  item.textContent = 'error: ' + e.message;
  document.getElementById('page-errors').append(item);
});
const params = new URLSearchParams(location.search);
const session = params.get('session_id');
document.getElementById('landing').textContent = params.get('checkout') || '';
const saved = JSON.parse(sessionStorage.getItem('checkout:' + session) || 'null');
if (saved) {
  const loader = document.createElement('script');
  loader.src = saved.server + '/checkout.js';
  loader.onload = () => {
    const host = document.getElementById('partner-widget');
    const root = host.attachShadow({ mode: 'open' });
    const element = document.createElement('card-checkout');
    element.setAttribute('mode', 'result');
    element.setAttribute('session', session);
    element.setAttribute('client-secret', saved.secret);
    element.setAttribute('locale', 'en');
    for (const name of ['ready', 'change', 'submit', 'processing', 'success', 'error', 'redirect']) {
      element.addEventListener(name, (event) => {
        const item = document.createElement('li');
        item.dataset.event = name;
        item.textContent = name + ' ' + JSON.stringify(event.detail ?? null);
        document.getElementById('events').append(item);
      });
    }
    root.append(element);
  };
  document.head.append(loader);
}
</script>
</body>
</html>
"#
    .to_owned()
}

fn page(bundle: &Bundle, title: &str, body_script: &str) -> String {
    format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
{css}
<style>body {{ font-family: sans-serif; max-width: 40rem; margin: 2rem auto; }}</style>
</head>
<body>
<h1>{title}</h1>
<p>This page is served from another origin and embeds the checkout in its own shadow DOM.</p>
<p>Landing: <span id="landing"></span></p>
<div id="partner-widget"></div>
<ol id="events"></ol>
<ol id="page-errors"></ol>
<script>
function noteError(text) {{
  const item = document.createElement('li');
  item.textContent = text;
  document.getElementById('page-errors').append(item);
}}
addEventListener('error', (e) => noteError('error: ' + e.message));
addEventListener('unhandledrejection', (e) => noteError('rejection: ' + (e.reason && (e.reason.stack || e.reason))));
const consoleError = console.error;
console.error = (...args) => {{ noteError('console: ' + args.join(' ')); consoleError(...args); }};
</script>
<script type="module">
import init from '{js}';
const params = new URLSearchParams(location.search);
function mountInShadow(attributes) {{
  const host = document.getElementById('partner-widget');
  const root = host.shadowRoot || host.attachShadow({{ mode: 'open' }});
  const element = document.createElement('card-checkout');
  for (const [name, value] of Object.entries(attributes)) if (value) element.setAttribute(name, value);
  for (const name of ['ready', 'change', 'submit', 'processing', 'success', 'error', 'redirect']) {{
    element.addEventListener(name, (event) => {{
      const item = document.createElement('li');
      item.dataset.event = name;
      item.textContent = name + ' ' + JSON.stringify(event.detail ?? null);
      document.getElementById('events').append(item);
    }});
  }}
  root.append(element);
}}
{body_script}
await init({{ module_or_path: '{wasm}' }});
</script>
</body>
</html>
"#,
        css = bundle.css_links(),
        js = bundle.js,
        wasm = bundle.wasm,
    )
}

/// `/isolated.html?session=..&secret=..&server=..`: the checkout through checkout-server's
/// `/checkout.js` (the card form in its frame), inside the partner's shadow DOM, on a page
/// that also runs a skimmer. The skimmer records into `sessionStorage["stolen"]` (it outlives
/// the 3-D Secure trip) every key and input event on the window and document, every DOM
/// mutation (shadow roots included), every input value and text it can reach by walking shadow
/// roots, what `iframe.contentDocument` gives, and every `message` the window receives.
/// `/done.html` shows the result afterwards (the secret is kept as `checkout_page` keeps it).
/// `&scheme=` sets the element's CSS color-scheme, `&locale=` its language (default English),
/// `&three_d_secure=` its 3-D Secure option.
pub fn isolated_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Partner shop: checkout beside a skimmer</title>
</head>
<body>
<h1>Partner shop: checkout beside a skimmer</h1>
<div id="partner-widget"></div>
<ol id="events"></ol>
<script>
// The skimmer.
const stolen = JSON.parse(sessionStorage.getItem('stolen') || '[]');
function note(kind, value) {
  stolen.push(kind + ':' + String(value));
  sessionStorage.setItem('stolen', JSON.stringify(stolen));
}
for (const target of [window, document]) {
  for (const type of ['keydown', 'keyup', 'keypress', 'input', 'change', 'paste', 'beforeinput']) {
    target.addEventListener(type, (e) => note(type, (e.key || '') + '|' + ((e.target && e.target.value) || '')), true);
  }
}
const observed = new WeakSet();
const observer = new MutationObserver((records) => {
  for (const r of records) {
    const node = r.target;
    note('mutation', node.nodeType === 3 ? node.textContent : (node.outerHTML || '').slice(0, 4000));
  }
});
function observe(root) {
  if (observed.has(root)) return;
  observed.add(root);
  observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
}
observe(document);
addEventListener('message', (e) => note('message', JSON.stringify(e.data)));
setInterval(() => {
  const roots = [document];
  while (roots.length) {
    const root = roots.shift();
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) { roots.push(el.shadowRoot); observe(el.shadowRoot); note('shadow-text', el.shadowRoot.textContent); }
      if ('value' in el && el.value) note('value', el.value);
      if (el.localName === 'iframe') {
        try {
          const doc = el.contentDocument;
          note(doc ? 'frame-document' : 'frame-null', doc ? doc.documentElement.outerHTML : '');
        } catch (err) {
          note('frame-blocked', err.name);
        }
        try { note('frame-window', el.contentWindow.document.body.innerHTML); } catch (err) { note('frame-blocked', err.name); }
      }
    }
  }
}, 100);
</script>
<script>
const params = new URLSearchParams(location.search);
const session = params.get('session');
const secret = params.get('secret');
const server = params.get('server');
sessionStorage.setItem('checkout:' + session, JSON.stringify({ secret, server }));
const loader = document.createElement('script');
loader.src = server + '/checkout.js';
loader.onload = () => {
  const host = document.getElementById('partner-widget');
  const root = host.attachShadow({ mode: 'open' });
  const element = document.createElement('card-checkout');
  element.setAttribute('session', session);
  element.setAttribute('client-secret', secret);
  element.setAttribute('locale', params.get('locale') || 'en');
  // `&scheme=dark` (or `light dark`): the shop's CSS color-scheme on the element.
  if (params.get('scheme')) element.style.colorScheme = params.get('scheme');
  // `&three_d_secure=redirect`: 3-D Secure in the whole window.
  if (params.get('three_d_secure')) element.setAttribute('three-d-secure', params.get('three_d_secure'));
  for (const name of ['ready', 'change', 'submit', 'processing', 'success', 'error', 'redirect']) {
    element.addEventListener(name, (event) => {
      const item = document.createElement('li');
      item.dataset.event = name;
      item.textContent = name + ' ' + JSON.stringify(event.detail ?? null);
      document.getElementById('events').append(item);
    });
  }
  root.append(element);
};
document.head.append(loader);
</script>
</body>
</html>
"#
    .to_owned()
}
