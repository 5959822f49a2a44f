//! Random version-4 UUIDs for `Idempotency-Key` headers.

use wasm_bindgen::JsValue;

/// A fresh random UUID: `crypto.randomUUID()`, or the same format built from
/// `crypto.getRandomValues()` where `randomUUID` is missing (pages not served securely).
pub fn random_uuid() -> String {
    let Some(crypto) = web_sys::window().and_then(|w| w.crypto().ok()) else {
        return String::new();
    };
    if js_sys::Reflect::has(&crypto, &JsValue::from_str("randomUUID")).unwrap_or(false) {
        return crypto.random_uuid();
    }
    let mut bytes = [0u8; 16];
    let _ = crypto.get_random_values_with_u8_array(&mut bytes);
    uuid_from_bytes(bytes)
}

/// Formats 16 random bytes as a version-4, variant-1 UUID.
pub fn uuid_from_bytes(mut bytes: [u8; 16]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    let mut text = String::with_capacity(36);
    for (index, byte) in bytes.iter().enumerate() {
        if matches!(index, 4 | 6 | 8 | 10) {
            text.push('-');
        }
        text.push(char::from(HEX[usize::from(byte >> 4)]));
        text.push(char::from(HEX[usize::from(byte & 0x0f)]));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_a_version_4_uuid() {
        let text = uuid_from_bytes([0xff; 16]);
        assert_eq!(text, "ffffffff-ffff-4fff-bfff-ffffffffffff");
        let zero = uuid_from_bytes([0; 16]);
        assert_eq!(zero, "00000000-0000-4000-8000-000000000000");
    }
}
