-- Issue 32: `session.completed` once per session. A session is paid by its first payment that
-- is authorized or captured (`paid_at`, migration 0012); a later one is a surplus charge that
-- checkout-server reverses at once (payments/surplus.rs), and it no longer completes the
-- session a second time (a shop that ships on `session.completed` would ship twice). The
-- trigger is 0003's, with that one condition added.
-- Kept in step with ../postgres/0013_session_completed_once.sql.

DROP TRIGGER payment_events;

CREATE TRIGGER payment_events AFTER UPDATE OF state, refunded_amount ON payments
WHEN NEW.state <> OLD.state OR NEW.refunded_amount <> OLD.refunded_amount
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || lower(hex(randomblob(16))), kind, 'payment', NEW.id, NEW.updated_at, json_object(
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
    )
    FROM (SELECT CASE NEW.state WHEN 'authorized' THEN 'payment.authorized'
        WHEN 'captured' THEN 'payment.captured' WHEN 'declined' THEN 'payment.declined'
        WHEN 'failed' THEN 'payment.failed' WHEN 'needs_review' THEN 'payment.needs_review'
        WHEN 'partially_refunded' THEN 'payment.refunded' WHEN 'refunded' THEN 'payment.refunded'
        WHEN 'voided' THEN 'payment.voided' END AS kind)
    WHERE kind IS NOT NULL;
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || lower(hex(randomblob(16))), 'session.completed', 'session', NEW.session_id, NEW.updated_at,
        json_object('session', json((SELECT json_object(
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
        ) FROM checkout_sessions AS s WHERE s.id = NEW.session_id)),
            'payment', json_object(
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
            ))
    WHERE NEW.state IN ('authorized', 'captured')
        AND OLD.state NOT IN ('authorized', 'captured', 'partially_refunded', 'refunded', 'voided')
        AND NOT EXISTS (SELECT 1 FROM payments AS other WHERE other.session_id = NEW.session_id
            AND other.id <> NEW.id AND other.paid_at IS NOT NULL);
END;
