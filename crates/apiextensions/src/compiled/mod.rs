//! A structural schema compiled for validation: the OpenAPI schema the API server builds from a
//! CRD (`ConvertJSONSchemaPropsWithPostProcess` with `StripUnsupportedFormatsPostProcessor`), with
//! regular expressions compiled and limits range-checked once.
//!
//! Mirrors apiextensions-apiserver `pkg/apiserver/validation/validation.go` (the conversion) and
//! `formats.go` (which formats survive for which type).

use std::sync::LazyLock;

use serde_json::Value;

pub mod errors;
pub mod formats;
pub(crate) mod number;
pub(crate) mod pattern;
pub(crate) mod properties;

use self::formats::Format;
use self::number::{NumberRules, RangeType};
use self::pattern::Pattern;
pub(crate) use self::properties::{Properties, Property};
use crdkit_schema::{
    AdditionalProperties, Extensions, Generic, ListType, NestedValueValidation, Structural, Type,
    ValueValidation,
};

/// `additionalProperties` of a compiled node.
#[derive(Debug)]
pub(crate) enum Additional {
    /// `additionalProperties: true` (or `false`, which CRDs forbid: every unknown key fails).
    Bool(bool),
    Schema(Box<Node>),
}

/// A set of [`Type`]s, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct TypeSet(u8);

impl TypeSet {
    const fn bit(t: Type) -> u8 {
        1 << t as u8
    }

    pub(crate) fn contains(self, t: Type) -> bool {
        self.0 & Self::bit(t) != 0
    }

    pub(crate) fn is_empty(self) -> bool {
        self.0 == 0
    }

    fn insert(&mut self, t: Type) {
        self.0 |= Self::bit(t);
    }
}

/// What pruning, defaulting and the structure checks read of a structural node (empty for
/// junctor branches, which they never visit).
#[derive(Debug, Default)]
pub(crate) struct Structure {
    /// `default`, unless unset or `null`.
    pub(crate) default: Option<Value>,
    pub(crate) preserve_unknown_fields: bool,
    pub(crate) embedded_resource: bool,
    pub(crate) list_type: Option<ListType>,
    pub(crate) list_map_keys: Vec<String>,
    /// A node below this one has a default.
    pub(crate) defaults_below: bool,
    /// The indices of the properties with a default.
    pub(crate) defaulted: Vec<usize>,
    /// The indices of the properties below which there are defaults.
    pub(crate) defaults_below_properties: Vec<usize>,
    /// This node or one below is an embedded resource.
    pub(crate) has_embedded: bool,
    /// This node or one below has `x-kubernetes-list-type` `set` or `map`.
    pub(crate) has_list_types: bool,
    /// `apiVersion`, `kind` or `metadata` would have a schema here (as a property or a value of
    /// `additionalProperties`).
    pub(crate) meta_field_schemas: bool,
}

/// One compiled schema node: what kube-openapi's `SchemaValidator` looks at.
#[derive(Debug, Default)]
pub(crate) struct Node {
    /// `type`, or `integer,string` for `x-kubernetes-int-or-string`; empty when unset.
    pub(crate) types: TypeSet,
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
    pub(crate) properties: Properties,
    pub(crate) additional: Option<Additional>,
    pub(crate) items: Option<Box<Node>>,
    pub(crate) all_of: Vec<Node>,
    pub(crate) any_of: Vec<Node>,
    pub(crate) one_of: Vec<Node>,
    pub(crate) not: Option<Box<Node>>,
    /// This node has `allOf`, `anyOf`, `oneOf` or `not`.
    pub(crate) junctors: bool,
    /// This node has `maxLength`, `minLength` or `pattern`.
    pub(crate) string_rules: bool,
    /// Checking this node needs the whole value (junctors, `uniqueItems`, compound enum values,
    /// embedded resources, set/map lists): the typed validator buffers it.
    pub(crate) needs_value: bool,
    pub(crate) structure: Structure,
    /// How far below the root the values this node checks are (0 for junctor branches).
    pub(crate) depth: usize,
}

impl Node {
    /// The schema of property `name`.
    pub(crate) fn property(&self, name: &str) -> Option<&Node> {
        self.properties.get(name).map(|p| &p.node)
    }

