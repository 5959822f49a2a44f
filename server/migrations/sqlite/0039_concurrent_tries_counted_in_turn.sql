-- Kept in step with ../postgres/0039_concurrent_tries_counted_in_turn.sql, which makes the
-- card-testing counts' function take a lock on the try's keys before counting, so that the pay
-- call can read them in the statement that records its payment. SQLite reads them in the same
-- script, after the insert, under the script's BEGIN IMMEDIATE: writers take turns already.
-- Nothing to do.
SELECT 1;
