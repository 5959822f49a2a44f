//! The one-endpoint shortcut in configuration: `MERCHANT_WEBHOOK_URL` with
//! `MERCHANT_WEBHOOK_SECRET` becomes the endpoint [`CONFIG_ENDPOINT_ID`], kept in line with the
//! configuration at every start.

use secrecy::ExposeSecret as _;
use time::OffsetDateTime;

use crate::config::{CONFIG_ENDPOINT_ID, ConfiguredEndpoint};
use crate::store::StoreError;
use crate::store::events::EventStore;
use crate::store::model::{EndpointStatus, EndpointUpdate, EventTypes, NewEndpoint};

/// Creates the endpoint `MERCHANT_WEBHOOK_URL` names (id [`CONFIG_ENDPOINT_ID`], every event
/// type), or brings it in line with the configuration: its URL, all types, its secret (replaced
/// at once, no overlap). A changed URL or secret enables it again (the operator fixed it).
pub async fn configure_endpoint(
    store: &dyn EventStore,
    configured: &ConfiguredEndpoint,
) -> Result<(), StoreError> {
    for round in 0..2 {
        let existing = match store.get_endpoint(CONFIG_ENDPOINT_ID).await {
            // Its secret was sealed under a key no longer configured (a lost SECRETS_KEY):
            // the configured secret replaces it (the unreadable one is dropped).
            Err(StoreError::Sealed { .. }) if round == 0 => {
                tracing::warn!(
                    endpoint = CONFIG_ENDPOINT_ID,
                    "the webhook endpoint's stored secret does not open with the configured keys; \
                     MERCHANT_WEBHOOK_SECRET replaces it"
                );
                store
                    .rotate_endpoint_secret(
                        CONFIG_ENDPOINT_ID,
                        configured.secret.clone(),
                        OffsetDateTime::now_utc(),
                    )
                    .await?;
                continue;
            }
            found => found?,
        };
        let Some(existing) = existing else {
            let new = NewEndpoint {
                id: CONFIG_ENDPOINT_ID.to_owned(),
                url: configured.url.clone(),
                description: Some("MERCHANT_WEBHOOK_URL".to_owned()),
                event_types: EventTypes::All,
                secret: configured.secret.clone(),
            };
            match store.create_endpoint(new).await {
                Ok(_) => {
                    tracing::info!(
                        endpoint = CONFIG_ENDPOINT_ID,
                        "webhook endpoint created from MERCHANT_WEBHOOK_URL"
                    );
                    return Ok(());
                }
                // Another instance starting at the same moment created it: update that one.
                Err(error) if round == 0 => {
                    tracing::debug!(%error, "the configured webhook endpoint exists already");
                    continue;
                }
                Err(error) => return Err(error),
            }
        };
        let new_secret = existing.secret.expose_secret() != configured.secret.expose_secret();
        let moved = existing.url != configured.url;
        if new_secret {
            store
                .rotate_endpoint_secret(
                    CONFIG_ENDPOINT_ID,
                    configured.secret.clone(),
                    OffsetDateTime::now_utc(),
                )
                .await?;
        }
        let reenable = (new_secret || moved) && existing.status == EndpointStatus::Disabled;
        if moved || existing.event_types != EventTypes::All || reenable {
            let update = EndpointUpdate {
                url: moved.then(|| configured.url.clone()),
                event_types: Some(EventTypes::All),
                status: reenable.then_some((EndpointStatus::Enabled, None)),
                ..EndpointUpdate::default()
            };
            store.update_endpoint(CONFIG_ENDPOINT_ID, update).await?;
        }
        if existing.status == EndpointStatus::Disabled && !reenable {
            tracing::warn!(
                endpoint = CONFIG_ENDPOINT_ID,
                reason = existing.disabled_reason.as_deref(),
                "the webhook endpoint MERCHANT_WEBHOOK_URL names is disabled; enable it through the API"
            );
        }
        return Ok(());
    }
    Err(StoreError::Invalid {
        field: "MERCHANT_WEBHOOK_URL",
        reason: "the configured endpoint could be neither created nor read",
    })
}
