//! The card-testing check on the pay path, between recording a payment and calling the
//! gateway.
//!
//! The payment is recorded first (`pending`, holding the session's pay claim) and judged
//! after, by counts read in the same round trip when the claim was free
//! (`store::sql::counted_claim`), else on their own: its own card is then among those counted,
//! and of two tries at the same moment the later one to count sees the other, so no burst
//! slips past a threshold between a check and a write. A try a rule
//! refuses is moved to `blocked` with the rule (its `payment.blocked` event in the same
//! statement), gives the claim back so the shopper may try again, and is answered `blocked`
//! without the rule (`payment_result`). It never reaches the gateway.
//!
//! A try that breaks only a soft rule (`risk::returning`) goes on when the pay call brought a
//! proof of work for its card and checkout; without one it is refused the same way and
//! answered with a challenge (`428`), which the card frame solves and sends again.
//!
//! A count that cannot be read lets the try through, logged: the defence must not take
//! checkout down with it. Every try asks for a review of the card-testing alert
//! (`risk::alert`), answered off this path at most once a second.

use checkout::contract::PayResponse;

use super::claim::Opened;
use super::request::Shopper;
use super::{PaymentError, PaymentService, answer, now};
use crate::risk::{CardFingerprint, Rule, TryKind, Verdict};
use crate::store::model::{Payment, RiskFacts, Session};

/// What the check decided for a recorded payment.
#[derive(Debug)]
pub(crate) enum Screened {
    /// Go on to the gateway with it.
    Allowed(Box<Payment>),
    /// Blocked: this is the shopper's answer.
    Blocked(PayResponse),
}

impl PaymentService {
    /// What a payment of `session` records for the rules: `card`'s fingerprint, the
    /// shopper's address key and the session's e-mail.
    pub(crate) fn risk_facts(
        &self,
        session: &Session,
        card: Option<CardFingerprint>,
        shopper: &Shopper,
    ) -> RiskFacts {
        self.risk().facts(session, card, shopper.ip)
    }

    /// Judges the payment `opened` (just recorded `pending` with `facts` by `shopper`, holding
    /// the session's claim; with its counts, or they are read now) and blocks it when a block
    /// list or a rule fires.
    pub(crate) async fn screen(
        &self,
        opened: Opened,
        facts: &RiskFacts,
        kind: TryKind,
        shopper: &Shopper,
    ) -> Result<Screened, PaymentError> {
        let Opened { payment, counts } = opened;
        let verdict = match counts {
            Some(Ok(counts)) => self.risk().judge(&payment, &counts, kind).await,
            Some(Err(error)) => Err(error),
            None => self.risk().check(&payment, facts, kind, shopper.ip).await,
        };
        let rule = match verdict {
            Ok(Verdict::Allow) => {
                self.risk().after_try(None);
                return Ok(Screened::Allowed(Box::new(payment)));
            }
            Ok(Verdict::Challenge(rule)) => {
                let subject = facts.card_fingerprint.as_deref().unwrap_or_default();
                let proof = shopper.proof_of_work.as_ref();
                match self
                    .risk()
                    .answered(&payment.session_id, subject, proof, now())
                {
                    Ok(()) => {
                        self.risk().after_try(None);
                        return Ok(Screened::Allowed(Box::new(payment)));
                    }
                    Err(challenge) => {
                        self.refuse(&payment, rule).await?;
                        return Err(PaymentError::ProofOfWorkRequired(challenge));
                    }
                }
            }
            Ok(Verdict::Block(rule)) => rule,
            Err(error) => {
                tracing::error!(payment_id = %payment.id, %error, "card-testing counts unavailable; the try goes on");
                return Ok(Screened::Allowed(Box::new(payment)));
            }
        };
        let blocked = self.refuse(&payment, rule).await?;
        Ok(Screened::Blocked(answer(&blocked.unwrap_or(payment))))
    }

    /// Moves `payment` to `blocked` by `rule`, gives the session's claim back and asks for an
    /// alert review; the payment as it is now (`None` when it cannot be read).
    async fn refuse(&self, payment: &Payment, rule: Rule) -> Result<Option<Payment>, PaymentError> {
        let blocked = self.risk().block(&payment.id, rule).await?;
        tracing::warn!(
            payment_id = %payment.id,
            session_id = %payment.session_id,
            rule = rule.name(),
            "pay try blocked by a block list or card-testing rule; not sent to the gateway"
        );
        let blocked = match blocked {
            Some(blocked) => blocked,
            // Not pending any more: nothing was sent for it here; answer what it is now.
            None => match self.store().get_payment(&payment.id).await? {
                Some(now) => now,
                None => return Ok(None),
            },
        };
        self.release_session_if_idle(&blocked.session_id).await;
        self.risk().after_try(Some(blocked.state));
        Ok(Some(blocked))
    }
}
