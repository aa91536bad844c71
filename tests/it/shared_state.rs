//! Several replicas on one Redis (`sessions.backend = "redis"`,
//! docs/replicas.md): a turn may land on any replica, and the store's faults
//! degrade to the safe side. Each test runs its own `redis-server` (see
//! `redis_server.rs`) and two daemons on it, as two pods would. The
//! cross-replica tests run on Redis 7 and on Valkey 8 (`redis::NAME`,
//! `valkey::NAME`: the `on_both_servers!` list at the end); the fault,
//! password and TLS tests on Redis.

use crate::helpers::session_request as req;
use crate::helpers::*;
use crate::redis_server::{RedisServer, Server};
use ladderd::config::Config;
use ladderd::pb;
use ladderd::pb::{FallbackReason as F, Outcome as O};
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tonic::Code;
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

/// Two daemons (A and B) on one Redis.
struct Pair {
    a: TestDaemon,
    b: TestDaemon,
    redis: Arc<RedisServer>,
}

async fn pair(server: Server, config: Config) -> Pair {
    let redis = Arc::new(RedisServer::start_on(server, &[]));
    let a = TestDaemon::start(on_redis(config.clone(), &redis)).await;
    let b = TestDaemon::start(on_redis(config, &redis)).await;
    Pair { a, b, redis }
}

/// The user rejected what `decision_id` executed.
fn rejected(session: &str, decision_id: String) -> pb::RecordOutcomeRequest {
    pb::RecordOutcomeRequest { session_id: session.into(), decision_id, kind: pb::OutcomeKind::Rejected as i32, ..Default::default() }
}

/// A provider that answers `need_more_info` after `delay`.
async fn slow_provider(delay: Duration) -> MockServer {
    let server = MockServer::start().await;
    let content =
        json!({"decision": "need_more_info", "choice_id": null, "confidence": 0.3, "needed_evidence_types": ["active_widget_items"]});
    let body = json!({"choices": [{"message": {"content": content.to_string()}}]});
    Mock::given(method("POST")).respond_with(ResponseTemplate::new(200).set_body_json(body).set_delay(delay)).mount(&server).await;
    server
}

async fn need_more_info_on_one_replica_is_enriched_on_another(server: Server) {
    let p = pair(server, Config::default()).await;
    let first = p.a.client.clone().decide(scope_request("s1")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::NeedMoreInfo);
    let r = p.b.client.clone().enrich(chat_evidence("s1", &first.loop_cycle_id)).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.target_id.as_str(), r.loop_cycle_id.as_str()), (O::Execute, "chat-d", first.loop_cycle_id.as_str()));
    // Resolved on B: A knows it too.
    let again = p.a.client.clone().enrich(chat_evidence("s1", &first.loop_cycle_id)).await.unwrap_err();
    assert_eq!(again.code(), Code::FailedPrecondition, "{}", again.message());
    assert!(again.message().contains("already resolved"), "{}", again.message());
}

async fn a_cycle_asked_again_on_another_replica_keeps_what_enrich_needs(server: Server) {
    let p = pair(server, Config::default()).await;
    let first = p.a.client.clone().decide(scope_request("s2")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::NeedMoreInfo);
    // The same evidence again, on the other replica: the same cycle.
    let again = p.b.client.clone().decide(scope_request("s2")).await.unwrap().into_inner();
    assert_eq!((again.outcome(), &again.loop_cycle_id), (O::NeedMoreInfo, &first.loop_cycle_id));
    // Its stored request survived the turn: Enrich on either replica works.
    let r = p.a.client.clone().enrich(chat_evidence("s2", &first.loop_cycle_id)).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.target_id.as_str()), (O::Execute, "chat-d"));
}

async fn a_tie_continuity_resolves_on_another_replica_calls_no_llm(server: Server) {
    let llm = slow_provider(Duration::from_millis(1)).await;
    let mut c = with_llm(&format!("{}/v1", llm.uri()), 2_000);
    c.guardrails.evaluate_every_seconds = 3_600;
    let p = pair(server, c).await;
    // Each script's first use on each daemon loads it.
    for d in [&p.a, &p.b] {
        d.client.clone().decide(req("warm", "links panel")).await.unwrap();
    }
    // The options are shown (the LLM asked for more): the session's
    // continuity context is their option set.
    let first = p.a.client.clone().decide(req("u1", "links panel")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::NeedMoreInfo);
    let calls = llm.received_requests().await.unwrap().len();
    // A cross-source tie on the other replica: the session's context is
    // these options, so continuity takes it, with no loop-guard claim and
    // no LLM call: a read and a write.
    p.redis.cmd::<String>(&["CONFIG", "RESETSTAT"]).await;
    let mut r = req("u1", "open links panel d");
    r.widget_items = vec![cand("w-links-d", "Links Panel D")];
    let d = p.b.client.clone().decide(r).await.unwrap().into_inner();
    assert_eq!((d.outcome(), d.decided_by(), d.target_id.as_str()), (O::Execute, pb::Decider::Continuity, "links-panel-d"));
    assert_eq!(script_calls(&p.redis).await, 2);
    assert_eq!(llm.received_requests().await.unwrap().len(), calls, "no LLM call");
    // The execution's cohort went with it, for feedback on another replica.
    let executed: Vec<String> = p.redis.cmd(&["LRANGE", "ladderd:{u1}:executed", "0", "-1"]).await;
    assert!(executed.iter().any(|e| e.starts_with(&format!("{}|", d.decision_id))), "{executed:?}");
    // No claim was taken: the first turn's cycle is the one the execution
    // resolved.
    let e = p.a.client.clone().enrich(chat_evidence("u1", &first.loop_cycle_id)).await.unwrap_err();
    assert_eq!(e.code(), Code::FailedPrecondition);
    assert!(e.message().contains("already resolved"), "{}", e.message());

    // The user asks the same again after the clarifier: the cross-source
    // tie is now the session's open cycle, and continuity resolves it.
    let mut r = req("u2", "open links panel d");
    r.widget_items = vec![cand("w-links-d", "Links Panel D")];
    let asked = p.a.client.clone().decide(r.clone()).await.unwrap().into_inner();
    assert_ne!(asked.outcome(), O::Execute);
    let calls = llm.received_requests().await.unwrap().len();
    p.redis.cmd::<String>(&["CONFIG", "RESETSTAT"]).await;
    // A turn of its own (its own turn_id).
    let d = p.b.client.clone().decide(pb::DecideRequest { turn_id: next_turn_id(), ..r }).await.unwrap().into_inner();
    assert_eq!((d.outcome(), d.decided_by(), d.target_id.as_str()), (O::Execute, pb::Decider::Continuity, "links-panel-d"));
    assert_eq!(script_calls(&p.redis).await, 2);
    assert_eq!(llm.received_requests().await.unwrap().len(), calls, "no LLM call");
    let e = p.a.client.clone().enrich(chat_evidence("u2", &asked.loop_cycle_id)).await.unwrap_err();
    assert!(e.message().contains("already resolved"), "the execution closed the session's cycle: {}", e.message());
}

