//! The string formats the API server validates.
//!
//! Mirrors kube-openapi `pkg/validation/strfmt` (`default.go`, `date.go`, `time.go`,
//! `duration.go`, `bson.go`, `kubernetes-extensions.go`) and the govalidator checks it uses, with
//! Go's `net`, `net/url`, `net/mail` and `time` parsers reimplemented in `goparse`.
//! Format names are compared without dashes (`date-time` is `datetime`), as strfmt does.

use std::sync::LazyLock;

use crdkit_regexp::Regexp as Regex;

use super::pattern::go_regex;
use crdkit_apimachinery::goparse;

/// A format that CRDs may use on strings (`apiextensions-apiserver` `formats.go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
#[non_exhaustive]
pub enum Format {
    BsonObjectId,
    Uri,
    Email,
    Hostname,
    Ipv4,
    Ipv6,
    Cidr,
    Mac,
    Uuid,
    Uuid3,
    Uuid4,
    Uuid5,
    Isbn,
    Isbn10,
    Isbn13,
    CreditCard,
    Ssn,
    HexColor,
    RgbColor,
    Byte,
    Password,
    Date,
    Duration,
    DateTime,
    K8sShortName,
    K8sLongName,
}

impl Format {
    /// The format named `name` (dashes ignored), if the API server knows it.
    #[must_use]
    pub fn parse(name: &str) -> Option<Format> {
        Some(match name.replace('-', "").as_str() {
            "bsonobjectid" => Format::BsonObjectId,
            "uri" => Format::Uri,
            "email" => Format::Email,
            "hostname" => Format::Hostname,
            "ipv4" => Format::Ipv4,
            "ipv6" => Format::Ipv6,
            "cidr" => Format::Cidr,
            "mac" => Format::Mac,
            "uuid" => Format::Uuid,
            "uuid3" => Format::Uuid3,
            "uuid4" => Format::Uuid4,
            "uuid5" => Format::Uuid5,
            "isbn" => Format::Isbn,
            "isbn10" => Format::Isbn10,
            "isbn13" => Format::Isbn13,
            "creditcard" => Format::CreditCard,
            "ssn" => Format::Ssn,
            "hexcolor" => Format::HexColor,
            "rgbcolor" => Format::RgbColor,
            "byte" => Format::Byte,
            "password" => Format::Password,
            "date" => Format::Date,
            "duration" => Format::Duration,
            "datetime" => Format::DateTime,
            "k8sshortname" => Format::K8sShortName,
            "k8slongname" => Format::K8sLongName,
            _ => return None,
        })
    }

    /// Whether `s` is valid in this format.
    #[must_use]
    pub fn validates(self, s: &str) -> bool {
        match self {
            Format::BsonObjectId => s.len() == 24 && s.bytes().all(|b| b.is_ascii_hexdigit()),
            Format::Uri => goparse::parse_request_uri(s),
            Format::Email => goparse::parse_mail_address(s),
            Format::Hostname => is_hostname(s),
            Format::Ipv4 => goparse::parse_ip(s, true).is_some() && s.contains('.'),
            Format::Ipv6 => goparse::parse_ip(s, false).is_some() && s.contains(':'),
            Format::Cidr => goparse::parse_cidr_sloppy(s),
            Format::Mac => goparse::parse_mac(s),
            Format::Uuid => RX.uuid.is_match(s),
            Format::Uuid3 => RX.uuid3.is_match(s),
            Format::Uuid4 => RX.uuid4.is_match(s),
            Format::Uuid5 => RX.uuid5.is_match(s),
            Format::Isbn => is_isbn10(s) || is_isbn13(s),
            Format::Isbn10 => is_isbn10(s),
            Format::Isbn13 => is_isbn13(s),
            Format::CreditCard => is_credit_card(s),
            Format::Ssn => s.len() == 11 && RX.ssn.is_match(s),
            Format::HexColor => RX.hexcolor.is_match(s),
            Format::RgbColor => RX.rgbcolor.is_match(s),
            Format::Byte => RX.base64.is_match(s),
            Format::Password => true,
            Format::Date => goparse::parse_date(s),
            Format::Duration => goparse::parse_duration_strfmt(s),
            Format::DateTime => is_date_time(s),
            Format::K8sShortName => s.len() <= 63 && RX.short_name.is_match(s),
            Format::K8sLongName => s.len() <= 253 && RX.long_name.is_match(s),
        }
    }
}

