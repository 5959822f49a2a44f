//! `GET /subscription/list` read in bounded memory. The list has no paging (the contract shows
//! none), so the whole answer is one body: it is read up to a byte limit, and its
//! subscriptions are handed to the caller one by one as they are parsed, so what is kept is
//! the body and whatever the caller keeps of each, never the whole list parsed at once.

use std::fmt;

use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::client::GatewayClient;
use super::error::GatewayError;
use super::outcome;
use checkout::wire::SubscriptionDetails;

/// What a list read saw besides the subscriptions it handed over.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListRead {
    /// Subscriptions in the answer.
    pub listed: u64,
    /// Bytes of the answer.
    pub bytes: usize,
}

impl GatewayClient {
    /// `GET /subscription/list` (retried like every read), reading at most `max_bytes` of the
    /// answer and calling `each` with every subscription in it, in the gateway's order. A
    /// longer answer, or one that is not a successful list, is an error and `each` may have
    /// seen part of it.
    #[tracing::instrument(name = "gateway", skip_all, fields(endpoint = "subscription_list"))]
    pub async fn subscription_list_each(
        &self,
        max_bytes: usize,
        mut each: impl FnMut(SubscriptionDetails),
    ) -> Result<ListRead, GatewayError> {
        let reply = self.get_at_most("subscription/list", max_bytes).await?;
        let bytes = reply.body.len();
        let mut listed = 0_u64;
        let body = outcome::read_with(&reply, |body| {
            let mut deserializer = serde_json::Deserializer::from_slice(body);
            let success = ListSeed {
                each: &mut |details| {
                    listed += 1;
                    each(details);
                },
            }
            .deserialize(&mut deserializer)?;
            deserializer.end()?;
            Ok(success)
        })?;
        if !body {
            return Err(GatewayError::InvalidResponse {
                status: 200,
                reason: "the subscription list answered success: false".into(),
            });
        }
        Ok(ListRead { listed, bytes })
    }
}

/// The list answer's object: `success` read, `subscription_details` visited item by item,
/// anything else skipped. Its value is `success`.
struct ListSeed<'f> {
    each: &'f mut dyn FnMut(SubscriptionDetails),
}

impl<'de> DeserializeSeed<'de> for ListSeed<'_> {
    type Value = bool;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<bool, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ListSeed<'_> {
    type Value = bool;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a subscription list answer")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<bool, A::Error> {
        let each = self.each;
        let mut success = None;
        let mut details_seen = false;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "success" => success = Some(map.next_value::<bool>()?),
                "subscription_details" => {
                    map.next_value_seed(Items { each: &mut *each })?;
                    details_seen = true;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        if !details_seen {
            return Err(serde::de::Error::missing_field("subscription_details"));
        }
        success.ok_or_else(|| serde::de::Error::missing_field("success"))
    }
}

/// The `subscription_details` array, each item parsed and handed over on its own.
struct Items<'a, 'f> {
    each: &'a mut (dyn FnMut(SubscriptionDetails) + 'f),
}

impl<'de> DeserializeSeed<'de> for Items<'_, '_> {
    type Value = ();

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of subscriptions")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while let Some(details) = seq.next_element::<SubscriptionDetails>()? {
            (self.each)(details);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn item(id: &str) -> serde_json::Value {
        json!({
            "id": id, "type": "CYCLE", "max_cycle_count": 12, "status": "ACTIVE",
            "completed_payment_cycle": 1, "next_payment_date": null, "next_payment_cycle": 2,
            "subscription_plan_details": {
                "name": "Pro", "desc": "", "billing_cycle_type": "MONTHS", "billing_cycle_interval": 1,
                "amount": 1000, "ccy": "JPY", "trial_period_duration": "", "trial_period_duration_type": "NONE",
                "plan_discount_percentage": 0, "plan_discount_duration": 0
            },
            "subscription_transaction_details": []
        })
    }

    fn visit(body: &serde_json::Value) -> (Result<bool, serde_json::Error>, Vec<String>) {
        let text = serde_json::to_vec(body).expect("json");
        let mut seen = Vec::new();
        let mut deserializer = serde_json::Deserializer::from_slice(&text);
        let result = ListSeed {
            each: &mut |details: SubscriptionDetails| seen.push(details.id),
        }
        .deserialize(&mut deserializer);
        (result, seen)
    }

    #[test]
    fn items_are_handed_over_one_by_one_and_the_rest_is_skipped() {
        let body = json!({
            "is_live": false, "status_code": 200,
            "subscription_details": [item("a"), item("b")],
            "success": true, "extra": {"nested": [1, 2]}
        });
        let (success, seen) = visit(&body);
        assert!(success.expect("parses"));
        assert_eq!(seen, ["a", "b"]);
    }

    #[test]
    fn a_body_without_the_list_or_with_a_bad_item_is_refused() {
        let (result, _) = visit(&json!({"success": true}));
        assert!(result.is_err());
        let (result, seen) =
            visit(&json!({"success": true, "subscription_details": [item("a"), {"id": 5}]}));
        assert!(result.is_err());
        assert_eq!(seen, ["a"], "the items before the bad one were seen");
    }
}
