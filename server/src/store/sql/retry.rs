//! [`RetryStore`]: the 3-D Secure redirect mark, superseding payments left at the bank, and
//! the surplus rule's marks, the same SQL on both backends.

use async_trait::async_trait;
use checkout::contract::PaymentState;
use sqlx::{Encode, Executor, FromRow, IntoArguments, Type};
use time::{Duration, OffsetDateTime};

use super::codec::{ms, ms_opt};
use super::leases::{take_due, take_due_sql};
use super::new_payment::{NEW_PAYMENT_COLUMNS, bind_new_payment, new_payment_values, with_token};
use super::rows::{IdRow, PAYMENT_COLUMNS, PaymentRow};
use super::{Dialect, SqlStore};
use crate::store::error::StoreResult;
use crate::store::model::{IdempotencyKey, NewPayment, Payment, PaymentKind};
use crate::store::retry::{RetryStore, SessionClaim, Supersede};
use crate::store::secret::BodyDigest;
use crate::store::secret::generate_token;
use crate::store::transitions::parse_state;

/// What the supersede decision reads of each payment of the session.
#[derive(FromRow)]
pub(crate) struct SiblingRow {
    id: String,
    state: String,
    kind: String,
    redirected_at: Option<i64>,
    superseded_by: Option<String>,
}

/// What a payment of an unpaid session means for a new pay (a paid session takes none: its
/// keeper is read first).
#[derive(Debug, PartialEq, Eq)]
enum Standing {
    /// In flight and not to be superseded: a gateway call may be running, or its outcome is
    /// unknown.
    InFlight,
    /// A 3-D Secure payment waiting for the shopper at the bank: the new one supersedes it.
    AtTheBank,
    /// Declined, failed, voided, or already superseded: no obstacle. (A payment paid and then
    /// voided or refunded has made its session paid for good: never read here.)
    Idle,
}

/// Where `row` stands for a pay at a moment when only payments redirected before
/// `redirected_before_ms` count as left at the bank.
fn standing(row: &SiblingRow, redirected_before_ms: i64) -> Standing {
    let state = parse_state(&row.state);
    let three_ds = matches!(
        PaymentKind::parse(&row.kind),
        Some(PaymentKind::PaymentV2 | PaymentKind::AuthorizationV2)
    );
    match state {
        Some(
            PaymentState::Declined
            | PaymentState::Failed
            | PaymentState::Voided
            | PaymentState::Blocked,
        ) => Standing::Idle,
        _ if row.superseded_by.is_some() => Standing::Idle,
        Some(PaymentState::Pending)
            if three_ds
                && row
                    .redirected_at
                    .is_some_and(|at| at < redirected_before_ms) =>
        {
            Standing::AtTheBank
        }
        // Created, pending without a redirect, needs review, or a state this build does not
        // know: never superseded.
        _ => Standing::InFlight,
    }
}

/// The payment that keeps the charge of `$1`'s session: its keeper (migration 0026).
const KEEPER: &str = "(SELECT k.paid_by FROM checkout_sessions AS k WHERE k.id = $1)";

