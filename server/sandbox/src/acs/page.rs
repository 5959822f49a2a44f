//! The ACS page's HTML: amount, merchant and card, and a real form with Approve and Reject
//! buttons. Self-contained (no scripts, no external resources), served with a strict
//! Content-Security-Policy whose only allowance is one inline stylesheet by nonce. The
//! challenge page sets no `form-action`: browsers apply it to every redirect after the post,
//! and the return address redirects on to the shop's result page, on an origin the issuer
//! cannot know. The form's only action is the server's own address, and the page runs no script.

use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

/// What the challenge page shows.
#[derive(Debug, Clone)]
pub struct ChallengePage<'a> {
    /// The merchant's legal name.
    pub merchant: &'a str,
    /// Amount formatted with the currency exponent (`12.34 USD`).
    pub amount: &'a str,
    /// Scheme and last four digits (`VISA •••• 4242`).
    pub card: &'a str,
    /// Absolute URL the form posts to.
    pub action: &'a str,
    /// The session token (hidden field).
    pub token: &'a str,
    /// CSP `frame-ancestors` sources: who may show the page in a frame.
    pub frame_ancestors: &'a str,
}

/// The Approve/Reject page.
pub fn challenge(page: &ChallengePage<'_>) -> Response {
    let body = format!(
        r#"<main aria-labelledby="acs-title">
<h1 id="acs-title">Confirm your payment</h1>
<p class="note">Gateway sandbox: this page stands in for your bank's 3-D Secure check. No real bank is involved.</p>
<dl>
<dt>Merchant</dt><dd id="acs-merchant">{merchant}</dd>
<dt>Amount</dt><dd id="acs-amount">{amount}</dd>
<dt>Card</dt><dd id="acs-card">{card}</dd>
</dl>
<form method="post" action="{action}">
<input type="hidden" name="_token" value="{token}">
<div class="buttons">
<button type="submit" name="decision" value="approve" id="acs-approve">Approve</button>
<button type="submit" name="decision" value="reject" id="acs-reject">Reject</button>
</div>
</form>
</main>"#,
        merchant = escape(page.merchant),
        amount = escape(page.amount),
        card = escape(page.card),
        action = escape(page.action),
        token = escape(page.token),
    );
    let policy = Policy {
        frame_ancestors: page.frame_ancestors,
        form_action: None,
    };
    document(StatusCode::OK, "Confirm your payment", &body, &policy)
}

/// What the page's Content-Security-Policy allows beyond its own stylesheet.
struct Policy<'a> {
    /// `frame-ancestors` sources.
    frame_ancestors: &'a str,
    /// `form-action` sources, if any.
    form_action: Option<&'a str>,
}

/// A plain message page (unknown link, already decided, bad form) with `status`, framed by
/// the same pages as the challenge (`frame_ancestors`).
pub fn message(status: StatusCode, title: &str, text: &str, frame_ancestors: &str) -> Response {
    let body = format!(
        "<main aria-labelledby=\"acs-title\">\n<h1 id=\"acs-title\">{}</h1>\n<p>{}</p>\n</main>",
        escape(title),
        escape(text)
    );
    let policy = Policy {
        frame_ancestors,
        form_action: Some("'none'"),
    };
    document(status, title, &body, &policy)
}

/// The page around `main`, under `policy`.
fn document(status: StatusCode, title: &str, main: &str, policy: &Policy<'_>) -> Response {
    let nonce = STANDARD.encode(rand::random::<[u8; 16]>());
    let html = format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>{title} · 3-D Secure (sandbox)</title>
<style nonce="{nonce}">
body {{ font-family: system-ui, sans-serif; margin: 0; padding: 2rem 1rem; background: #f4f5f7; color: #1d1f23; }}
main {{ max-width: 26rem; margin: 0 auto; background: #fff; border-radius: 8px; padding: 1.5rem; box-shadow: 0 1px 3px rgba(0,0,0,.15); }}
h1 {{ font-size: 1.4rem; margin-top: 0; }}
.note {{ color: #4a4f57; font-size: .9rem; }}
dl {{ display: grid; grid-template-columns: auto 1fr; gap: .4rem 1rem; }}
dt {{ font-weight: 600; }}
dd {{ margin: 0; }}
.buttons {{ display: flex; gap: .75rem; margin-top: 1.25rem; }}
button {{ flex: 1; font-size: 1rem; padding: .7rem; border-radius: 6px; border: 2px solid #1d1f23; cursor: pointer; }}
#acs-approve {{ background: #0b6b2e; border-color: #0b6b2e; color: #fff; }}
#acs-reject {{ background: #fff; color: #a3141b; border-color: #a3141b; }}
button:focus-visible {{ outline: 3px solid #1a5fd0; outline-offset: 2px; }}
</style>
</head>
<body>
{main}
</body>
</html>
"#,
        title = escape(title),
    );
    let form_action = policy
        .form_action
        .map(|sources| format!("; form-action {sources}"))
        .unwrap_or_default();
    let csp = format!(
        "default-src 'none'; style-src 'nonce-{nonce}'; frame-ancestors {}; \
         base-uri 'none'{form_action}",
        policy.frame_ancestors
    );
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    headers.insert(REFERRER_POLICY, HeaderValue::from_static("no-referrer"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Ok(value) = HeaderValue::from_str(&csp) {
        headers.insert(CONTENT_SECURITY_POLICY, value);
    }
    if policy.frame_ancestors == "'none'" {
        // For browsers that predate `frame-ancestors`.
        headers.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    }
    response
}

/// Escapes text for HTML element content and double-quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn page_escapes_and_sets_a_strict_policy() {
        let response = challenge(&ChallengePage {
            merchant: "Tom & <Jerry>",
            amount: "12.34 USD",
            card: "VISA •••• 4242",
            action: "http://127.0.0.1:1/sandbox/acs",
            token: "tok\"en",
            frame_ancestors: "https://shop.example",
        });
        let csp = response.headers()[CONTENT_SECURITY_POLICY]
            .to_str()
            .expect("ascii")
            .to_owned();
        assert!(csp.contains("default-src 'none'"), "{csp}");
        assert!(
            csp.contains("frame-ancestors https://shop.example;"),
            "{csp}"
        );
        assert!(csp.contains("base-uri 'none'"), "{csp}");
        // A form-action would also cover the redirect from the return address to the shop.
        assert!(!csp.contains("form-action"), "{csp}");
        let body = axum::body::to_bytes(response.into_body(), 1 << 20)
            .await
            .expect("body");
        let html = String::from_utf8(body.to_vec()).expect("utf-8");
        assert!(html.contains("Tom &amp; &lt;Jerry&gt;"));
        assert!(html.contains("value=\"tok&quot;en\""));
        assert!(html.contains("12.34 USD"));
        assert!(!html.contains("<script"));
        assert!(
            !html.contains("src=") && !html.contains("href="),
            "no external resources"
        );
    }
}
