// The shop page's script. It asks this shop's backend for the order's checkout session (a new
// order, or the shopper's order when 3-D Secure in the whole window sends them back here) and
// mounts the card form with the session id and client secret. 3-D Secure happens in a dialog
// on this page, which then hears `success`. Whether the order is paid is the backend's word,
// which it has from checkout-server: the form's `success` (or `checkout=paid` in this page's
// address) is only the hint to ask it.

const params = new URLSearchParams(location.search);
const back = params.has("session_id");
const status = document.getElementById("order-status");
const events = document.getElementById("events");

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body ? { "Content-Type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error("the shop's backend answered " + response.status);
  return response.json();
}

function show(order) {
  const words = {
    awaiting_payment: "awaiting payment",
    paid: "paid, thank you: your teapot is on its way",
    refunded: "refunded",
  };
  status.textContent = `Order ${order.id}: ${words[order.status] || order.status}`;
  status.dataset.status = order.status;
}

function log(name, detail) {
  const item = document.createElement("li");
  item.textContent = name + " " + JSON.stringify(detail);
  events.append(item);
}

async function start() {
  const found = back ? await call("GET", "/api/order") : await call("POST", "/api/orders", { item: "teapot" });
  show(found.order);
  const checkout = window.CardCheckout.mount(document.getElementById("pay"), {
    session: found.session_id,
    clientSecret: found.client_secret,
    mode: back ? "result" : "checkout",
  });
  for (const name of ["ready", "change", "submit", "success", "error", "redirect"]) {
    checkout.addEventListener(name, (event) => log(name, event.detail));
  }
  checkout.addEventListener("success", () => confirm(found.order).catch(failed));
  if (back && params.get("checkout") !== "declined") await confirm(found.order);
}

// A payment that went through may reach the backend a moment later: ask it again a while.
async function confirm(order) {
  for (let i = 0; order.status === "awaiting_payment" && i < 30; i++) {
    order = (await call("GET", "/api/order")).order;
    show(order);
    if (order.status !== "awaiting_payment") break;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

function failed(error) {
  status.textContent = String(error.message || error);
}

start().catch(failed);
