//! Packing: a state written field by field (the format is told in
//! `packed`'s doc).

use super::*;

pub(super) struct Writer<'a> {
    pub(super) out: Vec<u8>,
    /// The texts written so far (and the anchored options' texts).
    pub(super) table: Vec<Cow<'a, str>>,
}

impl<'a> Writer<'a> {
    pub(super) fn uint(&mut self, v: u64) {
        prost::encoding::encode_varint(v, &mut self.out);
    }

    pub(super) fn int(&mut self, v: i64) {
        self.uint(((v << 1) ^ (v >> 63)) as u64);
    }

    pub(super) fn flag(&mut self, b: bool) {
        self.out.push(b as u8);
    }

    pub(super) fn text(&mut self, s: &'a str) {
        if s.is_empty() {
            return self.uint(EMPTY);
        }
        // Only the first texts are looked through: a request's long lists
        // of other candidates would make it quadratic.
        let searched = &self.table[..self.table.len().min(TABLE_SEARCHED)];
        if let Some(k) = searched.iter().position(|t| *t == s) {
            return self.uint(TABLE + k as u64);
        }
        self.uint(NEW);
        self.uint(s.len() as u64);
        self.out.extend_from_slice(s.as_bytes());
        self.table.push(Cow::Borrowed(s));
    }

    /// `text`, written after `head` when it starts with it and `head` was
    /// written before (a shown text after its label).
    pub(super) fn text_after(&mut self, s: &'a str, head: Option<&str>) {
        let searched = &self.table[..self.table.len().min(TABLE_SEARCHED)];
        let at = head.filter(|h| h.len() >= PREFIX_MIN && s.len() > h.len() && s.starts_with(*h)).and_then(|h| {
            // Not when `s` itself is known (a table reference is shorter).
            (!searched.iter().any(|t| *t == s)).then(|| searched.iter().position(|t| *t == h).map(|k| (k, h.len()))).flatten()
        });
        let Some((k, len)) = at else { return self.text(s) };
        let rest = &s[len..];
        self.uint(PREFIXED);
        self.uint(k as u64);
        self.uint(rest.len() as u64);
        self.out.extend_from_slice(rest.as_bytes());
        self.table.push(Cow::Borrowed(s));
    }

    /// Text that is often lowercase hex: its bytes when it is.
    pub(super) fn hex(&mut self, s: &'a str) {
        // Only the text a read writes back the same: lowercase, and a UUID
        // hyphenated as `uuid` writes it.
        let lower = !s.is_empty() && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
        if let Some(u) = uuid::Uuid::try_parse(s).ok().filter(|u| u.hyphenated().encode_lower(&mut uuid::Uuid::encode_buffer()) == s) {
            self.uint(UUID);
            self.out.extend_from_slice(u.as_bytes());
        } else if let Some(bytes) = lower.then(|| hex::decode(s).ok()).flatten() {
            self.uint(HEX);
            self.uint(bytes.len() as u64);
            self.out.extend_from_slice(&bytes);
        } else {
            self.text(s);
        }
    }

    /// Text that many sessions share: its place in the common table when
    /// it is there or there is room.
    pub(super) fn common(&mut self, s: &'a str) {
        match (!s.is_empty()).then(|| common::place(s)).flatten() {
            Some(k) => {
                self.uint(COMMON);
                self.uint(u64::from(k));
            }
            None => self.text(s),
        }
    }

