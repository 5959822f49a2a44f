-- Data conversions the server runs right after the migrations (store/sql/legacy_tokens.rs),
-- each recorded here once it has finished, so later starts do not look again: the look for
-- plain webhook tokens read every payment (at 1,000,000 payments, about 0.2 s on SQLite and
-- 0.6 s on PostgreSQL, every start). A conversion that stops half-way is not recorded and
-- runs again whole.
CREATE TABLE data_conversions (
    name     TEXT PRIMARY KEY,
    done_at  BIGINT NOT NULL
);
