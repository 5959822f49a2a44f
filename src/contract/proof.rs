//! The proof of work checkout-server asks of a pay call while a card-testing alert is open
//! (issue 33): find the `number` (0 to `maxnumber`) whose SHA-256 of `salt` followed by the
//! number's decimal digits is `challenge` (lower-case hex), and send it back with the salt and
//! signature. A browser finds it in about a second; a bot pays that for every card it tries.

use serde::{Deserialize, Serialize};

/// The puzzle, in the error of a pay call refused for want of a proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofChallenge {
    /// Always `SHA-256`.
    pub algorithm: String,
    /// The hash to find, lower-case hex.
    pub challenge: String,
    /// What the number is appended to; it carries the challenge's expiry.
    pub salt: String,
    /// The largest number to try.
    pub maxnumber: u64,
    /// The server's seal over the challenge, sent back as it is.
    pub signature: String,
}

/// The answer, in the pay request's `proof_of_work`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProofOfWork {
    /// The challenge's salt.
    pub salt: String,
    /// The number found.
    pub number: u64,
    /// The challenge's signature.
    pub signature: String,
}
