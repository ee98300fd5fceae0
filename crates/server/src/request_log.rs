//! A bounded log of the requests a server answered, for tests to assert on (which requests a
//! controller made, with which field manager, and what it got back) and to print when a test
//! fails.
//!
//! Not a Kubernetes feature: the API server's audit log is its closest relative (method, URI,
//! user agent, response code), kept here in memory, newest last, oldest dropped first.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

/// One request and its answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestRecord {
    /// Position in the server's sequence of requests, from 1.
    pub seq: u64,
    /// `GET`, `PATCH`, …
    pub method: String,
    /// `/apis/stable.example.com/v1/namespaces/default/crontabs/x`
    pub path: String,
    /// The raw query, without `?`.
    pub query: String,
    /// `watch=true` or a `/watch/` path.
    pub watch: bool,
    /// The HTTP status answered (for a watch: when the stream started).
    pub status: u16,
    /// `User-Agent`.
    pub user_agent: String,
    /// The `fieldManager` query parameter.
    pub field_manager: String,
    /// `Content-Type` of the request body.
    pub content_type: String,
    /// Time to the response head.
    pub elapsed: Duration,
}

impl RequestRecord {
    /// The value of query parameter `key` (first occurrence, percent-decoded).
    #[must_use]
    pub fn query_param(&self, key: &str) -> Option<String> {
        let q = crate::http::query::Query::parse(&self.query);
        q.get(key).map(str::to_owned)
    }
}

impl fmt::Display for RequestRecord {
    /// `#12 PATCH /apis/…/crontabs/x?fieldManager=m 200 [application/apply-patch+yaml] (kube-rs)`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{} {} {}", self.seq, self.method, self.path)?;
        if !self.query.is_empty() {
            write!(f, "?{}", self.query)?;
        }
        write!(f, " {}", self.status)?;
        if !self.content_type.is_empty() {
            write!(f, " [{}]", self.content_type)?;
        }
        if !self.user_agent.is_empty() {
            write!(f, " ({})", self.user_agent)?;
        }
        Ok(())
    }
}

/// The last `capacity` requests.
#[derive(Debug)]
pub struct RequestLog {
    capacity: usize,
    inner: Mutex<(u64, VecDeque<RequestRecord>)>,
}

impl RequestLog {
    /// A log keeping `capacity` records (0: none).
    #[must_use]
    pub fn new(capacity: usize) -> RequestLog {
        RequestLog {
            capacity,
            inner: Mutex::new((0, VecDeque::new())),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, VecDeque<RequestRecord>)> {
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Appends a record (its `seq` is assigned here).
    pub fn push(&self, mut record: RequestRecord) {
        if self.capacity == 0 {
            return;
        }
        let mut g = self.lock();
        g.0 += 1;
        record.seq = g.0;
        if g.1.len() == self.capacity {
            g.1.pop_front();
        }
        g.1.push_back(record);
    }

    /// The records kept, oldest first.
    #[must_use]
    pub fn records(&self) -> Vec<RequestRecord> {
        self.lock().1.iter().cloned().collect()
    }

    /// The records after sequence number `seq`.
    #[must_use]
    pub fn since(&self, seq: u64) -> Vec<RequestRecord> {
        self.lock()
            .1
            .iter()
            .filter(|r| r.seq > seq)
            .cloned()
            .collect()
    }

    /// The sequence number of the last request logged (0 before any).
    #[must_use]
    pub fn last_seq(&self) -> u64 {
        self.lock().0
    }

    /// Forgets every record (sequence numbers go on).
    pub fn clear(&self) {
        self.lock().1.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(path: &str) -> RequestRecord {
        RequestRecord {
            seq: 0,
            method: "GET".into(),
            path: path.into(),
            query: "&limit=500&fieldManager=a%20b".into(),
            watch: false,
            status: 200,
            user_agent: String::new(),
            field_manager: String::new(),
            content_type: String::new(),
            elapsed: Duration::ZERO,
        }
    }

    #[test]
    fn bounded_and_ordered() {
        let log = RequestLog::new(2);
        log.push(rec("/a"));
        log.push(rec("/b"));
        log.push(rec("/c"));
        let r = log.records();
        assert_eq!(r.len(), 2);
        assert_eq!((r[0].seq, r[0].path.as_str()), (2, "/b"));
        assert_eq!(log.since(2).len(), 1);
        assert_eq!(r[1].query_param("fieldManager").as_deref(), Some("a b"));
        assert_eq!(
            r[1].to_string(),
            "#3 GET /c?&limit=500&fieldManager=a%20b 200"
        );
        log.clear();
        assert!(log.records().is_empty());
        assert_eq!(log.last_seq(), 3);
        let none = RequestLog::new(0);
        none.push(rec("/a"));
        assert!(none.records().is_empty());
    }
}
