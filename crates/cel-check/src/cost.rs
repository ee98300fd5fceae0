//! Static cost estimation of CRD rules: cel-go `checker/cost.go` (the estimator over a checked
//! expression) with the overload estimators of cel-go's `ext/sets.go` and `ext/lists.go`,
//! apiserver `pkg/cel/library/cost.go` (`CostEstimator.EstimateCallCost`), the schema size
//! estimator of apiextensions `pkg/apiserver/schema/cel/compilation.go`, and the limits and
//! messages of apiextensions `pkg/apis/apiextensions/validation/validation.go`.
//!
//! Kubernetes configures `PresenceTestHasCost(false)`: `has(x.f)` costs nothing.
//!
//! ```
//! use crdkit_cel_check::{check, cost, decl, env::CheckEnv};
//! use crdkit_cel_check::schema::OpenApiSchema;
//!
//! // A list of unbounded strings: every `contains` may scan a 3 MiB string.
//! let list = OpenApiSchema::array(OpenApiSchema::string());
//! let root = decl::schema_decl_type(&list, false).unwrap();
//! let env = CheckEnv::kubernetes((1, 30)).with_variable("self", root.cel_type());
//! let checked = check::compile("self.all(x, x.contains('a string'))", &env).unwrap();
//! let est = cost::estimate(&checked, Some(&root), env.version);
//! assert!(est.max > cost::STATIC_ESTIMATED_COST_LIMIT);
//! ```

mod call;
mod coster;
mod ext;
mod k8s;

use crate::check::CheckedAst;
use crate::decl::{DeclType, MAX_REQUEST_SIZE_BYTES};
use crate::env::Version;
use crate::types::Type;

/// cel-go `common/cost.go` `StringTraversalCostFactor`.
pub const STRING_TRAVERSAL_COST_FACTOR: f64 = 0.1;
/// cel-go `RegexStringLengthCostFactor`.
pub const REGEX_STRING_LENGTH_COST_FACTOR: f64 = 0.25;
/// cel-go `ListCreateBaseCost`.
pub const LIST_CREATE_BASE_COST: u64 = 10;
/// cel-go `MapCreateBaseCost`.
pub const MAP_CREATE_BASE_COST: u64 = 30;
/// cel-go `StructCreateBaseCost`.
pub const STRUCT_CREATE_BASE_COST: u64 = 40;
/// cel-go `SelectAndIdentCost`.
pub const SELECT_AND_IDENT_COST: u64 = 1;

/// apiserver `PerCallLimit`: the runtime cost limit of one evaluation.
pub const PER_CALL_LIMIT: u64 = 1_000_000;
/// apiserver `RuntimeCELCostBudget`: the runtime budget of all rules of one object.
pub const RUNTIME_CEL_COST_BUDGET: u64 = 10_000_000;
/// validation.go `StaticEstimatedCostLimit`: the largest estimated cost of one rule (times its
/// cardinality) or messageExpression.
pub const STATIC_ESTIMATED_COST_LIMIT: u64 = 10_000_000;
/// validation.go `StaticEstimatedCRDCostLimit`: the largest sum over a CRD's rules.
pub const STATIC_ESTIMATED_CRD_COST_LIMIT: u64 = 100_000_000;

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

/// `ceil(x * y)` saturating at `u64::MAX` (cel-go `multiplyByCostFactor`).
#[allow(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss
)]
fn mul_factor(x: u64, y: f64) -> u64 {
    let xf = x as f64;
    if xf > 0.0 && y > 0.0 && xf > u64::MAX as f64 / y {
        return u64::MAX;
    }
    let c = (xf * y).ceil();
    if c >= 18_446_744_073_709_551_616.0 {
        u64::MAX
    } else {
        c as u64
    }
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
    pub fn add(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    /// The size of a product (`n` lists of `m` elements), saturating.
    #[must_use]
    pub fn multiply(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    /// The cost of traversing a value of this size at `f` per unit, e.g.
    /// [`STRING_TRAVERSAL_COST_FACTOR`] for a string scan; rounds up, saturating.
    #[must_use]
    pub fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: mul_factor(self.min, f),
            max: mul_factor(self.max, f),
        }
    }

    /// The cost of doing `c` once per unit of this size (an element-wise comparison), saturating.
    #[must_use]
    pub fn multiply_by_cost(self, c: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(c.min),
            max: self.max.saturating_mul(c.max),
        }
    }

    /// A size that covers both: the smaller minimum and the larger maximum (the branches of
    /// `_?_:_`).
    #[must_use]
    pub fn union(self, o: SizeEstimate) -> SizeEstimate {
        SizeEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

#[allow(clippy::should_implement_trait)]
impl CostEstimate {
    /// Exactly `n`: a call whose cost does not depend on its arguments.
    #[must_use]
    pub const fn fixed(n: u64) -> CostEstimate {
        CostEstimate { min: n, max: n }
    }

    /// The cost of doing both, saturating.
    #[must_use]
    pub fn add(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_add(o.min),
            max: self.max.saturating_add(o.max),
        }
    }

    /// The cost of doing `self` as many times as `o` says, saturating (a loop body times its
    /// iterations).
    #[must_use]
    pub fn multiply(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.saturating_mul(o.min),
            max: self.max.saturating_mul(o.max),
        }
    }

    /// The cost scaled by `f`, rounded up and saturating.
    #[must_use]
    pub fn multiply_by_cost_factor(self, f: f64) -> CostEstimate {
        CostEstimate {
            min: mul_factor(self.min, f),
            max: mul_factor(self.max, f),
        }
    }

    /// A cost that covers both: the smaller minimum and the larger maximum (the branches of
    /// `_?_:_`).
    #[must_use]
    pub fn union(self, o: CostEstimate) -> CostEstimate {
        CostEstimate {
            min: self.min.min(o.min),
            max: self.max.max(o.max),
        }
    }
}

