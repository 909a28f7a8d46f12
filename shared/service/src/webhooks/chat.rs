//! Chat notifications (docs/webhooks.md, "Chat formats"): a subscription whose format is
//! `discord` or `slack` gets the platform's own incoming-webhook message instead of the signed
//! JSON event: one sentence a person reads in the channel, naming the game and the player,
//! with a link to the subscriber's page of the game when it gave one.
//!
//! The platforms' webhook addresses are fixed, so a chat subscription's URL must be one of
//! them (on top of every check [`super::url`] makes): nothing private, and no other host
//! dressed up as a chat platform.

use super::url::{UrlError, WebhookUrl};
use serde_json::json;
use store::HookFormat;

/// The longest message Discord accepts (`content`, in characters).
pub const DISCORD_MAX_CONTENT: usize = 2000;

/// The hosts of a platform's incoming webhooks, and the path their addresses start with.
fn platform(format: HookFormat) -> Option<(&'static [&'static str], &'static str)> {
    match format {
        HookFormat::Standard => None,
        HookFormat::Discord => Some((
            &[
                "discord.com",
                "discordapp.com",
                "ptb.discord.com",
                "canary.discord.com",
            ],
            "/api/webhooks/",
        )),
        HookFormat::Slack => Some((&["hooks.slack.com"], "/services/")),
    }
}

/// The platform's name, for messages.
fn platform_name(format: HookFormat) -> &'static str {
    match format {
        HookFormat::Standard => "standard",
        HookFormat::Discord => "Discord",
        HookFormat::Slack => "Slack",
    }
}

/// Checks that `url` is an address of `format`'s platform: one of its hosts, and its webhook
/// path. In dev mode a loopback receiver may stand in for the platform's host (tests), but the
/// path must still be the platform's.
pub fn check_platform(url: &WebhookUrl, format: HookFormat, dev: bool) -> Result<(), UrlError> {
    let Some((hosts, path)) = platform(format) else {
        return Ok(());
    };
    let loopback = url.host == "localhost"
        || url
            .host
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback());
    let host_ok = hosts.contains(&url.host.as_str()) || (dev && loopback);
    if !host_ok || !url.path_and_query.starts_with(path) {
        return Err(UrlError::Invalid(format!(
            "a {} webhook url is https://{}{path}…, as the platform gives it",
            platform_name(format),
            hosts[0]
        )));
    }
    Ok(())
}

