//! The schema walks shared by pruning, defaulting, ObjectMeta coercion and validation: what they
//! read of a schema node (`node::SchemaNode`, for structural and compiled schemas) and the path
//! they are at (`trail`).

pub(crate) mod node;
pub(crate) mod trail;

/// Whether `schema` or a schema below it may be an embedded resource.
pub fn has_embedded(schema: &crdkit_schema::Structural) -> bool {
    node::SchemaNode::has_embedded(schema)
}

/// Nesting below which no algorithm of this crate descends (to never overflow the stack).
pub const MAX_DEPTH: usize = 1000;

/// The fields of an embedded resource that the ObjectMeta handling owns.
pub(crate) const META_FIELDS: [&str; 3] = ["apiVersion", "kind", "metadata"];
