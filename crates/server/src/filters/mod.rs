//! The filters in front of the handlers, in the API server's order: the hosts and origins a
//! local server answers (as `kubectl proxy` filters them), authentication, and the in-flight
//! limit. Each refuses with a `Status`; the transport runs them before [`crate::handlers`].
//!
//! Mirrors apiserver `pkg/server/config.go` `DefaultBuildHandlerChain` (authentication, then
//! `WithMaxInFlightLimit`) and kubectl `pkg/proxy/proxy_server.go` (`FilterServer`, run before
//! anything else).

mod authn;
mod inflight;
mod local;

use http::request::Parts;

use crate::http::query::Query;
use crate::http::route::{self, Route};
use crate::http::status::ApiError;

pub(crate) use authn::Authn;
pub(crate) use inflight::{InFlight, Permit};
pub(crate) use local::{DEFAULT_ACCEPT_HOSTS, LocalHosts};

/// The largest request head, request line included: kube-apiserver's `MaxHeaderBytes` (1 MiB)
/// and the 4 KiB Go's server reads beyond it (`net/http` `maxHeaderBytes() + 4096`).
pub(crate) const MAX_HEADER_BYTES: usize = (1 << 20) + 4096;

/// What the transport knows of a request's connection.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Peer {
    /// The TLS client presented a certificate the server's CA signed.
    pub client_cert: bool,
}

/// The filters of one server.
pub(crate) struct Filters {
    /// `None`: every host and origin is served.
    pub local: Option<LocalHosts>,
    /// Who may ask.
    pub authn: Authn,
    /// How many may ask at once.
    pub inflight: InFlight,
}

impl Filters {
    /// Admits a request, with the in-flight permit to hold until its response has been sent.
    /// The path's [`Route`], parsed here, is left in the request's extensions for the handler.
    ///
    /// # Errors
    /// 431 for a head over [`MAX_HEADER_BYTES`], 403 for a host or origin not served, 401 without a credential, 429 past the in-flight
    /// limit.
    pub(crate) fn admit(&self, parts: &mut Parts, peer: Peer) -> Result<Option<Permit>, ApiError> {
        if head_size(parts) > MAX_HEADER_BYTES {
            let mut e = ApiError::bad_request("the request head is larger than the server reads");
            e.code = 431;
            return Err(e);
        }
        if let Some(local) = &self.local {
            local.check(parts)?;
        }
        self.authn.check(&parts.headers, peer)?;
        let route = route::parse(parts.uri.path());
        let query = parts.uri.query().map(Query::parse);
        // Probes are exempt from the limit, as the API server's `probes` flow schema is.
        let permit = if matches!(route, Route::Health) {
            None
        } else {
            self.inflight.admit(&parts.method, &route, query.as_ref())?
        };
        parts.extensions.insert(route);
        if let Some(query) = query {
            parts.extensions.insert(query);
        }
        Ok(permit)
    }
}

/// The size of a request's head as it came: the request line and `name: value` lines.
fn head_size(parts: &Parts) -> usize {
    let target = parts.uri.path_and_query().map_or(1, |p| p.as_str().len())
        + parts.uri.authority().map_or(0, |a| a.as_str().len());
    let line = parts.method.as_str().len() + target + 12;
    parts
        .headers
        .iter()
        .map(|(k, v)| k.as_str().len() + v.len() + 4)
        .sum::<usize>()
        + line
}
