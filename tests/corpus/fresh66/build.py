#!/usr/bin/env python3
"""Builds the fresh66 blind test set: corpus.jsonl + scoring.json.

Written blind from BRIEF.md only; expectations are what a careful human
assistant would do with the screen and the message.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))


def C(id, label, kind, sub=None, risk=False):
    c = {"id": id, "label": label}
    if sub:
        c["sublabel"] = sub
    c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def T(inp, cands, expect, asked=None, rejected=False, commands=None):
    return {"inp": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


def EX(i, fu=None):
    e = {"execute": i}
    if fu:
        e["follow_up"] = fu
    return e


def CL(*ids):
    return {"clarify": list(ids)}


def ES(r):
    return {"escape": r}


CH, CO = "ASKED_CHOICE", "ASKED_CONFIRMATION"

D = []


def dlg(did, cat, dom, lang, note, turns):
    D.append((did, cat, dom, lang, note, turns))


# ---------------------------------------------------------------- 1 signed_numbers
heat = [C("a", "−2 °C", "adjustment"), C("b", "−1 °C", "adjustment"),
        C("c", "+1 °C", "adjustment"), C("d", "+2 °C", "adjustment")]
dlg("t001", "signed_numbers", "heating", "en",
    "'+2' is the +2 °C button, not the 2nd button (−1 °C); then a hold duration by its words",
    [T("+2 pls its freezing in here", heat, EX("d")),
     T("keep it like that till i change it, dont drop it again at midnight",
       [C("a", "Hold for 1 hour", "duration"), C("b", "Hold for 2 hours", "duration"),
        C("c", "Hold until I change it", "duration")], EX("c"))])

ship = [C("a", "Standard shipping", "shipping", "3–5 business days · free"),
        C("b", "Express shipping", "shipping", "1–2 business days · $9.99"),
        C("c", "Pick up in store", "shipping", "ready tomorrow")]
dlg("t002", "signed_numbers", "online-shop", "en",
    "a promo code ending in 2 is not option 2: it is a question about where to enter it; then a plain pick",
    [T("wheres the box for the discount code?? i have SPRING2 from the newsletter", ship, ES("question_intent")),
     T("ok found it. standard is fine then", ship, EX("a"))])

dlg("t003", "signed_numbers", "train", "de",
    "'IC 2' is a train number (3rd row), not row 2; '+4,90' is the surcharge on the seat button",
    [T("den IC 2 bitte, der ICE ist mir echt zu teuer",
       [C("a", "ICE 578", "train", "ab 08:14 · 49,90 €"), C("b", "ICE 1024", "train", "ab 08:31 · 39,90 €"),
        C("c", "IC 2", "train", "ab 08:40 · 24,60 €")], EX("c")),
     T("die +4,90 sind ok, reservier mal",
       [C("a", "Sitzplatz reservieren", "extra", "+4,90 €"), C("b", "Ohne Reservierung weiter", "extra"),
        C("c", "Jetzt kaufen · 24,60 €", "payment", risk=True)], EX("a"))])

# ---------------------------------------------------------------- 2 changed_value_not_yes
dlg("t004", "changed_value_not_yes", "restaurant", "en",
    "a different time in reply to a booking confirmation is a change (declined); the new time confirmed is a yes",
    [T("hmm can we do 8 instead? my sister gets off work late",
       [C("a", "Table for 4", "reservation", "Fri 24 May · 7:30 PM")], ES("declined"), asked=CO),
     T("yes 8 works!! thank youu",
       [C("a", "Table for 4", "reservation", "Fri 24 May · 8:00 PM")], EX("a"), asked=CO)])

dlg("t005", "changed_value_not_yes", "banking", "en",
    "a RISK_HIGH transfer confirmation answered with a smaller amount is not a yes; same amount in words is",
    [T("send two hundred not 250, he already paid me back some",
       [C("a", "Send $250.00 to Marco Ruiz", "transfer", risk=True)], ES("declined"), asked=CO),
     T("yep two hundred bucks, go ahead",
       [C("a", "Send $200.00 to Marco Ruiz", "transfer", risk=True)], EX("a"), asked=CO)])

dlg("t006", "changed_value_not_yes", "clinic", "es",
    "same weekday/time in words confirms the visit; a different reminder day and hour declines the reminder",
    [T("sí, el martes a las diez de la mañana me va perfecto",
       [C("a", "Cita con la Dra. Salas", "appointment", "martes 14 de mayo · 10:00")], EX("a"), asked=CO),
     T("mejor que me avise el mismo día a las 8, que si no se me olvida",
       [C("a", "Recordatorio por SMS", "reminder", "lunes 13 de mayo · 18:00")], ES("declined"), asked=CO)])

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
fares = [C("a", "Economy", "fare", "$189 · 1 checked bag"), C("b", "Premium Economy", "fare", "$340"),
         C("c", "First", "fare", "$1,120")]
dlg("t007", "ordinal_word_in_labels", "flights", "en",
    "'first' is both row 1 (Economy) and the fare named First: ask between them",
    [T("first pls", fares, CL("a", "c")),
     T("lol economy obviously im not made of money", [fares[0], fares[2]], EX("a"), asked=CH)])

dlg("t008", "ordinal_word_in_labels", "food-delivery", "en",
    "'second one, the burger' is row 2 despite a 'Second Helping' combo; 'the last one' vs a 'Last Call' shake is asked",
    [T("gimme the second one, the burger",
       [C("a", "Second Helping Combo", "menu_item", "double patty, fries, drink"),
        C("b", "Classic Burger", "menu_item"), C("c", "Veggie Wrap", "menu_item")], EX("b")),
     T("and the last one",
       [C("a", "Last Call Shake", "drink"), C("b", "Lemonade", "drink"), C("c", "Sparkling water", "drink")],
       CL("c", "a"))])

songs = [C("a", "Ultimo bacio", "song"), C("b", "Estate al mare", "song"), C("c", "La prima volta", "song")]
dlg("t009", "ordinal_word_in_labels", "music", "it",
    "'la prima' could be row 1 or the song 'La prima volta': ask; then the title settles it",
    [T("metti la prima", songs, CL("a", "c")),
     T("quella che si chiama la prima volta dai", [songs[0], songs[2]], EX("c"), asked=CH)])

# ---------------------------------------------------------------- 4 quantity_noun
dlg("t010", "quantity_noun", "bakery", "en",
    "'3 croissants' is the croissant item (x3), not the box whose label says 3 croissants + coffees",
    [T("3 croissants pls",
       [C("a", "Croissant", "product", "$2.80"), C("b", "Pain au chocolat", "product", "$3.20"),
        C("c", "Breakfast box", "product", "3 croissants + 2 coffees · $13.50")], EX("a")),
     T("8 is good",
       [C("a", "Pick up 7:30 AM", "slot"), C("b", "Pick up 8:00 AM", "slot"), C("c", "Pick up 8:30 AM", "slot")],
       EX("b"))])

pz = [C("a", "Large Margherita", "menu_item", "$14"), C("b", "Large Diavola", "menu_item", "$16"),
      C("c", "Pizza Night Deal", "menu_item", "2 large pizzas + 1.5L soda · $29")]
dlg("t011", "quantity_noun", "pizza", "en",
    "'2 large pizzas' names the pizza noun; two pizzas fit, the bundle with soda says more: ask between the pizzas",
    [T("2 large pizzas for tonight", pz, CL("a", "b")),
     T("both diavola, my bf cant handle anything less spicy lol", pz[:2], EX("b"), asked=CH)])

dlg("t012", "quantity_noun", "pet-shop", "fr",
    "'4 sachets de pâtée' is the single pouch item, not the 12-pouch bundle; then pickup by everyday wording",
    [T("4 sachets de pâtée svp, elle boude les croquettes en ce moment",
       [C("a", "Croquettes chat adulte 2 kg", "product", "14,90 €"),
        C("b", "Sachet pâtée saumon", "product", "0,95 €"),
        C("c", "Lot 12 sachets pâtée + 1 offert", "product", "11,40 €")], EX("b")),
     T("je passe les chercher demain en sortant du boulot",
       [C("a", "Livraison à domicile", "delivery", "2-3 jours"), C("b", "Retrait en magasin", "delivery", "dès demain")],
       EX("b"))])

# ---------------------------------------------------------------- 5 everyday_verb
dlg("t013", "everyday_verb", "messaging", "en",
    "'shut this group up' = Mute (not leave/delete); then a duration",
    [T("can u shut this group up for a while, theyre blowing up my phone at 2am",
       [C("a", "Mute conversation", "chat_action"), C("b", "Archive chat", "chat_action"),
        C("c", "Leave group", "chat_action", risk=True), C("d", "Delete chat", "chat_action", risk=True)], EX("a")),
     T("a week is fine",
       [C("a", "For 8 hours", "duration"), C("b", "For 1 week", "duration"), C("c", "Always", "duration")], EX("b"))])

gym = [C("a", "Freeze membership", "membership_action", "up to 3 months"),
       C("b", "Change plan", "membership_action"),
       C("c", "End membership", "membership_action", "effective end of billing cycle", risk=True)]
dlg("t014", "everyday_verb", "gym", "en",
    "'cancel my membership' means the RISK_HIGH End membership (not a cancel escape): confirm first",
    [T("i need to cancel my membership, moving abroad next month", gym, CL("c")),
     T("yes end it", [gym[2]], EX("c"), asked=CO)])

dlg("t015", "everyday_verb", "streaming", "pt",
    "'salva pra ver depois' = add to my list; 'manda pro meu irmão' = share",
    [T("salva esse aí pra eu ver depois",
       [C("a", "Adicionar à minha lista", "action"), C("b", "Assistir ao trailer", "action"),
        C("c", "Baixar episódio", "action")], EX("a")),
     T("manda pro meu irmão, ele vai curtir",
       [C("a", "Compartilhar", "action"), C("b", "Avaliar", "action"), C("c", "Remover da lista", "action")],
       EX("a"))])

# ---------------------------------------------------------------- 6 value_other_way
dlg("t016", "value_other_way", "hair-salon", "en",
    "'wed at 11' differs from the only Wed morning slot 11:30: confirm it; 'half eleven' then is the same value",
    [T("wed at 11?",
       [C("a", "Tue 14 May · 15:00", "slot"), C("b", "Wed 15 May · 11:30", "slot"),
        C("c", "Wed 15 May · 17:00", "slot")], CL("b")),
     T("half eleven works too ya", [C("b", "Wed 15 May · 11:30", "slot")], EX("b"), asked=CO)])

dlg("t017", "value_other_way", "parking", "nl",
    "'twee uurtjes' = '2 uur'; the amount said in words confirms the RISK_HIGH payment",
    [T("twee uurtjes graag",
       [C("a", "1 uur", "duration", "€ 2,40"), C("b", "2 uur", "duration", "€ 4,80"),
        C("c", "Hele dag", "duration", "€ 12,00")], EX("b")),
     T("ja hoor, vier tachtig klopt", [C("a", "Betaal € 4,80", "payment", risk=True)], EX("a"), asked=CO)])

dlg("t018", "value_other_way", "hotel", "en",
    "'friday to sunday' = 2 nights; 'around 2' fits neither late-checkout time: ask",
    [T("the double from friday to sunday",
       [C("a", "Double room · 2 nights", "room", "$360"), C("b", "Double room · 3 nights", "room", "$540"),
        C("c", "Suite · 2 nights", "room", "$640")], EX("a")),
     T("can we get late checkout like around 2",
       [C("a", "Late checkout · 1 PM", "extra", "$25"), C("b", "Late checkout · 3 PM", "extra", "$45")],
       CL("a", "b"))])

# ---------------------------------------------------------------- 7 object_alone
dlg("t019", "object_alone", "email", "en",
    "'the invoice' names one action's object; 'the draft' is the object of all three draft actions",
    [T("just the invoice",
       [C("a", "Download invoice PDF", "email_action"), C("b", "Forward to accountant", "email_action"),
        C("c", "Report as spam", "email_action")], EX("a")),
     T("the draft",
       [C("a", "Send draft to Lena", "draft_action"), C("b", "Discard draft", "draft_action", risk=True),
        C("c", "Save draft for later", "draft_action")], CL("a", "b", "c"))])

dlg("t020", "object_alone", "car", "en",
    "'trunk' alone opens the trunk; 'the doors' is shared by lock and (RISK_HIGH) unlock: ask",
    [T("trunk pls, hands are full",
       [C("a", "Start climate control", "car_action"), C("b", "Flash headlights", "car_action"),
        C("c", "Open trunk", "car_action")], EX("c")),
     T("the doors",
       [C("a", "Lock doors", "car_action"), C("b", "Unlock doors", "car_action", risk=True)], CL("a", "b"))])

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
files = [C("a", "Budget_2024_final.xlsx", "file"), C("b", "Budget_2024_draft.xlsx", "file"),
         C("c", "Budget_2023_final.xlsx", "file")]
dlg("t021", "distinguishing_word_plus_kind", "cloud-files", "en",
    "'final spreadsheet' fits two files: ask; '24' then tells them apart",
    [T("open the final spreadsheet", files, CL("a", "c")),
     T("the 24 one", [files[0], files[2]], EX("a"), asked=CH)])

buy = [C("a", "Add to cart", "purchase_action"), C("b", "Buy now · $89", "purchase_action", risk=True),
       C("c", "Save to wishlist", "purchase_action")]
dlg("t022", "distinguishing_word_plus_kind", "outdoor-shop", "en",
    "'the green backpack' = colour + kind; then 'just buy it' hits RISK_HIGH Buy now: confirm first",
    [T("the green backpack",
       [C("a", "Trailpack 30L – Forest Green", "backpack"), C("b", "Trailpack 30L – Slate Grey", "backpack"),
        C("c", "Trailpack 45L – Slate Grey", "backpack")], EX("a")),
     T("just buy it", buy, CL("b")),
     T("yes", [buy[1]], EX("b"), asked=CO)])

dlg("t023", "distinguishing_word_plus_kind", "office", "en",
    "'the alster room' = name + kind; then 'zoom link' for the video-call extra",
    [T("book the alster room pls",
       [C("a", "Elbe (8 seats)", "room"), C("b", "Alster (4 seats)", "room"), C("c", "Isar (12 seats)", "room")],
       EX("b")),
     T("and add a zoom link, half the team is remote",
       [C("a", "Add video call link", "extra"), C("b", "Order coffee for 4", "extra"), C("c", "Done", "extra")],
       EX("a"))])

# ---------------------------------------------------------------- 9 correction_after_execute
pl = [C("a", "Lo-fi Beats", "playlist"), C("b", "Lo-fi Morning", "playlist"), C("c", "Rainy Day Jazz", "playlist")]
dlg("t024", "correction_after_execute", "music", "en",
    "jazz was played, user says wrong one and names Lo-fi Morning",
    [T("play the jazz one", pl, EX("c"), rejected=True),
     T("ugh no not that, the morning lofi one", pl, EX("b"))])

rides = [C("a", "Standard", "ride", "4 min · $14"), C("b", "Comfort", "ride", "6 min · $19"),
         C("c", "XL", "ride", "9 min · $27")]
dlg("t025", "correction_after_execute", "ride-hailing", "en",
    "'no not that one' without naming the right one: ask between the others; then 'the big one' = XL",
    [T("standard", rides, EX("a"), rejected=True),
     T("no not that one sorry", rides, CL("b", "c")),
     T("the big one, theres 5 of us plus bags", rides[1:], EX("c"), asked=CH)])

bills = [C("a", "Ver boleto – luz", "bill"), C("b", "Ver boleto – água", "bill"), C("c", "Ver boleto – internet", "bill")]
dlg("t026", "correction_after_execute", "bills", "pt",
    "water bill opened, corrected to internet; then 'paga' on a RISK_HIGH pay button is confirmed first",
    [T("abre o da agua", bills, EX("b"), rejected=True),
     T("não, errei, é o da internet", bills, EX("c")),
     T("paga",
       [C("a", "Pagar agora · R$ 99,90", "payment", risk=True), C("b", "Copiar código de barras", "payment")],
       CL("a"))])

# ---------------------------------------------------------------- 10 self_correcting_reply
dlg("t027", "self_correcting_reply", "cinema", "en",
    "7pm then 9:15 -> 9:15 stands; row F then K -> K stands",
    [T("the 7pm one.. no wait 9:15, we're eating first",
       [C("a", "19:00 · Hall 2", "showtime"), C("b", "21:15 · Hall 5", "showtime"),
        C("c", "22:40 · Hall 1", "showtime")], EX("b")),
     T("F row... actually no further back is better, K",
       [C("a", "Row F · seats 7–8", "seats"), C("b", "Row K · seats 3–4", "seats"),
        C("c", "Row C · seats 10–11", "seats")], EX("b"))])

dlg("t028", "self_correcting_reply", "takeaway", "en",
    "lasagna taken back for salad; extra chicken taken back for none",
    [T("lasagna pls—ugh no, the salad, im supposed to be on a diet lol",
       [C("a", "Margherita pizza", "menu_item"), C("b", "Lasagna", "menu_item"), C("c", "Caesar salad", "menu_item")],
       EX("c")),
     T("extra chicken.. nah forget it, none",
       [C("a", "Add extra chicken · +$3", "extra"), C("b", "No extras", "extra")], EX("b"))])

mtg = [C("a", "Move to Thursday", "meeting_action"), C("b", "Move to next week", "meeting_action"),
       C("c", "Cancel meeting", "meeting_action", risk=True)]
dlg("t029", "self_correcting_reply", "calendar", "en",
    "last choice 'cancel the whole thing' stands but is RISK_HIGH without its label: confirm",
    [T("move it to thursday.. actually no just cancel the whole thing, nobody's coming anyway", mtg, CL("c")),
     T("yep kill it", [mtg[2]], EX("c"), asked=CO)])

# ---------------------------------------------------------------- 11 closing_after_execute
dlg("t030", "closing_after_execute", "pharmacy", "en",
    "refill executed; 'perfect thank u' with only post-order options shown closes the task",
    [T("the metformin refill pls",
       [C("a", "Refill Lisinopril 10 mg", "prescription"), C("b", "Refill Metformin 500 mg", "prescription")],
       EX("b")),
     T("perfect thank u!!", [C("a", "Track order", "order_action"), C("b", "View receipt", "order_action")],
       ES("cancel"))])

dlg("t031", "closing_after_execute", "concerts", "en",
    "'thanks! oh can u email them' is a new request, not a close; 'thats all ty' then closes",
    [T("standing", [C("a", "Standing", "ticket", "$65"), C("b", "Seated balcony", "ticket", "$90")], EX("a")),
     T("thanks! oh can u email them to me too",
       [C("a", "Email my tickets", "ticket_action"), C("b", "Add to Apple Wallet", "ticket_action"),
        C("c", "Buy parking pass · $20", "ticket_action", risk=True)], EX("a")),
     T("perfect thats all, ty",
       [C("a", "Add to Apple Wallet", "ticket_action"), C("b", "Buy parking pass · $20", "ticket_action", risk=True)],
       ES("cancel"))])

# ---------------------------------------------------------------- 12 ack_then_new_request
appt = [C("a", "Dr. Patel", "appointment", "Tue 21 May · 9:00 AM")]
dlg("t032", "ack_then_new_request", "doctor", "en",
    "'ok cool, does she do saturdays' is a question, not a yes; then 'tuesday it is' is a yes",
    [T("ok cool, does she do saturdays tho?", appt, ES("question_intent"), asked=CO),
     T("ah ok. tuesday it is then", appt, EX("a"), asked=CO)])

car = [C("a", "Renault Clio · 3 jours", "rental", "126 €")]
dlg("t033", "ack_then_new_request", "car-rental", "fr",
    "'d'accord, mais ... boîte auto ?' asks instead of confirming; next turn confirms",
    [T("d'accord, mais elle est en boîte auto ou manuelle ?", car, ES("question_intent"), asked=CO),
     T("ok manuelle ça me va, on la prend", car, EX("a"), asked=CO)])

# ---------------------------------------------------------------- 13 choice_with_question
dlg("t034", "choice_with_question", "resort", "en",
    "choice + breakfast question; then a choice with a reason (no follow-up)",
    [T("garden view pls, does that include breakfast?",
       [C("a", "Ocean view room", "room", "$210/night"), C("b", "Garden view room", "room", "$165/night")],
       EX("b", "question")),
     T("standard check-in, we land at 2 anyway",
       [C("a", "Early check-in from 11 AM", "extra", "$30"), C("b", "Standard check-in 3 PM", "extra")],
       EX("b"))])

dlg("t035", "choice_with_question", "grocery", "de",
    "slot + doorbell request; pay-on-delivery + card question (RISK_HIGH pay-now not chosen)",
    [T("morgen früh bitte und bitte klingeln statt anrufen, mein handy is eh immer auf lautlos",
       [C("a", "Lieferung heute 18–20 Uhr", "delivery_slot"), C("b", "Lieferung morgen 8–10 Uhr", "delivery_slot"),
        C("c", "Abholung im Markt", "delivery_slot")], EX("b", "request")),
     T("bei lieferung, geht das auch mit karte an der tür?",
       [C("a", "Jetzt bezahlen · 64,30 €", "payment", risk=True), C("b", "Bei Lieferung bezahlen", "payment")],
       EX("b", "question"))])

groom = [C("a", "Full groom", "service", "$65"), C("b", "Bath & brush", "service", "$40"),
         C("c", "Nail trim", "service", "$15")]
dlg("t036", "choice_with_question", "pet-grooming", "en",
    "a question comparing two services chooses nothing; then a choice + extra request",
    [T("whats the diff between full groom and bath n brush? shes a doodle if that matters", groom,
       ES("question_intent")),
     T("ok full groom then, and can u put a bandana on her if u have any", groom, EX("a", "request"))])

# ---------------------------------------------------------------- 14 shorthand
dlg("t037", "shorthand", "reminders", "en",
    "'tmrw' = tomorrow; 'mornin' = the 8 AM slot",
    [T("tmrw",
       [C("a", "Remind me in 10 minutes", "reminder"), C("b", "Remind me tomorrow", "reminder"),
        C("c", "Remind me next week", "reminder")], EX("b")),
     T("mornin pls b4 work",
       [C("a", "Tomorrow 8:00 AM", "time"), C("b", "Tomorrow 12:00 PM", "time"), C("c", "Tomorrow 6:00 PM", "time")],
       EX("a"))])

dep = [C("a", "Deploy to staging", "pipeline_action"), C("b", "Deploy to production", "pipeline_action", risk=True),
       C("c", "Roll back last release", "pipeline_action", risk=True)]
logs = [{"id": "show_logs", "label": "Show logs", "phrases": ["show logs", "view logs", "logs"]}]
dlg("t038", "shorthand", "devops", "en",
    "'prod' is RISK_HIGH production without the whole label: confirm; 'show logs' is a command; full label executes",
    [T("ship it to prod", dep, CL("b")),
     T("hold on, show logs first", [dep[1]], ES("command"), asked=CO, commands=logs),
     T("looks clean. yes, deploy to production", [dep[1]], EX("b"), asked=CO)])

# ---------------------------------------------------------------- 15 two_requests_in_order
dlg("t039", "two_requests_in_order", "laundry", "en",
    "'wash first n then the dryer' executes the washer with a request follow-up",
    [T("start the wash first n then the dryer when its done",
       [C("a", "Start washer", "appliance_action"), C("b", "Start dryer", "appliance_action"),
        C("c", "Schedule for later", "appliance_action")], EX("a", "request")),
     T("schedule the dryer for after",
       [C("a", "Notify me when done", "appliance_action"), C("b", "Schedule dryer after wash", "appliance_action"),
        C("c", "Start dryer now", "appliance_action")], EX("b"))])

mail = [C("a", "Responder", "email_action"), C("b", "Reenviar", "email_action"), C("c", "Archivar", "email_action")]
dlg("t040", "two_requests_in_order", "email", "es",
    "'respóndele o reenvíaselo' is an alternative: ask; then 'reenvíalo y después archívalo' = forward + request",
    [T("respóndele o reenvíaselo a Dana, lo que sea más rápido", mail, CL("a", "b")),
     T("reenvíalo y después archívalo porfa", mail[:2], EX("b", "request"), asked=CH)])

DEBATABLE = ["t007#1", "t008#2", "t011#1", "t018#2", "t025#2"]
KNOWLEDGE = ["t018#1"]


def build():
    out = []
    for did, cat, dom, lang, note, turns in D:
        dl = []
        for n, t in enumerate(turns, 1):
            o = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
            if t["asked"]:
                o["asked"] = t["asked"]
            tt = {"input": t["inp"], "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{dom}"},
                  "options": o}
            if t["commands"]:
                tt["commands"] = t["commands"]
            tt["expect"] = t["expect"]
            if "execute" in t["expect"]:
                tt["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                                        "choiceId": t["expect"]["execute"]}
            dl.append(tt)
        out.append({"id": did, "category": cat, "domain": dom, "language": lang, "note": note, "dialogue": dl})
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump({"debatable": DEBATABLE, "knowledge": KNOWLEDGE}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
