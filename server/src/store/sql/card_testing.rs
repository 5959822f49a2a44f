//! [`CardTestingStore`]: the alert's tally, its one open row and the blocked tries by rule; the
//! same SQL on both backends (migrations 0019 and 0022).
//!
//! The tally and the surge's recent tries read the window's payments through `payments_newest`
//! (creation time), leaving out tries already refused ([`FRESH`]) and counting a checkout's
//! card once ([`TRY`]); a checkout that paid adds no decline, block or change of card
//! ([`unpaid`]). The day's busiest quarter hour reads the dashboard's `payment_rollup`, a
//! day being 96 rows per outcome rather than every payment; the counts
//! by rule read `payments_blocked_by_rule`, partial on `state = 'blocked'`, whose condition is
//! repeated word for word so both planners use it.

use std::time::Duration;

use async_trait::async_trait;
use serde::Deserialize;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::OffsetDateTime;

use super::analytics::SLOT_MS;
use super::codec::{int, ms, time, time_opt, unsigned};
use super::risk_counts::PAID;
use super::{Dialect, SqlStore};
use crate::store::card_testing::{
    AlertCause, CardTestingAlert, CardTestingStore, RuleCount, TryPace, TryTally,
};
use crate::store::error::{StoreError, StoreResult};

/// Columns of [`AlertRow`].
const ALERT_COLUMNS: &str = "id, started_at, last_seen_at, ended_at, tries, declined, blocked, \
     switched, window_seconds, cause";

/// Whether the try `p` is news to the alert: not one the block list refused (the shop already
/// knows that traffic), and not one from a checkout a rule had already refused before it (its
/// bot is already stopped). Only these raise, hold or refresh the alert, so a block-listed bot
/// cannot keep shoppers under the tightened limits.
const FRESH: &str = "NOT (p.state = 'blocked' AND COALESCE(p.risk_rule, '') LIKE 'blocklist%') \
     AND NOT EXISTS (SELECT 1 FROM payments r WHERE r.session_id = p.session_id \
     AND r.state = 'blocked' AND r.created_at < p.created_at)";

/// One try as the alert counts it: a checkout's card (a card tried again in one checkout, a
/// shopper's retyped expiry or code, is one try, not one row each).
const TRY: &str = "p.session_id || ':' || COALESCE(p.card_fingerprint, p.saved_card_id, p.id)";

/// Whether the try `p`'s checkout has not paid: a checkout that paid is a shopper's, whatever
/// its earlier tries did, so its declines, blocks and changes of card are no share of an
/// attack (issue 47: the alert weighs by outcome, not by rows).
fn unpaid() -> String {
    format!("NOT EXISTS (SELECT 1 FROM payments w WHERE w.session_id = p.session_id AND w.{PAID})")
}

/// Whether the try `p` changed card: an earlier try of its checkout had another card.
const SWITCHED: &str = "p.card_fingerprint IS NOT NULL AND EXISTS (\
     SELECT 1 FROM payments e WHERE e.session_id = p.session_id \
     AND e.created_at <= p.created_at AND e.id <> p.id \
     AND e.card_fingerprint IS NOT NULL AND e.card_fingerprint <> p.card_fingerprint)";

/// The rollup's slots in the day the busiest one is looked for in.
const SLOTS_A_DAY: i64 = 96;

/// An alert as the table (and its events' snapshots) hold it.
#[derive(FromRow, Deserialize)]
pub(crate) struct AlertRow {
    id: String,
    started_at: i64,
    last_seen_at: i64,
    ended_at: Option<i64>,
    tries: i64,
    declined: i64,
    blocked: i64,
    switched: i64,
    window_seconds: i64,
    /// Absent from alerts (and their events' snapshots) from before migration 0022.
    #[serde(default)]
    cause: Option<String>,
}

impl TryFrom<AlertRow> for CardTestingAlert {
    type Error = StoreError;

