-- The dashboard overview's rollup (kept in step with ../postgres/0008_analytics.sql).
--
-- payment_rollup counts payments and sums their amounts per 15-minute slot of creation
-- (UTC: created_at / 900000; every present-day time zone's day border falls on such a slot)
-- and per outcome: currency, state, whether 3-D Secure was used, decline reason ('' for
-- none). Triggers keep it in the same statement, hence the same transaction, as every
-- insert and every change of those fields, so it is never out of step with payments: the
-- overview of 30 days reads a few thousand slots instead of every payment.
--
-- payments_by_state serves the review queue's count and the payments list's state filter
-- with its keyset order.

CREATE TABLE payment_rollup (
    slot          INTEGER NOT NULL,
    currency      TEXT NOT NULL,
    state         TEXT NOT NULL,
    three_ds      INTEGER NOT NULL CHECK (three_ds IN (0, 1)),
    decline_code  TEXT NOT NULL,
    n             INTEGER NOT NULL,
    amount        INTEGER NOT NULL,
    captured      INTEGER NOT NULL,
    refunded      INTEGER NOT NULL,
    PRIMARY KEY (slot, currency, state, three_ds, decline_code)
) STRICT, WITHOUT ROWID;

INSERT INTO payment_rollup
SELECT created_at / 900000, currency, state,
       kind IN ('payment_v2', 'authorization_v2'), COALESCE(decline_code, ''),
       COUNT(*), SUM(amount), SUM(captured_amount), SUM(refunded_amount)
FROM payments GROUP BY 1, 2, 3, 4, 5;

CREATE TRIGGER payment_rollup_insert AFTER INSERT ON payments
BEGIN
    INSERT INTO payment_rollup VALUES (
        NEW.created_at / 900000, NEW.currency, NEW.state,
        NEW.kind IN ('payment_v2', 'authorization_v2'), COALESCE(NEW.decline_code, ''),
        1, NEW.amount, NEW.captured_amount, NEW.refunded_amount)
    ON CONFLICT (slot, currency, state, three_ds, decline_code) DO UPDATE SET
        n = n + 1,
        amount = amount + excluded.amount,
        captured = captured + excluded.captured,
        refunded = refunded + excluded.refunded;
END;

CREATE TRIGGER payment_rollup_update
AFTER UPDATE OF state, decline_code, amount, captured_amount, refunded_amount, currency, kind, created_at
ON payments
WHEN NEW.state IS NOT OLD.state OR NEW.decline_code IS NOT OLD.decline_code
    OR NEW.amount <> OLD.amount OR NEW.captured_amount <> OLD.captured_amount
    OR NEW.refunded_amount <> OLD.refunded_amount OR NEW.currency <> OLD.currency
    OR NEW.kind <> OLD.kind OR NEW.created_at <> OLD.created_at
BEGIN
    UPDATE payment_rollup SET
        n = n - 1,
        amount = amount - OLD.amount,
        captured = captured - OLD.captured_amount,
        refunded = refunded - OLD.refunded_amount
    WHERE slot = OLD.created_at / 900000 AND currency = OLD.currency AND state = OLD.state
        AND three_ds = (OLD.kind IN ('payment_v2', 'authorization_v2'))
        AND decline_code = COALESCE(OLD.decline_code, '');
    INSERT INTO payment_rollup VALUES (
        NEW.created_at / 900000, NEW.currency, NEW.state,
        NEW.kind IN ('payment_v2', 'authorization_v2'), COALESCE(NEW.decline_code, ''),
        1, NEW.amount, NEW.captured_amount, NEW.refunded_amount)
    ON CONFLICT (slot, currency, state, three_ds, decline_code) DO UPDATE SET
        n = n + 1,
        amount = amount + excluded.amount,
        captured = captured + excluded.captured,
        refunded = refunded + excluded.refunded;
END;

CREATE TRIGGER payment_rollup_delete AFTER DELETE ON payments
BEGIN
    UPDATE payment_rollup SET
        n = n - 1,
        amount = amount - OLD.amount,
        captured = captured - OLD.captured_amount,
        refunded = refunded - OLD.refunded_amount
    WHERE slot = OLD.created_at / 900000 AND currency = OLD.currency AND state = OLD.state
        AND three_ds = (OLD.kind IN ('payment_v2', 'authorization_v2'))
        AND decline_code = COALESCE(OLD.decline_code, '');
END;

CREATE INDEX payments_by_state ON payments (state, created_at DESC, id DESC);
