// Feeds events to the sample's order rule and prints what the order became.
//
// Reads `{"order": {"amount", "currency", "session_id"}, "events": [...]}` on standard input
// (the events as checkout-server sends them, in delivery order), applies each through
// `Orders.recordEvent` exactly as the server's event endpoint does after verifying the
// signature, and prints the order as JSON. checkout-server's tests use it to hold the sample
// to "Which event means ship" (README); a shop can replay its own `GET /v1/events` the same way.

import { Orders } from "./orders.mjs";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const given = JSON.parse(input);
const orders = new Orders();
const order = orders.create("replayed", given.order.amount, given.order.currency);
orders.attachSession(order, given.order.session_id, null);
for (const event of given.events) orders.recordEvent(event);
process.stdout.write(JSON.stringify(orders.view(order)));
