//! Secrets the server must read back (webhook signing secrets, staff TOTP keys), kept sealed
//! with AES-256-GCM under a key from the configuration, so a copy of the database alone
//! signs nothing and passes no second factor. Secrets the server only compares are hashed
//! instead ([`super::secret`]).
//!
//! - [`SecretsKey`] and [`KeyRing`]: the current key and the older ones still opened.
//! - [`Binding`]: the row and column a value belongs to, authenticated with it.
//! - [`envelope`]: the stored text, `v1.<key id>.<nonce>.<ciphertext and tag>`.
//! - [`key_file`]: reading a key file, and the sandbox's generated one.
//!
//! Callers outside the store never see the stored text: the store seals what it writes and
//! opens what it reads, and hands out `SecretString`s.

mod binding;
pub mod envelope;
mod error;
pub mod key_file;
mod key_ring;
mod secrets_key;

pub use binding::Binding;
pub use error::{KeyError, SealError};
pub use key_ring::KeyRing;
pub use secrets_key::SecretsKey;
