//! Group/version/kind, and the conversion of objects to the versions managers own fields in.
//!
//! Mirrors apimachinery `pkg/runtime/schema/group_version.go` (`ParseGroupVersion`, the
//! `String` forms) and `pkg/util/managedfields/internal/versionconverter.go`: an object already in
//! the target version is returned as is; a version the CRD does not have is a *missing version*
//! (its managers are dropped). Custom resources convert with strategy `None` by changing
//! `apiVersion`; a webhook conversion can be plugged in with [`VersionConverter::with_conversion`].

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde_json::{Value, json};

use crate::merge::{ConversionError, Converter};
use crate::schema::Schema;
use crate::typed::{TypedValue, ValidationOptions};

/// A group and version (`stable.example.com/v1`; the core group is empty).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct GroupVersion {
    /// The API group.
    pub group: String,
    /// The version.
    pub version: String,
}

impl GroupVersion {
    /// `ParseGroupVersion`: `""` and `"/"` are empty, `v1` is the core group.
    ///
    /// # Errors
    /// More than one `/`: `unexpected GroupVersion string: a/b/c`.
    pub fn parse(s: &str) -> Result<GroupVersion, String> {
        if s.is_empty() || s == "/" {
            return Ok(GroupVersion::default());
        }
        match s.matches('/').count() {
            0 => Ok(GroupVersion {
                group: String::new(),
                version: s.to_owned(),
            }),
            1 => {
                let (g, v) = s.split_once('/').unwrap_or_default();
                Ok(GroupVersion {
                    group: g.to_owned(),
                    version: v.to_owned(),
                })
            }
            _ => Err(format!("unexpected GroupVersion string: {s}")),
        }
    }
}

impl fmt::Display for GroupVersion {
    /// `group/version`, or `version` for the core group.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.group.is_empty() {
            f.write_str(&self.version)
        } else {
            write!(f, "{}/{}", self.group, self.version)
        }
    }
}

/// A group, version and kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GroupVersionKind {
    /// The API group.
    pub group: String,
    /// The version.
    pub version: String,
    /// The kind.
    pub kind: String,
}

impl GroupVersionKind {
    /// The group and version.
    #[must_use]
    pub fn group_version(&self) -> GroupVersion {
        GroupVersion {
            group: self.group.clone(),
            version: self.version.clone(),
        }
    }

    /// `Unstructured.GroupVersionKind`: from `apiVersion` and `kind` (strings, else empty); an
    /// apiVersion that does not parse gives the empty GVK.
    #[must_use]
    pub fn of(obj: &Value) -> GroupVersionKind {
        let s = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or_default();
        match GroupVersion::parse(s("apiVersion")) {
            Ok(gv) => GroupVersionKind {
                group: gv.group,
                version: gv.version,
                kind: s("kind").to_owned(),
            },
            Err(_) => GroupVersionKind::default(),
        }
    }
}

impl fmt::Display for GroupVersionKind {
    /// `stable.example.com/v1, Kind=CronTab`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}, Kind={}", self.group, self.version, self.kind)
    }
}

/// A conversion of an object's value to another version (a conversion webhook).
pub type ConversionFn = dyn Fn(&Value, &GroupVersion) -> Result<Value, String> + Send + Sync;

/// Converts custom objects between the versions of their CRD.
#[derive(Clone)]
pub struct VersionConverter {
    group: String,
    kind: String,
    schemas: BTreeMap<String, Arc<Schema>>,
    conversion: Option<Arc<ConversionFn>>,
}

impl fmt::Debug for VersionConverter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("VersionConverter")
            .field("group", &self.group)
            .field("kind", &self.kind)
            .field("versions", &self.schemas.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl VersionConverter {
    /// A converter between the versions of `schemas` (version name to schema) of `group` and
    /// `kind`, by the `None` strategy (only `apiVersion` changes).
    #[must_use]
    pub fn new(
        group: &str,
        kind: &str,
        schemas: BTreeMap<String, Arc<Schema>>,
    ) -> VersionConverter {
        VersionConverter {
            group: group.to_owned(),
            kind: kind.to_owned(),
            schemas,
            conversion: None,
        }
    }

    /// This converter converting values with `f` (which must set `apiVersion`).
    #[must_use]
    pub fn with_conversion(mut self, f: Arc<ConversionFn>) -> VersionConverter {
        self.conversion = Some(f);
        self
    }

    /// The schema of a version.
    #[must_use]
    pub fn schema(&self, version: &str) -> Option<Arc<Schema>> {
        self.schemas.get(version).cloned()
    }
}

impl Converter for VersionConverter {
    fn convert(&self, object: &TypedValue, version: &str) -> Result<TypedValue, ConversionError> {
        let failed = |message: String| ConversionError {
            missing_version: false,
            message,
        };
        let target = GroupVersion::parse(version).map_err(failed)?;
        // `GroupVersionOfTypedValue`: already there.
        let current = object
            .value()
            .get("apiVersion")
            .and_then(Value::as_str)
            .and_then(|s| GroupVersion::parse(s).ok());
        if current.as_ref() == Some(&target) {
            return Ok(object.clone());
        }
        let schema = match self.schemas.get(&target.version) {
            Some(s) if target.group == self.group => s.clone(),
            _ => {
                return Err(ConversionError {
                    missing_version: true,
                    message: format!(
                        "no corresponding type for {}",
                        GroupVersionKind {
                            group: target.group.clone(),
                            version: target.version.clone(),
                            kind: self.kind.clone(),
                        }
                    ),
                });
            }
        };
        let value = match &self.conversion {
            Some(f) => f(object.value(), &target).map_err(failed)?,
            None => {
                let mut v = object.value().clone();
                if let Some(m) = v.as_object_mut() {
                    m.insert("apiVersion".to_owned(), json!(target.to_string()));
                }
                v
            }
        };
        TypedValue::new(value, schema, ValidationOptions::default())
            .map_err(|e| failed(e.to_string()))
    }
}