async fn two_replicas_racing_on_one_cycle_make_exactly_one_llm_call(server: Server) {
    // The provider is slow, so both replicas are past their state read
    // before either has written anything but its guard claim.
    let llm = slow_provider(Duration::from_millis(200)).await;
    let p = pair(server, with_llm(&format!("{}/v1", llm.uri()), 2_000)).await;
    let sessions = 12;
    let mut calls = Vec::new();
    for i in 0..sessions {
        for d in [&p.a, &p.b] {
            let mut c = d.client.clone();
            let r = req(&format!("race-{i}"), "links panel");
            calls.push(tokio::spawn(async move { c.decide(r).await.unwrap().into_inner() }));
        }
    }
    let mut called = 0;
    let mut guarded = 0;
    for c in calls {
        let d = c.await.unwrap();
        let l = d.llm.clone().unwrap_or_default();
        if l.called {
            called += 1;
        } else {
            assert!(l.guard_hit && d.fallback_reason() == F::LoopGuard, "the other one is a guard repeat: {d:?}");
            guarded += 1;
        }
        assert_ne!(d.outcome(), O::Execute);
    }
    let requests = llm.received_requests().await.unwrap().len();
    assert_eq!((called, guarded, requests), (sessions, sessions, sessions), "one LLM call per cycle, across both replicas");
}

async fn an_outcome_recorded_on_one_replica_lets_continuity_resolve_on_another(server: Server) {
    let p = pair(server, Config::default()).await;
    let (mut a, mut b) = (p.a.client.clone(), p.b.client.clone());
    // A cross-source tie: the options are shown as a clarifier on A.
    let mut r = req("c1", "open links panel d");
    r.widget_items = vec![cand("w-links-d", "Links Panel D")];
    let first = a.decide(r.clone()).await.unwrap().into_inner();
    assert_eq!((first.outcome(), first.ambiguity_reason()), (O::Clarify, pb::AmbiguityReason::CrossSourceTie));
    // The user's answer is recorded on B.
    let s = b
        .record_outcome(pb::RecordOutcomeRequest {
            session_id: "c1".into(),
            decision_id: first.decision_id.clone(),
            kind: pb::OutcomeKind::Accepted as i32,
            choice_id: "links-panel-d".into(),
            ..Default::default()
        })
        .await
        .unwrap()
        .into_inner()
        .session
        .unwrap();
    assert_eq!(s.last_accepted_choice_id, "links-panel-d");
    // A sees B's record, and its continuity rung resolves the next turn.
    let seen = a.get_session(pb::GetSessionRequest { session_id: "c1".into() }).await.unwrap().into_inner();
    assert_eq!((seen.last_accepted_choice_id.as_str(), seen.active_option_set_id.as_str()), ("links-panel-d", "set-1"));
    let second = a.decide(pb::DecideRequest { turn_id: next_turn_id(), ..r }).await.unwrap().into_inner();
    assert_eq!(
        (second.outcome(), second.target_id.as_str(), second.decided_by()),
        (O::Execute, "links-panel-d", pb::Decider::Continuity),
        "{second:?}"
    );
}

async fn a_pool_sent_to_one_replica_is_referenced_on_another(server: Server) {
    let p = pair(server, Config::default()).await;
    let mut sent = req("p1", "links panel");
    sent.options.as_mut().unwrap().version = "v1".into();
    let first = p.a.client.clone().decide(sent.clone()).await.unwrap().into_inner();
    assert_eq!(first.pool_version, "v1");
    let mut by_ref = sent;
    by_ref.input = "the last one".into();
    let o = by_ref.options.as_mut().unwrap();
    o.candidates.clear();
    o.by_reference = true;
    let r = p.b.client.clone().decide(by_ref.clone()).await.unwrap().into_inner();
    // The last of what the clarifier listed (D, E) and of the screen, as on
    // one replica.
    assert_eq!((r.outcome(), r.target_id.as_str(), r.pool_version.as_str()), (O::Execute, "links-panel-e", "v1"));
    // ResetSession on B drops it for A as well.
    p.b.client.clone().reset_session(pb::ResetSessionRequest { session_id: "p1".into() }).await.unwrap();
    let s = p.a.client.clone().decide(by_ref).await.unwrap_err();
    assert_eq!(s.code(), Code::FailedPrecondition, "{}", s.message());
}

/// Version "v1" of the panels' option set; `swapped` gives "Links Panel D"
/// to another action.
fn panels_v1(session: &str, swapped: bool) -> pb::DecideRequest {
    let mut r = req(session, "open links panel d");
    let o = r.options.as_mut().unwrap();
    o.version = "v1".into();
    let d = o.candidates.iter_mut().find(|c| c.id == "links-panel-d").unwrap();
    if swapped {
        d.id = "action-delete-account".into();
    }
    r
}

