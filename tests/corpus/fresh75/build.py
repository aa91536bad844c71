#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh75 blind test set.

Written blind from BRIEF.md only: every expectation is what a careful human
assistant would do with the message and the screen shown.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))
CH, CF = "ASKED_CHOICE", "ASKED_CONFIRMATION"


def c(cid, label, kind, sub=None, risk=False):
    d = {"id": cid, "label": label}
    if sub:
        d["sublabel"] = sub
    d["kind"] = kind
    if risk:
        d["risk"] = "RISK_HIGH"
    return d


def EX(cid, follow=None, rejected=False):
    e = {"execute": cid}
    if follow:
        e["follow_up"] = follow
    return ("ex", e, rejected)


def CL(*ids):
    return ("cl", {"clarify": list(ids)}, False)


def ES(reason):
    return ("es", {"escape": reason}, False)


def T(inp, cands, expect, asked=None, commands=None):
    return {"inp": inp, "cands": cands, "asked": asked, "expect": expect, "commands": commands}


DIALOGUES = []


def D(did, category, domain, language, note, turns):
    out = []
    for n, t in enumerate(turns, 1):
        opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
        if t["asked"]:
            opts["asked"] = t["asked"]
        turn = {"input": t["inp"],
                "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{domain}"},
                "options": opts}
        if t["commands"]:
            turn["commands"] = t["commands"]
        kind, exp, rejected = t["expect"]
        turn["expect"] = exp
        if kind == "ex":
            turn["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if rejected else "OUTCOME_KIND_EXECUTED",
                                      "choiceId": exp["execute"]}
        out.append(turn)
    DIALOGUES.append({"id": did, "category": category, "domain": domain, "language": language,
                      "note": note, "dialogue": out})


# ---------------------------------------------------------------- 1 signed_numbers
D("x2001", "signed_numbers", "smart_home", "en",
  "'+2' is the +2 °C offset (third item), not item 2; '2 degrees cooler' is the -2 °C offset, not item 2.",
  [T("+2 please",
     [c("a", "−1 °C", "temperature_offset", "living room"), c("b", "+1 °C", "temperature_offset", "living room"),
      c("c", "+2 °C", "temperature_offset", "living room"), c("d", "+3 °C", "temperature_offset", "living room")],
     EX("c"), asked=CH),
   T("and make the bedroom 2 degrees cooler",
     [c("a", "+2 °C", "temperature_offset", "bedroom"), c("b", "+1 °C", "temperature_offset", "bedroom"),
      c("c", "−1 °C", "temperature_offset", "bedroom"), c("d", "−2 °C", "temperature_offset", "bedroom")],
     EX("d"), asked=CH)])

D("x2002", "signed_numbers", "flights", "en",
  "'+1' is the next-day-arrival marker, not position 1; two flights carry it, so ask between them; then 'nonstop' decides.",
  [T("the +1 one",
     [c("a", "Dep 09:40 – arr 22:10", "flight", "1 stop · €612"),
      c("b", "Dep 13:15 – arr 06:55 +1", "flight", "nonstop · €748"),
      c("c", "Dep 21:30 – arr 14:05 +1", "flight", "1 stop · €590")],
     CL("b", "c"), asked=CH),
   T("the nonstop",
     [c("b", "Dep 13:15 – arr 06:55 +1", "flight", "nonstop · €748"),
      c("c", "Dep 21:30 – arr 14:05 +1", "flight", "1 stop · €590")],
     EX("b"), asked=CH)])

D("x2003", "signed_numbers", "calendar", "de",
  "'die +1' is the UTC+1 time zone (third item), not item 1; a plain 'Nummer 2' on the next screen is a position.",
  [T("Die +1 bitte",
     [c("a", "UTC−5 · New York", "timezone"), c("b", "UTC±0 · London", "timezone"),
      c("c", "UTC+1 · Berlin", "timezone"), c("d", "UTC+2 · Helsinki", "timezone")],
     EX("c"), asked=CH),
   T("Nummer 2",
     [c("a", "5 Minuten vorher", "reminder"), c("b", "15 Minuten vorher", "reminder"),
      c("c", "1 Stunde vorher", "reminder")],
     EX("b"), asked=CH)])