    /// Property `name` with its `required` count.
    pub(crate) fn property_entry(&self, name: &str) -> Option<&Property> {
        self.properties.get(name)
    }

    /// The property of key `k` of an object whose keys are visited in the map's order, one
    /// call per key; `cursor` starts at 0 for each object.
    #[inline]
    pub(crate) fn property_at(&self, k: &str, cursor: &mut usize) -> Option<&Property> {
        self.properties.at(k, cursor)
    }

    /// A node that checks nothing (for values no schema describes).
    pub(crate) fn any() -> &'static Node {
        static ANY: LazyLock<Node> = LazyLock::new(Node::default);
        &ANY
    }

    pub(crate) fn has_type(&self, t: Type) -> bool {
        self.types.contains(t)
    }

    /// Compiles a structural schema node (recursively).
    pub(crate) fn compile(s: &Structural) -> Node {
        Node::compile_at(s, 0)
    }

    fn compile_at(s: &Structural, depth: usize) -> Node {
        let below = |s: &Structural| Node::compile_at(s, depth + 1);
        let mut n = Node::base(&s.generic, &s.extensions, &s.value_validation);
        n.depth = depth;
        n.properties = Properties::compile(&s.properties, &n.required, below);
        n.items = s.items.as_deref().map(|i| Box::new(below(i)));
        n.additional = match &s.additional_properties {
            None => None,
            Some(AdditionalProperties::Bool(b)) => Some(Additional::Bool(*b)),
            Some(AdditionalProperties::Schema(s)) => Some(Additional::Schema(Box::new(below(s)))),
        };
        n.finish();
        let list_type = s.extensions.list_type;
        let set_or_map = matches!(list_type, Some(ListType::Set | ListType::Map));
        n.needs_value |= s.extensions.embedded_resource || set_or_map;
        let children = n
            .properties
            .iter()
            .map(|p| &p.node)
            .chain(n.items.as_deref())
            .chain(match &n.additional {
                Some(Additional::Schema(s)) => Some(&**s),
                _ => None,
            });
        let (mut defaults_below, mut has_embedded, mut has_list_types) =
            (false, s.extensions.embedded_resource, set_or_map);
        for c in children {
            defaults_below |= c.structure.default.is_some() || c.structure.defaults_below;
            has_embedded |= c.structure.has_embedded;
            has_list_types |= c.structure.has_list_types;
        }
        let indices = |f: fn(&Structure) -> bool| {
            let props = n.properties.iter().enumerate();
            props
                .filter(|(_, p)| f(&p.node.structure))
                .map(|(i, _)| i)
                .collect()
        };
        n.structure = Structure {
            defaulted: indices(|s| s.default.is_some()),
            defaults_below_properties: indices(|s| s.defaults_below),
            default: s.generic.default.clone().filter(|d| !d.is_null()),
            preserve_unknown_fields: s.extensions.preserve_unknown_fields,
            embedded_resource: s.extensions.embedded_resource,
            list_type,
            list_map_keys: s.extensions.list_map_keys.clone(),
            defaults_below,
            has_embedded,
            has_list_types,
            meta_field_schemas: matches!(n.additional, Some(Additional::Schema(_)))
                || ["apiVersion", "kind", "metadata"]
                    .iter()
                    .any(|k| n.property(k).is_some()),
        };
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
        n.properties = Properties::compile(&s.properties, &n.required, Node::compile_nested);
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
        let list: &[Type] = if x.int_or_string {
            &[Type::Integer, Type::String]
        } else {
            g.ty.as_slice()
        };
        let mut types = TypeSet::default();
        for &t in list {
            types.insert(t);
        }
        let type_names = list
            .iter()
            .map(|t| t.as_str())
            .collect::<Vec<_>>()
            .join(",");
        let single = match list {
            [t] => Some(*t),
            _ => None,
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
        self.junctors = !self.all_of.is_empty()
            || !self.any_of.is_empty()
            || !self.one_of.is_empty()
            || self.not.is_some();
        self.string_rules =
            self.max_length.is_some() || self.min_length.is_some() || self.pattern.is_some();
        self.needs_value = self.junctors
            || self.unique_items
            || self
                .enum_values
                .iter()
                .any(|e| e.is_array() || e.is_object());
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
