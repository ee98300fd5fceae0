//! Kubernetes quantities (`500m`, `1.5Gi`, `12e6`): parsing, comparison and the canonical form
//! the API server writes back.
//!
//! Mirrors apimachinery `pkg/api/resource/quantity.go` (`ParseQuantity`, `CanonicalizeBytes`,
//! `Cmp`, `RoundUp`, `Value`, `MilliValue`), `suffix.go` and `amount.go`. A value is kept exactly
//! as `coef × 10^exp` (Go keeps an `int64` scaled amount or an arbitrary-precision decimal);
//! numbers beyond 38 significant digits are refused with Go's numeric error.
//!
//! ```
//! use crdkit_apimachinery::quantity::Quantity;
//!
//! let q = Quantity::parse("1.5Gi").unwrap();
//! assert_eq!(q.to_string(), "1536Mi");
//! assert_eq!(Quantity::parse("1000m").unwrap().to_string(), "1");
//! assert!(Quantity::parse("500m").unwrap() < Quantity::parse("1").unwrap());
//! ```

use std::cmp::Ordering;
use std::fmt;

/// How a quantity is written back (Go's `resource.Format`), decided by the suffix it was read
/// with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `12e6`: an `e`/`E` exponent.
    DecimalExponent,
    /// `5Gi`: a power-of-two suffix.
    BinarySi,
    /// `5G`, `500m` or no suffix.
    DecimalSi,
}

/// Go's `ErrFormatWrong`.
pub const FORMAT_WRONG: &str =
    "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/// Go's `ErrNumeric`.
pub const NUMERIC: &str = "unable to parse numeric part of quantity";
/// Go's `ErrSuffix`.
pub const SUFFIX: &str = "unable to parse quantity's suffix";

/// A quantity: `coef × 10^exp`, with no trailing zeros in `coef` when `exp < 0`.
#[derive(Clone, Debug)]
pub struct Quantity {
    /// The significant digits, signed.
    pub coef: i128,
    /// The power of ten.
    pub exp: i32,
    /// How [`fmt::Display`] writes it.
    pub format: Format,
}

/// The value Go caps `BinarySI` quantities at (`maxAllowed`, 2^63 - 1).
const MAX_BINARY: i128 = i64::MAX as i128;

fn pow10(n: u32) -> Option<i128> {
    10i128.checked_pow(n)
}

impl Quantity {
    /// `ParseQuantity`: `[+-]digits[.digits][suffix]`, rounded up (away from zero) to nano units.
    ///
    /// # Errors
    /// Go's messages: [`FORMAT_WRONG`], [`NUMERIC`] or [`SUFFIX`].
    pub fn parse(s: &str) -> Result<Quantity, &'static str> {
        if s.is_empty() {
            return Err(FORMAT_WRONG);
        }
        let b = s.as_bytes();
        let (positive, mut pos) = match b[0] {
            b'-' => (false, 1),
            b'+' => (true, 1),
            _ => (true, 0),
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
        // The suffix: letters from "eEinumkKMGTP", an optional sign, digits, nothing else.
        let letters = suffix
            .bytes()
            .take_while(|c| b"eEinumkKMGTP".contains(c))
            .count();
        let tail = &suffix[letters..];
        let tail = tail.strip_prefix(['+', '-']).unwrap_or(tail);
        if !tail.bytes().all(|c| c.is_ascii_digit()) {
            return Err(FORMAT_WRONG);
        }
        let (exp10, pow2, mut format) = interpret(suffix).ok_or(SUFFIX)?;
        let all = format!("{num}{denom}");
        let all = all.trim_start_matches('0');
        if all.len() > 38 {
            return Err(NUMERIC);
        }
        let mut coef: i128 = if all.is_empty() {
            0
        } else {
            all.parse().map_err(|_| NUMERIC)?
        };
        let exp = i32::try_from(i64::from(exp10) - denom.len() as i64)
            .ok()
            .filter(|e| e.unsigned_abs() <= 1000)
            .ok_or(NUMERIC)?;
        coef = coef.checked_mul(1i128 << pow2).ok_or(NUMERIC)?;
        let mut q = Quantity { coef, exp, format }.normalized();
        if format == Format::BinarySi {
            if q.cmp(&Quantity::int(MAX_BINARY)) == Ordering::Greater {
                q = Quantity::int(MAX_BINARY);
            }
            // Between 0 and 1 a power-of-two suffix cannot be kept.
            if q.coef != 0 && q.exp < 0 && q.cmp(&Quantity::int(1)) == Ordering::Less {
                format = Format::DecimalSi;
            }
        }
        q.format = format;
        if !positive {
            q.coef = -q.coef;
        }
        Ok(q)
    }

