//! A QR code drawn on the server as inline SVG (the `qrcode` crate): the enrolment page shows
//! the `otpauth://` URL this way, with no script, no image request and nothing sent to a
//! third party.

use maud::{Markup, PreEscaped};
use qrcode::QrCode;
use qrcode::render::svg;

use crate::dashboard::error::DashboardError;

/// `text` as an `<svg>` element labelled `label` for screen readers.
pub fn svg(text: &str, label: &str) -> Result<Markup, DashboardError> {
    let code = QrCode::new(text.as_bytes())
        .map_err(|e| DashboardError::Internal(format!("QR code: {e}")))?;
    let drawn = code
        .render::<svg::Color<'_>>()
        .min_dimensions(200, 200)
        .build();
    // The renderer writes a standalone document: keep its <svg> element only.
    let element = drawn
        .find("<svg")
        .map(|start| &drawn[start..])
        .ok_or_else(|| DashboardError::Internal("QR code: no <svg> element".into()))?;
    let label = maud::html! { (label) }.into_string();
    Ok(PreEscaped(element.replacen(
        "<svg ",
        &format!("<svg role=\"img\" aria-label=\"{label}\" class=\"qr\" "),
        1,
    )))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_code_is_an_inline_svg_element() {
        let markup = super::svg("otpauth://totp/x?secret=ABC", "a \"QR\" code")
            .expect("drawn")
            .into_string();
        assert!(markup.starts_with("<svg role=\"img\" aria-label=\"a &quot;QR&quot; code\""));
        assert!(markup.ends_with("</svg>"), "{markup}");
        assert!(!markup.contains("<?xml"));
    }
}
