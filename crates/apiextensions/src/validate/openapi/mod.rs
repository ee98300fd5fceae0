//! OpenAPI value validation as kube-openapi's `SchemaValidator` does it.
//!
//! Mirrors kube-openapi `pkg/validation/validate/schema.go` (the validator chain: type, schema
//! props, string, format, number, slice, common, object), `type.go`, `schema_props.go`
//! (`allOf`/`anyOf`/`oneOf`/`not` with `MatchCount` picking the reported branch, in
//! [`junctors`]), `slice_validator.go`, `object_validator.go` and `result.go` (errors deduplicated
//! by message).
//!
//! Paths are kube-openapi's dotted strings: properties `spec.replicas`, items `spec.ports[0]`,
//! `additionalProperties` values `spec.labels.app` (a root value is `.app`, as in Go). They are
//! kept as a chain of stack frames and rendered only for an error. What differs from Go:
//! properties are visited in name order (Go's map order is random), values of
//! `additionalProperties` in the object's order.

mod equal;
mod junctors;
mod types;
mod update;

use serde_json::{Map, Value};

pub(crate) use self::equal::{deep_equal, enum_matches};
pub(crate) use self::types::Kind;
use self::types::type_ok;
use crate::compiled::errors::{OpenApiError, add};
use crate::compiled::number::{Num, NumberRules};
use crate::compiled::properties::sorted_maps;
use crate::compiled::{Additional, Node};
use crate::walk::MAX_DEPTH;
use crdkit_apimachinery::field::BadValue;

/// One step of the current path.
#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    /// A property: `spec.replicas` (no dot at the start).
    Property(&'a str),
    /// A value of `additionalProperties`: always dotted, `.key` at the root (as in Go).
    Additional(&'a str),
    /// A list item: `[0]`.
    Index(usize),
}

/// The path of the value being validated, as a chain of stack frames.
#[derive(Clone, Copy)]
pub(crate) struct At<'a> {
    parent: Option<&'a At<'a>>,
    seg: Seg<'a>,
}

impl<'a> At<'a> {
    pub(crate) const ROOT: At<'static> = At {
        parent: None,
        seg: Seg::Root,
    };

    fn then(&'a self, seg: Seg<'a>) -> At<'a> {
        At {
            parent: Some(self),
            seg,
        }
    }

    /// kube-openapi's path string (`spec.ports[0].name`).
    fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut segs = Vec::new();
        let mut at = Some(self);
        while let Some(x) = at {
            segs.push(x.seg);
            at = x.parent;
        }
        let mut out = String::new();
        for s in segs.into_iter().rev() {
            match s {
                Seg::Root => {}
                Seg::Property(name) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(name);
                }
                Seg::Additional(key) => {
                    out.push('.');
                    out.push_str(key);
                }
                Seg::Index(i) => {
                    let _ = write!(out, "[{i}]");
                }
            }
        }
        out
    }
}

/// How a check visits the children of a value: each with [`OpenApi::check`], or, on update,
/// correlated with the old value ([`update`]). Calls come in the order the check visits them:
/// the values of `additionalProperties`, then the properties, each group in the map's order.
trait Children {
    /// The value `v` of key `k` (a property or a value of `additionalProperties`), schema `n`.
    fn property(&mut self, o: &mut OpenApi, n: &Node, k: &str, v: &Value, at: &At) -> usize;
    /// Item `i`, schema `n`.
    fn item(&mut self, o: &mut OpenApi, n: &Node, i: usize, v: &Value, at: &At) -> usize;
}

/// Children checked as they are (a create).
struct Plain;

impl Children for Plain {
    #[inline]
    fn property(&mut self, o: &mut OpenApi, n: &Node, _: &str, v: &Value, at: &At) -> usize {
        o.check(n, v, at)
    }

    #[inline]
    fn item(&mut self, o: &mut OpenApi, n: &Node, _: usize, v: &Value, at: &At) -> usize {
        o.check(n, v, at)
    }
}

/// One validation run: the accumulated errors.
pub(crate) struct OpenApi {
    pub(crate) errors: Vec<OpenApiError>,
    depth: usize,
}

impl OpenApi {
    pub(crate) fn new() -> OpenApi {
        OpenApi {
            errors: Vec::new(),
            depth: 0,
        }
    }

