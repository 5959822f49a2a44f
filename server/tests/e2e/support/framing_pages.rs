//! Pages that test who may frame the card form and who may talk to it. They are served by the
//! partner's site (an allowed origin) and by an outsider's site (an origin not in
//! `ALLOWED_ORIGINS`):
//! - `/framed.html` embeds the form through `/checkout.js` and relays every event of the
//!   element to its parent window, so a page framing it can list them;
//! - `/outer.html` frames another page and lists what it relays in `#relayed`;
//! - `/direct.html` posts the loader's fields itself into a light-DOM frame of its own
//!   (`card-checkout-direct`), to checkout-server or to a proxy in front of it, optionally
//!   beside `/meddler.html`, an outsider's ad frame that keeps posting `locale` messages to
//!   every frame of its parent;
//! - `/poster.html` posts the loader's fields by hand without a referrer, either as the whole
//!   window (`target=_top`: the attack the frame document refuses, served by an outsider) or
//!   into a frame of its own (served by an allowed origin: the control).
//!
//! Only `/poster.html` with `target=_top` opens the form's document as the whole page, to be
//! refused: checkout-server serves it only into a frame (`Sec-Fetch-Dest`), and `www/frame.js`
//! shows no form outside one.

/// `postFrame(server, target, params[, origin])`: POSTs the loader's fields (`origin`, by
/// default this page's, the `session` and `secret` of `params`, English, no theme) to
/// `{server}/frame/` into the window or frame named `target`, as `/checkout.js` does into its
/// frame.
const POST_FRAME: &str = r#"
function postFrame(server, target, params, origin = location.origin) {
  const form = document.createElement('form');
  form.method = 'post';
  form.action = server + '/frame/';
  form.target = target;
  const fields = { origin, session: params.get('session'),
    client_secret: params.get('secret'), locale: 'en', theme: '{}' };
  for (const [name, value] of Object.entries(fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
"#;

/// `/framed.html?session=..&secret=..&server=..[&locale=..]`: the form through `/checkout.js`
/// in light DOM (English unless `locale` says otherwise); events go to `#events` and, when
/// framed, to the parent (`{relay: name, detail, afterLoad}`), each with how many ms after the
/// load event of the element's frame it came (`data-after-load`; -1 before that load).
pub fn framed_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner shop: framed checkout</title></head>
<body>
<h1>Partner shop: framed checkout</h1>
<div id="checkout"></div>
<ol id="events"></ol>
<script>
const params = new URLSearchParams(location.search);
const server = params.get('server');
const loader = document.createElement('script');
loader.src = server + '/checkout.js';
loader.onload = () => {
  const element = document.createElement('card-checkout');
  element.setAttribute('session', params.get('session'));
  element.setAttribute('client-secret', params.get('secret'));
  element.setAttribute('locale', params.get('locale') || 'en');
  let frameLoadedAt = null;
  for (const name of ['ready', 'change', 'submit', 'success', 'error']) {
    element.addEventListener(name, (event) => {
      const afterLoad = frameLoadedAt === null ? -1 : Math.round(performance.now() - frameLoadedAt);
      const item = document.createElement('li');
      item.dataset.event = name;
      item.dataset.afterLoad = String(afterLoad);
      item.textContent = name + ' ' + JSON.stringify(event.detail ?? null);
      document.getElementById('events').append(item);
      if (parent !== window) {
        parent.postMessage({ relay: name, detail: event.detail ?? null, afterLoad }, '*');
      }
    });
  }
  document.getElementById('checkout').append(element);
  // The loader renders in a microtask queued by the append, before this one: its frame is
  // there, and the answer to its POST (a task) has not loaded yet.
  queueMicrotask(() => {
    element.shadowRoot.querySelector('iframe').addEventListener('load', () => {
      frameLoadedAt = performance.now();
    });
  });
};
document.head.append(loader);
</script>
</body>
</html>
"#
    .to_owned()
}

/// `/outer.html?src=URL`: frames `src` and lists each `{relay}` message it sends as
/// `<li data-event=NAME data-after-load=MS>` in `#relayed`.
pub fn outer_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A page framing the shop</title></head>
<body>
<h1>A page framing the shop</h1>
<ol id="relayed"></ol>
<script>
const frame = document.createElement('iframe');
frame.src = new URLSearchParams(location.search).get('src');
frame.title = 'Shop';
frame.style.cssText = 'width:100%;height:900px';
addEventListener('message', (event) => {
  if (event.source !== frame.contentWindow || typeof event.data.relay !== 'string') return;
  const item = document.createElement('li');
  item.dataset.event = event.data.relay;
  item.dataset.afterLoad = String(event.data.afterLoad);
  item.textContent = event.data.relay + ' ' + JSON.stringify(event.data.detail);
  document.getElementById('relayed').append(item);
});
document.body.append(frame);
</script>
</body>
</html>
"#
    .to_owned()
}

/// `/direct.html?session=..&secret=..&server=..[&meddler=URL]`: the form's document in a
/// light-DOM `<iframe name=card-checkout-direct>` the page POSTs into itself (as
/// `/checkout.js` does inside its shadow root, where no other frame could find it), from
/// `server` (checkout-server, or a proxy in front of it), with `meddler` framed beside it when
/// given. The page lists the form's events in `#events` and shows in `#meddled` how many
/// messages the meddler says it has sent to a frame other than itself.
pub fn direct_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Partner shop: the form in a frame of its own</title></head>
<body>
<h1>Partner shop: the form in a frame of its own</h1>
<iframe name="card-checkout-direct" title="Card payment" style="width:100%;height:700px;border:0"></iframe>
<ol id="events"></ol>
<p id="meddled">0</p>
<script>
const params = new URLSearchParams(location.search);
const server = params.get('server');
/*POST_FRAME*/
postFrame(server, 'card-checkout-direct', params);
const ad = document.createElement('iframe');
if (params.get('meddler')) {
  ad.src = params.get('meddler');
  ad.title = 'Advertisement';
  document.body.append(ad);
}
addEventListener('message', (event) => {
  const data = event.data || {};
  if (event.source === ad.contentWindow && typeof data.meddled === 'number') {
    document.getElementById('meddled').textContent = String(data.meddled);
  } else if (event.origin === new URL(server).origin && data.type === 'event') {
    const item = document.createElement('li');
    item.dataset.event = data.name;
    document.getElementById('events').append(item);
  }
});
</script>
</body>
</html>
"#
    .replace("/*POST_FRAME*/", POST_FRAME)
}

