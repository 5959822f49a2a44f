//! What a fault is, and its one text form shared by the `x-sandbox-fault` header, the
//! `--fault` CLI flag and `POST /sandbox/faults`.
//!
//! Grammar (case-insensitive):
//!
//! | text | effect |
//! |---|---|
//! | `latency:<ms>[:before\|:after]` | wait `<ms>` milliseconds, then process normally; with `:after`, process first and answer `<ms>` later (a slow gateway whose caller may give up first) |
//! | `status:<5xx>[:before\|:after]` | answer that 5xx status with a failure body |
//! | `malformed[:before\|:after]` | answer a body that is not JSON |
//! | `truncate[:before\|:after]` | declare the full `Content-Length`, send half, close |
//! | `drop-webhook` | the webhook is never sent |
//! | `duplicate-webhook` | the webhook is delivered twice |
//! | `refuse-framing` | the 3-D Secure page refuses to be shown in a frame (`frame-ancestors 'none'`) |
//!
//! `before` (the default) fails the call without processing it: nothing is charged or
//! changed. `after` processes the call (the charge is recorded and findable by status) and
//! then spoils the answer, so the caller cannot know the outcome.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use axum::http::StatusCode;

/// When a response fault strikes relative to processing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Nothing is processed; the caller gets the fault instead.
    Before,
    /// The request is processed (state changes), then its answer is replaced or spoiled.
    After,
}

/// One injectable fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// Added delay before processing.
    Latency(Duration),
    /// Added delay after processing, before the answer: the call is done (charged, created)
    /// and its answer is late, so a caller with a shorter time limit never reads it.
    SlowAnswer(Duration),
    /// A 5xx status with a JSON failure body (code `ERR9000`).
    ServerError {
        /// The status, 500..=599.
        status: StatusCode,
        /// Before or after processing.
        stage: Stage,
    },
    /// A body that does not parse as JSON (status 500 before processing, the real status after).
    Malformed(Stage),
    /// `Content-Length` of the whole body, half of it sent, then the connection closes.
    Truncated(Stage),
    /// The 3DS webhook is not sent at all.
    DropWebhook,
    /// The 3DS webhook is delivered twice.
    DuplicateWebhook,
    /// The ACS page refuses to be framed, as some banks' pages do: the shop must fall back to a
    /// top-level redirect.
    RefuseFraming,
}

impl Fault {
    /// True for the faults that act on webhook delivery rather than on an HTTP answer.
    pub fn is_webhook_fault(&self) -> bool {
        matches!(self, Self::DropWebhook | Self::DuplicateWebhook)
    }

    /// True for the faults that act on the ACS page the cardholder sees.
    pub fn is_page_fault(&self) -> bool {
        matches!(self, Self::RefuseFraming)
    }
}

/// A fault text that does not follow the grammar; the message says what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid fault `{text}`: {reason}")]
pub struct FaultParseError {
    text: String,
    reason: &'static str,
}

impl FaultParseError {
    fn new(text: &str, reason: &'static str) -> Self {
        // Fault texts are short tokens; cap what is echoed so a stray value is not repeated whole.
        let text = text.chars().take(40).collect();
        Self { text, reason }
    }
}