# ---------------------------------------------------------------- 2 changed_value_not_yes
D("x2004", "changed_value_not_yes", "restaurant", "en",
  "Asking for 8 pm against a 19:30 confirmation is a change, not a yes (declined); 'eight in the evening' for 20:00 is the same value, so yes.",
  [T("8 pm instead, please",
     [c("a", "Table for 4 · Sat 12 Oct · 19:30", "reservation", "Trattoria Lucca")],
     ES("declined"), asked=CF),
   T("yes, eight in the evening works",
     [c("a", "Table for 4 · Sat 12 Oct · 20:00", "reservation", "Trattoria Lucca")],
     EX("a"), asked=CF)])

D("x2005", "changed_value_not_yes", "banking", "en",
  "'yes, send her two hundred' against €250 is a changed amount, not a yes; 'two hundred euros' against €200 is the same amount, a yes to the confirmation of the RISK_HIGH transfer.",
  [T("yes, send her two hundred",
     [c("a", "Send €250.00 to Anna Weber", "transfer", "from Everyday account", risk=True)],
     ES("declined"), asked=CF),
   T("yes — two hundred euros, that's right",
     [c("a", "Send €200.00 to Anna Weber", "transfer", "from Everyday account", risk=True)],
     EX("a"), asked=CF)])

D("x2006", "changed_value_not_yes", "groceries", "fr",
  "'Oui, mais le vendredi 15' changes the Thursday 14 date: not a yes. 'vendredi matin' matches Friday 8h–12h in other words: a yes.",
  [T("Oui, mais le vendredi 15 plutôt",
     [c("a", "Livraison jeudi 14 mars, 8h–12h", "delivery_slot")],
     ES("declined"), asked=CF),
   T("Oui, vendredi matin, parfait",
     [c("a", "Livraison vendredi 15 mars, 8h–12h", "delivery_slot")],
     EX("a"), asked=CF)])

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
D("x2007", "ordinal_word_in_labels", "train", "en",
  "'first class' names the First fare (third item), not item 1; on the seat screen no label has 'first', so 'the first one' is position 1.",
  [T("first class please",
     [c("a", "Standard", "fare_class", "£48.20"), c("b", "Standard Premium", "fare_class", "£71.00"),
      c("c", "First", "fare_class", "£112.50")],
     EX("c"), asked=CH),
   T("the first one",
     [c("a", "Window", "seat_preference"), c("b", "Aisle", "seat_preference"), c("c", "Table seat", "seat_preference")],
     EX("a"), asked=CH)])

D("x2008", "ordinal_word_in_labels", "contacts", "en",
  "Bare 'last' could be the 'Last name' label or the last item 'Recently added': ask both; 'last name' then decides.",
  [T("last",
     [c("a", "First name", "sort_order"), c("b", "Last name", "sort_order"), c("c", "Company", "sort_order"),
      c("d", "Recently added", "sort_order")],
     CL("b", "d"), asked=CH),
   T("last name",
     [c("b", "Last name", "sort_order"), c("d", "Recently added", "sort_order")],
     EX("b"), asked=CH)])

D("x2009", "ordinal_word_in_labels", "marketplace", "es",
  "'segunda mano' is the 'De segunda mano' condition (third item), not item 2; on the listing screen no label has 'segundo', so 'el segundo' is position 2.",
  [T("De segunda mano, por favor",
     [c("a", "Nuevo", "condition"), c("b", "Reacondicionado", "condition"), c("c", "De segunda mano", "condition")],
     EX("c"), asked=CH),
   T("el segundo",
     [c("a", "iPhone 13 128 GB – Madrid", "listing", "420 €"), c("b", "iPhone 13 256 GB – Sevilla", "listing", "465 €"),
      c("c", "iPhone 13 mini – Valencia", "listing", "350 €")],
     EX("b"))])

