//! Wall-clock time for records (the rules never see it).

use std::time::{SystemTime, UNIX_EPOCH};

/// Now, in Unix milliseconds.
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| elapsed.as_millis() as u64)
        .unwrap_or(0)
}

/// Unix milliseconds as RFC 3339 UTC, e.g. `2026-11-22T02:00:37.123Z` (always three
/// fractional digits). An instant past jiff's range (year 9999) is written as its last one.
pub fn rfc3339(unix_ms: u64) -> String {
    let instant = i64::try_from(unix_ms)
        .ok()
        .and_then(|ms| jiff::Timestamp::from_millisecond(ms).ok())
        .unwrap_or(jiff::Timestamp::MAX);
    instant.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_795_312_837_123), "2026-11-22T02:00:37.123Z");
    }
}
