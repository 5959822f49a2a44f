// The shop's orders, kept in memory (a real shop keeps them in its database), and the one
// rule that moves an order on (README: "Which event means ship"): the payment that paid the
// order's session (the session's `paid_by`, its keeper), of the order's own amount and
// currency, in a state that means money was taken (or returned). Any other payment of the
// session never moves the order: one marked `surplus_of` is a second charge that
// checkout-server reverses by itself (`reversal_reason: duplicate_attempt`), so its refund is
// not the order's. Both the backend's own check (`GET /v1/sessions/{id}`) and the signed
// events go through it, so they cannot disagree.

import { randomBytes } from "node:crypto";

// Order statuses, in the only order an order moves through them: a late or repeated event
// (events of different objects may arrive in any order) never moves an order back.
const RANK = { awaiting_payment: 0, paid: 1, refunded: 2 };
// States of the order's paying payment (the README's "Is the order paid?" table) and the
// order status each means.
const STATUS_OF_STATE = {
  captured: "paid",
  partially_refunded: "paid",
  refunded: "refunded",
  voided: "refunded",
};

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
      // The payment that paid the order's session (its `paid_by`): the one to refund.
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

  /** Applies what `GET /v1/sessions/{id}` answered: the payment that paid it decides. */
  recordCheck(order, session) {
    const paidBy = session.paid_by ?? null;
    const keeper = (session.payments || []).find((payment) => payment.id === paidBy);
    const means = keeper ? this.#apply(order, keeper, paidBy) : null;
    order.checked = {
      at: Math.floor(Date.now() / 1000),
      session_status: session.status,
      payment_state: keeper ? keeper.state : null,
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
    let payment;
    let paidBy;
    if (object.object === "session") {
      // `session.completed`: the session with the payment that paid it.
      [sessionId, paidBy] = [object.id, object.paid_by ?? null];
      payment = (object.payments || []).find((candidate) => candidate.id === paidBy);
    } else if (object.object === "payment") {
      // A payment marked `surplus_of` is a second charge checkout-server reverses; a captured
      // one without it is the one that paid the session.
      [sessionId, payment] = [object.session_id, object];
      paidBy = !object.surplus_of && object.state === "captured" ? object.id : null;
    } else return true; // saved cards: not this shop's business (subscriptions: memberships.mjs)
    const order = this.bySession(sessionId);
    if (!order || !payment) return true;
    const means = this.#apply(order, payment, paidBy);
    order.events.push({ id: event.id, type: event.type, means });
    return true;
  }

  /** Moves the order on if `payment` is the one that paid it (`paidBy` names it when the
   * caller knows, else the order's own record decides) and its state takes or returns money;
   * the status it means, or null. */
  #apply(order, payment, paidBy) {
    const status = STATUS_OF_STATE[payment.state];
    if (order.payment_id === null && paidBy) order.payment_id = paidBy;
    if (
      !status ||
      payment.surplus_of ||
      payment.id !== order.payment_id ||
      payment.session_id !== order.session_id ||
      payment.amount !== order.amount ||
      payment.currency !== order.currency
    ) {
      return null;
    }
    if (RANK[status] > RANK[order.status]) order.status = status;
    return status;
  }
}