# ---------------------------------------------------------------- 4 quantity_noun
D("x2010", "quantity_noun", "cinema", "en",
  "'two adult tickets' is the Adult ticket (quantity 2), not the Duo deal nor item 2; 'one popcorn' fits medium and large popcorn but not the combo: ask; then 'large'.",
  [T("two adult tickets",
     [c("a", "Adult ticket", "ticket", "€12.50"), c("b", "Child ticket", "ticket", "€8.00"),
      c("c", "Duo deal: 2 tickets + large popcorn", "bundle", "€29.00")],
     EX("a"), asked=CH),
   T("and one popcorn",
     [c("a", "Popcorn (medium)", "snack", "€5.00"), c("b", "Popcorn (large)", "snack", "€6.50"),
      c("c", "Nachos", "snack", "€6.00"), c("d", "Popcorn & drink combo", "bundle", "€8.50")],
     CL("a", "b")),
   T("large",
     [c("a", "Popcorn (medium)", "snack", "€5.00"), c("b", "Popcorn (large)", "snack", "€6.50")],
     EX("b"), asked=CH)])

D("x2011", "quantity_noun", "food_delivery", "it",
  "'due margherite' is the Margherita (quantity 2), not the 'Menù coppia: 2 pizze' bundle nor item 2; 'due acque' fits still and sparkling water: ask; then 'frizzante'.",
  [T("due margherite",
     [c("a", "Pizza Margherita", "dish", "7,00 €"), c("b", "Pizza Diavola", "dish", "8,50 €"),
      c("c", "Menù coppia: 2 pizze + 2 bibite", "bundle", "22,00 €"), c("d", "Tiramisù", "dish", "4,50 €")],
     EX("a")),
   T("due acque",
     [c("a", "Acqua naturale 50 cl", "drink"), c("b", "Acqua frizzante 50 cl", "drink"), c("c", "Coca-Cola 33 cl", "drink")],
     CL("a", "b"), asked=CH),
   T("frizzante",
     [c("a", "Acqua naturale 50 cl", "drink"), c("b", "Acqua frizzante 50 cl", "drink")],
     EX("b"), asked=CH)])

D("x2012", "quantity_noun", "flights", "en",
  "'one bag' is the single checked bag, not the bundle listed first whose label also says '1 bag'; 'go ahead' is a yes to the RISK_HIGH payment confirmation.",
  [T("just one bag please",
     [c("a", "Comfort bundle: 1 bag + seat + priority boarding", "bundle", "€52"),
      c("b", "1 checked bag (23 kg)", "baggage", "€35"), c("c", "2 checked bags (2 × 23 kg)", "baggage", "€65")],
     EX("b"), asked=CH),
   T("go ahead",
     [c("a", "Pay €35.00 for 1 checked bag", "payment", "Visa ·· 4821", risk=True)],
     EX("a"), asked=CF)])

# ---------------------------------------------------------------- 5 everyday_verb
D("x2013", "everyday_verb", "email", "en",
  "'send this to Priya' is Forward; 'put it back in my inbox' is Restore; neither label uses the user's verb.",
  [T("send this to Priya",
     [c("a", "Archive", "email_action"), c("b", "Move to trash", "email_action"), c("c", "Forward", "email_action"),
      c("d", "Mark as unread", "email_action"), c("e", "Snooze", "email_action")],
     EX("c")),
   T("put it back in my inbox",
     [c("a", "Restore", "email_action"), c("b", "Delete forever", "email_action", risk=True),
      c("c", "Empty trash", "email_action", risk=True)],
     EX("a"))])

D("x2014", "everyday_verb", "messaging", "en",
  "'ring Jake' is Voice call; 'kick him out of the group' is Remove from group, which is RISK_HIGH and not said whole: confirm it; 'yes, do it' confirms.",
  [T("ring Jake",
     [c("a", "Message", "member_action", "Jake"), c("b", "Voice call", "member_action", "Jake"),
      c("c", "Mute", "member_action", "Jake"), c("d", "Remove from group", "member_action", "Jake", risk=True)],
     EX("b")),
   T("actually kick him out of the group",
     [c("a", "Message", "member_action", "Jake"), c("b", "Voice call", "member_action", "Jake"),
      c("c", "Mute", "member_action", "Jake"), c("d", "Remove from group", "member_action", "Jake", risk=True)],
     CL("d")),
   T("yes, do it",
     [c("d", "Remove from group", "member_action", "Jake", risk=True)],
     EX("d"), asked=CF)])

