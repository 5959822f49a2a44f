"""The shop's memberships, kept in memory (a real shop keeps them in its database), moved on by
checkout-server's subscription events only, as the root README's subscription event table says:

- `subscription.created`: the member has access until the subscription's `next_payment_date`
  (the end of the first period, which the sign-up's payment paid, or of the free trial);
- `subscription.renewed`: a period is paid; access runs to its `charge.period_end`, and the
  period's `charge.amount` is credited once per cycle;
- `subscription.paused`, `.resumed`, `.cancelled`, `.completed`: the status changes (access
  already paid for runs to its end);
- `subscription.needs_review`: the gateway bills a subscription checkout-server did not start;
  kept apart for a person to look at.

Events come at least once and, between objects, in any order: a repeated event id changes
nothing, a period is credited once whatever brings it again, and access only ever grows.
"""

import threading
from datetime import datetime

SUBSCRIPTION_EVENTS = (
    "subscription.created",
    "subscription.renewed",
    "subscription.payment_failed",
    "subscription.paused",
    "subscription.resumed",
    "subscription.cancelled",
    "subscription.completed",
    "subscription.needs_review",
)


class Memberships:
    """Every membership, by checkout-server's subscription id, safe from the server's threads."""

    def __init__(self):
        self._lock = threading.Lock()
        self._members = {}
        self._events_seen = set()

    def record_event(self, event):
        """Applies a verified subscription event; False if its id was seen before."""
        with self._lock:
            if event["id"] in self._events_seen:
                return False
            self._events_seen.add(event["id"])
            obj = event["data"]["object"]
            member = self._members.setdefault(
                obj["id"],
                {
                    "subscription_id": obj["id"],
                    "customer_id": obj.get("customer_id"),
                    "plan_id": obj.get("plan_id"),
                    "status": obj.get("status"),
                    "access_until": None,
                    "paid_periods": {},
                    "failed_cycles": [],
                    "to_review": None,
                },
            )
            member["status"] = obj.get("status", member["status"])
            kind = event["type"]
            if kind == "subscription.created":
                _extend(member, obj.get("next_payment_date"))
            elif kind == "subscription.renewed":
                charge = obj["charge"]
                member["paid_periods"].setdefault(
                    str(charge["cycle"]),
                    {
                        "amount": charge["amount"],
                        "currency": charge["currency"],
                        "from": charge["period_start"],
                        "to": charge["period_end"],
                    },
                )
                _extend(member, charge["period_end"])
            elif kind == "subscription.payment_failed":
                member["failed_cycles"].append(obj["charge"]["cycle"])
            elif kind == "subscription.needs_review":
                member["to_review"] = obj.get("review_note")
            return True

    def get(self, subscription_id):
        with self._lock:
            member = self._members.get(subscription_id)
            return None if member is None else dict(member)

    def all(self):
        with self._lock:
            return [dict(member) for member in self._members.values()]


def _extend(member, until):
    """Access runs to `until` (RFC 3339) if that is later than what is paid for already."""
    if until is None:
        return
    current = member["access_until"]
    if current is None or _instant(until) > _instant(current):
        member["access_until"] = until


def _instant(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))
