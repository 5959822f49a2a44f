// The hosted payment page's one script (GET /pay/{link}, server/src/api/hosted/): the card form
// inline on checkout-server's own origin, no frame. The server wrote the card form as HTML
// (#cc-skeleton, the card frame's: server/src/api/frame/skeleton.rs), the payer's fields
// (#hp-payer) and the 3-D Secure dialog (#hp-3ds), all in the payer's language.
// There is no session until the payer presses Pay, so a bot loading the page makes none:
// 1. Pay checks the payer's fields and posts them to /pay/{link}/session, which makes the
//    session and answers its id and client secret (or a 400 naming the field, shown here).
// 2. The component (<card-checkout>, defined by the bundle's wasm, which this script starts
//    once the form has painted) is made for that session, hidden; once it is ready, what
//    was typed moves into it (as www/frame.js does in the frame) and its Pay is pressed: the
//    one pay path, with its card-testing defence and rate limits.
// 3. 3-D Secure: the component's `redirect` is taken over, and the bank's page shown in the
//    page's dialog through /frame/challenge (as the loader does on a shop's page); the end of
//    the dialog goes back to the component as the window event it waits for.
// 4. `success`: on to the address the session's answer named (the receipt, in the page's
//    language, or the shop's, to which the payment's id is added).
// With an adjustable quantity, the total (#hp-total, hidden by the server) follows the payer's
// quantity (and chosen amount), and so does the pay button's label.
// Nothing here reads or keeps card data: the card fields move from one input to another.
const config = JSON.parse(document.getElementById("hosted-config").textContent);
const skeleton = document.getElementById("cc-skeleton");
const payer = document.getElementById("hp-payer");
const button = document.getElementById("cc-submit");
const alertLine = document.getElementById("cc-alert");
const dialog = document.getElementById("hp-3ds");
// The bank's frame, made from the dialog's template on the first challenge: an empty frame
// would cost the page a document of its own at load.
let bank = null;

// The billing country list, named and sorted by the browser (the bundle's js/intl.js), once
// the form has painted (below).
const country = document.getElementById("billing-country");

let paying = false;
let payLabel = config.pay;
button.addEventListener("click", pay);
skeleton.addEventListener("submit", (event) => {
  event.preventDefault();
  pay();
});
if (payer) {
  payer.addEventListener("submit", (event) => {
    event.preventDefault();
    pay();
  });
}

function busy(on) {
  button.disabled = on;
  button.setAttribute("aria-busy", String(on));
  button.textContent = on ? config.processing : payLabel;
}

function say(text) {
  alertLine.textContent = text;
}

async function pay() {
  if (paying || (payer && !payer.reportValidity())) return;
  paying = true;
  busy(true);
  say("");
  let answer = null;
  try {
    const response = await fetch(config.session_url, {
      method: "POST", credentials: "same-origin", cache: "no-store",
      headers: { accept: "application/json", "content-type": "application/json" },
      body: JSON.stringify(payerInput()),
    });
    answer = await response.json();
    if (!response.ok) {
      const error = (answer && answer.error) || {};
      refused(error.message || config.failed, error.field);
      return;
    }
  } catch (_) {
    refused(config.network, null);
    return;
  }
  if (payer) for (const input of payer.elements) input.readOnly = true;
  await customElements.whenDefined("card-checkout");
  start(answer);
}

// The billing fields of the card form (ids of src/form_fields.rs) as the session's address.
const ADDRESS = { "billing-country": "country", "billing-email": "email",
  "billing-phone": "phone_number", "billing-address": "address1", "billing-city": "city",
  "billing-state": "state", "billing-postal-code": "postal_code" };

// What Pay sends to make the session: the payer's fields (the amount in minor units, from
// the decimal the browser checked against the link's bounds), and the billing address.
function payerInput() {
  const input = {};
  for (const field of payer ? payer.elements : []) {
    const value = field.value.trim();
    if (!field.name || !value) continue;
    if (field.name === "amount") input.amount = minorUnits(value, Number(field.dataset.exponent));
    else if (field.name === "quantity") input.quantity = Number(value);
    else input[field.name] = value;
  }
  const address = {};
  for (const [id, key] of Object.entries(ADDRESS)) {
    const field = document.getElementById(id);
    if (field && field.value.trim()) address[key] = field.value.trim();
  }
  if (Object.keys(address).length) input.billing_address = address;
  return input;
}

