-- Issue 33: the card-testing alert keeps which trigger raised it, now that a surge of tries
-- (RISK_ALERT_SURGE_*) can raise it as well as the shares of 0019.
-- Kept in step with ../postgres/0022_card_testing_cause.sql.
--
-- cause: 'blocked', 'declined', 'switched' (the shares) or 'surge'; NULL for alerts raised
-- before this migration, which did not keep it. The events' snapshots carry it, so the
-- triggers of 0019 are written again with it.

ALTER TABLE card_testing_alerts ADD COLUMN cause TEXT
    CHECK (cause IN ('blocked', 'declined', 'switched', 'surge'));

DROP TRIGGER card_testing_suspected_event;
DROP TRIGGER card_testing_ended_event;

CREATE TRIGGER card_testing_suspected_event AFTER INSERT ON card_testing_alerts
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || lower(hex(randomblob(16))), 'card_testing.suspected', 'card_testing', NEW.id, NEW.started_at, json_object(
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
    ));
END;

CREATE TRIGGER card_testing_ended_event AFTER UPDATE OF ended_at ON card_testing_alerts
WHEN OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL
BEGIN
    INSERT INTO events (id, type, object_type, object_id, created_at, snapshot)
    VALUES ('evt_' || lower(hex(randomblob(16))), 'card_testing.ended', 'card_testing', NEW.id, NEW.ended_at, json_object(
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
    ));
END;
