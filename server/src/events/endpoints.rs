//! The shop's webhook endpoints as a service over the store: creating one (an id, a Standard
//! Webhooks signing secret handed out once), checking what the merchant gives (the URL, the
//! event types, the note), changing, disabling, rotating the secret with an overlap, deleting;
//! and sending an event again, or every delivery of a time range that was given up; an
//! endpoint's health over the last [`HEALTH_WINDOW`]. Knows nothing of HTTP: failures are [`EndpointError`]s naming
//! the field at fault.

use time::{Duration, OffsetDateTime};

use super::types::{self, BadSelection};
use crate::config::Config;
use crate::store::delivery_report::EndpointHealth;
use crate::store::model::{
    EndpointStatus, EndpointUpdate, EventTypes, NewEndpoint, WebhookEndpoint,
};
use crate::store::{Store, StoreError};
use crate::webhook_rules::secret::new_secret;
use crate::webhook_rules::target::{check_target_url, is_local_name};

/// Longest URL an endpoint may have, in characters.
pub const MAX_URL_CHARS: usize = 2048;
/// Longest note, in characters.
pub const MAX_DESCRIPTION_CHARS: usize = 500;
/// How long the replaced secret keeps signing after a rotation, unless told otherwise.
pub const DEFAULT_OVERLAP: Duration = Duration::hours(24);
/// The longest overlap a rotation may ask for.
pub const MAX_OVERLAP: Duration = Duration::days(7);
/// The recent window of an endpoint's health (its success rate).
pub const HEALTH_WINDOW: Duration = Duration::hours(24);
/// The longest time range whose given-up deliveries are sent again at once.
pub const MAX_REDELIVERY_RANGE: Duration = Duration::days(31);
/// The reason an endpoint shows when the merchant disabled it.
pub const DISABLED_BY_MERCHANT: &str = "disabled by the merchant";

/// Why an endpoint operation failed.
#[derive(Debug, thiserror::Error)]
pub enum EndpointError {
    /// A value breaks a rule; `field` names it.
    #[error("{field}: {message}")]
    Invalid {
        /// The field at fault (`url`, `event_types`, …).
        field: &'static str,
        /// What is wrong, without the value.
        message: String,
    },
    /// No such endpoint or event (`"webhook endpoint"`, `"event"`).
    #[error("no such {0}")]
    NotFound(&'static str),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

fn invalid(field: &'static str, message: impl Into<String>) -> EndpointError {
    EndpointError::Invalid {
        field,
        message: message.into(),
    }
}

/// Where endpoints may point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TargetRules {
    /// Whether loopback, private, link-local and similar addresses are allowed.
    pub allow_private: bool,
}

impl TargetRules {
    /// The rules `config` sets (`WEBHOOK_ALLOW_PRIVATE`): with a real gateway private targets
    /// are refused unless it is `true`; the sandbox allows them by default, so the demo shop
    /// on loopback receives its events.
    pub fn from_config(config: &Config) -> Self {
        Self {
            allow_private: config.webhooks.allow_private,
        }
    }
}

/// A new endpoint as the merchant asks for it.
#[derive(Debug, Clone, Default)]
pub struct EndpointRequest {
    /// Where events go.
    pub url: String,
    /// The types wanted; `None` for all.
    pub event_types: Option<Vec<String>>,
    /// A note.
    pub description: Option<String>,
}

/// Changes the merchant asks for; `None` keeps a field.
#[derive(Debug, Clone, Default)]
pub struct EndpointChanges {
    /// A new URL.
    pub url: Option<String>,
    /// A new note; `Some(None)` removes it.
    pub description: Option<Option<String>>,
    /// New types.
    pub event_types: Option<Vec<String>>,
    /// Enable or disable.
    pub status: Option<EndpointStatus>,
}

/// The endpoint operations over one store.
pub struct Endpoints<'a> {
    store: &'a dyn Store,
    rules: TargetRules,
}

impl<'a> Endpoints<'a> {
    /// The operations over `store` under `rules`.
    pub fn new(store: &'a dyn Store, rules: TargetRules) -> Self {
        Self { store, rules }
    }

    /// Creates an endpoint with a fresh secret (in the returned record: show it once).
    pub async fn create(&self, request: EndpointRequest) -> Result<WebhookEndpoint, EndpointError> {
        let url = check_url(&request.url, self.rules)?;
        let event_types = check_types(request.event_types.as_deref())?;
        let description = check_description(request.description)?;
        Ok(self
            .store
            .create_endpoint(NewEndpoint {
                id: new_endpoint_id(),
                url,
                description,
                event_types,
                secret: new_secret(),
            })
            .await?)
    }

