//! Names for the types of one CRD: the spec and status after the kind (`CronTabSpec`,
//! `CronTabStatus`), other types after the property that holds them (`tls` → `Tls`, the items
//! of `containers` → `Container`), prefixed with the parent's name when two shapes want one
//! name (`ListenerTls`, `BackendTls`), numbered as a last resort.
//!
//! Types used by several versions live in the CRD's module, the others in their version's
//! module; a name is unique in the CRD's module and in each version's module with it.

use std::collections::{BTreeSet, HashSet, VecDeque};

use super::model::{Def, Role, TypeId, Types};
use super::names;

/// Names that generated code refers to: a type must not take them.
pub(crate) const RESERVED: &[&str] = &[
    "BTreeMap",
    "Box",
    "Clone",
    "CrdError",
    "CustomResourceDefinition",
    "Debug",
    "Default",
    "Deserialize",
    "Err",
    "IntOrString",
    "None",
    "Ok",
    "Option",
    "PartialEq",
    "Result",
    "Serialize",
    "Some",
    "String",
    "Value",
    "Vec",
];

/// Where a type is written: the CRD's module (`None`) or a version's.
pub(crate) fn placement(types: &Types, id: TypeId, several: bool) -> Option<usize> {
    let d = &types.defs[id];
    match d.role {
        Role::Spec(v) => several.then_some(v),
        _ if !several || d.versions.len() > 1 => None,
        _ => d.versions.first().copied(),
    }
}

/// Names every type; `root` is the root type's name (the kind), `versions` the number of
/// versions.
pub(crate) fn assign(types: &mut Types, root: &str, kind: &str, versions: usize) {
    let several = versions > 1;
    let mut top: HashSet<String> = RESERVED.iter().map(|s| (*s).to_owned()).collect();
    top.insert(root.to_owned());
    let mut per_version: Vec<HashSet<String>> = vec![HashSet::new(); versions];
    if several {
        for v in &mut per_version {
            v.insert(root.to_owned());
        }
    }
    // Breadth first from the specs and statuses: parents are named before their children.
    let mut order: Vec<TypeId> = Vec::new();
    let mut seen: BTreeSet<TypeId> = BTreeSet::new();
    let mut queue: VecDeque<TypeId> = (0..types.defs.len())
        .filter(|&i| types.defs[i].role != Role::Plain)
        .collect();
    while let Some(id) = queue.pop_front() {
        if !seen.insert(id) {
            continue;
        }
        order.push(id);
        if let Def::Struct(fields) = &types.defs[id].def {
            queue.extend(fields.iter().filter_map(|f| f.ty.named()));
        }
    }
    for id in order {
        let place = placement(types, id, several);
        let d = &types.defs[id];
        let wanted = match d.role {
            // A flattened root with a `spec` property: that property's type is the spec.
            Role::Spec(_) if has_field(&d.def, "spec") => format!("{kind}Fields"),
            Role::Spec(_) => format!("{kind}Spec"),
            Role::Status(_) => format!("{kind}Status"),
            Role::Plain => {
                let h = &d.hint;
                let word = if h.element {
                    names::singular(&h.property)
                } else {
                    h.property.clone()
                };
                let base = names::type_ident(&word, &|_| false);
                let base = if base == "Empty" || base == "Value" {
                    "Object".to_owned()
                } else if h
                    .parent
                    .is_some_and(|p| matches!(types.defs[p].role, Role::Spec(_)))
                    && (h.property == "spec" || h.property == "status")
                {
                    // `spec` and `status` fields of a flattened root.
                    format!("{kind}{base}")
                } else {
                    base
                };
                let parent = h
                    .parent
                    .map(|p| types.defs[p].name.clone())
                    .filter(|p| !p.is_empty());
                let free = |n: &str| is_free(n, place, &top, &per_version);
                if free(&base) {
                    base
                } else if let Some(p) = parent.filter(|p| !p.ends_with(&base)) {
                    names::unique(&format!("{p}{base}"), &|n| !free(n))
                } else {
                    names::unique(&base, &|n| !free(n))
                }
            }
        };
        let name = match d.role {
            // Spec and status names repeat in each version's module.
            Role::Spec(_) | Role::Status(_) if is_free(&wanted, place, &top, &per_version) => {
                wanted
            }
            Role::Spec(_) | Role::Status(_) => {
                names::unique(&wanted, &|n| !is_free(n, place, &top, &per_version))
            }
            Role::Plain => wanted,
        };
        match place {
            None => {
                top.insert(name.clone());
            }
            Some(v) => {
                per_version[v].insert(name.clone());
            }
        }
        types.defs[id].name = name;
    }
}

fn has_field(def: &Def, json: &str) -> bool {
    matches!(def, Def::Struct(fields) if fields.iter().any(|f| f.json == json))
}

/// Whether `name` is free for a type placed at `place`: unused in that module, and (in the
/// CRD's module) in every version's module, which sees the CRD module's names.
fn is_free(
    name: &str,
    place: Option<usize>,
    top: &HashSet<String>,
    per_version: &[HashSet<String>],
) -> bool {
    if top.contains(name) {
        return false;
    }
    match place {
        None => per_version.iter().all(|v| !v.contains(name)),
        Some(v) => !per_version[v].contains(name),
    }
}
