#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh72 blind test set.

Written blind from BRIEF.md: every expectation is what a careful human
assistant would do with the message and the screen, not what any program does.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def C(id, label, kind, sub=None, risk=False):
    c = {"id": id, "label": label}
    if sub:
        c["sublabel"] = sub
    c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def EX(i, fu=None):
    e = {"execute": i}
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


def pick(cands, *ids):
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

# ---------------------------------------------------------------- 1 signed_numbers
D("z001", "signed_numbers", "smart_home", "en",
  "'-2' is a signed offset: Lower by 2, not the second row (Raise by 2). A plain 'the second one' "
  "with no sign is a position.",
  [T("-2 please",
     [C("a", "Raise by 1 °C", "adjustment"), C("b", "Raise by 2 °C", "adjustment"),
      C("c", "Lower by 1 °C", "adjustment"), C("d", "Lower by 2 °C", "adjustment")],
     EX("d"), asked=CH),
   T("for tonight put the second one on",
     [C("a", "Eco", "preset", "17 °C"), C("b", "Comfort", "preset", "21 °C"),
      C("c", "Night", "preset", "18 °C")],
     EX("b"))])

D("z002", "signed_numbers", "parking", "en",
  "'-1' names the level −1 (row 2), not row 1 and not Level 1. 'B2' is a bay code: the third row, "
  "not the second.",
  [T("-1",
     [C("a", "Level −2", "parking_level", "14 free"), C("b", "Level −1", "parking_level", "3 free"),
      C("c", "Ground floor", "parking_level", "full"), C("d", "Level 1", "parking_level", "22 free")],
     EX("b"), asked=CH),
   T("B2",
     [C("a", "B1", "parking_bay", "standard"), C("b", "B3", "parking_bay", "wide"),
      C("c", "B2", "parking_bay", "EV charger")],
     EX("c"))])

D("z003", "signed_numbers", "banking", "de",
  "'+2 Tage' is an offset from today (In 2 Tagen), not the second row (Morgen). Then a plain yes "
  "to the transfer the app asks to confirm.",
  [T("+2 Tage bitte",
     [C("a", "Heute", "execution_date"), C("b", "Morgen", "execution_date"),
      C("c", "In 2 Tagen", "execution_date"), C("d", "In 3 Tagen", "execution_date")],
     EX("c"), asked=CH),
   T("ja, passt",
     [C("a", "250,00 € an Marta Keller überweisen", "transfer", "Ausführung in 2 Tagen", risk=True)],
     EX("a"), asked=CF)])

# ---------------------------------------------------------------- 2 changed_value_not_yes
D("z004", "changed_value_not_yes", "hair_salon", "en",
  "Asked to confirm 14:30, the user names 3:30: a change, not a yes, so nothing is booked (declined). "
  "Then 'half three' is 15:30 in other words and 'with Sam' settles the stylist.",
  [T("make it 3:30",
     [C("a", "Haircut with Sam", "appointment", "Thu 14:30 · 45 min · £38")],
     ES("declined"), asked=CF),
   T("half three with Sam",
     [C("a", "Thu 15:30 with Sam", "appointment"), C("b", "Thu 15:30 with Alex", "appointment"),
      C("c", "Fri 14:30 with Sam", "appointment")],
     EX("a"), asked=CH)])

D("z005", "changed_value_not_yes", "restaurant", "en",
  "'four people at seven' restates the option's values: a yes. '£10' against a £20 deposit is a "
  "change, not a yes. 'twenty pounds' then is the same amount in words: a yes.",
  [T("yes, four people at seven",
     [C("a", "Table for 4", "reservation", "Sat 7:00 pm · terrace")],
     EX("a"), asked=CF),
   T("ok but only £10",
     [C("a", "Pay £20 deposit", "payment", "refundable up to 24 h before", risk=True)],
     ES("declined"), asked=CF),
   T("fine, twenty pounds then",
     [C("a", "Pay £20 deposit", "payment", "refundable up to 24 h before", risk=True)],
     EX("a"), asked=CF)])

