//! Accepting client connections without letting any number of them take
//! the daemon down.
//!
//! - At most `server.max_connections` connections are held. When one more
//!   arrives, the connection that has been quiet longest (no byte read or
//!   written) is closed to let it in: thousands of idle connections cannot
//!   lock out a client that connects now, and each held connection costs a
//!   file descriptor and HTTP/2 buffers.
//! - When the process runs out of file descriptors (`accept` fails with
//!   EMFILE/ENFILE) the same happens: the quietest connection is closed and
//!   the accept retried, instead of spinning on the error while new clients
//!   wait in the kernel's queue.
//! - Other accept errors are logged and retried after a short pause.
//! - Accepted sockets get TCP_NODELAY and are written without vectored
//!   writes (see [`Conn`]).

use futures::Stream;
use futures::task::AtomicWaker;
use rustc_hash::FxHashMap;
use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tokio::time::Instant;

/// The connections being served.
pub struct Connections {
    max: usize,
    epoch: Instant,
    next_id: AtomicU64,
    live: Mutex<FxHashMap<u64, Arc<ConnState>>>,
    /// Signalled whenever a connection is dropped (its descriptor closed).
    released: Notify,
    /// Connections closed to make room (a counter for metrics and tests).
    evicted: AtomicU64,
}

struct ConnState {
    /// Milliseconds since `epoch` of the last byte read or written.
    last_active_ms: AtomicU64,
    closing: AtomicBool,
    /// The connection's reader, woken to see `closing`.
    waker: AtomicWaker,
}

impl Connections {
    pub fn new(max: usize) -> Arc<Connections> {
        Arc::new(Connections {
            max: max.max(1),
            epoch: Instant::now(),
            next_id: AtomicU64::new(0),
            live: Mutex::new(FxHashMap::default()),
            released: Notify::new(),
            evicted: AtomicU64::new(0),
        })
    }

