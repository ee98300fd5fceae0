//! The resources Kubernetes 1.35 serves with its default configuration: every group, version and
//! resource of `/api` and `/apis` discovery, with the kind, scope, verbs, short names,
//! categories, subresources, storage version and name rule of each.
//!
//! Sources (read for their facts, not copied):
//! - the published OpenAPI (`api/openapi-spec/swagger.json` of v1.35.4, as
//!   `kube-rs/k8s-pb` carries it): the paths give each resource's verbs (the operations'
//!   `x-kubernetes-action`: `post` is `create`, `put` `update`, `watch` and `watchlist` `watch`;
//!   a `connect` operation gives the verb of its HTTP method, `head` and `options` none), its
//!   scope (a path under `/namespaces/{namespace}/`) and its subresources with their kinds; the
//!   generator's `check` compares this table with them;
//! - which group versions are on: kubernetes `pkg/controlplane/instance.go`
//!   (`DefaultAPIResourceConfigSource`: the GA versions; no beta API is on by default since 1.24
//!   and the last legacy beta resources, `flowcontrol/v1beta3`, went in 1.32);
//! - short names and categories: each resource's `pkg/registry/**/storage/storage.go`
//!   (`ShortNames()`, `Categories()`; `api-extensions` from the admissionregistration,
//!   apiextensions-apiserver and kube-aggregator registries);
//! - group order and preferred versions: kube-aggregator's APIService priorities
//!   (`pkg/controlplane/apiserver/aggregator.go`, `DefaultGenericAPIServicePriorities` and the
//!   kube-apiserver ones);
//! - storage versions: the preferred version of each group (`SetVersionPriority` in
//!   `pkg/apis/*/install`), Events of `events.k8s.io` cohabiting with core Events
//!   (`pkg/kubeapiserver/default_storage_factory_builder.go`).
//!
//! The kinds of connect subresources (`pods/exec` is `PodExecOptions`) are Kubernetes'; k8s-pb
//! rewrites them to `Pod` in its copy of the paths.
//!
//! ```
//! use crdkit_builtin::resources;
//!
//! let pods = resources::find("", "v1", "pods").unwrap();
//! assert_eq!(pods.kind, "Pod");
//! assert_eq!(pods.short_names, ["po"]);
//! assert!(pods.categories.contains(&"all"));
//! let eviction = pods.subresource("eviction").unwrap();
//! assert_eq!(eviction.group_version(pods), ("policy", "v1"));
//! assert_eq!(resources::preferred_version("autoscaling"), Some("v2"));
//! ```

mod table;

use crate::names::NameRule;

/// A group, version and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gvk {
    /// `apps`; empty for the core group.
    pub group: &'static str,
    /// `v1`.
    pub version: &'static str,
    /// `Deployment`.
    pub kind: &'static str,
}

/// A resource of discovery (`APIResource`), with what the API server knows of it besides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The group; empty for the core group (`/api/v1`).
    pub group: &'static str,
    /// The version.
    pub version: &'static str,
    /// The plural name in paths (`deployments`).
    pub name: &'static str,
    /// The kind of its objects.
    pub kind: &'static str,
    /// Whether objects live in namespaces.
    pub namespaced: bool,
    /// Discovery's verbs, sorted.
    pub verbs: &'static [&'static str],
    /// `ShortNames()` of its storage.
    pub short_names: &'static [&'static str],
    /// `Categories()` of its storage (`all`, `api-extensions`).
    pub categories: &'static [&'static str],
    /// Its subresources, sorted by name.
    pub subresources: &'static [Subresource],
    /// The version objects are stored (and `storageVersionHash` computed) in; `None` for
    /// resources that are never stored (reviews, `bindings`, `componentstatuses`).
    pub storage: Option<Gvk>,
    /// How `metadata.name` is validated.
    pub name_rule: NameRule,
    /// The warning every request gets (`Warning` header), for deprecated resources.
    pub deprecation: Option<&'static str>,
}