D("z006", "changed_value_not_yes", "flights", "es",
  "Confirming a Friday flight, 'mejor el sábado' is another date in words: not a yes. On the "
  "Saturday screen, 'sí' plus the same time in words (ocho y cuarto = 08:15) is a yes.",
  [T("mejor el sábado",
     [C("a", "Reservar Madrid → Lisboa", "flight", "vie 12 abr · 08:15 · 89 €", risk=True)],
     ES("declined"), asked=CF),
   T("sí, el sábado a las ocho y cuarto",
     [C("a", "Reservar Madrid → Lisboa", "flight", "sáb 13 abr · 08:15 · 89 €", risk=True)],
     EX("a"), asked=CF)])

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
D("z007", "ordinal_word_in_labels", "music", "en",
  "'first dance' is words of a playlist title, not position 1. 'the last one' is positional "
  "(the final track), although two titles contain 'Last'.",
  [T("put on first dance",
     [C("a", "Road Trip", "playlist"), C("b", "First Dance Songs", "playlist"),
      C("c", "Morning Coffee", "playlist"), C("d", "Second Wind Workout", "playlist")],
     EX("b")),
   T("skip to the last one",
     [C("a", "Last Christmas", "track", "Wham!"), C("b", "Only Time", "track", "Enya"),
      C("c", "The Last Goodbye", "track", "Billy Boyd"), C("d", "Photograph", "track", "Ed Sheeran")],
     EX("d"))])

D("z008", "ordinal_word_in_labels", "gym", "en",
  "'the second' could be row 2 (Yoga Flow) or the class called Second Chance HIIT: ask. "
  "'the HIIT' then settles it.",
  [T("book me into the second",
     [C("a", "Spin", "class", "7:00"), C("b", "Yoga Flow", "class", "12:30"),
      C("c", "Second Chance HIIT", "class", "18:00")],
     CL("b", "c")),
   T("the HIIT",
     [C("b", "Yoga Flow", "class", "12:30"), C("c", "Second Chance HIIT", "class", "18:00")],
     EX("c"), asked=CH)])

D("z009", "ordinal_word_in_labels", "bookshop", "fr",
  "'le premier homme' is the title Le Premier Homme (row 3), not the first row. On the next screen "
  "no label holds 'premier', so 'le premier' is the first row.",
  [T("je voudrais le premier homme",
     [C("a", "La Peste", "book", "Albert Camus"), C("b", "L'Étranger", "book", "Albert Camus"),
      C("c", "Le Premier Homme", "book", "Albert Camus")],
     EX("c")),
   T("le premier",
     [C("a", "Poche", "format", "8,90 €"), C("b", "Broché", "format", "21,00 €"),
      C("c", "Numérique", "format", "6,99 €")],
     EX("a"), asked=CH)])

# ---------------------------------------------------------------- 4 quantity_noun
D("z010", "quantity_noun", "cinema", "en",
  "'two tickets' is the 2-ticket option, not the Date-night bundle that also holds 2 tickets. "
  "'two soft drinks' is two of the soft drink, not the combo. Then the user drops the payment.",
  [T("two tickets",
     [C("a", "1 adult ticket", "ticket"), C("b", "2 adult tickets", "ticket"),
      C("c", "Date night: 2 tickets + large popcorn", "bundle"),
      C("d", "Family: 2 adults + 2 kids", "bundle")],
     EX("b"), asked=CH),
   T("two soft drinks",
     [C("a", "Soft drink", "snack", "0.5 l"), C("b", "Popcorn", "snack", "medium"),
      C("c", "Combo: popcorn + 2 soft drinks", "snack")],
     EX("a")),
   T("never mind, I'll buy them at the cinema",
     [C("a", "Pay €31.50", "payment", risk=True)],
     ES("cancel"), asked=CF)])

