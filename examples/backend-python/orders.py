"""The shop's orders, kept in memory (a real shop keeps them in its database), and the one
rule that moves an order on: a payment of the order's own session, of the order's own amount
and currency, in a state that means money was taken (or returned). Both the backend's own
check (`GET /v1/sessions/{id}`) and the signed events go through it, so they cannot disagree.
"""

import secrets
import threading
import time

# Order statuses, in the only order an order moves through them: a late or repeated event
# (events of different objects may arrive in any order) never moves an order back.
AWAITING_PAYMENT = "awaiting_payment"
PAID = "paid"
REFUNDED = "refunded"
_RANK = {AWAITING_PAYMENT: 0, PAID: 1, REFUNDED: 2}

# Payment states (the README's "Is the order paid?" table) and the order status each means.
_STATUS_OF_STATE = {"captured": PAID, "partially_refunded": PAID, "refunded": REFUNDED}


class Orders:
    """Every order, by id, safe to use from the server's threads."""

    def __init__(self):
        self._lock = threading.Lock()
        self._orders = {}
        self._events_seen = set()

    def create(self, item, amount, currency):
        """A new order awaiting payment; its id is also its reference at checkout-server."""
        order = {
            "id": "order_" + secrets.token_hex(8),
            "item": item,
            "amount": amount,
            "currency": currency,
            "status": AWAITING_PAYMENT,
            "session_id": None,
            "payment_id": None,
            # How the backend learned the status: its own lookup and the events it applied.
            "checked": None,
            "events": [],
        }
        with self._lock:
            self._orders[order["id"]] = order
        return order

    def attach_session(self, order_id, session_id, client_secret):
        """Keeps the session with its order: mode `result` needs the client secret again."""
        with self._lock:
            order = self._orders[order_id]
            order["session_id"] = session_id
            order["_client_secret"] = client_secret

    def get(self, order_id):
        with self._lock:
            return self._orders.get(order_id)

    def by_session(self, session_id):
        with self._lock:
            return next(
                (o for o in self._orders.values() if o["session_id"] == session_id), None
            )

    def client_secret(self, order):
        return order.get("_client_secret")

    def view(self, order):
        """The order as the page and the back office see it (no client secret)."""
        with self._lock:
            return {k: v for k, v in order.items() if not k.startswith("_")}

    def all(self):
        with self._lock:
            orders = list(self._orders.values())
        return [self.view(order) for order in orders]

    def record_check(self, order, session):
        """Applies what `GET /v1/sessions/{id}` answered: the newest payment decides."""
        payments = session.get("payments") or []
        means = self._apply(order, payments[0]) if payments else None
        with self._lock:
            order["checked"] = {
                "at": int(time.time()),
                "session_status": session.get("status"),
                "payment_state": payments[0]["state"] if payments else None,
                "means": means,
            }

    def record_event(self, event):
        """Applies a verified event; False if its id was seen before (events come at least
        once: the same `webhook-id` again is a retry)."""
        with self._lock:
            if event["id"] in self._events_seen:
                return False
            self._events_seen.add(event["id"])
        obj = event["data"]["object"]
        if obj.get("object") == "session":
            session_id, payments = obj.get("id"), obj.get("payments") or []
        elif obj.get("object") == "payment":
            session_id, payments = obj.get("session_id"), [obj]
        else:
            return True  # saved cards: not this shop's business (subscriptions: memberships.py)
        order = self.by_session(session_id)
        if order is None or not payments:
            return True
        means = self._apply(order, payments[0])
        with self._lock:
            order["events"].append({"id": event["id"], "type": event["type"], "means": means})
        return True

    def _apply(self, order, payment):
        """Moves the order on if `payment` pays (or refunded) it; the status it means, or None."""
        status = _STATUS_OF_STATE.get(payment.get("state"))
        with self._lock:
            if (
                status is None
                or payment.get("session_id") != order["session_id"]
                or payment.get("amount") != order["amount"]
                or payment.get("currency") != order["currency"]
            ):
                return None
            order["payment_id"] = payment["id"]
            if _RANK[status] > _RANK[order["status"]]:
                order["status"] = status
            return status
