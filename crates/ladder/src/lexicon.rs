//! Phrase lists used by canonicalization, exclusions, scope cues and
//! ordinals. Shipped as `lexicon.toml` (English complete; German, Spanish,
//! French and a Hebrew starter set; the reply words and positions of
//! Italian, Portuguese and Dutch); replaceable from configuration.

use super::text::{fold, normalize};

/// How lexicon phrases are compared: as canonical text is, without the
/// filler step (normalized and folded).
fn norm(phrase: &str) -> String {
    fold(&normalize(phrase)).into_owned()
}
use super::types::Scope;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Words and phrases of a group each mapped to the group's other words
/// (a phrase is a key, never a mate: labels are compared word by word).
fn groups<'a>(lists: impl Iterator<Item = &'a Vec<String>>) -> HashMap<String, Vec<String>> {
    let mut same: HashMap<String, Vec<String>> = HashMap::default();
    for group in lists {
        let group: Vec<String> = group.iter().map(|v| norm(v)).filter(|v| !v.is_empty()).collect();
        for v in &group {
            let mates = same.entry(v.clone()).or_default();
            mates.extend(group.iter().filter(|m| *m != v && !m.contains(' ') && !mates.contains(m)).cloned().collect::<Vec<_>>());
        }
    }
    same
}