D("z011", "quantity_noun", "grocery", "en",
  "'12 eggs' is the 12 pack, not the brunch box that lists 12 eggs. '4 avocados' is the bag of 4, "
  "not the guacamole kit. 'go to checkout' is one of the turn's commands.",
  [T("12 eggs",
     [C("a", "Eggs", "product", "6 pack"), C("b", "Eggs", "product", "12 pack"),
      C("c", "Brunch box: 12 eggs, bacon, sourdough", "product")],
     EX("b")),
   T("4 avocados",
     [C("a", "Avocado", "product", "each"), C("b", "Avocados", "product", "bag of 4"),
      C("c", "Guacamole kit: 4 avocados, 2 limes, red onion", "product")],
     EX("b")),
   T("go to checkout",
     [C("a", "Sourdough loaf", "product"), C("b", "Bacon 200 g", "product")],
     ES("command"),
     commands=[{"id": "checkout", "label": "Go to checkout", "phrases": ["checkout", "go to checkout", "pay now"]}])])

D("z012", "quantity_noun", "pizzeria", "it",
  "'due margherite' is the 2-pizza option, not the couple's menu. 'tre cannoli' is the cannolo "
  "(three of them), not the 3-piece mixed box. 'ordina e paga' says the RISK_HIGH label whole.",
  [T("due margherite",
     [C("a", "Pizza margherita", "product"), C("b", "2 pizze margherita", "product"),
      C("c", "Menù coppia: 2 pizze + 2 bibite", "bundle")],
     EX("b")),
   T("tre cannoli",
     [C("a", "Tiramisù", "dessert"), C("b", "Cannolo siciliano", "dessert"),
      C("c", "Dolci misti (3 pezzi)", "dessert")],
     EX("b")),
   T("ok, ordina e paga",
     [C("a", "Ordina e paga", "checkout", "24,50 €", risk=True),
      C("b", "Modifica indirizzo", "checkout")],
     EX("a"))])

# ---------------------------------------------------------------- 5 everyday_verb
D("z013", "everyday_verb", "email", "en",
  "'remind me about this tomorrow' is what Snooze does. 'get rid of it' is what Delete permanently "
  "does, but that is RISK_HIGH and not said whole: confirm it; then 'yes'.",
  [T("remind me about this tomorrow morning",
     [C("a", "Archive", "email_action"), C("b", "Move to Trash", "email_action"),
      C("c", "Mark as spam", "email_action"), C("d", "Snooze", "email_action")],
     EX("d")),
   T("get rid of it",
     [C("a", "Reply", "email_action"), C("b", "Reply all", "email_action"),
      C("c", "Forward", "email_action"), C("d", "Delete permanently", "email_action", risk=True)],
     CL("d")),
   T("yes",
     [C("d", "Delete permanently", "email_action", risk=True)],
     EX("d"), asked=CF)])

D("z014", "everyday_verb", "cloud_files", "en",
  "'download it to my phone so I can read it on the plane' is Make available offline. "
  "'stop letting other people see it' is Stop sharing.",
  [T("download it to my phone so I can read it on the plane",
     [C("a", "Share link", "file_action"), C("b", "Make available offline", "file_action"),
      C("c", "Rename", "file_action"), C("d", "Delete", "file_action", risk=True)],
     EX("b")),
   T("stop letting other people see it",
     [C("a", "Copy link", "sharing_action"), C("b", "Email link", "sharing_action"),
      C("c", "Stop sharing", "sharing_action")],
     EX("c"))])

D("z015", "everyday_verb", "streaming", "pt",
  "'põe de onde parei' (play from where I stopped) is Continuar a ver. 'passa à frente a música do "
  "início' (skip the opening music) is Saltar introdução.",
  [T("põe de onde parei",
     [C("a", "Continuar a ver", "title_action", "T2 · E5 · faltam 23 min"),
      C("b", "Adicionar à minha lista", "title_action"),
      C("c", "Transferir episódio", "title_action"), C("d", "Classificar", "title_action")],
     EX("a")),
   T("passa à frente a música do início",
     [C("a", "Saltar introdução", "player_action"), C("b", "Próximo episódio", "player_action"),
      C("c", "Legendas", "player_action"), C("d", "Áudio e idioma", "player_action")],
     EX("a"))])

# ---------------------------------------------------------------- 6 value_other_way
D("z016", "value_other_way", "trains", "en",
  "'quarter past eight' is 08:15. 'forty-two fifty' is £42.50 in words: a yes to the RISK_HIGH "
  "purchase the app asks to confirm.",
  [T("the quarter past eight",
     [C("a", "07:45 → 10:02", "train", "direct"), C("b", "08:15 → 10:31", "train", "1 change"),
      C("c", "09:45 → 12:02", "train", "direct")],
     EX("b"), asked=CH),
   T("yep, forty-two fifty is fine",
     [C("a", "Buy ticket", "payment", "£42.50 · off-peak return", risk=True)],
     EX("a"), asked=CF)])