    /// The last turn: its small fields as one number (`Mixed`), then the
    /// texts the number says are there.
    pub(super) fn last_turn(&mut self, t: &'a LastTurn, cycle: Option<&'a Cycle>) {
        let LastTurn { key, decision } = t;
        let Decision {
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
        } = decision;
        // The key, when the held request makes it (the turn opened the
        // cycle); the decision id, when the cycle's id is made from it
        // (`cycle_id_of`).
        let held_key = cycle.and_then(|c| c.request.as_deref()).and_then(|r| TurnKey::of(&r.turn_id, &r.input)) == Some(*key);
        let own_id = cycle.is_some_and(|c| paired_id(&c.id).as_deref() == Some(decision_id.as_str()));
        let of_cycle = |s: &Option<String>, of: Option<&str>| match s {
            None => 0,
            Some(s) if Some(s.as_str()) == of => 1,
            Some(_) => 2,
        };
        let (loop_mark, fingerprint_mark) =
            (of_cycle(loop_cycle_id, cycle.map(|c| c.id.as_str())), of_cycle(evidence_fingerprint, cycle.map(|c| c.fingerprint.as_str())));
        let none = *llm == LlmReport::default();
        let mut m = Mixed::default();
        m.put(u64::from(held_key), 2);
        m.put(u64::from(own_id), 2);
        m.put(index_of(Outcome::ALL, outcome), Outcome::ALL.len());
        m.put(index_of(Decider::ALL, decided_by), Decider::ALL.len());
        m.opt(Bucket::ALL, confidence);
        m.opt(AmbiguityReason::ALL, ambiguity_reason);
        m.opt(FallbackReason::ALL, fallback_reason);
        m.put(index_of(Tier::ALL, handled_by_tier), Tier::ALL.len());
        m.put(u64::from(target_id.is_some()), 2);
        m.put(clarifier.as_ref().map_or(0, |c| index_of(PendingClarifier::ALL, &c.kind) + 1), PendingClarifier::ALL.len() + 1);
        m.put(loop_mark, 3);
        m.put(fingerprint_mark, 3);
        m.put(u64::from(clarifier.as_ref().is_some_and(|c| c.suggested_id.is_some())), 2);
        m.opt(EscapeReason::ALL, escape_reason);
        m.put(u64::from(!needed_evidence_types.is_empty()), 2);
        m.put(u64::from(!none), 2);
        m.put(u64::from(!trace.is_empty()), 2);
        m.put(u64::from(pool_version.is_some()), 2);
        m.opt(FollowUpKind::ALL, &follow_up.as_ref().map(|f| f.kind));
        // Last: a record written before `about` reads it as absent.
        m.put(u64::from(!about.is_empty()), 2);
        self.uint(m.value);
        if !held_key {
            let TurnKey { turn, input } = key;
            self.out.extend_from_slice(&turn.to_le_bytes());
            self.out.extend_from_slice(&input.to_le_bytes());
        }
        if !own_id {
            self.hex(decision_id);
        }
        if let Some(t) = target_id {
            self.text(t);
        }
        if let Some(Clarifier { question, option_ids, suggested_id, kind: _ }) = clarifier {
            self.common(question);
            self.texts(option_ids);
            if let Some(s) = suggested_id {
                self.text(s);
            }
        }
        if !needed_evidence_types.is_empty() {
            self.uint(needed_evidence_types.len() as u64);
            for t in needed_evidence_types {
                self.uint(index_of(EvidenceType::ALL, t));
            }
        }
        if !none {
            self.llm(llm);
        }
        for (mark, s) in [(loop_mark, loop_cycle_id), (fingerprint_mark, evidence_fingerprint)] {
            if let (2, Some(s)) = (mark, s) {
                self.hex(s);
            }
        }
        if !trace.is_empty() {
            self.uint(trace.len() as u64);
            for Step { rung, outcome, detail, duration_us } in trace {
                self.text(rung);
                self.text(outcome);
                self.text(detail);
                self.uint(*duration_us);
            }
        }
        self.common(config_revision);
        if let Some(p) = pool_version {
            self.text(p);
        }
        if let Some(FollowUp { kind: _, text }) = follow_up {
            self.text(text);
        }
        if !about.is_empty() {
            self.texts(about);
        }
    }

    pub(super) fn llm(&mut self, l: &'a LlmReport) {
        let LlmReport {
            called,
            guard_hit,
            latency_ms,
            suggested_id,
            confidence,
            verdict,
            shadow,
            corroboration,
            corroboration_method,
            corroborating_id,
            corroboration_verdict,
            corroboration_latency_ms,
        } = l;
        self.flag(*called);
        self.flag(*guard_hit);
        self.uint(u64::from(*latency_ms));
        self.opt_text(suggested_id);
        self.uint(u64::from(confidence.to_bits()));
        self.common(verdict);
        self.flag(*shadow);
        self.common(corroboration);
        self.common(corroboration_method);
        self.opt_text(corroborating_id);
        self.common(corroboration_verdict);
        self.uint(u64::from(*corroboration_latency_ms));
    }

    pub(super) fn opt_text(&mut self, s: &'a Option<String>) {
        self.flag(s.is_some());
        if let Some(s) = s {
            self.text(s);
        }
    }

    pub(super) fn texts<I: IntoIterator<Item = &'a String>>(&mut self, v: I)
    where
        I::IntoIter: ExactSizeIterator,
    {
        let v = v.into_iter();
        self.uint(v.len() as u64);
        for s in v {
            self.text(s);
        }
    }

    pub(super) fn scope_ref(&mut self, s: &'a Option<ScopeRef>) {
        self.flag(s.is_some());
        if let Some(ScopeRef { scope, instance_id }) = s {
            self.uint(index_of(Scope::ALL, scope));
            self.text(instance_id);
        }
    }

