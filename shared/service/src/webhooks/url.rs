//! Which webhook URLs Beurs will call (DESIGN.md §6): `https` only, except plain `http` to
//! loopback when the server runs in dev mode; never an address in a private, loopback,
//! link-local, shared, multicast, reserved or cloud-metadata range, nor an IPv6 address that
//! embeds one (or, for the tunnelled and local-use forms, any IPv4 address: see
//! `translated_v4` and `embedding` below). Checked when a subscription is created and again, on
//! freshly resolved addresses, before every delivery; the delivery then connects to exactly
//! the addresses that passed, so a DNS answer that changes between the check and the
//! connection cannot redirect it.

use crate::error::Code;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

/// The longest URL accepted.
pub const MAX_URL_LEN: usize = 2048;

/// A webhook URL that passed the syntax checks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookUrl {
    /// `https` (or `http` in dev mode).
    pub https: bool,
    /// The host name or IP literal, without brackets.
    pub host: String,
    /// The port (default 443 or 80).
    pub port: u16,
    /// Path and query, at least `/`.
    pub path_and_query: String,
}

/// Why a URL is refused; each is a 422 problem with its own code.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UrlError {
    /// Not an absolute `https` URL this server can call.
    #[error("{0}")]
    Invalid(String),
    /// It resolves to an address Beurs never calls.
    #[error("{0}")]
    Forbidden(String),
    /// Its host name does not resolve.
    #[error("{0}")]
    Unresolvable(String),
}

impl UrlError {
    /// The problem code.
    pub fn code(&self) -> Code {
        match self {
            UrlError::Invalid(_) => Code::InvalidWebhookUrl,
            UrlError::Forbidden(_) => Code::ForbiddenWebhookUrl,
            UrlError::Unresolvable(_) => Code::UnresolvableWebhookUrl,
        }
    }
}

/// Checks the syntax of `url`. Plain `http` passes only when `dev` is on (its addresses must
/// then be loopback, which [`resolve`] checks).
pub fn parse(url: &str, dev: bool) -> Result<WebhookUrl, UrlError> {
    let invalid = |why: &str| UrlError::Invalid(format!("webhook url {why}"));
    if url.len() > MAX_URL_LEN {
        return Err(invalid(&format!("is longer than {MAX_URL_LEN} bytes")));
    }
    if url.bytes().any(|byte| !byte.is_ascii_graphic()) {
        return Err(invalid(
            "must be ASCII without spaces or control characters",
        ));
    }
    let parsed = url::Url::parse(url).map_err(|error| match error {
        url::ParseError::InvalidPort => invalid("has a port that is not 1 to 65535"),
        url::ParseError::EmptyHost => invalid("has no host"),
        _ => invalid("is not an absolute URL"),
    })?;
    let https =
        match parsed.scheme() {
            "https" => true,
            "http" if dev => false,
            "http" => return Err(UrlError::Forbidden(
                "webhook url must use https (plain http is allowed only to loopback, in dev mode)"
                    .into(),
            )),
            _ => return Err(invalid("must be an https URL")),
        };
    // WHATWG reads `https:///host` and `https:host` as `https://host/`; a URL whose
    // authority is not where RFC 3986 puts it is refused rather than guessed at.
    let authority_start = url
        .split_once("://")
        .and_then(|(_, rest)| rest.chars().next());
    if !authority_start.is_some_and(|first| first != '/' && first != '\\') {
        return Err(invalid("has no host"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(invalid("must not carry user information"));
    }
    if parsed.fragment().is_some() {
        return Err(invalid("must not have a fragment"));
    }
    // Domains come lowercased (and internationalised ones in punycode), IPv6 literals without
    // their brackets, and IPv4 addresses in any of the forms browsers read as one (`0x7f.1`)
    // as the address itself.
    let host = match parsed.host() {
        Some(url::Host::Domain(domain)) if !domain.is_empty() => domain.to_string(),
        Some(url::Host::Ipv4(address)) => address.to_string(),
        Some(url::Host::Ipv6(address)) => address.to_string(),
        _ => return Err(invalid("has no host")),
    };
    let port = parsed
        .port_or_known_default()
        .filter(|&port| port != 0)
        .ok_or_else(|| invalid("has a port that is not 1 to 65535"))?;
    let path_and_query = match parsed.query() {
        Some(query) => format!("{}?{query}", parsed.path()),
        None => parsed.path().to_string(),
    };
    Ok(WebhookUrl {
        https,
        host,
        port,
        path_and_query,
    })
}

/// Resolves `url` and returns its addresses if every one of them may be called: none in a
/// forbidden range, and, in dev mode, loopback also allowed (and required for plain `http`).
pub async fn resolve(url: &WebhookUrl, dev: bool) -> Result<Vec<SocketAddr>, UrlError> {
    let addrs: Vec<SocketAddr> = match url.host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, url.port)],
        Err(_) => tokio::net::lookup_host((url.host.as_str(), url.port))
            .await
            .map_err(|_| {
                UrlError::Unresolvable(format!("webhook host {} does not resolve", url.host))
            })?
            .collect(),
    };
    if addrs.is_empty() {
        return Err(UrlError::Unresolvable(format!(
            "webhook host {} has no address",
            url.host
        )));
    }
    for addr in &addrs {
        let ip = canonical(addr.ip());
        let allowed = if ip.is_loopback() {
            dev
        } else {
            url.https && !is_forbidden(ip)
        };
        if !allowed {
            return Err(UrlError::Forbidden(format!(
                "webhook url resolves to {}",
                refusal(addr.ip())
            )));
        }
    }
    Ok(addrs)
}

