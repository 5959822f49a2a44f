// The shop's memberships, kept in memory (a real shop keeps them in its database), moved on
// by checkout-server's subscription events only, as the root README's subscription event
// table says:
//
// - `subscription.created`: the member has access until the subscription's
//   `next_payment_date` (the end of the first period, which the sign-up's payment paid, or of
//   the free trial);
// - `subscription.renewed`: a period is paid; access runs to its `charge.period_end`, and the
//   period's `charge.amount` is credited once per cycle;
// - `subscription.paused`, `.resumed`, `.cancelled`, `.completed`: the status changes (access
//   already paid for runs to its end);
// - `subscription.needs_review`: the gateway bills a subscription checkout-server did not
//   start; kept apart for a person to look at.
//
// Events come at least once and, between objects, in any order: a repeated event id changes
// nothing, a period is credited once whatever brings it again, and access only ever grows.

export const SUBSCRIPTION_EVENTS = [
  "subscription.created",
  "subscription.renewed",
  "subscription.payment_failed",
  "subscription.paused",
  "subscription.resumed",
  "subscription.cancelled",
  "subscription.completed",
  "subscription.needs_review",
];

export class Memberships {
  #members = new Map();
  #eventsSeen = new Set();

  /** Applies a verified subscription event; false if its id was seen before. */
  recordEvent(event) {
    if (this.#eventsSeen.has(event.id)) return false;
    this.#eventsSeen.add(event.id);
    const object = event.data.object;
    let member = this.#members.get(object.id);
    if (!member) {
      member = {
        subscription_id: object.id,
        customer_id: object.customer_id ?? null,
        plan_id: object.plan_id ?? null,
        status: object.status ?? null,
        access_until: null,
        paid_periods: {},
        failed_cycles: [],
        to_review: null,
      };
      this.#members.set(object.id, member);
    }
    member.status = object.status ?? member.status;
    if (event.type === "subscription.created") {
      extend(member, object.next_payment_date);
    } else if (event.type === "subscription.renewed") {
      const charge = object.charge;
      member.paid_periods[String(charge.cycle)] ??= {
        amount: charge.amount,
        currency: charge.currency,
        from: charge.period_start,
        to: charge.period_end,
      };
      extend(member, charge.period_end);
    } else if (event.type === "subscription.payment_failed") {
      member.failed_cycles.push(object.charge.cycle);
    } else if (event.type === "subscription.needs_review") {
      member.to_review = object.review_note ?? null;
    }
    return true;
  }

  get(subscriptionId) {
    const member = this.#members.get(subscriptionId);
    return member ? structuredClone(member) : null;
  }

  all() {
    return [...this.#members.values()].map((member) => structuredClone(member));
  }
}

/** Access runs to `until` (RFC 3339) if that is later than what is paid for already. */
function extend(member, until) {
  if (!until) return;
  if (member.access_until === null || Date.parse(until) > Date.parse(member.access_until)) {
    member.access_until = until;
  }
}
