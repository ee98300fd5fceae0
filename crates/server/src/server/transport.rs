//! Connections: accepted, given until a deadline to show their protocol (TLS, then HTTP/1 or
//! h2), served through the filters and the handlers, closed when idle, and drained on shutdown.
//!
//! Mirrors apiserver `pkg/server/secure_serving.go` (`ReadHeaderTimeout` 32 s, `MaxHeaderBytes`
//! 1 MiB, h2 `IdleTimeout` 90 s and `MaxConcurrentStreams` 250) over Go's `net/http` (the TLS
//! handshake and each request head within the header timeout). hyper's own limits are set to
//! the same sizes; the filters check the head's size exactly ([`crate::filters`]). What differs: the deadline also
//! covers the bytes that tell HTTP/1 from h2 on cleartext (Go serves no h2c); h2 connections are
//! pinged (every 30 s, 20 s to answer) so that a peer that vanished is noticed.

use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use bytes::Bytes;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulConnection;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::io::{Rewind, StatusBodies, detect};
use crate::api::Api;
use crate::filters::{Filters, MAX_HEADER_BYTES, Peer, Permit};
use crate::http::negotiate;
use crate::http::response::{self, Body};

/// How long open connections get to finish on shutdown.
const GRACE: Duration = Duration::from_secs(5);

/// Deadlines of a connection.
#[derive(Clone, Copy, Debug)]
pub(super) struct Timeouts {
    /// To send the first request head (TLS handshake included), and each later one on HTTP/1.
    pub header_read: Duration,
    /// For an h2 connection with no request open.
    pub idle: Duration,
}

/// What serves the connections of one server.
pub(super) struct Transport {
    pub api: Arc<Api>,
    pub filters: Filters,
    pub tls: Option<tokio_rustls::TlsAcceptor>,
    pub timeouts: Timeouts,
}

/// Accepts connections until `shutdown`, then waits (up to 5 s) for them to finish.
pub(super) async fn accept_loop(
    listener: TcpListener,
    transport: Arc<Transport>,
    shutdown: CancellationToken,
) {
    let connections = TaskTracker::new();
    loop {
        let (stream, _) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(s) => s,
                // Out of file descriptors and the like: back off rather than spin.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        connections.spawn(connection(stream, Arc::clone(&transport), shutdown.clone()));
    }
    drop(listener);
    connections.close();
    let _ = tokio::time::timeout(GRACE, connections.wait()).await;
}

/// One connection: TLS and the protocol within the header deadline, then served.
async fn connection(stream: TcpStream, t: Arc<Transport>, shutdown: CancellationToken) {
    let _ = stream.set_nodelay(true);
    let deadline = tokio::time::Instant::now() + t.timeouts.header_read;
    match &t.tls {
        None => {
            let mut stream = stream;
            let Ok(Ok((h2, prefix))) = tokio::time::timeout_at(deadline, detect(&mut stream)).await
            else {
                return;
            };
            serve(
                &t,
                shutdown,
                Rewind::new(prefix, stream),
                h2,
                Peer::default(),
            )
            .await;
        }
        Some(acceptor) => {
            let Ok(Ok(mut tls)) = tokio::time::timeout_at(deadline, acceptor.accept(stream)).await
            else {
                return;
            };
            let Ok(Ok((h2, prefix))) = tokio::time::timeout_at(deadline, detect(&mut tls)).await
            else {
                return;
            };
            let tls = Rewind::new(prefix, tls);
            // The verifier accepted the chain if one was presented.
            let client_cert = tls
                .inner()
                .get_ref()
                .1
                .peer_certificates()
                .is_some_and(|c| !c.is_empty());
            serve(&t, shutdown, tls, h2, Peer { client_cert }).await;
        }
    }
}

