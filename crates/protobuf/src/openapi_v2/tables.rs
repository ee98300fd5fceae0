//! gnostic-models `openapiv2/OpenAPIv2.proto` as tables: for each message, its JSON keys with
//! their field numbers and kinds. Data only; the walker in `mod.rs` reads it.

/// How a JSON member is written.
#[derive(Clone, Copy)]
pub(super) enum K {
    Str,
    Bool,
    F64,
    I64,
    Strs,
    Any,
    Anys,
    Msg(M),
    Msgs(M),
    /// Every member whose key is not an `x-` extension, as `Named* { name = 1; value = 2 }`.
    Each(&'static K),
}

/// Messages. The plain ones are tables; the others (`oneof`s and values that are not JSON
/// objects) have code in [`message`].
#[derive(Clone, Copy)]
pub(super) enum M {
    Document,
    Info,
    Contact,
    License,
    ExternalDocs,
    Tag,
    Xml,
    Paths,
    PathItem,
    Operation,
    Responses,
    Response,
    Schema,
    FileSchema,
    PrimitivesItems,
    Header,
    BodyParameter,
    HeaderParameter,
    FormDataParameter,
    QueryParameter,
    PathParameter,
    JsonReference,
    BasicSecurity,
    ApiKeySecurity,
    Oauth2Implicit,
    Oauth2Password,
    Oauth2Application,
    Oauth2AccessCode,
    /// `repeated Named* additional_properties = 1` of any value kind.
    Named(&'static K),
    // oneofs and special shapes
    ParametersItem,
    Parameter,
    ResponseValue,
    SchemaItem,
    AdditionalPropertiesItem,
    TypeItem,
    ItemsItem,
    SecurityDefinitionsItem,
    StringArray,
}

const SCHEMA: K = K::Msg(M::Schema);
const ANY: K = K::Any;
const STR: K = K::Str;
pub(super) const STRING_ARRAY: K = K::Msg(M::StringArray);

/// `(JSON key, field number, kind)`; the key `x-` is the `vendor_extension` field.
pub(super) type Table = &'static [(&'static str, u32, K)];

/// The validation keywords shared by `Header`, `PrimitivesItems` and the parameter sub
/// schemas, from `type`: their numbers differ only by an offset.
macro_rules! primitive_fields {
    ($o:expr) => {
        [
            ("type", $o, K::Str),
            ("format", $o + 1, K::Str),
            ("items", $o + 2, K::Msg(M::PrimitivesItems)),
            ("collectionFormat", $o + 3, K::Str),
            ("default", $o + 4, K::Any),
            ("maximum", $o + 5, K::F64),
            ("exclusiveMaximum", $o + 6, K::Bool),
            ("minimum", $o + 7, K::F64),
            ("exclusiveMinimum", $o + 8, K::Bool),
            ("maxLength", $o + 9, K::I64),
            ("minLength", $o + 10, K::I64),
            ("pattern", $o + 11, K::Str),
            ("maxItems", $o + 12, K::I64),
            ("minItems", $o + 13, K::I64),
            ("uniqueItems", $o + 14, K::Bool),
            ("enum", $o + 15, K::Anys),
            ("multipleOf", $o + 16, K::F64),
        ]
    };
}

