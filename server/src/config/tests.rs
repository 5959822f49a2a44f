//! The configuration read whole: defaults, a file, the environment, and the errors that name
//! their key. `emulator()` is shared with the other files' tests.

use std::time::Duration;

use checkout::contract::PlanTerms;
use secrecy::ExposeSecret as _;

use super::*;

/// The emulator's defaults as a test supplies them.
pub(crate) fn emulator() -> EmulatorDefaults {
    EmulatorDefaults {
        api_key: "emulator-key".into(),
        x_api_key: "emulator-x-key".into(),
        plans: vec![PlanTerms {
            id: "pro".into(),
            name: "Pro".into(),
            description: String::new(),
            amount: 5,
            currency: "JPY".into(),
            cycle_unit: checkout::contract::CycleUnit::Days,
            cycle_interval: 1,
            trial_days: None,
            discount: None,
            max_cycles: 1,
        }],
    }
}

#[test]
fn defaults_run_the_sandbox() {
    let config = Config::from_pairs(&[], &emulator()).expect("defaults are valid");
    assert_eq!(config.listen.to_string(), DEFAULT_LISTEN);
    assert!(config.gateway.is_sandbox());
    assert!(config.merchant.secret_key_generated);
    assert!(config.merchant.secret_key.expose_secret().len() >= MIN_SECRET_CHARS);
    assert_eq!(config.database_url.expose_secret(), DEFAULT_DATABASE_URL);
    assert!(config.plans.get("pro").is_some());
    assert_eq!(config.gateway.api_key.expose_secret(), "emulator-key");
    assert_eq!(config.gateway.x_api_key.expose_secret(), "emulator-x-key");
    let bound: SocketAddr = "127.0.0.1:4321".parse().expect("addr");
    assert_eq!(config.public_base_url_for(bound), "http://127.0.0.1:4321");
}

#[test]
fn a_real_gateway_needs_the_card_fingerprint_key_and_a_valid_one_anywhere() {
    let live = [
        ("GATEWAY_BASE_URL", "https://api.example/"),
        ("GATEWAY_API_KEY", "k"),
        ("GATEWAY_X_API_KEY", "x"),
        ("GATEWAY_MERCHANT_ID", "m-1"),
        ("MERCHANT_SECRET_KEY", "0123456789abcdef"),
        (
            "SECRETS_KEY",
            "abababababababababababababababababababababababababababababababab",
        ),
    ];
    let err = Config::from_pairs(&live, &emulator()).expect_err("key missing");
    assert!(
        err.to_string()
            .starts_with("CARD_FINGERPRINT_KEY (or CARD_FINGERPRINT_KEY_FILE) is required"),
        "{err}"
    );
    let sandbox = Config::from_pairs(&[], &emulator()).expect("sandbox");
    assert!(sandbox.card_fingerprint_key.is_none(), "generated at start");
    let err = Config::from_pairs(&[("CARD_FINGERPRINT_KEY", "secret-ish")], &emulator())
        .expect_err("not 32 bytes");
    assert!(err.to_string().starts_with("CARD_FINGERPRINT_KEY"), "{err}");
    assert!(!err.to_string().contains("secret-ish"), "{err}");
}

#[test]
fn a_real_gateway_needs_its_credentials_and_the_merchant_key() {
    let err = Config::from_pairs(&[("GATEWAY_BASE_URL", "https://api.example")], &emulator())
        .expect_err("credentials missing");
    assert!(
        err.to_string().starts_with("GATEWAY_API_KEY is required"),
        "{err}"
    );
    let config = Config::from_pairs(
        &[
            ("GATEWAY_BASE_URL", "https://api.example/"),
            ("GATEWAY_API_KEY", "k"),
            ("GATEWAY_X_API_KEY", "x"),
            ("GATEWAY_MERCHANT_ID", "m-1"),
            ("MERCHANT_SECRET_KEY", "0123456789abcdef"),
            ("SECRETS_KEY", &"ab".repeat(32)),
            ("CARD_FINGERPRINT_KEY", &"ab".repeat(32)),
        ],
        &emulator(),
    )
    .expect("complete");
    assert_eq!(
        config.gateway.base_url.as_deref(),
        Some("https://api.example")
    );
    assert!(config.plans.is_empty());
    assert!(!format!("{config:?}").contains("0123456789abcdef"));
}