D("z017", "value_other_way", "hotel", "en",
  "'15/6 to 17/6' is Sat 15 Jun – Mon 17 Jun. 'two single beds' is the twin room (needs the "
  "meaning of 'twin').",
  [T("15/6 to 17/6",
     [C("a", "Fri 14 Jun – Sun 16 Jun", "stay", "2 nights"),
      C("b", "Sat 15 Jun – Mon 17 Jun", "stay", "2 nights")],
     EX("b"), asked=CH),
   T("the one with two single beds",
     [C("a", "Queen room", "room", "18 m²"), C("b", "King room", "room", "24 m²"),
      C("c", "Twin room", "room", "20 m²")],
     EX("c"))])

D("z018", "value_other_way", "clinic", "nl",
  "'vijf maart, twee uur 's middags' is wo 5 maart · 14:00. 'een sms'je de dag ervoor' is the SMS "
  "reminder one day ahead.",
  [T("vijf maart, twee uur 's middags",
     [C("a", "di 4 maart · 09:30", "appointment"), C("b", "wo 5 maart · 14:00", "appointment"),
      C("c", "do 6 maart · 16:30", "appointment")],
     EX("b"), asked=CH),
   T("een sms'je de dag ervoor",
     [C("a", "Sms 1 dag van tevoren", "reminder"), C("b", "E-mail 1 dag van tevoren", "reminder"),
      C("c", "Geen herinnering", "reminder")],
     EX("a"))])

# ---------------------------------------------------------------- 7 object_alone
D("z019", "object_alone", "pharmacy", "en",
  "'metformin' is the object of one option only: refill it. 'atorvastatin' is the object of three "
  "actions: ask which; 'refill' then settles it.",
  [T("metformin",
     [C("a", "Refill Lisinopril 10 mg", "pharmacy_action"),
      C("b", "Refill Metformin 500 mg", "pharmacy_action"),
      C("c", "Message pharmacist", "pharmacy_action"),
      C("d", "Turn off auto-refill", "pharmacy_action")],
     EX("b")),
   T("atorvastatin",
     [C("a", "Renew prescription: Atorvastatin 20 mg", "pharmacy_action"),
      C("b", "Refill Atorvastatin 20 mg", "pharmacy_action"),
      C("c", "Transfer Atorvastatin 20 mg to another pharmacy", "pharmacy_action")],
     CL("a", "b", "c")),
   T("refill",
     [C("a", "Renew prescription: Atorvastatin 20 mg", "pharmacy_action"),
      C("b", "Refill Atorvastatin 20 mg", "pharmacy_action"),
      C("c", "Transfer Atorvastatin 20 mg to another pharmacy", "pharmacy_action")],
     EX("b"), asked=CH)])

D("z020", "object_alone", "car_rental", "en",
  "'GPS' alone names Add GPS. 'the deposit' names the RISK_HIGH Pay deposit without its label: "
  "confirm first; the user then says no.",
  [T("GPS please",
     [C("a", "Add child seat", "extra"), C("b", "Add GPS", "extra"),
      C("c", "Add second driver", "extra"), C("d", "Upgrade to SUV", "extra")],
     EX("b")),
   T("the deposit",
     [C("a", "Pay deposit €300", "booking_action", risk=True),
      C("b", "Change pickup time", "booking_action"), C("c", "Add flight number", "booking_action")],
     CL("a")),
   T("not now, I'll pay at the counter",
     [C("a", "Pay deposit €300", "booking_action", risk=True)],
     ES("declined"), asked=CF)])

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
D("z021", "distinguishing_word_plus_kind", "mobile_plans", "en",
  "'the plus plan': Plus tells it apart, 'plan' is what every option is. 'the EU pass' fits two "
  "passes (7 and 30 days): ask. Then 'speak to someone' is a command.",
  [T("the plus plan",
     [C("a", "SIM Only Basic 5 GB", "plan", "£8/month"), C("b", "SIM Only Plus 20 GB", "plan", "£12/month"),
      C("c", "SIM Only Unlimited", "plan", "£20/month")],
     EX("b")),
   T("add the EU pass",
     [C("a", "EU Roaming · 7 days", "pass", "£5"), C("b", "World Roaming · 7 days", "pass", "£15"),
      C("c", "EU Roaming · 30 days", "pass", "£12")],
     CL("a", "c")),
   T("actually, can I speak to someone?",
     [C("a", "EU Roaming · 7 days", "pass", "£5"), C("c", "EU Roaming · 30 days", "pass", "£12")],
     ES("command"), asked=CH,
     commands=[{"id": "agent", "label": "Talk to an agent",
                "phrases": ["agent", "talk to an agent", "speak to someone"]}])])

