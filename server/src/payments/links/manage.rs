//! Making, reading, listing and deactivating links, for the merchant API and the dashboard
//! alike, and the figures the dashboard shows.

use super::error::invalid;
use super::{LinkError, PaymentLinkService};
use crate::payments::now;
use crate::store::model::{
    LinkAmount, LinkFigures, NewPaymentLink, Page, PageCursor, Payment, PaymentLink, PaymentQuery,
};

impl PaymentLinkService {
    /// Checks `new` (every rule names its field) and stores it.
    pub async fn create(&self, new: NewPaymentLink) -> Result<PaymentLink, LinkError> {
        new.validate()?;
        if new.expires_at.is_some_and(|at| at <= now()) {
            return Err(invalid("expires_at", "must be in the future"));
        }
        if let Some(plan_id) = &new.plan_id {
            self.check_plan_terms(plan_id, &new)?;
        }
        let link = self.store().create_link(new, now()).await?;
        tracing::info!(payment_link_id = %link.id, "payment link created");
        Ok(link)
    }

    /// A subscription link charges what its plan does, one at a time.
    fn check_plan_terms(&self, plan_id: &str, new: &NewPaymentLink) -> Result<(), LinkError> {
        let plans = &self.payments().settings().plans;
        let plan = plans
            .get(plan_id)
            .ok_or_else(|| invalid("plan_id", "no plan with this id is offered"))?;
        if new.currency != plan.currency {
            return Err(invalid("currency", "must equal the plan's currency"));
        }
        if new.amount
            != (LinkAmount::Fixed {
                amount: plan.amount,
            })
        {
            return Err(invalid("amount", "must equal the plan's amount"));
        }
        if new.quantity_max.is_some() {
            return Err(invalid("quantity_max", "a subscription link sells one"));
        }
        Ok(())
    }

    /// The link with this id.
    pub async fn get(&self, id: &str) -> Result<PaymentLink, LinkError> {
        Ok(self.store().get_link(id).await?.ok_or_else(not_found)?)
    }

    /// A page of links, newest first.
    pub async fn list(
        &self,
        limit: u32,
        after: Option<PageCursor>,
    ) -> Result<Page<PaymentLink>, LinkError> {
        Ok(self.store().list_links(limit, after).await?)
    }

    /// Deactivates the link for good: its page shows no form and no payment of it is recorded
    /// any more (not even of a session already started from it).
    pub async fn deactivate(&self, id: &str) -> Result<PaymentLink, LinkError> {
        let link = self
            .store()
            .deactivate_link(id, now())
            .await?
            .ok_or_else(not_found)?;
        tracing::info!(payment_link_id = %link.id, "payment link deactivated");
        Ok(link)
    }

    /// The link's views, paid sessions, amount paid and places held.
    pub async fn figures(&self, id: &str) -> Result<LinkFigures, LinkError> {
        Ok(self.store().link_figures(id).await?.ok_or_else(not_found)?)
    }

    /// Up to `limit` payments made through the link, newest first.
    pub async fn payments_of(&self, id: &str, limit: u32) -> Result<Page<Payment>, LinkError> {
        Ok(self
            .store()
            .list_payments(PaymentQuery {
                payment_link_id: Some(id.to_owned()),
                limit,
                ..PaymentQuery::default()
            })
            .await?)
    }
}

/// "No such payment link", as every lookup by id answers it.
fn not_found() -> LinkError {
    LinkError::Payment(crate::payments::PaymentError::NotFound("payment_link"))
}
