//! Faults armed for future calls: from the run's configuration, or from
//! `POST /sandbox/faults` so a system test can break the next N calls to an endpoint without
//! touching the caller.

use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::spec::{Fault, FaultParseError};

/// The API path prefix that endpoint names are written without.
const API_PREFIX: &str = "api/v1/server-to-server-interface/";

/// The endpoint name that webhook faults may be armed for (besides "any").
pub const WEBHOOK_ENDPOINT: &str = "webhook";

/// The endpoint name of the 3-D Secure page, which page faults may be armed for (besides "any").
pub const ACS_ENDPOINT: &str = "acs";

/// A fault waiting for matching calls.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ArmedFault {
    /// Route template under `/api/v1/server-to-server-interface/` (`payment`,
    /// `transaction/status/{id}`), `webhook`, `acs` (the 3-D Secure page), or `None` for every
    /// endpoint.
    pub endpoint: Option<String>,
    /// What happens.
    #[serde(serialize_with = "as_text")]
    pub fault: Fault,
    /// Calls left before it disarms; `None` never disarms.
    pub remaining: Option<u32>,
}

fn as_text<S: serde::Serializer>(fault: &Fault, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(fault)
}

impl ArmedFault {
    /// Arms `fault` for `endpoint` (normalised: a leading `/` and the API prefix are dropped).
    /// Webhook faults may only target `webhook` or every endpoint, page faults only `acs` or
    /// every endpoint; HTTP faults neither `webhook` nor `acs`.
    pub fn new(
        endpoint: Option<&str>,
        fault: Fault,
        remaining: Option<u32>,
    ) -> Result<Self, String> {
        let endpoint = endpoint.map(normalise_endpoint).filter(|e| !e.is_empty());
        if let Some(name) = &endpoint {
            let wanted = if fault.is_webhook_fault() {
                Some(WEBHOOK_ENDPOINT)
            } else if fault.is_page_fault() {
                Some(ACS_ENDPOINT)
            } else {
                None
            };
            match wanted {
                Some(wanted) if name != wanted => {
                    return Err(format!(
                        "`{fault}` acts on `{wanted}`: arm it for `{wanted}` or for every endpoint"
                    ));
                }
                None if name == WEBHOOK_ENDPOINT || name == ACS_ENDPOINT => {
                    return Err(format!(
                        "`{fault}` acts on HTTP answers and cannot be armed for `{name}`"
                    ));
                }
                _ => {}
            }
        }
        Ok(Self {
            endpoint,
            fault,
            remaining,
        })
    }

    fn matches_http(&self, endpoint: &str) -> bool {
        !self.fault.is_webhook_fault()
            && !self.fault.is_page_fault()
            && self.endpoint.as_deref().is_none_or(|e| e == endpoint)
    }
}

/// `[ENDPOINT=]FAULT[*COUNT]`, the `--fault` CLI form: without a count the fault stays armed
/// for the whole run.
impl FromStr for ArmedFault {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (endpoint, rest) = match text.split_once('=') {
            Some((endpoint, rest)) => (Some(endpoint.trim()), rest),
            None => (None, text),
        };
        let (fault, count) = match rest.split_once('*') {
            Some((fault, count)) => {
                let count: u32 = count
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| "the count after `*` must be a positive integer".to_owned())?;
                (fault, Some(count))
            }
            None => (rest, None),
        };
        let fault: Fault = fault.parse().map_err(|e: FaultParseError| e.to_string())?;
        ArmedFault::new(endpoint, fault, count)
    }
}

/// Drops a leading `/` and the API prefix: `/api/v1/server-to-server-interface/payment` and
/// `payment` name the same endpoint.
pub fn normalise_endpoint(endpoint: &str) -> String {
    let trimmed = endpoint.trim().trim_start_matches('/');
    trimmed
        .strip_prefix(API_PREFIX)
        .unwrap_or(trimmed)
        .to_owned()
}

/// The armed faults of one emulator. Checking an empty book costs one atomic load.
#[derive(Debug, Default)]
pub struct FaultBook {
    armed: Mutex<Vec<ArmedFault>>,
    any_armed: AtomicBool,
}

impl FaultBook {
    /// A book holding the run's default faults.
    pub fn new(defaults: Vec<ArmedFault>) -> Self {
        let book = Self::default();
        for fault in defaults {
            book.arm(fault);
        }
        book
    }

    /// Adds a fault.
    pub fn arm(&self, fault: ArmedFault) {
        let mut armed = self.lock();
        armed.push(fault);
        self.any_armed.store(true, Ordering::Release);
    }

