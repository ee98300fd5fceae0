//! The front door: an [`Env`] of declared variables in a Kubernetes version's environment,
//! [`Env::compile`] (parse, type-check, estimate the cost, plan), and [`Compiled::eval`]
//! within a cost budget. It strings together, as cel-go's `cel.Env.Compile`, `Env.Program` and
//! `Program.Eval` do, the parts that also stand alone: [`check`](mod@crate::check),
//! [`crate::cost`] and [`crate::eval`].

use std::collections::BTreeMap;
use std::fmt;

use crate::check::{CheckErrors, CheckedAst};
use crate::cost::{self, CostEstimate};
use crate::decl::{DeclType, schema_decl_type};
use crate::env::{CheckEnv, DEFAULT_COMPATIBILITY_VERSION, Version};
use crate::eval::{self, Activation, CompileOptions, CostTracker, EvalError, Program, Value};
use crate::schema::Schema;
use crate::types::Type;

/// A Kubernetes CEL environment: the libraries of one Kubernetes version
/// (apiserver `pkg/cel/environment/base.go`) and the variables expressions may use.
///
/// ```
/// use crdkit_cel::{Env, Type};
///
/// let env = Env::kubernetes((1, 30)).variable("replicas", Type::Int);
/// let err = env.compile("replicas == true").unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "ERROR: <input>:1:10: found no matching overload for '_==_' applied to '(int, bool)'\n | replicas == true\n | .........^"
/// );
/// // `ip()` arrived in Kubernetes 1.30.
/// assert!(Env::kubernetes((1, 29)).compile("ip('10.0.0.1').family() == 4").is_err());
/// ```
#[derive(Clone, Debug)]
pub struct Env {
    check: CheckEnv,
    /// The declarations of the variables declared from schemas, for the cost estimator.
    decls: BTreeMap<String, DeclType>,
    /// Declarations as the schemas gave them (objects unnamed), with their named form: a
    /// variable declared from an equal schema shares the type.
    shared: Vec<(DeclType, DeclType)>,
}

impl Default for Env {
    /// [`Env::kubernetes`] of [`DEFAULT_COMPATIBILITY_VERSION`], the version the API server
    /// compiles new expressions with.
    fn default() -> Self {
        Env::kubernetes(DEFAULT_COMPATIBILITY_VERSION)
    }
}

impl Env {
    /// The environment of Kubernetes `version` (`(1, 31)`), without variables: the functions,
    /// macros and language options that version's API server enables (the table of
    /// [`env`](crate::env)); a version after [`NEWEST_VERSION`](crate::env::NEWEST_VERSION) has
    /// the newest's.
    #[must_use]
    pub fn kubernetes(version: Version) -> Env {
        Env {
            check: CheckEnv::kubernetes(version),
            decls: BTreeMap::new(),
            shared: Vec::new(),
        }
    }

    /// The Kubernetes version whose libraries are declared.
    #[must_use]
    pub fn version(&self) -> Version {
        self.check.version
    }

    /// Declares (or redeclares) the variable `name`, of a CEL type or of the type an OpenAPI
    /// schema declares (see [`VariableType`]).
    ///
    /// ```
    /// use crdkit_cel::{Env, Type, schema::OpenApiSchema};
    ///
    /// let spec = OpenApiSchema::object().with_property("replicas", OpenApiSchema::integer());
    /// let env = Env::kubernetes((1, 31))
    ///     .variable("self", &spec)
    ///     .variable("oldSelf", &spec)
    ///     .variable("max", Type::Int);
    /// assert!(env.compile("self == oldSelf || self.replicas <= max").is_ok());
    /// ```
    #[must_use]
    pub fn variable(mut self, name: &str, ty: impl Into<VariableType>) -> Env {
        let VariableType {
            ty,
            decl,
            optional,
            type_name,
        } = ty.into();
        let ty = match decl {
            Some(decl) => {
                let named =
                    self.name_types(decl, type_name.unwrap_or_else(|| format!("{name}Type")));
                let t = named.cel_type();
                self.decls.insert(name.to_string(), named);
                t
            }
            None => {
                self.decls.remove(name);
                ty
            }
        };
        let ty = if optional { Type::optional(ty) } else { ty };
        self.check.variables.insert(name.to_string(), ty);
        self
    }

    /// The named form of a schema's declaration: that of an equal declaration made before, or
    /// `decl` with its objects named after `root` (apiserver `MaybeAssignTypeName`).
    fn name_types(&mut self, decl: DeclType, root: String) -> DeclType {
        if let Some((_, named)) = self.shared.iter().find(|(d, _)| *d == decl) {
            return named.clone();
        }
        let mut named = decl.clone();
        named.assign_type_names(&root);
        self.shared.push((decl, named.clone()));
        named
    }

