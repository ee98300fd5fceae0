//! The hosts and origins a server answers when nothing else guards it (loopback, no token): a
//! web page the developer opens can reach `127.0.0.1` too, by DNS rebinding (its own name
//! resolving to `127.0.0.1`: the `Host` header gives it away) or by a cross-site request (a form
//! `POST` needs no CORS preflight: the `Origin` header gives it away).
//!
//! Mirrors kubectl `pkg/proxy/proxy_server.go` (`FilterServer`, `--accept-hosts` with
//! `DefaultHostAcceptRE` `^localhost$,^127\.0\.0\.1$,^\[::1\]$`, Go regexps matched against
//! the host without its port, a refused request answered 403). What differs: the answer is a
//! `Status`; `[::1]:8001` is `[::1]` (Go's `SplitHostPort` drops the brackets, so kubectl
//! refuses it with a port); and an `Origin` header, which kubectl does not read, must name an
//! accepted host too (`Origin: null`, sent by sandboxed pages, names none).

use std::sync::{PoisonError, RwLock};

use crdkit_regexp::Regexp;
use http::header;
use http::request::Parts;

use crate::http::status::ApiError;

/// kubectl proxy's `DefaultHostAcceptRE`, one pattern each.
pub(crate) const DEFAULT_ACCEPT_HOSTS: [&str; 3] =
    [r"^localhost$", r"^127\.0\.0\.1$", r"^\[::1\]$"];

/// The hosts accepted, as patterns.
pub(crate) struct LocalHosts {
    patterns: Vec<Regexp>,
    /// The first hosts accepted, each asked of the patterns once: every request names one of
    /// a few (`localhost:8001`, `127.0.0.1:…`). Refused hosts are not kept, and past
    /// [`REMEMBERED`] none are added, so a client naming ever new hosts costs a match each.
    accepted: RwLock<Vec<String>>,
}

/// How many accepted hosts [`LocalHosts`] remembers.
const REMEMBERED: usize = 8;

impl LocalHosts {
    /// Hosts matching any of `patterns` (Go regexps).
    ///
    /// # Errors
    /// A pattern that does not compile, with Go's message.
    pub(crate) fn new(patterns: &[String]) -> Result<LocalHosts, String> {
        let patterns = patterns
            .iter()
            .map(|p| Regexp::new(p).map_err(|e| format!("accept-hosts {p:?}: {e}")))
            .collect::<Result<_, _>>()?;
        Ok(LocalHosts {
            patterns,
            accepted: RwLock::new(Vec::new()),
        })
    }

    fn accepts(&self, host: &str) -> bool {
        let read = |l: &RwLock<Vec<String>>| {
            l.read()
                .unwrap_or_else(PoisonError::into_inner)
                .iter()
                .any(|h| h == host)
        };
        if read(&self.accepted) {
            return true;
        }
        if !self.patterns.iter().any(|p| p.is_match(host)) {
            return false;
        }
        let mut accepted = self
            .accepted
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        if accepted.len() < REMEMBERED && !accepted.iter().any(|h| h == host) {
            accepted.push(host.to_owned());
        }
        true
    }

    /// Checks the `Host` (or h2 `:authority`) and the `Origin` of a request.
    ///
    /// # Errors
    /// 403 for a host or an origin not accepted.
    pub(crate) fn check(&self, parts: &Parts) -> Result<(), ApiError> {
        // The host Go's `req.Host` holds: the request target's authority when it has one (an
        // absolute-form target, whose `Host` header `readRequest` ignores; h2's `:authority`),
        // else the `Host` header (net/http refused several before this).
        let hosts: Vec<&str> = match parts.uri.authority() {
            // Without its user-info (`u@localhost`), as `url.Parse` splits it off.
            Some(a) => vec![a.as_str().rsplit('@').next().unwrap_or("")],
            None => {
                let mut hosts: Vec<&str> = parts
                    .headers
                    .get_all(header::HOST)
                    .iter()
                    .map(|v| v.to_str().unwrap_or(""))
                    .collect();
                if hosts.is_empty() {
                    hosts.push("");
                }
                hosts
            }
        };
        for authority in hosts {
            let host = host_of(authority);
            if !self.accepts(host) {
                return Err(forbidden(format!(
                    "host {host:?} is not served: without a token, this server answers only the hosts of --accept-hosts (localhost by default)"
                )));
            }
        }
        if let Some(origin) = parts.headers.get(header::ORIGIN) {
            let origin = origin.to_str().unwrap_or("");
            // An origin without a host (`null`) is matched as it is: only a pattern such as `.*`
            // accepts it.
            if !self.accepts(origin_host(origin).unwrap_or(origin)) {
                return Err(forbidden(format!(
                    "origin {origin:?} is not served: without a token, this server answers only requests from the hosts of --accept-hosts (localhost by default)"
                )));
            }
        }
        Ok(())
    }
}

