//! Types → Rust text, formatted as rustfmt formats it: doc comments from descriptions (or
//! `description = ".."` where a doc comment would not give the text back), `#[serde(..)]` for
//! JSON names and optional fields, `#[crd(..)]` for every keyword.

use std::fmt::Write as _;

use super::meta::{MAX_WIDTH, Meta, attribute};
use super::model::{Def, Field, Refine, Role, Ty, TypeDef, TypeId, Types};
use super::names;

/// What a module needs to import.
#[derive(Default)]
pub(crate) struct Uses {
    pub btree_map: bool,
    pub value: bool,
    pub int_or_string: bool,
    pub serde: bool,
}

impl Uses {
    fn ty(&mut self, ty: &Ty) {
        match ty {
            Ty::Map(t) => {
                self.btree_map = true;
                self.ty(t);
            }
            Ty::Vec(t) | Ty::Option(t) => self.ty(t),
            Ty::Value => self.value = true,
            Ty::IntOrString => self.int_or_string = true,
            _ => {}
        }
    }

    /// The `use` lines, at `indent`.
    pub(crate) fn lines(&self, indent: &str) -> String {
        let mut s = String::new();
        if self.btree_map {
            let _ = writeln!(s, "{indent}use std::collections::BTreeMap;");
        }
        if self.btree_map && (self.int_or_string || self.serde || self.value) {
            s.push('\n');
        }
        if self.int_or_string {
            let _ = writeln!(s, "{indent}use crdkit::IntOrString;");
        }
        if self.serde {
            let _ = writeln!(s, "{indent}use crdkit::serde::{{Deserialize, Serialize}};");
        }
        if self.value {
            let _ = writeln!(s, "{indent}use crdkit::serde_json::Value;");
        }
        s
    }
}

/// A Rust type expression.
pub(crate) fn ty(t: &Ty, types: &Types) -> String {
    match t {
        Ty::Bool => "bool".to_owned(),
        Ty::I32 => "i32".to_owned(),
        Ty::I64 => "i64".to_owned(),
        Ty::F32 => "f32".to_owned(),
        Ty::F64 => "f64".to_owned(),
        Ty::Str => "String".to_owned(),
        Ty::Value => "Value".to_owned(),
        Ty::IntOrString => "IntOrString".to_owned(),
        Ty::Vec(t) => format!("Vec<{}>", ty(t, types)),
        Ty::Map(t) => format!("BTreeMap<String, {}>", ty(t, types)),
        Ty::Option(t) => format!("Option<{}>", ty(t, types)),
        Ty::Named(id) => types.defs[*id].name.clone(),
    }
}

/// Doc comment lines (`/// ..`) that the derive reads back as `text` (each line's one leading
/// space dropped, ends trimmed), and that rustdoc would not test as code; `None` when there
/// are none such.
pub(crate) fn doc_lines(text: &str, indent: &str) -> Option<String> {
    let safe = text == text.trim()
        && !text.contains('\r')
        && text.lines().all(|l| {
            l == l.trim_end()
                && !l.starts_with("    ")
                && !l.starts_with('\t')
                && !l.contains("```")
                && !l.contains("~~~")
        });
    if !safe || text.is_empty() {
        return None;
    }
    let mut s = String::new();
    for l in text.split('\n') {
        if l.is_empty() {
            let _ = writeln!(s, "{indent}///");
        } else {
            let _ = writeln!(s, "{indent}/// {l}");
        }
    }
    Some(s)
}

/// The description of a position: nothing when its type says it, else a doc comment, or a
/// `description` keyword when `as_doc` is false or a doc comment cannot hold it.
fn description(
    desc: Option<&String>,
    t: &Ty,
    types: &Types,
    as_doc: bool,
    indent: &str,
) -> (Option<String>, Option<Meta>) {
    let Some(d) = desc else {
        return (None, None);
    };
    if let Some(id) = direct(t)
        && types.defs[id].doc.as_ref() == Some(d)
    {
        return (None, None);
    }
    match as_doc.then(|| doc_lines(d, indent)).flatten() {
        Some(doc) => (Some(doc), None),
        None => (None, Some(Meta::str("description", d))),
    }
}