/// Two replicas racing to hold one version with different
/// contents hold exactly one (the store's script compares and holds in one
/// step); the same content from both is held by both.
async fn two_replicas_racing_to_hold_one_version_hold_exactly_one_content(server: Server) {
    let p = pair(server, Config::default()).await;
    let decide = |c: &TestDaemon, r: pb::DecideRequest| {
        let mut c = c.client.clone();
        tokio::spawn(async move { c.decide(r).await.map(|d| d.into_inner().target_id).map_err(|s| (s.code(), s.message().to_string())) })
    };
    let refused = (
        Code::FailedPrecondition,
        "options: version \"v1\" of option set \"set-1\" is held with other content: send a new version".to_string(),
    );
    for round in 0..12 {
        let s = format!("race-{round}");
        // Each replica sends the other content every other round.
        let (on_a, on_b) = (round % 2 == 1, round % 2 == 0);
        let (a, b) = (decide(&p.a, panels_v1(&s, on_a)), decide(&p.b, panels_v1(&s, on_b)));
        let (a, b) = (a.await.unwrap(), b.await.unwrap());
        let held = match (a, b) {
            (Ok(t), Err(e)) | (Err(e), Ok(t)) => {
                assert_eq!(e, refused, "round {round}");
                t
            }
            other => panic!("round {round}: exactly one content is held: {other:?}"),
        };
        // Either replica decides over the one held.
        for d in [&p.a, &p.b] {
            let mut by_ref = panels_v1(&s, false);
            let o = by_ref.options.as_mut().unwrap();
            o.candidates.clear();
            o.by_reference = true;
            assert_eq!(d.client.clone().decide(by_ref).await.unwrap().into_inner().target_id, held, "round {round}");
        }
        // The same content from both replicas at once: both held.
        let same = format!("same-{round}");
        let (a, b) = (decide(&p.a, panels_v1(&same, on_a)), decide(&p.b, panels_v1(&same, on_a)));
        let target = if on_a { "action-delete-account" } else { "links-panel-d" }.to_string();
        assert_eq!((a.await.unwrap(), b.await.unwrap()), (Ok(target.clone()), Ok(target)), "round {round}");
    }
}

async fn every_key_of_a_session_shares_one_hash_tag_and_expires(server: Server) {
    let mut c = Config::default();
    c.sessions.idle_ttl_seconds = 600;
    let p = pair(server, c).await;
    let mut r = req("tagged", "links panel");
    r.options.as_mut().unwrap().version = "v1".into();
    p.a.client.clone().decide(r).await.unwrap();
    let keys: Vec<String> = p.redis.cmd(&["KEYS", "*"]).await;
    let mut session_keys: Vec<&String> = keys.iter().filter(|k| k.contains("{tagged}")).collect();
    session_keys.sort();
    assert_eq!(
        session_keys,
        ["ladderd:{tagged}", "ladderd:{tagged}:poolc", "ladderd:{tagged}:pools", "ladderd:{tagged}:poolv", "ladderd:{tagged}:poolz"]
    );
    for k in session_keys {
        let ttl: i64 = p.redis.cmd(&["PTTL", k]).await;
        assert!(ttl > 590_000 && ttl <= 600_000, "{k}: {ttl} ms");
    }
}

async fn idle_sessions_expire_in_the_store_itself(server: Server) {
    let mut c = Config::default();
    c.sessions.idle_ttl_seconds = 1;
    let p = pair(server, c).await;
    p.a.client.clone().decide(req("short", "links panel")).await.unwrap();
    assert!(p.b.client.clone().get_session(pb::GetSessionRequest { session_id: "short".into() }).await.is_ok());
    // Redis expires the key 1 s after its last use: watched in the store
    // itself (a read through a replica is a use of its own).
    let gone = crate::helpers::eventually(|| {
        let redis = p.redis.clone();
        async move { redis.cmd::<i64>(&["EXISTS", "ladderd:{short}"]).await == 0 }
    })
    .await;
    assert!(gone, "the session outlived its idle TTL in Redis");
    let s = p.b.client.clone().get_session(pb::GetSessionRequest { session_id: "short".into() }).await.unwrap_err();
    assert_eq!(s.code(), Code::NotFound);
}

async fn continuity_context_expires_by_the_wall_clock_across_replicas(server: Server) {
    let mut c = Config::default();
    c.continuity.ttl_seconds = 1;
    let p = pair(server, c).await;
    p.a.client.clone().decide(req("wall", "links panel")).await.unwrap();
    let s = p.b.client.clone().get_session(pb::GetSessionRequest { session_id: "wall".into() }).await.unwrap().into_inner();
    assert!(s.continuity_fresh, "fresh on the other replica");
    // Judged by the wall clock both replicas share: stale once 1 s passed.
    let stale = crate::helpers::eventually(|| {
        let mut b = p.b.client.clone();
        async move { !b.get_session(pb::GetSessionRequest { session_id: "wall".into() }).await.unwrap().into_inner().continuity_fresh }
    })
    .await;
    assert!(stale, "continuity stayed fresh past its TTL");
}

/// Script calls the server ran since its last `CONFIG RESETSTAT` (every
/// store call of a daemon is one script: one round trip).
async fn script_calls(redis: &RedisServer) -> u64 {
    let info: String = redis.cmd(&["INFO", "commandstats"]).await;
    info.lines()
        .filter(|l| l.starts_with("cmdstat_evalsha:") || l.starts_with("cmdstat_eval:"))
        .filter_map(|l| l.split_once("calls=")?.1.split(',').next()?.parse::<u64>().ok())
        .sum()
}

