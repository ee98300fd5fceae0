//! Watches of the log-based backends (memory, redb): read the write log after the watch's
//! position in batches, then wait for the next commit. Mirrors etcd's `watchable_store.go` split
//! between unsynced watchers (catching up from history) and synced ones (fed by new writes),
//! without a separate fan-out: each watch tails the log itself.

use std::collections::VecDeque;
use std::future::Future;

use futures_util::stream;

use crate::{Event, EventStream, Result};

/// A write log a watch can tail.
pub(crate) trait LogTail: Send + 'static {
    /// Appends the matching events of the next batch after the watch's position to `buffer` and
    /// advances the position; `Ok(true)` when the end of the log was reached. Implementations
    /// mark the commit notification seen *before* reading, so no commit is missed by `wait`.
    fn fill(&mut self, buffer: &mut VecDeque<Event>) -> impl Future<Output = Result<bool>> + Send;

    /// Waits for the next commit; `false` when the store is gone.
    fn wait(&mut self) -> impl Future<Output = bool> + Send;
}

/// The event stream of a tail; it ends after yielding an error.
pub(crate) fn stream<T: LogTail>(tail: T) -> EventStream {
    let state = (tail, VecDeque::new(), false);
    Box::pin(stream::unfold(
        state,
        |(mut tail, mut buffer, failed)| async move {
            if failed {
                return None;
            }
            loop {
                if let Some(event) = buffer.pop_front() {
                    return Some((Ok(event), (tail, buffer, false)));
                }
                match tail.fill(&mut buffer).await {
                    Err(err) => return Some((Err(err), (tail, buffer, true))),
                    Ok(true) if buffer.is_empty() => {
                        if !tail.wait().await {
                            return None;
                        }
                    }
                    Ok(_) => {}
                }
            }
        },
    ))
}