fn direct(t: &Ty) -> Option<TypeId> {
    match t {
        Ty::Option(t) => direct(t),
        Ty::Named(id) => Some(*id),
        _ => None,
    }
}

/// The element type of a list or map (through `Option`) and the keyword naming it.
fn element(t: &Ty) -> Option<(&Ty, &'static str)> {
    match t {
        Ty::Option(t) => element(t),
        Ty::Vec(e) => Some((e, "items")),
        Ty::Map(e) => Some((e, "values")),
        _ => None,
    }
}

/// The keywords of a position: its own, then `items(..)`/`values(..)` for its elements.
fn keywords(t: &Ty, r: &Refine, types: &Types) -> Vec<Meta> {
    let mut kw = r.kw.clone();
    if let (Some(inner), Some((e, key))) = (&r.inner, element(t)) {
        let (_, desc) = description(inner.desc.as_ref(), e, types, false, "");
        let mut items: Vec<Meta> = desc.into_iter().collect();
        items.extend(keywords(e, inner, types));
        if !items.is_empty() {
            kw.push(Meta::List(key.to_owned(), items));
        }
    }
    kw
}

/// Writes a field at 4 spaces more than `indent`.
fn field(out: &mut String, f: &Field, types: &Types, indent: &str) {
    let inner = format!("{indent}    ");
    let (doc, desc) = description(f.refine.desc.as_ref(), &f.ty, types, true, &inner);
    if let Some(doc) = doc {
        out.push_str(&doc);
    }
    let mut serde = Vec::new();
    if f.flatten {
        serde.push(Meta::flag("flatten"));
    } else if names::serde_camel(&f.ident) != f.json {
        serde.push(Meta::str("rename", &f.json));
    }
    // A nullable field writes `None` as `null`; a required one must be written.
    if matches!(f.ty, Ty::Option(_)) && !f.nullable && !f.required {
        serde.push(Meta::str("skip_serializing_if", "Option::is_none"));
    }
    if !serde.is_empty() {
        push_attr(out, "serde", &serde, inner.len());
    }
    let mut crd: Vec<Meta> = desc.into_iter().collect();
    if f.required && matches!(f.ty, Ty::Option(_)) {
        crd.push(Meta::flag("required"));
    }
    crd.extend(keywords(&f.ty, &f.refine, types));
    if !crd.is_empty() {
        push_attr(out, "crd", &crd, inner.len());
    }
    let (ident, ty) = (&f.ident, ty(&f.ty, types));
    if inner.len() + "pub : ,".len() + ident.len() + ty.len() <= MAX_WIDTH {
        let _ = writeln!(out, "{inner}pub {ident}: {ty},");
    } else {
        // rustfmt moves a type that does not fit to the next line.
        let _ = writeln!(out, "{inner}pub {ident}:\n{inner}    {ty},");
    }
}

