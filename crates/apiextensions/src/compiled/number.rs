//! Numbers as kube-openapi checks them.
//!
//! Mirrors kube-openapi `pkg/validation/validate/validator.go` (`numberValidator`) and
//! `values.go` (`IsValueValidAgainstRange`, `MaximumNativeType`, ...), including Go's quirks: an
//! integer value is compared with `int64(limit)` (so `maximum: 1.5` admits `1` but rejects `2`), and
//! a non-integral `multipleOf` turns into "must be positive" for integer values.

use serde_json::Number;

use super::errors::{OpenApiError, add};
use crdkit_apimachinery::field::BadValue;
use crdkit_apimachinery::gofmt;

/// A JSON number as apimachinery decodes it: `int64` when it fits, `float64` otherwise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Num {
    Int(i64),
    Float(f64),
}

impl Num {
    pub(crate) fn of(n: &Number) -> Num {
        match n.as_i64() {
            Some(i) => Num::Int(i),
            None => Num::Float(n.as_f64().unwrap_or(f64::NAN)),
        }
    }

    pub(crate) fn as_f64(self) -> f64 {
        match self {
            #[allow(clippy::cast_precision_loss)]
            Num::Int(i) => i as f64,
            Num::Float(f) => f,
        }
    }

    fn bad(self) -> BadValue {
        match self {
            Num::Int(i) => BadValue::Int(i),
            Num::Float(f) => BadValue::Float(f),
        }
    }

    /// swag's `FormatInt64`/`FormatFloat64` (`strconv.FormatFloat(f, 'f', -1, 64)`).
    fn string_rep(self) -> String {
        match self {
            Num::Int(i) => i.to_string(),
            Num::Float(f) => format_f(f),
        }
    }
}

/// `strconv.FormatFloat(f, 'f', -1, 64)`.
pub(crate) fn format_f(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.into();
    }
    // Rust's Display prints the shortest round-tripping digits without an exponent.
    let s = f.to_string();
    if s == "-0" { "-0".into() } else { s }
}

/// Go's `int64(f)` on amd64: truncation, and `MinInt64` when out of range.
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
pub(crate) fn go_f64_to_i64(f: f64) -> i64 {
    if !(-9_223_372_036_854_775_808.0..9_223_372_036_854_775_808.0).contains(&f) {
        i64::MIN
    } else {
        f.trunc() as i64
    }
}

/// swag's `IsFloat64AJSONInteger` (v0.27).
pub(crate) fn is_json_integer(f: f64) -> bool {
    const MAX: f64 = 9_007_199_254_740_991.0;
    if !f.is_finite() || !(-MAX..=MAX).contains(&f) {
        return false;
    }
    let rounded = f.round();
    if f == rounded {
        return true;
    }
    if rounded == 0.0 {
        return false;
    }
    (f - rounded).abs() < 1e-9 * rounded.abs()
}

/// The type and format the number validator checks ranges with (only for a single type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RangeType {
    /// No single numeric type: nothing is checked.
    None,
    Int32,
    Int64Default,
    Int64,
    Float,
    Double,
    NumberDefault,
}

