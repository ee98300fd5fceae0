//! The Kubernetes CEL environment for CRD rules, by Kubernetes version: apiserver
//! `pkg/cel/environment/base.go` (`baseOpts`) over cel-go's standard library and extensions,
//! extended with `self` and `oldSelf` as apiextensions `pkg/apiserver/schema/cel/compilation.go`
//! does (`prepareEnvSet`).
//!
//! The function declarations are `const` data ([`OVERLOADS`], [`TYPE_IDENTS`]) so that a
//! `const fn` checker (in the derive) reads the same table as the run-time checker. Libraries
//! are listed in the order `baseOpts` adds them, which is the order cel-go merges overloads of
//! the same function in.
//!
//! | since | library |
//! |---|---|
//! | 1.0 | standard, `library.URLs`, `library.Regex`, `library.Lists` v0 (until 1.37), strings ext v0 (until 1.29) |
//! | 1.27 | `library.Authz` (unusable in CRD rules: no `authorizer` variable) |
//! | 1.28 | `CrossTypeNumericComparisons`, optional types, `library.Quantity` |
//! | 1.29 | AST validators, strings ext v2, sets ext |
//! | 1.30 | `library.IP`, `library.CIDR` |
//! | 1.31 | `library.Format`, `library.AuthzSelectors`, reserved words as field names |
//! | 1.32 | two-variable comprehensions |
//! | 1.33 | `library.SemverLib` v1 |
//! | 1.34 | lists ext v3 |
//! | 1.37 | `library.Lists` v1 (`includes`) |

mod check_env;
mod ext;
mod k8s;
mod spec;
mod standard;

use super::ParseOptions;
use super::types::TypeSpec;
use super::{LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS};
pub use check_env::{CheckEnv, Overload};
pub use standard::CROSS_TYPE_NUMERIC_COMPARISONS;

/// A Kubernetes `major.minor` version.
pub type Version = (u32, u32);

/// The newest Kubernetes version this table describes (the apiserver snapshot's binary version).
pub const NEWEST_VERSION: Version = (1, 37);
/// The version the API server compiles new expressions with (`DefaultCompatibilityVersion`,
/// one minor version below the binary version).
pub const DEFAULT_COMPATIBILITY_VERSION: Version = (1, 36);

/// Which library declares an overload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Library {
    /// cel-go standard library.
    Standard,
    /// `ext.Strings` (v0 before 1.29, v2 from 1.29).
    Strings,
    /// `ext.Sets`.
    Sets,
    /// `ext.Lists` v3.
    Lists,
    /// `cel.OptionalTypes`.
    Optionals,
    /// `ext.TwoVarComprehensions`.
    TwoVarComprehensions,
    /// `library.URLs`: `url(s)`, `isURL(s)`, `getHost()`, `getQuery()`, …
    KubernetesUrls,
    /// `library.Regex`: `find(re)`, `findAll(re)`.
    KubernetesRegex,
    /// `library.Lists`: `isSorted()`, `sum()`, `min()`, `max()`, `indexOf(x)`, `lastIndexOf(x)`,
    /// and from 1.37 `includes(x)`.
    KubernetesLists,
    /// `library.Authz`: `authorizer.group(..).resource(..).check(..)`; CRD rules have no
    /// `authorizer` variable.
    KubernetesAuthz,
    /// `library.AuthzSelectors`: `fieldSelector(s)` and `labelSelector(s)` on authorizer checks.
    KubernetesAuthzSelectors,
    /// `library.Quantity`: `quantity('1Gi')`, `isQuantity(s)`, `add`, `sub`, `compareTo`, …
    KubernetesQuantity,
    /// `library.IP`: `ip(s)`, `isIP(s)`, `family()`, `isLoopback()`, …
    KubernetesIp,
    /// `library.CIDR`: `cidr(s)`, `isCIDR(s)`, `containsIP(ip)`, `prefixLength()`, …
    KubernetesCidr,
    /// `library.Format`: `format.dns1123Label().validate(s)` and the other named formats.
    KubernetesFormat,
    /// `library.SemverLib`: `semver(s)`, `isSemver(s)`, `major()`, `isGreaterThan(v)`, …
    KubernetesSemver,
    /// `library.JSONPatch` (mutating admission policies only; not in [`CheckEnv::kubernetes`]).
    KubernetesJsonPatch,
}

