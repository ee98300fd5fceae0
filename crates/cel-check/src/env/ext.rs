//! cel-go's extension libraries as Kubernetes enables them: `ext/strings.go` (versions 0 and 2),
//! `ext/sets.go`, `ext/lists.go` (version 3), `cel/library.go` (optional types, every version)
//! and `ext/comprehensions.go` (two-variable comprehensions).

use super::OverloadDecl;
use super::spec::*;

/// Strings, version 0 (`charAt` … `upperAscii`).
pub(super) const STRINGS_V0: &[OverloadDecl] = &[
    m("charAt", "string_char_at_int", &[STRING, INT], STRING),
    m("indexOf", "string_index_of_string", &[STRING, STRING], INT),
    m(
        "indexOf",
        "string_index_of_string_int",
        &[STRING, STRING, INT],
        INT,
    ),
    m(
        "lastIndexOf",
        "string_last_index_of_string",
        &[STRING, STRING],
        INT,
    ),
    m(
        "lastIndexOf",
        "string_last_index_of_string_int",
        &[STRING, STRING, INT],
        INT,
    ),
    m("lowerAscii", "string_lower_ascii", &[STRING], STRING),
    m(
        "replace",
        "string_replace_string_string",
        &[STRING, STRING, STRING],
        STRING,
    ),
    m(
        "replace",
        "string_replace_string_string_int",
        &[STRING, STRING, STRING, INT],
        STRING,
    ),
    m(
        "split",
        "string_split_string",
        &[STRING, STRING],
        LIST_STRING,
    ),
    m(
        "split",
        "string_split_string_int",
        &[STRING, STRING, INT],
        LIST_STRING,
    ),
    m("substring", "string_substring_int", &[STRING, INT], STRING),
    m(
        "substring",
        "string_substring_int_int",
        &[STRING, INT, INT],
        STRING,
    ),
    m("trim", "string_trim", &[STRING], STRING),
    m("upperAscii", "string_upper_ascii", &[STRING], STRING),
];

/// Strings, version 1 (`format`, pre-v4 semantics, and `strings.quote`).
pub(super) const STRINGS_V1: &[OverloadDecl] = &[
    m("format", "string_format", &[STRING, LIST_DYN], STRING),
    g("strings.quote", "strings_quote", &[STRING], STRING),
];

/// Strings: `join` (declared by every version, with a different implementation before v2).
pub(super) const STRINGS_JOIN: &[OverloadDecl] = &[
    m("join", "list_join", &[LIST_STRING], STRING),
    m("join", "list_join_string", &[LIST_STRING, STRING], STRING),
];

/// `ext.Sets()`.
pub(super) const SETS: &[OverloadDecl] = &[
    g(
        "sets.contains",
        "list_sets_contains_list",
        &[LIST_T, LIST_T],
        BOOL,
    ),
    g(
        "sets.equivalent",
        "list_sets_equivalent_list",
        &[LIST_T, LIST_T],
        BOOL,
    ),
    g(
        "sets.intersects",
        "list_sets_intersects_list",
        &[LIST_T, LIST_T],
        BOOL,
    ),
];

const LIST_LIST_T: TypeSpec = TypeSpec::List(&LIST_T);
const LIST_INT: TypeSpec = TypeSpec::List(&INT);
const LIST_UINT: TypeSpec = TypeSpec::List(&UINT);
const LIST_DOUBLE: TypeSpec = TypeSpec::List(&DOUBLE);
const LIST_BOOL: TypeSpec = TypeSpec::List(&BOOL);
const LIST_DURATION: TypeSpec = TypeSpec::List(&DURATION);
const LIST_TIMESTAMP: TypeSpec = TypeSpec::List(&TIMESTAMP);
const LIST_BYTES: TypeSpec = TypeSpec::List(&BYTES);
use crate::types::TypeSpec;

