use super::*;
use proptest::collection::{btree_map, vec, vec_deque};
use proptest::option;
use proptest::prelude::*;
use proptest::sample::select;

/// Texts as sessions hold them: from a small set (so that fields repeat
/// one another and the table is read), lowercase hex (ids, keys,
/// fingerprints), UUIDs, near-misses of both, and any text at all.
fn text() -> BoxedStrategy<String> {
    prop_oneof![
        4 => select(vec!["", "a", ID, "set-1", "chat-1", "Links Panel D", "links-panel-d", "Links Panel D  ", "Links Panel D, 4 seats", "é ü 漢"]).prop_map(String::from),
        2 => "[0-9a-f]{0,66}",
        1 => "[0-9A-F]{2,8}",
        2 => any::<u128>().prop_map(|u| uuid::Uuid::from_u128(u).to_string()),
        1 => any::<u128>().prop_map(|u| uuid::Uuid::from_u128(u).to_string().to_uppercase()),
        1 => "[0-9a-f]{8}-[0-9a-z-]{27}",
        2 => any::<String>(),
    ]
    .boxed()
}

fn en<E: Copy + std::fmt::Debug + 'static>(all: &'static [E]) -> impl Strategy<Value = E> {
    select(all)
}

fn scope_ref() -> BoxedStrategy<Option<ScopeRef>> {
    option::of((en(Scope::ALL), text()).prop_map(|(scope, instance_id)| ScopeRef { scope, instance_id })).boxed()
}

fn candidate() -> BoxedStrategy<Candidate> {
    (text(), text(), text(), text(), text(), text(), vec(text(), 0..3), en(Risk::ALL))
        .prop_map(|(id, label, sublabel, badge, kind, path, aliases, risk)| Candidate {
            id,
            label,
            sublabel,
            badge,
            kind,
            path,
            aliases,
            risk,
        })
        .boxed()
}

fn action() -> BoxedStrategy<ActionEntry> {
    (en(ActionKind::ALL), text(), en(Scope::ALL), text(), any::<i64>(), en(ActionOutcome::ALL), text(), any::<u64>())
        .prop_map(|(kind, target_ref, source_scope, option_set_id, timestamp_ms, outcome, target_label, chosen_by)| ActionEntry {
            kind,
            target_ref,
            source_scope,
            option_set_id,
            timestamp_ms,
            outcome,
            target_label,
            chosen_by,
        })
        .boxed()
}

fn request() -> BoxedStrategy<DecideRequest> {
    let options = option::of((text(), en(Scope::ALL), vec(candidate(), 0..6), text(), any::<bool>(), en(Asked::ALL)).prop_map(
        |(option_set_id, scope, candidates, version, by_reference, asked)| OptionSet {
            option_set_id,
            scope,
            candidates: Arc::new(candidates),
            version,
            by_reference,
            asked,
        },
    ));
    let lists = (vec(candidate(), 0..3), vec(candidate(), 0..2), vec(candidate(), 0..2));
    (text(), text(), text(), scope_ref(), options, lists, any::<bool>(), text(), btree_map(text(), text(), 0..3))
        .prop_map(
            |(
                session_id,
                turn_id,
                input,
                active_scope,
                options,
                (recoverable_chat_options, widget_items, commands),
                force_clarify_only,
                language,
                labels,
            )| {
                DecideRequest {
                    session_id,
                    turn_id,
                    input,
                    active_scope,
                    options,
                    recoverable_chat_options,
                    widget_items,
                    commands,
                    force_clarify_only,
                    language,
                    labels,
                }
            },
        )
        .boxed()
}

fn cycle() -> BoxedStrategy<Cycle> {
    let head = (text(), text(), any::<bool>(), vec(text(), 0..4), option::of(text()), en(Lane::ALL), text(), any::<u32>(), any::<u32>());
    let tail = (option::of(request()), vec(text(), 0..3), vec(text(), 0..3), vec(en(EvidenceType::ALL), 0..3), any::<bool>());
    (head, tail)
        .prop_map(
            |(
                (id, guard_key, llm_attempted, ordering, suggested_id, lane, fingerprint, enrichment_steps, llm_calls),
                (request, excerpts, history, supplied, resolved),
            )| Cycle {
                id,
                guard_key,
                llm_attempted,
                ordering,
                suggested_id,
                lane,
                fingerprint,
                enrichment_steps,
                llm_calls,
                request: request.map(Arc::new),
                excerpts,
                history,
                supplied,
                resolved,
            },
        )
        .boxed()
}

