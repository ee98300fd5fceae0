//! Conflicts: fields an applier would change that another manager owns.
//!
//! Mirrors structured-merge-diff `merge/conflict.go`. The API server prints them differently
//! (`Apply failed with 1 conflict: ...`); that form is in [`crate::manager`].

use std::collections::BTreeMap;
use std::fmt;

use crate::fieldpath::{Path, Set};

use super::ManagedFields;

/// A field and the manager that owns it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Conflict {
    /// The manager (in the API server, its identifier JSON).
    pub manager: String,
    /// The field.
    pub path: Path,
}

impl fmt::Display for Conflict {
    /// `conflict with "kubectl": .spec.replicas`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "conflict with {}: {}",
            crdkit_apimachinery::gofmt::quote(&self.manager),
            self.path
        )
    }
}

/// The conflicts of one apply.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Conflicts(pub Vec<Conflict>);

impl Conflicts {
    /// `ConflictsFromManagers`: each manager's paths, managers in order.
    #[must_use]
    pub fn from_managers(sets: &ManagedFields) -> Conflicts {
        let mut out = Vec::new();
        for (manager, vs) in sets {
            for path in &vs.set {
                out.push(Conflict {
                    manager: manager.clone(),
                    path,
                });
            }
        }
        Conflicts(out)
    }

    /// `ToSet`: all the conflicting paths.
    #[must_use]
    pub fn to_set(&self) -> Set {
        Set::from_paths(self.0.iter().map(|c| c.path.clone()))
    }

    /// The paths of each manager, managers sorted.
    #[must_use]
    pub fn by_manager(&self) -> BTreeMap<&str, Vec<&Path>> {
        let mut m: BTreeMap<&str, Vec<&Path>> = BTreeMap::new();
        for c in &self.0 {
            m.entry(c.manager.as_str()).or_default().push(&c.path);
        }
        m
    }

    /// Whether both hold the same conflicts, in any order.
    #[must_use]
    pub fn same_as(&self, other: &Conflicts) -> bool {
        let mut a = self.0.clone();
        let mut b = other.0.clone();
        a.sort();
        b.sort();
        a == b
    }
}

impl fmt::Display for Conflicts {
    /// One conflict alone; several grouped by manager: `conflicts with "a":\n- .x`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let [one] = self.0.as_slice() {
            return write!(f, "{one}");
        }
        let mut lines = Vec::new();
        for (manager, paths) in self.by_manager() {
            lines.push(format!(
                "conflicts with {}:",
                crdkit_apimachinery::gofmt::quote(manager)
            ));
            for p in paths {
                lines.push(format!("- {p}"));
            }
        }
        f.write_str(&lines.join("\n"))
    }
}

impl std::error::Error for Conflicts {}
