-- Kept in step with ../postgres/0024_rollup_shards.sql, which gives each connection a shard
-- of the rollup so that concurrent pays stop queueing on one row's lock. SQLite has one
-- writer at a time: no two pays ever wait on a row, only on the database, so its rollup
-- keeps one row a group and the reconciler's fold finds nothing to fold here.
SELECT 1;
