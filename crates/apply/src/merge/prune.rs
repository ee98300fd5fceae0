//! Removing what an applier no longer applies (`prune` of structured-merge-diff
//! `merge/update.go`): the fields it applied last time and not now, put back where another
//! manager owns them or where they were never the applier's alone.

use std::collections::BTreeMap;

use super::{ManagedFields, Updater, VersionedSet};
use crate::fieldpath::Set;
use crate::typed::TypedValue;

impl Updater<'_> {
    /// Removes what `manager` applied last time (`last`) and no longer applies, unless another
    /// manager owns it (`prune`).
    pub(super) fn prune(
        &self,
        merged: TypedValue,
        managers: &ManagedFields,
        manager: &str,
        last: Option<&VersionedSet>,
    ) -> Result<TypedValue, String> {
        let Some(last) = last.filter(|l| !l.set.is_empty()) else {
            return Ok(merged);
        };
        let converted = match self.converter.convert(&merged, &last.api_version) {
            Ok(c) => c,
            Err(e) if e.missing_version => return Ok(merged),
            Err(e) => {
                return Err(format!(
                    "failed to convert merged object to last applied version: {e}"
                ));
            }
        };
        let pruned = converted.remove_items(&converted.ensure_named_fields_are_members(&last.set));
        let pruned = self
            .add_back_owned_items(&converted, pruned, &last.api_version, managers)
            .map_err(|e| format!("failed add back owned items: {e}"))?;
        let pruned = self
            .add_back_dangling_items(&converted, &pruned, last)
            .map_err(|e| format!("failed add back dangling items: {e}"))?;
        let version = &managers[manager].api_version;
        self.converter
            .convert(&pruned, version)
            .map_err(|e| e.message)
    }

    /// Puts back what prune removed but any manager (the applier's new set included) owns.
    fn add_back_owned_items(
        &self,
        merged: &TypedValue,
        mut pruned: TypedValue,
        pruned_version: &str,
        managers: &ManagedFields,
    ) -> Result<TypedValue, String> {
        let mut at_version: BTreeMap<&str, Set> = BTreeMap::new();
        for vs in managers.values() {
            let s = at_version.entry(vs.api_version.as_str()).or_default();
            *s = s.union(&vs.set);
        }
        // The pruned version first, so that conversions see its fields back.
        let mut order: Vec<&str> = Vec::new();
        if at_version.contains_key(pruned_version) {
            order.push(pruned_version);
        }
        order.extend(at_version.keys().filter(|v| **v != pruned_version));
        let mut merged = merged.clone();
        for version in order {
            let managed = &at_version[version];
            let m = match self.converter.convert(&merged, version) {
                Ok(m) => m,
                Err(e) if e.missing_version => continue,
                Err(e) => {
                    return Err(format!(
                        "failed to convert merged object at version {version}: {e}"
                    ));
                }
            };
            let p = match self.converter.convert(&pruned, version) {
                Ok(p) => p,
                Err(e) if e.missing_version => {
                    merged = m;
                    continue;
                }
                Err(e) => {
                    return Err(format!(
                        "failed to convert pruned object at version {version}: {e}"
                    ));
                }
            };
            let merged_set = m.to_field_set().map_err(|e| {
                format!("failed to create field set from merged object at version {version}: {e}")
            })?;
            let pruned_set = p.to_field_set().map_err(|e| {
                format!("failed to create field set from pruned object at version {version}: {e}")
            })?;
            let keep = m
                .ensure_named_fields_are_members(&pruned_set)
                .union(&m.ensure_named_fields_are_members(managed));
            pruned = m.remove_items(
                &m.ensure_named_fields_are_members(&merged_set)
                    .difference(&keep),
            );
            merged = m;
        }
        Ok(pruned)
    }

    /// Puts back what prune removed that `last` did not own (fields of updaters, unowned ones).
    fn add_back_dangling_items(
        &self,
        merged: &TypedValue,
        pruned: &TypedValue,
        last: &VersionedSet,
    ) -> Result<TypedValue, String> {
        let converted = match self.converter.convert(pruned, &last.api_version) {
            Ok(c) => c,
            Err(e) if e.missing_version => return Ok(merged.clone()),
            Err(e) => {
                return Err(format!(
                    "failed to convert pruned object to last applied version: {e}"
                ));
            }
        };
        let pruned_set = converted.to_field_set().map_err(|e| {
            format!("failed to create field set from pruned object in last applied version: {e}")
        })?;
        let merged_set = merged.to_field_set().map_err(|e| {
            format!("failed to create field set from merged object in last applied version: {e}")
        })?;
        let pruned_set = merged.ensure_named_fields_are_members(&pruned_set);
        let merged_set = merged.ensure_named_fields_are_members(&merged_set);
        let last = merged.ensure_named_fields_are_members(&last.set);
        Ok(merged.remove_items(&merged_set.difference(&pruned_set).intersection(&last)))
    }
}
