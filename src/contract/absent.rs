//! `null` in a request body is the same as leaving the field out (the merchant and browser
//! APIs' rule, stated as `nullable` in `/openapi.json`): for a field with a default that is not
//! an `Option`, serde alone would refuse `null`.

use serde::{Deserialize, Deserializer};

/// The field's value, or its default when the body says `null`; use with `#[serde(default)]`
/// so leaving it out gives the default too.
pub fn null_is_default<'de, D, T>(deserializer: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Default,
{
    Option::<T>::deserialize(deserializer).map(Option::unwrap_or_default)
}
