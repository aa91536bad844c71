#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh68 blind set (written from BRIEF.md only)."""
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


def CL(*ids):
    return {"clarify": list(ids)}


def E(reason):
    return {"escape": reason}


def T(inp, cands, expect, asked=None, commands=None, rejected=False):
    return {"inp": inp, "cands": cands, "expect": expect, "asked": asked,
            "commands": commands, "rejected": rejected}


DIALOGUES = []


def D(did, cat, domain, lang, note, *turns):
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
        turn["expect"] = t["expect"]
        if "execute" in t["expect"]:
            turn["record_outcome"] = {
                "kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                "choiceId": t["expect"]["execute"]}
        out.append(turn)
    DIALOGUES.append({"id": did, "category": cat, "domain": domain, "language": lang,
                      "note": note, "dialogue": out})


CH, CF = "ASKED_CHOICE", "ASKED_CONFIRMATION"

# ---------------------------------------------------------------- 1 signed_numbers
tz = [C("a", "UTC−5 · New York", "time_zone"), C("b", "UTC+0 · London", "time_zone"),
      C("c", "UTC+2 · Athens", "time_zone"), C("d", "UTC+9 · Tokyo", "time_zone")]
move = [C("a", "−1 day", "reschedule", "Mon 9 Jun, 10:00"), C("b", "+1 day", "reschedule", "Wed 11 Jun, 10:00"),
        C("c", "+1 week", "reschedule", "Tue 17 Jun, 10:00")]
D("v001", "signed_numbers", "calendar", "en",
  "'+2' is the UTC offset of Athens (3rd), not position 2; '+1' fits both +1 day and +1 week, never position 1 (−1 day).",
  T("use +2 for the meeting time zone", tz, X("c")),
  T("+1", move, CL("b", "c")),
  T("just one day", [move[1], move[2]], X("b"), asked=CH))

lvl = [C("a", "Level −2", "parking_level"), C("b", "Level −1", "parking_level"),
       C("c", "Level 0", "parking_level", "street entrance"), C("d", "Level 1", "parking_level"),
       C("e", "Level 2", "parking_level")]
ext = [C("a", "Extend by 30 min · €1.00", "parking_payment", risk=True),
       C("b", "Extend by 1 h · €2.00", "parking_payment", risk=True),
       C("c", "End parking now", "parking_payment", risk=True)]
D("v002", "signed_numbers", "parking", "en",
  "'-1' is the level, not position 1; '+1h' picks the 1 h extension by value, but it pays, so it is confirmed first.",
  T("-1", lvl, X("b"), asked=CH),
  T("+1h", ext, CL("b")),
  T("yes", [ext[1]], X("b"), asked=CF))

con = [C("a", "ICE 512 · 14:06", "connection", "Gleis 7"), C("b", "RE 3 · 14:12", "connection", "Gleis 2"),
       C("c", "S1 · 14:15", "connection", "Gleis 1")]
tix = [C("a", "Einzelfahrt 2. Klasse", "ticket_type", "12,40 €"), C("b", "Tageskarte 2. Klasse", "ticket_type", "19,80 €"),
       C("c", "Einzelfahrt 1. Klasse", "ticket_type", "21,10 €")]
D("v003", "signed_numbers", "train", "de",
  "The 1 in 'S1' is a line code (3rd option), and '1. Klasse' is the travel class, not 'the first one'.",
  T("Ich nehm die S1", con, X("c")),
  T("die 1. Klasse bitte", tix, X("c")))

# ---------------------------------------------------------------- 2 changed_value_not_yes
D("v004", "changed_value_not_yes", "restaurant", "en",
  "A different time in answer to a confirmation is a change, not a yes; 'half eight' for 20:30 is the same value, so a yes.",
  T("8:30 would suit us better", [C("a", "Table for 4 · Fri 19:30", "reservation", "Trattoria Sole")], E("declined"), asked=CF),
  T("yes, half eight is perfect", [C("a", "Table for 4 · Fri 20:30", "reservation", "Trattoria Sole")], X("a"), asked=CF))

D("v005", "changed_value_not_yes", "banking", "en",
  "'yes, but only two hundred' against $250 changes the amount; 'two hundred dollars' against $200 is a yes.",
  T("yes, but only two hundred", [C("a", "Send $250 to Maria Lopez", "transfer", "from Checking ··2231", risk=True)],
    E("declined"), asked=CF),
  T("yes, two hundred dollars", [C("a", "Send $200 to Maria Lopez", "transfer", "from Checking ··2231", risk=True)],
    X("a"), asked=CF))

D("v006", "changed_value_not_yes", "hair_salon", "es",
  "Asking for Friday against a Thursday slot is a change; 'viernes a las cinco de la tarde' for 'viernes 13, 17:00' is a yes.",
  T("vale, pero mejor el viernes", [C("a", "Corte de pelo · jueves 12 de junio, 17:00", "appointment", "con Lucía")],
    E("declined"), asked=CF),
  T("sí, el viernes a las cinco de la tarde", [C("a", "Corte de pelo · viernes 13 de junio, 17:00", "appointment", "con Lucía")],
    X("a"), asked=CF))

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
cab = [C("a", "Economy", "cabin", "$420"), C("b", "Premium Economy", "cabin", "$690"),
       C("c", "Business", "cabin", "$1,850"), C("d", "First", "cabin", "$3,900")]
D("v007", "ordinal_word_in_labels", "airline", "en",
  "'first' is both position 1 (Economy) and the label First; ask. 'first class' then names the cabin.",
  T("first", cab, CL("d", "a")),
  T("first class", [cab[3], cab[0]], X("d"), asked=CH))

night = [C("a", "Last train · 23:45", "connection", "from Central, arrives 00:20"),
         C("b", "Night bus N3 · 00:15", "connection", "arrives 01:05"),
         C("c", "Taxi", "connection", "approx. €38, 25 min")]
restart = [{"id": "cmd-new-search", "label": "New search", "phrases": ["new search", "search again", "start over"]}]
D("v008", "ordinal_word_in_labels", "transit", "en",
  "'the last one' is the last listed (Taxi) or the 'Last train'; ask. Then the user says a command phrase.",
  T("I'll take the last one", night, CL("c", "a")),
  T("hmm, start over", [night[2], night[0]], E("command"), asked=CH, commands=restart))

scr = [C("a", "Dernière séance · 22:15", "screening", "VOST"), C("b", "Séance de 14:00", "screening", "VF"),
       C("c", "Séance de 17:30", "screening", "VF")]
zone = [C("a", "Milieu de salle", "seat_zone"), C("b", "Fond de salle", "seat_zone"), C("c", "Premier rang", "seat_zone")]
D("v009", "ordinal_word_in_labels", "cinema", "fr",
  "'la dernière séance' says the label of option a whole (the last listed is c); 'le premier' is position 1 or 'Premier rang': ask.",
  T("la dernière séance, s'il vous plaît", scr, X("a")),
  T("le premier", zone, CL("c", "a")),
  T("premier rang", [zone[2], zone[0]], X("c"), asked=CH))

# ---------------------------------------------------------------- 4 quantity_noun
menu = [C("a", "Cheeseburger", "menu_item", "$6.50"),
        C("b", "Cheeseburger Meal", "menu_item", "burger, fries and a drink · $10.90"),
        C("c", "Veggie burger", "menu_item", "$7.00"), C("d", "Fries", "menu_item", "$3.00")]
D("v010", "quantity_noun", "food_delivery", "en",
  "'2 cheeseburgers' is two of the single burger, not the meal; '3 burgers' fits both plain burgers, so ask.",
  T("2 cheeseburgers please", menu, X("a")),
  T("and 3 burgers for the kids", menu, CL("a", "c")),
  T("veggie", [menu[0], menu[2]], X("c"), asked=CH))

D("v011", "quantity_noun", "museum", "en",
  "'2 adult tickets' is the adult ticket, not the family ticket; 'two audio guides' is the guide, not the guide + catalogue bundle.",
  T("2 adult tickets", [C("a", "Adult ticket", "ticket", "€14"), C("b", "Child ticket", "ticket", "ages 6–17 · €7"),
                        C("c", "Family ticket", "ticket", "2 adults + 2 children · €38")], X("a")),
  T("and two audio guides", [C("a", "Audio guide", "extra", "€4"), C("b", "Audio guide + exhibition catalogue", "extra", "€25"),
                             C("c", "Exhibition catalogue", "extra", "€22")], X("a")))

groc = [C("a", "Uova fresche", "product", "confezione da 6 · 2,40 €"),
        C("b", "Kit colazione: 6 uova, latte e pane", "product", "5,90 €"),
        C("c", "Latte intero 1 L", "product", "1,29 €")]
D("v012", "quantity_noun", "grocery", "it",
  "'6 uova' names the eggs, not the breakfast kit that also says 6 eggs; 'due bottiglie di latte' is two of the 1 L milk.",
  T("6 uova", groc, X("a")),
  T("e due bottiglie di latte", groc, X("c")))

# ---------------------------------------------------------------- 5 everyday_verb
player = [C("a", "Pause", "player_control"), C("b", "Next track", "player_control"), C("c", "Shuffle", "player_control"),
          C("d", "Clear queue", "player_control", "removes all 34 queued songs", risk=True)]
D("v013", "everyday_verb", "music", "en",
  "'hold the music' is Pause; 'get rid of everything I lined up' is Clear queue, which is RISK_HIGH, so confirm first.",
  T("hold the music a sec", player, X("a")),
  T("get rid of everything I lined up", player, CL("d")),
  T("yep, do it", [player[3]], X("d"), asked=CF))

mail = [C("a", "Reply", "email_action"), C("b", "Forward", "email_action"), C("c", "Archive", "email_action"),
        C("d", "Delete forever", "email_action", risk=True)]
D("v014", "everyday_verb", "email", "en",
  "'pass this on to Jenna' is Forward; 'get rid of' fits Archive and Delete forever (risky), so ask.",
  T("pass this on to Jenna", mail, X("b")),
  T("get rid of this one", mail, CL("d", "c")),
  T("just archive it", [mail[3], mail[2]], X("c"), asked=CH))

home = [C("a", "Rollläden Wohnzimmer", "device_action", "schließen"),
        C("b", "Licht Wohnzimmer", "device_action", "dimmen auf 30 %"),
        C("c", "Heizung Eco-Modus", "device_action", "18 °C"),
        C("d", "Heizung Komfort", "device_action", "22 °C")]
D("v015", "everyday_verb", "smart_home", "de",
  "'runter machen' is closing the blinds; 'Heizung an' fits both heating modes, so ask.",
  T("Mach mal die Rollläden runter", home, X("a")),
  T("Mach die Heizung an", home, CL("d", "c")),
  T("die wärmere bitte", [home[3], home[2]], X("d"), asked=CH))

# ---------------------------------------------------------------- 6 value_other_way
gym1 = [C("a", "Yoga · 07:30", "class", "Studio 1"), C("b", "Spin · 12:15", "class", "Studio 2"),
        C("c", "Pilates · 19:45", "class", "Studio 1")]
gym2 = [C("a", "Yoga · 07:30", "class", "Studio 1"), C("b", "Spin · 18:00", "class", "Studio 2"),
        C("c", "Pilates · 19:30", "class", "Studio 1")]
D("v016", "value_other_way", "fitness", "en",
  "'quarter to eight in the evening' is 19:45; 'half seven' fits 07:30 and 19:30, so ask.",
  T("book me the quarter to eight in the evening", gym1, X("c")),
  T("the half seven class", gym2, CL("a", "c")),
  T("the evening one", [gym2[0], gym2[2]], X("c"), asked=CH))

D("v017", "value_other_way", "shopping", "en",
  "'medium' is M; 'the fifty dollar one' is the $50 card.",
  T("medium please", [C("a", "S (36)", "size"), C("b", "M (38–40)", "size"), C("c", "L (42–44)", "size"), C("d", "XL (46)", "size")], X("b")),
  T("the fifty dollar one", [C("a", "Gift card · $25", "gift_card"), C("b", "Gift card · $50", "gift_card"),
                             C("c", "Gift card · $100", "gift_card")], X("b")))

arr = [C("a", "15:00–16:00", "arrival_time"), C("b", "16:00–18:00", "arrival_time"), C("c", "na 18:00", "arrival_time")]
D("v018", "value_other_way", "hotel", "nl",
  "'zaterdag' is 'za 15 mrt'; 'rond zessen' (around six) sits on the edge of two arrival windows, so ask.",
  T("zaterdag graag", [C("a", "vr 14 mrt", "date", "€ 129"), C("b", "za 15 mrt", "date", "€ 149"),
                       C("c", "zo 16 mrt", "date", "€ 119")], X("b"), asked=CH),
  T("rond zessen", arr, CL("b", "c"), ),
  T("net voor zessen dan", [arr[1], arr[2]], X("b"), asked=CH))

# ---------------------------------------------------------------- 7 object_alone
files2 = [C("a", "Open budget_2025.xlsx", "file_action"), C("b", "Email budget_2025.xlsx", "file_action"),
          C("c", "Print agenda.docx", "file_action")]
D("v019", "object_alone", "files", "en",
  "'the contract' is the object of only 'Share contract_v2.docx'; 'budget' is the object of two actions, so ask.",
  T("the contract", [C("a", "Download invoice_march.pdf", "file_action"), C("b", "Share contract_v2.docx", "file_action"),
                     C("c", "Delete old_backup.zip", "file_action", risk=True)], X("b")),
  T("budget", files2, CL("a", "b")),
  T("email it", files2[:2], X("b"), asked=CH))

pet2 = [C("a", "Cancel grooming appointment", "appointment_action", "Sat 10:00", risk=True),
        C("b", "Refill Luna's prescription", "appointment_action"),
        C("c", "Update microchip details", "appointment_action")]
D("v020", "object_alone", "pet_care", "en",
  "'flea treatment' names one option; 'grooming appointment' names only the cancel action, which is RISK_HIGH, so confirm; the user declines.",
  T("flea treatment", [C("a", "Book nail trim", "service"), C("b", "Order flea treatment", "service"),
                       C("c", "Reschedule vaccination", "service")], X("b")),
  T("grooming appointment", pet2, CL("a")),
  T("no, keep it", [pet2[0]], E("declined"), asked=CF))

lib2 = [C("a", "Renovar préstamo: Rayuela", "loan_action", "vence el 3 de julio"),
        C("b", "Escribir reseña: Rayuela", "loan_action"), C("c", "Reservar: Ficciones", "loan_action")]
D("v021", "object_alone", "library", "es",
  "'La sombra del viento' is the object of one action only; 'Rayuela' is the object of two, so ask.",
  T("La sombra del viento", [C("a", "Renovar préstamo: Cien años de soledad", "loan_action"),
                             C("b", "Reservar: La sombra del viento", "loan_action"),
                             C("c", "Valorar: El túnel", "loan_action")], X("b")),
  T("Rayuela", lib2, CL("a", "b")),
  T("renovarlo", lib2[:2], X("a"), asked=CH))

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
addon = [C("a", "Roaming EU", "add_on", "$5/mo"), C("b", "Roaming World", "add_on", "$15/mo"), C("c", "Extra 10 GB", "add_on", "$8")]
D("v022", "distinguishing_word_plus_kind", "telecom", "en",
  "'the plus plan' is Plus (not 'Family plan', which merely contains 'plan'); 'the roaming add-on' fits two, so ask.",
  T("the plus plan", [C("a", "Starter", "plan", "5 GB · $15/mo"), C("b", "Plus", "plan", "30 GB · $25/mo"),
                      C("c", "Family plan", "plan", "4 SIMs · $60/mo")], X("b")),
  T("the roaming add-on", addon, CL("a", "b")),
  T("world one", addon[:2], X("b"), asked=CH))

pick = [C("a", "Airport · Terminal 1", "pickup_location"), C("b", "Airport · Terminal 2", "pickup_location"),
        C("c", "Central Station", "pickup_location")]
D("v023", "distinguishing_word_plus_kind", "car_rental", "en",
  "'the electric car' picks Electric; 'the airport branch' fits two terminals, so ask.",
  T("the electric car", [C("a", "Compact", "car", "VW Polo · €38/day"), C("b", "SUV", "car", "Toyota RAV4 · €64/day"),
                         C("c", "Electric", "car", "Tesla Model 3 · €72/day")], X("c")),
  T("the airport branch", pick, CL("a", "b")),
  T("terminal 2", pick[:2], X("b"), asked=CH))

pay = [C("a", "Cartão Visa •• 4412", "payment_method"), C("b", "Cartão Mastercard •• 9051", "payment_method"),
       C("c", "MB WAY", "payment_method")]
D("v024", "distinguishing_word_plus_kind", "pharmacy", "pt",
  "'endereço do trabalho' picks Trabalho ('endereço' only names the kind); 'o cartão' is only the kind word shared by two, so ask.",
  T("entrega no endereço do trabalho, por favor",
    [C("a", "Casa", "address", "Rua das Flores 18"), C("b", "Trabalho", "address", "Av. da Liberdade 120"),
     C("c", "Casa da mãe", "address", "Rua do Sol 4")], X("b")),
  T("pago com o cartão", pay, CL("a", "b")),
  T("o visa", pay[:2], X("a"), asked=CH))

# ---------------------------------------------------------------- 9 correction_after_execute
cal = [C("a", "Work", "calendar"), C("b", "Personal", "calendar"), C("c", "Family", "calendar")]
D("v025", "correction_after_execute", "calendar", "en",
  "The user says the executed calendar was wrong and names the one meant.",
  T("dentist on Thursday, put it in family", cal, X("c"), rejected=True),
  T("oops, wrong one, personal", cal, X("b")))

pl = [C("a", "Road trip", "playlist", "48 songs"), C("b", "Workout", "playlist", "31 songs"), C("c", "Chill evening", "playlist", "22 songs")]
D("v026", "correction_after_execute", "music", "en",
  "The user rejects the executed playlist without naming another; ask between the remaining two.",
  T("add this song to workout", pl, X("b"), rejected=True),
  T("no, not that one", pl, CL("a", "c")),
  T("road trip", [pl[0], pl[2]], X("a"), asked=CH))

ferry = [C("a", "Poltrona", "cabin", "34 €"), C("b", "Cabina interna", "cabin", "89 €"), C("c", "Cabina esterna", "cabin", "124 €")]
D("v027", "correction_after_execute", "ferry", "it",
  "Right after the outside cabin was chosen, the user says it was a mistake and names the inside cabin.",
  T("cabina esterna", ferry, X("c"), rejected=True),
  T("no scusa, volevo quella interna", ferry, X("b")))

# ---------------------------------------------------------------- 10 self_correcting_reply
D("v028", "self_correcting_reply", "coffee_shop", "en",
  "Each message picks one option and then takes it back for another; the last choice stands.",
  T("a latte, no wait, make it a flat white", [C("a", "Latte", "drink"), C("b", "Cappuccino", "drink"), C("c", "Flat white", "drink")], X("c")),
  T("large... actually no, regular's fine", [C("a", "Small", "size"), C("b", "Regular", "size"), C("c", "Large", "size")], X("b")))

seat = [C("a", "14A", "seat", "window"), C("b", "14C", "seat", "aisle"),
        C("c", "22F · extra legroom", "seat", "window · +$35", risk=True)]
D("v029", "self_correcting_reply", "airline", "en",
  "The last choice is the paid legroom seat, named only by description, so it is confirmed first.",
  T("14A, actually no, give me the legroom one", seat, CL("c")),
  T("yes, pay the 35", [seat[2]], X("c"), asked=CF))

slot = [C("a", "mardi 10 h 00", "slot", "Dr Martin"), C("b", "mercredi 15 h 30", "slot", "Dr Martin"),
        C("c", "jeudi 9 h 15", "slot", "Dr Martin")]
D("v030", "self_correcting_reply", "doctor", "fr",
  "Tuesday is taken back for 'Wednesday or Thursday', so the last choice is two options: ask.",
  T("mardi... ah non, plutôt mercredi ou jeudi, je ne sais pas", slot, CL("b", "c")),
  T("jeudi", slot[1:], X("c"), asked=CH))

# ---------------------------------------------------------------- 11 closing_after_execute
order = [C("a", "View order", "order_action"), C("b", "Add more items", "order_action"),
         C("c", "Cancel order", "order_action", risk=True)]
D("v031", "closing_after_execute", "grocery", "en",
  "After the slot is booked, thanks plus a question is a question; the plain thanks that follows closes.",
  T("tuesday evening", [C("a", "Tue 8–10 am", "delivery_slot"), C("b", "Tue 6–8 pm", "delivery_slot"),
                        C("c", "Wed 8–10 am", "delivery_slot")], X("b")),
  T("thanks! oh, is there a delivery fee?", order, E("question_intent")),
  T("ok, that's all, thanks", order, E("cancel")))

D("v032", "closing_after_execute", "ride_hailing", "es",
  "After the ride is booked, 'gracias, eso es todo' closes; it must not touch 'Cancelar viaje'.",
  T("el económico", [C("a", "Económico", "ride", "4 min · 8,50 €"), C("b", "Confort", "ride", "6 min · 11,20 €"),
                     C("c", "XL", "ride", "9 min · 14,00 €")], X("a")),
  T("perfecto, gracias, eso es todo", [C("a", "Compartir viaje", "trip_action"), C("b", "Llamar al conductor", "trip_action"),
                                       C("c", "Cancelar viaje", "trip_action", risk=True)], E("cancel")))

# ---------------------------------------------------------------- 12 ack_then_new_request
ren = C("a", "Renew car insurance · 12 months", "policy", "$864", risk=True)
D("v033", "ack_then_new_request", "insurance", "en",
  "'ok, noted' then a question is not a yes; the later 'go ahead' on the confirmation is.",
  T("ok, noted. what would 6 months cost?", [ren], E("question_intent"), asked=CF),
  T("alright, go ahead with the 12 months then", [ren], X("a"), asked=CF))

tar = [C("a", "GreenFlex", "tariff", "32¢/kWh · variable", risk=True),
       C("b", "GreenFix 24", "tariff", "34¢/kWh · price fixed for 24 months", risk=True)]
D("v034", "ack_then_new_request", "energy", "en",
  "'got it' then a question is not a yes; the fixed tariff chosen by description is a contract switch, so confirm.",
  T("got it. is there one with a fixed price?", [tar[0]], E("question_intent"), asked=CF),
  T("ok then the fixed one", tar, CL("b")),
  T("yes", [tar[1]], X("b"), asked=CF))

# ---------------------------------------------------------------- 13 choice_with_question
rooms = [C("a", "Standard double", "room", "$140/night"), C("b", "Deluxe king", "room", "sea view · $210/night"),
         C("c", "Family suite", "room", "$290/night")]
D("v035", "choice_with_question", "hotel", "en",
  "A question whose answer decides the choice is a question; a choice followed by a request executes with follow_up request.",
  T("does the deluxe king have a balcony? if it does I'll take it", rooms, E("question_intent")),
  T("great, the deluxe king then, and can you add breakfast?", rooms, X("b", "request")))

D("v036", "choice_with_question", "car_service", "en",
  "A choice then a question (follow_up question); a choice then a request (follow_up request).",
  T("the tyre swap please, how long does it usually take?",
    [C("a", "Oil change", "service"), C("b", "Tyre swap", "service"), C("c", "Full inspection", "service")], X("b", "question")),
  T("wednesday at 11, and text me when it's ready",
    [C("a", "Mon 9:00", "slot"), C("b", "Mon 14:00", "slot"), C("c", "Wed 11:00", "slot")], X("c", "request")))

# ---------------------------------------------------------------- 14 shorthand
dent = [C("a", "Today 4:30 PM", "slot"), C("b", "Tomorrow 9:00 AM", "slot"), C("c", "Tomorrow 2:00 PM", "slot")]
D("v037", "shorthand", "dentist", "en",
  "'tmrw' fits two slots, so ask; 'the am one' then picks the morning.",
  T("tmrw pls", dent, CL("b", "c")),
  T("the am one thx", dent[1:], X("b"), asked=CH))

acct = [C("a", "Update profile", "account_action"), C("b", "Download my data", "account_action"),
        C("c", "Delete account", "account_action", risk=True)]
D("v038", "shorthand", "account_settings", "en",
  "'notifs' is Notifications; 'del acct' is Delete account, cut short so not the label whole: confirm; the user says no.",
  T("notifs", [C("a", "Notifications", "settings_section"), C("b", "Privacy", "settings_section"),
               C("c", "Preferences", "settings_section"), C("d", "Payment methods", "settings_section")], X("a")),
  T("del acct", acct, CL("c")),
  T("nah dont", [acct[2]], E("declined"), asked=CF))

# ---------------------------------------------------------------- 15 two_requests_in_order
rob2 = [C("a", "Vacuum living room", "robot_task"), C("b", "Vacuum bedroom", "robot_task"), C("c", "Return to dock", "robot_task")]
D("v039", "two_requests_in_order", "cleaning_robot", "en",
  "'X first, then Y' executes X with a request follow-up; 'X or Y' is asked.",
  T("vacuum the kitchen first, then mop it",
    [C("a", "Vacuum kitchen", "robot_task"), C("b", "Mop kitchen", "robot_task"), C("c", "Vacuum living room", "robot_task"),
     C("d", "Return to dock", "robot_task")], X("a", "request")),
  T("do the living room or the bedroom next", rob2, CL("a", "b")),
  T("bedroom", rob2[:2], X("b"), asked=CH))

trip = [C("a", "Book flight LH 400", "booking", "Frankfurt → New York · €412", risk=True),
        C("b", "Book hotel Pod 51", "booking", "3 nights · €486", risk=True),
        C("c", "Save trip for later", "booking")]
D("v040", "two_requests_in_order", "travel", "en",
  "The first of two ordered requests is a paid booking not said whole, so it is confirmed first; then each is confirmed in turn.",
  T("book the flight first, then the hotel", trip, CL("a")),
  T("yes", [trip[0]], X("a"), asked=CF),
  T("yes, the hotel too", [trip[1]], X("b"), asked=CF))

SCORING = {
    "debatable": ["v005#1", "v007#1", "v014#2", "v035#1", "v018#2"],
    "knowledge": ["v004#2"],
}

with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
    for d in DIALOGUES:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")
with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
    json.dump(SCORING, f, ensure_ascii=False, indent=1)
print(f"wrote {len(DIALOGUES)} dialogues")