#[async_trait]
impl<DB> RetryStore for SqlStore<DB>
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> String: Encode<'q, DB> + Type<DB>,
    for<'q> Option<i64>: Encode<'q, DB>,
    for<'q> Option<String>: Encode<'q, DB>,
    for<'r> PaymentRow: FromRow<'r, DB::Row>,
    for<'r> SiblingRow: FromRow<'r, DB::Row>,
    for<'r> IdRow: FromRow<'r, DB::Row>,
    for<'r> super::session_claim::ClaimLookRow: FromRow<'r, DB::Row>,
{
    async fn begin_session_claim(
        &self,
        claim: &IdempotencyKey,
        session_id: &str,
        digest: &BodyDigest,
        now: OffsetDateTime,
    ) -> StoreResult<SessionClaim> {
        super::session_claim::begin(self, claim, session_id, digest, now).await
    }

    async fn note_three_ds_redirect(
        &self,
        payment_id: &str,
        now: OffsetDateTime,
    ) -> StoreResult<bool> {
        let noted = sqlx::query::<DB>(
            "UPDATE payments SET redirected_at = COALESCE(redirected_at, $2) \
             WHERE id = $1 AND state = 'pending' AND kind IN ('payment_v2', 'authorization_v2')",
        )
        .bind(payment_id.to_owned())
        .bind(ms(now))
        .execute(&self.pool)
        .await?;
        Ok(DB::rows_affected(&noted) == 1)
    }

    async fn supersede_and_create_pending_payment(
        &self,
        claim: &IdempotencyKey,
        new: NewPayment,
        now: OffsetDateTime,
        redirected_before: OffsetDateTime,
    ) -> StoreResult<Supersede> {
        let mut tx = self.pool.begin_with(DB::BEGIN_WRITE).await?;
        // Locks the claim's row (Postgres; SQLite holds the write lock already): two
        // supersedes of one session run one after the other, and each reads the payments
        // only once it holds the lock, so it sees what the other recorded.
        let held = sqlx::query_as::<DB, IdRow>(
            "UPDATE idempotency_records SET status = status WHERE scope = $1 AND key = $2 \
             AND status = 'in_progress' RETURNING key AS id",
        )
        .bind(claim.scope().to_owned())
        .bind(claim.key().to_owned())
        .fetch_optional(&mut *tx)
        .await?;
        if held.is_none() {
            return Ok(Supersede::ClaimFree);
        }
        // Not locked: a keeper written after this read makes the update of the payment it
        // paid below find it no longer pending, and nothing is recorded.
        let keeper = sqlx::query_as::<DB, IdRow>(
            "SELECT paid_by AS id FROM checkout_sessions WHERE id = $1 AND paid_by IS NOT NULL",
        )
        .bind(new.session_id.clone())
        .fetch_optional(&mut *tx)
        .await?;
        if keeper.is_some() {
            return Ok(Supersede::Paid);
        }
        let siblings = sqlx::query_as::<DB, SiblingRow>(
            "SELECT id, state, kind, redirected_at, superseded_by FROM payments \
             WHERE session_id = $1",
        )
        .bind(new.session_id.clone())
        .fetch_all(&mut *tx)
        .await?;
        let before = ms(redirected_before);
        let standings: Vec<Standing> = siblings.iter().map(|row| standing(row, before)).collect();
        if standings.contains(&Standing::InFlight) {
            return Ok(Supersede::Busy);
        }
        let at_the_bank: Vec<String> = siblings
            .into_iter()
            .zip(standings)
            .filter(|(_, standing)| *standing == Standing::AtTheBank)
            .map(|(row, _)| row.id)
            .collect();
        if at_the_bank.is_empty() {
            // Nothing to take the claim from: it is being given back (a payment just ended
            // declined and its release is on its way) or was abandoned. Taking it here would
            // let that release free it under the new payment; the ordinary wait handles it.
            return Ok(Supersede::Busy);
        }
        let now_ms = ms(now);
        let token = generate_token("");
        let insert = format!(
            "INSERT INTO payments ({NEW_PAYMENT_COLUMNS}) VALUES ({}) RETURNING {PAYMENT_COLUMNS}",
            new_payment_values()
        );
        let row = bind_new_payment(
            sqlx::query_as::<DB, PaymentRow>(&insert),
            new,
            PaymentState::Pending,
            now_ms,
            &token,
        )?
        .fetch_one(&mut *tx)
        .await?;
        let payment = with_token(row.try_into()?, token)?;
        for id in &at_the_bank {
            // Settled meanwhile (a late webhook between the read and here, on Postgres): the
            // decision no longer holds; nothing is written.
            let marked = sqlx::query::<DB>(
                "UPDATE payments SET superseded_by = $2, superseded_at = $3 \
                 WHERE id = $1 AND superseded_by IS NULL AND state = 'pending'",
            )
            .bind(id.clone())
            .bind(payment.id.clone())
            .bind(now_ms)
            .execute(&mut *tx)
            .await?;
            if DB::rows_affected(&marked) != 1 {
                return Ok(Supersede::Busy);
            }
        }
        tx.commit().await?;
        Ok(Supersede::Recorded {
            payment: Box::new(payment),
            superseded: at_the_bank,
        })
    }

    async fn mark_surplus(
        &self,
        session_id: &str,
        now: OffsetDateTime,
    ) -> StoreResult<Vec<Payment>> {
        // One statement, one snapshot: the keeper is never marked, by any check, whenever it
        // runs. A payment paid after the keeper is usually marked already by the step that
        // paid it (its events say so); what is still due is returned for its reversal.
        let sql = format!(
            "UPDATE payments SET \
             surplus_of = CASE WHEN id = {KEEPER} THEN NULL ELSE {KEEPER} END, \
             surplus_due_at = CASE WHEN id = {KEEPER} THEN NULL \
                 ELSE COALESCE(surplus_due_at, $2) END \
             WHERE session_id = $1 AND paid_at IS NOT NULL AND kind <> 'subscription' \
             AND (surplus_due_at IS NOT NULL OR (surplus_of IS NULL AND id <> {KEEPER})) \
             RETURNING {PAYMENT_COLUMNS}"
        );
        sqlx::query_as::<DB, PaymentRow>(&sql)
            .bind(session_id.to_owned())
            .bind(ms(now))
            .fetch_all(&self.pool)
            .await?
            .into_iter()
            .map(Payment::try_from)
            .collect()
    }

    async fn take_due_surplus(
        &self,
        now: OffsetDateTime,
        hold: Duration,
        limit: u32,
    ) -> StoreResult<Vec<Payment>> {
        // Held by moving the due time past the hold: no owner, the due time is the lease.
        let sql = take_due_sql::<DB>(
            "payments",
            "surplus_due_at = $1",
            "surplus_due_at <= $2",
            "surplus_due_at",
            PAYMENT_COLUMNS,
        );
        take_due::<DB, PaymentRow, Payment>(&self.pool, &sql, (now, hold, limit), None, |a, b| {
            (a.created_at, &a.id).cmp(&(b.created_at, &b.id))
        })
        .await
    }

    async fn set_surplus_due(
        &self,
        payment_id: &str,
        due: Option<OffsetDateTime>,
        failed: bool,
    ) -> StoreResult<Option<Payment>> {
        let sql = format!(
            "UPDATE payments SET surplus_due_at = $2, surplus_failures = surplus_failures + $3 \
             WHERE id = $1 RETURNING {PAYMENT_COLUMNS}"
        );
        sqlx::query_as::<DB, PaymentRow>(&sql)
            .bind(payment_id.to_owned())
            .bind(ms_opt(due))
            .bind(i64::from(failed))
            .fetch_optional(&self.pool)
            .await?
            .map(Payment::try_from)
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(state: &str, kind: &str, redirected: bool, superseded: bool) -> SiblingRow {
        SiblingRow {
            id: "p".into(),
            state: state.into(),
            kind: kind.into(),
            redirected_at: redirected.then_some(1),
            superseded_by: superseded.then(|| "q".into()),
        }
    }

    #[test]
    fn only_a_redirected_three_ds_payment_is_superseded() {
        assert_eq!(
            standing(&row("pending", "payment_v2", true, false), 2),
            Standing::AtTheBank
        );
        assert_eq!(
            standing(&row("pending", "authorization_v2", true, false), 2),
            Standing::AtTheBank
        );
        assert_eq!(
            standing(&row("pending", "payment_v2", false, false), 2),
            Standing::InFlight
        );
        assert_eq!(
            standing(&row("pending", "token_payment", true, false), 2),
            Standing::InFlight
        );
        assert_eq!(
            standing(&row("needs_review", "payment_v2", true, false), 2),
            Standing::InFlight
        );
        assert_eq!(
            standing(&row("pending", "payment_v2", true, true), 2),
            Standing::Idle
        );
        assert_eq!(
            standing(&row("declined", "token_payment", false, false), 2),
            Standing::Idle
        );
        // Redirected just now: the same click twice, still in flight.
        assert_eq!(
            standing(&row("pending", "payment_v2", true, false), 1),
            Standing::InFlight
        );
    }
}