/// Checks a subscription's `link`: an absolute `https` URL (plain `http` too in dev mode), at
/// most [`super::url::MAX_URL_LEN`] bytes. Returns it as the platforms will show it.
pub fn check_link(link: &str, dev: bool) -> Result<String, UrlError> {
    let invalid = |why: &str| UrlError::Invalid(format!("link {why}"));
    if link.len() > super::url::MAX_URL_LEN {
        return Err(invalid(&format!(
            "is longer than {} bytes",
            super::url::MAX_URL_LEN
        )));
    }
    let parsed = url::Url::parse(link).map_err(|_| invalid("is not an absolute URL"))?;
    match parsed.scheme() {
        "https" => {}
        "http" if dev => {}
        _ => return Err(invalid("must be an https URL")),
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(invalid("has no host"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(invalid("must not carry user information"));
    }
    // Slack ends a link at `|` and `>`; the URL parser leaves them as they are.
    Ok(parsed.as_str().replace('|', "%7C").replace('>', "%3E"))
}

/// The body of a chat notification saying `sentence` (plain text; names in it are escaped
/// here), followed by `link` when there is one. `None` for the standard format.
pub fn body(format: HookFormat, sentence: &str, link: Option<&str>) -> Option<String> {
    let message = match format {
        HookFormat::Standard => return None,
        HookFormat::Discord => {
            // `<…>` keeps Discord from unfurling the page under the message. A link longer
            // than half a message is left out rather than cut.
            let link = link
                .filter(|link| link.len() <= DISCORD_MAX_CONTENT / 2)
                .map(|link| format!(" <{link}>"))
                .unwrap_or_default();
            let room = DISCORD_MAX_CONTENT.saturating_sub(link.chars().count());
            let text: String = discord_escape(sentence).chars().take(room).collect();
            json!({
                "content": format!("{text}{link}"),
                "username": "Beurs",
                // Names are the players' own: none of them may ping anyone.
                "allowed_mentions": {"parse": []},
            })
        }
        HookFormat::Slack => {
            let link = link
                .map(|link| format!(" <{link}|Open the game>"))
                .unwrap_or_default();
            json!({ "text": format!("{}{link}", slack_escape(sentence)) })
        }
    };
    Some(message.to_string())
}

/// The characters Discord markdown reads as formatting, links, mentions or emoji.
const DISCORD_MARKUP: &str = "\\*_~`|<>[]#@:";

/// Discord markdown: every character a name could use to format, link, mention or show an
/// emoji is escaped with a backslash, which Discord shows as the character itself.
fn discord_escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for character in text.chars() {
        if DISCORD_MARKUP.contains(character) {
            escaped.push('\\');
        }
        escaped.push(character);
    }
    escaped
}

/// Slack's three control characters, as its formatting reference asks.
fn slack_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::webhooks::url::parse;
    use serde_json::Value;

    fn checked(url: &str, format: HookFormat, dev: bool) -> Result<(), UrlError> {
        check_platform(&parse(url, dev).unwrap(), format, dev)
    }

    #[test]
    fn only_the_platforms_own_addresses_take_a_chat_format() {
        let discord = HookFormat::Discord;
        let slack = HookFormat::Slack;
        assert!(checked("https://discord.com/api/webhooks/1/abc", discord, false).is_ok());
        assert!(checked("https://discordapp.com/api/webhooks/1/abc", discord, false).is_ok());
        assert!(checked("https://hooks.slack.com/services/T/B/x", slack, false).is_ok());
        for (url, format) in [
            ("https://discord.com.evil.example/api/webhooks/1/a", discord),
            ("https://discord.com/api/other/1/a", discord),
            ("https://hooks.slack.com/services/T/B/x", discord),
            ("https://discord.com/api/webhooks/1/a", slack),
            ("https://example.com/services/T/B/x", slack),
            ("https://127.0.0.1/api/webhooks/1/a", discord),
        ] {
            let error = checked(url, format, false).unwrap_err();
            assert!(matches!(error, UrlError::Invalid(_)), "{url}: {error:?}");
        }
        // Dev mode: a loopback receiver stands in for the host, never for the path.
        assert!(checked("http://127.0.0.1:9/api/webhooks/1/a", discord, true).is_ok());
        assert!(checked("http://localhost:9/services/T/B/x", slack, true).is_ok());
        assert!(checked("http://127.0.0.1:9/hook", slack, true).is_err());
        assert!(checked("https://example.com/hook", HookFormat::Standard, false).is_ok());
    }

    #[test]
    fn a_discord_message_escapes_names_pings_nobody_and_fits() {
        let sentence = "**@everyone** <@1>, it is your turn in Tulip Bubble (game g_1).";
        let message: Value = serde_json::from_str(
            &body(HookFormat::Discord, sentence, Some("https://t.example/g/1")).unwrap(),
        )
        .unwrap();
        let content = message["content"].as_str().unwrap();
        assert!(content.starts_with(r"\*\*\@everyone\*\* \<\@1\>, it is your turn"));
        assert!(content.ends_with(" <https://t.example/g/1>"), "{content}");
        assert_eq!(message["allowed_mentions"]["parse"], serde_json::json!([]));
        let long = "x".repeat(3000);
        let message: Value = serde_json::from_str(
            &body(HookFormat::Discord, &long, Some("https://t.example/")).unwrap(),
        )
        .unwrap();
        let content = message["content"].as_str().unwrap();
        assert_eq!(content.chars().count(), DISCORD_MAX_CONTENT);
        assert!(
            content.ends_with("<https://t.example/>"),
            "the link survives"
        );
    }

    #[test]
    fn a_slack_message_escapes_its_control_characters_and_links() {
        let message: Value = serde_json::from_str(
            &body(
                HookFormat::Slack,
                "A&B <b> won.",
                Some("https://t.example/g/1"),
            )
            .unwrap(),
        )
        .unwrap();
        assert_eq!(
            message,
            serde_json::json!({"text": "A&amp;B &lt;b&gt; won. <https://t.example/g/1|Open the game>"})
        );
        assert_eq!(body_of(HookFormat::Standard), None);
    }

    fn body_of(format: HookFormat) -> Option<String> {
        body(format, "x", None)
    }

    #[test]
    fn links_are_absolute_https_and_safe_in_a_slack_link() {
        assert_eq!(
            check_link("https://t.example/g?a=1|2>3", false).unwrap(),
            "https://t.example/g?a=1%7C2%3E3"
        );
        assert!(check_link("http://t.example/g", false).is_err());
        assert!(check_link("http://127.0.0.1:8080/play", true).is_ok());
        assert!(check_link("/games/1", false).is_err());
        assert!(check_link("https://user:pw@t.example/", false).is_err());
        assert!(check_link("javascript:alert(1)", false).is_err());
    }
}
