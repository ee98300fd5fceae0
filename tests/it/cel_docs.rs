//! Every rule of the CRD page's "Validation Rules Examples" table, its rule-scope examples,
//! escaping table, cost example and "Transition rules examples" table, on Rust types that match
//! them: the derive type-checks each rule at compile time (this file compiling is half of the
//! test), and the generated `validate()`/`validate_update()` give the documented behaviour.

use std::collections::BTreeMap;

use crdkit::{CustomResource, ObjectMeta};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

// ---- "Validation Rules Examples" ----

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct EnvVar {
    #[crd(max_length = 64)]
    pub name: String,
    #[crd(max_length = 64)]
    pub value: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Widget {
    #[crd(max_length = 16)]
    pub key: String,
    pub foo: i64,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Cluster {
    #[crd(max_length = 63)]
    pub name: String,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Component {
    pub priority: i64,
}

/// "Validate that an object's name has the prefix of another field value": a rule on an
/// embedded resource, which sees `metadata.name` as the root does.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
#[crd(embedded_resource)]
#[crd(validation(
    rule = "self.metadata.name.startsWith(self.prefix)",
    message = "name must start with prefix"
))]
#[serde(rename_all = "camelCase")]
pub struct Template {
    pub api_version: String,
    pub kind: String,
    pub metadata: ObjectMeta,
    #[crd(max_length = 63)]
    pub prefix: String,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "docs.example.com", version = "v1", kind = "RuleTable", status = RuleTableStatus)]
#[crd(
    root_validation(
        rule = "self.status.availableReplicas >= self.spec.minReplicas",
        message = "not enough available replicas"
    ),
    root_validation(
        rule = "self.status.actual <= self.spec.maxDesired",
        message = "more than desired"
    )
)]
#[crd(
    validation(
        rule = "self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
        message = "replicas out of order"
    ),
    validation(
        rule = "'Available' in self.stateCounts",
        message = "no Available count"
    ),
    validation(
        rule = "(size(self.list1) == 0) != (size(self.list2) == 0)",
        message = "exactly one list must be non-empty"
    ),
    validation(
        rule = "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
        message = "MY_ENV must be letters"
    ),
    validation(
        rule = "has(self.expired) && self.created + self.ttl < self.expired",
        message = "expires too early"
    ),
    validation(rule = "self.health.startsWith('ok')", message = "not healthy"),
    validation(
        rule = "self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
        message = "no small x widget"
    ),
    validation(
        rule = "self.set1.all(e, !(e in self.set2))",
        message = "sets must be disjoint"
    ),
    validation(
        rule = "size(self.names) == size(self.details) && self.names.all(n, n in self.details)",
        message = "details must be keyed by names"
    ),
    validation(
        rule = "size(self.clusters.filter(c, c.name == self.primary)) == 1",
        message = "primary must be one cluster"
    ),
    validation(
        rule = "self.components['Widget'].priority < 10",
        message = "Widget priority too high"
    ),
    validation(
        rule = "self.values.all(value, value >= 0 && value < 100)",
        message = "values out of range"
    )
)]
#[serde(rename_all = "camelCase")]
pub struct RuleTableSpec {
    pub min_replicas: i64,
    pub replicas: i64,
    pub max_replicas: i64,
    pub max_desired: i64,
    pub state_counts: BTreeMap<String, i64>,
    pub list1: Vec<i64>,
    pub list2: Vec<i64>,
    /// "Validate the value of a map for a specific key, if it is in the map", with the rule
    /// on the map itself. The table's literal `!('MY_KEY' in self.map1) ||
    /// self['MY_KEY'].matches(..)` cannot be admitted by the API server on any schema: `self`
    /// would be an object (`self.map1`) and a map (`self['MY_KEY']`) at once; on a map of
    /// int-or-string values it type-checks, but `self.map1` then has no schema path, so its
    /// size, and the rule's cost, are unbounded.
    #[crd(validation(
        rule = "!('MY_KEY' in self) || self['MY_KEY'].matches('^[a-zA-Z]*$')",
        message = "MY_KEY must be letters"
    ))]
    pub map1: BTreeMap<String, String>,
    #[crd(max_items = 64, list_type = "map", list_map_keys("name"))]
    pub envars: Vec<EnvVar>,
    /// cel-go's estimator gives a `filter` result no schema path, so in the table's
    /// `self.envars.filter(e, ..).all(e, e.value.matches(..))` the second `e.value` is sized by
    /// the path `value` from the rule's node: without a bounded `value` here, the API server
    /// (and this derive) estimate 3 MiB strings and reject the rule.
    #[crd(max_length = 64)]
    #[serde(default)]
    pub value: String,
    #[crd(format = "date-time")]
    pub created: String,
    #[crd(format = "duration")]
    pub ttl: String,
    #[crd(format = "date-time")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expired: Option<String>,
    pub health: String,
    #[crd(list_type = "map", list_map_keys("key"))]
    pub widgets: Vec<Widget>,
    /// "Validate an int-or-string field for both the int and string cases".
    #[crd(
        int_or_string,
        validation(
            rule = "type(self) == string ? self == '100%' : self == 1000",
            message = "must be 100% or 1000"
        )
    )]
    pub threshold: Value,
    pub template: Template,
    #[crd(max_items = 32, list_type = "set", items(max_length = 16))]
    pub set1: Vec<String>,
    #[crd(max_items = 32, list_type = "set", items(max_length = 16))]
    pub set2: Vec<String>,
    #[crd(list_type = "set")]
    pub names: Vec<String>,
    pub details: BTreeMap<String, String>,
    #[crd(max_items = 16, list_type = "map", list_map_keys("name"))]
    pub clusters: Vec<Cluster>,
    #[crd(max_length = 63)]
    pub primary: String,
    pub components: BTreeMap<String, Component>,
    #[crd(max_items = 100)]
    pub values: Vec<i64>,
    /// The scope examples: a rule on a string, on an integer, on a list.
    #[crd(validation(rule = "self.startsWith('kube')", message = "must start with kube"))]
    pub cluster_name: String,
    #[crd(validation(rule = "self > 0", message = "must be positive"))]
    pub positive: i64,
    #[crd(validation(rule = "size(self) == 1", message = "exactly one"))]
    pub single: Vec<String>,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
