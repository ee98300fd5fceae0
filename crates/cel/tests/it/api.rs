//! The front door (`Env`, `Compiled`): what it declares, how it costs and what it evaluates,
//! checked against the parts it strings together (the CRD rule compilation of
//! `check::compile`, the estimator, the evaluator).

use crdkit_cel::cost::PER_CALL_LIMIT;
use crdkit_cel::decl::schema_decl_type;
use crdkit_cel::env::DEFAULT_COMPATIBILITY_VERSION;
use crdkit_cel::eval::EvalErrorKind;
use crdkit_cel::rule::{RuleOptions, RuleSource, compile_rule};
use crdkit_cel::schema::OpenApiSchema;
use crdkit_cel::{Activation, CompileError, CostTracker, Env, Type, Value, VariableType};
use serde_json::json;

fn spec() -> OpenApiSchema {
    OpenApiSchema::object()
        .with_property("replicas", OpenApiSchema::integer())
        .with_property("name", OpenApiSchema::string().with_max_length(63))
        .with_property(
            "tags",
            OpenApiSchema::array(OpenApiSchema::string().with_max_length(16)).with_max_items(8),
        )
        .with_property("labels", OpenApiSchema::map(OpenApiSchema::string()))
        .with_property("created", OpenApiSchema::string().with_format("date-time"))
}

/// A rule on `self`/`oldSelf` declared from a schema is checked and costed as the API server
/// compiles the same rule on the same schema node.
#[test]
fn schema_variables_cost_as_crd_rules() {
    let schema = spec();
    let decl = schema_decl_type(&schema, false).unwrap();
    let env = Env::default()
        .variable("self", &schema)
        .variable("oldSelf", &schema);
    for rule in [
        "self.replicas >= oldSelf.replicas",
        "self.name.startsWith('web-') && self.tags.all(t, t.size() < 10)",
        "self.labels.all(k, self.labels[k].matches('^[a-z]+$'))",
        "self.tags.join(',').contains(self.name)",
        "self.created < timestamp('2030-01-01T00:00:00Z')",
        "self == oldSelf",
    ] {
        let want = compile_rule(
            RuleSource {
                rule,
                ..RuleSource::default()
            },
            &decl,
            &RuleOptions::default(),
        );
        assert!(want.error.is_none(), "{rule}: {:?}", want.error);
        let got = env.compile(rule).unwrap_or_else(|e| panic!("{rule}: {e}"));
        assert_eq!(got.output_type(), &Type::Bool, "{rule}");
        assert_eq!(got.cost_estimate().max, want.max_cost, "{rule}");
    }
}

#[test]
fn schemas_name_their_object_types() {
    let spec = spec();
    let other = OpenApiSchema::object().with_property("n", OpenApiSchema::integer());
    let env = Env::kubernetes((1, 31))
        .variable("self", &spec)
        .variable("oldSelf", &spec)
        .variable("other", &other)
        .variable("named", VariableType::schema(&other).named("Other"));
    // Equal schemas share the first variable's type.
    assert!(env.compile("self == oldSelf").is_ok());
    let err = env.compile("self == other").unwrap_err();
    assert!(
        err.to_string()
            .contains("found no matching overload for '_==_' applied to '(selfType, otherType)'"),
        "{err}"
    );
    // `named` gives the name; an equal schema declared later shares it.
    let err = env.compile("named == 1").unwrap_err();
    assert!(err.to_string().contains("'(otherType, int)'"), "{err}");
}

#[test]
fn versions_gate_libraries() {
    let src = "ip('10.0.0.1').family() == 4";
    let err = Env::kubernetes((1, 29)).compile(src).unwrap_err();
    assert!(matches!(err, CompileError::Check(_)));
    assert!(
        err.to_string()
            .starts_with("ERROR: <input>:1:3: undeclared reference to 'ip' (in container '')"),
        "{err}"
    );
    let ok = Env::kubernetes((1, 30)).compile(src).unwrap();
    let mut budget = CostTracker::kubernetes();
    let v = ok.eval(&Activation::new(), &mut budget).unwrap();
    assert_eq!(v, Value::Bool(true));
}

