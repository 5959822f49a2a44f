-- Issue 46: a subscription's status is written by the customer's and staff's actions and by
-- the reconciler's polls; a poll that read the gateway before a pause must not write its older
-- answer after it. Every write of the status or counters adds one to `version`, and a poll's
-- write applies only if the version is still the one it read before its gateway call
-- (store/sql/subscriptions.rs). Kept in step with ../sqlite/0030_subscription_versions.sql.
ALTER TABLE subscriptions ADD COLUMN version BIGINT NOT NULL DEFAULT 0 CHECK (version >= 0);
