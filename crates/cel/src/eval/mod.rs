//! The CEL evaluator: compiles a parsed expression once into a [`Program`] and evaluates it
//! many times against an [`Activation`], tracking the actual cost as cel-go does. Mirrors
//! cel-go `cel/program.go` with the Kubernetes program options of apiserver
//! `pkg/cel/environment/base.go`: `OptOptimize`, `OptTrackCost`, `CostLimit(PerCallLimit)`,
//! `PresenceTestHasCost(false)`.
//!
//! ```
//! use crdkit_cel::eval::{Activation, CompileOptions, CostTracker, Program};
//! use crdkit_cel::schema::OpenApiSchema;
//!
//! let ast = crdkit_cel::parse("self.replicas <= self.max && self.name.startsWith('my-')").unwrap();
//! let program = Program::compile(&ast, &CompileOptions::default()).unwrap();
//!
//! let schema = OpenApiSchema::object()
//!     .with_property("replicas", OpenApiSchema::integer())
//!     .with_property("max", OpenApiSchema::integer())
//!     .with_property("name", OpenApiSchema::string());
//! let object = serde_json::json!({"replicas": 3, "max": 5, "name": "my-app"});
//!
//! let activation = Activation::new().bind_json("self", &object, &schema);
//! let mut cost = CostTracker::kubernetes();
//! let result = program.eval(&activation, &mut cost).unwrap();
//! assert_eq!(result.as_bool(), Some(true));
//! assert_eq!(cost.actual_cost(), 8);
//! ```
//!
//! # Public API
//!
//! - [`Program::compile`]`(&Ast, &CompileOptions) -> Result<Program, CompileError>` and
//!   [`Program::eval`]`(&Activation, &mut CostTracker) -> Result<Value, EvalError>`;
//! - [`Activation`]: [`bind`](Activation::bind), [`bind_json`](Activation::bind_json) (a lazy,
//!   schema-aware view), [`bind_resource`](Activation::bind_resource) (root or embedded
//!   resource: `apiVersion`, `kind`, `metadata.name`/`generateName`),
//!   [`bind_optional_json`](Activation::bind_optional_json) (`optionalOldSelf`);
//! - [`CostTracker`]: per-call limit, remaining budget, [`actual_cost`](CostTracker::actual_cost).
//!
//! # How costs are charged
//!
//! As cel-go's `CostObserver` with Kubernetes' `PresenceTestHasCost(false)`: 1 per evaluated
//! attribute (`self`, `x`) and per qualifier (`.f`, `[i]`), nothing for `&&`, `||`, `?:` and
//! constants (literal lists, maps and conversions of constants are folded as `OptOptimize`
//! does), 10 per list and 30 per map literal, and per call the cel-go or apiserver
//! `library/cost.go` formula. The tables of apiextensions `celcoststability_test.go` pass
//! unchanged (`tests/cel_eval.rs`).
//!
//! # Differences from cel-go
//!
//! - [`Program::compile`] (a parsed-only expression) resolves overloads from run-time types and
//!   charges by them; [`Program::compile_checked`] follows the checker's overloads as cel-go
//!   does (a call on `dyn` operands the checker could not narrow costs 1, `sum()` of an empty
//!   list is the zero of the checked element type).
//! - Where two or three steps are charged together (an int comparison of two variables), a
//!   cancelled evaluation reports a cost up to 2 higher than cel-go's.
//! - JSON objects are iterated in key order (Go: random order).
//! - Regular expressions are Go's (`crdkit-regexp`: Go's parser and messages, ASCII `\d`, `\w`,
//!   `\s`, `\b`, Go's `FindString`/`FindAllString`) matched by Rust's `regex` crate, which is
//!   leftmost-first as Go is.
//! - IP parse-error texts approximate Go's `netip`; quantities are exact up to 38 significant
//!   digits (Go: arbitrary precision).
//! - Time zones come from the IANA database bundled in `jiff`.

mod activation;
mod attr;
mod compile;
mod cx;
mod fast;
mod fold;
mod interp;
mod node;
mod overload;
mod plan;
mod resolve;
mod tracker;

pub use activation::Activation;
pub use tracker::CostTracker;

pub use crate::value::{COST_LIMIT_MESSAGE, EvalError, EvalErrorKind, EvalResult, Value};
use std::cell::Cell;
use std::sync::Arc;

