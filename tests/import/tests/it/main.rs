//! The CRDs of `tests/data/import` and the Gateway API's, imported into `src/` by `crdgen
//! import`: the sources are what `crdgen import` writes today, and each module's `crds()`, as the
//! derive builds it, is the input CRD in everything the API server keeps.

mod compare;
mod current;
mod roundtrip;