    /// An integer quantity, written in decimal SI.
    #[must_use]
    pub fn int(v: i128) -> Quantity {
        Quantity {
            coef: v,
            exp: 0,
            format: Format::DecimalSi,
        }
        .normalized()
    }

    /// Whether the value is 0.
    #[must_use]
    pub fn is_zero(&self) -> bool {
        self.coef == 0
    }

    /// -1, 0 or 1.
    #[must_use]
    pub fn sign(&self) -> i32 {
        self.coef.signum() as i32
    }

    /// `RoundUp(scale)`: rounds away from zero to a multiple of `10^scale` (`-3`: milli units).
    pub fn round_up(&mut self, scale: i32) {
        if self.exp >= scale {
            return;
        }
        let Some(d) = u32::try_from(scale - self.exp).ok().and_then(pow10) else {
            // Far below the scale: any non-zero value becomes one unit of it.
            self.coef = self.coef.signum();
            self.exp = scale;
            return;
        };
        let (q, r) = (self.coef / d, self.coef % d);
        self.coef = q + r.signum();
        self.exp = scale;
        *self = self.clone().normalized();
    }

    /// `ScaledValue(scale)`: `ceil(q / 10^scale)` away from zero, saturated to `i64`.
    #[must_use]
    pub fn scaled_value(&self, scale: i32) -> i64 {
        let mut q = self.clone();
        q.round_up(scale);
        let shift = q.exp - scale;
        let v = match u32::try_from(shift).ok().and_then(pow10) {
            Some(m) => q.coef.checked_mul(m),
            None => None,
        };
        let v = v.unwrap_or(if q.coef < 0 { i128::MIN } else { i128::MAX });
        i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
    }

    /// `Value()`: the value rounded up to an integer, away from zero.
    #[must_use]
    pub fn value(&self) -> i64 {
        self.scaled_value(0)
    }

    /// `MilliValue()`: `ceil(q × 1000)`.
    #[must_use]
    pub fn milli_value(&self) -> i64 {
        self.scaled_value(-3)
    }

    /// `AsInt64`: the value when it is an integer that fits.
    #[must_use]
    pub fn as_i64(&self) -> Option<i64> {
        if self.exp >= 0 {
            i64::try_from(self.coef.checked_mul(pow10(self.exp.unsigned_abs())?)?).ok()
        } else {
            let d = pow10(self.exp.unsigned_abs())?;
            (self.coef % d == 0)
                .then(|| i64::try_from(self.coef / d).ok())
                .flatten()
        }
    }

    /// `AsApproximateFloat64`.
    #[must_use]
    pub fn approx(&self) -> f64 {
        self.coef as f64 * 10f64.powi(self.exp)
    }

    /// `Add`: the sum, in `self`'s format (or `other`'s when `self` is zero, as Go does).
    ///
    /// # Errors
    /// When the sum does not fit 38 digits.
    pub fn checked_add(&self, other: &Quantity) -> Option<Quantity> {
        let (a, b, exp) = self.align(other)?;
        let format = if self.is_zero() {
            other.format
        } else {
            self.format
        };
        Some(
            Quantity {
                coef: a.checked_add(b)?,
                exp,
                format,
            }
            .normalized(),
        )
    }

    fn align(&self, other: &Quantity) -> Option<(i128, i128, i32)> {
        let e = self.exp.min(other.exp);
        let a = self
            .coef
            .checked_mul(pow10(u32::try_from(self.exp - e).ok()?)?)?;
        let b = other
            .coef
            .checked_mul(pow10(u32::try_from(other.exp - e).ok()?)?)?;
        Some((a, b, e))
    }

