// @ts-check
/// <reference types="card-checkout" />
// The plain page: asks the shop's backend for a checkout session of the teapot (or, back from
// 3-D Secure, for the order it returned to), then mounts the card form with the package's
// classic script (window.CardCheckout) and lists the form's events.

const params = new URLSearchParams(location.search);
const pay = /** @type {HTMLElement} */ (document.getElementById("pay"));
const outcome = /** @type {HTMLElement} */ (document.getElementById("outcome"));
const events = /** @type {HTMLElement} */ (document.getElementById("events"));

/**
 * The shop backend's answer: the session the page mounts the form with.
 * @typedef {{ id: string, client_secret: string, server: string }} Order
 */

/** @returns {Promise<Order>} */
async function order() {
  const returned = params.get("session_id");
  const response = returned
    ? await fetch("/demo/orders/" + encodeURIComponent(returned))
    : await fetch("/demo/sessions", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ item: "teapot", guest: true }),
      });
  if (!response.ok) throw new Error("the shop's backend answered " + response.status);
  return response.json();
}

/** @param {string} name @param {unknown} detail */
function log(name, detail) {
  const item = document.createElement("li");
  item.dataset.event = name;
  item.textContent = name + " " + JSON.stringify(detail);
  events.append(item);
}

async function start() {
  const api = window.CardCheckout;
  if (!api) throw new Error("node_modules/card-checkout/checkout.js did not load");
  const found = await order();
  api.configure({ server: found.server });
  const checkout = api.mount(pay, {
    session: found.id,
    clientSecret: found.client_secret,
    mode: params.has("session_id") ? "result" : "checkout",
  });
  checkout.addEventListener("ready", (event) => log("ready", event.detail));
  checkout.addEventListener("change", (event) => log("change", event.detail));
  checkout.addEventListener("success", (event) => {
    log("success", event.detail);
    outcome.textContent = "Thank you: your teapot is on its way.";
  });
  checkout.addEventListener("error", (event) => {
    log("error", event.detail);
    outcome.textContent = event.detail.message;
  });
}

start().catch((error) => {
  outcome.textContent = String(error.message || error);
});