/// The lexicon shipped inside the binary.
pub const SHIPPED: &str = include_str!("lexicon.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LexiconFile {
    pub languages: BTreeMap<String, LanguageLexicon>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LanguageLexicon {
    #[serde(default)]
    pub filler: Vec<String>,
    #[serde(default)]
    pub selection_verbs: Vec<String>,
    #[serde(default)]
    pub question_openers: Vec<String>,
    #[serde(default)]
    pub request_openers: Vec<String>,
    #[serde(default)]
    pub cancel: Vec<String>,
    #[serde(default)]
    pub cancel_openers: Vec<String>,
    #[serde(default)]
    pub negations: Vec<String>,
    #[serde(default)]
    pub relations: Vec<String>,
    #[serde(default)]
    pub plurals: Vec<String>,
    #[serde(default)]
    pub conjunctions: Vec<String>,
    #[serde(default)]
    pub function_words: Vec<String>,
    #[serde(default)]
    pub partitives: Vec<String>,
    #[serde(default)]
    pub from_the_end: Vec<String>,
    #[serde(default)]
    pub polite_openers: Vec<String>,
    #[serde(default)]
    pub generic_nouns: Vec<String>,
    /// Nouns that fit any item ("version", "copy", "option"): they say
    /// what every option is, never which.
    #[serde(default)]
    pub item_nouns: Vec<String>,
    #[serde(default)]
    pub deictic: Vec<String>,
    #[serde(default)]
    pub possessives: Vec<String>,
    #[serde(default)]
    pub plain: Vec<String>,
    #[serde(default)]
    pub additive_tails: Vec<String>,
    #[serde(default)]
    pub for_whom: Vec<String>,
    #[serde(default)]
    pub people: Vec<String>,
    #[serde(default)]
    pub omissions: Vec<String>,
    #[serde(default)]
    pub raising: Vec<String>,
    #[serde(default)]
    pub light_verbs: Vec<String>,
    #[serde(default)]
    pub excess: Vec<String>,
    #[serde(default)]
    pub noun_synonyms: Vec<Vec<String>>,
    #[serde(default)]
    pub relative_days: Vec<String>,
    #[serde(default)]
    pub today_words: Vec<String>,
    #[serde(default)]
    pub today_phrases: Vec<String>,
    #[serde(default)]
    pub reasons: Vec<String>,
    #[serde(default)]
    pub lowering: Vec<String>,
    #[serde(default)]
    pub others: Vec<String>,
    #[serde(default)]
    pub not_that: Vec<String>,
    #[serde(default)]
    pub actions: Vec<String>,
    #[serde(default)]
    pub states: Vec<String>,
    #[serde(default)]
    pub verb_nouns: Vec<String>,
    #[serde(default)]
    pub verb_leads: Vec<String>,
    /// An everyday verb and the items it is the everyday way to choose
    /// ("book" a room, a table, a flight): said of such an item, the verb
    /// is request phrasing.
    #[serde(default)]
    pub verb_fits: BTreeMap<String, Vec<String>>,
    /// Verbs that ask for the same action ("close", "shut"): one said
    /// where an option's label says another is that option's action.
    #[serde(default)]
    pub verb_synonyms: Vec<Vec<String>>,
    /// Verbs by the kind of value an option shows that they fit: "price"
    /// ("order", "buy": anything with a price), "time" ("join", "attend":
    /// anything at a time or on a date).
    #[serde(default)]
    pub value_fits: BTreeMap<String, Vec<String>>,
    /// Verbs that set something to a value ("set", "change", "switch"),
    /// and the words that link the thing set to the value ("to").
    #[serde(default)]
    pub setting_verbs: Vec<String>,
    #[serde(default)]
    pub setting_links: Vec<String>,
    /// Actions that answer what the screen holds ("accept", "decline",
    /// "join"): an option that is one of them alone takes its object.
    #[serde(default)]
    pub responses: Vec<String>,
    /// Sizes by their name ("small", "medium", "large", "xl"): the words and
    /// letters said for each ("medium" = "m" = "med"), so a size word says
    /// an option labelled with another form of it.
    #[serde(default)]
    pub sizes: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub ordinal_prefixes: Vec<String>,
    #[serde(default)]
    pub ordinal_suffixes: Vec<String>,
    #[serde(default)]
    pub ordinals: BTreeMap<String, i32>,
    #[serde(default)]
    pub cardinals: BTreeMap<String, i32>,
    #[serde(default)]
    pub scope_cues: BTreeMap<Scope, Vec<String>>,
    // Replies (docs/replies.md).
    #[serde(default)]
    pub affirmations: Vec<String>,
    #[serde(default)]
    pub refusals: Vec<String>,
    #[serde(default)]
    pub alternatives: Vec<String>,
    #[serde(default)]
    pub abandons: Vec<String>,
    #[serde(default)]
    pub corrections: Vec<String>,
    #[serde(default)]
    pub closings: Vec<String>,
    #[serde(default)]
    pub everyday_verbs: Vec<String>,
    #[serde(default)]
    pub repetitions: Vec<String>,
    #[serde(default)]
    pub interjections: Vec<String>,
    #[serde(default)]
    pub affirmation_context: Vec<String>,
    #[serde(default)]
    pub next_step: Vec<String>,
    #[serde(default)]
    pub asks_about: Vec<String>,
    #[serde(default)]
    pub asks_for_others: Vec<String>,
    #[serde(default)]
    pub asks_for_facts: Vec<String>,
    #[serde(default)]
    pub asks_for_stock: Vec<String>,
    #[serde(default)]
    pub acknowledgements: Vec<String>,
    #[serde(default)]
    pub verdicts: Vec<String>,
    #[serde(default)]
    pub reactions: Vec<String>,
    #[serde(default)]
    pub searches: Vec<String>,
    #[serde(default)]
    pub first_person: Vec<String>,
    #[serde(default)]
    pub third_person: Vec<String>,
    #[serde(default)]
    pub own_things: Vec<String>,
    #[serde(default)]
    pub additive_openers: Vec<String>,
    /// Phrase = "dimension:most" or "dimension:least".
    #[serde(default)]
    pub comparatives: BTreeMap<String, String>,
}

/// Multi-word phrases indexed by their first token, longest first, so a
/// lookup at a token position costs one hash probe, and most tokens none:
/// `firsts` is a filter by (first byte, length) of the first tokens. Each
/// phrase has a value: the position of an ordinal phrase, a comparison's
/// code, 0 elsewhere (`PhraseSet`); or what it says and that value, in the
/// reply vocabulary (`Lexicon::reply_words`).
#[derive(Debug, Clone)]
pub struct Phrases<V> {
    /// Phrases by first token, longest first, each with its value.
    by_first: ByFirst<V>,
    /// Per first byte, bit `min(len, 63)` set for each first token; empty
    /// when there are no phrases.
    firsts: Vec<u64>,
}

/// Phrases (their tokens) by first token, each with its value.
type ByFirst<V> = HashMap<String, Vec<(Vec<String>, V)>>;

/// One list of phrases (`Phrases` valued `i32`).
pub type PhraseSet = Phrases<i32>;

impl<V> Default for Phrases<V> {
    fn default() -> Self {
        Phrases { by_first: HashMap::default(), firsts: Vec::new() }
    }
}

impl PhraseSet {
    fn build<'a>(phrases: impl IntoIterator<Item = &'a String>) -> Self {
        Self::build_valued(phrases.into_iter().map(|p| (p, 0)))
    }

    fn build_valued<'a>(phrases: impl IntoIterator<Item = (&'a String, i32)>) -> Self {
        let mut by_first: ByFirst<i32> = HashMap::default();
        for (p, value) in phrases {
            let toks: Vec<String> = norm(p).split(' ').filter(|t| !t.is_empty()).map(str::to_owned).collect();
            if let Some(first) = toks.first() {
                let v = by_first.entry(first.clone()).or_default();
                if !v.iter().any(|(t, _)| *t == toks) {
                    v.push((toks, value));
                }
            }
        }
        Phrases::indexed(by_first)
    }

    /// Several lists in one, each phrase tagged with its list's tag: one
    /// lookup finds the longest phrase of any list, and of two as long the
    /// one of the list given first.
    fn tagged<T: Copy>(lists: &[(&PhraseSet, T)]) -> Phrases<(T, i32)> {
        let mut by_first: ByFirst<(T, i32)> = HashMap::default();
        for (list, tag) in lists {
            for (first, phrases) in &list.by_first {
                by_first.entry(first.clone()).or_default().extend(phrases.iter().map(|(p, v)| (p.clone(), (*tag, *v))));
            }
        }
        Phrases::indexed(by_first)
    }
}

impl<V: Copy> Phrases<V> {
    /// Sorted longest first (stable: of two as long, the first added
    /// stays first), with the first-token filter.
    fn indexed(mut by_first: ByFirst<V>) -> Self {
        for v in by_first.values_mut() {
            v.sort_by_key(|(p, _)| std::cmp::Reverse(p.len()));
        }
        let mut firsts = Vec::new();
        if !by_first.is_empty() {
            firsts = vec![0u64; 256];
            for k in by_first.keys() {
                firsts[usize::from(k.as_bytes()[0])] |= Self::len_bit(k);
            }
        }
        Phrases { by_first, firsts }
    }

    fn len_bit(token: &str) -> u64 {
        1u64 << token.len().min(63)
    }

    /// False only when no phrase can start with `token` (no hash needed).
    fn may_start(&self, token: &str) -> bool {
        match token.as_bytes().first() {
            Some(&b) if !self.firsts.is_empty() => self.firsts[usize::from(b)] & Self::len_bit(token) != 0,
            _ => false,
        }
    }

