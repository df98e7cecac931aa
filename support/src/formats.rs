//! The checks of the `format`s a schema can assert, one function each, and [`FORMATS`], the
//! table the generator reads: which formats have a check, what each requires in words (for
//! error messages and documentation), and the function a generated check calls.
//!
//! A new format is one function and one line of the table.

/// A format with a check.
#[derive(Clone, Copy, Debug)]
pub struct Format {
    /// The format as a schema names it (`date-time`).
    pub name: &'static str,
    /// What it requires, after "must" (`be an RFC 3339 date-time`).
    pub rule: &'static str,
    /// The function of this module that checks it (`is_date_time`).
    pub function: &'static str,
    /// That function.
    pub check: fn(&str) -> bool,
}

/// The table, with each function's name taken from the function itself.
macro_rules! formats {
    ($($name:literal => $function:ident, $rule:literal;)*) => {
        /// Every format with a check, sorted by name.
        pub const FORMATS: &[Format] = &[$(Format {
            name: $name,
            rule: $rule,
            function: stringify!($function),
            check: $function,
        }),*];
    };
}

formats! {
    "byte" => is_byte, "be base64 text (RFC 4648, padded)";
    "cidrv4" => is_cidrv4, "be an IPv4 network in CIDR notation (a.b.c.d/n)";
    "cidrv6" => is_cidrv6, "be an IPv6 network in CIDR notation (address/n)";
    "date" => is_date, "be an RFC 3339 full-date (YYYY-MM-DD)";
    "date-time" => is_date_time, "be an RFC 3339 date-time";
    "duration" => is_duration, "be an ISO 8601 duration (RFC 3339, such as P1DT2H)";
    "email" => is_email, "be an email address (local@domain)";
    "hostname" => is_hostname, "be a host name (RFC 1123)";
    "ipv4" => is_ipv4, "be an IPv4 address in dotted-quad notation";
    "ipv6" => is_ipv6, "be an IPv6 address (RFC 4291)";
    "time" => is_time, "be an RFC 3339 full-time (HH:MM:SS with an offset)";
    "uri" => is_uri, "be an absolute URI (RFC 3986)";
    "uri-reference" => is_uri_reference, "be a URI reference (RFC 3986)";
}

/// The check of `name`, if it has one.
pub fn find(name: &str) -> Option<&'static Format> {
    FORMATS.iter().find(|format| format.name == name)
}

/// Whether `value` is an RFC 3339 date-time, as `chrono` reads one.
///
/// The shape servers send (`2026-11-02T09:15:00Z`, with up to nine fractional digits) is
/// checked by [`is_plain_utc_date_time`], which only ever accepts what `chrono` accepts; any
/// other text (an offset, a leap second, a lower-case `t`, ...) is left to `chrono`, so the
/// answer is always `chrono`'s. Decoding a page checks one timestamp per item, and `chrono`'s
/// general parser is several times the work.
pub fn is_date_time(value: &str) -> bool {
    is_plain_utc_date_time(value.as_bytes()) || chrono::DateTime::parse_from_rfc3339(value).is_ok()
}