/// `ext.Lists(ext.ListsVersion(3))`; the overload ids embed cel-go type names
/// (`list_google.protobuf.Duration_sort`).
pub(super) const LISTS_V3: &[OverloadDecl] = &[
    m("slice", "list_slice", &[LIST_T, INT, INT], LIST_T),
    m("flatten", "list_flatten", &[LIST_LIST_T], LIST_T),
    m("flatten", "list_flatten_int", &[LIST_DYN, INT], LIST_DYN),
    m("sort", "list_int_sort", &[LIST_INT], LIST_INT),
    m("sort", "list_uint_sort", &[LIST_UINT], LIST_UINT),
    m("sort", "list_double_sort", &[LIST_DOUBLE], LIST_DOUBLE),
    m("sort", "list_bool_sort", &[LIST_BOOL], LIST_BOOL),
    m(
        "sort",
        "list_google.protobuf.Duration_sort",
        &[LIST_DURATION],
        LIST_DURATION,
    ),
    m(
        "sort",
        "list_google.protobuf.Timestamp_sort",
        &[LIST_TIMESTAMP],
        LIST_TIMESTAMP,
    ),
    m("sort", "list_string_sort", &[LIST_STRING], LIST_STRING),
    m("sort", "list_bytes_sort", &[LIST_BYTES], LIST_BYTES),
    m(
        "@sortByAssociatedKeys",
        "list_int_sortByAssociatedKeys",
        &[LIST_T, LIST_INT],
        LIST_T,
    ),
    m(
        "@sortByAssociatedKeys",
        "list_uint_sortByAssociatedKeys",
        &[LIST_T, LIST_UINT],
        LIST_T,
    ),
    m(
        "@sortByAssociatedKeys",
        "list_double_sortByAssociatedKeys",
        &[LIST_T, LIST_DOUBLE],
        LIST_T,
    ),
    m(
        "@sortByAssociatedKeys",
        "list_bool_sortByAssociatedKeys",
        &[LIST_T, LIST_BOOL],
        LIST_T,
    ),
    m(
        "@sortByAssociatedKeys",
        "list_google.protobuf.Duration_sortByAssociatedKeys",
        &[LIST_T, LIST_DURATION],
        LIST_T,
    ),
    m(
        "@sortByAssociatedKeys",
        "list_google.protobuf.Timestamp_sortByAssociatedKeys",
        &[LIST_T, LIST_TIMESTAMP],
        LIST_T,
    ),
    m(
        "@sortByAssociatedKeys",
        "list_string_sortByAssociatedKeys",
        &[LIST_T, LIST_STRING],
        LIST_T,
    ),
    m(
        "@sortByAssociatedKeys",
        "list_bytes_sortByAssociatedKeys",
        &[LIST_T, LIST_BYTES],
        LIST_T,
    ),
    g("lists.range", "lists_range", &[INT], LIST_INT),
    m("reverse", "list_reverse", &[LIST_T], LIST_T),
    m("distinct", "list_distinct", &[LIST_T], LIST_T),
];

/// `cel.OptionalTypes()` (unversioned in Kubernetes, so every version of the library).
pub(super) const OPTIONALS: &[OverloadDecl] = &[
    g("optional.of", "optional_of", &[V], OPT_V),
    g(
        "optional.ofNonZeroValue",
        "optional_ofNonZeroValue",
        &[V],
        OPT_V,
    ),
    g("optional.none", "optional_none", &[], OPT_V),
    m("value", "optional_value", &[OPT_V], V),
    m("hasValue", "optional_hasValue", &[OPT_V], BOOL),
    m("or", "optional_or_optional", &[OPT_V, OPT_V], OPT_V),
    m("orValue", "optional_orValue_value", &[OPT_V, V], V),
    g("_?._", "select_optional_field", &[DYN, STRING], OPT_V),
    g("_[?_]", "list_optindex_optional_int", &[LIST_V, INT], OPT_V),
    g(
        "_[?_]",
        "optional_list_optindex_optional_int",
        &[OPT_LIST_V, INT],
        OPT_V,
    ),
    g("_[?_]", "map_optindex_optional_value", &[MAP_KV, K], OPT_V),
    g(
        "_[?_]",
        "optional_map_optindex_optional_value",
        &[OPT_MAP_KV, K],
        OPT_V,
    ),
    g("_[_]", "optional_list_index_int", &[OPT_LIST_V, INT], OPT_V),
    g("_[_]", "optional_map_index_value", &[OPT_MAP_KV, K], OPT_V),
    m("last", "list_last", &[LIST_V], OPT_V),
    m("first", "list_first", &[LIST_V], OPT_V),
    g("optional.unwrap", "optional_unwrap", &[LIST_OPT_V], LIST_V),
    m("unwrapOpt", "optional_unwrapOpt", &[LIST_OPT_V], LIST_V),
];

/// `ext.TwoVarComprehensions()`: the helper the `transformMap*` macros call.
pub(super) const TWO_VAR_COMPREHENSIONS: &[OverloadDecl] = &[
    g(
        "cel.@mapInsert",
        "@mapInsert_map_key_value",
        &[MAP_KV, K, V],
        MAP_KV,
    ),
    g(
        "cel.@mapInsert",
        "@mapInsert_map_map",
        &[MAP_KV, MAP_KV],
        MAP_KV,
    ),
];
