// The frame side of the isolated card form (the shop side is js/loader.js, /checkout.js).
// checkout-server wrote the options into #checkout-config: the embedding page's origin
// (checked against ALLOWED_ORIGINS, and the only origin this document may be framed by), mode,
// locale, the theme's custom properties (already checked by the server) and the frame's title,
// and the form as HTML (#cc-skeleton), or else the loading outline (#cc-skeleton too).
// - The shell (GET /frame/shell, today's loader; the browser keeps it): `build` is set and
//   the session is not there. The document's first script (www/index.html) says `hello`
//   to the page, which answers with session, client secret and customer token in a message;
//   in checkout mode it asks POST /frame/session for the session's view and its form as HTML
//   (window.ccSession), which then replaces the shell's form, everything typed carried over.
// - The document of an earlier loader's POST /frame/: the session, client secret and customer
//   token are in #checkout-config, the session's view in #checkout-session.
// Either way the component takes the view instead of fetching it.
//
// Messages to the page go to that origin only; messages from the page are taken only from the
// parent window at that origin. Nothing sent carries card data: events carry what the
// component's DOM events carry (brand, completeness, messages), plus the frame's height and
// the 3-D Secure address, which the page navigates to or shows in a dialog.
// Opened as a page of its own (a hostile page's form aimed at `_top`), not in the shop's frame:
// no form, a short word instead. checkout-server already refuses such a request where the
// browser says what it is for (Sec-Fetch-Dest); this covers the browsers that do not.
if (window.parent === window) {
  document.getElementById("checkout").textContent =
    "This payment form opens only inside the shop's checkout page. Go back to the shop to pay.";
  throw new Error("card-checkout: the payment form was opened outside its frame");
}
const config = JSON.parse(document.getElementById("checkout-config").textContent);
const pageOrigin = config.origin;

// The first Intl formatter of a locale loads its data (about 90 ms on a slow phone, more for
// region names and collation). Done once the HTML form has painted, it overlaps the wasm
// download instead of delaying either the first paint or the component's first render.
requestAnimationFrame(() => setTimeout(warmIntl, 0));
function warmIntl() {
  try {
    const locale = config.locale || navigator.language;
    const carried = document.getElementById("checkout-session");
    const currency = carried ? JSON.parse(carried.textContent).currency : "EUR";
    new Intl.NumberFormat(locale, { style: "currency", currency }).format(0);
    new Intl.DisplayNames([locale], { type: "region" }).of("DE");
    new Intl.Collator(locale).compare("a", "b");
  } catch (_) {
    // An unknown locale or currency: the component falls back on its own.
  }
}

function tell(message) {
  window.parent.postMessage({ cc: "card-checkout", ...message }, pageOrigin);
}

const element = document.createElement("card-checkout");
// The component's stylesheet is inlined in this document (scripts/wasm-opt.sh): the element
// copies it into its shadow root, so the form never shows unstyled and no request waits.
const inlined = document.getElementById("checkout-css");
const linked = document.querySelector('link[rel="stylesheet"]');
if (inlined) element.setAttribute("stylesheet", "#checkout-css");
else if (linked) element.setAttribute("stylesheet", linked.href);
for (const [name, value] of Object.entries(config.theme || {})) {
  element.style.setProperty(name, value);
}

for (const name of ["ready", "change", "submit", "processing", "success", "error"]) {
  element.addEventListener(name, (event) => tell({ type: "event", name, detail: event.detail }));
}
// 3-D Secure. The frame never navigates the top window itself: a frame on another origin may
// not without a fresh user gesture, and the shop may want to take the redirect over.
// - In a dialog on the shop's page (the loader says `three_d_secure: "dialog"` with the
//   session, and the page's viewport for the challenge window): the bank's address, the
//   challenge window sent and the dialog's texts in the shopper's language (config.three_ds,
//   written by checkout-server) go to the loader, which shows the bank's page; its word that
//   the dialog ended (`challenge_done` / `challenge_closed`) comes back as the window event
//   the component listens to (src/ui/three_ds.rs), which then asks the server how the
//   payment went.
// - Otherwise (an earlier loader, or `three-d-secure="redirect"`): the page navigates.
let inDialog = false;
element.addEventListener("redirect", (event) => {
  event.preventDefault();
  const { url, challenge_window } = event.detail;
  if (inDialog) tell({ ...config.three_ds, type: "challenge", url, challenge_window });
  else tell({ type: "redirect", url });
});

