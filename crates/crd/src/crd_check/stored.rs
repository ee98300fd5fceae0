//! The status a cluster holds for a CRD that was read from a file.
//!
//! On a cluster, a CRD always has stored versions: the registry's `PrepareForCreate`
//! (apiextensions-apiserver `pkg/registry/customresourcedefinition/strategy.go`) records the
//! storage version in `status.storedVersions`, and later storage versions join it; its
//! accepted names are set by the API server itself (`pkg/controller/status`'s naming
//! controller), and it is `Established`. Files rarely hold that status: controller-gen writes
//! `status: {acceptedNames: {kind: "", plural: ""}, conditions: null, storedVersions: null}`,
//! kubebuilder, kube-derive and Helm charts usually none; only `kubectl get crd -o yaml` gives
//! the cluster's. A status without stored versions is therefore no cluster's status, and the
//! one the cluster would have after creating the CRD is assumed in its place.

use serde_json::{Value, json};

use crdkit_schema::crd::CustomResourceDefinition;

/// The versions a CRD's objects may be stored at, and where they come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredVersions {
    /// `status.storedVersions`, as a cluster reports it.
    Status(Vec<String>),
    /// The file has none (no status, or an empty one): the storage version, which is what the
    /// cluster records when the CRD is created (empty without a storage version).
    Assumed(Vec<String>),
}

impl StoredVersions {
    /// The stored versions of `crd`.
    #[must_use]
    pub fn of(crd: &CustomResourceDefinition) -> StoredVersions {
        let listed: Vec<String> = crd
            .status
            .as_ref()
            .and_then(|s| s.get("storedVersions"))
            .and_then(Value::as_array)
            .map(|l| {
                l.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if listed.is_empty() {
            StoredVersions::Assumed(
                crdkit_apiextensions::versions::storage_version(crd)
                    .map(str::to_owned)
                    .into_iter()
                    .collect(),
            )
        } else {
            StoredVersions::Status(listed)
        }
    }

    /// The versions, wherever they come from.
    #[must_use]
    pub fn versions(&self) -> &[String] {
        match self {
            StoredVersions::Status(v) | StoredVersions::Assumed(v) => v,
        }
    }

    /// Whether they were assumed rather than read from the status.
    #[must_use]
    pub fn is_assumed(&self) -> bool {
        matches!(self, StoredVersions::Assumed(_))
    }
}

/// `crd` as a cluster holds it: unchanged when its status lists stored versions; otherwise
/// with the status the cluster gives a CRD it created: `Established`, its names accepted
/// (with the v1 defaults of `singular` and `listKind`), its storage version stored.
#[must_use]
pub fn as_stored(crd: &CustomResourceDefinition) -> CustomResourceDefinition {
    let StoredVersions::Assumed(stored) = StoredVersions::of(crd) else {
        return crd.clone();
    };
    let mut names = crd.spec.names.clone();
    names.set_defaults();
    let mut crd = crd.clone();
    crd.status = Some(json!({
        "acceptedNames": names,
        "conditions": [{"type": "Established", "status": "True"}],
        "storedVersions": stored,
    }));
    crd
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(status: Option<Value>) -> CustomResourceDefinition {
        let mut c: CustomResourceDefinition = serde_json::from_value(json!({
            "metadata": {"name": "crontabs.stable.example.com"},
            "spec": {"group": "stable.example.com", "scope": "Namespaced",
                     "names": {"plural": "crontabs", "kind": "CronTab"},
                     "versions": [
                         {"name": "v1beta1", "served": true, "storage": false},
                         {"name": "v1", "served": true, "storage": true}]}
        }))
        .unwrap();
        c.status = status;
        c
    }

    /// What each tool writes: kubebuilder, kube-derive and Helm charts no status,
    /// controller-gen an empty one, `kubectl get crd -o yaml` the cluster's.
    #[test]
    fn stored_versions_of_each_kind_of_file() {
        let assumed = StoredVersions::Assumed(vec!["v1".to_owned()]);
        assert_eq!(StoredVersions::of(&crd(None)), assumed);
        let controller_gen = json!({"acceptedNames": {"kind": "", "plural": ""},
                                    "conditions": null, "storedVersions": null});
        assert_eq!(
            StoredVersions::of(&crd(Some(controller_gen.clone()))),
            assumed
        );
        assert_eq!(
            StoredVersions::of(&crd(Some(json!({"storedVersions": []})))),
            assumed
        );
        let cluster = json!({"acceptedNames": {"kind": "CronTab", "plural": "crontabs"},
                             "conditions": [{"type": "Established", "status": "True"}],
                             "storedVersions": ["v1beta1", "v1"]});
        let from_cluster = StoredVersions::of(&crd(Some(cluster.clone())));
        assert_eq!(from_cluster.versions(), ["v1beta1", "v1"]);
        assert!(!from_cluster.is_assumed());
        // A cluster's status is kept as it is; a file's is replaced.
        assert_eq!(as_stored(&crd(Some(cluster.clone()))).status, Some(cluster));
        let stored = as_stored(&crd(Some(controller_gen)));
        assert_eq!(
            stored.status,
            Some(json!({
                "acceptedNames": {"plural": "crontabs", "singular": "crontab",
                                  "kind": "CronTab", "listKind": "CronTabList"},
                "conditions": [{"type": "Established", "status": "True"}],
                "storedVersions": ["v1"]
            }))
        );
        assert_eq!(StoredVersions::of(&stored).versions(), ["v1"]);
    }
}