    /// Length (in tokens) of the longest phrase starting at `tokens[i]`.
    pub fn match_at(&self, tokens: &[&str], i: usize) -> Option<usize> {
        self.value_at(tokens, i).map(|(len, _)| len)
    }

    /// The longest phrase starting at `tokens[i]`: its length in tokens and
    /// its value.
    pub fn value_at(&self, tokens: &[&str], i: usize) -> Option<(usize, V)> {
        if i >= tokens.len() || !self.may_start(tokens[i]) {
            return None;
        }
        let cands = self.by_first.get(tokens[i])?;
        cands
            .iter()
            // The first token is the key: the rest is compared.
            .find(|(p, _)| p.len() <= tokens.len() - i && p[1..].iter().zip(&tokens[i + 1..]).all(|(a, b)| a == b))
            .map(|(p, v)| (p.len(), *v))
    }

    /// Whether the whole of `tokens` is one phrase.
    pub fn is_phrase(&self, tokens: &[&str]) -> bool {
        !tokens.is_empty() && self.match_at(tokens, 0) == Some(tokens.len())
    }

    pub fn is_empty(&self) -> bool {
        self.by_first.is_empty()
    }

    /// Whether some phrase starts with `token` (a cheap pre-check).
    pub fn starts_with(&self, token: &str) -> bool {
        self.may_start(token) && self.by_first.contains_key(token)
    }
}

/// What a phrase of the reply vocabulary says (`Lexicon::reply_words`).
/// Listed in the order a phrase in two lists is read: the first says the
/// most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplyWord {
    NotThat,
    TheOther,
    Closing,
    Abandon,
    Refusal,
    Alternatives,
    Comparison,
    Correction,
    Affirmation,
    Repetition,
    Verb,
    Filler,
    Interjection,
    Context,
}

