//! A version's schema → Rust types: each node becomes a type ([`Ty`]) whose schema the derive
//! knows, refined by the keywords the node adds ([`Refine`]), so that deriving gives the node
//! back. Objects with properties are structs, string enums are enums, maps are `BTreeMap`s,
//! `x-kubernetes-preserve-unknown-fields` is `serde_json::Value` (or a struct keeping its
//! unknown fields in a flattened map), `x-kubernetes-int-or-string` is `IntOrString`.

use crdkit_schema::props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool};

use super::meta::{Meta, json_lit, number_lit};
use super::model::{Def, Field, Hint, Refine, Role, Ty, TypeId, Types};
use super::names;

/// Lowers the schemas of one CRD's versions into `types`.
pub(crate) struct Lower<'a> {
    pub types: &'a mut Types,
    /// The version being lowered (its index).
    pub version: usize,
    /// What the derive cannot say and is left out, one message per part (with its path).
    pub warnings: &'a mut Vec<String>,
}

/// The name of the field holding the unknown fields of a partly known object.
pub(crate) const EXTRA: &str = "other_fields";

impl Lower<'_> {
    fn warn(&mut self, path: &str, what: &str) {
        self.warnings.push(format!("{path}: {what}"));
    }

    /// A struct for an object node: its properties as fields (those in `required` in that
    /// order), its unknown fields in a flattened map when kept (`preserve`).
    pub(crate) fn object(
        &mut self,
        n: &JsonSchemaProps,
        path: &str,
        role: Role,
        attrs: Vec<Meta>,
        hint: Hint,
        skip: &[&str],
    ) -> TypeId {
        let mut fields: Vec<Field> = Vec::new();
        let mut taken: Vec<String> = vec![EXTRA.to_owned()];
        for (name, p) in &n.properties {
            if skip.contains(&name.as_str()) {
                continue;
            }
            let ident = names::field_ident(name, &taken);
            taken.push(ident.clone());
            let fpath = format!("{path}.{name}");
            let required = n.required.contains(name);
            let hint = Hint {
                parent: None,
                property: name.clone(),
                element: false,
            };
            let (ty, refine, nullable) = self.node(p, &fpath, hint);
            let ty = if nullable || !required {
                Ty::Option(Box::new(ty))
            } else {
                ty
            };
            self.types.record_use(&ty, refine.desc.as_ref());
            fields.push(Field {
                json: name.clone(),
                ident,
                ty,
                refine,
                required,
                nullable,
                flatten: false,
            });
        }
        for r in &n.required {
            if !n.properties.contains_key(r) && !skip.contains(&r.as_str()) {
                self.warn(
                    path,
                    &format!("required \"{r}\" is not a property: left out"),
                );
            }
        }
        order_required(&mut fields, &n.required);
        let keeps_unknown = n.x_preserve_unknown_fields == Some(true);
        if keeps_unknown && !fields.is_empty() {
            fields.push(Field {
                json: String::new(),
                ident: EXTRA.to_owned(),
                ty: Ty::Map(Box::new(Ty::Value)),
                refine: Refine::default(),
                required: false,
                nullable: false,
                flatten: true,
            });
        }
        let id = self
            .types
            .intern(Def::Struct(fields), role, attrs, self.version, hint);
        // The fields' types name themselves after this one.
        if let Def::Struct(fields) = &self.types.defs[id].def {
            let children: Vec<(TypeId, String, bool)> = fields
                .iter()
                .filter_map(|f| {
                    f.ty.named().map(|c| {
                        (
                            c,
                            f.json.clone(),
                            !matches!(f.ty.unwrap_option(), Ty::Named(_)),
                        )
                    })
                })
                .collect();
            for (c, property, element) in children {
                let h = &mut self.types.defs[c].hint;
                if h.parent.is_none() && c != id {
                    *h = Hint {
                        parent: Some(id),
                        property,
                        element,
                    };
                }
            }
        }
        id
    }

    /// The type of a node, what the node adds to that type's schema, and whether it is
    /// nullable (the container then holds an `Option`).
    pub(crate) fn node(
        &mut self,
        n: &JsonSchemaProps,
        path: &str,
        hint: Hint,
    ) -> (Ty, Refine, bool) {
        let mut refine = Refine {
            desc: (!n.description.is_empty()).then(|| n.description.clone()),
            ..Refine::default()
        };
        let preserve = n.x_preserve_unknown_fields == Some(true);
        let mut implied = Implied::default();
        let ty = if n.x_int_or_string {
            Ty::IntOrString
        } else {
            match n.ty.as_str() {
                "object" if !n.properties.is_empty() => {
                    implied.preserve = preserve;
                    Ty::Named(self.object(n, path, Role::Plain, Vec::new(), hint, &[]))
                }
                "object" => match &n.additional_properties {
                    Some(SchemaOrBool::Schema(values)) => {
                        let h = Hint {
                            element: true,
                            ..hint
                        };
                        let (t, r, nullable) = self.node(values, &format!("{path}[*]"), h);
                        let t = if nullable { Ty::Option(Box::new(t)) } else { t };
                        self.types.record_use(&t, r.desc.as_ref());
                        refine.inner = Some(Box::new(r));
                        Ty::Map(Box::new(t))
                    }
                    Some(SchemaOrBool::Bool(b)) => {
                        self.warn(
                            path,
                            &format!("additionalProperties: {b}: kept as any JSON"),
                        );
                        implied.preserve = true;
                        refine.kw.push(Meta::str("type", "object"));
                        Ty::Value
                    }
                    None if preserve => {
                        implied.preserve = true;
                        refine.kw.push(Meta::str("type", "object"));
                        Ty::Value
                    }
                    None => Ty::Named(self.object(n, path, Role::Plain, Vec::new(), hint, &[])),
                },
                "array" => match &n.items {
                    Some(SchemaOrArray::Schema(items)) => {
                        let h = Hint {
                            element: true,
                            ..hint
                        };
                        let (t, r, nullable) = self.node(items, &format!("{path}[*]"), h);
                        let t = if nullable { Ty::Option(Box::new(t)) } else { t };
                        self.types.record_use(&t, r.desc.as_ref());
                        refine.inner = Some(Box::new(r));
                        Ty::Vec(Box::new(t))
                    }
                    _ => {
                        self.warn(
                            path,
                            "an array without one `items` schema: items kept as any JSON",
                        );
                        Ty::Vec(Box::new(Ty::Value))
                    }
                },
                "string" => match string_enum(n) {
                    Some(values) => {
                        implied.enum_values = true;
                        Ty::Named(self.types.intern(
                            Def::Enum(values),
                            Role::Plain,
                            Vec::new(),
                            self.version,
                            hint,
                        ))
                    }
                    None => Ty::Str,
                },
                "integer" if n.format == "int32" => {
                    implied.format = true;
                    Ty::I32
                }
                "integer" => Ty::I64,
                "number" if n.format == "float" => {
                    implied.format = true;
                    Ty::F32
                }
                "number" => Ty::F64,
                "boolean" => Ty::Bool,
                "" => {
                    implied.preserve = true;
                    if !preserve {
                        self.warn(path, "a schema without a type: kept as any JSON");
                    }
                    Ty::Value
                }
                other => {
                    self.warn(path, &format!("unknown type \"{other}\": kept as any JSON"));
                    Ty::Value
                }
            }
        };
        if preserve && !implied.preserve {
            refine.kw.push(Meta::flag("preserve_unknown_fields"));
        }
        refine.kw.extend(self.keywords(n, path, &implied));
        (ty, refine, n.nullable)
    }

    /// The keywords of a node that its type does not imply (`items`, `additionalProperties`,
    /// `properties`, `required`, `type`, `description`, `nullable` are the type's).
    pub(crate) fn keywords(
        &mut self,
        n: &JsonSchemaProps,
        path: &str,
        implied: &Implied,
    ) -> Vec<Meta> {
        let mut kw = value_keywords(n, implied);
        if n.x_embedded_resource {
            kw.push(Meta::flag("embedded_resource"));
        }
        if let Some(d) = &n.default {
            kw.push(Meta::raw("default", json_lit(d)));
        }
        if let Some(t) = &n.x_list_type {
            kw.push(Meta::str("list_type", t));
        }
        if !n.x_list_map_keys.is_empty() {
            kw.push(Meta::strings("list_map_keys", &n.x_list_map_keys));
        }
        if let Some(t) = &n.x_map_type {
            kw.push(Meta::str("map_type", t));
        }
        for r in &n.x_validations {
            let mut v = vec![Meta::str("rule", &r.rule)];
            if !r.message.is_empty() {
                v.push(Meta::str("message", &r.message));
            }
            if !r.message_expression.is_empty() {
                v.push(Meta::str("message_expression", &r.message_expression));
            }
            if let Some(reason) = &r.reason {
                v.push(Meta::str("reason", reason));
            }
            if !r.field_path.is_empty() {
                v.push(Meta::str("field_path", &r.field_path));
            }
            match r.optional_old_self {
                Some(true) => v.push(Meta::flag("optional_old_self")),
                Some(false) => self.warn(path, "optionalOldSelf: false is left out (the default)"),
                None => {}
            }
            kw.push(Meta::List("validation".to_owned(), v));
        }
        kw.extend(junctors(n));
        if !n.title.is_empty() {
            kw.push(Meta::str("title", &n.title));
        }
        if n.x_preserve_unknown_fields == Some(false) {
            self.warn(
                path,
                "x-kubernetes-preserve-unknown-fields: false is left out (the default)",
            );
        }
        for (what, set) in [
            ("example", n.example.is_some()),
            ("externalDocs", n.external_docs.is_some()),
            ("uniqueItems", n.unique_items),
        ] {
            if set {
                self.warn(
                    path,
                    &format!("`{what}` is left out: the derive has no attribute for it"),
                );
            }
        }
        kw
    }
}

