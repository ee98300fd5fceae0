//! Example CRDs: the Kubernetes documentation's CronTab in each form the CRD task page shows,
//! the Shirt with selectable fields, and the versioning page's CronTab in several versions. `crdgen` prints them; tests compare them with golden
//! files and with the documentation's YAML.

pub mod crontab;
pub mod shirt;
pub mod versions;

use crdkit::{CrdError, CustomResourceDefinition};

/// Every example CRD, with a file-friendly name, in the order `crdgen` prints them.
///
/// # Errors
/// When an example's schema fails to build (it does not: tests build them all).
pub fn all() -> Result<Vec<(&'static str, CustomResourceDefinition)>, CrdError> {
    Ok(vec![
        ("crontab", crontab::plain::CronTab::crd()?),
        ("crontab-validation", crontab::validation::CronTab::crd()?),
        ("crontab-defaulting", crontab::defaulting::CronTab::crd()?),
        (
            "crontab-printer-columns",
            crontab::printer_columns::CronTab::crd()?,
        ),
        (
            "crontab-subresources",
            crontab::subresources::CronTab::crd()?,
        ),
        ("crontab-categories", crontab::categories::CronTab::crd()?),
        ("shirt", shirt::Shirt::crd()?),
        ("crontab-versions", versions::multi::CronTab::crd()?),
        ("crontab-conversion", versions::webhook::CronTab::crd()?),
        ("crontab-versioned", versions::evolved::CronTab::crd()?),
    ])
}