use crate::Ast;
use crate::check::CheckedAst;
use crate::library::Env;
use crate::schema::{Schema, address};

pub use crate::cost::{PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET};
/// An error found while compiling a parsed expression into a [`Program`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CompileError {
    /// cel-go's planner or checker wording, e.g. `undeclared reference to 'foo' (in container '')`.
    pub message: String,
}

impl CompileError {
    pub(crate) fn new(message: impl Into<String>) -> CompileError {
        CompileError {
            message: message.into(),
        }
    }
}

/// The newest Kubernetes version whose CEL environment is known (`base.go`).
pub const CURRENT_K8S_VERSION: (u32, u32) = crate::env::NEWEST_VERSION;

/// Nesting up to which evaluation runs on the caller's stack.
const INLINE_DEPTH: usize = 48;
/// Stack for evaluating deeply nested programs.
const DEEP_STACK: usize = 512 << 20;
/// Programs nested deeper than this are refused.
const MAX_DEPTH: usize = 12_000;
/// Comprehension variables held on the stack during evaluation.
const SMALL_LOCALS: usize = 8;
/// Memo slots of resolved field chains held on the stack during evaluation.
const SMALL_MEMOS: usize = 4;

/// How to compile.
#[derive(Clone, Debug)]
pub struct CompileOptions {
    /// The variables an activation may bind (`self`, `oldSelf` for CRD rules). Dotted names
    /// (`a.b.c`) are matched as cel-go matches qualified identifiers.
    pub variables: Vec<String>,
    /// The Kubernetes version whose environment applies: functions introduced later are
    /// undeclared (apiserver `environment/base.go`).
    pub k8s_version: (u32, u32),
    /// cel-go `OptOptimize`: fold constant literals and conversions, precompile constant
    /// regexes, turn `x in [constants]` into a set lookup. Kubernetes enables it, and it
    /// changes the cost (a folded literal costs nothing).
    pub optimize: bool,
    /// cel-go `EnableErrorOnBadPresenceTest`: `has(x.f)` and `x.?f` on a value that has no
    /// fields is an error rather than false. Off in Kubernetes; on in cel-go's conformance runs.
    pub error_on_bad_presence_test: bool,
    /// The schema the variables (`self`, `oldSelf`) will be bound to with
    /// [`Activation::bind_json`]: selections of its declared integer and string properties are
    /// resolved once, and read straight from the JSON when a variable is bound to a view of
    /// this very schema (any other binding takes the general path, with the same results).
    pub self_schema: Option<Arc<dyn Schema>>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            variables: vec!["self".into(), "oldSelf".into()],
            k8s_version: CURRENT_K8S_VERSION,
            optimize: true,
            error_on_bad_presence_test: false,
            self_schema: None,
        }
    }
}

/// Evaluates the root of a program without comprehensions: a boolean result (most rules) is
/// returned without building a [`Value`] in between.
#[inline]
fn eval_root<'a>(root: &'a node::Node, cx: &mut cx::Cx<'a, '_>) -> EvalResult<'a> {
    match root.eval_bool(cx) {
        Ok(b) => Ok(Value::Bool(b)),
        Err(r) => r,
    }
}

/// The schema a program was compiled for: its address (compared with the schemas of bound
/// views) and what keeps it alive, so the address cannot be reused by another schema.
struct Anchor {
    address: usize,
    _keep: Arc<dyn std::any::Any + Send + Sync>,
}

impl std::fmt::Debug for Anchor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Anchor({:#x})", self.address)
    }
}

/// A compiled expression, ready to be evaluated many times (`Send + Sync`).
#[derive(Debug)]
pub struct Program {
    root: node::Node,
    variables: Vec<String>,
    max_locals: usize,
    depth: usize,
    error_on_bad_presence_test: bool,
    env: Env,
    anchor: Option<Anchor>,
    /// Memo slots of resolved chains selected more than once.
    memos: usize,
}

impl std::fmt::Debug for node::Node {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Node")
    }
}

impl Program {
    /// Compiles a parsed expression. Overloads are chosen from run-time types, and calls are
    /// charged from them: prefer [`Program::compile_checked`] for type-checked expressions.
    ///
    /// # Errors
    ///
    /// A [`CompileError`] for what cel-go's planner rejects, such as a function the chosen
    /// Kubernetes version does not declare yet, a message (struct) literal, an invalid constant
    /// regular expression, or nesting deeper than the evaluator supports.
    pub fn compile(ast: &Ast, opts: &CompileOptions) -> Result<Program, CompileError> {
        Program::plan(ast, None, opts, Program::anchor_of(opts))
    }

