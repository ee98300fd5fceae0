//! What the transport puts around a connection's bytes: the first bytes read back after the
//! protocol is known ([`Rewind`]), and `Status` bodies on the answers hyper writes by itself to a
//! request head it cannot parse ([`StatusBodies`]).

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncReadExt as _, AsyncWrite, ReadBuf};

use crate::http::status::ApiError;

/// The client preface of HTTP/2 (RFC 9113 §3.4).
const PREFACE: &[u8; 24] = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n";

/// Reads until the protocol is known: `true` for h2 (the whole preface), `false` for HTTP/1 (a
/// byte that leaves the preface); returns the bytes read.
///
/// # Errors
/// The connection failing or closing first.
pub(super) async fn detect<T: AsyncRead + Unpin>(io: &mut T) -> io::Result<(bool, Vec<u8>)> {
    let mut buf = [0u8; PREFACE.len()];
    let mut len = 0;
    loop {
        let n = io.read(&mut buf[len..]).await?;
        if n == 0 {
            return Err(io::ErrorKind::UnexpectedEof.into());
        }
        len += n;
        if buf[..len] != PREFACE[..len] {
            return Ok((false, buf[..len].to_vec()));
        }
        if len == PREFACE.len() {
            return Ok((true, buf.to_vec()));
        }
    }
}

/// A connection whose first bytes, already read, are read again.
pub(super) struct Rewind<T> {
    prefix: Vec<u8>,
    at: usize,
    inner: T,
}

impl<T> Rewind<T> {
    pub(super) fn new(prefix: Vec<u8>, inner: T) -> Rewind<T> {
        Rewind {
            prefix,
            at: 0,
            inner,
        }
    }

    pub(super) fn inner(&self) -> &T {
        &self.inner
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Rewind<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.at < this.prefix.len() {
            let n = buf.remaining().min(this.prefix.len() - this.at);
            buf.put_slice(&this.prefix[this.at..this.at + n]);
            this.at += n;
            return Poll::Ready(Ok(()));
        }
        Pin::new(&mut this.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Rewind<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// An HTTP/1 connection whose automatic error answers get a `Status` body. hyper answers a
/// request head it cannot parse (`400`), a request line over 64 KiB (`414`) or a head over its
/// buffer (`431`) by itself, with no body, before any handler runs; the API server answers
/// every failure with a `Status`. Those heads are recognised as hyper writes them (no response
/// is in progress, the head comes alone with `content-length: 0`; every answer of the handlers
/// has a body) and replaced, `connection: close` included, as hyper closes after them.
pub(super) struct StatusBodies<T> {
    inner: T,
    pending: Vec<u8>,
}

impl<T> StatusBodies<T> {
    pub(super) fn new(inner: T) -> StatusBodies<T> {
        StatusBodies {
            inner,
            pending: Vec::new(),
        }
    }
}

/// The answer that replaces one of hyper's bodiless error heads.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    const AUTOMATIC: [(u16, &str, &str); 3] = [
        (400, "400 Bad Request", "the request is not valid HTTP/1.1"),
        (
            414,
            "414 URI Too Long",
            "the request URI is longer than the server reads (65534 bytes)",
        ),
        (
            431,
            "431 Request Header Fields Too Large",
            "the request head is larger than the server reads",
        ),
    ];
    if !head.ends_with(b"\r\n\r\n") || head.len() > 512 {
        return None;
    }
    let text = std::str::from_utf8(head).ok()?;
    let (status, headers) = text.split_once("\r\n")?;
    if !headers
        .split("\r\n")
        .any(|h| h.eq_ignore_ascii_case("content-length: 0"))
    {
        return None;
    }
    let (code, line, message) = AUTOMATIC
        .iter()
        .find(|(_, line, _)| status.strip_prefix("HTTP/1.1 ") == Some(*line))?;
    let mut e = ApiError::bad_request(*message);
    e.code = *code;
    let body = e.to_status().to_string();
    Some(
        format!(
            "HTTP/1.1 {line}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
            body.len()
        )
        .into_bytes(),
    )
}

impl<T: AsyncWrite + Unpin> StatusBodies<T> {
    /// Writes out a replacement before anything else.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.pending.is_empty() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.pending.drain(..n);
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for StatusBodies<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for StatusBodies<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some(answer) = replacement(buf) {
            self.pending = answer;
            // Taken whole; written out by the next poll.
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.poll_pending(cx))?;
        if let Some(first) = bufs.iter().find(|b| !b.is_empty())
            && bufs.iter().filter(|b| !b.is_empty()).count() == 1
            && let Some(answer) = replacement(first)
        {
            self.pending = answer;
            return Poll::Ready(Ok(first.len()));
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.poll_pending(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_bodiless_automatic_heads_are_replaced() {
        let head = b"HTTP/1.1 414 URI Too Long\r\ncontent-length: 0\r\ndate: Thu, 01 Jan 1970 00:00:00 GMT\r\n\r\n";
        let answer = String::from_utf8(replacement(head).unwrap()).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        assert!(head.starts_with("HTTP/1.1 414 URI Too Long\r\n"), "{head}");
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let status: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(
            (&status["kind"], &status["code"], &status["reason"]),
            (&"Status".into(), &414.into(), &"BadRequest".into())
        );
        // A handler's answer always has a body; other codes are left alone.
        assert!(replacement(b"HTTP/1.1 400 Bad Request\r\ncontent-length: 120\r\n\r\n").is_none());
        assert!(replacement(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n").is_none());
        assert!(
            replacement(
                b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n"
            )
            .is_some()
        );
        assert!(replacement(b"{\"kind\":\"Status\"}").is_none());
    }

    #[tokio::test]
    async fn detection_and_rewind() {
        let (mut client, server) = tokio::io::duplex(64);
        tokio::io::AsyncWriteExt::write_all(&mut client, b"GET / HTTP/1.1\r\n")
            .await
            .unwrap();
        let mut server = server;
        let (h2, prefix) = detect(&mut server).await.unwrap();
        assert!(!h2);
        let mut again = Rewind::new(prefix, server);
        let mut line = [0u8; 16];
        again.read_exact(&mut line).await.unwrap();
        assert_eq!(&line, b"GET / HTTP/1.1\r\n");
        let (mut client, mut server) = tokio::io::duplex(64);
        tokio::io::AsyncWriteExt::write_all(&mut client, PREFACE)
            .await
            .unwrap();
        assert!(detect(&mut server).await.unwrap().0);
        drop(client);
        let (client, mut server) = tokio::io::duplex(64);
        drop(client);
        assert!(detect(&mut server).await.is_err());
    }
}
