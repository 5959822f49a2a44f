-- The dashboard's payments list filtered by card brand, newest first, pages by keyset
-- (created_at, id). The customer filter already has payments_by_customer (0001).
CREATE INDEX payments_by_brand ON payments (card_brand, created_at DESC, id DESC);