async fn serve<I>(t: &Arc<Transport>, shutdown: CancellationToken, io: I, h2: bool, peer: Peer)
where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (active, idle_rx) = watch::channel(0usize);
    let active = Arc::new(active);
    let service = {
        let t = Arc::clone(t);
        service_fn(move |req| {
            let t = Arc::clone(&t);
            let open = Open::begin(&active);
            async move { Ok::<_, Infallible>(respond(&t, req, peer, Some(open)).await) }
        })
    };
    if h2 {
        let mut b = hyper::server::conn::http2::Builder::new(TokioExecutor::new());
        b.timer(TokioTimer::new())
            .max_concurrent_streams(250)
            .max_header_list_size(u32::try_from(MAX_HEADER_BYTES).unwrap_or(u32::MAX))
            .keep_alive_interval(Duration::from_secs(30))
            .keep_alive_timeout(Duration::from_secs(20));
        let conn = b.serve_connection(TokioIo::new(io), service);
        drive(conn, shutdown, idle(idle_rx, t.timeouts.idle)).await;
    } else {
        let mut b = hyper::server::conn::http1::Builder::new();
        b.timer(TokioTimer::new())
            .header_read_timeout(t.timeouts.header_read)
            .max_buf_size(MAX_HEADER_BYTES);
        let conn = b.serve_connection(TokioIo::new(StatusBodies::new(io)), service);
        // Between requests, hyper's header timeout closes an idle HTTP/1 connection.
        drive(conn, shutdown, std::future::pending()).await;
    }
}

/// Runs a connection until it ends, or until shutdown or idleness asks it to finish (h2
/// `GOAWAY`, HTTP/1 closing after the response in progress) within [`GRACE`].
async fn drive<C>(conn: C, shutdown: CancellationToken, idle: impl Future<Output = ()>)
where
    C: GracefulConnection,
{
    let mut conn = std::pin::pin!(conn);
    tokio::select! {
        _ = conn.as_mut() => return,
        () = shutdown.cancelled() => {}
        () = idle => {}
    }
    conn.as_mut().graceful_shutdown();
    let _ = tokio::time::timeout(GRACE, conn).await;
}

/// Resolves once no request has been open for `after`.
async fn idle(mut open: watch::Receiver<usize>, after: Duration) {
    loop {
        if *open.borrow_and_update() == 0 {
            match tokio::time::timeout(after, open.changed()).await {
                Err(_) => return,
                Ok(Ok(())) => {}
                Ok(Err(_)) => std::future::pending::<()>().await,
            }
        } else if open.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

/// A request open on a connection, until its response body is gone.
pub(super) struct Open(Arc<watch::Sender<usize>>);

impl Open {
    fn begin(count: &Arc<watch::Sender<usize>>) -> Open {
        count.send_modify(|n| *n += 1);
        Open(Arc::clone(count))
    }
}

impl Drop for Open {
    fn drop(&mut self) {
        self.0.send_modify(|n| *n = n.saturating_sub(1));
    }
}

/// The filters, then the handlers; `open` counts the request on its connection.
pub(super) async fn respond<B>(
    t: &Transport,
    req: http::Request<B>,
    peer: Peer,
    open: Option<Open>,
) -> http::Response<Tracked>
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let (mut parts, body) = req.into_parts();
    if let Some(resp) = super::unreadable::refusal(&parts) {
        return resp.map(|body| Tracked {
            body,
            _open: open,
            _permit: None,
        });
    }
    let (resp, permit) = match t.filters.admit(&mut parts, peer) {
        Err(e) => (
            response::error(&e, negotiate::error_encoding(&parts.headers)),
            None,
        ),
        Ok(permit) => (
            crate::handlers::handle(Arc::clone(&t.api), http::Request::from_parts(parts, body))
                .await,
            permit,
        ),
    };
    resp.map(|body| Tracked {
        body,
        _open: open,
        _permit: permit,
    })
}

/// A response body holding its request's place (open request, in-flight permit) until sent.
pub(super) struct Tracked {
    body: Body,
    _open: Option<Open>,
    _permit: Option<Permit>,
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Infallible>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}
