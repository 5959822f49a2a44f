-- Events to the shop: a transactional outbox. Every change a shop acts on writes its event in
-- the statement that makes the change (the triggers below), so no change exists without its
-- event and no event without its change, whatever code path made it. `snapshot` is the row
-- as the change left it (no card data beyond brand, first six, last four and expiry; no card
-- token); the server renders the merchant API's object from it. `seq` orders events: all of
-- them, and each object's own. `fanned_out` turns 1 once the event's deliveries exist (an
-- event is fanned out when it is visible, never skipped past, whatever order
-- transactions commit in).

CREATE TABLE events (
    seq          BIGSERIAL PRIMARY KEY,
    id           TEXT NOT NULL UNIQUE,
    type         TEXT NOT NULL,
    object_type  TEXT NOT NULL,
    object_id    TEXT NOT NULL,
    created_at   BIGINT NOT NULL,
    snapshot     TEXT NOT NULL,
    fanned_out   BIGINT NOT NULL DEFAULT 0
);

CREATE INDEX events_by_object ON events (object_id, seq);
CREATE INDEX events_by_type ON events (type, seq);
CREATE INDEX events_by_time ON events (created_at, seq);
CREATE INDEX events_to_fan_out ON events (seq) WHERE fanned_out = 0;

-- The shop's endpoints. `secret` (whsec_…) signs every delivery, so it is kept as is; the API
-- shows it once, at creation and rotation. During a rotation's overlap `previous_secret` signs
-- too. `event_types` is '*' or ',type,type,'. It receives the events written after its creation.
CREATE TABLE webhook_endpoints (
    id               TEXT PRIMARY KEY,
    url              TEXT NOT NULL,
    description      TEXT,
    event_types      TEXT NOT NULL,
    secret           TEXT NOT NULL,
    previous_secret  TEXT,
    previous_until   BIGINT,
    status           TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
    disabled_reason  TEXT,
    failing_since    BIGINT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);

-- One row per (endpoint, event): pending until delivered, or failed after the retries.
CREATE TABLE event_deliveries (
    id               BIGSERIAL PRIMARY KEY,
    endpoint_id      TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_seq        BIGINT NOT NULL REFERENCES events (seq),
    object_id        TEXT NOT NULL,
    state            TEXT NOT NULL CHECK (state IN ('pending', 'delivered', 'failed')),
    attempts         BIGINT NOT NULL DEFAULT 0,
    next_attempt_at  BIGINT NOT NULL,
    lease_owner      TEXT,
    lease_until      BIGINT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL,
    UNIQUE (endpoint_id, event_seq)
);

CREATE INDEX deliveries_due ON event_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX deliveries_by_object
    ON event_deliveries (endpoint_id, object_id, event_seq) WHERE state = 'pending';
CREATE INDEX deliveries_by_event ON event_deliveries (event_seq);

-- Every attempt: when, how long, the answer's status or the error.
CREATE TABLE delivery_attempts (
    id            BIGSERIAL PRIMARY KEY,
    endpoint_id   TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    event_seq     BIGINT NOT NULL,
    attempted_at  BIGINT NOT NULL,
    duration_us   BIGINT NOT NULL,
    status_code   BIGINT,
    error         TEXT
);

CREATE INDEX delivery_attempts_by_endpoint ON delivery_attempts (endpoint_id, id);

