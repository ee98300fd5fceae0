//! The CRDs the server serves, by name and by group, version and resource.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::custom_resource::CrdEntry;

/// How many deleted CRDs [`Registry`] remembers.
const MAX_DELETED: usize = 1024;

/// The CRDs the server serves, by name and by group, version and resource.
#[derive(Default)]
pub struct Registry {
    /// Incremented by every change (discovery and OpenAPI documents are rebuilt from it).
    pub generation: u64,
    crds: BTreeMap<String, Arc<CrdEntry>>,
    /// By group, version and resource, nested: a request looks its resource up without
    /// building a key.
    by_resource: HashMap<String, HashMap<String, HashMap<String, Arc<CrdEntry>>>>,
    /// The revision each CRD was last deleted at: an older state arriving later (a watch event
    /// behind the cleanup's own delete) does not bring it back.
    deleted: HashMap<String, u64>,
}

impl Registry {
    /// Adds or replaces a CRD (its stored form at `revision`); an older revision than the one
    /// held, or than its deletion, is ignored (a watch event arriving after a local write).
    pub fn upsert(&mut self, entry: CrdEntry) {
        if let Some(cur) = self.crds.get(&entry.name)
            && cur.revision >= entry.revision
        {
            return;
        }
        if self
            .deleted
            .get(&entry.name)
            .is_some_and(|&at| at >= entry.revision)
        {
            return;
        }
        self.deleted.remove(&entry.name);
        let mut entry = entry;
        if let Some(old) = self.crds.get(&entry.name) {
            if entry.same_storage(old) {
                entry.torn_down = old.torn_down.clone();
            } else {
                old.torn_down.cancel();
            }
        }
        self.remove(&entry.name.clone());
        self.generation += 1;
        let entry = Arc::new(entry);
        if entry.served() {
            let by_version = self
                .by_resource
                .entry(entry.crd.spec.group.clone())
                .or_default();
            for v in entry.served_versions() {
                by_version
                    .entry(v)
                    .or_default()
                    .insert(entry.crd.spec.names.plural.clone(), Arc::clone(&entry));
            }
        }
        self.crds.insert(entry.name.clone(), entry);
    }

    /// Removes a CRD deleted at `revision`, unless what is held is newer (recreated since).
    pub fn delete(&mut self, name: &str, revision: u64) {
        if self.crds.get(name).is_some_and(|e| e.revision >= revision) {
            return;
        }
        if let Some(old) = self.crds.get(name) {
            old.torn_down.cancel();
        }
        self.remove(name);
        // Bounded: a deletion only needs remembering while the watch may still deliver older
        // events, so the oldest goes first.
        if self.deleted.len() >= MAX_DELETED && !self.deleted.contains_key(name) {
            let oldest = self
                .deleted
                .iter()
                .min_by_key(|(_, at)| **at)
                .map(|(n, _)| n.clone());
            if let Some(oldest) = oldest {
                self.deleted.remove(&oldest);
            }
        }
        let at = self.deleted.entry(name.to_owned()).or_default();
        *at = (*at).max(revision);
    }

    /// Removes a CRD (its storage lives on in the entry that replaces it, or is torn down by
    /// the caller).
    fn remove(&mut self, name: &str) {
        if let Some(old) = self.crds.remove(name) {
            self.generation += 1;
            for by_version in self.by_resource.values_mut() {
                for by_name in by_version.values_mut() {
                    by_name.retain(|_, e| !Arc::ptr_eq(e, &old));
                }
                by_version.retain(|_, by_name| !by_name.is_empty());
            }
            self.by_resource
                .retain(|_, by_version| !by_version.is_empty());
        }
    }

    /// The CRD serving `group/version` `resource`.
    #[must_use]
    pub fn lookup(&self, group: &str, version: &str, resource: &str) -> Option<Arc<CrdEntry>> {
        self.by_resource
            .get(group)?
            .get(version)?
            .get(resource)
            .cloned()
    }

    /// Every CRD held, by name.
    pub fn all(&self) -> impl Iterator<Item = &Arc<CrdEntry>> {
        self.crds.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(plural: &str, versions: &[&str], revision: u64) -> CrdEntry {
        let versions: Vec<serde_json::Value> = versions
            .iter()
            .enumerate()
            .map(|(i, v)| serde_json::json!({"name": v, "served": true, "storage": i == 0}))
            .collect();
        let crd = serde_json::json!({"apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": format!("{plural}.g.io")},
            "spec": {"group": "g.io", "scope": "Namespaced", "versions": versions,
                "names": {"plural": plural, "kind": "K"}},
            "status": {"conditions": [{"type": "Established", "status": "True"}]}});
        CrdEntry::new(serde_json::from_value(crd).unwrap(), revision)
    }

    #[test]
    fn resources_are_found_by_group_version_and_name_until_removed() {
        let mut r = Registry::default();
        r.upsert(entry("as", &["v1", "v2"], 1));
        r.upsert(entry("bs", &["v1"], 2));
        let name = |e: Option<Arc<CrdEntry>>| e.map(|e| e.name.clone());
        assert_eq!(
            name(r.lookup("g.io", "v2", "as")).as_deref(),
            Some("as.g.io")
        );
        assert_eq!(
            name(r.lookup("g.io", "v1", "bs")).as_deref(),
            Some("bs.g.io")
        );
        assert!(r.lookup("g.io", "v2", "bs").is_none());
        assert!(r.lookup("h.io", "v1", "as").is_none());
        // A version no longer served is no longer found.
        r.upsert(entry("as", &["v1"], 3));
        assert!(r.lookup("g.io", "v2", "as").is_none());
        assert!(r.lookup("g.io", "v1", "as").is_some());
        r.delete("as.g.io", 4);
        r.delete("bs.g.io", 5);
        assert!(r.lookup("g.io", "v1", "as").is_none());
        assert!(r.by_resource.is_empty());
        // A state older than the deletion, arriving after it, does not bring the CRD back; a
        // newer one (recreated) does, and an older deletion does not remove that.
        r.upsert(entry("as", &["v1"], 3));
        assert!(!r.crds.contains_key("as.g.io"));
        r.upsert(entry("as", &["v1"], 6));
        assert!(r.lookup("g.io", "v1", "as").is_some());
        r.delete("as.g.io", 4);
        assert!(r.crds.contains_key("as.g.io"));
        // Deletions are remembered up to a bound, the oldest forgotten first.
        for i in 0..MAX_DELETED + 10 {
            r.delete(&format!("x{i}"), 100 + i as u64);
        }
        assert_eq!(r.deleted.len(), MAX_DELETED);
        assert!(!r.deleted.contains_key("x0"));
        assert!(r.deleted.contains_key(&format!("x{}", MAX_DELETED + 9)));
    }
}
