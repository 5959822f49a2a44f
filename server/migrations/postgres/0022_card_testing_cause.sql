-- Issue 33: the card-testing alert keeps which trigger raised it.
-- Kept in step with ../sqlite/0022_card_testing_cause.sql, which explains the column.
-- The events' function is written again with it (and without 0019's repeated 'switched').

ALTER TABLE card_testing_alerts ADD COLUMN cause TEXT
    CHECK (cause IN ('blocked', 'declined', 'switched', 'surge'));

CREATE OR REPLACE FUNCTION card_testing_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || replace(gen_random_uuid()::text, '-', ''),
        CASE WHEN TG_OP = 'INSERT' THEN 'card_testing.suspected' ELSE 'card_testing.ended' END,
        'card_testing', NEW.id,
        CASE WHEN TG_OP = 'INSERT' THEN NEW.started_at ELSE NEW.ended_at END,
        jsonb_build_object(
            'id', NEW.id,
            'started_at', NEW.started_at,
            'last_seen_at', NEW.last_seen_at,
            'ended_at', NEW.ended_at,
            'tries', NEW.tries,
            'declined', NEW.declined,
            'blocked', NEW.blocked,
            'switched', NEW.switched,
            'window_seconds', NEW.window_seconds,
            'cause', NEW.cause
        )::TEXT);
    RETURN NULL;
END;
$$;
