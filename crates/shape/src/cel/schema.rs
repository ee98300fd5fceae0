//! Mirrors `crates/cel-check/src/schema.rs` in `const fn`s.
//!
//! The schema nodes a rule can reach, seen as `const fn`s: what [`crate::build()`] makes of
//! a shape (enum layouts, flattened fields) and what apiserver `SchemaDeclType` makes of that
//! (the CEL declaration, its property names after escaping, and the size estimates the cost
//! estimator reads).
//!
//! A [`NodeRef`] names one node of the built schema without building it: a shape, or a node that
//! the build synthesizes (an enum's tag, the union of its payloads, the `metadata` every
//! embedded resource declares for CEL).

use crate::msg::str_eq;
use crate::{Enum, Field, Json, Kind, Repr, Shape, VariantKind};
use crdkit_cel_check::decl::{
    JSON_DATE_SIZE, MAX_DATETIME_SIZE_JSON, MAX_DURATION_SIZE_JSON, MIN_BOOL_SIZE,
    MIN_DATETIME_SIZE_JSON, MIN_DURATION_SIZE_JSON, MIN_NUMBER_SIZE, MIN_STRING_SIZE,
    UNBOUNDED_SIZE as UNBOUNDED, max_string_bytes, required_property_size, unbounded_list_items,
    unbounded_map_properties,
};

