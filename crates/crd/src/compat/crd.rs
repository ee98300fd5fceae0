//! The CRD as a whole: names, scope, versions, conversion, and per version the parts around
//! the schema (subresources, printer columns, selectable fields).

use super::{Code, Finding, Severity};
use crate::crd_check::StoredVersions;
use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};

fn push(
    out: &mut Vec<Finding>,
    severity: Severity,
    code: Code,
    version: Option<&str>,
    path: impl Into<String>,
    message: impl Into<String>,
) {
    out.push(Finding {
        severity,
        code,
        version: version.map(str::to_owned),
        path: path.into(),
        message: message.into(),
    });
}

/// The versions objects may be stored at: `status.storedVersions` when the old CRD lists
/// them (read back from a cluster), else its storage version ([`StoredVersions`]).
fn stored_versions(crd: &CustomResourceDefinition) -> Vec<String> {
    StoredVersions::of(crd).versions().to_vec()
}

#[allow(clippy::too_many_lines)]
pub(super) fn compare(
    old: &CustomResourceDefinition,
    new: &CustomResourceDefinition,
    out: &mut Vec<Finding>,
) {
    let (o, n) = (&old.spec, &new.spec);
    if o.scope != n.scope {
        push(
            out,
            Severity::BreaksStoredObjects,
            Code::ScopeChanged,
            None,
            "spec.scope",
            format!(
                "scope changed from {} to {}: stored objects are keyed by it",
                o.scope, n.scope
            ),
        );
    }
    let kind_of = |c: &CustomResourceDefinition| c.spec.names.kind.clone();
    for (field, old_value, new_value, severity) in [
        (
            "spec.group",
            o.group.clone(),
            n.group.clone(),
            Severity::BreaksStoredObjects,
        ),
        (
            "spec.names.plural",
            o.names.plural.clone(),
            n.names.plural.clone(),
            Severity::BreaksStoredObjects,
        ),
        (
            "spec.names.kind",
            kind_of(old),
            kind_of(new),
            Severity::BreaksStoredObjects,
        ),
        (
            "spec.names.singular",
            singular(old),
            singular(new),
            Severity::BreaksClients,
        ),
        (
            "spec.names.listKind",
            list_kind(old),
            list_kind(new),
            Severity::BreaksClients,
        ),
    ] {
        if old_value != new_value {
            push(
                out,
                severity,
                Code::NameChanged,
                None,
                field,
                format!("changed from {old_value:?} to {new_value:?}"),
            );
        }
    }
    for (field, old_list, new_list) in [
        (
            "spec.names.shortNames",
            &o.names.short_names,
            &n.names.short_names,
        ),
        (
            "spec.names.categories",
            &o.names.categories,
            &n.names.categories,
        ),
    ] {
        for gone in old_list.iter().filter(|x| !new_list.contains(x)) {
            push(
                out,
                Severity::BreaksClients,
                Code::NameRemoved,
                None,
                field,
                format!("{gone:?} removed"),
            );
        }
    }

    let stored = stored_versions(old);
    for ov in &o.versions {
        match crdkit_apiextensions::versions::version(new, &ov.name) {
            None if stored.contains(&ov.name) => push(
                out,
                Severity::BreaksStoredObjects,
                Code::StoredVersionRemoved,
                Some(&ov.name),
                "spec.versions",
                format!(
                    "version {} removed while objects may be stored at it (status.storedVersions)",
                    ov.name
                ),
            ),
            None => push(
                out,
                Severity::BreaksClients,
                Code::VersionRemoved,
                Some(&ov.name),
                "spec.versions",
                format!("version {} removed", ov.name),
            ),
            Some(nv) if ov.served && !nv.served => push(
                out,
                Severity::BreaksClients,
                Code::VersionUnserved,
                Some(&ov.name),
                "spec.versions",
                format!("version {} no longer served", ov.name),
            ),
            Some(nv) if !ov.deprecated && nv.deprecated => push(
                out,
                Severity::Info,
                Code::VersionDeprecated,
                Some(&ov.name),
                "spec.versions",
                format!(
                    "version {} deprecated: {}",
                    ov.name,
                    crdkit_apiextensions::versions::deprecation_warning(new, &ov.name)
                        .unwrap_or_default()
                ),
            ),
            Some(_) => {}
        }
    }
    for nv in &n.versions {
        if crdkit_apiextensions::versions::version(old, &nv.name).is_none() {
            push(
                out,
                Severity::Info,
                Code::VersionAdded,
                Some(&nv.name),
                "spec.versions",
                format!("version {} added", nv.name),
            );
        }
    }
    let (old_storage, new_storage) = (
        crdkit_apiextensions::versions::storage_version(old),
        crdkit_apiextensions::versions::storage_version(new),
    );
    if old_storage != new_storage
        && let Some(s) = new_storage
    {
        push(
            out,
            Severity::Info,
            Code::StorageVersionChanged,
            Some(s),
            "spec.versions",
            format!(
                "objects are now stored at {s} (were {}); existing ones stay at their version until rewritten",
                old_storage.unwrap_or("none")
            ),
        );
    }
    if o.conversion != n.conversion {
        let strategy = |c: &CustomResourceDefinition| {
            c.spec
                .conversion
                .as_ref()
                .map_or("None".to_owned(), |c| c.strategy.clone())
        };
        let (os, ns) = (strategy(old), strategy(new));
        let message = if os == ns {
            format!("the {ns} conversion's configuration changed")
        } else {
            format!("strategy changed from {os} to {ns}")
        };
        push(
            out,
            Severity::Info,
            Code::ConversionChanged,
            None,
            "spec.conversion",
            message,
        );
    }
    if o.preserve_unknown_fields && !n.preserve_unknown_fields {
        push(
            out,
            Severity::BreaksStoredObjects,
            Code::PruningEnabled,
            None,
            "spec.preserveUnknownFields",
            "unknown fields are pruned now: stored objects lose the fields their schema does not specify",
        );
    }
}

