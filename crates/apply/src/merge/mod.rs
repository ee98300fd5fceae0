//! Ownership of fields by managers, updated by writes and applies.
//!
//! Mirrors structured-merge-diff `merge/update.go` (the `Updater`) and `fieldpath/managers.go`
//! (`ManagedFields`). Managers here are plain names; the API server's identifiers (manager,
//! operation, API version, subresource) and `managedFields` entries are in [`crate::managed_fields`].
//!
//! - An update (a write that is not an apply) gives its manager every field it adds or
//!   changes, taking them from whoever owned them, and takes removed fields from everyone.
//! - An apply merges the configuration into the live object, makes its manager own exactly the
//!   fields of the configuration, removes the fields the manager applied last time, no longer
//!   applies, and nobody else owns, and fails with [`Conflicts`] when it would change a field
//!   another manager owns, unless forced, which takes those fields over.

mod conflict;
mod prune;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

use crate::fieldpath::Set;
use crate::typed::{Comparison, TypedValue, reconcile_field_set_with_schema};
use crate::value;

pub use conflict::{Conflict, Conflicts};

/// What a manager owns, in which API version, and whether through apply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VersionedSet {
    /// The fields.
    pub set: Set,
    /// The API version the paths are in.
    pub api_version: String,
    /// Whether the fields were applied (an apply) rather than written (an update).
    pub applied: bool,
}

impl VersionedSet {
    /// A versioned set.
    #[must_use]
    pub fn new(set: Set, api_version: impl Into<String>, applied: bool) -> VersionedSet {
        VersionedSet {
            set,
            api_version: api_version.into(),
            applied,
        }
    }
}

/// Every manager's fields.
pub type ManagedFields = BTreeMap<String, VersionedSet>;

/// `ManagedFields.Difference`: per manager, the fields in one but not the other (the right-hand
/// side's entry whole when the versions differ); managers with no difference are left out.
#[must_use]
pub fn managed_fields_difference(lhs: &ManagedFields, rhs: &ManagedFields) -> ManagedFields {
    let mut diff = ManagedFields::new();
    for (manager, left) in lhs {
        match rhs.get(manager) {
            None => {
                if !left.set.is_empty() {
                    diff.insert(manager.clone(), left.clone());
                }
            }
            Some(right) if right.api_version != left.api_version => {
                diff.insert(manager.clone(), right.clone());
            }
            Some(right) => {
                let d = left
                    .set
                    .difference(&right.set)
                    .union(&right.set.difference(&left.set));
                if !d.is_empty() {
                    diff.insert(
                        manager.clone(),
                        VersionedSet::new(d, right.api_version.clone(), false),
                    );
                }
            }
        }
    }
    for (manager, right) in rhs {
        if !lhs.contains_key(manager) && !right.set.is_empty() {
            diff.insert(manager.clone(), right.clone());
        }
    }
    diff
}

/// Why a value could not be converted to another API version.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConversionError {
    /// The version is not served (any more): managers of that version are dropped.
    pub missing_version: bool,
    /// What went wrong.
    pub message: String,
}

impl fmt::Display for ConversionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Converts objects between the API versions managers own fields in (`merge.Converter`).
pub trait Converter {
    /// `object` in `version`, typed by that version's schema.
    ///
    /// # Errors
    /// A version that does not exist (`missing_version`) or a failed conversion.
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError>;
}

/// A converter for a single version: the object as it is, for any non-empty version.
#[derive(Clone, Copy, Debug, Default)]
pub struct SameVersion;

impl Converter for SameVersion {
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError> {
        if version.is_empty() {
            return Err(ConversionError {
                missing_version: false,
                message: format!("cannot convert to invalid version: {version:?}"),
            });
        }
        Ok(object.clone())
    }
}

/// Why an update or apply failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UpdateError {
    /// An apply would change fields other managers own.
    Conflicts(Conflicts),
    /// Anything else, with structured-merge-diff's text (`failed to merge config: ...`).
    Failed(String),
}