/// One overload of a function.
#[derive(Clone, Copy, Debug)]
pub struct OverloadDecl {
    /// The function name (`_+_`, `size`, `sets.contains`).
    pub function: &'static str,
    /// cel-go's overload id (`add_int64`).
    pub id: &'static str,
    /// `x.f(y)` rather than `f(x, y)`; the receiver is `params[0]`.
    pub receiver_style: bool,
    /// The parameter types, the receiver first for receiver-style overloads; type parameters
    /// (`A`, `B`) bind across parameters and result.
    pub params: &'static [TypeSpec],
    /// The result type.
    pub result: TypeSpec,
    /// The Kubernetes version that introduced it.
    pub since: Version,
    /// The Kubernetes version that removed it (a library replaced by a newer version).
    pub removed: Option<Version>,
    /// The library that declares it.
    pub library: Library,
}

impl OverloadDecl {
    /// Whether the overload is in the environment of Kubernetes `v`.
    #[must_use]
    pub const fn available_in(&self, v: Version) -> bool {
        let after = v.0 > self.since.0 || (v.0 == self.since.0 && v.1 >= self.since.1);
        let before = match self.removed {
            None => true,
            Some(r) => v.0 < r.0 || (v.0 == r.0 && v.1 < r.1),
        };
        after && before
    }
}

/// A library as `baseOpts` adds it.
struct LibraryDecl {
    library: Library,
    since: Version,
    removed: Option<Version>,
    overloads: &'static [OverloadDecl],
}

const fn lib(
    library: Library,
    since: Version,
    removed: Option<Version>,
    overloads: &'static [OverloadDecl],
) -> LibraryDecl {
    LibraryDecl {
        library,
        since,
        removed,
        overloads,
    }
}

use Library as L;
const LIBRARIES: &[LibraryDecl] = &[
    lib(L::Standard, (1, 0), None, standard::STANDARD),
    lib(L::KubernetesUrls, (1, 0), None, k8s::URLS),
    lib(L::KubernetesRegex, (1, 0), None, k8s::REGEX),
    lib(L::KubernetesLists, (1, 0), Some((1, 37)), k8s::LISTS_V0),
    lib(L::KubernetesAuthz, (1, 27), None, k8s::AUTHZ),
    lib(L::Optionals, (1, 28), None, ext::OPTIONALS),
    lib(L::KubernetesQuantity, (1, 28), None, k8s::QUANTITY_LIB),
    lib(L::Strings, (1, 0), Some((1, 29)), ext::STRINGS_V0),
    lib(L::Strings, (1, 0), Some((1, 29)), ext::STRINGS_JOIN),
    lib(L::Strings, (1, 29), None, ext::STRINGS_V0),
    lib(L::Strings, (1, 29), None, ext::STRINGS_V1),
    lib(L::Strings, (1, 29), None, ext::STRINGS_JOIN),
    lib(L::Sets, (1, 29), None, ext::SETS),
    lib(L::KubernetesIp, (1, 30), None, k8s::IP_LIB),
    lib(L::KubernetesCidr, (1, 30), None, k8s::CIDR_LIB),
    lib(L::KubernetesFormat, (1, 31), None, k8s::FORMAT_LIB),
    lib(
        L::KubernetesAuthzSelectors,
        (1, 31),
        None,
        k8s::AUTHZ_SELECTORS,
    ),
    lib(
        L::TwoVarComprehensions,
        (1, 32),
        None,
        ext::TWO_VAR_COMPREHENSIONS,
    ),
    lib(L::KubernetesSemver, (1, 33), None, k8s::SEMVER_LIB),
    lib(L::Lists, (1, 34), None, ext::LISTS_V3),
    lib(L::KubernetesLists, (1, 37), None, k8s::LISTS_V0),
    lib(L::KubernetesLists, (1, 37), None, k8s::LISTS_V1),
    lib(L::KubernetesJsonPatch, (1, 32), None, k8s::JSONPATCH),
];