    pub(super) fn state(&mut self, s: &'a ContinuityState) {
        let ContinuityState {
            last_resolved_action,
            recent_action_trace,
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
            last_turn,
        } = s;
        // The question first: its texts are the ones most repeated.
        self.flag(question.is_some());
        if let Some(q) = question {
            self.question(q);
        }
        self.uint(recent_action_trace.len() as u64);
        for a in recent_action_trace {
            self.action(a);
        }
        // The last action is most often the trace's newest: 2 says so.
        match last_resolved_action {
            None => self.uint(0),
            Some(a) if recent_action_trace.front() == Some(a) => self.uint(2),
            Some(a) => {
                self.uint(1);
                self.action(a);
            }
        }
        self.opt_text(last_accepted_choice_id);
        self.texts(recent_accepted_choice_ids);
        self.texts(recent_rejected_choice_ids);
        self.opt_text(active_option_set_id);
        self.scope_ref(active_scope);
        self.uint(index_of(PendingClarifier::ALL, pending_clarifier_type));
        self.uint(*turn_count);
        self.uint(*context_turn);
        self.uint(*context_at_ms);
        self.flag(cycle.is_some());
        if let Some(c) = cycle {
            self.cycle(c);
        }
        // Last: its decision refers to the texts above.
        self.flag(last_turn.is_some());
        if let Some(t) = last_turn {
            self.last_turn(t, cycle.as_ref());
        }
    }

    pub(super) fn question(&mut self, q: &'a PendingQuestion) {
        let PendingQuestion { kind, offered, proposed, shown, labels } = q;
        self.uint(index_of(QuestionKind::ALL, kind));
        self.texts(offered);
        self.opt_text(proposed);
        // Labels before the shown texts, which start with them.
        self.texts(labels);
        self.uint(shown.len() as u64);
        for (k, s) in shown.iter().enumerate() {
            self.text_after(s, labels.get(k).map(String::as_str));
        }
    }

    pub(super) fn action(&mut self, a: &'a ActionEntry) {
        let ActionEntry { kind, target_ref, source_scope, option_set_id, timestamp_ms, outcome, target_label, chosen_by } = a;
        self.uint(index_of(ActionKind::ALL, kind));
        self.text(target_ref);
        self.uint(index_of(Scope::ALL, source_scope));
        self.text(option_set_id);
        self.int(*timestamp_ms);
        self.uint(index_of(ActionOutcome::ALL, outcome));
        self.text(target_label);
        self.uint(*chosen_by);
    }

    pub(super) fn cycle(&mut self, c: &'a Cycle) {
        let Cycle {
            id,
            guard_key,
            llm_attempted,
            ordering,
            suggested_id,
            lane,
            fingerprint,
            enrichment_steps,
            llm_calls,
            request,
            excerpts,
            history,
            supplied,
            resolved,
        } = c;
        self.hex(id);
        self.hex(guard_key);
        self.flag(*llm_attempted);
        self.texts(ordering);
        self.opt_text(suggested_id);
        self.uint(index_of(Lane::ALL, lane));
        self.hex(fingerprint);
        self.uint(u64::from(*enrichment_steps));
        self.uint(u64::from(*llm_calls));
        self.flag(request.is_some());
        if let Some(r) = request {
            self.request(r);
        }
        self.texts(excerpts);
        self.texts(history);
        self.uint(supplied.len() as u64);
        for t in supplied {
            self.uint(index_of(EvidenceType::ALL, t));
        }
        self.flag(*resolved);
    }

    pub(super) fn request(&mut self, r: &'a DecideRequest) {
        let DecideRequest {
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
        } = r;
        self.text(session_id);
        // Most often a UUID (the client packages make one per turn).
        self.hex(turn_id);
        self.text(input);
        self.scope_ref(active_scope);
        self.flag(options.is_some());
        // The candidates are the list kept beside the bytes (`pack`).
        if let Some(OptionSet { option_set_id, scope, candidates: _, version, by_reference, asked }) = options {
            self.text(option_set_id);
            self.uint(index_of(Scope::ALL, scope));
            self.text(version);
            self.flag(*by_reference);
            self.uint(index_of(Asked::ALL, asked));
        }
        for l in [recoverable_chat_options, widget_items, commands] {
            self.uint(l.len() as u64);
            for c in l {
                self.candidate(c);
            }
        }
        self.flag(*force_clarify_only);
        self.text(language);
        self.uint(labels.len() as u64);
        for (k, v) in labels {
            self.text(k);
            self.text(v);
        }
    }

    pub(super) fn candidate(&mut self, c: &'a Candidate) {
        let Candidate { id, label, sublabel, badge, kind, path, aliases, risk } = c;
        for s in [id, label, sublabel, badge, kind, path] {
            self.text(s);
        }
        self.texts(aliases);
        self.uint(index_of(Risk::ALL, risk));
    }
}
