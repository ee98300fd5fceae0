//! `kubernetes.Quantity`: mirrors apiserver `pkg/cel/quantity.go` and the parsing of
//! apimachinery `resource.ParseQuantity` (`pkg/api/resource/quantity.go`, `suffix.go`): decimal
//! SI, binary SI and exponent suffixes, values rounded up to nano units.
//!
//! Values are kept exactly as `coefficient × 10^exponent` with a 128-bit coefficient (Go uses
//! arbitrary precision; quantities beyond 38 significant digits are refused here).

use std::cmp::Ordering;
use std::fmt;

use crate::value::EvalError;

/// A Kubernetes quantity: `coef × 10^exp`.
#[derive(Clone, Debug, PartialEq)]
pub struct Quantity {
    pub coef: i128,
    pub exp: i32,
}

const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

impl Quantity {
    pub(crate) fn align(&self, other: &Quantity) -> Option<(i128, i128, i32)> {
        if (self.exp - other.exp).abs() > 38 {
            return None;
        }
        let e = self.exp.min(other.exp);
        let a = self.coef.checked_mul(pow10((self.exp - e) as u32)?)?;
        let b = other.coef.checked_mul(pow10((other.exp - e) as u32)?)?;
        Some((a, b, e))
    }

    /// `Cmp`.
    pub(crate) fn cmp_value(&self, other: &Quantity) -> Ordering {
        match self.align(other) {
            Some((a, b, _)) => a.cmp(&b),
            None => self
                .approx()
                .partial_cmp(&other.approx())
                .unwrap_or(Ordering::Equal),
        }
    }

    pub(crate) fn approx(&self) -> f64 {
        self.coef as f64 * 10f64.powi(self.exp)
    }

    /// `AsInt64`.
    pub(crate) fn as_i64(&self) -> Option<i64> {
        if self.exp >= 0 {
            i64::try_from(self.coef.checked_mul(pow10(self.exp as u32)?)?).ok()
        } else {
            let d = pow10((-self.exp) as u32)?;
            (self.coef % d == 0)
                .then(|| i64::try_from(self.coef / d).ok())
                .flatten()
        }
    }

    pub(crate) fn normalized(mut self) -> Quantity {
        // Round up to nano units (apimachinery keeps at most 9 fractional digits).
        if self.exp < -9 {
            let d = pow10((-9 - self.exp) as u32).unwrap_or(i128::MAX);
            let q = self.coef / d;
            let r = self.coef % d;
            self.coef = if r > 0 {
                q + 1
            } else if r < 0 {
                q - 1
            } else {
                q
            };
            self.exp = -9;
        }
        while self.coef != 0 && self.coef % 10 == 0 && self.exp < 0 {
            self.coef /= 10;
            self.exp += 1;
        }
        self
    }

    pub(crate) fn add(&self, other: &Quantity) -> Result<Quantity, EvalError> {
        let (a, b, e) = self.align(other).ok_or_else(overflow)?;
        Ok(Quantity {
            coef: a.checked_add(b).ok_or_else(overflow)?,
            exp: e,
        }
        .normalized())
    }
}

fn overflow() -> EvalError {
    EvalError::other("quantity overflow")
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}e{}", self.coef, self.exp)
    }
}

/// apimachinery `ParseQuantity`.
pub(crate) fn parse(s: &str) -> Result<Quantity, &'static str> {
    if s.is_empty() {
        return Err(FORMAT_WRONG);
    }
    let b = s.as_bytes();
    let mut pos = 0;
    let positive = match b[0] {
        b'-' => {
            pos = 1;
            false
        }
        b'+' => {
            pos = 1;
            true
        }
        _ => true,
    };
    let digits = |p: usize| b[p..].iter().take_while(|c| c.is_ascii_digit()).count();
    let n = digits(pos);
    let num = &s[pos..pos + n];
    pos += n;
    let mut denom = "";
    if b.get(pos) == Some(&b'.') {
        pos += 1;
        let d = digits(pos);
        denom = &s[pos..pos + d];
        pos += d;
    }
    let suffix = &s[pos..];
    // The suffix: letters from "eEinumkKMGTP", an optional sign, digits.
    let letters = suffix
        .bytes()
        .take_while(|c| b"eEinumkKMGTP".contains(c))
        .count();
    let tail = &suffix[letters..];
    let tail = tail.strip_prefix(['+', '-']).unwrap_or(tail);
    if !tail.bytes().all(|c| c.is_ascii_digit()) {
        return Err(FORMAT_WRONG);
    }
    let (mut exp10, pow2): (i32, u32) = match suffix {
        "" => (0, 0),
        "n" => (-9, 0),
        "u" => (-6, 0),
        "m" => (-3, 0),
        "k" => (3, 0),
        "M" => (6, 0),
        "G" => (9, 0),
        "T" => (12, 0),
        "P" => (15, 0),
        "E" => (18, 0),
        "Ki" => (0, 10),
        "Mi" => (0, 20),
        "Gi" => (0, 30),
        "Ti" => (0, 40),
        "Pi" => (0, 50),
        "Ei" => (0, 60),
        x if x.len() > 1 && (x.starts_with('e') || x.starts_with('E')) => {
            let e: i32 = x[1..]
                .parse()
                .map_err(|_| "unable to parse quantity's suffix")?;
            (e, 0)
        }
        _ => return Err("unable to parse quantity's suffix"),
    };
    let all = format!("{num}{denom}");
    let all = all.trim_start_matches('0');
    if all.len() > 38 {
        return Err("unable to parse numeric part of quantity");
    }
    let mut coef: i128 = if all.is_empty() {
        0
    } else {
        all.parse()
            .map_err(|_| "unable to parse numeric part of quantity")?
    };
    exp10 = i32::try_from(i64::from(exp10) - denom.len() as i64)
        .ok()
        .filter(|e| e.unsigned_abs() <= 1000)
        .ok_or("unable to parse numeric part of quantity")?;
    coef = coef
        .checked_mul(1i128 << pow2)
        .ok_or("unable to parse numeric part of quantity")?;
    if !positive {
        coef = -coef;
    }
    Ok(Quantity { coef, exp: exp10 }.normalized())
}
