//! kube-rs integration (the `kube` feature): `kube::Resource` for generated roots and the CRD
//! as k8s-openapi's type. The schemas of k8s-openapi types are in `crdkit_shape::k8s`.

use crate::{CrdError, CustomResource, CustomResourceDefinition};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1 as k8s_ext;

/// Converts a CRD to k8s-openapi's type, e.g. to create it with `kube::Api`.
///
/// # Errors
/// Never for CRDs built by crdkit; a hand-edited CRD may fail k8s-openapi's deserializer.
pub fn to_k8s(
    crd: &CustomResourceDefinition,
) -> Result<k8s_ext::CustomResourceDefinition, serde_json::Error> {
    serde_json::from_value(crd.to_value())
}

/// `CronTab::k8s_crd()`: the CRD of a resource as k8s-openapi's type.
pub trait KubeCrdExt: CustomResource {
    /// The CRD as k8s-openapi's `CustomResourceDefinition`.
    ///
    /// # Errors
    /// When the CRD cannot be built (see [`CustomResource::crd`]).
    fn k8s_crd() -> Result<k8s_ext::CustomResourceDefinition, CrdError> {
        let crd = Self::crd()?;
        to_k8s(&crd).map_err(|e| CrdError {
            errors: vec![crdkit_shape::BuildError {
                path: String::new(),
                message: format!("k8s-openapi rejects the CRD: {e}"),
            }],
        })
    }
}

impl<T: CustomResource> KubeCrdExt for T {}

/// `kube::Resource` for a generated root; expanded by `#[derive(CustomResource)]`.
#[doc(hidden)]
#[macro_export]
macro_rules! __kube_resource_impl {
    ($root:ident, $group:literal, $version:literal, $api_version:literal, $kind:literal, $plural:literal, $scope:ident) => {
        impl $crate::__private::kube_core::Resource for $root {
            type DynamicType = ();
            type Scope = $crate::__kube_scope!($scope);

            fn kind(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed($kind)
            }
            fn group(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed($group)
            }
            fn version(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed($version)
            }
            fn api_version(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed($api_version)
            }
            fn plural(_: &()) -> ::std::borrow::Cow<'_, str> {
                ::std::borrow::Cow::Borrowed($plural)
            }
            fn meta(&self) -> &$crate::__private::ObjectMeta {
                &self.metadata
            }
            fn meta_mut(&mut self) -> &mut $crate::__private::ObjectMeta {
                &mut self.metadata
            }
        }
    };
}

/// kube-core's `HasSpec`, and `HasStatus` when the resource has a status (as kube-derive
/// implements them), so code generic over `HasSpec`/`HasStatus` takes crdkit resources.
#[doc(hidden)]
#[macro_export]
macro_rules! __kube_has_spec_status {
    ($root:ident, status) => {
        $crate::__kube_has_spec_status!($root, no_status);
        impl $crate::__private::kube_core::object::HasStatus for $root {
            type Status = <$root as $crate::CustomResource>::Status;
            fn status(&self) -> ::core::option::Option<&Self::Status> {
                self.status.as_ref()
            }
            fn status_mut(&mut self) -> &mut ::core::option::Option<Self::Status> {
                &mut self.status
            }
        }
    };
    ($root:ident, no_status) => {
        impl $crate::__private::kube_core::object::HasSpec for $root {
            type Spec = <$root as $crate::CustomResource>::Spec;
            fn spec(&self) -> &Self::Spec {
                &self.spec
            }
            fn spec_mut(&mut self) -> &mut Self::Spec {
                &mut self.spec
            }
        }
    };
}

/// The k8s-openapi scope type of `Namespaced` / `Cluster`.
#[doc(hidden)]
#[macro_export]
macro_rules! __kube_scope {
    (Namespaced) => {
        $crate::__private::k8s_openapi::NamespaceResourceScope
    };
    (Cluster) => {
        $crate::__private::k8s_openapi::ClusterResourceScope
    };
}