/// What a node's Rust type already says, so that its keyword is not repeated.
#[derive(Default)]
pub(crate) struct Implied {
    /// `format` (`i32`: `int32`, `f32`: `float`).
    pub format: bool,
    /// `enum` (a Rust enum).
    pub enum_values: bool,
    /// `x-kubernetes-preserve-unknown-fields` (`serde_json::Value`, a struct keeping unknown
    /// fields).
    pub preserve: bool,
}

/// The values of a string enum that can be a Rust enum: strings, each once.
fn string_enum(n: &JsonSchemaProps) -> Option<Vec<String>> {
    if n.enum_values.is_empty() || n.nullable {
        return None;
    }
    let values: Vec<String> = n
        .enum_values
        .iter()
        .map(|v| v.as_str().map(str::to_owned))
        .collect::<Option<_>>()?;
    let mut seen = std::collections::HashSet::new();
    values.iter().all(|v| seen.insert(v)).then_some(values)
}

/// The value validations of a node (also inside `allOf`/`anyOf`/`oneOf`/`not`).
fn value_keywords(n: &JsonSchemaProps, implied: &Implied) -> Vec<Meta> {
    let mut kw = Vec::new();
    if !n.format.is_empty() && !implied.format {
        kw.push(Meta::str("format", &n.format));
    }
    for (key, v) in [
        ("minimum", n.minimum),
        ("maximum", n.maximum),
        ("multiple_of", n.multiple_of),
    ] {
        if let Some(v) = v {
            kw.push(Meta::raw(key, number_lit(v)));
        }
    }
    if n.exclusive_minimum {
        kw.push(Meta::flag("exclusive_minimum"));
    }
    if n.exclusive_maximum {
        kw.push(Meta::flag("exclusive_maximum"));
    }
    for (key, v) in [
        ("min_length", n.min_length),
        ("max_length", n.max_length),
        ("min_items", n.min_items),
        ("max_items", n.max_items),
        ("min_properties", n.min_properties),
        ("max_properties", n.max_properties),
    ] {
        if let Some(v) = v {
            kw.push(Meta::raw(key, v.to_string()));
        }
    }
    if !n.pattern.is_empty() {
        kw.push(Meta::str("pattern", &n.pattern));
    }
    if !n.enum_values.is_empty() && !implied.enum_values {
        kw.push(Meta::List(
            "enum".to_owned(),
            n.enum_values
                .iter()
                .map(|v| Meta::Lit(json_lit(v)))
                .collect(),
        ));
    }
    kw
}

