-- Issue 47: a card that paid from an address, or under an e-mail, is no new card there
-- (server/src/store/sql/risk.rs leaves such cards out of the address's and the e-mail's
-- counts). The two partial indexes find them; their condition is repeated word for word in
-- the statement. Kept in step with ../postgres/0035_paid_cards_are_no_new_cards.sql, which
-- also redefines the function PostgreSQL runs the statement in.

CREATE INDEX payments_paid_cards_by_client ON payments (client_key, card_fingerprint)
    WHERE state IN ('authorized', 'captured', 'partially_refunded', 'refunded');
CREATE INDEX payments_paid_cards_by_email ON payments (shopper_email, card_fingerprint)
    WHERE state IN ('authorized', 'captured', 'partially_refunded', 'refunded');
