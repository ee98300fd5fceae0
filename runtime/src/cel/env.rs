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

mod ext;
mod k8s;
mod spec;
mod standard;

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::ParseOptions;
use super::types::{Type, TypeSpec};
use super::{LISTS_MACROS, OPTIONAL_MACROS, STANDARD_MACROS, TWO_VAR_MACROS};
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
    KubernetesUrls,
    KubernetesRegex,
    KubernetesLists,
    KubernetesAuthz,
    KubernetesAuthzSelectors,
    KubernetesQuantity,
    KubernetesIp,
    KubernetesCidr,
    KubernetesFormat,
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
    pub params: &'static [TypeSpec],
    pub result: TypeSpec,
    /// The Kubernetes version that introduced it.
    pub since: Version,
    /// The Kubernetes version that removed it (a library replaced by a newer version).
    pub removed: Option<Version>,
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
    pub name: &'static str,
    pub ty: TypeSpec,
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

/// An overload ready for resolution (from the table or declared by a test environment).
#[derive(Clone, Debug)]
pub struct Overload {
    pub id: Cow<'static, str>,
    pub receiver_style: bool,
    pub params: Vec<Type>,
    pub result: Type,
    /// The type parameters the signature mentions (instantiated afresh at each call).
    pub type_params: Vec<String>,
}

impl Overload {
    /// An overload declared at run time; its type parameters are those its types mention.
    #[must_use]
    pub fn new(id: &str, receiver_style: bool, params: Vec<Type>, result: Type) -> Overload {
        let mut type_params = Vec::new();
        result.collect_params(&mut type_params);
        params
            .iter()
            .for_each(|p| p.collect_params(&mut type_params));
        Overload {
            id: Cow::Owned(id.to_string()),
            receiver_style,
            params,
            result,
            type_params,
        }
    }

    /// Instantiates a table entry.
    #[must_use]
    pub fn from_decl(d: &OverloadDecl) -> Overload {
        let mut tp = Vec::new();
        d.result.collect_params(&mut tp);
        d.params.iter().for_each(|p| p.collect_params(&mut tp));
        Overload {
            id: Cow::Borrowed(d.id),
            receiver_style: d.receiver_style,
            params: d.params.iter().map(Type::from_spec).collect(),
            result: Type::from_spec(&d.result),
            type_params: tp.into_iter().map(str::to_string).collect(),
        }
    }
}

/// What the checker declares: variables, functions and language options.
#[derive(Clone, Debug)]
pub struct CheckEnv {
    /// The Kubernetes version whose libraries are declared.
    pub version: Version,
    /// The libraries to declare (all of them for Kubernetes; only the standard library for
    /// cel-go's own checker tests).
    pub libraries: Vec<Library>,
    /// cel-go container (namespace) for name resolution; empty in Kubernetes.
    pub container: String,
    /// `HomogeneousAggregateLiterals`: the validator that list and map literals have elements
    /// of one type (on in Kubernetes from 1.0; `format` arguments are exempt from 1.29).
    pub homogeneous_aggregate_literals: bool,
    /// `CrossTypeNumericComparisons` (Kubernetes 1.28+).
    pub cross_type_numeric_comparisons: bool,
    /// The AST validators of Kubernetes 1.29+ (duration, timestamp and regex literals).
    pub ast_validators: bool,
    /// A selected reserved word `x.namespace` also finds the property `__namespace__`
    /// (Kubernetes 1.31+, `SetRecognizeKeywordAsFieldName`).
    pub keyword_field_names: bool,
    /// Global variables (`self`, `oldSelf`).
    pub variables: BTreeMap<String, Type>,
    /// Functions declared beyond the libraries, by name.
    pub functions: BTreeMap<String, Vec<Overload>>,
}

impl CheckEnv {
    /// The base environment of Kubernetes `version`, without variables.
    #[must_use]
    pub fn kubernetes(version: Version) -> CheckEnv {
        let mut libraries: Vec<Library> = LIBRARIES.iter().map(|l| l.library).collect();
        libraries.retain(|l| *l != Library::KubernetesJsonPatch);
        libraries.dedup();
        CheckEnv {
            version,
            libraries,
            container: String::new(),
            homogeneous_aggregate_literals: true,
            cross_type_numeric_comparisons: version >= (1, 28),
            ast_validators: version >= (1, 29),
            keyword_field_names: version >= (1, 31),
            variables: BTreeMap::new(),
            functions: BTreeMap::new(),
        }
    }

    /// cel-go's checker with only the standard library (its own tests' environment).
    #[must_use]
    pub fn standard() -> CheckEnv {
        CheckEnv {
            libraries: vec![Library::Standard],
            homogeneous_aggregate_literals: false,
            cross_type_numeric_comparisons: true,
            ast_validators: false,
            keyword_field_names: false,
            ..CheckEnv::kubernetes(NEWEST_VERSION)
        }
    }

    /// Declares a variable.
    #[must_use]
    pub fn with_variable(mut self, name: &str, t: Type) -> CheckEnv {
        self.variables.insert(name.to_string(), t);
        self
    }

    fn table(&self) -> impl Iterator<Item = &'static OverloadDecl> + '_ {
        OVERLOADS
            .iter()
            .filter(|o| o.available_in(self.version) && self.libraries.contains(&o.library))
    }

    /// Whether a function of that name is declared.
    #[must_use]
    pub fn has_function(&self, name: &str) -> bool {
        self.functions.contains_key(name) || self.table().any(|o| o.function == name)
    }

    /// The overloads of a function, in declaration order.
    #[must_use]
    pub fn overloads(&self, name: &str) -> Vec<Overload> {
        let mut out: Vec<Overload> = self
            .table()
            .filter(|o| o.function == name)
            .map(Overload::from_decl)
            .collect();
        if let Some(extra) = self.functions.get(name) {
            out.extend(extra.iter().cloned());
        }
        out
    }

    /// The type of a global identifier: a variable or a type name.
    #[must_use]
    pub fn global_ident(&self, name: &str) -> Option<Type> {
        if let Some(t) = self.variables.get(name) {
            return Some(t.clone());
        }
        TYPE_IDENTS
            .iter()
            .find(|t| t.name == name && self.version >= t.since && self.type_ident_enabled(t))
            .map(|t| Type::Type(Some(Box::new(Type::from_spec(&t.ty)))))
    }

    fn type_ident_enabled(&self, t: &TypeIdent) -> bool {
        match t.name {
            "optional_type" => self.libraries.contains(&Library::Optionals),
            "net.IP" => self.libraries.contains(&Library::KubernetesIp),
            "net.CIDR" => self.libraries.contains(&Library::KubernetesCidr),
            _ => true,
        }
    }

    /// cel-go `Container.ResolveCandidateNames`: `a.b.c.name`, `a.b.name`, `a.name`, `name`.
    #[must_use]
    pub fn candidate_names(&self, name: &str) -> Vec<String> {
        if let Some(q) = name.strip_prefix('.') {
            return vec![q.to_string()];
        }
        if self.container.is_empty() {
            return vec![name.to_string()];
        }
        let mut out = Vec::new();
        let mut cont = self.container.as_str();
        loop {
            out.push(format!("{cont}.{name}"));
            match cont.rfind('.') {
                Some(i) => cont = &cont[..i],
                None => break,
            }
        }
        out.push(name.to_string());
        out
    }

    /// Whether cel-go filters this overload out (cross-type comparisons before 1.28).
    #[must_use]
    pub fn overload_disabled(&self, id: &str) -> bool {
        !self.cross_type_numeric_comparisons && CROSS_TYPE_NUMERIC_COMPARISONS.contains(&id)
    }
}