CREATE FUNCTION payment_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), kind, 'payment', NEW.id, NEW.updated_at, jsonb_build_object(
        'id', NEW.id,
        'session_id', NEW.session_id,
        'customer_id', NEW.customer_id,
        'kind', NEW.kind,
        'state', NEW.state,
        'amount', NEW.amount,
        'currency', NEW.currency,
        'merchant_txn_ref', NEW.merchant_txn_ref,
        'gateway_transaction_id', NEW.gateway_transaction_id,
        'gateway_ref', NEW.gateway_ref,
        'response_code', NEW.response_code,
        'decline_code', NEW.decline_code,
        'card_brand', NEW.card_brand,
        'card_bin', NEW.card_bin,
        'card_last4', NEW.card_last4,
        'card_expiry_month', NEW.card_expiry_month,
        'card_expiry_year', NEW.card_expiry_year,
        'saved_card_id', NEW.saved_card_id,
        'captured_amount', NEW.captured_amount,
        'refunded_amount', NEW.refunded_amount,
        'attempts', NEW.attempts,
        'subscription_id', NEW.subscription_id,
        'webhook_token_hash', NEW.webhook_token_hash,
        'pending_since', NEW.pending_since,
        'review_deadline', NEW.review_deadline,
        'next_check_at', NEW.next_check_at,
        'lease_owner', NEW.lease_owner,
        'lease_until', NEW.lease_until,
        'created_at', NEW.created_at,
        'updated_at', NEW.updated_at,
        'transaction_hint', NEW.transaction_hint,
        'save_card', NEW.save_card
    )::TEXT
    FROM (SELECT CASE NEW.state WHEN 'authorized' THEN 'payment.authorized'
        WHEN 'captured' THEN 'payment.captured' WHEN 'declined' THEN 'payment.declined'
        WHEN 'failed' THEN 'payment.failed' WHEN 'needs_review' THEN 'payment.needs_review'
        WHEN 'partially_refunded' THEN 'payment.refunded' WHEN 'refunded' THEN 'payment.refunded'
        WHEN 'voided' THEN 'payment.voided' END AS kind) AS k
    WHERE kind IS NOT NULL;
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), 'session.completed', 'session', NEW.session_id, NEW.updated_at,
        jsonb_build_object('session', (SELECT jsonb_build_object(
            'id', s.id,
            'client_secret_hash', s.client_secret_hash,
            'amount', s.amount,
            'currency', s.currency,
            'reference', s.reference,
            'capture_mode', s.capture_mode,
            'customer_id', s.customer_id,
            'email', s.email,
            'plan_id', s.plan_id,
            'description', s.description,
            'created_at', s.created_at,
            'expires_at', s.expires_at
        ) FROM checkout_sessions AS s WHERE s.id = NEW.session_id),
            'payment', jsonb_build_object(
                'id', NEW.id,
                'session_id', NEW.session_id,
                'customer_id', NEW.customer_id,
                'kind', NEW.kind,
                'state', NEW.state,
                'amount', NEW.amount,
                'currency', NEW.currency,
                'merchant_txn_ref', NEW.merchant_txn_ref,
                'gateway_transaction_id', NEW.gateway_transaction_id,
                'gateway_ref', NEW.gateway_ref,
                'response_code', NEW.response_code,
                'decline_code', NEW.decline_code,
                'card_brand', NEW.card_brand,
                'card_bin', NEW.card_bin,
                'card_last4', NEW.card_last4,
                'card_expiry_month', NEW.card_expiry_month,
                'card_expiry_year', NEW.card_expiry_year,
                'saved_card_id', NEW.saved_card_id,
                'captured_amount', NEW.captured_amount,
                'refunded_amount', NEW.refunded_amount,
                'attempts', NEW.attempts,
                'subscription_id', NEW.subscription_id,
                'webhook_token_hash', NEW.webhook_token_hash,
                'pending_since', NEW.pending_since,
                'review_deadline', NEW.review_deadline,
                'next_check_at', NEW.next_check_at,
                'lease_owner', NEW.lease_owner,
                'lease_until', NEW.lease_until,
                'created_at', NEW.created_at,
                'updated_at', NEW.updated_at,
                'transaction_hint', NEW.transaction_hint,
                'save_card', NEW.save_card
            ))::TEXT
    WHERE NEW.state IN ('authorized', 'captured')
        AND OLD.state NOT IN ('authorized', 'captured', 'partially_refunded', 'refunded', 'voided');
    RETURN NULL;
END;
$$;

CREATE TRIGGER payment_events AFTER UPDATE OF state, refunded_amount ON payments
FOR EACH ROW WHEN (NEW.state <> OLD.state OR NEW.refunded_amount <> OLD.refunded_amount)
EXECUTE FUNCTION payment_events();

CREATE FUNCTION subscription_created() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || replace(gen_random_uuid()::text, '-', ''), 'subscription.created', 'subscription', NEW.id, NEW.updated_at,
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
            'updated_at', NEW.updated_at
        )::TEXT);
    RETURN NULL;
END;
$$;

CREATE TRIGGER subscription_created AFTER INSERT ON subscriptions
FOR EACH ROW EXECUTE FUNCTION subscription_created();

