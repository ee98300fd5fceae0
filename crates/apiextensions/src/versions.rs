//! The versions of a CRD as the API server serves them: which are served, which is stored, and
//! the warning a request to a deprecated version gets.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/customresource_handler.go`
//! (`defaultDeprecationWarning`, the `warnings` of `getOrCreateServingInfoFor`, and
//! `hasServedCRDVersion`) and `pkg/apihelpers/helpers.go` (`GetCRDStorageVersion`).
//!
//! ```
//! use crdkit_apiextensions::versions::deprecation_warning;
//! use crdkit_schema::crd::CustomResourceDefinition;
//!
//! let crd: CustomResourceDefinition = serde_json::from_value(serde_json::json!({
//!     "spec": {"group": "stable.example.com", "names": {"plural": "crontabs", "kind": "CronTab"},
//!              "versions": [{"name": "v1beta1", "served": true, "deprecated": true},
//!                           {"name": "v1", "served": true, "storage": true}]}
//! })).unwrap();
//! assert_eq!(deprecation_warning(&crd, "v1beta1").as_deref(),
//!     Some("stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab"));
//! assert_eq!(deprecation_warning(&crd, "v1"), None);
//! ```

use std::cmp::Ordering;

use crdkit_apimachinery::version::compare_priority;
use crdkit_schema::crd::{CustomResourceDefinition, CustomResourceDefinitionVersion};

/// The version `name` of `crd`, if it has one.
#[must_use]
pub fn version<'a>(
    crd: &'a CustomResourceDefinition,
    name: &str,
) -> Option<&'a CustomResourceDefinitionVersion> {
    crd.spec.versions.iter().find(|v| v.name == name)
}

/// Whether `crd` serves `name` (`hasServedCRDVersion`): requests to any other version fall
/// through to the API server's 404 handler, and discovery does not list them, so kubectl reports
/// `no matches for kind`.
#[must_use]
pub fn is_served(crd: &CustomResourceDefinition, name: &str) -> bool {
    version(crd, name).is_some_and(|v| v.served)
}

/// The storage version (`GetCRDStorageVersion`): the one marked `storage`.
#[must_use]
pub fn storage_version(crd: &CustomResourceDefinition) -> Option<&str> {
    crd.spec
        .versions
        .iter()
        .find(|v| v.storage)
        .map(|v| v.name.as_str())
}

/// The names of the served versions, from the highest priority to the lowest (the order of
/// discovery, [`crdkit_apimachinery::version::sort_by_priority`]).
#[must_use]
pub fn served_versions(crd: &CustomResourceDefinition) -> Vec<&str> {
    let mut served: Vec<&str> = crd
        .spec
        .versions
        .iter()
        .filter(|v| v.served)
        .map(|v| v.name.as_str())
        .collect();
    crdkit_apimachinery::version::sort_by_priority(&mut served);
    served
}

/// The `Warning` header of a request to version `name` of `crd`: its `deprecationWarning`, or,
/// for a deprecated version without one, the API server's default (`defaultDeprecationWarning`):
/// `<group>/<version> <Kind> is deprecated`, and `; use <group>/<v> <Kind>` naming the
/// served, non-deprecated version of the highest priority among those of a higher priority
/// than `name`. `None` when the version is not deprecated (or does not exist).
#[must_use]
pub fn deprecation_warning(crd: &CustomResourceDefinition, name: &str) -> Option<String> {
    let v = version(crd, name)?;
    if !v.deprecated {
        return None;
    }
    Some(match &v.deprecation_warning {
        Some(w) => w.clone(),
        None => default_deprecation_warning(crd, name),
    })
}

