//! The keys the store seals and opens with: the current one, which seals everything written,
//! and older ones by id, which still open what they sealed until `checkout-server keys
//! rotate` has re-sealed it under the current key.

use std::fmt;

use secrecy::SecretString;

use super::envelope::{self, Envelope};
use super::{Binding, KeyError, SealError, SecretsKey};

/// The current key and the previous ones.
pub struct KeyRing {
    current: SecretsKey,
    previous: Vec<SecretsKey>,
}

impl KeyRing {
    /// A ring sealing with `current` and also opening with `previous`; ids must be distinct.
    pub fn new(current: SecretsKey, previous: Vec<SecretsKey>) -> Result<Self, KeyError> {
        let mut seen = vec![current.id()];
        for key in &previous {
            if seen.contains(&key.id()) {
                return Err(KeyError::DuplicateId(key.id().to_owned()));
            }
            seen.push(key.id());
        }
        Ok(Self { current, previous })
    }

    /// A ring of one fresh random key (tests, and an in-memory sandbox database, which ends
    /// with the process anyway).
    pub fn generate() -> Self {
        Self {
            current: SecretsKey::generate(),
            previous: Vec::new(),
        }
    }

    /// This ring after a rotation: `current` seals, every key of this ring still opens (what
    /// an operator does by moving `SECRETS_KEY` to `SECRETS_KEY_PREVIOUS`).
    pub fn rotated_to(&self, current: SecretsKey) -> Result<Self, KeyError> {
        let previous = std::iter::once(&self.current)
            .chain(&self.previous)
            .map(SecretsKey::duplicate)
            .collect();
        Self::new(current, previous)
    }

    /// This ring without its previous keys (once `keys rotate` has re-sealed everything).
    pub fn without_previous(&self) -> Self {
        Self {
            current: self.current.duplicate(),
            previous: Vec::new(),
        }
    }

    /// The id of the key that seals.
    pub fn current_id(&self) -> &str {
        self.current.id()
    }

    /// The ids of the keys that only open.
    pub fn previous_ids(&self) -> impl Iterator<Item = &str> {
        self.previous.iter().map(SecretsKey::id)
    }

    /// `secret` sealed under the current key for `binding`, as stored.
    pub fn seal(&self, secret: &str, binding: &Binding) -> Result<String, SealError> {
        envelope::seal(&self.current, secret, binding)
    }

    /// The secret `stored` holds, if it was sealed for `binding` under a key of this ring.
    pub fn open(&self, stored: &str, binding: &Binding) -> Result<SecretString, SealError> {
        let envelope = Envelope::parse(stored)?;
        let key = std::iter::once(&self.current)
            .chain(&self.previous)
            .find(|key| key.id() == envelope.key_id)
            .ok_or_else(|| SealError::UnknownKey {
                key_id: envelope.key_id.to_owned(),
            })?;
        envelope.open(key, binding)
    }

    /// Whether `stored` is sealed under the current key (nothing to do for a rotation).
    pub fn is_current(&self, stored: &str) -> bool {
        Envelope::parse(stored).is_ok_and(|envelope| envelope.key_id == self.current.id())
    }
}

impl fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("KeyRing")
            .field("current", &self.current.id())
            .field("previous", &self.previous_ids().collect::<Vec<_>>())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret as _;

    use super::*;

    fn key(id: &str) -> SecretsKey {
        SecretsKey::parse(&format!(
            "{id}:{}",
            SecretsKey::generate()
                .to_text()
                .expose_secret()
                .split(':')
                .nth(1)
                .unwrap_or("")
        ))
        .expect("key")
    }

    #[test]
    fn a_value_opens_for_its_own_row_only() {
        let ring = KeyRing::generate();
        let sealed = ring
            .seal("whsec_abc", &Binding::endpoint_secret("we_1"))
            .unwrap();
        let opened = ring
            .open(&sealed, &Binding::endpoint_secret("we_1"))
            .unwrap();
        assert_eq!(opened.expose_secret(), "whsec_abc");
        let moved = ring.open(&sealed, &Binding::endpoint_secret("we_2"));
        assert!(
            matches!(moved, Err(SealError::Rejected { .. })),
            "{moved:?}"
        );
        let other_kind = ring.open(&sealed, &Binding::staff_totp("we_1"));
        assert!(matches!(other_kind, Err(SealError::Rejected { .. })));
    }

    #[test]
    fn a_wrong_key_or_a_missing_one_is_an_error_naming_the_key_id() {
        let binding = Binding::staff_totp("s1");
        let sealed = KeyRing::new(key("a"), Vec::new())
            .unwrap()
            .seal("JBSWY3DP", &binding)
            .unwrap();
        let other_a = KeyRing::new(key("a"), Vec::new()).unwrap();
        assert_eq!(
            other_a.open(&sealed, &binding).unwrap_err(),
            SealError::Rejected { key_id: "a".into() }
        );
        let without_a = KeyRing::new(key("b"), Vec::new()).unwrap();
        let error = without_a.open(&sealed, &binding).unwrap_err();
        assert_eq!(error, SealError::UnknownKey { key_id: "a".into() });
        assert!(error.to_string().contains("SECRETS_KEY"));
        assert_eq!(
            without_a.open("JBSWY3DP", &binding).unwrap_err(),
            SealError::NotSealed
        );
    }

    #[test]
    fn previous_keys_open_and_the_current_one_seals() {
        let a = key("a");
        let a_text = a.to_text();
        let binding = Binding::endpoint_secret("we_1");
        let old = KeyRing::new(a, Vec::new())
            .unwrap()
            .seal("s", &binding)
            .unwrap();
        let a_again = SecretsKey::parse(a_text.expose_secret()).unwrap();
        let ring = KeyRing::new(key("b"), vec![a_again]).unwrap();
        assert!(!ring.is_current(&old));
        assert_eq!(ring.open(&old, &binding).unwrap().expose_secret(), "s");
        let new = ring.seal("s", &binding).unwrap();
        assert!(ring.is_current(&new));
        assert!(new.starts_with("v1.b."));
    }

    #[test]
    fn ids_are_distinct() {
        let error = KeyRing::new(key("a"), vec![key("a")]).unwrap_err();
        assert_eq!(error, KeyError::DuplicateId("a".into()));
    }
}
