//! Several versions of one kind in one CRD: the declaration `#[derive(crdkit::Versions)]` emits
//! ([`KindDecl`]), the CRD with every version in priority order and the conversion strategy,
//! the compile-time checks between versions ([`check`]), and the conversion of objects between
//! versions ([`Versioned::convert`]).
//!
//! Mirrors what the versioning page ("Versions in CustomResourceDefinitions") asks of a CRD:
//! one storage version, versions that share group, names and scope, `spec.versions` listed by
//! priority (apimachinery `CompareKubeAwareVersionStrings`), and `spec.conversion` with the
//! `None` or `Webhook` strategy.

// A failed check returns its message by value: const fns cannot box it.
#[allow(clippy::result_large_err)]
pub mod check;
mod convert;
// A const fn's difference is a message by value.
#[allow(clippy::result_large_err)]
mod layout;
#[cfg(test)]
mod tests;

pub use convert::{
    AddedDefault, ConversionError, ConvertField, ConvertFrom, Converted, Step, StepError,
    api_version_of, convert, convert_field, into_version, step, unknown_version,
};

use crdkit_schema::crd::{
    CustomResourceConversion, CustomResourceDefinition, ServiceReference, WebhookClientConfig,
    WebhookConversion,
};

use crate::resource::{CrdError, ResourceDecl, sort_versions};

/// A kind with several versions, as `#[derive(crdkit::Versions)]` declares it.
#[derive(Clone, Copy, Debug)]
pub struct KindDecl {
    /// Every version, in the order of the declaration: the order of conversion, each version
    /// converting to and from its neighbours.
    pub versions: &'static [&'static ResourceDecl],
    /// The index in `versions` of the storage version.
    pub storage: usize,
    /// `spec.conversion`.
    pub conversion: Conversion,
    /// `spec.versions` in the declaration's order (`#[versions(order = "declared")]`), as a
    /// CRD written by hand may list them, instead of by priority.
    pub declared_order: bool,
}

/// `spec.conversion.strategy`, with the webhook's configuration.
#[derive(Clone, Copy, Debug)]
pub enum Conversion {
    /// `None`: the API server changes `apiVersion` and nothing else; the versions' schemas must
    /// be the same, unless `#[versions(allow_different_schemas)]` says that the API server's
    /// pruning to the other version's schema is meant.
    None,
    /// `Webhook`: the API server posts a `ConversionReview` to the webhook.
    Webhook(Webhook),
}

/// `spec.conversion.webhook`.
#[derive(Clone, Copy, Debug)]
pub struct Webhook {
    /// `conversionReviewVersions`: the `ConversionReview` versions the webhook reads, preferred
    /// first.
    pub review_versions: &'static [&'static str],
    /// `clientConfig.url`: `https://host[:port][/path]`.
    pub url: Option<&'static str>,
    /// `clientConfig.service`.
    pub service: Option<Service>,
    /// `clientConfig.caBundle`: the base64 PEM bundle that signs the webhook's certificate;
    /// `None` to use the system's roots, or to set at deployment.
    pub ca_bundle: Option<&'static str>,
}

/// `spec.conversion.webhook.clientConfig.service`.
#[derive(Clone, Copy, Debug)]
pub struct Service {
    /// `namespace`
    pub namespace: &'static str,
    /// `name`
    pub name: &'static str,
    /// `path`; `/` when `None`.
    pub path: Option<&'static str>,
    /// `port`; 443 when `None`.
    pub port: Option<i32>,
}

impl Conversion {
    /// The CRD's `spec.conversion`.
    #[must_use]
    pub fn to_crd(&self) -> CustomResourceConversion {
        match self {
            Conversion::None => CustomResourceConversion {
                strategy: "None".to_owned(),
                webhook: None,
            },
            Conversion::Webhook(w) => CustomResourceConversion {
                strategy: "Webhook".to_owned(),
                webhook: Some(WebhookConversion {
                    client_config: Some(WebhookClientConfig {
                        url: w.url.map(str::to_owned),
                        service: w.service.map(|s| ServiceReference {
                            namespace: s.namespace.to_owned(),
                            name: s.name.to_owned(),
                            path: s.path.map(str::to_owned),
                            port: s.port,
                        }),
                        ca_bundle: w.ca_bundle.map(str::to_owned),
                    }),
                    conversion_review_versions: w
                        .review_versions
                        .iter()
                        .map(|v| (*v).to_owned())
                        .collect(),
                }),
            },
        }
    }
}

