-- Issue 34: the rollup without a hot row. Every payment of a quarter hour counted itself in the
-- same few rows (its slot's `pending`, then `captured`), so concurrent pays queued on those
-- rows' locks until each other's commit: with 8 shoppers at once the rollup's upsert waited
-- 0.40 ms on average (0.04 ms alone), and the wait grows with the shoppers.
--
-- Each connection now counts in a shard of its own (its backend's process id modulo 16), so
-- two pays lock the same row only when their connections share a shard. Readers already
-- SUM over every row of a slot, so they read the shards together and need no change; the
-- reconciler folds the shards of past slots back into shard 0 (`fold_rollup`), in one
-- statement that moves counts without changing any sum, so the dashboard is never out of
-- step and reads at most one row a group for all but the last slots.
-- Kept in step with ../sqlite/0024_rollup_shards.sql (one writer: nothing to shard).

ALTER TABLE payment_rollup ADD COLUMN shard SMALLINT NOT NULL DEFAULT 0;
ALTER TABLE payment_rollup DROP CONSTRAINT payment_rollup_pkey;
ALTER TABLE payment_rollup ADD PRIMARY KEY (slot, currency, state, three_ds, decline_code, shard);
-- The rows the fold has yet to move: a few slots' worth, so a pass finds them without
-- reading the rollup's past.
CREATE INDEX payment_rollup_shards ON payment_rollup (slot) WHERE shard <> 0;

CREATE OR REPLACE FUNCTION payment_rollup() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    own_shard SMALLINT := pg_backend_pid() % 16;
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        INSERT INTO payment_rollup
            (slot, currency, state, three_ds, decline_code, n, amount, captured, refunded, shard)
        VALUES (
            OLD.created_at / 900000, OLD.currency, OLD.state,
            CASE WHEN OLD.kind IN ('payment_v2', 'authorization_v2') THEN 1 ELSE 0 END,
            COALESCE(OLD.decline_code, ''),
            -1, -OLD.amount, -OLD.captured_amount, -OLD.refunded_amount, own_shard)
        ON CONFLICT (slot, currency, state, three_ds, decline_code, shard) DO UPDATE SET
            n = payment_rollup.n + excluded.n,
            amount = payment_rollup.amount + excluded.amount,
            captured = payment_rollup.captured + excluded.captured,
            refunded = payment_rollup.refunded + excluded.refunded;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO payment_rollup
            (slot, currency, state, three_ds, decline_code, n, amount, captured, refunded, shard)
        VALUES (
            NEW.created_at / 900000, NEW.currency, NEW.state,
            CASE WHEN NEW.kind IN ('payment_v2', 'authorization_v2') THEN 1 ELSE 0 END,
            COALESCE(NEW.decline_code, ''),
            1, NEW.amount, NEW.captured_amount, NEW.refunded_amount, own_shard)
        ON CONFLICT (slot, currency, state, three_ds, decline_code, shard) DO UPDATE SET
            n = payment_rollup.n + excluded.n,
            amount = payment_rollup.amount + excluded.amount,
            captured = payment_rollup.captured + excluded.captured,
            refunded = payment_rollup.refunded + excluded.refunded;
    END IF;
    RETURN NULL;
END;
$$;