    fn push(&mut self, e: OpenApiError) {
        add(&mut self.errors, e);
    }

    /// `SchemaValidator.Validate` of a value against `n`, its paths relative to the value: the
    /// errors go to `self.errors`; returns the `MatchCount`.
    pub(crate) fn validate(&mut self, n: &Node, v: &Value) -> usize {
        self.check(n, v, &At::ROOT)
    }

    /// [`validate`](Self::validate) of the value at `at`.
    fn check(&mut self, n: &Node, v: &Value, at: &At) -> usize {
        self.check_with(n, v, at, &mut Plain)
    }

    /// [`check`](Self::check) visiting the properties, map values and items of `v` through
    /// `children` (below them, values are checked plainly).
    fn check_with(&mut self, n: &Node, v: &Value, at: &At, children: &mut impl Children) -> usize {
        if self.depth > MAX_DEPTH {
            return self.too_deep(at);
        }
        let kind = match v {
            Value::Null => return self.null(n, at),
            Value::Bool(_) => Kind::Bool,
            Value::String(_) => Kind::String,
            Value::Number(x) => match Num::of(x) {
                Num::Int(_) => Kind::Int,
                Num::Float(f) => Kind::Float(f),
            },
            Value::Array(_) => Kind::Array,
            Value::Object(_) => Kind::Object,
        };
        let mut count = 1;
        if !n.types.is_empty() || !n.format_name.is_empty() {
            let passed = if type_ok(n, kind) {
                1
            } else {
                self.type_check_slow(n, kind, at)
            };
            count += passed + 1;
        }
        if n.junctors {
            count += self.junctors(n, v, at);
        }
        count += 2;
        match v {
            Value::String(s) => {
                if n.string_rules {
                    self.string(n, s, at);
                }
                count += 1;
                if let Some(f) = n.format {
                    if !f.validates(s) {
                        let e = OpenApiError::invalid_type(&at.render(), &n.format_name, s);
                        self.push(e);
                    }
                    count += 1;
                }
            }
            Value::Number(x) => {
                if let Some(rules) = &n.number {
                    let x = Num::of(x);
                    if !rules.fast_ok(x) {
                        self.number(rules, x, at);
                    }
                }
                count += 2;
            }
            Value::Array(items) => count += self.slice(n, items, at, children) + 2,
            _ => {}
        }
        if !n.enum_values.is_empty() {
            self.common(n, v, at);
        }
        count += 1;
        if let Value::Object(map) = v {
            count += self.object(n, map, at, children) + 1;
        }
        count
    }

    #[cold]
    fn too_deep(&mut self, at: &At) -> usize {
        self.push(OpenApiError::Plain(format!(
            "{} exceeds the maximum nesting depth of {MAX_DEPTH}",
            at.render()
        )));
        0
    }

    /// `SchemaValidator.Validate` of null data: the type (`nullable`) and `enum`.
    fn null(&mut self, n: &Node, at: &At) -> usize {
        let count = if !n.types.is_empty() && !n.nullable {
            self.push(OpenApiError::invalid_type(
                &at.render(),
                &n.type_names,
                "null",
            ));
            0
        } else {
            1
        };
        self.common(n, &Value::Null, at);
        count
    }

    /// `numberValidator.Validate` of a number that fails a check.
    #[cold]
    fn number(&mut self, rules: &NumberRules, x: Num, at: &At) {
        let mut errs = Vec::new();
        rules.validate(x, || at.render(), &mut errs);
        for e in errs {
            self.push(e);
        }
    }

    /// Whether `s` passes the string checks.
    #[inline]
    pub(crate) fn string_passes(n: &Node, s: &str) -> bool {
        !n.string_rules || {
            let mut o = OpenApi::new();
            o.string(n, s, &At::ROOT);
            o.errors.is_empty()
        }
    }