    /// Removes every armed fault, defaults included.
    pub fn clear(&self) {
        let mut armed = self.lock();
        armed.clear();
        self.any_armed.store(false, Ordering::Release);
    }

    /// The faults still armed.
    pub fn list(&self) -> Vec<ArmedFault> {
        self.lock().clone()
    }

    /// Takes one use of every HTTP fault armed for `endpoint` (a route template such as
    /// `payment`).
    pub fn take_http(&self, endpoint: &str) -> Vec<Fault> {
        self.take(|armed| armed.matches_http(endpoint))
    }

    /// Takes one use of every webhook fault.
    pub fn take_webhook(&self) -> Vec<Fault> {
        self.take(|armed| armed.fault.is_webhook_fault())
    }

    /// Takes one use of every fault armed for the 3-D Secure page (one page shown).
    pub fn take_page(&self) -> Vec<Fault> {
        self.take(|armed| armed.fault.is_page_fault())
    }

    fn take(&self, wanted: impl Fn(&ArmedFault) -> bool) -> Vec<Fault> {
        if !self.any_armed.load(Ordering::Acquire) {
            return Vec::new();
        }
        let mut armed = self.lock();
        let mut taken = Vec::new();
        armed.retain_mut(|entry| {
            if !wanted(entry) {
                return true;
            }
            taken.push(entry.fault);
            match &mut entry.remaining {
                None => true,
                Some(left) => {
                    *left = left.saturating_sub(1);
                    *left > 0
                }
            }
        });
        self.any_armed.store(!armed.is_empty(), Ordering::Release);
        taken
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<ArmedFault>> {
        // A panic while holding this lock cannot leave the list half-edited, so poisoning is
        // ignored rather than turned into a second panic.
        self.armed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::faults::spec::Stage;

    #[test]
    fn counted_faults_disarm_after_their_calls() {
        let book = FaultBook::default();
        book.arm(
            ArmedFault::new(Some("payment"), Fault::Malformed(Stage::After), Some(2))
                .expect("valid"),
        );
        assert_eq!(book.take_http("refund"), vec![]);
        assert_eq!(
            book.take_http("payment"),
            vec![Fault::Malformed(Stage::After)]
        );
        assert_eq!(
            book.take_http("payment"),
            vec![Fault::Malformed(Stage::After)]
        );
        assert_eq!(book.take_http("payment"), vec![]);
        assert!(book.list().is_empty());
    }

    #[test]
    fn unlimited_faults_stay_and_any_endpoint_matches() {
        let book = FaultBook::new(vec![
            ArmedFault::new(None, Fault::Latency(Duration::from_millis(1)), None).expect("valid"),
        ]);
        for endpoint in ["payment", "capture", "transaction/status/{id}"] {
            assert_eq!(book.take_http(endpoint).len(), 1);
        }
        assert_eq!(book.take_webhook(), vec![]);
    }

    #[test]
    fn webhook_and_page_faults_are_separate() {
        let book = FaultBook::default();
        book.arm(ArmedFault::new(Some("webhook"), Fault::DropWebhook, Some(1)).expect("valid"));
        assert_eq!(book.take_http("paymentv2"), vec![]);
        assert_eq!(book.take_webhook(), vec![Fault::DropWebhook]);
        assert_eq!(book.take_webhook(), vec![]);
        assert!(ArmedFault::new(Some("payment"), Fault::DropWebhook, None).is_err());
        assert!(ArmedFault::new(Some("webhook"), Fault::RefuseFraming, None).is_err());
        assert!(
            ArmedFault::new(Some("acs"), Fault::Latency(Duration::from_millis(1)), None).is_err()
        );
        book.arm(ArmedFault::new(Some("acs"), Fault::RefuseFraming, Some(1)).expect("valid"));
        assert_eq!(book.take_http("paymentv2"), vec![]);
        assert_eq!(book.take_webhook(), vec![]);
        assert_eq!(book.take_page(), vec![Fault::RefuseFraming]);
        assert_eq!(book.take_page(), vec![]);
        assert!(ArmedFault::new(Some("webhook"), Fault::Malformed(Stage::Before), None).is_err());
    }

    #[test]
    fn cli_form_parses() {
        let armed: ArmedFault = "/api/v1/server-to-server-interface/payment=status:502:after*3"
            .parse()
            .expect("valid");
        assert_eq!(armed.endpoint.as_deref(), Some("payment"));
        assert_eq!(armed.remaining, Some(3));
        let forever: ArmedFault = "latency:20".parse().expect("valid");
        assert_eq!((forever.endpoint, forever.remaining), (None, None));
        assert!("payment=latency:20*0".parse::<ArmedFault>().is_err());
        assert!("payment=boom".parse::<ArmedFault>().is_err());
    }
}