#[serde(rename_all = "camelCase")]
pub struct RuleTableStatus {
    pub available_replicas: i64,
    pub actual: i64,
}

/// The scope examples on objects and maps: `has(self.foo)` and `self['xyz'].foo > 0`.
#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
#[crd(validation(rule = "has(self.foo)"))]
pub struct HasFoo {
    pub foo: Option<i64>,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Foo {
    pub foo: i64,
}

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Scopes {
    pub has_foo: HasFoo,
    #[crd(validation(rule = "self['xyz'].foo > 0"))]
    pub by_key: BTreeMap<String, Foo>,
}

// ---- Escaping ----

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "docs.example.com", version = "v1", kind = "Escaping")]
#[crd(
    validation(rule = "self.__namespace__ > 0", message = "namespace"),
    validation(rule = "self.x__dash__prop > 0", message = "x-prop"),
    validation(rule = "self.redact__underscores__d > 0", message = "redact__d")
)]
pub struct EscapingSpec {
    pub namespace: i64,
    #[serde(rename = "x-prop")]
    pub x_prop: i64,
    #[serde(rename = "redact__d")]
    pub redact_d: i64,
    #[crd(validation(rule = "self.startsWith('kube')", message = "string"))]
    pub string: String,
}

// ---- Resource use: the cost example ----

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Bounded {
    /// Without `max_items` and `max_length` the API server (and this derive) reject the rule.
    #[crd(
        max_items = 25,
        items(max_length = 10),
        validation(rule = "self.all(x, x.contains('a string'))")
    )]
    pub foo: Vec<String>,
}

// ---- "Transition rules examples" ----

#[derive(crdkit::Schema, Serialize, Deserialize, Clone, Debug)]
pub struct Immutable {
    pub foo: String,
}

#[derive(CustomResource, Serialize, Deserialize, Clone, Debug)]
#[crd(group = "docs.example.com", version = "v1", kind = "Transitions")]
#[crd(validation(
    rule = "!has(oldSelf.field) || has(self.field)",
    message = "field cannot be removed"
))]
#[serde(rename_all = "camelCase")]
pub struct TransitionsSpec {
    #[crd(validation(rule = "self.foo == oldSelf.foo", message = "foo is immutable"))]
    pub immutable: Immutable,
    #[crd(validation(rule = "oldSelf != 'bar' || self == 'bar'", message = "bar is final"))]
    pub assigned: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// The table calls `self.all(element, element in oldSelf)` "append-only"; it lets elements
    /// go and keeps new ones out (every new element was there before).
    #[crd(
        max_items = 64,
        list_type = "set",
        items(max_length = 32),
        validation(
            rule = "self.all(element, element in oldSelf)",
            message = "append only"
        )
    )]
    pub append_only: Vec<String>,
    /// Append-only as the name means it: every old element stays.
    #[crd(
        max_items = 64,
        list_type = "set",
        items(max_length = 32),
        validation(
            rule = "oldSelf.all(element, element in self)",
            message = "keeps old elements"
        )
    )]
    pub keeps: Vec<String>,
    #[crd(validation(
        rule = "oldSelf != 'X' || self in ['A', 'B']",
        message = "X goes to A or B"
    ))]
    pub state: String,
    #[crd(validation(rule = "self >= oldSelf", message = "counter decreased"))]
    pub counter: i64,
    /// The `optionalOldSelf` examples.
    #[crd(validation(
        rule = "self.foo == 'foo' || (oldSelf.hasValue() && oldSelf.value().foo != 'foo')",
        optional_old_self,
        message = "once foo, always foo"
    ))]
    pub ratcheted: Immutable,
    #[crd(
        max_items = 16,
        validation(
            rule = "oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4",
            optional_old_self,
            message = "at least 4 once there were 4"
        )
    )]
    pub grown: Vec<i64>,
}

