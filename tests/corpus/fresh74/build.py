#!/usr/bin/env python3
"""Builds the fresh74 blind test set: corpus.jsonl + scoring.json.

Written blind from BRIEF.md only. Expectations are what a careful human
assistant would do with each message on each screen.
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
    return {"input": inp, "cands": cands, "expect": expect, "asked": asked,
            "commands": commands, "rejected": rejected}


def D(did, cat, dom, lang, note, turns):
    return {"id": did, "category": cat, "domain": dom, "language": lang, "note": note, "turns": turns}


def render(d):
    out = {"id": d["id"], "category": d["category"], "domain": d["domain"],
           "language": d["language"], "note": d["note"], "dialogue": []}
    for n, t in enumerate(d["turns"], 1):
        opts = {"optionSetId": f"{d['id']}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
        if t["asked"]:
            opts["asked"] = t["asked"]
        turn = {"input": t["input"],
                "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
                "options": opts}
        if t["commands"]:
            turn["commands"] = t["commands"]
        turn["expect"] = t["expect"]
        if "execute" in t["expect"]:
            turn["record_outcome"] = {
                "kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                "choiceId": t["expect"]["execute"]}
        out["dialogue"].append(turn)
    return out


CH, CF = "ASKED_CHOICE", "ASKED_CONFIRMATION"
DIALOGUES = []
add = DIALOGUES.append

# ================================================================ 1. signed_numbers
thermo = lambda: [C("a", "−2 °C", "adjustment"), C("b", "−1 °C", "adjustment"),
                  C("c", "+1 °C", "adjustment"), C("d", "+2 °C", "adjustment")]
add(D("w2001", "signed_numbers", "smart_home", "en",
      "'+2' is the +2 °C step (4th), not position 2 (−1 °C); '-1' is the −1 °C step (2nd), not the first option.",
      [T("+2 please, it's freezing in here", thermo(), X("d")),
       T("bit too warm now, -1", thermo(), X("b"))]))

add(D("w2002", "signed_numbers", "transit", "en",
      "'the number 2' is bus Line 2 (4th row), not the 2nd row (Line 1). Then the user abandons the trip.",
      [T("I'll take the number 2",
         [C("l3", "Line 3", "departure", "Central Station · 4 min"),
          C("l1", "Line 1", "departure", "Airport · 9 min"),
          C("l12", "Line 12", "departure", "Harbour · 15 min"),
          C("l2", "Line 2", "departure", "University · 18 min")], X("l2")),
       T("never mind, I'll just walk",
         [C("single", "Single ticket", "ticket", "€2.40"),
          C("day", "Day pass", "ticket", "€7.00"),
          C("week", "Weekly pass", "ticket", "€24.00")], E("cancel"))]))

spar = lambda: [C("a", "Sparkonto +100 €", "transfer", "auf das Sparkonto einzahlen", True),
                C("b", "Sparkonto +250 €", "transfer", "auf das Sparkonto einzahlen", True),
                C("c", "Sparkonto −100 €", "transfer", "vom Sparkonto abheben", True)]
add(D("w2003", "signed_numbers", "banking", "de",
      "'minus 100' picks the −100 € transfer (not the first, +100 €); it is RISK_HIGH and the label was not said whole, so confirm first; 'ja, genau' to the confirmation executes.",
      [T("die mit minus 100 bitte", spar(), CL("c")),
       T("ja, genau", [spar()[2]], X("c"), asked=CF)]))

# ================================================================ 2. changed_value_not_yes
add(D("w2004", "changed_value_not_yes", "restaurant", "en",
      "Confirmation is for 19:30; 'but for 8 o'clock' is a different time, so not a yes (declined). The re-offered 20:00 is confirmed with 'eight pm' = same value.",
      [T("yes please, but for 8 o'clock",
         [C("book", "Table for 4 · Sat 14 June · 19:30", "reservation", "Trattoria Sole")], E("declined"), asked=CF),
       T("great, eight pm it is",
         [C("book8", "Table for 4 · Sat 14 June · 20:00", "reservation", "Trattoria Sole")], X("book8"), asked=CF)]))

add(D("w2005", "changed_value_not_yes", "banking", "en",
      "'forty-five quid' is the same amount as £45.00, so a yes to the RISK_HIGH payment. Then the standing order is on the 1st; 'on the 15th' is a changed date, not a yes.",
      [T("yes, forty-five quid is right",
         [C("pay", "Pay £45.00 to Green Gardens Ltd", "payment", "from Current account", True)], X("pay"), asked=CF),
       T("yes but on the 15th",
         [C("so", "Monthly payment of £45.00 on the 1st", "standing_order", "to Green Gardens Ltd", True)],
         E("declined"), asked=CF)]))

add(D("w2006", "changed_value_not_yes", "healthcare", "es",
      "La cita propuesta es el jueves 12; 'mejor el viernes' cambia la fecha: no es un sí (declined). La nueva propuesta del viernes 13 a las 10:30 se confirma con 'a las diez y media' (mismo valor).",
      [T("vale, pero mejor el viernes",
         [C("cita", "Cita con la Dra. Ruiz · jueves 12 de junio, 10:30", "appointment", "Centro de Salud Norte")],
         E("declined"), asked=CF),
       T("sí, el viernes a las diez y media, perfecto",
         [C("cita2", "Cita con la Dra. Ruiz · viernes 13 de junio, 10:30", "appointment", "Centro de Salud Norte")],
         X("cita2"), asked=CF)]))

# ================================================================ 3. ordinal_word_in_labels
add(D("w2007", "ordinal_word_in_labels", "rail", "en",
      "'first class' names the First Class fare (3rd), not the first row (Standard). Then 'no need' declines the seat-reservation offer.",
      [T("first class please",
         [C("std", "Standard", "fare", "£42.00"),
          C("prem", "Standard Premium", "fare", "£58.00"),
          C("first", "First Class", "fare", "£89.00")], X("first"), asked=CH),
       T("no need, thanks",
         [C("seat", "Reserve a seat", "extra", "free")], E("declined"), asked=CF)]))

songs = [C("a", "Last Night", "track", "The Strokes"), C("b", "Yellow", "track", "Coldplay"),
         C("c", "First Day of My Life", "track", "Bright Eyes"), C("d", "Nightcall", "track", "Kavinsky")]
add(D("w2008", "ordinal_word_in_labels", "music", "en",
      "A bare 'last' could be the last row (Nightcall) or the song 'Last Night', so ask between them; 'the Strokes one' then picks Last Night.",
      [T("last", songs, CL("d", "a")),
       T("the Strokes one", [songs[3], songs[0]], X("a"), asked=CH)]))

flats = [C("a", "T2 – dernier étage", "listing", "48 m² · 1 150 €"),
         C("b", "Studio – rez-de-chaussée", "listing", "24 m² · 690 €"),
         C("c", "T3 – premier étage", "listing", "67 m² · 1 420 €"),
         C("d", "T2 – deuxième étage", "listing", "45 m² · 1 080 €")]
add(D("w2009", "ordinal_word_in_labels", "real_estate", "fr",
      "'celui au premier' = l'appartement au premier étage (3e ligne), pas la 1re ligne. 'le dernier' peut être la dernière ligne ou le T2 au dernier étage : on demande ; 'au dernier étage' tranche.",
      [T("je voudrais visiter celui au premier", flats, X("c")),
       T("et le dernier aussi", flats, CL("d", "a")),
       T("celui au dernier étage", [flats[3], flats[0]], X("a"), asked=CH)]))

# ================================================================ 4. quantity_noun
tickets = [C("adult", "Adult", "ticket", "£12.00"), C("child", "Child", "ticket", "£8.00"),
           C("family", "Family ticket (2 adults + 2 children)", "ticket", "£36.00"),
           C("student", "Student", "ticket", "£9.00")]
pay = C("pay", "Pay now", "checkout", "2 × Adult · £24.00", True)
add(D("w2010", "quantity_noun", "cinema", "en",
      "'2 adults' is two Adult tickets, not the Family ticket whose label mentions 2 adults and more. 'go ahead and pay' targets RISK_HIGH 'Pay now' without saying the label whole: confirm first; 'yes' executes.",
      [T("2 adults please", tickets, X("adult")),
       T("ok go ahead and pay for them",
         [pay, C("snacks", "Add snacks", "extra"), C("change", "Change tickets", "action")], CL("pay")),
       T("yes", [pay], X("pay"), asked=CF)]))

menu = [C("marg", "Margherita", "pizza", "£9.50"),
        C("party", "Pizza party: 3 pizzas + garlic bread + 1.5 L cola", "bundle", "£32.00"),
        C("garlic", "Garlic bread", "side", "£4.00"),
        C("cola", "Cola 330 ml", "drink", "£1.80"),
        C("pep", "Pepperoni", "pizza", "£11.00")]
add(D("w2011", "quantity_noun", "food_delivery", "en",
      "'2 colas' is the Cola item, not the Pizza party bundle. '3 pizzas' fits both pizzas (Margherita, Pepperoni) but not the bundle whose label says more: ask; 'all margherita' picks it.",
      [T("2 colas please", menu, X("cola")),
       T("and 3 pizzas", menu, CL("marg", "pep")),
       T("all margherita", [menu[0], menu[4]], X("marg"), asked=CH)]))

add(D("w2012", "quantity_noun", "hotel", "de",
      "'2 Doppelzimmer' ist das Doppelzimmer (Anzahl 2), nicht das Familienpaket, dessen Label mehr sagt. 'ja, passt' bestätigt die Zahlung (ASKED_CONFIRMATION).",
      [T("2 Doppelzimmer bitte",
         [C("dz", "Doppelzimmer", "room", "120 € / Nacht"),
          C("ez", "Einzelzimmer", "room", "85 € / Nacht"),
          C("fam", "Familienpaket: 2 Doppelzimmer + Frühstück", "package", "290 € / Nacht"),
          C("suite", "Suite", "room", "240 € / Nacht")], X("dz")),
       T("ja, passt",
         [C("zahlen", "2 × Doppelzimmer · 3 Nächte · 720 € zahlen", "payment", "Kreditkarte •• 4821", True)],
         X("zahlen"), asked=CF)]))

# ================================================================ 5. everyday_verb
add(D("w2013", "everyday_verb", "shopping", "en",
      "'send these back' is what 'Start a return' does. 'too tight' is the everyday way to say 'Too small'.",
      [T("I want to send these shoes back",
         [C("track", "Track package", "action"), C("ret", "Start a return", "action"),
          C("again", "Buy again", "action"), C("review", "Write a review", "action")], X("ret")),
       T("they're too tight",
         [C("small", "Too small", "return_reason"), C("big", "Too big", "return_reason"),
          C("dmg", "Arrived damaged", "return_reason"), C("mind", "Changed my mind", "return_reason")],
         X("small"))]))

card = [C("lock", "Temporarily lock card", "card_action", "You can unlock it any time"),
        C("stolen", "Report card lost or stolen", "card_action", "Cancels this card permanently", True),
        C("pin", "Change PIN", "card_action"),
        C("stmt", "View statements", "card_action")]
add(D("w2014", "everyday_verb", "banking", "en",
      "'freeze my card for now' = Temporarily lock card. 'it's been stolen, kill it for good' means the RISK_HIGH report option, label not said whole: confirm first; 'yes, report it' executes.",
      [T("can you freeze my card for now", card, X("lock")),
       T("actually I think it's been stolen, kill it for good", card, CL("stolen")),
       T("yes, report it", [card[1]], X("stolen"), asked=CF)]))

photo = [C("share", "Partager", "photo_action"), C("bin", "Mettre à la corbeille", "photo_action", "récupérable 30 jours"),
         C("del", "Supprimer définitivement", "photo_action", "irréversible", True),
         C("fav", "Ajouter aux favoris", "photo_action")]
add(D("w2015", "everyday_verb", "photos", "fr",
      "'envoie-la à ma sœur' = Partager. 'efface-la' convient à la corbeille comme à la suppression définitive (RISK_HIGH) : on demande.",
      [T("envoie-la à ma sœur", photo, X("share")),
       T("bon, efface-la", photo, CL("bin", "del"))]))

# ================================================================ 6. value_other_way
yoga = [C("a", "Yoga · Mon 07:00", "class", "Studio 1"), C("b", "Yoga · Mon 18:30", "class", "Studio 1"),
        C("c", "Yoga · Wed 18:30", "class", "Studio 2"), C("d", "Pilates · Mon 19:45", "class", "Studio 2")]
add(D("w2016", "value_other_way", "fitness", "en",
      "'half six' = 18:30, which two yoga classes share (Mon, Wed): ask. 'Weds' then picks Wednesday.",
      [T("book me yoga at half six", yoga, CL("b", "c")),
       T("weds", [yoga[1], yoga[2]], X("c"), asked=CH)]))

topup = [C("t5", "£5", "top_up", "charged to Visa •• 1188", True), C("t10", "£10", "top_up", "charged to Visa •• 1188", True),
         C("t20", "£20", "top_up", "charged to Visa •• 1188", True), C("t30", "£30", "top_up", "charged to Visa •• 1188", True)]
add(D("w2017", "value_other_way", "telecom", "en",
      "'a tenner' = £10, but top-ups charge the card (RISK_HIGH) and the label was not said whole: confirm £10 first. 'ten pounds' is the same value, so a yes.",
      [T("top me up a tenner", topup, CL("t10")),
       T("yes, ten pounds", [topup[1]], X("t10"), asked=CF)]))

add(D("w2018", "value_other_way", "coach_travel", "pt",
      "'sexta às oito e quinze da noite' = Sex 13/06 · 20:15. 'a vinte e um' = Poltrona 21 (número por extenso, não posição).",
      [T("sexta às oito e quinze da noite",
         [C("a", "Sex 13/06 · 08:15", "trip", "Lisboa → Porto"),
          C("b", "Sex 13/06 · 20:15", "trip", "Lisboa → Porto"),
          C("c", "Sáb 14/06 · 08:15", "trip", "Lisboa → Porto")], X("b"), asked=CH),
       T("a vinte e um",
         [C("p7", "Poltrona 7", "seat", "janela"), C("p8", "Poltrona 8", "seat", "corredor"),
          C("p21", "Poltrona 21", "seat", "janela")], X("p21"))]))

# ================================================================ 7. object_alone
hotel = [C("call", "Call reception", "action"), C("msg", "Message reception", "action"),
         C("taxi", "Book a taxi", "action"), C("rs", "Order room service", "action")]
add(D("w2019", "object_alone", "hotel", "en",
      "'taxi' is the object of only 'Book a taxi'. 'reception' is shared by Call and Message reception: ask.",
      [T("taxi please", hotel, X("taxi")),
       T("reception", hotel, CL("call", "msg"))]))

tel = [C("pause", "Pause mobile data", "action"), C("upg", "Upgrade plan", "action", "from €25/month", True),
       C("bill", "View bill", "action"), C("roam", "Buy roaming pass", "action", "7 days · €9.99", True)]
add(D("w2020", "object_alone", "telecom", "en",
      "'my bill' = View bill. 'roaming pass' alone names only Buy roaming pass, but it is RISK_HIGH and the label was not said whole: confirm; 'ok go ahead' executes.",
      [T("my bill", tel, X("bill")),
       T("roaming pass", tel, CL("roam")),
       T("ok go ahead", [tel[3]], X("roam"), asked=CF)]))

vet = [C("afspr", "Afspraak maken", "action"), C("recept", "Herhaalrecept aanvragen", "action"),
       C("vacc", "Vaccinatieboekje bekijken", "action"), C("bel", "Praktijk bellen", "action")]
add(D("w2021", "object_alone", "vet", "nl",
      "'herhaalrecept voor Max' is het object van alleen 'Herhaalrecept aanvragen'; 'het vaccinatieboekje' alleen van 'Vaccinatieboekje bekijken'.",
      [T("herhaalrecept voor Max", vet, X("recept")),
       T("en dan het vaccinatieboekje", vet, X("vacc"))]))

# ================================================================ 8. distinguishing_word_plus_kind
meet = [C("sync", "Team sync", "meeting", "Mon 10:00"), C("budget", "Budget review", "meeting", "Tue 14:00"),
        C("priya", "1:1 with Priya", "meeting", "Wed 09:30"), C("plan", "Quarterly planning", "meeting", "Thu 11:00"),
        C("design", "Design review", "meeting", "Fri 15:00")]
add(D("w2022", "distinguishing_word_plus_kind", "calendar", "en",
      "'review' fits both Budget review and Design review ('meeting' is just the kind of every option): ask. 'the budget meeting' = distinguishing word + kind word.",
      [T("open the review meeting", meet, CL("budget", "design")),
       T("the budget meeting", [meet[1], meet[4]], X("budget"), asked=CH)]))

add(D("w2023", "distinguishing_word_plus_kind", "shopping", "es",
      "'la camiseta negra': 'negra' distingue, 'camiseta' es el tipo de todas. Luego cierra con gracias sin nada pendiente: cancel.",
      [T("quiero la camiseta negra",
         [C("bl", "Camiseta básica blanca", "product", "12,99 €"),
          C("ng", "Camiseta básica negra", "product", "12,99 €"),
          C("az", "Camiseta estampada azul", "product", "16,99 €")], X("ng")),
       T("gracias, nada más",
         [C("cart", "Ver carrito", "action"), C("more", "Seguir comprando", "action")], E("cancel"))]))

# ================================================================ 9. correction_after_execute
lights = [C("liv", "Living room lights", "light"), C("kit", "Kitchen lights", "light"), C("bed", "Bedroom lights", "light")]
add(D("w2024", "correction_after_execute", "smart_home", "en",
      "Living room lights executed as asked, then the user says it was the wrong one and names the bedroom: first execute REJECTED, bedroom executed.",
      [T("living room lights on", lights, X("liv"), rejected=True),
       T("oops sorry, wrong one, I meant the bedroom", lights, X("bed"))]))

ride = [C("std", "Standard", "ride", "4 Min · 14 €"), C("komf", "Komfort", "ride", "6 Min · 19 €"),
        C("van", "Van (6 Plätze)", "ride", "9 Min · 26 €")]
add(D("w2025", "correction_after_execute", "rideshare", "de",
      "Standard ausgeführt; 'falsche Auswahl' ohne Namen: die anderen beiden anbieten. 'den Van' entscheidet. Erste Ausführung REJECTED.",
      [T("Standard", ride, X("std"), rejected=True),
       T("Mist, falsche Auswahl", ride, CL("komf", "van")),
       T("den Van, wir sind zu fünft", [ride[1], ride[2]], X("van"), asked=CH)]))

# ================================================================ 10. self_correcting_reply
thai = [C("pad", "Pad thai", "dish", "£10.50"), C("curry", "Green curry", "dish", "£11.00"),
        C("soup", "Tom yum soup", "dish", "£7.50"), C("rolls", "Spring rolls", "dish", "£5.00")]
add(D("w2026", "self_correcting_reply", "food_delivery", "en",
      "'pad thai, no wait, green curry': the last choice stands. Then the user starts adding spring rolls and takes it back with nothing in its place: abandon (cancel).",
      [T("pad thai — no wait, make it the green curry", thai, X("curry")),
       T("and spring rolls... hmm, no, forget it", thai, E("cancel"))]))

park = [C("h1", "1 hour", "parking", "£2.50", True), C("h2", "2 hours", "parking", "£4.80", True),
        C("day", "All day", "parking", "£12.00", True)]
add(D("w2027", "self_correcting_reply", "parking", "en",
      "'two hours — actually no, all day': last choice stands, and 'all day' says the RISK_HIGH label whole, so execute. Then 'no reminder... wait, yes, remind me' ends on the reminder.",
      [T("two hours — actually no, make it all day", park, X("day")),
       T("no reminder... wait, yes, remind me",
         [C("rem", "Remind me 15 min before expiry", "reminder"), C("norem", "No reminder", "reminder")], X("rem"))]))

shows = [C("s18", "Spettacolo 18:00", "showtime", "Sala 2"), C("s20", "Spettacolo 20:30", "showtime", "Sala 2"),
         C("s22", "Spettacolo 22:15", "showtime", "Sala 4")]
paga = C("paga", "Conferma e paga", "checkout", "2 biglietti · 19,00 €", True)
add(D("w2028", "self_correcting_reply", "cinema", "it",
      "'le 20:30, anzi no, le 22:15': vale l'ultima. Poi 'cambia posti... no dai, paga pure': l'ultima scelta è pagare, RISK_HIGH senza l'etichetta intera: chiedere conferma; 'sì' esegue.",
      [T("le 20:30, anzi no, le 22:15", shows, X("s22")),
       T("cambia posti... no dai, va bene così, paga pure", [paga, C("posti", "Cambia posti", "action")], CL("paga")),
       T("sì", [paga], X("paga"), asked=CF)]))

# ================================================================ 11. closing_after_execute
add(D("w2029", "closing_after_execute", "pharmacy", "en",
      "'refill my inhaler' = Refill Ventolin inhaler. Then thanks / that's all with nothing pending: cancel.",
      [T("refill my inhaler please",
         [C("vent", "Refill Ventolin inhaler", "prescription", "100 mcg"),
          C("sert", "Refill Sertraline 50 mg", "prescription"),
          C("msg", "Message the pharmacist", "action")], X("vent")),
       T("perfect, thanks, that's all",
         [C("track", "Track order", "action"), C("remind", "Set refill reminder", "action")], E("cancel"))]))

add(D("w2030", "closing_after_execute", "flights", "en",
      "'the quarter to one flight' = 12:45. Then the app asks about insurance; 'no thanks, that's everything' says no to the pending offer: declined, not a plain close.",
      [T("the quarter to one flight",
         [C("a", "AF1234 · 07:10", "flight", "Paris CDG → Nice"),
          C("b", "AF1240 · 12:45", "flight", "Paris CDG → Nice"),
          C("c", "AF1250 · 18:30", "flight", "Paris CDG → Nice")], X("b"), asked=CH),
       T("no thanks, that's everything",
         [C("ins", "Add cancellation insurance", "extra", "€12.00", True)], E("declined"), asked=CF)]))

# ================================================================ 12. ack_then_new_request
astoria = lambda: [C("book", "Book Hotel Astoria · 2 nights", "booking", "€240 total", True)]
add(D("w2031", "ack_then_new_request", "hotel", "en",
      "'ok, is breakfast included?' acknowledges and asks instead of confirming: question_intent. 'sure, book it' is the yes.",
      [T("ok, is breakfast included?", astoria(), E("question_intent"), asked=CF),
       T("sure, sounds good — book it", astoria(), X("book"), asked=CF)]))

groom = lambda: [C("groom", "Grooming for Bella · Sat 10:00", "appointment", "Wag & Wash")]
add(D("w2032", "ack_then_new_request", "pets", "en",
      "'okay — how long does it usually take?' is an acknowledgement plus a question, not a yes. 'alright, yes please' confirms.",
      [T("okay — how long does it usually take?", groom(), E("question_intent"), asked=CF),
       T("alright, yes please", groom(), X("groom"), asked=CF)]))

# ================================================================ 13. choice_with_question
films = [C("d18", "Dune: Part Two · 18:00", "showtime", "Screen 3"),
         C("d21", "Dune: Part Two · 21:15", "showtime", "Screen 1"),
         C("w19", "Wicked · 19:30", "showtime", "Screen 2")]
add(D("w2033", "choice_with_question", "cinema", "en",
      "First only a question (no choice): question_intent. Then a choice (Dune 21:15) plus a question: execute with follow_up question.",
      [T("is any of these in IMAX?", films, E("question_intent")),
       T("ok the 9:15 Dune, and can I bring my own snacks in?", films, X("d21", "question"))]))

add(D("w2034", "choice_with_question", "food_delivery", "en",
      "'Pepperoni please, and can you add extra cheese?' = choice + request. 'place order' says the RISK_HIGH label whole, plus a question: execute with follow_up question.",
      [T("Pepperoni please, and can you add extra cheese?",
         [C("haw", "Large Hawaiian", "pizza", "£13.00"), C("pep", "Medium Pepperoni", "pizza", "£11.50"),
          C("veg", "Veggie Supreme", "pizza", "£12.00")], X("pep", "request")),
       T("place order — how long will it take?",
         [C("order", "Place order", "checkout", "£14.50 incl. delivery", True),
          C("drink", "Add a drink", "extra")], X("order", "question"))]))

add(D("w2035", "choice_with_question", "telecom", "en",
      "'the Plus one — can I cancel it monthly?' = choice + question. Then yes to the confirmation plus 'email me the contract': execute with follow_up request.",
      [T("I'll go with the Plus one — can I cancel it monthly?",
         [C("basic", "Basic 20 GB", "plan", "£15/month"), C("plus", "Plus 50 GB", "plan", "£25/month"),
          C("unl", "Unlimited", "plan", "£40/month")], X("plus", "question")),
       T("yes, and email me the contract please",
         [C("sw", "Switch to Plus 50 GB", "plan_change", "£25/month from 1 July", True)], X("sw", "request"), asked=CF)]))

# ================================================================ 14. shorthand
mail = [C("reply", "Reply", "email_action"), C("all", "Reply all", "email_action"),
        C("fwd", "Forward", "email_action"), C("arch", "Archive", "email_action"),
        C("del", "Delete", "email_action", "cannot be recovered", True)]
inbox = [{"id": "inbox", "label": "Back to inbox", "phrases": ["back to inbox", "inbox", "go to inbox"]}]
add(D("w2036", "shorthand", "email", "en",
      "'fwd pls' = Forward. 'del' is Delete cut short, RISK_HIGH and not said whole: confirm. 'back to inbox' is a command phrase.",
      [T("fwd pls", mail, X("fwd")),
       T("del", mail, CL("del")),
       T("back to inbox", [mail[4]], E("command"), asked=CF, commands=inbox)]))

add(D("w2037", "shorthand", "healthcare", "en",
      "'tmrw mornin' = Tomorrow 09:00. 'thx!!' closes with nothing pending: cancel.",
      [T("tmrw mornin pls",
         [C("a", "Today 16:00", "slot", "Dr Patel · dental check-up"),
          C("b", "Tomorrow 09:00", "slot", "Dr Patel · dental check-up"),
          C("c", "Thursday 11:30", "slot", "Dr Patel · dental check-up")], X("b"), asked=CH),
       T("thx!!",
         [C("cal", "Add to calendar", "action"), C("dir", "Get directions", "action")], E("cancel"))]))

# ================================================================ 15. two_requests_in_order
home = [C("lock", "Lock front door", "device_action"), C("lights", "Turn off all lights", "device_action"),
        C("alarm", "Arm alarm", "device_action"), C("garage", "Close garage", "device_action")]
add(D("w2038", "two_requests_in_order", "smart_home", "en",
      "'lock the front door first, then turn off all the lights': execute the first with a request follow-up; next turn 'now the lights' executes the second.",
      [T("lock the front door first, then turn off all the lights", home, X("lock", "request")),
       T("now the lights", home, X("lights"))]))

trains = [C("t805", "08:05 → Manchester", "train", "2h 10m"), C("t840", "08:40 → Manchester", "train", "2h 05m"),
          C("t910", "09:10 → Manchester", "train", "2h 15m")]
add(D("w2039", "two_requests_in_order", "rail", "en",
      "'the 8:05 or the 8:40' is an alternative, not an order: ask between the two. '8:40' then decides.",
      [T("book the 8:05 or the 8:40", trains, CL("t805", "t840")),
       T("8:40, less of a rush", [trains[0], trains[1]], X("t840"), asked=CH)]))

checkout = C("co", "Checkout", "checkout", "£23.40", True)
add(D("w2040", "two_requests_in_order", "groceries", "en",
      "'semi-skimmed milk first, then check out': execute the milk with a request follow-up. 'pay now' is the RISK_HIGH Checkout, not said whole: confirm; 'yep' executes.",
      [T("put the semi-skimmed milk in first, then check out",
         [C("semi", "Semi-skimmed milk 2 pints", "product", "£1.45"),
          C("whole", "Whole milk 2 pints", "product", "£1.45"), checkout], X("semi", "request")),
       T("pay now please", [checkout, C("shop", "Keep shopping", "action")], CL("co")),
       T("yep", [checkout], X("co"), asked=CF)]))

SCORING = {
    "debatable": ["w2008#1", "w2009#2", "w2011#2", "w2026#2", "w2030#2", "w2025#2"],
    "knowledge": ["w2013#2"],
}

if __name__ == "__main__":
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in DIALOGUES:
            f.write(json.dumps(render(d), ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(DIALOGUES)} dialogues")
