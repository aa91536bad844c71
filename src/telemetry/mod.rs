//! Telemetry: structured logs, OpenTelemetry traces and metrics, decision
//! records, and the redaction of user text across all of them.
//!
//! - Logs: `tracing` to stderr, pretty or JSON (`telemetry.log_format`),
//!   filtered by `RUST_LOG` or `telemetry.log_level`. No user text at info.
//! - Traces: a server span per gRPC call (parented on the caller's W3C
//!   `traceparent`), a span per call (`decide`, `enrich`, `clarify`,
//!   `extract`), a span per ladder rung with `ladder.*` attributes and the
//!   decision events, and a GenAI client span per LLM call. Exported
//!   over OTLP only when `OTEL_EXPORTER_OTLP_ENDPOINT` (or the traces
//!   variant) is set; gRPC by default, `http/protobuf` with
//!   `OTEL_EXPORTER_OTLP_PROTOCOL`; sampler from `OTEL_TRACES_SAMPLER(_ARG)`;
//!   service name from `OTEL_SERVICE_NAME` (default `ladderd`). The export
//!   queue never blocks a request; drops are counted (`export`).
//! - Metrics: OpenTelemetry instruments, exported over OTLP with the same
//!   variables, and served as Prometheus text on the admin port
//!   (`admin.listen`, `grpc::admin`).
//! - Decision records: `records`.
//! - Repeated warnings, at most one line per kind per interval: `throttle`.
//! - Panics, through the log rather than as raw text (the default hook's):
//!   `panics`.

pub mod export;
pub mod metrics;
pub mod panics;
pub mod records;
pub mod throttle;

/// The calls of `ladder.v1.Arbiter` that make a span and a record: the
/// `ladder.call` attribute and the decision record's `call`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize, strum::IntoStaticStr)]
#[serde(rename_all = "snake_case")]
#[strum(serialize_all = "snake_case")]
pub enum Call {
    Decide,
    Enrich,
    Clarify,
    Extract,
}