D("x2015", "everyday_verb", "music", "nl",
  "'zet hem even stil' is Pauzeren; 'sla dit nummer over' (skip) is Volgende nummer.",
  [T("zet hem even stil",
     [c("a", "Volgende nummer", "player_action"), c("b", "Shuffle aan", "player_action"),
      c("c", "Herhalen", "player_action"), c("d", "Pauzeren", "player_action")],
     EX("d")),
   T("sla dit nummer maar over",
     [c("a", "Hervatten", "player_action"), c("b", "Volgende nummer", "player_action"),
      c("c", "Herhalen", "player_action")],
     EX("b"))])

# ---------------------------------------------------------------- 6 value_other_way
D("x2016", "value_other_way", "train", "en",
  "'6.30 pm' is 18:30; 'ten past seven' fits both 07:10 and 19:10: ask; 'the evening one' then picks 19:10.",
  [T("the 6.30 pm one",
     [c("a", "17:45", "departure", "Bristol → London · arr 19:27"), c("b", "18:30", "departure", "Bristol → London · arr 20:14"),
      c("c", "19:15", "departure", "Bristol → London · arr 20:58")],
     EX("b"), asked=CH),
   T("coming back, ten past seven",
     [c("a", "07:10", "departure", "London → Bristol"), c("b", "13:40", "departure", "London → Bristol"),
      c("c", "19:10", "departure", "London → Bristol")],
     CL("a", "c"), asked=CH),
   T("the evening one",
     [c("a", "07:10", "departure", "London → Bristol"), c("c", "19:10", "departure", "London → Bristol")],
     EX("c"), asked=CH)])

D("x2017", "value_other_way", "fashion", "de",
  "'Medium' is size M; 'am vierten Juni' is 'Di, 04.06.'.",
  [T("In Medium, bitte",
     [c("a", "S", "size"), c("b", "M", "size"), c("c", "L", "size"), c("d", "XL", "size")],
     EX("b"), asked=CH),
   T("Am vierten Juni, bitte",
     [c("a", "Mo, 03.06.", "delivery_day"), c("b", "Di, 04.06.", "delivery_day"), c("c", "Mi, 05.06.", "delivery_day")],
     EX("b"), asked=CH)])

D("x2018", "value_other_way", "salon", "es",
  "'el de una hora' is the 60-minute service; 'a las cuatro y media de la tarde' is 16:30.",
  [T("el de una hora",
     [c("a", "Corte – 30 min", "service"), c("b", "Corte y peinado – 60 min", "service"), c("c", "Tinte – 90 min", "service")],
     EX("b"), asked=CH),
   T("a las cuatro y media de la tarde",
     [c("a", "10:00", "slot", "viernes"), c("b", "16:30", "slot", "viernes"), c("c", "18:00", "slot", "viernes")],
     EX("b"), asked=CH)])

# ---------------------------------------------------------------- 7 object_alone
D("x2019", "object_alone", "online_shop", "en",
  "'invoice' and 'the return label' are objects of exactly one action label each.",
  [T("invoice",
     [c("a", "Track parcel", "order_action"), c("b", "Download invoice", "order_action"),
      c("c", "Print return label", "order_action"), c("d", "Cancel order", "order_action", risk=True)],
     EX("b")),
   T("the return label too",
     [c("a", "Track parcel", "order_action"), c("b", "Download invoice", "order_action"),
      c("c", "Print return label", "order_action"), c("d", "Cancel order", "order_action", risk=True)],
     EX("c"))])

D("x2020", "object_alone", "photos", "en",
  "'the photos' belongs to one label only; 'album' is the object of both Share album and the RISK_HIGH Delete album: ask; 'share it' then decides.",
  [T("the photos",
     [c("a", "Share album", "album_action", "Lisbon 2024"), c("b", "Download photos", "album_action", "Lisbon 2024"),
      c("c", "Edit cover", "album_action", "Lisbon 2024"), c("d", "Delete album", "album_action", "Lisbon 2024", risk=True)],
     EX("b")),
   T("now the album",
     [c("a", "Share album", "album_action", "Lisbon 2024"), c("b", "Download photos", "album_action", "Lisbon 2024"),
      c("c", "Edit cover", "album_action", "Lisbon 2024"), c("d", "Delete album", "album_action", "Lisbon 2024", risk=True)],
     CL("a", "d")),
   T("share it",
     [c("a", "Share album", "album_action", "Lisbon 2024"), c("d", "Delete album", "album_action", "Lisbon 2024", risk=True)],
     EX("a"), asked=CH)])

