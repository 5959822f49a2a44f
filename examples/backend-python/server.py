"""A shop's backend in Python (standard library http.server) taking card payments through
checkout-server:

  GET  /                           the shop page (static/), embedding the card form
  POST /api/orders                 a new order: creates its checkout session with the merchant
                                   API and hands the page the session id and client secret
  GET  /api/order                  the shopper's order (cookie), confirmed with checkout-server
                                   (GET /v1/sessions/{id}), never from the page's address
  POST /checkout/events            checkout-server's signed events (Standard Webhooks)
  GET  /admin/orders               the back office: every order (Bearer ADMIN_TOKEN)
  POST /admin/orders/{id}/refund   refund an order's payment (Bearer ADMIN_TOKEN)
  GET  /admin/memberships          every membership, moved on by subscription events
                                   (Bearer ADMIN_TOKEN)

Configuration (environment): CHECKOUT_SERVER, MERCHANT_SECRET_KEY, CHECKOUT_WEBHOOK_SECRET,
LISTEN (default 127.0.0.1:8000), ADMIN_TOKEN (the back office is closed without it).
"""

import hmac
import html
import json
import os
import sys
from http import cookies
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from standardwebhooks import Webhook, WebhookVerificationError

from checkout_api import CheckoutAPI, CheckoutError
from memberships import SUBSCRIPTION_EVENTS, Memberships
from orders import Orders

# What the shop sells: the backend decides every price; the page only names the item.
CATALOGUE = {"teapot": {"name": "Teapot", "amount": 2500, "currency": "EUR"}}
STATIC = Path(__file__).parent / "static"
FILES = {
    "/shop.js": ("shop.js", "text/javascript; charset=utf-8"),
    "/shop.css": ("shop.css", "text/css; charset=utf-8"),
}
MAX_BODY = 1 << 20


def required(name):
    value = os.environ.get(name, "").strip()
    if not value:
        sys.exit(f"backend-python: set {name} (see README.md)")
    return value


class Shop:
    """The backend's configuration and state, shared by every request."""

    def __init__(self):
        self.api = CheckoutAPI(
            os.environ.get("CHECKOUT_SERVER", "http://127.0.0.1:8080"),
            required("MERCHANT_SECRET_KEY"),
        )
        # Raises at start on a malformed secret rather than on the first event.
        self.webhook = Webhook(required("CHECKOUT_WEBHOOK_SECRET"))
        self.admin_token = os.environ.get("ADMIN_TOKEN", "")
        self.orders = Orders()
        self.memberships = Memberships()
        page = (STATIC / "index.html").read_text(encoding="utf-8")
        self.page = page.replace(
            "{{CHECKOUT_SERVER}}", html.escape(self.api.base_url, quote=True)
        ).encode()