impl Call {
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

use crate::config::{LogFormat, Redaction, TelemetryConfig};
use opentelemetry::propagation::{Extractor, TextMapPropagator};
use opentelemetry::trace::TracerProvider as _;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::metrics::SdkMeterProvider;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::SdkTracerProvider;
use sha2::{Digest, Sha256};
use std::sync::Arc;
use std::time::Duration;
use tracing::Level;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::Targets;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

pub use export::SpanStats;
pub use metrics::{Metrics, SharedReader};

/// The installed telemetry; `shutdown` flushes it.
pub struct Telemetry {
    tracer: Option<SdkTracerProvider>,
    meter: SdkMeterProvider,
    /// The reader behind the Prometheus endpoint.
    pub prometheus: SharedReader,
    pub spans: Arc<SpanStats>,
}

fn env_set(keys: &[&str]) -> bool {
    keys.iter().any(|k| std::env::var(k).is_ok_and(|v| !v.trim().is_empty()))
}

fn sdk_disabled() -> bool {
    std::env::var("OTEL_SDK_DISABLED").is_ok_and(|v| v.trim().eq_ignore_ascii_case("true"))
}

/// `grpc` unless the signal's or the generic protocol variable says otherwise.
fn protocol(signal_var: &str) -> Result<opentelemetry_otlp::Protocol, String> {
    let v = std::env::var(signal_var).or_else(|_| std::env::var("OTEL_EXPORTER_OTLP_PROTOCOL")).unwrap_or_default();
    match v.trim() {
        "" | "grpc" => Ok(opentelemetry_otlp::Protocol::Grpc),
        "http/protobuf" => Ok(opentelemetry_otlp::Protocol::HttpBinary),
        other => Err(format!("OTLP protocol {other:?} is not supported (use grpc or http/protobuf)")),
    }
}

fn resource() -> Resource {
    let mut b = Resource::builder();
    let named = std::env::var("OTEL_SERVICE_NAME").is_ok_and(|v| !v.is_empty())
        || std::env::var("OTEL_RESOURCE_ATTRIBUTES").is_ok_and(|v| v.contains("service.name="));
    if !named {
        b = b.with_service_name("ladderd");
    }
    b = b.with_attribute(opentelemetry::KeyValue::new("service.version", env!("CARGO_PKG_VERSION")));
    // Replicas must not collide in the collector: the pod name (the
    // manifests pass POD_NAME), else the host name, else a random id.
    if !std::env::var("OTEL_RESOURCE_ATTRIBUTES").is_ok_and(|v| v.contains("service.instance.id=")) {
        let id = ["POD_NAME", "HOSTNAME"]
            .iter()
            .find_map(|k| std::env::var(k).ok().filter(|v| !v.trim().is_empty()))
            .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
        b = b.with_attribute(opentelemetry::KeyValue::new("service.instance.id", id));
    }
    b.build()
}

/// Builds the span exporter pipeline, or `None` when no endpoint is set.
fn tracer_provider(stats: Arc<SpanStats>) -> Result<Option<SdkTracerProvider>, String> {
    if sdk_disabled()
        || std::env::var("OTEL_TRACES_EXPORTER").is_ok_and(|v| v.trim() == "none")
        || !env_set(&["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"])
    {
        return Ok(None);
    }
    use opentelemetry_otlp::{SpanExporter, WithExportConfig};
    let proto = protocol("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")?;
    let mut exporter = match proto {
        opentelemetry_otlp::Protocol::Grpc => SpanExporter::builder().with_tonic().with_protocol(proto).build(),
        _ => SpanExporter::builder().with_http().with_protocol(proto).build(),
    }
    .map_err(|e| format!("OTLP span exporter: {e}"))?;
    let res = resource();
    opentelemetry_sdk::trace::SpanExporter::set_resource(&mut exporter, &res);
    let processor = export::QueueProcessor::start(exporter, export::QueueSettings::from_env(), stats);
    Ok(Some(SdkTracerProvider::builder().with_span_processor(processor).with_resource(res).build()))
}

fn meter_provider(prometheus: &SharedReader) -> Result<SdkMeterProvider, String> {
    let mut b = SdkMeterProvider::builder().with_resource(resource()).with_reader(prometheus.clone());
    if !sdk_disabled()
        && !std::env::var("OTEL_METRICS_EXPORTER").is_ok_and(|v| v.trim() == "none")
        && env_set(&["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT"])
    {
        use opentelemetry_otlp::{MetricExporter, WithExportConfig};
        let proto = protocol("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL")?;
        let exporter = match proto {
            opentelemetry_otlp::Protocol::Grpc => MetricExporter::builder().with_tonic().with_protocol(proto).build(),
            _ => MetricExporter::builder().with_http().with_protocol(proto).build(),
        }
        .map_err(|e| format!("OTLP metric exporter: {e}"))?;
        // The exporters (tonic, reqwest) need the tokio runtime: the SDK's
        // default periodic reader runs them on a thread of its own, where
        // they panicked ("there is no reactor running") and no metric was
        // ever delivered. This reader exports from a task on the runtime.
        use opentelemetry_sdk::metrics::periodic_reader_with_async_runtime::PeriodicReader;
        b = b.with_reader(PeriodicReader::builder(exporter, opentelemetry_sdk::runtime::Tokio).build());
    }
    Ok(b.build())
}

/// Installs logging, tracing and metrics. Call once, inside the runtime.
/// An exporter that cannot be built is reported and left out: telemetry
/// never stops the daemon from serving.
pub fn init(t: &TelemetryConfig) -> Telemetry {
    opentelemetry::global::set_text_map_propagator(TraceContextPropagator::new());
    let spans = Arc::new(SpanStats::default());
    let mut problems = Vec::new();
    let tracer = tracer_provider(spans.clone()).unwrap_or_else(|e| {
        problems.push(e);
        None
    });
    let prometheus = SharedReader::default();
    let meter = meter_provider(&prometheus).unwrap_or_else(|e| {
        problems.push(e);
        SdkMeterProvider::builder().with_reader(prometheus.clone()).build()
    });
    opentelemetry::global::set_meter_provider(meter.clone());

    let result = subscriber(t, tracer.as_ref()).try_init();
    if let Err(e) = result {
        eprintln!("ladderd: logging already initialised: {e}");
    }
    // Once there is a log to write to: from here a panic is a log line.
    panics::install_hook();
    for p in problems {
        tracing::error!(problem = %p, "telemetry export disabled");
    }
    if tracer.is_some() {
        tracing::info!("exporting traces over OTLP");
    }
    Telemetry { tracer, meter, prometheus, spans }
}

/// Logs at the configured level, and traces when `tracer` exports them.
fn subscriber(t: &TelemetryConfig, tracer: Option<&SdkTracerProvider>) -> Box<dyn tracing::Subscriber + Send + Sync> {
    // Logs: the configured level. The spans (server, call, rung, LLM
    // client) and decision events are for traces: the log layer ignores
    // them, so without an exporter they are disabled and cost nothing.
    let mut filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(&t.log_level));
    for target in ["ladder::server", "ladder::call", "ladder::rung", "ladder::llm", "ladder::event"] {
        filter = filter.add_directive(format!("{target}=off").parse().expect("static directive"));
    }
    let fmt = match t.log_format {
        LogFormat::Json => tracing_subscriber::fmt::layer().json().with_current_span(false).with_writer(std::io::stderr).boxed(),
        // Colour only on a terminal: log collectors get plain text.
        LogFormat::Pretty => tracing_subscriber::fmt::layer()
            .compact()
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .with_writer(std::io::stderr)
            .boxed(),
    };
    let logs = tracing_subscriber::registry().with(fmt.with_filter(filter));
    // Traces: only ladderd's own spans and events. Without an exporter the
    // layer is left out, not added as `None`: an absent `Option` layer is
    // interested in every callsite, so the registry would build every span
    // the log filter turns off, on every call, for nobody.
    match tracer {
        Some(p) => Box::new(
            logs.with(
                tracing_opentelemetry::layer()
                    .with_tracer(p.tracer("ladderd"))
                    .with_filter(Targets::new().with_target("ladderd", Level::INFO).with_target("ladder", Level::INFO)),
            ),
        ),
        None => Box::new(logs),
    }
}

