//! What the server serves, and the strategy of each kind: how objects are prepared, decoded,
//! validated, converted, selected and printed.
//!
//! Mirrors the split of apiserver `pkg/registry/rest` (`RESTCreateStrategy`,
//! `RESTUpdateStrategy`: prepare, validate, canonicalize) with one strategy per kind:
//! [`crd`] (apiextensions-apiserver `pkg/registry/customresourcedefinition/strategy.go`),
//! [`custom_resource`] (`pkg/registry/customresource/strategy.go`, `status_strategy.go`),
//! [`namespace`] (kubernetes `pkg/registry/core/namespace/strategy.go`) and [`builtin`] (every
//! other built-in kind: kubernetes `pkg/registry/**/strategy.go` through crdkit-builtin). The handlers do the
//! generic part with [`crate::rest`] (`pkg/registry/generic/registry/store.go`, `rest/create.go`,
//! `rest/update.go`).

pub(crate) mod builtin;
pub(crate) mod conversion;
pub(crate) mod crd;
pub(crate) mod custom_resource;
pub(crate) mod namespace;
pub(crate) mod scale;
mod served;
mod strategy;
pub(crate) mod table;
pub(crate) mod version;
mod webhook;

pub(crate) use custom_resource::CrdEntry;
pub(crate) use served::Registry;
pub(crate) use strategy::{Converted, ResourceInfo, Strategy, Subresources};