CREATE FUNCTION subscription_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), kind, 'subscription', NEW.id, NEW.updated_at, jsonb_build_object(
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
        'updated_at', NEW.updated_at
    )::TEXT
    FROM (SELECT CASE WHEN NEW.status = 'paused' THEN 'subscription.paused'
        WHEN NEW.status = 'active' AND OLD.status = 'paused' THEN 'subscription.resumed'
        WHEN NEW.status = 'cancelled' THEN 'subscription.cancelled'
        WHEN NEW.status = 'expired' THEN 'subscription.completed' END AS kind) AS k
    WHERE kind IS NOT NULL;
    RETURN NULL;
END;
$$;

CREATE TRIGGER subscription_events AFTER UPDATE OF status ON subscriptions
FOR EACH ROW WHEN (NEW.status <> OLD.status) EXECUTE FUNCTION subscription_events();

CREATE FUNCTION subscription_cycle_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), CASE NEW.status WHEN 'succeeded' THEN 'subscription.renewed'
        ELSE 'subscription.payment_failed' END, 'subscription', NEW.subscription_id, NEW.recorded_at,
        jsonb_build_object('subscription', (SELECT jsonb_build_object(
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
        ) FROM subscriptions AS s WHERE s.id = NEW.subscription_id),
            'cycle', jsonb_build_object(
                'subscription_id', NEW.subscription_id,
                'cycle', NEW.cycle,
                'gateway_transaction_id', NEW.gateway_transaction_id,
                'amount', NEW.amount,
                'currency', NEW.currency,
                'status', NEW.status,
                'charged_at', NEW.charged_at,
                'recorded_at', NEW.recorded_at
            ))::TEXT;
    RETURN NULL;
END;
$$;

CREATE TRIGGER subscription_cycle_events AFTER INSERT ON subscription_cycles
FOR EACH ROW EXECUTE FUNCTION subscription_cycle_events();

CREATE FUNCTION subscription_cycle_retried() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), 'subscription.renewed', 'subscription', NEW.subscription_id, (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT,
        jsonb_build_object('subscription', (SELECT jsonb_build_object(
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
        ) FROM subscriptions AS s WHERE s.id = NEW.subscription_id),
            'cycle', jsonb_build_object(
                'subscription_id', NEW.subscription_id,
                'cycle', NEW.cycle,
                'gateway_transaction_id', NEW.gateway_transaction_id,
                'amount', NEW.amount,
                'currency', NEW.currency,
                'status', NEW.status,
                'charged_at', NEW.charged_at,
                'recorded_at', NEW.recorded_at
            ))::TEXT;
    RETURN NULL;
END;
$$;

CREATE TRIGGER subscription_cycle_retried AFTER UPDATE OF status ON subscription_cycles
FOR EACH ROW WHEN (NEW.status = 'succeeded' AND OLD.status <> 'succeeded')
EXECUTE FUNCTION subscription_cycle_retried();

CREATE FUNCTION card_saved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || replace(gen_random_uuid()::text, '-', ''), 'customer.card_saved', 'customer', NEW.customer_id, NEW.created_at,
        jsonb_build_object(
            'id', NEW.id,
            'customer_id', NEW.customer_id,
            'brand', NEW.brand,
            'last4', NEW.last4,
            'expiry_month', NEW.expiry_month,
            'expiry_year', NEW.expiry_year,
            'created_at', NEW.created_at
        )::TEXT);
    RETURN NULL;
END;
$$;

CREATE TRIGGER card_saved AFTER INSERT ON saved_cards
FOR EACH ROW EXECUTE FUNCTION card_saved();

CREATE FUNCTION card_removed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || replace(gen_random_uuid()::text, '-', ''), 'customer.card_removed', 'customer', OLD.customer_id, (extract(epoch FROM clock_timestamp()) * 1000)::BIGINT,
        jsonb_build_object(
            'id', OLD.id,
            'customer_id', OLD.customer_id,
            'brand', OLD.brand,
            'last4', OLD.last4,
            'expiry_month', OLD.expiry_month,
            'expiry_year', OLD.expiry_year,
            'created_at', OLD.created_at
        )::TEXT);
    RETURN NULL;
END;
$$;

CREATE TRIGGER card_removed AFTER DELETE ON saved_cards
FOR EACH ROW EXECUTE FUNCTION card_removed();
