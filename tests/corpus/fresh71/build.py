#!/usr/bin/env python3
"""Blind test set fresh71: 40 dialogues written as Python data.

Writes corpus.jsonl and scoring.json next to this file.
Expectations were written by hand from what a careful human assistant
would do, from BRIEF.md only.
"""
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


def pick(cands, ids):
    by = {c["id"]: c for c in cands}
    return [by[i] for i in ids]


def ex(cid, follow=None):
    e = {"execute": cid}
    if follow:
        e["follow_up"] = follow
    return e


def cl(*ids):
    return {"clarify": list(ids)}


def es(reason):
    return {"escape": reason}


def T(inp, cands, expect, asked=None, commands=None, rejected=False):
    return {"input": inp, "cands": cands, "expect": expect, "asked": asked,
            "commands": commands, "rejected": rejected}


def D(cat, domain, lang, note, *turns):
    return {"category": cat, "domain": domain, "language": lang, "note": note, "turns": list(turns)}


CH = "ASKED_CHOICE"
CF = "ASKED_CONFIRMATION"

# ---------------------------------------------------------------- screens reused
tz1 = [C("a", "UTC−5 · New York", "timezone"), C("b", "UTC+1 · Berlin", "timezone"),
       C("c", "UTC+2 · Athens", "timezone"), C("d", "UTC+9 · Tokyo", "timezone")]
tz2 = [C("a", "UTC+2 · Cairo", "timezone"), C("b", "UTC+2 · Johannesburg", "timezone"),
       C("c", "UTC−3 · São Paulo", "timezone"), C("d", "UTC+5:30 · Mumbai", "timezone")]
ship = [C("a", "Next-day delivery", "shipping", "$12.99"),
        C("b", "Standard delivery (5–7 days)", "shipping", "free"),
        C("c", "Express delivery (2 days)", "shipping", "$6.99")]
promo = [{"id": "promo", "label": "Apply promo code",
          "phrases": ["promo code", "discount code", "apply code", "voucher"]}]
fares_en = [C("a", "Standard class", "fare", "£42"), C("b", "First class", "fare", "£89"),
            C("c", "Standard Premium", "fare", "£61")]
drinks = [C("a", "Cola 0.5 L", "drink", "£1.80"), C("b", "Cola 1.5 L", "drink", "£3.20"),
          C("c", "Sparkling water 0.5 L", "drink", "£1.50")]
meals = [C("a", "Adult meal", "extra", "€12"), C("b", "Child meal", "extra", "€8"),
         C("c", "Meal deal: 2 meals + 2 drinks", "extra", "€26")]
zoo = [C("a", "Bilhete adulto", "ticket", "24 €"),
       C("b", "Bilhete família (2 adultos + 2 crianças)", "ticket", "75 €"),
       C("c", "Bilhete criança (3–12 anos)", "ticket", "17 €")]
stream = [C("a", "Change plan", "account_action"), C("b", "Pause membership", "account_action"),
          C("c", "End membership", "account_action", "Access stops at the end of the billing period", risk=True)]
inv = [C("a", "Download invoice (PDF)", "invoice_action"), C("b", "Email invoice", "invoice_action"),
       C("c", "Dispute invoice", "invoice_action")]
files2 = [C("a", "Rename Q3-report.xlsx", "file_action"),
          C("b", "Delete holiday-photos.zip", "file_action", "2.4 GB · cannot be restored", risk=True),
          C("c", "Move notes.txt to Archive", "file_action")]
jazz = [C("a", "Sunday Jazz", "playlist", "42 songs"), C("b", "Jazz Piano Essentials", "playlist", "60 songs"),
        C("c", "Workout Mix", "playlist", "35 songs")]
scenes = [C("a", "Dinner", "scene"), C("b", "Movie night", "scene"), C("c", "Good night", "scene"),
          C("d", "Away", "scene")]
