//! The versions and the fields' histories, checked before anything is generated: every
//! `since` names a declared version, and a field's history is possible (added before it is
//! changed, removed last, nothing in the first version that has no earlier one).

use proc_macro2::Span;

use super::attr::{Action, ActionKind, Args};
use super::{Input, VField};
use crate::attr::closest;
use crate::ctxt::Ctxt;
use crdkit_apimachinery::names;

pub fn check(cx: &Ctxt, input: &mut Input<'_>) {
    check_versions(cx, &input.args);
    let names: Vec<String> = input
        .args
        .versions
        .iter()
        .map(|v| v.name.value.clone())
        .collect();
    for f in &mut input.fields {
        resolve_since(cx, &names, f);
        check_history(cx, &names, f);
    }
}

/// One storage version, names that are versions, each once.
///
/// `#[crdkit::versioned(version(name = "v1"), version(name = "v1"))]`
fn check_versions(cx: &Ctxt, args: &Args) {
    if args.versions.is_empty() {
        cx.error_at(Span::call_site(), "`#[crdkit::versioned]` needs the versions, oldest first: `version(name = \"v1beta1\"), version(name = \"v1\", storage)`");
        return;
    }
    let mut seen: Vec<&str> = Vec::new();
    for v in &args.versions {
        if let Some(e) = names::label(&v.name.value) {
            cx.error_at(
                v.name.span,
                format!("invalid version \"{}\": {e}", v.name.value),
            );
        }
        if seen.contains(&v.name.value.as_str()) {
            cx.error_at(
                v.name.span,
                format!(
                    "version {} is listed twice: a CRD lists each version once",
                    v.name.value
                ),
            );
        }
        seen.push(&v.name.value);
    }
    let storage: Vec<_> = args
        .versions
        .iter()
        .filter(|v| v.storage.is_some())
        .collect();
    match storage.as_slice() {
        [] => cx.error_at(Span::call_site(), "no storage version: mark the version objects are stored in, `version(name = \"..\", storage)`; the API server stores every object in exactly one version"),
        [_] => {}
        [first, rest @ ..] => {
            for v in rest {
                cx.error_at(
                    v.storage.unwrap_or(v.name.span),
                    format!("two storage versions, {} and {}: the API server stores every object in exactly one version", first.name.value, v.name.value),
                );
            }
        }
    }
}

fn resolve_since(cx: &Ctxt, names: &[String], f: &mut VField<'_>) {
    for a in &mut f.actions {
        match names.iter().position(|n| *n == a.since.value) {
            Some(i) => a.index = i,
            None => {
                let known: Vec<&str> = names.iter().map(String::as_str).collect();
                let hint = closest(&a.since.value, &known)
                    .map(|c| format!("; did you mean \"{c}\"?"))
                    .unwrap_or_else(|| format!("; the versions: {}", known.join(", ")));
                cx.error_at(
                    a.since.span,
                    format!("\"{}\" is not a declared version{hint}", a.since.value),
                );
                a.index = usize::MAX;
            }
        }
    }
}

/// A possible history: at most one `added`, `removed` and `deprecated`; nothing happens in the
/// first version (there is none before it); `added` comes first and `removed` last; two renames
/// or type changes happen in different versions.
///
/// `#[versioned(added(since = "v1"), removed(since = "v1beta1"))]`
fn check_history(cx: &Ctxt, names: &[String], f: &VField<'_>) {
    let known: Vec<&Action> = f.actions.iter().filter(|a| a.index != usize::MAX).collect();
    let first = names.first().map_or("", String::as_str);
    for a in &known {
        if a.index == 0 && !matches!(a.kind, ActionKind::Deprecated { .. }) {
            cx.error_at(a.since.span, format!("field `{}` cannot be {} in {first}, the first version: no version comes before it{}", f.ident, a.name(), if matches!(a.kind, ActionKind::Added { .. }) { "; drop `added`" } else { "" }));
        }
    }
    for name in ["added", "removed", "deprecated"] {
        let same: Vec<&&Action> = known.iter().filter(|a| a.name() == name).collect();
        for a in same.iter().skip(1) {
            cx.error_at(a.span, format!("field `{}` is {name} twice", f.ident));
        }
    }
    for name in ["renamed", "changed"] {
        let same: Vec<&&Action> = known.iter().filter(|a| a.name() == name).collect();
        for (i, a) in same.iter().enumerate() {
            if same[..i].iter().any(|b| b.index == a.index) {
                cx.error_at(
                    a.since.span,
                    format!("field `{}` is {name} twice in {}", f.ident, a.since.value),
                );
            }
        }
    }
    let added = known.iter().find(|a| a.name() == "added");
    let removed = known.iter().find(|a| a.name() == "removed");
    if let Some(added) = added {
        for a in known
            .iter()
            .filter(|a| a.name() != "added" && a.index <= added.index)
        {
            cx.error_at(a.since.span, format!("field `{}` is {} in {}, but added only in {}: a field changes after it is added", f.ident, a.name(), a.since.value, added.since.value));
        }
    }
    if let Some(removed) = removed {
        for a in known
            .iter()
            .filter(|a| a.name() != "removed" && a.index >= removed.index)
        {
            cx.error_at(a.since.span, format!("field `{}` is {} in {}, but removed in {}: nothing happens to a field after it is removed", f.ident, a.name(), a.since.value, removed.since.value));
        }
    }
}