    /// The type-checker's view of this environment, for the lower-level functions of
    /// [`check`](crate::check).
    #[must_use]
    pub fn check_env(&self) -> &CheckEnv {
        &self.check
    }

    /// Parses, type-checks, estimates the cost of and plans `src` (cel-go `Env.Compile`, then
    /// `Env.Program` with Kubernetes' program options).
    ///
    /// # Errors
    ///
    /// [`CompileError::Check`] with the syntax or type errors as cel-go prints them, or
    /// [`CompileError::Program`] for what the planner rejects (an invalid constant regular
    /// expression, nesting deeper than the evaluator supports).
    pub fn compile(&self, src: &str) -> Result<Compiled, CompileError> {
        let checked = crate::check::compile(src, &self.check)?;
        let cost = cost::estimate(&checked, Some(&self.decls), self.check.version);
        let opts = CompileOptions {
            variables: self.check.variables.keys().cloned().collect(),
            k8s_version: self.check.version,
            ..CompileOptions::default()
        };
        let program = Program::compile_checked(&checked, &opts)?;
        Ok(Compiled {
            checked,
            program,
            cost,
        })
    }
}

/// The type of a variable: a CEL [`Type`], or the type an OpenAPI schema declares, which also
/// gives the cost estimator the sizes of its strings, lists and maps (`maxLength`, `maxItems`,
/// `maxProperties`), as for the `self` of a CRD rule.
///
/// A schema's objects are CEL object types named after the variable (`selfType`,
/// `selfType.spec`), unless [`VariableType::named`] says otherwise; variables declared with
/// equal schemas share one type, so that `self == oldSelf` checks. A schema CEL cannot see (no
/// `type`, not int-or-string) declares `dyn`.
///
/// ```
/// use crdkit_cel::{Env, VariableType, schema::OpenApiSchema};
///
/// let spec = OpenApiSchema::object().with_property("replicas", OpenApiSchema::integer());
/// let env = Env::default()
///     .variable("self", VariableType::schema(&spec).named("Spec"))
///     // As `oldSelf` with `optionalOldSelf: true`: absent on create.
///     .variable("oldSelf", VariableType::schema(&spec).optional());
/// assert!(env.compile("self.replicas >= oldSelf.orValue(self).replicas").is_ok());
/// let err = env.compile("self == 1").unwrap_err();
/// assert!(err.to_string().contains("applied to '(Spec, int)'"), "{err}");
/// ```
#[derive(Clone, Debug)]
pub struct VariableType {
    ty: Type,
    decl: Option<DeclType>,
    optional: bool,
    type_name: Option<String>,
}

impl VariableType {
    /// The type `schema` declares (apiserver `SchemaDeclType`).
    #[must_use]
    pub fn schema(schema: &dyn Schema) -> VariableType {
        VariableType::from_decl(schema_decl_type(schema, false))
    }

    /// The type `schema` declares for the root of a resource: `apiVersion`, `kind` and
    /// `metadata` (`name`, `generateName`) are declared whatever the schema says (apiextensions
    /// `WithTypeAndObjectMeta`); bind the value with
    /// [`Activation::bind_resource`].
    #[must_use]
    pub fn resource(schema: &dyn Schema) -> VariableType {
        VariableType::from_decl(schema_decl_type(schema, true))
    }

    fn from_decl(decl: Option<DeclType>) -> VariableType {
        VariableType {
            ty: Type::Dyn,
            decl,
            optional: false,
            type_name: None,
        }
    }

    /// `optional_type(T)` of this type, as `oldSelf` of a rule with `optionalOldSelf: true`
    /// (sizes are those of `T`).
    #[must_use]
    pub fn optional(mut self) -> VariableType {
        self.optional = true;
        self
    }

    /// Names the schema's object types after `name` (`name`, `name.spec`, ...) rather than
    /// after the variable.
    #[must_use]
    pub fn named(mut self, name: &str) -> VariableType {
        self.type_name = Some(name.to_string());
        self
    }
}

impl From<Type> for VariableType {
    fn from(ty: Type) -> VariableType {
        VariableType {
            ty,
            decl: None,
            optional: false,
            type_name: None,
        }
    }
}

impl<S: Schema> From<&S> for VariableType {
    fn from(schema: &S) -> VariableType {
        VariableType::schema(schema)
    }
}

/// A compiled expression: checked, costed and planned; evaluate it as often as needed
/// (`Send + Sync`).
#[derive(Debug)]
pub struct Compiled {
    checked: CheckedAst,
    program: Program,
    cost: CostEstimate,
}

