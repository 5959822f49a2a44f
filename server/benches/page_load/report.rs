//! The page-load benchmark's printed report: per path, visit and throttling, the median (p90)
//! of each figure, the distance of each path from its limit (the plain form), the hosted
//! page's distance in milliseconds, and the bytes transferred.

use super::support::site::Bundle;
use super::{Args, Mode, Samples, Table, VISITS, Visit};

pub fn report(
    samples: &Samples,
    args: &Args,
    bytes: &[(Mode, Visit, (f64, f64))],
    bundle: &Bundle,
) {
    println!(
        "page load, headless Chromium, median (p90) of {} runs; first visit = cold cache, \
         return = the same browser again (new session); throttled = 4x CPU, 1.6 Mbps down / \
         750 Kbps up, 150 ms RTT",
        args.runs
    );
    let cell = |values: &[f64]| {
        if values.is_empty() {
            return "-".to_owned();
        }
        let stats = Stats::of(values);
        format!("{:.0} ({:.0})", stats.median, stats.p90)
    };
    let median = |values: &[f64]| Stats::of(values).median;
    for (throttle, profile) in ["unthrottled", "throttled"].into_iter().enumerate() {
        println!("\n{profile}, ms after navigation start:");
        println!(
            "{:<22} {:>7} {:>12} {:>12} {:>7} {:>12} {:>12}",
            "", "visit", "typeable", "ready", "x plain", "start-up", "CLS"
        );
        for &mode in &args.modes {
            for (visit, kind) in VISITS.into_iter().enumerate() {
                let at = |table: &Table| table[mode as usize][visit][throttle].clone();
                let limit = if mode == Mode::Hosted {
                    Mode::ServerPlain
                } else {
                    Mode::Plain
                };
                let plain = median(&samples.typeable[limit as usize][visit][throttle]);
                println!(
                    "{:<22} {:>7} {:>12} {:>12} {:>7} {:>12} {:>12.3}",
                    mode.label(),
                    match kind {
                        Visit::First => "first",
                        Visit::Return => "return",
                    },
                    cell(&at(&samples.typeable)),
                    cell(&at(&samples.ready)),
                    format!("{:.2}x", median(&at(&samples.typeable)) / plain.max(0.1)),
                    cell(&at(&samples.startup)),
                    median(&at(&samples.shift)),
                );
            }
        }
    }
    println!(
        "\ntargets: npm / inline first visit typeable <= 1.3x plain; return visit typeable \
         <= 1.1x plain, ready <= 400 ms throttled; first visit ready <= 1000 ms throttled; \
         loader start-up (its arrival to the frame's request) <= 30 ms throttled"
    );
    for (throttle, profile) in ["unthrottled", "throttled"].into_iter().enumerate() {
        let typeable = |mode: Mode| median(&samples.typeable[mode as usize][0][throttle]);
        println!(
            "hosted page, first visit {profile}: typeable {:.0} ms, plain form with the \
             server's headers {:.0} ms: {:+.0} ms (target: within 50 ms throttled); without \
             them {:.0} ms",
            typeable(Mode::Hosted),
            typeable(Mode::ServerPlain),
            typeable(Mode::Hosted) - typeable(Mode::ServerPlain),
            typeable(Mode::Plain),
        );
    }
    println!(
        "bytes transferred (first unthrottled run; JS {}, wasm {}):",
        bundle.js, bundle.wasm
    );
    for (mode, visit, (transfer, encoded)) in bytes {
        println!(
            "  {:<22} {:<7} {transfer:7.1} KB transferred, {encoded:7.1} KB of bodies",
            mode.label(),
            format!("{visit:?}")
        );
    }
}

struct Stats {
    median: f64,
    p90: f64,
}

impl Stats {
    fn of(samples: &[f64]) -> Self {
        let mut sorted = samples.to_vec();
        sorted.sort_by(f64::total_cmp);
        let at = |q: f64| {
            let index = ((sorted.len() as f64 - 1.0) * q).round() as usize;
            sorted.get(index).copied().unwrap_or(f64::NAN)
        };
        Self {
            median: at(0.5),
            p90: at(0.9),
        }
    }
}