async fn a_turn_costs_a_read_and_a_write_on_any_replica(server: Server) {
    let mut c = Config::default();
    // No store call on a timer while the calls are counted.
    c.guardrails.evaluate_every_seconds = 3_600;
    c.sessions.idle_ttl_seconds = 600;
    let p = pair(server, c).await;
    let (mut a, mut b) = (p.a.client.clone(), p.b.client.clone());
    // Each script's first use on each daemon loads it (NOSCRIPT, then EVAL).
    for d in [&mut a, &mut b] {
        d.decide(req("warm", "links panel")).await.unwrap();
        d.decide(req("warm", "links panel")).await.unwrap();
        let done = d.decide(req("warm", "open links panel d")).await.unwrap().into_inner();
        d.get_session(pb::GetSessionRequest { session_id: "warm".into() }).await.unwrap();
        // A compare-and-set.
        let kind = pb::OutcomeKind::Accepted as i32;
        let choice_id = "links-panel-d".into();
        d.record_outcome(pb::RecordOutcomeRequest {
            session_id: "warm".into(),
            decision_id: done.decision_id,
            kind,
            choice_id,
            ..Default::default()
        })
        .await
        .unwrap();
    }
    let reset = || async { p.redis.cmd::<String>(&["CONFIG", "RESETSTAT"]).await };
    let log_len = || async { p.redis.cmd::<i64>(&["LLEN", "ladderd:{rt}:log"]).await };
    let get = || pb::GetSessionRequest { session_id: "rt".into() };

    // Turns on alternate replicas (no sticky balancing): each reads the
    // session and writes its change with a compare-and-set, two scripts,
    // and logs nothing.
    reset().await;
    for i in 0..10 {
        let d = if i % 2 == 0 { &mut a } else { &mut b };
        let r = d.decide(req("rt", "open links panel d")).await.unwrap().into_inner();
        assert_eq!((r.outcome(), r.target_id.as_str()), (O::Execute, "links-panel-d"));
    }
    assert_eq!(script_calls(&p.redis).await, 20, "a read and a write per turn");
    assert_eq!(log_len().await, 0);
    let s = b.get_session(pb::GetSessionRequest { session_id: "rt".into() }).await.unwrap().into_inner();
    assert_eq!((s.turn_count, s.last_resolved_action.unwrap().target_ref.as_str()), (10, "links-panel-d"));

    // A tie, then the same tie on the other replica: the session's cycle
    // continues (the same one); two scripts each.
    reset().await;
    let r = a.decide(req("rt", "links panel")).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Clarify);
    assert_eq!(script_calls(&p.redis).await, 2);
    reset().await;
    let again = b.decide(req("rt", "links panel")).await.unwrap().into_inner();
    assert_eq!((again.outcome(), &again.loop_cycle_id), (O::Clarify, &r.loop_cycle_id));
    assert_eq!(script_calls(&p.redis).await, 2);
    // A tie continuity resolves (the options just shown name it once; a
    // widget item has the same label), on the other replica: two.
    reset().await;
    let mut cross = req("rt", "open links panel d");
    cross.widget_items = vec![cand("w-links-d", "Links Panel D")];
    let resolved = a.decide(cross).await.unwrap().into_inner();
    assert_eq!((resolved.outcome(), resolved.decided_by()), (O::Execute, pb::Decider::Continuity));
    assert_eq!(script_calls(&p.redis).await, 2);
    assert_eq!(log_len().await, 0);

    // A log an older daemon wrote (changes appended without a
    // compare-and-set, while a deployment rolls): every read applies it,
    // and the next turn's compare-and-set folds it into the state.
    let before = a.get_session(get()).await.unwrap().into_inner().turn_count;
    let now_ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let change = ladder::continuity::Update::Decided(ladder::continuity::DecidedUpdate { new_turn: true, ..Default::default() });
    let entry =
        json!({ "update": change, "mono_ms": now_ms, "wall_ms": now_ms, "ttl": { "ttl_turns": 3, "ttl_seconds": 600 } }).to_string();
    for _ in 0..3 {
        p.redis.cmd::<i64>(&["RPUSH", "ladderd:{rt}:log", &entry]).await;
    }
    assert_eq!(b.get_session(get()).await.unwrap().into_inner().turn_count, before + 3, "the read applies the log");
    b.decide(req("rt", "open links panel d")).await.unwrap();
    assert_eq!(log_len().await, 0, "the write folded it in");
    assert_eq!(a.get_session(get()).await.unwrap().into_inner().turn_count, before + 4, "no change lost or applied twice");
    let ttl: i64 = p.redis.cmd(&["PTTL", "ladderd:{rt}"]).await;
    assert!(ttl > 590_000 && ttl <= 600_000, "the session expires with its idle TTL: {ttl} ms");
    // ResetSession removes a log with the rest.
    p.redis.cmd::<i64>(&["RPUSH", "ladderd:{rt}:log", &entry]).await;
    b.reset_session(pb::ResetSessionRequest { session_id: "rt".into() }).await.unwrap();
    assert_eq!(log_len().await, 0);
    assert_eq!(a.get_session(pb::GetSessionRequest { session_id: "rt".into() }).await.unwrap_err().code(), Code::NotFound);
}

async fn an_llm_turn_claims_its_guard_once_and_its_repeat_on_another_replica_is_guarded(server: Server) {
    let llm = slow_provider(Duration::from_millis(1)).await;
    let mut c = with_llm(&format!("{}/v1", llm.uri()), 2_000);
    c.guardrails.evaluate_every_seconds = 3_600;
    let p = pair(server, c).await;
    let (mut a, mut b) = (p.a.client.clone(), p.b.client.clone());
    for d in [&mut a, &mut b] {
        d.decide(req("warm", "links panel")).await.unwrap();
        d.decide(req("warm", "open links panel d")).await.unwrap();
    }
    p.redis.cmd::<String>(&["CONFIG", "RESETSTAT"]).await;
    // The tie goes to the LLM: the session read, the loop guard claimed
    // (a compare-and-set), the decision written: three round trips.
    let first = a.decide(req("llm-rt", "links panel")).await.unwrap().into_inner();
    assert!(first.llm.clone().unwrap_or_default().called, "{first:?}");
    assert_eq!(script_calls(&p.redis).await, 3);
    // The same evidence on the other replica: the claim finds the cycle's
    // guard taken, so no call; three round trips again.
    let again = b.decide(req("llm-rt", "links panel")).await.unwrap().into_inner();
    let l = again.llm.clone().unwrap_or_default();
    assert!(!l.called && l.guard_hit && again.fallback_reason() == F::LoopGuard, "{again:?}");
    assert_eq!(again.loop_cycle_id, first.loop_cycle_id, "the same cycle");
    assert_eq!(script_calls(&p.redis).await, 6);
    let sent = llm.received_requests().await.unwrap().len();
    assert_eq!(sent, 3, "one call for this cycle (two for the warm-up)");
}

