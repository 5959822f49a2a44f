//! A target URL as a whole, the one rule for every reader (the merchant's endpoint when it is
//! registered, `MERCHANT_WEBHOOK_URL` at start, each delivery): http or https with a host;
//! unless private targets are allowed, a host written as an address must be [`is_public`]. A
//! name is judged on the addresses it resolves to, at each delivery (the client's resolver);
//! [`is_local_name`] lets a reader refuse `localhost` before that.

use std::fmt;
use std::net::IpAddr;

use reqwest::Url;

use super::is_public;

/// Why a URL cannot be a target; its words name no part of the URL but a refused address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlRefusal {
    /// Not an absolute URL.
    NotAbsolute,
    /// A scheme other than http or https.
    Scheme,
    /// No host.
    NoHost,
    /// A host written as an address that is not public.
    NotPublic(IpAddr),
}

impl fmt::Display for UrlRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::NotAbsolute => f.write_str("is not an absolute URL"),
            Self::Scheme => f.write_str("only http and https URLs are allowed"),
            Self::NoHost => f.write_str("must name a host"),
            Self::NotPublic(address) => write!(
                f,
                "{address} is not public (loopback, private, link-local, …); set \
                 WEBHOOK_ALLOW_PRIVATE=true to allow it"
            ),
        }
    }
}

/// `text` parsed, if events may be posted to it under `allow_private`.
pub fn check_target_url(text: &str, allow_private: bool) -> Result<Url, UrlRefusal> {
    let url = Url::parse(text).map_err(|_| UrlRefusal::NotAbsolute)?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(UrlRefusal::Scheme);
    }
    let host = url
        .host_str()
        .filter(|host| !host.is_empty())
        .ok_or(UrlRefusal::NoHost)?;
    // The parser spells an address canonically (`0x7f.1` is `127.0.0.1`), IPv6 in brackets.
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    match bare.parse::<IpAddr>() {
        Ok(address) if !allow_private && !is_public(address) => Err(UrlRefusal::NotPublic(address)),
        _ => Ok(url),
    }
}

/// Whether `host` (as a parsed URL spells it) is `localhost` or a name under it: always
/// loopback, so refused without private targets before it is ever resolved.
pub fn is_local_name(host: &str) -> bool {
    let name = host.trim_end_matches('.');
    name == "localhost" || name.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn http_urls_to_public_hosts_only_unless_private_ones_are_allowed() {
        assert!(check_target_url("https://shop.example/hooks?token=1", false).is_ok());
        assert!(check_target_url("http://93.184.216.34/x", false).is_ok());
        for (url, why) in [
            ("ftp://shop.example/", "only http"),
            ("file:///etc/passwd", "only http"),
            ("javascript:alert(1)", "only http"),
            ("shop.example/hooks", "absolute"),
            ("", "absolute"),
            ("http://127.0.0.1:8080/", "127.0.0.1 is not public"),
            ("http://[::1]/", "::1 is not public"),
            ("http://[fd00::1]/", "fd00::1 is not public"),
            ("http://169.254.169.254/latest", "169.254.169.254"),
            ("http://0x7f.1/", "127.0.0.1"),
            ("http://2130706433/", "127.0.0.1"),
            ("http://[::ffff:10.0.0.1]/", "not public"),
        ] {
            let reason = check_target_url(url, false).expect_err(url).to_string();
            assert!(reason.contains(why), "{url}: {reason}");
        }
        assert!(check_target_url("http://127.0.0.1:8080/", true).is_ok());
        assert!(check_target_url("http://localhost:3000/", false).is_ok());
        assert!(is_local_name("localhost") && is_local_name("api.localhost."));
        assert!(!is_local_name("localhost.shop.example"));
        assert!(check_target_url("ftp://127.0.0.1/", true).is_err());
    }
}
