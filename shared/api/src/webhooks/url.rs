//! Which webhook URLs Beurs will call (DESIGN.md §6): `https` only, except plain `http` to
//! loopback when the server runs in dev mode; never an address in a private, loopback,
//! link-local, shared, multicast, reserved or cloud-metadata range. Checked when a subscription
//! is created and again, on freshly resolved addresses, before every delivery; the delivery
//! then connects to exactly the addresses that passed, so a DNS answer that changes between
//! the check and the connection cannot redirect it.

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
    pub fn code(&self) -> &'static str {
        match self {
            UrlError::Invalid(_) => "invalid-webhook-url",
            UrlError::Forbidden(_) => "forbidden-webhook-url",
            UrlError::Unresolvable(_) => "unresolvable-webhook-url",
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
    let uri: http::Uri = url.parse().map_err(|_| invalid("is not an absolute URL"))?;
    let https =
        match uri.scheme_str() {
            Some("https") => true,
            Some("http") if dev => false,
            Some("http") => return Err(UrlError::Forbidden(
                "webhook url must use https (plain http is allowed only to loopback, in dev mode)"
                    .into(),
            )),
            _ => return Err(invalid("must be an https URL")),
        };
    let authority = uri.authority().ok_or_else(|| invalid("has no host"))?;
    if authority.as_str().contains('@') {
        return Err(invalid("must not carry user information"));
    }
    if url.contains('#') {
        return Err(invalid("must not have a fragment"));
    }
    let host = authority.host();
    let host = host
        .strip_prefix('[')
        .and_then(|inner| inner.strip_suffix(']'))
        .unwrap_or(host);
    if host.is_empty() {
        return Err(invalid("has no host"));
    }
    // The text after the last `:` outside an IPv6 literal's brackets, if any.
    let port_text = authority
        .as_str()
        .rsplit_once(':')
        .map(|(_, port)| port)
        .filter(|port| !port.contains(']'));
    let port = match port_text {
        None if https => 443,
        None => 80,
        Some(text) => text
            .parse::<u16>()
            .ok()
            .filter(|&port| port != 0)
            .ok_or_else(|| invalid("has a port that is not 1 to 65535"))?,
    };
    let path_and_query = uri
        .path_and_query()
        .map(|pq| pq.as_str())
        .filter(|pq| !pq.is_empty())
        .unwrap_or("/")
        .to_string();
    Ok(WebhookUrl {
        https,
        host: host.to_ascii_lowercase(),
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
                "webhook url resolves to {ip}, an address Beurs does not call \
                 (private, loopback, link-local, metadata or reserved)"
            )));
        }
    }
    Ok(addrs)
}

/// An IPv4 address written as IPv6 (mapped `::ffff:a.b.c.d` or NAT64 `64:ff9b::a.b.c.d`) is
/// judged as the IPv4 address it reaches.
fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return IpAddr::V4(v4);
            }
            let s = v6.segments();
            if s[..6] == [0x64, 0xff9b, 0, 0, 0, 0] {
                let [a, b] = s[6].to_be_bytes();
                let [c, d] = s[7].to_be_bytes();
                return IpAddr::V4(Ipv4Addr::new(a, b, c, d));
            }
            IpAddr::V6(v6)
        }
        v4 => v4,
    }
}

/// Whether Beurs refuses to call `ip` (loopback included: only dev mode may call it).
pub fn is_forbidden(ip: IpAddr) -> bool {
    match canonical(ip) {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
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

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (first & 0xfe00) == 0xfc00 // unique local, fc00::/7 (AWS metadata fd00:ec2::254)
        || (first & 0xffc0) == 0xfe80 // link-local, fe80::/10
        || (first & 0xffc0) == 0xfec0 // site-local (deprecated), fec0::/10
        || (first == 0x2001 && ip.segments()[1] == 0x0db8) // documentation
        || ip.segments()[..6] == [0, 0, 0, 0, 0, 0] // IPv4-compatible (deprecated)
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