    /// Compiles a type-checked expression as cel-go plans a checked AST: a call the checker
    /// resolved to one overload runs that overload (`sum()` of an empty `list(duration)` is
    /// `duration('0')`) and is charged by it; a call it left to dynamic dispatch (operands typed
    /// `dyn`: int-or-string, preserved unknown fields) costs 1 unless the Kubernetes cost
    /// estimator prices the function by name.
    ///
    /// ```
    /// use crdkit_cel::{check, env::CheckEnv, types::Type};
    /// use crdkit_cel::eval::{Activation, CompileOptions, CostTracker, Program, Value};
    ///
    /// let env = CheckEnv::kubernetes((1, 30)).with_variable("self", Type::Dyn);
    /// let checked = check::compile("self < 'abcdefghijklmnopqrstuvwxyz'", &env).unwrap();
    /// let program = Program::compile_checked(&checked, &CompileOptions::default()).unwrap();
    /// let activation = Activation::new().bind("self", Value::from("abcdefghijklmnopqrstuvwxyy"));
    /// let mut cost = CostTracker::kubernetes();
    /// assert_eq!(program.eval(&activation, &mut cost).unwrap().as_bool(), Some(true));
    /// // `self` (1) and `less_string` on 26 characters (3): the checker's one overload.
    /// assert_eq!(cost.actual_cost(), 4);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Program::compile`].
    pub fn compile_checked(
        checked: &CheckedAst,
        opts: &CompileOptions,
    ) -> Result<Program, CompileError> {
        Program::plan(&checked.ast, Some(checked), opts, Program::anchor_of(opts))
    }

    /// [`Program::compile_checked`] for variables bound to views of `node`, a schema node
    /// inside `root` (which the program keeps alive).
    pub fn compile_checked_within(
        checked: &CheckedAst,
        opts: &CompileOptions,
        root: Arc<dyn std::any::Any + Send + Sync>,
        node: &dyn Schema,
    ) -> Result<Program, CompileError> {
        Program::plan(&checked.ast, Some(checked), opts, Some((node, root)))
    }

    fn anchor_of(
        opts: &CompileOptions,
    ) -> Option<(&dyn Schema, Arc<dyn std::any::Any + Send + Sync>)> {
        opts.self_schema.as_ref().map(|s| {
            let keep: Arc<dyn std::any::Any + Send + Sync> = Arc::new(s.clone());
            (&**s, keep)
        })
    }

    fn plan(
        ast: &Ast,
        checked: Option<&CheckedAst>,
        opts: &CompileOptions,
        anchor: Option<(&dyn Schema, Arc<dyn std::any::Any + Send + Sync>)>,
    ) -> Result<Program, CompileError> {
        let env = Env::new();
        let (root, max_locals, memos) = {
            let mut p =
                compile::Planner::new(ast, &opts.variables, opts.k8s_version, opts.optimize, &env);
            p.checked = checked;
            let mut root = p.plan(ast.root)?;
            root.simplify();
            let memos = match &anchor {
                Some((schema, _)) => resolve::resolve_fields(&mut root, *schema),
                None => 0,
            };
            (root, p.max_locals, memos)
        };
        let depth = root.depth();
        if depth > MAX_DEPTH {
            return Err(CompileError::new(format!(
                "expression nesting exceeds limit: depth {depth}, limit {MAX_DEPTH}"
            )));
        }
        Ok(Program {
            root,
            variables: opts.variables.clone(),
            max_locals,
            depth,
            error_on_bad_presence_test: opts.error_on_bad_presence_test,
            env,
            memos,
            anchor: anchor.map(|(schema, keep)| Anchor {
                address: address(schema),
                _keep: keep,
            }),
        })
    }

    /// Parses and compiles with the default options.
    ///
    /// # Errors
    ///
    /// A [`CompileError`] with the parse errors, or as [`Program::compile`].
    pub fn compile_str(src: &str) -> Result<Program, CompileError> {
        let ast = crate::parse(src).map_err(|e| CompileError::new(e.to_string()))?;
        Program::compile(&ast, &CompileOptions::default())
    }

