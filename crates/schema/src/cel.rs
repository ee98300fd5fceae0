//! The bridge from the CRD model to CEL: a [`Structural`] node is a [`cel::schema::Schema`]
//! (apiextensions `schema/cel/model/adaptor.go` does the same for Go's `common.Schema`), so CEL
//! declares its types and reads JSON through it.

use serde_json::Value;

use super::{AdditionalProperties, ListType, Structural, Type, ValidationRule};
use crdkit_cel_check::rule::RuleSource;
use crdkit_cel_check::schema::{Schema, small_get};

impl Schema for Structural {
    #[inline]
    fn ty(&self) -> Option<Type> {
        self.generic.ty
    }
    #[inline]
    fn format(&self) -> Option<&str> {
        self.value_validation.format.as_deref()
    }
    #[inline]
    fn nullable(&self) -> bool {
        self.generic.nullable
    }
    #[inline]
    fn int_or_string(&self) -> bool {
        self.extensions.int_or_string
    }
    #[inline]
    fn embedded_resource(&self) -> bool {
        self.extensions.embedded_resource
    }
    #[inline]
    fn preserve_unknown_fields(&self) -> bool {
        self.extensions.preserve_unknown_fields
    }
    #[inline]
    fn list_type(&self) -> Option<ListType> {
        self.extensions.list_type
    }
    fn list_map_keys(&self) -> &[String] {
        &self.extensions.list_map_keys
    }
    #[inline]
    fn property(&self, name: &str) -> Option<&dyn Schema> {
        small_get(&self.properties, name).map(|s| s as &dyn Schema)
    }
    #[inline]
    fn has_properties(&self) -> bool {
        !self.properties.is_empty()
    }
    fn for_each_property(&self, f: &mut dyn FnMut(&str, &dyn Schema)) {
        for (k, v) in &self.properties {
            f(k, v);
        }
    }
    #[inline]
    fn additional_properties(&self) -> Option<&dyn Schema> {
        match &self.additional_properties {
            Some(AdditionalProperties::Schema(s)) => Some(&**s),
            _ => None,
        }
    }
    #[inline]
    fn items(&self) -> Option<&dyn Schema> {
        self.items.as_deref().map(|s| s as &dyn Schema)
    }
    fn required(&self) -> &[String] {
        &self.value_validation.required
    }
    fn default_value(&self) -> Option<&Value> {
        self.generic.default.as_ref()
    }
    fn enum_values(&self) -> &[Value] {
        &self.value_validation.enum_values
    }
    fn max_length(&self) -> Option<i64> {
        self.value_validation.max_length
    }
    fn max_items(&self) -> Option<i64> {
        self.value_validation.max_items
    }
    fn max_properties(&self) -> Option<i64> {
        self.value_validation.max_properties
    }
}

impl<'a> From<&'a ValidationRule> for RuleSource<'a> {
    fn from(r: &'a ValidationRule) -> RuleSource<'a> {
        RuleSource {
            rule: &r.rule,
            message_expression: &r.message_expression,
            optional_old_self: r.optional_old_self == Some(true),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crdkit_cel_check::schema::ResourceRoot;

    #[test]
    fn resource_root_adds_type_and_capped_meta() {
        let mut s = Structural::of_type(Type::Object);
        s.properties
            .insert("spec".into(), Structural::of_type(Type::Object));
        let root = ResourceRoot::new(&s).unwrap();
        let meta = root.property("metadata").unwrap();
        assert_eq!(meta.property("name").unwrap().max_length(), Some(253));
        assert_eq!(
            meta.property("generateName").unwrap().max_length(),
            Some(252)
        );
        assert!(meta.property("labels").is_none());
        assert_eq!(root.property("kind").unwrap().ty(), Some(Type::String));
        let mut names = Vec::new();
        root.for_each_property(&mut |k, _| names.push(k.to_owned()));
        assert_eq!(names, ["spec", "apiVersion", "kind", "metadata"]);
    }
}
