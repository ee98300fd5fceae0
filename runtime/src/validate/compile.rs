//! A structural schema compiled for validation: the OpenAPI schema the API server builds from a
//! CRD (`ConvertJSONSchemaPropsWithPostProcess` with `StripUnsupportedFormatsPostProcessor`), with
//! regular expressions compiled and limits range-checked once.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/validation/validation.go` (the conversion) and
//! `formats.go` (which formats survive for which type).

use serde_json::Value;

use super::formats::Format;
use super::number::{NumberRules, RangeType};
use super::regexp::Pattern;
use crate::schema::{
    AdditionalProperties, Extensions, Generic, NestedValueValidation, Structural, Type,
    ValueValidation,
};

/// `additionalProperties` of a compiled node.
#[derive(Debug)]
pub(crate) enum Additional {
    /// `additionalProperties: true` (or `false`, which CRDs forbid: every unknown key fails).
    Bool(bool),
    Schema(Box<Node>),
}

/// One compiled schema node: what kube-openapi's `SchemaValidator` looks at.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// `type`, or `integer,string` for `x-kubernetes-int-or-string`; empty when unset.
    pub(crate) types: Vec<Type>,
    /// The types joined with `,`, as messages print them.
    pub(crate) type_names: String,
    pub(crate) nullable: bool,
    /// The format after stripping the unsupported ones; empty when none.
    pub(crate) format_name: String,
    /// The string format validator, when the format is a known string format.
    pub(crate) format: Option<Format>,
    pub(crate) number: Option<NumberRules>,
    pub(crate) max_length: Option<i64>,
    pub(crate) min_length: Option<i64>,
    pub(crate) pattern: Option<Pattern>,
    pub(crate) max_items: Option<i64>,
    pub(crate) min_items: Option<i64>,
    pub(crate) unique_items: bool,
    pub(crate) enum_values: Vec<Value>,
    pub(crate) max_properties: Option<i64>,
    pub(crate) min_properties: Option<i64>,
    pub(crate) required: Vec<String>,
    /// Sorted by name.
    pub(crate) properties: Vec<(String, Node)>,
    pub(crate) additional: Option<Additional>,
    pub(crate) items: Option<Box<Node>>,
    pub(crate) all_of: Vec<Node>,
    pub(crate) any_of: Vec<Node>,
    pub(crate) one_of: Vec<Node>,
    pub(crate) not: Option<Box<Node>>,
    /// This node or one below has `allOf`/`anyOf`/`oneOf`/`not`.
    pub(crate) has_junctors: bool,
    /// Checking this node needs the whole value (junctors, `uniqueItems`, compound enum values,
    /// embedded resources, set/map lists): the typed validator buffers it.
    pub(crate) needs_value: bool,
}

impl Node {
    /// The schema of property `name`.
    pub(crate) fn property(&self, name: &str) -> Option<&Node> {
        self.properties
            .binary_search_by(|(k, _)| k.as_str().cmp(name))
            .ok()
            .map(|i| &self.properties[i].1)
    }

    pub(crate) fn has_type(&self, t: Type) -> bool {
        self.types.contains(&t)
    }