/// All enabled languages merged into lookup structures.
#[derive(Debug, Clone, Default)]
pub struct Lexicon {
    pub filler: PhraseSet,
    pub selection_verbs: PhraseSet,
    pub question_openers: PhraseSet,
    /// Polite requests: a request even with a question mark.
    pub request_openers: PhraseSet,
    /// Whole inputs that cancel.
    pub cancel: HashSet<String>,
    /// Openers that cancel when nothing else is named.
    pub cancel_openers: PhraseSet,
    /// The words of every cancel phrase and opener: what may follow an
    /// opener in a cancel ("nah, none of those").
    pub cancel_vocabulary: HashSet<String>,
    pub negations: PhraseSet,
    pub relations: PhraseSet,
    pub plurals: PhraseSet,
    pub conjunctions: PhraseSet,
    /// Words that name nothing.
    pub function_words: HashSet<String>,
    /// Words for an amount of the item asked for ("some", "a bit of"):
    /// request phrasing where matching reads the input.
    pub partitives: PhraseSet,
    /// After a position, count it from the end ("2nd to last").
    pub from_the_end: PhraseSet,
    /// How polite requests open, before filler is removed ("could you
    /// refill it?" is a request, not a question).
    pub polite_openers: PhraseSet,
    /// Nouns naming the kind of thing on screen.
    pub generic_nouns: HashSet<String>,
    /// Of the generic nouns, those that fit any item ("version", "copy",
    /// "one"): they describe every option, whatever kind its own words
    /// name ("the final version" for "Q3_plan_FINAL.xlsx").
    pub item_nouns: HashSet<String>,
    pub deictic: HashSet<String>,
    /// Words that make a following position the user's own thing ("my
    /// second card"), not a place in the list.
    pub possessives: HashSet<String>,
    /// Words that tell an option is the plain one of its kind ("the
    /// original despacito", "die normale"): of options that are one and
    /// the same with extras, the one without.
    pub plain: HashSet<String>,
    /// Words that end a request for one more thing by its words ("the GPS
    /// too"): phrasing where nothing in the request is a position.
    pub additive_tails: PhraseSet,
    /// Who a request is for ("to my sister", "for my son"), before words
    /// no option shows that end the input: phrasing.
    pub for_whom: PhraseSet,
    /// The people a request may be for (`for_whom`).
    pub people: HashSet<String>,
    /// Words of leaving an option out ("skip", "without", "ohne"): after a
    /// no to the one option proposed, with its words, they refuse it again.
    pub omissions: HashSet<String>,
    /// Label words of a change up or later ("Raise 2 °C", "30 min after"):
    /// a number said with "+" is the amount of the option that says one
    /// (`positions::signed_mentions`).
    pub raising: HashSet<String>,
    /// Verbs that carry the action of the word after them ("Make a copy",
    /// "Move to Trash"): a synonym of that word said says the action.
    pub light_verbs: HashSet<String>,
    /// The phrases of `verb_synonyms` ("push back", "call off"): read at
    /// a place in the input (`matching::synonyms`).
    pub verb_phrases: PhraseSet,
    /// Words that say an option is too much ("too", "zu", "te"): a
    /// remark after a choice that says one of another option rules it
    /// out (`matching::aside`).
    pub excess: HashSet<String>,
    /// Nouns of the kind of an item that name the same kind ("song",
    /// "track"): one said describes an option whose label says another.
    pub noun_synonyms: HashMap<String, Vec<String>>,
    /// A day said from today ("tomorrow", "tmrw", "demain"): phrasing on
    /// a screen whose options show no day (`matching::relative_days`).
    pub relative_days: HashSet<String>,
    /// Words a label says today with ("Today 5 PM", "Heute 19:00",
    /// "Tonight 8 PM"): what a part of today said names
    /// (`matching::value_words::today_licences`).
    pub today_words: HashSet<String>,
    /// A part of today said without "today" ("tonight", "this evening",
    /// "ce soir", "vanavond").
    pub today_phrases: PhraseSet,
    /// Words that open a reason or a remark after a choice with no comma
    /// before them ("+2 pls its freezing in here", "medium bc im tired"):
    /// where the choice ends (`matching::aside::split_at_reason`).
    pub reasons: HashSet<String>,
    /// Label words of a change down or earlier ("Lower 2 °C", "30 min
    /// before"): a number said with "-" is the amount of the option that
    /// says one.
    pub lowering: HashSet<String>,
    /// "The other one": with two options, the one the session did not just
    /// act on (`continuity::the_other`).
    pub others: PhraseSet,
    /// "Not that one": the options but the one the session just had.
    pub not_that: PhraseSet,
    /// Every word of the lexicon's phrases, keys and lists (one word each):
    /// a word outside it is one the rules read only as a word of content.
    pub words: HashSet<String>,
    /// Verbs of a label that change something ("close", "pay", "send"): a
    /// partial input that leaves one unsaid does not name the candidate
    /// when other candidates lack it ("account" is not "Close Account").
    pub actions: HashSet<String>,
    /// Words of a label that say what state its object is in ("blocked",
    /// "expired", "pending"): a partial input that leaves one unsaid does
    /// not name the candidate when other candidates lack it ("my pin" is
    /// not "Pin blocked").
    pub states: HashSet<String>,
    /// Words that are a generic noun in one sense and an action in another
    /// ("track", "book", "order"): said as the request's verb, they ask
    /// for that action, which only a candidate that says it accounts for
    /// ("track my parcel" is not "Parcel status").
    pub verb_nouns: HashSet<String>,
    /// Words after which a `verb_nouns` word is the request's verb ("to",
    /// "can you", "please"); the first word is one too.
    pub verb_leads: PhraseSet,
    /// An everyday verb (normalized) and the item nouns it fits.
    pub verb_fits: HashMap<String, HashSet<String>>,
    /// A verb (normalized, one word) and the verbs that ask for the same
    /// action ("shut": "close"), itself left out.
    pub verb_synonyms: HashMap<String, Vec<String>>,
    /// A verb (normalized) and the kinds of value ("price", "time") whose
    /// options it is the everyday way to choose.
    pub value_fits: HashMap<String, Vec<String>>,
    /// "set", "change", "switch": the verb of "set the pickup to work".
    pub setting_verbs: PhraseSet,
    /// "to": between the thing set and the value it is set to.
    pub setting_links: HashSet<String>,
    /// "accept", "decline", "join": an option that is one of these alone
    /// ("Accept") is said with what it acts on ("accept Lee's invite").
    pub responses: HashSet<String>,
    /// A size's word or letter (normalized) and the size it is ("m" and
    /// "mediano" are "medium").
    pub sizes: HashMap<String, String>,
    pub ordinal_prefixes: HashSet<String>,
    pub ordinal_suffixes: HashSet<String>,
    /// Position phrases (1-based; negative from the end; 0 the middle).
    pub ordinals: PhraseSet,
    pub cardinals: HashMap<String, i32>,
    /// (cue tokens, scope), longest first.
    pub scope_cues: Vec<(Vec<String>, Scope)>,
    /// Replies (docs/replies.md): phrases that say yes.
    pub affirmations: PhraseSet,
    /// Phrases that refuse what was proposed.
    pub refusals: PhraseSet,
    /// Phrases that ask for other options.
    pub alternatives: PhraseSet,
    /// Phrases that abandon the task.
    pub abandons: PhraseSet,
    /// Words that take back or change what was said.
    pub corrections: PhraseSet,
    /// Ends of a reply that add nothing ("that's all, thanks").
    pub closings: PhraseSet,
    /// The everyday ways to choose or open an item ("add", "pull up").
    pub everyday_verbs: PhraseSet,
    /// Words asking for the same again ("one more").
    pub repetitions: PhraseSet,
    /// Sounds and discourse words a reply is wrapped in ("ugh", "then").
    pub interjections: PhraseSet,
    /// Words that may surround an affirmation without saying more.
    pub affirmation_context: PhraseSet,
    /// Words of the next step on the option a yes accepts ("book it").
    pub next_step: PhraseSet,
    /// Words that ask about the option ("their address", "do they"): a
    /// sentence with one after a yes is no request of its own, unless it
    /// asks only of the user's own things.
    pub asks_about: PhraseSet,
    /// Words that ask for other options ("another", "give me"): a sentence
    /// with one after a yes is never a request of its own.
    pub asks_for_others: PhraseSet,
    /// Words that ask for facts of the option shown ("their address", "the
    /// cost"): after a yes, a question the app answers (`FollowUp`).
    pub asks_for_facts: PhraseSet,
    /// Words that ask what the app has or sells ("do you have", "have you
    /// got"): after an acknowledgement alone, a question with one is about
    /// something more than what was proposed.
    pub asks_for_stock: PhraseSet,
    /// Yes words that only acknowledge ("ok", "alright"): they select only
    /// when nothing after them searches again.
    pub acknowledgements: PhraseSet,
    /// What a user says of the option just named, right after it ("the
    /// armchair is fine", "pickup's easier"): a verdict, no request.
    pub verdicts: PhraseSet,
    /// Words of reaction that may open a closing ("awesome thank you",
    /// "great thanks bye"): with a closing, the clause only closes.
    pub reactions: PhraseSet,
    /// Words that search ("look in", "find", "search"): after an
    /// acknowledgement, a new search, no yes.
    pub searches: PhraseSet,
    /// Words by which a question is of the user's own things ("am I").
    pub first_person: PhraseSet,
    /// Words by which a question is of the option ("it", "they").
    pub third_person: PhraseSet,
    /// What a question of the user's own things asks about ("my
    /// schedule", "that day").
    pub own_things: PhraseSet,
    /// Openers of a request for one more thing ("and the one ...").
    pub additive_openers: PhraseSet,
    /// Comparisons, each valued `Comparison::code`.
    pub comparatives: PhraseSet,
    /// The reply vocabulary in one table (`not_that` ... `filler`,
    /// `interjections`, `affirmation_context`), each phrase tagged with
    /// what it says and valued as in its list: a reply is read with one
    /// lookup per word.
    pub reply_words: Phrases<(ReplyWord, i32)>,
    /// Words a reply is said in that a slip of the keyboard may spell
    /// otherwise ("perfedt", "thrid", "yess", "teh"): single words of the
    /// affirmations, refusals, closings, ordinals and filler
    /// (`respell`).
    pub spelled: Vec<String>,
    /// Every word of the lexicon's phrases: a word it knows is never
    /// respelled.
    pub known_words: HashSet<String>,
    /// `spelled`'s words, and each with one letter left out, to the words
    /// they come from (a symmetric-deletion index: a word one edit away
    /// from another shares such a form with it).
    pub spelled_forms: HashMap<String, Vec<u32>>,
    /// `request_openers` and `polite_openers` in one set: the longest
    /// opener of either at a word, in one lookup.
    pub openers: PhraseSet,
}