    fn try_from(row: AlertRow) -> StoreResult<Self> {
        Ok(Self {
            id: row.id,
            started_at: time(row.started_at, "started_at")?,
            last_seen_at: time(row.last_seen_at, "last_seen_at")?,
            ended_at: time_opt(row.ended_at, "ended_at")?,
            tally: TryTally {
                tries: unsigned(row.tries, "tries")?,
                declined: unsigned(row.declined, "declined")?,
                blocked: unsigned(row.blocked, "blocked")?,
                switched: unsigned(row.switched, "switched")?,
            },
            window: Duration::from_secs(unsigned(row.window_seconds, "window_seconds")?),
            cause: row
                .cause
                .map(|name| {
                    AlertCause::from_name(&name)
                        .ok_or(StoreError::Corrupt("card_testing_alerts.cause"))
                })
                .transpose()?,
        })
    }
}

#[derive(FromRow)]
pub(crate) struct TallyRow {
    tries: i64,
    declined: i64,
    blocked: i64,
    switched: i64,
}

#[derive(FromRow)]
pub(crate) struct PaceRow {
    recent: i64,
    busiest: i64,
}

#[derive(FromRow)]
pub(crate) struct RuleRow {
    rule: Option<String>,
    tries: i64,
}

fn alerts(rows: Vec<AlertRow>) -> StoreResult<Vec<CardTestingAlert>> {
    rows.into_iter().map(CardTestingAlert::try_from).collect()
}

