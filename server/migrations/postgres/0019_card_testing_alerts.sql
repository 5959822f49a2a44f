-- Issue 33, phase B: the card-testing alert ("attack mode", server/src/risk/attack.rs).
-- Kept in step with ../sqlite/0019_card_testing_alerts.sql, which explains the columns.

CREATE TABLE card_testing_alerts (
    id             TEXT PRIMARY KEY,
    started_at     BIGINT NOT NULL,
    last_seen_at   BIGINT NOT NULL,
    ended_at       BIGINT,
    tries          BIGINT NOT NULL CHECK (tries >= 0),
    declined       BIGINT NOT NULL CHECK (declined >= 0),
    blocked        BIGINT NOT NULL CHECK (blocked >= 0),
    switched       BIGINT NOT NULL CHECK (switched >= 0),
    window_seconds BIGINT NOT NULL CHECK (window_seconds > 0)
);

CREATE UNIQUE INDEX card_testing_alerts_one_open ON card_testing_alerts ((ended_at IS NULL))
    WHERE ended_at IS NULL;
CREATE INDEX card_testing_alerts_newest ON card_testing_alerts (started_at DESC);

CREATE INDEX payments_blocked_by_rule ON payments (created_at, risk_rule) WHERE state = 'blocked';

CREATE FUNCTION card_testing_event() RETURNS trigger LANGUAGE plpgsql AS $$
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
        'switched', NEW.switched,
            'window_seconds', NEW.window_seconds
        )::TEXT);
    RETURN NULL;
END;
$$;

CREATE TRIGGER card_testing_suspected_event AFTER INSERT ON card_testing_alerts
FOR EACH ROW EXECUTE FUNCTION card_testing_event();

CREATE TRIGGER card_testing_ended_event AFTER UPDATE OF ended_at ON card_testing_alerts
FOR EACH ROW WHEN (OLD.ended_at IS NULL AND NEW.ended_at IS NOT NULL)
EXECUTE FUNCTION card_testing_event();
