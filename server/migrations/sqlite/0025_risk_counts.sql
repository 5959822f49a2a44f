-- Kept in step with ../postgres/0025_risk_counts.sql, which runs the card-testing check's
-- statement in a function that PostgreSQL plans once per connection instead of at every
-- pay. SQLite compiles a prepared statement once and never plans it again: nothing to do.
SELECT 1;
