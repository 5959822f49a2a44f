-- The dashboard overview's rollup (kept in step with ../sqlite/0008_analytics.sql, which
-- explains it): payments counted and summed per 15-minute slot of creation and per outcome,
-- kept by a trigger in the same statement (hence transaction) as every insert and change.

CREATE TABLE payment_rollup (
    slot          BIGINT NOT NULL,
    currency      TEXT NOT NULL,
    state         TEXT NOT NULL,
    three_ds      BIGINT NOT NULL CHECK (three_ds IN (0, 1)),
    decline_code  TEXT NOT NULL,
    n             BIGINT NOT NULL,
    amount        BIGINT NOT NULL,
    captured      BIGINT NOT NULL,
    refunded      BIGINT NOT NULL,
    PRIMARY KEY (slot, currency, state, three_ds, decline_code)
);

INSERT INTO payment_rollup
SELECT created_at / 900000, currency, state,
       CASE WHEN kind IN ('payment_v2', 'authorization_v2') THEN 1 ELSE 0 END,
       COALESCE(decline_code, ''),
       COUNT(*), SUM(amount), SUM(captured_amount), SUM(refunded_amount)
FROM payments GROUP BY 1, 2, 3, 4, 5;

CREATE FUNCTION payment_rollup_add(p payments, sign BIGINT) RETURNS void LANGUAGE sql AS $$
    INSERT INTO payment_rollup VALUES (
        p.created_at / 900000, p.currency, p.state,
        CASE WHEN p.kind IN ('payment_v2', 'authorization_v2') THEN 1 ELSE 0 END,
        COALESCE(p.decline_code, ''),
        sign, sign * p.amount, sign * p.captured_amount, sign * p.refunded_amount)
    ON CONFLICT (slot, currency, state, three_ds, decline_code) DO UPDATE SET
        n = payment_rollup.n + excluded.n,
        amount = payment_rollup.amount + excluded.amount,
        captured = payment_rollup.captured + excluded.captured,
        refunded = payment_rollup.refunded + excluded.refunded;
$$;

CREATE FUNCTION payment_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        PERFORM payment_rollup_add(OLD, -1);
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        PERFORM payment_rollup_add(NEW, 1);
    END IF;
    RETURN NULL;
END;
$$;

CREATE TRIGGER payment_rollup_insert AFTER INSERT OR DELETE ON payments
FOR EACH ROW EXECUTE FUNCTION payment_rollup();

CREATE TRIGGER payment_rollup_update
AFTER UPDATE OF state, decline_code, amount, captured_amount, refunded_amount, currency, kind, created_at
ON payments FOR EACH ROW
WHEN (NEW.state IS DISTINCT FROM OLD.state OR NEW.decline_code IS DISTINCT FROM OLD.decline_code
    OR NEW.amount <> OLD.amount OR NEW.captured_amount <> OLD.captured_amount
    OR NEW.refunded_amount <> OLD.refunded_amount OR NEW.currency <> OLD.currency
    OR NEW.kind <> OLD.kind OR NEW.created_at <> OLD.created_at)
EXECUTE FUNCTION payment_rollup();

CREATE INDEX payments_by_state ON payments (state, created_at DESC, id DESC);
