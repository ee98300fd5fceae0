//! OpenAPI value validation as kube-openapi's `SchemaValidator` does it.
//!
//! Mirrors kube-openapi `pkg/validation/validate/schema.go` (the validator chain: type, schema
//! props, string, format, number, slice, common, object), `type.go`, `schema_props.go`
//! (`allOf`/`anyOf`/`oneOf`/`not` with `MatchCount` picking the reported branch),
//! `slice_validator.go`, `object_validator.go` and `result.go` (errors deduplicated by message).
//!
//! Paths are kube-openapi's dotted strings: properties `spec.replicas`, items `spec.ports[0]`,
//! `additionalProperties` values `spec.labels.app` (a root value is `.app`, as in Go). What differs
//! from Go: properties are visited in name order (Go's map order is random), values of
//! `additionalProperties` in the object's order.

use serde_json::{Map, Value};

use super::compile::{Additional, Node};
use super::errors::{OpenApiError, add};
use super::number::{Num, is_json_integer};
use crate::field::BadValue;
use crate::prune::MAX_DEPTH;
use crate::schema::Type;

/// The JSON kind of a non-null value, as the type validator sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Kind {
    Bool,
    String,
    Int,
    Float(f64),
    Array,
    Object,
}

/// One step of the current path, rendered only when an error needs it.
#[derive(Clone, Copy)]
enum Seg<'a> {
    /// A property: `spec.replicas` (no dot at the start).
    Property(&'a str),
    /// A value of `additionalProperties`: always dotted, `.key` at the root (as in Go).
    Additional(&'a str),
    /// A list item: `[0]`.
    Index(usize),
}

/// One validation run: the accumulated errors and the current path.
pub(crate) struct OpenApi<'a> {
    pub(crate) errors: Vec<OpenApiError>,
    segs: Vec<Seg<'a>>,
    depth: usize,
}

