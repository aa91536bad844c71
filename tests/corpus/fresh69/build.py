#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh69 blind set (written from BRIEF.md only)."""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))


def c(id, label, kind, sub=None, risk=False):
    d = {"id": id, "label": label}
    if sub:
        d["sublabel"] = sub
    d["kind"] = kind
    if risk:
        d["risk"] = "RISK_HIGH"
    return d


def T(input, cands, expect, asked=None, rejected=False, commands=None):
    return {"input": input, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


EX = lambda i, fu=None: ({"execute": i, "follow_up": fu} if fu else {"execute": i})
CL = lambda *ids: {"clarify": list(ids)}
ES = lambda r: {"escape": r}
CH, CF = "ASKED_CHOICE", "ASKED_CONFIRMATION"

D = []


def dlg(id, category, domain, language, note, turns):
    D.append(dict(id=id, category=category, domain=domain, language=language, note=note, turns=turns))


# ---------------------------------------------------------------- 1 signed_numbers
tz = lambda: [c("a", "UTC-3 São Paulo", "timezone"), c("b", "UTC+1 Berlin", "timezone"),
              c("c", "UTC+2 Athens", "timezone"), c("d", "UTC+1 Lagos", "timezone")]
dlg("w001", "signed_numbers", "world_clock", "en",
    "'+2' is an offset (Athens), not the 2nd item (Berlin); '+1' fits two zones, so ask.",
    [T("+2", tz(), EX("c"), CH),
     T("+1 as well", [x for x in tz() if x["id"] != "c"] + [c("e", "Done", "action")], CL("b", "d")),
     T("Lagos", [x for x in tz() if x["id"] in ("b", "d")], EX("d"), CH)])

dlg("w002", "signed_numbers", "parking", "en",
    "'-2' is a level, not the 2nd item (Level 1); '+1h' is an extension, not item 1 (a RISK_HIGH payment).",
    [T("-2", [c("a", "Level 2", "level"), c("b", "Level 1", "level"), c("c", "Ground floor", "level"),
              c("d", "Level -1", "level"), c("e", "Level -2", "level")], EX("e"), CH),
     T("+1h", [c("a", "Pay €6.40 now", "payment", risk=True), c("b", "Extend by 1 hour", "extension"),
               c("c", "Extend by 2 hours", "extension")], EX("b"))])

dlg("w003", "signed_numbers", "parcel_locker", "de",
    "'B1' is a locker code, not the 1st item (A3); 'das mit der 3' names locker A3.",
    [T("B1 bitte", [c("a", "Fach A3", "locker", "Paket von Lindner Versand"), c("b", "Fach C2", "locker", "Paket von Buchhaus Meyer"),
                    c("c", "Fach B1", "locker", "Paket von Gartenwelt")], EX("c"), CH),
     T("jetzt noch das mit der 3", [c("a", "Fach A3", "locker", "Paket von Lindner Versand"),
                                    c("b", "Fach C2", "locker", "Paket von Buchhaus Meyer")], EX("a"), CH)])

# ---------------------------------------------------------------- 2 changed_value_not_yes
dlg("w004", "changed_value_not_yes", "restaurant", "en",
    "A different day in reply to a confirmation is a change, not a yes; the same date and time in words is a yes.",
    [T("Saturday would suit us better", [c("a", "Table for 4 · Fri 14 June, 7:30 pm", "reservation")], ES("declined"), CF),
     T("yes, the 15th at half past seven, perfect", [c("a", "Table for 4 · Sat 15 June, 7:30 pm", "reservation")], EX("a"), CF)])

dlg("w005", "changed_value_not_yes", "hair_salon", "de",
    "'halb acht' is 19:30, not the offered 18:30: a change. On the new list it names 19:30.",
    [T("lieber um halb acht", [c("a", "Haarschnitt bei Jana · Sa 18:30", "appointment")], ES("declined"), CF),
     T("halb acht", [c("a", "Sa 19:00 · Jana", "slot"), c("b", "Sa 19:30 · Jana", "slot"), c("c", "Sa 20:00 · Jana", "slot")],
       EX("b"), CH)])

dlg("w006", "changed_value_not_yes", "banking", "en",
    "'two hundred' against a €250 transfer is a change; against the €200 transfer it is a yes (RISK_HIGH, confirmed).",
    [T("just send her two hundred", [c("a", "Send €250 to Laura Pérez", "transfer", risk=True)], ES("declined"), CF),
     T("yes, two hundred euros, go ahead", [c("a", "Send €200 to Laura Pérez", "transfer", risk=True)], EX("a"), CF)])

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
dlg("w007", "ordinal_word_in_labels", "rail", "en",
    "Bare 'first' is either the first item (Standard) or First class: ask; then 'first class' picks the label, not position 1.",
    [T("first please", [c("a", "Standard", "fare", "£42"), c("b", "Standard Premium", "fare", "£58"),
                        c("c", "First class", "fare", "£89")], CL("a", "c"), CH),
     T("first class", [c("a", "Standard", "fare", "£42"), c("c", "First class", "fare", "£89")], EX("c"), CH)])

dlg("w008", "ordinal_word_in_labels", "bike_shop", "en",
    "'second hand' is a label word (item 1), not position 2; on the next list no label has 'second', so 'the second one' is positional.",
    [T("second hand please", [c("a", "Second-hand bikes", "category"), c("b", "New bikes", "category"),
                              c("c", "Kids' bikes", "category")], EX("a"), CH),
     T("the second one", [c("a", "Gazelle city bike · 2019", "bike", "€280"), c("b", "Trek road bike · 2021", "bike", "€540"),
                          c("c", "Cube e-bike · 2020", "bike", "€1,150")], EX("b"), CH)])

dlg("w009", "ordinal_word_in_labels", "flights", "es",
    "'en primera' means first class (item 3), not the first item; 'fila 2' is a row, not item 2.",
    [T("en primera, por favor", [c("a", "Turista", "fare", "189 €"), c("b", "Turista Plus", "fare", "249 €"),
                                 c("c", "Primera clase", "fare", "720 €")], EX("c"), CH),
     T("ventana, en la fila 2", [c("a", "1A · ventana", "seat"), c("b", "1C · pasillo", "seat"),
                                 c("c", "2A · ventana", "seat")], EX("c"), CH)])

# ---------------------------------------------------------------- 4 quantity_noun
dlg("w010", "quantity_noun", "cafe", "en",
    "'3 croissants' is the croissant item, not the box whose label says 3 croissants + coffees; 'pay' alone does not say the RISK_HIGH label whole.",
    [T("3 croissants please", [c("a", "Croissant", "item", "£2.10"), c("b", "Flat white", "item", "£3.40"),
                               c("c", "Breakfast box", "bundle", "3 croissants + 2 flat whites · £12.00")], EX("a")),
     T("pay", [c("a", "Pay £6.30", "payment", risk=True), c("b", "Add something else", "action")], CL("a"))])

dlg("w011", "quantity_noun", "telecom", "en",
    "'2 SIM cards' is the extra-SIM item, not the family bundle that says 4 SIM cards + data; then an agent command.",
    [T("I need 2 SIM cards", [c("a", "Extra SIM card", "product", "€5 each"),
                              c("b", "Family bundle", "plan", "4 SIM cards + 100 GB shared · €45/month"),
                              c("c", "Data add-on", "product", "10 GB · €8")], EX("a")),
     T("actually, can I talk to a person?", [c("a", "Deliver to home address", "delivery"), c("b", "Pick up in store", "delivery")],
       ES("command"), commands=[{"id": "agent", "label": "Talk to an agent", "phrases": ["agent", "talk to a person", "human"]}])])

dlg("w012", "quantity_noun", "hardware_store", "en",
    "'100 screws' is the screws item, not the kit; '50 wall plugs' fits two plug sizes, so ask.",
    [T("100 screws", [c("a", "Wood screws 4×40 mm", "product", "€0.06 each"), c("b", "Wall plugs 6 mm", "product", "€0.04 each"),
                      c("c", "DIY starter kit", "bundle", "100 screws · 50 wall plugs · 10 drill bits")], EX("a")),
     T("and 50 wall plugs", [c("a", "Wall plugs 6 mm", "product"), c("b", "Wall plugs 8 mm", "product"),
                             c("c", "Plug assortment box", "bundle", "200 pcs")], CL("a", "b")),
     T("6 mm", [c("a", "Wall plugs 6 mm", "product"), c("b", "Wall plugs 8 mm", "product")], EX("a"), CH)])

# ---------------------------------------------------------------- 5 everyday_verb
mail = lambda: [c("a", "Archive", "email_action"), c("b", "Delete", "email_action", risk=True),
                c("c", "Mark as unread", "email_action"), c("d", "Snooze until tomorrow 9:00", "email_action")]
dlg("w013", "everyday_verb", "email", "en",
    "'remind me tomorrow' = snooze; 'bin it' = Delete, which is RISK_HIGH and not said whole: confirm first.",
    [T("remind me about this one tomorrow", mail(), EX("d")),
     T("bin this one", mail(), CL("b")),
     T("yes", [c("b", "Delete", "email_action", risk=True)], EX("b"), CF)])

dlg("w014", "everyday_verb", "pharmacy", "en",
    "'get me more' = refill; 'pick them up' = collect in store.",
    [T("I'm nearly out of my blood pressure tablets, get me more please",
       [c("a", "Refill", "prescription", "Blood pressure tablets · 30"), c("b", "Transfer to another pharmacy", "prescription"),
        c("c", "Chat with a pharmacist", "support")], EX("a")),
     T("I'll pick them up this afternoon", [c("a", "Deliver tomorrow", "fulfilment"), c("b", "Collect in store today", "fulfilment")],
       EX("b"), CH)])

dlg("w015", "everyday_verb", "utilities", "it",
    "'comunicare i numeri del contatore' = autolettura; 'saldare' = pagare, RISK_HIGH not said whole: confirm.",
    [T("ti comunico i numeri del contatore", [c("a", "Invia autolettura", "meter"), c("b", "Paga bolletta · 84,20 €", "payment", risk=True),
                                              c("c", "Scarica bolletta (PDF)", "document")], EX("a")),
     T("adesso voglio saldare la bolletta", [c("b", "Paga bolletta · 84,20 €", "payment", risk=True),
                                             c("c", "Scarica bolletta (PDF)", "document"),
                                             c("d", "Attiva bolletta via e-mail", "setting")], CL("b")),
     T("sì, procedi", [c("b", "Paga bolletta · 84,20 €", "payment", risk=True)], EX("b"), CF)])

# ---------------------------------------------------------------- 6 value_other_way
dlg("w016", "value_other_way", "calendar", "en",
    "'the 4th' fits 4 June and 4 July: ask; 'Tuesday' picks 4 June; 'half past one' = 13:30.",
    [T("the 4th", [c("a", "Mon 3 June", "date"), c("b", "Tue 4 June", "date"), c("c", "Thu 4 July", "date")], CL("b", "c"), CH),
     T("Tuesday", [c("b", "Tue 4 June", "date"), c("c", "Thu 4 July", "date")], EX("b"), CH),
     T("half past one", [c("a", "09:00", "time"), c("b", "13:30", "time"), c("c", "16:00", "time")], EX("b"), CH)])

dlg("w017", "value_other_way", "fashion", "en",
    "'medium' = M; 'dark blue' = navy; 'never mind' abandons with a RISK_HIGH buy button on screen.",
    [T("medium", [c("a", "S", "size"), c("b", "M", "size"), c("c", "L", "size"), c("d", "XL", "size")], EX("b"), CH),
     T("the dark blue", [c("a", "Navy", "colour"), c("b", "Olive", "colour"), c("c", "Black", "colour")], EX("a"), CH),
     T("never mind, I'll think about it", [c("a", "Add to bag", "action"), c("b", "Buy now · €39.90", "payment", risk=True)],
       ES("cancel"))])

dlg("w018", "value_other_way", "cinema", "es",
    "'a las ocho de la tarde' = 20:00; 'F8' = Fila F, asiento 8.",
    [T("a las ocho de la tarde", [c("a", "17:30", "showtime"), c("b", "20:00", "showtime"), c("c", "22:15", "showtime")], EX("b"), CH),
     T("la F8", [c("a", "Fila F · asiento 7", "seat"), c("b", "Fila F · asiento 8", "seat"), c("c", "Fila G · asiento 8", "seat")],
       EX("b"), CH)])

# ---------------------------------------------------------------- 7 object_alone
dlg("w019", "object_alone", "library", "en",
    "'Piranesi' alone names the one renew option; 'the late fee' names a RISK_HIGH payment not said whole: confirm; then no.",
    [T("Piranesi", [c("a", "Renew 'The Overstory'", "loan"), c("b", "Renew 'Piranesi'", "loan"),
                    c("c", "Pay late fee · $1.50", "payment", risk=True)], EX("b")),
     T("the late fee", [c("a", "Renew 'The Overstory'", "loan"), c("c", "Pay late fee · $1.50", "payment", risk=True)], CL("c")),
     T("actually no, leave it for now", [c("c", "Pay late fee · $1.50", "payment", risk=True)], ES("declined"), CF)])

dlg("w020", "object_alone", "vet", "nl",
    "'de vaccinatie' names one option; 'die afspraak van dinsdag' is the object of both move and cancel: ask.",
    [T("de vaccinatie voor Max", [c("a", "Vaccinatie inplannen", "appointment_type"), c("b", "Gebitscontrole inplannen", "appointment_type"),
                                  c("c", "Herhaalrecept aanvragen", "prescription")], EX("a")),
     T("die afspraak van dinsdag", [c("a", "Afspraak di 14:00 verzetten", "appointment"),
                                    c("b", "Afspraak di 14:00 annuleren", "appointment", risk=True)], CL("a", "b")),
     T("verzetten graag", [c("a", "Afspraak di 14:00 verzetten", "appointment"),
                           c("b", "Afspraak di 14:00 annuleren", "appointment", risk=True)], EX("a"), CH)])

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
dlg("w021", "distinguishing_word_plus_kind", "hotel", "en",
    "'city' tells the room apart, 'room' is only the kind; then a plain yes.",
    [T("the city view room please", [c("a", "Standard Queen · Courtyard View", "room", "€120"),
                                     c("b", "Deluxe King · City View", "room", "€165"),
                                     c("c", "Family Suite · Garden View", "room", "€190")], EX("b"), CH),
     T("sure, why not", [c("a", "Add breakfast · €18 per night", "extra")], EX("a"), CF)])

dlg("w022", "distinguishing_word_plus_kind", "fitness", "fr",
    "'le cours de yoga' fits two classes: ask; 'le cours dynamique' = distinguishing word + kind.",
    [T("le cours de yoga", [c("a", "Yoga doux · mardi 18h", "class"), c("b", "Yoga dynamique · jeudi 19h", "class"),
                            c("c", "Pilates · mercredi 12h30", "class")], CL("a", "b")),
     T("le cours dynamique", [c("a", "Yoga doux · mardi 18h", "class"), c("b", "Yoga dynamique · jeudi 19h", "class")], EX("b"), CH)])

# ---------------------------------------------------------------- 9 correction_after_execute
trains = lambda: [c("a", "08:15 to Leeds", "train"), c("b", "09:05 to Leeds", "train"), c("c", "10:15 to Leeds", "train")]
dlg("w023", "correction_after_execute", "rail", "en",
    "The app shows the departures again after the wrong pick; thanks at the end closes with a RISK_HIGH cancel button on screen.",
    [T("8:15", trains(), EX("a"), CH, rejected=True),
     T("sorry, wrong one, I meant the 9:05", trains(), EX("b")),
     T("great, thanks", [c("a", "Show e-ticket", "action"), c("b", "Cancel booking", "action", risk=True)], ES("cancel"))])

share = lambda: [c("a", "Partilhar com Ana Costa", "share"), c("b", "Partilhar com André Sousa", "share"),
                 c("c", "Partilhar com toda a equipa", "share")]
dlg("w024", "correction_after_execute", "files", "pt",
    "Shared with Ana, then the user says it was meant for André; the app still shows the share list.",
    [T("partilha com a Ana", share(), EX("a"), CH, rejected=True),
     T("não, enganei-me, era com o André", share(), EX("b"))])

# ---------------------------------------------------------------- 10 self_correcting_reply
dlg("w025", "self_correcting_reply", "food_delivery", "en",
    "The last choice in the message stands.",
    [T("margherita, no wait, the diavola", [c("a", "Margherita", "pizza"), c("b", "Diavola", "pizza"),
                                            c("c", "Quattro formaggi", "pizza")], EX("b"), CH),
     T("large... actually medium is enough", [c("a", "Medium · 30 cm", "size"), c("b", "Large · 36 cm", "size")], EX("a"), CH)])

dlg("w026", "self_correcting_reply", "streaming", "en",
    "'original audio' replaces 'English'; 'English please' replaces 'off'.",
    [T("English, hmm, no, the original audio", [c("a", "English", "audio_track"), c("b", "Japanese (original)", "audio_track"),
                                                c("c", "Spanish", "audio_track")], EX("b"), CH),
     T("off, no wait, English please", [c("a", "English", "subtitles"), c("b", "Spanish", "subtitles"), c("c", "Off", "subtitles")],
       EX("a"), CH)])

dlg("w027", "self_correcting_reply", "gym", "en",
    "The final choice is a RISK_HIGH option not said whole: confirm it first.",
    [T("pause it, no, actually, cancel it", [c("a", "Pause membership", "membership"), c("b", "Change plan", "membership"),
                                             c("c", "Cancel membership", "membership", risk=True)], CL("c")),
     T("yes", [c("c", "Cancel membership", "membership", risk=True)], EX("c"), CF)])

# ---------------------------------------------------------------- 11 closing_after_execute
dlg("w028", "closing_after_execute", "ride_hailing", "en",
    "Thanks after booking closes the task; it must not trigger the RISK_HIGH 'Cancel ride'.",
    [T("comfort", [c("a", "Standard · 4 min", "ride", "€11"), c("b", "Comfort · 6 min", "ride", "€14"),
                   c("c", "XL · 9 min", "ride", "€19")], EX("b"), CH),
     T("perfect, thanks!", [c("a", "Share trip status", "action"), c("b", "Cancel ride", "action", risk=True)], ES("cancel"))])

dlg("w029", "closing_after_execute", "dentist", "en",
    "'Friday' picks the only Friday slot; then 'that's all' closes with nothing pending.",
    [T("Friday", [c("a", "Thu 10:00 · Dr Okafor", "slot"), c("b", "Thu 15:30 · Dr Okafor", "slot"),
                  c("c", "Fri 11:00 · Dr Lindqvist", "slot")], EX("c"), CH),
     T("that's all, thank you", [c("a", "Add to calendar", "action"), c("b", "Get directions", "action")], ES("cancel"))])

# ---------------------------------------------------------------- 12 ack_then_new_request
dlg("w030", "ack_then_new_request", "holiday_rental", "en",
    "'ok, and can you send...' acknowledges and asks for something else: not a yes to the cleaning; the later explicit yes is.",
    [T("ok, and can you send me the check-in instructions?", [c("a", "Add final cleaning · €45", "extra")], ES("question_intent"), CF),
     T("yes, add the cleaning", [c("a", "Add final cleaning · €45", "extra")], EX("a"), CF)])

dlg("w031", "ack_then_new_request", "groceries", "en",
    "'okay' + a question is not a yes to the substitution; a yes followed by a question executes with follow_up.",
    [T("okay. what other milks do you have?", [c("a", "Replace with oat milk 1 L", "substitution", "whole milk is out of stock")],
       ES("question_intent"), CF),
     T("fine, oat milk it is. when will the order arrive?",
       [c("a", "Replace with oat milk 1 L", "substitution", "whole milk is out of stock")], EX("a", "question"), CF)])

# ---------------------------------------------------------------- 13 choice_with_question
dlg("w032", "choice_with_question", "car_rental", "en",
    "Choice + question executes with follow_up; later 'start over' is a command.",
    [T("the SUV, does it come with a tow hitch?", [c("a", "Compact · VW Polo", "car"), c("b", "SUV · Toyota RAV4", "car"),
                                                   c("c", "Van · Ford Transit", "car")], EX("b", "question"), CH),
     T("basic is fine", [c("a", "Full insurance · €19/day", "insurance"), c("b", "Basic insurance · included", "insurance")], EX("b"), CH),
     T("hmm, let's start over", [c("a", "Confirm booking · €212", "payment", risk=True), c("b", "Add a second driver", "extra")],
       ES("command"), commands=[{"id": "restart", "label": "Start over", "phrases": ["start over", "restart", "begin again"]}])])

dlg("w033", "choice_with_question", "food_delivery", "fr",
    "Choice + request ('ajoutez des couverts') executes with follow_up request; 'oui' to the RISK_HIGH payment confirmation executes.",
    [T("express, et ajoutez des couverts s'il vous plaît",
       [c("a", "Livraison standard", "delivery", "30–40 min"), c("b", "Livraison express", "delivery", "15–20 min · +2,50 €"),
        c("c", "Retrait au restaurant", "delivery")], EX("b", "request"), CH),
     T("oui, allez-y", [c("a", "Payer 23,40 €", "payment", risk=True)], EX("a"), CF)])

cover = lambda: [c("a", "Basic cover · €9/month", "plan"), c("b", "Full cover · €21/month", "plan"),
                 c("c", "Cancel policy", "action", risk=True)]
dlg("w034", "choice_with_question", "insurance", "en",
    "A question about an option without choosing is question_intent; then choice + request.",
    [T("does full cover include theft?", cover(), ES("question_intent")),
     T("ok, full cover then, and email me the terms", cover(), EX("b", "request"))])

# ---------------------------------------------------------------- 14 shorthand
dlg("w035", "shorthand", "scheduling", "en",
    "'tmrw 2pm pls' = Tomorrow 14:00; 'vid call' = Video call.",
    [T("tmrw 2pm pls", [c("a", "Tomorrow 10:00", "slot"), c("b", "Tomorrow 14:00", "slot"), c("c", "Fri 10:00", "slot")], EX("b"), CH),
     T("vid call", [c("a", "Video call", "meeting_type"), c("b", "In person · Office 3B", "meeting_type")], EX("a"), CH)])

dlg("w036", "shorthand", "fast_food", "en",
    "'veg' = Veggie burger; 'coke' fits Coca-Cola and Coca-Cola Zero: ask.",
    [T("veg pls", [c("a", "Veggie burger", "burger"), c("b", "Chicken burger", "burger"), c("c", "Beef burger", "burger")], EX("a"), CH),
     T("coke", [c("a", "Coca-Cola 0.33 L", "drink"), c("b", "Coca-Cola Zero 0.33 L", "drink"), c("c", "Lemonade", "drink")],
       CL("a", "b"), CH),
     T("zero", [c("a", "Coca-Cola 0.33 L", "drink"), c("b", "Coca-Cola Zero 0.33 L", "drink")], EX("b"), CH)])

bank = lambda: [c("a", "Kontoauszug herunterladen", "document"), c("b", "Dauerauftrag anlegen", "standing_order"),
                c("c", "Karte sperren", "card_action", risk=True)]
dlg("w037", "shorthand", "banking", "de",
    "'Kto-Auszug' = Kontoauszug; 'Karte sperren' says the RISK_HIGH label whole, so it executes.",
    [T("Kto-Auszug bitte", bank(), EX("a")),
     T("Karte sperren", bank(), EX("c"))])

# ---------------------------------------------------------------- 15 two_requests_in_order
dlg("w038", "two_requests_in_order", "smart_home", "en",
    "'X first, then Y' executes X with a request follow-up; then Y.",
    [T("switch off the hallway lights first, then lock the front door",
       [c("a", "Lock front door", "device"), c("b", "Turn off hallway lights", "device"), c("c", "Open garage", "device")],
       EX("b", "request")),
     T("now lock the door", [c("a", "Lock front door", "device"), c("c", "Open garage", "device")], EX("a"))])

dlg("w039", "two_requests_in_order", "flights", "en",
    "'window or aisle' is an alternative: ask between the two.",
    [T("window or aisle", [c("a", "12A · Window", "seat"), c("b", "12B · Middle", "seat"), c("c", "12C · Aisle", "seat")],
       CL("a", "c"), CH),
     T("window", [c("a", "12A · Window", "seat"), c("c", "12C · Aisle", "seat")], EX("a"), CH)])

dlg("w040", "two_requests_in_order", "photos", "en",
    "Back up first (execute, follow_up request), then share the album.",
    [T("back up my photos first, then share the Lisbon album",
       [c("a", "Back up photos", "action"), c("b", "Delete old photos", "action", risk=True),
        c("c", "Share 'Lisbon 2024' album", "action")], EX("a", "request")),
     T("now share the album", [c("b", "Delete old photos", "action", risk=True), c("c", "Share 'Lisbon 2024' album", "action")],
       EX("c"))])

SCORING = {"debatable": ["w007#1", "w030#1", "w032#1"], "knowledge": ["w017#2"]}


def build():
    out = []
    for d in D:
        turns = []
        for n, t in enumerate(d["turns"], 1):
            opts = {"optionSetId": f"{d['id']}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
            if t["asked"]:
                opts["asked"] = t["asked"]
            turn = {"input": t["input"], "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
                    "options": opts}
            if t["commands"]:
                turn["commands"] = t["commands"]
            turn["expect"] = t["expect"]
            if "execute" in t["expect"]:
                turn["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                                          "choiceId": t["expect"]["execute"]}
            turns.append(turn)
        out.append({"id": d["id"], "category": d["category"], "domain": d["domain"], "language": d["language"],
                    "note": d["note"], "dialogue": turns})
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
