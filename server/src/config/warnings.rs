//! Settings that start the server but are probably not what a live shop wants: each becomes a
//! warning in the log at start-up (and the operator decides), never a refusal.

use super::Config;

impl Config {
    /// What deserves a warning in this configuration, in words naming the setting.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings = Vec::new();
        if self.gateway.is_sandbox() {
            return warnings;
        }
        match self.public_base_url.as_deref() {
            None => warnings.push(
                "PUBLIC_BASE_URL is unset with a real gateway: the gateway's webhooks and the \
                 shoppers' 3-D Secure returns go to this instance's own listening address. \
                 Set it to the https address of your load balancer, shared by every instance, \
                 so a payment does not depend on the instance that started it"
                    .to_owned(),
            ),
            Some(url) if url.starts_with("http://") => warnings.push(format!(
                "PUBLIC_BASE_URL is plain http ({url}) with a real gateway: the gateway's \
                 webhooks and the shoppers' 3-D Secure returns would cross the internet \
                 unencrypted. Serve checkout-server behind TLS and set an https address"
            )),
            Some(_) => {}
        }
        warnings
    }
}

#[cfg(test)]
mod tests {
    use crate::config::Config;
    use crate::config::tests::emulator;

    const KEY: &str = "abababababababababababababababababababababababababababababababab";
    const LIVE: [(&str, &str); 7] = [
        ("GATEWAY_BASE_URL", "https://gateway.example"),
        ("GATEWAY_API_KEY", "key"),
        ("GATEWAY_X_API_KEY", "x-key"),
        ("GATEWAY_MERCHANT_ID", "m-1"),
        ("MERCHANT_SECRET_KEY", "sk_live_0123456789abcdef"),
        ("SECRETS_KEY", KEY),
        ("CARD_FINGERPRINT_KEY", KEY),
    ];

    fn warnings(extra: &[(&str, &str)], live: bool) -> Vec<String> {
        let mut pairs: Vec<(&str, &str)> = if live { LIVE.to_vec() } else { Vec::new() };
        pairs.extend_from_slice(extra);
        Config::from_pairs(&pairs, &emulator())
            .expect("valid")
            .warnings()
    }

    #[test]
    fn a_live_public_address_must_be_set_and_https() {
        let plain = warnings(&[("PUBLIC_BASE_URL", "http://pay.shop.example")], true);
        assert_eq!(plain.len(), 1);
        assert!(
            plain[0].starts_with("PUBLIC_BASE_URL is plain http"),
            "{plain:?}"
        );
        let unset = warnings(&[], true);
        assert!(unset[0].contains("load balancer"), "{unset:?}");
        assert!(warnings(&[("PUBLIC_BASE_URL", "https://pay.shop.example")], true).is_empty());
        assert!(warnings(&[("PUBLIC_BASE_URL", "http://pay.shop.example")], false).is_empty());
    }
}
