-- Issue 37 item 7: a saved card keeps the billing address it was saved with, so paying with
-- it later is one click (the form asks for no address the card already has).
-- Kept in step with ../postgres/0021_saved_card_billing.sql.
--
-- payments.save_card_billing: the checked billing address of a payment whose shopper asked
--   to save the card (JSON, the fields of the gateway Address object); NULL otherwise.
-- saved_cards.billing_address: that address, copied when the card is saved from the payment;
--   NULL for a card saved before this migration (the form then asks for the address).

ALTER TABLE payments ADD COLUMN save_card_billing TEXT;
ALTER TABLE saved_cards ADD COLUMN billing_address TEXT;
