-- Issue 32: a shopper who left a 3-D Secure attempt at the bank may pay again at once.
-- Kept in step with ../postgres/0012_superseded_attempts.sql.
--
-- redirected_at: the 3-D Secure start of this payment was answered with a redirect, so the
--   shopper was sent to the bank and no gateway call of ours is in flight for it any more
--   (payments/supersede.rs may supersede it).
-- superseded_by, superseded_at: a later payment of the same session took its place; it no
--   longer holds the session's pay claim.
-- paid_at: when it first became authorized or captured (the surplus rule keeps the session's
--   earliest; ties by id).
-- surplus_due_at: work of the surplus rule is due (payments/surplus.rs): set in the same
--   statement as a step to authorized/captured when the session has another payment, kept
--   until the check found nothing or the surplus was reversed; the reconciler takes it over
--   from any process that died in between.
-- surplus_of: the payment that keeps the session's charge; this one is reversed.
-- surplus_failures: reversals the gateway refused or left unknown so far.
ALTER TABLE payments ADD COLUMN redirected_at INTEGER;
ALTER TABLE payments ADD COLUMN superseded_by TEXT;
ALTER TABLE payments ADD COLUMN superseded_at INTEGER;
ALTER TABLE payments ADD COLUMN paid_at INTEGER;
ALTER TABLE payments ADD COLUMN surplus_due_at INTEGER;
ALTER TABLE payments ADD COLUMN surplus_of TEXT;
ALTER TABLE payments ADD COLUMN surplus_failures INTEGER NOT NULL DEFAULT 0;

UPDATE payments SET paid_at = COALESCE(pending_since, created_at)
    WHERE state IN ('authorized', 'captured', 'partially_refunded', 'refunded', 'voided');

CREATE INDEX payments_surplus_due ON payments (surplus_due_at) WHERE surplus_due_at IS NOT NULL;
