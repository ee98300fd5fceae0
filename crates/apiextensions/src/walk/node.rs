//! The schema walk shared by pruning, defaulting, ObjectMeta coercion, embedded-resource and
//! list-type validation: one algorithm each, run over a [`Structural`] (the public functions) or
//! over the compiled [`Node`]s of a [`CompiledSchema`](super::CompiledSchema), whose flags let the
//! walks skip subtrees with nothing to do (no defaults, no embedded resources, no set/map lists).

use serde_json::Value;

use crate::compiled::{Additional, Node};
use crdkit_schema::{AdditionalProperties, ListType, Structural};

/// What the object walks read of a schema node.
pub(crate) trait SchemaNode: Sized {
    /// The schema of property `name`.
    fn property(&self, name: &str) -> Option<&Self>;
    /// The schema of property `name`, for an object whose keys are visited in order, one call
    /// per key, `cursor` starting at 0 (compiled nodes walk their properties alongside).
    fn property_at(&self, name: &str, cursor: &mut usize) -> Option<&Self> {
        let _ = cursor;
        self.property(name)
    }
    /// The properties, in name order.
    fn properties(&self) -> impl Iterator<Item = (&str, &Self)>;
    /// `additionalProperties`: `Some(None)` for `additionalProperties: <bool>` (Go's non-nil
    /// `AdditionalProperties` without a `Structural`).
    fn additional(&self) -> Option<Option<&Self>>;
    fn items(&self) -> Option<&Self>;
    fn nullable(&self) -> bool;
    /// The default; `default: null` is none (Go decodes it to a nil `JSON.Object`).
    fn default_value(&self) -> Option<&Value>;
    fn preserve_unknown_fields(&self) -> bool;
    fn embedded_resource(&self) -> bool;
    fn list_type(&self) -> Option<ListType>;
    fn list_map_keys(&self) -> &[String];
    /// `type: array`.
    fn is_array(&self) -> bool;
    /// Whether a schema below this one (not this one) may have a default.
    fn defaults_below(&self) -> bool;
    /// The properties that have a default, in name order, with it.
    fn defaulted_properties(&self) -> impl Iterator<Item = (&str, &Self, &Value)> {
        self.properties()
            .filter_map(|(k, p)| p.default_value().map(|d| (k, p, d)))
    }
    /// The properties below which defaults may apply.
    fn properties_with_defaults_below(&self) -> impl Iterator<Item = (&str, &Self)> {
        self.properties().filter(|(_, p)| p.defaults_below())
    }
    /// Whether this schema or one below may be an embedded resource.
    fn has_embedded(&self) -> bool;
    /// Whether this schema or one below may have `x-kubernetes-list-type` `set` or `map`.
    fn has_list_types(&self) -> bool;
    /// Whether `apiVersion`, `kind` or `metadata` may have a schema here.
    fn meta_fields_have_schema(&self) -> bool {
        true
    }

    /// The schema of the value at key `k` of an object: the property's, else that of
    /// `additionalProperties` (`None` for `additionalProperties: <bool>`).
    fn field(&self, k: &str) -> Option<&Self> {
        match self.property(k) {
            Some(p) => Some(p),
            None => self.additional().flatten(),
        }
    }
}

impl SchemaNode for Structural {
    fn property(&self, name: &str) -> Option<&Self> {
        self.properties.get(name)
    }
    fn properties(&self) -> impl Iterator<Item = (&str, &Self)> {
        self.properties.iter().map(|(k, v)| (k.as_str(), v))
    }
    fn additional(&self) -> Option<Option<&Self>> {
        match &self.additional_properties {
            None => None,
            Some(AdditionalProperties::Schema(s)) => Some(Some(s)),
            Some(AdditionalProperties::Bool(_)) => Some(None),
        }
    }
    fn items(&self) -> Option<&Self> {
        self.items.as_deref()
    }
    fn nullable(&self) -> bool {
        self.generic.nullable
    }
    fn default_value(&self) -> Option<&Value> {
        self.generic.default.as_ref().filter(|d| !d.is_null())
    }
    fn preserve_unknown_fields(&self) -> bool {
        self.extensions.preserve_unknown_fields
    }
    fn embedded_resource(&self) -> bool {
        self.extensions.embedded_resource
    }
    fn list_type(&self) -> Option<ListType> {
        self.extensions.list_type
    }
    fn list_map_keys(&self) -> &[String] {
        &self.extensions.list_map_keys
    }
    fn is_array(&self) -> bool {
        self.generic.ty == Some(crdkit_schema::Type::Array)
    }
    fn defaults_below(&self) -> bool {
        true
    }
    fn has_embedded(&self) -> bool {
        true
    }
    fn has_list_types(&self) -> bool {
        true
    }
}

impl SchemaNode for Node {
    fn property(&self, name: &str) -> Option<&Self> {
        Node::property(self, name)
    }
    fn property_at(&self, name: &str, cursor: &mut usize) -> Option<&Self> {
        Node::property_at(self, name, cursor).map(|p| &p.node)
    }
    fn properties(&self) -> impl Iterator<Item = (&str, &Self)> {
        self.properties.iter().map(|p| (p.name.as_str(), &p.node))
    }
    fn additional(&self) -> Option<Option<&Self>> {
        match &self.additional {
            None => None,
            Some(Additional::Schema(s)) => Some(Some(s)),
            Some(Additional::Bool(_)) => Some(None),
        }
    }
    fn items(&self) -> Option<&Self> {
        self.items.as_deref()
    }
    fn nullable(&self) -> bool {
        self.nullable
    }
    fn default_value(&self) -> Option<&Value> {
        self.structure.default.as_ref()
    }
    fn preserve_unknown_fields(&self) -> bool {
        self.structure.preserve_unknown_fields
    }
    fn embedded_resource(&self) -> bool {
        self.structure.embedded_resource
    }
    fn list_type(&self) -> Option<ListType> {
        self.structure.list_type
    }
    fn list_map_keys(&self) -> &[String] {
        &self.structure.list_map_keys
    }
    fn is_array(&self) -> bool {
        self.types.contains(crdkit_schema::Type::Array)
    }
    fn defaults_below(&self) -> bool {
        self.structure.defaults_below
    }
    fn defaulted_properties(&self) -> impl Iterator<Item = (&str, &Self, &Value)> {
        self.structure.defaulted.iter().filter_map(|&i| {
            let p = &self.properties[i];
            p.node
                .structure
                .default
                .as_ref()
                .map(|d| (p.name.as_str(), &p.node, d))
        })
    }
    fn properties_with_defaults_below(&self) -> impl Iterator<Item = (&str, &Self)> {
        self.structure.defaults_below_properties.iter().map(|&i| {
            let p = &self.properties[i];
            (p.name.as_str(), &p.node)
        })
    }
    fn has_embedded(&self) -> bool {
        self.structure.has_embedded
    }
    fn has_list_types(&self) -> bool {
        self.structure.has_list_types
    }
    fn meta_fields_have_schema(&self) -> bool {
        self.structure.meta_field_schemas
    }
}
