//! The subscriptions list's filters as the form sends them (every field a string, empty
//! meaning unset) and their translation into the store's [`SubscriptionQuery`], naming the
//! field at fault: status, customer id, plan and currency — what a subscription records.

use serde::{Deserialize, Serialize};

use super::filters::{PAGE_SIZE, currency_code, page_cursor, set};
use crate::dashboard::error::DashboardError;
use crate::store::model::subscription::parse_status;
use crate::store::model::{PageCursor, SubscriptionQuery};

/// Longest customer or plan id the filter takes (ids are far shorter).
const MAX_ID_CHARS: usize = 255;

/// The filter form's fields, as sent (and as the next page's link repeats them).
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default)]
pub struct SubscriptionFilters {
    /// A subscription status.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub status: String,
    /// The customer's id.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub customer: String,
    /// The plan's id.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub plan: String,
    /// ISO 4217 code.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub currency: String,
    /// The page cursor.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub after: String,
}

/// An id typed into a filter: bounded, without control characters.
fn id(field: &str, text: &str) -> Result<String, DashboardError> {
    if text.chars().count() > MAX_ID_CHARS || text.chars().any(char::is_control) {
        return Err(DashboardError::bad(
            field,
            format!("must be at most {MAX_ID_CHARS} characters without control characters"),
        ));
    }
    Ok(text.to_owned())
}

impl SubscriptionFilters {
    /// The store query these filters ask for.
    pub fn query(&self) -> Result<SubscriptionQuery, DashboardError> {
        let mut query = SubscriptionQuery {
            limit: PAGE_SIZE,
            ..SubscriptionQuery::default()
        };
        if let Some(status) = set(&self.status) {
            query.status = Some(parse_status(status).ok_or_else(|| {
                DashboardError::bad("status", "must be active, paused, cancelled or expired")
            })?);
        }
        query.customer_id = set(&self.customer).map(|c| id("customer", c)).transpose()?;
        query.plan_id = set(&self.plan).map(|p| id("plan", p)).transpose()?;
        query.currency = set(&self.currency).map(currency_code).transpose()?;
        query.after = set(&self.after).map(page_cursor).transpose()?;
        Ok(query)
    }

    /// The query string of these filters continued after `cursor`.
    pub fn next_page(&self, cursor: &PageCursor) -> String {
        let next = Self {
            after: cursor.to_string(),
            ..self.clone()
        };
        serde_urlencoded::to_string(&next).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_become_a_query_and_bad_ones_name_their_field() {
        let query = SubscriptionFilters {
            status: "paused".into(),
            customer: "cust-1".into(),
            plan: "demo-monthly".into(),
            currency: "eur".into(),
            after: String::new(),
        }
        .query()
        .expect("valid");
        assert_eq!(query.customer_id.as_deref(), Some("cust-1"));
        assert_eq!(query.plan_id.as_deref(), Some("demo-monthly"));
        assert_eq!(query.currency.as_deref(), Some("EUR"));
        assert!(query.status.is_some());
        let field = |filters: SubscriptionFilters| match filters.query() {
            Err(DashboardError::BadRequest { field, .. }) => field,
            other => panic!("{other:?}"),
        };
        let bad = |f: fn(&mut SubscriptionFilters)| {
            let mut filters = SubscriptionFilters::default();
            f(&mut filters);
            field(filters)
        };
        assert_eq!(bad(|f| f.status = "gone".into()), "status");
        assert_eq!(bad(|f| f.customer = "a\u{0}b".into()), "customer");
        assert_eq!(bad(|f| f.plan = "p".repeat(256)), "plan");
        assert_eq!(bad(|f| f.currency = "EURO".into()), "currency");
        assert_eq!(bad(|f| f.after = "x".into()), "after");
    }

    #[test]
    fn the_next_page_keeps_the_filters() {
        let filters = SubscriptionFilters {
            status: "active".into(),
            customer: "a b&c".into(),
            ..SubscriptionFilters::default()
        };
        let cursor: PageCursor = "1767225600000_abc".parse().expect("cursor");
        let next = filters.next_page(&cursor);
        assert!(
            next.starts_with("status=active&customer=a+b%26c&after="),
            "{next}"
        );
    }
}