/// What a comparative compares: a dimension (`COMPARED`) and whether the
/// most or the least of it is meant, coded as one number for `PhraseSet`.
pub const COMPARED: &[&str] = &["price", "clock", "duration", "size", "year", "count", "distance"];

/// The code of `dimension:most|least`, or `None` when it is not one.
pub fn comparison_code(value: &str) -> Option<i32> {
    let (dim, dir) = value.split_once(':')?;
    let d = COMPARED.iter().position(|c| *c == dim)? as i32;
    let most = match dir {
        "most" => 1,
        "least" => 0,
        _ => return None,
    };
    Some(d * 2 + most)
}

#[derive(Debug, thiserror::Error)]
pub enum LexiconError {
    #[error("lexicon is not valid TOML: {0}")]
    Parse(String),
    #[error("language {0:?} is not in the lexicon (available: {1})")]
    UnknownLanguage(String, String),
    #[error("languages.{0}.comparatives.{1:?}: {2:?} is not dimension:most or dimension:least (dimensions: {dims})", dims = COMPARED.join(", "))]
    BadComparative(String, String, String),
}

impl Lexicon {
    /// Parses a lexicon file and merges the given languages (all when empty).
    pub fn from_toml(text: &str, languages: &[String]) -> Result<Self, LexiconError> {
        let file: LexiconFile = toml_parse(text)?;
        let chosen: Vec<&LanguageLexicon> = if languages.is_empty() {
            file.languages.values().collect()
        } else {
            languages
                .iter()
                .map(|l| {
                    file.languages.get(l).ok_or_else(|| {
                        LexiconError::UnknownLanguage(l.clone(), file.languages.keys().cloned().collect::<Vec<_>>().join(", "))
                    })
                })
                .collect::<Result<_, _>>()?
        };
        for (name, l) in &file.languages {
            for (phrase, value) in &l.comparatives {
                if comparison_code(value).is_none() {
                    return Err(LexiconError::BadComparative(name.clone(), phrase.clone(), value.clone()));
                }
            }
        }
        let mut lex = Self::merge(&chosen);
        lex.words = every_word(text, languages)?;
        Ok(lex)
    }

    /// The shipped lexicon with every language: parsed and normalized once
    /// per process, then cloned (a clone is a copy of its lists, far
    /// cheaper than reading the TOML again; tests build a `Policy` per
    /// case and a reload builds one per generation).
    pub fn shipped() -> Self {
        static SHIPPED_ONCE: std::sync::LazyLock<Lexicon> =
            std::sync::LazyLock::new(|| Lexicon::from_toml(SHIPPED, &[]).expect("the shipped lexicon parses (tested)"));
        SHIPPED_ONCE.clone()
    }