impl Telemetry {
    /// Flushes spans and metrics, each within `cap`. Blocks: call it from a
    /// plain thread while the runtime still runs, never on a runtime worker.
    pub fn shutdown(self, cap: Duration) {
        if let Some(t) = &self.tracer
            && let Err(e) = t.shutdown_with_timeout(cap)
        {
            eprintln!("ladderd: span flush: {e}");
        }
        let _ = self.meter.shutdown_with_timeout(cap);
    }
}

/// Reads W3C trace context from HTTP headers (gRPC metadata).
pub fn parent_context(headers: &http::HeaderMap) -> opentelemetry::Context {
    struct H<'a>(&'a http::HeaderMap);
    impl Extractor for H<'_> {
        fn get(&self, key: &str) -> Option<&str> {
            self.0.get(key).and_then(|v| v.to_str().ok())
        }
        fn keys(&self) -> Vec<&str> {
            self.0.keys().map(|k| k.as_str()).collect()
        }
    }
    TraceContextPropagator::new().extract(&H(headers))
}

/// User text as telemetry may show it: as is, hashed, or not at all.
pub fn redact(mode: Redaction, text: &str) -> Option<String> {
    match mode {
        Redaction::Off => Some(text.to_string()),
        Redaction::Hash => Some(format!("sha256:{}", &hex::encode(Sha256::digest(text.as_bytes()))[..16])),
        Redaction::Drop => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_modes() {
        assert_eq!(redact(Redaction::Off, "open panel d").as_deref(), Some("open panel d"));
        let h = redact(Redaction::Hash, "open panel d").unwrap();
        assert!(h.starts_with("sha256:") && h.len() == 23 && !h.contains("panel"));
        assert_eq!(redact(Redaction::Hash, "open panel d").unwrap(), h, "stable");
        assert_eq!(redact(Redaction::Drop, "open panel d"), None);
    }

    #[test]
    fn traceparent_is_read_from_metadata() {
        use opentelemetry::trace::TraceContextExt;
        let mut h = http::HeaderMap::new();
        h.insert("traceparent", "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01".parse().unwrap());
        let cx = parent_context(&h);
        let sc = cx.span().span_context().clone();
        assert_eq!(sc.trace_id().to_string(), "4bf92f3577b34da6a3ce929d0e0e4736");
        assert!(sc.is_remote() && sc.is_sampled());
        assert!(!parent_context(&http::HeaderMap::new()).span().span_context().is_valid());
    }

    /// Without an exporter a rung's span is disabled (the registry never
    /// builds it); with one it is recorded.
    #[test]
    fn spans_are_built_only_for_an_exporter() {
        let rung = || tracing::info_span!(target: "ladder::rung", "rung", ladder.rung = "exact");
        let t = TelemetryConfig::default();
        tracing::subscriber::with_default(subscriber(&t, None), || {
            assert!(rung().is_disabled(), "no exporter: no span");
            assert!(tracing::info_span!(target: "ladder::call", "call").is_disabled());
        });
        let provider = SdkTracerProvider::builder().build();
        tracing::subscriber::with_default(subscriber(&t, Some(&provider)), || {
            assert!(!rung().is_disabled(), "an exporter: the span is recorded");
        });
    }
}