D("z022", "distinguishing_word_plus_kind", "invoicing", "en",
  "'the Lindqvist invoice': one client name plus the kind word. On the overdue list two invoices are "
  "Bauer's: ask; 'the bigger one' is the €1,310 one.",
  [T("open the Lindqvist invoice",
     [C("a", "Invoice #1042 · Bauer GmbH", "invoice", "€1,200 · due 3 May"),
      C("b", "Invoice #1043 · Lindqvist AB", "invoice", "€860 · due 10 May"),
      C("c", "Invoice #1044 · Ortega SL", "invoice", "€2,150 · due 12 May")],
     EX("b")),
   T("the Bauer invoice",
     [C("a", "Invoice #1038 · Bauer GmbH", "invoice", "€540 · overdue"),
      C("b", "Invoice #1040 · Bauer GmbH", "invoice", "€1,310 · overdue"),
      C("c", "Invoice #1041 · Ortega SL", "invoice", "€75 · overdue")],
     CL("a", "b")),
   T("the bigger one",
     [C("a", "Invoice #1038 · Bauer GmbH", "invoice", "€540 · overdue"),
      C("b", "Invoice #1040 · Bauer GmbH", "invoice", "€1,310 · overdue")],
     EX("b"), asked=CH)])

D("z023", "distinguishing_word_plus_kind", "insurance", "de",
  "'den Komfort-Tarif' and 'den Fahrrad-Baustein': one telling word plus the kind word. Then the "
  "user says no to signing the paid contract.",
  [T("den Komfort-Tarif",
     [C("a", "Hausrat Basis", "tarif", "6,90 €/Monat"), C("b", "Hausrat Komfort", "tarif", "9,40 €/Monat"),
      C("c", "Hausrat Premium", "tarif", "13,80 €/Monat")],
     EX("b")),
   T("den Fahrrad-Baustein noch dazu",
     [C("a", "Glasbruch", "baustein", "+1,20 €/Monat"),
      C("b", "Fahrraddiebstahl", "baustein", "+2,00 €/Monat"),
      C("c", "Elementarschäden", "baustein", "+3,10 €/Monat")],
     EX("b")),
   T("nein, ich will erst noch vergleichen",
     [C("a", "Vertrag kostenpflichtig abschließen", "contract",
        "Hausrat Komfort + Fahrraddiebstahl · 11,40 €/Monat", risk=True)],
     ES("declined"), asked=CF)])

# ---------------------------------------------------------------- 9 correction_after_execute
D("z024", "correction_after_execute", "food_delivery", "en",
  "'the second one' adds Pad see ew; the next message says that was wrong and names pad thai.",
  [T("the second one",
     [C("a", "Pad thai", "dish", "£9.50"), C("b", "Pad see ew", "dish", "£9.50"),
      C("c", "Green curry", "dish", "£10.00")],
     EX("b"), rejected=True),
   T("oops, not that — I wanted the pad thai",
     [C("a", "Pad thai", "dish", "£9.50"), C("b", "Pad see ew", "dish", "£9.50"),
      C("c", "Green curry", "dish", "£10.00")],
     EX("a"))])

