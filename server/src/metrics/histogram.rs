//! A lock-free latency histogram with fixed buckets, written in the Prometheus text format.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Upper bounds of the latency buckets, in microseconds (1 ms to 30 s).
pub const LATENCY_BOUNDS_US: [u64; 14] = [
    1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000,
    5_000_000, 10_000_000, 30_000_000,
];

/// Counts of observations per bucket, their sum and their number.
#[derive(Debug)]
pub struct Histogram {
    /// One counter per bound, plus the `+Inf` bucket; not cumulative (summed when written).
    buckets: [AtomicU64; LATENCY_BOUNDS_US.len() + 1],
    sum_us: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Self {
        Self {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            sum_us: AtomicU64::new(0),
        }
    }
}

impl Histogram {
    /// Records one observation.
    pub fn observe(&self, elapsed: Duration) {
        let us = u64::try_from(elapsed.as_micros()).unwrap_or(u64::MAX);
        let slot = LATENCY_BOUNDS_US
            .iter()
            .position(|bound| us <= *bound)
            .unwrap_or(LATENCY_BOUNDS_US.len());
        self.buckets[slot].fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(us, Ordering::Relaxed);
    }

    /// Number of observations so far.
    pub fn count(&self) -> u64 {
        self.buckets.iter().map(|b| b.load(Ordering::Relaxed)).sum()
    }

    /// Writes `name_bucket`, `name_sum` and `name_count` lines; `labels` is the label list
    /// without braces (`endpoint="payment"`), possibly empty.
    pub fn write(&self, out: &mut String, name: &str, labels: &str) {
        let sep = if labels.is_empty() { "" } else { "," };
        let mut cumulative = 0u64;
        for (slot, bound) in LATENCY_BOUNDS_US.iter().enumerate() {
            cumulative += self.buckets[slot].load(Ordering::Relaxed);
            let le = seconds(*bound);
            let _ = writeln!(
                out,
                "{name}_bucket{{{labels}{sep}le=\"{le}\"}} {cumulative}"
            );
        }
        cumulative += self.buckets[LATENCY_BOUNDS_US.len()].load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "{name}_bucket{{{labels}{sep}le=\"+Inf\"}} {cumulative}"
        );
        let braces = if labels.is_empty() {
            String::new()
        } else {
            format!("{{{labels}}}")
        };
        let sum = seconds(self.sum_us.load(Ordering::Relaxed));
        let _ = writeln!(out, "{name}_sum{braces} {sum}");
        let _ = writeln!(out, "{name}_count{braces} {cumulative}");
    }
}

/// Microseconds as decimal seconds without float rounding (`2500` → `0.0025`).
pub fn seconds(us: u64) -> String {
    let whole = us / 1_000_000;
    let fraction = us % 1_000_000;
    if fraction == 0 {
        return whole.to_string();
    }
    let digits = format!("{fraction:06}");
    format!("{whole}.{}", digits.trim_end_matches('0'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_cumulative() {
        let histogram = Histogram::default();
        histogram.observe(Duration::from_micros(800));
        histogram.observe(Duration::from_millis(3));
        histogram.observe(Duration::from_secs(60));
        let mut out = String::new();
        histogram.write(&mut out, "x_seconds", "endpoint=\"payment\"");
        assert!(
            out.contains("x_seconds_bucket{endpoint=\"payment\",le=\"0.001\"} 1\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_bucket{endpoint=\"payment\",le=\"0.005\"} 2\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_bucket{endpoint=\"payment\",le=\"30\"} 2\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_bucket{endpoint=\"payment\",le=\"+Inf\"} 3\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_sum{endpoint=\"payment\"} 60.0038\n"),
            "{out}"
        );
        assert!(
            out.contains("x_seconds_count{endpoint=\"payment\"} 3\n"),
            "{out}"
        );
        assert_eq!(histogram.count(), 3);
    }

    #[test]
    fn seconds_are_exact() {
        assert_eq!(seconds(2_500), "0.0025");
        assert_eq!(seconds(1_000_000), "1");
        assert_eq!(seconds(30_000_001), "30.000001");
    }
}
