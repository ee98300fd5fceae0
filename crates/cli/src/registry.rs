//! What `crdgen validate` knows of the kinds it meets: the CRDs given with `--crd` or met earlier
//! in the input, then Kubernetes' built-in kinds ([`crdkit_builtin::schemas`]).
//!
//! Nothing is compiled up front: a CRD version's schema is compiled when the first object of it
//! comes (its CEL rules when they first run, [`crdkit_apiextensions::validate::CompiledSchema`]),
//! and the API server's check of a CRD given with `--crd` runs when it is first used. With a
//! bundle of many CRDs, an object costs only the version it needs.

use std::collections::HashMap;
use std::io::Write;

use serde_json::Value as Json;

use crate::load::Document;
use crate::report;
use crdkit_apiextensions::admission::{Admission, AdmissionError};
use crdkit_builtin::schemas::{Catalog, KubernetesVersion};
use crdkit_schema::crd::CustomResourceDefinition;

/// A CRD and where it was read.
struct Crd {
    position: String,
    crd: CustomResourceDefinition,
    /// Whether the API server's check of it has run (and warned, from `--crd`).
    checked: bool,
    /// Whether it came from `--crd` (checked on first use) or from the input (checked as an
    /// object).
    from_flag: bool,
}

/// The compiled resource an object is admitted by.
#[derive(Debug)]
pub struct Target {
    /// The object's `kind` (another kind than the resource's for an object sent to a CRD's
    /// resource by its group, which validation then rejects).
    pub kind: String,
    /// The compiled version.
    pub admission: Admission,
    /// The warning every request to this version gets: the version is deprecated
    /// ([`crdkit_apiextensions::versions::deprecation_warning`]).
    pub warning: Option<String>,
    /// The CRD of a custom kind (to read stored objects of its other versions).
    pub crd: Option<Box<CustomResourceDefinition>>,
}

impl Target {
    /// The stored object `old` as the API server reads it for an update at this target's
    /// version: unchanged at the same version; else decoded at its own version, converted with
    /// the `None` strategy and pruned to this version's schema
    /// ([`crdkit_apiextensions::codec::Codec`]).
    ///
    /// # Errors
    /// A message when `old` is of another version and the CRD converts through a webhook (or
    /// `old` cannot be converted).
    pub fn read_stored(&self, old: &Json) -> Result<Json, String> {
        let api_version = self.admission.api_version();
        let old_version = old
            .get("apiVersion")
            .and_then(Json::as_str)
            .unwrap_or_default();
        let Some(crd) = self.crd.as_deref() else {
            return Ok(old.clone());
        };
        if old_version == api_version || group_of(old_version) != group_of(api_version) {
            return Ok(old.clone());
        }
        let to = api_version.rsplit_once('/').map_or(api_version, |(_, v)| v);
        let strategy = crd
            .spec
            .conversion
            .as_ref()
            .map_or("None", |c| c.strategy.as_str());
        if strategy == "Webhook" {
            return Err(format!(
                "the stored object is at {old_version} and {} converts through a webhook: convert it first with `crdgen convert --to {to}`",
                crd.metadata.name.as_deref().unwrap_or_default()
            ));
        }
        crdkit_apiextensions::codec::Codec::new(crd)
            .and_then(|codec| codec.convert_none(old.clone(), to))
            .map_err(|e| format!("the stored object cannot be read at {api_version}: {e}"))
    }
}

/// Where an object goes.
pub enum Found {
    /// To the target at this index of [`Registry::target`].
    Target(usize),
    /// Nowhere: no CRD and no built-in kind has it (the message says so, as kubectl does).
    Unknown(String),
    /// Its CRD does not serve its version: the API server has no such resource (discovery does
    /// not list it, requests get a 404), so kubectl finds no mapping for it; the message says so.
    NotServed(String),
}

