// A shop's backend in Node (node:http, no framework) taking card payments through
// checkout-server:
//
//   GET  /                           the shop page (static/), embedding the card form
//   POST /api/orders                 a new order: creates its checkout session with the merchant
//                                    API and hands the page the session id and client secret
//   GET  /api/order                  the shopper's order (cookie), confirmed with checkout-server
//                                    (GET /v1/sessions/{id}), never from the page's address
//   POST /checkout/events            checkout-server's signed events (Standard Webhooks)
//   GET  /admin/orders               the back office: every order (Bearer ADMIN_TOKEN)
//   POST /admin/orders/{id}/refund   refund an order's payment (Bearer ADMIN_TOKEN)
//   GET  /admin/memberships          every membership, moved on by subscription events
//                                    (Bearer ADMIN_TOKEN)
//
// Configuration (environment): CHECKOUT_SERVER, MERCHANT_SECRET_KEY, CHECKOUT_WEBHOOK_SECRET,
// LISTEN (default 127.0.0.1:8000), ADMIN_TOKEN (the back office is closed without it).

import { timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { Webhook, WebhookVerificationError } from "standardwebhooks";

import { CheckoutApi, CheckoutError } from "./checkout-api.mjs";
import { Memberships, SUBSCRIPTION_EVENTS } from "./memberships.mjs";
import { Orders } from "./orders.mjs";

// What the shop sells: the backend decides every price; the page only names the item.
const CATALOGUE = { teapot: { name: "Teapot", amount: 2500, currency: "EUR" } };
const STATIC = new URL("./static/", import.meta.url);
const FILES = {
  "/shop.js": ["shop.js", "text/javascript; charset=utf-8"],
  "/shop.css": ["shop.css", "text/css; charset=utf-8"],
};
const MAX_BODY = 1 << 20;

function required(name) {
  const value = (process.env[name] || "").trim();
  if (!value) {
    console.error(`backend-node: set ${name} (see README.md)`);
    process.exit(1);
  }
  return value;
}

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);

const api = new CheckoutApi(process.env.CHECKOUT_SERVER || "http://127.0.0.1:8080", required("MERCHANT_SECRET_KEY"));
// Throws at start on a malformed secret rather than on the first event.
const webhook = new Webhook(required("CHECKOUT_WEBHOOK_SECRET"));
const adminToken = process.env.ADMIN_TOKEN || "";
const orders = new Orders();
const memberships = new Memberships();
const page = readFileSync(new URL("index.html", STATIC), "utf8").replace(
  "{{CHECKOUT_SERVER}}",
  escapeHtml(api.baseUrl),
);

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

async function handle(request, response) {
  const path = new URL(request.url, "http://shop").pathname;
  const parts = path.split("/").filter(Boolean);
  const route = `${request.method} ${path}`;
  if (route === "GET /") return send(response, 200, page, "text/html; charset=utf-8");
  if (request.method === "GET" && FILES[path]) {
    const [name, kind] = FILES[path];
    return send(response, 200, readFileSync(new URL(name, STATIC)), kind);
  }
  if (route === "POST /api/orders") return newOrder(request, response);
  if (route === "GET /api/order") return currentOrder(request, response);
  if (route === "POST /checkout/events") return event(request, response);
  if (route === "GET /admin/orders") {
    admin(request);
    return sendJson(response, 200, { orders: orders.all() });
  }
  if (route === "GET /admin/memberships") {
    admin(request);
    return sendJson(response, 200, { memberships: memberships.all() });
  }
  if (request.method === "POST" && parts.length === 4 && parts[0] === "admin" && parts[1] === "orders" && parts[3] === "refund") {
    admin(request);
    return refund(response, parts[2]);
  }
  throw new HttpError(404, "not found");
}

