// The demo shop page: what a merchant's page around the component looks like. <card-checkout>
// comes from checkout-server's /checkout.js (index.html); the rest from the shop's backend:
//   GET  /demo/catalogue                -> {merchant_name, items, plans}
//   POST /demo/sessions        {item}   -> {id, client_secret}  (the "shop backend")
//   GET  /demo/orders/{session}         -> {id, status, client_secret}  (the shopper's own order;
//                                          status from checkout-server's events, not this URL)
//   POST /demo/customer-token  {}       -> {customer_token}
// Query parameters: session, locale, mode (checkout|result|subscriptions), page=subscriptions,
// three_d_secure (dialog, the default: the bank's page in a dialog on this page; or redirect).
// The client secret and customer token never go into an address: the page asks its backend.

const params = new URLSearchParams(location.search);
const main = document.getElementById("shop");
const log = document.getElementById("shop-events");
const localeSelect = document.getElementById("shop-locale");

function element(tag, text) {
  const el = document.createElement(tag);
  if (text) el.textContent = text;
  return el;
}

function keep(query) {
  const next = new URLSearchParams(query);
  if (localeSelect.value) next.set("locale", localeSelect.value);
  if (params.get("three_d_secure")) next.set("three_d_secure", params.get("three_d_secure"));
  return "?" + next.toString();
}

async function post(path, body) {
  const response = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(path + " answered " + response.status);
  return response.json();
}

function showError(error) {
  const p = element("p", String(error.message || error));
  p.className = "shop-error";
  main.append(p);
}

function component(attributes) {
  const checkout = document.createElement("card-checkout");
  for (const [name, value] of Object.entries(attributes)) {
    if (value) checkout.setAttribute(name, value);
  }
  for (const name of ["ready", "change", "submit", "success", "error", "redirect"]) {
    checkout.addEventListener(name, (event) => {
      const item = element("li", name + " " + JSON.stringify(event.detail));
      log.prepend(item);
    });
  }
  localeSelect.addEventListener("change", () => checkout.setAttribute("locale", localeSelect.value));
  const panel = element("div");
  panel.className = "shop-panel";
  panel.append(checkout);
  main.append(panel);
}

function price(minor, currency) {
  const digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions()
    .maximumFractionDigits;
  const text = String(minor).padStart(digits + 1, "0");
  const amount = digits ? text.slice(0, -digits) + "." + text.slice(-digits) : text;
  const format = (locale) => new Intl.NumberFormat(locale, { style: "currency", currency });
  try {
    return format(localeSelect.value || navigator.language).format(amount);
  } catch (_) {
    // A language tag Intl refuses (WebKit under a "C" locale reports "c"): English.
    return format("en").format(amount);
  }
}

function offer(list, id, title, lines, label) {
  const li = element("li");
  li.append(element("h2", title));
  for (const line of lines) li.append(element("p", line));
  const buy = element("button", label);
  buy.id = "buy-" + id;
  buy.addEventListener("click", async () => {
    buy.disabled = true;
    try {
      const session = await post("/demo/sessions", { item: id });
      location.search = keep({ session: session.id });
    } catch (error) {
      buy.disabled = false;
      showError(error);
    }
  });
  li.append(buy);
  list.append(li);
}

// Prices and plans come from the server, which also prices the session: the page only names
// what was picked.
async function catalogue() {
  let shop;
  try {
    const response = await fetch("/demo/catalogue");
    if (!response.ok) throw new Error("/demo/catalogue answered " + response.status);
    shop = await response.json();
  } catch (error) {
    showError(error);
    return;
  }
  main.append(element("h1", shop.merchant_name || "Demo shop"));
  const list = element("ul");
  list.className = "shop-items";
  for (const item of shop.items || []) {
    const note = item.capture ? item.description : item.description + " (reserved, not charged)";
    offer(list, item.id, item.name, [note, price(item.amount, item.currency)], "Buy");
  }
  for (const plan of shop.plans || []) {
    const every = plan.cycle_interval > 1 ? plan.cycle_interval + " " + plan.cycle_unit : plan.cycle_unit.replace(/s$/, "");
    offer(list, plan.id, plan.name, [plan.description, price(plan.amount, plan.currency) + " / " + every], "Subscribe");
  }
  main.append(list);
}

// The checkout (or, back from 3-D Secure, the result) of one of the shopper's orders.
async function order(session) {
  let found;
  try {
    const response = await fetch("/demo/orders/" + encodeURIComponent(session));
    if (!response.ok) throw new Error("this order is not yours or no longer known");
    found = await response.json();
  } catch (error) {
    showError(error);
    return;
  }
  component({
    session,
    "client-secret": found.client_secret,
    locale: params.get("locale"),
    mode: params.get("mode") || "checkout",
    "three-d-secure": params.get("three_d_secure"),
  });
  if (params.get("mode") === "result") orderStatus(session, found.status);
}

// What the shop's backend knows of the order: paid once checkout-server's `session.completed`
// event reached it (the landing URL's `checkout=paid` proves nothing). Asked again for a while,
// since the event may arrive just after the shopper.
async function orderStatus(session, status) {
  const line = element("p", "");
  line.id = "order-status";
  line.setAttribute("role", "status");
  main.append(line);
  for (let tries = 0; ; tries += 1) {
    line.textContent = "Order " + session.slice(0, 8) + ": " + status + " (the shop's own record)";
    if (status !== "open" || tries >= 30) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const response = await fetch("/demo/orders/" + encodeURIComponent(session));
    if (!response.ok) return;
    status = (await response.json()).status;
  }
}

async function subscriptions() {
  let token = params.get("customer_token");
  if (!token) {
    try {
      token = (await post("/demo/customer-token", {})).customer_token;
    } catch (error) {
      showError(error);
      return;
    }
  }
  component({ mode: "subscriptions", "customer-token": token, locale: params.get("locale") });
}

localeSelect.value = params.get("locale") || "";
const session = params.get("session");
if (params.get("page") === "subscriptions" || params.get("mode") === "subscriptions") {
  subscriptions();
} else if (session) {
  order(session);
} else {
  catalogue();
}
