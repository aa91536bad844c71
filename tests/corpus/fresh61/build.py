#!/usr/bin/env python3
"""Blind test set fresh61: 40 chat dialogues written by hand from BRIEF.md.

Writes corpus.jsonl and scoring.json next to this file.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------- small helpers -------------------------------------------------
def C(cid, label, kind, sub=None, risk=False):
    c = {"id": cid, "label": label}
    if sub:
        c["sublabel"] = sub
    c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def EX(cid, fu=None):
    e = {"execute": cid}
    if fu:
        e["follow_up"] = fu
    return e


def CL(*ids):
    return {"clarify": list(ids)}


def ES(reason):
    return {"escape": reason}


def T(text, cands, expect, asked=None, commands=None, rejected=False):
    return {"text": text, "cands": cands, "expect": expect, "asked": asked,
            "commands": commands, "rejected": rejected}


def CMD(cid, label, *phrases):
    return {"id": cid, "label": label, "phrases": list(phrases)}


def pick(cands, ids):
    """The screen after a clarify: exactly the offered ids, in that order."""
    by = {c["id"]: c for c in cands}
    return [by[i] for i in ids]


DIALOGUES = []


def D(did, category, domain, language, note, turns):
    out = []
    for n, t in enumerate(turns, 1):
        opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
        if t["asked"]:
            opts["asked"] = t["asked"]
        turn = {"input": t["text"],
                "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{domain}"},
                "options": opts}
        if t["commands"]:
            turn["commands"] = t["commands"]
        turn["expect"] = t["expect"]
        if "execute" in t["expect"]:
            turn["record_outcome"] = {
                "kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                "choiceId": t["expect"]["execute"]}
        out.append(turn)
    DIALOGUES.append({"id": did, "category": category, "domain": domain, "language": language,
                      "note": note, "dialogue": out})


CH, CF = "ASKED_CHOICE", "ASKED_CONFIRMATION"

# =========================================================================
# 1. signed_numbers
# =========================================================================
rem = [C("a", "At start time", "reminder"), C("b", "5 minutes before", "reminder"),
       C("c", "15 minutes before", "reminder"), C("d", "1 hour before", "reminder")]
mov = [C("a", "Move 1 day earlier", "reschedule"), C("b", "Move 1 hour later", "reschedule"),
       C("c", "Move 1 day later", "reschedule")]
D("n001", "signed_numbers", "calendar", "en",
  "Signed offsets '-1h' and '+1 day' are values matching one label each, not list positions 1.",
  [T("-1h", rem, EX("d"), asked=CH),
   T("+1 day", mov, EX("c"))])

eq1 = [C("a", "Bass −6 dB", "eq_preset"), C("b", "Bass −3 dB", "eq_preset"),
       C("c", "Bass 0 dB", "eq_preset"), C("d", "Bass +3 dB", "eq_preset")]
eq2 = [C("a", "Treble −2 dB", "eq_preset"), C("b", "Bass −2 dB", "eq_preset"),
       C("c", "Flat", "eq_preset")]
D("n002", "signed_numbers", "music", "en",
  "'+3' is the +3 dB preset (4th on screen), not item 3; '-2' is a value that fits two presets (not item 2), so ask.",
  [T("+3", eq1, EX("d")),
   T("-2", eq2, CL("a", "b")),
   T("treble", pick(eq2, ["a", "b"]), EX("a"), asked=CH)])

codes = [C("a", "Putzhilfe – 4821", "access_code"), C("b", "Hundesitter – 1930", "access_code"),
         C("c", "Gäste – 7702", "access_code")]
codeact = [C("a", "Code ändern", "code_action"), C("b", "Code löschen", "code_action", risk=True),
           C("c", "Zeitfenster festlegen", "code_action")]
D("n003", "signed_numbers", "smart_home", "de",
  "The digit 2 is inside a code ('ending in 2' = 7702), not position 2; then bare 'löschen' on a RISK_HIGH option is confirmed first.",
  [T("den Code mit der 2 am Ende", codes, EX("c")),
   T("löschen", codeact, CL("b")),
   T("ja, weg damit", pick(codeact, ["b"]), EX("b"), asked=CF)])

# =========================================================================
# 2. changed_value_not_yes
# =========================================================================
D("n004", "changed_value_not_yes", "restaurant", "en",
  "A different time in answer to a confirmation is a change (declined), the same time in words is a yes.",
  [T("make it 8pm", [C("a", "Table for 4 · Fri 14 Mar · 19:30", "reservation")], ES("declined"), asked=CF),
   T("yes, eight o'clock works", [C("a", "Table for 4 · Fri 14 Mar · 20:00", "reservation")], EX("a"), asked=CF)])

D("n005", "changed_value_not_yes", "banking", "en",
  "Amount in words equal to the option is a yes even for RISK_HIGH; 'yes but fourteen' against €40 is a change, not a yes.",
  [T("yes, one hundred and fifty euros", [C("a", "Send €150.00 to Maria Lopez", "transfer", risk=True)], EX("a"), asked=CF),
   T("yes but fourteen", [C("a", "Send €40.00 to Jonas Weber", "transfer", risk=True)], ES("declined"), asked=CF)])

D("n006", "changed_value_not_yes", "health", "es",
  "Another weekday/date than the proposed appointment is a change; the same day and hour said in words is a yes.",
  [T("mejor el miércoles 12", [C("a", "Cita con la Dra. Ruiz · martes 11 de marzo · 10:00", "appointment")], ES("declined"), asked=CF),
   T("sí, el miércoles a las diez en punto", [C("a", "Cita con la Dra. Ruiz · miércoles 12 de marzo · 10:00", "appointment")], EX("a"), asked=CF)])

# =========================================================================
# 3. ordinal_word_in_labels
# =========================================================================
cab = [C("a", "Economy", "cabin", "from €129"), C("b", "Premium Economy", "cabin", "from €289"),
       C("c", "First", "cabin", "from €1,140")]
D("n007", "ordinal_word_in_labels", "travel", "en",
  "'first' is both position 1 (Economy) and the cabin 'First': ask between them; 'first class' then settles it.",
  [T("first please", cab, CL("c", "a")),
   T("first class, not economy", pick(cab, ["c", "a"]), EX("c"), asked=CH)])

ep2 = [C("a", "Last Call", "episode", "S2 · E1"), C("b", "Night Shift", "episode", "S2 · E2"),
       C("c", "Homecoming", "episode", "S2 · E3")]
ep3 = [C("a", "The Second Chance", "episode", "S3 · E1"), C("b", "Blackout", "episode", "S3 · E2"),
       C("c", "Reunion", "episode", "S3 · E3")]
D("n008", "ordinal_word_in_labels", "streaming", "en",
  "'last call' is the title of E1, not 'the last one'; bare 'second' is position 2 or 'The Second Chance', so ask.",
  [T("play last call", ep2, EX("a")),
   T("second", ep3, CL("b", "a")),
   T("blackout", pick(ep3, ["b", "a"]), EX("b"), asked=CH)])

menus = [C("a", "Menu Découverte", "menu", "18 €"), C("b", "Menu Premier Prix", "menu", "12 €"),
         C("c", "Menu Gourmand", "menu", "26 €")]
D("n009", "ordinal_word_in_labels", "restaurant", "fr",
  "'le premier' is position 1 (Découverte) or the 'Premier Prix' menu: ask; then 'premier prix' picks b.",
  [T("le premier", menus, CL("a", "b")),
   T("le premier prix, le moins cher", pick(menus, ["a", "b"]), EX("b"), asked=CH)])

# =========================================================================
# 4. quantity_noun
# =========================================================================
bak = [C("a", "Croissant", "product", "€1.40"), C("b", "Croissant box – 6 pieces", "product", "€7.50"),
       C("c", "Pain au chocolat", "product", "€1.60"), C("d", "Baguette", "product", "€1.90")]
pay = [C("a", "Pay €2.80", "checkout", risk=True), C("b", "Keep shopping", "navigation")]
D("n010", "quantity_noun", "food", "en",
  "'2 croissants' is the single croissant (quantity 2), not item 2 nor the box; bare 'pay' on a RISK_HIGH is confirmed first.",
  [T("2 croissants", bak, EX("a")),
   T("ok pay", pay, CL("a")),
   T("yes", pick(pay, ["a"]), EX("a"), asked=CF)])

cof1 = [C("a", "Flat white", "drink", "€3.20"), C("b", "Flat white + muffin deal", "drink", "€5.50"),
        C("c", "Oat latte", "drink", "€3.60")]
cof2 = [C("a", "Oat latte", "drink", "€3.60"), C("b", "Vanilla latte", "drink", "€3.80"),
        C("c", "Latte + cookie deal", "drink", "€5.20")]
D("n011", "quantity_noun", "cafe", "en",
  "'three flat whites' = the plain flat white (not item 3, not the deal); '2 lattes' fits two plain lattes, so ask (deal left out).",
  [T("three flat whites", cof1, EX("a")),
   T("and 2 lattes", cof2, CL("a", "b")),
   T("oat", pick(cof2, ["a", "b"]), EX("a"), asked=CH)])

piz = [C("a", "Pizza margherita", "product", "6,50 €"),
       C("b", "Menu 2 pizze margherita + bibita", "product", "14,90 €"),
       C("c", "Pizza diavola", "product", "7,50 €")]
D("n012", "quantity_noun", "food", "it",
  "'2 pizze margherita' is two of the single pizza, not the bundle whose label adds a drink; then a plain yes to the order.",
  [T("2 pizze margherita", piz, EX("a")),
   T("sì, conferma", [C("a", "Conferma ordine · 13,00 €", "checkout", risk=True)], EX("a"), asked=CF)])

# =========================================================================
# 5. everyday_verb
# =========================================================================
ctl = [C("a", "Next track", "control"), C("b", "Previous track", "control"),
       C("c", "Add to playlist", "control"), C("d", "Shuffle", "control")]
lib = [C("a", "Remove from library", "track_action", risk=True), C("b", "Download", "track_action"),
       C("c", "Share", "track_action")]
D("n013", "everyday_verb", "music", "en",
  "'skip' is what Next track does; 'get rid of it' means Remove from library, which is RISK_HIGH and so confirmed.",
  [T("skip this one", ctl, EX("a")),
   T("get rid of it", lib, CL("a")),
   T("yes", pick(lib, ["a"]), EX("a"), asked=CF)])

fa = [C("a", "Move to Trash", "file_action", risk=True), C("b", "Make a copy", "file_action"),
      C("c", "Rename", "file_action"), C("d", "Download", "file_action")]
fa2 = [dict(c) for c in fa]
D("n014", "everyday_verb", "files", "en",
  "'duplicate' = Make a copy; 'save it onto my laptop' = Download.",
  [T("duplicate it", fa, EX("b")),
   T("now save it onto my laptop", fa2, EX("d"))])

sh = [C("a", "Rolluiken omlaag", "shutter"), C("b", "Rolluiken omhoog", "shutter"),
      C("c", "Verwarming eco-stand", "heating")]
al = [C("a", "Alarm inschakelen", "security", risk=True), C("b", "Camera's bekijken", "security")]
D("n015", "everyday_verb", "smart_home", "nl",
  "'dichtdoen' of shutters = omlaag; 'alarm aanzetten' = inschakelen but RISK_HIGH and not the whole label, so confirm.",
  [T("doe de rolluiken maar dicht", sh, EX("a")),
   T("zet het alarm aan", al, CL("a")),
   T("ja, doe maar", pick(al, ["a"]), EX("a"), asked=CF)])

# =========================================================================
# 6. value_other_way
# =========================================================================
svc = [C("a", "Haircut · 30 min", "service", "€28"), C("b", "Haircut & colour · 90 min", "service", "€85")]
slot = [C("a", "Tue 18 Mar · 09:00", "slot"), C("b", "Tue 18 Mar · 14:30", "slot"),
        C("c", "Wed 19 Mar · 09:00", "slot")]
D("n016", "value_other_way", "salon", "en",
  "'an hour and a half' = 90 min; 'Tuesday at half past two' = Tue 14:30.",
  [T("the hour and a half one", svc, EX("b")),
   T("Tuesday at half past two", slot, EX("b"), asked=CH)])

sz = [C("a", "P", "size"), C("b", "M", "size"), C("c", "G", "size"), C("d", "GG", "size")]
D("n017", "value_other_way", "shopping", "pt",
  "'médio' is size M in the Brazilian P/M/G scale; the total said in words equals the label, so it is a yes.",
  [T("tamanho médio", sz, EX("b")),
   T("sim, cento e vinte e nove e noventa, pode fechar",
     [C("a", "Finalizar compra · R$ 129,90", "checkout", risk=True)], EX("a"), asked=CF)])

trn = [C("a", "07:45 → Munich Hbf", "connection", "ICE · 2h 05m"),
       C("b", "08:15 → Munich Hbf", "connection", "RE · 3h 10m"),
       C("c", "19:45 → Munich Hbf", "connection", "ICE · 2h 05m")]
D("n018", "value_other_way", "travel", "en",
  "'quarter to eight' fits 07:45 and 19:45: ask; 'the evening one' then picks 19:45.",
  [T("quarter to eight", trn, CL("a", "c")),
   T("the evening one", pick(trn, ["a", "c"]), EX("c"), asked=CH)])

# =========================================================================
# 7. object_alone
# =========================================================================
oa = [C("a", "Track package", "order_action"), C("b", "Download invoice", "order_action"),
      C("c", "Return item", "order_action"), C("d", "Contact seller", "order_action")]
inv = [C("a", "Email invoice", "invoice_action"), C("b", "Print invoice", "invoice_action"),
       C("c", "Back to order", "navigation")]
D("n019", "object_alone", "shopping", "en",
  "'invoice' alone is only on Download invoice; on the next screen two actions share it, so ask.",
  [T("invoice", oa, EX("b")),
   T("the invoice", inv, CL("a", "b")),
   T("email it", pick(inv, ["a", "b"]), EX("a"), asked=CH)])

acc = [C("a", "Change plan", "account_action"), C("b", "Update payment method", "account_action"),
       C("c", "Cancel membership", "account_action", risk=True), C("d", "Download app", "account_action")]
acc2 = [C("a", "Change plan", "account_action"), C("b", "Cancel membership", "account_action", risk=True)]
D("n020", "object_alone", "streaming", "en",
  "'payment method' names one action; 'membership' alone names a RISK_HIGH action, so confirm; the user then says no.",
  [T("payment method", acc, EX("b")),
   T("membership", acc2, CL("b")),
   T("no, keep it", pick(acc2, ["b"]), ES("declined"), asked=CF)])

# =========================================================================
# 8. distinguishing_word_plus_kind
# =========================================================================
accts = [C("a", "Everyday Checking", "account", "••4417"), C("b", "Holiday Savings", "account", "••9021"),
         C("c", "Rainy Day Savings", "account", "••3310")]
accts2 = [dict(c) for c in accts]
D("n021", "distinguishing_word_plus_kind", "banking", "en",
  "'holiday' + the kind word 'account' picks one; 'savings account' fits two accounts, so ask.",
  [T("the holiday account", accts, EX("b")),
   T("to my savings account", accts2, CL("b", "c"), asked=CH),
   T("rainy day", pick(accts2, ["b", "c"]), EX("c"), asked=CH)])

wo = [C("a", "Morning yoga", "workout", "20 min"), C("b", "Lunchtime HIIT", "workout", "15 min"),
      C("c", "Evening stretch", "workout", "10 min")]
wo2 = [C("a", "Morning yoga", "workout", "20 min"), C("b", "Evening yoga", "workout", "30 min"),
       C("c", "Core blast", "workout", "12 min")]
D("n022", "distinguishing_word_plus_kind", "fitness", "en",
  "'HIIT workout' = the one HIIT; 'the yoga workout' fits two, so ask; 'evening' settles it.",
  [T("start the HIIT workout", wo, EX("b")),
   T("the yoga workout", wo2, CL("a", "b")),
   T("evening", pick(wo2, ["a", "b"]), EX("b"), asked=CH)])

# =========================================================================
# 9. correction_after_execute
# =========================================================================
thai = [C("a", "Pad thai", "dish", "€11.50"), C("b", "Pad see ew", "dish", "€11.90"),
        C("c", "Green curry", "dish", "€12.40")]
D("n023", "correction_after_execute", "food", "en",
  "Right after adding Pad thai the user says it was wrong and names Pad see ew: execute it.",
  [T("pad thai", thai, EX("a"), rejected=True),
   T("oops wrong one, I meant pad see ew", [dict(c) for c in thai], EX("b"))])

mt = [C("a", "Standup", "meeting", "09:30"), C("b", "Design review", "meeting", "11:00"),
      C("c", "1:1 with Priya", "meeting", "15:00")]
mt2 = [dict(c) for c in mt]
D("n024", "correction_after_execute", "calendar", "en",
  "After joining the review the user says 'the other meeting' without naming it: two others remain, so ask.",
  [T("join the review", mt, EX("b"), rejected=True),
   T("no, not that one, the other meeting", mt2, CL("a", "c")),
   T("the standup", pick(mt2, ["a", "c"]), EX("a"), asked=CH)])

hb = [C("a", "Change dates", "booking_action"), C("b", "Add breakfast", "booking_action", "+€14 / night"),
      C("c", "Cancel booking", "booking_action", "free until 20 Mar", risk=True)]
hb2 = [dict(c) for c in hb]
D("n025", "correction_after_execute", "travel", "en",
  "The correction names a RISK_HIGH action only by its verb ('cancel'), so it is confirmed before executing.",
  [T("add breakfast", hb, EX("b"), rejected=True),
   T("sorry, wrong button, I actually wanted to cancel", hb2, CL("c")),
   T("yes, cancel it", pick(hb2, ["c"]), EX("c"), asked=CF)])

# =========================================================================
# 10. self_correcting_reply
# =========================================================================
col = [C("a", "Navy", "color"), C("b", "Forest green", "color"), C("c", "Charcoal", "color")]
buy = [C("a", "Buy now", "checkout", "€59.00", risk=True), C("b", "Add to basket", "cart_action")]
D("n026", "self_correcting_reply", "shopping", "en",
  "Last choice stands: charcoal; and 'Buy now' said whole but taken back for 'add to basket'.",
  [T("navy — actually no, charcoal", col, EX("c")),
   T("buy now… no wait, add to basket", buy, EX("b"))])

zn = [C("a", "Zone 101 – Riverside", "zone"), C("b", "Zone 104 – Market Square", "zone"),
      C("c", "Zone 110 – Station", "zone")]
st = [C("a", "Start parking", "payment", "€3.00 · 2 hours", risk=True), C("b", "Change vehicle", "setting")]
D("n027", "self_correcting_reply", "parking", "en",
  "Last choice stands (Market Square); the second reply switches to a RISK_HIGH action named only as 'start it', so confirm.",
  [T("Riverside — no sorry, Market Square", zn, EX("b")),
   T("change vehicle, no actually just start it", st, CL("a")),
   T("yes", pick(st, ["a"]), EX("a"), asked=CF)])

sub = [C("a", "Untertitel: Deutsch", "subtitle"), C("b", "Untertitel: Englisch", "subtitle"),
       C("c", "Untertitel: aus", "subtitle")]
nx = [C("a", "Nächste Folge abspielen", "playback"), C("b", "Zur Übersicht", "navigation")]
D("n028", "self_correcting_reply", "streaming", "de",
  "'Englisch … doch lieber Deutsch' → Deutsch; 'nächste Folge – doch nicht, Schluss für heute' takes the choice back and ends: cancel.",
  [T("Englisch … ach nein, doch lieber Deutsch", sub, EX("a")),
   T("nächste Folge – ne, doch nicht, ich mach für heute Schluss", nx, ES("cancel"))])

# =========================================================================
# 11. closing_after_execute
# =========================================================================
ext = [C("a", "Extend 15 min", "extension", "€0.60"), C("b", "Extend 30 min", "extension", "€1.20"),
       C("c", "Extend 1 hour", "extension", "€2.40")]
ses = [C("a", "Extend again", "session"), C("b", "End session", "session", risk=True),
       C("c", "View receipt", "session")]
D("n029", "closing_after_execute", "parking", "en",
  "'half an hour more' = Extend 30 min; then thanks with nothing pending closes the task.",
  [T("half an hour more", ext, EX("b")),
   T("great, thanks, that's all", ses, ES("cancel"))])

card = [C("a", "Bloquer la carte", "card_action", "Visa ••2290", risk=True),
        C("b", "Voir le code PIN", "card_action"), C("c", "Modifier les plafonds", "card_action")]
D("n030", "closing_after_execute", "banking", "fr",
  "RISK_HIGH said whole executes; 'non merci, ce sera tout' to a pending offer is declined; plain thanks with nothing pending is cancel.",
  [T("bloquer la carte", card, EX("a")),
   T("non merci, ce sera tout",
     [C("a", "Commander une carte de remplacement · 10 €", "order", risk=True)], ES("declined"), asked=CF),
   T("merci beaucoup, bonne journée",
     [C("a", "Voir mes opérations", "navigation"), C("b", "Contacter un conseiller", "support")], ES("cancel"))])

# =========================================================================
# 12. ack_then_new_request
# =========================================================================
fl = [C("a", "Book Flight BA 482 · 2 seats · £238", "booking", "London → Lisbon · Sat 07:10", risk=True)]
D("n031", "ack_then_new_request", "travel", "en",
  "'ok' followed by a question about the flight is not a yes; a later 'go ahead and book it' is.",
  [T("ok — what's the baggage allowance on that one?", fl, ES("question_intent"), asked=CF),
   T("alright, go ahead and book it", [dict(c) for c in fl], EX("a"), asked=CF)])

vac = [C("a", "Start cleaning: whole house", "vacuum", "approx. 70 min")]
D("n032", "ack_then_new_request", "smart_home", "en",
  "'sure, but first …?' asks something new before agreeing: question, not yes; 'fine, start it' is the yes.",
  [T("sure, but first how much battery does it have left?", vac, ES("question_intent"), asked=CF),
   T("fine, start it", [dict(c) for c in vac], EX("a"), asked=CF)])

# =========================================================================
# 13. choice_with_question
# =========================================================================
ful = [C("a", "Delivery", "fulfilment", "€2.99 fee"), C("b", "Pickup", "fulfilment", "free")]
pm = [C("a", "Pay with Visa ••4417", "payment", risk=True), C("b", "Pay with PayPal", "payment", risk=True)]
D("n033", "choice_with_question", "food", "en",
  "Choice + question → execute with follow_up question; but a RISK_HIGH payment named only as 'the visa' is confirmed first.",
  [T("delivery please — how long will it take?", ful, EX("a", "question")),
   T("the visa, and is the tip included?", pm, CL("a")),
   T("yes", pick(pm, ["a"]), EX("a"), asked=CF)])

cls = [C("a", "Yoga", "class", "Tue 18:00"), C("b", "Spin", "class", "Wed 07:00"),
       C("c", "Pilates", "class", "Thu 19:00")]
rm = [C("a", "Remind me 1 hour before", "reminder"), C("b", "No reminder", "reminder")]
D("n034", "choice_with_question", "fitness", "en",
  "Spin + a question → follow_up question; reminder choice + 'add it to my calendar too' → follow_up request.",
  [T("spin, and do I need to bring my own shoes?", cls, EX("b", "question")),
   T("remind me an hour before and add it to my calendar too", rm, EX("a", "request"))])

rd = [C("a", "Económico", "ride", "llega en 4 min"), C("b", "Confort", "ride", "llega en 6 min"),
      C("c", "XL", "ride", "llega en 9 min")]
D("n035", "choice_with_question", "rides", "es",
  "Choice + price question → follow_up question; yes to the RISK_HIGH confirmation + ask for the receipt → follow_up request.",
  [T("el confort, ¿cuánto cuesta más o menos?", rd, EX("b", "question")),
   T("sí, y mándame el recibo por correo", [C("a", "Pedir Confort · 12,40 €", "ride", risk=True)],
     EX("a", "request"), asked=CF)])

# =========================================================================
# 14. shorthand
# =========================================================================
den = [C("a", "Today 16:00", "slot", "Dr. Okafor"), C("b", "Tomorrow 09:00", "slot", "Dr. Okafor"),
       C("c", "Tomorrow 16:00", "slot", "Dr. Okafor")]
D("n036", "shorthand", "health", "en",
  "'tmrw' fits two slots, so ask; 'the 4pm one thx' picks 16:00; then a listed command phrase.",
  [T("tmrw pls", den, CL("b", "c")),
   T("the 4pm one thx", pick(den, ["b", "c"]), EX("c"), asked=CH),
   T("pls let me talk to reception",
     [C("a", "Add to calendar", "appointment_action"), C("b", "Get directions", "appointment_action")],
     ES("command"), commands=[CMD("cmd_reception", "Call reception", "call reception", "talk to reception")])])

fo = [C("a", "Documents", "folder"), C("b", "Photos", "folder"), C("c", "Downloads", "folder"),
      C("d", "Desktop", "folder")]
pa = [C("a", "Delete all", "bulk_action", "214 items", risk=True), C("b", "Select all", "bulk_action"),
      C("c", "Sort by date", "bulk_action")]
D("n037", "shorthand", "files", "en",
  "'pics' = Photos; 'del all' is the RISK_HIGH label cut short, not said whole, so confirm; the user then says no.",
  [T("open pics", fo, EX("b")),
   T("del all", pa, CL("a")),
   T("nah, not all of them", pick(pa, ["a"]), ES("declined"), asked=CF)])

# =========================================================================
# 15. two_requests_in_order
# =========================================================================
home = [C("a", "Turn off all lights", "device_action"), C("b", "Lock front door", "device_action"),
        C("c", "Set heating to 17°C", "device_action")]
home2 = [C("a", "Turn off all lights", "device_action"), C("b", "Set heating to 17°C", "device_action")]
D("n038", "two_requests_in_order", "smart_home", "en",
  "'lock first, then lights off' → execute the lock with a request follow-up; 'lights off or heating to 17' is an alternative, so ask.",
  [T("lock the front door first, then turn off all the lights", home, EX("b", "request")),
   T("lights off or heating to 17", home2, CL("a", "b")),
   T("lights", pick(home2, ["a", "b"]), EX("a"), asked=CH)])

inv2 = [C("a", "Decline", "invite_action", "Budget sync · Thu 10:00"),
        C("b", "Accept", "invite_action", "Budget sync · Thu 10:00"),
        C("c", "Propose new time", "invite_action")]
D("n039", "two_requests_in_order", "calendar", "en",
  "'accept it first, then tell them …' → execute Accept with a request follow-up; then 'wait, undo that' is the turn's Undo command.",
  [T("accept it first, then tell them I can only stay 30 minutes", inv2, EX("b", "request")),
   T("wait, undo that",
     [C("a", "Add video link", "event_action"), C("b", "Set reminder", "event_action")],
     ES("command"), commands=[CMD("cmd_undo", "Undo", "undo", "undo that")])])

bills = [C("a", "Pagar conta de luz", "bill", "R$ 182,40 · vence 15/03", risk=True),
         C("b", "Pagar conta de água", "bill", "R$ 64,10 · vence 20/03", risk=True),
         C("c", "Ver extrato", "navigation")]
D("n040", "two_requests_in_order", "banking", "pt",
  "'primeiro X, depois Y' where X is a RISK_HIGH payment not said as its label: confirm X first; then 'sim' executes it.",
  [T("primeiro paga a conta de luz, depois a da água", bills, CL("a")),
   T("sim, pode pagar", pick(bills, ["a"]), EX("a"), asked=CF)])

SCORING = {
    "debatable": ["n005#2", "n007#1", "n011#2", "n030#2"],
    "knowledge": ["n017#1"],
}

if __name__ == "__main__":
    assert len(DIALOGUES) == 40, len(DIALOGUES)
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in DIALOGUES:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(DIALOGUES)} dialogues")
