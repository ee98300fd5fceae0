//! The schema of a Rust type as a `const`: the graph that `#[derive(Schema)]` emits.
//!
//! Every type with a schema implements [`Schema`], whose [`Schema::SHAPE`] describes the type in
//! serde's data model (structs with renamed and flattened fields, enums with their tagging, maps,
//! sequences) plus the CRD keywords written on it. Shapes compose through `&T::SHAPE`, so the graph
//! spans modules and crates without the derive seeing the other types' tokens, and it is data that
//! rustc can inspect in `const fn`s: the checks in `check` run at compile time
//! (`const _: () = ...`) and again at run time for schemas loaded from files.
//!
//! [`build()`] turns a shape into the [`crdkit_schema::Structural`] model at run time, where enums
//! are laid out and flattened fields merged.
//!
//! Also here: [`resource`] (what `#[derive(CustomResource)]` declares about a resource and the CRD
//! it builds, `merge_crds`), the shape of `metadata` ([`meta`]), and the const CEL checker
//! (`cel`).
//!
//! Depends on `crdkit-schema`, `crdkit-cel-check` and `crdkit-apimachinery`; the `k8s-openapi`
//! and `schemars` features add impls for those crates' types (with them, the program's copy of
//! this crate differs from the macro's: each such feature costs a second compilation of it).
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod build;
// A failed check returns its message by value: const fns cannot box it.
// Generated code and the derive use it; not part of the documented API.
#[doc(hidden)]
#[allow(clippy::result_large_err)]
pub mod cel;
// A failed check returns its message by value: const fns cannot box it.
#[doc(hidden)]
#[allow(clippy::result_large_err)]
pub mod check;
mod impls;
pub mod json;
#[cfg(feature = "k8s-openapi")]
pub mod k8s;
pub mod meta;
mod msg;
pub mod resource;
#[cfg(feature = "schemars")]
pub mod schemars;
// A failed check returns its message by value: const fns cannot box it.
#[allow(clippy::result_large_err)]
pub mod size;
pub mod versions;

pub use build::{BuildError, build};
pub use impls::MapKey;
pub use json::{Json, JsonOf};
pub use msg::{MSG_CAP, Msg};

use crdkit_schema::{ListType, MapType};

/// A type with a structural schema. Derive it with `#[derive(crdkit::Schema)]`.
///
/// Implement it by hand for a foreign type with the `const` builders of [`Shape`]:
///
/// ```
/// # use crdkit_shape::{Schema, Shape};
/// struct Semver(String);
/// impl Schema for Semver {
///     const SHAPE: Shape = Shape::string().named("Semver").pattern(r"^v?\d+\.\d+\.\d+$");
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` has no structural schema",
    label = "no `crdkit::Schema` for `{Self}`",
    note = "derive it with `#[derive(crdkit::Schema)]`, implement `crdkit::Schema` by hand, or, for a type that implements `schemars::JsonSchema`, mark the field `#[crd(schemars)]`",
    note = "tuples and other heterogeneous sequences have no structural schema: use a struct"
)]
pub trait Schema {
    /// The schema of this type.
    const SHAPE: Shape;
}

/// The schema of one type: its shape in serde's data model plus the CRD keywords set on it.
#[derive(Clone, Copy, Debug)]
#[allow(clippy::struct_excessive_bools)]
pub struct Shape {
    /// The Rust type's name, for messages.
    pub name: &'static str,
    /// What a value looks like in JSON: the `type` and the children.
    pub kind: Kind,
    /// `description`; the derive takes it from the doc comment.
    pub description: Option<&'static str>,
    /// `title`
    pub title: Option<&'static str>,
    /// `format` (`date-time`, `int32`, …)
    pub format: Option<&'static str>,
    /// Null is a valid value (`nullable: true`).
    pub nullable: bool,
    /// A field of this type may be absent (`Option<T>`): not `required` unless asked.
    pub optional: bool,
    /// `default`
    pub default: Option<DefaultValue>,
    /// `minimum`
    pub minimum: Option<f64>,
    /// `exclusiveMinimum`: `minimum` itself is excluded.
    pub exclusive_minimum: bool,
    /// `maximum`
    pub maximum: Option<f64>,
    /// `exclusiveMaximum`: `maximum` itself is excluded.
    pub exclusive_maximum: bool,
    /// `multipleOf`
    pub multiple_of: Option<f64>,
    /// `minLength`, in characters.
    pub min_length: Option<u64>,
    /// `maxLength`, in characters.
    pub max_length: Option<u64>,
    /// `pattern`: a regular expression (Go RE2 syntax, as the API server reads it) that must match
    /// somewhere in the string; anchor it with `^…$` to match the whole.
    pub pattern: Option<&'static str>,
    /// `minItems`
    pub min_items: Option<u64>,
    /// `maxItems`
    pub max_items: Option<u64>,
    /// `minProperties`
    pub min_properties: Option<u64>,
    /// `maxProperties`
    pub max_properties: Option<u64>,
    /// `enum`; empty when unrestricted.
    pub enum_values: &'static [Json],
    /// `x-kubernetes-preserve-unknown-fields`
    pub preserve_unknown_fields: bool,
    /// `x-kubernetes-embedded-resource`
    pub embedded_resource: bool,
    /// `x-kubernetes-list-type`
    pub list_type: Option<ListType>,
    /// `x-kubernetes-list-map-keys`
    pub list_map_keys: &'static [&'static str],
    /// `x-kubernetes-map-type`
    pub map_type: Option<MapType>,
    /// `x-kubernetes-validations`
    pub rules: Rules,
    /// The standard `ObjectMeta`: written as `type: object` (Kubernetes knows its fields
    /// implicitly), but resolved field by field in paths.
    pub object_meta: bool,
    /// `allOf`, `anyOf`, `oneOf` and `not`: restrictions of the value (structural schemas allow
    /// value validations only inside them).
    pub junctors: Junctors,
    /// `type: object` on a value of any JSON shape (`serde_json::Value` with
    /// `#[crd(type = "object")]`): unknown fields kept, but an object.
    pub object: bool,
}

