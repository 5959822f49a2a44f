-- The merchant dashboard: staff accounts, their sessions and the audit log of what they did.
-- Times are Unix milliseconds. No password and no session token is stored: an argon2id PHC
-- string for the one, a SHA-256 hex digest for the other.
CREATE TABLE staff_users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE CHECK (length(email) BETWEEN 3 AND 254),
    role           TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'viewer')),
    password_hash  TEXT NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
    failed_logins  BIGINT NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
    locked_until   BIGINT,
    disabled_at    BIGINT,
    created_at     BIGINT NOT NULL
);

CREATE TABLE staff_sessions (
    token_hash    TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
    staff_id      TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
    created_at    BIGINT NOT NULL,
    last_seen_at  BIGINT NOT NULL,
    expires_at    BIGINT NOT NULL
);
CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_id);

-- Append-only: the trigger refuses every change and deletion of a written row (TRUNCATE too).
CREATE TABLE audit_log (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at           BIGINT NOT NULL,
    staff_id     TEXT,
    staff_email  TEXT NOT NULL,
    action       TEXT NOT NULL,
    payment_id   TEXT,
    amount       BIGINT CHECK (amount >= 0),
    currency     TEXT CHECK (length(currency) = 3),
    address      TEXT,
    outcome      TEXT NOT NULL,
    detail       TEXT
);
CREATE INDEX audit_log_by_payment ON audit_log (payment_id, id) WHERE payment_id IS NOT NULL;

CREATE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only';
END;
$$;
CREATE TRIGGER audit_log_no_change BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
