"""The shop's orders, kept in memory (a real shop keeps them in its database), and the one
rule that moves an order on (README: "Which event means ship"): the payment that paid the
order's session (the session's `paid_by`, its keeper), of the order's own amount and
currency, in a state that means money was taken (or returned). Any other payment of the
session never moves the order: one marked `surplus_of` is a second charge that
checkout-server reverses by itself (`reversal_reason: duplicate_attempt`), so its refund is
not the order's. Both the backend's own check (`GET /v1/sessions/{id}`) and the signed
events go through it, so they cannot disagree.
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

# States of the order's paying payment (the README's "Is the order paid?" table) and the order
# status each means.
_STATUS_OF_STATE = {
    "captured": PAID,
    "partially_refunded": PAID,
    "refunded": REFUNDED,
    "voided": REFUNDED,
}


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
            # The payment that paid the order's session (its `paid_by`): the one to refund.
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
        """Applies what `GET /v1/sessions/{id}` answered: the payment that paid it decides."""
        paid_by = session.get("paid_by")
        keeper = next((p for p in session.get("payments") or [] if p["id"] == paid_by), None)
        means = self._apply(order, keeper, paid_by) if keeper else None
        with self._lock:
            order["checked"] = {
                "at": int(time.time()),
                "session_status": session.get("status"),
                "payment_state": keeper["state"] if keeper else None,
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
            # `session.completed`: the session with the payment that paid it.
            session_id, paid_by = obj.get("id"), obj.get("paid_by")
            payment = next((p for p in obj.get("payments") or [] if p["id"] == paid_by), None)
        elif obj.get("object") == "payment":
            # A payment marked `surplus_of` is a second charge checkout-server reverses; a
            # captured one without it is the one that paid the session.
            session_id, payment = obj.get("session_id"), obj
            paid_by = None if obj.get("surplus_of") or obj["state"] != "captured" else obj["id"]
        else:
            return True  # saved cards: not this shop's business (subscriptions: memberships.py)
        order = self.by_session(session_id)
        if order is None or payment is None:
            return True
        means = self._apply(order, payment, paid_by)
        with self._lock:
            order["events"].append({"id": event["id"], "type": event["type"], "means": means})
        return True

    def _apply(self, order, payment, paid_by):
        """Moves the order on if `payment` is the one that paid it (`paid_by` names it when the
        caller knows, else the order's own record decides) and its state takes or returns
        money; the status it means, or None."""
        status = _STATUS_OF_STATE.get(payment.get("state"))
        with self._lock:
            if order["payment_id"] is None and paid_by is not None:
                order["payment_id"] = paid_by
            if (
                status is None
                or payment.get("surplus_of")
                or payment.get("id") != order["payment_id"]
                or payment.get("session_id") != order["session_id"]
                or payment.get("amount") != order["amount"]
                or payment.get("currency") != order["currency"]
            ):
                return None
            if _RANK[status] > _RANK[order["status"]]:
                order["status"] = status
            return status
