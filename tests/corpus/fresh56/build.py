#!/usr/bin/env python3
"""Builds /work/fresh56/corpus.jsonl (blind corpus, written from the brief only)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
DIALOGUES = []


def C(id, label, sub=None, kind=None, risk=False):
    c = {"id": id, "label": label}
    if sub:
        c["sublabel"] = sub
    if kind:
        c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def EX(id, fu=None):
    e = {"execute": id}
    if fu:
        e["follow_up"] = fu
    return e


def CL(*ids):
    return {"clarify": list(ids)}


def ES(reason):
    return {"escape": reason}


def D(did, category, domain, lang, turns, note):
    out = []
    for n, t in enumerate(turns, 1):
        cands, inp, expect = t["cands"], t["input"], t["expect"]
        opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": cands}
        if t.get("asked"):
            opts["asked"] = t["asked"]
        turn = {"input": inp,
                "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{domain}"},
                "options": opts}
        if t.get("commands"):
            turn["commands"] = t["commands"]
        turn["expect"] = expect
        if "execute" in expect:
            kind = "OUTCOME_KIND_REJECTED" if t.get("rejected") else "OUTCOME_KIND_EXECUTED"
            turn["record_outcome"] = {"kind": kind, "choiceId": expect["execute"]}
        out.append(turn)
    DIALOGUES.append({"id": did, "category": category, "domain": domain, "language": lang,
                      "dialogue": out, "note": note})


def t(input, cands, expect, asked=None, rejected=False, commands=None):
    return {"input": input, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


CH, CF = "ASKED_CHOICE", "ASKED_CONFIRMATION"

# ---------------------------------------------------------------- 1 signed_numbers
tz1 = [C("lis", "Lisbon (UTC+0)", kind="timezone"), C("ber", "Berlin (UTC+1)", kind="timezone"),
       C("ath", "Athens (UTC+2)", kind="timezone"), C("mow", "Moscow (UTC+3)", kind="timezone")]
tz2 = [C("rey", "Reykjavik (UTC+0)", kind="timezone"), C("pra", "Praia (UTC-1)", kind="timezone"),
       C("pdl", "Ponta Delgada (UTC-1)", sub="Azores", kind="timezone"), C("nuuk", "Nuuk (UTC-2)", kind="timezone")]
D("f001", "signed_numbers", "travel", "en", [
    t("set my home clock to +2", tz1, EX("ath")),
    t("travel clock: utc-1", tz2, CL("pra", "pdl")),
    t("ponta delgada", [tz2[1], tz2[2]], EX("pdl"), asked=CH),
], "T1: '+2' is the UTC offset of Athens (3rd row); the position reading would pick Berlin (2nd). "
   "T2: two zones share UTC-1 (and '-1' read as 'last' would be Nuuk) -> ask between Praia and Ponta Delgada. "
   "T3: names one of the offered zones.")

cc = [C("mx", "Mexico (+52)", kind="country_code"), C("de", "Germany (+49)", kind="country_code"),
      C("ca", "Canada (+1)", kind="country_code"), C("us", "United States (+1)", kind="country_code")]
D("f002", "signed_numbers", "banking", "en", [
    t("+1", cc, CL("ca", "us")),
    t("USA", [cc[2], cc[3]], EX("us"), asked=CH),
], "Adding a phone number. T1: '+1' is a dialling code, not 'the first row' (Mexico); two countries carry +1 -> ask. "
   "T2: 'USA' names the United States among the two offered.")

tr = [C("dn2", "Transpose -2", kind="key"), C("dn1", "Transpose -1", kind="key"), C("orig", "Original key", kind="key"),
      C("up1", "Transpose +1", kind="key"), C("up2", "Transpose +2", kind="key")]
capo = [C("c0", "No capo", kind="capo"), C("c1", "Capo 1", kind="capo"), C("c2", "Capo 2", kind="capo"),
        C("c3", "Capo 3", kind="capo"), C("c4", "Capo 4", kind="capo")]
D("f003", "signed_numbers", "music", "en", [
    t("+1 please", tr, EX("up1")),
    t("capo on fret 3", capo, EX("c3")),
], "Song-sheet app. T1: '+1' is the transposition value (4th row), not the first row (-2). "
   "T2: fret 3 is the value of 'Capo 3' (4th row); the position reading would give 'Capo 2'.")

# ---------------------------------------------------------------- 2 changed_value_not_yes
tbl = [C("t19", "Table for 2 · Fri 7:00 PM", sub="Osteria Verde", kind="reservation")]
D("f004", "changed_value_not_yes", "food", "en", [
    t("let's make it half past eight instead", tbl, CL("t19"), asked=CF),
    t("ok fine, seven it is", tbl, EX("t19"), asked=CF),
], "T1: 8:30 differs from the proposed 7:00 PM: a change, not a yes; the service can only re-offer t19 (or hand back). "
   "T2: 'seven' matches the proposal -> yes.")

D("f005", "changed_value_not_yes", "banking", "en", [
    t("yes, two hundred fifty", [C("maria", "Send $250.00 to Maria Lopez", kind="transfer", risk=True)], EX("maria"), asked=CF),
    t("yes but make it thirty", [C("jake", "Send $40.00 to Jake Chen", kind="transfer", risk=True)], CL("jake"), asked=CF),
], "T1: yes to the confirmation of a RISK_HIGH transfer, amount in words equals $250.00 -> execute. "
   "T2: 'thirty' differs from $40.00 -> a change; sending $40 would be an unwanted payment -> ask.")

D("f006", "changed_value_not_yes", "calendar", "de", [
    t("ja, Dienstag um zehn passt", [C("zahn", "Zahnarzt · Di 14. Mai · 10:00", kind="appointment")], EX("zahn"), asked=CF),
    t("gut, aber lieber um elf", [C("fris", "Friseur · Sa 18. Mai · 9:00", kind="appointment")], CL("fris"), asked=CF),
], "T1: 'Dienstag um zehn' matches Di 10:00 -> yes. T2: 'um elf' (11:00) differs from 9:00; 'gut' is not a yes -> ask.")

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
decks = [C("v3", "Pitch deck v3.pptx", kind="file"), C("fin", "Pitch deck FINAL.pptx", kind="file"),
         C("v1", "Pitch deck v1.pptx", kind="file")]
notes = [C("kick", "Notes – kickoff", kind="file"), C("fcc", "Notes – first client call", kind="file"),
         C("retro", "Notes – retro", kind="file")]
D("f007", "ordinal_word_in_labels", "files", "en", [
    t("open the final deck", decks, EX("fin")),
    t("the first one", notes, CL("kick", "fcc")),
    t("the client call notes", [notes[0], notes[1]], EX("fcc"), asked=CH),
], "T1: 'final' is a label word (FINAL, 2nd row), not 'the last row' (v1). "
   "T2: 'first' could be the 1st row (kickoff) or the label 'first client call' -> ask. T3: names one.")

news = [C("ult", "Última hora", kind="section"), C("dep", "Deportes", kind="section"), C("cul", "Cultura", kind="section")]
D("f008", "ordinal_word_in_labels", "news", "es", [
    t("la última", news, CL("ult", "cul")),
    t("cultura", [news[0], news[2]], EX("cul"), asked=CH),
], "T1: 'la última' is both the label word of 'Última hora' and the last row (Cultura) -> ask. T2: names one.")

out = [C("std", "Standard · €45", kind="fare"), C("sp", "Standard Premium · €62", kind="fare"),
       C("fc", "First class · €89", kind="fare")]
ret = [C("sec", "Second class · €30", kind="fare"), C("fc2", "First class · €55", kind="fare")]
D("f009", "ordinal_word_in_labels", "travel", "en", [
    t("first class please", out, EX("fc")),
    t("the second one", ret, CL("sec", "fc2")),
    t("second class", ret, EX("sec"), asked=CH),
], "T1: 'first class' is the label of the 3rd row, not the 1st row (Standard). "
   "T2 (return leg): 'the second one' = 2nd row (First class) or label 'Second class' -> ask. "
   "T3: the exact label.")

# ---------------------------------------------------------------- 4 quantity_noun
cine = [C("adu", "Adulte · 12 €", kind="ticket"), C("enf", "Enfant · 7 €", kind="ticket"),
        C("fam", "Famille (2 adultes + 2 enfants) · 32 €", kind="ticket")]
D("f010", "quantity_noun", "cinema", "fr", [
    t("3 enfants", cine, EX("enf")),
    t("et 2 adultes", cine, EX("adu")),
], "T1: '3 enfants' names the Enfant ticket, never the Famille bundle. "
   "T2: same screen shown again; '2 adultes' names the Adulte ticket (the bundle says more than asked).")

piz = [C("pslice", "Pepperoni slice", sub="$3.50", kind="food"), C("phalf", "Pepperoni half pizza (4 slices)", sub="$12", kind="food"),
       C("pwhole", "Pepperoni whole pizza (8 slices)", sub="$21", kind="food"), C("mslice", "Margherita slice", sub="$3", kind="food")]
cola = [C("can", "Cola can", sub="$1.50", kind="drink"), C("six", "Cola 6-pack (cans)", sub="$7", kind="drink"),
        C("btl", "Cola 1.5 L bottle", sub="$3", kind="drink")]
D("f011", "quantity_noun", "food", "en", [
    t("2 slices of pepperoni", piz, EX("pslice")),
    t("4 cans of cola", cola, EX("can")),
], "T1: '2 slices' names the slice option, not the half pizza (4 slices). "
   "T2: '4 cans' names the single can, not the 6-pack that says more.")

park = [C("kid", "Kid (4-12)", kind="ticket"), C("teen", "Teen (13-17)", kind="ticket"), C("adult", "Adult", kind="ticket"),
        C("grp5", "Group of 5 (any age)", kind="ticket")]
D("f012", "quantity_noun", "leisure", "en", [
    t("5 teens", park, EX("teen")),
    t("3 more people", park, CL("kid", "teen", "adult")),
    t("adults", [park[0], park[1], park[2]], EX("adult"), asked=CH),
], "Theme-park tickets. T1: '5 teens' names the Teen ticket; the Group-of-5 bundle matches only the number. "
   "T2 (same screen again): 'people' names no ticket type -> ask which. T3: names Adult.")

# ---------------------------------------------------------------- 5 everyday_verb
mtg = [C("su", "Weekly standup · 9:30", kind="meeting"), C("br", "Budget review · 11:00", kind="meeting"),
       C("ll", "Lunch & learn · 12:30", kind="meeting")]
rem = [C("mtoday", "Mute reminders for today", kind="action"), C("mweek", "Mute reminders for this week", kind="action"),
       C("rm", "Remove from calendar", kind="action", risk=True)]
D("f013", "everyday_verb", "calendar", "en", [
    t("jump into the budget review", mtg, EX("br")),
    t("stop reminding me about lunch & learn forever", rem, CL("mtoday", "mweek")),
    t("the week one", [rem[0], rem[1]], EX("mweek"), asked=CH),
], "T1: 'jump into' is the everyday verb for joining a meeting. "
   "T2 (reminder screen for Lunch & learn): 'forever' asks for more than either mute option; removing the event is RISK_HIGH and more than asked -> ask. "
   "T3: picks the week option.")

home = [C("lock", "Lock front door", kind="device"), C("unlock", "Unlock front door", kind="device", risk=True),
        C("gopen", "Open garage", kind="device", risk=True), C("gclose", "Close garage", kind="device")]
D("f014", "everyday_verb", "smart_home", "en", [
    t("shut the garage", home, EX("gclose")),
    t("let the cleaner in through the front", home, CL("unlock")),
    t("yes go ahead", [home[1]], EX("unlock"), asked=CF),
], "T1: 'shut' = close, non-risky. T2 (same screen): 'let ... in' means unlocking the front door, which is RISK_HIGH and not said by its label -> confirm. "
   "T3: yes to the confirmation.")

fr = [C("acc_dana", "Accept Dana's request", kind="friend_request"), C("dec_dana", "Decline Dana's request", kind="friend_request"),
      C("acc_omar", "Accept Omar's request", kind="friend_request"), C("dec_omar", "Decline Omar's request", kind="friend_request")]
D("f015", "everyday_verb", "social", "en", [
    t("approve omar", fr, EX("acc_omar")),
    t("sure, add her too", [fr[0], fr[1]], EX("acc_dana")),
], "T1: 'approve' is the everyday verb for accepting a request; only one Omar accept. "
   "T2: screen now only holds Dana's two buttons; 'add her' = accept Dana.")

# ---------------------------------------------------------------- 6 value_other_way
dent = [C("thu11", "Thu 11 Sep · 9:00", kind="slot"), C("fri12", "Fri 12 Sep · 9:00", kind="slot"),
        C("mon15", "Mon 15 Sep · 14:30", kind="slot")]
clean = [C("tue7", "Tue 7 Oct · 10:00", kind="slot"), C("wed8", "Wed 8 Oct · 16:00", kind="slot")]
D("f016", "value_other_way", "health", "en", [
    t("sept twelfth", dent, EX("fri12")),
    t("the 9th works best for me", clean, CL("tue7", "wed8")),
    t("ok, weds then", clean, EX("wed8"), asked=CH),
], "Dentist booking. T1: 'sept twelfth' = Fri 12 Sep. T2 (cleaning follow-up): the 9th is not offered; a different value never picks -> ask. "
   "T3: 'weds' = Wed 8 Oct.")

sizes = [C("xs", "XS", kind="size"), C("s", "S", kind="size"), C("m", "M", kind="size"), C("l", "L", kind="size"), C("xl", "XL", kind="size")]
socks = [C("sm", "S/M (36-40)", kind="size"), C("lxl", "L/XL (41-46)", kind="size")]
D("f017", "value_other_way", "shopping", "en", [
    t("extra large please", sizes, EX("xl")),
    t("I'm a 44", socks, EX("lxl")),
], "T1: 'extra large' = XL. T2 (socks): shoe size 44 falls in the L/XL range 41-46 shown on screen.")

yoga = [C("mi", "Yoga · Mittwoch 18:00", kind="class"), C("do", "Yoga · Donnerstag 7:30", kind="class"),
        C("sa", "Yoga · Samstag 10:00", kind="class")]
pil = [C("mo", "Pilates · Montag 19:00", kind="class"), C("fr", "Pilates · Freitag 17:00", kind="class")]
D("f018", "value_other_way", "fitness", "de", [
    t("Donnerstag halb acht", yoga, EX("do")),
    t("Pilates am Dienstag", pil, CL("mo", "fr")),
], "T1: 'halb acht' = 7:30, Donnerstag matches. T2: Tuesday is not among Monday/Friday -> ask, never pick.")

# ---------------------------------------------------------------- 7 object_alone
sup = [C("refund", "Request a refund", kind="action"), C("track", "Track my parcel", kind="action"),
       C("addr", "Change delivery address", kind="action")]
sub = [C("cancel", "Cancel subscription", kind="action", risk=True), C("pause", "Pause subscription", kind="action"),
       C("agent", "Talk to an agent", kind="action")]
D("f019", "object_alone", "support", "en", [
    t("parcel tracking please", sup, EX("track")),
    t("my subscription", sub, CL("cancel", "pause")),
    t("pause", [sub[0], sub[1]], EX("pause"), asked=CH),
], "T1: the parcel is the object of one option only. T2: two options share 'subscription' (one RISK_HIGH) -> ask. T3: exact pick.")

bank = [C("freeze", "Freeze card", kind="action", risk=True), C("repl", "Order a replacement card", kind="action"),
        C("stm", "View statements", kind="action")]
bank2 = [C("close", "Close account", kind="action", risk=True), C("tax", "Download tax certificate", kind="action"),
         C("addr", "Update address", kind="action")]
D("f020", "object_alone", "banking", "en", [
    t("statements", bank, EX("stm")),
    t("account closure", bank2, CL("close")),
    t("nah, not now", [bank2[0]], ES("declined"), asked=CF),
], "T1: 'statements' is the object of one option only (the card options share 'card', irrelevant here). "
   "T2: the object alone of a RISK_HIGH option -> confirm first. T3: a plain no to the one thing proposed.")

rh = [C("conge", "Demander un congé", kind="action"), C("paie", "Consulter ma fiche de paie", kind="action"),
      C("rib", "Modifier mes coordonnées bancaires", kind="action", risk=True)]
nf = [C("nf_new", "Note de frais – nouvelle", kind="action"), C("nf_draft", "Note de frais – brouillon du 12 mars", kind="action")]
D("f021", "object_alone", "hr", "fr", [
    t("ma fiche de paie", rh, EX("paie")),
    t("la note de frais", nf, CL("nf_new", "nf_draft")),
    t("le brouillon", nf, EX("nf_draft"), asked=CH),
], "T1: payslip is the object of one option. T2: both options share 'note de frais' -> ask. T3: 'le brouillon' names the draft.")

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
inv = [C("md", "Invoice_March_draft.pdf", kind="file"), C("mf", "Invoice_March_final.pdf", kind="file"),
       C("ad", "Invoice_April_draft.pdf", kind="file")]
med = [C("p12", "Photo 12 Jun.jpg", kind="file"), C("p14", "Photo 14 Jun.jpg", kind="file"), C("v12", "Video 12 Jun.mp4", kind="file")]
D("f022", "distinguishing_word_plus_kind", "files", "en", [
    t("the final invoice", inv, EX("mf")),
    t("the one from the 12th", med, CL("p12", "v12")),
    t("the video", [med[0], med[2]], EX("v12"), asked=CH),
], "T1: 'final' is the one word that sets the March final apart, plus its kind. "
   "T2: the 12th is shared by a photo and a video -> ask. T3: 'video' picks one.")

thai = [C("ptc", "Pad thai · chicken", sub="rice noodles, peanuts", kind="dish"),
        C("ptt", "Pad thai · tofu", sub="rice noodles, peanuts", kind="dish"),
        C("gct", "Green curry · tofu", sub="coconut curry, jasmine rice", kind="dish")]
starters = [C("srv", "Spring rolls · veg", kind="dish"), C("srp", "Spring rolls · pork", kind="dish"), C("dp", "Dumplings · pork", kind="dish")]
D("f023", "distinguishing_word_plus_kind", "food", "en", [
    t("the tofu noodles", thai, EX("ptt")),
    t("the pork ones", starters, CL("srp", "dp")),
    t("dumplings", [starters[1], starters[2]], EX("dp"), asked=CH),
], "T1: tofu + noodles (sublabel) fits only Pad thai tofu. T2: 'pork' fits two starters -> ask. T3: names one.")

hot = [C("auc", "Hotel Aurora · city centre · €120", kind="hotel"), C("aua", "Hotel Aurora · airport · €95", kind="hotel"),
       C("cl", "Casa Luna · city centre · €140", kind="hotel")]
rooms = [C("sq", "Standard queen", kind="room"), C("st", "Standard twin", kind="room"), C("dk", "Deluxe king", kind="room")]
D("f024", "distinguishing_word_plus_kind", "travel", "en", [
    t("the airport hotel", hot, EX("aua")),
    t("the twin room", rooms, EX("st")),
], "T1: 'airport' sets one hotel apart. T2: 'twin' sets one room apart.")

# ---------------------------------------------------------------- 9 correction_after_execute
spin = [C("mon", "Spin · Mon 18:00", kind="class"), C("tue", "Spin · Tue 18:00", kind="class"), C("thu", "Spin · Thu 07:00", kind="class")]
D("f025", "correction_after_execute", "fitness", "en", [
    t("spin on monday", spin, EX("mon"), rejected=True),
    t("argh no - the thursday morning one", spin, EX("thu")),
], "T1: clear pick, taken back next turn (REJECTED). T2: the app still shows the class list; the correction names Thu 07:00.")

cof = [C("latte", "Latte", kind="drink"), C("fw", "Flat white", kind="drink"), C("cap", "Cappuccino", kind="drink")]
D("f026", "correction_after_execute", "food", "en", [
    t("flat white", cof, EX("fw"), rejected=True),
    t("oops wrong one", cof, CL("latte", "cap")),
    t("cappuccino", [cof[0], cof[2]], EX("cap"), asked=CH),
], "T1: exact label, taken back. T2 (same menu still shown): the correction names nothing -> ask among the rest. T3: names one.")

pl = [C("ver", "Lista: Verano 2023", kind="playlist"), C("run", "Lista: Para correr", kind="playlist"), C("rel", "Lista: Relax", kind="playlist")]
D("f027", "correction_after_execute", "music", "es", [
    t("pon la de correr", pl, EX("run"), rejected=True),
    t("uy no, esa no, la de relax", pl, EX("rel")),
], "T1: clear pick, taken back. T2: the app still shows the playlists; the correction names Relax.")

# ---------------------------------------------------------------- 10 self_correcting_reply
fl = [C("f0815", "08:15 · direct · €210", kind="flight"), C("f1140", "11:40 · 1 stop · €150", kind="flight"),
      C("f1705", "17:05 · direct · €185", kind="flight")]
cab = [C("eco", "Economy", kind="cabin"), C("ecp", "Economy Plus · +€60", kind="cabin"), C("bus", "Business · +€420", kind="cabin", risk=True)]
D("f028", "self_correcting_reply", "travel", "en", [
    t("the 8:15 — no, hang on, the 17:05", fl, EX("f1705")),
    t("business... nah too pricey, economy plus", cab, EX("ecp")),
], "T1/T2: the reply corrects itself; the last choice stands (never the first-named one, esp. not the RISK_HIGH Business).")

dl = [C("std", "Standard delivery (3-5 days)", kind="shipping"), C("exp", "Express (next day)", kind="shipping"), C("pick", "Pickup point", kind="shipping")]
pay = [C("card", "Card ending 4421", kind="payment"), C("pp", "PayPal", kind="payment"), C("gift", "Gift card balance", kind="payment")]
D("f029", "self_correcting_reply", "shopping", "en", [
    t("1... wait no, 2", dl, EX("exp")),
    t("the card, hmm, or maybe paypal? not sure", pay, CL("card", "pp")),
    t("paypal", [pay[0], pay[1]], EX("pp"), asked=CH),
], "T1: positions, the last one said stands -> Express. T2: not a correction but a hesitation between two -> ask. T3: names one.")

sc = [C("cin", "Scene: Cinema", kind="scene"), C("read", "Scene: Reading", kind="scene"), C("night", "Scene: Good night", kind="scene")]
vol = [C("v20", "Volume 20%", kind="volume"), C("v40", "Volume 40%", kind="volume"), C("v60", "Volume 60%", kind="volume")]
D("f030", "self_correcting_reply", "smart_home", "en", [
    t("reading... no actually cinema", sc, EX("cin")),
    t("40, ah no, 60", vol, EX("v60")),
], "Both turns: the last choice of a self-correcting reply stands.")

# ---------------------------------------------------------------- 11 closing_after_execute
pz = [C("mar", "Margherita", kind="pizza"), C("dia", "Diavola", sub="spicy salami, chili", kind="pizza"), C("qf", "Quattro formaggi", kind="pizza")]
post = [C("drink", "Add a drink", kind="action"), C("track", "Track order", kind="action"), C("cancel", "Cancel order", kind="action", risk=True)]
D("f031", "closing_after_execute", "food", "en", [
    t("diavola pls", pz, EX("dia")),
    t("thanks! is it very hot though?", post, ES("question_intent")),
    t("ok cool, that's everything", post, ES("cancel")),
], "T1: exact pick. T2: thanks plus a question about the pizza -> the question wins, hand back. "
   "T3: sign-off with nothing pending (plain screen, no question asked) -> cancel.")

bills0 = [C("bal", "View balance", kind="action"), C("xfer", "Transfer money", kind="action"), C("bill", "Pay a bill", kind="action")]
bills = [C("elec", "Electricity · €64.20", sub="due 3 May", kind="bill"), C("net", "Internet · €39.99", sub="due 9 May", kind="bill")]
done = [C("another", "Pay another bill", kind="action"), C("home", "Back to home", kind="action")]
D("f032", "closing_after_execute", "banking", "en", [
    t("pay a bill", bills0, EX("bill")),
    t("internet", bills, EX("net")),
    t("great, that's all, cheers", done, ES("cancel")),
], "T1/T2: clear picks (T2 only selects the bill; payment is confirmed elsewhere). T3: closing after the execute, nothing pending -> cancel.")

D("f033", "closing_after_execute", "calendar", "fr", [
    t("oui, vas-y", [C("reu", "Réunion d'équipe · jeu. 10:00", kind="meeting")], EX("reu"), asked=CF),
    t("parfait, merci, c'est tout", [C("note", "Ajouter une note", kind="action"), C("inv", "Inviter des participants", kind="action")], ES("cancel")),
], "T1: yes to the confirmation. T2: closing with nothing pending (plain follow-up screen) -> cancel.")

# ---------------------------------------------------------------- 12 ack_then_new_request
mir = [C("mir1", "Hotel Miramar · 3–5 Oct · €180", sub="2 nights, sea view", kind="hotel")]
D("f034", "ack_then_new_request", "travel", "en", [
    t("ok, try the following weekend", mir, CL("mir1"), asked=CF),
    t("fine, keep those dates then", mir, EX("mir1"), asked=CF),
], "T1: 'ok' opens a new request (other dates), not a yes -> never execute; the only thing to offer back is mir1 (escape also acceptable). "
   "T2: now a real yes.")

D("f035", "ack_then_new_request", "food", "en", [
    t("alright — somewhere italian instead", [C("kai", "Sushi Kai · 4 people · Sat 19:30", kind="reservation")], CL("kai"), asked=CF),
    t("no thanks", [C("kai", "Sushi Kai · 4 people · Sat 19:30", kind="reservation")], ES("declined"), asked=CF),
], "T1: 'alright' precedes a different request -> not a yes. T2: a plain no to the one re-offered booking -> declined.")

D("f036", "ack_then_new_request", "shopping", "es", [
    t("vale, cómpralas", [C("rx", "Comprar Zapatillas Runner X · negro · talla 42 · 89 €", kind="purchase", risk=True)], EX("rx"), asked=CF),
    t("vale, pero en blanco", [C("socks", "Comprar calcetines Runner · negro · pack de 3 · 12 €", kind="purchase", risk=True)], CL("socks"), asked=CF),
], "T1: a clear yes to a RISK_HIGH purchase confirmation. T2: 'vale' + another colour (white vs the black offered) is a new request, not a yes.")

# ---------------------------------------------------------------- 13 choice_with_question
sw = [C("wb", "Wool sweater · blue", kind="product"), C("wg", "Wool sweater · green", kind="product"), C("hg", "Cotton hoodie · grey", kind="product")]
ship = [C("std", "Standard shipping · free", kind="shipping"), C("exp", "Express shipping · €9", kind="shipping")]
D("f037", "choice_with_question", "shopping", "en", [
    t("the green sweater - will it shrink in the wash?", sw, EX("wg", "question")),
    t("express please, and put in a card saying happy birthday mum", ship, EX("exp", "request")),
], "T1: clear pick + a question -> execute with follow-up question. T2: clear pick + an extra request -> follow-up request.")

rm = [C("sea", "Room with sea view · €140", kind="room"), C("garden", "Room with garden view · €110", kind="room")]
D("f038", "choice_with_question", "travel", "en", [
    t("do either of them have a balcony?", rm, ES("question_intent")),
    t("sea view then - is breakfast included?", rm, EX("sea", "question")),
], "T1: only a question, no choice -> hand back. T2 (app kept the two rooms on screen): choice + question -> execute with follow-up question.")

kto = [C("spar", "Sparkonto eröffnen", kind="action"), C("kk", "Kreditkarte beantragen", kind="action"),
       C("close", "Konto schließen", kind="action", risk=True)]
D("f039", "choice_with_question", "banking", "de", [
    t("Konto schließen – bekomme ich dann mein Restguthaben überwiesen?", kto, CL("close")),
    t("ja, bitte schließen", [kto[2]], EX("close"), asked=CF),
], "T1: the RISK_HIGH option is named but asked about -> not executed; confirm it (a hand-back with question_intent is also defensible). "
   "T2: yes to the confirmation.")

# ---------------------------------------------------------------- 14 shorthand
st = [C("notif", "Notifications", kind="settings"), C("nsound", "Notification sounds", kind="settings"),
      C("acct", "Account", kind="settings"), C("appear", "Appearance", kind="settings")]
D("f040", "shorthand", "settings", "en", [
    t("acct", st, EX("acct")),
    t("notif", st, CL("notif", "nsound")),
    t("the sounds", [st[0], st[1]], EX("nsound"), asked=CH),
], "T1: 'acct' can only be Account. T2 (settings list shown again): 'notif' fits two -> ask. T3: picks sounds.")

cup = [C("sm", "Small coffee", kind="size"), C("md", "Medium coffee", kind="size"), C("lg", "Large coffee", kind="size")]
milk = [C("oat", "Oat milk", kind="milk"), C("alm", "Almond milk", kind="milk"), C("whole", "Whole milk", kind="milk"), C("skim", "Skim milk", kind="milk")]
D("f041", "shorthand", "food", "en", [
    t("lg pls", cup, EX("lg")),
    t("alm", milk, EX("alm")),
], "Both turns: shorthand that fits exactly one option.")

exp = [C("pdf", "Export as PDF", kind="action"), C("png", "Export as PNG", kind="action"), C("print", "Print", kind="action")]
D("f042", "shorthand", "files", "en", [
    t("exp", exp, CL("pdf", "png")),
    t("pdf", [exp[0], exp[1]], EX("pdf"), asked=CH),
], "T1: 'exp' fits both export options -> ask. T2: names one.")

# ---------------------------------------------------------------- 15 two_requests_in_order
sh = [C("blinds", "Blinds down", kind="scene"), C("movie", "Lights: movie scene", kind="scene"),
      C("bright", "Lights: bright", kind="scene"), C("t21", "Thermostat 21°C", kind="climate")]
D("f043", "two_requests_in_order", "smart_home", "en", [
    t("lower the blinds, then the movie lights", sh, EX("blinds", "request")),
    t("now the movie lights", sh, EX("movie")),
], "T1: two requests in order: the first executes, the rest is a follow-up request. T2: the second one, asked alone.")

mu = [C("shuf", "Shuffle on", kind="playback"), C("rep", "Repeat one", kind="playback"), C("next", "Next track", kind="playback")]
mu2 = [C("shoff", "Shuffle off", kind="playback"), C("rep", "Repeat one", kind="playback"), C("next", "Next track", kind="playback")]
D("f044", "two_requests_in_order", "music", "en", [
    t("shuffle and repeat", mu, CL("shuf", "rep")),
    t("just shuffle", [mu[0], mu[1]], EX("shuf"), asked=CH),
    t("show lyrics", mu2, ES("command"),
      commands=[{"id": "lyrics", "label": "Show lyrics", "phrases": ["lyrics", "show lyrics"]}]),
], "T1: a bare 'and' with no order -> ask. T2: one pick. T3: the input is one of the app's listed commands.")

mc = [C("sync", "Cancel: Team sync · Tue 10:00", kind="meeting", risk=True),
      C("vendor", "Cancel: Vendor call · Wed 15:00", kind="meeting", risk=True)]
D("f045", "two_requests_in_order", "calendar", "en", [
    t("team sync and the vendor call", mc, CL("sync", "vendor"), asked=CH),
    t("just the team sync for now", mc, EX("sync"), asked=CH),
], "T1: the app asked which meeting to cancel; naming two under ASKED_CHOICE -> ask. "
   "T2: a pick right after a question that offered it -> RISK_HIGH may execute.")


if __name__ == "__main__":
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in DIALOGUES:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    debatable = ["f004#1", "f005#2", "f006#2", "f034#1", "f035#1", "f036#2", "f039#1",
                 "f013#2", "f026#2", "f007#2", "f012#2"]
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump({"debatable": debatable, "knowledge": []}, f, indent=2)
        f.write("\n")
    print(len(DIALOGUES), "dialogues written")