/// `#[derive(..)]` at `indent`, as rustfmt writes it: on one line when it fits, else the
/// derives between `#[derive(` and `)]` on lines of their own, filled up to the width.
fn derive(out: &mut String, derives: &str, indent: &str) {
    // rustfmt keeps a derive on one line up to 4 columns short of the width (measured).
    if indent.len() + "#[derive()]".len() + derives.len() <= MAX_WIDTH - 4 {
        let _ = writeln!(out, "{indent}#[derive({derives})]");
        return;
    }
    let _ = writeln!(out, "{indent}#[derive(");
    let mut line = String::new();
    for d in derives.split(", ") {
        // The trailing comma may pass the width (measured).
        if !line.is_empty() && indent.len() + 4 + line.len() + 1 + d.len() > MAX_WIDTH {
            let _ = writeln!(out, "{indent}    {line}");
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(d);
        line.push(',');
    }
    let _ = writeln!(out, "{indent}    {line}");
    let _ = writeln!(out, "{indent})]");
}

fn push_attr(out: &mut String, name: &str, items: &[Meta], indent: usize) {
    for l in attribute(name, items, indent) {
        out.push_str(&l);
        out.push('\n');
    }
}

/// The derives of a plain struct.
const STRUCT_DERIVES: &str =
    "Clone, Debug, Default, PartialEq, Serialize, Deserialize, crdkit::Schema";
/// The derives of a string enum.
const ENUM_DERIVES: &str =
    "Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, crdkit::Schema";

/// Writes one type definition at `indent`; `resource` are the resource keys of a spec type.
pub(crate) fn type_def(
    out: &mut String,
    d: &TypeDef,
    types: &Types,
    resource: &[Meta],
    indent: &str,
) {
    let mut type_kw: Vec<Meta> = resource.to_vec();
    match d.doc.as_ref().map(|t| (t, doc_lines(t, indent))) {
        Some((_, Some(doc))) => out.push_str(&doc),
        Some((text, None)) => type_kw.push(Meta::str("description", text)),
        None => {}
    }
    type_kw.extend(d.attrs.iter().cloned());
    match &d.def {
        Def::Enum(values) => {
            derive(out, ENUM_DERIVES, indent);
            let _ = writeln!(out, "{indent}#[serde(crate = \"crdkit::serde\")]");
            if !type_kw.is_empty() {
                push_attr(out, "crd", &type_kw, indent.len());
            }
            let _ = writeln!(out, "{indent}pub enum {} {{", d.name);
            let mut taken: Vec<String> = Vec::new();
            for (i, v) in values.iter().enumerate() {
                let ident = names::type_ident(v, &|n| taken.iter().any(|t| t == n));
                taken.push(ident.clone());
                if i == 0 {
                    let _ = writeln!(out, "{indent}    #[default]");
                }
                if ident != *v {
                    push_attr(out, "serde", &[Meta::str("rename", v)], indent.len() + 4);
                }
                let _ = writeln!(out, "{indent}    {ident},");
            }
            let _ = writeln!(out, "{indent}}}");
        }
        Def::Struct(fields) => {
            let derives = match d.role {
                Role::Spec(_) => STRUCT_DERIVES.replace("crdkit::Schema", "crdkit::CustomResource"),
                _ => STRUCT_DERIVES.to_owned(),
            };
            derive(out, &derives, indent);
            let camel = fields
                .iter()
                .any(|f| names::serde_camel(&f.ident) != f.ident);
            let mut serde = vec![Meta::str("crate", "crdkit::serde")];
            if camel {
                serde.push(Meta::str("rename_all", "camelCase"));
            }
            push_attr(out, "serde", &serde, indent.len());
            if !type_kw.is_empty() {
                push_attr(out, "crd", &type_kw, indent.len());
            }
            if fields.is_empty() {
                let _ = writeln!(out, "{indent}pub struct {} {{}}", d.name);
                return;
            }
            let _ = writeln!(out, "{indent}pub struct {} {{", d.name);
            for (i, f) in fields.iter().enumerate() {
                if i > 0 && (f.refine.desc.is_some() || fields[i - 1].refine.desc.is_some()) {
                    out.push('\n');
                }
                field(out, f, types, indent);
            }
            let _ = writeln!(out, "{indent}}}");
        }
    }
}

/// What the types of a module need imported.
pub(crate) fn uses_of(types: &Types, ids: &[TypeId]) -> Uses {
    let mut u = Uses::default();
    for &id in ids {
        u.serde = true;
        if let Def::Struct(fields) = &types.defs[id].def {
            for f in fields {
                u.ty(&f.ty);
            }
        }
    }
    u
}