struct Regexes {
    hostname: Regex,
    uuid: Regex,
    uuid3: Regex,
    uuid4: Regex,
    uuid5: Regex,
    credit_card: Regex,
    isbn10: Regex,
    isbn13: Regex,
    hexcolor: Regex,
    rgbcolor: Regex,
    base64: Regex,
    ssn: Regex,
    date_time: Regex,
    short_name: Regex,
    long_name: Regex,
}

static RX: LazyLock<Regexes> = LazyLock::new(|| {
    let short = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
    let rgb = r"(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])";
    Regexes {
        hostname: go_regex(
            r"^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$",
        ),
        uuid: go_regex(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$"),
        uuid3: go_regex(r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$"),
        uuid4: go_regex(
            r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$",
        ),
        uuid5: go_regex(
            r"(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$",
        ),
        credit_card: go_regex(
            r"^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$",
        ),
        isbn10: go_regex(r"^(?:[0-9]{9}X|[0-9]{10})$"),
        isbn13: go_regex(r"^(?:[0-9]{13})$"),
        hexcolor: go_regex(r"^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$"),
        rgbcolor: go_regex(&format!(r"^rgb\(\s*{rgb}\s*,\s*{rgb}\s*,\s*{rgb}\s*\)$")),
        base64: go_regex(
            r"^(?:[A-Za-z0-9+\/]{4})*(?:[A-Za-z0-9+\/]{2}==|[A-Za-z0-9+\/]{3}=|[A-Za-z0-9+\/]{4})$",
        ),
        ssn: go_regex(r"^\d{3}[- ]?\d{2}[- ]?\d{4}$"),
        date_time: go_regex(
            r"^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$",
        ),
        short_name: go_regex(&format!("^{short}$")),
        long_name: go_regex(&format!(r"^{short}(\.{short})*$")),
    }
});

fn is_hostname(s: &str) -> bool {
    RX.hostname.is_match(s) && s.len() <= 255 && s.split('.').all(|p| p.len() <= 63)
}

/// govalidator `IsCreditCard`: non-digits removed, a known prefix and the Luhn checksum.
fn is_credit_card(s: &str) -> bool {
    let digits: String = s.chars().filter(char::is_ascii_digit).collect();
    if !RX.credit_card.is_match(&digits) {
        return false;
    }
    let mut sum = 0u32;
    for (i, b) in digits.bytes().rev().enumerate() {
        let mut d = u32::from(b - b'0');
        if i % 2 == 1 {
            d *= 2;
            if d >= 10 {
                d = d % 10 + 1;
            }
        }
        sum += d;
    }
    sum.is_multiple_of(10)
}

/// govalidator's `[\s-]+` removal (ASCII whitespace as in Go's `\s`).
fn isbn_sanitize(s: &str) -> String {
    s.chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\x0c' | '\r' | ' ' | '-'))
        .collect()
}

fn is_isbn10(s: &str) -> bool {
    let s = isbn_sanitize(s);
    if !RX.isbn10.is_match(&s) {
        return false;
    }
    let b = s.as_bytes();
    let mut sum: i32 = (0..9)
        .map(|i| (i as i32 + 1) * i32::from(b[i] - b'0'))
        .sum();
    sum += if b[9] == b'X' {
        100
    } else {
        10 * i32::from(b[9] - b'0')
    };
    sum % 11 == 0
}

fn is_isbn13(s: &str) -> bool {
    let s = isbn_sanitize(s);
    if !RX.isbn13.is_match(&s) {
        return false;
    }
    let b = s.as_bytes();
    let sum: i32 = (0..12)
        .map(|i| [1, 3][i % 2] * i32::from(b[i] - b'0'))
        .sum();
    i32::from(b[12] - b'0') - (10 - sum % 10) % 10 == 0
}

/// strfmt `IsDateTime`: a date, a `t`, and a time matched loosely (the seconds' fraction
/// separator may be any character; anything after a second `t` is ignored).
fn is_date_time(s: &str) -> bool {
    if s.len() < 4 {
        return false;
    }
    let lower = s.to_lowercase();
    let mut parts = lower.split('t');
    let (Some(date), Some(time)) = (parts.next(), parts.next()) else {
        return false;
    };
    if !goparse::parse_date(date) {
        return false;
    }
    let Some(m) = RX.date_time.as_regex().captures(time) else {
        return false;
    };
    let g = |i| m.get(i).map_or("", |m| m.as_str());
    g(1) <= "23" && g(2) <= "59" && g(3) <= "59"
}

#[cfg(test)]
mod tests {
    use super::Format;

    #[test]
    fn formats() {
        let cases: &[(&str, &str, bool)] = &[
            ("date", "2006-01-02", true),
            ("date", "2006-02-30", false),
            ("date", "2004-02-29", true),
            ("date", "06-01-02", false),
            ("date-time", "2014-12-15T19:30:20.000Z", true),
            ("date-time", "2014-12-15t19:30:20+01:00", true),
            ("date-time", "2014-12-15T24:30:20Z", false),
            ("date-time", "2014-12-15 19:30:20Z", false),
            ("duration", "1h30m", true),
            ("duration", "3 days", true),
            ("duration", "-1.5h", true),
            ("duration", "abc", false),
            ("duration", "", false),
            ("byte", "aGVsbG8=", true),
            ("byte", "", false),
            ("uuid", "123e4567-e89b-12d3-a456-426614174000", true),
            ("uuid4", "123e4567-e89b-12d3-a456-426614174000", false),
            ("ipv4", "192.168.0.1", true),
            ("ipv4", "010.0.0.1", true),
            ("ipv4", "256.0.0.1", false),
            ("ipv4", "::ffff:1.2.3.4", true),
            ("ipv6", "::1", true),
            ("ipv6", "1.2.3.4", false),
            ("ipv6", "fe80::1%eth0", false),
            ("cidr", "10.0.0.0/8", true),
            ("cidr", "10.0.0.0/33", false),
            ("cidr", "::/0", true),
            ("mac", "01:23:45:67:89:ab", true),
            ("mac", "0123.4567.89ab", true),
            ("mac", "01:23:45:67:89", false),
            ("uri", "http://example.com/a?b#c", true),
            ("uri", "/relative", true),
            ("uri", "relative", false),
            ("uri", "mailto:x@y", true),
            ("uri", "http://[::1]:80/", true),
            ("uri", "http://a b/", false),
            ("email", "a@b.com", true),
            ("email", "John Doe <john@example.com>", true),
            ("email", "not-an-email", false),
            ("hostname", "example.com", true),
            ("hostname", "-bad.com", false),
            ("isbn10", "0321751043", true),
            ("isbn13", "978-0321751041", true),
            ("isbn", "978-0321751042", false),
            ("creditcard", "4111 1111 1111 1111", true),
            ("creditcard", "4111111111111112", false),
            ("ssn", "111-11-1111", true),
            ("ssn", "111111111", false),
            ("hexcolor", "#fff", true),
            ("rgbcolor", "rgb(255, 255, 255)", true),
            ("rgbcolor", "rgb(256,0,0)", false),
            ("bsonobjectid", "507f1f77bcf86cd799439011", true),
            ("bsonobjectid", "507f1f77bcf86cd79943901", false),
            ("k8s-short-name", "a-b", true),
            ("k8s-short-name", "a-", false),
            ("k8s-long-name", "a.b-c", true),
            ("k8s-long-name", "a.-", false),
            ("password", "anything", true),
        ];
        for &(f, v, want) in cases {
            let fmt = Format::parse(f).unwrap();
            assert_eq!(fmt.validates(v), want, "{f} {v:?}");
        }
    }
}
