//! Unpacking: a state read back field by field, every length and index
//! checked against the bytes there are.

use super::*;

pub(super) struct Reader<'a> {
    pub(super) at: &'a [u8],
    /// The texts read so far, borrowed from the bytes where they are
    /// whole there (and the anchored options' texts, from the list).
    pub(super) table: Vec<Cow<'a, str>>,
    pub(super) list: Option<&'a Arc<Vec<Candidate>>>,
}

impl<'a> Reader<'a> {
    pub(super) fn byte(&mut self) -> Result<u8, Corrupt> {
        let (&b, rest) = self.at.split_first().ok_or(Corrupt("ends early"))?;
        self.at = rest;
        Ok(b)
    }

    pub(super) fn bytes(&mut self, n: usize) -> Result<&'a [u8], Corrupt> {
        if self.at.len() < n {
            return Err(Corrupt("ends early"));
        }
        let (b, rest) = self.at.split_at(n);
        self.at = rest;
        Ok(b)
    }

    pub(super) fn uint(&mut self) -> Result<u64, Corrupt> {
        prost::encoding::decode_varint(&mut self.at).map_err(|_| Corrupt("a number"))
    }

    /// A count: never more than the bytes left (each item takes one).
    pub(super) fn len(&mut self) -> Result<usize, Corrupt> {
        let n = self.uint()?;
        if n > self.at.len() as u64 {
            return Err(Corrupt("a count over the bytes left"));
        }
        Ok(n as usize)
    }

    pub(super) fn int(&mut self) -> Result<i64, Corrupt> {
        let v = self.uint()?;
        Ok((v >> 1) as i64 ^ -((v & 1) as i64))
    }

    pub(super) fn flag(&mut self) -> Result<bool, Corrupt> {
        match self.byte()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Corrupt("a flag")),
        }
    }

    pub(super) fn en<E: Copy>(&mut self, all: &[E]) -> Result<E, Corrupt> {
        let i = self.uint()?;
        all.get(i as usize).copied().ok_or(Corrupt("an enum's index"))
    }

    pub(super) fn str(&mut self, n: usize) -> Result<&'a str, Corrupt> {
        std::str::from_utf8(self.bytes(n)?).map_err(|_| Corrupt("text that is not UTF-8"))
    }

    pub(super) fn known(&self, k: u64) -> Result<&Cow<'a, str>, Corrupt> {
        self.table.get(usize::try_from(k).unwrap_or(usize::MAX)).ok_or(Corrupt("a text's place"))
    }

    pub(super) fn text(&mut self) -> Result<String, Corrupt> {
        match self.uint()? {
            EMPTY => Ok(String::new()),
            NEW => {
                let n = self.len()?;
                let s = self.str(n)?;
                self.table.push(Cow::Borrowed(s));
                Ok(s.to_string())
            }
            PREFIXED => {
                let k = self.uint()?;
                let n = self.len()?;
                let rest = self.str(n)?;
                let s = format!("{}{rest}", self.known(k)?);
                self.table.push(Cow::Owned(s.clone()));
                Ok(s)
            }
            HEX => {
                let n = self.len()?;
                Ok(hex::encode(self.bytes(n)?))
            }
            UUID => {
                let bytes = self.bytes(16)?.try_into().map_err(|_| Corrupt("a UUID"))?;
                Ok(uuid::Uuid::from_bytes(bytes).hyphenated().to_string())
            }
            COMMON => Ok(common::text(self.uint()?).ok_or(Corrupt("a common text's place"))?.to_string()),
            k => Ok(self.known(k - TABLE)?.to_string()),
        }
    }

    pub(super) fn fixed<const N: usize>(&mut self) -> Result<[u8; N], Corrupt> {
        self.bytes(N)?.try_into().map_err(|_| Corrupt("ends early"))
    }

    pub(super) fn last_turn(&mut self, cycle: Option<&Cycle>) -> Result<LastTurn, Corrupt> {
        let mut m = Unmixed(self.uint()?);
        let held_key = m.take(2) == 1;
        let own_id = m.take(2) == 1;
        let outcome = m.en(Outcome::ALL)?;
        let decided_by = m.en(Decider::ALL)?;
        let confidence = m.opt(Bucket::ALL)?;
        let ambiguity_reason = m.opt(AmbiguityReason::ALL)?;
        let fallback_reason = m.opt(FallbackReason::ALL)?;
        let handled_by_tier = m.en(Tier::ALL)?;
        let has_target = m.take(2) == 1;
        let kind = m.opt(PendingClarifier::ALL)?;
        let (loop_mark, fingerprint_mark) = (m.take(3), m.take(3));
        let has_suggested = m.take(2) == 1;
        let escape_reason = m.opt(EscapeReason::ALL)?;
        let has_needed = m.take(2) == 1;
        let has_llm = m.take(2) == 1;
        let has_trace = m.take(2) == 1;
        let has_pool = m.take(2) == 1;
        let follow = m.opt(FollowUpKind::ALL)?;
        let has_about = m.take(2) == 1;
        if m.0 != 0 {
            return Err(Corrupt("a turn's fields"));
        }
        let key = if held_key {
            let held = cycle.and_then(|c| c.request.as_deref()).ok_or(Corrupt("the request a turn's key is read from"))?;
            TurnKey::of(&held.turn_id, &held.input).ok_or(Corrupt("a turn's key"))?
        } else {
            TurnKey { turn: u32::from_le_bytes(self.fixed()?), input: u32::from_le_bytes(self.fixed()?) }
        };
        let decision_id = if own_id {
            cycle.and_then(|c| paired_id(&c.id)).ok_or(Corrupt("the cycle a decision id is made from"))?
        } else {
            self.text()?
        };
        let target_id = if has_target { Some(self.text()?) } else { None };
        let clarifier = match kind {
            Some(kind) => Some(Clarifier {
                question: self.text()?,
                option_ids: self.texts()?,
                suggested_id: if has_suggested { Some(self.text()?) } else { None },
                kind,
            }),
            None if has_suggested => return Err(Corrupt("a suggestion without a clarifier")),
            None => None,
        };
        let needed_evidence_types = if has_needed {
            let n = self.len()?;
            (0..n).map(|_| self.en(EvidenceType::ALL)).collect::<Result<_, _>>()?
        } else {
            Vec::new()
        };
        let llm = if has_llm { self.llm()? } else { LlmReport::default() };
        let mut of_cycle = |mark: u64, of: Option<&String>| -> Result<Option<String>, Corrupt> {
            match mark {
                0 => Ok(None),
                1 => Ok(Some(of.cloned().ok_or(Corrupt("the cycle a decision names"))?)),
                _ => Ok(Some(self.text()?)),
            }
        };
        let loop_cycle_id = of_cycle(loop_mark, cycle.map(|c| &c.id))?;
        let evidence_fingerprint = of_cycle(fingerprint_mark, cycle.map(|c| &c.fingerprint))?;
        let trace = if has_trace {
            let n = self.len()?;
            (0..n)
                .map(|_| Ok(Step { rung: self.text()?.into(), outcome: self.text()?, detail: self.text()?, duration_us: self.uint()? }))
                .collect::<Result<_, Corrupt>>()?
        } else {
            Vec::new()
        };
        let decision = Decision {
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
            config_revision: self.text()?,
            pool_version: if has_pool { Some(self.text()?) } else { None },
            follow_up: match follow {
                Some(kind) => Some(FollowUp { kind, text: self.text()? }),
                None => None,
            },
            about: if has_about { self.texts()? } else { Vec::new() },
        };
        Ok(LastTurn { key, decision })
    }

    pub(super) fn llm(&mut self) -> Result<LlmReport, Corrupt> {
        Ok(LlmReport {
            called: self.flag()?,
            guard_hit: self.flag()?,
            latency_ms: self.u32()?,
            suggested_id: self.opt_text()?,
            confidence: f32::from_bits(self.u32()?),
            verdict: self.text()?,
            shadow: self.flag()?,
            corroboration: self.text()?,
            corroboration_method: self.text()?,
            corroborating_id: self.opt_text()?,
            corroboration_verdict: self.text()?,
            corroboration_latency_ms: self.u32()?,
        })
    }

    pub(super) fn opt_text(&mut self) -> Result<Option<String>, Corrupt> {
        Ok(if self.flag()? { Some(self.text()?) } else { None })
    }

    pub(super) fn texts<C: FromIterator<String>>(&mut self) -> Result<C, Corrupt> {
        let n = self.len()?;
        (0..n).map(|_| self.text()).collect()
    }

    pub(super) fn scope_ref(&mut self) -> Result<Option<ScopeRef>, Corrupt> {
        Ok(if self.flag()? { Some(ScopeRef { scope: self.en(Scope::ALL)?, instance_id: self.text()? }) } else { None })
    }

    pub(super) fn state(&mut self) -> Result<ContinuityState, Corrupt> {
        let question = if self.flag()? { Some(self.question()?) } else { None };
        let n = self.len()?;
        let recent_action_trace: VecDeque<ActionEntry> = (0..n).map(|_| self.action()).collect::<Result<_, _>>()?;
        let last_resolved_action = match self.uint()? {
            0 => None,
            1 => Some(self.action()?),
            2 => Some(recent_action_trace.front().cloned().ok_or(Corrupt("the trace's newest action"))?),
            _ => return Err(Corrupt("the last action")),
        };
        let last_accepted_choice_id = self.opt_text()?;
        let recent_accepted_choice_ids = self.texts()?;
        let recent_rejected_choice_ids = self.texts()?;
        let active_option_set_id = self.opt_text()?;
        let active_scope = self.scope_ref()?;
        let pending_clarifier_type = self.en(PendingClarifier::ALL)?;
        let turn_count = self.uint()?;
        let context_turn = self.uint()?;
        let context_at_ms = self.uint()?;
        let cycle = if self.flag()? { Some(self.cycle()?) } else { None };
        let last_turn = if self.flag()? { Some(Box::new(self.last_turn(cycle.as_ref())?)) } else { None };
        Ok(ContinuityState {
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
        })
    }

    pub(super) fn question(&mut self) -> Result<PendingQuestion, Corrupt> {
        let kind = self.en(QuestionKind::ALL)?;
        let offered = self.texts()?;
        let proposed = self.opt_text()?;
        let labels = self.texts()?;
        Ok(PendingQuestion { kind, offered, proposed, labels, shown: self.texts()? })
    }

    pub(super) fn action(&mut self) -> Result<ActionEntry, Corrupt> {
        Ok(ActionEntry {
            kind: self.en(ActionKind::ALL)?,
            target_ref: self.text()?,
            source_scope: self.en(Scope::ALL)?,
            option_set_id: self.text()?,
            timestamp_ms: self.int()?,
            outcome: self.en(ActionOutcome::ALL)?,
            target_label: self.text()?,
            chosen_by: self.uint()?,
        })
    }

    pub(super) fn u32(&mut self) -> Result<u32, Corrupt> {
        u32::try_from(self.uint()?).map_err(|_| Corrupt("a count over u32"))
    }

    pub(super) fn cycle(&mut self) -> Result<Cycle, Corrupt> {
        Ok(Cycle {
            id: self.text()?,
            guard_key: self.text()?,
            llm_attempted: self.flag()?,
            ordering: self.texts()?,
            suggested_id: self.opt_text()?,
            lane: self.en(Lane::ALL)?,
            fingerprint: self.text()?,
            enrichment_steps: self.u32()?,
            llm_calls: self.u32()?,
            request: if self.flag()? { Some(Arc::new(self.request()?)) } else { None },
            excerpts: self.texts()?,
            history: self.texts()?,
            supplied: {
                let n = self.len()?;
                (0..n).map(|_| self.en(EvidenceType::ALL)).collect::<Result<_, _>>()?
            },
            resolved: self.flag()?,
        })
    }

    pub(super) fn request(&mut self) -> Result<DecideRequest, Corrupt> {
        let session_id = self.text()?;
        let turn_id = self.text()?;
        let input = self.text()?;
        let active_scope = self.scope_ref()?;
        let options = if self.flag()? {
            Some(OptionSet {
                option_set_id: self.text()?,
                scope: self.en(Scope::ALL)?,
                candidates: self.list.cloned().ok_or(Corrupt("the options' list"))?,
                version: self.text()?,
                by_reference: self.flag()?,
                asked: self.en(Asked::ALL)?,
            })
        } else {
            None
        };
        let mut lists: [Vec<Candidate>; 3] = Default::default();
        for l in &mut lists {
            let n = self.len()?;
            *l = (0..n).map(|_| self.candidate()).collect::<Result<_, _>>()?;
        }
        let [recoverable_chat_options, widget_items, commands] = lists;
        let force_clarify_only = self.flag()?;
        let language = self.text()?;
        let n = self.len()?;
        let mut labels = BTreeMap::new();
        for _ in 0..n {
            let k = self.text()?;
            labels.insert(k, self.text()?);
        }
        Ok(DecideRequest {
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
        })
    }

    pub(super) fn candidate(&mut self) -> Result<Candidate, Corrupt> {
        Ok(Candidate {
            id: self.text()?,
            label: self.text()?,
            sublabel: self.text()?,
            badge: self.text()?,
            kind: self.text()?,
            path: self.text()?,
            aliases: self.texts()?,
            risk: self.en(Risk::ALL)?,
        })
    }
}
