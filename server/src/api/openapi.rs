//! `GET /openapi.json`: the document in `server/openapi/openapi.json`, with what depends on the
//! configuration written in as it is served, so the document states every limit this server
//! enforces: the catalogue's plans (a subscription session names one of them, and its amount
//! and currency are the plan's) and the longest customer token (`CUSTOMER_TOKEN_TTL_SECONDS`).

use serde_json::{Value, json};

use crate::config::{Config, first_charge};

/// The OpenAPI document as written, before the configuration goes in.
pub const OPENAPI_JSON: &str = include_str!("../../openapi/openapi.json");

/// The document for `config`; the file as it is if it cannot be read as JSON (a test keeps it
/// readable).
pub fn document(config: &Config) -> String {
    let Ok(mut document) = serde_json::from_str::<Value>(OPENAPI_JSON) else {
        return OPENAPI_JSON.to_owned();
    };
    let schemas = &mut document["components"]["schemas"];
    schemas["CreateSession"]["oneOf"][1] = subscription_branch(config);
    schemas["TokenRequest"]["properties"]["ttl_seconds"]["maximum"] =
        json!(config.ops.customer_token_ttl.as_secs());
    document.to_string()
}

/// The subscription branch of `CreateSession`: one alternative per plan (its id, first
/// charge and currency), or nothing valid when the catalogue is empty.
fn subscription_branch(config: &Config) -> Value {
    let plans: Vec<Value> = config
        .plans
        .iter()
        .map(|plan| {
            json!({
                "properties": {
                    "plan_id": {"const": plan.id},
                    "amount": {"enum": [first_charge(plan), null]},
                    "currency": {"enum": [plan.currency, null]},
                }
            })
        })
        .collect();
    if plans.is_empty() {
        return json!({
            "title": "subscription",
            "description": "No plan is configured: no subscription session can be created.",
            "not": {}
        });
    }
    json!({
        "title": "subscription",
        "description": "A subscription: a plan of the catalogue and the customer. `amount` and `currency` come from the plan (given, they must equal its first charge and currency); it is always a purchase.",
        "required": ["plan_id", "customer_id"],
        "properties": {
            "customer_id": {"type": "string"},
            "capture": {"enum": [true, null]}
        },
        "oneOf": plans
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::tests::emulator;

    #[test]
    fn the_catalogue_and_the_token_lifetime_are_written_in() {
        let config = Config::from_pairs(&[("CUSTOMER_TOKEN_TTL_SECONDS", "600")], &emulator())
            .expect("valid");
        let served: Value = serde_json::from_str(&document(&config)).expect("JSON");
        let schemas = &served["components"]["schemas"];
        assert_eq!(
            schemas["TokenRequest"]["properties"]["ttl_seconds"]["maximum"],
            600
        );
        let plans = schemas["CreateSession"]["oneOf"][1]["oneOf"]
            .as_array()
            .expect("one branch per plan");
        assert_eq!(plans.len(), config.plans.iter().count());
        let first = config.plans.iter().next().expect("the sandbox has plans");
        assert_eq!(
            plans[0]["properties"]["plan_id"]["const"],
            first.id.as_str()
        );
        assert_eq!(
            plans[0]["properties"]["amount"]["enum"][0],
            first_charge(first)
        );
    }
}
