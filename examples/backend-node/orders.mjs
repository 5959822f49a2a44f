// The shop's orders, kept in memory (a real shop keeps them in its database), and the one
// rule that moves an order on: a payment of the order's own session, of the order's own
// amount and currency, in a state that means money was taken (or returned). Both the
// backend's own check (`GET /v1/sessions/{id}`) and the signed events go through it, so they
// cannot disagree.

import { randomBytes } from "node:crypto";

// Order statuses, in the only order an order moves through them: a late or repeated event
// (events of different objects may arrive in any order) never moves an order back.
const RANK = { awaiting_payment: 0, paid: 1, refunded: 2 };
// Payment states (the README's "Is the order paid?" table) and the order status each means.
const STATUS_OF_STATE = { captured: "paid", partially_refunded: "paid", refunded: "refunded" };

export class Orders {
  #orders = new Map();
  #secrets = new Map();
  #eventsSeen = new Set();

  /** A new order awaiting payment; its id is also its reference at checkout-server. */
  create(item, amount, currency) {
    const order = {
      id: `order_${randomBytes(8).toString("hex")}`,
      item,
      amount,
      currency,
      status: "awaiting_payment",
      session_id: null,
      payment_id: null,
      // How the backend learned the status: its own lookup and the events it applied.
      checked: null,
      events: [],
    };
    this.#orders.set(order.id, order);
    return order;
  }

  /** Keeps the session with its order: mode `result` needs the client secret again. */
  attachSession(order, sessionId, clientSecret) {
    order.session_id = sessionId;
    this.#secrets.set(order.id, clientSecret);
  }

  get(orderId) {
    return this.#orders.get(orderId);
  }

  bySession(sessionId) {
    return [...this.#orders.values()].find((order) => order.session_id === sessionId);
  }

  clientSecret(order) {
    return this.#secrets.get(order.id);
  }

  /** The order as the page and the back office see it (no client secret). */
  view(order) {
    return structuredClone(order);
  }

  all() {
    return [...this.#orders.values()].map((order) => this.view(order));
  }

  /** Applies what `GET /v1/sessions/{id}` answered: the newest payment decides. */
  recordCheck(order, session) {
    const payment = (session.payments || [])[0];
    const means = payment ? this.#apply(order, payment) : null;
    order.checked = {
      at: Math.floor(Date.now() / 1000),
      session_status: session.status,
      payment_state: payment ? payment.state : null,
      means,
    };
  }

  /** Applies a verified event; false if its id was seen before (events come at least once:
   * the same `webhook-id` again is a retry). */
  recordEvent(event) {
    if (this.#eventsSeen.has(event.id)) return false;
    this.#eventsSeen.add(event.id);
    const object = event.data.object;
    let sessionId;
    let payments;
    if (object.object === "session") [sessionId, payments] = [object.id, object.payments || []];
    else if (object.object === "payment") [sessionId, payments] = [object.session_id, [object]];
    else return true; // saved cards: not this shop's business (subscriptions: memberships.mjs)
    const order = this.bySession(sessionId);
    if (!order || payments.length === 0) return true;
    const means = this.#apply(order, payments[0]);
    order.events.push({ id: event.id, type: event.type, means });
    return true;
  }

  /** Moves the order on if `payment` pays (or refunded) it; the status it means, or null. */
  #apply(order, payment) {
    const status = STATUS_OF_STATE[payment.state];
    if (
      !status ||
      payment.session_id !== order.session_id ||
      payment.amount !== order.amount ||
      payment.currency !== order.currency
    ) {
      return null;
    }
    order.payment_id = payment.id;
    if (RANK[status] > RANK[order.status]) order.status = status;
    return status;
  }
}