    /// `stringValidator.Validate`: the first failing check only.
    fn string(&mut self, n: &Node, s: &str, at: &At) {
        if !n.string_rules {
            return;
        }
        // Characters are counted only when the byte length cannot decide (a character takes
        // one to four bytes).
        let bytes = i64::try_from(s.len()).unwrap_or(i64::MAX);
        let runes = || i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
        if let Some(max) = n.max_length
            && bytes > max
            && runes() > max
        {
            self.push(OpenApiError::too_long(&at.render(), max, s));
            return;
        }
        if let Some(min) = n.min_length
            && (bytes < min || (bytes / 4 < min && runes() < min))
        {
            self.push(OpenApiError::too_short(&at.render(), min, s));
            return;
        }
        if let Some(p) = &n.pattern {
            match &p.compiled {
                Ok(re) if re.is_match(s) => {}
                Ok(_) => self.push(OpenApiError::pattern(&at.render(), &p.source, s)),
                Err(e) => {
                    let shown = format!("{}, but pattern is invalid: {e}", p.source);
                    self.push(OpenApiError::pattern(&at.render(), &shown, s));
                }
            }
        }
    }

    /// `basicCommonValidator.Validate`: `enum`.
    fn common(&mut self, n: &Node, v: &Value, at: &At) {
        if n.enum_values.is_empty()
            || (!v.is_null() && n.enum_values.iter().any(|e| enum_matches(v, e)))
        {
            return;
        }
        let e = OpenApiError::enum_fail(&at.render(), BadValue::from(v), &n.enum_values);
        self.push(e);
    }

    fn slice(&mut self, n: &Node, items: &[Value], at: &At, c: &mut impl Children) -> usize {
        let mut count = 0;
        if let Some(item) = &n.items {
            self.depth += 1;
            for (i, v) in items.iter().enumerate() {
                count += c.item(self, item, i, v, &at.then(Seg::Index(i)));
            }
            self.depth -= 1;
        }
        let size = i64::try_from(items.len()).unwrap_or(i64::MAX);
        if let Some(min) = n.min_items
            && size < min
        {
            self.push(OpenApiError::too_few_items(&at.render(), min, size));
        }
        if let Some(max) = n.max_items
            && size > max
        {
            self.push(OpenApiError::too_many_items(&at.render(), max, size));
        }
        if n.unique_items
            && items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].iter().any(|b| deep_equal(a, b)))
        {
            self.push(OpenApiError::duplicate_items(&at.render()));
        }
        count
    }

    fn object(
        &mut self,
        n: &Node,
        map: &Map<String, Value>,
        at: &At,
        c: &mut impl Children,
    ) -> usize {
        let mut count = 0;
        let size = i64::try_from(map.len()).unwrap_or(i64::MAX);
        if let Some(min) = n.min_properties
            && size < min
        {
            self.push(OpenApiError::too_few_properties(&at.render(), min, size));
        }
        if let Some(max) = n.max_properties
            && size > max
        {
            self.push(OpenApiError::too_many_properties(&at.render(), max, size));
        }
        self.depth += 1;
        // The values of `additionalProperties` first, in the object's order.
        if matches!(
            n.additional,
            Some(Additional::Bool(false) | Additional::Schema(_))
        ) {
            let mut cursor = 0;
            for (k, v) in map {
                if !n.properties.is_empty() && n.property_at(k, &mut cursor).is_some() {
                    continue;
                }
                match &n.additional {
                    Some(Additional::Bool(false)) => {
                        self.push(OpenApiError::property_not_allowed(&at.render(), k));
                    }
                    Some(Additional::Schema(ap)) => {
                        count += c.property(self, ap, k, v, &at.then(Seg::Additional(k)));
                    }
                    _ => {}
                }
            }
        }
        // Then the properties, in name order. `required` names only present properties when
        // their counts add up to its length.
        let mut required = 0;
        if !n.properties.is_empty() {
            let mut visit = |p: &crate::compiled::properties::Property, v: &Value| {
                required += p.required;
                count += c.property(self, &p.node, &p.name, v, &at.then(Seg::Property(&p.name)));
            };
            if sorted_maps() {
                let mut cursor = 0;
                for (k, v) in map {
                    if let Some(p) = n.properties.at_sorted(k, &mut cursor) {
                        visit(p, v);
                    }
                }
            } else {
                for p in n.properties.iter() {
                    if let Some(v) = map.get(&p.name) {
                        visit(p, v);
                    }
                }
            }
        }
        self.depth -= 1;
        if required != n.required.len() {
            for k in &n.required {
                if !map.contains_key(k) {
                    let name = format!("{}.{k}", at.render());
                    self.push(OpenApiError::required(&name));
                }
            }
        }
        count
    }
}