const OVERLOAD_COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < LIBRARIES.len() {
        n += LIBRARIES[i].overloads.len();
        i += 1;
    }
    n
};

const fn flatten() -> [OverloadDecl; OVERLOAD_COUNT] {
    let mut out = [standard::STANDARD[0]; OVERLOAD_COUNT];
    let (mut i, mut n) = (0, 0);
    while i < LIBRARIES.len() {
        let l = &LIBRARIES[i];
        let mut j = 0;
        while j < l.overloads.len() {
            let mut o = l.overloads[j];
            o.library = l.library;
            o.since = l.since;
            o.removed = l.removed;
            out[n] = o;
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// Every overload of every version, in the order cel-go declares them. Filter with
/// [`OverloadDecl::available_in`].
pub const OVERLOADS: &[OverloadDecl] = &flatten();

/// A type name usable as an identifier (`int`, `net.IP`), whose type is `type(T)`.
#[derive(Clone, Copy, Debug)]
pub struct TypeIdent {
    /// The name as written in expressions.
    pub name: &'static str,
    /// The type it names; the identifier itself has type `type(ty)`.
    pub ty: TypeSpec,
    /// The Kubernetes version from which the name resolves.
    pub since: Version,
}

const fn type_ident(name: &'static str, ty: TypeSpec, since: Version) -> TypeIdent {
    TypeIdent { name, ty, since }
}

/// cel-go `stdTypes`, the optional type and the types the IP and CIDR libraries register.
pub const TYPE_IDENTS: &[TypeIdent] = &[
    type_ident("bool", spec::BOOL, (1, 0)),
    type_ident("bytes", spec::BYTES, (1, 0)),
    type_ident("double", spec::DOUBLE, (1, 0)),
    type_ident("google.protobuf.Duration", spec::DURATION, (1, 0)),
    type_ident("int", spec::INT, (1, 0)),
    type_ident("list", spec::LIST_A, (1, 0)),
    type_ident("map", spec::MAP_AB, (1, 0)),
    type_ident("null_type", TypeSpec::Null, (1, 0)),
    type_ident("string", spec::STRING, (1, 0)),
    type_ident("google.protobuf.Timestamp", spec::TIMESTAMP, (1, 0)),
    type_ident("type", TypeSpec::Type, (1, 0)),
    type_ident("uint", spec::UINT, (1, 0)),
    type_ident(
        "optional_type",
        TypeSpec::Opaque("optional_type", &[spec::DYN]),
        (1, 28),
    ),
    type_ident("net.IP", spec::IP, (1, 30)),
    type_ident("net.CIDR", spec::CIDR, (1, 30)),
];

/// The parser settings of Kubernetes `v`: the macros of the enabled libraries and the
/// optional syntax from 1.28.
#[must_use]
pub fn parse_options(v: Version) -> ParseOptions {
    let mut macros = STANDARD_MACROS.to_vec();
    if v >= (1, 32) {
        macros.extend_from_slice(TWO_VAR_MACROS);
    }
    if v >= (1, 28) {
        macros.extend_from_slice(OPTIONAL_MACROS);
    }
    if v >= (1, 34) {
        macros.extend_from_slice(LISTS_MACROS);
    }
    ParseOptions {
        macros,
        enable_optional_syntax: v >= (1, 28),
        ..ParseOptions::default()
    }
}
