//! Storage version migration over kube-rs: the versioning page's "Upgrade existing objects to a
//! new stored version", option 2, as a library function.
//!
//! 1. Read the CRD: its storage version and `status.storedVersions`.
//! 2. List the objects at the storage version, a page at a time (continue tokens), and write
//!    each back unchanged, so that the API server stores it at the storage version. The write is
//!    the one the in-tree migrator makes (kubernetes `pkg/controller/storageversionmigrator`):
//!    a server-side apply patch carrying only `apiVersion`, `kind`, `metadata.uid` and
//!    `metadata.resourceVersion`. It changes no field, yet the API server re-encodes the object
//!    at the storage version and, since the bytes differ from the stored ones, writes them
//!    (apiserver `storage/etcd3/store.go` `GuaranteedUpdate` skips only identical bytes). A
//!    `409 Conflict` means the object changed or was re-created since it was listed, so it has
//!    been written at the storage version already; a `404` means it is gone: both are skipped.
//! 3. Set `status.storedVersions` to the storage version alone, if the storage version is still
//!    the one migrated to (guarded by the CRD's `resourceVersion`).
//!
//! Resumable: [`StorageMigration::progress`] keeps the continue token of the page in hand, and
//! [`StorageMigration::run`] called again after an error carries on from that page (a token
//! that has expired, `410 Gone`, restarts the listing). Safe to run twice: rewriting an object
//! already at the storage version stores nothing new, and a CRD whose `storedVersions` is
//! already the storage version alone is left alone.
//!
//! Tested against a mock API server (kube's tower-test, as `tests/integration` does): the real
//! local API server of this project is built elsewhere.

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, ListParams, Patch, PatchParams};
use kube::{Client, ResourceExt};
use serde_json::json;

/// The field manager of the rewrites.
pub const FIELD_MANAGER: &str = "crdkit-storage-version-migrator";

/// Listings restarted in one run after a continue token expired (`410 Gone`).
const MAX_RESTARTS: u32 = 3;

/// Objects listed per request.
pub const DEFAULT_PAGE_SIZE: u32 = 500;

/// A storage version migration of one CRD; see the [module](self) documentation.
#[derive(Clone)]
pub struct StorageMigration {
    client: Client,
    crd_name: String,
    page_size: u32,
    progress: Progress,
}

/// How far a migration got.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// The continue token of the next page to rewrite; `None` at the start.
    pub continue_token: Option<String>,
    /// Objects written back at the storage version.
    pub rewritten: u64,
    /// Objects skipped: changed (`409`) or deleted (`404`) since they were listed.
    pub skipped: u64,
}

/// What a finished migration did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MigrationReport {
    /// The storage version every object is now stored at.
    pub storage_version: String,
    /// `status.storedVersions` before.
    pub stored_versions_before: Vec<String>,
    /// `status.storedVersions` after: the storage version alone.
    pub stored_versions_after: Vec<String>,
    /// Objects written back, over every run of this migration.
    pub rewritten: u64,
    /// Objects skipped (changed or deleted meanwhile), over every run.
    pub skipped: u64,
}

/// Why a migration stopped. [`StorageMigration::run`] may be called again.
#[derive(Debug, thiserror::Error)]
pub enum MigrationError {
    /// A request failed; the migration resumes from the page it was on.
    #[error("{what}: {source}")]
    Kube {
        /// What was being done: `listing example.com/v1 crontabs`, `rewriting default/a`.
        what: String,
        /// kube's error.
        #[source]
        source: kube::Error,
    },
    /// The CRD has no version with `storage: true`.
    #[error("CustomResourceDefinition {0} has no storage version")]
    NoStorageVersion(String),
    /// The storage version changed while objects were being rewritten: run again.
    #[error(
        "the storage version of {crd} changed from {from} to {to} during the migration; run it again"
    )]
    StorageVersionChanged {
        /// The CRD.
        crd: String,
        /// The version migrated to.
        from: String,
        /// The storage version now.
        to: String,
    },
}

