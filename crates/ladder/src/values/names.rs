//! The names a value is said with: weekdays and months, in the lexicon's
//! languages (accents folded), and the units after a number with how many
//! of their dimension's one unit each is. Looked up for every word of a
//! reply and of each shown option, so the tables are hashed once.

use super::Dim;
use rustc_hash::FxHashMap;
use std::sync::LazyLock;

pub(super) const WEEKDAYS: &[(&str, u8)] = &[
    ("monday", 0),
    ("mon", 0),
    ("tuesday", 1),
    ("tue", 1),
    ("tues", 1),
    ("wednesday", 2),
    ("wed", 2),
    ("weds", 2),
    ("thursday", 3),
    ("thu", 3),
    ("thur", 3),
    ("thurs", 3),
    ("friday", 4),
    ("fri", 4),
    ("saturday", 5),
    ("sat", 5),
    ("sunday", 6),
    ("sun", 6),
    // Spanish, French, German (accents folded).
    ("lunes", 0),
    ("martes", 1),
    ("miercoles", 2),
    ("jueves", 3),
    ("viernes", 4),
    ("sabado", 5),
    ("domingo", 6),
    ("lundi", 0),
    ("mardi", 1),
    ("mercredi", 2),
    ("jeudi", 3),
    ("vendredi", 4),
    ("samedi", 5),
    ("dimanche", 6),
    ("montag", 0),
    ("dienstag", 1),
    ("mittwoch", 2),
    ("donnerstag", 3),
    ("freitag", 4),
    ("samstag", 5),
    ("sonntag", 6),
    // Italian and Dutch (Portuguese days are ordinals, "segunda", said
    // alone: only their short forms beside a time, below, and "terça",
    // which is no ordinal).
    ("terca", 1),
    ("lunedi", 0),
    ("martedi", 1),
    ("mercoledi", 2),
    ("giovedi", 3),
    ("venerdi", 4),
    ("sabato", 5),
    ("domenica", 6),
    ("maandag", 0),
    ("dinsdag", 1),
    ("woensdag", 2),
    ("donderdag", 3),
    ("vrijdag", 4),
    ("zaterdag", 5),
    ("zondag", 6),
    // Hebrew names its days by number ("יום שני", day two, is Monday): a
    // bare "שני" is "second", so only the Sabbath stands alone.
    ("שבת", 5),
];

/// Weekdays as labels show them in short before a time or a date ("Mi
/// 18:00", "jeu. 9h", "qui 14/3"): German, French, Spanish, Italian,
/// Portuguese and Dutch. Words of their own elsewhere ("do", "so", "sam",
/// "dim"), so read only on an option and only there.
pub(super) const SHORT_WEEKDAYS: &[(&str, u8)] = &[
    ("mo", 0),
    ("di", 1),
    ("mi", 2),
    ("do", 3),
    ("fr", 4),
    ("sa", 5),
    ("so", 6),
    ("lun", 0),
    ("mar", 1),
    ("mer", 2),
    ("mie", 2),
    ("jeu", 3),
    ("jue", 3),
    ("gio", 3),
    ("ven", 4),
    ("vie", 4),
    ("sam", 5),
    ("sab", 5),
    ("dim", 6),
    ("dom", 6),
    ("seg", 0),
    ("ter", 1),
    ("qua", 2),
    ("qui", 3),
    ("sex", 4),
    ("ma", 0),
    ("wo", 2),
    ("vr", 4),
    ("za", 5),
    ("zo", 6),
];

/// The full name of a weekday `SHORT_WEEKDAYS` holds, in any case.
pub(super) fn short_weekday(w: &str) -> Option<&'static str> {
    const FULL: [&str; 7] = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];
    if w.len() > 3 {
        return None;
    }
    SHORT_WEEKDAYS.iter().find(|(n, _)| n.eq_ignore_ascii_case(w)).map(|(_, d)| FULL[*d as usize])
}

