//! The overview's numbers, computed from the store's per-day outcomes: volume per currency
//! (captured, refunded, net, in minor units), the approval rate per range and per day,
//! 3-D Secure outcomes, decline reasons, and the per-day series the charts draw.
//!
//! Definitions: a payment is *approved* when the gateway approved it (authorized, captured,
//! refunded in part or whole, or voided after authorization), *declined* or *failed* when the
//! gateway refused it or it could not be sent, and *undecided* while created, pending or in
//! review. *Attempted* is approved + declined + failed; the approval rate is approved /
//! attempted. A try *blocked* by the card-testing rules never reached the gateway: it is
//! counted apart, never as attempted. Volume is what was captured; refunds are what was refunded of it (of payments
//! created in the range).

use std::collections::BTreeMap;

use checkout::contract::{DeclineCode, PaymentState};

use crate::store::analytics::DayOutcome;

/// How a payment's state counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The gateway approved it.
    Approved,
    /// The gateway declined it.
    Declined,
    /// Refused without processing, or never sent.
    Failed,
    /// No outcome yet.
    Undecided,
    /// Refused by the card-testing rules; never sent.
    Blocked,
}

/// The class of `state`.
pub fn class(state: PaymentState) -> Class {
    use PaymentState::*;
    match state {
        Authorized | Captured | PartiallyRefunded | Refunded | Voided => Class::Approved,
        Declined => Class::Declined,
        Failed => Class::Failed,
        Created | Pending | NeedsReview => Class::Undecided,
        Blocked => Class::Blocked,
    }
}

/// Approved against attempted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    /// Approved.
    pub approved: u64,
    /// Approved, declined or failed.
    pub attempted: u64,
}

impl Rate {
    /// The share approved, 0 to 1; `None` with no attempt.
    pub fn ratio(self) -> Option<f64> {
        (self.attempted > 0).then(|| self.approved as f64 / self.attempted as f64)
    }

    /// The share approved in tenths of a percent, 0 to 1000 (rounded down), for drawing.
    pub fn per_mille(self) -> Option<u64> {
        (self.attempted > 0).then(|| self.approved * 1000 / self.attempted)
    }

    /// Counts `payments` of `class` (undecided ones are not attempted).
    pub(crate) fn add(&mut self, class: Class, payments: u64) {
        match class {
            Class::Approved => {
                self.approved += payments;
                self.attempted += payments;
            }
            Class::Declined | Class::Failed => self.attempted += payments,
            Class::Undecided | Class::Blocked => {}
        }
    }
}

/// One currency's volume, minor units.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Volume {
    /// Approved payments.
    pub payments: u64,
    /// Captured.
    pub gross: u64,
    /// Refunded of it.
    pub refunds: u64,
    /// Authorized and not captured (nor voided) yet.
    pub authorized: u64,
}

impl Volume {
    /// Captured less refunded.
    pub fn net(&self) -> u64 {
        self.gross.saturating_sub(self.refunds)
    }
}

/// 3-D Secure payments (cards typed into the form) by outcome.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ThreeDs {
    /// All of them with an outcome or abandoned.
    pub payments: u64,
    /// Authenticated and approved.
    pub passed: u64,
    /// The cardholder did not pass authentication.
    pub failed_authentication: u64,
    /// Authenticated, then declined by the issuer or refused.
    pub declined: u64,
    /// No outcome: the cardholder never came back (pending or in review), or left it at the
    /// bank and paid with another payment (failed, `authentication_failed`).
    pub abandoned: u64,
}

/// One local day.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Day {
    /// Days since 1970-01-01 in the merchant's zone.
    pub day: i64,
    /// Captured per currency, minor units.
    pub gross: BTreeMap<String, u64>,
    /// Its approval rate.
    pub rate: Rate,
}

/// Everything the overview shows of payments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Figures {
    /// Per currency, by code.
    pub volume: BTreeMap<String, Volume>,
    /// The range's approval rate.
    pub rate: Rate,
    /// Undecided payments.
    pub undecided: u64,
    /// Tries the card-testing rules blocked (never sent, never attempted).
    pub blocked: u64,
    /// 3-D Secure outcomes.
    pub three_ds: ThreeDs,
    /// Declines by reason, most first (ties by label).
    pub declines: Vec<(DeclineCode, u64)>,
    /// Every day of the range, in order (days without payments included).
    pub days: Vec<Day>,
}