    /// Evaluates with the given variables; the actual cost is recorded in `cost` (also when
    /// evaluation fails or is cancelled).
    ///
    /// # Errors
    ///
    /// An [`EvalError`] (see [`EvalErrorKind`]) for a run-time error such as `no such
    /// overload`, a missing key or an overflow, or once the actual cost exceeds `cost`'s limit.
    pub fn eval<'a>(
        &'a self,
        activation: &Activation<'a>,
        cost: &mut CostTracker,
    ) -> Result<Value<'a>, EvalError> {
        let (r, actual) = match &*self.variables {
            // The usual bindings (`self`, `oldSelf`), without allocation.
            [a] => self.eval_with(&[activation.lookup(a)], cost),
            [a, b] => self.eval_with(&[activation.lookup(a), activation.lookup(b)], cost),
            names => {
                let vars: Vec<_> = names.iter().map(|n| activation.lookup(n)).collect();
                self.eval_with(&vars, cost)
            }
        };
        cost.record(actual);
        r
    }

    /// Evaluates with the variables looked up: the result and the actual cost. (Inlined into
    /// [`Program::eval`], so that the result is built where it is returned.)
    #[inline(always)]
    fn eval_with<'a>(
        &'a self,
        vars: &[Option<&EvalResult<'a>>],
        cost: &CostTracker,
    ) -> (EvalResult<'a>, u64) {
        let limit = cost.limit();
        let presence = cost.presence_test_has_cost;
        if self.depth > INLINE_DEPTH {
            return self.run_deep(vars, limit, presence);
        }
        self.run(vars, limit, presence)
    }

    /// Runs a deeply nested program on a thread with a large stack.
    #[cold]
    #[inline(never)]
    fn run_deep<'a>(
        &'a self,
        vars: &[Option<&EvalResult<'a>>],
        limit: u64,
        presence: bool,
    ) -> (EvalResult<'a>, u64) {
        std::thread::scope(|s| {
            let spawned = std::thread::Builder::new()
                .stack_size(DEEP_STACK)
                .spawn_scoped(s, || self.run(vars, limit, presence));
            match spawned {
                Ok(h) => h.join().unwrap_or_else(|_| {
                    (
                        Err(EvalError::other("internal error: evaluation panicked")),
                        0,
                    )
                }),
                Err(_) => (
                    Err(EvalError::other(
                        "internal error: no thread for deep evaluation",
                    )),
                    0,
                ),
            }
        })
    }

    /// Runs the program on this thread.
    #[inline(always)]
    fn run<'a>(
        &'a self,
        vars: &[Option<&EvalResult<'a>>],
        limit: u64,
        presence_test_cost: bool,
    ) -> (EvalResult<'a>, u64) {
        let small_memos: [Cell<Option<&serde_json::Value>>; SMALL_MEMOS] = Default::default();
        let large_memos: Vec<Cell<Option<&serde_json::Value>>>;
        let memos = if self.memos <= SMALL_MEMOS {
            &small_memos[..self.memos]
        } else {
            large_memos = vec![Cell::new(None); self.memos];
            &large_memos
        };
        let mut cx = cx::Cx {
            vars,
            names: &self.variables,
            locals: &mut [],
            env: &self.env,
            cost: 0,
            limit,
            presence_test_cost,
            error_on_bad_presence_test: self.error_on_bad_presence_test,
            anchor: self.anchor.as_ref().map_or(0, |a| a.address),
            memos,
        };
        // Comprehension variables live on the stack unless there are many.
        let r = match self.max_locals {
            0 => eval_root(&self.root, &mut cx),
            n if n <= SMALL_LOCALS => {
                let mut small: [EvalResult<'a>; SMALL_LOCALS] =
                    [const { Ok(Value::Null) }; SMALL_LOCALS];
                let mut cx = cx::Cx {
                    locals: &mut small[..n],
                    ..cx
                };
                let r = self.root.eval(&mut cx);
                return (r, cx.cost);
            }
            n => {
                let mut large = vec![Ok(Value::Null); n];
                let mut cx = cx::Cx {
                    locals: &mut large,
                    ..cx
                };
                let r = self.root.eval(&mut cx);
                return (r, cx.cost);
            }
        };
        (r, cx.cost)
    }

    /// The variables the program was compiled with.
    #[must_use]
    pub fn variables(&self) -> &[String] {
        &self.variables
    }
}