    /// Compiles a structural schema node (recursively).
    pub(crate) fn compile(s: &Structural) -> Node {
        let mut n = Node::base(&s.generic, &s.extensions, &s.value_validation);
        n.properties = s
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), Node::compile(v)))
            .collect();
        n.items = s.items.as_deref().map(|i| Box::new(Node::compile(i)));
        n.additional = match &s.additional_properties {
            None => None,
            Some(AdditionalProperties::Bool(b)) => Some(Additional::Bool(*b)),
            Some(AdditionalProperties::Schema(s)) => {
                Some(Additional::Schema(Box::new(Node::compile(s))))
            }
        };
        n.finish();
        n.needs_value |= s.extensions.embedded_resource
            || matches!(
                s.extensions.list_type,
                Some(crate::schema::ListType::Set | crate::schema::ListType::Map)
            );
        n
    }

    /// Compiles a junctor branch; the generic keywords it sets (forbidden by structural rule 3 but
    /// honoured by the API server's validator) take part.
    fn compile_nested(s: &NestedValueValidation) -> Node {
        let mut n = Node::base(
            &s.forbidden_generics,
            &s.forbidden_extensions,
            &s.value_validation,
        );
        n.properties = s
            .properties
            .iter()
            .map(|(k, v)| (k.clone(), Node::compile_nested(v)))
            .collect();
        n.items = s
            .items
            .as_deref()
            .map(|i| Box::new(Node::compile_nested(i)));
        n.additional = match (&s.additional_properties, s.forbidden_additional_properties) {
            (Some(s), _) => Some(Additional::Schema(Box::new(Node::compile_nested(s)))),
            (None, Some(b)) => Some(Additional::Bool(b)),
            (None, None) => None,
        };
        n.finish();
        n
    }

    fn base(g: &Generic, x: &Extensions, v: &ValueValidation) -> Node {
        let types = if x.int_or_string {
            vec![Type::Integer, Type::String]
        } else {
            g.ty.into_iter().collect()
        };
        let type_names = types
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(",");
        let single = if types.len() == 1 {
            Some(types[0])
        } else {
            None
        };
        let format_name = strip_format(v.format.as_deref().unwrap_or(""), single);
        let format = Format::parse(&format_name);
        let range = match (single, format_name.as_str()) {
            (Some(Type::Integer), "int32") => RangeType::Int32,
            (Some(Type::Integer), "int64") => RangeType::Int64,
            (Some(Type::Integer), _) => RangeType::Int64Default,
            (Some(Type::Number), "float") => RangeType::Float,
            (Some(Type::Number), "double") => RangeType::Double,
            (Some(Type::Number), _) => RangeType::NumberDefault,
            _ => RangeType::None,
        };
        let number = NumberRules::new(
            range,
            v.multiple_of,
            v.maximum,
            v.exclusive_maximum,
            v.minimum,
            v.exclusive_minimum,
        );
        Node {
            types,
            type_names,
            nullable: g.nullable,
            format_name,
            format,
            number,
            max_length: v.max_length,
            min_length: v.min_length,
            pattern: v
                .pattern
                .as_deref()
                .filter(|p| !p.is_empty())
                .map(Pattern::new),
            max_items: v.max_items,
            min_items: v.min_items,
            unique_items: v.unique_items,
            enum_values: v.enum_values.clone(),
            max_properties: v.max_properties,
            min_properties: v.min_properties,
            required: v.required.clone(),
            all_of: v.all_of.iter().map(Node::compile_nested).collect(),
            any_of: v.any_of.iter().map(Node::compile_nested).collect(),
            one_of: v.one_of.iter().map(Node::compile_nested).collect(),
            not: v.not.as_deref().map(|n| Box::new(Node::compile_nested(n))),
            ..Node::default()
        }
    }

    fn finish(&mut self) {
        self.needs_value = !self.all_of.is_empty()
            || !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || self.not.is_some()
            || self.unique_items
            || self
                .enum_values
                .iter()
                .any(|e| e.is_array() || e.is_object());
        self.has_junctors = !self.all_of.is_empty()
            || !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || self.not.is_some()
            || self.properties.iter().any(|(_, p)| p.has_junctors)
            || self.items.as_ref().is_some_and(|i| i.has_junctors)
            || matches!(&self.additional, Some(Additional::Schema(s)) if s.has_junctors);
    }
}

/// `StripUnsupportedFormatsPostProcessorForVersion` at the newest version: string formats must be
/// known (compared without dashes), integers keep `int32`/`int64`, numbers `float`/`double`.
fn strip_format(format: &str, single: Option<Type>) -> String {
    if format.is_empty() {
        return String::new();
    }
    let keep = match single {
        None | Some(Type::String) => Format::parse(format).is_some(),
        Some(Type::Integer) => matches!(format, "int32" | "int64"),
        Some(Type::Number) => matches!(format, "float" | "double"),
        Some(_) => false,
    };
    if keep {
        format.to_owned()
    } else {
        String::new()
    }
}