/// `allOf`, `anyOf`, `oneOf` and `not` of a node: each branch as the JSON of its schema
/// (`{"required": ["a"]}`), value validations only, as the derive's `all_of(..)`, `any_of(..)`,
/// `one_of(..)` and `not(..)` write them.
#[derive(Clone, Copy, Debug)]
pub struct Junctors {
    /// `allOf`: every branch holds.
    pub all_of: &'static [Json],
    /// `anyOf`: some branch holds.
    pub any_of: &'static [Json],
    /// `oneOf`: exactly one branch holds.
    pub one_of: &'static [Json],
    /// `not`: the branch does not hold.
    pub not: Option<&'static Json>,
}

impl Junctors {
    /// No junctors.
    pub const NONE: Junctors = Junctors {
        all_of: &[],
        any_of: &[],
        one_of: &[],
        not: None,
    };

    /// Whether there are none.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.all_of.is_empty()
            && self.any_of.is_empty()
            && self.one_of.is_empty()
            && self.not.is_none()
    }
}

/// What a value of the type looks like in JSON.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    /// Any JSON value (`serde_json::Value`): no `type`, unknown fields preserved.
    Any,
    /// `type: boolean` (`bool`).
    Boolean,
    /// `type: integer` (`i32`, `u64`, …).
    Integer,
    /// `type: number` (`f32`, `f64`).
    Number,
    /// `type: string` (`String`, `char`, …).
    String,
    /// An integer or a string (`x-kubernetes-int-or-string`).
    IntOrString,
    /// A sequence of the item shape.
    Array(&'static Shape),
    /// A map from strings to the value shape (`additionalProperties`).
    Map(&'static Shape),
    /// A struct: named fields, some of which may be flattened.
    Struct(&'static [Field]),
    /// A serde enum with its representation.
    Enum(&'static Enum),
    /// A schema known only at run time (a `schemars::JsonSchema` type behind `#[crd(schemars)]`).
    Dynamic(fn() -> Result<crdkit_schema::Structural, NotStructural>),
}

/// Why a schema known only at run time has no structural form: every offending part, with its
/// path (`Display` writes one per line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotStructural {
    /// One message per part without a structural equivalent (`properties.x: anyOf of types`).
    pub errors: Vec<String>,
}

impl std::fmt::Display for NotStructural {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.errors.join("\n"))
    }
}

impl std::error::Error for NotStructural {}

/// A field of a struct or struct variant, under its serialized name.
#[derive(Clone, Copy, Debug)]
pub struct Field {
    /// The serialized name, after `rename` and `rename_all`.
    pub name: &'static str,
    /// The Rust field's name, for messages.
    pub ident: &'static str,
    /// The field's schema: its type's shape refined by the field's `#[crd(..)]` keywords.
    pub shape: &'static Shape,
    /// Listed in the parent's `required`: the field must be present.
    pub required: bool,
    /// `#[serde(flatten)]`: the shape's fields join the parent's.
    pub flatten: bool,
}

/// A serde enum.
#[derive(Clone, Copy, Debug)]
pub struct Enum {
    /// How serde tags the variants.
    pub repr: Repr,
    /// The variants serde reads and writes (skipped ones left out).
    pub variants: &'static [Variant],
}

