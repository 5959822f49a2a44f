-- `subscription.renewed` means a later cycle: the first cycle's charge is the sign-up, which
-- `subscription.created` and the first payment's `payment.captured` (or `.authorized`) already
-- report. A shop extending a membership on each renewal and crediting each captured payment
-- counted the first month twice. A failed cycle still sends `subscription.payment_failed`,
-- whichever it is.
DROP TRIGGER subscription_cycle_events;
DROP TRIGGER subscription_cycle_retried;

CREATE TRIGGER subscription_cycle_events AFTER INSERT ON subscription_cycles
WHEN NEW.cycle > 1 OR NEW.status <> 'succeeded'
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
                'recorded_at', NEW.recorded_at
            ));
END;

CREATE TRIGGER subscription_cycle_retried AFTER UPDATE OF status ON subscription_cycles
WHEN NEW.status = 'succeeded' AND OLD.status <> 'succeeded' AND NEW.cycle > 1
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
                'recorded_at', NEW.recorded_at
            ));
END;