addr = [C("a", "Home", "address", "12 Elm Street"), C("b", "Work", "address", "400 Market Street"),
        C("c", "Parcel locker", "address", "Central Station")]
bank = [C("a", "Statement – May", "document"), C("b", "Statement – June", "document"),
        C("c", "Cancel standing order: Rent £850", "standing_order", "monthly, to K. Patel", risk=True)]
gym = [C("a", "Yoga · 7:00", "class", "Studio 1"), C("b", "Spin · 7:30", "class", "Bike room"),
       C("c", "Pilates · 18:00", "class", "Studio 2")]
hotel_cf = [C("a", "Book Harbour View Hotel · 2 nights · €240", "booking", "Fri 5 – Sun 7 July", risk=True)]
conf = [C("a", "Conference room A", "resource", "8 seats"), C("b", "Conference call (Zoom)", "resource"),
        C("c", "Kitchen corner", "resource")]
mail = [C("a", "Reply", "mail_action"), C("b", "Forward", "mail_action"), C("c", "Archive", "mail_action"),
        C("d", "Delete", "mail_action", risk=True)]
appl2 = [C("a", "Washing machine · Cotton 40°", "program"), C("b", "Dryer · Cupboard dry", "program")]

DIALOGUES = [
    # 1 signed_numbers ------------------------------------------------------
    D("signed_numbers", "settings", "en",
      "'+2' is a UTC offset, not item 2; then two zones share +2, so ask.",
      T("+2 please", tz1, ex("c"), CH),
      T("for the second clock also +2", tz2, cl("a", "b"), CH),
      T("Johannesburg", pick(tz2, ["a", "b"]), ex("b"), CH)),
    D("signed_numbers", "parking", "de",
      "'minus eins' is parking level -1 and '+1 Std.' is one hour more, not list positions.",
      T("Ich stehe auf minus eins.",
        [C("a", "Ebene 2", "level"), C("b", "Ebene 1", "level"), C("c", "Ebene 0 (Einfahrt)", "level"),
         C("d", "Ebene -1", "level"), C("e", "Ebene -2", "level")], ex("d"), CH),
      T("+1 Std. bitte",
        [C("a", "30 Minuten länger", "extension", "Abrechnung bei der Ausfahrt"),
         C("b", "1 Stunde länger", "extension", "Abrechnung bei der Ausfahrt"),
         C("c", "2 Stunden länger", "extension", "Abrechnung bei der Ausfahrt")], ex("b"), CH)),
    D("signed_numbers", "shopping", "en",
      "a 2 inside a promo code is no position (command); '2-day' is the express option, not item 2.",
      T("apply code SPRING2", ship, es("command"), CH, commands=promo),
      T("the 2-day one", ship, ex("c"), CH)),
    # 2 changed_value_not_yes -------------------------------------------------
    D("changed_value_not_yes", "restaurant", "en",
      "a different time to a confirmation is a change (declined); the same time in words is a yes.",
      T("7:30 would be better",
        [C("a", "Table for 2 · Fri 14 June · 7:00 pm", "reservation", "Trattoria Lucca")], es("declined"), CF),
      T("half past seven, great",
        [C("a", "Table for 2 · Fri 14 June · 7:30 pm", "reservation", "Trattoria Lucca")], ex("a"), CF)),
    D("changed_value_not_yes", "banking", "es",
      "'sí, pero ciento ochenta' to a 150 € transfer is a change; then the same amount in words confirms.",
      T("sí, pero que sean ciento ochenta",
        [C("a", "Transferir 150 € a Laura Gómez", "transfer", "Cuenta ···4821", risk=True)], es("declined"), CF),
      T("sí, ciento ochenta euros, perfecto",
        [C("a", "Transferir 180 € a Laura Gómez", "transfer", "Cuenta ···4821", risk=True)], ex("a"), CF)),
    D("changed_value_not_yes", "alarms", "en",
      "'six thirty' confirms 6:30 AM; 'ten to seven' (6:50) differs from 6:45, so not a yes.",
      T("yep, six thirty on weekdays",
        [C("a", "Alarm · 6:30 AM", "alarm", "Mon–Fri")], ex("a"), CF),
      T("ten to seven for that one",
        [C("a", "Second alarm · 6:45 AM", "alarm", "Mon–Fri")], es("declined"), CF)),
    # 3 ordinal_word_in_labels -----------------------------------------------
    D("ordinal_word_in_labels", "trains", "en",
      "bare 'first' could be position 1 or 'First class': ask; then 'first class' is the label.",
      T("first", fares_en, cl("a", "b"), CH),
      T("first class", pick(fares_en, ["a", "b"]), ex("b"), CH)),
    D("ordinal_word_in_labels", "clinic", "en",
      "'the second opinion' is the label of item 1, not item 2; later 'the last one' is a plain position.",
      T("I need the second opinion",
        [C("a", "Second opinion – Dr. Okafor", "appointment", "Cardiology"),
         C("b", "GP consultation – Dr. Lee", "appointment"),
         C("c", "Follow-up visit – Dr. Lee", "appointment")], ex("a"), CH),
      T("the last one",
        [C("a", "Tue 11 June · 10:00", "slot"), C("b", "Wed 12 June · 15:30", "slot"),
         C("c", "Fri 14 June · 08:45", "slot")], ex("c"), CH)),
    D("ordinal_word_in_labels", "rail", "fr",
      "'en première' means first class (item 2), not item 1; 'la première de la liste' is a position.",
      T("En première, s'il vous plaît.",
        [C("a", "Seconde classe", "fare", "49 €"), C("b", "Première classe", "fare", "79 €")], ex("b"), CH),
      T("La première de la liste.",
        [C("a", "Place fenêtre", "seat", "voiture 12"), C("b", "Place couloir", "seat", "voiture 12"),
         C("c", "Place isolée", "seat", "voiture 11")], ex("a"), CH)),
    # 4 quantity_noun ---------------------------------------------------------
    D("quantity_noun", "food_delivery", "en",
      "'two margheritas' is the Margherita item twice, not the 2-pizza deal; 'a cola' fits two sizes.",
      T("two margheritas please",
        [C("a", "Margherita pizza", "dish", "£9"),
         C("b", "Pizza for two: 2 Margheritas + 1.5 L cola", "deal", "£19"),
         C("c", "Garlic bread", "dish", "£4")], ex("a")),
      T("and a cola", drinks, cl("a", "b")),
      T("the small one", pick(drinks, ["a", "b"]), ex("a"), CH)),
    D("quantity_noun", "flights", "en",
      "'2 checked bags' names the checked bag, not the bundle that adds a seat; '2 meals' fits adult and child meals, not the deal.",
      T("I need 2 checked bags",
        [C("a", "Checked bag (23 kg)", "extra", "€35"),
         C("b", "Travel bundle: 2 checked bags + seat selection", "extra", "€79"),
         C("c", "Cabin trolley (10 kg)", "extra", "€20")], ex("a")),
      T("and 2 meals", meals, cl("a", "b")),
      T("adult", pick(meals, ["a", "b"]), ex("a"), CH)),
    D("quantity_noun", "zoo", "pt",
      "'dois adultos' is the adult ticket, not the family ticket that includes 2 adults; 'uma criança' the child ticket.",
      T("Dois adultos, por favor.", zoo, ex("a")),
      T("E uma criança de 8 anos.", zoo, ex("c"))),
    # 5 everyday_verb ---------------------------------------------------------
    D("everyday_verb", "shopping", "en",
      "'send back' = Start a return; 'give me my money back' = refund to original payment.",
      T("I want to send these trainers back",
        [C("a", "Start a return", "order_action"), C("b", "Track package", "order_action"),
         C("c", "Write a review", "order_action")], ex("a")),
      T("just give me my money back",
        [C("a", "Refund to original payment method", "refund"), C("b", "Exchange for another size", "refund"),
         C("c", "Store credit (+10% bonus)", "refund")], ex("a"), CH)),
    D("everyday_verb", "streaming", "en",
      "'cancel my subscription' means End membership, which is RISK_HIGH and not said whole: confirm; yes executes.",
      T("I want to cancel my subscription", stream, cl("c")),
      T("yes, end it", pick(stream, ["c"]), ex("c"), CF)),
    D("everyday_verb", "telecom", "en",
      "'send my calls to my landline' = call forwarding; 'stop voicemail picking up' = voicemail off.",
      T("send my calls to my landline while I'm away",
        [C("a", "Call forwarding", "setting"), C("b", "Voicemail", "setting"), C("c", "Roaming", "setting"),
         C("d", "Caller ID", "setting")], ex("a")),
      T("stop the voicemail picking up",
        [C("a", "Voicemail: on", "setting"), C("b", "Voicemail: off", "setting")], ex("b"), CH)),
    # 6 value_other_way -------------------------------------------------------
    D("value_other_way", "calendar", "en",
      "'Tuesday at 2pm' = Tue 4 June 14:00; 'an hour' = 60 minutes.",
      T("Tuesday at 2pm",
        [C("a", "Mon 3 June · 09:00", "slot"), C("b", "Tue 4 June · 14:00", "slot"),
         C("c", "Thu 6 June · 16:30", "slot")], ex("b"), CH),
      T("an hour",
        [C("a", "30 minutes", "duration"), C("b", "45 minutes", "duration"), C("c", "60 minutes", "duration")],
        ex("c"), CH)),
    D("value_other_way", "flights", "en",
      "'12A' = Row 12 Seat A; '50-pound one' = the 23 kg bag (pounds vs kilos).",
      T("12A",
        [C("a", "Row 12 · Seat C", "seat", "aisle"), C("b", "Row 12 · Seat A", "seat", "window"),
         C("c", "Row 14 · Seat F", "seat", "window")], ex("b"), CH),
      T("the 50-pound one",
        [C("a", "Checked bag · up to 23 kg", "baggage", "€35"), C("b", "Checked bag · up to 32 kg", "baggage", "€55")],
        ex("a"), CH)),
    D("value_other_way", "groceries", "nl",
      "'vrijdagavond' = Vr 14/6 18:00–20:00; 'een pond' = 500 g.",
      T("vrijdagavond graag",
        [C("a", "Do 13/6 · 08:00–10:00", "slot"), C("b", "Vr 14/6 · 18:00–20:00", "slot"),
         C("c", "Za 15/6 · 10:00–12:00", "slot")], ex("b"), CH),
      T("een pond gehakt",
        [C("a", "Rundergehakt 250 g", "product"), C("b", "Rundergehakt 500 g", "product"),
         C("c", "Rundergehakt 1 kg", "product")], ex("b"))),
    # 7 object_alone ----------------------------------------------------------
    D("object_alone", "energy", "en",
      "'meter reading' names one action; 'the invoice' is shared by three actions, so ask.",
      T("meter reading",
        [C("a", "Download invoice", "account_action"), C("b", "Submit meter reading", "account_action"),
         C("c", "Update payment details", "account_action")], ex("b")),
      T("the invoice", inv, cl("a", "b", "c")),
      T("email it to me", inv, ex("b"), CH)),
    D("object_alone", "files", "en",
      "object alone picks the share action; object of a RISK_HIGH delete is confirmed first, then the user says no.",
      T("the budget",
        [C("a", "Rename Q3-report.xlsx", "file_action"), C("b", "Share budget-2024.docx", "file_action"),
         C("c", "Open invoices folder", "file_action")], ex("b")),
      T("holiday photos", files2, cl("b")),
      T("no, leave it", pick(files2, ["b"]), es("declined"), CF)),
    D("object_alone", "car_rental", "it",
      "'il seggiolino' and 'la ricevuta' each name the object of exactly one action.",
      T("il seggiolino",
        [C("a", "Aggiungi seggiolino per bambini", "extra", "8 €/giorno"),
         C("b", "Aggiungi navigatore GPS", "extra", "6 €/giorno"),
         C("c", "Aggiungi secondo conducente", "extra", "12 €/giorno")], ex("a")),
      T("la ricevuta",
        [C("a", "Annulla prenotazione", "booking_action", risk=True), C("b", "Modifica date", "booking_action"),
         C("c", "Scarica ricevuta", "booking_action")], ex("c"))),
    # 8 distinguishing_word_plus_kind ----------------------------------------
    D("distinguishing_word_plus_kind", "music", "en",
      "'the jazz playlist' fits two playlists (ask); 'the piano one' then tells them apart.",
      T("put on the jazz playlist", jazz, cl("a", "b")),
      T("the piano one", pick(jazz, ["a", "b"]), ex("b"), CH)),
    D("distinguishing_word_plus_kind", "email", "en",
      "'insurance document' and 'March payslip' each have one telling word plus a kind word.",
      T("attach the insurance document",
        [C("a", "Lease agreement – Flat 4B.pdf", "document"), C("b", "Insurance certificate 2024.pdf", "document"),
         C("c", "Payslip – March.pdf", "document"), C("d", "Payslip – April.pdf", "document")], ex("b")),
      T("and the March payslip",
        [C("a", "Lease agreement – Flat 4B.pdf", "document"), C("c", "Payslip – March.pdf", "document"),
         C("d", "Payslip – April.pdf", "document")], ex("c"))),
    D("distinguishing_word_plus_kind", "hotel", "es",
      "'la habitación superior' picks the superior double; 'la opción con desayuno' picks bed and breakfast.",
      T("la habitación superior",
        [C("a", "Habitación doble estándar", "room", "95 €/noche"),
         C("b", "Habitación doble superior", "room", "120 €/noche"),
         C("c", "Habitación individual", "room", "70 €/noche")], ex("b"), CH),
      T("la opción con desayuno",
        [C("a", "Solo alojamiento", "board"), C("b", "Alojamiento y desayuno", "board", "+12 €/persona"),
         C("c", "Media pensión", "board", "+30 €/persona")], ex("b"), CH)),
    # 9 correction_after_execute ---------------------------------------------
    D("correction_after_execute", "smart_home", "en",
      "after 'Dinner' ran the user says it was wrong and names Movie night.",
      T("dinner", scenes, ex("a"), rejected=True),
      T("no sorry, not that one — movie night", scenes, ex("b"))),
    D("correction_after_execute", "parcels", "en",
      "after Home was chosen the user corrects to 'the office' (= Work).",
      T("home", addr, ex("a"), CH, rejected=True),
      T("wait, wrong one, it should go to the office", addr, ex("b"), CH)),
    D("correction_after_execute", "banking", "en",
      "correction names a RISK_HIGH option only by its object: confirm first, then yes executes.",
      T("June", bank, ex("b"), rejected=True),
      T("no, that's not what I wanted, I meant the standing order", bank, cl("c")),
      T("yes, cancel it", pick(bank, ["c"]), ex("c"), CF)),
    # 10 self_correcting_reply -----------------------------------------------
    D("self_correcting_reply", "clothing", "en",
      "picks navy then takes it back for green; M then L; the last choice stands.",
      T("navy — actually no, the green",
        [C("a", "Navy", "colour"), C("b", "Forest green", "colour"), C("c", "Charcoal", "colour")], ex("b"), CH),
      T("M. hmm, no, better L",
        [C("a", "S", "size"), C("b", "M", "size"), C("c", "L", "size")], ex("c"), CH)),
    D("self_correcting_reply", "cinema", "fr",
      "20h30 taken back for 22h45; étudiant taken back for plein tarif.",
      T("20h30… non, plutôt 22h45",
        [C("a", "18h15", "showtime", "VOST · salle 3"), C("b", "20h30", "showtime", "VOST · salle 3"),
         C("c", "22h45", "showtime", "VOST · salle 3")], ex("c"), CH),
      T("étudiant — ah non, plein tarif, j'ai oublié ma carte",
        [C("a", "Plein tarif", "fare", "11,90 €"), C("b", "Tarif étudiant", "fare", "8,50 €"),
         C("c", "Tarif senior", "fare", "9,00 €")], ex("a"), CH)),
    D("self_correcting_reply", "fitness", "en",
      "'spin... or maybe yoga, not sure' is no take-back but two alternatives: ask.",
      T("spin... or maybe yoga, not sure", gym, cl("b", "a"), CH),
      T("yoga", pick(gym, ["b", "a"]), ex("a"), CH)),
    # 11 closing_after_execute -----------------------------------------------
    D("closing_after_execute", "taxi", "en",
      "after the ride is booked, 'perfect, thanks!' closes; Cancel ride on screen must not be touched.",
      T("standard is fine",
        [C("a", "Standard", "ride", "4 min · €14"), C("b", "XL", "ride", "7 min · €21"),
         C("c", "Premium", "ride", "9 min · €28")], ex("a"), CH),
      T("perfect, thanks!",
        [C("a", "Share trip status", "trip_action"), C("b", "Message driver", "trip_action"),
         C("c", "Cancel ride", "trip_action", risk=True)], es("cancel"))),
    D("closing_after_execute", "vet", "en",
      "thanks plus a request is not a closing (adds calendar reminder); then a plain thanks closes.",
      T("vaccination please",
        [C("a", "General check-up", "service"), C("b", "Vaccination", "service"), C("c", "Nail trim", "service")],
        ex("b"), CH),
      T("thanks! can you put it in my calendar too?",
        [C("a", "Add to calendar", "appointment_action"),
         C("b", "Cancel appointment", "appointment_action", risk=True)], ex("a")),
      T("great, that's all I needed, cheers",
        [C("a", "Change reminder time", "appointment_action"),
         C("b", "Cancel appointment", "appointment_action", risk=True)], es("cancel"))),
    # 12 ack_then_new_request ------------------------------------------------
    D("ack_then_new_request", "hotel", "en",
      "'ok. does it have parking?' is a question, not a yes to the booking; then an explicit yes.",
      T("ok. does it have parking?", hotel_cf, es("question_intent"), CF),
      T("good, then go ahead and book it", hotel_cf, ex("a"), CF)),
    D("ack_then_new_request", "library", "de",
      "'Okay' followed by a request for the loans list is the Meine Ausleihen command, not a yes.",
      T("Okay. Zeig mir aber erst mal, was ich sonst noch ausgeliehen habe.",
        [C("a", "„Der Schwarm“ verlängern bis 12. Juli", "renewal")], es("command"), CF,
        commands=[{"id": "loans", "label": "Meine Ausleihen",
                   "phrases": ["meine Ausleihen", "was ich ausgeliehen habe", "Ausleihkonto"]}]),
      T("Tschick bitte auch",
        [C("a", "„Der Schwarm“ verlängern", "renewal", "fällig 28. Juni"),
         C("b", "„Tschick“ verlängern", "renewal", "fällig 2. Juli"),
         C("c", "„Vegetarisch kochen“ verlängern", "renewal", "fällig 5. Juli")], ex("b"))),
    # 13 choice_with_question ------------------------------------------------
    D("choice_with_question", "garage", "en",
      "a choice plus 'how long will it take?' executes with a question follow-up; a bare question does not choose.",
      T("full service please — how long will it take?",
        [C("a", "Oil change · Sat 9:00", "booking"), C("b", "Full service · Sat 11:00", "booking")],
        ex("b", "question"), CH),
      T("do I need to bring the tyres myself?",
        [C("a", "Winter tyres fitted", "service", "€60"),
         C("b", "Winter tyres fitted + summer tyres stored", "service", "€95")], es("question_intent"), CH)),
    D("choice_with_question", "restaurant", "it",
      "'una diavola, ma non troppo piccante' executes with a request; a question about paying later is no yes to Paga ora.",
      T("una diavola, ma non troppo piccante se possibile",
        [C("a", "Pizza margherita", "dish", "7 €"), C("b", "Pizza diavola", "dish", "8,50 €"),
         C("c", "Calzone", "dish", "9 €")], ex("b", "request")),
      T("devo pagare adesso o posso pagare alla consegna?",
        [C("a", "Paga ora 8,50 €", "payment", "carta ···1177", risk=True)], es("question_intent"), CF)),
    # 14 shorthand ------------------------------------------------------------
    D("shorthand", "office", "en",
      "'thurs' = Thursday; 'conf' fits room and call (ask); 'rm A' = Conference room A.",
      T("thurs pls",
        [C("a", "Tomorrow", "day"), C("b", "Thursday", "day"), C("c", "Friday", "day")], ex("b"), CH),
      T("conf", conf, cl("a", "b"), CH),
      T("rm A", pick(conf, ["a", "b"]), ex("a"), CH)),
    D("shorthand", "groceries", "en",
      "'semi' = semi-skimmed milk; 'avos' = avocados, not avocado oil.",
      T("semi",
        [C("a", "Whole milk 1 L", "product"), C("b", "Semi-skimmed milk 1 L", "product"),
         C("c", "Skimmed milk 1 L", "product")], ex("b"), CH),
      T("and avos",
        [C("a", "Avocados (pack of 2)", "product"), C("b", "Avocado oil 500 ml", "product"),
         C("c", "Bananas (bunch)", "product")], ex("a"))),
    # 15 two_requests_in_order -----------------------------------------------
    D("two_requests_in_order", "email", "en",
      "'reply first, then archive' executes Reply with a request follow-up; 'forward or archive' is asked.",
      T("reply first, then archive it", mail, ex("a", "request")),
      T("this one forward or archive, not sure", mail, cl("b", "c")),
      T("archive", pick(mail, ["b", "c"]), ex("c"), CH)),
    D("two_requests_in_order", "home_appliances", "en",
      "'dishwasher first, then the washing machine' executes the dishwasher with a request; 'washing machine or dryer' is asked.",
      T("start the dishwasher first, then the washing machine",
        [C("a", "Dishwasher · Eco 50°", "program"), C("b", "Washing machine · Cotton 40°", "program"),
         C("c", "Dryer · Cupboard dry", "program")], ex("a", "request")),
      T("washing machine or dryer next, hmm", appl2, cl("a", "b"))),
]

SCORING = {
    "debatable": ["y007#1", "y010#2", "y019#2", "y038#2"],
    "knowledge": ["y017#2", "y018#2"],
}


def build():
    out = []
    for n, d in enumerate(DIALOGUES, 1):
        did = f"y{n:03d}"
        turns = []
        for k, t in enumerate(d["turns"], 1):
            opts = {"optionSetId": f"{did}-os{k}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
            if t["asked"]:
                opts["asked"] = t["asked"]
            turn = {"input": t["input"] if "input" in t else t["inp"],
                    "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
                    "options": opts}
            if t["commands"]:
                turn["commands"] = t["commands"]
            turn["expect"] = t["expect"]
            if "execute" in t["expect"]:
                turn["record_outcome"] = {
                    "kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                    "choiceId": t["expect"]["execute"]}
            turns.append(turn)
        out.append({"id": did, "category": d["category"], "domain": d["domain"], "language": d["language"],
                    "note": d["note"], "dialogue": turns})
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
