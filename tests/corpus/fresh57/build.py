#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh57 blind test set.

Written blind from BRIEF.md: every expectation is what a careful human
assistant would do with the screen and the message, nothing else.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))


def C(id, label, kind, sub=None, risk=False):
    c = {"id": id, "label": label}
    if sub:
        c["sublabel"] = sub
    c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def T(inp, cands, expect, asked=None, rejected=False, commands=None):
    """A turn. cands: list of candidates. expect: dict."""
    return {"input": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


def pick(cands, ids):
    """The screen after a clarify: exactly the offered ids, in that order."""
    by = {c["id"]: c for c in cands}
    return [by[i] for i in ids]


EX = lambda i, fu=None: ({"execute": i, "follow_up": fu} if fu else {"execute": i})
CL = lambda *ids: {"clarify": list(ids)}
ES = lambda r: {"escape": r}
CHOICE, CONF = "ASKED_CHOICE", "ASKED_CONFIRMATION"

D = []  # (category, domain, language, note, [turns])


def dlg(category, domain, language, note, *turns):
    D.append((category, domain, language, note, list(turns)))


# ---------------------------------------------------------------- 1 signed_numbers
tz = [C("a", "UTC−5 (Bogotá)", "timezone"), C("b", "UTC+1 (Lagos)", "timezone"),
      C("c", "UTC+2 (Johannesburg)", "timezone")]
dlg("signed_numbers", "world-clock", "en",
    "'+2' is the UTC offset of option c, not the 2nd row (b). '+3' matches no offset on screen, so the careful "
    "answer is to ask over all three rather than take row 3. Cities chosen without daylight saving so the "
    "labels' offsets are the only truth.",
    T("set my home clock to +2", tz, EX("c"), CHOICE),
    T("and the second clock to +3", tz, CL("a", "b", "c"), CHOICE))

tabs = [C("a", "Tab S1", "tablet", "64 GB · 229 €"), C("b", "Tab S3", "tablet", "256 GB · 449 €"),
        C("c", "Tab S2", "tablet", "128 GB · 329 €")]
warr = [C("a", "+2 Jahre Garantie", "warranty", "49 €"), C("b", "+1 Jahr Garantie", "warranty", "29 €"),
        C("c", "Ohne Zusatzgarantie", "warranty")]
dlg("signed_numbers", "electronics", "de",
    "'S2' is a model code (option c, listed third), not row 2; '+1' is a warranty extension (option b, listed "
    "second), not row 1.",
    T("Ich nehme das S2", tabs, EX("c"), CHOICE),
    T("+1 reicht mir", warr, EX("b"), CHOICE))

days = [C("a", "Keep Mon 3 Jun", "delivery_date"), C("b", "Tue 4 Jun", "delivery_date"),
        C("c", "Thu 6 Jun", "delivery_date")]
lockers = [C("a", "Locker HB-7", "pickup_point", "Central Station"),
           C("b", "Locker PA-1", "pickup_point", "Park Avenue"),
           C("c", "Locker MS-2", "pickup_point", "Market Street")]
dlg("signed_numbers", "parcel-delivery", "en",
    "'+1 day' is an offset from the current Monday date, so Tuesday (b), not row 1. 'MS-2' is a locker code "
    "(c), not row 2 (b).",
    T("push it back +1 day", days, EX("b"), CHOICE),
    T("leave it at MS-2", lockers, EX("c"), CHOICE))

# ---------------------------------------------------------------- 2 changed_value_not_yes
tr150 = [C("a", "Send €150.00 to Maria Lopez", "transfer", "from Checking ·· 2291", risk=True)]
tr115 = [C("a", "Send €115.00 to Maria Lopez", "transfer", "from Checking ·· 2291", risk=True)]
dlg("changed_value_not_yes", "banking", "en",
    "'yes' followed by a different amount (115 vs 150) is a change, not a yes: declined. The new screen "
    "then shows 115 and 'one hundred fifteen' in words is the same value: a yes to the confirmation.",
    T("yes, send her a hundred and fifteen", tr150, ES("declined"), CONF),
    T("yep, one hundred fifteen euros, go", tr115, EX("a"), CONF))

cita = [C("a", "Cita con la Dra. Ruiz", "cita", "jueves 16 de mayo, 10:30")]
recor = [C("a", "Recordatorio por SMS", "recordatorio", "miércoles 15 de mayo, 18:00")]
dlg("changed_value_not_yes", "medical", "es",
    "'a las diez y media' is 10:30 said in words: a yes. 'a las ocho de la tarde' is 20:00 while the reminder "
    "says 18:00: a change, so declined.",
    T("sí, el jueves a las diez y media me va bien", cita, EX("a"), CONF),
    T("mejor a las ocho de la tarde", recor, ES("declined"), CONF))

park = [C("a", "Park until 18:00", "parking_session", "Zone 4 · €6.00", risk=True)]
ext = [C("a", "Extend until 19:00", "parking_session", "+€1.50", risk=True)]
dlg("changed_value_not_yes", "parking", "en",
    "'till 6 pm' is 18:00 in another form: a yes to a paying confirmation. 'till half six' is 18:30, not the "
    "offered 19:00: a change, declined.",
    T("yes, till 6 pm", park, EX("a"), CONF),
    T("extend till half six", ext, ES("declined"), CONF))

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
fares = [C("a", "Standard", "fare", "€39"), C("b", "First Class", "fare", "€79"),
         C("c", "Standard Flex", "fare", "€52")]
dlg("ordinal_word_in_labels", "train", "en",
    "Bare 'first' could be row 1 (Standard) or First Class: ask over both. 'first class' then names b.",
    T("first", fares, CL("a", "b"), CHOICE),
    T("first class please", pick(fares, ["a", "b"]), EX("b"), CHOICE))

sortby = [C("a", "Nearest", "sort_order"), C("b", "Top rated", "sort_order"), C("c", "Cheapest", "sort_order")]
results = [C("a", "Casa Mia", "restaurant", "4.8★ · Italian"), C("b", "Green Bowl", "restaurant", "4.6★ · Salads"),
           C("c", "Top Wok", "restaurant", "4.5★ · Chinese")]
dlg("ordinal_word_in_labels", "restaurant-search", "en",
    "'top rated' is the label of b, not 'the top row' (a). On the results, bare 'top' could be the top row "
    "(Casa Mia) or Top Wok: ask over both.",
    T("sort by top rated", sortby, EX("b"), CHOICE),
    T("top", results, CL("a", "c"), CHOICE))

menu = [C("a", "Secondo del giorno", "portata", "arrosto di vitello"),
        C("b", "Primo del giorno", "portata", "lasagne al forno"),
        C("c", "Dolce", "portata", "tiramisù")]
dlg("ordinal_word_in_labels", "restaurant", "it",
    "On an Italian menu 'il primo' / 'il secondo' are the names of the courses: 'il primo' is b (listed "
    "second), 'il secondo' is a (listed first). Reading them as row numbers would pick the wrong dish.",
    T("per me il primo", menu, EX("b"), CHOICE),
    T("e per mia moglie il secondo", menu, EX("a"), CHOICE))

# ---------------------------------------------------------------- 4 quantity_noun
cafe1 = [C("a", "Cappuccino", "drink", "€3.20"), C("b", "Cappuccino + croissant", "combo", "€5.50"),
         C("c", "Flat white", "drink", "€3.60")]
cafe2 = [C("a", "Blueberry muffin", "pastry", "€2.90"), C("b", "Croissant", "pastry", "€2.40"),
         C("c", "2 croissants + jam", "combo", "€5.20")]
dlg("quantity_noun", "cafe", "en",
    "'two cappuccinos' is 2 × Cappuccino (a), not row 2 and not the combo. '2 croissants' is 2 × Croissant "
    "(b); the bundle c says more (jam).",
    T("two cappuccinos please", cafe1, EX("a"), CHOICE),
    T("and 2 croissants", cafe2, EX("b"), CHOICE))

tix = [C("a", "Adult ticket", "ticket", "€12"), C("b", "Child ticket", "ticket", "€8"),
       C("c", "Family bundle (2 adults + 2 children)", "ticket_bundle", "€36")]
dlg("quantity_noun", "cinema", "en",
    "'3 tickets' fits adult and child tickets alike (and is not row 3 or the 4-ticket bundle): ask. "
    "'3 adults' then names a.",
    T("3 tickets", tix, CL("a", "b"), CHOICE),
    T("3 adults", pick(tix, ["a", "b"]), EX("a"), CHOICE))

gro1 = [C("a", "Avocado", "produce", "€1.20 each"),
        C("b", "Guacamole kit: 3 avocados, lime, chili", "bundle", "€4.99"),
        C("c", "Lime", "produce", "€0.40 each")]
gro2 = [C("a", "Lime", "produce", "€0.40 each"), C("b", "Cilantro bunch", "produce", "€0.99"),
        C("c", "Salsa kit: 2 limes, cilantro, onion", "bundle", "€2.49")]
dlg("quantity_noun", "grocery", "en",
    "'3 avocados' is 3 × Avocado (a), not the kit whose label happens to contain 3 avocados plus more. "
    "'2 limes' likewise is 2 × Lime (a), not the salsa kit.",
    T("3 avocados", gro1, EX("a"), CHOICE),
    T("plus 2 limes", gro2, EX("a"), CHOICE))

# ---------------------------------------------------------------- 5 everyday_verb
player = [C("a", "Pause", "player_control"), C("b", "Next track", "player_control"),
          C("c", "Shuffle", "player_control")]
songmenu = [C("a", "Add to Liked Songs", "song_action"), C("b", "Add to queue", "song_action"),
            C("c", "Share", "song_action")]
dlg("everyday_verb", "music", "en",
    "'skip' is the everyday verb for Next track. 'save this song' is the everyday wording for adding it to "
    "one's liked/saved songs (a); the queue is not saving.",
    T("skip this song", player, EX("b")),
    T("save this one", songmenu, EX("a")))

mail = [C("a", "Archive", "email_action"), C("b", "Delete", "email_action", risk=True),
        C("c", "Mark as unread", "email_action")]
dlg("everyday_verb", "email", "en",
    "'get rid of' fits both Archive and Delete: ask. 'bin it' is the everyday verb for Delete, which is "
    "RISK_HIGH and not said whole: confirm first. 'yes' to the confirmation executes.",
    T("get rid of this email", mail, CL("a", "b")),
    T("bin it", pick(mail, ["a", "b"]), CL("b"), CHOICE),
    T("yes", pick(mail, ["b"]), EX("b"), CONF))

home = [C("a", "Mode nuit", "scène"), C("b", "Verrouiller la porte d'entrée", "action"),
        C("c", "Chauffage à 19 °C", "action")]
home2 = [C("a", "Éteindre toutes les lumières", "action"), C("b", "Baisser les volets", "action"),
         C("c", "Allumer le salon", "action")]
dlg("everyday_verb", "home-automation", "fr",
    "'fermer à clé' is the everyday way to say 'verrouiller' (b). 'couper la lumière partout' is the everyday "
    "way to say switching off all the lights (a).",
    T("ferme la porte à clé", home, EX("b")),
    T("coupe la lumière partout", home2, EX("a")))

# ---------------------------------------------------------------- 6 value_other_way
slots = [C("a", "Mon 10 Jun, 09:00", "slot"), C("b", "Tue 11 Jun, 14:00", "slot"),
         C("c", "Tue 11 Jun, 16:45", "slot")]
dlg("value_other_way", "calendar", "en",
    "'Tuesday afternoon' fits both Tuesday slots: ask. 'quarter to five' is 16:45 (c).",
    T("Tuesday afternoon", slots, CL("b", "c"), CHOICE),
    T("quarter to five", pick(slots, ["b", "c"]), EX("c"), CHOICE))

coif = [C("a", "10:00 AM", "créneau"), C("b", "2:00 PM", "créneau"), C("c", "4:30 PM", "créneau")]
coif2 = [C("a", "Coupe homme", "prestation", "25 €"), C("b", "Coupe + barbe", "prestation", "35 €"),
         C("c", "Coupe enfant", "prestation", "18 €")]
dlg("value_other_way", "hairdresser", "fr",
    "'14 h' is 2:00 PM (b) in the 24-hour form; 'vingt-cinq euros' is the 25 € service (a).",
    T("14 h, c'est parfait", coif, EX("b"), CHOICE),
    T("celle à vingt-cinq euros", coif2, EX("a"), CHOICE))

doa = [C("a", "Doar R$ 25", "doação", risk=True), C("b", "Doar R$ 50", "doação", risk=True),
       C("c", "Doar R$ 100", "doação", risk=True)]
dlg("value_other_way", "charity", "pt",
    "'cinquenta reais' is R$ 50 (b), but donating pays and the label was not said whole: confirm first. "
    "'sim' to the confirmation executes.",
    T("cinquenta reais", doa, CL("b"), CHOICE),
    T("sim, pode doar", pick(doa, ["b"]), EX("b"), CONF))

# ---------------------------------------------------------------- 7 object_alone
files1 = [C("a", "Download invoice_0523.pdf", "file_action"), C("b", "Share beach.jpg", "file_action"),
          C("c", "Rename notes.txt", "file_action")]
files2 = [C("a", "Open report_q1.docx", "file_action"), C("b", "Open report_q2.docx", "file_action"),
          C("c", "Print menu.pdf", "file_action")]
dlg("object_alone", "files", "en",
    "'the invoice' is the object of a only. 'the report' is the object of both a and b: ask.",
    T("the invoice", files1, EX("a")),
    T("now the report", files2, CL("a", "b")))

car1 = [C("a", "Unlock doors", "vehicle_action"), C("b", "Start climate control", "vehicle_action"),
        C("c", "Open charge port", "vehicle_action")]
car2 = [C("a", "Flash lights", "vehicle_action"), C("b", "Honk horn", "vehicle_action"),
        C("c", "Vent windows", "vehicle_action"), C("d", "Close windows", "vehicle_action")]
dlg("object_alone", "car", "en",
    "'charge port' is the object of c only. 'windows' is the object of both c and d: ask.",
    T("charge port", car1, EX("c")),
    T("windows", car2, CL("c", "d")))

bills = [C("a", "Pay phone bill", "payment", "€42.10 · due Fri", risk=True),
         C("b", "View May statement", "document"), C("c", "Download tax certificate", "document")]
dlg("object_alone", "banking", "en",
    "'the phone bill' names only a, but a pays (RISK_HIGH) and the label was not said whole: confirm first. "
    "'yes, go ahead' then executes.",
    T("the phone bill", bills, CL("a")),
    T("yes, go ahead", pick(bills, ["a"]), EX("a"), CONF))

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
sheets = [C("a", "Budget 2024", "spreadsheet"), C("b", "Budget 2023", "spreadsheet"),
          C("c", "Team roster", "spreadsheet")]
dlg("distinguishing_word_plus_kind", "documents", "en",
    "'roster' + 'spreadsheet' (what every item is) names c. 'budget spreadsheet' fits a and b: ask; '2024' "
    "then decides.",
    T("open the roster spreadsheet", sheets, EX("c")),
    T("and the budget spreadsheet", sheets, CL("a", "b")),
    T("2024", pick(sheets, ["a", "b"]), EX("a"), CHOICE))

rides = [C("a", "Economy", "ride", "4 min · €11"), C("b", "Comfort", "ride", "6 min · €15"),
         C("c", "XL", "ride", "9 min · €19")]
cards = [C("a", "Visa ·· 4412", "card"), C("b", "Mastercard ·· 0931", "card"), C("c", "Amex ·· 1002", "card")]
dlg("distinguishing_word_plus_kind", "ride-hailing", "en",
    "'comfort' + 'ride' names b; 'visa' + 'card' names a. The kind word adds nothing and must not block "
    "the match.",
    T("the comfort ride", rides, EX("b"), CHOICE),
    T("pay with the visa card", cards, EX("a"), CHOICE))

afspr = [C("a", "Teamoverleg maandag", "afspraak", "10:00–11:00"),
         C("b", "Klantgesprek dinsdag", "afspraak", "14:00–15:00"),
         C("c", "Teamoverleg donderdag", "afspraak", "10:00–11:00")]
dlg("distinguishing_word_plus_kind", "calendar", "nl",
    "'teamoverleg' + 'afspraak' fits a and c: ask. 'die van donderdag' then names c.",
    T("open de teamoverleg-afspraak", afspr, CL("a", "c")),
    T("die van donderdag", pick(afspr, ["a", "c"]), EX("c"), CHOICE))

# ---------------------------------------------------------------- 9 correction_after_execute
dishes = [C("a", "Pad Thai", "dish", "€12.50"), C("b", "Pad See Ew", "dish", "€12.50"),
          C("c", "Green Curry", "dish", "€13.00")]
dlg("correction_after_execute", "food-delivery", "en",
    "The user picks Pad Thai, then says it was the wrong one and names Pad See Ew: execute b.",
    T("the pad thai please", dishes, EX("a"), CHOICE, rejected=True),
    T("oops, wrong one — I meant the pad see ew", dishes, EX("b"), CHOICE))

album = [C("a", "Archive album", "album_action", "Paris 2019 · 312 photos"),
         C("b", "Delete album", "album_action", "Paris 2019 · 312 photos", risk=True),
         C("c", "Hide album", "album_action", "Paris 2019 · 312 photos")]
dlg("correction_after_execute", "photos", "en",
    "The correction points at Delete ('gone for good') but Delete is RISK_HIGH and not named whole: confirm "
    "first; 'yes, delete it' to the confirmation executes.",
    T("archive it", album, EX("a"), rejected=True),
    T("no, wrong one, I want it gone for good", album, CL("b")),
    T("yes, delete it", pick(album, ["b"]), EX("b"), CONF))

# ---------------------------------------------------------------- 10 self_correcting_reply
shows = [C("a", "19:00", "showtime", "Hall 2"), C("b", "21:30", "showtime", "Hall 2"),
         C("c", "22:15", "showtime", "Hall 5")]
seats = [C("a", "Row F, seats 7–8", "seats"), C("b", "Row H, seats 11–12", "seats"),
         C("c", "Row K, seats 3–4", "seats")]
dlg("self_correcting_reply", "cinema", "en",
    "Each message picks one option and takes it back for another; the last choice stands (b, then c).",
    T("the 7 o'clock — no, actually make it 9:30", shows, EX("b"), CHOICE),
    T("row H... hmm no, K is better", seats, EX("c"), CHOICE))

cars = [C("a", "Compact", "car_class", "Fiat 500 · €34/day"), C("b", "SUV", "car_class", "Hyundai Tucson · €58/day"),
        C("c", "Van", "car_class", "VW Transporter · €72/day")]
cover = [C("a", "Basic cover", "insurance", "included"), C("b", "Full cover", "insurance", "+€12/day")]
dlg("self_correcting_reply", "car-rental", "en",
    "'the SUV — no, actually the compact' ends on a; 'full cover... nah, basic' ends on a.",
    T("the SUV — no, actually the compact is fine", cars, EX("a"), CHOICE),
    T("full cover... nah, basic", cover, EX("a"), CHOICE))

draft = [C("a", "Save draft", "draft_action"), C("b", "Discard draft", "draft_action", risk=True),
         C("c", "Send now", "draft_action", risk=True)]
dlg("self_correcting_reply", "email", "en",
    "The last choice is Discard ('throw it away'), which is RISK_HIGH and not named whole: confirm first. "
    "The first choice (Save) must not be executed.",
    T("save it... actually no, just throw it away", draft, CL("b")),
    T("yes", pick(draft, ["b"]), EX("b"), CONF))

# ---------------------------------------------------------------- 11 closing_after_execute
taxi = [C("a", "Taxi now", "booking", "ETA 5 min · ~€18"), C("b", "Schedule for later", "booking")]
trip = [C("a", "Share trip status", "ride_action"), C("b", "Cancel ride", "ride_action", risk=True)]
dlg("closing_after_execute", "taxi", "en",
    "After the taxi is booked, 'perfect, thanks!' closes with nothing pending: escape cancel. It must not "
    "execute the 'Cancel ride' option.",
    T("now please", taxi, EX("a"), CHOICE),
    T("perfect, thanks!", trip, ES("cancel")))

ritiro = [C("a", "Ritiro in farmacia", "consegna", "pronto da domani 9:00"),
          C("b", "Consegna a domicilio", "consegna", "+3,90 €")]
dopo = [C("a", "Aggiungi un altro farmaco", "azione"), C("b", "Vedi orari della farmacia", "azione")]
dlg("closing_after_execute", "pharmacy", "it",
    "'passo io a ritirarla' = I'll pick it up myself (a). Then thanks + 'è tutto' with nothing pending: cancel.",
    T("passo io a ritirarla", ritiro, EX("a"), CHOICE),
    T("perfetto, grazie, è tutto", dopo, ES("cancel")))

# ---------------------------------------------------------------- 12 ack_then_new_request
room = [C("a", "Book Deluxe Double · 2 nights", "booking", "12–14 Sep · €240", risk=True)]
dlg("ack_then_new_request", "hotel", "en",
    "'ok — does that include breakfast?' acknowledges and asks: not a yes, question_intent. 'alright, book it' "
    "is a yes to the confirmation.",
    T("ok — does that include breakfast?", room, ES("question_intent"), CONF),
    T("alright, book it", room, EX("a"), CONF))

yoga = [C("a", "Book yoga class", "class", "Thu 18:00 · Studio 2")]
gymcmd = [{"id": "my_bookings", "label": "My bookings", "phrases": ["my bookings", "show my bookings"]}]
dlg("ack_then_new_request", "gym", "en",
    "'ok. show my bookings' is an acknowledgement followed by the turn's command, not a yes: escape command. "
    "'ok, book it' on the next screen is a yes.",
    T("ok. show my bookings", yoga, ES("command"), CONF, commands=gymcmd),
    T("ok, book it", yoga, EX("a"), CONF))

# ---------------------------------------------------------------- 13 choice_with_question
hood = [C("a", "Blue hoodie", "product", "M · €49.90"), C("b", "Grey hoodie", "product", "M · €49.90"),
        C("c", "Black hoodie", "product", "M · €49.90")]
order = [C("a", "Place order", "checkout", "€49.90 + shipping", risk=True)]
cartcmd = [{"id": "cart", "label": "Show cart", "phrases": ["show cart", "my cart", "view cart"]}]
dlg("choice_with_question", "clothing", "en",
    "Grey hoodie chosen and a question asked: execute b with follow_up question. On the order confirmation, "
    "'show my cart first' is the command, not a yes; 'place order' (the label, and a yes) then executes.",
    T("the grey one — is it machine washable?", hood, EX("b", "question"), CHOICE),
    T("wait, show my cart first", order, ES("command"), CONF, commands=cartcmd),
    T("ok, place order", order, EX("a"), CONF))

docs = [C("a", "Dr Ames", "slot", "Thu 10:30"), C("b", "Dr Patel", "slot", "Thu 15:00")]
dlg("choice_with_question", "dentist", "en",
    "A question alone is question_intent. A choice followed by a request (reminder) is execute b with "
    "follow_up request.",
    T("which of them speaks Spanish?", docs, ES("question_intent"), CHOICE),
    T("Dr Patel then — and send me a reminder the day before please", docs, EX("b", "request"), CHOICE))

sauv = [C("a", "Supprimer la sauvegarde de mars", "sauvegarde", "12,4 Go", risk=True),
        C("b", "Supprimer la sauvegarde d'avril", "sauvegarde", "13,1 Go", risk=True),
        C("c", "Télécharger la sauvegarde d'avril", "sauvegarde", "13,1 Go")]
dlg("choice_with_question", "cloud-backup", "fr",
    "'télécharge celle d'avril' names c (the verb rules out b) + a question: execute c, follow_up question. "
    "'supprime celle de mars' names a, RISK_HIGH and not said whole: confirm first even though a question "
    "follows; 'oui' then executes.",
    T("télécharge celle d'avril, elle pèse combien ?", sauv, EX("c", "question")),
    T("et supprime celle de mars, ça libère combien de place ?", sauv, CL("a")),
    T("oui", pick(sauv, ["a"]), EX("a"), CONF))

# ---------------------------------------------------------------- 14 shorthand
desk = [C("a", "Wednesday 9:00", "slot"), C("b", "Thursday 9:00", "slot"), C("c", "Friday 9:00", "slot")]
rooms = [C("a", "Conference room A", "room", "8 seats"), C("b", "Phone booth 2", "room", "1 seat"),
         C("c", "Lounge", "room", "open area")]
dlg("shorthand", "office", "en",
    "'weds' = Wednesday (a); 'conf rm' = Conference room (a).",
    T("weds pls", desk, EX("a"), CHOICE),
    T("conf rm", rooms, EX("a"), CHOICE))

dr2 = [C("a", "Delete draft", "draft_action", risk=True), C("b", "Send draft", "draft_action", risk=True),
       C("c", "Schedule send", "draft_action")]
dlg("shorthand", "email", "en",
    "'del' = delete, but Delete draft is RISK_HIGH and 'del it' is not the label whole: confirm first. 'y' is "
    "texted yes to the confirmation.",
    T("del it", dr2, CL("a")),
    T("y", pick(dr2, ["a"]), EX("a"), CONF))

# ---------------------------------------------------------------- 15 two_requests_in_order
appl = [C("a", "Start dishwasher", "appliance", "Eco · 3 h 10 min"),
        C("b", "Start washing machine", "appliance", "Cotton 40° · 1 h 50 min"),
        C("c", "Start dryer", "appliance", "Cupboard dry · 1 h 30 min")]
dlg("two_requests_in_order", "home-appliances", "en",
    "'dishwasher or the washing machine' offers alternatives: ask. 'dishwasher first, then the washing "
    "machine' executes a with a request follow-up.",
    T("run the dishwasher or the washing machine", appl, CL("a", "b")),
    T("dishwasher first, then the washing machine", pick(appl, ["a", "b"]), EX("a", "request"), CHOICE))

bank = [C("a", "Stromrechnung bezahlen", "zahlung", "64,00 € · fällig 30.5.", risk=True),
        C("b", "Kontoauszug Mai herunterladen", "dokument"), C("c", "Dauerauftrag anlegen", "zahlung")]
bank2 = [C("a", "Kontoauszug Mai herunterladen", "dokument"), C("b", "Dauerauftrag anlegen", "zahlung")]
dlg("two_requests_in_order", "banking", "de",
    "The first request says the RISK_HIGH label whole ('Stromrechnung bezahlen'), so it executes with a "
    "request follow-up for the statement; the next turn picks the statement.",
    T("Erst die Stromrechnung bezahlen, dann den Kontoauszug für Mai herunterladen", bank, EX("a", "request")),
    T("jetzt den Kontoauszug", bank2, EX("a")))

# ---------------------------------------------------------------- scoring
DEBATABLE = ["g001#2", "g008#2", "g009#2", "g014#1", "g040#1"]
KNOWLEDGE = ["g006#2", "g009#1", "g013#2"]

# ---------------------------------------------------------------- write
ORDER = ["signed_numbers", "changed_value_not_yes", "ordinal_word_in_labels", "quantity_noun", "everyday_verb",
         "value_other_way", "object_alone", "distinguishing_word_plus_kind", "correction_after_execute",
         "self_correcting_reply", "closing_after_execute", "ack_then_new_request", "choice_with_question",
         "shorthand", "two_requests_in_order"]
assert [d[0] for d in D] == sorted((d[0] for d in D), key=ORDER.index)

out = []
for n, (cat, dom, lang, note, turns) in enumerate(D, 1):
    did = f"g{n:03d}"
    dialogue = []
    for k, t in enumerate(turns, 1):
        opts = {"optionSetId": f"{did}-os{k}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
        if t["asked"]:
            opts["asked"] = t["asked"]
        turn = {"input": t["input"], "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{dom}"},
                "options": opts}
        if t["commands"]:
            turn["commands"] = t["commands"]
        turn["expect"] = t["expect"]
        if "execute" in t["expect"]:
            turn["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                                      "choiceId": t["expect"]["execute"]}
        dialogue.append(turn)
    out.append({"id": did, "category": cat, "domain": dom, "language": lang, "note": note, "dialogue": dialogue})

with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
    for d in out:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")
with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
    json.dump({"debatable": DEBATABLE, "knowledge": KNOWLEDGE}, f, ensure_ascii=False, indent=1)
print(f"wrote {len(out)} dialogues")