/// A question of any texts (`state` often makes it offer some of the
/// cycle's options instead, as ladderd's clarifier does).
fn question() -> BoxedStrategy<PendingQuestion> {
    (en(QuestionKind::ALL), vec(text(), 0..4), option::of(text()), vec(text(), 0..4), vec(text(), 0..4))
        .prop_map(|(kind, offered, proposed, shown, labels)| PendingQuestion { kind, offered, proposed, shown, labels })
        .boxed()
}

/// A decision of any fields (`state` often makes it name the cycle, as
/// ladderd's do), kept for a turn.
fn last_turn() -> BoxedStrategy<LastTurn> {
    let llm = (
        (any::<bool>(), any::<bool>(), any::<u32>(), option::of(text()), -1.0f32..2.0, text()),
        (any::<bool>(), text(), text(), option::of(text()), text(), any::<u32>()),
    )
        .prop_map(|((called, guard_hit, latency_ms, suggested_id, confidence, verdict), (shadow, c, cm, ci, cv, cl))| LlmReport {
            called,
            guard_hit,
            latency_ms,
            suggested_id,
            confidence,
            verdict,
            shadow,
            corroboration: c,
            corroboration_method: cm,
            corroborating_id: ci,
            corroboration_verdict: cv,
            corroboration_latency_ms: cl,
        });
    let llm = prop_oneof![2 => Just(LlmReport::default()), 1 => llm];
    let clarifier = option::of(
        (text(), vec(text(), 0..4), option::of(text()), en(PendingClarifier::ALL))
            .prop_map(|(question, option_ids, suggested_id, kind)| Clarifier { question, option_ids, suggested_id, kind }),
    );
    let step = (text(), text(), text(), any::<u64>()).prop_map(|(r, outcome, detail, duration_us)| Step {
        rung: r.into(),
        outcome,
        detail,
        duration_us,
    });
    let head = (
        any::<(u32, u32)>(),
        text(),
        en(Outcome::ALL),
        option::of(text()),
        en(Decider::ALL),
        option::of(en(Bucket::ALL)),
        option::of(en(AmbiguityReason::ALL)),
        option::of(en(FallbackReason::ALL)),
        option::of(en(EscapeReason::ALL)),
        en(Tier::ALL),
    );
    let tail = (
        clarifier,
        vec(en(EvidenceType::ALL), 0..3),
        llm,
        (option::of(text()), option::of(text())),
        vec(step, 0..3),
        text(),
        option::of(text()),
        option::of((en(FollowUpKind::ALL), text()).prop_map(|(kind, text)| FollowUp { kind, text })),
        vec(text(), 0..4),
    );
    (head, tail)
        .prop_map(
            |(
                (
                    (turn, input),
                    decision_id,
                    outcome,
                    target_id,
                    decided_by,
                    confidence,
                    ambiguity_reason,
                    fallback_reason,
                    escape_reason,
                    handled_by_tier,
                ),
                (
                    clarifier,
                    needed_evidence_types,
                    llm,
                    (loop_cycle_id, evidence_fingerprint),
                    trace,
                    config_revision,
                    pool_version,
                    follow_up,
                    about,
                ),
            )| LastTurn {
                key: TurnKey { turn, input },
                decision: Decision {
                    decision_id,
                    outcome,
                    target_id,
                    decided_by,
                    confidence,
                    ambiguity_reason,
                    fallback_reason,
                    escape_reason,
                    handled_by_tier,
                    clarifier,
                    needed_evidence_types,
                    llm,
                    loop_cycle_id,
                    evidence_fingerprint,
                    trace,
                    config_revision,
                    pool_version,
                    follow_up,
                    about,
                },
            },
        )
        .boxed()
}