    /// Every endpoint, oldest first.
    pub async fn list(&self) -> Result<Vec<WebhookEndpoint>, EndpointError> {
        Ok(self.store.list_endpoints().await?)
    }

    /// The endpoint `id`.
    pub async fn get(&self, id: &str) -> Result<WebhookEndpoint, EndpointError> {
        self.store
            .get_endpoint(id)
            .await?
            .ok_or(EndpointError::NotFound("webhook endpoint"))
    }

    /// Applies `changes` to endpoint `id`, each checked as at creation. Enabling clears the
    /// failure record; disabling records that the merchant did it.
    pub async fn update(
        &self,
        id: &str,
        changes: EndpointChanges,
    ) -> Result<WebhookEndpoint, EndpointError> {
        let update = EndpointUpdate {
            url: changes
                .url
                .map(|url| check_url(&url, self.rules))
                .transpose()?,
            description: changes.description.map(check_description).transpose()?,
            event_types: changes
                .event_types
                .map(|kinds| check_types(Some(&kinds)))
                .transpose()?,
            status: changes.status.map(|status| match status {
                EndpointStatus::Enabled => (status, None),
                EndpointStatus::Disabled => (status, Some(DISABLED_BY_MERCHANT.to_owned())),
            }),
        };
        self.store
            .update_endpoint(id, update)
            .await?
            .ok_or(EndpointError::NotFound("webhook endpoint"))
    }

    /// Gives endpoint `id` a new secret (in the returned record: show it once); the one it
    /// replaces keeps signing for `overlap` (default a day, at most a week), so the shop can
    /// switch without refusing a delivery. A secret replaced earlier stops signing at once.
    pub async fn rotate(
        &self,
        id: &str,
        overlap: Option<Duration>,
        now: OffsetDateTime,
    ) -> Result<WebhookEndpoint, EndpointError> {
        let overlap = overlap.unwrap_or(DEFAULT_OVERLAP);
        if overlap < Duration::ZERO || overlap > MAX_OVERLAP {
            return Err(invalid(
                "overlap_seconds",
                format!("must be 0 to {}", MAX_OVERLAP.whole_seconds()),
            ));
        }
        self.store
            .rotate_endpoint_secret(id, new_secret(), now + overlap)
            .await?
            .ok_or(EndpointError::NotFound("webhook endpoint"))
    }

    /// Deletes endpoint `id` with its deliveries and their log.
    pub async fn delete(&self, id: &str) -> Result<(), EndpointError> {
        if self.store.delete_endpoint(id).await? {
            Ok(())
        } else {
            Err(EndpointError::NotFound("webhook endpoint"))
        }
    }

