//! Process-wide logging: `tracing` to standard error, human-readable lines or one JSON object
//! per line (`LOG_FORMAT=json`), filtered by `RUST_LOG` (default `info`). Request spans name
//! the matched route only, and sensitive headers are marked before tracing sees them
//! (`api::app`), so no log line carries a secret, a card number or a CVC.

use tracing::Subscriber;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::util::{SubscriberInitExt as _, TryInitError};

use crate::config::LogFormat;

/// Installs the global subscriber writing to standard error. Fails if one is installed
/// already (call once, from `main`).
pub fn init(format: LogFormat) -> Result<(), TryInitError> {
    subscriber(format, std::io::stderr).try_init()
}

/// The subscriber for `format`, writing to `writer`.
pub fn subscriber<W>(format: LogFormat, writer: W) -> Box<dyn Subscriber + Send + Sync>
where
    W: for<'w> MakeWriter<'w> + Send + Sync + 'static,
{
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    match format {
        LogFormat::Json => Box::new(
            builder
                .json()
                .flatten_event(true)
                .with_current_span(true)
                .with_span_list(false)
                .finish(),
        ),
        LogFormat::Text => Box::new(builder.finish()),
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    use super::*;

    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().expect("lock").extend_from_slice(bytes);
            Ok(bytes.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn json_format_writes_one_object_per_line() {
        let buffer = Buffer::default();
        let sink = buffer.clone();
        let subscriber = subscriber(LogFormat::Json, move || sink.clone());
        tracing::subscriber::with_default(subscriber, || {
            let span = tracing::info_span!("http", route = "/v1/payments");
            let _entered = span.enter();
            tracing::info!(payment_id = "p-1", "payment settled");
        });
        let text = String::from_utf8(buffer.0.lock().expect("lock").clone()).expect("utf-8");
        let line: serde_json::Value =
            serde_json::from_str(text.lines().next().expect("a line")).expect("JSON line");
        assert_eq!(line["message"], "payment settled");
        assert_eq!(line["payment_id"], "p-1");
        assert_eq!(line["level"], "INFO");
        assert_eq!(line["span"]["route"], "/v1/payments");
    }
}