/// The kinds known so far.
pub struct Registry {
    crds: Vec<Crd>,
    version: KubernetesVersion,
    catalog: Option<Catalog>,
    targets: Vec<Target>,
    /// `(apiVersion, kind)` → target, for objects of the resource's own kind.
    index: HashMap<(String, String), usize>,
}

impl Registry {
    /// An empty registry whose built-in kinds are those of `version`.
    #[must_use]
    pub fn new(version: KubernetesVersion) -> Registry {
        Registry {
            crds: Vec::new(),
            version,
            catalog: None,
            targets: Vec::new(),
            index: HashMap::new(),
        }
    }

    /// Adds a CRD read at `position`; `from_flag` for `--crd` (and the built-in list), whose
    /// problems are printed as a warning on first use.
    pub fn add_crd(&mut self, position: String, crd: CustomResourceDefinition, from_flag: bool) {
        // A later CRD of the same resource replaces the earlier one, as an apply would.
        let names =
            |c: &CustomResourceDefinition| (c.spec.group.clone(), c.spec.names.kind.clone());
        let key = names(&crd);
        if let Some(i) = self.crds.iter().position(|c| names(&c.crd) == key) {
            self.crds.remove(i);
            self.index.retain(|(api_version, kind), _| {
                !(kind == &key.1 && group_of(api_version) == key.0)
            });
        }
        self.crds.push(Crd {
            position,
            crd,
            checked: false,
            from_flag,
        });
    }

    /// The target at `i`.
    #[must_use]
    pub fn target(&self, i: usize) -> &Target {
        &self.targets[i]
    }

    /// Finds (compiling it on first use) what admits `doc`.
    ///
    /// # Errors
    /// Why the object cannot be checked (its position is the caller's to add): it has no
    /// `apiVersion` or `kind`, or the schema it needs does not compile.
    pub fn find(&mut self, doc: &Document, err: &mut dyn Write) -> Result<Found, String> {
        let s = |k: &str| doc.value.get(k).and_then(Json::as_str).unwrap_or_default();
        let (api_version, kind) = (s("apiVersion"), s("kind"));
        if kind.is_empty() || api_version.is_empty() {
            return Err("the object has no `apiVersion` and `kind`".to_owned());
        }
        let key = (api_version.to_owned(), kind.to_owned());
        if let Some(&i) = self.index.get(&key) {
            return Ok(Found::Target(i));
        }
        let group = group_of(api_version);
        let version = api_version.rsplit_once('/').map_or(api_version, |(_, v)| v);
        let own = self
            .crds
            .iter()
            .position(|c| c.crd.spec.group == group && c.crd.spec.names.kind == kind);
        if let Some(i) = own
            && let Some(message) = self.not_served(i, api_version, version, kind)
        {
            return Ok(Found::NotServed(message));
        }
        let target = if let Some(i) = own {
            self.crd_target(i, version, kind, err)?
        } else if let Some(t) = self.builtin_target(api_version, kind)? {
            t
        } else if let Some(i) = self.only_crd_of(group) {
            // An object of another kind in the group of exactly one CRD is taken as sent to
            // that CRD's resource, whose validation rejects it (`kind: Invalid value`), as the
            // API server answers a client that posts it there (test/integration/
            // validation_test.go TestForProperValidationErrors "bad kind"). With several CRDs in
            // the group, the resource meant is unknown. Not cached: it depends on the CRDs known.
            if let Some(message) = self.not_served(i, api_version, version, kind) {
                return Ok(Found::NotServed(message));
            }
            let t = self.crd_target(i, version, kind, err)?;
            self.targets.push(t);
            return Ok(Found::Target(self.targets.len() - 1));
        } else {
            return Ok(Found::Unknown(format!(
                "no matches for kind {} in version {}: no CRD given defines it, and it is not \
                 a built-in kind of Kubernetes {}",
                crdkit_apimachinery::gofmt::quote(kind),
                crdkit_apimachinery::gofmt::quote(api_version),
                self.version
            )));
        };
        self.targets.push(target);
        let i = self.targets.len() - 1;
        self.index.insert(key, i);
        Ok(Found::Target(i))
    }

