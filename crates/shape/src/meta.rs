//! The shape of `metadata`, shared by crdkit's `ObjectMeta` and (with the `k8s-openapi`
//! feature) k8s-openapi's.

use crate::{Field, Kind, Schema, Shape};
use crdkit_schema::meta::ObjectMeta;

const STRING: Shape = Shape::string();
const DATE_TIME: Shape = Shape::string().format("date-time");
const INTEGER: Shape = Shape::integer();
const STRING_MAP: Shape = Shape::new(Kind::Map(&STRING));
const STRING_LIST: Shape = Shape::new(Kind::Array(&STRING));
const ANY: Shape = Shape::any();
const MANAGED_FIELDS: Shape = Shape::new(Kind::Array(&ANY));
const BOOL: Shape = Shape::boolean();
const OWNER_REFERENCE: Shape = Shape::new(Kind::Struct(&[
    field("apiVersion", &STRING, true),
    field("blockOwnerDeletion", &BOOL, false),
    field("controller", &BOOL, false),
    field("kind", &STRING, true),
    field("name", &STRING, true),
    field("uid", &STRING, true),
]))
.named("OwnerReference");
const OWNER_REFERENCES: Shape = Shape::new(Kind::Array(&OWNER_REFERENCE));

const fn field(name: &'static str, shape: &'static Shape, required: bool) -> Field {
    Field {
        name,
        ident: name,
        shape,
        required,
        flatten: false,
    }
}

/// `metadata` of an object.
pub const OBJECT_META: Shape = {
    let mut s = Shape::new(Kind::Struct(&[
        field("annotations", &STRING_MAP, false),
        field("creationTimestamp", &DATE_TIME, false),
        field("deletionGracePeriodSeconds", &INTEGER, false),
        field("deletionTimestamp", &DATE_TIME, false),
        field("finalizers", &STRING_LIST, false),
        field("generateName", &STRING, false),
        field("generation", &INTEGER, false),
        field("labels", &STRING_MAP, false),
        field("managedFields", &MANAGED_FIELDS, false),
        field("name", &STRING, false),
        field("namespace", &STRING, false),
        field("ownerReferences", &OWNER_REFERENCES, false),
        field("resourceVersion", &STRING, false),
        field("selfLink", &STRING, false),
        field("uid", &STRING, false),
    ]))
    .named("ObjectMeta");
    s.object_meta = true;
    s
};

impl Schema for ObjectMeta {
    const SHAPE: Shape = OBJECT_META;
}
