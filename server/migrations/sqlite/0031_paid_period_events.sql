-- Issue 46: every billing period that moves money is told. `subscription.renewed` now means
-- "a period was paid by a charge the gateway made by itself": every cycle after the sign-up's,
-- cycle 1 of a plan with a trial (the first real charge, after the trial), and any of them
-- paid on a retry after `subscription.payment_failed`. The one cycle it leaves out is the one
-- the sign-up's own payment charged (a plan without a trial), which `subscription.created` and
-- that payment's `payment.captured` report: a shop extending access on `renewed` and crediting
-- `payment.captured` still counts each period once.
-- Kept in step with ../postgres/0031_paid_period_events.sql.
--
-- subscription_cycles.payment_id: the payment that charged the cycle (the sign-up's), NULL
-- when the gateway charged it by itself. Cycles recorded before: cycle 1 is the sign-up's
-- when the subscription's first payment charged money (a trial's verification charges 0).
-- period_start, period_end: the period the cycle pays for (its first charge attempt, and one
-- billing period later); NULL for cycles recorded before.
ALTER TABLE subscription_cycles ADD COLUMN payment_id TEXT REFERENCES payments (id);
ALTER TABLE subscription_cycles ADD COLUMN period_start INTEGER;
ALTER TABLE subscription_cycles ADD COLUMN period_end INTEGER;

UPDATE subscription_cycles SET payment_id = (
    SELECT s.first_payment_id FROM subscriptions s JOIN payments p ON p.id = s.first_payment_id
    WHERE s.id = subscription_cycles.subscription_id AND p.amount > 0)
WHERE cycle = 1;

DROP TRIGGER subscription_cycle_events;
DROP TRIGGER subscription_cycle_retried;

CREATE TRIGGER subscription_cycle_events AFTER INSERT ON subscription_cycles
WHEN NEW.payment_id IS NULL OR NEW.status <> 'succeeded'
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || lower(hex(randomblob(16))), CASE NEW.status WHEN 'succeeded' THEN 'subscription.renewed'
        ELSE 'subscription.payment_failed' END, 'subscription', NEW.subscription_id, NEW.recorded_at,
        json_object('subscription', json((SELECT json_object(
            'id', s.id,
            'gateway_subscription_id', s.gateway_subscription_id,
            'customer_id', s.customer_id,
            'plan_id', s.plan_id,
            'session_id', s.session_id,
            'first_payment_id', s.first_payment_id,
            'amount', s.amount,
            'currency', s.currency,
            'status', s.status,
            'completed_cycles', s.completed_cycles,
            'next_payment_at', s.next_payment_at,
            'last_payment_status', s.last_payment_status,
            'next_poll_at', s.next_poll_at,
            'lease_owner', s.lease_owner,
            'lease_until', s.lease_until,
            'created_at', s.created_at,
            'updated_at', s.updated_at
        ) FROM subscriptions AS s WHERE s.id = NEW.subscription_id)),
            'cycle', json_object(
                'subscription_id', NEW.subscription_id,
                'cycle', NEW.cycle,
                'gateway_transaction_id', NEW.gateway_transaction_id,
                'amount', NEW.amount,
                'currency', NEW.currency,
                'status', NEW.status,
                'charged_at', NEW.charged_at,
                'recorded_at', NEW.recorded_at,
                'payment_id', NEW.payment_id,
                'period_start', NEW.period_start,
                'period_end', NEW.period_end
            ));
END;

CREATE TRIGGER subscription_cycle_retried AFTER UPDATE OF status ON subscription_cycles
WHEN NEW.status = 'succeeded' AND OLD.status <> 'succeeded' AND NEW.payment_id IS NULL
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || lower(hex(randomblob(16))), 'subscription.renewed', 'subscription', NEW.subscription_id, CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER),
        json_object('subscription', json((SELECT json_object(
            'id', s.id,
            'gateway_subscription_id', s.gateway_subscription_id,
            'customer_id', s.customer_id,
            'plan_id', s.plan_id,
            'session_id', s.session_id,
            'first_payment_id', s.first_payment_id,
            'amount', s.amount,
            'currency', s.currency,
            'status', s.status,
            'completed_cycles', s.completed_cycles,
            'next_payment_at', s.next_payment_at,
            'last_payment_status', s.last_payment_status,
            'next_poll_at', s.next_poll_at,
            'lease_owner', s.lease_owner,
            'lease_until', s.lease_until,
            'created_at', s.created_at,
            'updated_at', s.updated_at
        ) FROM subscriptions AS s WHERE s.id = NEW.subscription_id)),
            'cycle', json_object(
                'subscription_id', NEW.subscription_id,
                'cycle', NEW.cycle,
                'gateway_transaction_id', NEW.gateway_transaction_id,
                'amount', NEW.amount,
                'currency', NEW.currency,
                'status', NEW.status,
                'charged_at', NEW.charged_at,
                'recorded_at', NEW.recorded_at,
                'payment_id', NEW.payment_id,
                'period_start', NEW.period_start,
                'period_end', NEW.period_end
            ));
END;
