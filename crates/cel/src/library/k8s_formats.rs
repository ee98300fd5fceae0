//! Named formats (Kubernetes 1.31): mirrors apiserver `pkg/cel/library/format.go`
//! (`format.named`, `format.<name>()`, `<Format>.validate`) with apimachinery's name
//! validations (shared with `crdkit_apimachinery::names`); and the parsing of `format: duration`, `date` and
//! `date-time` strings as kube-openapi `strfmt` does for CEL values.

use std::sync::Arc;

use super::ext::ExtValue;
use super::{Env, FnDef, REGEX_FACTOR, TRAVERSAL, actual_size, ceil_factor};
use crate::eval::time::{Duration, Timestamp};
use crate::eval::{EvalError, EvalResult};
use crate::value::{List, ListKind, Value};

/// A named format.
#[derive(Debug)]
pub struct NamedFormat {
    /// The name used in CEL (`dns1123Label`).
    pub name: &'static str,
    /// `MaxRegexSize`, which prices `validate`.
    pub max_regex_size: u64,
    validate: fn(&str) -> Vec<String>,
}

impl PartialEq for NamedFormat {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

fn mask_trailing_dash(s: &str) -> String {
    match s.strip_suffix('-') {
        Some(r) if s.len() > 1 => format!("{r}a"),
        _ => s.to_string(),
    }
}

fn one(ok: bool, msg: &str) -> Vec<String> {
    if ok {
        Vec::new()
    } else {
        vec![msg.to_string()]
    }
}

fn is_uuid(s: &str) -> bool {
    let hex: String = s.chars().filter(|c| *c != '-').collect();
    let dashes = s.len() - hex.len();
    hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit()) && (dashes == 0 || dashes == 4)
}

const UUID_PATTERN: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
const DATE_TIME_PATTERN: &str =
    "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$";

static FORMATS: &[NamedFormat] = &[
    NamedFormat {
        name: "dns1123Label",
        max_regex_size: 30,
        validate: crdkit_apimachinery::names::dns1123_label,
    },
    NamedFormat {
        name: "dns1123Subdomain",
        max_regex_size: 60,
        validate: crdkit_apimachinery::names::dns1123_subdomain,
    },
    NamedFormat {
        name: "dns1035Label",
        max_regex_size: 30,
        validate: crdkit_apimachinery::names::dns1035_label,
    },
    NamedFormat {
        name: "qualifiedName",
        max_regex_size: 60,
        validate: crdkit_apimachinery::names::label_key,
    },
    NamedFormat {
        name: "dns1123LabelPrefix",
        max_regex_size: 30,
        validate: |s| crdkit_apimachinery::names::dns1123_label(&mask_trailing_dash(s)),
    },
    NamedFormat {
        name: "dns1123SubdomainPrefix",
        max_regex_size: 60,
        validate: |s| crdkit_apimachinery::names::dns1123_subdomain(&mask_trailing_dash(s)),
    },
    NamedFormat {
        name: "dns1035LabelPrefix",
        max_regex_size: 30,
        validate: |s| crdkit_apimachinery::names::dns1035_label(&mask_trailing_dash(s)),
    },
    NamedFormat {
        name: "labelValue",
        max_regex_size: 40,
        validate: crdkit_apimachinery::names::label_value,
    },
    NamedFormat {
        name: "uri",
        max_regex_size: 1103,
        validate: |s| super::url::parse(s, true).err().into_iter().collect(),
    },
    NamedFormat {
        name: "uuid",
        max_regex_size: UUID_PATTERN.len() as u64,
        validate: |s| one(is_uuid(s), "does not match the UUID format"),
    },
    NamedFormat {
        name: "byte",
        max_regex_size: 84,
        validate: |s| one(super::strings::base64_decode(s).is_some(), "invalid base64"),
    },
    NamedFormat {
        name: "date",
        max_regex_size: DATE_TIME_PATTERN.len() as u64,
        validate: |s| one(parse_full_date(s).is_some(), "invalid date"),
    },
    NamedFormat {
        name: "datetime",
        max_regex_size: DATE_TIME_PATTERN.len() as u64,
        validate: |s| one(parse_strfmt_datetime(s).is_some(), "invalid datetime"),
    },
];

fn ext<'a>(f: &'static NamedFormat) -> Value<'a> {
    Value::Ext(Arc::new(ExtValue::Format(f)))
}

fn named<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let Value::String(n) = &a[0] else {
        return Err(EvalError::no_such_overload());
    };
    Ok(match FORMATS.iter().find(|f| f.name == n.as_str()) {
        Some(f) => Value::optional_of(ext(f)),
        None => Value::Optional(None),
    })
}

