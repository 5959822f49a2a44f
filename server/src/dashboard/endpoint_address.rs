//! A webhook endpoint's address as a staff member may see it. Shops put credentials in
//! these URLs (`https://user:password@…`, `?token=…`), so below `admin` the user part and
//! the query are shown as `…`: a viewer learns where events go, not how to post there.

use reqwest::Url;

use crate::dashboard::auth::Staff;
use crate::store::prelude::StaffRole;

/// `url` whole for an admin; otherwise without its user part and query.
pub fn shown_to(staff: &Staff, url: &str) -> String {
    if staff.can(StaffRole::Admin) {
        url.to_owned()
    } else {
        masked(url)
    }
}

/// `url` with its user part and query replaced by `…` (and its fragment dropped).
pub fn masked(url: &str) -> String {
    let Ok(parsed) = Url::parse(url) else {
        return "(an address that cannot be shown)".to_owned();
    };
    let mut shown = format!("{}://", parsed.scheme());
    if !parsed.username().is_empty() || parsed.password().is_some() {
        shown.push_str("…@");
    }
    shown.push_str(parsed.host_str().unwrap_or_default());
    if let Some(port) = parsed.port() {
        shown.push_str(&format!(":{port}"));
    }
    shown.push_str(parsed.path());
    if parsed.query().is_some() {
        shown.push_str("?…");
    }
    shown
}

#[cfg(test)]
mod tests {
    use super::masked;

    #[test]
    fn credentials_and_queries_are_hidden() {
        for (url, shown) in [
            (
                "https://hooks.shop.example/in",
                "https://hooks.shop.example/in",
            ),
            (
                "https://ops:s3cret@hooks.shop.example:8443/in?token=abc#x",
                "https://…@hooks.shop.example:8443/in?…",
            ),
            (
                "https://token@hooks.shop.example/",
                "https://…@hooks.shop.example/",
            ),
            ("http://[2001:db8::1]/in?k=v", "http://[2001:db8::1]/in?…"),
            ("not a url", "(an address that cannot be shown)"),
        ] {
            assert_eq!(masked(url), shown, "{url}");
        }
    }
}