pub(super) const MONTHS: &[(&str, u8)] = &[
    ("january", 1),
    ("jan", 1),
    ("february", 2),
    ("feb", 2),
    ("march", 3),
    ("april", 4),
    ("apr", 4),
    ("may", 5),
    ("june", 6),
    ("jun", 6),
    ("july", 7),
    ("jul", 7),
    ("august", 8),
    ("aug", 8),
    ("september", 9),
    ("sep", 9),
    ("sept", 9),
    ("october", 10),
    ("oct", 10),
    ("november", 11),
    ("nov", 11),
    ("december", 12),
    ("dec", 12),
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("septiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    ("janvier", 1),
    ("fevrier", 2),
    ("mars", 3),
    ("avril", 4),
    ("mai", 5),
    ("juin", 6),
    ("juillet", 7),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("novembre", 11),
    ("decembre", 12),
    ("januar", 1),
    ("februar", 2),
    ("marz", 3),
    ("juni", 6),
    ("juli", 7),
    ("oktober", 10),
    ("dezember", 12),
    ("okt", 10),
    ("dez", 12),
    // Dutch, Italian and Portuguese (accents folded: "março").
    ("januari", 1),
    ("februari", 2),
    ("maart", 3),
    ("mrt", 3),
    ("mei", 5),
    ("augustus", 8),
    ("gennaio", 1),
    ("febbraio", 2),
    ("aprile", 4),
    ("maggio", 5),
    ("giugno", 6),
    ("luglio", 7),
    ("settembre", 9),
    ("ottobre", 10),
    ("dicembre", 12),
    ("janeiro", 1),
    ("fevereiro", 2),
    ("marco", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("dezembro", 12),
];

/// Whether `w` (normalized) names a month, in full or a common short form.
pub fn is_month(w: &str) -> bool {
    month(w).is_some()
}

/// A table's names hashed (the first listing of a name wins, as a scan
/// of the table would find it): every word of a reply and of each shown
/// option is looked up.
fn by_name(table: &'static [(&'static str, u8)]) -> FxHashMap<&'static str, u8> {
    let mut map = FxHashMap::default();
    for (name, v) in table {
        map.entry(*name).or_insert(*v);
    }
    map
}

/// The parts of the day a word names alone, as times of day in minutes
/// from the start of the span to before its end: the morning (5:00 to
/// noon), the afternoon (noon to 18:00), the evening (17:00 to 23:00),
/// tonight (17:00 to midnight); the halves of a twelve-hour clock said
/// alone ("the am one": midnight to noon, "the pm one": noon to
/// midnight).
pub(super) const DAY_PARTS: [(f64, f64); 6] =
    [(300.0, 720.0), (720.0, 1080.0), (1020.0, 1380.0), (1020.0, 1440.0), (0.0, 720.0), (720.0, 1440.0)];

/// The part of the day (an index into [`DAY_PARTS`]) a word says, in the
/// lexicon's languages; never a word that is as often another one
/// ("morgen" is tomorrow, "mañana" tomorrow, "tarde" late, "night" in
/// "good night" a closing).
pub(super) fn day_part(w: &str) -> Option<usize> {
    Some(match w {
        "morning" | "mornings" | "morgens" | "vormittag" | "vormittags" | "matin" | "matinee" | "mattina" | "mattino" | "manha"
        | "ochtend" | "ochtends" => 0,
        "afternoon" | "afternoons" | "nachmittag" | "nachmittags" | "pomeriggio" | "middag" | "middags" => 1,
        "evening" | "evenings" | "abend" | "abends" | "soir" | "soiree" | "sera" | "serata" | "avond" | "avonds" => 2,
        "tonight" => 3,
        _ => return None,
    })
}

/// Whether a time of day (minutes) is inside the part of the day `part`.
pub(super) fn in_day_part(part: f64, minutes: f64) -> bool {
    DAY_PARTS.get(part as usize).is_some_and(|(from, to)| (*from..*to).contains(&minutes))
}

