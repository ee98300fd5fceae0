//! [`Shape`] → [`Structural`]: lays out serde's enum representations and flattened fields as
//! structural schemas.
//!
//! Layouts (each also checked at compile time by [`super::check`], so `build` fails only for
//! run-time schemas, such as `#[crd(schemars)]` fields):
//! - unit-only enums: `type: string` with `enum`;
//! - external data enums: an object with one optional property per variant and a `oneOf` that
//!   requires exactly one of them;
//! - internally tagged enums: one object holding the tag (a string `enum`) and the union of the
//!   variants' fields; per-variant `required` fields go in `oneOf` branches keyed by the tag;
//! - adjacently tagged enums: `{tag, content}` with the union of the payloads as `content`;
//! - untagged enums: the union of the payloads (`integer | string` is `x-kubernetes-int-or-string`).

use std::fmt;

use serde_json::Value;

use super::{DefaultValue, Enum, Field, Kind, Repr, Shape, VariantKind};
use crdkit_schema::{
    AdditionalProperties, NestedValueValidation, Structural, Type, ValidationRule,
};

/// A shape that has no structural schema, at a JSON path (`spec.items[*].name`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildError {
    /// The JSON path of the node (`spec.items[*].name`); empty for the root.
    pub path: String,
    /// What is wrong there: a layout with no structural schema (variants that disagree on a
    /// field, a flattened field that is not a struct), or a default function that failed.
    pub message: String,
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.path, self.message)
        }
    }
}

impl std::error::Error for BuildError {}

/// Builds the structural schema of `shape`, reporting every problem with its path.
///
/// # Errors
/// When a part of the shape has no structural schema.
pub fn build(shape: &Shape) -> Result<Structural, Vec<BuildError>> {
    build_at(shape, "")
}

/// Like [`build`], with paths starting at `path`.
///
/// # Errors
/// When a part of the shape has no structural schema.
pub fn build_at(shape: &Shape, path: &str) -> Result<Structural, Vec<BuildError>> {
    let mut b = Builder { errors: Vec::new() };
    let s = b.node(shape, path);
    if b.errors.is_empty() {
        Ok(s)
    } else {
        Err(b.errors)
    }
}

struct Builder {
    errors: Vec<BuildError>,
}

fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

impl Builder {
    fn err(&mut self, path: &str, message: impl Into<String>) {
        self.errors.push(BuildError {
            path: path.to_owned(),
            message: message.into(),
        });
    }

    fn node(&mut self, shape: &Shape, path: &str) -> Structural {
        let mut s = match shape.kind {
            Kind::Any => Structural::default(),
            Kind::Boolean => Structural::of_type(Type::Boolean),
            Kind::Integer => Structural::of_type(Type::Integer),
            Kind::Number => Structural::of_type(Type::Number),
            Kind::String => Structural::of_type(Type::String),
            Kind::IntOrString => {
                let mut s = Structural::default();
                s.extensions.int_or_string = true;
                s
            }
            Kind::Array(items) => {
                let mut s = Structural::of_type(Type::Array);
                s.items = Some(Box::new(self.node(items, &format!("{path}[*]"))));
                s
            }
            Kind::Map(values) => {
                let mut s = Structural::of_type(Type::Object);
                let v = self.node(values, &format!("{path}[*]"));
                s.additional_properties = Some(AdditionalProperties::Schema(Box::new(v)));
                s
            }
            Kind::Struct(_) if shape.object_meta => Structural::of_type(Type::Object),
            Kind::Struct(fields) => self.object(fields, path),
            Kind::Enum(e) => self.enumeration(e, shape.name, path),
            Kind::Dynamic(f) => match f() {
                Ok(s) => s,
                Err(e) => {
                    self.err(path, e.to_string());
                    Structural::default()
                }
            },
        };
        self.keywords(&mut s, shape, path);
        s
    }