fn rule_table() -> RuleTable {
    let spec = json!({
        "minReplicas": 1, "replicas": 2, "maxReplicas": 3, "maxDesired": 5,
        "stateCounts": {"Available": 1},
        "list1": [1], "list2": [],
        "map1": {"MY_KEY": "abc"},
        "envars": [{"name": "MY_ENV", "value": "abc"}, {"name": "OTHER", "value": "1"}],
        "created": "2024-01-01T00:00:00Z", "ttl": "1h", "expired": "2024-01-02T00:00:00Z",
        "health": "ok: fine",
        "widgets": [{"key": "x", "foo": 1}],
        "threshold": "100%",
        "template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "web-1"}, "prefix": "web"},
        "set1": ["a"], "set2": ["b"],
        "names": ["n"], "details": {"n": "d"},
        "clusters": [{"name": "main"}, {"name": "backup"}], "primary": "main",
        "components": {"Widget": {"priority": 1}},
        "values": [0, 99],
        "clusterName": "kube-1", "positive": 1, "single": ["x"],
    });
    let obj = json!({
        "apiVersion": "docs.example.com/v1", "kind": "RuleTable",
        "metadata": {"name": "docs"},
        "spec": spec,
        "status": {"availableReplicas": 1, "actual": 5},
    });
    serde_json::from_value(obj).unwrap()
}

/// The object with `change` applied to its JSON (`/spec/replicas` → value).
fn changed(obj: &RuleTable, pointer: &str, value: Value) -> RuleTable {
    let mut v = serde_json::to_value(obj).unwrap();
    *v.pointer_mut(pointer).unwrap() = value;
    serde_json::from_value(v).unwrap()
}

#[test]
fn rule_table_accepts_the_valid_object() {
    let o = rule_table();
    assert_eq!(o.validate(), Ok(()), "{:?}", o.validate());
}

#[test]
fn rule_table_rules_reject_what_the_docs_say() {
    let o = rule_table();
    let cases: &[(&str, Value, &str)] = &[
        ("/spec/replicas", json!(4), "replicas out of order"),
        (
            "/spec/stateCounts",
            json!({"Pending": 1}),
            "no Available count",
        ),
        (
            "/spec/list2",
            json!([1]),
            "exactly one list must be non-empty",
        ),
        (
            "/spec/map1",
            json!({"MY_KEY": "a1"}),
            "MY_KEY must be letters",
        ),
        (
            "/spec/envars",
            json!([{"name": "MY_ENV", "value": "a-b"}]),
            "MY_ENV must be letters",
        ),
        (
            "/spec/expired",
            json!("2024-01-01T00:30:00Z"),
            "expires too early",
        ),
        ("/spec/health", json!("bad"), "not healthy"),
        (
            "/spec/widgets",
            json!([{"key": "x", "foo": 10}]),
            "no small x widget",
        ),
        ("/spec/threshold", json!(999), "must be 100% or 1000"),
        ("/spec/threshold", json!("99%"), "must be 100% or 1000"),
        (
            "/spec/template/metadata/name",
            json!("db-1"),
            "name must start with prefix",
        ),
        ("/spec/set2", json!(["a"]), "sets must be disjoint"),
        (
            "/spec/details",
            json!({"m": "d"}),
            "details must be keyed by names",
        ),
        (
            "/spec/primary",
            json!("other"),
            "primary must be one cluster",
        ),
        (
            "/spec/components",
            json!({"Widget": {"priority": 10}}),
            "Widget priority too high",
        ),
        ("/spec/values", json!([100]), "values out of range"),
        ("/spec/clusterName", json!("k8s"), "must start with kube"),
        ("/spec/positive", json!(0), "must be positive"),
        ("/spec/single", json!([]), "exactly one"),
        (
            "/status/availableReplicas",
            json!(0),
            "not enough available replicas",
        ),
        ("/status/actual", json!(6), "more than desired"),
    ];
    for (pointer, value, message) in cases {
        let err = changed(&o, pointer, value.clone()).validate().unwrap_err();
        assert!(
            err.to_string().contains(message),
            "{pointer} = {value}: want {message:?}, got {err}"
        );
    }
    // The int case of the int-or-string rule.
    assert_eq!(
        changed(&o, "/spec/threshold", json!(1000)).validate(),
        Ok(())
    );
}