impl RangeType {
    fn describe(self) -> &'static str {
        match self {
            RangeType::Int32 => "integer with format int32",
            RangeType::Int64 => "integer with format int64",
            RangeType::Int64Default => "integer (default format)",
            RangeType::Float => "number with format float",
            RangeType::Double => "number with format double",
            RangeType::NumberDefault | RangeType::None => "number (default format)",
        }
    }

    /// `IsValueValidAgainstRange` for the string form of a value.
    fn accepts(self, rep: &str) -> bool {
        match self {
            RangeType::Int32 => rep.parse::<i32>().is_ok(),
            RangeType::Int64 | RangeType::Int64Default => rep.parse::<i64>().is_ok(),
            RangeType::Float => go_parse_f32(rep),
            _ => true,
        }
    }

    /// `accepts` of a value, without formatting it (the same decision).
    #[allow(clippy::cast_possible_truncation)]
    fn accepts_num(self, n: Num) -> bool {
        const I64: f64 = 9_223_372_036_854_775_808.0;
        match (self, n) {
            (RangeType::Int32, Num::Int(i)) => i32::try_from(i).is_ok(),
            (RangeType::Int32, Num::Float(f)) => {
                f.fract() == 0.0 && (-2_147_483_648.0..2_147_483_648.0).contains(&f)
            }
            (RangeType::Int64 | RangeType::Int64Default, Num::Int(_))
            | (RangeType::Float, Num::Int(_)) => true,
            (RangeType::Int64 | RangeType::Int64Default, Num::Float(f)) => {
                f.fract() == 0.0 && (-I64..I64).contains(&f)
            }
            (RangeType::Float, Num::Float(f)) => (f as f32).is_finite(),
            _ => true,
        }
    }

    /// The error for `prefix` (`Checked`, `Maximum boundary`, ...) when `n` is out of range.
    fn check(self, n: Num, prefix: &str, path: &str) -> Option<OpenApiError> {
        (!self.accepts(&n.string_rep())).then(|| {
            OpenApiError::Plain(format!(
                "{prefix} value must be of type {} in {path}",
                self.describe()
            ))
        })
    }
}

/// `strconv.ParseFloat(s, 32)` succeeds (no range error).
fn go_parse_f32(s: &str) -> bool {
    match s.parse::<f32>() {
        Ok(f) => f.is_finite() || s.contains("Inf"),
        Err(_) => false,
    }
}

/// The numeric keywords of one schema node, with the range checks of the limits done ahead.
#[derive(Clone, Debug)]
pub(crate) struct NumberRules {
    pub(crate) range: RangeType,
    pub(crate) multiple_of: Option<Limit>,
    pub(crate) maximum: Option<Limit>,
    pub(crate) exclusive_maximum: bool,
    pub(crate) minimum: Option<Limit>,
    pub(crate) exclusive_minimum: bool,
}

/// A limit and whether it fits the node's numeric type (else it is compared as a float).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limit {
    value: f64,
    /// `int64(value)`, what integers are compared with when the limit is native.
    int: i64,
    native: bool,
}

impl NumberRules {
    pub(crate) fn new(
        range: RangeType,
        multiple_of: Option<f64>,
        maximum: Option<f64>,
        exclusive_maximum: bool,
        minimum: Option<f64>,
        exclusive_minimum: bool,
    ) -> Option<NumberRules> {
        let limit = |v: Option<f64>| {
            v.map(|value| Limit {
                value,
                int: go_f64_to_i64(value),
                native: range.accepts(&format_f(value)),
            })
        };
        Some(NumberRules {
            range,
            multiple_of: limit(multiple_of),
            maximum: limit(maximum),
            exclusive_maximum,
            minimum: limit(minimum),
            exclusive_minimum,
        })
    }

    /// `numberValidator.Validate`: range, then multipleOf, minimum, maximum.
    pub(crate) fn validate(&self, n: Num, path: impl Fn() -> String, out: &mut Vec<OpenApiError>) {
        if self.fast_ok(n) {
            return;
        }
        let path = &path();
        if let Some(e) = self.range.check(n, "Checked", path) {
            add(out, e);
        }
        if let Some(m) = self.multiple_of {
            if !m.native {
                add(out, self.range_error(m, "MultipleOf", path));
            }
            if let Some(e) = multiple_of(n, m, path) {
                add(out, e);
            }
        }
        if let Some(m) = self.minimum {
            if !m.native {
                add(out, self.range_error(m, "Minimum boundary", path));
            }
            if let Some(e) = compare(n, m, self.exclusive_minimum, path, false) {
                add(out, e);
            }
        }
        if let Some(m) = self.maximum {
            if !m.native {
                add(out, self.range_error(m, "Maximum boundary", path));
            }
            if let Some(e) = compare(n, m, self.exclusive_maximum, path, true) {
                add(out, e);
            }
        }
    }

