//! The proof of work a pay call needs while a card-testing alert is open (issue 33): the
//! server hands out a puzzle ([`ProofChallenge`]) that a browser solves in about a second
//! and a bot must solve again for every card it tries. Nothing is stored: the challenge is
//! sealed with a key of its own (derived from `CARD_FINGERPRINT_KEY`, so every instance
//! checks what another handed out) over the session, what is paid with (the card's keyed
//! fingerprint, or the saved card) and the expiry the salt carries. One answer therefore pays
//! one card in one checkout for five minutes, and tells nothing about the card.
//!
//! The puzzle is ALTCHA's: `challenge` = SHA-256 of `salt` followed by a secret number's
//! decimal digits; the solver tries numbers from 0 up to `maxnumber`.

use std::time::Duration;

use checkout::contract::{ProofChallenge, ProofOfWork};
use hmac::{Hmac, Mac as _};
use rand::Rng as _;
use sha2::{Digest as _, Sha256};
use time::OffsetDateTime;

use crate::config::CardFingerprintKey;

/// The largest number of a puzzle: a browser tries half of them on average, about 25,000
/// SHA-256 hashes (well under a second in the browsers tested).
pub const MAX_NUMBER: u64 = 50_000;
/// How long a challenge can be answered.
pub const LIFETIME: Duration = Duration::from_secs(300);
/// The only algorithm.
const ALGORITHM: &str = "SHA-256";

/// The key that seals challenges. Cloning copies 32 bytes.
#[derive(Clone)]
pub struct ProofKey([u8; 32]);

impl std::fmt::Debug for ProofKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ProofKey(…)")
    }
}

impl ProofKey {
    /// The key derived from the card fingerprint key (a MAC of a fixed label under it).
    pub fn derive(key: &CardFingerprintKey) -> Self {
        let mut mac = Hmac::<Sha256>::new_from_slice(key.bytes()).expect("any key length");
        mac.update(b"checkout-server proof of work v1");
        Self(mac.finalize().into_bytes().into())
    }

    /// A fresh puzzle for paying `session_id` with `subject`, answerable until `now` plus
    /// [`LIFETIME`].
    pub fn challenge(
        &self,
        session_id: &str,
        subject: &str,
        now: OffsetDateTime,
    ) -> ProofChallenge {
        let mut rng = rand::rng();
        let expires = (now + LIFETIME).unix_timestamp();
        let salt = format!("{expires}.{:016x}", rng.random::<u64>());
        let number = rng.random_range(0..=MAX_NUMBER);
        let challenge = hash(&salt, number);
        ProofChallenge {
            algorithm: ALGORITHM.to_owned(),
            signature: self.seal(session_id, subject, &challenge),
            challenge,
            salt,
            maxnumber: MAX_NUMBER,
        }
    }

    /// Whether `proof` answers a challenge handed out for `session_id` and `subject` that has
    /// not expired at `now`.
    pub fn accepts(
        &self,
        session_id: &str,
        subject: &str,
        proof: &ProofOfWork,
        now: OffsetDateTime,
    ) -> bool {
        let Some(expires) = proof
            .salt
            .split_once('.')
            .and_then(|(expires, _)| expires.parse::<i64>().ok())
        else {
            return false;
        };
        if expires < now.unix_timestamp() || proof.number > MAX_NUMBER {
            return false;
        }
        let Ok(signature) = hex::decode(&proof.signature) else {
            return false;
        };
        self.mac(session_id, subject, &hash(&proof.salt, proof.number))
            .verify_slice(&signature)
            .is_ok()
    }

    fn seal(&self, session_id: &str, subject: &str, challenge: &str) -> String {
        hex::encode(
            self.mac(session_id, subject, challenge)
                .finalize()
                .into_bytes(),
        )
    }

    fn mac(&self, session_id: &str, subject: &str, challenge: &str) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.0).expect("any key length");
        for part in [session_id, subject, challenge] {
            mac.update(&(part.len() as u64).to_be_bytes());
            mac.update(part.as_bytes());
        }
        mac
    }
}

/// SHA-256 of `salt` followed by `number`'s decimal digits, lower-case hex.
pub fn hash(salt: &str, number: u64) -> String {
    hex::encode(Sha256::digest(format!("{salt}{number}")))
}

/// The number that answers `challenge`, found the way a browser finds it (trying each in turn,
/// comparing digests, no text per try); `None` when no number up to its `maxnumber` does.
pub fn solve(challenge: &ProofChallenge) -> Option<ProofOfWork> {
    let wanted = hex::decode(&challenge.challenge).ok()?;
    let mut text = challenge.salt.clone().into_bytes();
    let salt_len = text.len();
    (0..=challenge.maxnumber)
        .find(|number| {
            text.truncate(salt_len);
            text.extend_from_slice(number.to_string().as_bytes());
            Sha256::digest(&text).as_slice() == wanted.as_slice()
        })
        .map(|number| ProofOfWork {
            salt: challenge.salt.clone(),
            number,
            signature: challenge.signature.clone(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> ProofKey {
        ProofKey::derive(&CardFingerprintKey::from_bytes([byte; 32]))
    }

    const NOW: fn() -> OffsetDateTime =
        || OffsetDateTime::from_unix_timestamp(1_800_000_000).expect("time");

    #[test]
    fn a_solved_challenge_pays_its_session_and_card_only() {
        let key = key(1);
        let challenge = key.challenge("ses_1", "card_a", NOW());
        assert_eq!(challenge.algorithm, "SHA-256");
        assert_eq!(challenge.maxnumber, MAX_NUMBER);
        let proof = solve(&challenge).expect("solvable");
        assert!(key.accepts("ses_1", "card_a", &proof, NOW()));
        assert!(
            !key.accepts("ses_2", "card_a", &proof, NOW()),
            "another checkout"
        );
        assert!(
            !key.accepts("ses_1", "card_b", &proof, NOW()),
            "another card"
        );
        assert!(
            !key.accepts(
                "ses_1",
                "card_a",
                &proof,
                NOW() + LIFETIME + Duration::from_secs(1)
            ),
            "expired"
        );
        assert!(
            !super::tests::key(2).accepts("ses_1", "card_a", &proof, NOW()),
            "another key"
        );
    }

    #[test]
    fn a_wrong_number_or_a_forged_salt_is_refused() {
        let key = key(1);
        let challenge = key.challenge("ses_1", "card_a", NOW());
        let proof = solve(&challenge).expect("solvable");
        let wrong = ProofOfWork {
            number: (proof.number + 1) % (MAX_NUMBER + 1),
            ..proof.clone()
        };
        assert!(!key.accepts("ses_1", "card_a", &wrong, NOW()));
        // A later expiry written into the salt changes the hash: the seal no longer matches.
        let (_, random) = proof.salt.split_once('.').expect("salt");
        let later = ProofOfWork {
            salt: format!("{}.{random}", NOW().unix_timestamp() + 86_400),
            ..proof.clone()
        };
        assert!(!key.accepts("ses_1", "card_a", &later, NOW()));
        let garbage = ProofOfWork {
            signature: "zz".into(),
            ..proof
        };
        assert!(!key.accepts("ses_1", "card_a", &garbage, NOW()));
    }
}
