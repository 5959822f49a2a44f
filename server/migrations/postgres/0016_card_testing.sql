-- Issue 33, phase A: the card-testing defence (server/src/risk/).
-- Kept in step with ../sqlite/0016_card_testing.sql.
--
-- card_fingerprint: HMAC-SHA256 of the digits of the typed card number under
--   CARD_FINGERPRINT_KEY, base64url without padding (43 characters; risk/fingerprint.rs).
--   A keyed hash only: the same card gives the same value under one key, and nothing of the
--   number can be read back.
--   NULL for saved-card payments and for payments recorded before this migration.
-- client_key: the address of the shopper as the pay rate limit keys it (an IPv4 address, or
--   the /64 of an IPv6 one), 32 hex digits.
-- shopper_email: the e-mail of the session, lower-cased, when it has one.
-- risk_rule: the rule that blocked the try (state 'blocked', never sent to the gateway).
--
-- The velocity rules read these in one statement per pay call (store/sql/risk.rs). The
-- indexes are partial: the two card indexes take only typed-card tries that were not blocked
-- (what the rules count), and the declines index takes a row only when it becomes declined,
-- so the insert of a saved-card payment by the pay call maintains none of them. Rules by
-- session and by customer use payments_by_session and payments_by_customer (0001).
--
-- A step to 'blocked' writes its `payment.blocked` event in the same statement, with the rule,
-- by a trigger of its own (the payment_events trigger of 0003 maps no event to it).

ALTER TABLE payments ADD COLUMN card_fingerprint TEXT CHECK (length(card_fingerprint) = 43);
ALTER TABLE payments ADD COLUMN client_key TEXT CHECK (length(client_key) = 32);
ALTER TABLE payments ADD COLUMN shopper_email TEXT;
ALTER TABLE payments ADD COLUMN risk_rule TEXT;

CREATE INDEX payments_cards_by_client ON payments (client_key, created_at, card_fingerprint)
    WHERE card_fingerprint IS NOT NULL AND state <> 'blocked';
CREATE INDEX payments_cards_by_email ON payments (shopper_email, created_at, card_fingerprint)
    WHERE card_fingerprint IS NOT NULL AND state <> 'blocked';
CREATE INDEX payments_declines_by_card ON payments (card_fingerprint, created_at)
    WHERE state = 'declined';

CREATE FUNCTION payment_blocked_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || replace(gen_random_uuid()::text, '-', ''), 'payment.blocked', 'payment', NEW.id, NEW.updated_at, jsonb_build_object(
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
        'risk_rule', NEW.risk_rule
    )::TEXT);
    RETURN NULL;
END;
$$;

CREATE TRIGGER payment_blocked_event AFTER UPDATE OF state ON payments
FOR EACH ROW WHEN (NEW.state = 'blocked' AND OLD.state <> 'blocked')
EXECUTE FUNCTION payment_blocked_event();
