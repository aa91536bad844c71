#!/usr/bin/env python3
"""Blind test set fresh70: 40 dialogues written by hand from BRIEF.md.

Writes corpus.jsonl and scoring.json next to this file.
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


def X(id, follow_up=None):
    e = {"execute": id}
    if follow_up:
        e["follow_up"] = follow_up
    return e


def Q(*ids):
    return {"clarify": list(ids)}


def E(reason):
    return {"escape": reason}


def T(inp, cands, expect, asked=None, rejected=False, commands=None):
    return {"input": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


CONF = "ASKED_CONFIRMATION"
CHOICE = "ASKED_CHOICE"

D = []


def dlg(id, category, domain, language, note, turns):
    D.append(dict(id=id, category=category, domain=domain, language=language, note=note, turns=turns))


# ---------------------------------------------------------------- 1 signed_numbers
therm = [C("a", "Raise by 3 °C", "adjustment"), C("b", "Lower by 1 °C", "adjustment"),
         C("c", "Raise by 1 °C", "adjustment")]
progs = [C("a", "Program P3", "program", "Away"), C("b", "Program P1", "program", "Home"),
         C("c", "Program P2", "program", "Night")]
dlg("x001", "signed_numbers", "smart_home", "en",
    "'+1' is the offset of 'Raise by 1 °C' (third), not position 1; 'P2' is a code naming the third option, not position 2.",
    [T("+1", therm, X("c")),
     T("switch to P2 for tonight", progs, X("c"))])

tz = [C("a", "UTC−5", "timezone", "New York"), C("b", "UTC+1", "timezone", "Lagos"),
      C("c", "UTC+2", "timezone", "Athens"), C("d", "UTC+2", "timezone", "Cairo")]
dlg("x002", "signed_numbers", "calendar", "en",
    "'+2' is an offset shared by two zones (not position 2 = Lagos), so ask between them; the city then decides.",
    [T("the +2 one", tz, Q("c", "d"), asked=CHOICE),
     T("Athens", [tz[2], tz[3]], X("c"), asked=CHOICE)])

plantas = [C("a", "Planta -2", "level", "34 plazas libres"), C("b", "Planta -1", "level", "3 plazas libres"),
           C("c", "Planta 0", "level", "completa"), C("d", "Planta 1", "level", "12 plazas libres")]
dlg("x003", "signed_numbers", "parking", "es",
    "'-1' names the level 'Planta -1', not position 1 (Planta -2) nor 'Planta 1'; then thanks with nothing pending.",
    [T("en la -1, por favor", plantas, X("b"), asked=CHOICE),
     T("perfecto, gracias", [C("a", "Ver mapa de la planta", "action"), C("b", "Guardar ubicación del coche", "action")],
       E("cancel"))])

# ---------------------------------------------------------------- 2 changed_value_not_yes
dlg("x004", "changed_value_not_yes", "restaurant", "en",
    "A different date in answer to a confirmation is a change, not a yes; the same date in other words (Saturday = Sat 15 June) is a yes.",
    [T("hmm, Friday's tricky. make it Saturday the 15th",
       [C("a", "Table for 4 · Fri 14 June, 7:30 pm", "reservation")], E("declined"), asked=CONF),
     T("yes, Saturday works", [C("a", "Table for 4 · Sat 15 June, 7:30 pm", "reservation")], X("a"), asked=CONF)])

dlg("x005", "changed_value_not_yes", "taxi", "de",
    "'Viertel nach sieben' is 7:15 in words: a yes. 'halb sieben' (18:30) differs from 18:00: a change, not a yes.",
    [T("ja, Viertel nach sieben passt", [C("a", "Taxi um 7:15 Uhr", "ride", "ab Hauptbahnhof")], X("a"), asked=CONF),
     T("nein, lieber um halb sieben", [C("a", "Rückfahrt um 18:00 Uhr", "ride", "zum Hauptbahnhof")],
       E("declined"), asked=CONF)])

dlg("x006", "changed_value_not_yes", "banking", "en",
    "'yes, a hundred and fifteen' to a $150 transfer is a changed amount, not a yes; the matching amount then confirms the RISK_HIGH transfer.",
    [T("yes, send a hundred and fifteen",
       [C("a", "Send $150.00 to Jamie Ortiz", "transfer", "from Checking ··4410", risk=True)], E("declined"), asked=CONF),
     T("yep, 115, go ahead",
       [C("a", "Send $115.00 to Jamie Ortiz", "transfer", "from Checking ··4410", risk=True)], X("a"), asked=CONF)])

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
shows = [C("a", "The Last Kingdom", "show"), C("b", "First Dates", "show"), C("c", "Second Chance", "show")]
eps = [C("a", "Ep. 4 · Last Call", "episode"), C("b", "Ep. 5 · Night Shift", "episode"),
       C("c", "Ep. 6 · First Light", "episode")]
dlg("x007", "ordinal_word_in_labels", "streaming", "en",
    "'First Dates' is a title (second on screen), and 'last call' is the title of the first episode, not the last position.",
    [T("put on First Dates", shows, X("b")),
     T("last call", eps, X("a"), asked=CHOICE)])

files1 = [C("a", "budget_2024.xlsx", "file"), C("b", "last_year_taxes.pdf", "file"), C("c", "invoice_march.pdf", "file")]
files2 = [C("a", "Second draft.docx", "file"), C("b", "Final draft.docx", "file"), C("c", "Outline.docx", "file")]
dlg("x008", "ordinal_word_in_labels", "files", "en",
    "'last year taxes' names the second file, not the last; 'the second draft' names 'Second draft.docx' (first), not position 2.",
    [T("open the last year taxes one", files1, X("b")),
     T("now open the second draft", files2, X("a"))])

songs = [C("a", "La vie en rose", "song"), C("b", "Dernière danse", "song"), C("c", "Premier pas", "song")]
dlg("x009", "ordinal_word_in_labels", "music", "fr",
    "'la dernière' is both the last position (Premier pas) and the start of the title 'Dernière danse': ask; the title then decides.",
    [T("mets la dernière", songs, Q("b", "c"), asked=CHOICE),
     T("Dernière danse !", [songs[1], songs[2]], X("b"), asked=CHOICE)])

# ---------------------------------------------------------------- 4 quantity_noun
menu = [C("a", "Espresso", "menu_item", "$2.80"), C("b", "2 Espressos + Croissant", "menu_item", "$7.50 combo"),
        C("c", "Latte", "menu_item", "$4.20")]
pastry = [C("a", "Croissant", "pastry"), C("b", "Blueberry muffin", "pastry"), C("c", "Banana bread", "pastry")]
dlg("x010", "quantity_noun", "cafe", "en",
    "'two espressos' is two of the Espresso item, not the combo whose label also has a croissant; 'one muffin' is the muffin.",
    [T("two espressos please", menu, X("a")),
     T("and one muffin", pastry, X("b"))])

batt = [C("a", "AA batteries · 4-pack", "product"), C("b", "AA batteries · 12-pack", "product"),
        C("c", "Charger + 4 AA batteries", "product")]
cables = [C("a", "USB-C cable · 1 m", "product"), C("b", "USB-C cable · 2 m", "product"),
          C("c", "2 USB-C cables (1 m) + wall plug", "product")]
dlg("x011", "quantity_noun", "electronics", "en",
    "'4 AA batteries' is the 4-pack, not the charger bundle; '2 cables' names the cable but not which length (the '2' is a count, not 2 m), and the bundle says more: ask.",
    [T("4 AA batteries", batt, X("a")),
     T("and 2 cables", cables, Q("a", "b")),
     T("the 1 m ones", cables[:2], X("a"), asked=CHOICE)])

pao = [C("a", "Pão francês (unidade)", "product", "R$ 0,90"),
       C("b", "Kit café da manhã: 6 pães + manteiga", "product", "R$ 12,90"),
       C("c", "Pão de queijo (unidade)", "product", "R$ 2,50")]
dlg("x012", "quantity_noun", "groceries", "pt",
    "'6 pães franceses' is six single rolls, not the breakfast kit that also has butter; then a close with nothing pending.",
    [T("6 pães franceses, por favor", pao, X("a")),
     T("valeu, é só isso", [C("a", "Manteiga 200 g", "product"), C("b", "Leite integral 1 L", "product")], E("cancel"))])

# ---------------------------------------------------------------- 5 everyday_verb
gym = [C("a", "Freeze membership", "action", "up to 3 months"), C("b", "Change plan", "action"),
       C("c", "End membership", "action", "no refund for the current month", risk=True)]
dlg("x013", "everyday_verb", "gym", "en",
    "'quit the gym' means End membership, which is RISK_HIGH and not said whole: confirm; the user says no; 'put it on hold' is the everyday verb for Freeze.",
    [T("I want to quit the gym", gym, Q("c")),
     T("hmm no, not that", [gym[2]], E("declined"), asked=CONF),
     T("just put it on hold for now", gym, X("a"))])

call1 = [C("a", "Decline", "call_action"), C("b", "Answer", "call_action"), C("c", "Reply with message", "call_action")]
call2 = [C("a", "Mute", "call_action"), C("b", "Speaker", "call_action"), C("c", "End call", "call_action")]
dlg("x014", "everyday_verb", "phone", "en",
    "'pick up' is Answer and 'hang up' is End call, though the labels don't use those verbs.",
    [T("pick up", call1, X("b")),
     T("ok hang up", call2, X("c"))])

doc = [C("a", "Duplica", "action"), C("b", "Esporta in PDF", "action"), C("c", "Elimina", "action", risk=True)]
dlg("x015", "everyday_verb", "files", "it",
    "'fammene una copia' is Duplica; 'butta via' means Elimina, which is RISK_HIGH and not said: confirm it.",
    [T("fammene una copia", doc, X("a")),
     T("ora butta via l'originale", doc, Q("c"))])

# ---------------------------------------------------------------- 6 value_other_way
flights = [C("a", "Fri 14 Jun · 07:05", "flight", "LHR → LIS"), C("b", "Fri 14 Jun · 19:05", "flight", "LHR → LIS"),
           C("c", "Sat 15 Jun · 07:05", "flight", "LHR → LIS")]
seats = [C("a", "22F · window", "seat"), C("b", "14C · aisle", "seat"), C("c", "14A · window", "seat")]
dlg("x016", "value_other_way", "flights", "en",
    "'7:05 pm on Friday' is 19:05 Friday; 'fourteen A' is seat 14A (third).",
    [T("the 7:05 pm on Friday", flights, X("b"), asked=CHOICE),
     T("fourteen A", seats, X("c"), asked=CHOICE)])

dlg("x017", "value_other_way", "fashion", "nl",
    "'medium' is size M; 'vrijdag de dertiende' is 'vr 13 sep'.",
    [T("medium graag", [C("a", "S", "size"), C("b", "M", "size"), C("c", "L", "size")], X("b"), asked=CHOICE),
     T("vrijdag de dertiende", [C("a", "do 12 sep", "delivery_day"), C("b", "vr 13 sep", "delivery_day"),
                                C("c", "za 14 sep", "delivery_day")], X("b"), asked=CHOICE)])

cine_seats = [C("a", "Reihe 7, Platz 12", "seat"), C("b", "Reihe 7, Platz 13", "seat"), C("c", "Reihe 12, Platz 7", "seat")]
dlg("x018", "value_other_way", "cinema", "de",
    "'Viertel vor neun' is 20:45 (only evening shows). 'siebte Reihe' (row 7 in words) fits two seats, not 'Platz 7' of row 12: ask; 'Platz dreizehn' is seat 13.",
    [T("Viertel vor neun", [C("a", "18:15", "showtime", "Saal 3"), C("b", "20:45", "showtime", "Saal 3"),
                            C("c", "22:30", "showtime", "Saal 3")], X("b"), asked=CHOICE),
     T("siebte Reihe", cine_seats, Q("a", "b"), asked=CHOICE),
     T("Platz dreizehn", cine_seats[:2], X("b"), asked=CHOICE)])

# ---------------------------------------------------------------- 7 object_alone
ord1 = [C("a", "Download invoice", "action"), C("b", "Email invoice", "action"), C("c", "Print return label", "action")]
ord2 = [C("a", "Download invoice", "action"), C("b", "Print return label", "action"), C("c", "Track package", "action")]
dlg("x019", "object_alone", "shopping", "en",
    "'the invoice' is the object of two actions: ask; later 'the return label' is the object of one action only: do it.",
    [T("the invoice", ord1, Q("a", "b")),
     T("email", ord1[:2], X("b"), asked=CHOICE),
     T("the return label too", ord2, X("b"))])

extras1 = [C("a", "Add child seat", "extra", "$8/day"), C("b", "Add GPS", "extra", "$5/day"),
           C("c", "Add extra driver", "extra", "$12/day")]
extras2 = [C("a", "Remove GPS", "extra"), C("b", "Add child seat", "extra", "$8/day"),
           C("c", "Add extra driver", "extra", "$12/day")]
dlg("x020", "object_alone", "car_rental", "en",
    "'GPS' alone is the object of Add GPS only; 'a child seat' alone is the object of Add child seat only.",
    [T("GPS", extras1, X("b")),
     T("and a child seat for my daughter", extras2, X("b"))])

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
dlg("x021", "distinguishing_word_plus_kind", "calendar", "en",
    "'budget' tells the meeting apart and 'meeting' is just the kind; 'Wednesday' plus 'slot'.",
    [T("the budget meeting", [C("a", "Team sync", "meeting"), C("b", "Budget review", "meeting"),
                              C("c", "Design review", "meeting")], X("b"), asked=CHOICE),
     T("the Wednesday slot", [C("a", "Tue 10:00", "slot"), C("b", "Wed 14:00", "slot"), C("c", "Thu 09:30", "slot")],
       X("b"), asked=CHOICE)])

rooms = [C("a", "Doble – vista al jardín", "room"), C("b", "Doble – vista al mar", "room"),
         C("c", "Individual – vista al mar", "room")]
dlg("x022", "distinguishing_word_plus_kind", "hotel", "es",
    "'vistas al mar' fits two rooms: ask; then 'doble' plus the kind word 'habitación' picks one.",
    [T("la habitación con vistas al mar", rooms, Q("b", "c"), asked=CHOICE),
     T("la habitación doble", rooms[1:], X("b"), asked=CHOICE)])

# ---------------------------------------------------------------- 9 correction_after_execute
tracks = [C("a", "Hallelujah · studio", "track"), C("b", "Hallelujah · live", "track"),
          C("c", "Hallelujah · acoustic", "track")]
dlg("x023", "correction_after_execute", "music", "en",
    "After the studio version plays, the user says it was the wrong one and names the live one; then closes.",
    [T("play the studio version", tracks, X("a"), rejected=True),
     T("no, wrong one, I wanted the live one", tracks, X("b")),
     T("perfect, thanks", tracks, E("cancel"))])

addr = [C("a", "Home", "address", "14 Elm St"), C("b", "Work", "address", "200 Market St"),
        C("c", "Mom's", "address", "9 Lake Rd")]
dlg("x024", "correction_after_execute", "food_delivery", "en",
    "Work was chosen, then the user says no and names Mom's.",
    [T("work", addr, X("b"), asked=CHOICE, rejected=True),
     T("wait no, it's Saturday, send it to my mom's", addr, X("c"))])

mail = [C("a", "Archive", "action"), C("b", "Mark as spam", "action"), C("c", "Delete forever", "action", risk=True)]
dlg("x025", "correction_after_execute", "email", "en",
    "The correction names a RISK_HIGH option without its whole label ('delete it' vs 'Delete forever'): confirm it first; yes then executes.",
    [T("archive it", mail, X("a"), rejected=True),
     T("oops, not archive, I meant delete it", mail, Q("c")),
     T("yes", [mail[2]], X("c"), asked=CONF)])

# ---------------------------------------------------------------- 10 self_correcting_reply
dlg("x026", "self_correcting_reply", "food_delivery", "en",
    "'large, no wait, medium': the last choice stands. Then the user picks thin crust and takes back the whole order: cancel.",
    [T("large — no wait, medium", [C("a", "Small · 10\"", "size"), C("b", "Medium · 12\"", "size"),
                                   C("c", "Large · 14\"", "size")], X("b"), asked=CHOICE),
     T("thin crust… ugh, actually forget the pizza, I'll cook",
       [C("a", "Classic crust", "crust"), C("b", "Thin crust", "crust"), C("c", "Stuffed crust", "crust")],
       E("cancel"), asked=CHOICE)])

dlg("x027", "self_correcting_reply", "hairdresser", "pt",
    "Wednesday 15:30 is taken back for Thursday, and only one Thursday slot exists; then thanks.",
    [T("quarta às 15h30... não, melhor quinta",
       [C("a", "Ter 10:00", "slot"), C("b", "Qua 15:30", "slot"), C("c", "Qui 11:00", "slot")], X("c"), asked=CHOICE),
     T("obrigada!", [C("a", "Adicionar ao calendário", "action"), C("b", "Ver endereço", "action")], E("cancel"))])

# ---------------------------------------------------------------- 11 closing_after_execute
dlg("x028", "closing_after_execute", "parking", "en",
    "'add half an hour' is Extend 30 min; then thanks with nothing pending (the next screen only offers extras).",
    [T("add half an hour", [C("a", "Extend 30 min", "action", "$1.50"), C("b", "Extend 1 hour", "action", "$3.00"),
                            C("c", "End session now", "action")], X("a")),
     T("great, that's all, thanks!", [C("a", "View receipt", "action"),
                                      C("b", "Remind me 10 min before expiry", "action")], E("cancel"))])

dlg("x029", "closing_after_execute", "food_delivery", "en",
    "Trap: after the drop-off choice the app asks to confirm a tip, so 'no thanks, that's all' says no to that question (declined), not a plain close.",
    [T("just leave it at the door", [C("a", "Leave at door", "dropoff"), C("b", "Hand it to me", "dropoff"),
                                     C("c", "Meet outside", "dropoff")], X("a"), asked=CHOICE),
     T("no thanks, that's all", [C("a", "Add a $3 tip for your courier", "tip", risk=True)], E("declined"), asked=CONF)])

# ---------------------------------------------------------------- 12 ack_then_new_request
ins = [C("a", "Add travel insurance · $19", "add_on", "cancellation + medical", risk=True)]
dlg("x030", "ack_then_new_request", "travel", "en",
    "'ok, but what does it cover?' acknowledges and asks: not a yes to a RISK_HIGH add-on. Then the user skips it.",
    [T("ok, but what does it actually cover?", ins, E("question_intent"), asked=CONF),
     T("hmm, I'll skip it then", ins, E("declined"), asked=CONF)])

search_cmd = [{"id": "search", "label": "Search", "phrases": ["search for", "look for", "find me"]}]
dlg("x031", "ack_then_new_request", "electronics", "en",
    "'alright' then a search request (one of the turn's commands) is not a yes to the offered case; then a pick by the distinguishing word.",
    [T("alright. search for screen protectors", [C("a", "Add matching case · $15", "add_on")], E("command"),
       asked=CONF, commands=search_cmd),
     T("the privacy one", [C("a", "Tempered glass protector (2-pack)", "product"),
                           C("b", "Privacy screen protector", "product"),
                           C("c", "Matte screen film", "product")], X("b"))])

table = [C("a", "Table pour 2 · sam. 20h00", "reservation", "Chez Marcel")]
dlg("x032", "ack_then_new_request", "restaurant", "fr",
    "'d'accord, et vous avez une terrasse ?' acknowledges then asks: not a yes; then a real confirmation.",
    [T("d'accord, et vous avez une terrasse ?", table, E("question_intent"), asked=CONF),
     T("parfait, je confirme", table, X("a"), asked=CONF)])

# ---------------------------------------------------------------- 13 choice_with_question
dlg("x033", "choice_with_question", "hotel", "en",
    "A room choice plus a question; then a payment choice plus a question (the RISK_HIGH 'Pay now' is not chosen).",
    [T("sea view please — is breakfast included?",
       [C("a", "Standard room", "room", "$140/night"), C("b", "Sea view room", "room", "$185/night"),
        C("c", "Suite", "room", "$290/night")], X("b", "question"), asked=CHOICE),
     T("pay at the hotel. can I cancel for free?",
       [C("a", "Pay now · $370", "payment", risk=True), C("b", "Pay at the hotel", "payment")],
       X("b", "question"), asked=CHOICE)])

dlg("x034", "choice_with_question", "delivery", "en",
    "Saturday morning is the 9–12 Saturday slot, followed by a request; then thanks.",
    [T("Saturday morning, and please leave it with the neighbour if I'm out",
       [C("a", "Sat 9:00–12:00", "slot"), C("b", "Sat 12:00–15:00", "slot"), C("c", "Sun 9:00–12:00", "slot")],
       X("a", "request"), asked=CHOICE),
     T("cheers", [C("a", "Track order", "action"), C("b", "Change address", "action")], E("cancel"))])

booking = [C("a", "Change flight", "action"), C("b", "Add checked bag", "action"),
           C("c", "Cancel booking", "action", "refund depends on fare", risk=True)]
dlg("x035", "choice_with_question", "flights", "en",
    "Trap: the choice is a RISK_HIGH option not said whole, so confirm it despite the question; the user declines and changes instead.",
    [T("cancel my flight — do I get a refund?", booking, Q("c")),
     T("no, leave it then", [booking[2]], E("declined"), asked=CONF),
     T("I'll change the flight instead", booking, X("a"))])

# ---------------------------------------------------------------- 14 shorthand
dlg("x036", "shorthand", "clinic", "en",
    "'resched' is Reschedule; 'tmrw 2pm' is Tomorrow 2:00 PM.",
    [T("resched pls", [C("a", "Confirm appointment", "action"), C("b", "Reschedule appointment", "action"),
                       C("c", "Cancel appointment", "action", risk=True)], X("b")),
     T("tmrw 2pm", [C("a", "Tomorrow · 9:00 AM", "slot"), C("b", "Tomorrow · 2:00 PM", "slot"),
                    C("c", "Fri · 9:00 AM", "slot")], X("b"), asked=CHOICE)])

vet = [C("a", "Monday 10:00", "slot"), C("b", "Thursday 10:00", "slot"), C("c", "Thursday 16:30", "slot")]
dlg("x037", "shorthand", "vet", "en",
    "'thurs' fits two Thursday slots: ask; '4:30' picks 16:30; 'txt' is text.",
    [T("thurs", vet, Q("b", "c"), asked=CHOICE),
     T("the 4:30 one", vet[1:], X("c"), asked=CHOICE),
     T("txt pls", [C("a", "Reminder by text", "reminder"), C("b", "Reminder by email", "reminder")],
       X("a"), asked=CHOICE)])

# ---------------------------------------------------------------- 15 two_requests_in_order
app1 = [C("a", "Start washer", "appliance"), C("b", "Start dryer", "appliance"), C("c", "Start dishwasher", "appliance")]
app2 = [C("a", "Start washer", "appliance"), C("b", "Stop dryer", "appliance"), C("c", "Start dishwasher", "appliance")]
dlg("x038", "two_requests_in_order", "smart_home", "en",
    "'dryer first, then the dishwasher': execute the dryer with a request follow-up; then the dishwasher.",
    [T("start the dryer first, then the dishwasher", app1, X("b", "request")),
     T("ok now the dishwasher", app2, X("c"))])

pods = [C("a", "Daily News Briefing", "podcast"), C("b", "Tech Talk Weekly", "podcast"), C("c", "History Hour", "podcast")]
dlg("x039", "two_requests_in_order", "podcasts", "en",
    "'X or Tech Talk' is an alternative: ask between them; 'news first, then tech talk' executes the news with a request.",
    [T("put on the news briefing or Tech Talk", pods, Q("a", "b")),
     T("news first, then tech talk", pods[:2], X("a", "request"), asked=CHOICE)])

rx = [C("a", "Refill Lisinopril 10 mg", "prescription"), C("b", "Refill Metformin 500 mg", "prescription"),
      C("c", "Refill Vitamin D 1000 IU", "prescription")]
dlg("x040", "two_requests_in_order", "pharmacy", "en",
    "Order given: the vitamin D first (with a request follow-up), then the metformin, then a close with nothing pending.",
    [T("refill the vitamin D first, then the metformin", rx, X("c", "request")),
     T("now the metformin", rx, X("b")),
     T("thanks, that's everything", rx, E("cancel"))])

SCORING = {
    "debatable": ["x009#1", "x011#2", "x035#1", "x004#1", "x031#1"],
    "knowledge": ["x018#1", "x034#1"],
}


def build():
    out = []
    for d in D:
        turns = []
        for n, t in enumerate(d["turns"], 1):
            opts = {"optionSetId": f"{d['id']}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
            if t["asked"]:
                opts["asked"] = t["asked"]
            tt = {"input": t["input"],
                  "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
                  "options": opts}
            if t["commands"]:
                tt["commands"] = t["commands"]
            tt["expect"] = t["expect"]
            if "execute" in t["expect"]:
                tt["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                                        "choiceId": t["expect"]["execute"]}
            elif t["rejected"]:
                raise SystemExit(f"{d['id']}#{n}: rejected on non-execute")
            turns.append(tt)
        out.append({"id": d["id"], "category": d["category"], "domain": d["domain"], "language": d["language"],
                    "note": d["note"], "dialogue": turns})
    ids = [d["id"] for d in out]
    assert ids == [f"x{i:03d}" for i in range(1, 41)], ids
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
