//! The CEL examples of the CRD task page (`shared/docs/custom-resource-definitions.md`,
//! "Validation rules"): the "Validation Rules Examples" table, the scoping examples, property
//! escaping, list-type equality and concatenation, the transition rules table, the
//! `optionalOldSelf` table and the error messages the page shows. Each rule runs through
//! [`CompiledSchema`] on an object that satisfies it and on one that does not; the expected
//! output is the API server's error text. Where the page's rule does not compile as printed
//! (a missing parenthesis, `self[...]` on an object), the evident intent is tested.

use crdkit_apiextensions::validate::CompiledSchema;
use crdkit_apimachinery::field::FieldError;
use crdkit_schema::{JsonSchemaProps, Structural};
use serde_json::{Value, json};

struct Case {
    name: &'static str,
    /// The schema of `spec`, with the rule on it (or below).
    spec: Value,
    /// A `spec` that satisfies the rules.
    good: Value,
    /// A `spec` that does not, and the errors (as `Display`ed).
    bad: Value,
    want: &'static [&'static str],
}

fn schema(spec: &Value) -> CompiledSchema {
    let root = json!({"type": "object", "properties": {"spec": spec}});
    let props: JsonSchemaProps = serde_json::from_value(root).unwrap();
    CompiledSchema::new(&Structural::from_props(&props).unwrap())
}

fn object(spec: &Value) -> Value {
    json!({"apiVersion": "stable.example.com/v1", "kind": "CronTab",
        "metadata": {"name": "my-new-cron-object"}, "spec": spec})
}

fn rule(r: &str) -> Value {
    json!([{"rule": r}])
}

fn strings(errs: &[FieldError]) -> Vec<String> {
    errs.iter().map(ToString::to_string).collect()
}

fn int() -> Value {
    json!({"type": "integer"})
}

