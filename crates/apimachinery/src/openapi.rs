//! The OpenAPI vocabulary shared by the CRD model and CEL: the `type` of a schema node and the
//! `x-kubernetes-list-type` / `x-kubernetes-map-type` extensions (kube-openapi `spec.Schema`).

/// An OpenAPI type as CRD schemas allow it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    /// `object`: a JSON object, with `properties` or `additionalProperties`.
    Object,
    /// `array`: a JSON array, with `items`.
    Array,
    /// `string`, possibly with a `format` (`date-time`, `byte`, …).
    String,
    /// `integer`: a JSON number without a fractional part, within `int64`.
    Integer,
    /// `number`: any JSON number, integers included.
    Number,
    /// `boolean`.
    Boolean,
}

impl Type {
    /// The spelling in OpenAPI (`object`, `array`, ...).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Type::Object => "object",
            Type::Array => "array",
            Type::String => "string",
            Type::Integer => "integer",
            Type::Number => "number",
            Type::Boolean => "boolean",
        }
    }

    /// Parses the OpenAPI spelling.
    #[must_use]
    pub fn parse(s: &str) -> Option<Type> {
        Some(match s {
            "object" => Type::Object,
            "array" => Type::Array,
            "string" => Type::String,
            "integer" => Type::Integer,
            "number" => Type::Number,
            "boolean" => Type::Boolean,
            _ => return None,
        })
    }
}

impl std::fmt::Display for Type {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `x-kubernetes-list-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ListType {
    /// `atomic`: the list is one value, replaced as a whole by server-side apply; items may repeat
    /// (the default).
    Atomic,
    /// `set`: unique scalar items, merged by value.
    Set,
    /// `map`: object items identified by the `x-kubernetes-list-map-keys` fields, merged by key.
    Map,
}

impl ListType {
    /// The spelling in the CRD (`atomic`, `set`, `map`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            ListType::Atomic => "atomic",
            ListType::Set => "set",
            ListType::Map => "map",
        }
    }

    /// Parses the CRD spelling; `None` for anything else.
    #[must_use]
    pub fn parse(s: &str) -> Option<ListType> {
        Some(match s {
            "atomic" => ListType::Atomic,
            "set" => ListType::Set,
            "map" => ListType::Map,
            _ => return None,
        })
    }
}

/// `x-kubernetes-map-type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum MapType {
    /// `granular`: keys are separate values, merged one by one by server-side apply (the default).
    Granular,
    /// `atomic`: the map (or struct) is one value, replaced as a whole.
    Atomic,
}

impl MapType {
    /// The spelling in the CRD (`granular`, `atomic`).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            MapType::Granular => "granular",
            MapType::Atomic => "atomic",
        }
    }

    /// Parses the CRD spelling; `None` for anything else.
    #[must_use]
    pub fn parse(s: &str) -> Option<MapType> {
        Some(match s {
            "granular" => MapType::Granular,
            "atomic" => MapType::Atomic,
            _ => return None,
        })
    }
}