fn singular(c: &CustomResourceDefinition) -> String {
    c.spec.names.singular_or_default()
}

fn list_kind(c: &CustomResourceDefinition) -> String {
    c.spec.names.list_kind_or_default()
}

/// The parts of a version around its schema.
pub(super) fn compare_version(
    old: &CustomResourceDefinitionVersion,
    new: &CustomResourceDefinitionVersion,
    out: &mut Vec<Finding>,
) {
    let v = Some(new.name.as_str());
    let (os, ns) = (old.subresources.as_ref(), new.subresources.as_ref());
    if os.is_some_and(|s| s.status.is_some()) && ns.is_none_or(|s| s.status.is_none()) {
        push(
            out,
            Severity::BreaksClients,
            Code::SubresourceRemoved,
            v,
            "subresources.status",
            "the status subresource is gone: writes to /status fail, and writes to the object change its status again",
        );
    }
    if os.is_some_and(|s| s.scale.is_some()) && ns.is_none_or(|s| s.scale.is_none()) {
        push(
            out,
            Severity::BreaksClients,
            Code::SubresourceRemoved,
            v,
            "subresources.scale",
            "the scale subresource is gone: autoscalers and kubectl scale fail",
        );
    }
    for c in &old.additional_printer_columns {
        if !new
            .additional_printer_columns
            .iter()
            .any(|n| n.name == c.name)
        {
            push(
                out,
                Severity::Info,
                Code::PrinterColumnRemoved,
                v,
                "additionalPrinterColumns",
                format!("column {:?} ({}) removed", c.name, c.json_path),
            );
        }
    }
    for f in &old.selectable_fields {
        if !new
            .selectable_fields
            .iter()
            .any(|n| n.json_path == f.json_path)
        {
            push(
                out,
                Severity::BreaksClients,
                Code::SelectableFieldRemoved,
                v,
                "selectableFields",
                format!(
                    "{} is no longer selectable: field selectors on it fail",
                    f.json_path
                ),
            );
        }
    }
}
