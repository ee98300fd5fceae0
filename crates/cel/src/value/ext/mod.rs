//! The Kubernetes opaque value types: mirrors apiserver `pkg/cel/ip.go` (`net.IP`), `cidr.go`
//! (`net.CIDR`), `url.go` (`kubernetes.URL`), `quantity.go` (`kubernetes.Quantity`),
//! `semver.go` (`kubernetes.Semver`) and `format.go` (`kubernetes.NamedFormat`); their functions
//! are in [`crate::library`].

use std::cmp::Ordering;
use std::fmt;

pub(crate) mod format;
pub(crate) mod ip;
mod netip;
pub(crate) mod semver;
pub(crate) mod url;

use crdkit_apimachinery::quantity::Quantity;
use format::NamedFormat;
use ip::Cidr;
use semver::Semver;
use url::Url;

use super::{EvalError, Type, Value};

/// A Kubernetes library value.
#[derive(Clone, Debug, PartialEq)]
pub enum ExtValue {
    /// `net.IP`, from `ip('10.0.0.1')` (apiserver `cel.IP`); never zoned or IPv4-mapped.
    Ip(std::net::IpAddr),
    /// `net.CIDR`, from `cidr('10.0.0.0/8')` (apiserver `cel.CIDR`); the address keeps its
    /// host bits as written.
    Cidr(Cidr),
    /// `kubernetes.URL`, from `url('https://example.com/a')` (apiserver `cel.URL`).
    Url(Url),
    /// `kubernetes.Quantity`, from `quantity('1.5Gi')` (apiserver `cel.Quantity`).
    Quantity(Quantity),
    /// `kubernetes.Semver`, from `semver('1.2.3')` (apiserver `cel.Semver`).
    Semver(Semver),
    /// `kubernetes.NamedFormat`, from `format.dns1123Label()` or, inside an optional,
    /// `format.named('dns1123Label')` (apiserver `cel.Format`).
    Format(&'static NamedFormat),
}

pub(crate) const IP: Type = Type("net.IP");
pub(crate) const CIDR: Type = Type("net.CIDR");
pub(crate) const URL: Type = Type("kubernetes.URL");
pub(crate) const QUANTITY: Type = Type("kubernetes.Quantity");
pub(crate) const SEMVER: Type = Type("kubernetes.Semver");
pub(crate) const FORMAT: Type = Type("kubernetes.NamedFormat");

/// The library types by name (type identifiers such as `net.IP`).
pub(crate) fn type_by_name(name: &str) -> Option<Type> {
    [IP, CIDR, URL, QUANTITY, SEMVER, FORMAT]
        .into_iter()
        .find(|t| t.0 == name)
}

impl ExtValue {
    /// The type of the value.
    #[must_use]
    pub fn type_of(&self) -> Type {
        match self {
            ExtValue::Ip(_) => IP,
            ExtValue::Cidr(_) => CIDR,
            ExtValue::Url(_) => URL,
            ExtValue::Quantity(_) => QUANTITY,
            ExtValue::Semver(_) => SEMVER,
            ExtValue::Format(_) => FORMAT,
        }
    }

    /// `==` between two library values (different types are unequal).
    #[must_use]
    pub fn equals(&self, other: &ExtValue) -> bool {
        match (self, other) {
            (ExtValue::Quantity(a), ExtValue::Quantity(b)) => a == b,
            (ExtValue::Format(a), ExtValue::Format(b)) => a.name == b.name,
            (ExtValue::Semver(a), ExtValue::Semver(b)) => a.cmp_precedence(b) == Ordering::Equal,
            _ => self == other,
        }
    }

    /// `==` with a value of another kind: IP and CIDR report `no such overload` as apiserver's
    /// `Equal` does; the others are unequal.
    pub(crate) fn equals_other(&self, _other: &Value<'_>) -> Result<bool, EvalError> {
        match self {
            ExtValue::Ip(_) | ExtValue::Cidr(_) | ExtValue::Semver(_) | ExtValue::Quantity(_) => {
                Err(EvalError::no_such_overload())
            }
            _ => Ok(false),
        }
    }

    /// None of the library types implement cel-go's `Comparer`.
    #[must_use]
    pub fn compare(&self, _other: &ExtValue) -> Option<Ordering> {
        None
    }

    /// None of the library types implement cel-go's `Adder`.
    #[must_use]
    pub fn is_adder(&self) -> bool {
        false
    }

    /// None of the library types implement cel-go's `Comparer`.
    #[must_use]
    pub fn is_comparer(&self) -> bool {
        false
    }

    /// `string(v)` for IPs and CIDRs.
    #[must_use]
    pub fn to_cel_string(&self) -> Option<String> {
        match self {
            ExtValue::Ip(ip) => Some(ip.to_string()),
            ExtValue::Cidr(c) => Some(c.to_string()),
            _ => None,
        }
    }

    /// cel-go `actualSize`: IPs and CIDRs are sizers (bytes of the address or prefix).
    #[must_use]
    pub fn actual_size(&self) -> u64 {
        match self {
            ExtValue::Ip(std::net::IpAddr::V4(_)) => 4,
            ExtValue::Ip(std::net::IpAddr::V6(_)) => 16,
            ExtValue::Cidr(c) => u64::from(c.bits).div_ceil(8),
            _ => 1,
        }
    }
}

impl fmt::Display for ExtValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtValue::Ip(ip) => write!(f, "{ip}"),
            ExtValue::Cidr(c) => write!(f, "{c}"),
            ExtValue::Url(u) => f.write_str(&u.raw),
            ExtValue::Quantity(q) => write!(f, "{q}"),
            ExtValue::Semver(s) => write!(f, "{s}"),
            ExtValue::Format(n) => f.write_str(n.name),
        }
    }
}