/// serde's enum representations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repr {
    /// `{"Variant": payload}`, or `"Variant"` for unit variants.
    External,
    /// `#[serde(tag = "t")]`: `{"t": "Variant", ..fields}`.
    Internal {
        /// The tag's field name.
        tag: &'static str,
    },
    /// `#[serde(tag = "t", content = "c")]`: `{"t": "Variant", "c": payload}`.
    Adjacent {
        /// The tag's field name.
        tag: &'static str,
        /// The payload's field name.
        content: &'static str,
    },
    /// `#[serde(untagged)]`: the payload alone.
    Untagged,
}

/// A variant under its serialized name.
#[derive(Clone, Copy, Debug)]
pub struct Variant {
    /// The serialized name, after `rename` and `rename_all`.
    pub name: &'static str,
    /// The variant's doc comment.
    pub description: Option<&'static str>,
    /// The payload.
    pub kind: VariantKind,
}

/// The payload of a variant.
#[derive(Clone, Copy, Debug)]
pub enum VariantKind {
    /// No payload: `A`.
    Unit,
    /// One value: `A(T)`.
    Newtype(&'static Shape),
    /// Named fields: `A { x: T }`.
    Struct(&'static [Field]),
}

/// A default value.
#[derive(Clone, Copy, Debug)]
pub enum DefaultValue {
    /// A literal, checked against the schema at compile time.
    Value(Json),
    /// A function's result, serialized when the CRD is built and checked against the schema
    /// then (`#[crd(default = path)]`, `#[crd(default)]`, and serde's `default` attributes);
    /// `None` leaves the schema without a default (serde would not write the value: null, or
    /// `skip_serializing_if` says so).
    Fn(fn() -> Result<Option<serde_json::Value>, serde_json::Error>),
}

/// One `x-kubernetes-validations` rule.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    /// `rule`: the CEL expression; `self` is the value at this node.
    pub rule: &'static str,
    /// `message`: the error when the rule fails (default: `failed rule: <rule>`).
    pub message: Option<&'static str>,
    /// `messageExpression`: a CEL expression that yields the message.
    pub message_expression: Option<&'static str>,
    /// `reason`: `FieldValueInvalid` (the default), `FieldValueForbidden`, `FieldValueRequired` or
    /// `FieldValueDuplicate`.
    pub reason: Option<&'static str>,
    /// `fieldPath`: where the error is reported, relative to this node (`.spec.replicas`).
    pub field_path: Option<&'static str>,
    /// `optionalOldSelf`: the transition rule also runs when there is no old value, with `oldSelf`
    /// an optional.
    pub optional_old_self: bool,
    /// The rule as the derive parsed it (`None` for rules written by hand): what the
    /// compile-time checks read.
    pub ast: Option<&'static cel::Ast>,
    /// The parsed `message_expression`.
    pub message_ast: Option<&'static cel::Ast>,
    /// What the compile-time check of the rule found (cost, transition rule), for the checks
    /// of the whole CRD.
    pub info: Option<&'static cel::RuleInfo>,
}

impl Rule {
    /// A rule with no message or options.
    #[must_use]
    pub const fn new(rule: &'static str) -> Rule {
        Rule {
            rule,
            message: None,
            message_expression: None,
            reason: None,
            field_path: None,
            optional_old_self: false,
            ast: None,
            message_ast: None,
            info: None,
        }
    }
}

impl Shape {
    /// A shape of the given kind with no keywords.
    #[must_use]
    pub const fn new(kind: Kind) -> Shape {
        Shape {
            name: "",
            kind,
            description: None,
            title: None,
            format: None,
            nullable: false,
            optional: false,
            default: None,
            minimum: None,
            exclusive_minimum: false,
            maximum: None,
            exclusive_maximum: false,
            multiple_of: None,
            min_length: None,
            max_length: None,
            pattern: None,
            min_items: None,
            max_items: None,
            min_properties: None,
            max_properties: None,
            enum_values: &[],
            preserve_unknown_fields: false,
            embedded_resource: false,
            list_type: None,
            list_map_keys: &[],
            map_type: None,
            rules: Rules::NONE,
            object_meta: false,
            junctors: Junctors::NONE,
            object: false,
        }
    }

    /// `type: string`
    #[must_use]
    pub const fn string() -> Shape {
        Shape::new(Kind::String)
    }

    /// `type: integer`
    #[must_use]
    pub const fn integer() -> Shape {
        Shape::new(Kind::Integer)
    }

    /// `type: number`
    #[must_use]
    pub const fn number() -> Shape {
        Shape::new(Kind::Number)
    }

    /// `type: boolean`
    #[must_use]
    pub const fn boolean() -> Shape {
        Shape::new(Kind::Boolean)
    }

    /// Any JSON value, kept as is.
    #[must_use]
    pub const fn any() -> Shape {
        let mut s = Shape::new(Kind::Any);
        s.preserve_unknown_fields = true;
        s
    }

