//! Open sign-ups whose call has ended without an answer this server could record (a timeout, a
//! 5xx after the gateway processed it, a process that died): each is matched against the
//! gateway's subscription list (read once a pass for all of them, issue 46), and then
//!
//! - the subscription it made is recorded (`subscription.created`), its payment settled
//!   (`payment.captured`) and its cycles recorded;
//! - or, when the list holds none it could have made, its payment fails (`payment.failed`);
//! - or, when several could be its own, its payment goes to review with each of them recorded
//!   for review (`payment.needs_review`, `subscription.needs_review`);
//! - or, when a lookup failed, it waits for the next pass.
//!
//! Which listed subscription is whose is decided by [`crate::subscriptions::signup_match`];
//! what each decision does is [`super::signup_outcomes`].

use std::collections::HashMap;

use checkout::contract::PlanTerms;
use time::OffsetDateTime;

use super::{PassReport, Reconciler};
use crate::gateway::GatewayError;
use crate::store::model::{Payment, Session};
use crate::store::signups::Signup;
use crate::subscriptions::SubscriptionError;
use crate::subscriptions::listed::{ListedSubscription, Split};
use crate::subscriptions::signup_match::{Evidence, SignupWindow, Verdict, decide};
use checkout::wire::TransactionResponse;

/// Most open sign-ups read as possible rivals of one another.
const OPEN_SIGNUPS_READ: u32 = 500;
/// Most candidates whose first charge one sign-up looks up; more make it ambiguous.
const MOST_CANDIDATES: usize = 16;

/// What was wrong when a sign-up could not be decided this pass.
pub(super) type Failure = Box<dyn std::error::Error + Send + Sync>;

/// A sign-up with what deciding it needs.
pub(super) struct Case {
    pub(super) signup: Signup,
    pub(super) payment: Payment,
    pub(super) session: Session,
    pub(super) plan: PlanTerms,
}

impl Reconciler {
    /// Claims the due open sign-ups and decides each against one read of the gateway's list.
    pub(super) async fn signup_batch(&self, now: OffsetDateTime) -> PassReport {
        let store = &self.state.store;
        let claimed = match store
            .claim_due_signups(now, &self.owner, self.lease(), super::BATCH)
            .await
        {
            Ok(claimed) => claimed,
            Err(error) => {
                tracing::error!(%error, "reconciler: cannot claim due sign-ups");
                return PassReport::default();
            }
        };
        if claimed.is_empty() {
            return PassReport::default();
        }
        let mut report = PassReport::default();
        let listed = self.read_for(&claimed).await;
        let open = store
            .open_signups(OPEN_SIGNUPS_READ)
            .await
            .unwrap_or_default();
        let review_after = time::Duration::try_from(self.state.config.timing.payment_review_after)
            .unwrap_or(time::Duration::HOUR);
        for signup in claimed {
            let id = signup.id.clone();
            let deadline = signup.called_at.saturating_add(review_after);
            let overdue = now >= deadline;
            let decided = match &listed {
                Ok(split) => {
                    self.settle_signup(signup.clone(), split, &open, now, &mut report)
                        .await
                }
                Err(error) => Err(format!(
                    "the gateway's subscription list could not be read: {error}"
                )
                .into()),
            };
            let next = match decided {
                Ok(next) => next,
                Err(error) if overdue => {
                    // Not decided by the payment's review deadline: a person decides, and the
                    // customer is no longer held back.
                    let note = format!("not decided by its deadline: {error}");
                    if let Err(failed) = self.review_undecided(&signup, &note).await {
                        tracing::error!(payment_id = %id, error = %failed, "reconciler: could not send an undecided sign-up to review");
                    }
                    report.signups_to_review += 1;
                    None
                }
                Err(error) => {
                    tracing::warn!(payment_id = %id, %error, "reconciler: sign-up not decided; retrying later");
                    report.failures += 1;
                    Some(now.saturating_add(self.signup_retry_gap()).min(deadline))
                }
            };
            if let Err(error) = store.release_signup(&id, &self.owner, next).await {
                tracing::error!(payment_id = %id, %error, "reconciler: could not release a sign-up");
            }
        }
        report
    }

    /// `signup` could not be decided in time: its payment goes to review.
    async fn review_undecided(&self, signup: &Signup, note: &str) -> Result<(), Failure> {
        let payment = self
            .state
            .store
            .get_payment(&signup.id)
            .await?
            .ok_or("the sign-up's payment is missing")?;
        self.signup_to_review(&payment, signup, note).await
    }

    /// The list's subscriptions on the plans of `signups`, split by what the store holds.
    async fn read_for(&self, signups: &[Signup]) -> Result<Split, SubscriptionError> {
        let plans: Vec<PlanTerms> = signups
            .iter()
            .filter_map(|signup| self.state.config.plans.get(&signup.plan_id).cloned())
            .collect();
        let subscriptions = self.state.subscriptions();
        let max_bytes = self.state.config.subscriptions.list_max_bytes;
        let (listed, _) = subscriptions
            .read_list(max_bytes, |listed| {
                plans.iter().any(|plan| listed.has_plan(plan))
            })
            .await?;
        subscriptions.unknown(listed).await
    }

