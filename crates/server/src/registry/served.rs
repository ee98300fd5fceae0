//! The CRDs the server serves, by name and by group, version and resource.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::custom_resource::CrdEntry;

/// The CRDs the server serves, by name and by group, version and resource.
#[derive(Default)]
pub struct Registry {
    /// Incremented by every change (discovery and OpenAPI documents are rebuilt from it).
    pub generation: u64,
    crds: BTreeMap<String, Arc<CrdEntry>>,
    by_resource: HashMap<(String, String, String), Arc<CrdEntry>>,
}

impl Registry {
    /// Adds or replaces a CRD (its stored form at `revision`); an older revision than the one
    /// held is ignored (a watch event arriving after a local write).
    pub fn upsert(&mut self, entry: CrdEntry) {
        if let Some(cur) = self.crds.get(&entry.name)
            && cur.revision >= entry.revision
        {
            return;
        }
        self.remove(&entry.name.clone());
        self.generation += 1;
        let entry = Arc::new(entry);
        if entry.served() {
            for v in entry.served_versions() {
                self.by_resource.insert(
                    (
                        entry.crd.spec.group.clone(),
                        v.clone(),
                        entry.crd.spec.names.plural.clone(),
                    ),
                    Arc::clone(&entry),
                );
            }
        }
        self.crds.insert(entry.name.clone(), entry);
    }

    /// Removes a CRD.
    pub fn remove(&mut self, name: &str) {
        if let Some(old) = self.crds.remove(name) {
            self.generation += 1;
            self.by_resource.retain(|_, e| !Arc::ptr_eq(e, &old));
        }
    }

    /// The CRD serving `group/version` `resource`.
    #[must_use]
    pub fn lookup(&self, group: &str, version: &str, resource: &str) -> Option<Arc<CrdEntry>> {
        self.by_resource
            .get(&(group.to_owned(), version.to_owned(), resource.to_owned()))
            .cloned()
    }

    /// The CRD named `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<Arc<CrdEntry>> {
        self.crds.get(name).cloned()
    }

    /// Every CRD held, by name.
    pub fn all(&self) -> impl Iterator<Item = &Arc<CrdEntry>> {
        self.crds.values()
    }
}