/// Where the estimator learns the largest size of a value, from its path (`self`, field
/// names, `@items`, `@values`, `@keys`) and type (cel-go `CostEstimator.EstimateSize`).
pub trait SizeEstimator: Sync {
    /// The size of the value at `path` of type `ty`, or `None` when this estimator does not
    /// know it: the cost estimator then assumes [`SizeEstimate::UNKNOWN`] (scalars count 1).
    fn estimate_size(&self, path: &[String], ty: &Type) -> Option<SizeEstimate>;
}

/// compilation.go `sizeEstimator`: the declared maximum of the schema node at the path (whose
/// first element, `self` or `oldSelf`, is this declaration).
impl SizeEstimator for DeclType {
    #[allow(clippy::cast_sign_loss)]
    fn estimate_size(&self, path: &[String], _ty: &Type) -> Option<SizeEstimate> {
        if path.is_empty() {
            return None;
        }
        let mut current = self;
        for name in &path[1..] {
            current = match name.as_str() {
                "@items" | "@values" => current.elem()?,
                "@keys" => current.key()?,
                field => &current.field(field)?.ty,
            };
        }
        Some(SizeEstimate {
            min: 0,
            max: current.max_elements as u64,
        })
    }
}

/// The estimated cost of a checked rule, as the API server computes it at CRD admission:
/// sizes come from `sizes` (for a rule, the declaration of its schema node), extension
/// estimators from the libraries of Kubernetes `version`.
#[must_use]
pub fn estimate(
    checked: &CheckedAst,
    sizes: Option<&dyn SizeEstimator>,
    version: Version,
) -> CostEstimate {
    crate::check::walk::with_stack(&checked.ast, || {
        coster::Coster::new(checked, sizes, version).run()
    })
}

/// compilation.go `maxCardinality`: how often a value whose smallest serialization is
/// `min_size` bytes can occur in one request.
#[must_use]
#[allow(clippy::cast_sign_loss)]
pub fn max_cardinality(min_size: i64) -> u64 {
    (MAX_REQUEST_SIZE_BYTES / (min_size + 1)) as u64
}

/// validation.go `multiplyWithOverflowGuard`.
#[must_use]
pub fn multiply_with_overflow_guard(base: u64, cardinality: u64) -> u64 {
    base.saturating_mul(cardinality)
}

/// validation.go `getCostErrorMessage`, e.g. `estimated rule cost exceeds budget by factor of
/// more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength
/// where arrays, maps, and strings are declared)`.
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub fn cost_error_message(cost_name: &str, cost: u64, limit: u64) -> String {
    let factor = cost as f64 / limit as f64;
    let factor = if factor > 100.0 {
        "more than 100x".to_string()
    } else if factor < 1.5 {
        format!("{factor:.6}x")
    } else {
        format!("{factor:.1}x")
    };
    format!(
        "{cost_name} exceeds budget by factor of {factor} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
    )
}

/// cel_validation.go `TotalCost`: the sum of a CRD's estimated rule costs and its (up to 4)
/// most expensive rules, counting only those above 1% of the CRD limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TotalCost<P = String> {
    /// The sum of all observed costs, saturating.
    pub total: u64,
    /// `(path, cost)`, most expensive first.
    pub most_expensive: Vec<(P, u64)>,
}

impl<P> Default for TotalCost<P> {
    fn default() -> Self {
        TotalCost {
            total: 0,
            most_expensive: Vec::new(),
        }
    }
}

impl<P> TotalCost<P> {
    /// `ObserveExpressionCost`.
    pub fn observe(&mut self, path: P, cost: u64) {
        self.total = self.total.saturating_add(cost);
        if cost < STATIC_ESTIMATED_CRD_COST_LIMIT / 100 {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(4);
    }
}