D("x2021", "object_alone", "banking", "pt",
  "'o extrato' names Ver extrato; 'o cartão' names only Bloquear cartão, which is RISK_HIGH: confirm it; 'sim' confirms.",
  [T("o extrato",
     [c("a", "Ver extrato", "account_action"), c("b", "Pagar fatura", "account_action", risk=True),
      c("c", "Bloquear cartão", "account_action", "Visa ·· 7710", risk=True), c("d", "Alterar PIN", "account_action")],
     EX("a")),
   T("agora o cartão",
     [c("a", "Ver extrato", "account_action"), c("b", "Pagar fatura", "account_action", risk=True),
      c("c", "Bloquear cartão", "account_action", "Visa ·· 7710", risk=True), c("d", "Alterar PIN", "account_action")],
     CL("c")),
   T("sim",
     [c("c", "Bloquear cartão", "account_action", "Visa ·· 7710", risk=True)],
     EX("c"), asked=CF)])

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
D("x2022", "distinguishing_word_plus_kind", "music", "en",
  "'chill playlist': 'chill' tells it apart and 'playlist' is only the kind (not a pointer to 'Workout playlist'); 'harbour episode' likewise.",
  [T("put on the chill playlist",
     [c("a", "Chill", "playlist"), c("b", "Workout playlist", "playlist"), c("c", "Road trip", "playlist"),
      c("d", "Focus", "playlist")],
     EX("a")),
   T("the harbour episode",
     [c("a", "Episode 41: The Salt Road", "episode"), c("b", "Episode 42: Harbour Lights", "episode"),
      c("c", "Bonus: Q&A with listeners", "episode")],
     EX("b"))])

D("x2023", "distinguishing_word_plus_kind", "calendar", "en",
  "'dentist appointment' picks Dentist; 'sync meeting' is shared by two meetings: ask; 'Dana' then decides.",
  [T("open the dentist appointment",
     [c("a", "Dentist", "meeting", "Tue 09:00"), c("b", "Team sync", "meeting", "Tue 11:00"),
      c("c", "Sync with Dana", "meeting", "Wed 14:00"), c("d", "Budget review", "meeting", "Thu 16:00")],
     EX("a")),
   T("and the sync meeting",
     [c("a", "Dentist", "meeting", "Tue 09:00"), c("b", "Team sync", "meeting", "Tue 11:00"),
      c("c", "Sync with Dana", "meeting", "Wed 14:00"), c("d", "Budget review", "meeting", "Thu 16:00")],
     CL("b", "c")),
   T("the one with Dana",
     [c("b", "Team sync", "meeting", "Tue 11:00"), c("c", "Sync with Dana", "meeting", "Wed 14:00")],
     EX("c"), asked=CH)])

# ---------------------------------------------------------------- 9 correction_after_execute
D("x2024", "correction_after_execute", "hotel", "en",
  "City view was executed, then the user says it was wrong and names garden view: first execute is rejected, garden view is executed.",
  [T("city view please",
     [c("a", "Double room · city view", "room", "€129/night"), c("b", "Double room · garden view", "room", "€139/night"),
      c("c", "Twin room", "room", "€119/night")],
     EX("a", rejected=True), asked=CH),
   T("sorry, wrong one — I meant garden view",
     [c("a", "Double room · city view", "room", "€129/night"), c("b", "Double room · garden view", "room", "€139/night"),
      c("c", "Twin room", "room", "€119/night")],
     EX("b"))])

D("x2025", "correction_after_execute", "doctor", "es",
  "Monday 10:00 was executed; the user says they were wrong and wanted the Tuesday one (only one Tuesday slot): reject, then execute it.",
  [T("el lunes a las diez",
     [c("a", "Dra. López · lunes 10:00", "appointment"), c("b", "Dr. Ruiz · lunes 12:30", "appointment"),
      c("c", "Dra. López · martes 9:15", "appointment")],
     EX("a", rejected=True), asked=CH),
   T("perdón, me equivoqué: quería la del martes",
     [c("a", "Dra. López · lunes 10:00", "appointment"), c("b", "Dr. Ruiz · lunes 12:30", "appointment"),
      c("c", "Dra. López · martes 9:15", "appointment")],
     EX("c"))])

