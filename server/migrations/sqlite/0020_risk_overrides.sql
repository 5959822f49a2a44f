-- Issue 33, phase B: card-testing thresholds an admin set in the dashboard (`/risk`).
-- Kept in step with ../postgres/0020_risk_overrides.sql.
--
-- rule: a rule's stored name (`cards_per_session`, …, server/src/risk/rules.rs).
-- threshold: what the admin set; it wins over the configuration file's value (RISK_MAX_*)
--   until reset (the row deleted). Every instance reads the table on its reconciler pass;
--   the instance that took the change applies it at once.
-- set_by, set_at: who and when (Unix milliseconds); the audit log keeps the history.

CREATE TABLE risk_overrides (
    rule      TEXT PRIMARY KEY,
    threshold BIGINT NOT NULL CHECK (threshold BETWEEN 1 AND 100000),
    set_by    TEXT NOT NULL,
    set_at    BIGINT NOT NULL
);
