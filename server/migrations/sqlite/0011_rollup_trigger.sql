-- Kept in step with ../postgres/0011_rollup_trigger.sql, which writes the rollup's upserts
-- into its trigger function instead of a SQL helper that PostgreSQL planned at every call.
-- SQLite's triggers (0008) hold their statements already, compiled into each statement
-- that fires them: nothing to change here.
SELECT 1;