impl<'a> OpenApi<'a> {
    pub(crate) fn new() -> OpenApi<'a> {
        OpenApi {
            errors: Vec::new(),
            segs: Vec::new(),
            depth: 0,
        }
    }

    fn push(&mut self, e: OpenApiError) {
        add(&mut self.errors, e);
    }

    /// kube-openapi's path string of the current value (`spec.ports[0].name`).
    fn path(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for s in &self.segs {
            match s {
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

    /// `SchemaValidator.Validate`: the errors go to `self.errors`; returns the `MatchCount`.
    pub(crate) fn validate(&mut self, n: &'a Node, v: &'a Value) -> usize {
        if self.depth > MAX_DEPTH {
            self.push(OpenApiError::Plain(format!(
                "{} exceeds the maximum nesting depth of {MAX_DEPTH}",
                self.path()
            )));
            return 0;
        }
        if v.is_null() {
            let count = self.type_null(n);
            self.common(n, v);
            return count;
        }
        let mut count = 1;
        if !n.types.is_empty() || !n.format_name.is_empty() {
            count += self.type_check(n, v) + 1;
        }
        count += self.junctors(n, v) + 2;
        match v {
            Value::String(s) => {
                self.string(n, s);
                count += 1;
                if let Some(f) = n.format {
                    if !f.validates(s) {
                        self.push(OpenApiError::invalid_type(&self.path(), &n.format_name, s));
                    }
                    count += 1;
                }
            }
            Value::Number(x) => {
                if let Some(rules) = &n.number {
                    let mut errs = Vec::new();
                    rules.validate(Num::of(x), || self.path(), &mut errs);
                    for e in errs {
                        self.push(e);
                    }
                }
                count += 2;
            }
            Value::Array(items) => count += self.slice(n, items) + 2,
            _ => {}
        }
        self.common(n, v);
        count += 1;
        if let Value::Object(map) = v {
            count += self.object(n, map) + 1;
        }
        count
    }

    pub(crate) fn type_null(&mut self, n: &Node) -> usize {
        if !n.types.is_empty() && !n.nullable {
            self.push(OpenApiError::invalid_type(
                &self.path(),
                &n.type_names,
                "null",
            ));
            0
        } else {
            1
        }
    }

    /// `typeValidator.Validate` for non-null data.
    fn type_check(&mut self, n: &Node, v: &Value) -> usize {
        let kind = match v {
            Value::Bool(_) => Kind::Bool,
            Value::String(_) => Kind::String,
            Value::Number(x) => match Num::of(x) {
                Num::Int(_) => Kind::Int,
                Num::Float(f) => Kind::Float(f),
            },
            Value::Array(_) => Kind::Array,
            Value::Object(_) | Value::Null => Kind::Object,
        };
        self.type_check_kind(n, kind)
    }

    /// `typeValidator.Validate` for a value of the given kind; 1 if it passes, else 0.
    // The conditions keep the shape of Go's, to be compared line by line.
    #[allow(clippy::nonminimal_bool)]
    pub(crate) fn type_check_kind(&mut self, n: &Node, kind: Kind) -> usize {
        let (sch, fmt, float) = match kind {
            Kind::Bool => ("boolean", "", None),
            Kind::String => ("string", "", None),
            Kind::Int => ("integer", "int64", None),
            Kind::Float(f) => ("number", "float64", Some(f)),
            Kind::Array => ("array", "", None),
            Kind::Object => ("object", "", None),
        };
        let contains = |t: &str| n.types.iter().any(|x| x.as_str() == t);
        let float_int = float.is_some_and(is_json_integer) && n.has_type(Type::Integer);
        let int_float = sch == "integer" && n.has_type(Type::Number);
        let str_or_slice = matches!(kind, Kind::String | Kind::Array);
        let fmt_name = n.format_name.as_str();
        if !str_or_slice
            && !fmt_name.is_empty()
            && !(contains(sch) || fmt == fmt_name || float_int || int_float)
        {
            self.push(OpenApiError::invalid_type(&self.path(), fmt_name, fmt));
            return 0;
        }
        if !(n.has_type(Type::Number) || n.has_type(Type::Integer))
            && !fmt_name.is_empty()
            && str_or_slice
        {
            return 1;
        }
        if !(contains(sch) || float_int || int_float) {
            self.push(OpenApiError::invalid_type(&self.path(), &n.type_names, sch));
            return 0;
        }
        1
    }

    /// Validates `v` against a junctor branch into a fresh result.
    fn branch(&mut self, n: &'a Node, v: &'a Value) -> (Vec<OpenApiError>, usize) {
        let saved = std::mem::take(&mut self.errors);
        let count = self.validate(n, v);
        (std::mem::replace(&mut self.errors, saved), count)
    }

    fn merge(&mut self, errs: Vec<OpenApiError>) {
        for e in errs {
            self.push(e);
        }
    }

    /// `schemaPropsValidator.Validate`; returns the merged branches' `MatchCount`.
    fn junctors(&mut self, n: &'a Node, v: &'a Value) -> usize {
        let mut count = 0;
        if !n.any_of.is_empty() {
            let mut best: Option<(Vec<OpenApiError>, usize)> = None;
            let mut success = None;
            for b in &n.any_of {
                let (errs, c) = self.branch(b, v);
                if errs.is_empty() {
                    best = None;
                    success = Some(c);
                    break;
                }
                if best.as_ref().is_none_or(|(_, bc)| c > *bc) {
                    best = Some((errs, c));
                }
            }
            if success.is_none() {
                self.push(OpenApiError::any_of(&self.path()));
            }
            if let Some((errs, c)) = best {
                self.merge(errs);
                count += c;
            } else if let Some(c) = success {
                count += c;
            }
        }
        if !n.one_of.is_empty() {
            let mut best: Option<(Vec<OpenApiError>, usize)> = None;
            let mut success = None;
            let mut valid = 0;
            for b in &n.one_of {
                let (errs, c) = self.branch(b, v);
                if errs.is_empty() {
                    valid += 1;
                    best = None;
                    success.get_or_insert(c);
                    continue;
                }
                if valid == 0 && best.as_ref().is_none_or(|(_, bc)| c > *bc) {
                    best = Some((errs, c));
                }
            }
            if valid != 1 {
                self.push(OpenApiError::one_of(&self.path(), valid));
                if let Some((errs, c)) = best {
                    self.merge(errs);
                    count += c;
                }
            } else if let Some(c) = success {
                count += c;
            }
        }
        if !n.all_of.is_empty() {
            let mut valid = 0;
            for b in &n.all_of {
                let (errs, c) = self.branch(b, v);
                if errs.is_empty() {
                    valid += 1;
                }
                self.merge(errs);
                count += c;
            }
            if valid != n.all_of.len() {
                self.push(OpenApiError::all_of(&self.path(), valid == 0));
            }
        }
        if let Some(not) = &n.not {
            let (errs, _) = self.branch(not, v);
            if errs.is_empty() {
                self.push(OpenApiError::not(&self.path()));
            }
        }
        count
    }

    /// `stringValidator.Validate`: the first failing check only.
    pub(crate) fn string(&mut self, n: &Node, s: &str) {
        if n.max_length.is_none() && n.min_length.is_none() && n.pattern.is_none() {
            return;
        }
        let runes = || i64::try_from(s.chars().count()).unwrap_or(i64::MAX);
        if let Some(max) = n.max_length
            && runes() > max
        {
            self.push(OpenApiError::too_long(&self.path(), max, s));
            return;
        }
        if let Some(min) = n.min_length
            && runes() < min
        {
            self.push(OpenApiError::too_short(&self.path(), min, s));
            return;
        }
        if let Some(p) = &n.pattern {
            match &p.compiled {
                Ok(re) if re.is_match(s) => {}
                Ok(_) => self.push(OpenApiError::pattern(&self.path(), &p.source, s)),
                Err(e) => {
                    let shown = format!("{}, but pattern is invalid: {e}", p.source);
                    self.push(OpenApiError::pattern(&self.path(), &shown, s));
                }
            }
        }
    }

    /// `basicCommonValidator.Validate`: `enum`.
    pub(crate) fn common(&mut self, n: &Node, v: &Value) {
        if n.enum_values.is_empty()
            || (!v.is_null() && n.enum_values.iter().any(|e| enum_matches(v, e)))
        {
            return;
        }
        let e = OpenApiError::enum_fail(&self.path(), BadValue::from(v), &n.enum_values);
        self.push(e);
    }

    fn slice(&mut self, n: &'a Node, items: &'a [Value]) -> usize {
        let mut count = 0;
        if let Some(item) = &n.items {
            self.depth += 1;
            for (i, v) in items.iter().enumerate() {
                self.segs.push(Seg::Index(i));
                count += self.validate(item, v);
                self.segs.pop();
            }
            self.depth -= 1;
        }
        let size = i64::try_from(items.len()).unwrap_or(i64::MAX);
        if let Some(min) = n.min_items
            && size < min
        {
            self.push(OpenApiError::too_few_items(&self.path(), min, size));
        }
        if let Some(max) = n.max_items
            && size > max
        {
            self.push(OpenApiError::too_many_items(&self.path(), max, size));
        }
        if n.unique_items
            && items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].iter().any(|b| deep_equal(a, b)))
        {
            self.push(OpenApiError::duplicate_items(&self.path()));
        }
        count
    }

    fn object(&mut self, n: &'a Node, map: &'a Map<String, Value>) -> usize {
        let mut count = 0;
        let size = i64::try_from(map.len()).unwrap_or(i64::MAX);
        if let Some(min) = n.min_properties
            && size < min
        {
            self.push(OpenApiError::too_few_properties(&self.path(), min, size));
        }
        if let Some(max) = n.max_properties
            && size > max
        {
            self.push(OpenApiError::too_many_properties(&self.path(), max, size));
        }
        self.depth += 1;
        match &n.additional {
            Some(Additional::Bool(false)) => {
                for k in map.keys() {
                    if n.property(k).is_none() {
                        self.push(OpenApiError::property_not_allowed(&self.path(), k));
                    }
                }
            }
            Some(Additional::Schema(ap)) => {
                for (k, v) in map {
                    if n.property(k).is_none() {
                        self.segs.push(Seg::Additional(k));
                        count += self.validate(ap, v);
                        self.segs.pop();
                    }
                }
            }
            _ => {}
        }
        for (name, p) in &n.properties {
            if let Some(v) = map.get(name) {
                self.segs.push(Seg::Property(name));
                count += self.validate(p, v);
                self.segs.pop();
            }
        }
        self.depth -= 1;
        for k in &n.required {
            if !map.contains_key(k) {
                let name = format!("{}.{k}", self.path());
                self.push(OpenApiError::required(&name));
            }
        }
        count
    }
}

