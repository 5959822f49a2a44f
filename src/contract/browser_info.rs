//! 3D Secure browser data as the component collects it; the server adds `acceptHeader`.

use serde::{Deserialize, Serialize};

/// What the issuer's 3DS server needs to know about the cardholder's browser.
///
/// Numbers travel as numbers here; the server converts to the gateway's string fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BrowserInfo {
    /// `screen.width` in CSS pixels.
    pub screen_width: u32,
    /// `screen.height` in CSS pixels.
    pub screen_height: u32,
    /// `screen.colorDepth`, clamped to a value 3DS2 allows (1, 4, 8, 15, 16, 24, 32, 48).
    pub color_depth: u8,
    /// `navigator.javaEnabled()`, false when the browser has no such API.
    pub java_enabled: bool,
    /// `navigator.language`, e.g. `de-DE`.
    pub language: String,
    /// `navigator.userAgent`.
    pub user_agent: String,
    /// IANA time zone, e.g. `Europe/Berlin`.
    pub time_zone: String,
    /// Minutes to add to local time to get UTC, as `Date.getTimezoneOffset()` reports it.
    pub time_zone_offset_minutes: i32,
    /// Size of the challenge window the issuer may open.
    pub challenge_window: ChallengeWindow,
}

/// EMVCo challenge window sizes, sent as `"01"`..`"05"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChallengeWindow {
    /// 250 × 400.
    #[serde(rename = "01")]
    W250x400,
    /// 390 × 400.
    #[serde(rename = "02")]
    W390x400,
    /// 500 × 600.
    #[serde(rename = "03")]
    W500x600,
    /// 600 × 400.
    #[serde(rename = "04")]
    W600x400,
    /// Full screen.
    #[serde(rename = "05")]
    FullScreen,
}

impl ChallengeWindow {
    /// The largest fixed window that fits the viewport, or full screen when none fits better.
    pub fn for_viewport(width: u32, height: u32) -> Self {
        if width >= 600 && height >= 600 {
            if width >= 1000 {
                Self::FullScreen
            } else {
                Self::W500x600
            }
        } else if width >= 600 && height >= 400 {
            Self::W600x400
        } else if width >= 390 && height >= 400 {
            Self::W390x400
        } else {
            Self::W250x400
        }
    }

    /// The window of a challenge shown in a dialog on a page whose viewport is `width` ×
    /// `height` CSS pixels: full screen on a narrow screen (or one too low for a 400-pixel
    /// window and the dialog's bar), else the largest fixed window that fits with room around
    /// it.
    pub fn for_dialog(width: u32, height: u32) -> Self {
        if width < 600 || height < 520 {
            Self::FullScreen
        } else if width >= 560 && height >= 720 {
            Self::W500x600
        } else {
            Self::W600x400
        }
    }

    /// The two-digit code the gateway expects.
    pub fn code(self) -> &'static str {
        match self {
            Self::W250x400 => "01",
            Self::W390x400 => "02",
            Self::W500x600 => "03",
            Self::W600x400 => "04",
            Self::FullScreen => "05",
        }
    }
}

/// Clamps any `screen.colorDepth` to the nearest value 3DS2 accepts, rounding down.
pub fn clamp_color_depth(depth: u32) -> u8 {
    const ALLOWED: [u8; 8] = [1, 4, 8, 15, 16, 24, 32, 48];
    ALLOWED
        .iter()
        .rev()
        .copied()
        .find(|&d| u32::from(d) <= depth)
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn color_depth_rounds_down_to_an_allowed_value() {
        assert_eq!(clamp_color_depth(0), 1);
        assert_eq!(clamp_color_depth(24), 24);
        assert_eq!(clamp_color_depth(30), 24);
        assert_eq!(clamp_color_depth(64), 48);
    }

    #[test]
    fn challenge_window_follows_the_viewport() {
        assert_eq!(
            ChallengeWindow::for_viewport(320, 568),
            ChallengeWindow::W250x400
        );
        assert_eq!(
            ChallengeWindow::for_viewport(414, 896),
            ChallengeWindow::W390x400
        );
        assert_eq!(
            ChallengeWindow::for_viewport(800, 500),
            ChallengeWindow::W600x400
        );
        assert_eq!(
            ChallengeWindow::for_viewport(800, 900),
            ChallengeWindow::W500x600
        );
        assert_eq!(
            ChallengeWindow::for_viewport(1440, 900),
            ChallengeWindow::FullScreen
        );
        assert_eq!(
            ChallengeWindow::for_dialog(375, 812),
            ChallengeWindow::FullScreen,
            "a phone"
        );
        assert_eq!(
            ChallengeWindow::for_dialog(1280, 800),
            ChallengeWindow::W500x600
        );
        assert_eq!(
            ChallengeWindow::for_dialog(1280, 600),
            ChallengeWindow::W600x400,
            "a low window"
        );
        assert_eq!(
            ChallengeWindow::for_dialog(1280, 500),
            ChallengeWindow::FullScreen,
            "too low for any window"
        );
        assert_eq!(
            serde_json::to_string(&ChallengeWindow::W600x400).unwrap(),
            "\"04\""
        );
    }
}