#[test]
fn bad_values_name_their_key() {
    for (key, value) in [
        ("LISTEN", "localhost"),
        ("PUBLIC_BASE_URL", "example.com"),
        ("SESSION_TTL_SECONDS", "5"),
        ("MERCHANT_SECRET_KEY", "short"),
        ("LOG_FORMAT", "yaml"),
        ("TRUSTED_PROXIES", "proxy.local"),
        ("GATEWAY_TIMEOUT_MS", "0"),
        ("PAYMENT_REVIEW_AFTER_SECONDS", "60"),
    ] {
        let err = Config::from_pairs(&[(key, value)], &emulator())
            .expect_err(key)
            .to_string();
        assert!(
            err.starts_with(&format!("{key} (environment)")),
            "{key}: {err}"
        );
    }
}

#[test]
fn the_demo_shop_listens_by_default_and_can_be_off() {
    let config = Config::from_pairs(&[], &emulator()).expect("defaults");
    assert_eq!(
        config.demo_listen.map(|a| a.to_string()).as_deref(),
        Some(DEFAULT_DEMO_LISTEN)
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("checkout.toml");
    std::fs::write(&path, "demo_listen = \"off\"\n").expect("write");
    let config = Config::load_from(Some(&path), &|_| None, &emulator()).expect("valid");
    assert_eq!(config.demo_listen, None);
    let error =
        Config::from_pairs(&[("DEMO_LISTEN", "nowhere")], &emulator()).expect_err("not an address");
    assert!(error.to_string().starts_with("DEMO_LISTEN"), "{error}");
}

#[test]
fn a_command_reads_only_the_database_and_its_key() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("checkout.toml");
    std::fs::write(
        &path,
        "database_url = \"sqlite://elsewhere.db\"\ngateway_base_url = \"https://gw.example\"\nsecrets_key = \"2b7e151628aed2a6abf7158809cf4f3c2b7e151628aed2a6abf7158809cf4f3c\"\nsession_ttl_seconds = 5\n",
    )
    .expect("write");
    // The full configuration refuses this file (no merchant key, a bad lifetime)…
    assert!(Config::load_from(Some(&path), &|_| None, &emulator()).is_err());
    // …a command that opens the database reads only what it needs.
    let store = StoreSettings::load_from(Some(&path), &|_| None).expect("valid");
    assert_eq!(store.database_url.expose_secret(), "sqlite://elsewhere.db");
    assert!(store.secrets_key.key_ring("sqlite://elsewhere.db").is_ok());
    let env = |key: &str| (key == "DATABASE_URL").then(|| "ftp://nowhere".to_owned());
    let error = StoreSettings::load_from(Some(&path), &env).expect_err("bad url");
    assert!(error.to_string().starts_with("DATABASE_URL"), "{error}");
}

#[test]
fn file_then_environment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("checkout.toml");
    std::fs::write(
        &path,
        "listen = \"127.0.0.1:9000\"\nsession_ttl_seconds = 120\n\n[plans.gold]\nname = \"Gold\"\namount = 2500\ncurrency = \"EUR\"\ncycle_unit = \"weeks\"\nmax_cycles = 4\n",
    )
    .expect("write");
    let env = |key: &str| (key == "SESSION_TTL_SECONDS").then(|| "300".to_owned());
    let config = Config::load_from(Some(&path), &env, &emulator()).expect("valid");
    assert_eq!(config.listen.port(), 9000);
    assert_eq!(config.timing.session_ttl, Duration::from_secs(300));
    assert_eq!(config.plans.len(), 1);
    assert!(config.plans.get("gold").is_some());
}
