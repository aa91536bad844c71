#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh62 blind set (written from BRIEF.md only)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))


def C(cid, label, kind, sub=None, risk=False):
    c = {"id": cid, "label": label}
    if sub:
        c["sublabel"] = sub
    c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def X(cid, fu=None):
    e = {"execute": cid}
    if fu:
        e["follow_up"] = fu
    return e


def Q(*ids):
    return {"clarify": list(ids)}


def E(reason):
    return {"escape": reason}


def T(inp, cands, expect, asked=None, rejected=False, commands=None):
    return {"inp": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


DIALOGUES = []


def D(did, cat, domain, lang, note, *turns):
    DIALOGUES.append((did, cat, domain, lang, note, turns))


# ---------------------------------------------------------------- 1 signed_numbers
thermo = lambda: [C("a", "Lower by 1°", "setpoint"), C("b", "Raise by 1°", "setpoint"),
                  C("c", "Raise by 2°", "setpoint"), C("d", "Hold current temperature", "setpoint")]
D("p001", "signed_numbers", "smart_home", "en",
  "'+2' is an offset (raise by 2), not position 2; then a plain '2nd one' is a position.",
  T("+2", thermo(), X("c")),
  T("2nd one", [C("a", "Until 10 pm", "hold_period"), C("b", "Until tomorrow morning", "hold_period"),
                C("c", "Permanently", "hold_period")], X("b"), asked="ASKED_CHOICE"))

D("p002", "signed_numbers", "flights", "en",
  "'B3' is a gate code, not position 3; a bare '2' matches both position 2 (14C) and seat code 2A, so ask.",
  T("track the one leaving from B3",
    [C("a", "LH 2040 · 14:05", "flight", "Gate A12"), C("b", "LH 2044 · 16:40", "flight", "Gate B3"),
     C("c", "LH 2048 · 19:15", "flight", "Gate C7")], X("b")),
  T("2",
    [C("a", "14A · window", "seat"), C("b", "14C · aisle", "seat"),
     C("c", "2A · extra legroom", "seat", "+€35", risk=True)], Q("b", "c"), asked="ASKED_CHOICE"),
  T("the aisle seat",
    [C("b", "14C · aisle", "seat"), C("c", "2A · extra legroom", "seat", "+€35", risk=True)],
    X("b"), asked="ASKED_CHOICE"))

D("p003", "signed_numbers", "calendar", "de",
  "'+2' is the UTC offset of Athens, not position 2 (Berlin); '-1h' is one hour before, not position 1.",
  T("+2 bitte",
    [C("a", "UTC−1 · Azoren", "timezone"), C("b", "UTC+1 · Berlin", "timezone"),
     C("c", "UTC+2 · Athen", "timezone")], X("c"), asked="ASKED_CHOICE"),
  T("-1h",
    [C("a", "10 Minuten vorher", "reminder"), C("b", "30 Minuten vorher", "reminder"),
     C("c", "1 Stunde vorher", "reminder")], X("c"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 2 changed_value_not_yes
D("p004", "changed_value_not_yes", "restaurant", "en",
  "A different hour in answer to a confirmation is a change, not a yes; the same hour as 20:00 is a yes.",
  T("make it 8 instead",
    [C("a", "Table for 2 · Fri 7:00 pm", "reservation", "Trattoria Roma")], E("declined"),
    asked="ASKED_CONFIRMATION"),
  T("20:00 is perfect",
    [C("a", "Table for 2 · Fri 8:00 pm", "reservation", "Trattoria Roma")], X("a"),
    asked="ASKED_CONFIRMATION"))

D("p005", "changed_value_not_yes", "banking", "en",
  "Amount in words that differs ($215 vs $250) is a change; the same amount in words with yes confirms the RISK_HIGH transfer; 'first of every month' = 'on the 1st'.",
  T("two hundred fifteen",
    [C("a", "Send $250.00 to Maria Lopez", "transfer", risk=True)], E("declined"),
    asked="ASKED_CONFIRMATION"),
  T("yes, two hundred and fifteen dollars",
    [C("a", "Send $215.00 to Maria Lopez", "transfer", risk=True)], X("a"),
    asked="ASKED_CONFIRMATION"),
  T("yeah, first of every month works",
    [C("a", "Repeat this transfer monthly on the 1st", "schedule")], X("a"),
    asked="ASKED_CONFIRMATION"))

D("p006", "changed_value_not_yes", "clinic", "es",
  "'a las diez y media' = 10:30, a yes; 'a las ocho de la tarde' = 20:00, differs from 18:00, a change.",
  T("sí, a las diez y media",
    [C("a", "Cita con la Dra. Ruiz · martes 10:30", "appointment")], X("a"),
    asked="ASKED_CONFIRMATION"),
  T("mejor a las ocho de la tarde",
    [C("a", "Recordatorio por SMS el lunes a las 18:00", "reminder")], E("declined"),
    asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
movies = lambda ids=("a", "b", "c"): [c for c in [C("a", "Last Christmas", "movie"), C("b", "First Man", "movie"),
                                                  C("c", "The Third Man", "movie")] if c["id"] in ids]
D("p007", "ordinal_word_in_labels", "streaming", "en",
  "Bare 'first' is position 1 (Last Christmas) or the title First Man: ask; the full title then decides.",
  T("first", movies(), Q("a", "b")),
  T("First Man", movies(("a", "b")), X("b"), asked="ASKED_CHOICE"))

D("p008", "ordinal_word_in_labels", "shopping", "en",
  "'next day' is the label word of Next-day, not 'the next option'; 'same as last time' names the last-used address, not the last item.",
  T("next day please",
    [C("a", "Standard · free", "shipping", "5–7 days"), C("b", "Next-day · $4.99", "shipping"),
     C("c", "Same-day · $9.99", "shipping")], X("b"), asked="ASKED_CHOICE"),
  T("same as last time",
    [C("a", "Last used address · 12 Elm St", "address"), C("b", "Home · 4 Oak Ave", "address"),
     C("c", "Work · 90 Pine Rd", "address")], X("a"), asked="ASKED_CHOICE"))

songs = lambda ids=("a", "b", "c"): [c for c in [C("a", "Premier rendez-vous", "song"),
                                                 C("b", "La dernière danse", "song"),
                                                 C("c", "Deuxième chance", "song")] if c["id"] in ids]
D("p009", "ordinal_word_in_labels", "music", "fr",
  "'la deuxième' is position 2 (La dernière danse) or the title Deuxième chance: ask.",
  T("mets la deuxième", songs(), Q("b", "c")),
  T("la chanson Deuxième chance", songs(("b", "c")), X("c"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 4 quantity_noun
D("p010", "quantity_noun", "cafe", "en",
  "'one espresso' is the Espresso, not the Double; 'two croissants' is the Croissant item, not the deal that also has coffees.",
  T("one espresso please",
    [C("a", "Espresso · $2.80", "menu_item"), C("b", "Double espresso · $3.60", "menu_item"),
     C("c", "Espresso & croissant · $5.50", "menu_item")], X("a")),
  T("two croissants",
    [C("a", "Croissant · $2.90", "menu_item"), C("b", "Breakfast deal · 2 croissants + 2 coffees", "menu_item", "$9.90"),
     C("c", "Pain au chocolat · $3.20", "menu_item")], X("a")))

hk = lambda: [C("a", "Extra towel", "housekeeping"), C("b", "Bath set · 2 towels, bathrobe, slippers", "housekeeping"),
              C("c", "Extra pillow · feather", "housekeeping"), C("d", "Extra pillow · foam", "housekeeping")]
D("p011", "quantity_noun", "hotel", "en",
  "'2 towels' is the Extra towel item, not the bath set that mentions 2 towels; 'a pillow' fits two pillows: ask.",
  T("2 towels please", hk(), X("a")),
  T("and a pillow", hk(), Q("c", "d")),
  T("foam", [C("c", "Extra pillow · feather", "housekeeping"), C("d", "Extra pillow · foam", "housekeeping")],
    X("d"), asked="ASKED_CHOICE"))

masks = lambda: [C("a", "Mascherina FFP2", "product"), C("b", "Confezione da 10 mascherine FFP2", "product"),
                 C("c", "Gel igienizzante 100 ml", "product")]
D("p012", "quantity_noun", "pharmacy", "it",
  "'tre mascherine' is the single mask item (x3), not the pack of 10; 'due confezioni' names the pack.",
  T("tre mascherine", masks(), X("a")),
  T("e anche due confezioni", masks(), X("b")))

# ---------------------------------------------------------------- 5 everyday_verb
mtg = lambda: [C("a", "Reschedule", "meeting_action"), C("b", "Decline", "meeting_action"),
               C("c", "Cancel meeting", "meeting_action", risk=True), C("d", "Add note", "meeting_action")]
D("p013", "everyday_verb", "calendar", "en",
  "'push it back' = Reschedule; 'call it off' = Cancel meeting, which is RISK_HIGH and not said whole: confirm, then yes executes.",
  T("push it back", mtg(), X("a")),
  T("call the whole thing off", mtg(), Q("c")),
  T("yes", [C("c", "Cancel meeting", "meeting_action", risk=True)], X("c"), asked="ASKED_CONFIRMATION"))

fileacts = lambda: [C("a", "Move to Trash", "file_action", risk=True), C("b", "Duplicate", "file_action"),
                    C("c", "Rename", "file_action"), C("d", "Compress", "file_action")]
D("p014", "everyday_verb", "files", "en",
  "'make a copy' = Duplicate; 'zip it up' = Compress.",
  T("make a copy of it", fileacts(), X("b")),
  T("now zip it up", fileacts(), X("d")))

cardacts = lambda: [C("a", "Bloquear cartão", "card_action", risk=True), C("b", "Pedir segunda via", "card_action"),
                    C("c", "Alterar limite", "card_action"), C("d", "Ver fatura", "card_action")]
D("p015", "everyday_verb", "banking", "pt",
  "'aumentar meu limite' = Alterar limite; 'trava ele' = Bloquear cartão, RISK_HIGH not said whole: confirm; 'sim' executes.",
  T("quero aumentar meu limite", cardacts(), X("c")),
  T("perdi o cartão, trava ele agora", cardacts(), Q("a")),
  T("sim", [C("a", "Bloquear cartão", "card_action", risk=True)], X("a"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 6 value_other_way
D("p016", "value_other_way", "cinema", "en",
  "'this weekend' fits Sat and Sun: ask; 'the 16th' = Sun 16 Mar; 'quarter to nine' = 20:45.",
  T("this weekend",
    [C("a", "Fri 14 Mar", "date"), C("b", "Sat 15 Mar", "date"), C("c", "Sun 16 Mar", "date")],
    Q("b", "c"), asked="ASKED_CHOICE"),
  T("the 16th", [C("b", "Sat 15 Mar", "date"), C("c", "Sun 16 Mar", "date")], X("c"), asked="ASKED_CHOICE"),
  T("quarter to nine",
    [C("a", "18:30", "showtime"), C("b", "20:45", "showtime"), C("c", "22:15", "showtime")],
    X("b"), asked="ASKED_CHOICE"))

D("p017", "value_other_way", "shopping", "de",
  "'Medium' = size M; 'am 4.3.' = Di, 4. März.",
  T("Medium, bitte",
    [C("a", "S", "size"), C("b", "M", "size"), C("c", "L", "size"), C("d", "XL", "size")],
    X("b"), asked="ASKED_CHOICE"),
  T("am 4.3.",
    [C("a", "Mo, 3. März", "delivery_day"), C("b", "Di, 4. März", "delivery_day"),
     C("c", "Mi, 5. März", "delivery_day")], X("b"), asked="ASKED_CHOICE"))

D("p018", "value_other_way", "parking", "nl",
  "'een half uurtje' = 30 min; 'anderhalf uur' (1.5 h) is on no option: ask between +1 uur and +2 uur.",
  T("een half uurtje",
    [C("a", "30 min", "duration"), C("b", "1 uur", "duration"), C("c", "2 uur", "duration"),
     C("d", "Hele dag", "duration")], X("a"), asked="ASKED_CHOICE"),
  T("doe er nog anderhalf uur bij",
    [C("a", "+30 min", "extension"), C("b", "+1 uur", "extension"), C("c", "+2 uur", "extension")],
    Q("b", "c"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 7 object_alone
thread = lambda: [C("a", "Archive thread", "email_action"), C("b", "Delete thread", "email_action", risk=True),
                  C("c", "Forward to Dana", "email_action"), C("d", "Reply all", "email_action")]
D("p019", "object_alone", "email", "en",
  "'Dana' is the object of only Forward to Dana; 'the thread' is shared by Archive and Delete: ask.",
  T("Dana please", thread(), X("c")),
  T("the thread", thread(), Q("a", "b")),
  T("archive", [C("a", "Archive thread", "email_action"), C("b", "Delete thread", "email_action", risk=True)],
    X("a"), asked="ASKED_CHOICE"))

D("p020", "object_alone", "car_rental", "en",
  "'the GPS' names only Add GPS; 'insurance' is shared by two add options: ask; 'full' then decides.",
  T("the GPS",
    [C("a", "Add child seat", "extra"), C("b", "Add GPS", "extra"), C("c", "Add second driver", "extra")], X("b")),
  T("insurance",
    [C("a", "Add basic insurance", "extra"), C("b", "Add full insurance", "extra"), C("c", "Remove GPS", "extra")],
    Q("a", "b")),
  T("full", [C("a", "Add basic insurance", "extra"), C("b", "Add full insurance", "extra")], X("b"),
    asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
photos = lambda ids=("a", "b", "c"): [c for c in [C("a", "Team offsite 2023.jpg", "photo"),
                                                  C("b", "Team offsite 2024.jpg", "photo"),
                                                  C("c", "Product launch.jpg", "photo")] if c["id"] in ids]
D("p021", "distinguishing_word_plus_kind", "files", "en",
  "'draft' + kind word 'spreadsheet' = the draft file; 'offsite photo' fits two photos: ask; '2024' is a label value, not a position.",
  T("open the draft spreadsheet",
    [C("a", "Q3 budget.xlsx", "spreadsheet"), C("b", "Q3 budget final.xlsx", "spreadsheet"),
     C("c", "Q3 budget draft.xlsx", "spreadsheet")], X("c")),
  T("the offsite photo", photos(), Q("a", "b")),
  T("2024", photos(("a", "b")), X("b"), asked="ASKED_CHOICE"))

D("p022", "distinguishing_word_plus_kind", "telecom", "en",
  "'basic' + 'plan' = Unlimited Basic; 'world' + 'add-on' = World roaming pass.",
  T("the basic plan",
    [C("a", "Unlimited Plus · $65/mo", "plan"), C("b", "Unlimited Basic · $45/mo", "plan"),
     C("c", "Starter 5 GB · $25/mo", "plan")], X("b"), asked="ASKED_CHOICE"),
  T("the world add-on",
    [C("a", "EU roaming pass · $10", "add_on"), C("b", "World roaming pass · $25", "add_on"),
     C("c", "Extra 10 GB · $15", "add_on")], X("b")))

D("p023", "distinguishing_word_plus_kind", "hotel", "fr",
  "'vue mer' + kind word 'chambre' = Double vue mer; 'le tarif non remboursable' says the RISK_HIGH label whole plus the kind word, so it executes.",
  T("la chambre vue mer, s'il vous plaît",
    [C("a", "Double standard", "room", "120 € / nuit"), C("b", "Double vue mer", "room", "155 € / nuit"),
     C("c", "Suite junior", "room", "210 € / nuit")], X("b"), asked="ASKED_CHOICE"),
  T("le tarif non remboursable",
    [C("a", "Flexible", "rate", "annulation gratuite"), C("b", "Non remboursable", "rate", "-10 %", risk=True)],
    X("b"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 9 correction_after_execute
rides = lambda ids=("a", "b", "c"): [c for c in [C("a", "Standard · 4 min · $18", "ride"),
                                                 C("b", "Comfort · 6 min · $24", "ride"),
                                                 C("c", "XL · 9 min · $31", "ride")] if c["id"] in ids]
D("p024", "correction_after_execute", "ride_hailing", "en",
  "Standard executed, then 'wrong one, the other one' names nothing: ask between the two left; 'XL' decides.",
  T("standard", rides(), X("a"), asked="ASKED_CHOICE", rejected=True),
  T("no wait, wrong one — I meant the other one", rides(), Q("b", "c")),
  T("XL, there are six of us", rides(("b", "c")), X("c"), asked="ASKED_CHOICE"))

pizzas = lambda: [C("a", "Pizza Margherita", "pizza", "8,50 €"), C("b", "Pizza Funghi", "pizza", "9,50 €"),
                  C("c", "Pizza Diavola", "pizza", "10,00 €")]
D("p025", "correction_after_execute", "food_delivery", "de",
  "Margherita executed, then the user says it was wrong and names Funghi.",
  T("Margherita", pizzas(), X("a"), rejected=True),
  T("Nee, falsch, ich wollte die Funghi", pizzas(), X("b")))

# ---------------------------------------------------------------- 10 self_correcting_reply
D("p026", "self_correcting_reply", "workplace", "en",
  "Aspen taken back for Birch; 'an hour... make that two' ends on 2 hours.",
  T("Aspen — no, actually Birch, we're seven",
    [C("a", "Aspen · 4 seats", "room"), C("b", "Birch · 8 seats", "room"), C("c", "Cedar · 12 seats", "room")],
    X("b"), asked="ASKED_CHOICE"),
  T("an hour... hm, make that two",
    [C("a", "30 min", "duration"), C("b", "1 hour", "duration"), C("c", "2 hours", "duration")],
    X("c"), asked="ASKED_CHOICE"))

D("p027", "self_correcting_reply", "subscriptions", "en",
  "Pause taken back for Skip next delivery; later the last choice is the RISK_HIGH cancel, not said whole: confirm, then yes.",
  T("pause it — no wait, just skip the next delivery",
    [C("a", "Pause subscription", "subscription_action"), C("b", "Skip next delivery", "subscription_action"),
     C("c", "Cancel subscription", "subscription_action", risk=True)], X("b")),
  T("change the day... no, actually, I want to stop the subscription",
    [C("a", "Skip the following delivery too", "subscription_action"),
     C("b", "Change delivery day", "subscription_action"),
     C("c", "Cancel subscription", "subscription_action", risk=True)], Q("c")),
  T("yes", [C("c", "Cancel subscription", "subscription_action", risk=True)], X("c"),
    asked="ASKED_CONFIRMATION"))

fl = lambda ids=("a", "b", "c"): [c for c in [C("a", "07:10 · 1 stop", "flight", "€89"),
                                              C("b", "12:35 · direct", "flight", "€129"),
                                              C("c", "18:50 · direct", "flight", "€115")] if c["id"] in ids]
D("p028", "self_correcting_reply", "flights", "en",
  "The early flight is taken back for 'a direct one', which fits two flights: ask; 'the evening one' decides.",
  T("the early one — no wait, a direct one", fl(), Q("b", "c"), asked="ASKED_CHOICE"),
  T("the evening one", fl(("b", "c")), X("c"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 11 closing_after_execute
D("p029", "closing_after_execute", "pharmacy", "en",
  "After the refill executed, 'thanks, that's all' with nothing asked closes the task (cancel), not the Cancel refill option.",
  T("refill my metformin",
    [C("a", "Refill lisinopril 10 mg", "prescription"), C("b", "Refill metformin 500 mg", "prescription"),
     C("c", "Transfer a prescription", "prescription")], X("b")),
  T("great, thanks, that's all",
    [C("a", "Track order", "order_action"), C("b", "Change pickup store", "order_action"),
     C("c", "Cancel refill", "order_action", risk=True)], E("cancel")))

D("p030", "closing_after_execute", "groceries", "en",
  "Thanks followed by a request is not a closing (execute Email receipt); the later 'that's everything, cheers' is.",
  T("tomorrow morning",
    [C("a", "Today 6–8 pm", "delivery_slot"), C("b", "Tomorrow 8–10 am", "delivery_slot"),
     C("c", "Tomorrow 6–8 pm", "delivery_slot")], X("b"), asked="ASKED_CHOICE"),
  T("thanks! oh, and email me the receipt",
    [C("a", "Email receipt", "order_action"), C("b", "Add a delivery note", "order_action"),
     C("c", "Cancel order", "order_action", risk=True)], X("a")),
  T("perfect, that's everything, cheers",
    [C("a", "Add a delivery note", "order_action"), C("b", "Cancel order", "order_action", risk=True)],
    E("cancel")))

# ---------------------------------------------------------------- 12 ack_then_new_request
hotel_bk = lambda: [C("a", "Book Hotel Lumen · 2 nights · $318", "booking", "Sat–Mon", risk=True)]
D("p031", "ack_then_new_request", "hotel", "en",
  "'ok — does it have free parking?' is an acknowledgement plus a question, not a yes; 'ok, book it' is the yes.",
  T("ok — does it have free parking though?", hotel_bk(), E("question_intent"), asked="ASKED_CONFIRMATION"),
  T("ok, book it", hotel_bk(), X("a"), asked="ASKED_CONFIRMATION"))

fiber = lambda: [C("a", "Upgrade to Fiber 500 · $59/mo", "plan_change", risk=True)]
D("p032", "ack_then_new_request", "telecom", "en",
  "'ok, noted' then a turn command (speed test) is not a yes to the upgrade; then a plain no is declined.",
  T("ok, noted. test my speed on the current line", fiber(), E("command"), asked="ASKED_CONFIRMATION",
    commands=[{"id": "speed_test", "label": "Run speed test",
               "phrases": ["speed test", "test my speed", "run a speed test"]}]),
  T("nah, I'll stay on what I have", fiber(), E("declined"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 13 choice_with_question
D("p033", "choice_with_question", "fitness", "en",
  "Spin chosen plus a question; Add to calendar chosen plus a further request (reminder).",
  T("spin please — do I need my own shoes?",
    [C("a", "Yoga · Tue 6:00 pm", "class"), C("b", "Spin · Tue 7:00 pm", "class"),
     C("c", "Pilates · Wed 6:00 pm", "class")], X("b", "question"), asked="ASKED_CHOICE"),
  T("add it to my calendar and remind me an hour before",
    [C("a", "Add to calendar", "booking_action"), C("b", "Invite a friend", "booking_action"),
     C("c", "Cancel booking", "booking_action", risk=True)], X("a", "request")))

cars = lambda: [C("a", "Compact · Toyota Yaris", "car"), C("b", "SUV · Kia Sportage", "car"),
                C("c", "Van · Ford Transit", "car")]
D("p034", "choice_with_question", "car_rental", "en",
  "A question with no choice is question_intent; then the van chosen plus a question.",
  T("which of these fits five suitcases?", cars(), E("question_intent")),
  T("OK, the van then — can I return it at the airport?", cars(), X("c", "question")))

dishes = lambda ids=("a", "b", "c"): [c for c in [C("a", "Grilled salmon", "dish"), C("b", "Salmon poke bowl", "dish"),
                                                  C("c", "Mushroom risotto", "dish")] if c["id"] in ids]
D("p035", "choice_with_question", "restaurant", "en",
  "'the salmon, is it spicy?' fits two salmon dishes: ask first; 'the grilled one' decides.",
  T("the salmon, is it spicy?", dishes(), Q("a", "b")),
  T("the grilled one", dishes(("a", "b")), X("a"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 14 shorthand
D("p036", "shorthand", "reminders", "en",
  "'tmrw' = Tomorrow; 'aftn' = Afternoon.",
  T("tmrw pls",
    [C("a", "Today", "day"), C("b", "Tomorrow", "day"), C("c", "Thursday", "day")], X("b"), asked="ASKED_CHOICE"),
  T("aftn",
    [C("a", "Morning · 9 am", "time_of_day"), C("b", "Afternoon · 2 pm", "time_of_day"),
     C("c", "Evening · 7 pm", "time_of_day")], X("b"), asked="ASKED_CHOICE"))

bankmenu = lambda ids=("a", "b", "c", "d"): [c for c in [C("a", "Transfer between my accounts", "menu"),
                                                         C("b", "Transactions", "menu"),
                                                         C("c", "Transfer to someone else", "menu"),
                                                         C("d", "Statements", "menu")] if c["id"] in ids]
D("p037", "shorthand", "banking", "en",
  "'trans' cuts three labels short (two Transfers, Transactions): ask; 'txns' is texting for Transactions.",
  T("trans", bankmenu(), Q("a", "b", "c")),
  T("txns", bankmenu(("a", "b", "c")), X("b"), asked="ASKED_CHOICE"))

slots_es = lambda ids=("a", "b", "c"): [c for c in [C("a", "Hoy 18–20 h", "delivery_slot"),
                                                    C("b", "Mañana 9–11 h", "delivery_slot"),
                                                    C("c", "Mañana 18–20 h", "delivery_slot")] if c["id"] in ids]
D("p038", "shorthand", "groceries", "es",
  "'s/lactosa' = sin lactosa; 'mñn' (mañana) fits two slots: ask; 'x la tarde' (por la tarde) decides.",
  T("la s/lactosa",
    [C("a", "Leche entera", "product"), C("b", "Leche desnatada", "product"), C("c", "Leche sin lactosa", "product")],
    X("c")),
  T("mñn", slots_es(), Q("b", "c"), asked="ASKED_CHOICE"),
  T("x la tarde", slots_es(("b", "c")), X("c"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 15 two_requests_in_order
D("p039", "two_requests_in_order", "smart_home", "en",
  "'lights first, then the alarm' executes the lights with a request follow-up; the next turn asks for the alarm.",
  T("turn off all the lights first, then arm the alarm",
    [C("a", "Lock front door", "scene"), C("b", "Turn off all lights", "scene"), C("c", "Arm alarm", "scene"),
     C("d", "Start robot vacuum", "scene")], X("b", "request")),
  T("now the alarm",
    [C("a", "Lock front door", "scene"), C("b", "Arm alarm", "scene"), C("c", "Start robot vacuum", "scene")],
    X("b")))

pl = lambda ids=("a", "b", "c"): [c for c in [C("a", "Chill evening", "playlist"), C("b", "Workout mix", "playlist"),
                                              C("c", "Top 40 radio", "playlist")] if c["id"] in ids]
D("p040", "two_requests_in_order", "music", "en",
  "'X or Y' is an alternative: ask; 'Workout mix, then turn it up' executes with a request follow-up.",
  T("put on chill evening or the workout mix", pl(), Q("a", "b")),
  T("workout mix, then turn the volume up", pl(("a", "b")), X("b", "request"), asked="ASKED_CHOICE"))

SCORING = {
    "debatable": ["p002#2", "p004#1", "p007#1", "p018#2"],
    "knowledge": [],
}


def build():
    out = []
    for did, cat, domain, lang, note, turns in DIALOGUES:
        dl = []
        for n, t in enumerate(turns, 1):
            opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
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
        out.append({"id": did, "category": cat, "domain": domain, "language": lang, "note": note, "dialogue": dl})
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
