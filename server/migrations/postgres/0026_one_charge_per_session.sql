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
-- Kept in step with ../sqlite/0026_one_charge_per_session.sql.
--
-- Concurrency: the keeper is written by a BEFORE trigger that updates the session row, so two
-- payments of one session paid at once take that row one after the other; the second finds
-- the keeper set, is marked surplus of it in its own row (so its `payment.captured` already
-- says so), and completes nothing. The claim insert reads the row FOR SHARE, so it waits for a
-- keeper being written and then sees it.

ALTER TABLE checkout_sessions ADD COLUMN paid_by TEXT;
ALTER TABLE checkout_sessions ADD COLUMN paid_at BIGINT;
ALTER TABLE payments ADD COLUMN attempt_number BIGINT;
ALTER TABLE payments ADD COLUMN review_reason TEXT;
CREATE INDEX checkout_sessions_by_reference ON checkout_sessions (reference);

UPDATE checkout_sessions AS s SET paid_by = k.id, paid_at = k.paid_at
FROM (SELECT DISTINCT ON (session_id) session_id, id, paid_at FROM payments
    WHERE paid_at IS NOT NULL ORDER BY session_id, paid_at, id) AS k
WHERE k.session_id = s.id;

UPDATE payments AS p SET attempt_number = n.attempt_number
FROM (SELECT id, row_number() OVER (PARTITION BY session_id ORDER BY created_at, id)
    AS attempt_number FROM payments) AS n
WHERE n.id = p.id;

CREATE FUNCTION payment_keeper() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE checkout_sessions SET paid_by = NEW.id, paid_at = NEW.paid_at
    WHERE id = NEW.session_id AND paid_by IS NULL;
    IF NOT FOUND AND NEW.kind <> 'subscription' THEN
        NEW.surplus_of := (SELECT paid_by FROM checkout_sessions WHERE id = NEW.session_id);
        NEW.surplus_due_at := COALESCE(NEW.surplus_due_at, NEW.updated_at);
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER payment_keeper BEFORE UPDATE OF state ON payments
FOR EACH ROW WHEN (NEW.paid_at IS NOT NULL AND OLD.paid_at IS NULL)
EXECUTE FUNCTION payment_keeper();

CREATE OR REPLACE FUNCTION payment_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), kind, 'payment', NEW.id,
        NEW.updated_at, row_to_json(NEW)::TEXT
    FROM (SELECT CASE NEW.state WHEN 'authorized' THEN 'payment.authorized'
        WHEN 'captured' THEN 'payment.captured' WHEN 'declined' THEN 'payment.declined'
        WHEN 'failed' THEN 'payment.failed' WHEN 'needs_review' THEN 'payment.needs_review'
        WHEN 'partially_refunded' THEN 'payment.refunded' WHEN 'refunded' THEN 'payment.refunded'
        WHEN 'voided' THEN 'payment.voided' END AS kind) AS k
    WHERE kind IS NOT NULL;
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    SELECT 'evt_' || replace(gen_random_uuid()::text, '-', ''), 'session.completed', 'session',
        NEW.session_id, NEW.updated_at,
        json_build_object('session', row_to_json(s), 'payment', row_to_json(NEW))::TEXT
    FROM checkout_sessions AS s
    WHERE s.id = NEW.session_id AND s.paid_by = NEW.id
        AND NEW.paid_at IS NOT NULL AND OLD.paid_at IS NULL;
    RETURN NULL;
END;
$$;