impl fmt::Display for UpdateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            UpdateError::Conflicts(c) => write!(f, "{c}"),
            UpdateError::Failed(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for UpdateError {}

fn failed(context: &str, e: impl fmt::Display) -> UpdateError {
    UpdateError::Failed(format!("{context}: {e}"))
}

/// Computes ownership on updates and merges applies (`merge.Updater`).
pub struct Updater<'c> {
    /// Converts between the versions managers own fields in.
    pub converter: &'c dyn Converter,
    /// Per API version, fields nobody owns: they are left out of every set and comparison,
    /// with what lies below them (the API server's reset fields: `status` on the main resource
    /// when the status subresource is on; `metadata` and `spec` on `/status`). Borrowed from
    /// the field manager, which keeps them for every write.
    pub ignored_fields: Cow<'c, BTreeMap<String, Set>>,
    /// Return the merged object of an apply even when it equals the live one.
    pub return_input_on_noop: bool,
}

impl<'c> Updater<'c> {
    /// An updater without ignored fields.
    #[must_use]
    pub fn new(converter: &'c dyn Converter) -> Updater<'c> {
        Updater {
            converter,
            ignored_fields: Cow::Owned(BTreeMap::new()),
            return_input_on_noop: false,
        }
    }

    fn filter(&self, version: &str, mut set: Set) -> Set {
        if let Some(ignored) = self.ignored_fields.get(version) {
            set.remove_recursive(ignored);
        }
        set
    }

    fn filter_comparison(&self, version: &str, c: Comparison) -> Comparison {
        match self.ignored_fields.get(version) {
            Some(ignored) => c.exclude_fields(ignored),
            None => c,
        }
    }

    /// `update`: takes changed fields from the other managers (or fails with conflicts unless
    /// `force`), removed fields from everyone; returns the managers and the comparison of the
    /// request's version.
    fn update_managers(
        &self,
        old: &TypedValue,
        new: &TypedValue,
        version: &str,
        mut managers: ManagedFields,
        workflow: &str,
        force: bool,
    ) -> Result<(ManagedFields, Comparison), UpdateError> {
        let compare = old
            .compare(new)
            .map_err(|e| failed("failed to compare objects", e))?;
        // A version or two: a list, not a map whose nodes hold eleven comparisons each. With
        // each, what it modified or added, built once for all the managers of that version
        // when the first needs it.
        let mut versions: Vec<(String, Option<Set>, Comparison)> = vec![(
            version.to_owned(),
            None,
            self.filter_comparison(version, compare),
        )];
        let mut conflicts = ManagedFields::new();
        // The managers who lose what a version's comparison removed (its place in `versions`).
        let mut removed: Vec<(String, usize)> = Vec::new();
        let names: Vec<String> = managers.keys().cloned().collect();
        for manager in names {
            if manager == workflow {
                continue;
            }
            let mv = managers[&manager].api_version.clone();
            if !versions.iter().any(|(v, _, _)| *v == mv) {
                let converted = self
                    .converter
                    .convert(old, &mv)
                    .map_err(|e| (e, "failed to convert old object"))
                    .and_then(|o| {
                        self.converter
                            .convert(new, &mv)
                            .map(|n| (o, n))
                            .map_err(|e| (e, "failed to convert new object"))
                    });
                let (o, n) = match converted {
                    Ok(on) => on,
                    Err((e, _)) if e.missing_version => {
                        managers.remove(&manager);
                        continue;
                    }
                    Err((e, context)) => return Err(failed(context, e)),
                };
                let c = o
                    .compare(&n)
                    .map_err(|e| failed("failed to compare objects", e))?;
                versions.push((mv.clone(), None, self.filter_comparison(&mv, c)));
            }
            let Some(at) = versions.iter().position(|(v, _, _)| *v == mv) else {
                continue;
            };
            let (_, changed, c) = &mut versions[at];
            let changed = changed.get_or_insert_with(|| c.modified.union(&c.added));
            let vs = &managers[&manager];
            // The manager's set is walked, not the comparison's (there may be many managers).
            let conflict = vs.set.intersection(changed);
            if !conflict.is_empty() {
                conflicts.insert(
                    manager.clone(),
                    VersionedSet::new(conflict, mv.clone(), false),
                );
            }
            if !c.removed.is_empty() {
                removed.push((manager, at));
            }
        }
        if !force && !conflicts.is_empty() {
            return Err(UpdateError::Conflicts(Conflicts::from_managers(&conflicts)));
        }
        let taken = (conflicts.iter()).map(|(manager, vs)| (manager, &vs.set));
        let gone = (removed.iter()).map(|(manager, at)| (manager, &versions[*at].2.removed));
        for (manager, set) in taken.chain(gone) {
            if let Some(vs) = managers.get_mut(manager) {
                vs.set = vs.set.difference(set);
            }
        }
        managers.retain(|_, vs| !vs.set.is_empty());
        let compare = versions.swap_remove(0).2;
        Ok((managers, compare))
    }

    /// `Update`: ownership after a write (create, update or non-apply patch) by `manager`; `new`
    /// is the object to be stored, `live` the stored one (empty on create).
    ///
    /// # Errors
    /// Conversion or comparison failures.
    pub fn update(
        &self,
        live: &TypedValue,
        new: &TypedValue,
        version: &str,
        managers: ManagedFields,
        manager: &str,
    ) -> Result<ManagedFields, UpdateError> {
        let managers = self.reconcile_with_schema(live, managers)?;
        let (mut managers, compare) =
            self.update_managers(live, new, version, managers, manager, true)?;
        let previous = managers.remove(manager).unwrap_or_default();
        // The comparison's sets are taken, not copied (a create owns all it added).
        let mut set = if compare.removed.is_empty() {
            previous.set
        } else {
            previous.set.difference(&compare.removed)
        };
        set.union_with(compare.modified);
        set.union_with(compare.added);
        let set = self.filter(version, set);
        if !set.is_empty() {
            managers.insert(manager.to_owned(), VersionedSet::new(set, version, false));
        }
        Ok(managers)
    }

    /// `Apply`: merges `config` into `live` for `manager`. Returns the new object (`None` when it
    /// equals `live`) and the managers.
    ///
    /// # Errors
    /// [`UpdateError::Conflicts`] unless `force`; merge, conversion and comparison failures.
    pub fn apply(
        &self,
        live: &TypedValue,
        config: &TypedValue,
        version: &str,
        managers: ManagedFields,
        manager: &str,
        force: bool,
    ) -> Result<(Option<TypedValue>, ManagedFields), UpdateError> {
        let mut managers = self.reconcile_with_schema(live, managers)?;
        let merged = live
            .merge(config)
            .map_err(|e| failed("failed to merge config", e))?;
        let last = managers.get(manager).cloned();
        let set = config
            .to_field_set()
            .map_err(|e| failed("failed to get field set", e))?;
        let set = self.filter(version, set);
        managers.insert(manager.to_owned(), VersionedSet::new(set, version, true));
        let new = self
            .prune(merged, &managers, manager, last.as_ref())
            .map_err(|e| failed("failed to prune fields", e))?;
        let (managers, _) = self.update_managers(live, &new, version, managers, manager, force)?;
        if !self.return_input_on_noop && value::equals(live.value(), new.value()) {
            return Ok((None, managers));
        }
        Ok((Some(new), managers))
    }

    /// `reconcileManagedFieldsWithSchemaChanges`; managers of versions that no longer exist are
    /// dropped.
    fn reconcile_with_schema(
        &self,
        live: &TypedValue,
        managers: ManagedFields,
    ) -> Result<ManagedFields, UpdateError> {
        let mut out = ManagedFields::new();
        // The live object once per version, not once per manager: a request may carry any
        // number of managers, and each conversion copies the object (`None`: not served).
        let mut converted: HashMap<String, Option<TypedValue>> = HashMap::new();
        for (manager, vs) in managers {
            let tv = match converted.get(&vs.api_version) {
                Some(tv) => tv,
                None => {
                    let tv = match self.converter.convert(live, &vs.api_version) {
                        Ok(tv) => Some(tv),
                        Err(e) if e.missing_version => None,
                        Err(e) => return Err(UpdateError::Failed(e.message)),
                    };
                    converted.entry(vs.api_version.clone()).or_insert(tv)
                }
            };
            let Some(tv) = tv else { continue };
            match reconcile_field_set_with_schema(&vs.set, tv).map_err(UpdateError::Failed)? {
                Some(set) => {
                    out.insert(manager, VersionedSet { set, ..vs });
                }
                None => {
                    out.insert(manager, vs);
                }
            }
        }
        Ok(out)
    }
}
