//! Sends the shopper to the 3D Secure page. The top window navigates, so the issuer's page is
//! never framed, whether the component sits in a shadow root, in the page or in an iframe.

/// True for absolute `https:` and `http:` URLs, the only ones the component will follow: a
/// `javascript:` or `data:` URL from a compromised server must not run in the shop's page.
pub fn is_web_url(url: &str) -> bool {
    let lower = url.get(..8).unwrap_or(url).to_ascii_lowercase();
    lower.starts_with("https://") || lower.starts_with("http://")
}

/// Navigates the top-level browsing context to `url`; if the top window refuses (a sandboxed
/// cross-origin frame), navigates this window instead. False when `url` is not a web URL or
/// there is no window.
pub fn go_top(url: &str) -> bool {
    if !is_web_url(url) {
        return false;
    }
    let Some(window) = web_sys::window() else {
        return false;
    };
    let top = window.top().ok().flatten();
    if let Some(top) = top
        && top.location().set_href(url).is_ok()
    {
        return true;
    }
    window.location().set_href(url).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follows_only_web_urls() {
        assert!(is_web_url("https://acs.example/3ds?x=1"));
        assert!(is_web_url("HTTP://127.0.0.1:8080/acs"));
        assert!(!is_web_url("javascript:alert(1)"));
        assert!(!is_web_url("data:text/html,hi"));
        assert!(!is_web_url("//acs.example"));
        assert!(!is_web_url("https:/x"));
        assert!(!is_web_url(""));
    }
}
