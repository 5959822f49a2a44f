-- Issue 46: nothing the gateway bills stays unknown. A periodic pass compares the gateway's
-- whole subscription list with the store (reconcile/gateway_list.rs); a subscription the store
-- lacks is recorded with origin `gateway_list` and a `review_note` saying why a person must
-- look at it (the dashboard's review queue lists it until acknowledged), and the shop is told
-- `subscription.needs_review` instead of `subscription.created`.
-- Kept in step with ../sqlite/0033_gateway_list_check.sql.
--
-- gateway_list_checks: one row per check (only `subscriptions`): when it runs next, the
-- instance holding it, and what the last run saw.
ALTER TABLE subscriptions ADD COLUMN origin TEXT NOT NULL DEFAULT 'checkout'
    CHECK (origin IN ('checkout', 'gateway_list'));
ALTER TABLE subscriptions ADD COLUMN review_note TEXT;
CREATE INDEX subscriptions_to_review ON subscriptions (created_at) WHERE review_note IS NOT NULL;

CREATE TABLE gateway_list_checks (
    id            TEXT PRIMARY KEY CHECK (id = 'subscriptions'),
    next_run_at   BIGINT NOT NULL,
    lease_owner   TEXT,
    lease_until   BIGINT,
    last_run_at   BIGINT,
    last_listed   BIGINT,
    last_found    BIGINT,
    last_error    TEXT
);
INSERT INTO gateway_list_checks (id, next_run_at) VALUES ('subscriptions', 0);

CREATE OR REPLACE FUNCTION subscription_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || replace(gen_random_uuid()::text, '-', ''),
        CASE NEW.origin WHEN 'gateway_list' THEN 'subscription.needs_review' ELSE 'subscription.created' END,
        'subscription', NEW.id, NEW.updated_at,
        jsonb_build_object(
            'id', NEW.id,
            'gateway_subscription_id', NEW.gateway_subscription_id,
            'customer_id', NEW.customer_id,
            'plan_id', NEW.plan_id,
            'session_id', NEW.session_id,
            'first_payment_id', NEW.first_payment_id,
            'amount', NEW.amount,
            'currency', NEW.currency,
            'status', NEW.status,
            'completed_cycles', NEW.completed_cycles,
            'next_payment_at', NEW.next_payment_at,
            'last_payment_status', NEW.last_payment_status,
            'next_poll_at', NEW.next_poll_at,
            'lease_owner', NEW.lease_owner,
            'lease_until', NEW.lease_until,
            'created_at', NEW.created_at,
            'updated_at', NEW.updated_at,
            'origin', NEW.origin,
            'review_note', NEW.review_note
        )::TEXT);
    RETURN NULL;
END;
$$;