D("x2026", "correction_after_execute", "streaming", "en",
  "Pause was executed, then rejected; the meant option is Cancel subscription, RISK_HIGH and not said whole, so confirm it; 'yes, cancel it' confirms.",
  [T("pause it",
     [c("a", "Pause subscription", "subscription_action"), c("b", "Change plan", "subscription_action"),
      c("c", "Cancel subscription", "subscription_action", risk=True)],
     EX("a", rejected=True)),
   T("no, not pause — I want to end it for good",
     [c("a", "Pause subscription", "subscription_action"), c("b", "Change plan", "subscription_action"),
      c("c", "Cancel subscription", "subscription_action", risk=True)],
     CL("c")),
   T("yes, cancel it",
     [c("c", "Cancel subscription", "subscription_action", risk=True)],
     EX("c"), asked=CF)])

# ---------------------------------------------------------------- 10 self_correcting_reply
D("x2027", "self_correcting_reply", "cinema", "en",
  "Each message names one option then takes it back for another; the last choice stands (20:45, then Standard seat).",
  [T("the 6 o'clock — no wait, the 8:45 one",
     [c("a", "18:00 · Screen 2", "showtime"), c("b", "20:45 · Screen 5", "showtime"), c("c", "22:30 · Screen 1", "showtime")],
     EX("b"), asked=CH),
   T("recliner... actually no, standard's fine",
     [c("a", "Standard seat", "seat_type", "€11"), c("b", "Recliner", "seat_type", "€14")],
     EX("a"), asked=CH)])

D("x2028", "self_correcting_reply", "groceries", "fr",
  "Saturday morning is taken back for Sunday; paper bags are taken back for no bags. The last choice stands.",
  [T("samedi matin… ah non, plutôt dimanche",
     [c("a", "Samedi 9h–11h", "delivery_slot"), c("b", "Samedi 14h–16h", "delivery_slot"), c("c", "Dimanche 10h–12h", "delivery_slot")],
     EX("c"), asked=CH),
   T("avec des sacs en papier, enfin non, sans sacs",
     [c("a", "Sans sacs", "bag_option"), c("b", "Sacs en papier (+0,20 €)", "bag_option")],
     EX("a"), asked=CH)])

D("x2029", "self_correcting_reply", "ride_hailing", "en",
  "XL is taken back with no replacement named: ask between the two remaining; 'standard' then decides.",
  [T("XL… actually no, not XL",
     [c("a", "Standard", "ride_type", "€14 · 4 min"), c("b", "XL", "ride_type", "€21 · 7 min"),
      c("c", "Green", "ride_type", "€15 · 6 min")],
     CL("a", "c"), asked=CH),
   T("standard",
     [c("a", "Standard", "ride_type", "€14 · 4 min"), c("c", "Green", "ride_type", "€15 · 6 min")],
     EX("a"), asked=CH)])

# ---------------------------------------------------------------- 11 closing_after_execute
D("x2030", "closing_after_execute", "fitness", "en",
  "After booking Pilates, 'awesome, thanks!' closes with nothing pending: cancel (not Cancel booking).",
  [T("pilates",
     [c("a", "Yoga · 7:00", "class"), c("b", "Spin · 12:15", "class"), c("c", "Pilates · 18:30", "class")],
     EX("c"), asked=CH),
   T("awesome, thanks!",
     [c("a", "Add to calendar", "booking_action"), c("b", "Invite a friend", "booking_action"),
      c("c", "Cancel booking", "booking_action", risk=True)],
     ES("cancel"))])