class Handler(BaseHTTPRequestHandler):
    shop: Shop  # set in main()
    server_version = "backend-python"

    def do_GET(self):
        path = self.path.split("?", 1)[0]
        if path == "/":
            self.send(200, self.shop.page, "text/html; charset=utf-8")
        elif path in FILES:
            name, kind = FILES[path]
            self.send(200, (STATIC / name).read_bytes(), kind)
        elif path == "/api/order":
            self.current_order()
        elif path == "/admin/orders":
            if self.is_admin():
                self.send_json(200, {"orders": self.shop.orders.all()})
        elif path == "/admin/memberships":
            if self.is_admin():
                self.send_json(200, {"memberships": self.shop.memberships.all()})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        path = self.path.split("?", 1)[0]
        parts = path.strip("/").split("/")
        length = self.content_length()
        if length is None:
            self.send_json(400, {"error": "a body needs a valid Content-Length"})
        elif length > MAX_BODY:
            self.send_json(413, {"error": "body too large"})
        elif path == "/api/orders":
            self.new_order()
        elif path == "/checkout/events":
            self.event()
        elif len(parts) == 4 and parts[:2] == ["admin", "orders"] and parts[3] == "refund":
            if self.is_admin():
                self.refund(parts[2])
        else:
            self.send_json(404, {"error": "not found"})

    def new_order(self):
        wanted = self.read_json().get("item")
        item = CATALOGUE.get(wanted)
        if item is None:
            return self.send_json(400, {"error": f"unknown item {wanted!r}"})
        order = self.shop.orders.create(wanted, item["amount"], item["currency"])
        try:
            session = self.shop.api.create_session(
                amount=item["amount"],
                currency=item["currency"],
                reference=order["id"],
                description=item["name"],
                idempotency_key="session-" + order["id"],
            )
        except CheckoutError as error:
            self.log_message("creating the session failed: %s", error)
            return self.send_json(502, {"error": "the payment service is unavailable"})
        self.shop.orders.attach_session(order["id"], session["id"], session["client_secret"])
        # The order is the shopper's through this cookie, not through anything in an address.
        cookie = f"order={order['id']}; Path=/; HttpOnly; SameSite=Lax"
        self.send_json(201, self.for_page(order), [("Set-Cookie", cookie)])

    def current_order(self):
        order = self.cookie_order()
        if order is None:
            return self.send_json(404, {"error": "no order"})
        try:
            # The landing address's `checkout=paid` proves nothing: ask checkout-server.
            self.shop.orders.record_check(order, self.shop.api.session(order["session_id"]))
        except CheckoutError as error:
            self.log_message("checking order %s failed: %s", order["id"], error)
        self.send_json(200, self.for_page(order))

    def event(self):
        body = self.read_body()
        try:
            # The raw body, before any JSON parsing; raises on a bad signature or an old timestamp.
            event = self.shop.webhook.verify(body, dict(self.headers.items()))
        except WebhookVerificationError as error:
            self.log_message("refused an event: %s", error)
            return self.send_json(400, {"error": "invalid signature"})
        if event["type"] in SUBSCRIPTION_EVENTS:
            fresh = self.shop.memberships.record_event(event)
        else:
            fresh = self.shop.orders.record_event(event)
        self.log_message("event %s %s%s", event["id"], event["type"], "" if fresh else " (again)")
        self.send(204, b"", None)

    def refund(self, order_id):
        order = self.shop.orders.get(order_id)
        if order is None or order["payment_id"] is None:
            return self.send_json(404, {"error": "no paid order " + order_id})
        try:
            payment = self.shop.api.refund(
                order["payment_id"], idempotency_key="refund-" + order["id"]
            )
        except CheckoutError as error:
            return self.send_json(502, {"error": str(error), "code": error.code})
        # The order turns `refunded` when the `payment.refunded` event (or a check) says so.
        self.send_json(200, {"payment": payment, "order": self.shop.orders.view(order)})

    def for_page(self, order):
        """What the page needs to mount the form: never the merchant key."""
        return {
            "order": self.shop.orders.view(order),
            "session_id": order["session_id"],
            "client_secret": self.shop.orders.client_secret(order),
        }

    def cookie_order(self):
        jar = cookies.SimpleCookie(self.headers.get("Cookie", ""))
        return self.shop.orders.get(jar["order"].value) if "order" in jar else None

    def is_admin(self):
        token = self.shop.admin_token
        given = self.headers.get("Authorization", "")
        if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
            return True
        self.send_json(401, {"error": "the back office needs Authorization: Bearer ADMIN_TOKEN"})
        return False

    def content_length(self):
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            return None
        return length if length >= 0 else None

    def read_body(self):
        return self.rfile.read(self.content_length() or 0)

    def read_json(self):
        try:
            value = json.loads(self.read_body() or b"{}")
        except ValueError:
            return {}
        return value if isinstance(value, dict) else {}

    def send_json(self, status, value, headers=()):
        self.send(status, json.dumps(value).encode(), "application/json", headers)

    def send(self, status, body, kind, headers=()):
        self.send_response(status)
        if kind:
            self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)


def main():
    Handler.shop = Shop()
    host, _, port = os.environ.get("LISTEN", "127.0.0.1:8000").rpartition(":")
    server = ThreadingHTTPServer((host, int(port)), Handler)
    print(f"backend-python listening on http://{host}:{port}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
