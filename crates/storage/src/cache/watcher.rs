//! One watcher of the watch cache (apiserver pkg/storage/cacher/`cache_watcher.go`): the changes
//! replayed from the history, then the live ones from its bounded channel.

use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use futures_core::Stream;
use tokio::sync::mpsc;

use super::Change;
use crate::{Error, Result, Revision};

/// What the cache and a watcher share.
pub(super) struct WatcherShared {
    /// Every event at or below this revision meant for the watcher has been queued: once the
    /// queue is empty, a bookmark at this revision is safe.
    pub(super) progress: AtomicU64,
    /// Why the cache ended the watcher.
    error: Mutex<Option<Error>>,
}

impl WatcherShared {
    pub(super) fn new(progress: Revision) -> Self {
        WatcherShared {
            progress: AtomicU64::new(progress),
            error: Mutex::new(None),
        }
    }

    pub(super) fn terminate(&self, error: Error) {
        *self
            .error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(error);
    }

    fn take_error(&self) -> Option<Error> {
        self.error
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
    }
}

/// A stream of the changes of one watch of a [`WatchCache`](super::WatchCache): in revision
/// order, each once. It ends after an error ([`Error::Lagged`] for a watcher that fell behind,
/// [`Error::Compacted`] when the backend lost history), or when the cache is dropped.
pub struct Watcher<O = ()> {
    replay: VecDeque<Arc<Change<O>>>,
    rx: mpsc::Receiver<Arc<Change<O>>>,
    shared: Arc<WatcherShared>,
    done: bool,
}

impl<O> Watcher<O> {
    pub(super) fn new(
        replay: VecDeque<Arc<Change<O>>>,
        rx: mpsc::Receiver<Arc<Change<O>>>,
        shared: Arc<WatcherShared>,
    ) -> Self {
        Watcher {
            replay,
            rx,
            shared,
            done: false,
        }
    }

    /// A revision for a bookmark event (the API server's `BOOKMARK`): every event up to it has
    /// been yielded. `None` while events are still queued (try again later) or after the end.
    #[must_use]
    pub fn bookmark_revision(&self) -> Option<Revision> {
        // Load first: the cache stores progress after queueing, so an empty queue seen after the
        // load means every event up to the loaded revision was yielded.
        let progress = self.shared.progress.load(Ordering::Acquire);
        (!self.done && self.replay.is_empty() && self.rx.is_empty() && !self.rx.is_closed())
            .then_some(progress)
    }
}

impl<O> Stream for Watcher<O> {
    type Item = Result<Arc<Change<O>>>;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        if self.done {
            return Poll::Ready(None);
        }
        if let Some(event) = self.replay.pop_front() {
            return Poll::Ready(Some(Ok(event)));
        }
        match self.rx.poll_recv(cx) {
            Poll::Ready(Some(event)) => Poll::Ready(Some(Ok(event))),
            Poll::Ready(None) => {
                self.done = true;
                Poll::Ready(self.shared.take_error().map(Err))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}
