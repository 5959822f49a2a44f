-- The dashboard's subscription and webhook pages (issue 22, pages 4 and 5).
-- The audit log names the object an action touched when it is not a payment (a subscription,
-- a webhook endpoint, an event); `payment_id` keeps naming payments as before.
ALTER TABLE audit_log ADD COLUMN object_type TEXT;
ALTER TABLE audit_log ADD COLUMN object_id TEXT;
CREATE INDEX audit_log_by_object ON audit_log (object_id, id) WHERE object_id IS NOT NULL;

-- An event's page lists every attempt to deliver it.
CREATE INDEX delivery_attempts_by_event ON delivery_attempts (event_seq, id);
