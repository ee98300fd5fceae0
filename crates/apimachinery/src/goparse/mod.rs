//! The Go standard-library parsers behind the formats: `net.ParseIP` (and apimachinery's sloppy
//! variant), `net.ParseCIDR`, `net.ParseMAC`, `net/url.ParseRequestURI`, `net/mail.ParseAddress`,
//! `time.Parse` of dates and RFC 3339 times, and `time.ParseDuration` with strfmt's fallback.

mod mail;
mod net;
mod time;
mod uri;
pub mod url;

pub use self::mail::parse_mail_address;
pub use self::net::{parse_cidr_sloppy, parse_ip, parse_mac};
pub use self::time::{
    Rfc3339, format_rfc3339, parse_date, parse_duration, parse_duration_strfmt, parse_rfc3339,
    parse_rfc3339_instant,
};
pub use self::uri::parse_request_uri;