    fn merge(langs: &[&LanguageLexicon]) -> Self {
        let all = |f: fn(&LanguageLexicon) -> &Vec<String>| -> Vec<String> { langs.iter().flat_map(|l| f(l).iter().cloned()).collect() };
        let words = |v: Vec<String>| -> HashSet<String> { v.iter().map(|p| norm(p)).filter(|p| !p.is_empty()).collect() };
        let mut scope_cues: Vec<(Vec<String>, Scope)> = Vec::new();
        let mut ordinals: Vec<(&String, i32)> = Vec::new();
        let mut cardinals = HashMap::default();
        let mut comparatives: Vec<(&String, i32)> = Vec::new();
        for l in langs {
            comparatives.extend(l.comparatives.iter().filter_map(|(p, v)| Some((p, comparison_code(v)?))));
            for (scope, cues) in &l.scope_cues {
                for c in cues {
                    let toks: Vec<String> = norm(c).split(' ').filter(|t| !t.is_empty()).map(str::to_owned).collect();
                    if !toks.is_empty() && !scope_cues.iter().any(|(t, _)| *t == toks) {
                        scope_cues.push((toks, *scope));
                    }
                }
            }
            ordinals.extend(l.ordinals.iter().map(|(w, n)| (w, *n)));
            for (w, n) in &l.cardinals {
                cardinals.insert(norm(w), *n);
            }
        }
        scope_cues.sort_by_key(|(t, _)| std::cmp::Reverse(t.len()));
        let mut lex = Lexicon {
            filler: PhraseSet::build(&all(|l| &l.filler)),
            selection_verbs: PhraseSet::build(&all(|l| &l.selection_verbs)),
            question_openers: PhraseSet::build(&all(|l| &l.question_openers)),
            request_openers: PhraseSet::build(&all(|l| &l.request_openers)),
            cancel: words(all(|l| &l.cancel)),
            cancel_openers: PhraseSet::build(&all(|l| &l.cancel_openers)),
            cancel_vocabulary: all(|l| &l.cancel)
                .iter()
                .chain(&all(|l| &l.cancel_openers))
                .flat_map(|p| norm(p).split(' ').filter(|t| !t.is_empty()).map(str::to_owned).collect::<Vec<_>>())
                .collect(),
            negations: PhraseSet::build(&all(|l| &l.negations)),
            relations: PhraseSet::build(&all(|l| &l.relations)),
            plurals: PhraseSet::build(&all(|l| &l.plurals)),
            conjunctions: PhraseSet::build(&all(|l| &l.conjunctions)),
            function_words: words(all(|l| &l.function_words)),
            partitives: PhraseSet::build(&all(|l| &l.partitives)),
            from_the_end: PhraseSet::build(&all(|l| &l.from_the_end)),
            polite_openers: PhraseSet::build(&all(|l| &l.polite_openers)),
            generic_nouns: words([all(|l| &l.generic_nouns), all(|l| &l.item_nouns)].concat()),
            item_nouns: words(all(|l| &l.item_nouns)),
            deictic: words(all(|l| &l.deictic)),
            possessives: words(all(|l| &l.possessives)),
            plain: words(all(|l| &l.plain)),
            additive_tails: PhraseSet::build(&all(|l| &l.additive_tails)),
            for_whom: PhraseSet::build(&all(|l| &l.for_whom)),
            people: words(all(|l| &l.people)),
            omissions: words(all(|l| &l.omissions)),
            raising: words(all(|l| &l.raising)),
            light_verbs: words(all(|l| &l.light_verbs)),
            verb_phrases: PhraseSet::build(
                &langs
                    .iter()
                    .flat_map(|l| l.verb_synonyms.iter().flatten())
                    .filter(|v| v.trim().contains(' '))
                    .cloned()
                    .collect::<Vec<_>>(),
            ),
            excess: words(all(|l| &l.excess)),
            relative_days: words(all(|l| &l.relative_days)),
            today_words: words(all(|l| &l.today_words)),
            today_phrases: PhraseSet::build(&all(|l| &l.today_phrases)),
            reasons: words(all(|l| &l.reasons)),
            lowering: words(all(|l| &l.lowering)),
            others: PhraseSet::build(&all(|l| &l.others)),
            not_that: PhraseSet::build(&all(|l| &l.not_that)),
            words: HashSet::default(),
            actions: words(all(|l| &l.actions)),
            states: words(all(|l| &l.states)),
            verb_nouns: words(all(|l| &l.verb_nouns)),
            verb_leads: PhraseSet::build(&all(|l| &l.verb_leads)),
            verb_fits: {
                let mut fits: HashMap<String, HashSet<String>> = HashMap::default();
                for l in langs {
                    for (verb, nouns) in &l.verb_fits {
                        fits.entry(norm(verb)).or_default().extend(nouns.iter().map(|n| norm(n)).filter(|n| !n.is_empty()));
                    }
                }
                fits
            },
            noun_synonyms: groups(langs.iter().flat_map(|l| &l.noun_synonyms)),
            verb_synonyms: groups(langs.iter().flat_map(|l| &l.verb_synonyms)),
            value_fits: {
                let mut fits: HashMap<String, Vec<String>> = HashMap::default();
                for l in langs {
                    for (kind, verbs) in &l.value_fits {
                        for v in verbs.iter().map(|v| norm(v)).filter(|v| !v.is_empty()) {
                            let kinds = fits.entry(v).or_default();
                            if !kinds.contains(kind) {
                                kinds.push(kind.clone());
                            }
                        }
                    }
                }
                fits
            },
            setting_verbs: PhraseSet::build(&all(|l| &l.setting_verbs)),
            setting_links: words(all(|l| &l.setting_links)),
            responses: words(all(|l| &l.responses)),
            sizes: {
                let mut sizes: HashMap<String, String> = HashMap::default();
                for l in langs {
                    for (size, forms) in &l.sizes {
                        for f in forms.iter().map(|f| norm(f)).filter(|f| !f.is_empty()) {
                            sizes.entry(f).or_insert_with(|| size.clone());
                        }
                    }
                }
                sizes
            },
            ordinal_prefixes: words(all(|l| &l.ordinal_prefixes)),
            ordinal_suffixes: words(all(|l| &l.ordinal_suffixes)),
            ordinals: PhraseSet::build_valued(ordinals),
            cardinals,
            scope_cues,
            affirmations: PhraseSet::build(&all(|l| &l.affirmations)),
            refusals: PhraseSet::build(&all(|l| &l.refusals)),
            alternatives: PhraseSet::build(&all(|l| &l.alternatives)),
            abandons: PhraseSet::build(&all(|l| &l.abandons)),
            corrections: PhraseSet::build(&all(|l| &l.corrections)),
            closings: PhraseSet::build(&all(|l| &l.closings)),
            everyday_verbs: PhraseSet::build(&all(|l| &l.everyday_verbs)),
            repetitions: PhraseSet::build(&all(|l| &l.repetitions)),
            interjections: PhraseSet::build(&all(|l| &l.interjections)),
            affirmation_context: PhraseSet::build(&all(|l| &l.affirmation_context)),
            next_step: PhraseSet::build(&all(|l| &l.next_step)),
            asks_about: PhraseSet::build(&all(|l| &l.asks_about)),
            asks_for_others: PhraseSet::build(&all(|l| &l.asks_for_others)),
            asks_for_facts: PhraseSet::build(&all(|l| &l.asks_for_facts)),
            asks_for_stock: PhraseSet::build(&all(|l| &l.asks_for_stock)),
            acknowledgements: PhraseSet::build(&all(|l| &l.acknowledgements)),
            verdicts: PhraseSet::build(&all(|l| &l.verdicts)),
            reactions: PhraseSet::build(&all(|l| &l.reactions)),
            searches: PhraseSet::build(&all(|l| &l.searches)),
            first_person: PhraseSet::build(&all(|l| &l.first_person)),
            third_person: PhraseSet::build(&all(|l| &l.third_person)),
            own_things: PhraseSet::build(&all(|l| &l.own_things)),
            additive_openers: PhraseSet::build(&all(|l| &l.additive_openers)),
            comparatives: PhraseSet::build_valued(comparatives),
            reply_words: Phrases::default(),
            openers: PhraseSet::build(all(|l| &l.request_openers).iter().chain(&all(|l| &l.polite_openers))),
            spelled: Vec::new(),
            known_words: HashSet::default(),
            spelled_forms: HashMap::default(),
        };
        lex.reply_words = PhraseSet::tagged(&lex.reply_lists());
        let single =
            |v: Vec<String>| v.into_iter().map(|p| norm(&p)).filter(|p| !p.is_empty() && !p.contains(' ')).collect::<Vec<String>>();
        let mut spelled: Vec<String> = [
            all(|l| &l.affirmations),
            all(|l| &l.refusals),
            all(|l| &l.closings),
            all(|l| &l.filler),
            langs.iter().flat_map(|l| l.ordinals.keys().cloned()).collect(),
        ]
        .into_iter()
        .flat_map(single)
        .filter(|w| w.chars().count() >= 3 && w.chars().all(char::is_alphabetic))
        .collect();
        spelled.sort();
        spelled.dedup();
        let mut forms: HashMap<String, Vec<u32>> = HashMap::default();
        for (i, w) in spelled.iter().enumerate() {
            for f in std::iter::once(w.clone()).chain(deletions(w)) {
                let v = forms.entry(f).or_default();
                if !v.contains(&(i as u32)) {
                    v.push(i as u32);
                }
            }
        }
        lex.spelled = spelled;
        lex.spelled_forms = forms;
        let every: Vec<Vec<String>> = vec![
            all(|l| &l.filler),
            all(|l| &l.selection_verbs),
            all(|l| &l.question_openers),
            all(|l| &l.function_words),
            all(|l| &l.generic_nouns),
            all(|l| &l.item_nouns),
            all(|l| &l.actions),
            langs.iter().flat_map(|l| l.verb_synonyms.iter().flatten().cloned()).collect(),
            all(|l| &l.states),
            all(|l| &l.affirmations),
            all(|l| &l.affirmation_context),
            all(|l| &l.refusals),
            all(|l| &l.alternatives),
            all(|l| &l.abandons),
            all(|l| &l.interjections),
            all(|l| &l.corrections),
            all(|l| &l.closings),
            all(|l| &l.next_step),
            all(|l| &l.asks_about),
            all(|l| &l.asks_for_others),
            all(|l| &l.everyday_verbs),
            all(|l| &l.repetitions),
            langs.iter().flat_map(|l| l.ordinals.keys().chain(l.cardinals.keys()).cloned()).collect(),
        ];
        lex.known_words = every.into_iter().flatten().flat_map(|p| norm(&p).split(' ').map(str::to_owned).collect::<Vec<_>>()).collect();
        lex
    }