/// A weekday's number from its name, or its name in the plural ("does
/// she do saturdays?", "los sábados"; a short name has none: "tues" is
/// Tuesday).
pub(super) fn weekday(w: &str) -> Option<u8> {
    static BY_NAME: LazyLock<FxHashMap<&'static str, u8>> = LazyLock::new(|| by_name(WEEKDAYS));
    BY_NAME.get(w).or_else(|| w.strip_suffix('s').filter(|s| s.len() >= 6).and_then(|s| BY_NAME.get(s))).copied()
}

pub(super) fn month(w: &str) -> Option<u8> {
    static BY_NAME: LazyLock<FxHashMap<&'static str, u8>> = LazyLock::new(|| by_name(MONTHS));
    BY_NAME.get(w).copied()
}

/// Units that are other words as often, said apart from their number
/// ("send 200 to Marta", "room 10 in the annex", "3 m" a letter): a unit
/// only written onto the number ("2TB", "500go", "10in", "5m").
pub(super) const WORDS_AS_OFTEN: &[&str] = &["to", "in", "m", "s", "mo", "mi"];

/// A unit after a number: its dimension and how many of the dimension's
/// unit one of it is.
pub(super) fn unit(w: &str) -> Option<(Dim, f64)> {
    Some(match w {
        "b" | "byte" | "bytes" => (Dim::Bytes, 1.0),
        "kb" | "ko" => (Dim::Bytes, 1e3),
        "mb" | "mo" => (Dim::Bytes, 1e6),
        "gb" | "go" => (Dim::Bytes, 1e9),
        "tb" | "to" => (Dim::Bytes, 1e12),
        "mm" => (Dim::Length, 1.0),
        "cm" => (Dim::Length, 10.0),
        "in" | "inch" | "inches" | "zoll" | "pouces" | "pulgadas" => (Dim::Length, 25.4),
        "ft" | "feet" | "foot" => (Dim::Length, 304.8),
        "meter" | "meters" | "metre" | "metres" | "metros" | "metri" => (Dim::Length, 1000.0),
        "km" | "kms" | "kilometer" | "kilometers" | "kilometre" | "kilometres" | "kilometros" | "kilometri" => (Dim::Length, 1e6),
        "mi" | "mile" | "miles" | "millas" => (Dim::Length, 1_609_344.0),
        "ml" => (Dim::Volume, 1.0),
        "cl" => (Dim::Volume, 10.0),
        "dl" => (Dim::Volume, 100.0),
        "l" | "liter" | "litre" | "liters" | "litres" => (Dim::Volume, 1000.0),
        "oz" => (Dim::Mass, 28.35),
        "g" | "gram" | "grams" | "gramm" | "gramos" | "grammes" => (Dim::Mass, 1.0),
        "kg" | "kilo" | "kilos" => (Dim::Mass, 1000.0),
        "lb" | "lbs" | "pound" | "pounds" => (Dim::Mass, 453.6),
        "min" | "mins" | "minute" | "minutes" | "minuten" | "minutos" | "minuto" | "minuti" | "minuut" | "minuutje" | "minuutjes" | "m" => {
            (Dim::Duration, 1.0)
        }
        // Dutch says an hour small as people say it ("een uurtje", "twee
        // uurtjes") and half an hour in one word ("een halfuur").
        "halfuur" | "halfuurtje" => (Dim::Duration, 30.0),
        "hr" | "hrs" | "hour" | "hours" | "stunde" | "stunden" | "std" | "hora" | "horas" | "heure" | "heures" | "ora" | "ore" | "uur"
        | "uren" | "uurtje" | "uurtjes" => (Dim::Duration, 60.0),
        "sec" | "secs" | "second" | "seconds" | "s" => (Dim::Duration, 1.0 / 60.0),
        "day" | "days" | "tag" | "tage" | "tagen" | "dia" | "dias" | "jour" | "jours" | "giorno" | "giorni" | "dag" | "dagen" | "dagje"
        | "dagjes" => (Dim::Duration, 24.0 * 60.0),
        "usd" | "dollar" | "dollars" | "bucks" | "quid" | "eur" | "euro" | "euros" | "gbp" | "pounds sterling" | "nis" | "shekel"
        | "shekels" => (Dim::Price, 100.0),
        _ => return None,
    })
}
