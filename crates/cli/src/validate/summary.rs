//! The last line of a `crdgen validate` report: how many documents were valid, invalid, could
//! not be checked, or were skipped, as kubeconform counts them.

use std::fmt;

/// What became of one document (or of a file that could not be read).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Accepted (warnings aside).
    Valid,
    /// Rejected as the API server would reject it.
    Invalid,
    /// Not checked: unreadable, incomplete, or what it needs cannot be had.
    Error,
    /// Not checked, on purpose: no Kubernetes object, or a kind the run was told to let pass.
    Skipped,
}

impl Verdict {
    /// [`Verdict::Valid`] or [`Verdict::Invalid`].
    pub(super) fn of(valid: bool) -> Verdict {
        if valid {
            Verdict::Valid
        } else {
            Verdict::Invalid
        }
    }
}

/// The counts of a run, written as kubeconform's summary
/// (`Summary: 3 resources found in 2 files - Valid: 2, Invalid: 0, Errors: 1, Skipped: 0`).
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Summary {
    files: usize,
    valid: usize,
    invalid: usize,
    errors: usize,
    skipped: usize,
}

impl Summary {
    /// Nothing counted yet, of `files` input files.
    pub(super) fn new(files: usize) -> Summary {
        Summary {
            files,
            ..Summary::default()
        }
    }

    pub(super) fn count(&mut self, v: Verdict) {
        match v {
            Verdict::Valid => self.valid += 1,
            Verdict::Invalid => self.invalid += 1,
            Verdict::Error => self.errors += 1,
            Verdict::Skipped => self.skipped += 1,
        }
    }

    /// Whether the run fails: something invalid or unchecked.
    pub(super) fn failed(&self) -> bool {
        self.invalid + self.errors > 0
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let resources = self.valid + self.invalid + self.errors + self.skipped;
        let plural = |n: usize| if n == 1 { "" } else { "s" };
        write!(
            f,
            "Summary: {resources} resource{} found in {} file{} - Valid: {}, Invalid: {}, \
             Errors: {}, Skipped: {}",
            plural(resources),
            self.files,
            plural(self.files),
            self.valid,
            self.invalid,
            self.errors,
            self.skipped
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubeconform_wording() {
        let mut s = Summary::new(1);
        s.count(Verdict::Valid);
        assert_eq!(
            s.to_string(),
            "Summary: 1 resource found in 1 file - Valid: 1, Invalid: 0, Errors: 0, Skipped: 0"
        );
        assert!(!s.failed());
        s.files = 3;
        for v in [
            Verdict::Invalid,
            Verdict::Error,
            Verdict::Skipped,
            Verdict::Skipped,
        ] {
            s.count(v);
        }
        assert_eq!(
            s.to_string(),
            "Summary: 5 resources found in 3 files - Valid: 1, Invalid: 1, Errors: 1, Skipped: 2"
        );
        assert!(s.failed());
    }
}