fn kube_err(what: impl Into<String>) -> impl FnOnce(kube::Error) -> MigrationError {
    let what = what.into();
    move |source| MigrationError::Kube { what, source }
}

fn api_code(e: &kube::Error) -> Option<u16> {
    match e {
        kube::Error::Api(status) => Some(status.code),
        _ => None,
    }
}

fn storage_version(crd: &CustomResourceDefinition) -> Option<&str> {
    crd.spec
        .versions
        .iter()
        .find(|v| v.storage)
        .map(|v| v.name.as_str())
}

fn stored_versions(crd: &CustomResourceDefinition) -> Vec<String> {
    crd.status
        .as_ref()
        .and_then(|s| s.stored_versions.clone())
        .unwrap_or_default()
}

impl StorageMigration {
    /// A migration of the CRD named `crd_name` (`crontabs.example.com`).
    #[must_use]
    pub fn new(client: Client, crd_name: impl Into<String>) -> StorageMigration {
        StorageMigration {
            client,
            crd_name: crd_name.into(),
            page_size: DEFAULT_PAGE_SIZE,
            progress: Progress::default(),
        }
    }

    /// Objects listed per request (default 500, the API server's and kube-rs's usual page).
    #[must_use]
    pub fn page_size(mut self, objects: u32) -> StorageMigration {
        self.page_size = objects.max(1);
        self
    }

    /// Starts from a continue token saved from [`Progress::continue_token`] of an earlier
    /// process.
    #[must_use]
    pub fn resume_from(mut self, continue_token: impl Into<String>) -> StorageMigration {
        self.progress.continue_token = Some(continue_token.into());
        self
    }

    /// How far the migration got.
    #[must_use]
    pub fn progress(&self) -> &Progress {
        &self.progress
    }

    /// Runs the migration to the end, or to the first error (then run again to resume).
    ///
    /// # Errors
    /// [`MigrationError`]: a request failed, the CRD has no storage version, or the storage
    /// version changed meanwhile.
    pub async fn run(&mut self) -> Result<MigrationReport, MigrationError> {
        let crds: Api<CustomResourceDefinition> = Api::all(self.client.clone());
        let crd = crds.get(&self.crd_name).await.map_err(kube_err(format!(
            "reading CustomResourceDefinition {}",
            self.crd_name
        )))?;
        let storage = storage_version(&crd)
            .ok_or_else(|| MigrationError::NoStorageVersion(self.crd_name.clone()))?
            .to_owned();
        let before = stored_versions(&crd);
        if before != [storage.as_str()] || self.progress.continue_token.is_some() {
            self.rewrite_all(&crd, &storage).await?;
        }
        let after = self.trim_stored_versions(&crds, &storage).await?;
        let report = MigrationReport {
            storage_version: storage,
            stored_versions_before: before,
            stored_versions_after: after,
            rewritten: self.progress.rewritten,
            skipped: self.progress.skipped,
        };
        self.progress = Progress::default();
        Ok(report)
    }

