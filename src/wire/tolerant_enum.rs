//! A macro for string enums that must survive values the contract does not name.
//!
//! Real gateway traffic varies (gateway-notes.md, "Responses are inconsistent"), so every
//! closed-looking set of strings in the contract becomes an enum with the known values plus
//! `Other(String)`, which keeps the exact text it was given and serialises it back unchanged.

/// Declares a string enum with known variants and an `Other(String)` catch-all.
///
/// Generates `as_str`, `Display`, `From<&str>`, `Serialize` (the wire string) and
/// `Deserialize` (any string; unknown ones land in `Other`).
macro_rules! tolerant_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $wire:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )+
            /// A value the contract does not name, kept verbatim.
            Other(String),
        }

        impl $name {
            /// The exact string sent on the wire.
            pub fn as_str(&self) -> &str {
                match self {
                    $( Self::$variant => $wire, )+
                    Self::Other(text) => text.as_str(),
                }
            }
        }

        impl From<&str> for $name {
            fn from(text: &str) -> Self {
                match text {
                    $( $wire => Self::$variant, )+
                    other => Self::Other(other.to_owned()),
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl ::serde::Serialize for $name {
            fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = <::std::borrow::Cow<'de, str> as ::serde::Deserialize>::deserialize(deserializer)?;
                Ok(Self::from(text.as_ref()))
            }
        }
    };
}

pub(crate) use tolerant_enum;
