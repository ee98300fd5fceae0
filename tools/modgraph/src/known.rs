//! TEMPORARY: circles known when the check was introduced, in crates colleagues restructure in
//! parallel (crates/server, crates/cli, macros, shape, schema). The lead empties this list when
//! merging their branches; a listed circle that no longer exists fails the check, so the list
//! can only shrink. Never add an entry for another crate.

/// (package, every module of the circle by path from the crate root).
pub const KNOWN_CIRCLES: &[(&str, &[&str])] = &[
    // TEMPORARY (issue 18, server): `api → controllers → handlers → api`.
    ("crdkit-server", &["api", "controllers", "handlers"]),
    // TEMPORARY (issue 18, server): `handlers/{guaranteed,write}.rs`.
    (
        "crdkit-server",
        &["handlers::guaranteed", "handlers::write"],
    ),
    // TEMPORARY (issue 18, cli): `check ↔ validate` (`read_crd`, `warn_duplicates`).
    ("crdkit-cli", &["check", "validate"]),
];