#[async_trait]
impl<DB> CardTestingStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> AlertRow: FromRow<'r, DB::Row>,
    for<'r> TallyRow: FromRow<'r, DB::Row>,
    for<'r> RuleRow: FromRow<'r, DB::Row>,
    for<'r> PaceRow: FromRow<'r, DB::Row>,
    for<'r> (Option<i64>,): FromRow<'r, DB::Row>,
{
    async fn try_tally(&self, since: OffsetDateTime) -> StoreResult<TryTally> {
        let row = sqlx::query_as::<DB, TallyRow>(&format!(
            "SELECT COUNT(DISTINCT {TRY}) AS tries, \
             COUNT(DISTINCT CASE WHEN p.state = 'declined' AND {unpaid} THEN {TRY} END) \
             AS declined, \
             COUNT(DISTINCT CASE WHEN p.state = 'blocked' AND {unpaid} THEN {TRY} END) \
             AS blocked, \
             COUNT(DISTINCT CASE WHEN {SWITCHED} AND {unpaid} THEN {TRY} END) AS switched \
             FROM payments p WHERE p.created_at >= $1 AND {FRESH}",
            unpaid = unpaid(),
        ))
        .bind(ms(since))
        .fetch_one(&self.pool)
        .await?;
        Ok(TryTally {
            tries: unsigned(row.tries, "tries")?,
            declined: unsigned(row.declined, "declined")?,
            blocked: unsigned(row.blocked, "blocked")?,
            switched: unsigned(row.switched, "switched")?,
        })
    }

    async fn last_suspect_try(
        &self,
        since: OffsetDateTime,
        before: OffsetDateTime,
    ) -> StoreResult<Option<OffsetDateTime>> {
        let (newest,) = sqlx::query_as::<DB, (Option<i64>,)>(&format!(
            "SELECT MAX(p.created_at) FROM payments p WHERE p.created_at >= $1 \
             AND p.created_at < $2 AND {FRESH} \
             AND (p.state IN ('declined', 'blocked') OR {SWITCHED}) AND {unpaid}",
            unpaid = unpaid(),
        ))
        .bind(ms(since))
        .bind(ms(before))
        .fetch_one(&self.pool)
        .await?;
        time_opt(newest, "created_at")
    }

    async fn try_pace(
        &self,
        recent_since: OffsetDateTime,
        now: OffsetDateTime,
    ) -> StoreResult<TryPace> {
        let slot = ms(now) / SLOT_MS;
        let row = sqlx::query_as::<DB, PaceRow>(&format!(
            "SELECT (SELECT COUNT(DISTINCT {TRY}) FROM payments p \
             WHERE p.created_at >= $1 AND {FRESH}) AS recent, \
             (SELECT CAST(COALESCE(MAX(n), 0) AS BIGINT) FROM (SELECT SUM(n) AS n \
             FROM payment_rollup WHERE slot >= $2 AND slot < $3 AND state <> 'blocked' \
             GROUP BY slot) AS slots) AS busiest",
        ))
        .bind(ms(recent_since))
        .bind(slot - SLOTS_A_DAY)
        .bind(slot)
        .fetch_one(&self.pool)
        .await?;
        Ok(TryPace {
            recent: unsigned(row.recent, "recent")?,
            busiest_quarter_hour: unsigned(row.busiest, "busiest")?,
        })
    }

    async fn raise_card_testing_alert(
        &self,
        alert: &CardTestingAlert,
    ) -> StoreResult<Option<CardTestingAlert>> {
        let now = alert.started_at;
        let tally = alert.tally;
        sqlx::query::<DB>(
            "INSERT INTO card_testing_alerts \
             (id, started_at, last_seen_at, ended_at, tries, declined, blocked, switched, \
             window_seconds, cause) VALUES ($1, $2, $2, NULL, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT DO NOTHING",
        )
        .bind(alert.id.clone())
        .bind(ms(now))
        .bind(int(tally.tries, "tries")?)
        .bind(int(tally.declined, "declined")?)
        .bind(int(tally.blocked, "blocked")?)
        .bind(int(tally.switched, "switched")?)
        .bind(int(alert.window.as_secs(), "window_seconds")?)
        .bind(alert.cause.map(|cause| cause.as_str().to_owned()))
        .execute(&self.pool)
        .await?;
        let sql = format!(
            "UPDATE card_testing_alerts SET last_seen_at = \
             CASE WHEN last_seen_at < $1 THEN $1 ELSE last_seen_at END \
             WHERE ended_at IS NULL RETURNING {ALERT_COLUMNS}"
        );
        sqlx::query_as::<DB, AlertRow>(&sql)
            .bind(ms(alert.last_seen_at))
            .fetch_optional(&self.pool)
            .await?
            .map(CardTestingAlert::try_from)
            .transpose()
    }

    async fn end_card_testing_alert(
        &self,
        quiet_since: OffsetDateTime,
        now: OffsetDateTime,
    ) -> StoreResult<Option<CardTestingAlert>> {
        let sql = format!(
            "UPDATE card_testing_alerts SET ended_at = $2 \
             WHERE ended_at IS NULL AND last_seen_at < $1 RETURNING {ALERT_COLUMNS}"
        );
        sqlx::query_as::<DB, AlertRow>(&sql)
            .bind(ms(quiet_since))
            .bind(ms(now))
            .fetch_optional(&self.pool)
            .await?
            .map(CardTestingAlert::try_from)
            .transpose()
    }

    async fn open_card_testing_alert(&self) -> StoreResult<Option<CardTestingAlert>> {
        let sql = format!("SELECT {ALERT_COLUMNS} FROM card_testing_alerts WHERE ended_at IS NULL");
        sqlx::query_as::<DB, AlertRow>(&sql)
            .fetch_optional(&self.pool)
            .await?
            .map(CardTestingAlert::try_from)
            .transpose()
    }

    async fn card_testing_alerts(&self, limit: u32) -> StoreResult<Vec<CardTestingAlert>> {
        let sql = format!(
            "SELECT {ALERT_COLUMNS} FROM card_testing_alerts ORDER BY started_at DESC LIMIT $1"
        );
        alerts(
            sqlx::query_as::<DB, AlertRow>(&sql)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?,
        )
    }

    async fn blocked_by_rule(
        &self,
        from: OffsetDateTime,
        before: OffsetDateTime,
    ) -> StoreResult<Vec<RuleCount>> {
        let rows = sqlx::query_as::<DB, RuleRow>(
            "SELECT risk_rule AS rule, COUNT(*) AS tries FROM payments \
             WHERE state = 'blocked' AND created_at >= $1 AND created_at < $2 \
             GROUP BY risk_rule ORDER BY COUNT(*) DESC, risk_rule",
        )
        .bind(ms(from))
        .bind(ms(before))
        .fetch_all(&self.pool)
        .await?;
        rows.into_iter()
            .map(|row| {
                Ok(RuleCount {
                    rule: row.rule.unwrap_or_default(),
                    tries: unsigned(row.tries, "tries")?,
                })
            })
            .collect()
    }
}