/// An IPv4 address written as IPv6 in a form that reaches exactly that IPv4 address, which is
/// how it is judged:
///
/// - IPv4-mapped `::ffff:0:0/96` (RFC 4291): the operating system connects to the IPv4 address;
/// - IPv4-translated `::ffff:0:0:0/96` (SIIT, RFC 7915): a stateless translator maps it 1:1;
/// - NAT64's well-known prefix `64:ff9b::/96` (RFC 6052): what DNS64 synthesizes on an
///   IPv6-only network, translated to the last 32 bits.
///
/// These stay allowed when the IPv4 address is public, because a server on an IPv6-only
/// network reaches IPv4-only receivers exactly this way.
fn translated_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let s = ip.segments();
    match s[..6] {
        [0, 0, 0, 0, 0, 0xffff] | [0, 0, 0, 0, 0xffff, 0] | [0x64, 0xff9b, 0, 0, 0, 0] => {
            Some(v4_of(s[6], s[7]))
        }
        _ => None,
    }
}

/// A transition form that carries an IPv4 address but is reached through a tunnel, a relay or
/// a translator whose rules Beurs cannot know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Embedding {
    /// IPv4-compatible `::/96` (RFC 4291 §2.5.5.1, deprecated): the IPv4 address is the last
    /// 32 bits.
    Compatible(Ipv4Addr),
    /// NAT64 local-use `64:ff9b:1::/48` (RFC 8215): the IPv4 address sits where the local
    /// operator's prefix length puts it (RFC 6052 §2.2: /48, /56, /64 or /96 inside this range).
    LocalUseNat64,
    /// 6to4 `2002::/16` (RFC 3056): the IPv4 address is bits 16..48.
    SixToFour(Ipv4Addr),
    /// Teredo `2001::/32` (RFC 4380): the client's IPv4 address is the last 32 bits XOR
    /// `0xffffffff`; the server's is bits 32..64.
    Teredo { client: Ipv4Addr, server: Ipv4Addr },
}

impl std::fmt::Display for Embedding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Embedding::Compatible(v4) => {
                write!(f, "an IPv4-compatible address (deprecated) embedding {v4}")
            }
            Embedding::LocalUseNat64 => {
                f.write_str("a NAT64 local-use address (RFC 8215, 64:ff9b:1::/48)")
            }
            Embedding::SixToFour(v4) => write!(f, "a 6to4 address (RFC 3056) embedding {v4}"),
            Embedding::Teredo { client, server } => write!(
                f,
                "a Teredo address (RFC 4380) embedding {client} (client) and {server} (server)"
            ),
        }
    }
}

/// The transition form `ip` is written in, if any (see [`Embedding`]).
///
/// Every one of these is refused whatever IPv4 address it carries, not only a forbidden one:
/// - IPv4-compatible addresses are deprecated and never assigned to a receiver;
/// - which bits of a local-use NAT64 address are the IPv4 address depends on a prefix length
///   only the local operator knows, so no single reading is safe, and reading it every possible
///   way finds `0.0.0.0/8` or another forbidden address in nearly every address of the range;
/// - 6to4 and Teredo reach the IPv4 address through relays Beurs does not control (6to4's
///   anycast relays are deprecated by RFC 7526, Teredo is retired by its main implementers),
///   so what a connection reaches is not decided by the address alone, and no webhook
///   receiver needs them: a receiver with such an address also has a native one.
fn embedding(ip: Ipv6Addr) -> Option<Embedding> {
    let s = ip.segments();
    if s[..6] == [0, 0, 0, 0, 0, 0] && !ip.is_unspecified() && !ip.is_loopback() {
        Some(Embedding::Compatible(v4_of(s[6], s[7])))
    } else if s[..3] == [0x64, 0xff9b, 1] {
        Some(Embedding::LocalUseNat64)
    } else if s[0] == 0x2002 {
        Some(Embedding::SixToFour(v4_of(s[1], s[2])))
    } else if s[..2] == [0x2001, 0] {
        Some(Embedding::Teredo {
            client: v4_of(!s[6], !s[7]),
            server: v4_of(s[2], s[3]),
        })
    } else {
        None
    }
}