/// The figures of `days` (local day numbers, in order) from `rows`; rows of other days are
/// ignored.
pub fn figures(days: &[i64], rows: &[DayOutcome]) -> Figures {
    let mut figures = Figures {
        days: days
            .iter()
            .map(|&day| Day {
                day,
                ..Day::default()
            })
            .collect(),
        ..Figures::default()
    };
    let (Some(&first), Some(&last)) = (days.first(), days.last()) else {
        return figures;
    };
    for row in rows {
        let class = class(row.state);
        if row.day < first || row.day > last {
            continue;
        }
        figures.rate.add(class, row.payments);
        if let Some(day) = figures.days.iter_mut().find(|d| d.day == row.day) {
            day.rate.add(class, row.payments);
            if row.captured > 0 {
                *day.gross.entry(row.currency.clone()).or_default() += row.captured;
            }
        }
        match class {
            Class::Approved => {
                let volume = figures.volume.entry(row.currency.clone()).or_default();
                volume.payments += row.payments;
                volume.gross += row.captured;
                volume.refunds += row.refunded;
                if row.state == PaymentState::Authorized {
                    volume.authorized += row.amount;
                }
            }
            Class::Declined => {
                let reason = row.decline_code.unwrap_or(DeclineCode::Other);
                match figures
                    .declines
                    .iter_mut()
                    .find(|(code, _)| *code == reason)
                {
                    Some((_, n)) => *n += row.payments,
                    None => figures.declines.push((reason, row.payments)),
                }
            }
            Class::Failed => {}
            Class::Undecided => figures.undecided += row.payments,
            Class::Blocked => {
                figures.blocked += row.payments;
                continue;
            }
        }
        if row.three_ds {
            let three_ds = &mut figures.three_ds;
            three_ds.payments += row.payments;
            match class {
                Class::Approved => three_ds.passed += row.payments,
                Class::Declined if row.decline_code == Some(DeclineCode::AuthenticationFailed) => {
                    three_ds.failed_authentication += row.payments;
                }
                // Resolved as failed when superseded and left at the bank (reconcile/).
                Class::Failed if row.decline_code == Some(DeclineCode::AuthenticationFailed) => {
                    three_ds.abandoned += row.payments;
                }
                Class::Declined | Class::Failed => three_ds.declined += row.payments,
                Class::Undecided => three_ds.abandoned += row.payments,
                // Never sent: skipped above.
                Class::Blocked => {}
            }
        }
    }
    figures
        .declines
        .sort_by_key(|(code, n)| (std::cmp::Reverse(*n), super::reasons::describe(*code).0));
    figures
}

#[cfg(test)]
mod tests {
    use super::*;
    use PaymentState::*;

    fn row(day: i64, currency: &str, state: PaymentState, n: u64, captured: u64) -> DayOutcome {
        DayOutcome {
            day,
            currency: currency.into(),
            state,
            three_ds: true,
            decline_code: (state == Declined).then_some(DeclineCode::InsufficientFunds),
            payments: n,
            amount: captured,
            captured,
            refunded: 0,
        }
    }

    #[test]
    fn rates_volume_and_days_add_up() {
        let mut refunded = row(11, "EUR", PartiallyRefunded, 1, 500);
        refunded.refunded = 200;
        let mut auth_failed = row(11, "EUR", Declined, 2, 0);
        auth_failed.decline_code = Some(DeclineCode::AuthenticationFailed);
        let rows = [
            row(9, "EUR", Declined, 4, 0),
            row(10, "EUR", Captured, 3, 3000),
            row(10, "JPY", Captured, 1, 700),
            row(10, "EUR", Declined, 1, 0),
            refunded,
            auth_failed,
            row(11, "EUR", Pending, 5, 0),
            row(13, "EUR", Captured, 9, 9),
        ];
        let f = figures(&[10, 11, 12], &rows);
        assert_eq!(
            f.rate,
            Rate {
                approved: 5,
                attempted: 8
            }
        );
        assert_eq!(f.volume["EUR"].gross, 3500);
        assert_eq!(f.volume["EUR"].net(), 3300);
        assert_eq!(f.volume["EUR"].payments, 4);
        assert_eq!(f.volume["JPY"].gross, 700);
        assert_eq!(f.undecided, 5);
        assert_eq!(
            f.declines,
            vec![
                (DeclineCode::AuthenticationFailed, 2),
                (DeclineCode::InsufficientFunds, 1)
            ]
        );
        assert_eq!(f.three_ds.failed_authentication, 2);
        assert_eq!(f.three_ds.abandoned, 5);
        assert_eq!(f.three_ds.passed, 5);
        assert_eq!(f.days.len(), 3);
        assert_eq!(
            f.days[0].rate,
            Rate {
                approved: 4,
                attempted: 5
            }
        );
        assert_eq!(f.days[1].gross["EUR"], 500);
        assert_eq!(
            f.days[2],
            Day {
                day: 12,
                ..Day::default()
            }
        );
        assert_eq!(Rate::default().ratio(), None);
    }
}