D("z025", "correction_after_execute", "calendar", "en",
  "Moved to Wednesday, then 'I meant Thursday' picks the Thursday option (not Undo). Then 'let "
  "everyone know' is Notify attendees.",
  [T("wednesday",
     [C("a", "Tue 10:00", "slot", "Budget review"), C("b", "Wed 10:00", "slot", "Budget review"),
      C("c", "Thu 10:00", "slot", "Budget review")],
     EX("b"), asked=CH, rejected=True),
   T("no sorry, I meant Thursday",
     [C("a", "Undo move", "calendar_action"), C("b", "Move to Tue 10:00", "calendar_action"),
      C("c", "Move to Thu 10:00", "calendar_action")],
     EX("c")),
   T("let everyone know",
     [C("a", "Notify attendees", "calendar_action"), C("b", "Don't notify", "calendar_action")],
     EX("a"))])

D("z026", "correction_after_execute", "smart_speaker", "es",
  "Played in the kitchen, then 'no, ese no, en el otro': wrong one, but 'the other' of three "
  "speakers is two: ask; then 'el dormitorio'.",
  [T("ponlo en la cocina",
     [C("a", "Salón", "speaker"), C("b", "Cocina", "speaker"), C("c", "Dormitorio", "speaker")],
     EX("b"), rejected=True),
   T("no, ese no, en el otro",
     [C("a", "Salón", "speaker"), C("b", "Cocina", "speaker"), C("c", "Dormitorio", "speaker")],
     CL("a", "c")),
   T("en el dormitorio",
     [C("a", "Salón", "speaker"), C("c", "Dormitorio", "speaker")],
     EX("c"), asked=CH)])

# ---------------------------------------------------------------- 10 self_correcting_reply
D("z027", "self_correcting_reply", "vet", "en",
  "Monday with Dr Okafor is taken back for Tuesday (only Dr Okafor on Tuesday). Vaccination is "
  "taken back for the check-up.",
  [T("Monday with Dr Okafor — no wait, Tuesday is better",
     [C("a", "Dr Okafor · Mon 9:00", "appointment"), C("b", "Dr Okafor · Tue 11:30", "appointment"),
      C("c", "Dr Lind · Mon 15:00", "appointment")],
     EX("b"), asked=CH),
   T("vaccination... oh no, she had that in March. just the check-up",
     [C("a", "Vaccination", "service"), C("b", "Check-up", "service"), C("c", "Nail trim", "service")],
     EX("b"))])

D("z028", "self_correcting_reply", "newspaper", "en",
  "Pause is taken back for cancel; cancel is RISK_HIGH and its label is not said whole: confirm. "
  "'yes, cancel it' is a yes to that confirmation, not a cancel escape.",
  [T("pause it for a month — actually no, just cancel it",
     [C("a", "Pause subscription", "subscription_action"),
      C("b", "Switch to digital only", "subscription_action"),
      C("c", "Cancel subscription", "subscription_action", risk=True)],
     CL("c")),
   T("yes, cancel it",
     [C("c", "Cancel subscription", "subscription_action", risk=True)],
     EX("c"), asked=CF)])

D("z029", "self_correcting_reply", "grocery_delivery", "fr",
  "'mercredi matin... ah non, plutôt mercredi soir': the evening slot stands. Asked to pay, 'oui... "
  "attends, non' takes the yes back: declined.",
  [T("mercredi matin... ah non, plutôt mercredi soir",
     [C("a", "Mardi 18h–20h", "créneau"), C("b", "Mercredi 8h–10h", "créneau"),
      C("c", "Mercredi 18h–20h", "créneau")],
     EX("c"), asked=CH),
   T("oui... attends, non, je veux encore ajouter du pain",
     [C("a", "Payer 64,20 € et valider la commande", "payment", risk=True)],
     ES("declined"), asked=CF)])

# ---------------------------------------------------------------- 11 closing_after_execute
D("z030", "closing_after_execute", "ride_hailing", "en",
  "Comfort is booked; 'great, thanks!' closes with nothing pending: cancel escape, and certainly "
  "not the Cancel ride option.",
  [T("comfort",
     [C("a", "Comfort", "ride", "4 min · £11.20"), C("b", "XL", "ride", "9 min · £16.80"),
      C("c", "Green", "ride", "6 min · £11.90")],
     EX("a"), asked=CH),
   T("great, thanks!",
     [C("a", "Share trip status", "ride_action"), C("b", "Call driver", "ride_action"),
      C("c", "Cancel ride", "ride_action", risk=True)],
     ES("cancel"))])

