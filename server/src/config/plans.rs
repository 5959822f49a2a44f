//! The subscription plan catalogue: plans the merchant sells, keyed by id, from the config
//! file's `[plans.<id>]` tables. A session names a plan by id; the browser never sends terms.
//!
//! ```toml
//! [plans.pro-monthly]
//! name = "Pro"
//! description = "Everything, billed monthly"
//! amount = 1000            # minor units of `currency`, per cycle
//! currency = "JPY"
//! cycle_unit = "months"    # days | weeks | months
//! cycle_interval = 1       # default 1
//! max_cycles = 12
//! trial_days = 14          # optional
//! discount_percentage = 10 # optional, with discount_cycles
//! discount_cycles = 3
//! ```

use std::collections::BTreeMap;

use checkout::contract::{CycleUnit, Discount, PlanTerms};
use serde::Deserialize;

use super::error::ConfigError;
use super::source::PlanSource;
use checkout::currency::Currency;

/// Longest plan id.
pub const MAX_PLAN_ID_CHARS: usize = 64;

/// The plans a session may name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PlanCatalogue {
    plans: BTreeMap<String, PlanTerms>,
}

impl PlanCatalogue {
    /// The plan with this id.
    pub fn get(&self, id: &str) -> Option<&PlanTerms> {
        self.plans.get(id)
    }

    /// Every plan, by id.
    pub fn iter(&self) -> impl Iterator<Item = &PlanTerms> {
        self.plans.values()
    }

    /// Number of plans.
    pub fn len(&self) -> usize {
        self.plans.len()
    }

    /// True when no plan is configured.
    pub fn is_empty(&self) -> bool {
        self.plans.is_empty()
    }

    /// Reads and checks the `[plans]` tables of the config file.
    pub fn from_source(source: &PlanSource) -> Result<Self, ConfigError> {
        let mut plans = BTreeMap::new();
        for (id, value) in &source.table {
            let label = |field: &str| {
                let path = if field.is_empty() {
                    format!("plans.{id}")
                } else {
                    format!("plans.{id}.{field}")
                };
                format!("{path} (in {})", source.path.display())
            };
            let valid_id = !id.is_empty()
                && id.chars().count() <= MAX_PLAN_ID_CHARS
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
            if !valid_id {
                return Err(ConfigError::Invalid {
                    key: label(""),
                    reason: "a plan id is 1 to 64 letters, digits, '-' or '_'".into(),
                });
            }
            let entry: PlanEntry =
                serde_path_to_error::deserialize(value.clone()).map_err(|e| {
                    ConfigError::Invalid {
                        key: label(&e.path().to_string().replace('?', "")),
                        reason: e.inner().to_string(),
                    }
                })?;
            let terms = entry
                .into_terms(id)
                .map_err(|(field, reason)| ConfigError::Invalid {
                    key: label(field),
                    reason: reason.into(),
                })?;
            plans.insert(id.clone(), terms);
        }
        Ok(Self { plans })
    }
}

impl FromIterator<PlanTerms> for PlanCatalogue {
    fn from_iter<I: IntoIterator<Item = PlanTerms>>(iter: I) -> Self {
        Self {
            plans: iter.into_iter().map(|p| (p.id.clone(), p)).collect(),
        }
    }
}

/// What the customer pays when the subscription is created: nothing during a trial (the
/// gateway only verifies and stores the card), else the first cycle with any discount.
pub fn first_charge(plan: &PlanTerms) -> u64 {
    match (plan.trial_days, plan.discount) {
        (Some(_), _) => 0,
        (None, Some(discount)) => discount.apply(plan.amount),
        (None, None) => plan.amount,
    }
}

/// One `[plans.<id>]` table as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlanEntry {
    name: String,
    #[serde(default)]
    description: String,
    amount: u64,
    currency: String,
    cycle_unit: CycleUnit,
    #[serde(default = "one")]
    cycle_interval: u32,
    max_cycles: u32,
    #[serde(default)]
    trial_days: Option<u32>,
    #[serde(default)]
    discount_percentage: Option<u8>,
    #[serde(default)]
    discount_cycles: Option<u32>,
}

fn one() -> u32 {
    1
}

type FieldError = (&'static str, &'static str);