    /// Every object, written back at `storage`, page after page.
    async fn rewrite_all(
        &mut self,
        crd: &CustomResourceDefinition,
        storage: &str,
    ) -> Result<(), MigrationError> {
        let group = &crd.spec.group;
        let ar = ApiResource {
            group: group.clone(),
            version: storage.to_owned(),
            api_version: format!("{group}/{storage}"),
            kind: crd.spec.names.kind.clone(),
            plural: crd.spec.names.plural.clone(),
        };
        let namespaced = crd.spec.scope == "Namespaced";
        let all: Api<DynamicObject> = Api::all_with(self.client.clone(), &ar);
        // Restarts after expired tokens, bounded: a server whose tokens always expire before
        // they are used gets an error, not an endless loop.
        let mut restarts = 0;
        loop {
            let mut lp = ListParams::default().limit(self.page_size);
            if let Some(token) = &self.progress.continue_token {
                lp = lp.continue_token(token);
            }
            let page = match all.list(&lp).await {
                Ok(page) => page,
                // The token expired: start over (objects already rewritten are rewritten again,
                // which stores nothing new).
                Err(e)
                    if api_code(&e) == Some(410)
                        && self.progress.continue_token.is_some()
                        && restarts < MAX_RESTARTS =>
                {
                    restarts += 1;
                    self.progress.continue_token = None;
                    continue;
                }
                Err(e) => {
                    return Err(kube_err(format!(
                        "listing {} {}",
                        ar.api_version, ar.plural
                    ))(e));
                }
            };
            for obj in &page.items {
                self.rewrite(obj, &ar, namespaced).await?;
            }
            match page.metadata.continue_.filter(|t| !t.is_empty()) {
                Some(token) => self.progress.continue_token = Some(token),
                None => {
                    self.progress.continue_token = None;
                    return Ok(());
                }
            }
        }
    }

    /// One object, written back unchanged at the storage version.
    async fn rewrite(
        &mut self,
        obj: &DynamicObject,
        ar: &ApiResource,
        namespaced: bool,
    ) -> Result<(), MigrationError> {
        let name = obj.name_any();
        let ns = obj.namespace().unwrap_or_default();
        let api: Api<DynamicObject> = if namespaced {
            Api::namespaced_with(self.client.clone(), &ns, ar)
        } else {
            Api::all_with(self.client.clone(), ar)
        };
        let patch = json!({
            "apiVersion": ar.api_version,
            "kind": ar.kind,
            "metadata": {"uid": obj.uid(), "resourceVersion": obj.resource_version()},
        });
        match api
            .patch(
                &name,
                &PatchParams::apply(FIELD_MANAGER),
                &Patch::Apply(patch),
            )
            .await
        {
            Ok(_) => self.progress.rewritten += 1,
            Err(e) if matches!(api_code(&e), Some(404 | 409)) => self.progress.skipped += 1,
            Err(e) => {
                let what = if namespaced {
                    format!("rewriting {} {ns}/{name}", ar.kind)
                } else {
                    format!("rewriting {} {name}", ar.kind)
                };
                return Err(kube_err(what)(e));
            }
        }
        Ok(())
    }

    /// `status.storedVersions` set to `[storage]`, unless the storage version moved on.
    async fn trim_stored_versions(
        &mut self,
        crds: &Api<CustomResourceDefinition>,
        storage: &str,
    ) -> Result<Vec<String>, MigrationError> {
        let what = || format!("updating status.storedVersions of {}", self.crd_name);
        // A conflict means the CRD changed between the read and the write: read it again.
        for _ in 0..3 {
            let crd = crds.get(&self.crd_name).await.map_err(kube_err(what()))?;
            let now = storage_version(&crd).unwrap_or_default();
            if now != storage {
                self.progress = Progress::default();
                return Err(MigrationError::StorageVersionChanged {
                    crd: self.crd_name.clone(),
                    from: storage.to_owned(),
                    to: now.to_owned(),
                });
            }
            if stored_versions(&crd) == [storage] {
                return Ok(vec![storage.to_owned()]);
            }
            let patch = json!({
                "metadata": {"resourceVersion": crd.resource_version()},
                "status": {"storedVersions": [storage]},
            });
            match crds
                .patch_status(
                    &self.crd_name,
                    &PatchParams::default(),
                    &Patch::Merge(patch),
                )
                .await
            {
                Ok(crd) => return Ok(stored_versions(&crd)),
                Err(e) if api_code(&e) == Some(409) => {}
                Err(e) => return Err(kube_err(what())(e)),
            }
        }
        Err(MigrationError::Kube {
            what: what(),
            source: kube::Error::Api(
                kube::core::Status::failure(
                    "the CustomResourceDefinition kept changing",
                    "Conflict",
                )
                .with_code(409)
                .boxed(),
            ),
        })
    }
}
