//! The cost of one call, given what the estimator knows of its operands: cel-go
//! `checker/cost.go` `functionCost` (the extension estimators of `ext/sets.go` and
//! `ext/lists.go` first, then apiserver `pkg/cel/library/cost.go` `EstimateCallCost`, then
//! cel-go's built-in rules for strings, lists, logic and comparisons).
//!
//! These are the only copies of the per-call formulas. Both estimators use them: the run-time
//! one ([`estimate`](fn@super::estimate), over a [`CheckedAst`](crate::check::CheckedAst)) and the
//! `const` one the derive runs at compile time (`crdkit-shape`). Each walks its own expression
//! form, works out the operands' sizes and calls [`function_cost`].
//!
//! ```
//! use crdkit_cel_check::cost::formula::{Call, Operand, function_cost};
//! use crdkit_cel_check::cost::{CostEstimate, SizeEstimate};
//! use crdkit_cel_check::types::Kind;
//!
//! // `s.matches(re)`: a string of up to 64 bytes, a 10-character pattern literal.
//! let s = Operand::of_kind(Kind::String).with_computed(SizeEstimate { min: 0, max: 64 });
//! let re = Operand::of_kind(Kind::String).with_computed(SizeEstimate::fixed(10));
//! let call = Call {
//!     function: "matches",
//!     overload: "matches_string",
//!     version: (1, 30),
//!     target: Some(s),
//!     args: &[re],
//!     arg_costs: &[CostEstimate::ZERO],
//!     target_element: None,
//! };
//! // ceil((0..64 + 1) * 0.1) * ceil(10 * 0.25): the string scan times the pattern's length.
//! assert_eq!(function_cost(&call).cost, CostEstimate { min: 3, max: 21 });
//! ```

mod ext;
mod k8s;

use super::SizeEstimate;
use super::{CostEstimate, REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR};
use crate::env::Version;
use crate::types::Kind;

const ST: f64 = STRING_TRAVERSAL_COST_FACTOR;
const ONE: CostEstimate = CostEstimate::ONE;

/// A call's target or argument as the formulas see it (cel-go `checker.AstNode`, reduced to
/// what the estimators read of it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operand<'a> {
    /// cel-go `ComputedSize`: the size the walk worked out for the expression (a literal, the
    /// result of an earlier call, a value whose path into the schema has a size), if any.
    /// cel-go's built-in rules read only this.
    pub computed: Option<SizeEstimate>,
    /// library `sizeEstimate`: [`computed`](Self::computed), else what the size estimator
    /// knows of the operand's path into the schema, else [`SizeEstimate::UNKNOWN`].
    pub size: SizeEstimate,
    /// The value, when the operand is an `int` literal (`split(s, 3)`, `lists.range(5)`).
    pub int_literal: Option<i64>,
    /// The kind of the operand's checked type.
    pub kind: Kind,
    /// cel-go `TypeName()` of the operand's type; the formulas compare only the Kubernetes
    /// library types' names (`kubernetes.URL`, `net.IP`), so a schema object may leave it empty.
    pub type_name: &'a str,
}

impl Operand<'_> {
    /// An operand of kind `kind` about which nothing else is known.
    #[must_use]
    pub const fn of_kind(kind: Kind) -> Operand<'static> {
        Operand {
            computed: None,
            size: SizeEstimate::UNKNOWN,
            int_literal: None,
            kind,
            type_name: "",
        }
    }

    /// With a size from the schema and no computed size (as the element nodes the Kubernetes
    /// estimator makes up).
    #[must_use]
    pub const fn with_size(mut self, size: SizeEstimate) -> Self {
        self.size = size;
        self
    }

    /// With a computed size (which is then also its size).
    #[must_use]
    pub const fn with_computed(mut self, size: SizeEstimate) -> Self {
        self.computed = Some(size);
        self.size = size;
        self
    }

    /// The computed size, or unknown: what cel-go's built-in rules read.
    #[must_use]
    pub const fn computed_or_unknown(&self) -> SizeEstimate {
        match self.computed {
            Some(s) => s,
            None => SizeEstimate::UNKNOWN,
        }
    }
}

