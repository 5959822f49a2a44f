//! Parsers for setting values: each takes a [`Setting`] and fails with its key named. Secret
//! values are never quoted in an error.

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::time::Duration;

use ipnet::IpNet;
use reqwest::Url;
use secrecy::SecretString;

use super::error::ConfigError;
use super::source::Setting;

fn invalid(setting: &Setting, reason: impl Into<String>) -> ConfigError {
    ConfigError::Invalid {
        key: setting.label(),
        reason: reason.into(),
    }
}

/// `host:port`, e.g. `127.0.0.1:8080` or `[::1]:0`.
pub fn socket_addr(setting: &Setting) -> Result<SocketAddr, ConfigError> {
    setting.value.trim().parse().map_err(|_| {
        invalid(
            setting,
            "must be an IP address and port, e.g. 127.0.0.1:8080",
        )
    })
}

/// A listening address, or `off` (any case) for none.
pub fn listen_or_off(setting: &Setting) -> Result<Option<SocketAddr>, ConfigError> {
    if setting.value.trim().eq_ignore_ascii_case("off") {
        Ok(None)
    } else {
        socket_addr(setting).map(Some)
    }
}

/// An absolute `http`/`https` URL without query or fragment; the trailing slash is dropped.
/// A path is allowed (a server behind a proxy under a prefix).
pub fn base_url(setting: &Setting) -> Result<String, ConfigError> {
    let url = http_url(setting)?;
    if url.query().is_some() || url.fragment().is_some() {
        return Err(invalid(setting, "must not have a query or fragment"));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// An absolute `http`/`https` URL (query allowed, fragment not).
pub fn page_url(setting: &Setting) -> Result<String, ConfigError> {
    let url = http_url(setting)?;
    if url.fragment().is_some() {
        return Err(invalid(setting, "must not have a fragment"));
    }
    Ok(url.into())
}

fn http_url(setting: &Setting) -> Result<Url, ConfigError> {
    let url = Url::parse(setting.value.trim())
        .map_err(|e| invalid(setting, format!("must be an absolute URL ({e})")))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err(invalid(
            setting,
            "must be an http:// or https:// URL with a host",
        ));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(invalid(setting, "must not carry credentials"));
    }
    Ok(url)
}

/// A comma-separated list of web origins (`https://shop.example`, `http://localhost:3000`),
/// normalised; paths, queries and `*` are refused.
pub fn origins(setting: &Setting) -> Result<Vec<String>, ConfigError> {
    list(setting)
        .into_iter()
        .map(|item| {
            let url = Url::parse(&item).map_err(|_| {
                invalid(
                    setting,
                    format!("`{item}` is not an origin like https://shop.example"),
                )
            })?;
            let bare = url.path() == "/" && url.query().is_none() && url.fragment().is_none();
            if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() || !bare {
                return Err(invalid(
                    setting,
                    format!("`{item}` is not an origin like https://shop.example (no path)"),
                ));
            }
            Ok(url.origin().ascii_serialization())
        })
        .collect()
}

/// A comma-separated list of IP addresses and CIDR ranges (`10.0.0.0/8, 2001:db8::/32, ::1`).
pub fn ip_ranges(setting: &Setting) -> Result<Vec<IpNet>, ConfigError> {
    list(setting)
        .into_iter()
        .map(|item| {
            item.parse::<IpNet>()
                .map(|range| range.trunc())
                .or_else(|_| item.parse::<IpAddr>().map(IpNet::from))
                .map_err(|_| {
                    invalid(
                        setting,
                        format!("`{item}` is not an IP address or a range such as 10.0.0.0/8"),
                    )
                })
        })
        .collect()
}

/// The non-empty, trimmed items of a comma-separated list.
pub fn list(setting: &Setting) -> Vec<String> {
    setting
        .value
        .split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect()
}

/// Whole seconds within `min..=max`.
pub fn seconds(setting: &Setting, min: u64, max: u64) -> Result<Duration, ConfigError> {
    bounded_integer(setting, min, max, "seconds").map(Duration::from_secs)
}

/// Whole minutes within `min..=max`.
pub fn minutes(setting: &Setting, min: u64, max: u64) -> Result<Duration, ConfigError> {
    bounded_integer(setting, min, max, "minutes").map(|m| Duration::from_secs(m * 60))
}

/// A whole multiple from 0 to `max`.
pub fn times(setting: &Setting, max: u32) -> Result<u32, ConfigError> {
    bounded_integer(setting, 0, u64::from(max), "times")
        .map(|value| u32::try_from(value).unwrap_or(max))
}

/// A number of bytes within `min..=max`.
pub fn bytes(setting: &Setting, min: u64, max: u64) -> Result<u64, ConfigError> {
    bounded_integer(setting, min, max, "bytes")
}

/// Whole milliseconds within `min..=max`.
pub fn millis(setting: &Setting, min: u64, max: u64) -> Result<Duration, ConfigError> {
    bounded_integer(setting, min, max, "milliseconds").map(Duration::from_millis)
}

fn bounded_integer(setting: &Setting, min: u64, max: u64, unit: &str) -> Result<u64, ConfigError> {
    let reason = || format!("must be a whole number of {unit} from {min} to {max}");
    let value: u64 = setting
        .value
        .trim()
        .parse()
        .map_err(|_| invalid(setting, reason()))?;
    if (min..=max).contains(&value) {
        Ok(value)
    } else {
        Err(invalid(setting, reason()))
    }
}

/// A secret of at least `min_chars` visible characters; the value never appears in errors.
pub fn secret(setting: &Setting, min_chars: usize) -> Result<SecretString, ConfigError> {
    let value = setting.value.trim();
    if value.chars().count() < min_chars {
        return Err(invalid(
            setting,
            format!("must be at least {min_chars} characters long"),
        ));
    }
    if value.chars().any(|c| c.is_control() || c.is_whitespace()) {
        return Err(invalid(
            setting,
            "must not contain spaces or control characters",
        ));
    }
    Ok(SecretString::from(value.to_owned()))
}

/// Free text of 1..=`max_chars` characters without control characters.
pub fn text(setting: &Setting, max_chars: usize) -> Result<String, ConfigError> {
    let value = setting.value.trim();
    if value.is_empty() || value.chars().count() > max_chars {
        return Err(invalid(
            setting,
            format!("must be 1 to {max_chars} characters"),
        ));
    }
    if value.chars().any(char::is_control) {
        return Err(invalid(setting, "must not contain control characters"));
    }
    Ok(value.to_owned())
}

/// `true` or `false` (also `1`/`0`, `yes`/`no`, `on`/`off`; any case).
pub fn boolean(setting: &Setting) -> Result<bool, ConfigError> {
    match setting.value.trim().to_ascii_lowercase().as_str() {
        "true" | "1" | "yes" | "on" => Ok(true),
        "false" | "0" | "no" | "off" => Ok(false),
        _ => Err(invalid(setting, "must be true or false")),
    }
}

/// A directory path; empty is refused.
pub fn path(setting: &Setting) -> Result<PathBuf, ConfigError> {
    let value = setting.value.trim();
    if value.is_empty() {
        return Err(invalid(setting, "must name a directory"));
    }
    Ok(PathBuf::from(value))
}

/// One of `choices` (case-insensitive), returned in lower case.
pub fn choice(setting: &Setting, choices: &[&'static str]) -> Result<&'static str, ConfigError> {
    let value = setting.value.trim().to_ascii_lowercase();
    choices
        .iter()
        .copied()
        .find(|choice| *choice == value)
        .ok_or_else(|| invalid(setting, format!("must be one of: {}", choices.join(", "))))
}

/// A database URL: `postgres://…`, `postgresql://…`, `sqlite:…` or a file path. Only the
/// scheme is ever mentioned in an error (the URL may carry a password).
pub fn database_url(setting: &Setting) -> Result<SecretString, ConfigError> {
    let value = setting.value.trim();
    let known = value.starts_with("postgres://")
        || value.starts_with("postgresql://")
        || value.starts_with("sqlite:")
        || !value.contains("://");
    if !known {
        return Err(invalid(
            setting,
            "must be postgres://…, sqlite:… or a file path for SQLite",
        ));
    }
    Ok(SecretString::from(value.to_owned()))
}

/// Largest threshold.
pub const MAX_COUNT: u64 = 100_000;

/// A threshold: a whole number from 1 to [`MAX_COUNT`], naming the key otherwise.
pub fn threshold(setting: &Setting) -> Result<u32, ConfigError> {
    setting
        .value
        .trim()
        .parse::<u64>()
        .ok()
        .filter(|value| (1..=MAX_COUNT).contains(value))
        .and_then(|value| u32::try_from(value).ok())
        .ok_or_else(|| ConfigError::Invalid {
            key: setting.label(),
            reason: format!("must be a whole number from 1 to {MAX_COUNT}"),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::source::Origin;

    fn env(key: &'static str, value: &str) -> Setting {
        Setting {
            key,
            value: value.to_owned(),
            origin: Origin::Env,
        }
    }

    #[test]
    fn urls() {
        assert_eq!(
            base_url(&env("PUBLIC_BASE_URL", "https://pay.example/shop/")).unwrap(),
            "https://pay.example/shop"
        );
        for bad in [
            "pay.example",
            "ftp://pay.example",
            "https://pay.example/?a=1",
            "https://u:p@x.example",
        ] {
            let err = base_url(&env("PUBLIC_BASE_URL", bad))
                .unwrap_err()
                .to_string();
            assert!(err.starts_with("PUBLIC_BASE_URL (environment): "), "{err}");
        }
        assert!(page_url(&env("SUCCESS_URL", "https://shop.example/done?x=1")).is_ok());
        assert!(page_url(&env("SUCCESS_URL", "/done")).is_err());
    }

    #[test]
    fn origins_are_normalised_and_paths_refused() {
        assert_eq!(
            origins(&env(
                "ALLOWED_ORIGINS",
                "https://Shop.Example, http://localhost:3000"
            ))
            .unwrap(),
            vec!["https://shop.example", "http://localhost:3000"]
        );
        assert!(origins(&env("ALLOWED_ORIGINS", "https://shop.example/cart")).is_err());
        assert!(origins(&env("ALLOWED_ORIGINS", "*")).is_err());
    }

    #[test]
    fn numbers_and_choices() {
        assert_eq!(
            seconds(&env("SESSION_TTL_SECONDS", "90"), 60, 600).unwrap(),
            Duration::from_secs(90)
        );
        assert!(seconds(&env("SESSION_TTL_SECONDS", "30"), 60, 600).is_err());
        assert!(seconds(&env("SESSION_TTL_SECONDS", "1.5"), 0, 600).is_err());
        assert_eq!(
            choice(&env("LOG_FORMAT", "JSON"), &["text", "json"]).unwrap(),
            "json"
        );
        assert!(choice(&env("LOG_FORMAT", "xml"), &["text", "json"]).is_err());
        assert!(boolean(&env("WEBHOOK_ALLOW_PRIVATE", "TRUE")).unwrap());
        assert!(!boolean(&env("WEBHOOK_ALLOW_PRIVATE", "0")).unwrap());
        assert!(boolean(&env("WEBHOOK_ALLOW_PRIVATE", "maybe")).is_err());
        let ranges = ip_ranges(&env(
            "TRUSTED_PROXIES",
            "127.0.0.1, ::1, 10.1.2.3/8, fd00::/8",
        ))
        .unwrap()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>();
        assert_eq!(
            ranges,
            ["127.0.0.1/32", "::1/128", "10.0.0.0/8", "fd00::/8"]
        );
        for bad in ["proxy.local", "10.0.0.0/33", "10.0.0.0/"] {
            assert!(ip_ranges(&env("TRUSTED_PROXIES", bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn secrets_are_never_quoted() {
        let err = secret(&env("MERCHANT_SECRET_KEY", "short"), 16)
            .unwrap_err()
            .to_string();
        assert!(!err.contains("short"), "{err}");
        let err = database_url(&env("DATABASE_URL", "mysql://u:hunter2@db/x"))
            .unwrap_err()
            .to_string();
        assert!(!err.contains("hunter2"), "{err}");
        assert!(database_url(&env("DATABASE_URL", "postgres://u:p@localhost/db")).is_ok());
        assert!(database_url(&env("DATABASE_URL", "data/checkout.db")).is_ok());
    }
}