    /// Applies the keywords written on the shape over the node its kind produced.
    fn keywords(&mut self, s: &mut Structural, shape: &Shape, path: &str) {
        let g = &mut s.generic;
        if let Some(d) = shape.description {
            g.description = Some(d.to_owned());
        }
        if let Some(t) = shape.title {
            g.title = Some(t.to_owned());
        }
        g.nullable |= shape.nullable;
        if (shape.embedded_resource || shape.object) && g.ty.is_none() {
            g.ty = Some(Type::Object);
        }
        match shape.default {
            Some(DefaultValue::Value(v)) => g.default = Some(v.to_value()),
            Some(DefaultValue::Fn(f)) => match f() {
                Ok(Some(v)) => match super::check::check_default_value(&v, shape) {
                    Ok(()) => g.default = Some(v),
                    Err(e) => self.err(path, format!("invalid default {v}: {e}")),
                },
                Ok(None) => {}
                Err(e) => self.err(path, format!("default: {e}")),
            },
            None => {}
        }
        let v = &mut s.value_validation;
        if let Some(f) = shape.format {
            v.format = Some(f.to_owned());
        }
        set(&mut v.minimum, shape.minimum);
        set(&mut v.maximum, shape.maximum);
        v.exclusive_minimum |= shape.exclusive_minimum;
        v.exclusive_maximum |= shape.exclusive_maximum;
        set(&mut v.multiple_of, shape.multiple_of);
        set(&mut v.min_length, shape.min_length.map(saturate));
        set(&mut v.max_length, shape.max_length.map(saturate));
        if let Some(p) = shape.pattern {
            v.pattern = Some(p.to_owned());
        }
        set(&mut v.min_items, shape.min_items.map(saturate));
        set(&mut v.max_items, shape.max_items.map(saturate));
        set(&mut v.min_properties, shape.min_properties.map(saturate));
        set(&mut v.max_properties, shape.max_properties.map(saturate));
        if !shape.enum_values.is_empty() {
            v.enum_values = shape
                .enum_values
                .iter()
                .map(super::Json::to_value)
                .collect();
        }
        let x = &mut s.extensions;
        x.preserve_unknown_fields |= shape.preserve_unknown_fields;
        x.embedded_resource |= shape.embedded_resource;
        if shape.list_type.is_some() {
            x.list_type = shape.list_type;
        }
        if !shape.list_map_keys.is_empty() {
            x.list_map_keys = shape
                .list_map_keys
                .iter()
                .map(|k| (*k).to_owned())
                .collect();
        }
        if shape.map_type.is_some() {
            x.map_type = shape.map_type;
        }
        if !shape.junctors.is_empty() {
            self.junctors(s, &shape.junctors, path);
        }
        let x = &mut s.extensions;
        x.validations
            .extend(shape.rules.iter().map(|r| ValidationRule {
                rule: r.rule.to_owned(),
                message: r.message.unwrap_or_default().to_owned(),
                message_expression: r.message_expression.unwrap_or_default().to_owned(),
                reason: r.reason.map(str::to_owned),
                field_path: r.field_path.unwrap_or_default().to_owned(),
                optional_old_self: r.optional_old_self.then_some(true),
            }));
    }

    /// `allOf`, `anyOf`, `oneOf` and `not`, read as the API server reads them.
    fn junctors(&mut self, s: &mut Structural, j: &super::Junctors, path: &str) {
        let list = |branches: &[super::Json]| -> Value {
            Value::Array(branches.iter().map(super::Json::to_value).collect())
        };
        let mut props = serde_json::Map::new();
        for (key, branches) in [
            ("allOf", j.all_of),
            ("anyOf", j.any_of),
            ("oneOf", j.one_of),
        ] {
            if !branches.is_empty() {
                props.insert(key.to_owned(), list(branches));
            }
        }
        if let Some(n) = j.not {
            props.insert("not".to_owned(), n.to_value());
        }
        let read =
            serde_json::from_value::<crdkit_schema::props::JsonSchemaProps>(Value::Object(props))
                .map_err(|e| e.to_string())
                .and_then(|p| Structural::from_props(&p).map_err(|e| e.to_string()));
        match read {
            Ok(read) => {
                let (v, r) = (&mut s.value_validation, read.value_validation);
                v.all_of.extend(r.all_of);
                v.any_of.extend(r.any_of);
                v.one_of.extend(r.one_of);
                if r.not.is_some() {
                    v.not = r.not;
                }
            }
            Err(e) => self.err(path, format!("allOf/anyOf/oneOf/not: {e}")),
        }
    }