/// The element of a list-typed target (library `listElementNode`): the first type parameter of
/// the target's type, at the target's path followed by `@items`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    /// The element type's kind.
    pub kind: Kind,
    /// The element's size, from the schema (library `sizeEstimate` of the element node).
    pub size: SizeEstimate,
}

/// One overload of a call, with its operands.
#[derive(Clone, Copy, Debug)]
pub struct Call<'a> {
    /// The function as resolved: `_+_`, `size`, or a namespaced name such as `sets.contains`.
    pub function: &'a str,
    /// The overload id the checker allowed (`add_string`); a call whose operand types do not
    /// pick one overload is costed once per allowed overload.
    pub overload: &'a str,
    /// The Kubernetes version whose extension estimators apply.
    pub version: Version,
    /// The receiver of a receiver-style call (`None` for global and namespaced calls).
    pub target: Option<Operand<'a>>,
    /// The arguments, receiver excluded.
    pub args: &'a [Operand<'a>],
    /// The estimated cost of evaluating each argument.
    pub arg_costs: &'a [CostEstimate],
    /// The element of the target's type when [`reads_target_element`] says the formula needs
    /// it and the target's type has a parameter.
    pub target_element: Option<Element>,
}

/// What [`function_cost`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallCost {
    /// The cost of the call, its arguments' costs included (its target's excluded).
    pub cost: CostEstimate,
    /// The size of the result, when the formula knows it.
    pub size: Option<SizeEstimate>,
    /// The result's entry sizes are the union of those of these two arguments (`a + b` of
    /// lists and maps, the branches of `_?_:_`), when the walk knows both.
    pub entries_of: Option<(usize, usize)>,
}

/// Whether the formula of `function` reads [`Call::target_element`] (library `isSorted`,
/// `sum`, `min`, `max`, `indexOf`, `lastIndexOf`, `includes` and `join`). Walks that give
/// path entries to the element node (the `const` estimator) build it only then.
#[must_use]
pub const fn reads_target_element(function: &str) -> bool {
    matches!(
        function.as_bytes(),
        b"isSorted"
            | b"sum"
            | b"max"
            | b"min"
            | b"indexOf"
            | b"lastIndexOf"
            | b"includes"
            | b"join"
    )
}

const fn sum(costs: &[CostEstimate]) -> CostEstimate {
    let mut s = CostEstimate::ZERO;
    let mut i = 0;
    while i < costs.len() {
        s = s.add(costs[i]);
        i += 1;
    }
    s
}

const fn done(cost: CostEstimate, size: Option<SizeEstimate>) -> CallCost {
    CallCost {
        cost,
        size,
        entries_of: None,
    }
}