/// Whether `text` is `YYYY-MM-DDTHH:MM:SS[.f{1,9}]Z` naming a real day and a time before
/// 24:00:00. `false` says nothing: the caller asks `chrono`.
fn is_plain_utc_date_time(text: &[u8]) -> bool {
    /// The number written by the two ASCII digits at `at`, if both are digits.
    fn two(text: &[u8], at: usize) -> Option<u32> {
        match (text.get(at), text.get(at + 1)) {
            (Some(tens @ b'0'..=b'9'), Some(units @ b'0'..=b'9')) => {
                Some(u32::from(tens - b'0') * 10 + u32::from(units - b'0'))
            }
            _ => None,
        }
    }
    let (Some(head), Some(rest)) = (text.get(..19), text.get(19..)) else {
        return false;
    };
    if head[4] != b'-' || head[7] != b'-' || head[10] != b'T' || head[13] != b':' {
        return false;
    }
    if head[16] != b':' {
        return false;
    }
    let (Some(century), Some(year_in_century), Some(month), Some(day)) =
        (two(head, 0), two(head, 2), two(head, 5), two(head, 8))
    else {
        return false;
    };
    let (Some(hour), Some(minute), Some(second)) = (two(head, 11), two(head, 14), two(head, 17))
    else {
        return false;
    };
    let year = century * 100 + year_in_century;
    // The proleptic Gregorian calendar, as chrono's: year 0 is a leap year.
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    // A leap second (`60`) is chrono's to judge.
    if day == 0 || day > days || hour > 23 || minute > 59 || second > 59 {
        return false;
    }
    let fraction = match rest.strip_prefix(b".") {
        Some(digits) => {
            let count = digits
                .iter()
                .take_while(|byte| byte.is_ascii_digit())
                .count();
            if count == 0 || count > 9 {
                return false;
            }
            &digits[count..]
        }
        None => rest,
    };
    fraction == b"Z"
}

/// Whether `value` is an RFC 3339 full-date (`YYYY-MM-DD`).
pub fn is_date(value: &str) -> bool {
    value.len() == 10 && chrono::NaiveDate::parse_from_str(value, "%Y-%m-%d").is_ok()
}

/// Whether `value` is an RFC 3339 full-time (`HH:MM:SS` with an offset).
pub fn is_time(value: &str) -> bool {
    chrono::DateTime::parse_from_rfc3339(&format!("1970-01-01T{value}")).is_ok()
}

/// Whether `byte` is `unreserved` or a `sub-delim` of RFC 3986: what a host name, user info
/// and path segment hold besides percent-encodings and their own delimiters.
fn is_plain_uri_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=".contains(&byte)
}

/// Whether every byte of `text` is plain (see [`is_plain_uri_byte`]) or one of `extra`, a `%`
/// starting an escape of two hex digits.
fn uri_run(text: &str, extra: &[u8]) -> bool {
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte == b'%' {
            match bytes.get(at + 1..at + 3) {
                Some(hex) if hex.iter().all(u8::is_ascii_hexdigit) => at += 3,
                _ => return false,
            }
        } else if is_plain_uri_byte(byte) || extra.contains(&byte) {
            at += 1;
        } else {
            return false;
        }
    }
    true
}

/// Whether `host` is RFC 3986's `host`: an IP literal in brackets (an IPv6 address or
/// `v<hex>.<text>`), or a registered name (which an IPv4 address also reads as).
fn is_uri_host(host: &str) -> bool {
    match host
        .strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
    {
        Some(literal) => match literal.strip_prefix(['v', 'V']) {
            Some(future) => future.split_once('.').is_some_and(|(version, text)| {
                !version.is_empty()
                    && version.bytes().all(|byte| byte.is_ascii_hexdigit())
                    && !text.is_empty()
                    && text
                        .bytes()
                        .all(|byte| is_plain_uri_byte(byte) || byte == b':')
            }),
            None => literal.parse::<std::net::Ipv6Addr>().is_ok(),
        },
        None => uri_run(host, &[]),
    }
}

/// Whether `authority` is RFC 3986's `[ userinfo "@" ] host [ ":" port ]`.
fn is_uri_authority(authority: &str) -> bool {
    let (userinfo, host_port) = match authority.rsplit_once('@') {
        Some((userinfo, host_port)) => (Some(userinfo), host_port),
        None => (None, authority),
    };
    // A port follows the last `:` that is not inside an IP literal's brackets.
    let (host, port) = match host_port.rfind(':') {
        Some(colon) if !host_port[colon..].contains(']') => {
            (&host_port[..colon], &host_port[colon + 1..])
        }
        _ => (host_port, ""),
    };
    userinfo.is_none_or(|userinfo| uri_run(userinfo, b":"))
        && is_uri_host(host)
        && port.bytes().all(|byte| byte.is_ascii_digit())
}

