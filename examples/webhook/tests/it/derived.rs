//! Typed conversions between roots made by `#[derive(CustomResource)]`: the version strings come
//! from the derive (`CustomResource::API_VERSION`), `From` carries `metadata` across.

use crdkit::CustomResource;
use crdkit::conversion::{ConversionError, Conversions, Typed};
use serde::{Deserialize, Serialize};
use serde_json::json;

mod v1beta1 {
    use super::{Deserialize, Serialize};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(
        group = "example.com",
        version = "v1beta1",
        kind = "CronTab",
        namespaced
    )]
    #[serde(rename_all = "camelCase")]
    pub struct CronTabSpec {
        pub host_port: String,
    }
}

mod v1 {
    use super::{Deserialize, Serialize};

    #[derive(crdkit::CustomResource, Serialize, Deserialize, Clone, Debug, Default, PartialEq)]
    #[crd(group = "example.com", version = "v1", kind = "CronTab", namespaced)]
    pub struct CronTabSpec {
        pub host: String,
        pub port: u16,
    }
}

impl TryFrom<v1beta1::CronTab> for v1::CronTab {
    type Error = String;
    fn try_from(old: v1beta1::CronTab) -> Result<v1::CronTab, String> {
        let (host, port) = old
            .spec
            .host_port
            .split_once(':')
            .ok_or("hostPort could not be parsed into a separate host and port")?;
        let port = port.parse().map_err(|e| format!("port {port:?}: {e}"))?;
        let mut new = v1::CronTab::new(
            "",
            v1::CronTabSpec {
                host: host.into(),
                port,
            },
        );
        new.metadata = old.metadata;
        Ok(new)
    }
}

impl From<v1::CronTab> for v1beta1::CronTab {
    fn from(new: v1::CronTab) -> v1beta1::CronTab {
        let host_port = format!("{}:{}", new.spec.host, new.spec.port);
        let mut old = v1beta1::CronTab::new("", v1beta1::CronTabSpec { host_port });
        old.metadata = new.metadata;
        old
    }
}

fn conversions() -> Conversions {
    let crontab = Typed::new(v1::CronTab::KIND)
        .version::<v1beta1::CronTab>(v1beta1::CronTab::API_VERSION)
        .version::<v1::CronTab>(v1::CronTab::API_VERSION)
        .convert::<v1beta1::CronTab, v1::CronTab>()
        .build()
        .unwrap();
    Conversions::new().typed(crontab)
}

#[test]
fn derived_roots_convert_both_ways() {
    let c = conversions();
    let old = json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
        "metadata": {"name": "a", "namespace": "default", "labels": {"app": "x"}, "resourceVersion": "7"},
        "spec": {"hostPort": "localhost:1234"}});
    let new = c.convert(old.clone(), "example.com/v1").unwrap();
    assert_eq!(
        new,
        json!({"apiVersion": "example.com/v1", "kind": "CronTab",
            "metadata": {"name": "a", "namespace": "default", "labels": {"app": "x"}, "resourceVersion": "7"},
            "spec": {"host": "localhost", "port": 1234}})
    );
    assert_eq!(c.convert(new, "example.com/v1beta1").unwrap(), old);
    // A port that is not a number: the conversion fails with the TryFrom's message.
    let mut bad = old;
    bad["spec"]["hostPort"] = json!("localhost:http");
    assert_eq!(
        c.convert(bad, "example.com/v1").unwrap_err(),
        ConversionError::Failed("port \"http\": invalid digit found in string".into())
    );
}

#[test]
fn a_conversion_that_loses_the_name_fails_as_the_api_server_would() {
    // `From` that forgets `metadata`: the converted object has no name.
    let c = Conversions::new().kind(
        "example.com",
        "CronTab",
        |obj: serde_json::Value, to: &str| -> Result<serde_json::Value, ConversionError> {
            let old: v1beta1::CronTab =
                serde_json::from_value(obj).map_err(ConversionError::failed)?;
            let host_port = old.spec.host_port;
            let (h, p) = host_port.split_once(':').unwrap_or(("", "0"));
            let new = v1::CronTab::new(
                "",
                v1::CronTabSpec {
                    host: h.into(),
                    port: p.parse().unwrap_or(0),
                },
            );
            assert_eq!(to, "example.com/v1");
            serde_json::to_value(new).map_err(ConversionError::failed)
        },
    );
    let old = json!({"apiVersion": "example.com/v1beta1", "kind": "CronTab",
        "metadata": {"name": "a"}, "spec": {"hostPort": "h:1"}});
    assert_eq!(
        c.convert(old, "example.com/v1").unwrap_err().to_string(),
        "invalid converted object: must have the same name: a != "
    );
}
