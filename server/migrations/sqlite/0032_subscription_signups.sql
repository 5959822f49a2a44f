-- Issue 46: a sign-up is recorded before its `subscription/payment` call, so an answer the
-- gateway processed but never delivered (timeout, 5xx) is found again: the reconciler matches
-- an open sign-up against the gateway's subscription list (reconcile/signups.rs).
-- Kept in step with ../postgres/0032_subscription_signups.sql.
--
-- id: the sign-up's payment. state: `open` (the call runs, or its outcome is unknown),
-- `recorded` (the subscription is `subscription_id`), `failed` (the gateway created none),
-- `review` (the list holds more than one subscription it could be: `note` says which).
-- next_check_at: when the reconciler looks at an open sign-up (once its call has ended).
-- One open sign-up per customer and plan: a second sign-up while one is open is refused.
CREATE TABLE subscription_signups (
    id               TEXT PRIMARY KEY REFERENCES payments (id),
    session_id       TEXT NOT NULL REFERENCES checkout_sessions (id),
    customer_id      TEXT,
    plan_id          TEXT NOT NULL,
    state            TEXT NOT NULL CHECK (state IN ('open', 'recorded', 'failed', 'review')),
    called_at        INTEGER NOT NULL,
    subscription_id  TEXT REFERENCES subscriptions (id),
    note             TEXT,
    next_check_at    INTEGER,
    lease_owner      TEXT,
    lease_until      INTEGER,
    created_at       INTEGER NOT NULL,
    updated_at       INTEGER NOT NULL
) STRICT;

CREATE UNIQUE INDEX subscription_signups_one_open ON subscription_signups (customer_id, plan_id)
    WHERE state = 'open' AND customer_id IS NOT NULL;
CREATE INDEX subscription_signups_due ON subscription_signups (next_check_at)
    WHERE state = 'open';
CREATE INDEX subscription_signups_to_review ON subscription_signups (updated_at)
    WHERE state = 'review';
CREATE INDEX subscriptions_live_by_customer_plan ON subscriptions (customer_id, plan_id)
    WHERE status IN ('active', 'paused');
