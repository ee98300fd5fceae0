//! The Rust types of one CRD, before they are named and written: type expressions ([`Ty`]),
//! definitions ([`TypeDef`]: structs and string enums, each shape once), and what a position
//! adds to its type's schema ([`Refine`]: the field's keywords, `items(..)`, `values(..)`).

use std::collections::{BTreeSet, HashMap};

use super::meta::Meta;

/// The index of a [`TypeDef`] in [`Types::defs`].
pub(crate) type TypeId = usize;

/// A Rust type expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    Bool,
    I32,
    I64,
    F32,
    F64,
    Str,
    /// `serde_json::Value`: any JSON, unknown fields kept.
    Value,
    /// `crdkit::IntOrString`
    IntOrString,
    Vec(Box<Ty>),
    /// `BTreeMap<String, T>`
    Map(Box<Ty>),
    Option(Box<Ty>),
    Named(TypeId),
}

impl Ty {
    /// A key that tells types apart (named types by id).
    pub(crate) fn key(&self) -> String {
        match self {
            Ty::Vec(t) => format!("Vec<{}>", t.key()),
            Ty::Map(t) => format!("Map<{}>", t.key()),
            Ty::Option(t) => format!("Option<{}>", t.key()),
            Ty::Named(id) => format!("#{id}"),
            other => format!("{other:?}"),
        }
    }

    /// The named type inside `Option`, `Vec` and maps, if any.
    pub(crate) fn named(&self) -> Option<TypeId> {
        match self {
            Ty::Vec(t) | Ty::Map(t) | Ty::Option(t) => t.named(),
            Ty::Named(id) => Some(*id),
            _ => None,
        }
    }

    /// Without `Option`.
    pub(crate) fn unwrap_option(&self) -> &Ty {
        match self {
            Ty::Option(t) => t,
            t => t,
        }
    }
}

/// What a position (a field, a list's items, a map's values) adds to the schema of its type.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Refine {
    /// `description`
    pub desc: Option<String>,
    /// The other keywords, `items(..)` and `values(..)` aside.
    pub kw: Vec<Meta>,
    /// The refinement of the items (lists) or values (maps).
    pub inner: Option<Box<Refine>>,
}

impl Refine {
    pub(crate) fn key(&self) -> String {
        format!(
            "{:?}|{:?}|{}",
            self.desc,
            self.kw,
            self.inner.as_ref().map(|i| i.key()).unwrap_or_default()
        )
    }
}

/// A field of a struct.
#[derive(Clone, Debug)]
pub(crate) struct Field {
    /// The JSON name.
    pub json: String,
    /// The Rust name.
    pub ident: String,
    pub ty: Ty,
    pub refine: Refine,
    /// Listed in the parent's `required`.
    pub required: bool,
    /// `nullable: true`
    pub nullable: bool,
    /// `#[serde(flatten)]`: the map that keeps the unknown fields of a partly known object.
    pub flatten: bool,
}

/// What a definition is for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Role {
    /// A type of a field, list item or map value.
    Plain,
    /// The type carrying `#[derive(CustomResource)]` for a version (its index): the spec, or
    /// every root field with `flatten`.
    Spec(usize),
    /// The status of a version (its index).
    Status(usize),
}

/// A struct or a string enum.
#[derive(Clone, Debug)]
pub(crate) enum Def {
    Struct(Vec<Field>),
    /// The values, in the schema's order.
    Enum(Vec<String>),
}

/// One Rust type definition.
#[derive(Clone, Debug)]
pub(crate) struct TypeDef {
    pub def: Def,
    pub role: Role,
    /// `#[crd(..)]` on the type: the keywords of a spec or status node.
    pub attrs: Vec<Meta>,
    /// The doc comment: a spec's or status's description, or the one description every use
    /// of the type gives (then left out at the uses).
    pub doc: Option<String>,
    /// The descriptions at the type's uses.
    pub use_docs: Vec<Option<String>>,
    /// The versions (indexes) whose schemas use the type.
    pub versions: BTreeSet<usize>,
    /// Where the type is first used: the parent type and the JSON name, for naming it.
    pub hint: Hint,
    /// The Rust name, once given.
    pub name: String,
}

/// Where a type is used, for its name.
#[derive(Clone, Debug, Default)]
pub(crate) struct Hint {
    /// The using type.
    pub parent: Option<TypeId>,
    /// The property's JSON name.
    pub property: String,
    /// Whether the type is the items of a list or the values of a map (the property is then a
    /// plural: `containers` → `Container`).
    pub element: bool,
}

/// Every definition of one CRD, each shape once.
#[derive(Default)]
pub(crate) struct Types {
    pub defs: Vec<TypeDef>,
    index: HashMap<String, TypeId>,
}

impl Types {
    /// The id of the definition, added unless an equal one exists; the use is recorded.
    pub(crate) fn intern(
        &mut self,
        def: Def,
        role: Role,
        attrs: Vec<Meta>,
        version: usize,
        hint: Hint,
    ) -> TypeId {
        let key = format!("{role:?}|{attrs:?}|{}", def_key(&def));
        let id = *self.index.entry(key).or_insert_with(|| {
            self.defs.push(TypeDef {
                def,
                role,
                attrs,
                doc: None,
                use_docs: Vec::new(),
                versions: BTreeSet::new(),
                hint,
                name: String::new(),
            });
            self.defs.len() - 1
        });
        self.defs[id].versions.insert(version);
        id
    }

    /// Records a use of the named type `ty` holds (through `Option`) with the description
    /// `desc`.
    pub(crate) fn record_use(&mut self, ty: &Ty, desc: Option<&String>) {
        if let Some(id) = direct(ty) {
            self.defs[id].use_docs.push(desc.cloned());
        }
    }

    /// Moves a description that every use of a plain type gives onto the type.
    pub(crate) fn hoist_docs(&mut self) {
        for d in &mut self.defs {
            if d.role != Role::Plain || d.doc.is_some() {
                continue;
            }
            if let Some(Some(first)) = d.use_docs.first()
                && d.use_docs.iter().all(|u| u.as_ref() == Some(first))
            {
                d.doc = Some(first.clone());
            }
        }
    }
}

/// The named type a position holds directly (through `Option` only): lists and maps refine
/// their items with `items(..)`/`values(..)`, recorded at the items.
fn direct(ty: &Ty) -> Option<TypeId> {
    match ty {
        Ty::Option(t) => direct(t),
        Ty::Named(id) => Some(*id),
        _ => None,
    }
}

fn def_key(def: &Def) -> String {
    match def {
        Def::Enum(values) => format!("enum{values:?}"),
        Def::Struct(fields) => {
            let mut s = String::from("struct");
            for f in fields {
                s.push_str(&format!(
                    "|{}:{}:{}:{}:{}:{}",
                    f.json,
                    f.ty.key(),
                    f.refine.key(),
                    f.required,
                    f.nullable,
                    f.flatten
                ));
            }
            s
        }
    }
}