fn string() -> Value {
    json!({"type": "string", "maxLength": 64})
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "replicas ordered",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas"),
                "properties": {"minReplicas": int(), "replicas": int(), "maxReplicas": int()}}),
            good: json!({"minReplicas": 1, "replicas": 2, "maxReplicas": 3}),
            bad: json!({"minReplicas": 0, "replicas": 20, "maxReplicas": 10}),
            want: &[
                "spec: Invalid value: failed rule: self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas",
            ],
        },
        Case {
            name: "the page's two rules with messages",
            spec: json!({"type": "object",
                "x-kubernetes-validations": [
                    {"rule": "self.minReplicas <= self.replicas", "message": "replicas should be greater than or equal to minReplicas."},
                    {"rule": "self.replicas <= self.maxReplicas", "message": "replicas should be smaller than or equal to maxReplicas."}],
                "required": ["minReplicas", "replicas", "maxReplicas"],
                "properties": {"minReplicas": int(), "replicas": int(), "maxReplicas": int()}}),
            good: json!({"minReplicas": 0, "replicas": 5, "maxReplicas": 10}),
            bad: json!({"minReplicas": 0, "replicas": 20, "maxReplicas": 10}),
            want: &[
                "spec: Invalid value: replicas should be smaller than or equal to maxReplicas.",
            ],
        },
        Case {
            name: "key in map",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("'Available' in self.stateCounts"),
                "properties": {"stateCounts": {"type": "object", "additionalProperties": int()}}}),
            good: json!({"stateCounts": {"Available": 1}}),
            bad: json!({"stateCounts": {"Pending": 1}}),
            want: &["spec: Invalid value: failed rule: 'Available' in self.stateCounts"],
        },
        Case {
            name: "one of two lists non-empty",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("(size(self.list1) == 0) != (size(self.list2) == 0)"),
                "properties": {"list1": {"type": "array", "items": int()}, "list2": {"type": "array", "items": int()}}}),
            good: json!({"list1": [1], "list2": []}),
            bad: json!({"list1": [1], "list2": [2]}),
            want: &[
                "spec: Invalid value: failed rule: (size(self.list1) == 0) != (size(self.list2) == 0)",
            ],
        },
        Case {
            name: "value of a map key if present",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')"),
                "properties": {"map1": {"type": "object", "maxProperties": 10, "additionalProperties": string()}}}),
            good: json!({"map1": {"OTHER": "1", "MY_KEY": "abc"}}),
            bad: json!({"map1": {"MY_KEY": "a1"}}),
            want: &[
                "spec: Invalid value: failed rule: !('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')",
            ],
        },
        Case {
            name: "listMap entry value",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))"),
                "properties": {"envars": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["name"],
                    "items": {"type": "object", "required": ["name"], "properties": {"name": string(), "value": string()}}}}}),
            good: json!({"envars": [{"name": "MY_ENV", "value": "abc"}, {"name": "OTHER", "value": "1"}]}),
            bad: json!({"envars": [{"name": "MY_ENV", "value": "a1"}]}),
            want: &[
                "spec: Invalid value: failed rule: self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))",
            ],
        },
        Case {
            name: "expired after created plus ttl",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("has(self.expired) && self.created + self.ttl < self.expired"),
                "properties": {"created": {"type": "string", "format": "date-time"},
                    "ttl": {"type": "string", "format": "duration"},
                    "expired": {"type": "string", "format": "date-time"}}}),
            good: json!({"created": "2023-06-01T10:00:00Z", "ttl": "1h", "expired": "2023-06-01T12:00:00Z"}),
            bad: json!({"created": "2023-06-01T10:00:00Z", "ttl": "3h", "expired": "2023-06-01T12:00:00Z"}),
            want: &[
                "spec: Invalid value: failed rule: has(self.expired) && self.created + self.ttl < self.expired",
            ],
        },
        Case {
            name: "string prefix",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("self.health.startsWith('ok')"),
                "properties": {"health": string()}}),
            good: json!({"health": "ok: fine"}),
            bad: json!({"health": "bad"}),
            want: &["spec: Invalid value: failed rule: self.health.startsWith('ok')"],
        },
        Case {
            name: "listMap item with key x",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("self.widgets.exists(w, w.key == 'x' && w.foo < 10)"),
                "properties": {"widgets": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "map",
                    "x-kubernetes-list-map-keys": ["key"],
                    "items": {"type": "object", "required": ["key"], "properties": {"key": string(), "foo": int()}}}}}),
            good: json!({"widgets": [{"key": "y", "foo": 50}, {"key": "x", "foo": 5}]}),
            bad: json!({"widgets": [{"key": "x", "foo": 50}]}),
            want: &[
                "spec: Invalid value: failed rule: self.widgets.exists(w, w.key == 'x' && w.foo < 10)",
            ],
        },
        Case {
            name: "int-or-string",
            spec: json!({"type": "object", "properties": {"value": {"x-kubernetes-int-or-string": true,
                "x-kubernetes-validations": rule("type(self) == string ? self == '100%' : self == 1000")}}}),
            good: json!({"value": "100%"}),
            bad: json!({"value": 999}),
            want: &[
                "spec.value: Invalid value: 999: failed rule: type(self) == string ? self == '100%' : self == 1000",
            ],
        },
        Case {
            name: "int-or-string, the string case",
            spec: json!({"type": "object", "properties": {"value": {"x-kubernetes-int-or-string": true,
                "x-kubernetes-validations": rule("type(self) == string ? self == '100%' : self == 1000")}}}),
            good: json!({"value": 1000}),
            bad: json!({"value": "50%"}),
            want: &[
                "spec.value: Invalid value: \"50%\": failed rule: type(self) == string ? self == '100%' : self == 1000",
            ],
        },
        Case {
            name: "disjoint listSets",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("self.set1.all(e, !(e in self.set2))"),
                "properties": {
                    "set1": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": string()},
                    "set2": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": string()}}}),
            good: json!({"set1": ["a", "b"], "set2": ["c"]}),
            bad: json!({"set1": ["a", "b"], "set2": ["b"]}),
            want: &["spec: Invalid value: failed rule: self.set1.all(e, !(e in self.set2))"],
        },
        Case {
            name: "map keyed by a listSet",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("size(self.names) == size(self.details) && self.names.all(n, n in self.details)"),
                "properties": {
                    "names": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": string()},
                    "details": {"type": "object", "maxProperties": 10, "additionalProperties": string()}}}),
            good: json!({"names": ["a", "b"], "details": {"b": "2", "a": "1"}}),
            bad: json!({"names": ["a", "b"], "details": {"a": "1", "c": "3"}}),
            want: &[
                "spec: Invalid value: failed rule: size(self.names) == size(self.details) && self.names.all(n, n in self.details)",
            ],
        },
        Case {
            name: "primary occurs once in a listMap",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("size(self.clusters.filter(c, c.name == self.primary)) == 1"),
                "properties": {"primary": string(),
                    "clusters": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "map",
                        "x-kubernetes-list-map-keys": ["name"],
                        "items": {"type": "object", "required": ["name"], "properties": {"name": string()}}}}}),
            good: json!({"primary": "a", "clusters": [{"name": "a"}, {"name": "b"}]}),
            bad: json!({"primary": "c", "clusters": [{"name": "a"}]}),
            want: &[
                "spec: Invalid value: failed rule: size(self.clusters.filter(c, c.name == self.primary)) == 1",
            ],
        },
        Case {
            name: "has on a field",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("has(self.foo)"),
                "properties": {"foo": int()}}),
            good: json!({"foo": 1}),
            bad: json!({}),
            want: &["spec: Invalid value: failed rule: has(self.foo)"],
        },
        Case {
            name: "map of objects",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("self['xyz'].foo > 0"),
                "additionalProperties": {"type": "object", "properties": {"foo": int()}}}),
            good: json!({"xyz": {"foo": 1}}),
            bad: json!({"xyz": {"foo": 0}}),
            want: &["spec: Invalid value: failed rule: self['xyz'].foo > 0"],
        },
        Case {
            name: "map of objects, missing key",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("self['xyz'].foo > 0"),
                "additionalProperties": {"type": "object", "properties": {"foo": int()}}}),
            good: json!({"xyz": {"foo": 2}}),
            bad: json!({"abc": {"foo": 1}}),
            want: &[
                "spec: Invalid value: \"object\": no such key: xyz evaluating rule: self['xyz'].foo > 0",
            ],
        },
        Case {
            name: "array size",
            spec: json!({"type": "object", "properties": {"foo": {"type": "array",
                "x-kubernetes-validations": rule("size(self) == 1"), "items": string()}}}),
            good: json!({"foo": ["a"]}),
            bad: json!({"foo": ["a", "b"]}),
            want: &["spec.foo: Invalid value: failed rule: size(self) == 1"],
        },
        Case {
            name: "scalar",
            spec: json!({"type": "object", "properties": {"foo": {"type": "integer",
                "x-kubernetes-validations": rule("self > 0")}}}),
            good: json!({"foo": 1}),
            bad: json!({"foo": 0}),
            want: &["spec.foo: Invalid value: 0: failed rule: self > 0"],
        },
        Case {
            name: "map of objects by key",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("self.components['Widget'].priority < 10"),
                "properties": {"components": {"type": "object",
                    "additionalProperties": {"type": "object", "properties": {"priority": int()}}}}}),
            good: json!({"components": {"Widget": {"priority": 1}}}),
            bad: json!({"components": {"Widget": {"priority": 10}}}),
            want: &["spec: Invalid value: failed rule: self.components['Widget'].priority < 10"],
        },
        Case {
            name: "list of integers",
            spec: json!({"type": "object", "x-kubernetes-validations": rule("self.values.all(value, value >= 0 && value < 100)"),
                "properties": {"values": {"type": "array", "items": int()}}}),
            good: json!({"values": [0, 99]}),
            bad: json!({"values": [0, 100]}),
            want: &[
                "spec: Invalid value: failed rule: self.values.all(value, value >= 0 && value < 100)",
            ],
        },
        Case {
            name: "string scope",
            spec: json!({"type": "object", "properties": {"image": {"type": "string",
                "x-kubernetes-validations": rule("self.startsWith('kube')")}}}),
            good: json!({"image": "kube-proxy"}),
            bad: json!({"image": "etcd"}),
            want: &["spec.image: Invalid value: \"etcd\": failed rule: self.startsWith('kube')"],
        },
        Case {
            name: "escaped property names",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("self.__namespace__ > 0 && self.x__dash__prop > 0 && self.redact__underscores__d > 0"),
                "properties": {"namespace": int(), "x-prop": int(), "redact__d": int()}}),
            good: json!({"namespace": 1, "x-prop": 1, "redact__d": 1}),
            bad: json!({"namespace": 1, "x-prop": 0, "redact__d": 1}),
            want: &[
                "spec: Invalid value: failed rule: self.__namespace__ > 0 && self.x__dash__prop > 0 && self.redact__underscores__d > 0",
            ],
        },
        Case {
            name: "listSet equality ignores order, + is a union",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("self.a == self.b && self.a + ['c', 'a'] == ['a', 'b', 'c']"),
                "properties": {
                    "a": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": string()},
                    "b": {"type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": string()}}}),
            good: json!({"a": ["a", "b"], "b": ["b", "a"]}),
            bad: json!({"a": ["a", "b"], "b": ["a"]}),
            want: &[
                "spec: Invalid value: failed rule: self.a == self.b && self.a + ['c', 'a'] == ['a', 'b', 'c']",
            ],
        },
        Case {
            name: "listMap + merges by key",
            spec: json!({"type": "object",
                "x-kubernetes-validations": rule("self.objs[0] + self.objs[1] == self.objs[2]"),
                "properties": {"objs": {"type": "array", "maxItems": 3, "items": {
                    "type": "array", "maxItems": 10, "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["k"],
                    "items": {"type": "object", "required": ["k"], "properties": {"k": string(), "v": string()}}}}}}),
            good: json!({"objs": [
                [{"k": "a", "v": "1"}, {"k": "b", "v": "2"}],
                [{"k": "b", "v": "3"}, {"k": "c", "v": "4"}],
                [{"k": "c", "v": "4"}, {"k": "a", "v": "1"}, {"k": "b", "v": "3"}]]}),
            bad: json!({"objs": [
                [{"k": "a", "v": "1"}, {"k": "b", "v": "2"}],
                [{"k": "b", "v": "3"}],
                [{"k": "a", "v": "1"}, {"k": "b", "v": "2"}]]}),
            want: &[
                "spec: Invalid value: failed rule: self.objs[0] + self.objs[1] == self.objs[2]",
            ],
        },
    ]
}