/// A config on `redis` whose store calls give up fast, with the LLM rung on.
fn fragile(llm: &MockServer, redis: &RedisServer) -> Config {
    let mut c = on_redis(with_llm(&format!("{}/v1", llm.uri()), 800), redis);
    c.sessions.redis.timeout_ms = 50;
    c
}

#[tokio::test]
async fn a_hung_store_costs_decide_its_timeout_and_the_llm_is_not_called_without_a_guard_claim() {
    let llm = slow_provider(Duration::ZERO).await;
    let redis = RedisServer::start();
    let d = TestDaemon::start(fragile(&llm, &redis)).await;
    let mut c = d.client.clone();
    c.decide(req("warm", "open links panel d")).await.unwrap();
    redis.pause();
    let started = Instant::now();
    let exec = c.decide(req("h1", "open links panel d")).await.unwrap().into_inner();
    let tie = c.decide(req("h2", "links panel")).await.unwrap().into_inner();
    let elapsed = started.elapsed();
    redis.resume();
    assert_eq!((exec.outcome(), exec.target_id.as_str()), (O::Execute, "links-panel-d"), "deterministic rungs decide as before");
    assert_eq!((tie.outcome(), tie.fallback_reason()), (O::Clarify, F::StateUnavailable));
    assert!(!tie.llm.unwrap_or_default().called);
    assert_eq!(llm.received_requests().await.unwrap().len(), 0, "no LLM call without a guard claim");
    // Each call waits for at most a few 50 ms store timeouts; 2 s for two
    // calls is far above that and far below a hang.
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
}

/// A config on `redis` for a store that is killed, not hung: its calls
/// then fail at once (the connection refused), so no timeout is waited on
/// and none is tight. The store's and the provider's answers are waited
/// for up to 2 s and 20 s (the call's deadline 30 s): on a loaded machine
/// a slow answer while the store is up is still an answer, never an outage
/// or a fallback, and what the test asserts are outcomes and states.
fn killable(llm: &MockServer, redis: &RedisServer) -> Config {
    let mut c = on_redis(with_llm(&format!("{}/v1", llm.uri()), 20_000), redis);
    c.server.request_timeout_ms = 30_000;
    c.sessions.redis.timeout_ms = 2_000;
    c
}