function pageViewport(viewport) {
  if (viewport && viewport.width > 0 && viewport.height > 0) {
    window.ccPageViewport = { width: Number(viewport.width), height: Number(viewport.height) };
  }
}

const DIALOG_ENDS = { challenge_done: "returned", challenge_closed: "closed" };
window.addEventListener("message", (event) => {
  if (event.source !== window.parent || event.origin !== pageOrigin) return;
  const data = event.data;
  if (!data || data.cc !== "card-checkout") return;
  if (data.type === "locale") {
    element.setAttribute("locale", typeof data.locale === "string" ? data.locale : "");
  } else if (data.type === "viewport") {
    pageViewport(data);
  } else if (inDialog && DIALOG_ENDS.hasOwnProperty(data.type)) {
    window.dispatchEvent(new CustomEvent("card-checkout:three-ds", { detail: DIALOG_ENDS[data.type] }));
  }
});

// The page sizes the frame to its content, so it never scrolls inside.
let lastHeight = 0;
new ResizeObserver(() => {
  const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
  if (height !== lastHeight) {
    lastHeight = height;
    tell({ type: "resize", height });
  }
}).observe(document.documentElement);

// The HTML form checkout-server wrote (a one-off payment): the shopper types into it until the
// component is ready, which then takes over everything typed and replaces it. Otherwise the
// loading outline it wrote (a plan, the subscription list), replaced the same way.
let skeleton = document.getElementById("cc-skeleton");
if (skeleton) {
  prepare(skeleton);
  element.hidden = true;
  let taken = false;
  const takeOnce = () => {
    if (taken) return;
    taken = true;
    takeOver(skeleton);
  };
  element.addEventListener("ready", takeOnce, { once: true });
  // A component that cannot show the form says why in its own place.
  element.addEventListener("error", takeOnce);
}

// The amount shown (once there is one), and the card fields hidden while a saved card is chosen
// and shown for a new card, as in the component.
function prepare(form) {
  const amount = form.querySelector("#cc-amount");
  if (amount && amount.dataset.currency) showAmount(amount);
  const cardFields = form.querySelector(".cc-card > div");
  form.addEventListener("change", (event) => {
    if (cardFields && event.target.name === "cc-saved-card") {
      cardFields.hidden = event.target.id !== "cc-saved-new";
    }
  });
}

// The component, with the session it is for.
function start(session) {
  const attributes = {
    session: session.session,
    "client-secret": session.client_secret,
    "customer-token": session.customer_token,
    mode: config.mode,
    locale: config.locale,
  };
  for (const [name, value] of Object.entries(attributes)) {
    if (value) element.setAttribute(name, value);
  }
  document.getElementById("checkout").append(element);
}

// A shell's session, from the page's message: its part of the form, then the component. The
// document's first script (www/index.html) has asked for it as soon as it could.
async function receive(asked) {
  const { session, part } = await asked;
  inDialog = session.three_d_secure === "dialog";
  pageViewport(session.viewport);
  if (part) {
    if (typeof part.build === "string") tell({ type: "build", build: part.build });
    if (part.view) carry(part.view);
    if (typeof part.form === "string") replaceForm(part.form);
  }
  start(session);
}

// The session's view, where the component takes it from instead of fetching it.
function carry(view) {
  const block = document.createElement("script");
  block.type = "application/json";
  block.id = "checkout-session";
  block.textContent = JSON.stringify(view);
  document.head.append(block);
}

