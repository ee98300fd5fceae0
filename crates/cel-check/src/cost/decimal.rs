//! Go's `%.Nf` of a non-negative double in a `const fn` (`strconv.FormatFloat(v, 'f', N, 64)`:
//! the exact binary value rounded half to even), for the factor of the cost error messages,
//! which the derive builds at compile time and the run-time checks build alike.

/// A formatted number: up to 40 ASCII bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decimal {
    buf: [u8; 40],
    len: usize,
}

impl Decimal {
    /// The text.
    #[must_use]
    pub const fn as_str(&self) -> &str {
        let (head, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(s) => s,
            Err(_) => "",
        }
    }
}

/// `v` with `decimals` digits after the point, as Go's `%.<decimals>f` prints it, for finite
/// `v >= 0` with `v * 10^decimals < 2^64` and `decimals <= 18` (other values saturate:
/// negative and NaN print as 0, larger ones as the largest such number).
///
/// ```
/// use crdkit_cel_check::cost::fixed_decimal;
/// assert_eq!(fixed_decimal(1.0000001, 6).as_str(), "1.000000");
/// assert_eq!(fixed_decimal(2.25, 1).as_str(), "2.2"); // a tie: to even
/// assert_eq!(fixed_decimal(2.35, 1).as_str(), "2.4"); // 2.35000000000000008882 rounds up
/// assert_eq!(fixed_decimal(42.0, 0).as_str(), "42");
/// ```
#[must_use]
pub const fn fixed_decimal(v: f64, decimals: u32) -> Decimal {
    let decimals = if decimals > 18 { 18 } else { decimals };
    let q = scaled(v, decimals);
    let mut digits = [0u8; 20];
    let mut n = 0;
    let mut rest = q;
    // The integer part has at least one digit.
    while n < decimals as usize + 1 || rest > 0 {
        digits[n] = b'0' + (rest % 10) as u8;
        rest /= 10;
        n += 1;
    }
    let mut out = Decimal {
        buf: [0; 40],
        len: 0,
    };
    while n > 0 {
        n -= 1;
        out.buf[out.len] = digits[n];
        out.len += 1;
        if n == decimals as usize && decimals > 0 {
            out.buf[out.len] = b'.';
            out.len += 1;
        }
    }
    out
}

/// `round_half_even(v * 10^decimals)`, exactly.
#[allow(clippy::cast_possible_truncation)]
const fn scaled(v: f64, decimals: u32) -> u64 {
    if v.is_nan() || v <= 0.0 {
        return 0;
    }
    if v.is_infinite() {
        return u64::MAX;
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    // v = m * 2^e exactly.
    let (m, e) = if exp == 0 {
        (frac, -1074)
    } else {
        (frac | (1 << 52), exp - 1075)
    };
    let num = (m as u128) * 10u128.pow(decimals);
    let q = if e >= 0 {
        if e >= 64 {
            return u64::MAX;
        }
        match num.checked_shl(e as u32) {
            Some(x) if x >> e == num => x,
            _ => return u64::MAX,
        }
    } else {
        let k = (-e) as u32;
        if k >= 127 {
            // num < 2^(53 + 60) < 2^126: less than half.
            0
        } else {
            let q = num >> k;
            let r = num & ((1u128 << k) - 1);
            let half = 1u128 << (k - 1);
            if r > half || (r == half && q % 2 == 1) {
                q + 1
            } else {
                q
            }
        }
    };
    if q > u64::MAX as u128 {
        u64::MAX
    } else {
        q as u64
    }
}

#[cfg(test)]
mod tests {
    use super::fixed_decimal;

    /// Rust's `{:.N}` is exact and rounds ties to even, as Go's `%.Nf`.
    #[test]
    fn same_as_rust_formatting() {
        let mut values = vec![
            0.0, 0.5, 1.5, 2.5, 0.05, 0.15, 0.25, 0.35, 1.0000005, 1.4999995, 1.4999999, 99.95,
            100.0, 1e-7, 123456.789, 2.675, 1.005,
        ];
        // Factors of cost errors: cost / limit for costs near the limits.
        for limit in [10_000_000u64, 100_000_000] {
            for cost in (limit..limit * 101).step_by(977_777) {
                values.push(cost as f64 / limit as f64);
            }
            for cost in limit..limit + 3_000 {
                values.push(cost as f64 / limit as f64);
            }
        }
        // Exact halves at every decimal.
        for i in 0..20_000u64 {
            values.push(i as f64 / 8.0);
            values.push(i as f64 / 1024.0);
            values.push(i as f64 * 0.05);
        }
        for v in values {
            for d in [0u32, 1, 2, 6] {
                assert_eq!(
                    fixed_decimal(v, d).as_str(),
                    format!("{v:.*}", d as usize),
                    "{v} with {d} decimals"
                );
            }
        }
    }

    #[test]
    fn out_of_range_saturates() {
        assert_eq!(fixed_decimal(-1.0, 1).as_str(), "0.0");
        assert_eq!(fixed_decimal(f64::NAN, 0).as_str(), "0");
        assert_eq!(fixed_decimal(1e300, 0).as_str(), u64::MAX.to_string());
    }
}
