#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh63 blind set (written from BRIEF.md only)."""
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


def pick(cands, ids):
    by = {c["id"]: c for c in cands}
    return [by[i] for i in ids]


def EX(i, fu=None):
    e = {"execute": i}
    if fu:
        e["follow_up"] = fu
    return e


def CL(*ids):
    return {"clarify": list(ids)}


def ES(r):
    return {"escape": r}


def T(inp, cands, expect, asked=None, rejected=False, commands=None):
    return {"inp": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


DIALOGUES = []


def D(id, cat, domain, lang, note, *turns):
    DIALOGUES.append((id, cat, domain, lang, note, turns))


# ---------------------------------------------------------------- 1 signed_numbers
zones1 = [C("a", "UTC-5 · New York", "city"), C("b", "UTC+0 · London", "city"),
          C("c", "UTC+2 · Athens", "city"), C("d", "UTC+9 · Tokyo", "city")]
zones2 = [C("a", "UTC+9 · Tokyo", "city"), C("b", "UTC+0 · London", "city"),
          C("c", "UTC-1 · Azores", "city"), C("d", "UTC-5 · New York", "city")]
D("q001", "signed_numbers", "world_clock", "en",
  "'+2' and '-1' are UTC offsets printed in the labels, not list positions (position 2 is London, position 1 is Tokyo).",
  T("add the +2 one", zones1, EX("c")),
  T("and the -1 one too", zones2, EX("c")))

levels = [C("a", "Ebene 2", "level"), C("b", "Ebene 1", "level"), C("c", "Erdgeschoss", "level"),
          C("d", "Ebene -1", "level"), C("e", "Ebene -2", "level")]
ext = [C("a", "+30 Min. verlängern", "extension", "neues Ende 15:10"),
       C("b", "+1 Std. verlängern", "extension", "neues Ende 15:40"),
       C("c", "+2 Std. verlängern", "extension", "neues Ende 16:40")]
D("q002", "signed_numbers", "parking", "de",
  "'minus eins' is the level -1, not the first row; 'plus eine Stunde' is the +1 h extension, not the first option (+30 min).",
  T("minus eins", levels, EX("d"), asked="ASKED_CHOICE"),
  T("plus eine Stunde bitte", ext, EX("b")))

rooms = [C("a", "Room 1A", "meeting room", "4 seats · 2nd floor"),
         C("b", "Room 3B", "meeting room", "8 seats · 3rd floor"),
         C("c", "Room 3C", "meeting room", "6 seats · 3rd floor")]
D("q003", "signed_numbers", "coworking", "en",
  "'room 3' is part of a room code that two rooms share (3B, 3C); it is not position 3, so ask between the two 3x rooms.",
  T("room 3 please", rooms, CL("b", "c")),
  T("the 8-seater", pick(rooms, ["b", "c"]), EX("b"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 2 changed_value_not_yes
D("q004", "changed_value_not_yes", "restaurant", "en",
  "A different time in reply to a confirmation is a change, not a yes; 'eight' for 20:00 is the same value and a yes.",
  T("make it 8 instead", [C("a", "Table for 2 · Fri 19:30", "reservation")], ES("declined"), asked="ASKED_CONFIRMATION"),
  T("yes, eight's perfect", [C("a", "Table for 2 · Fri 20:00", "reservation")], EX("a"), asked="ASKED_CONFIRMATION"))

D("q005", "changed_value_not_yes", "banking", "en",
  "Paying transfer: 'two hundred' against £250 is a changed amount, not a yes; against £200 it is a yes to the confirmation.",
  T("only two hundred this time", [C("a", "Send £250 to Jamie Ortiz", "transfer", "from Everyday account", risk=True)],
    ES("declined"), asked="ASKED_CONFIRMATION"),
  T("yep, two hundred, go", [C("a", "Send £200 to Jamie Ortiz", "transfer", "from Everyday account", risk=True)],
    EX("a"), asked="ASKED_CONFIRMATION"))

D("q006", "changed_value_not_yes", "clinic", "es",
  "'Mejor el jueves' changes the date of a Tuesday slot: not a yes. 'Jueves a las diez y cuarto' restates 13 March 10:15 in words: a yes.",
  T("mejor el jueves a la misma hora", [C("a", "Cita con la Dra. Ruiz", "appointment", "martes 11 de marzo · 10:15")],
    ES("declined"), asked="ASKED_CONFIRMATION"),
  T("sí, el jueves a las diez y cuarto, perfecto", [C("a", "Cita con la Dra. Ruiz", "appointment", "jueves 13 de marzo · 10:15")],
    EX("a"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
fares = [C("a", "Standard", "fare", "£34 · 08:12"), C("b", "First class", "fare", "£61 · 08:12"),
         C("c", "Standard flexi", "fare", "£48 · 08:12")]
D("q007", "ordinal_word_in_labels", "trains", "en",
  "'first' is both position 1 (Standard) and the word of 'First class'; ask. 'first class' then settles it.",
  T("first please", fares, CL("a", "b"), asked="ASKED_CHOICE"),
  T("first class", pick(fares, ["a", "b"]), EX("b"), asked="ASKED_CHOICE"))

songs = [C("a", "Second Nature", "song", "Lena Hart"), C("b", "Last Night", "song", "The Hollows"),
         C("c", "Slow Down", "song", "Mira")]
D("q008", "ordinal_word_in_labels", "music", "en",
  "'the second' could be row 2 (Last Night) or the song called Second Nature; ask, then the title decides.",
  T("play the second", songs, CL("a", "b")),
  T("Second Nature", pick(songs, ["a", "b"]), EX("a"), asked="ASKED_CHOICE"))

dishes = [C("a", "Segundo plato: pollo asado", "dish"), C("b", "Primer plato: sopa de ajo", "dish"),
          C("c", "Postre: flan casero", "dish")]
D("q009", "ordinal_word_in_labels", "restaurant", "es",
  "'el primero' can be the first row (segundo plato) or the 'primer plato'; ask. 'La sopa' names the first course.",
  T("el primero", dishes, CL("a", "b"), asked="ASKED_CHOICE"),
  T("la sopa", pick(dishes, ["a", "b"]), EX("b"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 4 quantity_noun
tickets = [C("a", "Adult ticket", "ticket", "€12"), C("b", "2 tickets + large popcorn", "ticket", "€29"),
           C("c", "Child ticket", "ticket", "€8")]
snacks = [C("a", "Popcorn", "snack", "€5"), C("b", "Popcorn + 2 drinks", "snack", "€11"), C("c", "Drink", "snack", "€3.50")]
D("q010", "quantity_noun", "cinema", "en",
  "'two adult tickets' is a count of the adult ticket, not the '2 tickets + popcorn' bundle; '2 drinks' is the drink, not 'popcorn + 2 drinks'.",
  T("two adult tickets", tickets, EX("a")),
  T("2 drinks", snacks, EX("c")))

cafe = [C("a", "Flat white", "item", "£3.40"), C("b", "2 flat whites + 2 croissants", "item", "£9.50"),
        C("c", "Croissant", "item", "£2.60"), C("d", "Oat latte", "item", "£3.70")]
D("q011", "quantity_noun", "cafe", "en",
  "'two coffees' fits both coffee drinks (not the bundle) so ask; 'flat whites' then picks the single flat white; '3 croissants' is the croissant, not the bundle.",
  T("two coffees", cafe, CL("a", "d")),
  T("flat whites", pick(cafe, ["a", "d"]), EX("a"), asked="ASKED_CHOICE"),
  T("and 3 croissants", cafe, EX("c")))

ferry = [C("a", "Car + up to 2 passengers", "ticket", "£89"), C("b", "Foot passenger", "ticket", "£18"),
         C("c", "Bicycle", "ticket", "£6")]
D("q012", "quantity_noun", "ferry", "en",
  "'3 passengers' is three foot-passenger tickets, not the car ticket whose label also mentions passengers; '2 bikes' is the bicycle ticket.",
  T("3 passengers", ferry, EX("b")),
  T("and 2 bikes", ferry, EX("c")))

# ---------------------------------------------------------------- 5 everyday_verb
home = [C("a", "Lower blinds", "action"), C("b", "Eco heating", "action"), C("c", "Lock front door", "action"),
        C("d", "Arm alarm", "action")]
scene_cmd = [{"id": "scenes", "label": "Scenes", "phrases": ["show scenes", "my scenes", "scenes"]}]
D("q013", "everyday_verb", "smart_home", "en",
  "'close the blinds' = Lower blinds; 'switch the alarm on' = Arm alarm; the last turn says the Scenes command.",
  T("close the blinds", home, EX("a")),
  T("switch the alarm on", home, EX("d")),
  T("show me my scenes", home, ES("command"), commands=scene_cmd))

tel = [C("a", "Add credit", "action", "balance £1.20"), C("b", "Change plan", "action"),
       C("c", "Cancel line", "action", "07700 900123", risk=True), C("d", "Roaming settings", "action")]
D("q014", "everyday_verb", "telecom", "en",
  "'top up' is Add credit. 'get rid of my line' means Cancel line, which is RISK_HIGH and not said whole: confirm; the user then backs out.",
  T("top up my phone", tel, EX("a")),
  T("and get rid of this line", tel, CL("c")),
  T("actually no, leave it", pick(tel, ["c"]), ES("declined"), asked="ASKED_CONFIRMATION"))

film1 = [C("a", "Lecture", "action", "Le Grand Bleu"), C("b", "Ajouter à ma liste", "action", "Le Grand Bleu"),
         C("c", "Télécharger", "action", "Le Grand Bleu"), C("d", "Bande-annonce", "action", "Le Grand Bleu")]
film2 = [C("a", "Lecture", "action", "Amélie"), C("b", "Ajouter à ma liste", "action", "Amélie"),
         C("c", "Télécharger", "action", "Amélie"), C("d", "Bande-annonce", "action", "Amélie")]
D("q015", "everyday_verb", "streaming", "fr",
  "'lance le film' = Lecture (not the trailer). 'garde-le pour plus tard' fits both saving to my list and downloading: ask.",
  T("lance le film", film1, EX("a")),
  T("garde-le pour plus tard", film2, CL("b", "c")),
  T("dans ma liste, ça suffit", pick(film2, ["b", "c"]), EX("b"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 6 value_other_way
spin = [C("a", "Spin · 06:30", "class"), C("b", "Spin · 12:15", "class"), C("c", "Spin · 18:30", "class")]
spin2 = [C("a", "Spin · 06:30", "class", "Thursday"), C("b", "Spin · 12:15", "class", "Thursday"),
         C("c", "Spin · 18:30", "class", "Thursday")]
D("q016", "value_other_way", "gym", "en",
  "'quarter past twelve' = 12:15. 'half six' fits both 06:30 and 18:30: ask; 'the evening one' is 18:30.",
  T("the quarter past twelve one", spin, EX("b")),
  T("half six on thursday", spin2, CL("a", "c")),
  T("the evening one", pick(spin2, ["a", "c"]), EX("c"), asked="ASKED_CHOICE"))

sizes = [C("a", "Camiseta básica · P", "size"), C("b", "Camiseta básica · M", "size"), C("c", "Camiseta básica · G", "size")]
deliv = [C("a", "Entrega sáb. 15/03", "delivery"), C("b", "Entrega seg. 17/03", "delivery")]
D("q017", "value_other_way", "shopping", "pt",
  "'médio' is size M (P/M/G sizing); 'segunda-feira' is 'seg.'.",
  T("tamanho médio", sizes, EX("b")),
  T("pode ser na segunda-feira", deliv, EX("b")))

dates = [C("a", "Fri 2025-04-04", "pick-up date"), C("b", "Thu 2025-04-03", "pick-up date"),
         C("c", "Sat 2025-04-05", "pick-up date")]
times = [C("a", "09:00", "pick-up time"), C("b", "12:00", "pick-up time"), C("c", "17:00", "pick-up time")]
D("q018", "value_other_way", "car_rental", "en",
  "'the 3rd of April' is 2025-04-03 (not position 3); 'five in the evening' is 17:00.",
  T("the 3rd of April", dates, EX("b"), asked="ASKED_CHOICE"),
  T("around five in the evening", times, EX("c"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 7 object_alone
bill1 = [C("a", "Download invoice", "action", "March 2025"), C("b", "Change payment method", "action"),
         C("c", "Contact support", "action")]
bill2 = [C("a", "Download invoice", "action", "April 2025"), C("b", "Email invoice", "action", "April 2025"),
         C("c", "Update address", "action")]
D("q019", "object_alone", "utilities", "en",
  "'the invoice' alone picks Download invoice when it is the only invoice action; with Email invoice also there, ask.",
  T("the invoice", bill1, EX("a")),
  T("just the invoice", bill2, CL("a", "b")),
  T("email it to me", pick(bill2, ["a", "b"]), EX("b"), asked="ASKED_CHOICE"))

drive = [C("a", "Rename folder", "action", "Holiday 2024"), C("b", "Empty trash", "action", "312 files", risk=True),
         C("c", "Share link", "action", "Holiday 2024")]
D("q020", "object_alone", "cloud_drive", "en",
  "'the link' = Share link. 'the trash' points only at Empty trash, which is RISK_HIGH: confirm; 'yes, empty it' to the confirmation executes.",
  T("the link", drive, EX("c")),
  T("now the trash", drive, CL("b")),
  T("yes, empty it", pick(drive, ["b"]), EX("b"), asked="ASKED_CONFIRMATION"))

lib = [C("a", "Boek verlengen", "action", "De avond is ongemak · terug vóór 14 mei"),
       C("b", "Reservering annuleren", "action", "Het diner", risk=True),
       C("c", "Boete betalen", "action", "€ 2,40", risk=True)]
D("q021", "object_alone", "library", "nl",
  "'het boek' = Boek verlengen (only action on the book). 'de boete' points only at Boete betalen, a payment: confirm first; 'ja, doe maar' confirms.",
  T("het boek graag", lib, EX("a")),
  T("en de boete", lib, CL("c")),
  T("ja, doe maar", pick(lib, ["c"]), EX("c"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
files1 = [C("a", "Budget 2023.xlsx", "spreadsheet"), C("b", "Budget 2024.xlsx", "spreadsheet"),
          C("c", "Budget draft.xlsx", "spreadsheet")]
files2 = [C("a", "Budget Q1.xlsx", "spreadsheet"), C("b", "Budget Q2.xlsx", "spreadsheet"),
          C("c", "Invoices Q1.xlsx", "spreadsheet")]
D("q022", "distinguishing_word_plus_kind", "files", "en",
  "'the 2024 spreadsheet': 2024 tells it apart, 'spreadsheet' is every option's kind. 'the budget spreadsheet' fits two files: ask.",
  T("open the 2024 spreadsheet", files1, EX("b")),
  T("the budget spreadsheet", files2, CL("a", "b")),
  T("never mind, I'll find it myself", pick(files2, ["a", "b"]), ES("cancel"), asked="ASKED_CHOICE"))

pizzas = [C("a", "Margherita", "pizza", "€7.50"), C("b", "Diavola", "pizza", "€9.00"), C("c", "Capricciosa", "pizza", "€9.50")]
drinks = [C("a", "Birra Moretti 33 cl", "drink"), C("b", "Birra Ichnusa 33 cl", "drink"), C("c", "Coca-Cola 33 cl", "drink")]
D("q023", "distinguishing_word_plus_kind", "food_delivery", "it",
  "'la pizza diavola' = Diavola ('pizza' is just the kind). 'una birra' fits both beers: ask; 'Ichnusa' decides.",
  T("la pizza diavola", pizzas, EX("b")),
  T("e una birra", drinks, CL("a", "b")),
  T("Ichnusa", pick(drinks, ["a", "b"]), EX("b"), asked="ASKED_CHOICE"))

vet = [C("a", "Dr. Patel · Tue 9:40", "appointment"), C("b", "Dr. Owens · Tue 11:00", "appointment"),
       C("c", "Dr. Patel · Fri 16:20", "appointment")]
D("q024", "distinguishing_word_plus_kind", "vet", "en",
  "'the Owens appointment' names one vet; nothing pending afterwards, so thanks closes.",
  T("the Owens appointment", vet, EX("b")),
  T("cheers, that's all I needed", vet, ES("cancel")))

# ---------------------------------------------------------------- 9 correction_after_execute
eps = [C("a", "Ep. 41 · Sleep science", "episode"), C("b", "Ep. 42 · Coffee myths", "episode"),
       C("c", "Ep. 43 · Urban foxes", "episode")]
D("q025", "correction_after_execute", "podcasts", "en",
  "Episode 43 plays, then the user says it was the wrong one and names the coffee episode.",
  T("put on episode 43", eps, EX("c"), rejected=True),
  T("wrong one sorry, I meant the coffee one", eps, EX("b")))

lights = [C("a", "Licht Küche", "light"), C("b", "Licht Wohnzimmer", "light"), C("c", "Licht Schlafzimmer", "light")]
D("q026", "correction_after_execute", "smart_home", "de",
  "Kitchen light goes on; the user corrects to the living room.",
  T("Küche an", lights, EX("a"), rejected=True),
  T("nee, falsch – Wohnzimmer meinte ich", lights, EX("b")))

subs = [C("a", "Pause subscription", "action", "up to 3 months"), C("b", "Switch to yearly", "action", "€59/year"),
        C("c", "Cancel subscription", "action", "ends 30 June", risk=True)]
D("q027", "correction_after_execute", "magazine", "en",
  "Pause was the wrong one; the correction points at Cancel subscription (RISK_HIGH, not said whole): confirm, then yes executes.",
  T("pause it", subs, EX("a"), rejected=True),
  T("no, not pause, I want to stop it for good", subs, CL("c")),
  T("yes", pick(subs, ["c"]), EX("c"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 10 self_correcting_reply
rides = [C("a", "Standard", "ride", "4 min · €14"), C("b", "XL", "ride", "9 min · €22"), C("c", "Comfort", "ride", "6 min · €18")]
D("q028", "self_correcting_reply", "taxi", "en",
  "XL is taken back for Standard; the following paid request is confirmed with a plain yes.",
  T("XL — actually no, standard's fine", rides, EX("a"), asked="ASKED_CHOICE"),
  T("yes go", [C("a", "Request Standard ride", "ride", "€14 · pickup in 4 min", risk=True)], EX("a"),
    asked="ASKED_CONFIRMATION"))

hroom = [C("a", "Chambre double · vue jardin", "room", "118 €"), C("b", "Chambre double · vue mer", "room", "149 €"),
         C("c", "Suite junior", "room", "210 €")]
D("q029", "self_correcting_reply", "hotel", "fr",
  "Sea view is taken back for the garden view; then thanks with nothing pending closes.",
  T("la vue mer… non, finalement côté jardin, c'est moins cher", hroom, EX("a")),
  T("parfait, merci !", hroom, ES("cancel")))

slots = [C("a", "Monday 9:00", "slot"), C("b", "Tuesday 9:00", "slot"), C("c", "Wednesday 9:00", "slot"),
         C("d", "Thursday 9:00", "slot")]
D("q030", "self_correcting_reply", "salon", "en",
  "Monday is taken back, but the replacement is 'Wednesday or Thursday': ask between those two.",
  T("Monday — hmm no, Wednesday or Thursday would be better", slots, CL("c", "d")),
  T("Thursday", pick(slots, ["c", "d"]), EX("d"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 11 closing_after_execute
alarms = [C("a", "6:30", "alarm"), C("b", "7:00", "alarm"), C("c", "7:15", "alarm")]
D("q031", "closing_after_execute", "alarm", "en",
  "A thanks that carries a new choice is not a closing; the later 'that's everything' is.",
  T("seven o'clock", alarms, EX("b")),
  T("thanks! and 7:15 as a backup", alarms, EX("c")),
  T("perfect, that's everything", alarms, ES("cancel")))

pharm = [C("a", "Pick up in store", "delivery", "today from 18:00"), C("b", "Home delivery", "delivery", "tomorrow")]
D("q032", "closing_after_execute", "pharmacy", "en",
  "'bring it to my house' is home delivery; then thanks with nothing pending.",
  T("can you just bring it to my house", pharm, EX("b")),
  T("brilliant, thanks, that's all", pharm, ES("cancel")))

# ---------------------------------------------------------------- 12 ack_then_new_request
late = [C("a", "Late checkout until 14:00", "extra", "€20", risk=True)]
D("q033", "ack_then_new_request", "hotel", "en",
  "'ok, and is breakfast included?' acknowledges then asks: not a yes. A clear yes on the next confirmation executes.",
  T("ok, and is breakfast included?", late, ES("question_intent"), asked="ASKED_CONFIRMATION"),
  T("great, yes please go ahead", late, EX("a"), asked="ASKED_CONFIRMATION"))

oil = [C("a", "Oil change · Sat 10:00", "booking", "Garage Meyer")]
price_cmd = [{"id": "prices", "label": "Price list", "phrases": ["price list", "show prices", "what does it cost"]}]
D("q034", "ack_then_new_request", "auto_repair", "en",
  "'right, show me the price list first' is the Price list command, not a yes; 'got it, can I wait there?' is a question; then 'ok, book it'.",
  T("right, show me the price list first", oil, ES("command"), asked="ASKED_CONFIRMATION", commands=price_cmd),
  T("got it. can I wait there while they do it?", oil, ES("question_intent"), asked="ASKED_CONFIRMATION"),
  T("ok, book it", oil, EX("a"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 13 choice_with_question
jackets = [C("a", "Rain jacket · navy", "product", "£65"), C("b", "Rain jacket · olive", "product", "£65"),
           C("c", "Fleece · grey", "product", "£40")]
ship = [C("a", "Standard delivery", "shipping", "free · 3-5 days"), C("b", "Express", "shipping", "£4.99 · next day")]
D("q035", "choice_with_question", "shopping", "en",
  "Choice + question ('does it run small?'), then choice + request (leave with a neighbour).",
  T("the olive one — does it run small?", jackets, EX("b", "question")),
  T("express, and can you leave it with a neighbour if I'm out?", ship, EX("b", "request")))

seats = [C("a", "Platea · fila F", "seat", "48 €"), C("b", "Galleria · fila B", "seat", "32 €"),
         C("c", "Palco 3", "seat", "60 €")]
D("q036", "choice_with_question", "theatre", "it",
  "A question alone about the stalls is not a choice; then a choice of the gallery plus a question about the lift.",
  T("dalla platea si vede bene?", seats, ES("question_intent")),
  T("va bene, prendo la galleria. C'è l'ascensore?", seats, EX("b", "question")))

# ---------------------------------------------------------------- 14 shorthand
dent = [C("a", "Today 3pm", "slot"), C("b", "Tomorrow 10am", "slot"), C("c", "Fri 2pm", "slot")]
dact = [C("a", "Cancel appointment", "action", risk=True), C("b", "Reschedule", "action"),
        C("c", "Add to calendar", "action")]
D("q037", "shorthand", "dentist", "en",
  "'tmrw' = Tomorrow; 'add to cal' = Add to calendar.",
  T("tmrw pls", dent, EX("b")),
  T("add to cal", dact, EX("c")))

mail = [C("a", "Reply", "action"), C("b", "Reply all", "action"), C("c", "Forward", "action"),
        C("d", "Delete", "action", "Re: team lunch", risk=True)]
D("q038", "shorthand", "email", "en",
  "'fwd' = Forward. 'del' points at Delete (RISK_HIGH, not said whole): confirm; 'ya' is a yes to the confirmation.",
  T("fwd pls", mail, EX("c")),
  T("del", mail, CL("d")),
  T("ya", pick(mail, ["d"]), EX("d"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 15 two_requests_in_order
tv = [C("a", "Mute TV", "action"), C("b", "Dim lights", "action"), C("c", "Start movie", "action", "Dune: Part Two")]
D("q039", "two_requests_in_order", "home_cinema", "en",
  "'X first, then Y' executes X with a request follow-up; 'X or Y' is asked.",
  T("mute the TV first, then dim the lights", tv, EX("a", "request")),
  T("now dim the lights or just start the movie", tv, CL("b", "c")),
  T("start the movie", pick(tv, ["b", "c"]), EX("c"), asked="ASKED_CHOICE"))

bills = [C("a", "Pay electricity bill", "payment", "£62.10", risk=True),
         C("b", "Pay water bill", "payment", "£28.40", risk=True),
         C("c", "Download statement", "action", "May 2025")]
D("q040", "two_requests_in_order", "banking", "en",
  "Statement first (executed, request follow-up for the bill); 'the water one' is a RISK_HIGH payment not said whole: confirm, then yes.",
  T("download the statement first, then pay the water bill", bills, EX("c", "request")),
  T("ok now the water one", bills, CL("b")),
  T("yes", pick(bills, ["b"]), EX("b"), asked="ASKED_CONFIRMATION"))

SCORING = {
    "debatable": ["q007#1", "q008#1", "q012#1", "q015#2", "q004#1", "q032#1"],
    "knowledge": ["q016#2", "q017#1"],
}


def build():
    out = []
    for did, cat, domain, lang, note, turns in DIALOGUES:
        dl = []
        for n, t in enumerate(turns, 1):
            opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT",
                    "candidates": json.loads(json.dumps(t["cands"]))}
            if t["asked"]:
                opts["asked"] = t["asked"]
            turn = {"input": t["inp"],
                    "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{domain}"},
                    "options": opts}
            if t["commands"]:
                turn["commands"] = t["commands"]
            turn["expect"] = t["expect"]
            if "execute" in t["expect"]:
                turn["record_outcome"] = {
                    "kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                    "choiceId": t["expect"]["execute"]}
            dl.append(turn)
        out.append({"id": did, "category": cat, "domain": domain, "language": lang,
                    "dialogue": dl, "note": note})
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