/// Whether `value` is an RFC 3986 URI (`absolute`: a scheme is required) or URI reference:
/// `[scheme ":"] ["//" authority] path ["?" query] ["#" fragment]`, each part of its own
/// characters; without a scheme, the first path segment holds no `:` (`a:b` would read as a
/// scheme).
fn is_rfc3986(value: &str, absolute: bool) -> bool {
    let (rest, fragment) = match value.split_once('#') {
        Some((rest, fragment)) => (rest, Some(fragment)),
        None => (value, None),
    };
    let (rest, query) = match rest.split_once('?') {
        Some((rest, query)) => (rest, Some(query)),
        None => (rest, None),
    };
    // A scheme is the text before the first `:`, if no `/` comes before it.
    let scheme_end = rest.find(':').filter(|colon| !rest[..*colon].contains('/'));
    let path = match scheme_end {
        Some(colon) => {
            let scheme = &rest[..colon];
            let valid = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .bytes()
                    .all(|byte| byte.is_ascii_alphanumeric() || b"+-.".contains(&byte));
            if !valid {
                return false;
            }
            &rest[colon + 1..]
        }
        None if absolute => return false,
        None => rest,
    };
    let path = match path.strip_prefix("//") {
        Some(after) => {
            let end = after.find('/').unwrap_or(after.len());
            if !is_uri_authority(&after[..end]) {
                return false;
            }
            &after[end..]
        }
        None => path,
    };
    uri_run(path, b":@/")
        && query.is_none_or(|query| uri_run(query, b":@/?"))
        && fragment.is_none_or(|fragment| uri_run(fragment, b":@/?"))
}

/// Whether `value` is an absolute URI (RFC 3986): a scheme, then the parts of a URI.
pub fn is_uri(value: &str) -> bool {
    is_rfc3986(value, true)
}

/// Whether `value` is a URI or a relative reference (RFC 3986); a relative reference's first
/// segment holds no `:`, so `2026-13-02T09:15:00Z` is neither.
pub fn is_uri_reference(value: &str) -> bool {
    is_rfc3986(value, false)
}

/// Whether `value` has RFC 5321's shape: a local part of printable characters without `@`,
/// then a domain of dot-separated labels of letters, digits and inner hyphens.
pub fn is_email(value: &str) -> bool {
    match value.rsplit_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && local.len() <= 64
                && local.chars().all(|c| c.is_ascii_graphic() && c != '@')
                && domain.len() <= 255
                && domain.split('.').all(is_label)
        }
        None => false,
    }
}

/// A label of a domain: letters, digits and inner hyphens.
fn is_label(label: &str) -> bool {
    !label.is_empty()
        && !label.starts_with('-')
        && !label.ends_with('-')
        && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
}

/// Whether `value` is a host name (RFC 1123): dot-separated labels of 1 to 63 letters, digits
/// and inner hyphens, 253 in all.
pub fn is_hostname(value: &str) -> bool {
    value.len() <= 253
        && value
            .trim_end_matches('.')
            .split('.')
            .all(|label| label.len() <= 63 && is_label(label))
}

/// Whether `value` is an IPv4 address in dotted-quad notation.
pub fn is_ipv4(value: &str) -> bool {
    value.parse::<std::net::Ipv4Addr>().is_ok()
}

/// Whether `value` is an IPv6 address (RFC 4291).
pub fn is_ipv6(value: &str) -> bool {
    value.parse::<std::net::Ipv6Addr>().is_ok()
}

/// An address and a prefix length no longer than the address (`10.0.0.0/8`).
fn is_cidr<A: std::str::FromStr>(value: &str, bits: u8) -> bool {
    value.split_once('/').is_some_and(|(address, length)| {
        address.parse::<A>().is_ok()
            && !length.starts_with('+')
            && length.parse::<u8>().is_ok_and(|length| length <= bits)
    })
}

