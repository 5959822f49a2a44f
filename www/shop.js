// The demo shop page: what a merchant's page around the component looks like. Everything the
// page needs comes from the query string, or from the server's sandbox-only demo endpoints:
//   POST {server}/demo/sessions        {item}  -> {id, client_secret}  (the "shop backend")
//   POST {server}/demo/customer-token  {}      -> {customer_token}
// Query parameters: session, client_secret, server, locale, mode (checkout|result|
// subscriptions), customer_token, page=subscriptions.

const params = new URLSearchParams(location.search);
const server = params.get("server") || "";
const main = document.getElementById("shop");
const log = document.getElementById("shop-events");
const localeSelect = document.getElementById("shop-locale");

// Prices are decided by the server; the shop only names what was picked.
const ITEMS = [
  { id: "tshirt", name: "T-shirt", note: "EUR, one-off payment" },
  { id: "teapot", name: "Teapot", note: "JPY (no minor unit), one-off payment" },
  { id: "coffee-club", name: "Coffee club", note: "Subscription: monthly, with trial" },
];

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

function catalogue() {
  main.append(element("h1", "Pick something"));
  const list = element("ul");
  list.className = "shop-items";
  for (const item of ITEMS) {
    const li = element("li");
    li.append(element("h2", item.name), element("p", item.note));
    const buy = element("button", item.id === "coffee-club" ? "Subscribe" : "Buy");
    buy.id = "buy-" + item.id;
    buy.addEventListener("click", async () => {
      buy.disabled = true;
      try {
        const session = await post("/demo/sessions", { item: item.id });
        location.search = keep({ session: session.id, client_secret: session.client_secret });
      } catch (error) {
        buy.disabled = false;
        showError(error);
      }
    });
    li.append(buy);
    list.append(li);
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