    /// Connections held now.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Connections closed so far to make room for new ones.
    pub fn evicted(&self) -> u64 {
        self.evicted.load(Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, FxHashMap<u64, Arc<ConnState>>> {
        // A panic while holding this lock leaves the map consistent (every
        // operation is a single insert, remove or scan).
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn register(self: &Arc<Self>, stream: TcpStream) -> Conn {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let state = Arc::new(ConnState {
            last_active_ms: AtomicU64::new(self.now_ms()),
            closing: AtomicBool::new(false),
            waker: AtomicWaker::new(),
        });
        let held = {
            let mut live = self.lock();
            live.insert(id, state.clone());
            live.len()
        };
        if held > self.max {
            self.close_quietest(Some(id));
        }
        Conn { io: stream, state, id, connections: self.clone(), out: Vec::new(), yielded: false }
    }

    /// Closes the connection that has been quiet longest (never `spare`).
    /// Returns whether there was one to close.
    fn close_quietest(&self, spare: Option<u64>) -> bool {
        let victim = {
            let live = self.lock();
            live.iter()
                .filter(|(id, s)| Some(**id) != spare && !s.closing.load(Ordering::Relaxed))
                .min_by_key(|(_, s)| s.last_active_ms.load(Ordering::Relaxed))
                .map(|(_, s)| s.clone())
        };
        let Some(victim) = victim else { return false };
        victim.closing.store(true, Ordering::Relaxed);
        victim.waker.wake();
        let n = self.evicted.fetch_add(1, Ordering::Relaxed) + 1;
        // First, then every 1,000th: under a flood a line per eviction
        // would cost more than the eviction.
        if n == 1 || n.is_multiple_of(1000) {
            tracing::warn!(
                evicted_total = n,
                max = self.max,
                "closed the least recently active connection to let a new one in (server.max_connections or the file descriptor limit)"
            );
        }
        true
    }

    fn release(&self, id: u64) {
        self.lock().remove(&id);
        self.released.notify_waiters();
    }

    /// Waits (at most `within`) for some connection to close.
    async fn wait_released(&self, within: Duration) {
        let _ = tokio::time::timeout(within, self.released.notified()).await;
    }
}

/// The stream of accepted connections tonic serves.
pub fn incoming(listener: TcpListener, connections: Arc<Connections>) -> impl Stream<Item = io::Result<Conn>> {
    futures::stream::unfold((listener, connections), |(listener, connections)| async move {
        let mut errors = 0u64;
        loop {
            match listener.accept().await {
                Ok((stream, _)) => {
                    // serve_with_incoming ignores the builder's TCP settings:
                    // without TCP_NODELAY small replies wait on delayed ACKs
                    // (~40 ms).
                    if let Err(e) = stream.set_nodelay(true) {
                        tracing::debug!(error = %e, "cannot set TCP_NODELAY");
                    }
                    let conn = connections.register(stream);
                    return Some((Ok(conn), (listener, connections)));
                }
                Err(e) if out_of_descriptors(&e) => {
                    errors += 1;
                    if errors == 1 {
                        tracing::warn!(error = %e, held = connections.len(), "out of file descriptors: closing the least recently active connection");
                    }
                    if connections.close_quietest(None) {
                        connections.wait_released(Duration::from_millis(100)).await;
                    } else {
                        // Nothing of ours to close: the descriptors are used
                        // elsewhere in the process. Do not spin.
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
                // The client gave up between connecting and our accept.
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset | io::ErrorKind::Interrupted
                    ) => {}
                Err(e) => {
                    errors += 1;
                    if errors == 1 || errors.is_multiple_of(1000) {
                        tracing::warn!(error = %e, "accept failed; retrying");
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
    })
}

/// EMFILE (this process) or ENFILE (the whole system): the same numbers on
/// Linux and the BSDs.
fn out_of_descriptors(e: &io::Error) -> bool {
    matches!(e.raw_os_error(), Some(23 | 24))
}

/// A client connection as h2 should see it: without vectored writes, and
/// closed when [`Connections`] needs its place.
///
/// With vectored writes h2 keeps every DATA payload of 256 bytes or more as
/// a separate buffer and must write it out before it can encode the next
/// frame, so each answer (a `Decision` is 300 bytes to a few KB) costs one
/// write for its headers and data and another for its trailers. Without
/// them h2 copies payloads under 1 KiB into its 16 KiB write buffer: one
/// write per answer.
///
/// And answers are written out together: h2 flushes after every answer it
/// encodes, and a flush here first lets the calls that are ready run (the
/// connection's task yields once), so the answers they finish meanwhile go
/// in the same write. A write, not a byte, is what an answer costs the
/// sender: each write to a loopback socket wakes the client and runs its
/// receive path on the sender's CPU (BENCHMARKS.md, "Writes per answer",
/// counts them).
pub struct Conn {
    io: TcpStream,
    state: Arc<ConnState>,
    id: u64,
    connections: Arc<Connections>,
    /// Written by h2, not yet to the socket (at most `OUT_MAX` bytes).
    out: Vec<u8>,
    /// The pending flush has let the ready calls run once.
    yielded: bool,
}

/// What a connection holds back for one write.
const OUT_MAX: usize = 16 * 1024;

impl Conn {
    fn closing(&self) -> Option<io::Error> {
        self.state
            .closing
            .load(Ordering::Relaxed)
            .then(|| io::Error::new(io::ErrorKind::ConnectionAborted, "closed to make room for a new connection"))
    }

    fn touch(&self) {
        self.state.last_active_ms.store(self.connections.now_ms(), Ordering::Relaxed);
    }

    /// Writes `out` to the socket; ready once it is all written.
    fn poll_drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while !self.out.is_empty() {
            match Pin::new(&mut self.io).poll_write(cx, &self.out) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    self.out.drain(..n);
                    self.touch();
                }
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        self.connections.release(self.id);
    }
}

impl AsyncRead for Conn {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        // The connection's task always has a read pending (h2 reads
        // frames), so registering here is enough to be woken for closing.
        self.state.waker.register(cx.waker());
        if let Some(e) = self.closing() {
            return Poll::Ready(Err(e));
        }
        let before = buf.filled().len();
        let r = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.touch();
        }
        r
    }
}

impl AsyncWrite for Conn {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        if let Some(e) = self.closing() {
            return Poll::Ready(Err(e));
        }
        if self.out.len() + buf.len() > OUT_MAX {
            std::task::ready!(self.poll_drain(cx))?;
            if buf.len() > OUT_MAX {
                let r = Pin::new(&mut self.io).poll_write(cx, buf);
                if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
                    self.touch();
                }
                return r;
            }
        }
        self.out.extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if !self.out.is_empty() && !self.yielded {
            // Woken now, the task runs again after the tasks already
            // waiting to run (tokio queues a task that wakes itself last).
            self.yielded = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        std::task::ready!(self.poll_drain(cx))?;
        self.yielded = false;
        Pin::new(&mut self.io).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.poll_drain(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
    // `is_write_vectored` stays false (the default): see the type's docs.
}

impl tonic::transport::server::Connected for Conn {
    type ConnectInfo = <TcpStream as tonic::transport::server::Connected>::ConnectInfo;
    fn connect_info(&self) -> Self::ConnectInfo {
        self.io.connect_info()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pair(listener: &TcpListener) -> (TcpStream, TcpStream) {
        let addr = listener.local_addr().unwrap();
        let (client, server) = tokio::join!(TcpStream::connect(addr), listener.accept());
        (client.unwrap(), server.unwrap().0)
    }

    /// A client and the server's side of its connection, registered.
    async fn connected() -> (TcpStream, Conn) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let (client, server) = pair(&listener).await;
        (client, Connections::new(4).register(server))
    }

    /// Whatever h2 writes reaches the client, in order, by the end of each
    /// flush: writes of any size (over `OUT_MAX` too), flushed anywhere,
    /// and what is held when the connection shuts down.
    #[test]
    fn every_byte_written_is_delivered_in_order_by_each_flush() {
        use proptest::prelude::*;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        proptest!(ProptestConfig::with_cases(24), |(writes in proptest::collection::vec((1usize..(2 * OUT_MAX), any::<bool>()), 1..12))| {
            rt.block_on(async {
                let (mut client, mut conn) = connected().await;
                let mut sent = Vec::new();
                for (i, (len, flush)) in writes.iter().enumerate() {
                    let chunk: Vec<u8> = (0..*len).map(|k| (i * 31 + k) as u8).collect();
                    conn.write_all(&chunk).await.unwrap();
                    sent.extend_from_slice(&chunk);
                    if *flush {
                        conn.flush().await.unwrap();
                        let mut got = vec![0u8; sent.len()];
                        client.read_exact(&mut got).await.unwrap();
                        assert_eq!(got, sent, "flushed after write {i}");
                        sent.clear();
                    }
                }
                conn.shutdown().await.unwrap();
                let mut rest = Vec::new();
                client.read_to_end(&mut rest).await.unwrap();
                assert_eq!(rest, sent, "held at shutdown");
            });
        });
    }

    /// A flush lets the tasks ready to run go first (once), so answers they
    /// finish meanwhile go out in the same write.
    #[tokio::test]
    async fn a_flush_lets_the_ready_tasks_run_once_before_it_writes() {
        use std::future::Future;
        use tokio::io::AsyncWriteExt;
        let (_client, mut conn) = connected().await;
        conn.write_all(b"answer").await.unwrap();
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        let mut flush = std::pin::pin!(conn.flush());
        assert!(flush.as_mut().poll(&mut cx).is_pending(), "the first poll yields");
        assert!(matches!(flush.as_mut().poll(&mut cx), Poll::Ready(Ok(()))), "the second writes");
        let mut nothing = std::pin::pin!(conn.flush());
        assert!(matches!(nothing.as_mut().poll(&mut cx), Poll::Ready(Ok(()))), "nothing held: no yield");
    }

    #[tokio::test]
    async fn past_the_limit_the_quietest_connection_is_closed_and_the_new_one_kept() {
        use tokio::io::AsyncReadExt;
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let connections = Connections::new(2);
        let (_c1, s1) = pair(&listener).await;
        let mut first = connections.register(s1);
        tokio::time::sleep(Duration::from_millis(5)).await;
        let (_c2, s2) = pair(&listener).await;
        let second = connections.register(s2);
        assert_eq!(connections.len(), 2);
        assert_eq!(connections.evicted(), 0);
        let (_c3, s3) = pair(&listener).await;
        let third = connections.register(s3);
        assert_eq!(connections.evicted(), 1);
        // The first (quietest) reads an error; the others are untouched.
        let mut buf = [0u8; 1];
        let e = first.read(&mut buf).await.unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::ConnectionAborted);
        assert!(second.closing().is_none() && third.closing().is_none());
        drop(first);
        assert_eq!(connections.len(), 2);
    }
}