/// Whether `value` is an IPv4 network in CIDR notation (`a.b.c.d/n`).
pub fn is_cidrv4(value: &str) -> bool {
    is_cidr::<std::net::Ipv4Addr>(value, 32)
}

/// Whether `value` is an IPv6 network in CIDR notation (`address/n`).
pub fn is_cidrv6(value: &str) -> bool {
    is_cidr::<std::net::Ipv6Addr>(value, 128)
}

/// Whether `value` is base64 text (RFC 4648, standard alphabet, padded).
pub fn is_byte(value: &str) -> bool {
    let body = value.trim_end_matches('=');
    value.len().is_multiple_of(4)
        && value.len() - body.len() <= 2
        && body
            .bytes()
            .all(|byte| byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/')
}

/// Whether `value` is an ISO 8601 duration as RFC 3339 gives it: `P`, then years, months, days
/// in order and/or `T` with hours, minutes, seconds in order (each a number and its unit, at
/// least one), or weeks.
pub fn is_duration(value: &str) -> bool {
    /// How many units `part` names, each once and in `order`; `None` if it breaks the order.
    fn units(part: &str, order: &[u8]) -> Option<usize> {
        let (mut next, mut count, mut digits) = (0, 0, 0);
        for byte in part.bytes() {
            if byte.is_ascii_digit() {
                digits += 1;
                continue;
            }
            let position = order[next..].iter().position(|unit| *unit == byte)?;
            if digits == 0 {
                return None;
            }
            next += position + 1;
            digits = 0;
            count += 1;
        }
        (digits == 0).then_some(count)
    }
    match value.strip_prefix('P') {
        Some(weeks) if weeks.ends_with('W') => units(weeks, b"W") == Some(1),
        Some(rest) => {
            let (date, time) = rest
                .split_once('T')
                .map_or((rest, None), |(date, time)| (date, Some(time)));
            match (units(date, b"YMD"), time.map(|time| units(time, b"HMS"))) {
                (Some(days), None) => days > 0,
                (Some(_), Some(Some(times))) => times > 0,
                _ => false,
            }
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_names_its_functions() {
        assert!(FORMATS.windows(2).all(|pair| pair[0].name < pair[1].name));
        for format in FORMATS {
            assert_eq!(
                format.function,
                format!("is_{}", format.name.replace('-', "_"))
            );
            assert!(format.rule.starts_with("be "), "{}", format.name);
        }
        assert!(find("uuid").is_none());
    }

    #[test]
    fn each_format_accepts_its_shape_and_refuses_near_misses() {
        let cases: &[(&str, &[&str], &[&str])] = &[
            (
                "byte",
                &["aGk=", "aGkh", ""],
                &["aGk", "a===", "a*==", "aGk=="],
            ),
            (
                "cidrv4",
                &["10.0.0.0/8"],
                &["10.0.0.0/33", "10.0.0.0/+8", "10.0.0.0"],
            ),
            ("cidrv6", &["::1/128"], &["::1/129", "1.2.3.4/8"]),
            (
                "date",
                &["2026-11-02"],
                &["2026-13-02", "2026-1-02", "2026-11-02T00:00:00Z"],
            ),
            (
                "date-time",
                &["2026-11-02T09:15:00Z", "2026-11-02t09:15:00.5+01:00"],
                &["2026-11-02", "2026-11-02T25:00:00Z"],
            ),
            (
                "duration",
                &["P1D", "PT2H", "P1Y2M3DT4H5M6S", "P3W"],
                &["P", "PT", "P1H", "PD", "P1M1Y", "1D"],
            ),
            (
                "email",
                &["a@b.io", "x.y+z@mail.example"],
                &["a@", "@b", "a b@c", "a@-b.io"],
            ),
            (
                "hostname",
                &["example.com", "a", "example.com."],
                &["-a.com", "a..b", &"a".repeat(64)],
            ),
            ("ipv4", &["127.0.0.1"], &["127.0.0", "256.0.0.1"]),
            ("ipv6", &["::1", "fe80::1"], &["1.2.3.4", ":::"]),
            (
                "time",
                &["09:15:00Z", "09:15:00.5+01:00"],
                &["09:15", "25:00:00Z"],
            ),
            (
                "uri",
                &[
                    "https://example.com/a?b=c#d",
                    "urn:isbn:1",
                    "http://u:p@[::1]:8080/x?y/?z#f/?",
                    "http://[v1.a:b]/",
                    "file:///etc",
                    "mailto:a@b.c",
                ],
                &[
                    "example.com",
                    "1http://x",
                    "http://a b",
                    "x:%zz",
                    "a%20b:c",
                    "http://x#a#b",
                    "http://[::1/",
                    "http://[zz::1]/",
                    "http://host:8a/",
                    "http://a[b]/",
                ],
            ),
            (
                "uri-reference",
                &[
                    "/a/b?c", "", "../x", "./a:b", "//host/x", "#f", "?q", "a/b:c",
                ],
                &[
                    "a b",
                    "%2",
                    "2026-13-02T09:15:00Z",
                    "2001:db8::/32",
                    "a#b#c",
                    "//[::1",
                ],
            ),
        ];
        assert_eq!(cases.len(), FORMATS.len(), "a format without cases");
        for (name, good, bad) in cases {
            let check = find(name).unwrap().check;
            for value in *good {
                assert!(check(value), "{name} refused {value:?}");
            }
            for value in *bad {
                assert!(!check(value), "{name} accepted {value:?}");
            }
        }
    }

    /// The fast reading of a date-time accepts only what chrono accepts: every text one byte
    /// away from a set of timestamps near the edges of the calendar and the clock (each byte
    /// replaced by each of a few telling bytes, dropped or doubled) is judged alike, and the
    /// common shapes take the fast reading.
    #[test]
    fn the_fast_date_time_reading_agrees_with_chrono() {
        let seeds = [
            "2026-11-02T09:15:00Z",
            "2026-11-02T09:15:00.123Z",
            "2026-11-02T09:15:00.123456789Z",
            "2024-02-29T23:59:59Z",
            "2023-02-28T00:00:00.5Z",
            "2000-02-29T12:00:00Z",
            "1900-02-28T12:00:00Z",
            "0000-02-29T00:00:00Z",
            "9999-12-31T23:59:59.999999999Z",
            "2026-04-30T10:10:10Z",
            "2026-12-31T23:59:60Z",
        ];
        for seed in seeds {
            assert!(is_plain_utc_date_time(seed.as_bytes()) || seed.contains(":60"));
        }
        let replacements = b"0123456789-:.TtZz +/ ";
        let mut tried = 0;
        for seed in seeds {
            let bytes = seed.as_bytes();
            let mut variants = vec![bytes.to_vec()];
            for at in 0..=bytes.len() {
                for &byte in replacements {
                    let mut replaced = bytes.to_vec();
                    if at < bytes.len() {
                        replaced[at] = byte;
                    } else {
                        replaced.push(byte);
                    }
                    variants.push(replaced);
                }
                if at < bytes.len() {
                    let mut dropped = bytes.to_vec();
                    dropped.remove(at);
                    variants.push(dropped);
                    let mut doubled = bytes.to_vec();
                    doubled.insert(at, bytes[at]);
                    variants.push(doubled);
                }
            }
            for variant in variants {
                let text = String::from_utf8(variant).unwrap();
                let chrono = chrono::DateTime::parse_from_rfc3339(&text).is_ok();
                if is_plain_utc_date_time(text.as_bytes()) {
                    assert!(
                        chrono,
                        "the fast reading accepted {text:?}, chrono refuses it"
                    );
                }
                assert_eq!(is_date_time(&text), chrono, "{text:?}");
                tried += 1;
            }
        }
        assert!(tried > 3000, "{tried}");
    }
}
