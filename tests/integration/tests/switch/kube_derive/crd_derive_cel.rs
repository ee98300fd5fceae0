//! kube-rs `examples/crd_derive_cel.rs`: root, spec and field rules. kube-derive's `cel` flag
//! (client-side `validate_cel`, behind kube's `cel` feature) is left out of its side: it does
//! not change the CRD, and crdkit's `validate()` runs the same rules.

use serde_json::json;

use super::{V0, at, compare, crdkit_crd, kube_crd};

mod kube_side {
    use kube::{CustomResource, KubeSchema};
    use serde::{Deserialize, Serialize};

    /// A toy autoscaler spec with CEL constraints.
    ///
    /// - Root rule (`self` is the whole object): `minReplicas <= maxReplicas`.
    /// - Spec-scoped rule (`self` is the spec): mirror of the same bound, usable on the spec alone.
    /// - Field rules: `minReplicas >= 0`, and `tier` is immutable across updates (`self == oldSelf`).
    #[derive(CustomResource, KubeSchema, Serialize, Deserialize, Clone, Debug)]
    #[kube(
        group = "example.kube.rs",
        version = "v1",
        kind = "Autoscaler",
        namespaced,
        validation = "self.spec.minReplicas <= self.spec.maxReplicas"
    )]
    #[x_kube(validation = "self.minReplicas <= self.maxReplicas")]
    #[serde(rename_all = "camelCase")]
    pub struct AutoscalerSpec {
        #[x_kube(validation = "self >= 0")]
        min_replicas: i32,
        max_replicas: i32,
        #[x_kube(validation = "self == oldSelf")]
        tier: String,
    }
}

mod crdkit_side {
    use serde::{Deserialize, Serialize};

    /// A toy autoscaler spec with CEL constraints.
    ///
    /// - Root rule (`self` is the whole object): `minReplicas <= maxReplicas`.
    /// - Spec-scoped rule (`self` is the spec): mirror of the same bound, usable on the spec alone.
    /// - Field rules: `minReplicas >= 0`, and `tier` is immutable across updates (`self == oldSelf`).
    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug)]
    #[crd(
        group = "example.kube.rs",
        version = "v1",
        kind = "Autoscaler",
        namespaced,
        root_validation(rule = "self.spec.minReplicas <= self.spec.maxReplicas"),
        validation(rule = "self.minReplicas <= self.maxReplicas")
    )]
    #[serde(rename_all = "camelCase")]
    pub struct AutoscalerSpec {
        #[crd(validation(rule = "self >= 0"))]
        pub min_replicas: i32,
        pub max_replicas: i32,
        #[crd(validation(rule = "self == oldSelf"))]
        pub tier: String,
    }
}

#[test]
fn crd_derive_cel() {
    compare(
        &kube_crd::<kube_side::Autoscaler>(),
        &crdkit_crd::<crdkit_side::Autoscaler>(),
        &[
            at(
                format!("{V0}.title"),
                Some(json!("Autoscaler")),
                None,
                "no title (module docs)",
            ),
            at(
                format!("{V0}.description"),
                Some(json!(
                    "Auto-generated derived type for AutoscalerSpec via `CustomResource`"
                )),
                None,
                "crdkit describes the root only when asked (`root_description`)",
            ),
        ],
    );
}

/// What `validate_cel` checks on the client, `validate()` checks as the API server does.
#[test]
fn the_rules_run_on_the_client() {
    use crdkit_side::{Autoscaler, AutoscalerSpec};
    let spec = |min, max, tier: &str| AutoscalerSpec {
        min_replicas: min,
        max_replicas: max,
        tier: tier.into(),
    };
    let valid = Autoscaler::new("web", spec(1, 5, "standard"));
    assert_eq!(valid.validate(), Ok(()));
    let invalid = Autoscaler::new("web", spec(9, 5, "standard"));
    assert_eq!(invalid.validate().unwrap_err().errors.len(), 2);
    let changed = Autoscaler::new("web", spec(1, 5, "premium"));
    let err = changed.validate_update(&valid).unwrap_err().errors[0].to_string();
    assert!(
        err.starts_with("spec.tier: Invalid value: ")
            && err.ends_with("failed rule: self == oldSelf"),
        "{err}"
    );
}