// `12.5` with exponent 2 is 1250: digits only, never through floating point. Anything else
// goes as it is, for the server to refuse by name.
function minorUnits(text, exponent) {
  const match = /^(\d+)(?:\.(\d*))?$/.exec(text);
  if (!match || (match[2] || "").length > exponent) return text;
  const digits = match[1] + (match[2] || "").padEnd(exponent, "0");
  const minor = Number(digits);
  return Number.isSafeInteger(minor) ? minor : text;
}

// The total: unit (or the chosen amount) × quantity, in exact minor units, formatted as the
// card form formats amounts (js/intl.js); hidden, and the button naming no amount, while the
// fields give none the server would charge.
// The module is loaded once the form has painted (below).
const total = document.getElementById("hp-total");
let formatMoney = null;
if (total) payer.addEventListener("input", showTotal);

function keepTotal(intl) {
  formatMoney = intl.formatMoney;
  showTotal();
}

function showTotal() {
  const minor = totalMinor();
  const exponent = Number(total.dataset.exponent);
  total.hidden = minor === null || !formatMoney;
  payLabel = config.pay;
  if (!total.hidden) {
    const text = formatMoney(config.locale, total.dataset.currency, exponent,
      decimal(minor, exponent));
    total.querySelector("output").value = text;
    payLabel = config.pay_total.replace("{0}", text);
  }
  if (!paying) button.textContent = payLabel;
}

function totalMinor() {
  const quantity = payer.elements.namedItem("quantity");
  const amount = payer.elements.namedItem("amount");
  if (!quantity.value || !quantity.checkValidity()) return null;
  const unit = amount ? minorUnits(amount.value.trim(), Number(amount.dataset.exponent)) :
    Number(total.dataset.unit);
  if (!Number.isSafeInteger(unit) || (amount && !amount.checkValidity())) return null;
  return BigInt(unit) * BigInt(Number(quantity.value));
}

// `minor` (a BigInt) as an exact decimal with `exponent` fraction digits: 3750n, 2 is "37.50".
function decimal(minor, exponent) {
  const digits = minor.toString().padStart(exponent + 1, "0");
  return exponent ? digits.slice(0, -exponent) + "." + digits.slice(-exponent) : digits;
}

// The server refused the payer's fields (or could not be reached): the page is theirs again.
function refused(message, field) {
  paying = false;
  busy(false);
  say(message);
  const billing = field && Object.keys(ADDRESS).find((id) => field.endsWith(ADDRESS[id]));
  const input = (field && payer && payer.elements.namedItem(field)) ||
    (billing && document.getElementById(billing));
  if (input && input.focus) input.focus();
}

// The component for the session just made.
function start(session) {
  const element = document.createElement("card-checkout");
  element.setAttribute("stylesheet", componentCss);
  element.setAttribute("session", session.session_id);
  element.setAttribute("client-secret", session.client_secret);
  element.setAttribute("locale", config.locale);
  element.hidden = true;
  let taken = false;
  const take = () => {
    if (taken) return;
    taken = true;
    takeOver(element);
  };
  element.addEventListener("ready", take, { once: true });
  // A component that cannot show the form says why in its own place.
  element.addEventListener("error", take);
  element.addEventListener("redirect", (event) => {
    event.preventDefault();
    challenge(event.detail);
  });
  element.addEventListener("success", (event) => {
    if (!session.redirect_url) {
      const receipt = new URL(session.receipt_url);
      receipt.searchParams.set("lang", config.locale);
      return location.assign(receipt.href);
    }
    const shop = new URL(session.redirect_url);
    if (event.detail && event.detail.payment_id) {
      shop.searchParams.set("payment_id", event.detail.payment_id);
    }
    location.assign(shop.href);
  });
  skeleton.after(element);
}

// Moves what was typed or chosen into the component, shows it in place of the HTML form and
// presses its Pay. The country list fills in the task after `ready` (src/ui/countries.rs).
async function takeOver(element) {
  const root = element.shadowRoot;
  const chosen = country && country.value;
  for (let tries = 0; chosen && root && tries < 100; tries += 1) {
    const list = root.getElementById("billing-country");
    if (list && list.options.length > 1) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (const old of skeleton.querySelectorAll("input, select")) {
    const fresh = root && root.getElementById(old.id);
    if (!fresh || !old.value || old.type === "radio" || old.type === "checkbox") continue;
    fresh.value = old.value;
    const select = old.localName === "select";
    fresh.dispatchEvent(select ? new Event("change", { bubbles: true }) :
      new InputEvent("input", { bubbles: true, inputType: "insertText" }));
  }
  if (root) {
    await styled(root);
    // The component's header: the page's own says the same above.
    const noHeader = new CSSStyleSheet();
    noHeader.replaceSync(".cc-header{display:none}");
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, noHeader];
  }
  element.hidden = false;
  skeleton.remove();
  // The component has taken every input event before its Pay is pressed.
  await new Promise((resolve) => setTimeout(resolve, 0));
  const submit = root && root.getElementById("cc-submit");
  if (submit) submit.click();
}

