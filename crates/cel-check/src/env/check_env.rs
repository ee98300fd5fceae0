//! The checker's view of an environment (cel-go `checker/env.go`): the declared variables and
//! functions of a Kubernetes version, container name resolution and the language options.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::CROSS_TYPE_NUMERIC_COMPARISONS;
use super::{
    LIBRARIES, Library, NEWEST_VERSION, OVERLOADS, OverloadDecl, TYPE_IDENTS, TypeIdent, Version,
};
use crate::types::Type;

/// An overload ready for resolution (from the table or declared by a test environment).
#[derive(Clone, Debug)]
pub struct Overload {
    /// cel-go's overload id (`add_int64`), as reported in the checker's reference table.
    pub id: Cow<'static, str>,
    /// `x.f(y)` rather than `f(x, y)`; the receiver is `params[0]`.
    pub receiver_style: bool,
    /// The parameter types, the receiver first for receiver-style overloads.
    pub params: Vec<Type>,
    /// The result type, in terms of the type parameters.
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