/// `/meddler.html`: every 50 ms posts `{cc: "card-checkout", type: "locale", locale: "de"}`
/// to every other frame of its parent (the card form's among them) and tells the parent how
/// many it has sent (`{meddled: n}`).
pub fn meddler_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Advertisement</title></head>
<body>
<p>Advertisement</p>
<script>
let sent = 0;
setInterval(() => {
  for (let i = 0; i < parent.length; i++) {
    if (parent.frames[i] !== window) {
      parent.frames[i].postMessage({ cc: 'card-checkout', type: 'locale', locale: 'de' }, '*');
      sent += 1;
    }
  }
  parent.postMessage({ meddled: sent }, '*');
}, 50);
</script>
</body>
</html>
"#
    .to_owned()
}

/// `/poster.html?session=..&secret=..&server=..&origin=..&target=..`: a page without a
/// referrer (`<meta name="referrer" content="no-referrer">`, so its posts say `Origin: null`)
/// that POSTs the loader's fields, naming `origin` as the embedding page's origin, to
/// `{server}/frame/` as soon as it loads: with `target=_top` as the whole window (a hostile
/// page showing a shop's card form as a page of its own), with `target=frame` into its own
/// `<iframe name=card-checkout-direct>`.
pub fn poster_page() -> String {
    r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<title>Pay for your prize</title>
</head>
<body>
<h1>Pay for your prize</h1>
<script>
const params = new URLSearchParams(location.search);
/*POST_FRAME*/
let target = params.get('target');
if (target === 'frame') {
  target = 'card-checkout-direct';
  const frame = document.createElement('iframe');
  frame.name = target;
  frame.title = 'Card payment';
  frame.style.cssText = 'width:100%;height:700px;border:0';
  document.body.append(frame);
}
postFrame(params.get('server'), target, params, params.get('origin'));
</script>
</body>
</html>
"#
    .replace("/*POST_FRAME*/", POST_FRAME)
}