D("z031", "closing_after_execute", "library", "en",
  "'thanks! do the other book too' is not a closing: it renews The Overstory. 'that's everything, "
  "cheers' closes; the late fee is only shown, not asked.",
  [T("renew piranesi",
     [C("a", "Renew 'The Overstory'", "loan_action", "due tomorrow"),
      C("b", "Renew 'Piranesi'", "loan_action", "due today"), C("c", "Renew all", "loan_action")],
     EX("b")),
   T("thanks! do the other book too",
     [C("a", "Renew 'The Overstory'", "loan_action", "due tomorrow"),
      C("b", "Pay late fee £0.80", "loan_action", risk=True)],
     EX("a")),
   T("that's everything, cheers",
     [C("a", "Pay late fee £0.80", "loan_action", risk=True), C("b", "View my loans", "loan_action")],
     ES("cancel"))])

# ---------------------------------------------------------------- 12 ack_then_new_request
D("z032", "ack_then_new_request", "travel_booking", "en",
  "'ok, does it cover lost luggage?' acknowledges and asks: a question, not a yes. 'alright, add "
  "it' is then a yes to the confirmation.",
  [T("ok, does it cover lost luggage?",
     [C("a", "Add travel insurance", "add_on", "€14.90 per trip", risk=True)],
     ES("question_intent"), asked=CF),
   T("alright, add it",
     [C("a", "Add travel insurance", "add_on", "€14.90 per trip", risk=True)],
     EX("a"), asked=CF)])

D("z033", "ack_then_new_request", "electronics", "en",
  "'got it. do you have this laptop in silver?' is a new question, not a yes to the warranty. "
  "'silver' picks the colour; a bare 'ok' to the warranty confirmation is a yes.",
  [T("got it. do you have this laptop in silver?",
     [C("a", "Add 2-year warranty", "add_on", "£39")],
     ES("question_intent"), asked=CF),
   T("silver",
     [C("a", "Space grey", "colour"), C("b", "Silver", "colour"), C("c", "Midnight", "colour")],
     EX("b"), asked=CH),
   T("ok",
     [C("a", "Add 2-year warranty", "add_on", "£39")],
     EX("a"), asked=CF)])

# ---------------------------------------------------------------- 13 choice_with_question
D("z034", "choice_with_question", "airline", "en",
  "'14C — is that close to the toilets?' chooses 14C and asks. 'no extra bags, and email me the "
  "boarding pass' chooses and asks for more.",
  [T("14C — is that close to the toilets?",
     [C("a", "14A · window", "seat"), C("b", "14C · aisle", "seat"),
      C("c", "22F · window · extra legroom", "seat", "+€25")],
     EX("b", "question"), asked=CH),
   T("no extra bags, and email me the boarding pass please",
     [C("a", "Add checked bag 23 kg", "baggage", "€35"), C("b", "Add cabin bag", "baggage", "€15"),
      C("c", "No extra bags", "baggage")],
     EX("c", "request"))])

D("z035", "choice_with_question", "furniture", "en",
  "'is there nothing on Saturday?' asks without choosing. Then Monday afternoon plus a request for "
  "carrying it upstairs.",
  [T("is there nothing on Saturday?",
     [C("a", "Mon 8:00–12:00", "delivery_slot"), C("b", "Mon 12:00–18:00", "delivery_slot"),
      C("c", "Pick up in store", "delivery_slot")],
     ES("question_intent"), asked=CH),
   T("ok Monday afternoon then, and please ask them to carry it up to the third floor",
     [C("a", "Mon 8:00–12:00", "delivery_slot"), C("b", "Mon 12:00–18:00", "delivery_slot"),
      C("c", "Pick up in store", "delivery_slot")],
     EX("b", "request"), asked=CH)])