async function newOrder(request, response) {
  const wanted = (await readJson(request)).item;
  const item = Object.hasOwn(CATALOGUE, wanted) ? CATALOGUE[wanted] : undefined;
  if (!item) throw new HttpError(400, `unknown item ${JSON.stringify(wanted)}`);
  const order = orders.create(wanted, item.amount, item.currency);
  let session;
  try {
    session = await api.createSession({
      amount: item.amount,
      currency: item.currency,
      reference: order.id,
      description: item.name,
      idempotencyKey: `session-${order.id}`,
    });
  } catch (error) {
    if (!(error instanceof CheckoutError)) throw error;
    console.error(`creating the session failed: ${error.message}`);
    throw new HttpError(502, "the payment service is unavailable");
  }
  orders.attachSession(order, session.id, session.client_secret);
  // The order is the shopper's through this cookie, not through anything in an address.
  response.setHeader("Set-Cookie", `order=${order.id}; Path=/; HttpOnly; SameSite=Lax`);
  sendJson(response, 201, forPage(order));
}

async function currentOrder(request, response) {
  const order = cookieOrder(request);
  if (!order) throw new HttpError(404, "no order");
  try {
    // The landing address's `checkout=paid` proves nothing: ask checkout-server.
    orders.recordCheck(order, await api.session(order.session_id));
  } catch (error) {
    if (!(error instanceof CheckoutError)) throw error;
    console.error(`checking order ${order.id} failed: ${error.message}`);
  }
  sendJson(response, 200, forPage(order));
}

async function event(request, response) {
  const body = await readBody(request);
  let verified;
  try {
    // The raw body, before any JSON parsing; throws on a bad signature or an old timestamp.
    verified = webhook.verify(body, request.headers);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    console.error(`refused an event: ${error.message}`);
    throw new HttpError(400, "invalid signature");
  }
  const fresh = SUBSCRIPTION_EVENTS.includes(verified.type)
    ? memberships.recordEvent(verified)
    : orders.recordEvent(verified);
  console.log(`event ${verified.id} ${verified.type}${fresh ? "" : " (again)"}`);
  send(response, 204, "", null);
}

async function refund(response, orderId) {
  const order = orders.get(orderId);
  if (!order || !order.payment_id) throw new HttpError(404, `no paid order ${orderId}`);
  let payment;
  try {
    payment = await api.refund(order.payment_id, { idempotencyKey: `refund-${order.id}` });
  } catch (error) {
    if (!(error instanceof CheckoutError)) throw error;
    return sendJson(response, 502, { error: error.message, code: error.code });
  }
  // The order turns `refunded` when the `payment.refunded` event (or a check) says so.
  sendJson(response, 200, { payment, order: orders.view(order) });
}

/** What the page needs to mount the form: never the merchant key. */
function forPage(order) {
  return { order: orders.view(order), session_id: order.session_id, client_secret: orders.clientSecret(order) };
}

function cookieOrder(request) {
  const found = (request.headers.cookie || "").split(";").map((c) => c.trim().split("="));
  const id = found.find(([name]) => name === "order")?.[1];
  return id ? orders.get(id) : undefined;
}

function admin(request) {
  const given = Buffer.from(request.headers.authorization || "");
  const expected = Buffer.from(`Bearer ${adminToken}`);
  if (!adminToken || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new HttpError(401, "the back office needs Authorization: Bearer ADMIN_TOKEN");
  }
}

async function readBody(request) {
  const chunks = [];
  let size = 0;
  for await (const chunk of request) {
    size += chunk.length;
    if (size > MAX_BODY) throw new HttpError(413, "body too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readJson(request) {
  try {
    const value = JSON.parse((await readBody(request)) || "{}");
    return value && typeof value === "object" ? value : {};
  } catch (error) {
    if (error instanceof HttpError) throw error;
    return {};
  }
}

function sendJson(response, status, value) {
  send(response, status, JSON.stringify(value), "application/json");
}

function send(response, status, body, kind) {
  const headers = { "Content-Length": Buffer.byteLength(body), "Cache-Control": "no-store" };
  if (kind) headers["Content-Type"] = kind;
  response.writeHead(status, headers);
  response.end(body);
}

const [host, port] = (process.env.LISTEN || "127.0.0.1:8000").split(/:(?=\d+$)/);
createServer((request, response) => {
  handle(request, response).catch((error) => {
    if (!(error instanceof HttpError)) console.error(`${request.method} ${request.url}: ${error.stack}`);
    if (!response.headersSent) sendJson(response, error.status || 500, { error: error.status ? error.message : "internal error" });
  });
}).listen(Number(port), host, () => console.log(`backend-node listening on http://${host}:${port}/`));
