//! Conversion between the wire form ([`JsonSchemaProps`]) and the [`Structural`] model.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/schema/convert.go` (`NewStructural`) and the
//! reverse direction used when a structural schema is published.

use std::collections::BTreeMap;

use super::props::{JsonSchemaProps, SchemaOrArray, SchemaOrBool};
use super::structural::{
    AdditionalProperties, Extensions, Generic, ListType, MapType, NestedValueValidation,
    Structural, Type, ValueValidation,
};

/// Why a [`JsonSchemaProps`] has no structural form at all (as opposed to being non-structural,
/// which [`super::check`] reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConvertError {
    /// `items: [..]`: the tuple form of `items`.
    ItemsArray {
        /// The dotted path of the offending `items` (`properties[spec].items`).
        path: String,
    },
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ItemsArray { path } => {
                write!(f, "{path}: items must be a schema object and not an array")
            }
        }
    }
}

impl std::error::Error for ConvertError {}

impl Structural {
    /// Builds the structural model of a wire schema. Fields that CRDs forbid (`$ref`,
    /// `definitions`, ...) are ignored here; the checker reports them from the wire form.
    ///
    /// # Errors
    /// When `items` is an array of schemas.
    pub fn from_props(p: &JsonSchemaProps) -> Result<Structural, ConvertError> {
        from_props_at(p, "")
    }

    /// The wire form of this schema.
    #[must_use]
    pub fn to_props(&self) -> JsonSchemaProps {
        let mut p = JsonSchemaProps::default();
        write_generic(&mut p, &self.generic);
        write_extensions(&mut p, &self.extensions);
        write_value_validation(&mut p, &self.value_validation);
        p.items = self
            .items
            .as_ref()
            .map(|i| SchemaOrArray::Schema(Box::new(i.to_props())));
        p.properties = self
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), v.to_props()))
            .collect();
        p.additional_properties = self.additional_properties.as_ref().map(|a| match a {
            AdditionalProperties::Bool(b) => SchemaOrBool::Bool(*b),
            AdditionalProperties::Schema(s) => SchemaOrBool::Schema(Box::new(s.to_props())),
        });
        p
    }
}

fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

fn from_props_at(p: &JsonSchemaProps, path: &str) -> Result<Structural, ConvertError> {
    let items = match &p.items {
        None => None,
        Some(SchemaOrArray::Schema(s)) => Some(Box::new(from_props_at(s, &child(path, "items"))?)),
        Some(SchemaOrArray::Array(_)) => {
            return Err(ConvertError::ItemsArray {
                path: child(path, "items"),
            });
        }
    };
    let mut properties = BTreeMap::new();
    for (k, v) in &p.properties {
        properties.insert(
            k.clone(),
            from_props_at(v, &child(path, &format!("properties[{k}]")))?,
        );
    }
    let additional_properties = match &p.additional_properties {
        None => None,
        Some(SchemaOrBool::Bool(b)) => Some(AdditionalProperties::Bool(*b)),
        Some(SchemaOrBool::Schema(s)) => Some(AdditionalProperties::Schema(Box::new(
            from_props_at(s, &child(path, "additionalProperties"))?,
        ))),
    };
    Ok(Structural {
        generic: read_generic(p),
        extensions: read_extensions(p),
        value_validation: read_value_validation(p, path)?,
        items,
        properties,
        additional_properties,
    })
}

fn read_generic(p: &JsonSchemaProps) -> Generic {
    Generic {
        description: non_empty(&p.description),
        ty: Type::parse(&p.ty),
        title: non_empty(&p.title),
        default: p.default.clone(),
        nullable: p.nullable,
    }
}

fn read_extensions(p: &JsonSchemaProps) -> Extensions {
    Extensions {
        preserve_unknown_fields: p.x_preserve_unknown_fields == Some(true),
        embedded_resource: p.x_embedded_resource,
        int_or_string: p.x_int_or_string,
        list_map_keys: p.x_list_map_keys.clone(),
        list_type: p.x_list_type.as_deref().and_then(ListType::parse),
        map_type: p.x_map_type.as_deref().and_then(MapType::parse),
        validations: p.x_validations.clone(),
    }
}

fn read_value_validation(p: &JsonSchemaProps, path: &str) -> Result<ValueValidation, ConvertError> {
    let nested = |v: &[JsonSchemaProps], name: &str| -> Result<Vec<_>, ConvertError> {
        v.iter()
            .enumerate()
            .map(|(i, s)| read_nested(s, &child(path, &format!("{name}[{i}]"))))
            .collect()
    };
    Ok(ValueValidation {
        format: non_empty(&p.format),
        maximum: p.maximum,
        exclusive_maximum: p.exclusive_maximum,
        minimum: p.minimum,
        exclusive_minimum: p.exclusive_minimum,
        max_length: p.max_length,
        min_length: p.min_length,
        pattern: non_empty(&p.pattern),
        max_items: p.max_items,
        min_items: p.min_items,
        unique_items: p.unique_items,
        multiple_of: p.multiple_of,
        enum_values: p.enum_values.clone(),
        max_properties: p.max_properties,
        min_properties: p.min_properties,
        required: p.required.clone(),
        all_of: nested(&p.all_of, "allOf")?,
        one_of: nested(&p.one_of, "oneOf")?,
        any_of: nested(&p.any_of, "anyOf")?,
        not: match &p.not {
            Some(n) => Some(Box::new(read_nested(n, &child(path, "not"))?)),
            None => None,
        },
    })
}