    /// A struct's fields, with flattened fields merged in.
    fn object(&mut self, fields: &[Field], path: &str) -> Structural {
        let mut s = Structural::of_type(Type::Object);
        let mut extra: Option<Structural> = None;
        for f in fields {
            if f.flatten {
                let inner = self.node(f.shape, path);
                self.merge_flattened(&mut s, &mut extra, inner, f, path);
                continue;
            }
            let p = child(path, f.name);
            let node = self.node(f.shape, &p);
            if s.properties.insert(f.name.to_owned(), node).is_some() {
                self.err(
                    &p,
                    format!(
                        "field `{}` is serialized as \"{}\", a name another field already has",
                        f.ident, f.name
                    ),
                );
            }
            if f.required {
                s.value_validation.required.push(f.name.to_owned());
            }
        }
        if let Some(values) = extra {
            if s.properties.is_empty() {
                s.additional_properties = Some(AdditionalProperties::Schema(Box::new(values)));
            } else {
                // Properties and additionalProperties exclude each other in CRDs: keep the
                // map's entries by not pruning unknown fields.
                s.extensions.preserve_unknown_fields = true;
            }
        }
        s
    }

    fn merge_flattened(
        &mut self,
        s: &mut Structural,
        extra: &mut Option<Structural>,
        inner: Structural,
        f: &Field,
        path: &str,
    ) {
        if inner.generic.ty.is_some_and(|t| t != Type::Object) {
            self.err(
                path,
                format!(
                    "`#[serde(flatten)]` field `{}` is not a struct or map",
                    f.ident
                ),
            );
            return;
        }
        for (k, v) in inner.properties {
            if let Some(old) = s.properties.get(&k) {
                if !same_schema(old, &v) {
                    self.err(&child(path, &k), format!("flattened field `{}` brings a field \"{k}\" that is already defined differently", f.ident));
                }
            } else {
                s.properties.insert(k, v);
            }
        }
        if f.required {
            for r in &inner.value_validation.required {
                if !s.value_validation.required.contains(r) {
                    s.value_validation.required.push(r.clone());
                }
            }
        }
        match inner.additional_properties {
            Some(AdditionalProperties::Schema(v)) => *extra = Some(*v),
            Some(AdditionalProperties::Bool(true)) => s.extensions.preserve_unknown_fields = true,
            _ => {}
        }
        if inner.generic.ty.is_none() || inner.extensions.preserve_unknown_fields {
            s.extensions.preserve_unknown_fields = true;
        }
        let vv = inner.value_validation;
        if f.required && (!vv.one_of.is_empty() || !vv.any_of.is_empty()) {
            let own = &mut s.value_validation;
            if own.one_of.is_empty() && own.any_of.is_empty() {
                own.one_of = vv.one_of;
                own.any_of = vv.any_of;
            } else {
                own.all_of.push(NestedValueValidation {
                    value_validation: crdkit_schema::ValueValidation {
                        one_of: vv.one_of,
                        any_of: vv.any_of,
                        ..Default::default()
                    },
                    ..NestedValueValidation::default()
                });
            }
        }
        s.extensions
            .validations
            .extend(inner.extensions.validations);
    }

    fn enumeration(&mut self, e: &Enum, name: &str, path: &str) -> Structural {
        let names: Vec<Value> = e.variants.iter().map(|v| Value::from(v.name)).collect();
        let all_unit = e
            .variants
            .iter()
            .all(|v| matches!(v.kind, VariantKind::Unit));
        match e.repr {
            Repr::External if all_unit => {
                let mut s = Structural::of_type(Type::String);
                s.value_validation.enum_values = names;
                s
            }
            Repr::External => {
                if let Some(unit) = e
                    .variants
                    .iter()
                    .find(|v| matches!(v.kind, VariantKind::Unit))
                {
                    self.err(
                        path,
                        super::check::mixed_external_message(name, unit.name).to_string(),
                    );
                    return Structural::default();
                }
                let mut s = Structural::of_type(Type::Object);
                for v in e.variants {
                    let p = child(path, v.name);
                    let mut node = self.payload(v.kind, &p);
                    if let Some(d) = v.description {
                        node.generic.description = Some(d.to_owned());
                    }
                    s.properties.insert(v.name.to_owned(), node);
                    s.value_validation
                        .one_of
                        .push(required_branch(&[v.name.to_owned()]));
                }
                s
            }
            Repr::Internal { tag } => self.internal(e, tag, names, path),
            Repr::Adjacent { tag, content } => self.adjacent(e, name, tag, content, names, path),
            Repr::Untagged => {
                let nodes: Vec<Structural> = e
                    .variants
                    .iter()
                    .map(|v| match v.kind {
                        VariantKind::Unit => {
                            let mut n = Structural::default();
                            n.generic.nullable = true;
                            n
                        }
                        k => self.payload(k, path),
                    })
                    .collect();
                self.union(nodes, name, None, path)
            }
        }
    }

