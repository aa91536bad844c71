#!/usr/bin/env python3
"""Blind test set fresh60: 40 chat dialogues written as Python data.

Writes corpus.jsonl and scoring.json next to this file.
Ids m001..m040 are assigned in list order.
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
    return [dict(by[i]) for i in ids]


def ex(cid, follow=None, rejected=False):
    e = {"execute": cid}
    if follow:
        e["follow_up"] = follow
    return ("x", e, rejected)


def cl(*ids):
    return ("c", {"clarify": list(ids)}, False)


def esc(reason):
    return ("e", {"escape": reason}, False)


def T(inp, cands, expect, asked=None, commands=None):
    return {"input": inp, "cands": cands, "asked": asked, "expect": expect, "commands": commands}


DIALOGUES = []


def D(category, domain, language, note, *turns):
    DIALOGUES.append({"category": category, "domain": domain, "language": language, "note": note, "turns": turns})


# ---------------------------------------------------------------- 1 signed_numbers
lv = [C("a", "Level 1", "parking_level", "18 spaces free"),
      C("b", "Level 0 · ground", "parking_level", "full"),
      C("c", "Level -1", "parking_level", "7 spaces free"),
      C("d", "Level -2", "parking_level", "22 spaces free")]
pay = [C("a", "Pay €4.50 · 3 hours", "payment", risk=True),
       C("b", "Pay €8.00 · day ticket", "payment", risk=True)]
D("signed_numbers", "parking", "en",
  "'-1' is the level's name, not the first item (Level 1). '3 hrs' points at a paying RISK_HIGH option without saying its label, so it is confirmed first; the yes on the confirmation executes.",
  T("-1 please, closest to the lifts", lv, ex("c"), asked="ASKED_CHOICE"),
  T("3 hrs", pay, cl("a")),
  T("yes", pick(pay, ["a"]), ex("a"), asked="ASKED_CONFIRMATION"))

tip = [C("a", "No tip", "tip"), C("b", "+€1", "tip"), C("c", "+€2", "tip"), C("d", "+€5", "tip")]
drop = [C("a", "Leave at the door", "handover"), C("b", "Hand it to me", "handover")]
D("signed_numbers", "food_delivery", "en",
  "A bare '2' on a tip screen could be the 2nd item (+€1) or +€2, so ask; 'two euros' settles it. Turn 3 says the 'Contact support' command phrase.",
  T("2", tip, cl("c", "b"), asked="ASKED_CHOICE"),
  T("2 euros, he was really quick", pick(tip, ["c", "b"]), ex("c"), asked="ASKED_CHOICE"),
  T("contact support, my last order was missing a drink", drop, esc("command"),
    commands=[{"id": "support", "label": "Contact support", "phrases": ["contact support", "support", "help"]}]))

tz = [C("a", "UTC-5 · New York", "timezone"), C("b", "UTC+0 · London", "timezone"),
      C("c", "UTC+1 · Lagos", "timezone"), C("d", "UTC+3 · Nairobi", "timezone")]
rem = [C("a", "At start time", "reminder"), C("b", "10 min before", "reminder"),
       C("c", "30 min before", "reminder"), C("d", "1 day before", "reminder")]
D("signed_numbers", "calendar", "en",
  "'+3' is the UTC offset (Nairobi), not the 3rd item (Lagos); '-30' is an offset meaning 30 minutes before.",
  T("put it on +3, the client is there", tz, ex("d")),
  T("reminder -30", rem, ex("c")))

# ---------------------------------------------------------------- 2 changed_value_not_yes
D("changed_value_not_yes", "restaurant", "en",
  "Answering a 7:30 confirmation with '8' is a change, not a yes. On the new 8 pm confirmation, '8 o'clock' is the same value in other words: a yes.",
  T("hmm make it 8 actually", [C("a", "Table for 4 · Fri 7:30 pm", "reservation", "Trattoria Nonna")],
    esc("declined"), asked="ASKED_CONFIRMATION"),
  T("yes 8 o'clock works", [C("a", "Table for 4 · Fri 8:00 pm", "reservation", "Trattoria Nonna")],
    ex("a"), asked="ASKED_CONFIRMATION"))

D("changed_value_not_yes", "banking", "en",
  "'send her 205' against a $250 confirmation is a different amount, so no payment. Then 'two hundred and five' matches $205 in words: yes to the confirmation of a RISK_HIGH transfer.",
  T("send her 205", [C("a", "Send $250.00 to Maria Lopez", "transfer", "From Checking ••4521", risk=True)],
    esc("declined"), asked="ASKED_CONFIRMATION"),
  T("yes, two hundred and five", [C("a", "Send $205.00 to Maria Lopez", "transfer", "From Checking ••4521", risk=True)],
    ex("a"), asked="ASKED_CONFIRMATION"))

D("changed_value_not_yes", "hair_salon", "es",
  "'sí pero a las seis' starts with yes but changes 17:00 to 18:00, so it is not a yes. Then 'a las seis de la tarde' = 18:00: yes.",
  T("sí pero a las seis mejor", [C("a", "Corte y peinado · jueves 17:00", "appointment", "con Lucía")],
    esc("declined"), asked="ASKED_CONFIRMATION"),
  T("perfecto, a las seis de la tarde", [C("a", "Corte y peinado · jueves 18:00", "appointment", "con Lucía")],
    ex("a"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
fare = [C("a", "Economy", "fare", "$312"), C("b", "Premium Economy", "fare", "$540"), C("c", "First", "fare", "$1,890")]
D("ordinal_word_in_labels", "flights", "en",
  "'first' is both the first item (Economy) and the label 'First'; ask. 'first class' is the fare.",
  T("first", fare, cl("a", "c"), asked="ASKED_CHOICE"),
  T("first class lol, the company's paying", pick(fare, ["a", "c"]), ex("c"), asked="ASKED_CHOICE"))

trk = [C("a", "The Last Dance", "track"), C("b", "Runaway", "track"),
       C("c", "Second Chance", "track"), C("d", "Outro", "track")]
D("ordinal_word_in_labels", "music", "en",
  "'the second song on the list' is positional (Runaway), not the track named 'Second Chance'; 'the last dance' is the track's title, not the last item (Outro).",
  T("play the second song on the list", trk, ex("b")),
  T("now the last dance", trk, ex("a")))

menu = [C("a", "Antipasto misto", "dish"), C("b", "Primo: tagliatelle al ragù", "dish"),
        C("c", "Secondo: tagliata di manzo", "dish"), C("d", "Dolce: tiramisù", "dish")]
D("ordinal_word_in_labels", "restaurant", "it",
  "'il secondo' on an Italian menu is the main-course word and also 'the second item' (the primo); ask. 'la tagliata' names the secondo.",
  T("per me il secondo", menu, cl("c", "b"), asked="ASKED_CHOICE"),
  T("la tagliata, grazie", pick(menu, ["c", "b"]), ex("c"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 4 quantity_noun
tix = [C("a", "Adult · $14", "ticket"), C("b", "Child (under 12) · $9", "ticket"),
       C("c", "Family ticket (2 adults + 2 children) · $42", "ticket"), C("d", "Senior · $10", "ticket")]
D("quantity_noun", "cinema", "en",
  "'2 adults' names the Adult ticket (a count of it), not the family bundle whose label also says 2 adults; '1 child' is the Child ticket.",
  T("2 adults", tix, ex("a")),
  T("and 1 child", tix, ex("b")))

eggs = [C("a", "Eier, 6 Stück", "product"), C("b", "Eier, 10 Stück", "product"),
        C("c", "Frühstücksbox: 10 Eier, Speck, Toast", "product")]
wat = [C("a", "Wasser still 0,5 l", "product"), C("b", "Wasser still 1,5 l", "product"),
       C("c", "Wasser-Sixpack: 6 × 1,5 l still", "product")]
D("quantity_noun", "groceries", "de",
  "'10 Eier' is the 10-egg pack, not the breakfast box. '6 Wasser' is a count of water bottles, not the six-pack bundle; but the bottle size is open, so ask between the two bottles; 'die kleinen' = 0,5 l.",
  T("10 eier bitte", eggs, ex("b")),
  T("und 6 wasser", wat, cl("a", "b")),
  T("die kleinen", pick(wat, ["a", "b"]), ex("a"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 5 everyday_verb
card = [C("a", "Freeze card", "card_action", "Pause payments, undo anytime"),
        C("b", "Report stolen", "card_action", "Cancels the card for good", risk=True),
        C("c", "Change PIN", "card_action")]
card2 = [C("a", "Unfreeze card", "card_action"), C("b", "Order replacement card", "card_action", risk=True)]
D("everyday_verb", "banking", "en",
  "'lock my card for now' = freeze (temporary), not report stolen; 'switch it back on' = unfreeze.",
  T("lock my card for now, pretty sure it's just somewhere in the car", card, ex("a")),
  T("found it!! switch it back on", card2, ex("a")))

lights = [C("a", "Living room lights · Off", "device"), C("b", "Living room lights · 30%", "device"),
          C("c", "Kitchen lights · Off", "device")]
house = [C("a", "Thermostat · Eco 18°C", "device"), C("b", "Front door · Lock", "device"),
         C("c", "Garage door · Close", "device")]
D("everyday_verb", "smart_home", "en",
  "'kill the lights' = turn off, but two 'Off' options fit; ask. 'lock up for the night' = lock the front door.",
  T("kill the lights", lights, cl("a", "c")),
  T("living room", pick(lights, ["a", "c"]), ex("a"), asked="ASKED_CHOICE"),
  T("and lock up for the night", house, ex("b")))

mail = [C("a", "Archiver", "email_action"), C("b", "Supprimer définitivement", "email_action", risk=True),
        C("c", "Marquer comme non lu", "email_action")]
D("everyday_verb", "email", "fr",
  "'vire-moi ce mail' (get rid of it) fits archive and permanent delete; ask. 'range-le, je veux le garder' (put it away, keep it) = archive.",
  T("vire-moi ce mail", mail, cl("a", "b")),
  T("range-le juste, je veux le garder", pick(mail, ["a", "b"]), ex("a"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 6 value_other_way
slots = [C("a", "Tue 14 May · 09:00", "slot"), C("b", "Wed 15 May · 14:30", "slot"), C("c", "Thu 16 May · 16:00", "slot")]
remind = [C("a", "Remind me by text", "reminder"), C("b", "Remind me by email", "reminder"), C("c", "No reminder", "reminder")]
D("value_other_way", "dentist", "en",
  "'wednesday, half 2' = Wed 14:30 (British 'half two'); 'sms' = text.",
  T("wednesday, half 2 if that's still free", slots, ex("b")),
  T("sms is fine", remind, ex("a")))

seats = [C("a", "Reihe 7, Platz 12", "seat"), C("b", "Reihe 7, Platz 13", "seat"), C("c", "Reihe 13, Platz 7", "seat")]
D("value_other_way", "theatre", "de",
  "'siebte Reihe, Platz dreizehn' in words = Reihe 7, Platz 13 (not Reihe 13, Platz 7). 'achtunddreißig Euro' = 38,00 €: yes to the payment confirmation.",
  T("siebte reihe, platz dreizehn", seats, ex("b")),
  T("ja, achtunddreißig euro passt", [C("a", "Bezahlen: 38,00 €", "payment", risk=True)], ex("a"), asked="ASKED_CONFIRMATION"))

trains = [C("a", "Lisboa → Porto · 07:15", "train"), C("b", "Lisboa → Porto · 19:15", "train"),
          C("c", "Lisboa → Porto · 21:40", "train")]
D("value_other_way", "trains", "pt",
  "'sete e um quarto' = 7:15, which fits both 07:15 and 19:15; ask. 'o da noite' = 19:15.",
  T("o das sete e um quarto", trains, cl("a", "b")),
  T("o da noite", pick(trains, ["a", "b"]), ex("b"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 7 object_alone
order = [C("a", "Track parcel", "order_action"), C("b", "Change delivery address", "order_action"),
         C("c", "Start a return", "order_action"), C("d", "Cancel order", "order_action", risk=True)]
form = [C("a", "Save new address", "form_action"), C("b", "Discard changes", "form_action")]
D("object_alone", "online_shop", "en",
  "'the address' is the object of only 'Change delivery address'. 'save it' = Save new address.",
  T("the address, I moved last week", order, ex("b")),
  T("yep save it", form, ex("a")))

lib = [C("a", "Renew 'The Overstory'", "library_action"), C("b", "Reserve a study room", "library_action"),
       C("c", "Pay fine · €2.40", "library_action", risk=True)]
D("object_alone", "library", "en",
  "'study room' is the object of one option only. 'the fine' is also unique, but paying is RISK_HIGH and the label was not said whole: confirm first.",
  T("study room pls", lib, ex("b")),
  T("and the fine", lib, cl("c")),
  T("yeah go ahead", pick(lib, ["c"]), ex("c"), asked="ASKED_CONFIRMATION"))

bill = [C("a", "Factuur downloaden", "billing_action"), C("b", "Factuur betalen", "billing_action", risk=True),
        C("c", "Meterstand doorgeven", "billing_action")]
D("object_alone", "utilities", "nl",
  "'de factuur' is shared by download and pay; ask. 'downloaden' picks a. 'de meterstand' is the object of one option only.",
  T("de factuur", bill, cl("a", "b")),
  T("downloaden, betalen doe ik later wel", pick(bill, ["a", "b"]), ex("a"), asked="ASKED_CHOICE"),
  T("o ja, en de meterstand nog", pick(bill, ["b", "c"]), ex("c")))

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
cls = [C("a", "Yoga · Mon 6 pm", "class"), C("b", "Pilates · Mon 6 pm", "class"), C("c", "Spin · Tue 7 am", "class")]
D("distinguishing_word_plus_kind", "gym", "en",
  "'the monday class': Monday is shared by two classes, 'class' is only the kind; ask. 'pilates class' = the one distinguishing word + kind.",
  T("the monday class", cls, cl("a", "b")),
  T("pilates class", pick(cls, ["a", "b"]), ex("b"), asked="ASKED_CHOICE"))

pol = [C("a", "Car · AX-2231", "policy", "renews 01/03"), C("b", "Home · HB-9904", "policy", "renews 15/07"),
       C("c", "Travel · TR-0071", "policy", "renews 30/11")]
pact = [C("a", "Download certificate", "policy_action"), C("b", "File a claim", "policy_action"),
        C("c", "Cancel policy", "policy_action", risk=True)]
D("distinguishing_word_plus_kind", "insurance", "en",
  "'the home policy' = the distinguishing word 'home' + 'policy', the kind every option is. 'file a claim' is said whole.",
  T("the home policy pls", pol, ex("b")),
  T("need to file a claim, a pipe burst in the kitchen", pact, ex("b")))

# ---------------------------------------------------------------- 9 correction_after_execute
ride = [C("a", "Standard · 4 min · $14", "ride"), C("b", "XL · 7 min · $21", "ride"), C("c", "Comfort · 5 min · $18", "ride")]
D("correction_after_execute", "ride_hailing", "en",
  "Standard was executed, then the user says it was wrong and names XL.",
  T("standard", ride, ex("a", rejected=True)),
  T("wait no, XL!! there's 5 of us", ride, ex("b")))

mtg = [C("a", "Design review", "meeting", "today 10:00"), C("b", "1:1 with Dana", "meeting", "today 11:00"),
       C("c", "Budget review", "meeting", "today 14:00")]
mact = [C("a", "Join call", "meeting_action"), C("b", "Reschedule", "meeting_action"),
        C("c", "Cancel meeting", "meeting_action", risk=True)]
D("correction_after_execute", "calendar", "en",
  "Design review opened, user corrects to the budget one; then abandons ('nvm, later') with nothing pending.",
  T("open design review", mtg, ex("a", rejected=True)),
  T("oops not that one, the budget one", mtg, ex("c")),
  T("ok nvm i'll look at it later", mact, esc("cancel")))

meds = [C("a", "Ibuprofen 400 mg · 20 tablets", "product"), C("b", "Ibuprofen 400 mg · 50 tablets", "product"),
        C("c", "Paracetamol 500 mg · 20 tablets", "product")]
D("correction_after_execute", "pharmacy", "en",
  "Paracetamol added, user says it was wrong and names ibuprofen, which fits two packs; ask; 'the small pack' = 20 tablets.",
  T("paracetamol", meds, ex("c", rejected=True)),
  T("ugh sorry wrong one, I need ibuprofen", meds, cl("a", "b")),
  T("the small pack", pick(meds, ["a", "b"]), ex("a"), asked="ASKED_CHOICE"))

# ---------------------------------------------------------------- 10 self_correcting_reply
tees = [C("a", "Camiseta azul · M", "product"), C("b", "Camiseta negra · M", "product"), C("c", "Camiseta blanca · M", "product")]
cart = [C("a", "Añadir al carrito", "cart_action"), C("b", "Comprar ahora", "cart_action", risk=True)]
D("self_correcting_reply", "clothing", "es",
  "'la azul... no, mejor la negra': the last choice (black) stands. 'al carrito' = add to cart.",
  T("la azul... no, mejor la negra", tees, ex("b")),
  T("al carrito", cart, ex("a")))

fa = [C("a", "Archive", "file_action", "Q3 invoices (copy).pdf"),
      C("b", "Delete permanently", "file_action", "Q3 invoices (copy).pdf", risk=True),
      C("c", "Move to folder…", "file_action", "Q3 invoices (copy).pdf")]
D("self_correcting_reply", "cloud_files", "en",
  "Archive is taken back for 'just delete it'; the last choice is RISK_HIGH and its label 'Delete permanently' was not said whole, so confirm first; the yes executes.",
  T("archive it. actually no, just delete it, it's a duplicate", fa, cl("b")),
  T("yes", pick(fa, ["b"]), ex("b"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 11 closing_after_execute
vet = [C("a", "Sat 09:30 · Dr. Patel", "slot"), C("b", "Sat 11:00 · Dr. Ruiz", "slot")]
vact = [C("a", "Add a note for the vet", "followup_action"), C("b", "Get directions", "followup_action")]
D("closing_after_execute", "vet", "en",
  "After booking, 'great thanks!' carries a question, so it is a question, not a close. The next 'that's all then, thanks' closes with nothing pending.",
  T("dr patel pls", vet, ex("a")),
  T("great thanks! do I need to bring his vaccination booklet?", vact, esc("question_intent")),
  T("ok cool, that's all then, thanks", vact, esc("cancel")))

plan = [C("a", "Forfait 20 Go · 9,99 €/mois", "plan"), C("b", "Forfait 100 Go · 19,99 €/mois", "plan")]
pact2 = [C("a", "Activer l'option étranger", "plan_action"), C("b", "Voir ma facture", "plan_action")]
D("closing_after_execute", "telecom", "fr",
  "'le 100 giga' = Forfait 100 Go. 'parfait merci, c'est tout' closes; the two shown follow-ups were never asked.",
  T("le 100 giga", plan, ex("b")),
  T("parfait merci, c'est tout pour moi", pact2, esc("cancel")))

# ---------------------------------------------------------------- 12 ack_then_new_request
D("ack_then_new_request", "car_rental", "en",
  "'ok.' followed by a new question about pick-up place is not a yes. On the updated offer, 'ok great, go ahead' is a yes.",
  T("ok. can i pick it up at the airport instead?", [C("a", "Compact · VW Polo · $42/day", "car", "Pick-up: Downtown office")],
    esc("question_intent"), asked="ASKED_CONFIRMATION"),
  T("ok great, go ahead", [C("a", "Compact · VW Polo · $42/day", "car", "Pick-up: Airport, Terminal 2")],
    ex("a"), asked="ASKED_CONFIRMATION"))

D("ack_then_new_request", "meal_kits", "en",
  "'ok.' then asking about Sunday is not a yes to the Saturday slot. Turn 2 says the 'start over' command.",
  T("ok. anything on sunday though?", [C("a", "Delivery · Sat 8–10 am", "delivery_slot")],
    esc("question_intent"), asked="ASKED_CONFIRMATION"),
  T("hmm neither works tbh. start over", [C("a", "Delivery · Sun 9–11 am", "delivery_slot"), C("b", "Delivery · Sun 5–7 pm", "delivery_slot")],
    esc("command"), commands=[{"id": "start_over", "label": "Start over", "phrases": ["start over", "restart", "begin again"]}]))

# ---------------------------------------------------------------- 13 choice_with_question
apt = [C("a", "2-bed · Elm St · $1,850/mo", "listing"), C("b", "1-bed · Park Ave · $1,400/mo", "listing"),
       C("c", "Studio · 3rd St · $1,100/mo", "listing")]
view = [C("a", "Viewing · Sat 10:00", "slot"), C("b", "Viewing · Sat 13:00", "slot")]
D("choice_with_question", "apartments", "en",
  "Picks Elm St and asks about dogs: execute + question. Picks 10:00 and asks for the address: execute + request.",
  T("the elm st one. do they allow dogs?", apt, ex("a", "question")),
  T("10 is good, can you send me the exact address too", view, ex("a", "request")))

jk = [C("a", "Rain jacket · red", "product"), C("b", "Rain jacket · navy", "product"), C("c", "Fleece · grey", "product")]
D("choice_with_question", "outdoor_shop", "en",
  "A question about the navy jacket is not a choice. 'ok the navy one then — do you have it in L?' chooses and asks.",
  T("is the navy one actually waterproof or just water resistant?", jk, esc("question_intent")),
  T("ok the navy one then. do you have it in L?", jk, ex("b", "question")))

bills = [C("a", "Pay electricity bill · $182.40", "bill", risk=True), C("b", "View electricity bill", "bill"),
         C("c", "Pay water bill · $64.10", "bill", risk=True)]
D("choice_with_question", "bills", "en",
  "'pay the electric one' + a question: the choice is a RISK_HIGH payment whose label is not said whole, so confirm first; the yes executes.",
  T("pay the electric one, and when's the next one due?", bills, cl("a")),
  T("yes pay it", pick(bills, ["a"]), ex("a"), asked="ASKED_CONFIRMATION"))

# ---------------------------------------------------------------- 14 shorthand
svc = [C("a", "Tomorrow · 9:00 am", "slot"), C("b", "Tomorrow · 1:00 pm", "slot"), C("c", "Friday · 9:00 am", "slot")]
wait = [C("a", "Wait at the shop", "service_option"), C("b", "Courtesy car", "service_option"),
        C("c", "Drop-off shuttle", "service_option")]
D("shorthand", "car_service", "en",
  "'tmrw 9 pls' = Tomorrow 9:00 am; 'courtesy car thx'.",
  T("tmrw 9 pls", svc, ex("a")),
  T("courtesy car thx", wait, ex("b")))

box = [C("a", "Boxing · Sat 10:00", "class"), C("b", "Boxing · Sat 14:00", "class"), C("c", "Boxing · Sun 10:00", "class")]
D("shorthand", "boxing_gym", "en",
  "'sat' fits two Saturday classes; ask. 'the am one' = 10:00.",
  T("sat boxing", box, cl("a", "b")),
  T("the am one", pick(box, ["a", "b"]), ex("a"), asked="ASKED_CHOICE"))

win = [C("a", "Mañana · 9:00–12:00", "delivery_window"), C("b", "Mañana · 16:00–19:00", "delivery_window"),
       C("c", "Pasado mañana · 9:00–12:00", "delivery_window")]
extra = [C("a", "Añadir montaje · 25 €", "extra"), C("b", "Ver resumen del pedido", "extra")]
D("shorthand", "furniture_delivery", "es",
  "'mñn x la tarde xfa' = mañana por la tarde, por favor. 'ok grax!!' = gracias: closes, the shown extras were never asked.",
  T("mñn x la tarde xfa", win, ex("b")),
  T("ok grax!!", extra, esc("cancel")))

# ---------------------------------------------------------------- 15 two_requests_in_order
gro = [C("a", "Add oat milk (1 L)", "cart_action"), C("b", "Checkout · $23.40", "cart_action", risk=True),
       C("c", "Apply coupon SAVE5", "cart_action")]
D("two_requests_in_order", "groceries", "en",
  "'coupon first, then check out': execute the coupon with a request follow-up; the checkout is then confirmed and the yes executes it.",
  T("apply the coupon first, then check out", gro, ex("c", "request")),
  T("yep", [C("b", "Checkout · $18.40", "cart_action", risk=True)], ex("b"), asked="ASKED_CONFIRMATION"))

rate = [C("a", "Room only · €96/night", "rate"), C("b", "With breakfast · €112/night", "rate"),
        C("c", "Half board · €139/night", "rate")]
ext = [C("a", "Airport shuttle · €25", "extra"), C("b", "Late checkout · €20", "extra"), C("c", "Parking · €15/day", "extra")]
D("two_requests_in_order", "hotel", "en",
  "'room only or the breakfast one' is an alternative: ask. Then 'shuttle first, then parking': execute the shuttle with a request follow-up.",
  T("room only or the breakfast one, idk", rate, cl("a", "b")),
  T("breakfast, we'll be too lazy to go out lol", pick(rate, ["a", "b"]), ex("b"), asked="ASKED_CHOICE"),
  T("add the shuttle first and then parking", ext, ex("a", "request")))

hs = [C("a", "Verwarming woonkamer · 20 °C", "device"), C("b", "Alle lampen uit", "device"), C("c", "Rolluiken omlaag", "device")]
D("two_requests_in_order", "smart_home", "nl",
  "'eerst alle lampen uit, daarna de rolluiken naar beneden': execute lights off with a request follow-up; then the shutters.",
  T("eerst alle lampen uit, daarna de rolluiken naar beneden", hs, ex("b", "request")),
  T("nu de rolluiken", pick(hs, ["a", "c"]), ex("c")))

# ---------------------------------------------------------------- scoring
DEBATABLE = ["m002#1", "m007#1", "m009#1", "m011#2", "m014#1", "m003#2"]
KNOWLEDGE = ["m016#1", "m029#1"]


def build():
    out = []
    for n, d in enumerate(DIALOGUES, 1):
        did = f"m{n:03d}"
        dia = []
        for k, t in enumerate(d["turns"], 1):
            opts = {"optionSetId": f"{did}-os{k}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
            if t["asked"]:
                opts["asked"] = t["asked"]
            kind, e, rejected = t["expect"]
            turn = {"input": t["input"],
                    "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
                    "options": opts}
            if t["commands"]:
                turn["commands"] = t["commands"]
            turn["expect"] = e
            if kind == "x":
                turn["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if rejected else "OUTCOME_KIND_EXECUTED",
                                          "choiceId": e["execute"]}
            dia.append(turn)
        out.append({"id": did, "category": d["category"], "domain": d["domain"], "language": d["language"],
                    "note": d["note"], "dialogue": dia})
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump({"debatable": DEBATABLE, "knowledge": KNOWLEDGE}, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(out)} dialogues")


if __name__ == "__main__":
    build()
