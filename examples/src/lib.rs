//! Example CRDs: the Kubernetes documentation's CronTab in each form the CRD task page shows,
//! and the Shirt with selectable fields. `crdgen` prints them; tests compare them with golden
//! files and with the documentation's YAML.

pub mod crontab;