    /// The day an option shows, from its `words` (normalized) and its
    /// `shown` values: today where a word of today is among them ("Today 5
    /// PM", "Tonight 8 PM": `today_words`); else another day where a word
    /// of a day from today ("Tomorrow": `relative_days`), a weekday, a
    /// month or a date is; else none.
    pub fn shown_day(&self, words: &[&str], shown: &[crate::values::Value]) -> Option<ShownDay> {
        if words.iter().any(|w| self.today_words.contains(*w)) {
            Some(ShownDay::Today)
        } else if words.iter().any(|w| self.relative_days.contains(*w)) || crate::values::shows_a_date(shown) {
            Some(ShownDay::Another)
        } else {
            None
        }
    }

    /// The reply word a slip of the keyboard spelled as `token` (a
    /// normalized word the lexicon does not know): the one word of
    /// `spelled` one edit away (a letter in, out, changed or two swapped)
    /// for words of four letters or more, a repeated last letter ("yess"),
    /// or two letters swapped in a word of three ("teh"). `None` when no
    /// word, or more than one, is that close: a guess is never made. The
    /// ladder's rule for typos (fuzzy, never a dictionary of misspellings),
    /// applied to the lexicon's own words. A word a value is said in, a
    /// number word among them ("fifty" is no slip of "fifth"), is itself.
    pub fn respell(&self, token: &str) -> Option<&str> {
        let n = token.chars().count();
        if n < 3
            || !token.chars().all(char::is_alphabetic)
            || self.known_words.contains(token)
            || crate::values::is_a_value_word(token)
            || crate::values::is_number_word(token)
        {
            return None;
        }
        let last = token.chars().last()?;
        let trimmed = token.trim_end_matches(last);
        // A letter held down ("yesss"): the word with it once.
        if trimmed.len() + last.len_utf8() < token.len() {
            let repeated = format!("{trimmed}{last}");
            if self.spelled.contains(&repeated) {
                return self.spelled.iter().find(|w| **w == repeated).map(String::as_str);
            }
        }
        // The spelled words one deletion from the token, or the token
        // itself, away (a symmetric deletion index): each form looked up
        // in one buffer, as most tokens are no slip of anything.
        let mut ids: Vec<u32> = Vec::new();
        let mut form = String::with_capacity(token.len());
        for (i, c) in std::iter::once((token.len(), ' ')).chain(token.char_indices()) {
            form.clear();
            form.push_str(&token[..i]);
            if i < token.len() {
                form.push_str(&token[i + c.len_utf8()..]);
            }
            if let Some(found) = self.spelled_forms.get(form.as_str()) {
                ids.extend_from_slice(found);
            }
        }
        ids.sort_unstable();
        ids.dedup();
        let mut near = ids.iter().map(|i| &self.spelled[*i as usize]).filter(|w| {
            let m = w.chars().count();
            if rapidfuzz::distance::osa::distance(token.chars(), w.chars()) != 1 {
                return false;
            }
            let swapped = m == n && {
                let (mut a, mut b): (Vec<char>, Vec<char>) = (token.chars().collect(), w.chars().collect());
                a.sort_unstable();
                b.sort_unstable();
                a == b
            };
            let same_first = token.chars().next() == w.chars().next();
            // Two letters swapped ("teh", "thrid"); else a letter in, out
            // ("grat") or changed ("perfedt") in a longer word, after the
            // same first letter: "pool" is no slip of "cool", nor "find"
            // of "fine".
            swapped || (same_first && if m == n { n >= 5 } else { n.min(m) >= 4 })
        });
        // Two words that say the same ("perfect", "perfekt") are one.
        let first = near.next()?;
        let says = |w: &str| self.reply_words.value_at(&[w], 0).map(|(_, (kind, _))| kind);
        near.all(|w| says(w).is_some() && says(w) == says(first)).then_some(first.as_str())
    }

