//! This server's own addresses that travel through the gateway: the per-payment webhook,
//! success and decline paths (each carrying the server's payment id, because the 3DS start
//! answer carries no transaction id), and the shop's landing pages the customer is finally
//! sent to. None of them is ever taken from a request.

use reqwest::Url;

use crate::store::model::Payment;
use checkout::wire::ReturnUrl;

/// Route of the webhook receiver: the payment id and its unguessable path token.
pub const WEBHOOK_ROUTE: &str = "/hooks/gateway/{payment_id}/{token}";
/// Route of the 3DS return pages; `outcome` is `success` or `decline`.
pub const RETURN_ROUTE: &str = "/checkout/return/{payment_id}/{outcome}";

/// Route of a payment link's hosted page.
pub const LINK_PAGE_ROUTE: &str = "/pay/{public_id}";
/// Route the hosted page posts to when the payer presses Pay: starts the link's session.
pub const LINK_SESSION_ROUTE: &str = "/pay/{public_id}/session";
/// Route of the receipt page of a session paid through a link.
pub const RECEIPT_ROUTE: &str = "/receipts/{receipt_id}";

/// How a payment ended, as the landing page is told (`checkout=` query parameter).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landing {
    /// Paid (or the amount reserved).
    Paid,
    /// Declined or failed.
    Declined,
    /// Not known yet.
    Processing,
}

impl Landing {
    fn as_str(self) -> &'static str {
        match self {
            Self::Paid => "paid",
            Self::Declined => "declined",
            Self::Processing => "processing",
        }
    }
}

/// The server's public addresses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrls {
    /// `PUBLIC_BASE_URL` without a trailing slash.
    pub base: String,
    /// `SUCCESS_URL`.
    pub success_page: String,
    /// `DECLINE_URL`.
    pub decline_page: String,
}

impl PublicUrls {
    /// Addresses for `base`, with the shop's pages defaulting to the base itself.
    pub fn new(base: String, success_page: Option<String>, decline_page: Option<String>) -> Self {
        let root = format!("{base}/");
        Self {
            success_page: success_page.unwrap_or_else(|| root.clone()),
            decline_page: decline_page.unwrap_or(root),
            base,
        }
    }

    /// The `return_url` object for `payment` as the store has just recorded it: the only
    /// time its webhook path secret is known (the store keeps its hash). `None` for a payment
    /// read back later.
    pub fn return_url(&self, payment: &Payment) -> Option<ReturnUrl> {
        use secrecy::ExposeSecret as _;
        let id = &payment.id;
        let token = payment.webhook_token.as_ref()?;
        Some(ReturnUrl {
            webhook_url: format!("{}/hooks/gateway/{id}/{}", self.base, token.expose_secret()),
            success_url: format!("{}/checkout/return/{id}/success", self.base),
            decline_url: format!("{}/checkout/return/{id}/decline", self.base),
        })
    }

    /// The address of a payment link's page, to send to payers.
    pub fn link_page(&self, public_id: &str) -> String {
        format!("{}/pay/{public_id}", self.base)
    }

    /// The address of a receipt page.
    pub fn receipt_page(&self, receipt_id: &str) -> String {
        format!("{}/receipts/{receipt_id}", self.base)
    }

    /// The shop page to send the customer to: `SUCCESS_URL` unless declined, with
    /// `checkout`, `session_id` and `payment_id` query parameters added.
    pub fn landing(&self, landing: Landing, session_id: &str, payment_id: &str) -> String {
        let page = match landing {
            Landing::Declined => &self.decline_page,
            Landing::Paid | Landing::Processing => &self.success_page,
        };
        with_query(
            page,
            &[
                ("checkout", landing.as_str()),
                ("session_id", session_id),
                ("payment_id", payment_id),
            ],
        )
    }
}

/// The shop's page `page` a link sends its payer to after paying, with what the shop needs to
/// find the payment: `payment_link_id` and `session_id` (the page's script adds the
/// `payment_id` once paid; `GET /v1/sessions/{id}` lists the session's payments).
pub fn link_landing(page: &str, payment_link_id: &str, session_id: &str) -> String {
    with_query(
        page,
        &[
            ("payment_link_id", payment_link_id),
            ("session_id", session_id),
        ],
    )
}

/// The shop's page `page` with `pairs` added to its query. Every such page was checked as an
/// address when it was configured or the link made; one that does not parse stays as it is,
/// still usable.
fn with_query(page: &str, pairs: &[(&str, &str)]) -> String {
    match Url::parse(page) {
        Ok(mut url) => {
            url.query_pairs_mut().extend_pairs(pairs);
            url.into()
        }
        Err(_) => page.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn landing_keeps_the_configured_page_and_adds_parameters() {
        let urls = PublicUrls::new(
            "https://pay.example".into(),
            Some("https://shop.example/thanks?lang=de".into()),
            None,
        );
        assert_eq!(
            urls.landing(Landing::Paid, "s1", "p1"),
            "https://shop.example/thanks?lang=de&checkout=paid&session_id=s1&payment_id=p1"
        );
        assert_eq!(
            urls.landing(Landing::Declined, "s1", "p1"),
            "https://pay.example/?checkout=declined&session_id=s1&payment_id=p1"
        );
    }

    #[test]
    fn a_links_landing_keeps_the_shops_page_and_names_the_link_and_session() {
        assert_eq!(
            link_landing("https://shop.example/thanks?order=7", "plink_1", "cs_2"),
            "https://shop.example/thanks?order=7&payment_link_id=plink_1&session_id=cs_2"
        );
    }
}