    fn payload(&mut self, kind: VariantKind, path: &str) -> Structural {
        match kind {
            VariantKind::Unit => Structural::default(),
            VariantKind::Newtype(shape) => self.node(shape, path),
            VariantKind::Struct(fields) => self.object(fields, path),
        }
    }

    fn internal(&mut self, e: &Enum, tag: &str, names: Vec<Value>, path: &str) -> Structural {
        let mut s = Structural::of_type(Type::Object);
        let mut tag_schema = Structural::of_type(Type::String);
        tag_schema.value_validation.enum_values = names;
        s.properties.insert(tag.to_owned(), tag_schema);
        s.value_validation.required.push(tag.to_owned());
        let mut branches = Vec::new();
        let mut any_required = false;
        for v in e.variants {
            let node = match v.kind {
                VariantKind::Unit => Structural::of_type(Type::Object),
                k => self.payload(k, path),
            };
            if node.generic.ty.is_some_and(|t| t != Type::Object) {
                self.err(
                    path,
                    format!(
                        "internally tagged variant `{}` must hold a struct, not a {}",
                        v.name,
                        node.generic.ty.map_or("value", Type::as_str)
                    ),
                );
                continue;
            }
            for (k, p) in node.properties {
                match s.properties.get(&k) {
                    Some(old) if !same_schema(old, &p) => self.err(
                        &child(path, &k),
                        format!("variants of the enum define field \"{k}\" with different schemas"),
                    ),
                    Some(_) => {}
                    None => {
                        s.properties.insert(k, p);
                    }
                }
            }
            // A map payload's entries sit next to the tag: CRDs forbid `properties` with
            // `additionalProperties`, so they are kept as unknown fields (as a flattened map).
            if node.extensions.preserve_unknown_fields
                || node.generic.ty.is_none()
                || node.additional_properties.is_some()
            {
                s.extensions.preserve_unknown_fields = true;
            }
            let required = node.value_validation.required;
            any_required |= !required.is_empty();
            let mut b = required_branch(&required);
            b.properties.insert(tag.to_owned(), enum_branch(v.name));
            branches.push(b);
        }
        if any_required {
            s.value_validation.one_of = branches;
        }
        s
    }

    fn adjacent(
        &mut self,
        e: &Enum,
        name: &str,
        tag: &str,
        content: &str,
        names: Vec<Value>,
        path: &str,
    ) -> Structural {
        let mut s = Structural::of_type(Type::Object);
        let mut tag_schema = Structural::of_type(Type::String);
        tag_schema.value_validation.enum_values = names;
        s.properties.insert(tag.to_owned(), tag_schema);
        s.value_validation.required.push(tag.to_owned());
        let cpath = child(path, content);
        let mut payloads = Vec::new();
        let mut branches = Vec::new();
        for v in e.variants {
            let mut b = NestedValueValidation::default();
            b.properties.insert(tag.to_owned(), enum_branch(v.name));
            if !matches!(v.kind, VariantKind::Unit) {
                let node = self.payload(v.kind, &cpath);
                b.value_validation.required = vec![tag.to_owned(), content.to_owned()];
                if !node.value_validation.required.is_empty() {
                    b.properties.insert(
                        content.to_owned(),
                        required_branch(&node.value_validation.required),
                    );
                }
                payloads.push(node);
            }
            branches.push(b);
        }
        if !payloads.is_empty() {
            let mut merged = self.union(payloads, name, Some(content), &cpath);
            // Each variant's required fields are in its own oneOf branch already.
            merged.value_validation.required.clear();
            merged.value_validation.any_of.clear();
            s.properties.insert(content.to_owned(), merged);
            s.value_validation.one_of = branches;
        }
        s
    }