#[test]
fn validation_rules_examples() {
    let mut failures = Vec::new();
    let cases = cases();
    for c in &cases {
        let s = schema(&c.spec);
        let good = strings(&s.validate(&object(&c.good)));
        if !good.is_empty() {
            failures.push(format!("{}: good object: {good:?}", c.name));
        }
        let bad = strings(&s.validate(&object(&c.bad)));
        if bad != c.want {
            failures.push(format!("{}: got {bad:?}, want {:?}", c.name, c.want));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Rules at the root see `apiVersion`, `kind`, `metadata.name` and both `spec` and `status`.
#[test]
fn root_scope() {
    let root = json!({"type": "object",
        "x-kubernetes-validations": [
            {"rule": "self.status.availableReplicas >= self.spec.minReplicas"},
            {"rule": "self.metadata.name.startsWith(self.spec.prefix)"},
            {"rule": "self.apiVersion == 'stable.example.com/v1' && self.kind == 'CronTab'"}],
        "properties": {
            "spec": {"type": "object", "properties": {"minReplicas": int(), "prefix": string()}},
            "status": {"type": "object", "properties": {"availableReplicas": int()}}}});
    let props: JsonSchemaProps = serde_json::from_value(root).unwrap();
    let s = CompiledSchema::new(&Structural::from_props(&props).unwrap());
    let mut obj = object(&json!({"minReplicas": 2, "prefix": "my-"}));
    obj["status"] = json!({"availableReplicas": 3});
    assert!(s.validate(&obj).is_empty());
    obj["status"] = json!({"availableReplicas": 1});
    obj["metadata"]["name"] = json!("other");
    assert_eq!(
        strings(&s.validate(&obj)),
        [
            "<nil>: Invalid value: failed rule: self.status.availableReplicas >= self.spec.minReplicas",
            "<nil>: Invalid value: failed rule: self.metadata.name.startsWith(self.spec.prefix)",
        ]
    );
}

struct Transition {
    name: &'static str,
    /// Whether keeping the old value is allowed.
    stay: bool,
    /// The schema of `spec.value`.
    value: Value,
    old: Value,
    new: Value,
    want: &'static [&'static str],
}

/// The transition rules table, and the low/high example. Transition rules never run on create.
#[test]
fn transition_rules() {
    let obj_with = |v: &Value| json!({"type": "object", "properties": {"foo": string(), "field": string()}, "x-kubernetes-validations": v});
    let cases = [
        Transition {
            stay: true,
            name: "immutability",
            value: obj_with(&rule("self.foo == oldSelf.foo")),
            old: json!({"foo": "a"}),
            new: json!({"foo": "b"}),
            want: &["spec.value: Invalid value: failed rule: self.foo == oldSelf.foo"],
        },
        Transition {
            stay: true,
            name: "no modification once assigned",
            value: json!({"type": "string", "x-kubernetes-validations": rule("oldSelf != 'bar' || self == 'bar'")}),
            old: json!("bar"),
            new: json!("baz"),
            want: &[
                "spec.value: Invalid value: \"baz\": failed rule: oldSelf != 'bar' || self == 'bar'",
            ],
        },
        Transition {
            stay: true,
            name: "no removal once assigned",
            value: obj_with(&rule("!has(oldSelf.field) || has(self.field)")),
            old: json!({"field": "x"}),
            new: json!({"foo": "y"}),
            want: &[
                "spec.value: Invalid value: failed rule: !has(oldSelf.field) || has(self.field)",
            ],
        },
        Transition {
            stay: true,
            name: "append-only set",
            value: json!({"type": "array", "maxItems": 10, "x-kubernetes-list-type": "set", "items": string(),
                "x-kubernetes-validations": rule("oldSelf.all(element, element in self)")}),
            old: json!(["a", "b"]),
            new: json!(["b", "c"]),
            want: &[
                "spec.value: Invalid value: failed rule: oldSelf.all(element, element in self)",
            ],
        },
        Transition {
            stay: false,
            name: "from X only to A or B",
            value: json!({"type": "string", "x-kubernetes-validations": rule("oldSelf != 'X' || self in ['A', 'B']")}),
            old: json!("X"),
            new: json!("Y"),
            want: &[
                "spec.value: Invalid value: \"Y\": failed rule: oldSelf != 'X' || self in ['A', 'B']",
            ],
        },
        Transition {
            stay: true,
            name: "monotonic counter",
            value: json!({"type": "integer", "x-kubernetes-validations": rule("self >= oldSelf")}),
            old: json!(5),
            new: json!(4),
            want: &["spec.value: Invalid value: 4: failed rule: self >= oldSelf"],
        },
        Transition {
            stay: true,
            name: "low and high",
            value: json!({"type": "string", "enum": ["low", "medium", "high"], "x-kubernetes-validations": [{
                "rule": "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')",
                "message": "cannot transition directly between 'low' and 'high'"}]}),
            old: json!("low"),
            new: json!("high"),
            want: &[
                "spec.value: Invalid value: \"high\": cannot transition directly between 'low' and 'high'",
            ],
        },
    ];
    let mut failures = Vec::new();
    for c in &cases {
        let s = schema(&json!({"type": "object", "properties": {"value": c.value}}));
        let (old, new) = (
            object(&json!({"value": c.old})),
            object(&json!({"value": c.new})),
        );
        // Allowed transitions and creates pass.
        let mut allowed = vec![
            ("create", s.validate(&new)),
            (
                "set on update",
                s.validate_update(&new, &object(&json!({}))),
            ),
        ];
        if c.stay {
            allowed.push(("no change", s.validate_update(&old, &old)));
        }
        for (label, errs) in allowed {
            if !errs.is_empty() {
                failures.push(format!("{}: {label}: {:?}", c.name, strings(&errs)));
            }
        }
        let got = strings(&s.validate_update(&new, &old));
        if got != c.want {
            failures.push(format!("{}: got {got:?}, want {:?}", c.name, c.want));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The `optionalOldSelf` table: the rule also runs on create, with `oldSelf` empty.
#[test]
fn optional_old_self_examples() {
    let cases: [(&str, Value, Value, Option<Value>, bool); 7] = [
        // "Once a value is set to foo, it must stay foo; older values may stay."
        (
            "self.foo == 'foo' || (oldSelf.hasValue() && oldSelf.value().foo != 'foo')",
            json!({"type": "object", "properties": {"foo": string()}}),
            json!({"foo": "bar"}),
            None,
            false,
        ),
        (
            "self.foo == 'foo' || (oldSelf.hasValue() && oldSelf.value().foo != 'foo')",
            json!({"type": "object", "properties": {"foo": string()}}),
            json!({"foo": "bar"}),
            Some(json!({"foo": "baz"})),
            true,
        ),
        (
            "self.foo == 'foo' || (oldSelf.hasValue() && oldSelf.value().foo != 'foo')",
            json!({"type": "object", "properties": {"foo": string()}}),
            json!({"foo": "bar"}),
            Some(json!({"foo": "foo"})),
            false,
        ),
        // Ratcheted validation of a newly increased minimum size.
        (
            "oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4",
            json!({"type": "object", "maxProperties": 10, "additionalProperties": string()}),
            json!({"a": "1"}),
            None,
            true,
        ),
        (
            "oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4",
            json!({"type": "object", "maxProperties": 10, "additionalProperties": string()}),
            json!({"a": "1"}),
            Some(json!({"a": "1", "b": "2", "c": "3", "d": "4"})),
            false,
        ),
        (
            "oldSelf.optMap(o, o.size()).orValue(0) < 4 || self.size() >= 4",
            json!({"type": "object", "maxProperties": 10, "additionalProperties": string()}),
            json!({"a": "1", "b": "2", "c": "3", "d": "4", "e": "5"}),
            Some(json!({"a": "1", "b": "2", "c": "3", "d": "4"})),
            true,
        ),
        // Removed enum cases stay allowed where the old value used them.
        (
            "[oldSelf.orValue(''), self].all(x, ['OldCase1', 'OldCase2'].exists(case, x == case)) || ['NewCase1', 'NewCase2'].exists(case, self == case)",
            json!({"type": "string", "maxLength": 20}),
            json!("OldCase1"),
            None,
            false,
        ),
    ];
    let mut failures = Vec::new();
    for (r, value, new, old, ok) in &cases {
        let mut value = value.clone();
        value["x-kubernetes-validations"] = json!([{"rule": r, "optionalOldSelf": true}]);
        let s = schema(&json!({"type": "object", "properties": {"value": value}}));
        let new = object(&json!({"value": new}));
        let errs = match old {
            None => s.validate(&new),
            Some(o) => s.validate_update(&new, &object(&json!({"value": o}))),
        };
        if errs.is_empty() != *ok {
            failures.push(format!("{r}: old {old:?}: {:?}", strings(&errs)));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