D("x2031", "closing_after_execute", "pharmacy", "en",
  "'thanks! can you ping me when it's ready?' is thanks plus a request that matches an option, so execute it; the later 'great, that's all' closes: cancel.",
  [T("Riverside",
     [c("a", "Main St pharmacy", "store"), c("b", "Riverside pharmacy", "store"), c("c", "Airport pharmacy", "store")],
     EX("b"), asked=CH),
   T("thanks! can you ping me when it's ready?",
     [c("a", "Remind me when it's ready", "order_action"), c("b", "Change pickup store", "order_action"),
      c("c", "Cancel order", "order_action", risk=True)],
     EX("a")),
   T("great, that's all",
     [c("b", "Change pickup store", "order_action"), c("c", "Cancel order", "order_action", risk=True)],
     ES("cancel"))])

# ---------------------------------------------------------------- 12 ack_then_new_request
D("x2032", "ack_then_new_request", "hotel", "en",
  "'ok, does that include breakfast?' acknowledges the offered booking but asks a question, not a yes; later 'alright, book it' is the yes to the RISK_HIGH confirmation.",
  [T("the Seaside Inn",
     [c("a", "Hotel Aurora", "hotel", "€98/night"), c("b", "Seaside Inn", "hotel", "€120/night"),
      c("c", "Grand Palace", "hotel", "€210/night")],
     EX("b")),
   T("ok, does that include breakfast?",
     [c("a", "Book Seaside Inn · 2 nights · €240", "booking", "Fri 7 – Sun 9 June", risk=True)],
     ES("question_intent"), asked=CF),
   T("alright, book it",
     [c("a", "Book Seaside Inn · 2 nights · €240", "booking", "Fri 7 – Sun 9 June", risk=True)],
     EX("a"), asked=CF)])

D("x2033", "ack_then_new_request", "car_service", "en",
  "'ok.' followed by a question is not a yes: question_intent; 'Okay, thanks.' followed by a listed command phrase is the command.",
  [T("ok. how long does it usually take?",
     [c("a", "Oil change · Thu 9:30", "appointment", "Mendes Garage · €89")],
     ES("question_intent"), asked=CF),
   T("Okay, thanks. Talk to a person, please.",
     [c("a", "Oil change · Thu 9:30", "appointment", "Mendes Garage · €89")],
     ES("command"), asked=CF,
     commands=[{"id": "human", "label": "Talk to a person", "phrases": ["talk to a person", "agent", "human"]}])])

# ---------------------------------------------------------------- 13 choice_with_question
D("x2034", "choice_with_question", "sports_shop", "en",
  "A clear choice followed by a question (follow_up question), then a size followed by a request (follow_up request).",
  [T("the blue trail runners — are they waterproof?",
     [c("a", "Trail runner – blue", "product", "€119"), c("b", "Trail runner – black", "product", "€119"),
      c("c", "Road runner – white", "product", "€99")],
     EX("a", "question")),
   T("42, and can you add a pair of running socks?",
     [c("a", "EU 41", "size"), c("b", "EU 42", "size"), c("c", "EU 43", "size")],
     EX("b", "request"), asked=CH)])

D("x2035", "choice_with_question", "real_estate", "en",
  "A question about an option without choosing is question_intent; '3B viewing' plus a question fits two slots, so ask; 'Sunday' decides.",
  [T("is 5A the one with the balcony?",
     [c("a", "Sat 10:00 · Flat 3B", "viewing"), c("b", "Sat 11:30 · Flat 5A", "viewing"), c("c", "Sun 14:00 · Flat 3B", "viewing")],
     ES("question_intent"), asked=CH),
   T("the 3B viewing then — is there parking?",
     [c("a", "Sat 10:00 · Flat 3B", "viewing"), c("b", "Sat 11:30 · Flat 5A", "viewing"), c("c", "Sun 14:00 · Flat 3B", "viewing")],
     CL("a", "c"), asked=CH),
   T("Sunday",
     [c("a", "Sat 10:00 · Flat 3B", "viewing"), c("c", "Sun 14:00 · Flat 3B", "viewing")],
     EX("c"), asked=CH)])

D("x2036", "choice_with_question", "vet", "en",
  "'Tuesday works' picks the only Tuesday slot, then asks a question; 'add it to my calendar and text me the address' picks Add to calendar and asks for more.",
  [T("Tuesday works. should I bring his vaccination card?",
     [c("a", "Dr. Okafor · Mon 15:00", "appointment"), c("b", "Dr. Lindqvist · Tue 10:30", "appointment")],
     EX("b", "question"), asked=CH),
   T("add it to my calendar and text me the address",
     [c("a", "Add to calendar", "booking_action"), c("b", "Reschedule", "booking_action"),
      c("c", "Cancel appointment", "booking_action", risk=True)],
     EX("a", "request"))])