    /// The schema of a value that is any of `nodes`; `required` of objects moves into `anyOf`.
    fn union(
        &mut self,
        nodes: Vec<Structural>,
        name: &str,
        content: Option<&str>,
        path: &str,
    ) -> Structural {
        // A unit variant of an untagged enum is written as null: it makes the union nullable.
        let is_null = |n: &Structural| {
            n.generic.nullable
                && n.generic.ty.is_none()
                && !n.extensions.int_or_string
                && !n.extensions.preserve_unknown_fields
        };
        let nullable = nodes.iter().any(is_null);
        let typed: Vec<Structural> = nodes.into_iter().filter(|n| !is_null(n)).collect();
        let mut out = if typed
            .iter()
            .any(|n| n.generic.ty.is_none() && n.extensions.preserve_unknown_fields)
        {
            Structural {
                extensions: crdkit_schema::Extensions {
                    preserve_unknown_fields: true,
                    ..Default::default()
                },
                ..Default::default()
            }
        } else if typed.is_empty() {
            Structural::default()
        } else if typed.iter().all(|n| n.generic.ty == Some(Type::Object)) {
            self.union_objects(typed, path)
        } else {
            let mut types: Vec<&'static str> = typed
                .iter()
                .map(|n| {
                    if n.extensions.int_or_string {
                        "int-or-string"
                    } else {
                        n.generic.ty.map_or("any", Type::as_str)
                    }
                })
                .collect();
            types.sort_unstable();
            types.dedup();
            match types.as_slice() {
                [_] => {
                    let mut first = typed.into_iter().next().unwrap_or_default();
                    first.value_validation.enum_values.clear();
                    first
                }
                ["integer", "number"] => Structural::of_type(Type::Number),
                ["int-or-string", "integer"]
                | ["int-or-string", "string"]
                | ["int-or-string", "integer", "string"]
                | ["integer", "string"] => {
                    let mut s = Structural::default();
                    s.extensions.int_or_string = true;
                    s
                }
                _ => {
                    self.err(
                        path,
                        super::check::union_message(name, content, &types.join(" and "))
                            .to_string(),
                    );
                    Structural::default()
                }
            }
        };
        out.generic.nullable |= nullable;
        out
    }

    fn union_objects(&mut self, nodes: Vec<Structural>, path: &str) -> Structural {
        let mut s = Structural::of_type(Type::Object);
        let mut branches = Vec::new();
        let mut every_variant_requires = true;
        for n in nodes {
            for (k, p) in n.properties {
                match s.properties.get(&k) {
                    Some(old) if !same_schema(old, &p) => self.err(
                        &child(path, &k),
                        format!("variants of the enum define field \"{k}\" with different schemas"),
                    ),
                    Some(_) => {}
                    None => {
                        s.properties.insert(k, p);
                    }
                }
            }
            if n.extensions.preserve_unknown_fields {
                s.extensions.preserve_unknown_fields = true;
            }
            if let Some(a) = n.additional_properties {
                s.additional_properties = Some(a);
            }
            every_variant_requires &= !n.value_validation.required.is_empty();
            branches.push(required_branch(&n.value_validation.required));
        }
        if s.additional_properties.is_some() && !s.properties.is_empty() {
            s.additional_properties = None;
            s.extensions.preserve_unknown_fields = true;
        }
        // A variant without required fields matches any object: then anyOf adds nothing.
        if every_variant_requires && branches.len() > 1 {
            s.value_validation.any_of = branches;
        } else if branches.len() == 1 {
            s.value_validation.required = branches.remove(0).value_validation.required;
        }
        s
    }
}

fn set<T>(slot: &mut Option<T>, v: Option<T>) {
    if v.is_some() {
        *slot = v;
    }
}

fn saturate(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

fn required_branch(required: &[String]) -> NestedValueValidation {
    let mut b = NestedValueValidation::default();
    b.value_validation.required = required.to_vec();
    b
}

fn enum_branch(name: &str) -> NestedValueValidation {
    let mut b = NestedValueValidation::default();
    b.value_validation.enum_values = vec![Value::from(name)];
    b
}

/// Equality of two schemas, ignoring descriptions.
fn same_schema(a: &Structural, b: &Structural) -> bool {
    fn strip(v: &mut Value) {
        match v {
            Value::Object(m) => {
                m.remove("description");
                m.values_mut().for_each(strip);
            }
            Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let (mut x, mut y) = (
        serde_json::to_value(a.to_props()).unwrap_or_default(),
        serde_json::to_value(b.to_props()).unwrap_or_default(),
    );
    strip(&mut x);
    strip(&mut y);
    x == y
}
