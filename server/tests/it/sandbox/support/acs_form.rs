//! The ACS form as a browser sees it: parsed from the page and submitted with a decision; and
//! a URL's query parameter.

/// The ACS form as the page renders it.
#[derive(Debug, Clone)]
pub struct AcsForm {
    pub action: String,
    pub token: String,
}

impl AcsForm {
    /// Parses the page's form: its `action` and the hidden `_token`.
    pub fn parse(html: &str) -> Self {
        let action = attribute_after(html, "<form", "action").expect("form action");
        let token_input = html.find("name=\"_token\"").expect("token input");
        let token = attribute_after(&html[token_input..], "", "value").expect("token value");
        Self {
            action: unescape(&action),
            token: unescape(&token),
        }
    }

    /// Submits the form with `decision` (`approve` or `reject`) as the button would.
    pub async fn submit(&self, client: &reqwest::Client, decision: &str) -> reqwest::Response {
        client
            .post(&self.action)
            .form(&[("_token", self.token.as_str()), ("decision", decision)])
            .send()
            .await
            .expect("form posted")
    }
}

fn attribute_after(html: &str, anchor: &str, name: &str) -> Option<String> {
    let start = html.find(anchor)?;
    let rest = &html[start..];
    let key = format!("{name}=\"");
    let value_start = rest.find(&key)? + key.len();
    let value_end = rest[value_start..].find('"')? + value_start;
    Some(rest[value_start..value_end].to_owned())
}

fn unescape(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Query parameter `name` of `url`.
pub fn query_param(url: &str, name: &str) -> Option<String> {
    reqwest::Url::parse(url)
        .ok()?
        .query_pairs()
        .find(|(key, _)| key == name)
        .map(|(_, value)| value.into_owned())
}