#[test]
fn escaped_names_are_checked() {
    let ok: Escaping = serde_json::from_value(json!({
        "apiVersion": "docs.example.com/v1", "kind": "Escaping", "metadata": {"name": "e"},
        "spec": {"namespace": 1, "x-prop": 1, "redact__d": 1, "string": "kube-x"}
    }))
    .unwrap();
    assert_eq!(ok.validate(), Ok(()));
    let bad: Escaping = serde_json::from_value(json!({
        "apiVersion": "docs.example.com/v1", "kind": "Escaping", "metadata": {"name": "e"},
        "spec": {"namespace": 0, "x-prop": 0, "redact__d": 0, "string": "k8s"}
    }))
    .unwrap();
    let err = bad.validate().unwrap_err().to_string();
    for m in ["namespace", "x-prop", "redact__d", "string"] {
        assert!(err.contains(m), "{m}: {err}");
    }
}

fn transitions(v: Value) -> Transitions {
    serde_json::from_value(json!({
        "apiVersion": "docs.example.com/v1", "kind": "Transitions", "metadata": {"name": "t"},
        "spec": v
    }))
    .unwrap()
}

fn transitions_spec() -> Value {
    json!({
        "immutable": {"foo": "a"},
        "assigned": "x",
        "field": "set",
        "appendOnly": ["a", "b"],
        "keeps": ["a"],
        "state": "X",
        "counter": 1,
        "ratcheted": {"foo": "foo"},
        "grown": [1, 2, 3, 4],
    })
}

#[test]
fn transition_rules_behave_as_documented() {
    let old = transitions(transitions_spec());
    assert_eq!(old.validate(), Ok(()));
    let mut ok = transitions_spec();
    ok["assigned"] = json!("bar");
    ok["appendOnly"] = json!(["a"]);
    ok["keeps"] = json!(["a", "b"]);
    ok["state"] = json!("A");
    ok["counter"] = json!(2);
    assert_eq!(transitions(ok.clone()).validate_update(&old), Ok(()));
    let cases: &[(&str, Value, &str)] = &[
        ("immutable", json!({"foo": "b"}), "foo is immutable"),
        ("appendOnly", json!(["a", "c"]), "append only"),
        ("keeps", json!(["b"]), "keeps old elements"),
        ("state", json!("Y"), "X goes to A or B"),
        ("counter", json!(0), "counter decreased"),
        ("ratcheted", json!({"foo": "bar"}), "once foo, always foo"),
        ("grown", json!([1]), "at least 4 once there were 4"),
    ];
    for (field, value, message) in cases {
        let mut spec = transitions_spec();
        spec[*field] = value.clone();
        let err = transitions(spec).validate_update(&old).unwrap_err();
        assert!(err.to_string().contains(message), "{field}: {err}");
    }
    // Once "bar", always "bar".
    let mut bar = transitions_spec();
    bar["assigned"] = json!("bar");
    let bar_old = transitions(bar.clone());
    bar["assigned"] = json!("baz");
    let err = transitions(bar).validate_update(&bar_old).unwrap_err();
    assert!(err.to_string().contains("bar is final"), "{err}");
    // A field, once set, stays.
    let mut removed = transitions_spec();
    removed.as_object_mut().unwrap().remove("field");
    let err = transitions(removed).validate_update(&old).unwrap_err();
    assert!(err.to_string().contains("field cannot be removed"), "{err}");
    // Transition rules do not run on create...
    let mut fresh = transitions_spec();
    fresh["state"] = json!("Y");
    fresh["counter"] = json!(-5);
    assert_eq!(transitions(fresh.clone()).validate(), Ok(()));
    // ...except with optionalOldSelf, where oldSelf is then none.
    fresh["ratcheted"] = json!({"foo": "bar"});
    let err = transitions(fresh).validate().unwrap_err();
    assert!(err.to_string().contains("once foo, always foo"), "{err}");
}

/// What compiles is what the API server admits: `crdgen check` accepts these CRDs.
#[test]
fn the_api_server_admits_these_crds() {
    for crd in [
        RuleTable::crd().unwrap(),
        Escaping::crd().unwrap(),
        Transitions::crd().unwrap(),
    ] {
        let errors = crdkit_crd::crd_check::check_crd_full(&crd);
        assert!(errors.is_empty(), "{}: {errors:?}", crd.spec.names.kind);
    }
}
