//! Metrics: OpenTelemetry instruments (exported over OTLP when an endpoint
//! is set) and a Prometheus text rendering of the same data for the admin
//! port (`admin.listen`, off by default).

use ladder::llm_rung::Corroborated;
use ladder::policy::Corroboration;
use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Histogram, Meter};
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::metrics::data::{AggregatedMetrics, MetricData, ResourceMetrics};
use opentelemetry_sdk::metrics::reader::MetricReader;
use opentelemetry_sdk::metrics::{InstrumentKind, ManualReader, Pipeline, Temporality};
use std::fmt::Write;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// The instruments ladderd records.
#[derive(Debug, Clone)]
pub struct Metrics {
    pub decisions: Counter<u64>,
    pub ambiguity: Counter<u64>,
    pub fallbacks: Counter<u64>,
    /// Clarifiers by ranking (`words`, `meaning`).
    pub clarifier_rankings: Counter<u64>,
    pub decision_duration: Histogram<f64>,
    pub llm_calls: Counter<u64>,
    pub llm_latency: Histogram<f64>,
    pub llm_corroborations: Counter<u64>,
    pub loop_guard_hits: Counter<u64>,
    pub enrichment_retries: Counter<u64>,
    pub assistant_messages: Counter<u64>,
    pub extractions: Counter<u64>,
    pub guardrail_breaches: Counter<u64>,
    pub config_reloads: Counter<u64>,
}

impl Metrics {
    pub fn new(meter: &Meter) -> Self {
        let ms_buckets = vec![0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 25.0, 50.0, 100.0, 250.0, 500.0, 800.0, 1000.0, 2500.0, 5000.0];
        Metrics {
            decisions: meter.u64_counter("ladder.decisions").with_description("Decisions by outcome, decided_by and tier").build(),
            ambiguity: meter.u64_counter("ladder.ambiguity").with_description("Unresolved decisions by ambiguity reason").build(),
            fallbacks: meter.u64_counter("ladder.fallbacks").with_description("Clarifiers by fallback reason").build(),
            clarifier_rankings: meter
                .u64_counter("ladder.clarifier.rankings")
                .with_description("Clarifiers by how their options were ranked: words, or meaning (docs/meaning.md)")
                .build(),
            decision_duration: meter
                .f64_histogram("ladder.decision.duration")
                .with_unit("ms")
                .with_description("Time to decide (Decide and Enrich)")
                .with_boundaries(ms_buckets.clone())
                .build(),
            llm_calls: meter.u64_counter("ladder.llm.calls").with_description("LLM calls by kind and result").build(),
            llm_latency: meter
                .f64_histogram("ladder.llm.duration")
                .with_unit("ms")
                .with_description("LLM call latency")
                .with_boundaries(ms_buckets)
                .build(),
            llm_corroborations: {
                let c = meter
                    .u64_counter("ladder.llm.corroborations")
                    .with_description("Corroborations of LLM picks that passed every other auto-execute gate, by result and method")
                    .build();
                // Every series from the start at 0, so a dashboard's rate()
                // and "share disagreed" work before the first check.
                for result in Corroborated::ALL {
                    for method in [Corroboration::Reorder, Corroboration::Deterministic, Corroboration::Both] {
                        c.add(0, &[KeyValue::new("result", result.as_str()), KeyValue::new("method", method.as_str())]);
                    }
                }
                c
            },
            loop_guard_hits: meter.u64_counter("ladder.loop_guard.hits").with_description("LLM calls prevented by the loop guard").build(),
            enrichment_retries: meter.u64_counter("ladder.enrichment.retries").with_description("LLM calls made from Enrich").build(),
            assistant_messages: meter.u64_counter("ladder.assistant.messages").with_description("Clarify answers by source").build(),
            extractions: meter.u64_counter("ladder.extractions").with_description("Extract answers by deciding component").build(),
            guardrail_breaches: meter
                .u64_counter("ladder.guardrail.breaches")
                .with_description("New guardrail breaches by cohort and figure")
                .build(),
            config_reloads: meter
                .u64_counter("ladder.config.reloads")
                .with_description("Configuration reloads by result (applied, refused)")
                .build(),
        }
    }
}

/// A manual reader the provider and the admin endpoint can share.
#[derive(Clone, Default)]
pub struct SharedReader(Arc<ManualReader>);

impl std::fmt::Debug for SharedReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SharedReader")
    }
}

impl MetricReader for SharedReader {
    fn register_pipeline(&self, pipeline: Weak<Pipeline>) {
        self.0.register_pipeline(pipeline)
    }
    fn collect(&self, rm: &mut ResourceMetrics) -> OTelSdkResult {
        self.0.collect(rm)
    }
    fn force_flush(&self) -> OTelSdkResult {
        self.0.force_flush()
    }
    fn shutdown_with_timeout(&self, timeout: Duration) -> OTelSdkResult {
        self.0.shutdown_with_timeout(timeout)
    }
    fn temporality(&self, kind: InstrumentKind) -> Temporality {
        self.0.temporality(kind)
    }
}

