//! The overview's charts, drawn on the server as SVG with plotters (no script, no request to
//! anyone): volume per day (bars, one panel per currency, each on its own axis in its own
//! unit), approval rate per day (a line) and declines by reason (bars). Each chart carries a
//! `<title>` and a `<desc>` with its numbers; the page adds them as a table too. Colours are
//! mid-tones readable on light and dark backgrounds; text and grid take the page's text
//! colour from the stylesheet (`.chart text`, `.chart line`), so they follow the theme.
//!
//! Amounts stay minor units throughout: bar heights are integers and the axis labels are
//! formatted with the currency's exponent.

use maud::{Markup, PreEscaped, html};
use plotters::coord::Shift;
use plotters::coord::types::{RangedCoordf64, RangedCoordu64};
use plotters::prelude::*;

use crate::dashboard::error::DashboardError;
use crate::dashboard::money;

/// Series colours (Tableau 10 mid-tones: contrast ≥ 3:1 on white and on near-black).
const PALETTE: [RGBColor; 5] = [
    RGBColor(0x4e, 0x79, 0xa7),
    RGBColor(0xf2, 0x8e, 0x2b),
    RGBColor(0x59, 0xa1, 0x4f),
    RGBColor(0xe1, 0x57, 0x59),
    RGBColor(0xb0, 0x7a, 0xa1),
];

const WIDTH: u32 = 720;
const PANEL_HEIGHT: u32 = 200;

/// What a chart says, for people who cannot see it.
pub struct Alt<'a> {
    /// The element id prefix (unique on the page).
    pub id: &'a str,
    /// Short title.
    pub title: &'a str,
    /// Its numbers in a sentence or two.
    pub desc: String,
}

fn failed<E: std::fmt::Debug>(error: E) -> DashboardError {
    DashboardError::Internal(format!("chart: {error:?}"))
}

/// The finished SVG with its title and description, ready to embed.
fn finish(svg: &str, alt: &Alt<'_>) -> Markup {
    let head = html! {
        title id={ (alt.id) "-title" } { (alt.title) }
        desc id={ (alt.id) "-desc" } { (alt.desc) }
    }
    .into_string();
    let open = format!(
        "<svg role=\"img\" aria-labelledby=\"{id}-title {id}-desc\" id=\"{id}\" ",
        id = alt.id
    );
    let body = svg.replacen("<svg ", &open, 1);
    let body = match body.find('>') {
        Some(end) => format!("{}{head}{}", &body[..=end], &body[end + 1..]),
        None => body,
    };
    html! { figure class="chart" { (PreEscaped(body)) } }
}

/// Volume per day: one bar panel per currency, `series` being `(code, minor units per day)`.
pub fn volume(
    labels: &[String],
    series: &[(String, Vec<u64>)],
    alt: &Alt<'_>,
) -> Result<Markup, DashboardError> {
    let panels = u32::try_from(series.len().max(1)).unwrap_or(1);
    let mut svg = String::new();
    {
        let root =
            SVGBackend::with_string(&mut svg, (WIDTH, PANEL_HEIGHT * panels)).into_drawing_area();
        let areas = root.split_evenly((series.len().max(1), 1));
        for (i, ((code, values), area)) in series.iter().zip(areas.iter()).enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            bars(area, labels, values, color, code, &|v| {
                money::major_text(v, code)
            })?;
        }
        root.present().map_err(failed)?;
    }
    Ok(finish(&svg, alt))
}

type Chart<'a, 'b> = ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordu64>>;

/// A chart on `area` with one slot per label along x and `0..top` along y, its grid and axis
/// labels drawn (`unit` writes the y values).
fn axes<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    labels: &[String],
    top: u64,
    caption: &str,
    unit: &dyn Fn(u64) -> String,
) -> Result<Chart<'a, 'b>, DashboardError> {
    let n = labels.len().max(1);
    let mut builder = ChartBuilder::on(area);
    if !caption.is_empty() {
        builder.caption(caption, ("sans-serif", 14));
    }
    let mut chart = builder
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(72)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0u64..top)
        .map_err(failed)?;
    // Labels stand under the slots only (plotters may ask for points between them).
    let label = |x: &f64| {
        let rounded = x.round();
        if (x - rounded).abs() > 1e-6 || rounded < 0.0 {
            return String::new();
        }
        labels.get(rounded as usize).cloned().unwrap_or_default()
    };
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n.min(8))
        .y_labels(5)
        .x_label_formatter(&label)
        .y_label_formatter(&|v| unit(*v))
        .label_style(("sans-serif", 12))
        .draw()
        .map_err(failed)?;
    Ok(chart)
}