impl FromStr for Fault {
    type Err = FaultParseError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let lower = text.trim().to_ascii_lowercase();
        let mut parts = lower.split(':');
        let kind = parts.next().unwrap_or_default();
        let args: Vec<&str> = parts.collect();
        let stage = |arg: Option<&&str>| match arg.copied() {
            None | Some("before") => Ok(Stage::Before),
            Some("after") => Ok(Stage::After),
            Some(_) => Err(FaultParseError::new(
                text,
                "the stage must be `before` or `after`",
            )),
        };
        let fault = match (kind, args.as_slice()) {
            ("latency", [ms, rest @ ..]) if rest.len() <= 1 => {
                let ms: u64 = ms.parse().map_err(|_| {
                    FaultParseError::new(text, "latency takes milliseconds: `latency:250`")
                })?;
                let delay = Duration::from_millis(ms);
                match stage(rest.first())? {
                    Stage::Before => Fault::Latency(delay),
                    Stage::After => Fault::SlowAnswer(delay),
                }
            }
            ("status", [code, rest @ ..]) if rest.len() <= 1 => {
                let status = code
                    .parse::<u16>()
                    .ok()
                    .and_then(|code| StatusCode::from_u16(code).ok())
                    .filter(StatusCode::is_server_error)
                    .ok_or_else(|| {
                        FaultParseError::new(text, "status takes a 5xx code: `status:503:after`")
                    })?;
                Fault::ServerError {
                    status,
                    stage: stage(rest.first())?,
                }
            }
            ("malformed", rest) if rest.len() <= 1 => Fault::Malformed(stage(rest.first())?),
            ("truncate", rest) if rest.len() <= 1 => Fault::Truncated(stage(rest.first())?),
            ("drop-webhook", []) => Fault::DropWebhook,
            ("duplicate-webhook", []) => Fault::DuplicateWebhook,
            ("refuse-framing", []) => Fault::RefuseFraming,
            _ => {
                return Err(FaultParseError::new(
                    text,
                    "expected latency:<ms>[:before|:after], status:<5xx>[:before|:after], malformed[:before|:after], \
                     truncate[:before|:after], drop-webhook, duplicate-webhook or refuse-framing",
                ));
            }
        };
        Ok(fault)
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stage::Before => "before",
            Stage::After => "after",
        })
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Latency(delay) => write!(f, "latency:{}", delay.as_millis()),
            Fault::SlowAnswer(delay) => write!(f, "latency:{}:after", delay.as_millis()),
            Fault::ServerError { status, stage } => write!(f, "status:{}:{stage}", status.as_u16()),
            Fault::Malformed(stage) => write!(f, "malformed:{stage}"),
            Fault::Truncated(stage) => write!(f, "truncate:{stage}"),
            Fault::DropWebhook => f.write_str("drop-webhook"),
            Fault::DuplicateWebhook => f.write_str("duplicate-webhook"),
            Fault::RefuseFraming => f.write_str("refuse-framing"),
        }
    }
}

/// Parses a comma-separated list of faults (the `x-sandbox-fault` header form).
pub fn parse_fault_list(text: &str) -> Result<Vec<Fault>, FaultParseError> {
    text.split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(
            "latency:250".parse(),
            Ok(Fault::Latency(Duration::from_millis(250)))
        );
        assert_eq!(
            "status:503".parse(),
            Ok(Fault::ServerError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                stage: Stage::Before
            })
        );
        assert_eq!(
            "STATUS:500:after".parse(),
            Ok(Fault::ServerError {
                status: StatusCode::INTERNAL_SERVER_ERROR,
                stage: Stage::After
            })
        );
        assert_eq!(
            "latency:250:before".parse(),
            Ok(Fault::Latency(Duration::from_millis(250)))
        );
        assert_eq!(
            "latency:3000:after".parse(),
            Ok(Fault::SlowAnswer(Duration::from_millis(3000)))
        );
        assert_eq!("malformed".parse(), Ok(Fault::Malformed(Stage::Before)));
        assert_eq!(
            "malformed:after".parse(),
            Ok(Fault::Malformed(Stage::After))
        );
        assert_eq!("truncate:after".parse(), Ok(Fault::Truncated(Stage::After)));
        assert_eq!("drop-webhook".parse(), Ok(Fault::DropWebhook));
        assert_eq!("duplicate-webhook".parse(), Ok(Fault::DuplicateWebhook));
        assert_eq!("Refuse-Framing".parse(), Ok(Fault::RefuseFraming));
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "latency:5",
            "latency:5:after",
            "status:502:before",
            "malformed:after",
            "truncate:before",
            "drop-webhook",
            "refuse-framing",
        ] {
            let fault: Fault = text.parse().expect("valid");
            assert_eq!(fault.to_string(), text);
        }
    }

    #[test]
    fn rejects_bad_texts() {
        for text in [
            "",
            "latency",
            "latency:x",
            "latency:5:later",
            "latency:5:after:x",
            "status:404",
            "status:abc",
            "status:500:later",
            "truncate:after:x",
            "explode",
        ] {
            assert!(text.parse::<Fault>().is_err(), "{text}");
        }
    }

    #[test]
    fn parses_lists() {
        let list = parse_fault_list("latency:10, status:500:after").expect("valid");
        assert_eq!(list.len(), 2);
        assert!(parse_fault_list("latency:10,nope").is_err());
        assert_eq!(parse_fault_list(" ").expect("valid"), vec![]);
    }
}