/// Before 1.29 the checker does not validate regular expression literals; the planner does.
#[test]
fn invalid_constant_regex_is_a_program_error() {
    let env = Env::kubernetes((1, 28)).variable("s", Type::String);
    let err = env.compile("s.matches('[')").unwrap_err();
    assert!(matches!(err, CompileError::Program(_)), "{err:?}");
    let err = Env::kubernetes((1, 29))
        .variable("s", Type::String)
        .compile("s.matches('[')")
        .unwrap_err();
    assert!(matches!(err, CompileError::Check(_)), "{err:?}");
}

#[test]
fn evaluates_json_through_its_schema_and_plain_values() {
    let schema = spec();
    let env = Env::default()
        .variable("self", &schema)
        .variable("limit", Type::Int)
        .variable("extra", Type::map(Type::String, Type::Dyn));
    let rule = env
        .compile(
            "self.replicas <= limit && self.created > timestamp('2020-01-01T00:00:00Z') && extra.owner == 'me'",
        )
        .unwrap();
    let object = json!({"replicas": 3, "name": "web", "created": "2024-05-06T07:08:09Z"});
    let extra = json!({"owner": "me"});
    let activation = Activation::new()
        .bind_json("self", &object, &schema)
        .bind("limit", 5)
        .bind("extra", &extra);
    let mut budget = CostTracker::kubernetes();
    assert_eq!(
        rule.eval(&activation, &mut budget).unwrap(),
        Value::Bool(true)
    );
    // A string where the schema says date-time fails as in the API server.
    let bad = json!({"replicas": 3, "created": "yesterday"});
    let activation = Activation::new()
        .bind_json("self", &bad, &schema)
        .bind("limit", 5)
        .bind("extra", &extra);
    let err = rule.eval(&activation, &mut budget).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid date-time formatted string yesterday"
    );
}

#[test]
fn optional_variables() {
    let schema = spec();
    let env = Env::default()
        .variable("self", &schema)
        .variable("oldSelf", VariableType::schema(&schema).optional());
    let rule = env
        .compile("self.replicas >= oldSelf.orValue(self).replicas")
        .unwrap();
    let new = json!({"replicas": 3});
    let old = json!({"replicas": 4});
    let mut budget = CostTracker::kubernetes();
    let create = Activation::new()
        .bind_json("self", &new, &schema)
        .bind_optional_json("oldSelf", None, &schema);
    assert_eq!(rule.eval(&create, &mut budget).unwrap(), Value::Bool(true));
    let update = Activation::new()
        .bind_json("self", &new, &schema)
        .bind_optional_json("oldSelf", Some(&old), &schema);
    assert_eq!(rule.eval(&update, &mut budget).unwrap(), Value::Bool(false));
}

#[test]
fn budgets_cancel_evaluation() {
    let env = Env::default().variable("n", Type::Int);
    let rule = env.compile("lists.range(n).all(i, i >= 0)").unwrap();
    let activation = Activation::new().bind("n", 1_000_000);
    // The per-call limit.
    let mut budget = CostTracker::kubernetes();
    let err = rule.eval(&activation, &mut budget).unwrap_err();
    assert_eq!(err.kind(), EvalErrorKind::CostLimitExceeded);
    assert!(budget.actual_cost() > PER_CALL_LIMIT);
    // The budget of several evaluations: the second one runs out of it.
    let small = Activation::new().bind("n", 1_000);
    let mut unlimited = CostTracker::new(None, None);
    assert_eq!(
        rule.eval(&small, &mut unlimited).unwrap(),
        Value::Bool(true)
    );
    let once = unlimited.actual_cost();
    assert!(once > 1_000, "{once}");
    let mut budget = CostTracker::new(None, Some(once + once / 2));
    assert_eq!(rule.eval(&small, &mut budget).unwrap(), Value::Bool(true));
    assert_eq!(budget.remaining_budget, Some(once / 2));
    let err = rule.eval(&small, &mut budget).unwrap_err();
    assert!(err.is_cancelled());
    assert!(budget.budget_exhausted());
}

#[test]
fn default_is_the_compatibility_version() {
    assert_eq!(Env::default().version(), DEFAULT_COMPATIBILITY_VERSION);
    assert_eq!(
        Env::default().check_env().version,
        DEFAULT_COMPATIBILITY_VERSION
    );
}
