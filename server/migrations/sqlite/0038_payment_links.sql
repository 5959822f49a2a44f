-- Issue 48: payment links. A link makes an ordinary checkout session when a payer pays
-- (payments/links); each session and payment made through one carries `payment_link_id`.
-- Kept in step with ../postgres/0038_payment_links.sql.
--
-- payment_links: `id` (`plink_…`) is the merchant API's; `public_id` (43 URL-safe characters,
--   256 random bits) is the payer's, in `/pay/{public_id}`. The amount is fixed (`amount`) or
--   the payer's within `min_amount`..`max_amount`; `quantity_max` lets the payer buy up to that
--   many (amount × quantity). `reusable` 0 is one payment only; `payment_limit` caps a reusable
--   link. `ask_email` / `ask_payer_reference`: off, optional or required; `billing_fields`:
--   the billing address fields the form asks for, comma-separated. After paying: the hosted
--   receipt, or `redirect_url`. `plan_id`: a subscription sign-up instead of a one-off payment.
--   `views`: how often its page was shown (figures).
-- checkout_sessions.payment_link_id, payer_reference, receipt_id: the link a session was made
--   from, the payer's own reference, and the unguessable id of its receipt page.
-- payments.payment_link_id: the session's link, copied at insert (store/sql/new_payment.rs),
--   so the payment's events and list filter carry it without a join.
--
-- A link's places (one for a one-payment link, `payment_limit` for a limited reusable one)
-- are taken by the insert of a payment (before its gateway call), in the insert's own
-- statement (the trigger below): a session holds a place while one of its payments of the
-- link is not declined, failed or blocked, so a failed payment frees its place. A payment of a
-- deactivated or expired link, or of a link whose places are all held by other sessions, is
-- refused with `payment_link_unavailable`, and nothing is written. SQLite has one writer at a
-- time: the count and the insert cannot interleave with another insert.

CREATE TABLE payment_links (
    id                  TEXT PRIMARY KEY CHECK (id LIKE 'plink_%'),
    public_id           TEXT NOT NULL UNIQUE CHECK (length(public_id) >= 22),
    description         TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 500),
    currency            TEXT NOT NULL CHECK (length(currency) = 3),
    amount              INTEGER CHECK (amount > 0),
    min_amount          INTEGER CHECK (min_amount > 0),
    max_amount          INTEGER,
    quantity_max        INTEGER CHECK (quantity_max BETWEEN 1 AND 1000),
    reusable            INTEGER NOT NULL CHECK (reusable IN (0, 1)),
    payment_limit       INTEGER CHECK (payment_limit >= 1),
    expires_at          INTEGER,
    ask_email           TEXT NOT NULL CHECK (ask_email IN ('off', 'optional', 'required')),
    ask_payer_reference TEXT NOT NULL
        CHECK (ask_payer_reference IN ('off', 'optional', 'required')),
    billing_fields      TEXT NOT NULL DEFAULT '',
    redirect_url        TEXT,
    plan_id             TEXT,
    active              INTEGER NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    views               INTEGER NOT NULL DEFAULT 0,
    created_at          INTEGER NOT NULL,
    deactivated_at      INTEGER,
    CHECK ((amount IS NOT NULL AND min_amount IS NULL AND max_amount IS NULL)
        OR (amount IS NULL AND min_amount IS NOT NULL AND max_amount >= min_amount))
) STRICT;
CREATE INDEX payment_links_newest ON payment_links (created_at DESC, id DESC);

ALTER TABLE checkout_sessions ADD COLUMN payment_link_id TEXT REFERENCES payment_links (id);
ALTER TABLE checkout_sessions ADD COLUMN payer_reference TEXT;
ALTER TABLE checkout_sessions ADD COLUMN receipt_id TEXT;
CREATE UNIQUE INDEX checkout_sessions_by_receipt ON checkout_sessions (receipt_id)
    WHERE receipt_id IS NOT NULL;
CREATE INDEX checkout_sessions_by_link ON checkout_sessions (payment_link_id)
    WHERE payment_link_id IS NOT NULL;
ALTER TABLE payments ADD COLUMN payment_link_id TEXT REFERENCES payment_links (id);
CREATE INDEX payments_by_link ON payments (payment_link_id, created_at DESC)
    WHERE payment_link_id IS NOT NULL;

CREATE TRIGGER payment_link_place BEFORE INSERT ON payments
WHEN NEW.payment_link_id IS NOT NULL
BEGIN
    SELECT RAISE(ABORT, 'payment_link_unavailable')
    FROM payment_links AS l WHERE l.id = NEW.payment_link_id AND (l.active = 0
        OR (l.expires_at IS NOT NULL AND l.expires_at <= NEW.created_at)
        OR (CASE WHEN l.reusable = 1 THEN l.payment_limit ELSE 1 END) <= (
            SELECT COUNT(DISTINCT p.session_id) FROM payments AS p
            WHERE p.payment_link_id = l.id AND p.session_id <> NEW.session_id
                AND p.state NOT IN ('declined', 'failed', 'blocked')));
END;

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
        'review_reason', NEW.review_reason,
        'payment_link_id', NEW.payment_link_id
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
            'paid_at', s.paid_at,
            'payment_link_id', s.payment_link_id,
            'payer_reference', s.payer_reference,
            'receipt_id', s.receipt_id
        ),
            -- The payment as its event just above wrote it.
            'payment', json((SELECT e.snapshot FROM events AS e WHERE e.object_id = NEW.id
                ORDER BY e.seq DESC LIMIT 1)))
    FROM checkout_sessions AS s
    WHERE s.id = NEW.session_id AND s.paid_by = NEW.id
        AND NEW.paid_at IS NOT NULL AND OLD.paid_at IS NULL;
END;
