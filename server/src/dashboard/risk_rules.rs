//! `POST /risk/rules/{rule}` (admins): sets a card-testing rule's threshold, or resets it to
//! the configuration file's. The threshold is kept in the database, so every instance applies
//! it (this one at once, the others on their next reconciler pass), and each change is
//! audited with the value before and after.

use axum::Form;
use axum::extract::{Path, State};
use axum::response::Response;
use serde::Deserialize;
use time::OffsetDateTime;

use super::audit::{Actor, Object, record_on};
use super::auth::Staff;
use super::client::Client;
use super::error::DashboardError;
use super::pages::risk::threshold;
use super::redirect::see_other;
use super::state::DashboardState;
use crate::risk::Rule;
use crate::risk::overrides::MAX_THRESHOLD;
use crate::store::prelude::*;

/// The form's fields (all strings: an empty one is unset).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct ThresholdForm {
    csrf: String,
    /// The new threshold, a whole number.
    threshold: String,
    /// `reset` to use the configuration file's threshold again.
    action: String,
}

/// `POST /risk/rules/{rule}`.
pub async fn change(
    State(state): State<DashboardState>,
    staff: Staff,
    Client(address): Client,
    Path(name): Path<String>,
    Form(form): Form<ThresholdForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.require(StaffRole::Admin)?;
    let rule = Rule::from_name(&name)
        .filter(|rule| rule.block_kind().is_none())
        .ok_or(DashboardError::NotFound("rule"))?;
    let risk = state.app.payments.risk();
    let store = &state.app.store;
    let before = threshold(rule, &risk.settings());
    let (action, after) = if form.action == "reset" {
        store.clear_risk_override(rule.name()).await?;
        ("risk_threshold_reset", threshold(rule, risk.configured()))
    } else {
        let threshold = parse(&form.threshold)?;
        store
            .set_risk_override(&RiskOverride {
                rule: rule.name().to_owned(),
                threshold,
                set_by: staff.user.email.clone(),
                set_at: OffsetDateTime::now_utc(),
            })
            .await?;
        ("risk_threshold_set", threshold)
    };
    risk.refresh_overrides().await?;
    let object = Object {
        kind: "risk_rule",
        id: rule.name(),
        money: None,
    };
    let detail = format!("threshold {before} → {after}");
    record_on(
        &state,
        &Actor::staff(&staff, address),
        action,
        object,
        "ok",
        Some(detail),
    )
    .await;
    Ok(see_other(&format!(
        "/risk?saved={}#{}",
        rule.name(),
        rule.name()
    )))
}

/// A threshold typed in the form: a whole number from 1 to [`MAX_THRESHOLD`].
fn parse(typed: &str) -> Result<u32, DashboardError> {
    typed
        .trim()
        .parse::<u32>()
        .ok()
        .filter(|value| (1..=MAX_THRESHOLD).contains(value))
        .ok_or_else(|| {
            DashboardError::bad(
                "threshold",
                format!("must be a whole number from 1 to {MAX_THRESHOLD}"),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_whole_numbers_in_range() {
        assert_eq!(parse(" 3 ").ok(), Some(3));
        for bad in ["0", "-1", "2.5", "", "many", "100001"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