    /// Rounds up (away from zero) to nano units and drops trailing zeros of fractions.
    fn normalized(mut self) -> Quantity {
        if self.exp < -9 {
            self.round_up(-9);
        }
        if self.coef == 0 {
            self.exp = 0;
        }
        while self.coef != 0 && self.coef % 10 == 0 && self.exp < 0 {
            self.coef /= 10;
            self.exp += 1;
        }
        self
    }

    /// `coef × 10^exp` with every factor of ten moved into `exp`.
    fn reduced(&self) -> (i128, i32) {
        let (mut c, mut e) = (self.coef, self.exp);
        while c != 0 && c % 10 == 0 {
            c /= 10;
            e += 1;
        }
        (c, e)
    }

    /// Go's `CanonicalizeBytes`: the number and its suffix.
    fn canonical(&self) -> (String, String) {
        if self.is_zero() {
            return ("0".to_owned(), String::new());
        }
        let mut format = self.format;
        let mut integer = None;
        if format == Format::BinarySi {
            let small = self.cmp(&Quantity::int(-1024)) == Ordering::Greater
                && self.cmp(&Quantity::int(1024)) == Ordering::Less;
            integer = self.integer();
            if small || integer.is_none() {
                format = Format::DecimalSi;
            }
        }
        if let (Format::BinarySi, Some(mut n)) = (format, integer) {
            let mut k = 0;
            while n != 0 && n % 1024 == 0 {
                n /= 1024;
                k += 1;
            }
            let suffix = ["", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"]
                .get(k)
                .copied()
                .unwrap_or_default();
            return (n.to_string(), suffix.to_owned());
        }
        let (mut c, mut e) = self.reduced();
        // The exponent becomes a multiple of 3 (Go's `%` keeps the sign, as Rust's does).
        match e % 3 {
            1 | -2 => {
                c *= 10;
                e -= 1;
            }
            2 | -1 => {
                c *= 100;
                e -= 2;
            }
            _ => {}
        }
        let suffix = match format {
            Format::DecimalExponent if e == 0 => String::new(),
            Format::DecimalExponent => format!("e{e}"),
            // Go finds no suffix for other exponents and writes none.
            _ => match e {
                -9 => "n",
                -6 => "u",
                -3 => "m",
                3 => "k",
                6 => "M",
                9 => "G",
                12 => "T",
                15 => "P",
                18 => "E",
                _ => "",
            }
            .to_owned(),
        };
        (c.to_string(), suffix)
    }

    /// The value when it is an integer that fits 128 bits.
    fn integer(&self) -> Option<i128> {
        if self.exp >= 0 {
            self.coef.checked_mul(pow10(self.exp.unsigned_abs())?)
        } else {
            let d = pow10(self.exp.unsigned_abs())?;
            (self.coef % d == 0).then_some(self.coef / d)
        }
    }
}

/// A suffix's power of ten, power of two and format (Go's `suffixer.interpret`).
fn interpret(suffix: &str) -> Option<(i32, u32, Format)> {
    let dec = |e| Some((e, 0, Format::DecimalSi));
    let bin = |p| Some((0, p, Format::BinarySi));
    match suffix {
        "" => dec(0),
        "n" => dec(-9),
        "u" => dec(-6),
        "m" => dec(-3),
        "k" => dec(3),
        "M" => dec(6),
        "G" => dec(9),
        "T" => dec(12),
        "P" => dec(15),
        "E" => dec(18),
        "Ki" => bin(10),
        "Mi" => bin(20),
        "Gi" => bin(30),
        "Ti" => bin(40),
        "Pi" => bin(50),
        "Ei" => bin(60),
        x if x.len() > 1 && (x.starts_with('e') || x.starts_with('E')) => {
            let e: i32 = x[1..].parse().ok()?;
            Some((e, 0, Format::DecimalExponent))
        }
        _ => None,
    }
}

impl PartialEq for Quantity {
    /// Go's `Equal`: the values, whatever their formats.
    fn eq(&self, other: &Quantity) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Quantity {}

impl PartialOrd for Quantity {
    fn partial_cmp(&self, other: &Quantity) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Quantity {
    /// Go's `Cmp`: exact, whatever the formats.
    fn cmp(&self, other: &Quantity) -> Ordering {
        match self.align(other) {
            Some((a, b, _)) => a.cmp(&b),
            // Too far apart to align: the signs, then the magnitudes, decide.
            None => self.coef.signum().cmp(&other.coef.signum()).then_with(|| {
                let mag = |q: &Quantity| {
                    let (c, e) = q.reduced();
                    i64::from(e) + c.unsigned_abs().to_string().len() as i64
                };
                let o = mag(self).cmp(&mag(other));
                if self.coef < 0 { o.reverse() } else { o }
            }),
        }
    }
}

impl fmt::Display for Quantity {
    /// Go's `String()`: the canonical form (`1536Mi`, `500m`, `12e6`, `0`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, s) = self.canonical();
        write!(f, "{n}{s}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(s: &str) -> String {
        Quantity::parse(s).unwrap().to_string()
    }

