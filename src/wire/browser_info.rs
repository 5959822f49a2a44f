//! The `browser_info` object of a card-form payment (gateway-interface.md, "Browser info").
//! Its keys are camel-case on the wire, unlike the rest of the request.

use serde::{Deserialize, Serialize};

use super::scalars::lenient;

/// Browser details used for 3D Secure risk assessment. The screen fields are strings in the
/// contract; numbers are accepted when read and written back as strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BrowserInfo {
    /// `acceptHeader`: the browser's HTTP `Accept` header.
    pub accept_header: String,
    /// `screenColorDepth`, e.g. "24".
    #[serde(deserialize_with = "lenient::string")]
    pub screen_color_depth: String,
    /// `javaEnabled`.
    pub java_enabled: bool,
    /// `language`, e.g. "en-US".
    pub language: String,
    /// `screenHeight`, e.g. "1080".
    #[serde(deserialize_with = "lenient::string")]
    pub screen_height: String,
    /// `screenWidth`, e.g. "1920".
    #[serde(deserialize_with = "lenient::string")]
    pub screen_width: String,
    /// `challengeWindow`: challenge window size code, e.g. "05".
    #[serde(deserialize_with = "lenient::string")]
    pub challenge_window: String,
    /// `userAgent`.
    pub user_agent: String,
}