/// cel-go `functionCost`: the cost of one overload of a call and, for some, the size of its
/// result.
#[must_use]
pub const fn function_cost(c: &Call<'_>) -> CallCost {
    let arg_sum = sum(c.arg_costs);
    if let Some((cost, size)) = ext::estimate(c) {
        return done(cost.add(arg_sum), size);
    }
    if let Some((cost, size)) = k8s::estimate(c) {
        return done(cost.add(arg_sum), size);
    }
    let args = c.args;
    let o = c.overload.as_bytes();
    match o {
        b"string_format" => {
            if let Some(t) = c.target {
                return done(
                    t.computed_or_unknown()
                        .multiply_by_cost_factor(ST)
                        .add(arg_sum),
                    None,
                );
            }
        }
        b"string_to_bytes" | b"bytes_to_string" | b"strings_quote" if args.len() == 1 => {
            let sz = args[0].computed_or_unknown();
            let result = match o {
                // A code point is up to 4 bytes.
                b"string_to_bytes" => SizeEstimate {
                    min: sz.min,
                    max: sz.max.saturating_mul(4),
                },
                b"bytes_to_string" => SizeEstimate {
                    min: sz.min / 4,
                    max: sz.max,
                },
                // Every character escaped, and the quotes.
                _ => SizeEstimate {
                    min: sz.min.saturating_add(2),
                    max: sz.max.saturating_mul(2).saturating_add(2),
                },
            };
            return done(sz.multiply_by_cost_factor(ST).add(arg_sum), Some(result));
        }
        b"starts_with_string" | b"ends_with_string" if args.len() == 1 => {
            return done(
                args[0]
                    .computed_or_unknown()
                    .multiply_by_cost_factor(ST)
                    .add(arg_sum),
                None,
            );
        }
        b"in_list" if args.len() == 2 => {
            return done(
                args[1]
                    .computed_or_unknown()
                    .multiply_by_cost_factor(1.0)
                    .add(arg_sum),
                None,
            );
        }
        b"matches_string" => {
            if let Some(t) = c.target
                && args.len() == 1
            {
                let s = t
                    .computed_or_unknown()
                    .add(SizeEstimate::fixed(1))
                    .multiply_by_cost_factor(ST);
                let r = args[0]
                    .computed_or_unknown()
                    .multiply_by_cost_factor(REGEX_STRING_LENGTH_COST_FACTOR);
                return done(s.multiply(r).add(arg_sum), None);
            }
        }
        b"contains_string" => {
            if let Some(t) = c.target
                && args.len() == 1
            {
                let s = t.computed_or_unknown().multiply_by_cost_factor(ST);
                let sub = args[0].computed_or_unknown().multiply_by_cost_factor(ST);
                return done(s.multiply(sub).add(arg_sum), None);
            }
        }
        b"logical_or" | b"logical_and" if c.arg_costs.len() == 2 => {
            // The right operand may not run.
            let (l, r) = (c.arg_costs[0], c.arg_costs[1]);
            let cost = CostEstimate {
                min: l.min,
                max: l.add(r).max,
            };
            return done(cost, None);
        }
        b"conditional" if args.len() == 3 && c.arg_costs.len() == 3 => {
            let result = args[1]
                .computed_or_unknown()
                .union(args[2].computed_or_unknown());
            let cost = c.arg_costs[0].add(c.arg_costs[1].union(c.arg_costs[2]));
            return CallCost {
                cost,
                size: Some(result),
                entries_of: Some((1, 2)),
            };
        }
        b"add_string" | b"add_bytes" | b"add_list" if args.len() == 2 => {
            let result = args[0]
                .computed_or_unknown()
                .add(args[1].computed_or_unknown());
            let cost = if matches!(o, b"add_list") {
                ONE.add(arg_sum)
            } else {
                result.multiply_by_cost_factor(ST).add(arg_sum)
            };
            return CallCost {
                cost,
                size: Some(result),
                entries_of: Some((0, 1)),
            };
        }
        b"less_string"
        | b"greater_string"
        | b"less_equals_string"
        | b"greater_equals_string"
        | b"less_bytes"
        | b"greater_bytes"
        | b"less_equals_bytes"
        | b"greater_equals_bytes"
        | b"equals"
        | b"not_equals"
            if args.len() == 2 =>
        {
            // Comparison stops at the end of the shorter operand.
            let (a, b) = (
                args[0].computed_or_unknown().max,
                args[1].computed_or_unknown().max,
            );
            let smallest = if a < b { a } else { b };
            let cost = CostEstimate {
                min: (smallest > 0) as u64,
                max: smallest,
            };
            return done(cost.multiply_by_cost_factor(ST).add(arg_sum), None);
        }
        _ => {}
    }
    done(ONE.add(arg_sum), None)
}

/// `a == b` on strings, in a `const fn`.
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
