//! WebDriver's "Switch To Frame" with a null id: back to the top-level document from any frame,
//! also from one that has just been discarded (the bank's frame of a 3-D Secure dialog the
//! loader removed), where "Switch To Parent Frame" fails. fantoccini names frames by index or
//! element only, so the command is sent as it is written in the standard.

use fantoccini::Client;
use fantoccini::wd::WebDriverCompatibleCommand;
use reqwest::{Method, Url};

/// `POST /session/{id}/frame {"id": null}`.
#[derive(Debug)]
struct SwitchToTop;

impl WebDriverCompatibleCommand for SwitchToTop {
    fn endpoint(
        &self,
        base: &Url,
        session: Option<&str>,
    ) -> Result<Url, <Url as std::str::FromStr>::Err> {
        base.join(&format!("session/{}/frame", session.unwrap_or_default()))
    }

    fn method_and_body(&self, _: &Url) -> (Method, Option<String>) {
        (Method::POST, Some(r#"{"id":null}"#.to_owned()))
    }
}

/// Makes the top-level document the context; false when the driver refused.
pub async fn to_top(client: &Client) -> bool {
    client.issue_cmd(SwitchToTop).await.is_ok()
}