/// An IPv4 address written as IPv6 ([`translated_v4`]) is judged as the IPv4 address it
/// reaches.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => translated_v4(v6).map_or(IpAddr::V6(v6), IpAddr::V4),
        v4 => v4,
    }
}

/// Whether Beurs refuses to call `ip` (loopback included: only dev mode may call it).
pub fn is_forbidden(ip: IpAddr) -> bool {
    match canonical(ip) {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => embedding(v6).is_some() || forbidden_v6(v6),
    }
}

/// Why `ip` is refused, for the problem's detail.
fn refusal(ip: IpAddr) -> String {
    let canonical = canonical(ip);
    match (ip, canonical) {
        (IpAddr::V6(v6), IpAddr::V6(_)) => match embedding(v6) {
            Some(embedding) => format!("{ip}, {embedding}, which Beurs does not call"),
            None => format!(
                "{ip}, an address Beurs does not call \
                 (private, loopback, link-local, multicast, reserved or not global unicast)"
            ),
        },
        (IpAddr::V6(_), IpAddr::V4(v4)) => format!(
            "{ip}, which reaches {v4}, an address Beurs does not call \
             (private, loopback, link-local, metadata or reserved)"
        ),
        _ => format!(
            "{ip}, an address Beurs does not call \
             (private, loopback, link-local, metadata or reserved)"
        ),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local() // 169.254/16, with the metadata address 169.254.169.254
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0 // "this network"
        || (a == 100 && (64..128).contains(&b)) // shared address space, 100.64/10
        || (a == 192 && b == 0 && c == 0) // IETF protocol assignments, 192.0.0/24
        || (a == 198 && (b == 18 || b == 19)) // benchmarking, 198.18/15
        || a >= 240 // reserved, 240/4
}

/// Only global unicast `2000::/3` is called, less its special blocks. Everything outside it is
/// loopback, unspecified, unique local (`fc00::/7`, with AWS's metadata `fd00:ec2::254`),
/// link-local, site-local, multicast, discard-only (`100::/64`) or reserved by the IETF.
fn forbidden_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    (s[0] & 0xe000) != 0x2000 // outside global unicast 2000::/3
        || (s[0] == 0x2001 && s[1] < 0x0200) // IETF protocol assignments, 2001::/23 (RFC 2928)
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation, 2001:db8::/32
        || (s[0] == 0x3fff && s[1] < 0x1000) // documentation, 3fff::/20 (RFC 9637)
}