    /// Why CRD `i` does not serve `version`, in kubectl's words (`no matches for kind`), or
    /// `None` when it does.
    fn not_served(&self, i: usize, api_version: &str, version: &str, kind: &str) -> Option<String> {
        let c = &self.crds[i];
        let served = crdkit_apiextensions::versions::served_versions(&c.crd);
        let why = match crdkit_apiextensions::versions::version(&c.crd, version) {
            Some(v) if v.served => return None,
            Some(_) => format!("the CRD at {} does not serve version {version}", c.position),
            None => format!("the CRD at {} has no version {version}", c.position),
        };
        let served = if served.is_empty() {
            "none".to_owned()
        } else {
            served.join(", ")
        };
        Some(format!(
            "no matches for kind {} in version {}: {why} (served: {served})",
            crdkit_apimachinery::gofmt::quote(kind),
            crdkit_apimachinery::gofmt::quote(api_version),
        ))
    }

    fn only_crd_of(&self, group: &str) -> Option<usize> {
        let mut of_group = self
            .crds
            .iter()
            .enumerate()
            .filter(|(_, c)| c.crd.spec.group == group);
        match (of_group.next(), of_group.next()) {
            (Some((i, _)), None) => Some(i),
            _ => None,
        }
    }

    fn builtin_target(&mut self, api_version: &str, kind: &str) -> Result<Option<Target>, String> {
        let catalog = self
            .catalog
            .get_or_insert_with(|| Catalog::new(self.version));
        match catalog.schema(api_version, kind) {
            None => Ok(None),
            Some(Err(e)) => Err(e),
            Some(Ok(schema)) => Ok(Some(Target {
                kind: kind.to_owned(),
                admission: Admission::for_schema(api_version, kind, &schema),
                warning: None,
                crd: None,
            })),
        }
    }

    fn crd_target(
        &mut self,
        i: usize,
        version: &str,
        kind: &str,
        err: &mut dyn Write,
    ) -> Result<Target, String> {
        let entry = &mut self.crds[i];
        let (position, crd) = (&entry.position, &entry.crd);
        let resource = &crd.spec.names.kind;
        let Some(v) = crd.spec.versions.iter().find(|v| v.name == version) else {
            return Err(format!(
                "the CRD at {position} has no version {version} of {resource}"
            ));
        };
        if v.schema
            .as_ref()
            .and_then(|s| s.open_api_v3_schema.as_ref())
            .is_none()
        {
            return Err(format!(
                "version {version} of {resource} has no schema (the CRD at {position})"
            ));
        }
        // A CRD the API server would reject serves nothing; still validate against what it
        // says (schemas in tests often skip the CRD's other requirements), and say so, once.
        if entry.from_flag && !entry.checked {
            entry.checked = true;
            let problems = crdkit_crd::crd_check::check_crd_full(crd);
            if !problems.is_empty() {
                let _ = writeln!(
                    err,
                    "Warning: {position}: the API server would reject this CRD: {}",
                    report::kubectl_invalid(
                        "CustomResourceDefinition",
                        crd.metadata.name.as_deref().unwrap_or_default(),
                        &problems
                    )
                );
            }
        }
        let admission = Admission::new(crd, version).map_err(|e| match e {
            AdmissionError::Schema(e) => {
                format!("the CRD at {position} does not compile: {e}")
            }
            e => e.to_string(),
        })?;
        Ok(Target {
            kind: kind.to_owned(),
            admission,
            warning: crdkit_apiextensions::versions::deprecation_warning(crd, version),
            crd: Some(Box::new(crd.clone())),
        })
    }
}

/// The group of an `apiVersion` (`""` for the core group's `v1`).
fn group_of(api_version: &str) -> &str {
    api_version.rsplit_once('/').map_or("", |(g, _)| g)
}