// The session's form in place of the shell's, with what was typed, the focus and the caret.
// A card the shopper began before the saved cards were known stays chosen.
function replaceForm(html) {
  const template = document.createElement("template");
  template.innerHTML = html;
  const fresh = template.content.firstElementChild;
  if (!fresh || !skeleton) return;
  const focused = skeleton.contains(document.activeElement) ? document.activeElement : null;
  let typedCard = false;
  for (const old of skeleton.querySelectorAll("input, select")) {
    const twin = fresh.querySelector("#" + CSS.escape(old.id));
    if (!twin || old.type === "radio") continue;
    if (old.type === "checkbox") {
      twin.checked = old.checked;
    } else if (old.value) {
      twin.value = old.value;
      typedCard = typedCard || !!old.closest(".cc-card");
    }
  }
  const newCard = fresh.querySelector("#cc-saved-new");
  if (typedCard && newCard) {
    newCard.checked = true;
    fresh.querySelector(".cc-card > div").hidden = false;
  }
  const caret = focused && focused.localName === "input" ?
    [focused.selectionStart, focused.selectionEnd] : null;
  skeleton.replaceWith(fresh);
  skeleton = fresh;
  prepare(fresh);
  const twin = focused && document.getElementById(focused.id);
  if (twin) {
    twin.focus();
    try {
      if (caret && caret[0] !== null) twin.setSelectionRange(caret[0], caret[1]);
    } catch (_) {
      // An input type without a caret.
    }
  }
}

// The amount as the component shows it: the browser's Intl, the exact decimal of the minor units.
function showAmount(line) {
  const { amount, exponent, currency } = line.dataset;
  const digits = Number(exponent);
  const minor = amount.padStart(digits + 1, "0");
  const decimal = digits ? minor.slice(0, -digits) + "." + minor.slice(-digits) : minor;
  try {
    line.textContent = new Intl.NumberFormat(skeleton.lang, {
      style: "currency", currency, minimumFractionDigits: digits, maximumFractionDigits: digits,
    }).format(decimal);
  } catch (_) {
    line.textContent = decimal + " " + currency;
  }
}

// Moves what was typed or chosen into the component (focus and caret too), then shows the
// component in place of the HTML form. The saved-card choice goes first: the component renders
// the card fields for a new card once it has seen the click, in a later task. Everything else
// moves in one task, while the HTML form is still what the shopper sees and types into: no
// keystroke can fall in between.
async function takeOver(form) {
  const root = element.shadowRoot;
  const chosen = form.querySelector('input[name="cc-saved-card"]:checked');
  const fresh = chosen && root && root.getElementById(chosen.id);
  if (fresh && !fresh.checked) {
    fresh.click();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  const focused = form.contains(document.activeElement) ? document.activeElement : null;
  element.hidden = false;
  for (const old of form.querySelectorAll("input, select")) {
    const fresh = root && root.getElementById(old.id);
    if (!fresh) continue;
    if (old === focused) fresh.focus();
    if (old.type === "radio") continue;
    if (old.type === "checkbox") {
      if (old.checked !== fresh.checked) fresh.click();
      continue;
    }
    if (!old.value) continue;
    fresh.value = old.value;
    if (old.localName === "select") {
      fresh.dispatchEvent(new Event("change", { bubbles: true }));
      continue;
    }
    const caret = old === focused ? old.selectionStart : old.value.length;
    fresh.setSelectionRange(caret, caret);
    fresh.dispatchEvent(new InputEvent("input", { bubbles: true, inputType: "insertText" }));
  }
  form.remove();
}

// A shell's session comes from the page (window.ccSession); an earlier loader's POST wrote it in.
if (typeof config.build === "string" && window.ccSession) receive(window.ccSession);
else start(config);
tell({ type: "loaded", title: config.title });