impl SharedReader {
    /// Collects now and renders the Prometheus text exposition format.
    pub fn render(&self) -> String {
        let mut rm = ResourceMetrics::default();
        if let Err(e) = self.0.collect(&mut rm) {
            return format!("# collection failed: {e}\n");
        }
        render(&rm)
    }
}

fn prom_name(name: &str, unit: &str) -> String {
    let mut n: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    match unit {
        "ms" => n.push_str("_milliseconds"),
        "By" => n.push_str("_bytes"),
        _ => {}
    }
    n
}

fn labels<'a>(attrs: impl Iterator<Item = &'a KeyValue>, extra: Option<(&str, String)>) -> String {
    let mut parts: Vec<String> = attrs
        .map(|kv| {
            let k: String = kv.key.as_str().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
            let v = kv.value.as_str().replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n");
            format!("{k}=\"{v}\"")
        })
        .collect();
    parts.sort();
    if let Some((k, v)) = extra {
        parts.push(format!("{k}=\"{v}\""));
    }
    if parts.is_empty() { String::new() } else { format!("{{{}}}", parts.join(",")) }
}

/// Prometheus text format (version 0.0.4) of cumulative metrics.
pub fn render(rm: &ResourceMetrics) -> String {
    let mut out = String::new();
    for sm in rm.scope_metrics() {
        for m in sm.metrics() {
            let name = prom_name(m.name(), m.unit());
            let help = m.description().replace('\n', " ");
            macro_rules! series {
                ($data:expr) => {
                    match $data {
                        MetricData::Sum(s) => {
                            let (kind, n) = if s.is_monotonic() { ("counter", format!("{name}_total")) } else { ("gauge", name.clone()) };
                            let _ = writeln!(out, "# HELP {n} {help}\n# TYPE {n} {kind}");
                            for p in s.data_points() {
                                let _ = writeln!(out, "{n}{} {}", labels(p.attributes(), None), p.value());
                            }
                        }
                        MetricData::Gauge(g) => {
                            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge");
                            for p in g.data_points() {
                                let _ = writeln!(out, "{name}{} {}", labels(p.attributes(), None), p.value());
                            }
                        }
                        MetricData::Histogram(h) => {
                            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
                            for p in h.data_points() {
                                let mut cumulative = 0u64;
                                let bounds: Vec<f64> = p.bounds().collect();
                                for (i, c) in p.bucket_counts().enumerate() {
                                    cumulative += c;
                                    let le = bounds.get(i).map_or("+Inf".to_string(), |b| b.to_string());
                                    let _ = writeln!(out, "{name}_bucket{} {cumulative}", labels(p.attributes(), Some(("le", le))));
                                }
                                let _ = writeln!(out, "{name}_sum{} {}", labels(p.attributes(), None), p.sum());
                                let _ = writeln!(out, "{name}_count{} {}", labels(p.attributes(), None), p.count());
                            }
                        }
                        MetricData::ExponentialHistogram(_) => {}
                    }
                };
            }
            match m.data() {
                AggregatedMetrics::F64(d) => series!(d),
                AggregatedMetrics::U64(d) => series!(d),
                AggregatedMetrics::I64(d) => series!(d),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use opentelemetry::metrics::MeterProvider;
    use opentelemetry_sdk::metrics::SdkMeterProvider;

    #[test]
    fn renders_counters_gauges_and_histograms_in_prometheus_text() {
        let reader = SharedReader::default();
        let provider = SdkMeterProvider::builder().with_reader(reader.clone()).build();
        let meter = provider.meter("test");
        let m = Metrics::new(&meter);
        m.decisions.add(2, &[KeyValue::new("outcome", "execute"), KeyValue::new("tier", "deterministic")]);
        m.llm_latency.record(12.0, &[KeyValue::new("kind", "arbitration")]);
        let _g = meter.u64_observable_gauge("ladder.sessions").with_callback(|o| o.observe(7, &[])).build();
        let text = reader.render();
        assert!(text.contains("# TYPE ladder_decisions_total counter"), "{text}");
        assert!(text.contains("ladder_decisions_total{outcome=\"execute\",tier=\"deterministic\"} 2"), "{text}");
        assert!(text.contains("ladder_llm_duration_milliseconds_bucket{kind=\"arbitration\",le=\"25\"} 1"), "{text}");
        assert!(text.contains("ladder_llm_duration_milliseconds_count{kind=\"arbitration\"} 1"), "{text}");
        assert!(text.contains("ladder_sessions 7"), "{text}");
    }
}
