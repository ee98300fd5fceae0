//! The in-flight limit: at most so many requests at once, mutating and read-only counted apart,
//! long-running ones (watches) not counted; past it, 429 with `Retry-After: 1`.
//!
//! Mirrors apiserver `pkg/server/filters/maxinflight.go` (`WithMaxInFlightLimit`: `get`, `list`
//! and `watch` are read-only, everything else mutating; a full channel answers
//! `tooManyRequests`, `Retry-After: 1`, `Too many requests, please try again later.`) with the
//! defaults of `--max-requests-inflight` (400) and `--max-mutating-requests-inflight` (200).
//! What differs: the answer is a `Status` (reason `TooManyRequests`, `retryAfterSeconds: 1`)
//! where Go writes that text alone; clients retry either the same way.

use std::sync::Arc;

use http::Method;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::http::query::Query;
use crate::http::route::Route;
use crate::http::status::{ApiError, Details};

/// A place among the requests in flight, held until the response has been sent.
pub(crate) type Permit = OwnedSemaphorePermit;

/// The two limits; `None` is no limit (Go's 0).
pub(crate) struct InFlight {
    read_only: Option<Arc<Semaphore>>,
    mutating: Option<Arc<Semaphore>>,
}

impl InFlight {
    /// At most `read_only` and `mutating` requests at once (0: unlimited).
    pub(crate) fn new(read_only: usize, mutating: usize) -> InFlight {
        let limit = |n: usize| (n > 0).then(|| Arc::new(Semaphore::new(n)));
        InFlight {
            read_only: limit(read_only),
            mutating: limit(mutating),
        }
    }

    /// A permit for a request, none for a watch.
    ///
    /// # Errors
    /// 429 when the request's kind is at its limit.
    pub(crate) fn admit(
        &self,
        method: &Method,
        route: &Route,
        query: Option<&Query>,
    ) -> Result<Option<Permit>, ApiError> {
        let read_only = *method == Method::GET || *method == Method::HEAD;
        if read_only && is_watch(route, query) {
            return Ok(None);
        }
        let limit = if read_only {
            &self.read_only
        } else {
            &self.mutating
        };
        match limit {
            None => Ok(None),
            Some(s) => Arc::clone(s)
                .try_acquire_owned()
                .map(Some)
                .map_err(|_| too_many_requests()),
        }
    }
}

/// A watch, as apiserver `requestinfo.go` tells one: a `/watch/` path, or a `watch` parameter
/// other than `0` or `false`.
fn is_watch(route: &Route, query: Option<&Query>) -> bool {
    // The handler's reading of the query (decoded, the first value, Go's booleans), so that
    // what is served as a watch is exactly what goes uncounted: `wat%63h=true` is a watch,
    // `watch=false&watch=true` is not. A query the handler refuses is not one either.
    matches!(route, Route::Resource(p) if p.watch_path)
        || query.is_some_and(|q| q.bool("watch").unwrap_or(false))
}

/// 429 `Too many requests, please try again later.`, retry after a second.
fn too_many_requests() -> ApiError {
    ApiError {
        code: 429,
        reason: "TooManyRequests",
        message: "Too many requests, please try again later.".to_owned(),
        details: Some(Box::new(Details {
            retry_after_seconds: 1,
            ..Details::default()
        })),
        list_continue: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::route;

    #[test]
    fn limits_apart_and_watches_free() {
        let f = InFlight::new(2, 1);
        let get = |p: &str, q: Option<&str>| {
            let q = q.map(Query::parse);
            f.admit(&Method::GET, &route::parse(p), q.as_ref())
        };
        let a = get("/api/v1/namespaces", None).unwrap();
        let b = get("/api/v1/namespaces", Some("limit=5")).unwrap();
        let e = get("/api/v1/namespaces", None).unwrap_err();
        assert_eq!((e.code, e.reason), (429, "TooManyRequests"));
        assert_eq!(e.message, "Too many requests, please try again later.");
        assert_eq!(e.to_status()["details"]["retryAfterSeconds"], 1);
        // Watches are not counted; mutating requests have their own limit.
        assert!(get("/api/v1/namespaces", Some("watch=true")).is_ok());
        assert!(get("/api/v1/watch/namespaces", None).is_ok());
        assert!(get("/apis/stable.example.com/v1/watch/crontabs", None).is_ok());
        assert!(get("/api/v1/namespaces", Some("watch=false")).is_err());
        // As the handler reads the query: decoded, the first value, Go's booleans, no `;` pairs.
        for q in [
            "watch=false&watch=true",
            "watch=%30",
            "x=1;watch=true",
            "watch=maybe",
        ] {
            assert!(get("/api/v1/namespaces", Some(q)).is_err(), "{q}");
        }
        for q in ["wat%63h=true", "watch=1&watch=0", "watch=T"] {
            assert!(get("/api/v1/namespaces", Some(q)).is_ok(), "{q}");
        }
        let w = f
            .admit(&Method::POST, &route::parse("/api/v1/namespaces"), None)
            .unwrap();
        assert_eq!(
            f.admit(&Method::DELETE, &route::parse("/api/v1/namespaces/x"), None)
                .unwrap_err()
                .code,
            429
        );
        drop((a, w));
        assert!(get("/api/v1/namespaces", None).is_ok());
        assert!(
            f.admit(&Method::PATCH, &route::parse("/api/v1/namespaces/x"), None)
                .is_ok()
        );
        drop(b);
        let unlimited = InFlight::new(0, 0);
        assert!(
            unlimited
                .admit(&Method::GET, &route::parse("/api"), None)
                .unwrap()
                .is_none()
        );
    }
}
