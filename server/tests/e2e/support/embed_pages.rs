//! Pages of the "partner shop" on the second origin. They load the component from their own
//! copy of `dist/` and put `<card-checkout>` inside a shadow root of their own, as a merchant
//! with a web-component based site would. Session id, client secret and server address come
//! in the query string (the partner's backend would render them into the page).
//!
//! Every event the element sends is listed in `#events` (`<li data-event=NAME>` with the
//! JSON of its detail), so a scenario can check what crossed the boundary; script errors and
//! console errors are listed in `#page-errors`.

use super::site::Bundle;

/// `/embed.html?session=..&secret=..&server=..[&locale=..]`: the checkout form.
pub fn checkout_page(bundle: &Bundle) -> String {
    page(
        bundle,
        "Partner shop: checkout",
        r#"
const session = params.get('session');
const secret = params.get('secret');
const server = params.get('server');
sessionStorage.setItem('checkout:' + session, JSON.stringify({ secret, server }));
mountInShadow({ session, 'client-secret': secret, server, locale: params.get('locale') || 'en' });
"#,
    )
}

/// `/done.html?checkout=..&session_id=..&payment_id=..`: where the checkout server sends the
/// customer back (`SUCCESS_URL` / `DECLINE_URL`); shows the result with the component.
pub fn landing_page(bundle: &Bundle) -> String {
    page(
        bundle,
        "Partner shop: your order",
        r#"
const session = params.get('session_id');
document.getElementById('landing').textContent = params.get('checkout') || '';
const saved = JSON.parse(sessionStorage.getItem('checkout:' + session) || 'null');
if (saved) {
  mountInShadow({ mode: 'result', session, 'client-secret': saved.secret, server: saved.server, locale: 'en' });
}
"#,
    )
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
  for (const name of ['ready', 'change', 'submit', 'success', 'error', 'redirect']) {{
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
