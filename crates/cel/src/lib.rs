//! Kubernetes CEL: cel-go's parser, type checker and cost estimator ([`crdkit_cel_check`],
//! re-exported here) with the evaluator and the Kubernetes libraries, as the API server runs
//! them, usable without CRDs: declare variables ([`Env`]), compile (parse and type-check in a
//! Kubernetes version's environment, estimate the cost: [`Compiled`]), evaluate within a cost
//! budget ([`Compiled::eval`] with an [`Activation`] and a [`CostTracker`]).
//!
//! ```
//! use crdkit_cel::schema::OpenApiSchema;
//! use crdkit_cel::{Activation, CostTracker, Env, Type, Value};
//!
//! // `self` of the type a schema declares, and a variable of a CEL type.
//! let schema = OpenApiSchema::object()
//!     .with_property("replicas", OpenApiSchema::integer())
//!     .with_property(
//!         "ports",
//!         OpenApiSchema::array(OpenApiSchema::integer()).with_max_items(16),
//!     );
//! let env = Env::kubernetes((1, 31))
//!     .variable("self", &schema)
//!     .variable("reserved", Type::list(Type::Int));
//!
//! // Compile: parse, type-check, estimate the cost. Nothing bounds a variable of a CEL type,
//! // so `p in reserved` may scan a list of any length, 16 times: too expensive for a CRD.
//! let rule = env.compile("self.replicas > 0 && self.ports.all(p, !(p in reserved))")?;
//! assert_eq!(rule.output_type(), &Type::Bool);
//! assert!(rule.cost_estimate().max > crdkit_cel::cost::STATIC_ESTIMATED_COST_LIMIT);
//!
//! // Declared from a schema, its size is bounded, and so is the cost.
//! let reserved = OpenApiSchema::array(OpenApiSchema::integer()).with_max_items(4);
//! let env = env.variable("reserved", &reserved);
//! let rule = env.compile("self.replicas > 0 && self.ports.all(p, !(p in reserved))")?;
//! assert_eq!(rule.cost_estimate().max, 166);
//!
//! // Evaluate: JSON read through its schema, a plain value, the API server's cost limits.
//! let object = serde_json::json!({"replicas": 2, "ports": [80, 443]});
//! let activation = Activation::new()
//!     .bind_json("self", &object, &schema)
//!     .bind("reserved", vec![22, 25]);
//! let mut budget = CostTracker::kubernetes();
//! assert_eq!(rule.eval(&activation, &mut budget)?, Value::Bool(true));
//! assert!(budget.actual_cost() > 0);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The parts stand alone too: [`parse`], [`check::compile`](fn@check::compile) (types and references of every
//! node), [`cost::estimate`] (with any [`cost::SizeEstimator`]), [`eval::Program`], and
//! [`rule::compile_rule`], which compiles an `x-kubernetes-validations` rule with
//! `self` and `oldSelf` as apiextensions' `compilation.go` does. The environment of each
//! Kubernetes version is described in [`env`](mod@env).
//!
//! This crate depends on the CRD model in no way: a schema is anything that implements
//! [`schema::Schema`]; [`schema::OpenApiSchema`] builds one in code.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub use crdkit_cel_check::*;

mod api;
pub mod eval;
pub mod library;
pub mod value;

pub use api::{CompileError, Compiled, Env, VariableType};
pub use crdkit_cel_check::types::Type;
pub use eval::{Activation, CostTracker, EvalError};
pub use value::Value;

// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
