-- Issue 47: a card that paid from an address, or under an e-mail, is no new card there.
--
-- The card-testing rules count the distinct cards an address and an e-mail tried; a shared
-- address (a carrier's NAT, an office, a family's router) carries many shoppers' cards, and a
-- shopper who retries a card that paid before is no card tester. A card tester's cards mostly
-- decline, shoppers' mostly pay: so `risk_counts` now leaves out of `client_cards` and
-- `email_cards` each card with a payment that paid (authorized, captured, partly or wholly
-- refunded) from that address or under that e-mail, found by the two partial indexes below
-- (their condition repeated word for word in the statement, so the planner uses them).
-- `risk_counts` is redefined with the new statement, word for word counts_sql() of
-- server/src/store/sql/risk.rs (a unit test checks it), planned once per connection as
-- before (0025). Kept in step with ../sqlite/0035_paid_cards_are_no_new_cards.sql.

CREATE INDEX payments_paid_cards_by_client ON payments (client_key, card_fingerprint)
    WHERE state IN ('authorized', 'captured', 'partially_refunded', 'refunded');
CREATE INDEX payments_paid_cards_by_email ON payments (shopper_email, card_fingerprint)
    WHERE state IN ('authorized', 'captured', 'partially_refunded', 'refunded');

CREATE OR REPLACE FUNCTION risk_counts(TEXT, TEXT, BIGINT, TEXT, BIGINT, TEXT, BIGINT, TEXT, BIGINT,
    TEXT, TEXT, TEXT, TEXT, TEXT)
RETURNS TABLE (blocked TEXT, session_cards BIGINT, session_declines BIGINT,
    card_declines BIGINT, client_cards BIGINT, customer_cards BIGINT, email_cards BIGINT)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
AS $body$
BEGIN
RETURN QUERY SELECT (SELECT kind FROM ( SELECT 1 AS rank, kind FROM risk_blocks WHERE kind = 'card' AND value = $2 UNION ALL SELECT 2, kind FROM risk_blocks WHERE kind = 'bin' AND value = $10 UNION ALL SELECT 3, kind FROM risk_blocks WHERE kind = 'address' AND range_start <= $11 AND range_end >= $11 UNION ALL SELECT 4, kind FROM risk_blocks WHERE kind = 'email' AND value = $12 UNION ALL SELECT 5, kind FROM risk_blocks WHERE kind = 'email_domain' AND value = $13 UNION ALL SELECT 6, kind FROM risk_blocks WHERE kind = 'customer' AND value = $14 ) AS hits ORDER BY rank LIMIT 1) AS blocked, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments WHERE session_id = $1 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked') AS session_cards, (SELECT COUNT(CASE WHEN state = 'declined' THEN 1 END) FROM payments WHERE session_id = $1) AS session_declines, (SELECT COUNT(*) FROM payments WHERE card_fingerprint = $2 AND created_at >= $3 AND state = 'declined') AS card_declines, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments t WHERE client_key = $4 AND created_at >= $5 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked' AND NOT EXISTS (SELECT 1 FROM payments c WHERE c.client_key = $4 AND c.card_fingerprint = t.card_fingerprint AND c.state IN ('authorized', 'captured', 'partially_refunded', 'refunded'))) AS client_cards, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments WHERE customer_id = $6 AND created_at >= $7 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked') AS customer_cards, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments t WHERE shopper_email = $8 AND created_at >= $9 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked' AND NOT EXISTS (SELECT 1 FROM payments c WHERE c.shopper_email = $8 AND c.card_fingerprint = t.card_fingerprint AND c.state IN ('authorized', 'captured', 'partially_refunded', 'refunded'))) AS email_cards;
END;
$body$;
