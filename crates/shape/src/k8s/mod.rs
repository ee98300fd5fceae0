//! Schemas of the k8s-openapi types that CRDs embed (`k8s-openapi` feature).
//!
//! `generated.rs` holds the shapes of every type reachable from a pod template, services,
//! claims, references, selectors and the workload specs, for the Kubernetes minor version
//! k8s-openapi is built for (its `v1_*` feature), with the descriptions, formats, `required`,
//! list types, list-map keys and map types Kubernetes publishes; see
//! `examples/k8s_shapes` for how it is made. Not carried over: `default` and `enum`, which
//! the published schemas have but the API server does not enforce through OpenAPI for
//! built-in kinds (controller-gen leaves them out of embedded types too: a CRD with them would
//! reject or rewrite values the built-in kind accepts).
//!
//! Written here by hand: the types whose published schema is not what CRDs use
//! (`IntOrString`, `Quantity` as int-or-string with Quantity's pattern, the times as
//! `date-time`, `ObjectMeta` as `type: object`) and `Condition`, with the validations
//! controller-gen emits from its markers.

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::{Field, Json, Kind, Schema, Shape};

#[rustfmt::skip]
mod generated;

/// What `generated.rs` is written with.
// Not every minor version uses every primitive.
#[allow(dead_code)]
mod prelude {
    pub use crate::{DefaultValue, Field, Json, Kind, Schema, Shape};
    pub use crdkit_schema::{ListType, MapType};

    pub const STRING: Shape = Shape::string().named("string");
    pub const BYTES: Shape = Shape::string().format("byte").named("bytes");
    pub const INT32: Shape = Shape::integer().format("int32").named("int32");
    pub const INT64: Shape = Shape::integer().format("int64").named("int64");
    pub const INTEGER: Shape = Shape::integer().named("integer");
    pub const DOUBLE: Shape = Shape::number().format("double").named("double");
    pub const NUMBER: Shape = Shape::number().named("number");
    pub const BOOL: Shape = Shape::boolean().named("boolean");

    /// A field under its serialized name.
    pub const fn field(name: &'static str, shape: &'static Shape, required: bool) -> Field {
        super::field(name, shape, required)
    }

    /// A struct of these fields.
    pub const fn object(fields: &'static [Field]) -> Shape {
        Shape::new(Kind::Struct(fields))
    }

    /// A list of these items (`x-kubernetes-list-type` is set by the field).
    pub const fn list(items: &'static Shape) -> Shape {
        Shape::new(Kind::Array(items)).named("list")
    }

    /// A map to these values.
    pub const fn map(values: &'static Shape) -> Shape {
        Shape::new(Kind::Map(values)).named("map")
    }
}

const DATE_TIME: Shape = Shape::string().format("date-time");

/// Quantity's serialized form, as Kubernetes publishes it.
pub const QUANTITY_PATTERN: &str = r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$";

impl Schema for IntOrString {
    const SHAPE: Shape = Shape::int_or_string().named("IntOrString");
}

impl Schema for Quantity {
    const SHAPE: Shape = Shape::int_or_string()
        .named("Quantity")
        .pattern(QUANTITY_PATTERN);
}

impl Schema for meta::Time {
    const SHAPE: Shape = DATE_TIME.named("Time");
}

impl Schema for meta::MicroTime {
    const SHAPE: Shape = DATE_TIME.named("MicroTime");
}

impl Schema for meta::ObjectMeta {
    const SHAPE: Shape = crate::meta::OBJECT_META;
}

const fn field(name: &'static str, shape: &'static Shape, required: bool) -> Field {
    Field {
        name,
        ident: name,
        shape,
        required,
        flatten: false,
    }
}

const MESSAGE: Shape = Shape::string().length(None, Some(32768));
const OBSERVED_GENERATION: Shape = Shape::integer().format("int64").minimum(0.0);
const REASON: Shape = Shape::string()
    .length(Some(1), Some(1024))
    .pattern("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");
const STATUS: Shape = {
    let mut s = Shape::string();
    s.enum_values = &[Json::Str("True"), Json::Str("False"), Json::Str("Unknown")];
    s
};
const TYPE: Shape = Shape::string().length(None, Some(316)).pattern(
    r"^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$",
);

/// `metav1.Condition`, with the validations controller-gen emits for it.
impl Schema for meta::Condition {
    const SHAPE: Shape = Shape::new(Kind::Struct(&[
        field("lastTransitionTime", &DATE_TIME, true),
        field("message", &MESSAGE, true),
        field("observedGeneration", &OBSERVED_GENERATION, false),
        field("reason", &REASON, true),
        field("status", &STATUS, true),
        field("type", &TYPE, true),
    ]))
    .named("Condition");
}

#[cfg(test)]
mod tests {
    use crate::{Schema, build};
    use crdkit_schema::{ListType, MapType, Type};
    use k8s_openapi::api::core::v1 as core;

    /// Every root builds (the consts of the selected minor version evaluate), with the list
    /// types and keys Kubernetes publishes.
    #[test]
    fn shapes_build_with_published_list_types() {
        let pod = build(&core::PodTemplateSpec::SHAPE).unwrap();
        let spec = &pod.properties["spec"];
        assert_eq!(spec.value_validation.required, ["containers"]);
        let containers = &spec.properties["containers"];
        assert_eq!(containers.extensions.list_type, Some(ListType::Map));
        assert_eq!(containers.extensions.list_map_keys, ["name"]);
        let ports = &containers.items.as_ref().unwrap().properties["ports"];
        assert_eq!(
            ports.extensions.list_map_keys,
            ["containerPort", "protocol"]
        );
        let protocol = &ports.items.as_ref().unwrap().properties["protocol"];
        assert_eq!(protocol.generic.default, Some(serde_json::json!("TCP")));
        assert_eq!(
            spec.properties["tolerations"].extensions.list_type,
            Some(ListType::Atomic)
        );
        let metadata = &pod.properties["metadata"];
        assert_eq!(metadata.generic.ty, Some(Type::Object));
        assert!(metadata.properties.is_empty());
        let selector =
            build(&k8s_openapi::apimachinery::pkg::apis::meta::v1::LabelSelector::SHAPE).unwrap();
        assert_eq!(selector.extensions.map_type, Some(MapType::Atomic));
        for shape in [
            &core::ServiceSpec::SHAPE,
            &core::PersistentVolumeClaimSpec::SHAPE,
            &core::PersistentVolumeClaim::SHAPE,
            &k8s_openapi::api::apps::v1::StatefulSetSpec::SHAPE,
            &k8s_openapi::api::batch::v1::CronJobSpec::SHAPE,
            &k8s_openapi::api::autoscaling::v2::HorizontalPodAutoscalerSpec::SHAPE,
            &k8s_openapi::api::networking::v1::IngressSpec::SHAPE,
            &k8s_openapi::api::rbac::v1::PolicyRule::SHAPE,
        ] {
            // Embedded in a spec, as CRDs carry them (not at a CRD's root, where `metadata` must
            // be bare).
            let mut root = crdkit_schema::Structural::of_type(Type::Object);
            root.properties
                .insert("spec".to_owned(), build(shape).unwrap());
            let errors = crdkit_schema::validate_structural(
                &crdkit_apimachinery::field::FieldPath::nil(),
                &root,
            );
            assert!(errors.is_empty(), "{}: {errors:?}", shape.name);
        }
    }
}
