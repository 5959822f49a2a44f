-- Issue 33: a saved card keeps the first six digits of the payment it was saved from, so a
-- payment with it is judged by the BIN block list like a typed card, and records its BIN.
-- Kept in step with ../sqlite/0023_saved_card_bin.sql.
--
-- saved_cards.card_bin: copied from the payment when the card is saved (store/sql/cards.rs).
-- Cards saved before: taken from the latest typed payment of the same customer with the same
-- brand, last four and expiry (the payment they were saved from, or one with the same card);
-- NULL when there is none any more.
-- saved_cards.card_fingerprint (0018) of a card saved before 0018 is filled the same way, from
-- a typed payment that recorded one (payments since 0016), so the card block list and the
-- declines per card see those cards too.

ALTER TABLE saved_cards ADD COLUMN card_bin TEXT
    CHECK (length(card_bin) = 6);

UPDATE saved_cards SET card_bin = (
    SELECT p.card_bin FROM payments p
    WHERE p.customer_id = saved_cards.customer_id AND p.saved_card_id IS NULL
        AND p.card_bin IS NOT NULL AND p.card_brand = saved_cards.brand
        AND p.card_last4 = saved_cards.last4 AND p.card_expiry_month = saved_cards.expiry_month
        AND p.card_expiry_year = saved_cards.expiry_year
    ORDER BY p.created_at DESC LIMIT 1);

UPDATE saved_cards SET card_fingerprint = (
    SELECT p.card_fingerprint FROM payments p
    WHERE p.customer_id = saved_cards.customer_id AND p.saved_card_id IS NULL
        AND p.card_fingerprint IS NOT NULL AND p.card_brand = saved_cards.brand
        AND p.card_last4 = saved_cards.last4 AND p.card_expiry_month = saved_cards.expiry_month
        AND p.card_expiry_year = saved_cards.expiry_year
    ORDER BY p.created_at DESC LIMIT 1)
WHERE card_fingerprint IS NULL;
