//! `/healthz`, `/livez` and `/readyz`, with their checks one by one (`/readyz/etcd`).
//!
//! Mirrors apiserver `pkg/server/healthz/healthz.go` (`handleRootHealth`: `[+]ping ok` lines,
//! `[-]etcd failed: reason withheld`, `<name> check passed` with `?verbose`, `ok` without, a
//! failure answered 500 with every line and `<name> check failed`, `?exclude=<check>`;
//! `adaptCheckToHandler` for one check) and the checks kube-apiserver installs
//! (`pkg/server/config.go` `ping` and `log`, `options/etcd.go` `etcd` everywhere and
//! `etcd-readiness` on readyz, `informer-sync` and `shutdown` on readyz). The storage check is
//! a read of the store's revision, bounded by the default `--etcd-healthcheck-timeout` (2 s),
//! whatever the backend.

use std::time::Duration;

use bytes::Bytes;
use http::{HeaderValue, header};

use crate::api::Api;
use crate::http::negotiate::Encoding;
use crate::http::query::Query;
use crate::http::response::{self, Resp};
use crate::http::status::ApiError;

/// `--etcd-healthcheck-timeout` and `--etcd-readycheck-timeout`.
const STORAGE_TIMEOUT: Duration = Duration::from_secs(2);

#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    Ping,
    Log,
    Etcd,
    EtcdReadiness,
    InformerSync,
    Shutdown,
}

impl Check {
    fn name(self) -> &'static str {
        match self {
            Check::Ping => "ping",
            Check::Log => "log",
            Check::Etcd => "etcd",
            Check::EtcdReadiness => "etcd-readiness",
            Check::InformerSync => "informer-sync",
            Check::Shutdown => "shutdown",
        }
    }

    async fn run(self, api: &Api) -> Result<(), String> {
        match self {
            // Nothing here can block a log, and the registry is read before serving.
            Check::Ping | Check::Log | Check::InformerSync => Ok(()),
            Check::Etcd | Check::EtcdReadiness => {
                let storage = api.objects.storage();
                match tokio::time::timeout(STORAGE_TIMEOUT, storage.current_revision()).await {
                    Ok(Ok(_)) => Ok(()),
                    Ok(Err(e)) => Err(e.to_string()),
                    Err(_) => Err("context deadline exceeded".to_owned()),
                }
            }
            Check::Shutdown => {
                if api.shutdown.is_cancelled() {
                    Err("process is shutting down".to_owned())
                } else {
                    Ok(())
                }
            }
        }
    }
}

/// The checks of an endpoint, in kube-apiserver's order.
fn checks(endpoint: &str) -> Option<&'static [Check]> {
    match endpoint {
        "healthz" | "livez" => Some(&[Check::Ping, Check::Log, Check::Etcd]),
        "readyz" => Some(&[
            Check::Ping,
            Check::Log,
            Check::Etcd,
            Check::EtcdReadiness,
            Check::InformerSync,
            Check::Shutdown,
        ]),
        _ => None,
    }
}

/// Answers a health path (`/healthz`, `/livez/etcd`, …).
pub(super) async fn serve(api: &Api, path: &str, query: &Query) -> Resp {
    let mut parts = path.trim_matches('/').splitn(2, '/');
    let endpoint = parts.next().unwrap_or("");
    let Some(all) = checks(endpoint) else {
        return response::error(&ApiError::no_such_resource(), Encoding::Json);
    };
    match parts.next() {
        None => root(api, endpoint, all, query).await,
        Some(name) => match all.iter().find(|c| c.name() == name) {
            Some(check) => match check.run(api).await {
                Ok(()) => text(200, "ok".to_owned()),
                Err(e) => text(500, format!("internal server error: {e}\n")),
            },
            None => response::error(&ApiError::no_such_resource(), Encoding::Json),
        },
    }
}

async fn root(api: &Api, endpoint: &str, all: &[Check], query: &Query) -> Resp {
    let excluded: Vec<&str> = query.all("exclude").collect();
    let mut out = String::new();
    let mut failed = false;
    for check in all {
        let name = check.name();
        if excluded.contains(&name) {
            out.push_str(&format!("[+]{name} excluded: ok\n"));
            continue;
        }
        match check.run(api).await {
            Ok(()) => out.push_str(&format!("[+]{name} ok\n")),
            Err(_) => {
                // The reason stays in the server (Go logs it): the endpoint is public.
                out.push_str(&format!("[-]{name} failed: reason withheld\n"));
                failed = true;
            }
        }
    }
    let unknown: Vec<String> = excluded
        .iter()
        .filter(|e| !all.iter().any(|c| c.name() == **e))
        .map(|e| format!("{e:?}"))
        .collect();
    if !unknown.is_empty() {
        out.push_str(&format!(
            "warn: some health checks cannot be excluded: no matches for {}\n",
            unknown.join(",")
        ));
    }
    if failed {
        // `http.Error` adds the newline.
        return text(500, format!("{out}{endpoint} check failed\n"));
    }
    if query.get("verbose").is_none() {
        return text(200, "ok".to_owned());
    }
    text(200, format!("{out}{endpoint} check passed\n"))
}

fn text(status: u16, body: String) -> Resp {
    let mut r = response::bytes(status, "text/plain; charset=utf-8", Bytes::from(body));
    r.headers_mut().insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    r
}
