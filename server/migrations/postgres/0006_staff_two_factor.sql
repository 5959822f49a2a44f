-- Two-factor sign-in for staff (RFC 6238 TOTP, issue 22). An account's secret is kept as
-- base32 (a code must be computed from it); `totp_pending_secret` is the one offered on the
-- account page until a valid code confirms it; `totp_last_step` is the time step of the last
-- accepted code, so no code is accepted twice. Recovery codes are kept as argon2id PHC
-- strings, found by their public first group, each spent once. A password checked for an
-- account with 2FA opens only a login challenge (a hashed token, minutes long), never a
-- session.
ALTER TABLE staff_users ADD COLUMN totp_secret TEXT;
ALTER TABLE staff_users ADD COLUMN totp_pending_secret TEXT;
ALTER TABLE staff_users ADD COLUMN totp_last_step BIGINT CHECK (totp_last_step >= 0);

CREATE TABLE staff_recovery_codes (
    staff_id   TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
    lookup     TEXT NOT NULL CHECK (length(lookup) = 4),
    code_hash  TEXT NOT NULL CHECK (code_hash LIKE '$argon2id$%'),
    used_at    BIGINT,
    PRIMARY KEY (staff_id, lookup)
);

CREATE TABLE staff_login_challenges (
    token_hash  TEXT PRIMARY KEY CHECK (length(token_hash) = 64),
    staff_id    TEXT NOT NULL REFERENCES staff_users (id) ON DELETE CASCADE,
    expires_at  BIGINT NOT NULL
);
CREATE INDEX staff_login_challenges_by_staff ON staff_login_challenges (staff_id);