fn state() -> BoxedStrategy<ContinuityState> {
    let a = (
        option::of(action()),
        vec_deque(action(), 0..3),
        any::<bool>(),
        option::of(text()),
        vec_deque(text(), 0..3),
        vec_deque(text(), 0..3),
    );
    let b = (option::of(text()), scope_ref(), en(PendingClarifier::ALL), option::of(question()), any::<[u64; 3]>(), option::of(cycle()));
    let anchor = (any::<bool>(), vec(any::<prop::sample::Index>(), 0..4));
    let turn = (option::of(last_turn()), any::<(bool, bool)>());
    (a, b, anchor, turn)
        .prop_map(
            |(
                (last, trace, last_is_newest, last_accepted_choice_id, recent_accepted_choice_ids, recent_rejected_choice_ids),
                (active_option_set_id, active_scope, pending_clarifier_type, question, [turn_count, context_turn, context_at_ms], cycle),
                (keep_shown, picks),
                (mut last_turn, (names_cycle, names_fingerprint)),
            )| {
                // Often the decision names the cycle, as ladderd's do.
                if let (Some(t), Some(c)) = (last_turn.as_mut(), cycle.as_ref()) {
                    if names_cycle {
                        t.decision.loop_cycle_id = Some(c.id.clone());
                        // The cycle it opened: its id made from the decision's.
                        if let Ok(u) = uuid::Uuid::try_parse(&c.id) {
                            t.decision.decision_id = cycle_id_of(u).to_string();
                        }
                    }
                    if names_fingerprint {
                        t.decision.evidence_fingerprint = Some(c.fingerprint.clone());
                        // The turn that opened the cycle: its key is the
                        // held request's.
                        if let Some(key) = c.request.as_ref().and_then(|r| TurnKey::of(&r.turn_id, &r.input)) {
                            t.key = key;
                        }
                    }
                }
                let mut s = ContinuityState {
                    last_resolved_action: if last_is_newest { trace.front().cloned() } else { last },
                    recent_action_trace: trace,
                    last_accepted_choice_id,
                    recent_accepted_choice_ids,
                    recent_rejected_choice_ids,
                    active_option_set_id,
                    active_scope,
                    pending_clarifier_type,
                    question,
                    turn_count,
                    context_turn,
                    context_at_ms,
                    cycle,
                    last_turn: last_turn.map(Box::new),
                };
                // Often the question offers options of the cycle's list, as
                // ladderd's own clarifier does.
                let list = s.cycle.as_ref().and_then(|c| c.request.as_ref()).and_then(|r| r.options.as_ref()).map(|o| o.candidates.clone());
                if let (Some(list), Some(q)) = (list.filter(|l| !l.is_empty()), s.question.as_mut())
                    && !picks.is_empty()
                {
                    let picked: Vec<&Candidate> = picks.iter().map(|i| &list[i.index(list.len())]).collect();
                    q.offered = picked.iter().map(|c| c.id.clone()).collect();
                    q.labels = picked.iter().map(|c| c.label.clone()).collect();
                    if keep_shown {
                        q.shown = picked.iter().map(|c| ladder::replies::shown_text(c)).collect();
                    }
                }
                s
            },
        )
        .boxed()
}

/// The session the states are packed for.
const ID: &str = "session-000001";

fn list_of(s: &ContinuityState) -> Option<&Arc<Vec<Candidate>>> {
    s.cycle.as_ref()?.request.as_ref()?.options.as_ref().map(|o| &o.candidates)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Any state comes back as it went in, its option list the same
    /// list, not a copy.
    #[test]
    fn any_state_unpacks_to_what_was_packed(s in state()) {
        let p = pack(&s, ID);
        let back = unpack(&p, ID).expect("a packing reads back");
        prop_assert_eq!(&back, &s);
        if let (Some(a), Some(b)) = (list_of(&s), list_of(&back)) {
            prop_assert!(Arc::ptr_eq(a, b), "the list is shared");
        }
        prop_assert!(pack(&back, ID).same(&p), "packing is deterministic");
    }

    /// Bytes cut short or changed never panic and never read past
    /// their end: they read back as some state or say they are corrupt.
    #[test]
    fn damaged_bytes_never_panic(s in state(), cut in any::<prop::sample::Index>(), flip in any::<(prop::sample::Index, u8)>()) {
        let p = pack(&s, ID);
        let n = p.bytes.len();
        let short = Packed { bytes: p.bytes[..cut.index(n + 1)].into(), list: p.list.clone() };
        if short.bytes.len() < n {
            prop_assert!(unpack(&short, ID).is_err(), "a packing cut short is corrupt");
        }
        let mut bytes = p.bytes.to_vec();
        if n > 0 {
            bytes[flip.0.index(n)] ^= flip.1 | 1;
        }
        let _ = unpack(&Packed { bytes: bytes.into(), list: p.list.clone() }, ID);
        let _ = unpack(&Packed { bytes: p.bytes.clone(), list: None }, ID);
    }
}