/// A subresource (`pods/status`, `deployments/scale`, `pods/log`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Subresource {
    /// `status`.
    pub name: &'static str,
    /// The group and version of its kind when they are not its resource's
    /// (`deployments/scale` is `autoscaling/v1` `Scale`).
    pub group_version: Option<(&'static str, &'static str)>,
    /// The kind it reads and writes.
    pub kind: &'static str,
    /// Discovery's verbs, sorted.
    pub verbs: &'static [&'static str],
    /// Whether crdkit's server serves it (`status`, `scale`); the others (`log`, `exec`,
    /// `eviction`, `token`, `proxy`, ...) need a node, a kubelet or a token signer.
    pub served: bool,
}

impl Subresource {
    /// The group and version of the subresource's kind.
    #[must_use]
    pub fn group_version(&self, of: &Resource) -> (&'static str, &'static str) {
        self.group_version.unwrap_or((of.group, of.version))
    }
}

impl Resource {
    /// `apps/v1`, or `v1` for the core group.
    #[must_use]
    pub fn api_version(&self) -> String {
        if self.group.is_empty() {
            self.version.to_owned()
        } else {
            format!("{}/{}", self.group, self.version)
        }
    }

    /// Discovery's `singularName`: the lowercased kind, as every built-in storage names it.
    #[must_use]
    pub fn singular(&self) -> String {
        self.kind.to_ascii_lowercase()
    }

    /// The subresource `name`.
    #[must_use]
    pub fn subresource(&self, name: &str) -> Option<&'static Subresource> {
        self.subresources.iter().find(|s| s.name == name)
    }

    /// Whether `verb` (`create`, `watch`, ...) is one of its verbs.
    #[must_use]
    pub fn supports(&self, verb: &str) -> bool {
        self.verbs.contains(&verb)
    }
}

/// A group as `/apis` lists it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Group {
    /// `apps`; empty for the core group.
    pub name: &'static str,
    /// The served versions, the preferred one first.
    pub versions: &'static [&'static str],
    /// kube-aggregator's group priority: groups are listed by it, highest first (ties by name).
    pub priority: u32,
}

/// Every served resource, by group, version and name.
#[must_use]
pub fn all() -> &'static [Resource] {
    table::RESOURCES
}

/// The served groups in discovery order (the core group first).
#[must_use]
pub fn groups() -> &'static [Group] {
    table::GROUPS
}

/// The resource `name` (plural) of `group`/`version`.
#[must_use]
pub fn find(group: &str, version: &str, name: &str) -> Option<&'static Resource> {
    all()
        .iter()
        .find(|r| r.group == group && r.version == version && r.name == name)
}

/// The resource whose objects are `group`/`version` `kind`.
#[must_use]
pub fn by_kind(group: &str, version: &str, kind: &str) -> Option<&'static Resource> {
    all()
        .iter()
        .find(|r| r.group == group && r.version == version && r.kind == kind)
}

/// The preferred version of `group` (`v1` for the core group `""`).
#[must_use]
pub fn preferred_version(group: &str) -> Option<&'static str> {
    groups()
        .iter()
        .find(|g| g.name == group)
        .and_then(|g| g.versions.first().copied())
}

/// The resources `name` can mean to kubectl, in discovery order: a plural, singular or short
/// name, or a category (`all`), as `kubectl get NAME` resolves it against discovery (preferred
/// versions only).
#[must_use]
pub fn resolve(name: &str) -> Vec<&'static Resource> {
    let preferred = |r: &&Resource| preferred_version(r.group) == Some(r.version);
    let by_name: Vec<&Resource> = all()
        .iter()
        .filter(preferred)
        .filter(|r| r.name == name || r.singular() == name || r.short_names.contains(&name))
        .collect();
    if !by_name.is_empty() {
        return by_name;
    }
    let mut in_category: Vec<&Resource> = all()
        .iter()
        .filter(preferred)
        .filter(|r| r.categories.contains(&name))
        .collect();
    let rank = |r: &Resource| groups().iter().position(|g| g.name == r.group);
    in_category.sort_by_key(|r| rank(r));
    in_category
}