/// `defaultDeprecationWarning`: `<group>/<version> <Kind> is deprecated`, then `; use
/// <group>/<v> <Kind>` with the served, non-deprecated version `v` of the highest priority, if
/// one has a higher priority than `name`.
#[must_use]
pub fn default_deprecation_warning(crd: &CustomResourceDefinition, name: &str) -> String {
    let (group, kind) = (&crd.spec.group, &crd.spec.names.kind);
    let mut msg = format!("{group}/{name} {kind} is deprecated");
    let better = crd
        .spec
        .versions
        .iter()
        .filter(|o| o.served && !o.deprecated && compare_priority(name, &o.name) == Ordering::Less)
        .map(|o| o.name.as_str())
        .max_by(|a, b| compare_priority(a, b));
    if let Some(b) = better {
        msg.push_str("; use ");
        msg.push_str(&format!("{group}/{b} {kind}"));
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn crd(versions: serde_json::Value) -> CustomResourceDefinition {
        serde_json::from_value(json!({"spec": {"group": "example.com",
            "names": {"plural": "crontabs", "kind": "CronTab"}, "versions": versions}}))
        .unwrap()
    }

    // The versioning page's "Version deprecation" example.
    #[test]
    fn the_pages_deprecated_versions() {
        let c = crd(json!([
            {"name": "v1alpha1", "served": true, "deprecated": true,
             "deprecationWarning": "example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab"},
            {"name": "v1beta1", "served": true, "deprecated": true},
            {"name": "v1", "served": true, "storage": true}
        ]));
        assert_eq!(
            deprecation_warning(&c, "v1alpha1").unwrap(),
            "example.com/v1alpha1 CronTab is deprecated; see http://example.com/v1alpha1-v1 for instructions to migrate to example.com/v1 CronTab"
        );
        assert_eq!(
            deprecation_warning(&c, "v1beta1").unwrap(),
            "example.com/v1beta1 CronTab is deprecated; use example.com/v1 CronTab"
        );
        assert_eq!(deprecation_warning(&c, "v1"), None);
        assert_eq!(deprecation_warning(&c, "v2"), None);
    }

    // customresource_handler_test.go Test_defaultDeprecationWarning, transcribed.
    #[test]
    fn go_default_deprecation_warning() {
        let v = |name: &str, served: bool, deprecated: bool| json!({"name": name, "served": served, "deprecated": deprecated});
        let widget = |versions: serde_json::Value| -> CustomResourceDefinition {
            serde_json::from_value(json!({"spec": {"group": "example.com",
                "names": {"kind": "Widget"}, "versions": versions}}))
            .unwrap()
        };
        let cases = [
            (
                "no replacement",
                "v1",
                json!([
                    v("v1", true, true),
                    v("v2", true, true),
                    v("v3", false, false)
                ]),
                "example.com/v1 Widget is deprecated",
            ),
            (
                "replacement sorting",
                "v1",
                json!([
                    v("v1", true, false),
                    v("v1alpha1", true, false),
                    v("v1alpha2", true, false),
                    v("v1beta1", true, false),
                    v("v1beta2", true, false),
                    v("v2", true, false),
                    v("v2alpha1", true, false),
                    v("v2alpha2", true, false),
                    v("v2beta1", true, false),
                    v("v2beta2", true, false),
                    v("v3", false, false),
                    v("v3alpha1", false, false),
                    v("v3alpha2", false, false),
                    v("v3beta1", false, false),
                    v("v3beta2", false, false),
                ]),
                "example.com/v1 Widget is deprecated; use example.com/v2 Widget",
            ),
            (
                "no newer replacement of equal stability",
                "v2",
                json!([
                    v("v1", true, false),
                    v("v3", false, false),
                    v("v3alpha1", true, false),
                    v("v3beta1", true, false),
                    v("v4", true, true),
                ]),
                "example.com/v2 Widget is deprecated",
            ),
        ];
        for (name, version, versions, want) in cases {
            let c = widget(versions);
            assert_eq!(default_deprecation_warning(&c, version), want, "{name}");
        }
    }

    #[test]
    fn served_and_storage() {
        let c = crd(json!([
            {"name": "v1beta1", "served": false},
            {"name": "v2alpha1", "served": true},
            {"name": "v1", "served": true, "storage": true}
        ]));
        assert!(!is_served(&c, "v1beta1"));
        assert!(is_served(&c, "v1"));
        assert!(!is_served(&c, "v3"));
        assert_eq!(storage_version(&c), Some("v1"));
        assert_eq!(served_versions(&c), ["v1", "v2alpha1"]);
    }
}