/// The clarified session of `benches/sessions.rs`: ladderd's clarifier
/// over two options of a 100-candidate screen, and the open cycle that
/// holds the request.
fn clarified(list: &Arc<Vec<Candidate>>) -> ContinuityState {
    let offered: Vec<&Candidate> = vec![&list[41], &list[42]];
    let request = DecideRequest {
        session_id: "session-000001".into(),
        turn_id: "turn-1".into(),
        input: "links panel".into(),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() }),
        options: Some(OptionSet { option_set_id: "set-1".into(), scope: Scope::Chat, candidates: list.clone(), ..Default::default() }),
        ..Default::default()
    };
    let mut cycle = Cycle::new("60e7c1ac-e491-4e25-ac33-564967225647", "218f758901d04eaae3310e094112fc1e");
    cycle.ordering = offered.iter().map(|c| c.id.clone()).collect();
    cycle.fingerprint = "8804add0839b83b12c562c020ed6f67102a8004e70bb2e0d92d4cded81c888f7".into();
    cycle.request = Some(Arc::new(request));
    ContinuityState {
        active_option_set_id: Some("set-1".into()),
        active_scope: Some(ScopeRef { scope: Scope::Chat, instance_id: "chat-1".into() }),
        pending_clarifier_type: PendingClarifier::SelectionDisambiguation,
        question: Some(PendingQuestion {
            kind: QuestionKind::Choice,
            offered: offered.iter().map(|c| c.id.clone()).collect(),
            proposed: None,
            shown: offered.iter().map(|c| ladder::replies::shown_text(c)).collect(),
            labels: offered.iter().map(|c| c.label.clone()).collect(),
        }),
        turn_count: 1,
        context_turn: 1,
        context_at_ms: 6,
        cycle: Some(cycle),
        ..Default::default()
    }
}

fn screen() -> Arc<Vec<Candidate>> {
    Arc::new((0..100).map(|i| Candidate::new(format!("cand-{i:05}"), format!("Weekly Report Panel {i}"))).collect())
}

#[test]
fn a_clarified_session_keeps_positions_not_copies_of_the_screen() {
    let list = screen();
    let s = clarified(&list);
    let p = pack(&s, ID);
    assert_eq!(unpack(&p, ID).unwrap(), s);
    // Ids, labels and shown texts of the options offered are in the list:
    // none of them is in the bytes.
    for c in [&list[41], &list[42]] {
        for text in [&c.id, &c.label] {
            assert!(!p.bytes.windows(text.len()).any(|w| w == text.as_bytes()), "{text} copied");
        }
    }
    // Nor is the session's id its request repeats. What is: the cycle's
    // id, guard key and fingerprint as 16, 16 and 32 bytes, the four
    // texts the screen does not hold ("set-1", "chat-1", "turn-1", "links
    // panel": 36 bytes with their tags and lengths), and a byte or two a
    // field for the rest.
    assert!(!p.bytes.windows(ID.len()).any(|w| w == ID.as_bytes()), "the session's id copied");
    assert!(p.bytes.len() <= 64 + 36 + 64, "{} bytes", p.bytes.len());
}

