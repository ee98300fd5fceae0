//! Patch metadata: the strategies and merge key of a field, and the schema that answers for
//! them. Mirrors apimachinery `pkg/util/strategicpatch/meta.go` (`PatchMeta`,
//! `LookupPatchMeta`) and `patch.go` `extractRetainKeysPatchStrategy`.

use crate::error::PatchError;

/// `merge`: lists are merged (by merge key for lists of maps, as a set for lists of scalars).
pub const MERGE: &str = "merge";
/// `replace`: maps are replaced as a whole (lists are replaced unless `merge`).
pub const REPLACE: &str = "replace";
/// `retainKeys`: clients send `$retainKeys`; the server applies it whatever the strategy.
pub const RETAIN_KEYS: &str = "retainKeys";

/// The patch metadata of one field: `x-kubernetes-patch-strategy` (split at `,`) and
/// `x-kubernetes-patch-merge-key`, or Go's `patchStrategy`/`patchMergeKey` struct tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PatchMeta {
    /// The strategies, `["merge", "retainKeys"]`; empty when the field has none.
    pub strategies: Vec<String>,
    /// The merge key of a list of maps, empty when the field has none.
    pub merge_key: String,
}

impl PatchMeta {
    /// The metadata of `x-kubernetes-patch-strategy: <strategy>` (`""` when absent) and
    /// `x-kubernetes-patch-merge-key: <merge_key>` (`""` when absent).
    ///
    /// ```
    /// use crdkit_patch::PatchMeta;
    /// let meta = PatchMeta::new("merge,retainKeys", "name");
    /// assert_eq!(meta.strategies, ["merge", "retainKeys"]);
    /// assert_eq!(meta.strategy().unwrap(), (true, "merge"));
    /// assert!(PatchMeta::new("merge,replace", "").strategy().is_err());
    /// ```
    #[must_use]
    pub fn new(strategy: &str, merge_key: &str) -> PatchMeta {
        PatchMeta {
            strategies: if strategy.is_empty() {
                Vec::new()
            } else {
                strategy.split(',').map(str::to_owned).collect()
            },
            merge_key: merge_key.to_owned(),
        }
    }

    /// Whether `retainKeys` is among the strategies, and the other strategy (`""` if none):
    /// Go's `extractRetainKeysPatchStrategy`.
    ///
    /// # Errors
    /// [`PatchError::UnexpectedPatchStrategy`] for two strategies without `retainKeys`, or more
    /// than two.
    pub fn strategy(&self) -> Result<(bool, &str), PatchError> {
        match self.strategies.as_slice() {
            [] => Ok((false, "")),
            [one] if one == RETAIN_KEYS => Ok((true, "")),
            [one] => Ok((false, one)),
            [a, b] if a == RETAIN_KEYS => Ok((true, b)),
            [a, b] if b == RETAIN_KEYS => Ok((true, a)),
            more => Err(PatchError::UnexpectedPatchStrategy {
                strategies: format!("[{}]", more.join(" ")),
            }),
        }
    }
}

/// A schema position that answers for the fields below it, as Go's `LookupPatchMeta`. The
/// merge asks only where the object and the patch both hold a map (`lookup_struct`) or both
/// hold a list (`lookup_slice`), and for `$setElementOrder/<field>` (`lookup_slice`).
///
/// [`OpenApiPatchMeta`](crate::OpenApiPatchMeta) implements it over the OpenAPI v3 documents
/// Kubernetes publishes; tests and other schema models implement it directly.
pub trait LookupPatchMeta: Sized {
    /// The schema of field `key` of this map or struct, and the field's metadata (Go's
    /// `LookupPatchMetadataForStruct`). A map (`additionalProperties`) answers for any key
    /// with its value schema and no metadata.
    ///
    /// # Errors
    /// [`PatchError::Lookup`] with the text of the schema model, e.g. `unable to find api field
    /// in struct PodSpec for the json field "x"`.
    fn lookup_struct(&self, key: &str) -> Result<(Self, PatchMeta), PatchError>;

    /// The schema of the elements of list field `key`, and the field's metadata (Go's
    /// `LookupPatchMetadataForSlice`).
    ///
    /// # Errors
    /// [`PatchError::Lookup`], e.g. `expected slice or array type, but got: struct`.
    fn lookup_slice(&self, key: &str) -> Result<(Self, PatchMeta), PatchError>;

    /// Go's `Name()` of this schema, in `cannot merge lists without merge key for <name>`
    /// (`struct` for the elements of a list of structs).
    fn name(&self) -> String;
}