    /// Whether `n` passes every check.
    #[inline(always)]
    pub(crate) fn passes(&self, n: Num) -> bool {
        self.fast_ok(n) || {
            let mut errs = Vec::new();
            self.validate(n, String::new, &mut errs);
            errs.is_empty()
        }
    }

    /// Whether `n` passes without building any message (the common case).
    #[inline(always)]
    pub(crate) fn fast_ok(&self, n: Num) -> bool {
        self.range.accepts_num(n)
            && self
                .multiple_of
                .is_none_or(|m| m.native && !multiple_fails(n, m))
            && self
                .minimum
                .is_none_or(|m| m.native && !limit_fails(n, m, self.exclusive_minimum, false))
            && self
                .maximum
                .is_none_or(|m| m.native && !limit_fails(n, m, self.exclusive_maximum, true))
    }

    fn range_error(&self, m: Limit, prefix: &str, path: &str) -> OpenApiError {
        self.range
            .check(Num::Float(m.value), prefix, path)
            .unwrap_or_else(|| OpenApiError::Plain(String::new()))
    }
}

/// Whether `n` is beyond the limit `m` (a `max`imum, else a minimum): integers against a
/// native limit are compared with `int64(limit)`, everything else as floats (NaN never fails).
fn limit_fails(n: Num, m: Limit, exclusive: bool, max: bool) -> bool {
    let ord = match n {
        Num::Int(i) if m.native => Some(i.cmp(&m.int)),
        _ => n.as_f64().partial_cmp(&m.value),
    };
    ord.is_some_and(|ord| match (max, exclusive) {
        (true, false) => ord.is_gt(),
        (true, true) => ord.is_ge(),
        (false, false) => ord.is_lt(),
        (false, true) => ord.is_le(),
    })
}

/// Whether `n` fails `multipleOf: m` (a factor that is not positive always fails).
fn multiple_fails(n: Num, m: Limit) -> bool {
    match n {
        Num::Int(i) if m.native => m.int <= 0 || i % m.int != 0,
        _ => {
            let (f, factor) = (n.as_f64(), m.value);
            if factor <= 0.0 {
                return true;
            }
            let mult = if factor < 1.0 {
                1.0 / factor * f
            } else {
                f / factor
            };
            !is_json_integer(mult)
        }
    }
}

fn compare(n: Num, m: Limit, exclusive: bool, path: &str, max: bool) -> Option<OpenApiError> {
    if !limit_fails(n, m, exclusive, max) {
        return None;
    }
    let what = match (max, exclusive) {
        (true, false) => "less than or equal to",
        (true, true) => "less than",
        (false, false) => "greater than or equal to",
        (false, true) => "greater than",
    };
    Some(match n {
        Num::Int(_) if m.native => OpenApiError::number(path, what, &m.int.to_string(), n.bad()),
        _ => OpenApiError::number(
            path,
            what,
            &gofmt::format_float(m.value),
            BadValue::Float(n.as_f64()),
        ),
    })
}

fn multiple_of(n: Num, m: Limit, path: &str) -> Option<OpenApiError> {
    if !multiple_fails(n, m) {
        return None;
    }
    Some(match n {
        Num::Int(_) if m.native => {
            if m.int <= 0 {
                OpenApiError::multiple_of_must_be_positive(path, BadValue::Int(m.int))
            } else {
                OpenApiError::number(path, "a multiple of", &m.int.to_string(), n.bad())
            }
        }
        _ => {
            if m.value <= 0.0 {
                OpenApiError::multiple_of_must_be_positive(path, BadValue::Float(m.value))
            } else {
                let f = n.as_f64();
                OpenApiError::number(
                    path,
                    "a multiple of",
                    &gofmt::format_float(m.value),
                    BadValue::Float(f),
                )
            }
        }
    })
}
