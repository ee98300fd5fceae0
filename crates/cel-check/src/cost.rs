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
mod decimal;
mod estimate;
pub mod formula;

pub use decimal::{Decimal, fixed_decimal};
pub use estimate::{CostEstimate, EntrySize, SizeEstimate, ceil, floor, mul_factor};

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

/// The declarations of several variables, by name: a path is sized by the declaration of the
/// variable it starts at (for CEL used outside CRD rules, with variables declared from
/// schemas).
impl SizeEstimator for std::collections::BTreeMap<String, DeclType> {
    fn estimate_size(&self, path: &[String], ty: &Type) -> Option<SizeEstimate> {
        self.get(path.first()?)?.estimate_size(path, ty)
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
pub const fn max_cardinality(min_size: i64) -> u64 {
    (MAX_REQUEST_SIZE_BYTES / (min_size + 1)) as u64
}

/// validation.go `multiplyWithOverflowGuard`.
#[must_use]
pub const fn multiply_with_overflow_guard(base: u64, cardinality: u64) -> u64 {
    base.saturating_mul(cardinality)
}

/// What validation.go `getCostErrorMessage` appends to every cost error.
pub const COST_ERROR_HINT: &str = "(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)";

/// The factor by which `cost` exceeds `limit`, as validation.go `getCostErrorMessage` prints
/// it: `None` for `more than 100x`, else the factor and how many decimals to print (6 below
/// 1.5, else 1).
#[must_use]
#[allow(clippy::cast_precision_loss)]
pub const fn exceed_factor(cost: u64, limit: u64) -> Option<(f64, u32)> {
    let factor = cost as f64 / limit as f64;
    if factor > 100.0 {
        None
    } else if factor < 1.5 {
        Some((factor, 6))
    } else {
        Some((factor, 1))
    }
}

/// validation.go `getCostErrorMessage`, e.g. `estimated rule cost exceeds budget by factor of
/// more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength
/// where arrays, maps, and strings are declared)`.
///
/// ```
/// use crdkit_cel_check::cost::cost_error_message;
/// assert_eq!(
///     cost_error_message("estimated rule cost", 15_000_001, 10_000_000),
///     "estimated rule cost exceeds budget by factor of 1.5x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
/// );
/// ```
#[must_use]
pub fn cost_error_message(cost_name: &str, cost: u64, limit: u64) -> String {
    let factor = match exceed_factor(cost, limit) {
        None => "more than 100".to_string(),
        Some((f, decimals)) => fixed_decimal(f, decimals).as_str().to_string(),
    };
    format!("{cost_name} exceeds budget by factor of {factor}x {COST_ERROR_HINT}")
}

/// How many of a CRD's most expensive rules [`TotalCost`] keeps (cel_validation.go).
pub const MOST_EXPENSIVE_RULES: usize = 4;

/// Whether cel_validation.go `ObserveExpressionCost` counts a cost among the most expensive
/// ones: 1% of the CRD limit or more.
#[must_use]
pub const fn is_expensive(cost: u64) -> bool {
    cost >= STATIC_ESTIMATED_CRD_COST_LIMIT / 100
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
        if !is_expensive(cost) {
            return;
        }
        self.most_expensive.push((path, cost));
        self.most_expensive.sort_by_key(|e| std::cmp::Reverse(e.1));
        self.most_expensive.truncate(MOST_EXPENSIVE_RULES);
    }
}
