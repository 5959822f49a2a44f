"""Feeds events to the sample's order rule and prints what the order became.

Reads `{"order": {"amount", "currency", "session_id"}, "events": [...]}` on standard input
(the events as checkout-server sends them, in delivery order), applies each through
`Orders.record_event` exactly as the server's event endpoint does after verifying the
signature, and prints the order as JSON. checkout-server's tests use it to hold the sample
to "Which event means ship" (README); a shop can replay its own `GET /v1/events` the same way.
"""

import json
import sys

from orders import Orders


def main():
    given = json.load(sys.stdin)
    orders = Orders()
    spec = given["order"]
    order = orders.create("replayed", spec["amount"], spec["currency"])
    orders.attach_session(order["id"], spec["session_id"], None)
    for event in given["events"]:
        orders.record_event(event)
    json.dump(orders.view(order), sys.stdout)


if __name__ == "__main__":
    main()
