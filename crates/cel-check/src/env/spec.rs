//! Shorthands for writing the overload tables: type constants and `const fn` constructors.

use super::{Library, OverloadDecl};
use crate::types::TypeSpec;

pub(super) const DYN: TypeSpec = TypeSpec::Dyn;
pub(super) const BOOL: TypeSpec = TypeSpec::Bool;
pub(super) const INT: TypeSpec = TypeSpec::Int;
pub(super) const UINT: TypeSpec = TypeSpec::Uint;
pub(super) const DOUBLE: TypeSpec = TypeSpec::Double;
pub(super) const STRING: TypeSpec = TypeSpec::String;
pub(super) const BYTES: TypeSpec = TypeSpec::Bytes;
pub(super) const DURATION: TypeSpec = TypeSpec::Duration;
pub(super) const TIMESTAMP: TypeSpec = TypeSpec::Timestamp;
pub(super) const A: TypeSpec = TypeSpec::Param("A");
pub(super) const B: TypeSpec = TypeSpec::Param("B");
pub(super) const K: TypeSpec = TypeSpec::Param("K");
pub(super) const T: TypeSpec = TypeSpec::Param("T");
pub(super) const V: TypeSpec = TypeSpec::Param("V");
pub(super) const LIST_A: TypeSpec = TypeSpec::List(&A);
pub(super) const LIST_T: TypeSpec = TypeSpec::List(&T);
pub(super) const LIST_V: TypeSpec = TypeSpec::List(&V);
pub(super) const LIST_DYN: TypeSpec = TypeSpec::List(&DYN);
pub(super) const LIST_STRING: TypeSpec = TypeSpec::List(&STRING);
pub(super) const MAP_AB: TypeSpec = TypeSpec::Map(&A, &B);
pub(super) const MAP_KV: TypeSpec = TypeSpec::Map(&K, &V);
pub(super) const TYPE_A: TypeSpec = TypeSpec::TypeOf(&A);
pub(super) const OPT_V: TypeSpec = TypeSpec::Opaque("optional_type", &[V]);
pub(super) const OPT_LIST_V: TypeSpec = TypeSpec::Opaque("optional_type", &[LIST_V]);
pub(super) const OPT_MAP_KV: TypeSpec = TypeSpec::Opaque("optional_type", &[MAP_KV]);
pub(super) const LIST_OPT_V: TypeSpec = TypeSpec::List(&OPT_V);
pub(super) const URL: TypeSpec = TypeSpec::Object("kubernetes.URL");
pub(super) const QUANTITY: TypeSpec = TypeSpec::Object("kubernetes.Quantity");
pub(super) const SEMVER: TypeSpec = TypeSpec::Object("kubernetes.Semver");
pub(super) const FORMAT: TypeSpec = TypeSpec::Object("kubernetes.NamedFormat");
pub(super) const IP: TypeSpec = TypeSpec::Opaque("net.IP", &[]);
pub(super) const CIDR: TypeSpec = TypeSpec::Opaque("net.CIDR", &[]);
pub(super) const AUTHORIZER: TypeSpec = TypeSpec::Object("kubernetes.authorization.Authorizer");
pub(super) const PATH_CHECK: TypeSpec = TypeSpec::Object("kubernetes.authorization.PathCheck");
pub(super) const GROUP_CHECK: TypeSpec = TypeSpec::Object("kubernetes.authorization.GroupCheck");
pub(super) const RESOURCE_CHECK: TypeSpec =
    TypeSpec::Object("kubernetes.authorization.ResourceCheck");
pub(super) const DECISION: TypeSpec = TypeSpec::Object("kubernetes.authorization.Decision");

/// A global overload (`f(a, b)`). The library and versions are filled in from the
/// [`super::LibraryDecl`] that lists it.
pub(super) const fn g(
    function: &'static str,
    id: &'static str,
    params: &'static [TypeSpec],
    result: TypeSpec,
) -> OverloadDecl {
    OverloadDecl {
        function,
        id,
        receiver_style: false,
        params,
        result,
        since: (1, 0),
        removed: None,
        library: Library::Standard,
    }
}

/// A receiver-style overload (`a.f(b)`); `params[0]` is the receiver.
pub(super) const fn m(
    function: &'static str,
    id: &'static str,
    params: &'static [TypeSpec],
    result: TypeSpec,
) -> OverloadDecl {
    OverloadDecl {
        receiver_style: true,
        ..g(function, id, params, result)
    }
}