    /// The lists of the reply vocabulary, in the order `reply_words` reads
    /// them (`ReplyWord`'s).
    fn reply_lists(&self) -> [(&PhraseSet, ReplyWord); 15] {
        [
            (&self.not_that, ReplyWord::NotThat),
            (&self.others, ReplyWord::TheOther),
            (&self.closings, ReplyWord::Closing),
            (&self.abandons, ReplyWord::Abandon),
            (&self.refusals, ReplyWord::Refusal),
            (&self.alternatives, ReplyWord::Alternatives),
            (&self.comparatives, ReplyWord::Comparison),
            (&self.corrections, ReplyWord::Correction),
            (&self.affirmations, ReplyWord::Affirmation),
            // A verdict on what the reply names ("la poltrona va
            // benissimo") accepts it as a yes does.
            (&self.verdicts, ReplyWord::Affirmation),
            (&self.repetitions, ReplyWord::Repetition),
            (&self.everyday_verbs, ReplyWord::Verb),
            (&self.filler, ReplyWord::Filler),
            (&self.interjections, ReplyWord::Interjection),
            (&self.affirmation_context, ReplyWord::Context),
        ]
    }
}

/// `w` with each one of its letters left out.
fn deletions(w: &str) -> impl Iterator<Item = String> + '_ {
    w.char_indices().map(move |(i, c)| {
        let mut f = String::with_capacity(w.len());
        f.push_str(&w[..i]);
        f.push_str(&w[i + c.len_utf8()..]);
        f
    })
}

/// Every word of every phrase, key and list of the chosen languages (all
/// when empty), normalized as the phrases are: what `Lexicon::words` holds.
fn every_word(text: &str, languages: &[String]) -> Result<HashSet<String>, LexiconError> {
    fn walk(v: &toml::Value, out: &mut HashSet<String>) {
        fn add(s: &str, out: &mut HashSet<String>) {
            out.extend(norm(s).split(' ').filter(|w| !w.is_empty()).map(str::to_string));
        }
        match v {
            toml::Value::String(s) => add(s, out),
            toml::Value::Array(a) => a.iter().for_each(|v| walk(v, out)),
            toml::Value::Table(t) => {
                for (k, v) in t {
                    if !matches!(v, toml::Value::Array(_) | toml::Value::Table(_)) {
                        add(k, out);
                    }
                    walk(v, out);
                }
            }
            _ => {}
        }
    }
    let file: toml::Table = toml_parse(text)?;
    let mut out = HashSet::default();
    if let Some(toml::Value::Table(langs)) = file.get("languages") {
        for (name, l) in langs {
            if (languages.is_empty() || languages.contains(name))
                && let toml::Value::Table(fields) = l
            {
                fields.values().for_each(|v| walk(v, &mut out));
            }
        }
    }
    Ok(out)
}

fn toml_parse<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, LexiconError> {
    toml::from_str(text).map_err(|e| LexiconError::Parse(e.to_string()))
}

#[cfg(test)]
mod tests;

/// The day an option shows (`Lexicon::shown_day`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShownDay {
    Today,
    Another,
}
