#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh58 blind test set.

Written blind from BRIEF.md: every expectation is what a careful human
assistant would do with the screen and the message, nothing else.
"""
import json, os

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


def ES(reason):
    return {"escape": reason}


def T(inp, cands, expect, asked=None, rejected=False, commands=None):
    return {"input": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


def pick(cands, *ids):
    """Screen after a clarify: exactly the offered ids, in that order."""
    by = {c["id"]: c for c in cands}
    return [by[i] for i in ids]


def D(did, category, domain, language, note, turns):
    return {"id": did, "category": category, "domain": domain,
            "language": language, "note": note, "turns": turns}


DIALOGUES = []
add = DIALOGUES.append

# ============================================================ 1 signed_numbers
ev1 = [C("a", "Charger B3", "charger", "22 kW · free"),
       C("b", "Charger A1", "charger", "50 kW · free"),
       C("c", "Charger C2", "charger", "11 kW · free")]
ev2 = [C("a", "Extend by 30 min", "session_action"),
       C("b", "Extend by 1 h", "session_action"),
       C("c", "End session and pay", "session_action", "€11.40 so far", risk=True)]
add(D("h001", "signed_numbers", "ev_charging", "en",
      "'B3' is a charger code, not position 3 (B3 is listed first). '+1h' is an offset that names "
      "'Extend by 1 h' (second), not option 1.",
      [T("I'm parked at B3", ev1, X("a")),
       T("+1h pls, battery's only at 40%", ev2, X("b"))]))

fl1 = [C("a", "−1 day", "date_option", "Thu 12 Jun · €184"),
       C("b", "Original date", "date_option", "Fri 13 Jun · €231"),
       C("c", "+1 day", "date_option", "Sat 14 Jun · €162"),
       C("d", "+2 days", "date_option", "Sun 15 Jun · €149")]
fl2 = [C("a", "Pay €162 and book – Sat 14 Jun, LIS → BER", "payment", risk=True)]
add(D("h002", "signed_numbers", "flights", "en",
      "'the +1 one' is the date offset +1 day (third item), not the first item. Turn 2 is a plain yes "
      "to a payment confirmation screen.",
      [T("the +1 one, that's way cheaper", fl1, X("c")),
       T("yes go ahead", fl2, X("a"), asked="ASKED_CONFIRMATION")]))

tc1 = [C("a", "+10 GB data", "add_on", "€10 · add to basket"),
       C("b", "+5 GB roaming", "add_on", "€8 · add to basket"),
       C("c", "+2 GB data", "add_on", "€3 · add to basket"),
       C("d", "+2 GB roaming", "add_on", "€6 · add to basket")]
add(D("h003", "signed_numbers", "telecom", "en",
      "'+2 gb' is a value, not position 2 (+5 GB roaming); two add-ons carry +2 GB so the careful "
      "reply asks which one. Turn 2 settles it.",
      [T("+2 gb", tc1, CL("c", "d")),
       T("the roaming one, I'm in Spain next week", pick(tc1, "c", "d"), X("d"), asked="ASKED_CHOICE")]))

# ===================================================== 2 changed_value_not_yes
rs1 = [C("a", "Tisch für 4 Personen, Fr 20:15", "reservation", "Trattoria Lume")]
rs2 = [C("a", "Erinnerung 2 Stunden vorher", "reminder")]
add(D("h004", "changed_value_not_yes", "restaurant", "de",
      "'Viertel nach acht' is 20:15 in words: same value, so a yes. In turn 2 'eine Stunde vorher' "
      "differs from the proposed 2 hours: a change, not a yes, so declined.",
      [T("Ja, Viertel nach acht, genau so", rs1, X("a"), asked="ASKED_CONFIRMATION"),
       T("eine Stunde vorher reicht mir", rs2, ES("declined"), asked="ASKED_CONFIRMATION")]))

cr1 = [C("a", "Pick up Fri 6 Jun, 09:00", "booking", "Airport desk · compact car")]
cr2 = [C("a", "Pick up Fri 6 Jun, 10:00", "booking", "Airport desk · compact car")]
add(D("h005", "changed_value_not_yes", "car_rental", "en",
      "'yes but at ten' changes the 09:00 pick-up: the yes is conditional on another time, so it is "
      "not a yes to this option. The app re-proposes 10:00, which the user confirms in other words.",
      [T("yes but at ten", cr1, ES("declined"), asked="ASKED_CONFIRMATION"),
       T("10am friday, yes", cr2, X("a"), asked="ASKED_CONFIRMATION")]))

bk1 = [C("a", "Send €250.00 to Marta Ruiz", "transfer", "from Everyday account", risk=True)]
bk2 = [C("a", "Send €200.00 to Marta Ruiz", "transfer", "from Everyday account", risk=True)]
add(D("h006", "changed_value_not_yes", "banking", "en",
      "Amount said in words (two hundred) differs from €250: a change, never a yes. Next screen "
      "proposes €200 and the user says yes with the same amount.",
      [T("send her two hundred", bk1, ES("declined"), asked="ASKED_CONFIRMATION"),
       T("yep, two hundred to Marta", bk2, X("a"), asked="ASKED_CONFIRMATION")]))

# ==================================================== 3 ordinal_word_in_labels
it1 = [C("a", "Secondo: tagliata di manzo", "course", "€19"),
       C("b", "Primo: risotto ai funghi", "course", "€14"),
       C("c", "Dolce: tiramisù", "course", "€7")]
add(D("h007", "ordinal_word_in_labels", "restaurant", "it",
      "'il primo' is both 'the first (item)' = Secondo/tagliata and the course 'Primo' = risotto. "
      "A careful waiter asks. Turn 2 names the dish.",
      [T("il primo", it1, CL("b", "a")),
       T("il risotto", pick(it1, "b", "a"), X("b"), asked="ASKED_CHOICE")]))

mu1 = [C("a", "Play next", "queue_action"),
       C("b", "Play last", "queue_action"),
       C("c", "Play now", "queue_action")]
mu2 = [C("a", "Top 50 Global", "playlist"),
       C("b", "First Dance Songs", "playlist"),
       C("c", "Road Trip Mix", "playlist")]
add(D("h008", "ordinal_word_in_labels", "music", "en",
      "'last in the queue' names 'Play last' (second item), not the last item 'Play now'. "
      "'first please' on a screen where a label starts with 'First' could be position 1 or "
      "'First Dance Songs': ask.",
      [T("stick it last in the queue", mu1, X("b")),
       T("first please", mu2, CL("a", "b")),
       T("the dance songs", pick(mu2, "a", "b"), X("b"), asked="ASKED_CHOICE")]))

tr1 = [C("a", "Second class", "fare", "€39 · Leeds → York"),
       C("b", "First class", "fare", "€72 · Leeds → York")]
tr2 = [C("a", "Pay €72 – First class, Leeds → York", "payment", risk=True)]
add(D("h009", "ordinal_word_in_labels", "trains", "en",
      "'first class' names the label 'First class' (second item), not item one. Then, on the payment "
      "confirmation, 'no, second class after all' refuses it.",
      [T("first class is fine, I'll expense it", tr1, X("b")),
       T("hmm no, second class after all", tr2, ES("declined"), asked="ASKED_CONFIRMATION")]))

# ============================================================ 4 quantity_noun
ba1 = [C("a", "Croissant", "product", "1,80 €"),
       C("b", "Caja de 6 croissants", "product", "9,50 €"),
       C("c", "Café con leche + croissant", "product", "3,20 €")]
ba2 = [C("a", "Recoger en tienda", "delivery", "hoy desde las 8:00"),
       C("b", "Envío a domicilio", "delivery", "+2,50 €")]
add(D("h010", "quantity_noun", "bakery", "es",
      "'dos croissants' is two of the single croissant, not the box of 6 nor the coffee combo. "
      "'paso a recogerlos' is the everyday way of saying pick-up in store.",
      [T("me pones dos croissants", ba1, X("a")),
       T("paso yo a recogerlos", ba2, X("a"))]))

gy1 = [C("a", "Drop-in class", "pass", "£12"),
       C("b", "5-class pass", "pass", "£50 · valid 2 months"),
       C("c", "10-class pass", "pass", "£90 · valid 4 months")]
gy2 = [C("a", "Pay £36 – 3 drop-in classes", "payment", risk=True)]
add(D("h011", "quantity_noun", "gym", "en",
      "'three classes' is a count of the class option (drop-in), not the 5-class pass whose label "
      "says more. Turn 2: a yes to the payment screen with the same amount.",
      [T("three classes, I'm only in town till Sunday", gy1, X("a")),
       T("yes, thirty-six is right", gy2, X("a"), asked="ASKED_CONFIRMATION")]))

pz1 = [C("a", "Margherita – small", "pizza", "25 cm · €8.50"),
       C("b", "Margherita – large", "pizza", "33 cm · €12.00"),
       C("c", "Margherita party box", "pizza", "4 large pizzas · €39.00")]
add(D("h012", "quantity_noun", "food_delivery", "en",
      "'2 margherita pizzas' is a count of single pizzas; the party box is out, but size is open "
      "between small and large, so ask.",
      [T("2 margherita pizzas pls", pz1, CL("a", "b")),
       T("large ones", pick(pz1, "a", "b"), X("b"), asked="ASKED_CHOICE")]))

# ============================================================ 5 everyday_verb
sh1 = [C("a", "Wohnzimmer: Licht aus", "light"),
       C("b", "Wohnzimmer: Licht 50 %", "light"),
       C("c", "Flur: Licht aus", "light")]
sh2 = [C("a", "Rollläden schließen", "blinds", "Wohnzimmer"),
       C("b", "Rollläden öffnen", "blinds", "Wohnzimmer"),
       C("c", "Rollläden halb", "blinds", "Wohnzimmer")]
add(D("h013", "everyday_verb", "smart_home", "de",
      "'mach's dunkel' = switch the light off (living room, not hallway). 'lass die Rollläden runter' "
      "= close the blinds, though the label says 'schließen'.",
      [T("mach's im Wohnzimmer dunkel", sh1, X("a")),
       T("und lass die Rollläden runter", sh2, X("a"))]))

em1 = [C("a", "Archive", "email_action"),
       C("b", "Move to Spam", "email_action"),
       C("c", "Delete permanently", "email_action", risk=True),
       C("d", "Mark as unread", "email_action")]
add(D("h014", "everyday_verb", "email", "en",
      "'bin it' is the everyday verb for deleting; the only delete here is RISK_HIGH and not said "
      "whole, so confirm it first. On the confirmation the user backs off: declined.",
      [T("bin it", em1, CL("c")),
       T("ah no, keep it actually", pick(em1, "c"), ES("declined"), asked="ASKED_CONFIRMATION")]))

lb1 = [C("a", "Renew loan – The Overstory", "loan_action", "due 3 Jun"),
       C("b", "Drop-box opening hours", "loan_action"),
       C("c", "Place hold – Piranesi", "loan_action", "2 copies on shelf")]
lb2 = [C("a", "Place hold – Piranesi", "loan_action", "2 copies on shelf"),
       C("b", "Join waitlist – Demon Copperhead", "loan_action", "4 ahead of you")]
add(D("h015", "everyday_verb", "library", "en",
      "'hang on to it a bit longer' = renew; 'put it aside for me' = place a hold.",
      [T("I'd like to hang on to The Overstory a bit longer", lb1, X("a")),
       T("great, and put Piranesi aside for me", lb2, X("a"))]))

# ============================================================ 6 value_other_way
dt1 = [C("a", "Tue 10 Jun, 08:15", "slot", "Dr Okafor · check-up"),
       C("b", "Tue 10 Jun, 17:45", "slot", "Dr Okafor · check-up"),
       C("c", "Thu 12 Jun, 17:45", "slot", "Dr Okafor · check-up")]
add(D("h016", "value_other_way", "dentist", "en",
      "'tuesday' matches two slots: ask. 'quarter to six' is 17:45 (not 08:15).",
      [T("tuesday works for me", dt1, CL("a", "b")),
       T("the quarter to six one", pick(dt1, "a", "b"), X("b"), asked="ASKED_CHOICE")]))

ho1 = [C("a", "Do 12.06. – So 15.06.", "stay", "3 Nächte · 387 €"),
       C("b", "Fr 13.06. – So 15.06.", "stay", "2 Nächte · 258 €"),
       C("c", "Fr 13.06. – Mo 16.06.", "stay", "3 Nächte · 371 €")]
ho2 = [C("a", "Doppelzimmer", "room", "1 Queensize-Bett"),
       C("b", "Zweibettzimmer", "room", "2 Einzelbetten")]
add(D("h017", "value_other_way", "hotel", "de",
      "'Freitag bis Montag' = Fr 13.06. – Mo 16.06. written as weekdays. 'zwei getrennte Betten' "
      "is the twin room said another way.",
      [T("von Freitag bis Montag bitte", ho1, X("c")),
       T("mit zwei getrennten Betten", ho2, X("b"))]))

rh1 = [C("a", "Now", "pickup_time"),
       C("b", "In 15 min", "pickup_time"),
       C("c", "In 30 min", "pickup_time"),
       C("d", "In 45 min", "pickup_time")]
rh2 = [C("a", "Standard", "vehicle", "4 seats · €18"),
       C("b", "XL", "vehicle", "6 seats · €27"),
       C("c", "Comfort", "vehicle", "4 seats · €24")]
add(D("h018", "value_other_way", "ride_hailing", "en",
      "'in half an hour' = 'In 30 min'. 'there are six of us' names the 6-seat vehicle; the "
      "booking itself is confirmed later, so choosing the vehicle is safe.",
      [T("in half an hour", rh1, X("c")),
       T("there are six of us", rh2, X("b"))]))

# ============================================================ 7 object_alone
ph1 = [C("a", "Descarregar álbum «Praia 2024»", "album_action", "312 fotos"),
       C("b", "Partilhar álbum «Anos da Inês»", "album_action", "58 fotos"),
       C("c", "Eliminar álbum «Capturas de ecrã»", "album_action", "1 204 imagens", risk=True)]
add(D("h019", "object_alone", "photos", "pt",
      "Only the object: 'o da praia' is the only beach album, execute. 'as capturas de ecrã' is also "
      "unique but its action is RISK_HIGH and the label was not said whole: confirm first; then "
      "'sim' on the confirmation executes.",
      [T("o da praia", ph1, X("a")),
       T("agora as capturas de ecrã", ph1, CL("c")),
       T("sim, pode eliminar", pick(ph1, "c"), X("c"), asked="ASKED_CONFIRMATION")]))

rx1 = [C("a", "Refill – Lisinopril 10 mg", "prescription", "30 tablets"),
       C("b", "Refill – Cetirizine 10 mg", "prescription", "30 tablets"),
       C("c", "Transfer prescription – Metformin 500 mg", "prescription", "to another pharmacy")]
rx2 = [C("a", "Refill – Lisinopril 10 mg", "prescription", "30 tablets"),
       C("c", "Transfer prescription – Metformin 500 mg", "prescription", "to another pharmacy")]
add(D("h020", "object_alone", "pharmacy", "en",
      "Drug names alone, each on one option only: execute the one named.",
      [T("the cetirizine", rx1, X("b")),
       T("lisinopril as well", rx2, X("a"))]))

cn1 = [C("a", "Pick seats – Dune: Part Two", "movie_action", "IMAX · 19:40"),
       C("b", "Watch trailer – Dune: Part Two", "movie_action"),
       C("c", "Pick seats – Past Lives", "movie_action", "Screen 4 · 20:10")]
add(D("h021", "object_alone", "cinema", "en",
      "'Past Lives' is the object of one option only: execute. 'dune' is shared by seats and "
      "trailer: ask. Picking seats does not pay yet.",
      [T("Past Lives", cn1, X("c")),
       T("hmm, dune", cn1, CL("a", "b")),
       T("just the trailer for now", pick(cn1, "a", "b"), X("b"), asked="ASKED_CHOICE")]))

# ============================================== 8 distinguishing_word_plus_kind
cf1 = [C("a", "Latte avoine", "boisson", "4,20 €"),
       C("b", "Latte soja", "boisson", "4,20 €"),
       C("c", "Latte lait entier", "boisson", "3,80 €")]
cf2 = [C("a", "Petit", "taille", "25 cl"),
       C("b", "Moyen", "taille", "35 cl"),
       C("c", "Grand", "taille", "45 cl")]
add(D("h022", "distinguishing_word_plus_kind", "cafe", "fr",
      "'soja' tells the option apart; 'latte' is in every label. 'grand' + 'format' (a word that "
      "only says it is a size).",
      [T("je prends le latte au soja", cf1, X("b")),
       T("en grand format", cf2, X("c"))]))

fi1 = [C("a", "Q3 board deck.pdf", "file", "2.4 MB"),
       C("b", "Q3 budget.xlsx", "file", "180 KB"),
       C("c", "Q4 board deck.pdf", "file", "3.1 MB")]
add(D("h023", "distinguishing_word_plus_kind", "files", "en",
      "'the Q4 file': Q4 is on one file only, 'file' is the kind of every option. 'the Q3 file' "
      "fits two: ask. 'the spreadsheet' then picks the xlsx.",
      [T("open the Q4 file", fi1, X("c")),
       T("now the Q3 file", fi1, CL("a", "b")),
       T("the spreadsheet", pick(fi1, "a", "b"), X("b"), asked="ASKED_CHOICE")]))

vt1 = [C("a", "Vaccination – Biscuit", "appointment", "dog"),
       C("b", "Vaccination – Pepper", "appointment", "cat"),
       C("c", "Nail trim – Biscuit", "appointment", "dog")]
vt2 = [C("a", "Tue 09:00", "slot", "Dr Haas"),
       C("b", "Tue 15:30", "slot", "Dr Haas"),
       C("c", "Wed 15:30", "slot", "Dr Novak")]
add(D("h024", "distinguishing_word_plus_kind", "vet", "en",
      "'cat' is on one option only (sublabel), 'appointment' is the kind of all three. 'an "
      "afternoon slot' fits Tue and Wed 15:30: ask; 'Wednesday's' settles it.",
      [T("book the cat appointment", vt1, X("b")),
       T("an afternoon slot", vt2, CL("b", "c")),
       T("Wednesday's", pick(vt2, "b", "c"), X("c"), asked="ASKED_CHOICE")]))

# ====================================================== 9 correction_after_execute
gr1 = [C("a", "Semi-skimmed milk 2 L", "product", "£1.65"),
       C("b", "Whole milk 2 L", "product", "£1.75"),
       C("c", "Oat drink 1 L", "product", "£1.90")]
gr2 = [C("a", "View basket", "basket_action", "3 items"),
       C("b", "Checkout", "basket_action", "£14.20", risk=True)]
add(D("h025", "correction_after_execute", "groceries", "en",
      "Semi-skimmed was added, then the user says it was the wrong one and names whole milk: "
      "execute whole milk. Then thanks with nothing pending (checkout only shown, not asked): cancel.",
      [T("add the semi-skimmed", gr1, X("a"), rejected=True),
       T("oops, meant whole milk, not semi", gr1, X("b")),
       T("cheers, that's everything", gr2, ES("cancel"))]))

st1 = [C("a", "Pause subscription", "plan_action", "1 month"),
       C("b", "Switch to Basic plan", "plan_action", "€6.99/month"),
       C("c", "Cancel subscription", "plan_action", "ends 30 Jun", risk=True)]
add(D("h026", "correction_after_execute", "streaming", "en",
      "Pause was executed; the user says they meant cancel. The meant option is RISK_HIGH and "
      "'cancel' is not its whole label, so confirm that one option (not an escape: the user is "
      "naming the option, not abandoning). The whole label on the confirmation executes.",
      [T("pause it for a month", st1, X("a"), rejected=True),
       T("wait no, I meant cancel, not pause", st1, CL("c")),
       T("yes, cancel subscription", pick(st1, "c"), X("c"), asked="ASKED_CONFIRMATION")]))

# ======================================================= 10 self_correcting_reply
ci1 = [C("a", "Sesión 18:00", "showtime", "Sala 2"),
       C("b", "Sesión 20:30", "showtime", "Sala 5"),
       C("c", "Sesión 22:45", "showtime", "Sala 1")]
ci2 = [C("a", "Pagar 2 entradas – 17,80 €", "payment", "Sesión 20:30 · Sala 5", risk=True)]
add(D("h027", "self_correcting_reply", "cinema", "es",
      "Picks 18:00 then takes it back for 'ocho y media' (20:30): the last choice stands. Then a plain "
      "yes to the payment confirmation.",
      [T("la de las seis... no, espera, mejor la de las ocho y media", ci1, X("b")),
       T("sí, adelante", ci2, X("a"), asked="ASKED_CONFIRMATION")]))

fd1 = [C("a", "Pad thai – tofu", "dish", "£10.50"),
       C("b", "Pad thai – chicken", "dish", "£11.50"),
       C("c", "Green curry – chicken", "dish", "£12.00")]
fd2 = [C("a", "Jasmine rice", "side", "£2.50"),
       C("b", "Sticky rice", "side", "£3.00"),
       C("c", "No rice", "side")]
add(D("h028", "self_correcting_reply", "food_delivery", "en",
      "Turn 1 corrects itself to the green curry. Turn 2 does not take one back for another, it "
      "hesitates between two ('or sticky'): ask.",
      [T("chicken pad thai, actually no, make it the green curry", fd1, X("c")),
       T("jasmine... hmm, or sticky", fd2, CL("a", "b")),
       T("sticky", pick(fd2, "a", "b"), X("b"), asked="ASKED_CHOICE")]))

ca1 = [C("a", "Move stand-up to 9:30", "meeting_action", "today · 8 guests"),
       C("b", "Move stand-up to 10:00", "meeting_action", "today · 8 guests"),
       C("c", "Cancel today's stand-up", "meeting_action", "notifies 8 guests", risk=True)]
add(D("h029", "self_correcting_reply", "calendar", "en",
      "The user drops 'move to 10' for 'scrap the stand-up'; the last choice is RISK_HIGH and not "
      "said whole, so confirm it. The full label on the confirmation executes.",
      [T("push it to 10... actually no, scrap today's stand-up altogether", ca1, CL("c")),
       T("yes, cancel today's stand-up", pick(ca1, "c"), X("c"), asked="ASKED_CONFIRMATION")]))

# ======================================================= 11 closing_after_execute
la1 = [C("a", "Lavage 30 °C", "programme", "45 min · 3,50 €"),
       C("b", "Lavage 60 °C", "programme", "70 min · 4,50 €"),
       C("c", "Séchage", "programme", "40 min · 2,00 €")]
la2 = [C("a", "Me prévenir à la fin", "machine_action"),
       C("b", "Ajouter un séchage après", "machine_action", "+2,00 €")]
add(D("h030", "closing_after_execute", "laundry", "fr",
      "After the 60 °C wash starts, 'merci, c'est tout' closes with nothing pending even though "
      "follow-up options are shown.",
      [T("le lavage à 60", la1, X("b")),
       T("merci, c'est tout", la2, ES("cancel"))]))

rd1 = [C("a", "Confirm ride – Standard", "ride", "€14.20 · pickup in 4 min", risk=True)]
rd2 = [C("a", "Share trip status", "ride_action"),
       C("b", "Call driver", "ride_action"),
       C("c", "Cancel ride", "ride_action", "€3 fee", risk=True)]
add(D("h031", "closing_after_execute", "ride_hailing", "en",
      "Yes to the ride confirmation. 'thanks, and share the trip with my sister' is not a closing: it "
      "picks 'Share trip status'. The final thanks closes the task (escape cancel), which must not be "
      "read as the 'Cancel ride' option.",
      [T("yes book it", rd1, X("a"), asked="ASKED_CONFIRMATION"),
       T("thanks! and share the trip with my sister", rd2, X("a")),
       T("perfect, that's all, cheers", rd2, ES("cancel"))]))

# ======================================================= 12 ack_then_new_request
hc1 = [C("a", "Late checkout until 14:00", "add_on", "€25 charged to room", risk=True)]
add(D("h032", "ack_then_new_request", "hotel", "en",
      "'ok noted' + a question is not a yes: question_intent. Turn 2 has an explicit 'yes please' "
      "before the question, so it executes with a question follow-up.",
      [T("ok noted. is breakfast included in my rate?", hc1, ES("question_intent"), asked="ASKED_CONFIRMATION"),
       T("fine, yes please. what time does breakfast end?", hc1, X("a", "question"), asked="ASKED_CONFIRMATION")]))

in1 = [C("a", "Add roadside assistance", "add_on", "€4/month from next bill", risk=True)]
add(D("h033", "ack_then_new_request", "insurance", "en",
      "'got it' and 'ok' only acknowledge; both messages go on to ask something else instead of "
      "answering the proposal. Turn 2 is a request for documents, phrased as a question "
      "(question_intent is my best fit among the escape reasons).",
      [T("got it. what does it actually cover?", in1, ES("question_intent"), asked="ASKED_CONFIRMATION"),
       T("ok. could you email me the policy wording first?", in1, ES("question_intent"), asked="ASKED_CONFIRMATION")]))

# ======================================================= 13 choice_with_question
gc1 = [C("a", "Monstera", "plant", "40 cm pot · £28"),
       C("b", "Fiddle-leaf fig", "plant", "60 cm · £35"),
       C("c", "Snake plant", "plant", "30 cm · £18")]
add(D("h034", "choice_with_question", "garden_center", "en",
      "Turn 1 only asks about a plant, no choice: question_intent. Turn 2 chooses and asks for "
      "something more: execute with a request follow-up.",
      [T("is the fiddle-leaf fig ok in a dark hallway?", gc1, ES("question_intent")),
       T("fine, the snake plant then. can you gift-wrap it?", gc1, X("c", "request"))]))

bs1 = [C("a", "Standard bike", "bike", "€1 / 30 min"),
       C("b", "E-bike", "bike", "€3 / 30 min"),
       C("c", "Cargo bike", "bike", "€5 / hour")]
bs2 = [C("a", "End ride at Harbour station", "ride_action", "€7.50 total", risk=True),
       C("b", "Pause ride", "ride_action", "bike stays locked to you")]
add(D("h035", "choice_with_question", "bike_share", "en",
      "Both turns choose one option and then ask a question: execute with a question follow-up.",
      [T("e-bike please, can I drop it at the harbour station?", bs1, X("b", "question")),
       T("pause it. how long can I keep it paused?", bs2, X("b", "question"))]))

# ============================================================= 14 shorthand
dr1 = [C("a", "Appointment tomorrow 08:40", "slot", "Dr Lee"),
       C("b", "Appointment Fri 16:10", "slot", "Dr Lee"),
       C("c", "Video call Mon 11:00", "slot", "Dr Patel")]
add(D("h036", "shorthand", "doctor", "en",
      "'appt w dr lee' fits two appointments: ask. 'tmrw' then picks tomorrow.",
      [T("appt w dr lee", dr1, CL("a", "b")),
       T("tmrw", pick(dr1, "a", "b"), X("a"), asked="ASKED_CHOICE")]))

cd1 = [C("a", "Freeze card •• 4821", "card_action", "can be undone any time"),
       C("b", "Order replacement card", "card_action", "arrives in 3–5 days"),
       C("c", "Close account", "card_action", "Everyday account", risk=True)]
cd2 = [C("a", "Unfreeze card •• 4821", "card_action"),
       C("b", "Order replacement card", "card_action", "arrives in 3–5 days"),
       C("c", "Close account", "card_action", "Everyday account", risk=True)]
add(D("h037", "shorthand", "banking", "en",
      "'frz card' = freeze card (reversible): execute. '& close acct' is a texted form of the "
      "RISK_HIGH label, not the label said whole: confirm first.",
      [T("frz card pls, lost it", cd1, X("a")),
       T("& close acct", cd2, CL("c"))]))

# ===================================================== 15 two_requests_in_order
nl1 = [C("a", "Bananen (6 st.)", "product", "€ 1,79"),
       C("b", "Volkoren brood", "product", "€ 2,49"),
       C("c", "Halfvolle melk 1 L", "product", "€ 1,15"),
       C("d", "Afrekenen – € 23,40", "checkout", risk=True)]
nl2 = [C("a", "Afrekenen – € 25,19", "checkout", "incl. bananen", risk=True)]
add(D("h038", "two_requests_in_order", "groceries", "nl",
      "'eerst de bananen erbij, daarna afrekenen': do the first (add bananas) with a request "
      "follow-up; the checkout is then confirmed by its own screen and a yes with the label.",
      [T("eerst de bananen erbij, daarna afrekenen", nl1, X("a", "request")),
       T("ja, afrekenen", nl2, X("a"), asked="ASKED_CONFIRMATION")]))

en1 = [C("a", "Submit meter reading", "account_action", "last sent 2 Mar"),
       C("b", "Download last bill", "account_action", "May · £84.12"),
       C("c", "Change tariff", "account_action")]
en2 = [C("a", "Type the reading", "reading_method"),
       C("b", "Upload a photo of the meter", "reading_method")]
agent = [{"id": "agent", "label": "Talk to an agent",
          "phrases": ["talk to an agent", "speak to someone", "human please"]}]
add(D("h039", "two_requests_in_order", "energy", "en",
      "'download my last bill first, then submit a meter reading': execute the bill download with a "
      "request follow-up; the next turn asks for the reading. Turn 3 says a command phrase.",
      [T("download my last bill first, then submit a meter reading", en1, X("b", "request")),
       T("ok now the meter reading", en1, X("a")),
       T("speak to someone", en2, ES("command"), commands=agent)]))

tv1 = [C("a", "Resume 'Slow Horses'", "title", "S3 E4 · 22 min left"),
       C("b", "Start 'Severance'", "title", "S1 E1"),
       C("c", "Watch trailer – 'Shōgun'", "title")]
add(D("h040", "two_requests_in_order", "streaming", "en",
      "'slow horses or severance' is an alternative, not a sequence: ask between the two. Then "
      "'severance, then queue slow horses after it' executes Severance with a request follow-up.",
      [T("slow horses or severance, dunno", tv1, CL("a", "b")),
       T("severance, then queue slow horses after it", pick(tv1, "a", "b"), X("b", "request"),
         asked="ASKED_CHOICE")]))

# ---------------------------------------------------------------- scoring
SCORING = {
    "debatable": ["h007#1",   # 'il primo': some Italians would just take the Primo course
                  "h008#2",   # 'first please': some would take position 1
                  "h033#2",   # new request on a confirmation: which escape reason
                  "h014#1",   # 'bin it' vs only a permanent delete: some would also offer Archive
                  "h018#2"],  # 'six of us' -> 6-seat vehicle needs a small inference
    "knowledge": ["h004#1"],  # 'Viertel nach acht' = 20:15 (evening reading)
}


# ---------------------------------------------------------------- build
def build():
    out = []
    for d in DIALOGUES:
        turns = []
        for n, t in enumerate(d["turns"], 1):
            opts = {"optionSetId": f"{d['id']}-os{n}", "scope": "SCOPE_CHAT",
                    "candidates": t["cands"]}
            if t["asked"]:
                opts["asked"] = t["asked"]
            turn = {"input": t["input"],
                    "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
                    "options": opts,
                    "expect": t["expect"]}
            if "execute" in t["expect"]:
                turn["record_outcome"] = {
                    "kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                    "choiceId": t["expect"]["execute"]}
            if t["commands"]:
                turn["commands"] = t["commands"]
            turns.append(turn)
        out.append({"id": d["id"], "category": d["category"], "domain": d["domain"],
                    "language": d["language"], "note": d["note"], "dialogue": turns})
    ids = [d["id"] for d in out]
    assert ids == [f"h{i:03d}" for i in range(1, len(ids) + 1)], ids
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