# ---------------------------------------------------------------- 14 shorthand
D("x2037", "shorthand", "telecom", "en",
  "'bal pls' is Check data balance; 'top up 10 pls' is the RISK_HIGH 'Add €10 credit', not said whole: confirm; 'yh go ahead' confirms.",
  [T("bal pls",
     [c("a", "Check data balance", "account_action"), c("b", "Add €10 credit", "account_action", "charged to card ·· 3390", risk=True),
      c("c", "Roaming settings", "account_action"), c("d", "Change plan", "account_action")],
     EX("a")),
   T("top up 10 pls",
     [c("a", "Check data balance", "account_action"), c("b", "Add €10 credit", "account_action", "charged to card ·· 3390", risk=True),
      c("c", "Roaming settings", "account_action"), c("d", "Change plan", "account_action")],
     CL("b")),
   T("yh go ahead",
     [c("b", "Add €10 credit", "account_action", "charged to card ·· 3390", risk=True)],
     EX("b"), asked=CF)])

D("x2038", "shorthand", "doctor", "de",
  "'Fr früh' is the Friday 08:30 slot; '1 Std vorher' is '1 Stunde vorher'.",
  [T("Fr früh pls",
     [c("a", "Donnerstag, 10:00", "appointment"), c("b", "Freitag, 08:30", "appointment"), c("c", "Montag, 14:15", "appointment")],
     EX("b"), asked=CH),
   T("1 Std vorher",
     [c("a", "1 Tag vorher", "reminder"), c("b", "1 Stunde vorher", "reminder"), c("c", "Keine Erinnerung", "reminder")],
     EX("b"), asked=CH)])

# ---------------------------------------------------------------- 15 two_requests_in_order
D("x2039", "two_requests_in_order", "smart_home", "en",
  "'oven first, then a timer' executes the oven with a request follow-up; 'the dishwasher or the extractor fan' is an alternative, so ask.",
  [T("preheat the oven first, then set a 20-minute timer",
     [c("a", "Preheat oven to 180 °C", "appliance_action"), c("b", "Start dishwasher", "appliance_action"),
      c("c", "Turn on extractor fan", "appliance_action"), c("d", "Set a timer", "appliance_action")],
     EX("a", "request")),
   T("now start the dishwasher or the extractor fan",
     [c("a", "Start dishwasher", "appliance_action"), c("b", "Turn on extractor fan", "appliance_action"),
      c("c", "Set a timer", "appliance_action"), c("d", "Turn off oven", "appliance_action")],
     CL("a", "b")),
   T("the fan",
     [c("a", "Start dishwasher", "appliance_action"), c("b", "Turn on extractor fan", "appliance_action")],
     EX("b"), asked=CH)])

D("x2040", "two_requests_in_order", "documents", "en",
  "'save as PDF first, then print' executes Save as PDF with a request follow-up; when the first step is the RISK_HIGH delete, not said whole, it is confirmed first.",
  [T("save it as a PDF first and then print it",
     [c("a", "Save as PDF", "document_action"), c("b", "Print", "document_action"),
      c("c", "Share via email", "document_action"), c("d", "Delete document", "document_action", risk=True)],
     EX("a", "request")),
   T("bin the original first, then email the PDF to Marco",
     [c("a", "Print PDF", "document_action"), c("b", "Share via email", "document_action"),
      c("c", "Delete original document", "document_action", risk=True)],
     CL("c")),
   T("yes",
     [c("c", "Delete original document", "document_action", risk=True)],
     EX("c"), asked=CF)])

SCORING = {
    "debatable": ["x2008#1", "x2016#2", "x2021#2", "x2004#1", "x2033#1", "x2029#1"],
    "knowledge": ["x2038#1"],
}

with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
    for d in DIALOGUES:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")
with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
    json.dump(SCORING, f, ensure_ascii=False, indent=1)
print(f"wrote {len(DIALOGUES)} dialogues")