    #[test]
    fn canonical_forms_as_go_writes_them() {
        // quantity_test.go TestQuantityParse / TestQuantityString facts.
        for (input, want) in [
            ("0", "0"),
            ("0m", "0"),
            ("1", "1"),
            ("1000m", "1"),
            ("0.5", "500m"),
            ("1.5", "1500m"),
            ("100000", "100k"),
            ("1000000", "1M"),
            ("1e3", "1e3"),
            ("12e6", "12e6"),
            ("1E3", "1e3"),
            ("1Ki", "1Ki"),
            ("1024Ki", "1Mi"),
            ("1025Ki", "1025Ki"),
            ("1.5Gi", "1536Mi"),
            ("0.5Gi", "512Mi"),
            ("0.1Ki", "102400m"),
            ("512", "512"),
            ("2048", "2048"),
            ("0.0001", "100u"),
            ("1n", "1n"),
            ("0.1n", "1n"),
            ("-1", "-1"),
            ("-100m", "-100m"),
            ("+5", "5"),
            ("1.", "1"),
            (".5", "500m"),
            ("10Gi", "10Gi"),
            ("128974848", "128974848"),
            ("129e6", "129e6"),
            ("129M", "129M"),
            ("123Mi", "123Mi"),
        ] {
            assert_eq!(canon(input), want, "{input}");
        }
    }

    #[test]
    fn errors_are_go_messages() {
        assert_eq!(Quantity::parse("").unwrap_err(), FORMAT_WRONG);
        assert_eq!(Quantity::parse("1.5x").unwrap_err(), FORMAT_WRONG);
        assert_eq!(Quantity::parse("abc").unwrap_err(), FORMAT_WRONG);
        assert_eq!(Quantity::parse("1Gb").unwrap_err(), FORMAT_WRONG);
        assert_eq!(Quantity::parse("1KiB").unwrap_err(), FORMAT_WRONG);
        assert_eq!(Quantity::parse("1iK").unwrap_err(), SUFFIX);
    }

    #[test]
    fn compares_values_not_spellings() {
        let q = |s| Quantity::parse(s).unwrap();
        assert_eq!(q("1Gi"), q("1024Mi"));
        assert_eq!(q("1000m"), q("1"));
        assert!(q("1G") < q("1Gi"));
        assert!(q("-1") < q("0"));
        assert!(q("1e30") > q("1"));
        assert!(q("-1e30") < q("-1"));
    }

    #[test]
    fn rounds_and_scales_as_go() {
        let mut q = Quantity::parse("100u").unwrap();
        q.round_up(-3);
        assert_eq!(q.to_string(), "1m");
        let mut q = Quantity::parse("1.0001").unwrap();
        q.round_up(-3);
        assert_eq!(q.to_string(), "1001m");
        assert_eq!(Quantity::parse("1.5").unwrap().value(), 2);
        assert_eq!(Quantity::parse("-1.5").unwrap().value(), -2);
        assert_eq!(Quantity::parse("1.5").unwrap().milli_value(), 1500);
        assert_eq!(Quantity::parse("1n").unwrap().milli_value(), 1);
    }
}
