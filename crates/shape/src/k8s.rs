//! Schemas of the k8s-openapi types that CRDs commonly embed (`k8s-openapi` feature), with the
//! validations Kubernetes publishes for them (controller-gen's markers on `metav1.Condition`).

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1 as meta;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use super::{Field, Json, Kind, Schema, Shape};
use crdkit_schema::{ListType, MapType};

const STRING: Shape = Shape::string();
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

const STRING_LIST: Shape = {
    let mut s = Shape::new(Kind::Array(&STRING));
    s.list_type = Some(ListType::Atomic);
    s
};
const STRING_MAP: Shape = Shape::new(Kind::Map(&STRING));
const REQUIREMENT: Shape = Shape::new(Kind::Struct(&[
    field("key", &STRING, true),
    field("operator", &STRING, true),
    field("values", &STRING_LIST, false),
]))
.named("LabelSelectorRequirement");
const REQUIREMENTS: Shape = {
    let mut s = Shape::new(Kind::Array(&REQUIREMENT));
    s.list_type = Some(ListType::Atomic);
    s
};

impl Schema for meta::LabelSelector {
    const SHAPE: Shape = {
        let mut s = Shape::new(Kind::Struct(&[
            field("matchExpressions", &REQUIREMENTS, false),
            field("matchLabels", &STRING_MAP, false),
        ]))
        .named("LabelSelector");
        s.map_type = Some(MapType::Atomic);
        s
    };
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