    /// Decides one sign-up; `Some(at)` when it stays open until `at`.
    async fn settle_signup(
        &self,
        signup: Signup,
        split: &Split,
        open: &[Signup],
        now: OffsetDateTime,
        report: &mut PassReport,
    ) -> Result<Option<OffsetDateTime>, Failure> {
        let Some(case) = self.case_of(signup).await? else {
            return Ok(None);
        };
        if let Some((_, listed)) = split.signed_up.get(&case.payment.id) {
            // Recorded already (its answer came after all, or an earlier pass stopped midway):
            // what is left is done again, each step once.
            let (_, charges) = self.evidence(&case, &[listed]).await;
            let charge = listed
                .first_charge
                .as_ref()
                .and_then(|first| charges.get(&first.transaction_id));
            let gateway_id = listed.gateway_id.clone();
            self.made(case, &gateway_id, charge, now, report).await?;
            return Ok(None);
        }
        let window = self.window_of(&case.signup);
        let mut candidates: Vec<&ListedSubscription> = split
            .unknown
            .iter()
            .filter(|listed| listed.has_plan(&case.plan) && window.contains(listed.started_at))
            .collect();
        candidates.sort_by_key(|listed| {
            listed
                .started_at
                .map(|at| (at - case.signup.called_at).abs())
        });
        if candidates.len() > MOST_CANDIDATES {
            let ids = candidates.iter().map(|c| c.gateway_id.clone()).collect();
            return self.ambiguous(case, ids, now, report).await.map(|()| None);
        }
        let (evidence, charges) = self.evidence(&case, &candidates).await;
        let rivals = open.iter().any(|other| {
            other.id != case.signup.id
                && other.plan_id == case.signup.plan_id
                && self.window_of(other).overlaps(&window)
        });
        match decide(&candidates, &evidence, rivals) {
            Verdict::Made { gateway_id, proven } => {
                let charge = candidates
                    .iter()
                    .find(|c| c.gateway_id == gateway_id)
                    .and_then(|c| c.first_charge.as_ref())
                    .and_then(|charge| charges.get(&charge.transaction_id));
                let charge = charge.filter(|_| proven);
                self.made(case, &gateway_id, charge, now, report).await?;
                Ok(None)
            }
            Verdict::Ambiguous(ids) => self.ambiguous(case, ids, now, report).await.map(|()| None),
            Verdict::Absent => self.absent(case, report).await.map(|()| None),
            Verdict::Wait => Err("a candidate's first charge could not be looked up".into()),
        }
    }

    /// The sign-up's payment, session and plan; `None` (and the sign-up ended) when they
    /// cannot be had.
    async fn case_of(&self, signup: Signup) -> Result<Option<Case>, Failure> {
        let store = &self.state.store;
        let payment = store.get_payment(&signup.id).await?;
        let session = store.get_session(&signup.session_id).await?;
        let (Some(payment), Some(session)) = (payment, session) else {
            return Err("the sign-up's payment or session is missing".into());
        };
        let Some(plan) = self.state.config.plans.get(&signup.plan_id).cloned() else {
            let note = format!(
                "plan {} is no longer in the catalogue: the gateway's list cannot be matched \
                 against its terms",
                signup.plan_id
            );
            self.signup_to_review(&payment, &signup, &note).await?;
            return Ok(None);
        };
        Ok(Some(Case {
            signup,
            payment,
            session,
            plan,
        }))
    }

    /// The window in which `signup`'s subscription may have been created.
    fn window_of(&self, signup: &Signup) -> SignupWindow {
        SignupWindow {
            called_at: signup.called_at,
            call_limit: time::Duration::try_from(self.state.config.gateway.timeout)
                .unwrap_or(time::Duration::MINUTE),
        }
    }

    /// Looks up the first charge of each candidate that has one: whether it names the
    /// sign-up's reference and currency. Keeps the answers, by transaction id.
    async fn evidence(
        &self,
        case: &Case,
        candidates: &[&ListedSubscription],
    ) -> (
        HashMap<String, Evidence>,
        HashMap<String, TransactionResponse>,
    ) {
        let mut evidence = HashMap::new();
        let mut answers = HashMap::new();
        for charge in candidates.iter().filter_map(|c| c.first_charge.as_ref()) {
            let id = &charge.transaction_id;
            let found = match self.state.gateway.transaction_status(id).await {
                Ok(response)
                    if names_the_sign_up(&response, &case.payment.merchant_txn_ref, &case.plan) =>
                {
                    answers.insert(id.clone(), response);
                    Evidence::Ours
                }
                Ok(_) => Evidence::NotOurs,
                Err(GatewayError::NotFound) => Evidence::NotOurs,
                Err(error) => {
                    tracing::warn!(payment_id = %case.payment.id, transaction_id = %id, %error, "reconciler: a candidate's first charge could not be looked up");
                    Evidence::Unknown
                }
            };
            evidence.insert(id.clone(), found);
        }
        (evidence, answers)
    }

    /// The wait before deciding a sign-up again after a failed read.
    fn signup_retry_gap(&self) -> time::Duration {
        time::Duration::try_from(self.state.config.timing.reconcile_interval)
            .unwrap_or(time::Duration::MINUTE)
            .max(time::Duration::MINUTE)
    }
}

/// Whether the status lookup `response` names the sign-up's payment's reference (the session's
/// with its attempt number, as the gateway saw it) and `plan`'s currency.
fn names_the_sign_up(response: &TransactionResponse, reference: &str, plan: &PlanTerms) -> bool {
    let expected = reference;
    let reference = response.merchant_txn_ref();
    let currency = response
        .payment_details
        .as_ref()
        .map(|d| d.currency.as_str());
    reference == Some(expected) && currency.is_some_and(|c| c.eq_ignore_ascii_case(&plan.currency))
}
