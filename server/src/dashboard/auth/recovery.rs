//! Recovery codes: [`COUNT`] per enrolment, shown once, each `xxxx-xxxx-xxxx-xxxx` (80 random
//! bits from an alphabet without look-alike characters), stored as argon2id hashes like
//! passwords and found by their first group, so one attempt costs one verification. The
//! store spends a code in one statement: it opens one login only.

use rand::Rng as _;
use secrecy::{ExposeSecret as _, SecretString};

use super::password::{self, PasswordError};
use crate::store::two_factor::StoredRecoveryCode;

/// Codes per enrolment.
pub const COUNT: usize = 10;
/// Characters of a code, without its dashes.
const CHARS: usize = 16;
/// Characters of one group; the first is the lookup.
const GROUP: usize = 4;
/// 32 characters: lower-case letters and digits without 0, 1, l and o.
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";

/// Fresh codes as shown (`xxxx-xxxx-xxxx-xxxx`), their first groups all different, and their
/// stored forms.
pub async fn generate() -> Result<(Vec<SecretString>, Vec<StoredRecoveryCode>), PasswordError> {
    let plain: Vec<SecretString> = fresh_codes().into_iter().map(SecretString::from).collect();
    let normalised = plain
        .iter()
        .map(|code| SecretString::from(code.expose_secret().replace('-', "")))
        .collect();
    let hashes = password::hash_generated(normalised).await?;
    let stored = plain
        .iter()
        .zip(hashes)
        .map(|(code, code_hash)| StoredRecoveryCode {
            lookup: code.expose_secret()[..GROUP].to_owned(),
            code_hash,
        })
        .collect();
    Ok((plain, stored))
}

/// [`COUNT`] codes as shown, their first groups all different.
fn fresh_codes() -> Vec<String> {
    let mut shown: Vec<String> = Vec::with_capacity(COUNT);
    let mut rng = rand::rng();
    while shown.len() < COUNT {
        let chars: String = (0..CHARS)
            .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
            .collect();
        if shown.iter().any(|code| code[..GROUP] == chars[..GROUP]) {
            continue;
        }
        let groups: Vec<&str> = (0..CHARS / GROUP)
            .map(|g| &chars[g * GROUP..(g + 1) * GROUP])
            .collect();
        shown.push(groups.join("-"));
    }
    shown
}

/// A typed recovery code, read leniently (case, dashes and spaces ignored): its lookup group
/// and the whole code as hashed. `None` when it cannot be one.
pub fn parse(typed: &str) -> Option<(String, SecretString)> {
    let code: String = typed
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let valid = code.len() == CHARS && code.bytes().all(|b| ALPHABET.contains(&b));
    valid.then(|| (code[..GROUP].to_owned(), SecretString::from(code)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn codes_are_distinct_hashed_and_read_back() {
        let (shown, stored) = generate().await.expect("generated");
        assert_eq!((shown.len(), stored.len()), (COUNT, COUNT));
        let first = shown[0].expose_secret();
        assert_eq!(first.len(), 19);
        assert!(stored[0].code_hash.starts_with("$argon2id$"));
        assert!(!stored[0].code_hash.contains(&first.replace('-', "")));
        let (lookup, whole) = parse(&first.to_uppercase().replace('-', " ")).expect("parsed");
        assert_eq!(lookup, stored[0].lookup);
        assert!(password::tests::check(whole, Some(stored[0].code_hash.clone())).await);
        let (_, other) = parse(shown[1].expose_secret()).expect("parsed");
        assert!(!password::tests::check(other, Some(stored[0].code_hash.clone())).await);
        for bad in ["", "123456", "abcd-efgh-ijkm-npq", "abcd-efgh-ijkm-npq0"] {
            assert!(parse(bad).is_none(), "{bad}");
        }
    }
}
