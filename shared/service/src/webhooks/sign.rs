//! Standard Webhooks signatures: secrets, message ids and the `webhook-signature` header.
//!
//! The scheme (standardwebhooks.com): the secret is `whsec_` followed by base64 key bytes; the
//! signature of a delivery is `v1,` and the base64 HMAC-SHA256, under that key, of
//! `<webhook-id>.<webhook-timestamp>.<body>`. Receivers recompute it with any implementation of
//! the scheme; `tests/api/webhooks.rs` checks ours against the reference Python package.

use crate::auth::random_bytes;
use crate::error::Error;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use hmac::{Hmac, Mac};
use sha2::Sha256;

/// Prefix of signing secrets.
pub const SECRET_PREFIX: &str = "whsec_";

/// A new signing secret: `whsec_` and 32 random bytes in base64.
pub fn new_secret() -> Result<String, Error> {
    Ok(format!(
        "{SECRET_PREFIX}{}",
        STANDARD.encode(random_bytes::<32>()?)
    ))
}

/// A new subscription id: `wh_` and 96 random bits.
pub fn new_hook_id() -> Result<String, Error> {
    Ok(format!(
        "wh_{}",
        URL_SAFE_NO_PAD.encode(random_bytes::<12>()?)
    ))
}

/// Whether `id` has the shape of a subscription id (anything else cannot exist).
pub fn is_hook_id(id: &str) -> bool {
    id.len() == 19
        && id.starts_with("wh_")
        && id[3..]
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_')
}

/// The `webhook-signature` value for one delivery attempt, or `None` if `secret` is not a
/// `whsec_` secret (which cannot happen for secrets this server made).
pub fn signature(secret: &str, message_id: &str, timestamp: u64, body: &str) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix(SECRET_PREFIX)?).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(message_id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body.as_bytes());
    Some(format!(
        "v1,{}",
        STANDARD.encode(mac.finalize().into_bytes())
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_matches_the_specification_example() {
        // The worked example of the Standard Webhooks specification.
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let body = r#"{"test": 2432232314}"#;
        assert_eq!(
            signature(secret, id, 1_614_265_330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
    }

    #[test]
    fn signature_depends_on_every_part() {
        let secret = new_secret().unwrap();
        let base = signature(&secret, "msg_a", 1, "{}").unwrap();
        assert_ne!(signature(&secret, "msg_b", 1, "{}").unwrap(), base);
        assert_ne!(signature(&secret, "msg_a", 2, "{}").unwrap(), base);
        assert_ne!(signature(&secret, "msg_a", 1, "{ }").unwrap(), base);
        assert_ne!(
            signature(&new_secret().unwrap(), "msg_a", 1, "{}").unwrap(),
            base
        );
        assert_eq!(signature("not-a-secret", "msg_a", 1, "{}"), None);
    }

    #[test]
    fn ids_have_their_shapes() {
        let hook = new_hook_id().unwrap();
        assert!(is_hook_id(&hook), "{hook}");
        assert!(!is_hook_id("wh_../../etc/passwd"));
        assert!(crate::auth::new_message_id().unwrap().starts_with("msg_"));
        assert!(new_secret().unwrap().starts_with(SECRET_PREFIX));
    }
}