impl KindDecl {
    /// The storage version (`None` only for a declaration built by hand with a bad index).
    #[must_use]
    pub fn storage_version(&self) -> Option<&'static ResourceDecl> {
        self.versions.get(self.storage).copied()
    }

    /// The index of a version, named by its name (`v1`) or its `apiVersion`
    /// (`example.com/v1`).
    #[must_use]
    pub fn position(&self, version: &str) -> Option<usize> {
        self.versions
            .iter()
            .position(|v| match version.split_once('/') {
                Some((group, name)) => v.group == group && v.version == name,
                None => v.version == version,
            })
    }

    /// The CustomResourceDefinition with every version: each with its own schema, subresources,
    /// printer columns, selectable fields, `served`, `deprecated` and `deprecationWarning`;
    /// `storage` on the declared one; listed by priority, the highest first; and
    /// `spec.conversion`.
    ///
    /// # Errors
    /// When a version's schema has a run-time part that fails (`#[crd(schemars)]`, default
    /// functions): every such error of every version.
    pub fn crd(&self) -> Result<CustomResourceDefinition, CrdError> {
        let mut errors = Vec::new();
        let mut merged: Option<CustomResourceDefinition> = None;
        let mut versions = Vec::new();
        for (i, decl) in self.versions.iter().enumerate() {
            match decl.crd() {
                Ok(mut crd) => {
                    for mut v in std::mem::take(&mut crd.spec.versions) {
                        v.storage = i == self.storage;
                        versions.push(v);
                    }
                    match &mut merged {
                        Some(m) => crate::resource::merge_metadata(&mut m.metadata, &crd.metadata),
                        None => merged = Some(crd),
                    }
                }
                Err(e) => errors.extend(e.errors),
            }
        }
        if self.versions.is_empty() {
            errors.push(crate::BuildError {
                path: String::new(),
                message: "a kind needs at least one version".to_owned(),
            });
        }
        match merged {
            Some(mut crd) if errors.is_empty() => {
                if !self.declared_order {
                    sort_versions(&mut versions);
                }
                crd.spec.versions = versions;
                crd.spec.conversion = Some(self.conversion.to_crd());
                Ok(crd)
            }
            _ => Err(CrdError { errors }),
        }
    }
}

/// A kind with several versions: implemented by `#[derive(crdkit::Versions)]` for the enum that
/// holds an object of any of its versions. A conversion webhook (a `ConversionReview` handler)
/// calls [`Versioned::convert`] for each object of a review.
pub trait Versioned: Sized {
    /// The versions, the storage version and the conversion strategy.
    const DECL: KindDecl;

    /// Converts one object to the version `to` (a version name, `v1`, or the
    /// `desiredAPIVersion` of a review, `example.com/v1`), through the typed conversions
    /// between neighbouring versions (or, with the `None` strategy, by changing `apiVersion`
    /// only). `metadata` keeps the object's own, except `labels` and `annotations`, which the
    /// conversion may change (the API server ignores other changes).
    ///
    /// # Errors
    /// When the object is not of this kind or of a declared version, does not decode into its
    /// version's type, or a conversion fails ([`ConversionError::Failed`] carries the
    /// conversion's own message).
    fn convert(object: serde_json::Value, to: &str) -> Result<serde_json::Value, ConversionError>;

    /// The CustomResourceDefinition with every version ([`KindDecl::crd`]).
    ///
    /// # Errors
    /// When a run-time part of a version's schema fails.
    fn crd() -> Result<CustomResourceDefinition, CrdError> {
        Self::DECL.crd()
    }
}
