//! What `crdgen validate` reads: the CRDs of `--crd`, the stored objects of `--old` and the
//! input files. Each file is read on its own, so that one that cannot be read (or a `--crd`
//! document that is no CRD) is reported in its place while the others are validated.

use std::collections::HashMap;
use std::io::Write;
use std::path::PathBuf;

use crate::crds::{is_crd, read_crd, warn_duplicates};
use crate::exit::Failure;
use crate::load::{self, Document, LoadError};
use crate::registry::Registry;

/// One thing of the input, in the order given.
pub(super) enum Entry {
    /// A document of a file that was read.
    Doc(Document),
    /// A file (or document) that cannot be read: an error of the run, in its place.
    Unreadable(LoadError),
}

/// The input files, read.
pub(super) struct Inputs {
    pub(super) entries: Vec<Entry>,
    /// The text of each file read, for the lines of fields (`--output github`).
    pub(super) texts: HashMap<PathBuf, String>,
    /// How many files were given (directories expanded), read or not.
    pub(super) files: usize,
}

/// The documents of `given` (files, directories, `-`), each file read on its own.
///
/// # Errors
/// [`Failure::Input`] when no file could be read (each file's reason, one per line) or the
/// files hold no document at all.
pub(super) fn read(given: &[PathBuf]) -> Result<Inputs, Failure> {
    let mut inputs = Inputs {
        entries: Vec::new(),
        texts: HashMap::new(),
        files: 0,
    };
    for path in given {
        let files = match load::expand(std::slice::from_ref(path)) {
            Ok(files) => files,
            Err(e) => {
                inputs.files += 1;
                inputs.entries.push(Entry::Unreadable(e));
                continue;
            }
        };
        for f in files {
            inputs.files += 1;
            match load::read_text(&f).and_then(|text| Ok((load::parse(&text, &f)?, text))) {
                Ok((docs, text)) => {
                    inputs.entries.extend(docs.into_iter().map(Entry::Doc));
                    inputs.texts.insert(f, text);
                }
                Err(e) => inputs.entries.push(Entry::Unreadable(e)),
            }
        }
    }
    if inputs.entries.is_empty() {
        return Err(Failure::Input(format!(
            "{}: no objects to validate",
            given
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    // Nothing to report on but the reasons: an input error (exit 2), as with one file.
    if inputs.texts.is_empty() {
        let reasons: Vec<String> = inputs
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Unreadable(e) => Some(e.to_string()),
                Entry::Doc(_) => None,
            })
            .collect();
        return Err(Failure::Input(reasons.join("\ncrdgen: ")));
    }
    Ok(inputs)
}

/// Adds the CRDs of `--crd` (a file's documents, a directory's CRD documents) to `registry`;
/// what cannot be read comes back, to be reported as errors.
///
/// # Errors
/// [`Failure::Input`] when a path holds no CRD and nothing unreadable either (a `--crd` that
/// names the wrong file).
pub(super) fn add_crds(
    given: &[PathBuf],
    registry: &mut Registry,
    err: &mut dyn Write,
) -> Result<Vec<LoadError>, Failure> {
    let mut unreadable = Vec::new();
    for path in given {
        let before = unreadable.len();
        let mut found = false;
        let files = load::expand(std::slice::from_ref(path)).unwrap_or_else(|e| {
            unreadable.push(e);
            Vec::new()
        });
        for f in files {
            let docs = match load::load(&f) {
                Ok(docs) => docs,
                Err(e) => {
                    unreadable.push(e);
                    continue;
                }
            };
            for doc in docs {
                // Directories hold other things beside CRDs (a kustomization, a policy).
                if !is_crd(&doc.value) && path.is_dir() {
                    continue;
                }
                match read_crd(&doc) {
                    Ok(crd) => {
                        registry.add_crd(doc.position(), crd, true);
                        warn_duplicates(err, &doc);
                        found = true;
                    }
                    Err(e) => unreadable.push(e),
                }
            }
        }
        if !found && unreadable.len() == before {
            return Err(Failure::Input(format!(
                "{}: no CustomResourceDefinition",
                path.display()
            )));
        }
    }
    Ok(unreadable)
}

/// The stored objects of `--old`: they decide what an update is, so a file that cannot be
/// read stops the run.
///
/// # Errors
/// [`Failure::Input`] when a file cannot be read.
pub(super) fn read_olds(given: &[PathBuf]) -> Result<Vec<Document>, Failure> {
    let mut olds = Vec::new();
    for f in load::expand(given)? {
        olds.extend(load::load(&f)?);
    }
    Ok(olds)
}