/// The same session keeping its turn for a repeated `Decide`: the
/// clarifier the turn got, as the daemon keeps it (no trace).
#[test]
fn a_kept_clarifier_costs_its_id_and_key_and_a_byte_or_two_a_field() {
    let list = screen();
    let mut s = clarified(&list);
    let without = pack(&s, ID).bytes.len();
    let c = s.cycle.as_ref().unwrap();
    let mut decision = ladder::types::Decision::new(Outcome::Clarify, Tier::Fallback);
    // The daemon makes the cycle's id from the decision's.
    decision.decision_id = cycle_id_of(uuid::Uuid::try_parse(&c.id).unwrap()).to_string();
    decision.decided_by = Decider::Deterministic;
    decision.confidence = Some(Bucket::LowConfidenceClarifierOnly);
    decision.ambiguity_reason = Some(AmbiguityReason::MultiMatchNoExactWinner);
    decision.fallback_reason = Some(FallbackReason::LlmDisabled);
    decision.clarifier = Some(Clarifier {
        question: "Which one did you mean?".into(),
        option_ids: c.ordering.clone(),
        suggested_id: None,
        kind: PendingClarifier::SelectionDisambiguation,
    });
    decision.loop_cycle_id = Some(c.id.clone());
    decision.evidence_fingerprint = Some(c.fingerprint.clone());
    decision.config_revision = "710f414df0eb".into();
    s.last_turn = Some(Box::new(LastTurn { key: TurnKey::of("turn-1", "links panel").unwrap(), decision }));
    let p = pack(&s, ID);
    assert_eq!(unpack(&p, ID).unwrap(), s);
    // Its small fields as one number (4 bytes), the key and the decision
    // id by a mark (the held request's turn id and input make the one, the
    // cycle's id the other), the question and the revision by their place
    // in the common table (2 bytes each), the options by reference (a byte
    // each, and their count).
    let added = p.bytes.len() - without;
    assert!(added <= 12, "{added} bytes");
    assert!(!p.bytes.windows(8).any(|w| w == b"Which on"), "the question is written out");
    // A decision id not made with the cycle's: its 16 bytes more.
    s.last_turn.as_mut().unwrap().decision.decision_id = "c3530cc2-d965-416e-af6a-e561566ab20b".into();
    let p = pack(&s, ID);
    assert_eq!(unpack(&p, ID).unwrap(), s);
    assert!(p.bytes.len() - without <= 12 + 17, "{} bytes", p.bytes.len() - without);
}

#[test]
fn an_option_the_screen_no_longer_shows_is_kept_as_text() {
    let list = screen();
    let mut s = clarified(&list);
    let q = s.question.as_mut().unwrap();
    q.offered[1] = "gone".into();
    q.labels[0] = "Renamed".into();
    let p = pack(&s, ID);
    assert_eq!(unpack(&p, ID).unwrap(), s);
    assert!(p.bytes.windows(4).any(|w| w == b"gone"));
}

#[test]
fn the_last_action_is_not_written_twice() {
    let entry = ActionEntry {
        kind: ActionKind::Execute,
        target_ref: "links-panel-d".into(),
        source_scope: Scope::Chat,
        option_set_id: "set-1".into(),
        timestamp_ms: 1_795_951_368_030,
        outcome: ActionOutcome::Decided,
        target_label: "Links Panel D".into(),
        chosen_by: 1 << 60,
    };
    let once = ContinuityState { recent_action_trace: [entry.clone()].into(), ..Default::default() };
    let both = ContinuityState { last_resolved_action: Some(entry), ..once.clone() };
    assert_eq!(unpack(&pack(&both, ID), ID).unwrap(), both);
    assert_eq!(pack(&both, ID).bytes.len(), pack(&once, ID).bytes.len(), "the last action refers to the trace's newest");
}

#[test]
fn without_the_screen_each_text_is_written_once_and_a_shown_text_after_its_label() {
    let list = screen();
    let mut s = clarified(&list);
    // Past the open cycles' budgets the cycle keeps no request, so no list.
    s.cycle.as_mut().unwrap().request = None;
    let p = pack(&s, ID);
    assert_eq!(p.list, None);
    assert_eq!(unpack(&p, ID).unwrap(), s);
    let count = |text: &str| p.bytes.windows(text.len()).filter(|w| *w == text.as_bytes()).count();
    for c in [&list[41], &list[42]] {
        assert_eq!(count(&c.id), 1, "the id once, though the cycle's order repeats it");
        assert_eq!(count(&c.label), 1, "the label once: the shown text refers to it");
    }
}