/// The IPv4 address whose high and low 16 bits are `high` and `low`.
fn v4_of(high: u16, low: u16) -> Ipv4Addr {
    Ipv4Addr::from((u32::from(high) << 16) | u32::from(low))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn https_urls_parse_with_defaults() {
        let url = parse("https://Hooks.Example.com/beurs?x=1", false).unwrap();
        assert_eq!(
            url,
            WebhookUrl {
                https: true,
                host: "hooks.example.com".into(),
                port: 443,
                path_and_query: "/beurs?x=1".into(),
            }
        );
        assert_eq!(
            parse("https://[2606:4700::1]:8443", false).unwrap().port,
            8443
        );
        assert_eq!(
            parse("https://[2606:4700::1]:8443", false).unwrap().host,
            "2606:4700::1"
        );
        assert_eq!(
            parse("https://a.example", false).unwrap().path_and_query,
            "/"
        );
        // An IPv4 address in a form browsers read as one is judged as that address.
        assert_eq!(parse("http://0x7f.1:9/", true).unwrap().host, "127.0.0.1");
    }

    #[test]
    fn malformed_and_plain_http_urls_are_refused() {
        for url in [
            "",
            "hooks.example.com",
            "ftp://hooks.example.com/",
            "https://",
            "https://user:pw@hooks.example.com/",
            "https://hooks.example.com/a b",
            "https://hooks.example.com/#frag",
            "https://hooks.example.com:0/",
            "https://hooks.example.com:99999/",
            "javascript:alert(1)",
            "https://hooks.example.com:65536/",
            "https:///nohost",
            "https:hooks.example.com/",
            "https:\\\\hooks.example.com/",
            "https:/\\hooks.example.com/",
        ] {
            assert!(
                matches!(parse(url, true), Err(UrlError::Invalid(_))),
                "{url:?} should be invalid"
            );
        }
        assert!(matches!(
            parse("http://127.0.0.1:9/", false),
            Err(UrlError::Forbidden(_))
        ));
        assert!(parse("http://127.0.0.1:9/", true).is_ok());
        assert!(parse(
            &format!("https://a.example/{}", "x".repeat(MAX_URL_LEN)),
            false
        )
        .is_err());
    }

    #[test]
    fn private_and_metadata_addresses_are_forbidden() {
        for ip in [
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "127.0.0.1",
            "169.254.169.254",
            "100.100.100.200",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "198.18.0.1",
            "::1",
            "::",
            "fd00:ec2::254",
            "fe80::1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::a9fe:a9fe",
            "ff02::1",
        ] {
            assert!(
                is_forbidden(ip.parse().unwrap()),
                "{ip} should be forbidden"
            );
        }
        for ip in ["93.184.215.14", "2606:4700::6810:84e5", "8.8.8.8"] {
            assert!(!is_forbidden(ip.parse().unwrap()), "{ip} should be allowed");
        }
    }

    /// 169.254.169.254, the cloud metadata address, in each IPv6 form that embeds an IPv4
    /// address; and 93.184.215.14, a public address, in the same forms.
    const METADATA: &str = "a9fe:a9fe";
    const PUBLIC: &str = "5db8:d70e";

    fn forbidden(ip: &str) -> bool {
        is_forbidden(ip.parse().unwrap_or_else(|_| panic!("{ip} is an address")))
    }

    /// Checks that `url` is refused, with `why` in the message.
    fn assert_refused_with(url: &str, why: &str) {
        let parsed = parse(url, false).unwrap();
        let resolved = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(resolve(&parsed, false));
        match resolved {
            Err(UrlError::Forbidden(message)) => {
                assert!(
                    message.contains(why),
                    "{url}: {message:?} does not say {why:?}"
                )
            }
            other => panic!("{url} should be forbidden, got {other:?}"),
        }
    }

    #[test]
    fn ipv4_mapped_addresses_are_judged_as_their_ipv4() {
        assert!(forbidden(&format!("::ffff:{METADATA}")));
        assert!(forbidden("::ffff:127.0.0.1"));
        assert!(!forbidden(&format!("::ffff:{PUBLIC}")));
    }

    #[test]
    fn siit_translated_addresses_are_judged_as_their_ipv4() {
        // ::ffff:0:0:0/96 (RFC 7915 IPv4-translated): ::ffff:0:a.b.c.d.
        assert!(forbidden(&format!("::ffff:0:{METADATA}")));
        assert!(forbidden("::ffff:0:10.0.0.1"));
        assert!(!forbidden(&format!("::ffff:0:{PUBLIC}")));
    }

    #[test]
    fn nat64_well_known_prefix_addresses_are_judged_as_their_ipv4() {
        // 64:ff9b::/96 (RFC 6052): the IPv4 address is the last 32 bits.
        assert!(forbidden(&format!("64:ff9b::{METADATA}")));
        assert!(forbidden("64:ff9b::192.168.0.1"));
        assert!(!forbidden(&format!("64:ff9b::{PUBLIC}")));
        // The rest of 64:ff9b::/32 outside the /96 is not assigned: refused.
        assert!(forbidden(&format!("64:ff9b:0:1::{PUBLIC}")));
    }

    #[test]
    fn nat64_local_use_prefix_is_refused_whatever_it_embeds() {
        // 64:ff9b:1::/48 (RFC 8215): where the IPv4 sits depends on the prefix length the
        // local operator chose (RFC 6052 §2.2); every placement is refused.
        for ip in [
            format!("64:ff9b:1::{METADATA}"),    // a /96 inside the range
            "64:ff9b:1:a9fe:a9:fe00::".into(),   // the /48 placement, around the u-octet
            "64:ff9b:1:a9:fe:a9fe::".into(),     // the /56 placement
            "64:ff9b:1:0:a9:fea9:fe00:0".into(), // the /64 placement
            format!("64:ff9b:1::{PUBLIC}"),      // even a public address
        ] {
            assert!(forbidden(&ip), "{ip} should be forbidden");
        }
    }

    #[test]
    fn ipv4_compatible_addresses_are_refused_whatever_they_embed() {
        // ::/96 (RFC 4291 §2.5.5.1, deprecated).
        assert!(forbidden(&format!("::{METADATA}")));
        assert!(forbidden(&format!("::{PUBLIC}")));
    }

    #[test]
    fn six_to_four_addresses_are_refused_whatever_they_embed() {
        // 2002::/16 (RFC 3056): the IPv4 address is bits 16..48.
        assert!(forbidden(&format!("2002:{METADATA}::")));
        assert!(forbidden(&format!("2002:{METADATA}:1::1")));
        assert!(forbidden("2002:0a00:0001::1"));
        assert!(forbidden(&format!("2002:{PUBLIC}::1")));
        assert_refused_with(
            "https://[2002:a9fe:a9fe::]/",
            "a 6to4 address (RFC 3056) embedding 169.254.169.254",
        );
    }

    #[test]
    fn teredo_addresses_are_refused_whatever_they_embed() {
        // 2001::/32 (RFC 4380): server IPv4 in bits 32..64, client IPv4 in the last 32 bits
        // XOR 0xffffffff. 0x5601_5601 is 169.254.169.254 obscured; 0xa247_28f1 is 93.184.215.14.
        for ip in [
            format!("2001:0:{PUBLIC}:8000:63bf:5601:5601"), // client is the metadata address
            format!("2001:0:{METADATA}:8000:63bf:a247:28f1"), // server is the metadata address
            format!("2001:0:{PUBLIC}:8000:63bf:a247:28f1"), // both public
        ] {
            assert!(forbidden(&ip), "{ip} should be forbidden");
        }
        assert_refused_with(
            "https://[2001:0:5db8:d70e:8000:63bf:5601:5601]/",
            "a Teredo address (RFC 4380) embedding 169.254.169.254 (client) \
             and 93.184.215.14 (server)",
        );
    }

    #[test]
    fn ipv6_outside_global_unicast_and_special_blocks_are_refused() {
        for ip in [
            "100::1",      // discard-only
            "2001:2::1",   // benchmarking, inside 2001::/23
            "2001:db8::1", // documentation
            "3fff::1",     // documentation (RFC 9637)
            "4000::1",     // outside 2000::/3
            "fec0::1",     // site-local
        ] {
            assert!(forbidden(ip), "{ip} should be forbidden");
        }
        for ip in [
            "2606:4700::6810:84e5",
            "2a00:1450:4001:82b::200e",
            "2001:4860::8888",
        ] {
            assert!(!forbidden(ip), "{ip} should be allowed");
        }
    }

    #[tokio::test]
    async fn urls_with_ipv4_embedded_in_ipv6_are_refused() {
        for url in [
            "https://[64:ff9b:1::a9fe:a9fe]/",
            "https://[2002:a9fe:a9fe::]/",
            "https://[::ffff:0:a9fe:a9fe]/",
            "https://[::ffff:169.254.169.254]/",
            "https://[64:ff9b::a9fe:a9fe]/",
            "https://[2001:0:5db8:d70e:8000:63bf:5601:5601]/",
            "https://[::a9fe:a9fe]/",
        ] {
            for dev in [false, true] {
                let parsed = parse(url, dev).unwrap();
                assert!(
                    matches!(resolve(&parsed, dev).await, Err(UrlError::Forbidden(_))),
                    "{url} should be forbidden (dev {dev})"
                );
            }
        }
        let public = parse("https://[::ffff:0:5db8:d70e]/", false).unwrap();
        assert!(resolve(&public, false).await.is_ok());
    }

    #[tokio::test]
    async fn resolution_applies_the_policy() {
        let metadata = parse("https://169.254.169.254/latest/meta-data", false).unwrap();
        assert!(matches!(
            resolve(&metadata, true).await,
            Err(UrlError::Forbidden(_))
        ));
        let loopback = parse("https://127.0.0.1:8443/", false).unwrap();
        assert!(matches!(
            resolve(&loopback, false).await,
            Err(UrlError::Forbidden(_))
        ));
        assert!(
            resolve(&loopback, true).await.is_ok(),
            "dev mode may call loopback"
        );
        let localhost = parse("http://localhost:9/hook", true).unwrap();
        let addrs = resolve(&localhost, true).await.unwrap();
        assert!(addrs.iter().all(|addr| addr.ip().is_loopback()));
        let public = parse("https://93.184.215.14/", false).unwrap();
        assert_eq!(resolve(&public, false).await.unwrap().len(), 1);
        let nowhere = parse("https://nonexistent.invalid/", false).unwrap();
        assert!(matches!(
            resolve(&nowhere, false).await,
            Err(UrlError::Unresolvable(_))
        ));
    }
}
