#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh73 blind set (v2001..v2040).

Written blind from BRIEF.md only: every expectation is what a careful human
assistant would do with the screen and message shown.
"""
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- helpers
def C(cid, label, kind, sub=None, risk=False):
    c = {"id": cid, "label": label}
    if sub:
        c["sublabel"] = sub
    c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def X(cid, follow_up=None):
    e = {"execute": cid}
    if follow_up:
        e["follow_up"] = follow_up
    return e


def CL(*ids):
    return {"clarify": list(ids)}


def ESC(reason):
    return {"escape": reason}


def T(text, cands, expect, asked=None, rejected=False, commands=None):
    return {"text": text, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


def pick(cands, *ids):
    """The screen after a clarify: exactly the offered ids, in that order."""
    by = {c["id"]: c for c in cands}
    return [by[i] for i in ids]


DIALOGUES = []


def D(did, cat, dom, lang, note, turns):
    out = []
    for n, t in enumerate(turns, 1):
        opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
        if t["asked"]:
            opts["asked"] = t["asked"]
        turn = {"input": t["text"],
                "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{dom}"},
                "options": opts}
        if t["commands"]:
            turn["commands"] = t["commands"]
        turn["expect"] = t["expect"]
        if "execute" in t["expect"]:
            turn["record_outcome"] = {
                "kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                "choiceId": t["expect"]["execute"]}
        out.append(turn)
    DIALOGUES.append({"id": did, "category": cat, "domain": dom, "language": lang,
                      "note": note, "dialogue": out})


CH = "ASKED_CHOICE"
CF = "ASKED_CONFIRMATION"

# ======================================================= 1. signed_numbers
tz = [C("a", "UTC-3", "timezone", "São Paulo"),
      C("b", "UTC±0", "timezone", "London, Lisbon"),
      C("c", "UTC+1", "timezone", "Berlin, Paris"),
      C("d", "UTC+2", "timezone", "Athens, Helsinki")]
rem = [C("a", "At time of event", "reminder"),
       C("b", "5 minutes before", "reminder"),
       C("c", "15 minutes before", "reminder"),
       C("d", "1 hour before", "reminder")]
D("v2001", "signed_numbers", "calendar", "en",
  "'+2' is a UTC offset (option d), not list position 2; '-15 min' is an offset = 15 minutes before.",
  [T("they're on +2", tz, X("d"), CH),
   T("-15 min is fine", rem, X("c"), CH)])

konten = [C("a", "Girokonto", "account", "DE89 3704 0044 0532 0130 00"),
          C("b", "Gemeinschaftskonto", "account", "DE75 5121 0800 1245 1261 99"),
          C("c", "Tagesgeld", "account", "DE02 1203 0000 0000 2020 51")]
spar = [C("a", "Sparrate um 10 € erhöhen", "savings_plan", "neu: 160 €/Monat"),
        C("b", "Sparrate um 10 € senken", "savings_plan", "neu: 140 €/Monat"),
        C("c", "Sparplan 3 Monate pausieren", "savings_plan"),
        C("d", "Sparplan beenden", "savings_plan", risk=True)]
bank_menu = [C("a", "Dauerauftrag ändern", "action"),
             C("b", "Neuen Dauerauftrag anlegen", "action"),
             C("c", "Überweisung", "action")]
D("v2002", "signed_numbers", "banking", "de",
  "'DE02' is part of an IBAN (option c), not position 2 (b); '-10' is a signed amount = lower by 10 €, not item 10 or 1; then the user abandons.",
  [T("Vom DE02-Konto bitte", konten, X("c"), CH),
   T("-10, diesen Monat wird's knapp", spar, X("b")),
   T("ach, vergiss es, mach ich später am Rechner", bank_menu, ESC("cancel"))])

levels = [C("a", "Level 2", "parking_level", "34 free"),
          C("b", "Level 1", "parking_level", "12 free"),
          C("c", "Level -1 East", "parking_level", "8 free · EV chargers"),
          C("d", "Level -1 West", "parking_level", "20 free")]
D("v2003", "signed_numbers", "parking", "en",
  "'-1' is a floor value, not position 1 (Level 2); two levels are -1, so ask between them.",
  [T("-1 pls", levels, CL("c", "d"), CH),
   T("the one with the chargers", pick(levels, "c", "d"), X("c"), CH)])

# ================================================ 2. changed_value_not_yes
hair1 = [C("a", "Haircut — Thu 14 March, 3:30 pm", "appointment", "with Dana · 45 min")]
hair2 = [C("a", "Thu 14 March, 4:30 pm", "slot", "with Dana"),
         C("b", "Thu 14 March, 5:15 pm", "slot", "with Marco")]
hair3 = [C("a", "Pay €10 deposit", "payment", "card ending 5521", risk=True)]
D("v2004", "changed_value_not_yes", "hair_salon", "en",
  "4:30 differs from the confirmed 3:30 -> a change, not a yes; 'half four' = 4:30; 'ten euros' = €10 is a yes to the deposit.",
  [T("4:30 would suit me better", hair1, ESC("declined"), CF),
   T("half four's good", hair2, X("a"), CH),
   T("yes, ten euros is fine", hair3, X("a"), CF)])

vuelo = [C("a", "Cambiar al vuelo del viernes 7 de junio, 18:45", "flight_change",
           "IB3170 Madrid → Lisboa · suplemento 35 €", risk=True)]
maleta = [C("a", "Añadir maleta facturada de 23 kg", "extra", "40 €")]
D("v2005", "changed_value_not_yes", "flights", "es",
  "'siete menos cuarto de la tarde' = 18:45, same day -> yes to the confirmation; 15 kg differs from the 23 kg bag -> not a yes.",
  [T("sí, el viernes a las siete menos cuarto de la tarde, perfecto", vuelo, X("a"), CF),
   T("con una de quince kilos me sobra", maleta, ESC("declined"), CF)])

table1 = [C("a", "Table pour 4 — samedi 19h30", "reservation", "Le Petit Zinc · terrasse")]
table2 = [C("a", "Table pour 4 — samedi 20h00", "reservation", "Le Petit Zinc · salle")]
after_resa = [C("a", "Ajouter à mon agenda", "action"),
              C("b", "Envoyer l'invitation aux convives", "action")]
D("v2006", "changed_value_not_yes", "restaurant", "fr",
  "'oui ... mais à vingt heures' changes 19h30 -> not a yes; 'huit heures du soir' = 20h00 -> yes; then closes with thanks.",
  [T("oui pour samedi, mais plutôt à vingt heures", table1, ESC("declined"), CF),
   T("parfait, huit heures du soir ça nous va", table2, X("a"), CF),
   T("super merci, c'est tout", after_resa, ESC("cancel"))])

# =============================================== 3. ordinal_word_in_labels
queue = [C("a", "Last Dance", "track", "Donna Summer"),
         C("b", "First Day of My Life", "track", "Bright Eyes"),
         C("c", "Second Hand News", "track", "Fleetwood Mac"),
         C("d", "Go Your Own Way", "track", "Fleetwood Mac")]
D("v2007", "ordinal_word_in_labels", "music", "en",
  "'the last one' = last position (d) or the track 'Last Dance' (a): ask.",
  [T("play the last one", queue, CL("d", "a")),
   T("the donna summer one", pick(queue, "d", "a"), X("a"), CH)])

ship = [C("a", "Standard", "shipping", "3–5 business days · free"),
        C("b", "First Class", "shipping", "2 business days · $6.99"),
        C("c", "Next Day", "shipping", "order by 2 pm · $14.99")]
addr = [C("a", "Home", "address", "12 Second Street, Apt 4"),
        C("b", "Office", "address", "400 Main Street, Floor 3"),
        C("c", "Mom", "address", "7 Third Avenue")]
D("v2008", "ordinal_word_in_labels", "ecommerce", "en",
  "'first class' names option b, not position 1; 'second street' is the Home address (a), not position 2.",
  [T("first class is fine", ship, X("b"), CH),
   T("send it to second street", addr, X("a"), CH)])

treni = [C("a", "Seconda classe — 08:15", "train", "Frecciarossa 9511 · 49 €"),
         C("b", "Prima classe — 08:15", "train", "Frecciarossa 9511 · 89 €"),
         C("c", "Seconda classe — 09:15", "train", "Frecciarossa 9515 · 45 €")]
paga = [C("a", "Paga 45 € con carta •••• 8812", "payment", risk=True)]
D("v2009", "ordinal_word_in_labels", "train", "it",
  "'seconda classe' is a label word, not position 2 (Prima classe); the time picks c; then a yes to the payment confirmation.",
  [T("seconda classe, quello delle 9 e un quarto", treni, X("c"), CH),
   T("sì, vai", paga, X("a"), CF)])

# ======================================================== 4. quantity_noun
pizza = [C("a", "Pizza Margherita", "dish", "$11"),
         C("b", "Pizza Diavola", "dish", "$13"),
         C("c", "Family deal", "bundle", "2 pizzas + 2 sodas + garlic bread · $29"),
         C("d", "Garlic bread", "dish", "$5")]
drinks = [C("a", "Coke 330 ml can", "drink", "$2"),
          C("b", "Coke 1.5 L bottle", "drink", "$4"),
          C("c", "Sprite 330 ml can", "drink", "$2"),
          C("d", "Soda 6-pack", "bundle", "mixed cans · $10")]
D("v2010", "quantity_noun", "food_delivery", "en",
  "'2 margheritas' = the Margherita item (x2), not the 2-pizza deal; '2 cokes' fits the can and the bottle: ask.",
  [T("2 margheritas", pizza, X("a")),
   T("and 2 cokes", drinks, CL("a", "b")),
   T("cans", pick(drinks, "a", "b"), X("a"), CH)])

bios = [C("a", "Volwassene", "ticket", "€12,50"),
        C("b", "Kind (t/m 11 jaar)", "ticket", "€8,50"),
        C("c", "Duo-deal", "bundle", "2 tickets + grote popcorn · €29"),
        C("d", "Gezinsticket", "bundle", "2 volwassenen + 2 kinderen · €39")]
snacks = [C("a", "Popcorn klein", "snack", "€4"),
          C("b", "Popcorn groot", "snack", "€6"),
          C("c", "Snackmenu", "bundle", "grote popcorn + 2 drankjes · €11")]
D("v2011", "quantity_noun", "cinema", "nl",
  "'2 kaartjes voor volwassenen' = adult ticket x2, not the Duo-deal; '1 popcorn' fits small and large, not the menu: ask.",
  [T("2 kaartjes voor volwassenen graag", bios, X("a")),
   T("en 1 popcorn", snacks, CL("a", "b")),
   T("groot", pick(snacks, "a", "b"), X("b"), CH)])

paper = [C("a", "Copy paper A4 — 1 ream", "paper", "500 sheets · $6.49"),
         C("b", "Copy paper A4 — box", "paper", "5 reams · $29.99"),
         C("c", "Sticky notes 3x3", "stationery", "12 pads · $8.99")]
toner = [C("a", "Toner — black", "toner", "$64"),
         C("b", "Toner — cyan", "toner", "$58"),
         C("c", "Toner — magenta", "toner", "$58"),
         C("d", "Toner — yellow", "toner", "$58"),
         C("e", "Toner — value pack", "bundle", "black + cyan + magenta + yellow · $199")]
D("v2012", "quantity_noun", "office_supplies", "en",
  "'2 reams' = the single ream item (x2), not the 5-ream box; 'one toner' = one of the single toners, not the pack: ask which colour.",
  [T("2 reams of paper", paper, X("a")),
   T("1 toner too", toner, CL("a", "b", "c", "d")),
   T("black", pick(toner, "a", "b", "c", "d"), X("a"), CH)])

# ======================================================== 5. everyday_verb
home = [C("a", "All lights off", "scene"),
        C("b", "Thermostat: Eco", "thermostat"),
        C("c", "Front door: unlock", "lock", risk=True),
        C("d", "Garage door: close", "garage")]
D("v2013", "everyday_verb", "smart_home", "en",
  "'kill the lights' = All lights off; 'shut the garage' = close; 'open the front door' = unlock, RISK_HIGH -> confirm.",
  [T("kill the lights, going to bed", home, X("a")),
   T("shut the garage too", home, X("d")),
   T("and open the front door for the dog walker", home, CL("c"))])

tel = [C("a", "Portabilidade para outra operadora", "service", risk=True),
       C("b", "Bloquear linha por perda ou roubo", "service", risk=True),
       C("c", "Segunda via da fatura", "service"),
       C("d", "Alterar data de vencimento", "service")]
tel2 = [C("a", "Segunda via da fatura", "service"),
        C("b", "Pedir novo chip", "service", "R$ 15,00"),
        C("c", "Falar com atendente", "service")]
D("v2014", "everyday_verb", "telecom", "pt",
  "'travar o chip' = bloquear linha, RISK_HIGH -> confirm first, then yes; 'me manda de novo a conta' = segunda via da fatura.",
  [T("roubaram meu celular, preciso travar o chip agora", tel, CL("b")),
   T("isso, pode bloquear", pick(tel, "b"), X("b"), CF),
   T("me manda de novo a conta de março", tel2, X("a"))])

file1 = [C("a", "Share…", "file_action", "Invite people by email"),
         C("b", "Copy link", "file_action"),
         C("c", "Make available offline", "file_action"),
         C("d", "Delete permanently", "file_action", risk=True)]
file2 = [C("a", "Rename", "file_action"),
         C("b", "Move to…", "file_action"),
         C("c", "Delete permanently", "file_action", "Thesis_draft_old.docx", risk=True),
         C("d", "Restore previous version", "file_action")]
D("v2015", "everyday_verb", "cloud_storage", "en",
  "'download it to my laptop' = Make available offline; 'get rid of for good' = Delete permanently, RISK_HIGH -> confirm; then a no.",
  [T("download it to my laptop, no wifi on the flight", file1, X("c")),
   T("get rid of the old draft for good", file2, CL("c")),
   T("hm no, leave it actually", pick(file2, "c"), ESC("declined"), CF)])

# ====================================================== 6. value_other_way
dent = [C("a", "Tue 11 Mar, 09:00", "slot"),
        C("b", "Tue 11 Mar, 14:00", "slot"),
        C("c", "Wed 12 Mar, 09:00", "slot"),
        C("d", "Thu 13 Mar, 16:30", "slot")]
dent2 = [C("a", "Fri 14 Mar, 10:00", "slot"),
         C("b", "Fri 14 Mar, 15:00", "slot"),
         C("c", "Sat 15 Mar, 10:00", "slot")]
D("v2016", "value_other_way", "dentist", "en",
  "'wednesday, nine in the morning' = Wed 12 Mar 09:00; 'the 14th' fits two slots: ask; '3pm' = 15:00.",
  [T("wednesday, nine in the morning", dent, X("c"), CH),
   T("and one for my son, the 14th", dent2, CL("a", "b"), CH),
   T("3pm, after school", pick(dent2, "a", "b"), X("b"), CH)])

kurse = [C("a", "Yoga — Mo 18:00", "class"),
         C("b", "Spinning — Mo 19:30", "class"),
         C("c", "Pilates — Di 18:00", "class"),
         C("d", "Yoga — Mi 07:00", "class")]
spin = [C("a", "Spinning — Mi 07:30", "class"),
        C("b", "Spinning — Mi 08:30", "class"),
        C("c", "Spinning — Mi 18:30", "class")]
D("v2017", "value_other_way", "fitness", "de",
  "'montags um sechs abends' = Mo 18:00; 'halb acht' = 07:30 (German half-hour counts toward the next hour), not 08:30.",
  [T("Yoga montags um sechs abends", kurse, X("a"), CH),
   T("Mittwoch halb acht", spin, X("a"), CH)])

seats = [C("a", "12C", "seat", "aisle"),
         C("b", "14A", "seat", "window"),
         C("c", "14B", "seat", "middle"),
         C("d", "22F", "seat", "window · exit row")]
bags = [C("a", "Cabin bag 10 kg", "baggage", "+€15"),
        C("b", "Checked bag 23 kg", "baggage", "+€35"),
        C("c", "Checked bag 32 kg", "baggage", "+€60")]
D("v2018", "value_other_way", "flights", "en",
  "'window seat in row fourteen' = 14A; 'up to fifty pounds' ~ 22.7 kg -> the 23 kg checked bag (needs lb->kg).",
  [T("window seat in row fourteen", seats, X("b"), CH),
   T("one suitcase in the hold, up to fifty pounds", bags, X("b"), CH)])

# ========================================================== 7. object_alone
lib1 = [C("a", "Renew The Overstory", "loan", "due 3 May"),
        C("b", "Renew Piranesi", "loan", "due 28 Apr"),
        C("c", "Pay late fee for Piranesi ($1.50)", "fee", risk=True),
        C("d", "Reserve Klara and the Sun", "hold")]
lib2 = [C("a", "Renew Piranesi", "loan", "due 28 Apr"),
        C("b", "Pay late fee for Piranesi ($1.50)", "fee", risk=True),
        C("c", "Reserve Klara and the Sun", "hold")]
D("v2019", "object_alone", "library", "en",
  "'the overstory' is the object of one option only -> renew it; 'piranesi' is shared by renew and pay-fee: ask.",
  [T("the overstory pls", lib1, X("a")),
   T("piranesi", lib2, CL("a", "b")),
   T("just renew it", pick(lib2, "a", "b"), X("a"), CH)])

ph1 = [C("a", "Refill ibuprofen prescription", "prescription"),
       C("b", "Book appointment with Dr. Ruiz", "appointment"),
       C("c", "Download blood test report", "document")]
ph2 = [C("a", "Pay co-pay $4.20", "payment", risk=True),
       C("b", "Pick up at Main St pharmacy", "fulfilment"),
       C("c", "Home delivery", "fulfilment", "+$3.99")]
D("v2020", "object_alone", "pharmacy", "en",
  "'blood test report' alone names one option; 'the co-pay' alone names a RISK_HIGH payment -> confirm, then yes.",
  [T("blood test report", ph1, X("c")),
   T("the co-pay", ph2, CL("a")),
   T("sure", pick(ph2, "a"), X("a"), CF)])

# ======================================= 8. distinguishing_word_plus_kind
plans = [C("a", "Basic", "plan", "1 screen · HD · $7.99/mo"),
         C("b", "Standard", "plan", "2 screens · Full HD · $12.99/mo"),
         C("c", "Premium", "plan", "4 screens · 4K · $17.99/mo")]
sw = [C("a", "Switch to Standard — $12.99/mo from 1 June", "plan_change", risk=True)]
D("v2021", "distinguishing_word_plus_kind", "streaming", "en",
  "'standard' + 'tier' (a word for what every option is) = Standard; 'ok' to the confirmation is a yes.",
  [T("the standard tier", plans, X("b"), CH),
   T("ok", sw, X("a"), CF)])

files = [C("a", "Q3 budget.xlsx", "file", "edited yesterday"),
         C("b", "Q3 budget – draft.xlsx", "file", "edited 2 weeks ago"),
         C("c", "Q3 slides.pptx", "file"),
         C("d", "Offsite budget.xlsx", "file")]
files2 = pick(files, "a", "b", "d")
D("v2022", "distinguishing_word_plus_kind", "helpdesk", "en",
  "'slides' + 'file' = the pptx; 'budget spreadsheet' fits three xlsx files: ask; 'the Q3 one, not the draft' = a.",
  [T("the slides file", files, X("c"), CH),
   T("and the budget spreadsheet", files2, CL("a", "b", "d"), CH),
   T("the Q3 one, not the draft", pick(files2, "a", "b", "d"), X("a"), CH)])

rooms = [C("a", "Standard room", "room", "queen bed · €89"),
         C("b", "Superior room", "room", "sea view · €119"),
         C("c", "Junior suite", "room", "sea view · balcony · €159")]
rates = [C("a", "Flexible rate", "rate", "free cancellation until 48 h before"),
         C("b", "Non-refundable rate", "rate", "10% cheaper, charged now", risk=True),
         C("c", "Flexible rate + breakfast", "rate", "+€14 per night")]
D("v2023", "distinguishing_word_plus_kind", "hotel", "en",
  "'suite' + 'option' = Junior suite; 'flexible rate' fits two rates (with/without breakfast): ask.",
  [T("the suite option", rooms, X("c"), CH),
   T("the flexible rate", rates, CL("a", "c"), CH),
   T("with breakfast", pick(rates, "a", "c"), X("c"), CH)])

# ============================================= 9. correction_after_execute
curry = [C("a", "Chicken tikka masala", "dish", "£11.50"),
         C("b", "Chicken korma", "dish", "£10.95"),
         C("c", "Paneer tikka masala", "dish", "£10.50"),
         C("d", "Lamb rogan josh", "dish", "£12.95")]
D("v2024", "correction_after_execute", "food_delivery", "en",
  "Korma was executed, then the user says it was wrong and names the chicken tikka masala.",
  [T("chicken korma", curry, X("b"), CH, rejected=True),
   T("ugh no, wrong one, I wanted the chicken tikka masala", curry, X("a"))])

cars = [C("a", "VW Golf", "car", "manual · €39/day"),
        C("b", "VW Golf", "car", "automatic · €46/day"),
        C("c", "Skoda Octavia Estate", "car", "manual · €52/day")]
book = [C("a", "Book VW Golf automatic — 3 days, €138", "booking", risk=True)]
D("v2025", "correction_after_execute", "car_rental", "en",
  "Manual Golf executed, user corrects to the automatic Golf; then a yes to the paid booking.",
  [T("the golf, manual's fine", cars, X("a"), CH, rejected=True),
   T("sorry, scratch that, my wife only drives automatic. the automatic golf", cars, X("b")),
   T("yes book it", book, X("a"), CF)])

bills = [C("a", "Pay electricity bill — $84.20", "bill", "due Apr 20", risk=True),
         C("b", "Pay water bill — $31.75", "bill", "due May 2", risk=True),
         C("c", "Schedule electricity bill for Apr 28", "bill")]
D("v2026", "correction_after_execute", "utilities", "en",
  "Scheduling executed, user says wrong one and wants to pay now; paying is RISK_HIGH and not said whole -> confirm, then yes.",
  [T("schedule the electricity one", bills, X("c"), rejected=True),
   T("no wait, wrong one, it's already overdue. pay the electricity now", bills, CL("a")),
   T("yes", pick(bills, "a"), X("a"), CF)])

# =============================================== 10. self_correcting_reply
shows = [C("a", "7:10 pm", "showtime", "Screen 3"),
         C("b", "8:40 pm", "showtime", "IMAX"),
         C("c", "9:55 pm", "showtime", "Screen 3")]
buy = [C("a", "Buy 2 tickets, IMAX 8:40 pm — $38.00", "payment", risk=True)]
D("v2027", "self_correcting_reply", "cinema", "en",
  "Picks 7:10 then takes it back for the IMAX show; at the payment confirmation says yes then takes it back -> no.",
  [T("7:10. actually no, let's do the imax one", shows, X("b"), CH),
   T("yes — wait no, hold on, let me check with Sam first", buy, ESC("declined"), CF)])

franjas = [C("a", "Sábado 10:00–12:00", "delivery_slot"),
           C("b", "Sábado 16:00–18:00", "delivery_slot"),
           C("c", "Domingo 10:00–12:00", "delivery_slot")]
entrega = [C("a", "Dejar en la puerta", "delivery_option"),
           C("b", "Entregar en mano", "delivery_option")]
D("v2028", "self_correcting_reply", "grocery", "es",
  "Saturday morning taken back for Sunday; 'en mano' taken back for leaving it at the door: the last choice stands.",
  [T("el sábado por la mañana... no, espera, mejor el domingo", franjas, X("c"), CH),
   T("en mano. bueno no, que lo dejen en la puerta, igual no estoy", entrega, X("a"), CH)])

vet1 = [C("a", "Dr. Okafor — Mon 10:15", "slot"),
        C("b", "Dr. Lindqvist — Mon 11:00", "slot"),
        C("c", "Dr. Okafor — Tue 09:30", "slot")]
vet2 = [C("a", "Dr. Okafor — Sat 09:00", "slot"),
        C("b", "Dr. Lindqvist — Sat 12:30", "slot")]
D("v2029", "self_correcting_reply", "pet_care", "en",
  "Picks Okafor Monday then takes it back for none at all -> declined; then 12:30 taken back for the 9am slot.",
  [T("okafor monday... actually none of these work, I'm at work all week", vet1, ESC("declined"), CH),
   T("sat 12:30. no wait, the 9am, mornings are better for Biscuit", vet2, X("a"), CH)])

# =============================================== 11. closing_after_execute
timers = [C("a", "Set timer: 12 min", "timer", "pasta"),
          C("b", "Set timer: 25 min", "timer", "oven"),
          C("c", "Convert to metric", "tool")]
recipe = [C("a", "Next step", "navigation"),
          C("b", "Show ingredients", "navigation"),
          C("c", "Save recipe", "action")]
D("v2030", "closing_after_execute", "recipes", "en",
  "Timer started; then thanks / that's all with nothing asked -> cancel.",
  [T("12 min for the pasta pls", timers, X("a")),
   T("cheers, that's all I needed", recipe, ESC("cancel"))])

parcel = [C("a", "Pickup point — Corner Newsagent, 5 Elm Rd", "delivery"),
          C("b", "Home delivery tomorrow, 9 am–1 pm", "delivery"),
          C("c", "Home delivery tomorrow, 2–6 pm", "delivery")]
parcel2 = [C("a", "Get SMS updates", "notification"),
           C("b", "Add note for the courier", "note")]
parcel3 = [C("a", "Change delivery slot", "delivery"),
           C("b", "Track parcel", "tracking")]
D("v2031", "closing_after_execute", "parcel_delivery", "en",
  "Thanks followed by a request is not a closing (execute SMS updates); the later plain thanks with nothing pending is.",
  [T("home tomorrow afternoon", parcel, X("c"), CH),
   T("thanks! can you text me when the driver's close?", parcel2, X("a")),
   T("great, that's everything, thanks", parcel3, ESC("cancel"))])

# =============================================== 12. ack_then_new_request
ferry = [C("a", "Book ferry Piraeus → Naxos, 2 adults + car — €238", "booking", "Sat 6 Jul, 07:25", risk=True)]
ferry3 = [C("a", "Add cabin", "extra", "+€60"),
          C("b", "Add priority boarding", "extra", "+€12")]
D("v2032", "ack_then_new_request", "ferry", "en",
  "'ok, and how early...' is an acknowledgement + question, not a yes; later 'book it' is a yes; plain thanks closes.",
  [T("ok, and how early do we need to be at the port?", ferry, ESC("question_intent"), CF),
   T("alright, book it", ferry, X("a"), CF),
   T("great, thanks", ferry3, ESC("cancel"))])

ins = [C("a", "Annual travel insurance — €4.10/month", "policy", risk=True)]
ins3 = [C("a", "Annual travel insurance", "policy", "€4.10/month"),
        C("b", "Annual travel insurance + winter sports", "policy", "€6.35/month")]
terms = [{"id": "show_terms", "label": "Show policy terms",
          "phrases": ["policy terms", "show terms", "terms and conditions"]}]
D("v2033", "ack_then_new_request", "insurance", "en",
  "'ok, but show me the policy terms first' says the turn's command; 'got it. does it cover skiing?' is a question; neither is a yes.",
  [T("ok, but show me the policy terms first", ins, ESC("command"), CF, commands=terms),
   T("got it. does it cover skiing?", ins, ESC("question_intent"), CF),
   T("the one with winter sports then", ins3, X("b"), CH)])

# =============================================== 13. choice_with_question
finish = [C("a", "Oak", "finish", "$649"),
          C("b", "Walnut", "finish", "$729"),
          C("c", "White ash", "finish", "$689")]
deliv = [C("a", "Standard delivery", "delivery", "2–3 weeks · free"),
         C("b", "Express delivery", "delivery", "5 days · +$79")]
D("v2034", "choice_with_question", "furniture", "en",
  "Choice + question -> execute with follow_up question; choice + 'can you add assembly' -> follow_up request.",
  [T("walnut. how long does delivery take for that one?", finish, X("b", "question"), CH),
   T("express, and can you add assembly as well?", deliv, X("b", "request"), CH)])

trains = [C("a", "07:04 → 11:15", "train", "direct · £64.00"),
          C("b", "07:34 → 12:02", "train", "1 change · £52.40"),
          C("c", "08:10 → 13:40", "train", "2 changes · £41.10")]
tix = [C("a", "Buy ticket — £64.00", "payment", "Advance Single · 07:04", risk=True)]
D("v2035", "choice_with_question", "train", "en",
  "Picks the 7:04 and asks about the buffet; then yes to the payment confirmation plus a question.",
  [T("the 7:04. does that one have a buffet?", trains, X("a", "question"), CH),
   T("yes buy it. will the ticket work on my phone?", tix, X("a", "question"), CF)])

runs = [C("a", "5K beginner", "training_plan", "8 weeks"),
        C("b", "10K intermediate", "training_plan", "10 weeks"),
        C("c", "Half marathon", "training_plan", "14 weeks")]
D("v2036", "choice_with_question", "running", "en",
  "A question that mentions an option is not a choice; then the 10k is chosen with a question.",
  [T("is the half marathon plan too much if I only run like 20k a week?", runs, ESC("question_intent"), CH),
   T("ok let's go with the 10k then. can it sync with my garmin?", runs, X("b", "question"), CH)])

# ============================================================ 14. shorthand
mail = [C("a", "Reply", "email_action"),
        C("b", "Reply all", "email_action"),
        C("c", "Forward", "email_action"),
        C("d", "Archive", "email_action"),
        C("e", "Delete", "email_action", risk=True)]
D("v2037", "shorthand", "email", "en",
  "'fwd' = Forward; 'del' = Delete, RISK_HIGH -> confirm; 'y' = yes.",
  [T("fwd this to tom", mail, X("c")),
   T("ok now del pls", mail, CL("e")),
   T("y", pick(mail, "e"), X("e"), CF)])

rdv = [C("a", "RDV aujourd'hui 17h00", "appointment", "Garage Martin"),
       C("b", "RDV demain 10h00", "appointment", "Garage Martin"),
       C("c", "RDV jeudi 8h30", "appointment", "Garage Martin"),
       C("d", "Annuler mon rendez-vous", "appointment", risk=True)]
presta = [C("a", "Vidange", "service", "89 €"),
          C("b", "Révision complète", "service", "189 €"),
          C("c", "Contrôle technique", "service", "78 €"),
          C("d", "Changement de pneus", "service", "à partir de 60 €")]
D("v2038", "shorthand", "garage", "fr",
  "'dm1' = demain (texting); 'la révis' = révision complète.",
  [T("dm1 10h stp", rdv, X("b")),
   T("la révis stp", presta, X("b"), CH)])

# ================================================ 15. two_requests_in_order
player = [C("a", "Play 'Morning Coffee' playlist", "playlist"),
          C("b", "Shuffle liked songs", "playlist"),
          C("c", "Play Daily Mix 2", "playlist"),
          C("d", "Resume podcast: The Daily", "podcast", "21 min left")]
D("v2039", "two_requests_in_order", "music", "en",
  "'finish the podcast first, then ...' -> execute the first with a request follow-up; 'X or Y' alternatives -> ask.",
  [T("finish the podcast first, then put on my morning coffee playlist", player, X("d", "request")),
   T("after that, either the morning coffee playlist or daily mix 2", player, CL("a", "c")),
   T("coffee one", pick(player, "a", "c"), X("a"), CH)])

conta = [C("a", "Pagar fatura do cartão — R$ 1.240,50", "payment", "vence 10/04", risk=True),
         C("b", "Ver extrato de março", "statement"),
         C("c", "Transferir para a poupança", "transfer"),
         C("d", "Gerar boleto", "payment")]
conta2 = [C("a", "Pagar fatura do cartão — R$ 1.240,50", "payment", "vence 10/04", risk=True),
          C("b", "Baixar extrato em PDF", "statement"),
          C("c", "Transferir para a poupança", "transfer")]
D("v2040", "two_requests_in_order", "banking", "pt",
  "'primeiro ... extrato, depois paga a fatura' -> statement first with request follow-up; paying is RISK_HIGH -> confirm, then yes.",
  [T("primeiro me mostra o extrato de março, depois paga a fatura do cartão", conta, X("b", "request")),
   T("beleza. agora paga a fatura", conta2, CL("a")),
   T("pode pagar", pick(conta2, "a"), X("a"), CF)])

SCORING = {
    "debatable": ["v2004#1", "v2007#1", "v2022#2", "v2029#1"],
    "knowledge": ["v2018#2", "v2017#2"],
}

if __name__ == "__main__":
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in DIALOGUES:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(DIALOGUES)} dialogues")