    /// Sends event `event_id` again, due at `now`: to `endpoint_id` (even one created after
    /// the event), or to every endpoint it already went to. Returns how many deliveries are
    /// pending for it.
    pub async fn redeliver(
        &self,
        event_id: &str,
        endpoint_id: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<u64, EndpointError> {
        if self.store.get_event(event_id).await?.is_none() {
            return Err(EndpointError::NotFound("event"));
        }
        if let Some(endpoint_id) = endpoint_id {
            self.get(endpoint_id).await?;
        }
        Ok(self.store.redeliver(event_id, endpoint_id, now).await?)
    }

    /// Sends again, due at `now`, every delivery to endpoint `id` that was given up after its
    /// retries, of the events created in `[from, before)` (at most [`MAX_REDELIVERY_RANGE`]).
    /// Returns how many; a repeat finds them pending or delivered and sends nothing more.
    pub async fn redeliver_failed(
        &self,
        id: &str,
        from: OffsetDateTime,
        before: OffsetDateTime,
        now: OffsetDateTime,
    ) -> Result<u64, EndpointError> {
        if before <= from {
            return Err(invalid("to", "must be after the start of the range"));
        }
        if before - from > MAX_REDELIVERY_RANGE {
            return Err(invalid(
                "to",
                format!(
                    "the range is at most {} days",
                    MAX_REDELIVERY_RANGE.whole_days()
                ),
            ));
        }
        self.get(id).await?;
        Ok(self.store.redeliver_failed(id, from, before, now).await?)
    }

    /// How endpoint `id`'s deliveries are going, its success rate over the [`HEALTH_WINDOW`]
    /// before `now`.
    pub async fn health(
        &self,
        id: &str,
        now: OffsetDateTime,
    ) -> Result<EndpointHealth, EndpointError> {
        Ok(self.store.endpoint_health(id, now - HEALTH_WINDOW).await?)
    }
}

/// `we_` and 32 hex digits.
pub fn new_endpoint_id() -> String {
    format!("we_{}", uuid::Uuid::new_v4().simple())
}

/// `text` as the URL to store (normalised): [`check_target_url`]'s rule under `rules`, at most
/// [`MAX_URL_CHARS`], and without private targets not `localhost` (any other name is checked
/// again, resolved, at each delivery).
pub fn check_url(text: &str, rules: TargetRules) -> Result<String, EndpointError> {
    let too_long = || invalid("url", format!("must be at most {MAX_URL_CHARS} characters"));
    if text.chars().count() > MAX_URL_CHARS {
        return Err(too_long());
    }
    let url = check_target_url(text, rules.allow_private)
        .map_err(|refusal| invalid("url", refusal.to_string()))?;
    if !rules.allow_private && url.host_str().is_some_and(is_local_name) {
        return Err(invalid(
            "url",
            "must not point to localhost (set WEBHOOK_ALLOW_PRIVATE=true to allow it)",
        ));
    }
    let normalised = String::from(url);
    if normalised.chars().count() > MAX_URL_CHARS {
        return Err(too_long());
    }
    Ok(normalised)
}

fn check_types(requested: Option<&[String]>) -> Result<EventTypes, EndpointError> {
    types::select(requested).map_err(|bad: BadSelection| invalid("event_types", bad.to_string()))
}

/// The note to store: `None` when absent or blank. No control characters (the contract's
/// pattern; a NUL would otherwise reach PostgreSQL and fail there), not even a line break:
/// the note is one line in the dashboard's lists.
fn check_description(text: Option<String>) -> Result<Option<String>, EndpointError> {
    match text {
        Some(text) if text.chars().count() > MAX_DESCRIPTION_CHARS => Err(invalid(
            "description",
            format!("must be at most {MAX_DESCRIPTION_CHARS} characters"),
        )),
        Some(text) if text.chars().any(char::is_control) => Err(invalid(
            "description",
            "must be one line without control characters",
        )),
        Some(text) if text.trim().is_empty() => Ok(None),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SANDBOX: TargetRules = TargetRules {
        allow_private: true,
    };
    const REAL: TargetRules = TargetRules {
        allow_private: false,
    };

    fn field_of(result: Result<String, EndpointError>) -> &'static str {
        match result {
            Err(EndpointError::Invalid { field, .. }) => field,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn ids_are_we_and_32_hex_digits() {
        let id = new_endpoint_id();
        let hex = id.strip_prefix("we_").expect("we_ prefix");
        assert_eq!(hex.len(), 32);
        assert!(hex.bytes().all(|b| b.is_ascii_hexdigit()));
    }

    #[test]
    fn urls() {
        assert_eq!(
            check_url("HTTPS://Shop.Example/hooks?x=1", REAL).expect("valid"),
            "https://shop.example/hooks?x=1"
        );
        for bad in ["ftp://shop.example/", "not a url", ""] {
            assert_eq!(field_of(check_url(bad, SANDBOX)), "url", "{bad}");
        }
        let long = format!("https://shop.example/{}", "a".repeat(MAX_URL_CHARS));
        assert_eq!(field_of(check_url(&long, SANDBOX)), "url");
        for private in [
            "http://10.0.0.1/",
            "http://localhost:3000/",
            "http://api.localhost./",
        ] {
            assert_eq!(field_of(check_url(private, REAL)), "url", "{private}");
            assert!(check_url(private, SANDBOX).is_ok(), "{private}");
        }
    }

    #[test]
    fn descriptions() {
        assert_eq!(check_description(Some("  ".into())).expect("ok"), None);
        assert_eq!(
            check_description(Some("orders".into())).expect("ok"),
            Some("orders".into())
        );
        assert!(check_description(Some("x".repeat(MAX_DESCRIPTION_CHARS + 1))).is_err());
        assert!(check_description(Some("a\0b".into())).is_err());
        assert!(check_description(Some("a\u{1b}[31m".into())).is_err());
        assert!(check_description(Some("orders\nand refunds".into())).is_err());
        assert!(check_description(Some("orders\t".into())).is_err());
    }
}
