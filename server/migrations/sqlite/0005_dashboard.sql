-- The merchant dashboard: staff accounts, their sessions and the audit log of what they did.
-- Times are Unix milliseconds. No password and no session token is stored: an argon2id PHC
-- string for the one, a SHA-256 hex digest for the other.
CREATE TABLE staff_users (
    id             TEXT PRIMARY KEY,
    email          TEXT NOT NULL UNIQUE CHECK (length(email) BETWEEN 3 AND 254),
    role           TEXT NOT NULL CHECK (role IN ('admin', 'operator', 'viewer')),
    password_hash  TEXT NOT NULL CHECK (password_hash LIKE '$argon2id$%'),
    failed_logins  INTEGER NOT NULL DEFAULT 0 CHECK (failed_logins >= 0),
    locked_until   INTEGER,
    disabled_at    INTEGER,
    created_at     INTEGER NOT NULL
);

CREATE TABLE staff_sessions (
    token_hash    TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
    staff_id      TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
    created_at    INTEGER NOT NULL,
    last_seen_at  INTEGER NOT NULL,
    expires_at    INTEGER NOT NULL
);
CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_id);

-- Append-only: the triggers refuse every change and deletion of a written row.
CREATE TABLE audit_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    at           INTEGER NOT NULL,
    staff_id     TEXT,
    staff_email  TEXT NOT NULL,
    action       TEXT NOT NULL,
    payment_id   TEXT,
    amount       INTEGER CHECK (amount >= 0),
    currency     TEXT CHECK (length(currency) = 3),
    address      TEXT,
    outcome      TEXT NOT NULL,
    detail       TEXT
);
CREATE INDEX audit_log_by_payment ON audit_log (payment_id, id) WHERE payment_id IS NOT NULL;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