fn read_nested(p: &JsonSchemaProps, path: &str) -> Result<NestedValueValidation, ConvertError> {
    let items = match &p.items {
        None => None,
        Some(SchemaOrArray::Schema(s)) => Some(Box::new(read_nested(s, &child(path, "items"))?)),
        Some(SchemaOrArray::Array(_)) => {
            return Err(ConvertError::ItemsArray {
                path: child(path, "items"),
            });
        }
    };
    let mut properties = BTreeMap::new();
    for (k, v) in &p.properties {
        properties.insert(
            k.clone(),
            read_nested(v, &child(path, &format!("properties[{k}]")))?,
        );
    }
    let (additional_properties, forbidden_additional_properties) = match &p.additional_properties {
        None => (None, None),
        Some(SchemaOrBool::Bool(b)) => (None, Some(*b)),
        Some(SchemaOrBool::Schema(s)) => (
            Some(Box::new(read_nested(
                s,
                &child(path, "additionalProperties"),
            )?)),
            None,
        ),
    };
    Ok(NestedValueValidation {
        value_validation: read_value_validation(p, path)?,
        items,
        properties,
        additional_properties,
        forbidden_additional_properties,
        forbidden_generics: read_generic(p),
        forbidden_extensions: read_extensions(p),
    })
}

fn non_empty(s: &str) -> Option<String> {
    if s.is_empty() {
        None
    } else {
        Some(s.to_owned())
    }
}

fn write_generic(p: &mut JsonSchemaProps, g: &Generic) {
    p.description = g.description.clone().unwrap_or_default();
    p.ty = g.ty.map(|t| t.as_str().to_owned()).unwrap_or_default();
    p.title = g.title.clone().unwrap_or_default();
    p.default.clone_from(&g.default);
    p.nullable = g.nullable;
}

fn write_extensions(p: &mut JsonSchemaProps, x: &Extensions) {
    p.x_preserve_unknown_fields = x.preserve_unknown_fields.then_some(true);
    p.x_embedded_resource = x.embedded_resource;
    p.x_int_or_string = x.int_or_string;
    p.x_list_map_keys.clone_from(&x.list_map_keys);
    p.x_list_type = x.list_type.map(|t| t.as_str().to_owned());
    p.x_map_type = x.map_type.map(|t| t.as_str().to_owned());
    p.x_validations.clone_from(&x.validations);
}

fn write_value_validation(p: &mut JsonSchemaProps, v: &ValueValidation) {
    p.format = v.format.clone().unwrap_or_default();
    p.maximum = v.maximum;
    p.exclusive_maximum = v.exclusive_maximum;
    p.minimum = v.minimum;
    p.exclusive_minimum = v.exclusive_minimum;
    p.max_length = v.max_length;
    p.min_length = v.min_length;
    p.pattern = v.pattern.clone().unwrap_or_default();
    p.max_items = v.max_items;
    p.min_items = v.min_items;
    p.unique_items = v.unique_items;
    p.multiple_of = v.multiple_of;
    p.enum_values.clone_from(&v.enum_values);
    p.max_properties = v.max_properties;
    p.min_properties = v.min_properties;
    p.required.clone_from(&v.required);
    p.all_of = v.all_of.iter().map(nested_to_props).collect();
    p.one_of = v.one_of.iter().map(nested_to_props).collect();
    p.any_of = v.any_of.iter().map(nested_to_props).collect();
    p.not = v.not.as_ref().map(|n| Box::new(nested_to_props(n)));
}

fn nested_to_props(n: &NestedValueValidation) -> JsonSchemaProps {
    let mut p = JsonSchemaProps::default();
    write_generic(&mut p, &n.forbidden_generics);
    write_extensions(&mut p, &n.forbidden_extensions);
    write_value_validation(&mut p, &n.value_validation);
    p.items = n
        .items
        .as_ref()
        .map(|i| SchemaOrArray::Schema(Box::new(nested_to_props(i))));
    p.properties = n
        .properties
        .iter()
        .map(|(k, v)| (k.clone(), nested_to_props(v)))
        .collect();
    p.additional_properties = if let Some(b) = n.forbidden_additional_properties {
        Some(SchemaOrBool::Bool(b))
    } else {
        n.additional_properties
            .as_ref()
            .map(|a| SchemaOrBool::Schema(Box::new(nested_to_props(a))))
    };
    p
}