/// A node of the built schema.
#[derive(Clone, Copy, Debug)]
pub enum NodeRef {
    /// A shape, laid out by `build`.
    Shape(&'static Shape),
    /// An embedded resource (or the root of a resource) as CEL sees it: the shape with
    /// `apiVersion`, `kind` and `metadata` (`name`, `generateName`) (`WithTypeAndObjectMeta`).
    Resource(&'static Shape),
    /// The object of a struct variant.
    Fields(&'static [Field]),
    /// A unit variant's property in an externally tagged enum (a schema without a type).
    Untyped,
    /// The tag of an internally or adjacently tagged enum: a string naming the variant.
    Tag(&'static Enum),
    /// The union of an enum's payloads (untagged enums, adjacently tagged content).
    Union(&'static Enum),
    /// `metadata` of a resource for CEL: `name` and `generateName` with these `maxLength`s.
    Meta {
        /// The `maxLength` of `name`.
        name: u64,
        /// The `maxLength` of `generateName`.
        generate_name: u64,
    },
    /// A string with a `maxLength`.
    Capped(u64),
    /// `apiVersion`, `kind`.
    PlainString,
    /// A map key.
    Key,
}

/// What the CEL declaration of a node is.
#[derive(Clone, Copy, Debug)]
pub enum Layout {
    /// No declaration: the node is invisible to CEL.
    None,
    /// `dyn` (int-or-string; a run-time schema).
    Dyn,
    /// `bool` (`type: boolean`).
    Bool,
    /// `int` (`type: integer`).
    Int,
    /// `double` (`type: number`).
    Double,
    /// `string`.
    String,
    /// `bytes` (`format: byte`).
    Bytes,
    /// `duration` (`format: duration`).
    Duration,
    /// `timestamp` (`format: date`, `date-time`).
    Timestamp,
    /// `list(T)`, with the items' node.
    List(NodeRef),
    /// `map(string, V)`.
    Map(NodeRef),
    /// An object whose properties [`find_prop`] looks up.
    Object,
}

/// The JSON type a node is built with (`type`), for unions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SType {
    /// No type; `true` with `x-kubernetes-preserve-unknown-fields`.
    Untyped(bool),
    Object,
    Array,
    String,
    Integer,
    Number,
    Boolean,
    IntOrString,
}

/// `DNS1123SubdomainMaxLength`, as the run-time declarations cap `metadata.name`.
#[allow(clippy::cast_sign_loss)]
const NAME_MAX_LENGTH: u64 = crdkit_cel_check::schema::NAME_MAX_LENGTH as u64;

/// The node of a child shape (embedded resources are seen with their metadata).
#[must_use]
pub const fn child(s: &'static Shape) -> NodeRef {
    if s.embedded_resource {
        NodeRef::Resource(s)
    } else {
        NodeRef::Shape(s)
    }
}

const fn all_unit(e: &Enum) -> bool {
    let mut i = 0;
    while i < e.variants.len() {
        if !matches!(e.variants[i].kind, VariantKind::Unit) {
            return false;
        }
        i += 1;
    }
    true
}

const fn has_payload(e: &Enum) -> bool {
    !all_unit(e)
}

const fn string_layout(format: Option<&'static str>) -> Layout {
    match format {
        Some(f) => match f.as_bytes() {
            b"byte" => Layout::Bytes,
            b"duration" => Layout::Duration,
            b"date" | b"date-time" => Layout::Timestamp,
            _ => Layout::String,
        },
        None => Layout::String,
    }
}

/// The CEL declaration of a node.
#[must_use]
pub const fn layout(n: NodeRef) -> Layout {
    match n {
        NodeRef::Shape(s) => shape_layout(s),
        NodeRef::Resource(s) => match shape_layout(s) {
            // `WithTypeAndObjectMeta` drops `items`.
            Layout::List(_) => Layout::None,
            l => l,
        },
        NodeRef::Fields(_) | NodeRef::Meta { .. } => Layout::Object,
        NodeRef::Untyped => Layout::None,
        NodeRef::Tag(_) | NodeRef::Capped(_) | NodeRef::PlainString | NodeRef::Key => {
            Layout::String
        }
        NodeRef::Union(e) => union_layout(e),
    }
}

/// Whether CEL sees the node at all.
#[must_use]
pub const fn visible(n: NodeRef) -> bool {
    !matches!(layout(n), Layout::None)
}

const fn shape_layout(s: &'static Shape) -> Layout {
    match s.kind {
        Kind::Any => {
            if s.embedded_resource {
                Layout::Object
            } else {
                Layout::None
            }
        }
        Kind::Dynamic(_) | Kind::IntOrString => Layout::Dyn,
        Kind::Boolean => Layout::Bool,
        Kind::Integer => Layout::Int,
        Kind::Number => Layout::Double,
        Kind::String => string_layout(s.format),
        Kind::Array(items) => {
            if visible(child(items)) {
                Layout::List(child(items))
            } else {
                Layout::None
            }
        }
        Kind::Map(values) => {
            if visible(child(values)) {
                Layout::Map(child(values))
            } else {
                Layout::None
            }
        }
        Kind::Struct(fields) => {
            if s.object_meta {
                Layout::Object
            } else {
                fields_layout(fields)
            }
        }
        Kind::Enum(e) => match e.repr {
            Repr::External if all_unit(e) => string_layout(s.format),
            Repr::External | Repr::Internal { .. } | Repr::Adjacent { .. } => Layout::Object,
            Repr::Untagged => union_layout(e),
        },
    }
}

/// `object(fields)`: an object, or a map when only a flattened map brings entries.
const fn fields_layout(fields: &'static [Field]) -> Layout {
    if fields_have_props(fields) {
        return Layout::Object;
    }
    match fields_extra(fields) {
        Some(v) => {
            if visible(v) {
                Layout::Map(v)
            } else {
                Layout::None
            }
        }
        None => Layout::Object,
    }
}

const fn fields_have_props(fields: &'static [Field]) -> bool {
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        if !f.flatten || shape_has_props(f.shape) {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether `node(s)` has properties.
const fn shape_has_props(s: &'static Shape) -> bool {
    match s.kind {
        Kind::Struct(fields) => !s.object_meta && fields_have_props(fields),
        Kind::Enum(e) => match e.repr {
            Repr::External => has_payload(e),
            Repr::Internal { .. } | Repr::Adjacent { .. } => true,
            Repr::Untagged => union_has_props(e),
        },
        _ => false,
    }
}

/// The values of the last flattened map (`additionalProperties` of `object(fields)`).
const fn fields_extra(fields: &'static [Field]) -> Option<NodeRef> {
    let mut out = None;
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        if f.flatten {
            let e = shape_extra(f.shape);
            if e.is_some() {
                out = e;
            }
        }
        i += 1;
    }
    out
}

/// `additionalProperties` of `node(s)`.
const fn shape_extra(s: &'static Shape) -> Option<NodeRef> {
    match s.kind {
        Kind::Map(v) => Some(child(v)),
        Kind::Struct(fields) => {
            if s.object_meta || fields_have_props(fields) {
                None
            } else {
                fields_extra(fields)
            }
        }
        Kind::Enum(e) => match e.repr {
            Repr::Untagged => union_extra(e),
            _ => None,
        },
        _ => None,
    }
}

/// The JSON type of a variant's payload.
const fn payload_stype(k: &VariantKind) -> SType {
    match k {
        VariantKind::Unit => SType::Untyped(false),
        VariantKind::Struct(_) => SType::Object,
        VariantKind::Newtype(s) => shape_stype(s),
    }
}

const fn shape_stype(s: &'static Shape) -> SType {
    match s.kind {
        Kind::Any => {
            if s.embedded_resource {
                SType::Object
            } else {
                SType::Untyped(true)
            }
        }
        Kind::Dynamic(_) => SType::Untyped(false),
        Kind::IntOrString => SType::IntOrString,
        Kind::Boolean => SType::Boolean,
        Kind::Integer => SType::Integer,
        Kind::Number => SType::Number,
        Kind::String => SType::String,
        Kind::Array(_) => SType::Array,
        Kind::Map(_) | Kind::Struct(_) => SType::Object,
        Kind::Enum(e) => match e.repr {
            Repr::External if all_unit(e) => SType::String,
            Repr::External | Repr::Internal { .. } | Repr::Adjacent { .. } => SType::Object,
            Repr::Untagged => union_stype(e),
        },
    }
}

/// How `build`'s `union` combines the payloads of an enum.
#[derive(Clone, Copy)]
enum UnionKind {
    /// No schema the API server can use: untyped, or an error.
    None,
    /// `union_objects`.
    Objects,
    /// One JSON type: the first payload's schema.
    First(&'static Shape),
    /// Integer and number.
    Number,
    /// Integer and string.
    IntOrString,
}

const fn union_kind(e: &'static Enum) -> UnionKind {
    let mut i = 0;
    let (mut any, mut objects, mut first) = (false, true, None);
    let mut first_type = SType::Untyped(false);
    let (mut same, mut int, mut num, mut string, mut other) = (true, false, false, false, false);
    while i < e.variants.len() {
        let k = &e.variants[i].kind;
        i += 1;
        if matches!(k, VariantKind::Unit) {
            continue;
        }
        let t = payload_stype(k);
        if matches!(t, SType::Untyped(true)) {
            any = true;
        }
        if !matches!(t, SType::Object) {
            objects = false;
        }
        if first.is_none() {
            first = Some(k);
            first_type = t;
        } else if !stype_eq(t, first_type) {
            same = false;
        }
        match t {
            SType::Integer => int = true,
            SType::Number => num = true,
            SType::String => string = true,
            SType::IntOrString => {
                int = true;
                string = true;
            }
            _ => other = true,
        }
    }
    if any {
        return UnionKind::None;
    }
    let Some(first) = first else {
        return UnionKind::None;
    };
    if objects {
        return UnionKind::Objects;
    }
    if same {
        return match first {
            VariantKind::Newtype(s) => UnionKind::First(s),
            _ => UnionKind::None,
        };
    }
    if other {
        return UnionKind::None;
    }
    if int && num && !string {
        return UnionKind::Number;
    }
    if string && !num {
        return UnionKind::IntOrString;
    }
    UnionKind::None
}

const fn stype_eq(a: SType, b: SType) -> bool {
    match (a, b) {
        (SType::Untyped(x), SType::Untyped(y)) => x == y,
        (SType::Object, SType::Object)
        | (SType::Array, SType::Array)
        | (SType::String, SType::String)
        | (SType::Integer, SType::Integer)
        | (SType::Number, SType::Number)
        | (SType::Boolean, SType::Boolean)
        | (SType::IntOrString, SType::IntOrString) => true,
        _ => false,
    }
}

/// The payload whose schema a union of one JSON type is (with its rules), if it is one.
#[must_use]
pub const fn union_first(e: &'static Enum) -> Option<&'static Shape> {
    match union_kind(e) {
        UnionKind::First(s) => Some(s),
        _ => None,
    }
}

const fn union_stype(e: &'static Enum) -> SType {
    match union_kind(e) {
        UnionKind::None => SType::Untyped(true),
        UnionKind::Objects => SType::Object,
        UnionKind::First(s) => shape_stype(s),
        UnionKind::Number => SType::Number,
        UnionKind::IntOrString => SType::IntOrString,
    }
}

const fn union_layout(e: &'static Enum) -> Layout {
    match union_kind(e) {
        UnionKind::None => Layout::None,
        UnionKind::Objects => {
            if union_has_props(e) {
                Layout::Object
            } else {
                match union_extra(e) {
                    Some(v) => {
                        if visible(v) {
                            Layout::Map(v)
                        } else {
                            Layout::None
                        }
                    }
                    None => Layout::Object,
                }
            }
        }
        UnionKind::First(s) => shape_layout(s),
        UnionKind::Number => Layout::Double,
        UnionKind::IntOrString => Layout::Dyn,
    }
}

const fn union_has_props(e: &'static Enum) -> bool {
    if !matches!(union_kind(e), UnionKind::Objects) {
        return false;
    }
    let mut i = 0;
    while i < e.variants.len() {
        let has = match e.variants[i].kind {
            VariantKind::Unit => false,
            VariantKind::Struct(f) => fields_have_props(f),
            VariantKind::Newtype(s) => shape_has_props(s),
        };
        if has {
            return true;
        }
        i += 1;
    }
    false
}

const fn union_extra(e: &'static Enum) -> Option<NodeRef> {
    if !matches!(union_kind(e), UnionKind::Objects) || union_has_props(e) {
        return None;
    }
    let mut out = None;
    let mut i = 0;
    while i < e.variants.len() {
        let x = match e.variants[i].kind {
            VariantKind::Unit => None,
            VariantKind::Struct(f) => fields_extra(f),
            VariantKind::Newtype(s) => shape_extra(s),
        };
        if x.is_some() {
            out = x;
        }
        i += 1;
    }
    out
}

// apiserver `Escape` and the reserved words have one home, shared with the run-time checker.
pub use crdkit_cel_check::escaping::{escaped_eq, reserved_escaped};

const fn name_eq(prop: &str, name: &str, raw: bool) -> bool {
    if raw {
        str_eq(prop, name)
    } else {
        escaped_eq(prop, name)
    }
}

/// The property of an object node that `name` selects: the property name itself with `raw`
/// (field paths), or its CEL escaping.
#[must_use]
pub const fn find_prop(n: NodeRef, name: &str, raw: bool) -> Option<NodeRef> {
    match n {
        NodeRef::Shape(s) => shape_prop(s, name, raw),
        NodeRef::Resource(s) => {
            if raw || declares_type_and_meta(s) {
                return shape_prop(s, name, raw);
            }
            if str_eq(name, "apiVersion") || str_eq(name, "kind") {
                return Some(NodeRef::PlainString);
            }
            if str_eq(name, "metadata") {
                return Some(resource_meta(s));
            }
            shape_prop(s, name, raw)
        }
        NodeRef::Fields(f) => fields_prop(f, name, raw),
        NodeRef::Meta {
            name: cap,
            generate_name,
        } => {
            if str_eq(name, "name") {
                Some(NodeRef::Capped(cap))
            } else if str_eq(name, "generateName") {
                Some(NodeRef::Capped(generate_name))
            } else {
                None
            }
        }
        NodeRef::Union(e) => union_prop(e, name, raw),
        _ => None,
    }
}

const fn is_stype(n: Option<NodeRef>, t: SType) -> bool {
    match n {
        Some(n) => stype_eq(node_stype(n), t),
        None => false,
    }
}

const fn node_stype(n: NodeRef) -> SType {
    match n {
        NodeRef::Shape(s) | NodeRef::Resource(s) => shape_stype(s),
        NodeRef::Fields(_) | NodeRef::Meta { .. } => SType::Object,
        NodeRef::Untyped => SType::Untyped(false),
        NodeRef::Union(e) => union_stype(e),
        NodeRef::Tag(_) | NodeRef::Capped(_) | NodeRef::PlainString | NodeRef::Key => SType::String,
    }
}

/// Whether a resource's schema already declares `kind`, `apiVersion` and `metadata` with
/// `name` and `generateName` (then `WithTypeAndObjectMeta` keeps it as it is).
const fn declares_type_and_meta(s: &'static Shape) -> bool {
    let meta = shape_prop(s, "metadata", true);
    let (name, generate_name) = match meta {
        Some(m) => (
            find_prop(m, "name", true),
            find_prop(m, "generateName", true),
        ),
        None => (None, None),
    };
    is_stype(shape_prop(s, "kind", true), SType::String)
        && is_stype(shape_prop(s, "apiVersion", true), SType::String)
        && is_stype(meta, SType::Object)
        && is_stype(name, SType::String)
        && is_stype(generate_name, SType::String)
}

const fn resource_meta(s: &'static Shape) -> NodeRef {
    let meta = shape_prop(s, "metadata", true);
    let (mut name, mut generate_name) = (NAME_MAX_LENGTH, NAME_MAX_LENGTH - 1);
    if let Some(m) = meta {
        if let Some(n) = find_prop(m, "name", true)
            && let Some(l) = max_length(n)
            && l < name
        {
            name = l;
        }
        if let Some(n) = find_prop(m, "generateName", true)
            && let Some(l) = max_length(n)
            && l < generate_name
        {
            generate_name = l;
        }
    }
    NodeRef::Meta {
        name,
        generate_name,
    }
}

/// `maxLength` of a node.
#[must_use]
pub const fn max_length(n: NodeRef) -> Option<u64> {
    match n {
        NodeRef::Shape(s) | NodeRef::Resource(s) => s.max_length,
        NodeRef::Capped(c) => Some(c),
        _ => None,
    }
}

const fn shape_prop(s: &'static Shape, name: &str, raw: bool) -> Option<NodeRef> {
    match s.kind {
        Kind::Struct(fields) => {
            if s.object_meta {
                None
            } else {
                fields_prop(fields, name, raw)
            }
        }
        Kind::Enum(e) => enum_prop(e, name, raw),
        _ => None,
    }
}

const fn fields_prop(fields: &'static [Field], name: &str, raw: bool) -> Option<NodeRef> {
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        if f.flatten {
            let p = shape_prop(f.shape, name, raw);
            if p.is_some() {
                return p;
            }
        } else if name_eq(f.name, name, raw) {
            return Some(child(f.shape));
        }
        i += 1;
    }
    None
}

const fn enum_prop(e: &'static Enum, name: &str, raw: bool) -> Option<NodeRef> {
    match e.repr {
        Repr::External => {
            if all_unit(e) {
                return None;
            }
            let mut i = 0;
            while i < e.variants.len() {
                let v = &e.variants[i];
                if name_eq(v.name, name, raw) {
                    return Some(match v.kind {
                        VariantKind::Unit => NodeRef::Untyped,
                        VariantKind::Newtype(s) => child(s),
                        VariantKind::Struct(f) => NodeRef::Fields(f),
                    });
                }
                i += 1;
            }
            None
        }
        Repr::Internal { tag } => {
            if name_eq(tag, name, raw) {
                return Some(NodeRef::Tag(e));
            }
            variants_prop(e, name, raw)
        }
        Repr::Adjacent { tag, content } => {
            if name_eq(tag, name, raw) {
                Some(NodeRef::Tag(e))
            } else if name_eq(content, name, raw) && has_payload(e) {
                Some(NodeRef::Union(e))
            } else {
                None
            }
        }
        Repr::Untagged => union_prop(e, name, raw),
    }
}

/// The first variant payload with the property (the merged object of internally tagged enums
/// and of unions).
const fn variants_prop(e: &'static Enum, name: &str, raw: bool) -> Option<NodeRef> {
    let mut i = 0;
    while i < e.variants.len() {
        let p = match e.variants[i].kind {
            VariantKind::Unit => None,
            VariantKind::Newtype(s) => shape_prop(s, name, raw),
            VariantKind::Struct(f) => fields_prop(f, name, raw),
        };
        if p.is_some() {
            return p;
        }
        i += 1;
    }
    None
}

const fn union_prop(e: &'static Enum, name: &str, raw: bool) -> Option<NodeRef> {
    match union_kind(e) {
        UnionKind::Objects => variants_prop(e, name, raw),
        UnionKind::First(s) => shape_prop(s, name, raw),
        _ => None,
    }
}

/// Whether a node has properties (field paths step into them by name).
#[must_use]
pub const fn has_props(n: NodeRef) -> bool {
    match n {
        NodeRef::Shape(s) | NodeRef::Resource(s) => shape_has_props(s),
        NodeRef::Fields(f) => fields_have_props(f),
        NodeRef::Meta { .. } => true,
        NodeRef::Union(e) => match union_kind(e) {
            UnionKind::Objects => union_has_props(e),
            UnionKind::First(s) => shape_has_props(s),
            _ => false,
        },
        _ => false,
    }
}

/// The values of a node with `additionalProperties` (field paths step into them by key).
#[must_use]
pub const fn additional_props(n: NodeRef) -> Option<NodeRef> {
    match n {
        NodeRef::Shape(s) | NodeRef::Resource(s) => {
            if shape_has_props(s) {
                None
            } else {
                shape_extra(s)
            }
        }
        NodeRef::Fields(f) => {
            if fields_have_props(f) {
                None
            } else {
                fields_extra(f)
            }
        }
        NodeRef::Union(e) => union_extra(e),
        _ => None,
    }
}

/// The shape behind a node, if it is one.
#[must_use]
pub const fn shape_of(n: NodeRef) -> Option<&'static Shape> {
    match n {
        NodeRef::Shape(s) | NodeRef::Resource(s) => Some(s),
        _ => None,
    }
}

const fn saturate(v: u64) -> i64 {
    if v > i64::MAX as u64 {
        i64::MAX
    } else {
        v as i64
    }
}

const fn str_enum_max(values: &'static [Json]) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    let mut max = 0;
    let mut i = 0;
    while i < values.len() {
        if let Json::Str(s) = values[i]
            && s.len() as i64 > max
        {
            max = s.len() as i64;
        }
        i += 1;
    }
    Some(max)
}

const fn variant_names_max(e: &Enum) -> i64 {
    let mut max = 0;
    let mut i = 0;
    while i < e.variants.len() {
        if e.variants[i].name.len() as i64 > max {
            max = e.variants[i].name.len() as i64;
        }
        i += 1;
    }
    max
}

/// The declaration's `MaxElements`: the largest size of a value (bytes of a string, items of a
/// list, properties of a map; 0 for other types).
#[must_use]
pub const fn max_elements(n: NodeRef) -> i64 {
    let l = layout(n);
    match l {
        Layout::Dyn => match max_length(n) {
            Some(m) => max_string_bytes(saturate(m)),
            None => UNBOUNDED,
        },
        Layout::Bytes => match max_length(n) {
            Some(m) => saturate(m),
            None => UNBOUNDED,
        },
        Layout::Duration => MAX_DURATION_SIZE_JSON,
        Layout::Timestamp => {
            if is_date(n) {
                JSON_DATE_SIZE
            } else {
                MAX_DATETIME_SIZE_JSON
            }
        }
        Layout::String => match n {
            NodeRef::Key => 0,
            NodeRef::PlainString => UNBOUNDED,
            NodeRef::Capped(c) => max_string_bytes(saturate(c)),
            NodeRef::Tag(e) => variant_names_max(e),
            NodeRef::Shape(s) | NodeRef::Resource(s) => match s.max_length {
                Some(m) => max_string_bytes(saturate(m)),
                None => match str_enum_max(s.enum_values) {
                    Some(m) => m,
                    None => match s.kind {
                        Kind::Enum(e) => variant_names_max(e),
                        _ => UNBOUNDED,
                    },
                },
            },
            _ => UNBOUNDED,
        },
        Layout::List(items) => match shape_of(n) {
            Some(Shape {
                max_items: Some(m), ..
            }) => saturate(*m),
            _ => unbounded_list_items(min_size(items)),
        },
        Layout::Map(v) => match shape_of(n) {
            Some(Shape {
                max_properties: Some(m),
                ..
            }) => saturate(*m),
            _ => unbounded_map_properties(min_size(v)),
        },
        _ => 0,
    }
}

const fn is_date(n: NodeRef) -> bool {
    match shape_of(n) {
        Some(s) => match s.format {
            Some(f) => str_eq(f, "date"),
            None => false,
        },
        None => false,
    }
}

/// The declaration's `MinSerializedSize`: the smallest JSON form of a value.
#[must_use]
pub const fn min_size(n: NodeRef) -> i64 {
    match layout(n) {
        Layout::None => 0,
        // The smallest int-or-string is `0`, as the smallest number.
        Layout::Dyn | Layout::Int | Layout::Double => MIN_NUMBER_SIZE,
        Layout::Bool => MIN_BOOL_SIZE,
        Layout::String | Layout::Bytes => MIN_STRING_SIZE,
        Layout::Duration => MIN_DURATION_SIZE_JSON,
        Layout::Timestamp => {
            if is_date(n) {
                JSON_DATE_SIZE
            } else {
                MIN_DATETIME_SIZE_JSON
            }
        }
        Layout::List(_) | Layout::Map(_) => 2,
        Layout::Object => 2 + required_size(n),
    }
}

/// The sizes of the required properties without defaults that CEL sees:
/// `len(name) + MinSerializedSize + 4` each.
const fn required_size(n: NodeRef) -> i64 {
    match n {
        NodeRef::Shape(s) => shape_required_size(s, false),
        NodeRef::Resource(s) => shape_required_size(s, true),
        NodeRef::Fields(f) => fields_required_size(f, false),
        NodeRef::Union(e) => union_required_size(e),
        _ => 0,
    }
}

const fn shape_required_size(s: &'static Shape, resource: bool) -> i64 {
    match s.kind {
        Kind::Struct(f) => {
            if s.object_meta {
                0
            } else {
                fields_required_size(f, resource)
            }
        }
        Kind::Enum(e) => match e.repr {
            Repr::Internal { tag } | Repr::Adjacent { tag, .. } => {
                required_property_size(tag.len(), MIN_STRING_SIZE)
            }
            Repr::External => 0,
            Repr::Untagged => union_required_size(e),
        },
        _ => 0,
    }
}

const fn fields_required_size(fields: &'static [Field], resource: bool) -> i64 {
    let mut sum: i64 = 0;
    let mut i = 0;
    while i < fields.len() {
        let f = &fields[i];
        i += 1;
        if !f.required {
            continue;
        }
        if f.flatten {
            sum = sum.saturating_add(shape_required_size(f.shape, false));
            continue;
        }
        if f.shape.default.is_some() {
            continue;
        }
        let c = child(f.shape);
        if !visible(c) {
            continue;
        }
        let size = if resource
            && (str_eq(f.name, "metadata")
                || str_eq(f.name, "kind")
                || str_eq(f.name, "apiVersion"))
        {
            2
        } else {
            min_size(c)
        };
        sum = sum.saturating_add(required_property_size(f.name.len(), size));
    }
    sum
}

/// A union of objects requires its variant's fields only when it has one variant.
const fn union_required_size(e: &'static Enum) -> i64 {
    // Adjacently tagged content keeps its variants' required fields in `oneOf` only.
    if !matches!(e.repr, Repr::Untagged) || !matches!(union_kind(e), UnionKind::Objects) {
        return 0;
    }
    let mut only = None;
    let mut count = 0;
    let mut i = 0;
    while i < e.variants.len() {
        if !matches!(e.variants[i].kind, VariantKind::Unit) {
            only = Some(&e.variants[i].kind);
            count += 1;
        }
        i += 1;
    }
    if count != 1 {
        return 0;
    }
    match only {
        Some(VariantKind::Struct(f)) => fields_required_size(f, false),
        Some(VariantKind::Newtype(s)) => shape_required_size(s, false),
        _ => 0,
    }
}