// The component's stylesheet: the file, when the page's block holds only what its HTML form
// shows (server/src/api/hosted/used_styles.rs), else the block itself.
const componentCss = document.getElementById("checkout-css").dataset.href || "#checkout-css";

// Once the component's linked stylesheet has loaded (or failed), so it never shows unstyled.
function styled(root) {
  const link = root.querySelector('link[rel="stylesheet"]');
  if (!link || link.sheet) return Promise.resolve();
  return new Promise((resolve) => {
    link.addEventListener("load", resolve, { once: true });
    link.addEventListener("error", resolve, { once: true });
  });
}

// EMV 3-D Secure challenge windows (`05`: the whole viewport), as in js/loader.js.
const WINDOWS = { "01": [250, 400], "02": [390, 400], "03": [500, 600], "04": [600, 400] };
let revealTimer = 0;
let challenging = false;

// The bank's page in the dialog, shown once a page of the bank loaded and stayed a moment
// without the return's word (a frictionless return never shows it), or after 8 s whatever.
function challenge(detail) {
  if (!bank) {
    const slot = dialog.querySelector("template");
    bank = slot.content.querySelector("iframe");
    slot.replaceWith(bank);
  }
  const size = WINDOWS[detail.challenge_window];
  dialog.classList.toggle("cc-3ds-full", !size);
  bank.width = size ? size[0] : "";
  bank.height = size ? size[1] : "";
  dialog.querySelector("a").href = detail.url;
  bank.src = "/frame/challenge?" + new URLSearchParams({ origin: location.origin }) + "#" +
    new URLSearchParams({ url: detail.url, title: bank.title });
  challenging = true;
  revealTimer = setTimeout(reveal, 8000);
}

function reveal() {
  if (challenging && !dialog.open) dialog.showModal();
}

window.addEventListener("message", (event) => {
  const word = event.data;
  if (!bank || event.source !== bank.contentWindow || event.origin !== location.origin) return;
  if (!word || word.cc !== "card-checkout") return;
  if (word.type === "three_ds_returned") end("returned");
  else if (word.type === "bank_loaded") {
    clearTimeout(revealTimer);
    revealTimer = setTimeout(reveal, 400);
  }
});

const closed = (event) => {
  event.preventDefault();
  end("closed");
};
dialog.addEventListener("cancel", closed);
dialog.querySelector("button").addEventListener("click", closed);

// The dialog ended: the component asks the server how the payment went (src/ui/three_ds.rs).
function end(how) {
  if (!challenging) return;
  challenging = false;
  clearTimeout(revealTimer);
  if (dialog.open) dialog.close();
  bank.src = "about:blank";
  window.dispatchEvent(new CustomEvent("card-checkout:three-ds", { detail: how }));
}

busy(false);

// Once the HTML form has painted (their work at 4x CPU would otherwise hold the first paint
// back): the component's preloads (#hp-preloads) fetched, the country list filled, the
// total kept, the component's wasm started, and its stylesheet's file fetched.
requestAnimationFrame(() => setTimeout(() => {
  const preloads = document.getElementById("hp-preloads");
  if (preloads) document.head.append(preloads.content);
  const intl = document.querySelector('link[rel="modulepreload"][href$="/js/intl.js"]');
  const glue = document.querySelector('link[rel="modulepreload"][href^="/frame/checkout-"]');
  const wasm = document.querySelector('link[rel="preload"][href$=".wasm"]');
  if (intl && (country || total)) {
    import(intl.href).then((module) => {
      if (country) module.fillCountries(country, config.locale, country.dataset.codes, country.value);
      if (total) keepTotal(module);
    });
  }
  import(glue.href).then((bindings) => bindings.default({ module_or_path: wasm.href }));
  // Into the cache for the component, which needs it only once Pay is pressed.
  if (!componentCss.startsWith("#")) fetch(componentCss).then((r) => r.text()).catch(() => {});
}, 0));
