-- Issue 47: the pay call reads the card-testing counts in the round trip that records its
-- payment (server/src/store/sql/counted_claim.rs): the claim-and-insert statement joins
-- risk_counts laterally to the inserted row. One statement reads on one snapshot, which would
-- see neither a concurrent try nor the try's own row; so the function is now VOLATILE (each of
-- its statements reads on a fresh snapshot) and, before counting, takes a transaction-scoped
-- advisory lock on each key of the try that a concurrent try changes the count of: the
-- address key ($4), the customer ($6), the e-mail ($8), each when given (a saved card's try
-- gives none), in ascending order so that two tries never wait on each other in a circle. A
-- lock is granted once its previous holder's transaction, which recorded that try, has
-- committed; the count that follows sees it. The locks go at the caller's commit: at once for
-- a call on its own, with the payment's insert for the pay's statement.
-- The counting statement is unchanged, word for word counts_sql() of
-- server/src/store/sql/risk.rs (a unit test checks it). Kept in step with
-- ../sqlite/0039_concurrent_tries_counted_in_turn.sql.

CREATE OR REPLACE FUNCTION risk_counts(TEXT, TEXT, BIGINT, TEXT, BIGINT, TEXT, BIGINT, TEXT, BIGINT,
    TEXT, TEXT, TEXT, TEXT, TEXT)
RETURNS TABLE (blocked TEXT, session_cards BIGINT, session_declines BIGINT,
    card_declines BIGINT, client_cards BIGINT, customer_cards BIGINT, email_cards BIGINT)
LANGUAGE plpgsql VOLATILE
SET plan_cache_mode = force_generic_plan
AS $body$
DECLARE
    lock_key BIGINT;
BEGIN
FOR lock_key IN SELECT DISTINCT hashtextextended(try_key, 0)
    FROM unnest(ARRAY['risk client ' || $4, 'risk customer ' || $6, 'risk email ' || $8])
        AS try_key
    WHERE try_key IS NOT NULL ORDER BY 1
LOOP
    PERFORM pg_advisory_xact_lock(lock_key);
END LOOP;
RETURN QUERY SELECT (SELECT kind FROM ( SELECT 1 AS rank, kind FROM risk_blocks WHERE kind = 'card' AND value = $2 UNION ALL SELECT 2, kind FROM risk_blocks WHERE kind = 'bin' AND value = $10 UNION ALL SELECT 3, kind FROM risk_blocks WHERE kind = 'address' AND range_start <= $11 AND range_end >= $11 UNION ALL SELECT 4, kind FROM risk_blocks WHERE kind = 'email' AND value = $12 UNION ALL SELECT 5, kind FROM risk_blocks WHERE kind = 'email_domain' AND value = $13 UNION ALL SELECT 6, kind FROM risk_blocks WHERE kind = 'customer' AND value = $14 ) AS hits ORDER BY rank LIMIT 1) AS blocked, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments WHERE session_id = $1 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked') AS session_cards, (SELECT COUNT(CASE WHEN state = 'declined' THEN 1 END) FROM payments WHERE session_id = $1) AS session_declines, (SELECT COUNT(*) FROM payments WHERE card_fingerprint = $2 AND created_at >= $3 AND state = 'declined') AS card_declines, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments t WHERE client_key = $4 AND created_at >= $5 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked' AND NOT EXISTS (SELECT 1 FROM payments c WHERE c.client_key = $4 AND c.card_fingerprint = t.card_fingerprint AND c.state IN ('authorized', 'captured', 'partially_refunded', 'refunded'))) AS client_cards, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments WHERE customer_id = $6 AND created_at >= $7 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked') AS customer_cards, (SELECT COUNT(DISTINCT card_fingerprint) FROM payments t WHERE shopper_email = $8 AND created_at >= $9 AND card_fingerprint IS NOT NULL AND saved_card_id IS NULL AND state <> 'blocked' AND NOT EXISTS (SELECT 1 FROM payments c WHERE c.shopper_email = $8 AND c.card_fingerprint = t.card_fingerprint AND c.state IN ('authorized', 'captured', 'partially_refunded', 'refunded'))) AS email_cards;
END;
$body$;
