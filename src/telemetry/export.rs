//! A batching span processor with a bounded queue that never blocks the
//! caller and counts what it drops.
//!
//! The SDK's `BatchSpanProcessor` also never blocks, but keeps its drop
//! count private and logs only the first drop; operators need the count
//! (`ladder_telemetry_spans_dropped_total`). Spans go into a bounded
//! channel with `try_send`; a task on the runtime batches them (up to
//! `OTEL_BSP_MAX_EXPORT_BATCH_SIZE`, or every `OTEL_BSP_SCHEDULE_DELAY`) and
//! exports; when the queue (`OTEL_BSP_MAX_QUEUE_SIZE`) is full, a span is
//! dropped and counted. Flush and shutdown are answered in order, so
//! everything queued before them is exported first.

use opentelemetry::Context;
use opentelemetry_sdk::error::{OTelSdkError, OTelSdkResult};
use opentelemetry_sdk::trace::{Span, SpanData, SpanExporter, SpanProcessor};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::mpsc;

/// Counters shared with the metrics.
#[derive(Debug, Default)]
pub struct SpanStats {
    pub exported: AtomicU64,
    pub dropped: AtomicU64,
    pub export_errors: AtomicU64,
}

enum Ctl {
    Flush(std::sync::mpsc::Sender<()>),
    Shutdown(std::sync::mpsc::Sender<()>),
}

#[derive(Debug, Clone, Copy)]
pub struct QueueSettings {
    pub max_queue: usize,
    pub max_batch: usize,
    pub delay: Duration,
}

impl QueueSettings {
    /// The standard `OTEL_BSP_*` variables, with the SDK's defaults.
    pub fn from_env() -> Self {
        let num = |k: &str, d: u64| std::env::var(k).ok().and_then(|v| v.trim().parse::<u64>().ok()).unwrap_or(d);
        let max_queue = num("OTEL_BSP_MAX_QUEUE_SIZE", 2048).max(1) as usize;
        QueueSettings {
            max_queue,
            max_batch: (num("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", 512).max(1) as usize).min(max_queue),
            delay: Duration::from_millis(num("OTEL_BSP_SCHEDULE_DELAY", 1000).max(1)),
        }
    }
}

#[derive(Debug)]
pub struct QueueProcessor {
    spans: mpsc::Sender<SpanData>,
    ctl: mpsc::UnboundedSender<Ctl>,
    stats: Arc<SpanStats>,
}

impl QueueProcessor {
    /// Starts the export task. Must be called inside a tokio runtime.
    pub fn start<E: SpanExporter + 'static>(exporter: E, s: QueueSettings, stats: Arc<SpanStats>) -> Self {
        let (tx, mut rx) = mpsc::channel::<SpanData>(s.max_queue);
        let (ctl_tx, mut ctl_rx) = mpsc::unbounded_channel::<Ctl>();
        let worker_stats = stats.clone();
        tokio::spawn(async move {
            let mut buf: Vec<SpanData> = Vec::with_capacity(s.max_batch);
            let mut tick = tokio::time::interval(s.delay);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            let export = |batch: Vec<SpanData>| {
                let n = batch.len() as u64;
                let stats = worker_stats.clone();
                let fut = exporter.export(batch);
                async move {
                    match fut.await {
                        Ok(()) => {
                            stats.exported.fetch_add(n, Ordering::Relaxed);
                        }
                        Err(e) => {
                            // Counted; logged without a span, so the log
                            // line itself never becomes a span.
                            if stats.export_errors.fetch_add(1, Ordering::Relaxed).is_multiple_of(100) {
                                crate::warn_every!("span export failed", error = %e, spans = n, "span export failed");
                            }
                        }
                    }
                }
            };
            loop {
                tokio::select! {
                    biased;
                    ctl = ctl_rx.recv() => {
                        // Everything queued before the request goes first.
                        while let Ok(span) = rx.try_recv() {
                            buf.push(span);
                        }
                        while !buf.is_empty() {
                            let n = buf.len().min(s.max_batch);
                            export(buf.drain(..n).collect()).await;
                        }
                        match ctl {
                            Some(Ctl::Flush(reply)) => {
                                let _ = reply.send(());
                            }
                            Some(Ctl::Shutdown(reply)) => {
                                let _ = exporter.shutdown();
                                let _ = reply.send(());
                                break;
                            }
                            None => break,
                        }
                    }
                    span = rx.recv() => match span {
                        Some(span) => {
                            buf.push(span);
                            if buf.len() >= s.max_batch {
                                export(std::mem::take(&mut buf)).await;
                            }
                        }
                        None => break,
                    },
                    _ = tick.tick() => {
                        if !buf.is_empty() {
                            export(std::mem::take(&mut buf)).await;
                        }
                    }
                }
            }
        });
        QueueProcessor { spans: tx, ctl: ctl_tx, stats }
    }

    fn request(&self, make: impl FnOnce(std::sync::mpsc::Sender<()>) -> Ctl, timeout: Duration) -> OTelSdkResult {
        let (tx, rx) = std::sync::mpsc::channel();
        self.ctl.send(make(tx)).map_err(|_| OTelSdkError::AlreadyShutdown)?;
        rx.recv_timeout(timeout).map_err(|_| OTelSdkError::Timeout(timeout))
    }
}

impl SpanProcessor for QueueProcessor {
    fn on_start(&self, _span: &mut Span, _cx: &Context) {}

    fn on_end(&self, span: SpanData) {
        if !span.span_context.is_sampled() {
            return;
        }
        if self.spans.try_send(span).is_err() {
            self.stats.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Blocks until queued spans are exported (at most 5 s). Call from a
    /// blocking thread, never from a runtime worker.
    fn force_flush(&self) -> OTelSdkResult {
        self.request(Ctl::Flush, Duration::from_secs(5))
    }

    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.request(Ctl::Shutdown, timeout)
    }
}