/// `all_of(..)`, `any_of(..)`, `one_of(..)`, `not(..)` of a node.
fn junctors(n: &JsonSchemaProps) -> Vec<Meta> {
    let mut kw = Vec::new();
    for (key, branches) in [
        ("all_of", &n.all_of),
        ("any_of", &n.any_of),
        ("one_of", &n.one_of),
    ] {
        if !branches.is_empty() {
            kw.push(Meta::List(
                key.to_owned(),
                branches
                    .iter()
                    .map(|b| match nested(b).as_slice() {
                        [one] => one.clone(),
                        many => Meta::List("branch".to_owned(), many.to_vec()),
                    })
                    .collect(),
            ));
        }
    }
    if let Some(not) = &n.not {
        kw.push(Meta::List("not".to_owned(), nested(not)));
    }
    kw
}

/// The keywords of a branch of a junctor: value validations, and the structure they apply to
/// (`type`, `items`, `properties`, `additionalProperties`).
fn nested(n: &JsonSchemaProps) -> Vec<Meta> {
    let mut kw = Vec::new();
    if !n.ty.is_empty() {
        kw.push(Meta::str("type", &n.ty));
    }
    kw.extend(value_keywords(n, &Implied::default()));
    if !n.required.is_empty() {
        kw.push(Meta::strings("required", &n.required));
    }
    if let Some(SchemaOrArray::Schema(items)) = &n.items {
        kw.push(Meta::List("items".to_owned(), nested(items)));
    }
    for (name, p) in &n.properties {
        let mut v = vec![Meta::Lit(super::meta::string_lit(name))];
        v.extend(nested(p));
        kw.push(Meta::List("property".to_owned(), v));
    }
    if let Some(SchemaOrBool::Schema(values)) = &n.additional_properties {
        kw.push(Meta::List("values".to_owned(), nested(values)));
    }
    kw.extend(junctors(n));
    kw
}

/// Puts the required fields in the order of `required`, in the places the required fields
/// take (the derive lists required fields in field order).
fn order_required(fields: &mut [Field], required: &[String]) {
    let slots: Vec<usize> = (0..fields.len()).filter(|&i| fields[i].required).collect();
    let mut wanted: Vec<Field> = Vec::with_capacity(slots.len());
    for r in required {
        if let Some(f) = fields.iter().find(|f| f.required && &f.json == r)
            && !wanted.iter().any(|w| w.json == f.json)
        {
            wanted.push(f.clone());
        }
    }
    for (slot, f) in slots.into_iter().zip(wanted) {
        fields[slot] = f;
    }
}
