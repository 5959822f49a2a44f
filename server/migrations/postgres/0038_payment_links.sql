-- Issue 48: payment links. A link makes an ordinary checkout session when a payer pays
-- (payments/links); each session and payment made through one carries `payment_link_id`.
-- Kept in step with ../sqlite/0038_payment_links.sql.
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
-- refused with `payment_link_unavailable`, and nothing is written.
--
-- Concurrency: the trigger of a limited link locks the link's row (FOR UPDATE) before it
-- counts, and the count is a statement of its own (a volatile function's statement sees what
-- was committed before it began): two payers at the last place take the row one after the
-- other, and the second counts the first's payment and is refused before any gateway call.

CREATE TABLE payment_links (
    id                  TEXT PRIMARY KEY CHECK (id LIKE 'plink_%'),
    public_id           TEXT NOT NULL UNIQUE CHECK (length(public_id) >= 22),
    description         TEXT NOT NULL CHECK (length(description) BETWEEN 1 AND 500),
    currency            TEXT NOT NULL CHECK (length(currency) = 3),
    amount              BIGINT CHECK (amount > 0),
    min_amount          BIGINT CHECK (min_amount > 0),
    max_amount          BIGINT,
    quantity_max        BIGINT CHECK (quantity_max BETWEEN 1 AND 1000),
    reusable            BIGINT NOT NULL CHECK (reusable IN (0, 1)),
    payment_limit       BIGINT CHECK (payment_limit >= 1),
    expires_at          BIGINT,
    ask_email           TEXT NOT NULL CHECK (ask_email IN ('off', 'optional', 'required')),
    ask_payer_reference TEXT NOT NULL
        CHECK (ask_payer_reference IN ('off', 'optional', 'required')),
    billing_fields      TEXT NOT NULL DEFAULT '',
    redirect_url        TEXT,
    plan_id             TEXT,
    active              BIGINT NOT NULL DEFAULT 1 CHECK (active IN (0, 1)),
    views               BIGINT NOT NULL DEFAULT 0,
    created_at          BIGINT NOT NULL,
    deactivated_at      BIGINT,
    CHECK ((amount IS NOT NULL AND min_amount IS NULL AND max_amount IS NULL)
        OR (amount IS NULL AND min_amount IS NOT NULL AND max_amount >= min_amount))
);
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

CREATE FUNCTION payment_link_place() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    link RECORD;
    taken BIGINT;
BEGIN
    SELECT active, expires_at, CASE WHEN reusable = 1 THEN payment_limit ELSE 1 END AS places
    INTO link FROM payment_links WHERE id = NEW.payment_link_id;
    IF link.active = 0 OR link.expires_at <= NEW.created_at THEN
        RAISE EXCEPTION 'payment_link_unavailable';
    END IF;
    IF link.places IS NOT NULL THEN
        PERFORM 1 FROM payment_links WHERE id = NEW.payment_link_id FOR UPDATE;
        SELECT COUNT(DISTINCT session_id) INTO taken FROM payments
        WHERE payment_link_id = NEW.payment_link_id AND session_id <> NEW.session_id
            AND state NOT IN ('declined', 'failed', 'blocked');
        IF taken >= link.places THEN
            RAISE EXCEPTION 'payment_link_unavailable';
        END IF;
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER payment_link_place BEFORE INSERT ON payments
FOR EACH ROW WHEN (NEW.payment_link_id IS NOT NULL)
EXECUTE FUNCTION payment_link_place();