fn validate<'a>(_: &Env, a: &[Value<'a>]) -> EvalResult<'a> {
    let (Value::Ext(e), Value::String(s)) = (&a[0], &a[1]) else {
        return Err(EvalError::no_such_overload());
    };
    let ExtValue::Format(f) = &**e else {
        return Err(EvalError::no_such_overload());
    };
    let errs = (f.validate)(s);
    Ok(if errs.is_empty() {
        Value::Optional(None)
    } else {
        let l = errs.into_iter().map(Value::string).collect();
        Value::optional_of(Value::List(List::Owned(Arc::new(l), ListKind::Plain)))
    })
}

fn cost_validate<'a>(a: &[Value<'a>], _: &Value<'a>) -> u64 {
    let regex = match &a[0] {
        Value::Ext(e) => match &**e {
            ExtValue::Format(f) => f.max_regex_size,
            _ => return 1,
        },
        _ => return 1,
    };
    ceil_factor(1 + actual_size(&a[1]), TRAVERSAL) * ceil_factor(regex, REGEX_FACTOR)
}

macro_rules! constant {
    ($fname:ident, $i:expr) => {
        fn $fname<'a>(_: &Env, _: &[Value<'a>]) -> EvalResult<'a> {
            Ok(ext(&FORMATS[$i]))
        }
    };
}

constant!(f0, 0);
constant!(f1, 1);
constant!(f2, 2);
constant!(f3, 3);
constant!(f4, 4);
constant!(f5, 5);
constant!(f6, 6);
constant!(f7, 7);
constant!(f8, 8);
constant!(f9, 9);
constant!(f10, 10);
constant!(f11, 11);
constant!(f12, 12);

/// The format library.
pub(crate) static FUNCTIONS: &[FnDef] = &[
    FnDef::new("format.named", false, 1, named).since(1, 31),
    FnDef::new("validate", true, 2, validate)
        .since(1, 31)
        .cost(cost_validate),
    FnDef::new("format.dns1123Label", false, 0, f0).since(1, 31),
    FnDef::new("format.dns1123Subdomain", false, 0, f1).since(1, 31),
    FnDef::new("format.dns1035Label", false, 0, f2).since(1, 31),
    FnDef::new("format.qualifiedName", false, 0, f3).since(1, 31),
    FnDef::new("format.dns1123LabelPrefix", false, 0, f4).since(1, 31),
    FnDef::new("format.dns1123SubdomainPrefix", false, 0, f5).since(1, 31),
    FnDef::new("format.dns1035LabelPrefix", false, 0, f6).since(1, 31),
    FnDef::new("format.labelValue", false, 0, f7).since(1, 31),
    FnDef::new("format.uri", false, 0, f8).since(1, 31),
    FnDef::new("format.uuid", false, 0, f9).since(1, 31),
    FnDef::new("format.byte", false, 0, f10).since(1, 31),
    FnDef::new("format.date", false, 0, f11).since(1, 31),
    FnDef::new("format.datetime", false, 0, f12).since(1, 31),
];

/// kube-openapi `strfmt.ParseDuration`: Go durations plus `d` (days) and `w` (weeks) units,
/// spaces allowed between number and unit.
pub(crate) fn parse_strfmt_duration(s: &str) -> Option<Duration> {
    if let Some(d) = crate::eval::time::parse_go_duration(s) {
        return Some(d);
    }
    let t = s.trim();
    let num_end = t.find(|c: char| !c.is_ascii_digit())?;
    let n: i64 = t[..num_end].parse().ok()?;
    let unit = t[num_end..].trim();
    let scale: i64 = match unit {
        "ns" | "nano" | "nanos" | "nanosecond" | "nanoseconds" => 1,
        "us" | "µs" | "micro" | "micros" | "microsecond" | "microseconds" => 1_000,
        "ms" | "milli" | "millis" | "millisecond" | "milliseconds" => 1_000_000,
        "s" | "sec" | "secs" | "second" | "seconds" => 1_000_000_000,
        "m" | "min" | "mins" | "minute" | "minutes" => 60_000_000_000,
        "h" | "hr" | "hour" | "hours" => 3_600_000_000_000,
        "d" | "day" | "days" => 86_400_000_000_000,
        "w" | "wk" | "week" | "weeks" => 604_800_000_000_000,
        _ => return None,
    };
    n.checked_mul(scale).map(Duration)
}

/// `time.Parse("2006-01-02", s)`.
pub(crate) fn parse_full_date(s: &str) -> Option<Timestamp> {
    if s.len() != 10 {
        return None;
    }
    crate::eval::time::parse_rfc3339(&format!("{s}T00:00:00Z"))?.ok()
}

/// kube-openapi `strfmt.ParseDateTime`: RFC 3339 with `T`, `t` or a space, with or without
/// fractional seconds.
pub(crate) fn parse_strfmt_datetime(s: &str) -> Option<Timestamp> {
    let mut fixed = s.to_string();
    if fixed.len() > 10 && matches!(fixed.as_bytes()[10], b't' | b' ') {
        fixed.replace_range(10..11, "T");
    }
    if fixed.ends_with('z') {
        fixed.pop();
        fixed.push('Z');
    }
    crate::eval::time::parse_rfc3339(&fixed)?.ok()
}
