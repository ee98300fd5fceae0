//! cel-go `checker/cost.go`'s ranges: [`SizeEstimate`], [`CostEstimate`] and the aggregate
//! sizes of `entrySizeEstimate` ([`EntrySize`]), with `multiplyByCostFactor` ([`mul_factor`]).
//!
//! Every operation is a `const fn`: the `const` checker of the derive (`crdkit-shape`) computes
//! with these very types and functions, and the run-time estimator calls them as ordinary
//! functions. The arithmetic saturates at `u64::MAX`, as cel-go's does.

/// A range of sizes (cel-go `SizeEstimate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeEstimate {
    /// The smallest size: elements of a list or map, bytes of a string or bytes, code points of a
    /// string where cel-go counts them.
    pub min: u64,
    /// The largest size; `u64::MAX` when nothing bounds it.
    pub max: u64,
}

/// A range of costs (cel-go `CostEstimate`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct CostEstimate {
    /// The cost when every short-circuit and early exit is taken.
    pub min: u64,
    /// The cost in the worst case; the figure checked against the limits.
    pub max: u64,
}

/// `x.ceil()` in a `const fn` (`f64::ceil` is `const` only from Rust 1.90): the same result
/// for every finite value, infinity and NaN.
#[must_use]
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
pub const fn ceil(x: f64) -> f64 {
    // Beyond 2^52 every double is an integer (and NaN stays NaN).
    if x.is_nan() || x >= 4_503_599_627_370_496.0 || x <= -4_503_599_627_370_496.0 {
        return x;
    }
    let t = x as i64 as f64;
    if t < x { t + 1.0 } else { t }
}

/// `x.floor()` in a `const fn`.
#[must_use]
pub const fn floor(x: f64) -> f64 {
    -ceil(-x)
}

/// `ceil(x * y)` saturating at `u64::MAX` (cel-go `multiplyByCostFactor`).
#[must_use]
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
pub const fn mul_factor(x: u64, y: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && y > 0.0 && xf > u64::MAX as f64 / y {
        return u64::MAX;
    }
    let c = ceil(xf * y);
    if c >= 18_446_744_073_709_551_616.0 {
        u64::MAX
    } else {
        c as u64
    }
}

const fn min(a: u64, b: u64) -> u64 {
    if a < b { a } else { b }
}

const fn max(a: u64, b: u64) -> u64 {
    if a > b { a } else { b }
}

// `add` and `multiply` saturate, as cel-go's do; they are not the arithmetic operators.
#[allow(clippy::should_implement_trait)]
impl SizeEstimate {
    /// Unknown: 0 to `u64::MAX`.
    pub const UNKNOWN: SizeEstimate = SizeEstimate {
        min: 0,
        max: u64::MAX,
    };

    /// Exactly `n`: the size of a literal or of a value whose size is known.
    #[must_use]
    pub const fn fixed(n: u64) -> SizeEstimate {
        SizeEstimate { min: n, max: n }
    }

    /// The size of a concatenation (`a + b`), saturating.
    #[must_use]
    pub const fn add(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    /// The size of a product (`n` lists of `m` elements), saturating.
    #[must_use]
    pub const fn multiply(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    /// The cost of traversing a value of this size at `f` per unit, e.g.
    /// [`STRING_TRAVERSAL_COST_FACTOR`](super::STRING_TRAVERSAL_COST_FACTOR) for a string scan;
    /// rounds up, saturating.
    #[must_use]
    pub const fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: mul_factor(self.min, f),
            max: mul_factor(self.max, f),
        }
    }

    /// The cost of doing `c` once per unit of this size (an element-wise comparison), saturating.
    #[must_use]
    pub const fn multiply_by_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(c.min),
            max: self.max.saturating_mul(c.max),
        }
    }

    /// A size that covers both: the smaller minimum and the larger maximum (the branches of
    /// `_?_:_`).
    #[must_use]
    pub const fn union(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: min(self.min, o.min),
            max: max(self.max, o.max),
        }
    }
}

#[allow(clippy::should_implement_trait)]
impl CostEstimate {
    /// No cost (`has(x.f)` in Kubernetes).
    pub const ZERO: CostEstimate = CostEstimate { min: 0, max: 0 };
    /// The cost of an identifier or a selection ([`SELECT_AND_IDENT_COST`](super::SELECT_AND_IDENT_COST)),
    /// and of a call without a formula of its own.
    pub const ONE: CostEstimate = CostEstimate { min: 1, max: 1 };

    /// Exactly `n`: a call whose cost does not depend on its arguments.
    #[must_use]
    pub const fn fixed(n: u64) -> CostEstimate {
        CostEstimate { min: n, max: n }
    }

    /// The cost of doing both, saturating.
    #[must_use]
    pub const fn add(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    /// The cost of doing `self` as many times as `o` says, saturating (a loop body times its
    /// iterations).
    #[must_use]
    pub const fn multiply(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    /// The cost scaled by `f`, rounded up and saturating.
    #[must_use]
    pub const fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: mul_factor(self.min, f),
            max: mul_factor(self.max, f),
        }
    }

    /// A cost that covers both: the smaller minimum and the larger maximum (the branches of
    /// `_?_:_`).
    #[must_use]
    pub const fn union(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: min(self.min, o.min),
            max: max(self.max, o.max),
        }
    }
}

/// The sizes of a list's or map's keys and values (cel-go `entrySizeEstimate`), which the
/// estimator follows through literals, `+`, `?:` and comprehensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EntrySize {
    /// A list (keys are indices) rather than a map.
    pub list: bool,
    /// The size of the keys (1 for a list's indices).
    pub key: SizeEstimate,
    /// The size of the elements or values.
    pub val: SizeEstimate,
}

impl EntrySize {
    /// Entry sizes that cover both (keeping `self`'s kind).
    #[must_use]
    pub const fn union(self, o: EntrySize) -> EntrySize {
        EntrySize {
            list: self.list,
            key: self.key.union(o.key),
            val: self.val.union(o.val),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ceil, floor, mul_factor};

    #[test]
    fn const_ceil_is_f64_ceil() {
        let xs = [
            0.0,
            -0.0,
            0.1,
            0.5,
            0.9999999999999999,
            1.0,
            1.5,
            -1.5,
            -0.5,
            2.5e15,
            4_503_599_627_370_495.5,
            4_503_599_627_370_496.0,
            1e300,
            -1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::MIN_POSITIVE,
        ];
        for x in xs {
            assert_eq!(ceil(x), x.ceil(), "ceil({x})");
            assert_eq!(floor(x), x.floor(), "floor({x})");
        }
        assert!(ceil(f64::NAN).is_nan());
    }

    #[test]
    fn mul_factor_rounds_up_and_saturates() {
        assert_eq!(mul_factor(0, 0.1), 0);
        assert_eq!(mul_factor(1, 0.1), 1);
        assert_eq!(mul_factor(10, 0.1), 1);
        assert_eq!(mul_factor(11, 0.1), 2);
        assert_eq!(mul_factor(3_145_726, 0.25), 786_432);
        assert_eq!(mul_factor(u64::MAX, 0.1), 1_844_674_407_370_955_264);
        assert_eq!(mul_factor(u64::MAX, 2.0), u64::MAX);
        assert_eq!(mul_factor(u64::MAX / 2, 2.1), u64::MAX);
    }
}
