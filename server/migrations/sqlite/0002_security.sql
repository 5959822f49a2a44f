-- Security hardening.
-- The webhook path token is kept only as its SHA-256 (hex), like every other secret; tokens
-- written before this migration are hashed by the server right after it runs
-- (store/sql/legacy_tokens.rs).
ALTER TABLE payments RENAME COLUMN webhook_token TO webhook_token_hash;
-- A transaction id named by a return visit or a webhook while the status lookup could not
-- confirm it: kept apart from gateway_transaction_id, which only ever holds a confirmed id.
ALTER TABLE payments ADD COLUMN transaction_hint TEXT;
-- Whether the shopper asked to save the card: a token is saved only for such a payment.
ALTER TABLE payments ADD COLUMN save_card INTEGER NOT NULL DEFAULT 0;