impl PlanEntry {
    fn into_terms(self, id: &str) -> Result<PlanTerms, FieldError> {
        let name = self.name.trim();
        if name.is_empty() || name.chars().count() > 128 {
            return Err(("name", "must be 1 to 128 characters"));
        }
        if self.description.chars().count() > 255 {
            return Err(("description", "must be at most 255 characters"));
        }
        if self.amount == 0 || i64::try_from(self.amount).is_err() {
            return Err(("amount", "must be a positive whole number of minor units"));
        }
        if Currency::find(&self.currency).is_none() {
            return Err((
                "currency",
                "must be an ISO 4217 code in upper case, e.g. JPY",
            ));
        }
        if !(1..=365).contains(&self.cycle_interval) {
            return Err(("cycle_interval", "must be 1 to 365"));
        }
        if !(1..=1000).contains(&self.max_cycles) {
            return Err(("max_cycles", "must be 1 to 1000"));
        }
        if self
            .trial_days
            .is_some_and(|days| !(1..=365).contains(&days))
        {
            return Err(("trial_days", "must be 1 to 365"));
        }
        let discount = match (self.discount_percentage, self.discount_cycles) {
            (None, None) => None,
            (Some(percentage), Some(cycles)) => {
                if !(1..=100).contains(&percentage) {
                    return Err(("discount_percentage", "must be 1 to 100"));
                }
                if cycles == 0 || cycles > self.max_cycles {
                    return Err(("discount_cycles", "must be 1 to max_cycles"));
                }
                Some(Discount { percentage, cycles })
            }
            (Some(_), None) => {
                return Err(("discount_cycles", "is required with discount_percentage"));
            }
            (None, Some(_)) => {
                return Err(("discount_percentage", "is required with discount_cycles"));
            }
        };
        Ok(PlanTerms {
            id: id.to_owned(),
            name: name.to_owned(),
            description: self.description.trim().to_owned(),
            amount: self.amount,
            currency: self.currency,
            cycle_unit: self.cycle_unit,
            cycle_interval: self.cycle_interval,
            trial_days: self.trial_days,
            discount,
            max_cycles: self.max_cycles,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn source(text: &str) -> PlanSource {
        let table: toml::Table = toml::from_str(text).expect("toml");
        let Some(toml::Value::Table(plans)) = table.get("plans").cloned() else {
            panic!("no plans table");
        };
        PlanSource {
            table: plans,
            path: PathBuf::from("checkout.toml"),
        }
    }

    #[test]
    fn reads_a_plan() {
        let catalogue = PlanCatalogue::from_source(&source(
            "[plans.pro]\nname = \"Pro\"\namount = 1000\ncurrency = \"JPY\"\ncycle_unit = \"months\"\nmax_cycles = 12\ndiscount_percentage = 10\ndiscount_cycles = 3\n",
        ))
        .expect("valid");
        let plan = catalogue.get("pro").expect("present");
        assert_eq!(plan.cycle_interval, 1);
        assert_eq!(first_charge(plan), 900);
    }

    #[test]
    fn errors_name_the_plan_field() {
        let cases = [
            (
                "[plans.pro]\nname = \"P\"\namount = 0\ncurrency = \"JPY\"\ncycle_unit = \"days\"\nmax_cycles = 1\n",
                "plans.pro.amount",
            ),
            (
                "[plans.pro]\nname = \"P\"\namount = 5\ncurrency = \"jpy\"\ncycle_unit = \"days\"\nmax_cycles = 1\n",
                "plans.pro.currency",
            ),
            (
                "[plans.pro]\nname = \"P\"\namount = 5\ncurrency = \"JPY\"\ncycle_unit = \"years\"\nmax_cycles = 1\n",
                "plans.pro.cycle_unit",
            ),
            (
                "[plans.pro]\nname = \"P\"\namount = 5\ncurrency = \"JPY\"\ncycle_unit = \"days\"\nmax_cycles = 1\ncolour = \"red\"\n",
                "plans.pro",
            ),
            ("[plans.\"a b\"]\nname = \"P\"\n", "plans.a b"),
            (
                "[plans.pro]\nname = \"P\"\namount = 5\ncurrency = \"JPY\"\ncycle_unit = \"days\"\nmax_cycles = 3\ndiscount_percentage = 10\n",
                "plans.pro.discount_cycles",
            ),
        ];
        for (text, key) in cases {
            let err = PlanCatalogue::from_source(&source(text))
                .expect_err(key)
                .to_string();
            assert!(err.starts_with(key), "{key}: {err}");
        }
    }

    #[test]
    fn trial_plans_charge_nothing_at_creation() {
        let catalogue = PlanCatalogue::from_source(&source(
            "[plans.pro]\nname = \"P\"\namount = 980\ncurrency = \"JPY\"\ncycle_unit = \"months\"\nmax_cycles = 12\n",
        ))
        .expect("valid plan");
        let mut plan = catalogue.get("pro").cloned().expect("plan");
        assert_eq!(first_charge(&plan), 980);
        plan.trial_days = Some(7);
        assert_eq!(first_charge(&plan), 0);
    }
}