/// Go's `reflect.DeepEqual` of decoded JSON (integers and floats are different types).
pub(crate) fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (Num::of(x), Num::of(y)) {
            (Num::Int(i), Num::Int(j)) => i == j,
            (Num::Float(f), Num::Float(g)) => f == g,
            _ => false,
        },
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| deep_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| deep_equal(a, b)))
        }
        _ => a == b,
    }
}

/// Whether `data` equals `e` after Go's `reflect.Value.Convert` to the enum value's type.
pub(crate) fn enum_matches(data: &Value, e: &Value) -> bool {
    match (data, e) {
        (Value::Number(x), Value::Number(y)) => match (Num::of(x), Num::of(y)) {
            (Num::Int(i), Num::Int(j)) => i == j,
            #[allow(clippy::cast_precision_loss)]
            (Num::Int(i), Num::Float(g)) => i as f64 == g,
            (Num::Float(f), Num::Int(j)) => super::number::go_f64_to_i64(f) == j,
            (Num::Float(f), Num::Float(g)) => f == g,
        },
        // Go converts an integer to the string of that code point.
        (Value::Number(x), Value::String(s)) => match Num::of(x) {
            Num::Int(i) => {
                let c = u32::try_from(i)
                    .ok()
                    .and_then(char::from_u32)
                    .unwrap_or('\u{fffd}');
                s.chars().eq(std::iter::once(c))
            }
            Num::Float(_) => false,
        },
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::Array(_), Value::Array(_)) | (Value::Object(_), Value::Object(_)) => {
            deep_equal(data, e)
        }
        _ => false,
    }
}