D("z036", "choice_with_question", "museum", "it",
  "'il ridotto, ma serve un documento?' chooses the reduced ticket and asks. 'quale orario è meno "
  "affollato?' only asks. 'le dieci e mezza' is 10:30.",
  [T("il ridotto, ma serve un documento?",
     [C("a", "Intero", "biglietto", "15 €"), C("b", "Ridotto 18–25 anni", "biglietto", "2 €"),
      C("c", "Gratuito under 18", "biglietto", "0 €")],
     EX("b", "question"), asked=CH),
   T("quale orario è meno affollato?",
     [C("a", "10:00", "fascia_oraria"), C("b", "10:30", "fascia_oraria"), C("c", "11:00", "fascia_oraria")],
     ES("question_intent"), asked=CH),
   T("allora le dieci e mezza",
     [C("a", "10:00", "fascia_oraria"), C("b", "10:30", "fascia_oraria"), C("c", "11:00", "fascia_oraria")],
     EX("b"), asked=CH)])

# ---------------------------------------------------------------- 14 shorthand
D("z037", "shorthand", "dentist", "en",
  "'canc' is short for the RISK_HIGH Cancel appointment: confirm. 'n' is a texted no. 'resched' is "
  "Reschedule.",
  [T("canc",
     [C("a", "Reschedule", "appointment_action"),
      C("b", "Cancel appointment", "appointment_action", "Thu 11:00 · check-up", risk=True),
      C("c", "Add a note", "appointment_action")],
     CL("b")),
   T("n",
     [C("b", "Cancel appointment", "appointment_action", "Thu 11:00 · check-up", risk=True)],
     ES("declined"), asked=CF),
   T("resched then",
     [C("a", "Reschedule", "appointment_action"),
      C("b", "Cancel appointment", "appointment_action", "Thu 11:00 · check-up", risk=True),
      C("c", "Add a note", "appointment_action")],
     EX("a"))])

D("z038", "shorthand", "cafe", "en",
  "'capp' is Cappuccino. 'choc' is short for both the chocolate chip cookie and hot chocolate: ask; "
  "'the cookie' settles it.",
  [T("capp pls",
     [C("a", "Cappuccino", "drink"), C("b", "Caramel macchiato", "drink"),
      C("c", "Cold brew", "drink"), C("d", "Flat white", "drink")],
     EX("a")),
   T("and a choc too",
     [C("a", "Chocolate chip cookie", "item"), C("b", "Hot chocolate", "item"),
      C("c", "Blueberry muffin", "item")],
     CL("a", "b")),
   T("the cookie",
     [C("a", "Chocolate chip cookie", "item"), C("b", "Hot chocolate", "item")],
     EX("a"), asked=CH)])

# ---------------------------------------------------------------- 15 two_requests_in_order
D("z039", "two_requests_in_order", "connected_car", "en",
  "'warm it up first, then unlock it': climate now, unlocking requested after. Then 'now unlock' "
  "does the second step.",
  [T("warm it up first, then unlock it",
     [C("a", "Unlock doors", "car_action"), C("b", "Start climate control", "car_action"),
      C("c", "Flash lights", "car_action"), C("d", "Lock doors", "car_action")],
     EX("b", "request")),
   T("now unlock",
     [C("a", "Unlock doors", "car_action"), C("b", "Stop climate control", "car_action", "running · 21 °C"),
      C("c", "Flash lights", "car_action")],
     EX("a"))])

D("z040", "two_requests_in_order", "photos", "en",
  "'make a slideshow or just share it' offers alternatives: ask between the two. 'share it first, "
  "then download everything' shares now with a request for the download.",
  [T("make a slideshow or just share it, whatever's easier",
     [C("a", "Share album", "album_action"), C("b", "Download all", "album_action"),
      C("c", "Create slideshow", "album_action"), C("d", "Delete album", "album_action", risk=True)],
     CL("c", "a")),
   T("share it first, then download everything to my laptop",
     [C("c", "Create slideshow", "album_action"), C("a", "Share album", "album_action")],
     EX("a", "request"), asked=CH)])

SCORING = {
    "debatable": ["z007#2", "z008#1", "z014#1", "z029#2", "z004#1"],
    "knowledge": ["z017#2"],
}

if __name__ == "__main__":
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in DIALOGUES:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(DIALOGUES)} dialogues")
