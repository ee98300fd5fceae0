//! The Kubernetes libraries: apiserver `pkg/cel/library/{urls,regex,lists,authz,quantity,ip,
//! cidr,format,semverlib}.go`. The authz functions are declared (their receiver types cannot be
//! reached in CRD rules, which have no `authorizer` variable) so that errors read exactly as the
//! API server's, e.g. `found no matching overload for 'check' applied to 'string.(string)'`.

use super::OverloadDecl;
use super::spec::*;
use crate::types::TypeSpec;

/// `library.URLs`.
pub(super) const URLS: &[OverloadDecl] = &[
    g("url", "string_to_url", &[STRING], URL),
    m("getScheme", "url_get_scheme", &[URL], STRING),
    m("getHost", "url_get_host", &[URL], STRING),
    m("getHostname", "url_get_hostname", &[URL], STRING),
    m("getPort", "url_get_port", &[URL], STRING),
    m("getEscapedPath", "url_get_escaped_path", &[URL], STRING),
    m("getQuery", "url_get_query", &[URL], URL_QUERY),
    g("isURL", "is_url_string", &[STRING], BOOL),
];
const URL_QUERY: TypeSpec = TypeSpec::Map(&STRING, &LIST_STRING);

/// `library.Regex`.
pub(super) const REGEX: &[OverloadDecl] = &[
    m("find", "string_find_string", &[STRING, STRING], STRING),
    m(
        "findAll",
        "string_find_all_string",
        &[STRING, STRING],
        LIST_STRING,
    ),
    m(
        "findAll",
        "string_find_all_string_int",
        &[STRING, STRING, INT],
        LIST_STRING,
    ),
];

const LIST_INT: TypeSpec = TypeSpec::List(&INT);
const LIST_UINT: TypeSpec = TypeSpec::List(&UINT);
const LIST_DOUBLE: TypeSpec = TypeSpec::List(&DOUBLE);
const LIST_BOOL: TypeSpec = TypeSpec::List(&BOOL);
const LIST_DURATION: TypeSpec = TypeSpec::List(&DURATION);
const LIST_TIMESTAMP: TypeSpec = TypeSpec::List(&TIMESTAMP);
const LIST_BYTES: TypeSpec = TypeSpec::List(&BYTES);

/// `library.Lists`, version 0 (version 1 adds [`LISTS_V1`]).
pub(super) const LISTS_V0: &[OverloadDecl] = &[
    m("isSorted", "list_int_is_sorted_bool", &[LIST_INT], BOOL),
    m("isSorted", "list_uint_is_sorted_bool", &[LIST_UINT], BOOL),
    m(
        "isSorted",
        "list_double_is_sorted_bool",
        &[LIST_DOUBLE],
        BOOL,
    ),
    m("isSorted", "list_bool_is_sorted_bool", &[LIST_BOOL], BOOL),
    m(
        "isSorted",
        "list_duration_is_sorted_bool",
        &[LIST_DURATION],
        BOOL,
    ),
    m(
        "isSorted",
        "list_timestamp_is_sorted_bool",
        &[LIST_TIMESTAMP],
        BOOL,
    ),
    m(
        "isSorted",
        "list_string_is_sorted_bool",
        &[LIST_STRING],
        BOOL,
    ),
    m("isSorted", "list_bytes_is_sorted_bool", &[LIST_BYTES], BOOL),
    m("sum", "list_int_sum_int", &[LIST_INT], INT),
    m("sum", "list_uint_sum_uint", &[LIST_UINT], UINT),
    m("sum", "list_double_sum_double", &[LIST_DOUBLE], DOUBLE),
    m(
        "sum",
        "list_duration_sum_duration",
        &[LIST_DURATION],
        DURATION,
    ),
    m("max", "list_int_max_int", &[LIST_INT], INT),
    m("max", "list_uint_max_uint", &[LIST_UINT], UINT),
    m("max", "list_double_max_double", &[LIST_DOUBLE], DOUBLE),
    m("max", "list_bool_max_bool", &[LIST_BOOL], BOOL),
    m(
        "max",
        "list_duration_max_duration",
        &[LIST_DURATION],
        DURATION,
    ),
    m(
        "max",
        "list_timestamp_max_timestamp",
        &[LIST_TIMESTAMP],
        TIMESTAMP,
    ),
    m("max", "list_string_max_string", &[LIST_STRING], STRING),
    m("max", "list_bytes_max_bytes", &[LIST_BYTES], BYTES),
    m("min", "list_int_min_int", &[LIST_INT], INT),
    m("min", "list_uint_min_uint", &[LIST_UINT], UINT),
    m("min", "list_double_min_double", &[LIST_DOUBLE], DOUBLE),
    m("min", "list_bool_min_bool", &[LIST_BOOL], BOOL),
    m(
        "min",
        "list_duration_min_duration",
        &[LIST_DURATION],
        DURATION,
    ),
    m(
        "min",
        "list_timestamp_min_timestamp",
        &[LIST_TIMESTAMP],
        TIMESTAMP,
    ),
    m("min", "list_string_min_string", &[LIST_STRING], STRING),
    m("min", "list_bytes_min_bytes", &[LIST_BYTES], BYTES),
    m("indexOf", "list_a_index_of_int", &[LIST_A, A], INT),
    m("lastIndexOf", "list_a_last_index_of_int", &[LIST_A, A], INT),
];

