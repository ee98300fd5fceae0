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

/// One validation run: the accumulated errors and the current path.
pub(crate) struct OpenApi {
    pub(crate) errors: Vec<OpenApiError>,
    pub(crate) path: String,
    depth: usize,
}

impl OpenApi {
    pub(crate) fn new() -> OpenApi {
        OpenApi {
            errors: Vec::new(),
            path: String::new(),
            depth: 0,
        }
    }

    /// `SchemaValidator.Validate`: the errors go to `self.errors`; returns the `MatchCount`.
    pub(crate) fn validate(&mut self, n: &Node, v: &Value) -> usize {
        if self.depth > MAX_DEPTH {
            add(
                &mut self.errors,
                OpenApiError::Plain(format!(
                    "{} exceeds the maximum nesting depth of {MAX_DEPTH}",
                    self.path
                )),
            );
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
                        add(
                            &mut self.errors,
                            OpenApiError::invalid_type(&self.path, &n.format_name, s),
                        );
                    }
                    count += 1;
                }
            }
            Value::Number(x) => {
                if let Some(rules) = &n.number {
                    rules.validate(Num::of(x), &self.path, &mut self.errors);
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
            add(
                &mut self.errors,
                OpenApiError::invalid_type(&self.path, &n.type_names, "null"),
            );
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
            add(
                &mut self.errors,
                OpenApiError::invalid_type(&self.path, fmt_name, fmt),
            );
            return 0;
        }
        if !(n.has_type(Type::Number) || n.has_type(Type::Integer))
            && !fmt_name.is_empty()
            && str_or_slice
        {
            return 1;
        }
        if !(contains(sch) || float_int || int_float) {
            add(
                &mut self.errors,
                OpenApiError::invalid_type(&self.path, &n.type_names, sch),
            );
            return 0;
        }
        1
    }

    /// Validates `v` against a junctor branch into a fresh result.
    fn branch(&mut self, n: &Node, v: &Value) -> (Vec<OpenApiError>, usize) {
        let saved = std::mem::take(&mut self.errors);
        let count = self.validate(n, v);
        (std::mem::replace(&mut self.errors, saved), count)
    }

    fn merge(&mut self, errs: Vec<OpenApiError>) {
        for e in errs {
            add(&mut self.errors, e);
        }
    }

    /// `schemaPropsValidator.Validate`; returns the merged branches' `MatchCount`.
    fn junctors(&mut self, n: &Node, v: &Value) -> usize {
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
                add(&mut self.errors, OpenApiError::any_of(&self.path));
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
                add(&mut self.errors, OpenApiError::one_of(&self.path, valid));
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
                add(
                    &mut self.errors,
                    OpenApiError::all_of(&self.path, valid == 0),
                );
            }
        }
        if let Some(not) = &n.not {
            let (errs, _) = self.branch(not, v);
            if errs.is_empty() {
                add(&mut self.errors, OpenApiError::not(&self.path));
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
            add(&mut self.errors, OpenApiError::too_long(&self.path, max, s));
            return;
        }
        if let Some(min) = n.min_length
            && runes() < min
        {
            add(
                &mut self.errors,
                OpenApiError::too_short(&self.path, min, s),
            );
            return;
        }
        if let Some(p) = &n.pattern {
            match &p.compiled {
                Ok(re) if re.is_match(s) => {}
                Ok(_) => add(
                    &mut self.errors,
                    OpenApiError::pattern(&self.path, &p.source, s),
                ),
                Err(e) => {
                    let shown = format!("{}, but pattern is invalid: {e}", p.source);
                    add(
                        &mut self.errors,
                        OpenApiError::pattern(&self.path, &shown, s),
                    );
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
        let e = OpenApiError::enum_fail(&self.path, BadValue::from(v), &n.enum_values);
        add(&mut self.errors, e);
    }

    fn slice(&mut self, n: &Node, items: &[Value]) -> usize {
        let mut count = 0;
        if let Some(item) = &n.items {
            let len = self.path.len();
            self.depth += 1;
            for (i, v) in items.iter().enumerate() {
                use std::fmt::Write as _;
                let _ = write!(self.path, "[{i}]");
                count += self.validate(item, v);
                self.path.truncate(len);
            }
            self.depth -= 1;
        }
        let size = i64::try_from(items.len()).unwrap_or(i64::MAX);
        if let Some(min) = n.min_items
            && size < min
        {
            add(
                &mut self.errors,
                OpenApiError::too_few_items(&self.path, min, size),
            );
        }
        if let Some(max) = n.max_items
            && size > max
        {
            add(
                &mut self.errors,
                OpenApiError::too_many_items(&self.path, max, size),
            );
        }
        if n.unique_items
            && items
                .iter()
                .enumerate()
                .any(|(i, a)| items[..i].iter().any(|b| deep_equal(a, b)))
        {
            add(&mut self.errors, OpenApiError::duplicate_items(&self.path));
        }
        count
    }

    fn object(&mut self, n: &Node, map: &Map<String, Value>) -> usize {
        let mut count = 0;
        let size = i64::try_from(map.len()).unwrap_or(i64::MAX);
        if let Some(min) = n.min_properties
            && size < min
        {
            add(
                &mut self.errors,
                OpenApiError::too_few_properties(&self.path, min, size),
            );
        }
        if let Some(max) = n.max_properties
            && size > max
        {
            add(
                &mut self.errors,
                OpenApiError::too_many_properties(&self.path, max, size),
            );
        }
        let len = self.path.len();
        self.depth += 1;
        match &n.additional {
            Some(Additional::Bool(false)) => {
                for k in map.keys() {
                    if n.property(k).is_none() {
                        add(
                            &mut self.errors,
                            OpenApiError::property_not_allowed(&self.path, k),
                        );
                    }
                }
            }
            Some(Additional::Schema(ap)) => {
                for (k, v) in map {
                    if n.property(k).is_none() {
                        self.path.push('.');
                        self.path.push_str(k);
                        count += self.validate(ap, v);
                        self.path.truncate(len);
                    }
                }
            }
            _ => {}
        }
        for (name, p) in &n.properties {
            if let Some(v) = map.get(name) {
                if !self.path.is_empty() {
                    self.path.push('.');
                }
                self.path.push_str(name);
                count += self.validate(p, v);
                self.path.truncate(len);
            }
        }
        self.depth -= 1;
        for k in &n.required {
            if !map.contains_key(k) {
                let name = format!("{}.{k}", self.path);
                add(&mut self.errors, OpenApiError::required(&name));
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