impl Compiled {
    /// The type of the expression's value (a CRD rule must be `bool`).
    #[must_use]
    pub fn output_type(&self) -> &Type {
        self.checked.output_type()
    }

    /// The estimated cost of one evaluation, as the API server estimates it when a CRD or
    /// policy is written: compare `max` with
    /// [`STATIC_ESTIMATED_COST_LIMIT`](crate::cost::STATIC_ESTIMATED_COST_LIMIT).
    ///
    /// ```
    /// use crdkit_cel::{Env, cost::STATIC_ESTIMATED_COST_LIMIT, schema::OpenApiSchema};
    ///
    /// // Every `contains` may scan a string of 3 MiB...
    /// let names = OpenApiSchema::array(OpenApiSchema::string());
    /// let env = Env::kubernetes((1, 31)).variable("self", &names);
    /// let rule = env.compile("self.all(x, x.contains('a string'))").unwrap();
    /// assert!(rule.cost_estimate().max > STATIC_ESTIMATED_COST_LIMIT);
    ///
    /// // ... unless the schema bounds the sizes.
    /// let names = OpenApiSchema::array(OpenApiSchema::string().with_max_length(64)).with_max_items(10);
    /// let env = Env::kubernetes((1, 31)).variable("self", &names);
    /// let rule = env.compile("self.all(x, x.contains('a string'))").unwrap();
    /// // 10 × (the scan: ⌈256 bytes × 0.1⌉ × ⌈8 × 0.1⌉, and 4 for the loop) + 2
    /// assert_eq!(rule.cost_estimate().max, 302);
    /// ```
    #[must_use]
    pub fn cost_estimate(&self) -> CostEstimate {
        self.cost
    }

    /// Evaluates with the variables of `activation`; the actual cost is charged to `budget`,
    /// which cancels the evaluation past its per-call limit or its remaining budget.
    ///
    /// ```
    /// use crdkit_cel::{Activation, CostTracker, Env, Type, Value};
    ///
    /// let env = Env::kubernetes((1, 31)).variable("names", Type::list(Type::String));
    /// let rule = env.compile("names.all(n, n.size() < 10)").unwrap();
    /// let names = serde_json::json!(["a", "bb"]);
    /// let activation = Activation::new().bind("names", &names);
    ///
    /// let mut budget = CostTracker::kubernetes();
    /// assert_eq!(rule.eval(&activation, &mut budget).unwrap(), Value::Bool(true));
    /// // `names`, then per element `n`, `size`, `<` and the loop's two steps, then the result.
    /// assert_eq!(budget.actual_cost(), 14);
    ///
    /// // A per-call limit of 5 cancels it.
    /// let mut small = CostTracker::new(Some(5), None);
    /// let err = rule.eval(&activation, &mut small).unwrap_err();
    /// assert_eq!(err.to_string(), "operation cancelled: actual cost limit exceeded");
    /// ```
    ///
    /// # Errors
    ///
    /// An [`EvalError`] for a run-time error (`no such key`, an overflow, a value that does not
    /// match its schema) or a cancelled evaluation.
    pub fn eval<'a>(
        &'a self,
        activation: &Activation<'a>,
        budget: &mut CostTracker,
    ) -> Result<Value<'a>, EvalError> {
        self.program.eval(activation, budget)
    }

    /// The checked expression (types and references of every node).
    #[must_use]
    pub fn checked(&self) -> &CheckedAst {
        &self.checked
    }

    /// The planned program.
    #[must_use]
    pub fn program(&self) -> &Program {
        &self.program
    }
}

/// Why [`Env::compile`] failed.
#[derive(Debug)]
#[non_exhaustive]
pub enum CompileError {
    /// Syntax or type errors; `Display` is cel-go's
    /// (`ERROR: <input>:1:6: undeclared reference to 'x' (in container '')` with a snippet).
    Check(CheckErrors),
    /// What the planner rejects: an invalid constant regular expression, nesting deeper than the
    /// evaluator supports.
    Program(eval::CompileError),
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CompileError::Check(e) => fmt::Display::fmt(e, f),
            CompileError::Program(e) => fmt::Display::fmt(e, f),
        }
    }
}

impl std::error::Error for CompileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            CompileError::Check(e) => Some(e),
            CompileError::Program(e) => Some(e),
        }
    }
}

impl From<CheckErrors> for CompileError {
    fn from(e: CheckErrors) -> CompileError {
        CompileError::Check(e)
    }
}

impl From<eval::CompileError> for CompileError {
    fn from(e: eval::CompileError) -> CompileError {
        CompileError::Program(e)
    }
}
