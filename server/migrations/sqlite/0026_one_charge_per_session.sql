-- Issue 45: one checkout, one charge. A session is paid once a payment of it is authorized
-- or captured, and for good: whatever later happens to that payment (voided, refunded), the
-- session takes no other pay. The first payment paid is the session's keeper, written here
-- once, on the session row, in the statement that pays it (the state step's trigger):
--
-- checkout_sessions.paid_by, paid_at: the keeper and when it was paid. The claim insert
--   refuses a session whose `paid_by` is set (store/sql/new_payment.rs), and every rule that
--   asks "is it paid?" reads this (payments::keeper). Not part of the session record the
--   store keeps in memory (sessions are otherwise written once): read on its own.
-- payments.attempt_number: the payment's place among its session's payments (1, 2, …); the
--   gateway sees the shop's reference with `-<attempt_number>` appended, so each attempt of a
--   session can be told apart in its reports (payments::attempt_reference).
-- payments.review_reason: why a payment went to `needs_review` (payments::review).
-- checkout_sessions_by_reference: the payments list's reference filter finds every attempt of
--   the sessions with the shop's reference (store/sql/payment_list.rs).
--
-- `session.completed` is written once per session, naming the keeper: when the step that pays
-- a payment made it the keeper. The event snapshots now carry every column the merchant API
-- shows (superseded_by, surplus_of, attempt_number, review_reason), so an event says what
-- `GET /v1/payments/{id}` says at that moment.
-- Kept in step with ../postgres/0026_one_charge_per_session.sql. (SQLite has one writer at a
-- time: the state step itself reads the keeper, and the trigger below writes it.)

ALTER TABLE checkout_sessions ADD COLUMN paid_by TEXT;
ALTER TABLE checkout_sessions ADD COLUMN paid_at INTEGER;
ALTER TABLE payments ADD COLUMN attempt_number INTEGER;
ALTER TABLE payments ADD COLUMN review_reason TEXT;
CREATE INDEX checkout_sessions_by_reference ON checkout_sessions (reference);

UPDATE checkout_sessions SET
    paid_by = (SELECT p.id FROM payments AS p WHERE p.session_id = checkout_sessions.id
        AND p.paid_at IS NOT NULL ORDER BY p.paid_at, p.id LIMIT 1),
    paid_at = (SELECT MIN(p.paid_at) FROM payments AS p WHERE p.session_id = checkout_sessions.id)
WHERE EXISTS (SELECT 1 FROM payments AS p WHERE p.session_id = checkout_sessions.id
    AND p.paid_at IS NOT NULL);

UPDATE payments SET attempt_number = (SELECT COUNT(*) FROM payments AS e
    WHERE e.session_id = payments.session_id
    AND (e.created_at < payments.created_at
        OR (e.created_at = payments.created_at AND e.id <= payments.id)));

DROP TRIGGER payment_events;

CREATE TRIGGER payment_events AFTER UPDATE OF state, refunded_amount ON payments
WHEN NEW.state <> OLD.state OR NEW.refunded_amount <> OLD.refunded_amount
BEGIN
    UPDATE checkout_sessions SET paid_by = NEW.id, paid_at = NEW.paid_at
    WHERE id = NEW.session_id AND paid_by IS NULL
        AND NEW.paid_at IS NOT NULL AND OLD.paid_at IS NULL;
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
        'save_card', NEW.save_card,
        'redirected_at', NEW.redirected_at,
        'superseded_by', NEW.superseded_by,
        'superseded_at', NEW.superseded_at,
        'paid_at', NEW.paid_at,
        'surplus_due_at', NEW.surplus_due_at,
        'surplus_of', NEW.surplus_of,
        'surplus_failures', NEW.surplus_failures,
        'risk_rule', NEW.risk_rule,
        'attempt_number', NEW.attempt_number,
        'review_reason', NEW.review_reason
    )
    FROM (SELECT CASE NEW.state WHEN 'authorized' THEN 'payment.authorized'
        WHEN 'captured' THEN 'payment.captured' WHEN 'declined' THEN 'payment.declined'
        WHEN 'failed' THEN 'payment.failed' WHEN 'needs_review' THEN 'payment.needs_review'
        WHEN 'partially_refunded' THEN 'payment.refunded' WHEN 'refunded' THEN 'payment.refunded'
        WHEN 'voided' THEN 'payment.voided' END AS kind)
    WHERE kind IS NOT NULL;
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || lower(hex(randomblob(16))), 'session.completed', 'session', NEW.session_id, NEW.updated_at,
        json_object('session', json_object(
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
            'expires_at', s.expires_at,
            'paid_by', s.paid_by,
            'paid_at', s.paid_at
        ),
            -- The payment as its event just above wrote it.
            'payment', json((SELECT e.snapshot FROM events AS e WHERE e.object_id = NEW.id
                ORDER BY e.seq DESC LIMIT 1)))
    FROM checkout_sessions AS s
    WHERE s.id = NEW.session_id AND s.paid_by = NEW.id
        AND NEW.paid_at IS NOT NULL AND OLD.paid_at IS NULL;
END;
