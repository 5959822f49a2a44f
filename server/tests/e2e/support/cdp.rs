//! Chrome DevTools Protocol commands through chromedriver (`POST
//! /session/{id}/goog/cdp/execute`), for what WebDriver has no verb for: Chromium's own
//! autofill, network and CPU throttling. Commands go to the top-level page's target.

use fantoccini::Client;
use fantoccini::wd::WebDriverCompatibleCommand;
use reqwest::{Method, Url};
use serde_json::{Value, json};

/// One CDP command and its parameters.
#[derive(Debug)]
struct Execute {
    command: &'static str,
    params: Value,
}

impl WebDriverCompatibleCommand for Execute {
    fn endpoint(
        &self,
        base: &Url,
        session: Option<&str>,
    ) -> Result<Url, <Url as std::str::FromStr>::Err> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &Url) -> (Method, Option<String>) {
        let body = json!({ "cmd": self.command, "params": self.params });
        (Method::POST, Some(body.to_string()))
    }
}

/// Runs `command` with `params` in the page's target; its result, or the error's text.
pub async fn execute(
    client: &Client,
    command: &'static str,
    params: Value,
) -> Result<Value, String> {
    client
        .issue_cmd(Execute { command, params })
        .await
        .map_err(|error| format!("{command}: {error}"))
}

/// Makes the page's `prefers-color-scheme` `scheme` (`light` or `dark`), as the system
/// setting would.
pub async fn prefer_color_scheme(client: &Client, scheme: &str) {
    execute(
        client,
        "Emulation.setEmulatedMedia",
        json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
    )
    .await
    .unwrap_or_else(|error| panic!("emulate a {scheme} preference: {error}"));
}