/// `library.Lists(ListsVersion(1))` adds `includes`.
pub(super) const LISTS_V1: &[OverloadDecl] =
    &[m("includes", "list_includes_dyn_dyn", &[DYN, DYN], BOOL)];

/// `library.Authz`.
pub(super) const AUTHZ: &[OverloadDecl] = &[
    m("path", "authorizer_path", &[AUTHORIZER, STRING], PATH_CHECK),
    m(
        "group",
        "authorizer_group",
        &[AUTHORIZER, STRING],
        GROUP_CHECK,
    ),
    m(
        "serviceAccount",
        "authorizer_serviceaccount",
        &[AUTHORIZER, STRING, STRING],
        AUTHORIZER,
    ),
    m(
        "resource",
        "groupcheck_resource",
        &[GROUP_CHECK, STRING],
        RESOURCE_CHECK,
    ),
    m(
        "subresource",
        "resourcecheck_subresource",
        &[RESOURCE_CHECK, STRING],
        RESOURCE_CHECK,
    ),
    m(
        "namespace",
        "resourcecheck_namespace",
        &[RESOURCE_CHECK, STRING],
        RESOURCE_CHECK,
    ),
    m(
        "name",
        "resourcecheck_name",
        &[RESOURCE_CHECK, STRING],
        RESOURCE_CHECK,
    ),
    m("check", "pathcheck_check", &[PATH_CHECK, STRING], DECISION),
    m(
        "check",
        "resourcecheck_check",
        &[RESOURCE_CHECK, STRING],
        DECISION,
    ),
    m("errored", "decision_errored", &[DECISION], BOOL),
    m("error", "decision_error", &[DECISION], STRING),
    m("allowed", "decision_allowed", &[DECISION], BOOL),
    m("reason", "decision_reason", &[DECISION], STRING),
];

/// `library.AuthzSelectors`.
pub(super) const AUTHZ_SELECTORS: &[OverloadDecl] = &[
    m(
        "fieldSelector",
        "authorizer_fieldselector",
        &[RESOURCE_CHECK, STRING],
        RESOURCE_CHECK,
    ),
    m(
        "labelSelector",
        "authorizer_labelselector",
        &[RESOURCE_CHECK, STRING],
        RESOURCE_CHECK,
    ),
];

/// `library.Quantity`. `sign` is declared as a global function (`sign(q)`), as in the Go source.
pub(super) const QUANTITY_LIB: &[OverloadDecl] = &[
    g("quantity", "string_to_quantity", &[STRING], QUANTITY),
    g("isQuantity", "is_quantity_string", &[STRING], BOOL),
    g("sign", "quantity_sign", &[QUANTITY], INT),
    m(
        "isGreaterThan",
        "quantity_is_greater_than",
        &[QUANTITY, QUANTITY],
        BOOL,
    ),
    m(
        "isLessThan",
        "quantity_is_less_than",
        &[QUANTITY, QUANTITY],
        BOOL,
    ),
    m(
        "compareTo",
        "quantity_compare_to",
        &[QUANTITY, QUANTITY],
        INT,
    ),
    m(
        "asApproximateFloat",
        "quantity_get_float",
        &[QUANTITY],
        DOUBLE,
    ),
    m("asInteger", "quantity_get_int", &[QUANTITY], INT),
    m("isInteger", "quantity_is_integer", &[QUANTITY], BOOL),
    m("add", "quantity_add", &[QUANTITY, QUANTITY], QUANTITY),
    m("add", "quantity_add_int", &[QUANTITY, INT], QUANTITY),
    m("sub", "quantity_sub", &[QUANTITY, QUANTITY], QUANTITY),
    m("sub", "quantity_sub_int", &[QUANTITY, INT], QUANTITY),
];