    /// `x-kubernetes-int-or-string: true`
    #[must_use]
    pub const fn int_or_string() -> Shape {
        Shape::new(Kind::IntOrString)
    }

    /// Names the Rust type, for messages.
    #[must_use]
    pub const fn named(mut self, name: &'static str) -> Shape {
        self.name = name;
        self
    }

    /// Sets `description`.
    #[must_use]
    pub const fn description(mut self, d: &'static str) -> Shape {
        self.description = Some(d);
        self
    }

    /// Sets `format`.
    #[must_use]
    pub const fn format(mut self, f: &'static str) -> Shape {
        self.format = Some(f);
        self
    }

    /// Sets `pattern`.
    #[must_use]
    pub const fn pattern(mut self, p: &'static str) -> Shape {
        self.pattern = Some(p);
        self
    }

    /// Sets `minimum`.
    #[must_use]
    pub const fn minimum(mut self, m: f64) -> Shape {
        self.minimum = Some(m);
        self
    }

    /// Sets `maximum`.
    #[must_use]
    pub const fn maximum(mut self, m: f64) -> Shape {
        self.maximum = Some(m);
        self
    }

    /// Sets `minLength` and `maxLength`.
    #[must_use]
    pub const fn length(mut self, min: Option<u64>, max: Option<u64>) -> Shape {
        self.min_length = min;
        self.max_length = max;
        self
    }

    /// Sets the length bounds that fit the kind (garde's and validator's `length(..)`):
    /// `minLength`/`maxLength` of a string, `minItems`/`maxItems` of a list,
    /// `minProperties`/`maxProperties` of a map or object. Other kinds keep them as
    /// `minLength`/`maxLength`, which [`check::check_length`] reports.
    #[must_use]
    pub const fn length_of_kind(mut self, min: Option<u64>, max: Option<u64>) -> Shape {
        match self.kind {
            Kind::Array(_) => {
                self.min_items = min;
                self.max_items = max;
            }
            Kind::Map(_) | Kind::Struct(_) => {
                self.min_properties = min;
                self.max_properties = max;
            }
            _ => {
                self.min_length = min;
                self.max_length = max;
            }
        }
        self
    }

    /// Sets `nullable` and makes fields of this type optional.
    #[must_use]
    pub const fn nullable(mut self) -> Shape {
        self.nullable = true;
        self.optional = true;
        self
    }

    /// Sets `x-kubernetes-embedded-resource` (and `type: object`).
    #[must_use]
    pub const fn embedded_resource(mut self) -> Shape {
        self.embedded_resource = true;
        self
    }

    /// Sets `x-kubernetes-validations`.
    #[must_use]
    pub const fn rules(mut self, rules: &'static [Rule]) -> Shape {
        self.rules = Rules {
            own: rules,
            inherited: None,
        };
        self
    }

    /// The item shape of a list shape (for `items(..)` keywords).
    #[must_use]
    pub const fn items(&self) -> &'static Shape {
        match self.kind {
            Kind::Array(items) => items,
            _ => &NOT_A_CONTAINER,
        }
    }

    /// The value shape of a map shape (for `values(..)` keywords).
    #[must_use]
    pub const fn values(&self) -> &'static Shape {
        match self.kind {
            Kind::Map(values) => values,
            _ => &NOT_A_CONTAINER,
        }
    }

    /// This list or map shape with other items or values.
    #[must_use]
    pub const fn with_inner(mut self, inner: &'static Shape) -> Shape {
        self.kind = match self.kind {
            Kind::Array(_) => Kind::Array(inner),
            Kind::Map(_) => Kind::Map(inner),
            k => k,
        };
        self
    }
}

/// What [`Shape::items`] and [`Shape::values`] return for other kinds; checks report it.
pub const NOT_A_CONTAINER: Shape = Shape::new(Kind::Any).named("<not a list or map>");

/// `x-kubernetes-validations` of a node: its own rules, then those of the type it refines (a
/// field's rules come before the rules on the field's type).
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// The rules written on this node.
    pub own: &'static [Rule],
    /// The rules of the type this node refines, checked after `own`.
    pub inherited: Option<&'static Rules>,
}

impl Rules {
    /// No rules.
    pub const NONE: Rules = Rules {
        own: &[],
        inherited: None,
    };

    /// All rules, outermost first.
    pub fn iter(&self) -> impl Iterator<Item = &'static Rule> + '_ {
        let mut next = Some(self);
        let mut own: std::slice::Iter<'static, Rule> = [].iter();
        std::iter::from_fn(move || {
            loop {
                if let Some(r) = own.next() {
                    return Some(r);
                }
                let cur = next?;
                own = cur.own.iter();
                next = cur.inherited;
            }
        })
    }

    /// Whether there are no rules.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.own.is_empty()
            && match self.inherited {
                Some(r) => r.is_empty(),
                None => true,
            }
    }
}
