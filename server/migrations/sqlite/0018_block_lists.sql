-- Issue 33, item 3: block lists (server/src/risk/blocks.rs), and item 1's saved cards.
-- Kept in step with ../postgres/0018_block_lists.sql.
--
-- risk_blocks: one entry a row, unique by (kind, value).
--   kind: card (a card fingerprint, taken from a payment: never a card number), bin (the
--   first six digits), address (an IPv4 or IPv6 address or CIDR range), email, email_domain,
--   customer (a customer id).
--   value: normalised (e-mails and domains lower-case, ranges canonical CIDR `a.b.c.d/n` or
--   `x:y::/n`, a single address as /32 or /128).
--   range_start, range_end: for kind address only, the first and last address of the range
--   as 32 lower-case hex digits, an IPv4 one mapped into IPv6 (::ffff:a.b.c.d), so one text
--   comparison `range_start <= $address AND range_end >= $address` matches on both backends.
--   payment_id: the payment an entry was made from ("block this card", "block this address"),
--   so a card entry can be shown by the payment's brand and last four, never by its fingerprint.
--   added_by: the staff e-mail, or `api`.
--
-- The pay call reads the entries matching its try in the same statement as the velocity
-- counts (store/sql/risk.rs): the unique (kind, value) index serves every kind but address,
-- risk_blocks_by_range serves that one.
--
-- saved_cards.card_fingerprint: the fingerprint of the payment the card was saved from, so a
-- saved card's tries are judged by the block list of cards and the declines per card. A
-- saved-card payment now records it too; the two card-count indexes of 0016 are rebuilt to
-- leave saved-card payments out (the rules count only new cards typed), so the insert of such
-- a payment still maintains none of them.

CREATE TABLE risk_blocks (
    id          TEXT PRIMARY KEY,
    kind        TEXT NOT NULL CHECK (kind IN ('card', 'bin', 'address', 'email', 'email_domain', 'customer')),
    value       TEXT NOT NULL CHECK (length(value) BETWEEN 1 AND 320),
    range_start TEXT CHECK (length(range_start) = 32),
    range_end   TEXT CHECK (length(range_end) = 32),
    note        TEXT CHECK (length(note) <= 500),
    payment_id  TEXT,
    added_by    TEXT NOT NULL,
    created_at  INTEGER NOT NULL,
    UNIQUE (kind, value),
    CHECK ((kind = 'address') = (range_start IS NOT NULL AND range_end IS NOT NULL))
);

CREATE INDEX risk_blocks_by_range ON risk_blocks (range_start, range_end) WHERE kind = 'address';
CREATE INDEX risk_blocks_by_age ON risk_blocks (created_at, id);

ALTER TABLE saved_cards ADD COLUMN card_fingerprint TEXT CHECK (length(card_fingerprint) = 43);

DROP INDEX payments_cards_by_client;
DROP INDEX payments_cards_by_email;
CREATE INDEX payments_cards_by_client ON payments (client_key, created_at, card_fingerprint)
    WHERE card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked';
CREATE INDEX payments_cards_by_email ON payments (shopper_email, created_at, card_fingerprint)
    WHERE card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked';