/// `library.IP`.
pub(super) const IP_LIB: &[OverloadDecl] = &[
    g("ip", "string_to_ip", &[STRING], IP),
    m("family", "ip_family", &[IP], INT),
    g("ip.isCanonical", "ip_is_canonical", &[STRING], BOOL),
    m("isUnspecified", "ip_is_unspecified", &[IP], BOOL),
    m("isLoopback", "ip_is_loopback", &[IP], BOOL),
    m(
        "isLinkLocalMulticast",
        "ip_is_link_local_multicast",
        &[IP],
        BOOL,
    ),
    m(
        "isLinkLocalUnicast",
        "ip_is_link_local_unicast",
        &[IP],
        BOOL,
    ),
    m("isGlobalUnicast", "ip_is_global_unicast", &[IP], BOOL),
    g("isIP", "is_ip", &[STRING], BOOL),
    g("string", "ip_to_string", &[IP], STRING),
];

/// `library.CIDR`.
pub(super) const CIDR_LIB: &[OverloadDecl] = &[
    g("cidr", "string_to_cidr", &[STRING], CIDR),
    m(
        "containsIP",
        "cidr_contains_ip_string",
        &[CIDR, STRING],
        BOOL,
    ),
    m("containsIP", "cidr_contains_ip_ip", &[CIDR, IP], BOOL),
    m(
        "containsCIDR",
        "cidr_contains_cidr_string",
        &[CIDR, STRING],
        BOOL,
    ),
    m("containsCIDR", "cidr_contains_cidr", &[CIDR, CIDR], BOOL),
    m("ip", "cidr_ip", &[CIDR], IP),
    m("prefixLength", "cidr_prefix_length", &[CIDR], INT),
    m("masked", "cidr_masked", &[CIDR], CIDR),
    g("isCIDR", "is_cidr", &[STRING], BOOL),
    g("string", "cidr_to_string", &[CIDR], STRING),
];

const OPT_LIST_STRING: TypeSpec = TypeSpec::Opaque("optional_type", &[LIST_STRING]);
const OPT_FORMAT: TypeSpec = TypeSpec::Opaque("optional_type", &[FORMAT]);

/// `library.Format`: `validate`, `format.named` and one constant function per named format.
pub(super) const FORMAT_LIB: &[OverloadDecl] = &[
    m(
        "validate",
        "format-validate",
        &[FORMAT, STRING],
        OPT_LIST_STRING,
    ),
    g("format.named", "format-named", &[STRING], OPT_FORMAT),
    g("format.dns1123Label", "format.dns1123Label", &[], FORMAT),
    g(
        "format.dns1123Subdomain",
        "format.dns1123Subdomain",
        &[],
        FORMAT,
    ),
    g("format.dns1035Label", "format.dns1035Label", &[], FORMAT),
    g("format.qualifiedName", "format.qualifiedName", &[], FORMAT),
    g(
        "format.dns1123LabelPrefix",
        "format.dns1123LabelPrefix",
        &[],
        FORMAT,
    ),
    g(
        "format.dns1123SubdomainPrefix",
        "format.dns1123SubdomainPrefix",
        &[],
        FORMAT,
    ),
    g(
        "format.dns1035LabelPrefix",
        "format.dns1035LabelPrefix",
        &[],
        FORMAT,
    ),
    g("format.labelValue", "format.labelValue", &[], FORMAT),
    g("format.uri", "format.uri", &[], FORMAT),
    g("format.uuid", "format.uuid", &[], FORMAT),
    g("format.byte", "format.byte", &[], FORMAT),
    g("format.date", "format.date", &[], FORMAT),
    g("format.datetime", "format.datetime", &[], FORMAT),
];

/// `library.SemverLib(SemverVersion(1))`.
pub(super) const SEMVER_LIB: &[OverloadDecl] = &[
    g("semver", "string_to_semver", &[STRING], SEMVER),
    g("semver", "string_bool_to_semver", &[STRING, BOOL], SEMVER),
    g("isSemver", "is_semver_string", &[STRING], BOOL),
    g("isSemver", "is_semver_string_bool", &[STRING, BOOL], BOOL),
    m(
        "isGreaterThan",
        "semver_is_greater_than",
        &[SEMVER, SEMVER],
        BOOL,
    ),
    m("isLessThan", "semver_is_less_than", &[SEMVER, SEMVER], BOOL),
    m("compareTo", "semver_compare_to", &[SEMVER, SEMVER], INT),
    m("major", "semver_major", &[SEMVER], INT),
    m("minor", "semver_minor", &[SEMVER], INT),
    m("patch", "semver_patch", &[SEMVER], INT),
];

/// `library.JSONPatch`: only in mutating admission policies, never in CRD rules.
pub(super) const JSONPATCH: &[OverloadDecl] = &[g(
    "jsonpatch.escapeKey",
    "string_jsonpatch_escapeKey_string",
    &[STRING],
    STRING,
)];
