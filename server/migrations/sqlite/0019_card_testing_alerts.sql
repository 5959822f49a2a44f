-- Issue 33, phase B: the card-testing alert ("attack mode", server/src/risk/attack.rs).
-- Kept in step with ../postgres/0019_card_testing_alerts.sql.
--
-- An alert is raised when, over the last RISK_ALERT_WINDOW_SECONDS, the tries of the store reach
-- RISK_ALERT_MIN_TRIES and the share of them blocked, declined, or made with another card than
-- an earlier try of their session reaches its threshold.
-- While one is open every instance judges tries by the tightened thresholds. It ends once the
-- trigger has not held for RISK_ALERT_HOLD_SECONDS.
--
-- started_at, last_seen_at (the last time the trigger held), ended_at: Unix milliseconds.
-- tries, declined, blocked, switched: the figures of the window when the alert was raised
--   (switched: tries whose session had tried another card before).
-- At most one alert is open: the partial unique index makes a raise by a second instance of the
-- same attack a no-op (INSERT … ON CONFLICT DO NOTHING).
--
-- Raising writes `card_testing.suspected` and ending writes `card_testing.ended`, each by a
-- trigger in the same statement.
--
-- payments_blocked_by_rule: "blocked tries by rule" on the overview over a range; partial, so
-- only a step to `blocked` maintains it.

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
        'window_seconds', NEW.window_seconds
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
        'window_seconds', NEW.window_seconds
    ));
END;