const fn concat<const A: usize, const B: usize, const C: usize>(
    a: [(&'static str, u32, K); A],
    b: [(&'static str, u32, K); B],
) -> [(&'static str, u32, K); C] {
    let mut out = [("", 0, K::Str); C];
    let mut i = 0;
    while i < A {
        out[i] = a[i];
        i += 1;
    }
    while i < C {
        out[i] = b[i - A];
        i += 1;
    }
    out
}

const PRIMITIVES_ITEMS: [(&str, u32, K); 18] = concat(primitive_fields!(1), [("x-", 18, K::Str)]);
const HEADER: [(&str, u32, K); 19] = concat(
    primitive_fields!(1),
    [("description", 18, K::Str), ("x-", 19, K::Str)],
);
/// Header and path parameters: `required, in, description, name`, then the keywords.
const NAMED_PARAM: [(&str, u32, K); 22] = concat(
    [
        ("required", 1, K::Bool),
        ("in", 2, K::Str),
        ("description", 3, K::Str),
        ("name", 4, K::Str),
    ],
    concat::<17, 1, 18>(primitive_fields!(5), [("x-", 22, K::Str)]),
);
/// Form data and query parameters also have `allowEmptyValue`.
const EMPTY_PARAM: [(&str, u32, K); 23] = concat(
    [
        ("required", 1, K::Bool),
        ("in", 2, K::Str),
        ("description", 3, K::Str),
        ("name", 4, K::Str),
        ("allowEmptyValue", 5, K::Bool),
    ],
    concat::<17, 1, 18>(primitive_fields!(6), [("x-", 23, K::Str)]),
);

#[allow(clippy::too_many_lines)] // one table per message of the proto, in its order
pub(super) fn table(m: M) -> Table {
    match m {
        M::Document => &[
            ("swagger", 1, K::Str),
            ("info", 2, K::Msg(M::Info)),
            ("host", 3, K::Str),
            ("basePath", 4, K::Str),
            ("schemes", 5, K::Strs),
            ("consumes", 6, K::Strs),
            ("produces", 7, K::Strs),
            ("paths", 8, K::Msg(M::Paths)),
            ("definitions", 9, K::Msg(M::Named(&SCHEMA))),
            ("parameters", 10, K::Msg(M::Named(&K::Msg(M::Parameter)))),
            ("responses", 11, K::Msg(M::Named(&K::Msg(M::Response)))),
            ("security", 12, K::Msgs(M::Named(&STRING_ARRAY))),
            (
                "securityDefinitions",
                13,
                K::Msg(M::Named(&K::Msg(M::SecurityDefinitionsItem))),
            ),
            ("tags", 14, K::Msgs(M::Tag)),
            ("externalDocs", 15, K::Msg(M::ExternalDocs)),
            ("x-", 16, K::Str),
        ],
        M::Info => &[
            ("title", 1, K::Str),
            ("version", 2, K::Str),
            ("description", 3, K::Str),
            ("termsOfService", 4, K::Str),
            ("contact", 5, K::Msg(M::Contact)),
            ("license", 6, K::Msg(M::License)),
            ("x-", 7, K::Str),
        ],
        M::Contact => &[
            ("name", 1, K::Str),
            ("url", 2, K::Str),
            ("email", 3, K::Str),
            ("x-", 4, K::Str),
        ],
        M::License => &[("name", 1, K::Str), ("url", 2, K::Str), ("x-", 3, K::Str)],
        M::ExternalDocs => &[
            ("description", 1, K::Str),
            ("url", 2, K::Str),
            ("x-", 3, K::Str),
        ],
        M::Tag => &[
            ("name", 1, K::Str),
            ("description", 2, K::Str),
            ("externalDocs", 3, K::Msg(M::ExternalDocs)),
            ("x-", 4, K::Str),
        ],
        M::Xml => &[
            ("name", 1, K::Str),
            ("namespace", 2, K::Str),
            ("prefix", 3, K::Str),
            ("attribute", 4, K::Bool),
            ("wrapped", 5, K::Bool),
            ("x-", 6, K::Str),
        ],
        M::Paths => &[("x-", 1, K::Str), ("/", 2, K::Each(&K::Msg(M::PathItem)))],
        M::PathItem => &[
            ("$ref", 1, K::Str),
            ("get", 2, K::Msg(M::Operation)),
            ("put", 3, K::Msg(M::Operation)),
            ("post", 4, K::Msg(M::Operation)),
            ("delete", 5, K::Msg(M::Operation)),
            ("options", 6, K::Msg(M::Operation)),
            ("head", 7, K::Msg(M::Operation)),
            ("patch", 8, K::Msg(M::Operation)),
            ("parameters", 9, K::Msgs(M::ParametersItem)),
            ("x-", 10, K::Str),
        ],
        M::Operation => &[
            ("tags", 1, K::Strs),
            ("summary", 2, K::Str),
            ("description", 3, K::Str),
            ("externalDocs", 4, K::Msg(M::ExternalDocs)),
            ("operationId", 5, K::Str),
            ("produces", 6, K::Strs),
            ("consumes", 7, K::Strs),
            ("parameters", 8, K::Msgs(M::ParametersItem)),
            ("responses", 9, K::Msg(M::Responses)),
            ("schemes", 10, K::Strs),
            ("deprecated", 11, K::Bool),
            ("security", 12, K::Msgs(M::Named(&STRING_ARRAY))),
            ("x-", 13, K::Str),
        ],
        M::Responses => &[
            ("/", 1, K::Each(&K::Msg(M::ResponseValue))),
            ("x-", 2, K::Str),
        ],
        M::Response => &[
            ("description", 1, K::Str),
            ("schema", 2, K::Msg(M::SchemaItem)),
            ("headers", 3, K::Msg(M::Named(&K::Msg(M::Header)))),
            ("examples", 4, K::Msg(M::Named(&ANY))),
            ("x-", 5, K::Str),
        ],
        M::Schema => &[
            ("$ref", 1, K::Str),
            ("format", 2, K::Str),
            ("title", 3, K::Str),
            ("description", 4, K::Str),
            ("default", 5, K::Any),
            ("multipleOf", 6, K::F64),
            ("maximum", 7, K::F64),
            ("exclusiveMaximum", 8, K::Bool),
            ("minimum", 9, K::F64),
            ("exclusiveMinimum", 10, K::Bool),
            ("maxLength", 11, K::I64),
            ("minLength", 12, K::I64),
            ("pattern", 13, K::Str),
            ("maxItems", 14, K::I64),
            ("minItems", 15, K::I64),
            ("uniqueItems", 16, K::Bool),
            ("maxProperties", 17, K::I64),
            ("minProperties", 18, K::I64),
            ("required", 19, K::Strs),
            ("enum", 20, K::Anys),
            (
                "additionalProperties",
                21,
                K::Msg(M::AdditionalPropertiesItem),
            ),
            ("type", 22, K::Msg(M::TypeItem)),
            ("items", 23, K::Msg(M::ItemsItem)),
            ("allOf", 24, K::Msgs(M::Schema)),
            ("properties", 25, K::Msg(M::Named(&SCHEMA))),
            ("discriminator", 26, K::Str),
            ("readOnly", 27, K::Bool),
            ("xml", 28, K::Msg(M::Xml)),
            ("externalDocs", 29, K::Msg(M::ExternalDocs)),
            ("example", 30, K::Any),
            ("x-", 31, K::Str),
        ],
        M::FileSchema => &[
            ("format", 1, K::Str),
            ("title", 2, K::Str),
            ("description", 3, K::Str),
            ("default", 4, K::Any),
            ("required", 5, K::Strs),
            ("type", 6, K::Str),
            ("readOnly", 7, K::Bool),
            ("externalDocs", 8, K::Msg(M::ExternalDocs)),
            ("example", 9, K::Any),
            ("x-", 10, K::Str),
        ],
        M::PrimitivesItems => &PRIMITIVES_ITEMS,
        M::Header => &HEADER,
        M::BodyParameter => &[
            ("description", 1, K::Str),
            ("name", 2, K::Str),
            ("in", 3, K::Str),
            ("required", 4, K::Bool),
            ("schema", 5, K::Msg(M::Schema)),
            ("x-", 6, K::Str),
        ],
        M::HeaderParameter | M::PathParameter => &NAMED_PARAM,
        M::FormDataParameter | M::QueryParameter => &EMPTY_PARAM,
        M::JsonReference => &[("$ref", 1, K::Str), ("description", 2, K::Str)],
        M::BasicSecurity => &[
            ("type", 1, K::Str),
            ("description", 2, K::Str),
            ("x-", 3, K::Str),
        ],
        M::ApiKeySecurity => &[
            ("type", 1, K::Str),
            ("name", 2, K::Str),
            ("in", 3, K::Str),
            ("description", 4, K::Str),
            ("x-", 5, K::Str),
        ],
        M::Oauth2Implicit => &[
            ("type", 1, K::Str),
            ("flow", 2, K::Str),
            ("scopes", 3, K::Msg(M::Named(&STR))),
            ("authorizationUrl", 4, K::Str),
            ("description", 5, K::Str),
            ("x-", 6, K::Str),
        ],
        M::Oauth2Password | M::Oauth2Application => &[
            ("type", 1, K::Str),
            ("flow", 2, K::Str),
            ("scopes", 3, K::Msg(M::Named(&STR))),
            ("tokenUrl", 4, K::Str),
            ("description", 5, K::Str),
            ("x-", 6, K::Str),
        ],
        M::Oauth2AccessCode => &[
            ("type", 1, K::Str),
            ("flow", 2, K::Str),
            ("scopes", 3, K::Msg(M::Named(&STR))),
            ("authorizationUrl", 4, K::Str),
            ("tokenUrl", 5, K::Str),
            ("description", 6, K::Str),
            ("x-", 7, K::Str),
        ],
        // `Named` and the oneofs are written by `message`.
        _ => &[],
    }
}