/// One panel of bars, labelled by `labels`, values written by `unit`.
fn bars(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    labels: &[String],
    values: &[u64],
    color: RGBColor,
    caption: &str,
    unit: &dyn Fn(u64) -> String,
) -> Result<(), DashboardError> {
    let top = values.iter().copied().max().unwrap_or(0).max(1);
    let mut chart = axes(area, labels, top + top / 10 + 1, caption, unit)?;
    chart
        .draw_series(values.iter().enumerate().map(|(i, v)| {
            let x = i as f64;
            Rectangle::new([(x - 0.35, 0), (x + 0.35, *v)], color.filled())
        }))
        .map_err(failed)?;
    Ok(())
}

/// Approval rate per day, `rates` in tenths of a percent (0 to 1000); `None` for a day
/// without attempts (the line skips it).
pub fn approval(
    labels: &[String],
    rates: &[Option<u64>],
    alt: &Alt<'_>,
) -> Result<Markup, DashboardError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 240)).into_drawing_area();
        let mut chart = axes(&root, labels, 1000, "", &|v| format!("{} %", v / 10))?;
        let points: Vec<(f64, u64)> = rates
            .iter()
            .enumerate()
            .filter_map(|(i, r)| r.map(|r| (i as f64, r)))
            .collect();
        let color = PALETTE[0];
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(failed)?;
        chart
            .draw_series(points.iter().map(|p| Circle::new(*p, 3, color.filled())))
            .map_err(failed)?;
        root.present().map_err(failed)?;
    }
    Ok(finish(&svg, alt))
}

/// Declines by reason: `(short label, count)`, most first.
pub fn declines(reasons: &[(String, u64)], alt: &Alt<'_>) -> Result<Markup, DashboardError> {
    let labels: Vec<String> = reasons.iter().map(|(l, _)| l.clone()).collect();
    let values: Vec<u64> = reasons.iter().map(|(_, n)| *n).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, 240)).into_drawing_area();
        bars(&root, &labels, &values, PALETTE[3], "", &|v| v.to_string())?;
        root.present().map_err(failed)?;
    }
    Ok(finish(&svg, alt))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charts_are_svg_with_their_text_alternative() {
        let labels = vec!["03-01".to_owned(), "03-02".to_owned()];
        let alt = Alt {
            id: "volume",
            title: "Volume per day",
            desc: "EUR: 03-01 12.34 <b>".into(),
        };
        let markup = volume(
            &labels,
            &[("EUR".into(), vec![1234, 0]), ("JPY".into(), vec![0, 500])],
            &alt,
        )
        .expect("drawn")
        .into_string();
        assert!(markup.contains("<svg role=\"img\" aria-labelledby=\"volume-title volume-desc\""));
        assert!(markup.contains("<desc id=\"volume-desc\">EUR: 03-01 12.34 &lt;b&gt;</desc>"));
        assert!(markup.contains("<rect"), "{markup}");
        assert!(
            markup.contains("12.34") || markup.contains("13."),
            "axis in major units"
        );
        let line = approval(
            &labels,
            &[Some(500), None],
            &Alt {
                id: "rate",
                title: "t",
                desc: "d".into(),
            },
        )
        .expect("drawn")
        .into_string();
        assert!(line.contains("<circle"), "{line}");
        let bars = declines(
            &[("insufficient funds".into(), 3)],
            &Alt {
                id: "declines",
                title: "t",
                desc: "d".into(),
            },
        )
        .expect("drawn")
        .into_string();
        assert!(bars.contains("insufficient funds"));
    }
}
