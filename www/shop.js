// The demo shop page: what a merchant's page around the component looks like. Everything the
// page needs comes from the query string, or from the server's sandbox-only demo endpoints:
//   GET  {server}/demo/catalogue                -> {merchant_name, items, plans}
//   POST {server}/demo/sessions        {item}   -> {id, client_secret}  (the "shop backend")
//   POST {server}/demo/customer-token  {}       -> {customer_token}
// Query parameters: session, client_secret, server, locale, mode (checkout|result|
// subscriptions), customer_token, page=subscriptions.

const params = new URLSearchParams(location.search);
const server = params.get("server") || "";
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
  if (server) next.set("server", server);
  if (localeSelect.value) next.set("locale", localeSelect.value);
  return "?" + next.toString();
}

async function post(path, body) {
  const response = await fetch(server + path, {
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
  return new Intl.NumberFormat(localeSelect.value || navigator.language, {
    style: "currency",
    currency,
  }).format(amount);
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
      location.search = keep({ session: session.id, client_secret: session.client_secret });
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
    const response = await fetch(server + "/demo/catalogue");
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
  component({ mode: "subscriptions", "customer-token": token, server, locale: params.get("locale") });
}

localeSelect.value = params.get("locale") || "";
const session = params.get("session");
if (params.get("page") === "subscriptions" || params.get("mode") === "subscriptions") {
  subscriptions();
} else if (session) {
  component({
    session,
    "client-secret": params.get("client_secret"),
    server,
    locale: params.get("locale"),
    mode: params.get("mode") || "checkout",
  });
} else {
  catalogue();
}