#[tokio::test]
async fn redis_killed_and_restarted_mid_run_keeps_decisions_coming_and_state_resumes() {
    let llm = slow_provider(Duration::ZERO).await;
    let redis = Arc::new(RedisServer::start());
    let a = TestDaemon::start(killable(&llm, &redis)).await;
    let b = TestDaemon::start(killable(&llm, &redis)).await;
    let (mut ca, mut cb) = (a.client.clone(), b.client.clone());
    let before = ca.decide(scope_request("k1")).await.unwrap().into_inner();
    assert_eq!(before.outcome(), O::NeedMoreInfo);

    // Down: the server is gone (its state with it).
    let mut redis = Arc::try_unwrap(redis).unwrap_or_else(|_| panic!("one owner"));
    redis.kill();
    for i in 0..20 {
        let d = ca.decide(req(&format!("down-{i}"), "open links panel d")).await.unwrap().into_inner();
        assert_eq!(d.target_id, "links-panel-d");
        let t = cb.decide(req(&format!("down-{i}"), "links panel")).await.unwrap().into_inner();
        assert_eq!((t.outcome(), t.fallback_reason()), (O::Clarify, F::StateUnavailable));
    }
    let s = cb.enrich(chat_evidence("k1", &before.loop_cycle_id)).await.unwrap_err();
    assert_eq!(s.code(), Code::Unavailable);
    assert!(s.message().contains("retry"), "{}", s.message());
    let s = ca.get_session(pb::GetSessionRequest { session_id: "k1".into() }).await.unwrap_err();
    assert_eq!(s.code(), Code::Unavailable);
    let mut by_ref = req("k1", "the second one");
    let o = by_ref.options.as_mut().unwrap();
    o.version = "v1".into();
    o.candidates.clear();
    o.by_reference = true;
    let s = ca.decide(by_ref).await.unwrap_err();
    assert_eq!(s.code(), Code::Unavailable);
    assert!(s.message().contains("resend"), "{}", s.message());
    // Health stays SERVING: a store outage must not take the pods down.
    let mut h = tonic_health::pb::health_client::HealthClient::new(a.channel.clone());
    let status = h.check(tonic_health::pb::HealthCheckRequest { service: "ladder.v1.Arbiter".into() }).await.unwrap().into_inner();
    assert_eq!(status.status(), tonic_health::pb::health_check_response::ServingStatus::Serving);
    assert!(a.daemon.store().failing() && a.daemon.store().failures() > 0, "the store's failure is visible");
    assert!(b.daemon.store().failing() && b.daemon.store().failures() > 0, "on both replicas");

    // Back (empty): the replicas reconnect by themselves (each one's probe,
    // once per breaker cool-down, finds it), and shared state works again:
    // NEED_MORE_INFO on A, Enrich on B. Polled until both have found it, 30 s
    // at most.
    redis.restart();
    let until = Instant::now() + Duration::from_secs(30);
    let r = loop {
        let first = ca.decide(scope_request("k2")).await.unwrap().into_inner();
        if first.outcome() == O::NeedMoreInfo
            && let Ok(r) = cb.enrich(chat_evidence("k2", &first.loop_cycle_id)).await
        {
            break r.into_inner();
        }
        assert!(Instant::now() < until, "the shared state did not resume within 30 s of the restart: {first:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!((r.outcome(), r.target_id.as_str(), r.loop_cycle_id.is_empty()), (O::Execute, "chat-d", false));
    assert!(!a.daemon.store().failing() && !b.daemon.store().failing(), "both replicas found the store again");
    drop(redis);
}

async fn a_guardrail_trip_on_one_replica_stops_auto_execute_on_another_and_a_reset_on_either_clears_both(server: Server) {
    let llm = MockServer::start().await;
    // Always picks links-panel-e at 0.9: auto-executes "the thing for team e".
    let pick = json!({"decision": "select", "choice_id": "links-panel-e", "confidence": 0.9, "needed_evidence_types": []});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({"choices": [{"message": {"content": pick.to_string()}}]})))
        .mount(&llm)
        .await;
    // Waited for up to 20 s (the call's deadline 30 s): a slow answer on a
    // loaded machine is still an execute, not a clarifier.
    let mut c = with_llm(&format!("{}/v1", llm.uri()), 20_000);
    c.server.request_timeout_ms = 30_000;
    c.auto_execute.enabled = true;
    // This fake names the real id in every ask; the relabelled second ask
    // of `reorder` would not corroborate it. The trip is what is tested here
    // (corroboration has its own tests).
    c.auto_execute.corroboration = ladder::policy::Corroboration::None;
    c.guardrails.auto_trip = true;
    c.guardrails.baseline_cohort = Some("control".into());
    c.guardrails.min_samples = 20;
    c.guardrails.evaluate_every_seconds = 1;
    let p = pair(server, c).await;
    let (mut a, mut b) = (p.a.client.clone(), p.b.client.clone());
    let labelled = |session: String, input: &str, cohort: &str| {
        let mut r = req(&session, input);
        r.labels.insert("cohort".into(), cohort.into());
        r
    };
    assert_eq!(b.decide(labelled("b0".into(), "the thing for team e", "llm")).await.unwrap().into_inner().outcome(), O::Execute);
    // A's windows: 40 correct controls, 40 LLM executions, 3 rejected.
    for i in 0..40 {
        a.decide(labelled(format!("c{i}"), "open links panel d", "control")).await.unwrap();
    }
    for i in 0..40 {
        let r = a.decide(labelled(format!("l{i}"), "the thing for team e", "llm")).await.unwrap().into_inner();
        if i >= 20 && r.outcome() == O::Clarify {
            // A slow machine: an evaluation (every second) ran once enough
            // samples were in, and A tripped itself before the last ones.
            break;
        }
        assert_eq!(r.outcome(), O::Execute, "turn {i}");
        if i < 3 {
            a.record_outcome(rejected(&format!("l{i}"), r.decision_id)).await.unwrap();
        }
    }
    assert!(a.get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner().auto_execute_tripped, "A tripped itself");
    // B has seen none of it, yet stops auto-executing within one
    // evaluation interval (1 s; 10 s is a generous bound for a busy machine).
    let until = Instant::now() + Duration::from_secs(10);
    while !b.get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner().auto_execute_tripped {
        assert!(Instant::now() < until, "B never saw A's trip");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let r = b.decide(labelled("b1".into(), "the thing for team e", "llm")).await.unwrap().into_inner();
    assert_eq!(
        (r.outcome(), r.clarifier.unwrap().suggested_id.as_str()),
        (O::Clarify, "links-panel-e"),
        "the pick only leads the clarifier"
    );
    // ResetRollout on B re-enables A too.
    let state = b.reset_rollout(pb::ResetRolloutRequest { note: "checked".into() }).await.unwrap().into_inner();
    assert!(!state.auto_execute_tripped);
    let until = Instant::now() + Duration::from_secs(10);
    while a.get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner().auto_execute_tripped {
        assert!(Instant::now() < until, "A never saw the reset");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let r = a.decide(labelled("a9".into(), "the thing for team e", "llm")).await.unwrap().into_inner();
    assert_eq!(r.outcome(), O::Execute);
}

async fn a_regression_spread_over_two_replicas_trips_auto_execute_though_neither_alone_could_judge_it(server: Server) {
    let mut c = Config::default();
    c.guardrails.auto_trip = true;
    c.guardrails.baseline_cohort = Some("control".into());
    c.guardrails.min_samples = 20;
    c.guardrails.evaluate_every_seconds = 1;
    let p = pair(server, c).await;
    let labelled = |session: String, cohort: &str| {
        let mut r = req(&session, "open links panel d");
        r.labels.insert("cohort".into(), cohort.into());
        r
    };
    // Each replica: 12 control and 12 canary executions, 3 of the canary's
    // rejected. 12 is under min_samples (20): alone, neither judges.
    let feed = |name: &'static str, d: &TestDaemon| {
        let mut client = d.client.clone();
        async move {
            for i in 0..12 {
                client.decide(labelled(format!("{name}-control-{i}"), "control")).await.unwrap();
                let r = client.decide(labelled(format!("{name}-canary-{i}"), "canary")).await.unwrap().into_inner();
                assert_eq!(r.outcome(), O::Execute);
                if i < 3 {
                    client.record_outcome(rejected(&format!("{name}-canary-{i}"), r.decision_id)).await.unwrap();
                }
            }
        }
    };
    feed("a", &p.a).await;
    // B has decided nothing yet, so whatever A has read of it, A judges
    // its own 12 turns of each cohort: not enough to judge.
    let (reports, breaches) = p.a.daemon.check_guardrails();
    let canary = reports.iter().find(|r| r.cohort == "canary").expect("canary reported");
    assert_eq!((canary.figures.decisions, breaches.len()), (12, 0), "A alone: {breaches:?}");
    assert!(!p.a.daemon.tripped());
    feed("b", &p.b).await;
    // Together, 24 of each: canary's wrong-action rate (25%) is over
    // control's (0%) by far more than half a point. Both trip within a few
    // evaluation intervals (1 s; 15 s is a generous bound for a busy machine).
    for (name, d) in [("A", &p.a), ("B", &p.b)] {
        let until = Instant::now() + Duration::from_secs(15);
        loop {
            let state = d.client.clone().get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner();
            if state.auto_execute_tripped {
                let canary = state.cohorts.iter().find(|c| c.cohort == "canary").expect("canary reported");
                assert_eq!((canary.decisions, canary.wrong_actions), (24, 6), "{name} judges both replicas' turns");
                break;
            }
            assert!(Instant::now() < until, "{name} never tripped: {state:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // A reset anywhere drops every replica's shared windows. The replicas
    // keep publishing theirs each evaluation, so the hash may be back at
    // once: what must be gone is every turn from before the reset.
    p.b.client.clone().reset_rollout(pb::ResetRolloutRequest { note: "checked".into() }).await.unwrap();
    for _ in 0..3 {
        let windows: Vec<String> = p.redis.cmd(&["HVALS", "ladderd:{rollout}:windows"]).await;
        for json in &windows {
            let w: serde_json::Value = serde_json::from_str(json).unwrap();
            let turns: usize = w["cohorts"].as_object().map_or(0, |c| c.values().map(|c| c["t"].as_array().map_or(0, Vec::len)).sum());
            assert_eq!(turns, 0, "a replica published turns from before the reset: {json}");
        }
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
}

async fn two_replicas_share_sessions_on_a_redis_cluster_with_each_session_on_one_slot(server: Server) {
    let cluster = crate::redis_server::RedisCluster::start(server).await;
    let llm = slow_provider(Duration::from_millis(100)).await;
    let mut c = on_redis(with_llm(&format!("{}/v1", llm.uri()), 2_000), &cluster.nodes[0]);
    c.sessions.redis.cluster = true;
    let a = TestDaemon::start(c.clone()).await;
    let b = TestDaemon::start(c).await;
    let (mut ca, mut cb) = (a.client.clone(), b.client.clone());
    let sessions = 24;
    for i in 0..sessions {
        let s = format!("cluster-{i}");
        // Enrich across replicas, with a pool held for reuse.
        let first = ca.decide(scope_request(&s)).await.unwrap().into_inner();
        assert_eq!(first.outcome(), O::NeedMoreInfo, "{s}");
        let r = cb.enrich(chat_evidence(&s, &first.loop_cycle_id)).await.unwrap().into_inner();
        assert_eq!(r.target_id, "chat-d", "{s}");
        let mut sent = req(&s, "open links panel d");
        sent.options.as_mut().unwrap().version = "v1".into();
        cb.decide(sent.clone()).await.unwrap();
        let o = sent.options.as_mut().unwrap();
        o.candidates.clear();
        o.by_reference = true;
        assert_eq!(ca.decide(sent).await.unwrap().into_inner().target_id, "links-panel-d", "{s}");
    }
    // A loop-guard race on every session: one LLM call each.
    let mut calls = Vec::new();
    for i in 0..sessions {
        for c in [&ca, &cb] {
            let mut c = c.clone();
            let r = req(&format!("cluster-{i}"), "links panel");
            calls.push(tokio::spawn(async move { c.decide(r).await.unwrap().into_inner() }));
        }
    }
    let called =
        futures::future::join_all(calls).await.into_iter().filter(|d| d.as_ref().unwrap().llm.clone().unwrap_or_default().called).count();
    assert_eq!((called, llm.received_requests().await.unwrap().len()), (sessions, sessions));
    // The sessions spread over the three primaries, and each session's keys
    // stayed together (a script touching two slots would have failed).
    for n in &cluster.nodes {
        let keys: i64 = n.cmd(&["DBSIZE"]).await;
        assert!(keys > 0, "node {} holds no session", n.port);
    }
}

async fn a_rejection_recorded_on_another_replica_counts_as_a_wrong_action_of_the_deciding_cohort(server: Server) {
    let p = pair(server, Config::default()).await;
    let mut r = req("w1", "open links panel d");
    r.labels.insert("cohort".into(), "canary".into());
    let exec = p.a.client.clone().decide(r).await.unwrap().into_inner();
    assert_eq!(exec.outcome(), O::Execute);
    // A kept the execution's cohort with the session, in the same write.
    let held: i64 = p.redis.cmd(&["LLEN", "ladderd:{w1}:executed"]).await;
    assert_eq!(held, 1);
    p.b.client.clone().record_outcome(rejected("w1", exec.decision_id)).await.unwrap();
    let state = p.b.client.clone().get_rollout(pb::GetRolloutRequest {}).await.unwrap().into_inner();
    let canary = state.cohorts.iter().find(|c| c.cohort == "canary").expect("B reports the deciding cohort");
    assert_eq!(canary.wrong_actions, 1, "{state:?}");
}

/// A server that requires a password (`requirepass`): the password comes
/// from `sessions.redis.password_file` (a mounted Secret), not the URL.
/// With it two replicas share state; with a wrong one the store fails as
/// an unreachable one would (deterministic decisions go on, calls that
/// need the state are UNAVAILABLE) and nothing is shared.
#[tokio::test]
async fn a_password_from_a_file_opens_a_protected_store_and_a_wrong_one_degrades_to_the_safe_side() {
    let redis = RedisServer::start_with(&["--requirepass", "s3cret-pw"]);
    let dir = tempfile::tempdir().unwrap();
    let with_password = |pw: &str, name: &str| {
        let file = dir.path().join(name);
        std::fs::write(&file, format!("{pw}\n")).unwrap();
        let mut c = on_redis(Config::default(), &redis);
        c.sessions.redis.password_file = Some(file);
        c
    };
    let a = TestDaemon::start(with_password("s3cret-pw", "a")).await;
    let b = TestDaemon::start(with_password("s3cret-pw", "b")).await;
    let first = a.client.clone().decide(scope_request("pw-1")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::NeedMoreInfo);
    let r = b.client.clone().enrich(chat_evidence("pw-1", &first.loop_cycle_id)).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.target_id.as_str()), (O::Execute, "chat-d"), "the cycle opened on A was found on B");

    let wrong = TestDaemon::start(with_password("not-it", "wrong")).await;
    let d = wrong.client.clone().decide(req("pw-2", "open links panel d")).await.unwrap().into_inner();
    assert_eq!((d.outcome(), d.target_id.as_str()), (O::Execute, "links-panel-d"), "deterministic decisions need no store");
    let s = wrong.client.clone().get_session(pb::GetSessionRequest { session_id: "pw-1".into() }).await.unwrap_err();
    assert_eq!(s.code(), Code::Unavailable, "{}", s.message());
    // Nothing reached the store without the password: only A's session.
    let keys: Vec<String> = redis_auth_keys(&redis).await;
    assert!(keys.iter().all(|k| !k.contains("pw-2")), "{keys:?}");
    assert!(keys.iter().any(|k| k.contains("pw-1")), "{keys:?}");
}

/// Every key in a password-protected server.
async fn redis_auth_keys(redis: &RedisServer) -> Vec<String> {
    let url = format!("redis://:s3cret-pw@127.0.0.1:{}/", redis.port);
    let client = ::redis::Client::open(url).unwrap();
    let mut c = client.get_multiplexed_async_connection().await.unwrap();
    ::redis::cmd("KEYS").arg("*").query_async(&mut c).await.unwrap()
}

/// `rediss://`: the store is reached over TLS. The server listens for TLS
/// only on its TLS port (a plain client there gets nothing back), with a
/// certificate the daemon trusts through `SSL_CERT_FILE` (read by the
/// platform's certificate store, as a mounted CA bundle would be).
#[tokio::test(flavor = "multi_thread")]
async fn a_rediss_url_reaches_the_store_over_tls() {
    let dir = tempfile::tempdir().unwrap();
    let (cert, key) = (dir.path().join("cert.pem"), dir.path().join("key.pem"));
    let made = crate::redis_server::openssl()
        .command()
        .args(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost", "-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .expect("openssl makes the test certificate");
    assert!(made.status.success(), "{}", String::from_utf8_lossy(&made.stderr));
    let tls_port = crate::redis_server::free_port().to_string();
    let (cert, key) = (cert.to_str().unwrap(), key.to_str().unwrap());
    let redis = RedisServer::start_with(&[
        "--tls-port",
        &tls_port,
        "--tls-cert-file",
        cert,
        "--tls-key-file",
        key,
        "--tls-ca-cert-file",
        cert,
        "--tls-auth-clients",
        "no",
    ]);
    let url = format!("rediss://127.0.0.1:{tls_port}/");
    let (child, addr, _) =
        spawn_binary(&[("LADDER_SESSIONS__BACKEND", "redis"), ("LADDER_SESSIONS__REDIS__URL", &url), ("SSL_CERT_FILE", cert)]).await;
    let mut client = pb::arbiter_client::ArbiterClient::new(connect(addr.parse().unwrap()).await);
    let first = client.decide(scope_request("tls-1")).await.unwrap().into_inner();
    assert_eq!(first.outcome(), O::NeedMoreInfo);
    let r = client.enrich(chat_evidence("tls-1", &first.loop_cycle_id)).await.unwrap().into_inner();
    assert_eq!((r.outcome(), r.target_id.as_str()), (O::Execute, "chat-d"), "the cycle was kept in the store");
    let keys: Vec<String> = redis.cmd(&["KEYS", "*"]).await;
    assert!(keys.iter().any(|k| k.contains("tls-1")), "the session is in the store: {keys:?}");
    drop(child);
}

/// A turn whose answer was lost on the way from one replica (the
/// connection cut once it answered) and sent again to the other, with the
/// same turn_id and input: the first answer, the session advanced once.
async fn a_turn_sent_again_to_another_replica_after_its_answer_was_lost_is_applied_once(server: Server) {
    let p = pair(server, Config::default()).await;
    let proxy = CuttingProxy::start(p.a.addr).await;
    p.a.client.clone().decide(req("lost", "links panel")).await.unwrap();
    // A deterministic turn (logged without a read but for its turn_id) and
    // a reply to the clarifier (read first).
    for (i, input) in ["open links panel d", "links panel", "the second one"].into_iter().enumerate() {
        let turn = req("lost", input);
        proxy.cut_next_answer();
        let mut through = pb::arbiter_client::ArbiterClient::new(connect(proxy.addr).await);
        through.decide(turn.clone()).await.unwrap_err();
        let retried = p.b.client.clone().decide(turn.clone()).await.unwrap().into_inner();
        assert_eq!(retried.trace.first().map(|s| s.rung.as_str()), Some("replay"), "{input}: the first answer, kept");
        let again = p.a.client.clone().decide(turn).await.unwrap().into_inner();
        assert_eq!(
            (again.decision_id, again.outcome, again.target_id),
            (retried.decision_id, retried.outcome, retried.target_id),
            "{input}"
        );
        let s = p.b.client.clone().get_session(pb::GetSessionRequest { session_id: "lost".into() }).await.unwrap().into_inner();
        assert_eq!(s.turn_count, 2 + i as u64, "{input}: the session advanced once");
    }
}

/// Runs each test on Redis (`redis::NAME`) and on Valkey (`valkey::NAME`).
macro_rules! on_both_servers {
    ($($name:ident),* $(,)?) => {
        mod redis {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Server::Redis).await
            })*
        }
        mod valkey {
            $(#[tokio::test]
            async fn $name() {
                super::$name(super::Server::Valkey).await
            })*
        }
    };
}

on_both_servers!(
    need_more_info_on_one_replica_is_enriched_on_another,
    a_cycle_asked_again_on_another_replica_keeps_what_enrich_needs,
    a_tie_continuity_resolves_on_another_replica_calls_no_llm,
    two_replicas_racing_on_one_cycle_make_exactly_one_llm_call,
    an_outcome_recorded_on_one_replica_lets_continuity_resolve_on_another,
    a_pool_sent_to_one_replica_is_referenced_on_another,
    two_replicas_racing_to_hold_one_version_hold_exactly_one_content,
    every_key_of_a_session_shares_one_hash_tag_and_expires,
    idle_sessions_expire_in_the_store_itself,
    continuity_context_expires_by_the_wall_clock_across_replicas,
    a_guardrail_trip_on_one_replica_stops_auto_execute_on_another_and_a_reset_on_either_clears_both,
    a_regression_spread_over_two_replicas_trips_auto_execute_though_neither_alone_could_judge_it,
    two_replicas_share_sessions_on_a_redis_cluster_with_each_session_on_one_slot,
    a_rejection_recorded_on_another_replica_counts_as_a_wrong_action_of_the_deciding_cohort,
    a_turn_costs_a_read_and_a_write_on_any_replica,
    an_llm_turn_claims_its_guard_once_and_its_repeat_on_another_replica_is_guarded,
    a_turn_sent_again_to_another_replica_after_its_answer_was_lost_is_applied_once,
);