fn forbidden(message: String) -> ApiError {
    ApiError {
        code: 403,
        reason: "Forbidden",
        message,
        details: None,
        list_continue: None,
    }
}

/// The host of a `Host` value: without its port, an IPv6 literal with its brackets.
fn host_of(authority: &str) -> &str {
    if authority.starts_with('[') {
        return authority
            .find(']')
            .map_or(authority, |end| &authority[..=end]);
    }
    match authority.rsplit_once(':') {
        Some((host, port)) if !host.contains(':') && port.bytes().all(|b| b.is_ascii_digit()) => {
            host
        }
        _ => authority,
    }
}

/// The host of an `Origin` (`scheme://host[:port]`); `None` for `null` or anything else.
fn origin_host(origin: &str) -> Option<&str> {
    let (_, rest) = origin.split_once("://")?;
    let authority = rest.split('/').next().unwrap_or(rest);
    let host = host_of(authority);
    (!host.is_empty()).then_some(host)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(host: Option<&str>, origin: Option<&str>) -> Parts {
        let mut b = http::Request::builder().uri("/api");
        if let Some(h) = host {
            b = b.header("host", h);
        }
        if let Some(o) = origin {
            b = b.header("origin", o);
        }
        b.body(()).unwrap().into_parts().0
    }

    fn default() -> LocalHosts {
        LocalHosts::new(&DEFAULT_ACCEPT_HOSTS.map(str::to_owned)).unwrap()
    }

    #[test]
    fn remembered_hosts_answer_as_the_patterns_do() {
        let l = default();
        // Twice each: the second answer comes from the remembered hosts.
        for _ in 0..2 {
            assert!(l.accepts("localhost") && l.accepts("127.0.0.1"));
            assert!(!l.accepts("rebind.attacker.example") && !l.accepts("localhost."));
        }
        assert_eq!(*l.accepted.read().unwrap(), ["localhost", "127.0.0.1"]);
        // Any host accepted: only the first few are kept.
        let any = LocalHosts::new(&[".*".to_owned()]).unwrap();
        for i in 0..100 {
            assert!(any.accepts(&format!("h{i}")));
        }
        assert_eq!(any.accepted.read().unwrap().len(), REMEMBERED);
        assert!(any.accepts("h99") && any.accepts("h0"));
    }

    #[test]
    fn local_hosts_with_any_port() {
        let l = default();
        for host in [
            "localhost",
            "localhost:8001",
            "127.0.0.1:35555",
            "[::1]",
            "[::1]:8001",
        ] {
            assert!(l.check(&parts(Some(host), None)).is_ok(), "{host}");
        }
        for host in [
            "rebind.attacker.example",
            "localhost.attacker.example",
            "127.0.0.1.nip.io:80",
            "0.0.0.0:8001",
            "",
        ] {
            let e = l.check(&parts(Some(host), None)).unwrap_err();
            assert_eq!((e.code, e.reason), (403, "Forbidden"), "{host}");
        }
        assert!(l.check(&parts(None, None)).is_err());
    }

    #[test]
    fn foreign_origins() {
        let l = default();
        let ok = Some("127.0.0.1:8001");
        assert!(l.check(&parts(ok, Some("http://localhost:3000"))).is_ok());
        assert!(l.check(&parts(ok, Some("https://[::1]"))).is_ok());
        for origin in ["http://attacker.example", "null", "file://", "garbage"] {
            assert_eq!(
                l.check(&parts(ok, Some(origin))).unwrap_err().code,
                403,
                "{origin}"
            );
        }
        // Any host for people who know why.
        let any = LocalHosts::new(&[".*".to_owned()]).unwrap();
        assert!(
            any.check(&parts(Some("x.example"), Some("http://y.example")))
                .is_ok()
        );
        assert!(LocalHosts::new(&["a**".to_owned()]).is_err());
    }
}
