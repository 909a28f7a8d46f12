//! Game-wide ids (spec §0): coin handles `h1`, sessions `s1`, offers `o1`, promises `pr1`,
//! claims `k1`, agreements `a1`. Each is a number with a prefix on the wire.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;

macro_rules! prefixed_id {
    ($name:ident, $prefix:literal, $doc:literal) => {
        #[doc = $doc]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name(pub u32);

        impl $name {
            /// The wire prefix.
            pub const PREFIX: &'static str = $prefix;

            /// Parses the wire form (`"h7"`).
            pub fn parse(text: &str) -> Option<Self> {
                let digits = text.strip_prefix($prefix)?;
                // At most nine digits, exactly as the schema's pattern says, so a schema-valid
                // id always parses (ten digits could overflow u32).
                if digits.is_empty()
                    || digits.len() > 9
                    || !digits.bytes().all(|b| b.is_ascii_digit())
                {
                    return None;
                }
                digits.parse().ok().map($name)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}{}", $prefix, self.0)
            }
        }

        impl Serialize for $name {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                // Digits by hand: ids are serialized often (views, events, schemas).
                let mut buffer = [0u8; 16];
                let prefix = $prefix.as_bytes();
                buffer[..prefix.len()].copy_from_slice(prefix);
                let mut digits = [0u8; 10];
                let mut n = self.0;
                let mut len = 0;
                loop {
                    digits[len] = b'0' + (n % 10) as u8;
                    len += 1;
                    n /= 10;
                    if n == 0 {
                        break;
                    }
                }
                for i in 0..len {
                    buffer[prefix.len() + i] = digits[len - 1 - i];
                }
                let text = std::str::from_utf8(&buffer[..prefix.len() + len]).unwrap_or_default();
                serializer.serialize_str(text)
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                let text = std::borrow::Cow::<str>::deserialize(deserializer)?;
                $name::parse(&text).ok_or_else(|| {
                    serde::de::Error::custom(format!(
                        "expected an id like {}1, not {text:?}",
                        $prefix
                    ))
                })
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::schema::ObjectBuilder::new()
                    .schema_type(utoipa::openapi::schema::Type::String)
                    .pattern(Some(concat!("^", $prefix, "[0-9]{1,9}$")))
                    .description(Some($doc))
                    .into()
            }
        }

        #[cfg(feature = "openapi")]
        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed(concat!("black_thursday.", stringify!($name)))
            }
        }
    };
}

prefixed_id!(
    Handle,
    "h",
    "A coin handle (`h7`): names one coin while it is outside the bag."
);
prefixed_id!(SessionId, "s", "A trading session id (`s1`).");
prefixed_id!(OfferId, "o", "An offer id (`o1`).");
prefixed_id!(PromiseId, "pr", "A promise id (`pr1`).");
prefixed_id!(ClaimId, "k", "A breach claim id (`k1`).");
prefixed_id!(AgreementId, "a", "An agreement id (`a1`).");
