#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh67 blind test set.

Written blind from BRIEF.md: every expectation below is what a careful human
assistant would do with the screen and message, not what any program does.
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


def ex(cid, fu=None):
    e = {"execute": cid}
    if fu:
        e["follow_up"] = fu
    return e


def cl(*ids):
    return {"clarify": list(ids)}


def es(reason):
    return {"escape": reason}


def T(inp, cands, expect, asked=None, rejected=False, commands=None):
    return {"input": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


def D(did, cat, domain, lang, note, turns):
    out = []
    for n, t in enumerate(turns, 1):
        opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
        if t["asked"]:
            opts["asked"] = t["asked"]
        turn = {"input": t["input"],
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
    return {"id": did, "category": cat, "domain": domain, "language": lang, "note": note, "dialogue": out}


CONF = "ASKED_CONFIRMATION"
CHOICE = "ASKED_CHOICE"
DIALOGUES = []
add = DIALOGUES.append

# ---------------------------------------------------------------- 1 signed_numbers
thermo = lambda now: [
    C("a", "Lower 2°C", "thermostat_step", f"living room, now {now}"),
    C("b", "Lower 1°C", "thermostat_step", f"living room, now {now}"),
    C("c", "Raise 1°C", "thermostat_step", f"living room, now {now}"),
    C("d", "Raise 2°C", "thermostat_step", f"living room, now {now}"),
]
add(D("u001", "signed_numbers", "smart_home", "en",
      "'+2' and '-1' are temperature offsets (Raise 2°C / Lower 1°C), not list positions 2 and 1.",
      [T("+2 pls its freezing in here", thermo("19°C"), ex("d")),
       T("ok now its a sauna lol, -1", thermo("21°C"), ex("b"))]))

add(D("u002", "signed_numbers", "calendar", "de",
      "'+2h' is an offset of two hours (16:00), not the second option (+1 Std).",
      [T("+2h bitte, vorher schaff ich das echt nicht",
         [C("a", "30 Min. später (14:30)", "Verschiebung", "Teamrunde, aktuell 14:00"),
          C("b", "1 Std. später (15:00)", "Verschiebung", "Teamrunde, aktuell 14:00"),
          C("c", "2 Std. später (16:00)", "Verschiebung", "Teamrunde, aktuell 14:00"),
          C("d", "Auf morgen verschieben", "Verschiebung", "Teamrunde, aktuell 14:00")],
         ex("c")),
       T("ja passt",
         [C("a", "Alle 6 Teilnehmer benachrichtigen", "Benachrichtigung")],
         ex("a"), asked=CONF)]))

add(D("u003", "signed_numbers", "transit", "en",
      "'bus 1' is a line code (the 08:20 Bus 1), not position 1 (Bus 12); then a question with '-50%' in it chooses nothing.",
      [T("bus 1 pls, not in a rush",
         [C("a", "Bus 12 → Central", "departure", "08:04, stop B"),
          C("b", "Bus 3 → Central", "departure", "08:10, stop A"),
          C("c", "Tram 2 → Central", "departure", "08:12, stop C"),
          C("d", "Bus 1 → Central", "departure", "08:20, stop A")],
         ex("d")),
       T("do u have like a -50% one for students??",
         [C("a", "Single – $2.50", "ticket"),
          C("b", "Day pass – $7.00", "ticket"),
          C("c", "10-ride card – $22.00", "ticket")],
         es("question_intent"))]))

# ---------------------------------------------------------------- 2 changed_value_not_yes
add(D("u004", "changed_value_not_yes", "restaurant", "en",
      "'yeah but half 8' changes the 7:30pm time on a confirmation: not a yes; the re-offered 8:30pm slot is then confirmed.",
      [T("yeah but can we do half 8 instead of 7:30, my train gets in late",
         [C("a", "Pay £40 deposit – table for 4, Fri 7:30pm", "reservation", "Osteria Lupa", risk=True)],
         es("declined"), asked=CONF),
       T("yes thats the one",
         [C("a", "Pay £40 deposit – table for 4, Fri 8:30pm", "reservation", "Osteria Lupa", risk=True)],
         ex("a"), asked=CONF)]))

add(D("u005", "changed_value_not_yes", "banking", "en",
      "'twelve hundred' is the same $1,200 in words (yes); '350' on a $300 transfer is a change, not a yes.",
      [T("yes, twelve hundred",
         [C("a", "Send $1,200.00 to Savings ••4471", "transfer", risk=True)],
         ex("a"), asked=CONF),
       T("make it 350 she paid for the concert tickets too",
         [C("a", "Send $300.00 to Dani Park", "transfer", "note: dinner split", risk=True)],
         es("declined"), asked=CONF)]))

add(D("u006", "changed_value_not_yes", "flights", "es",
      "Another weekday (miércoles 15) on a Tuesday confirmation is a change; later 'diez menos veinte' equals 09:40 and is a yes.",
      [T("mejor el miércoles 15, el martes no puedo",
         [C("a", "Cambiar al vuelo IB3166 – mar 14 may, 09:40", "cambio de vuelo",
            "Cargo por cambio: 45 €", risk=True)],
         es("declined"), asked=CONF),
       T("sí, el miércoles a las diez menos veinte, perfecto",
         [C("a", "Cambiar al vuelo IB3166 – mié 15 may, 09:40", "cambio de vuelo",
            "Cargo por cambio: 45 €", risk=True)],
         ex("a"), asked=CONF)]))

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
fares = [C("a", "Second class – £39", "fare", "Leeds → London, 07:05"),
         C("b", "First class – £69", "fare", "Leeds → London, 07:05"),
         C("c", "Second class, flexible – £52", "fare", "Leeds → London, 07:05")]
add(D("u007", "ordinal_word_in_labels", "train", "en",
      "'first' alone can be position 1 (Second class) or the First class fare: ask; then 'first class' decides.",
      [T("first pls", fares, cl("a", "b")),
       T("first class obv, work is paying lol", fares[:2], ex("b"), asked=CHOICE)]))

add(D("u008", "ordinal_word_in_labels", "cinema", "fr",
      "'la dernière séance' names the label 'Dernière séance', not the last item in the list (18h30 is listed last).",
      [T("on prend la dernière séance, les petits dorment chez mamie",
         [C("a", "Dernière séance – 22h40", "séance", "VOST"),
          C("b", "Séance de 20h15", "séance", "VF"),
          C("c", "Séance de 18h30", "séance", "VF")],
         ex("a")),
       T("étudiant pour moi",
         [C("a", "Plein tarif – 11,90 €", "tarif"),
          C("b", "Étudiant – 7,50 €", "tarif"),
          C("c", "Moins de 14 ans – 5,00 €", "tarif")],
         ex("b"))]))

add(D("u009", "ordinal_word_in_labels", "shop", "en",
      "'second hand' names the Second-hand condition (listed third), not the second item (New); then a question.",
      [T("the second hand one pls, its for my nephew he'll drop it anyway",
         [C("a", "Refurbished – $210", "condition", "Pixel 7, 128 GB"),
          C("b", "New – $299", "condition", "Pixel 7, 128 GB"),
          C("c", "Second-hand – $180", "condition", "Pixel 7, 128 GB")],
         ex("c")),
       T("does it come with a charger tho",
         [C("a", "Add to cart", "cart_action"),
          C("b", "Add case – $15", "cart_action"),
          C("c", "Back to conditions", "cart_action")],
         es("question_intent"))]))

# ---------------------------------------------------------------- 4 quantity_noun
pizzas = [C("a", "Margherita – €9", "pizza"),
          C("b", "Margherita Party Box (3 pizzas + 2 drinks) – €29", "pizza"),
          C("c", "Diavola – €11", "pizza")]
add(D("u010", "quantity_noun", "food_delivery", "en",
      "'2 margheritas' is two of the Margherita, not the Party Box whose label says more; 'one diavola' likewise.",
      [T("2 margheritas", pizzas, ex("a")),
       T("and one diavola for me", pizzas, ex("c"))]))

sub2tb = C("b", "Subscribe to 2 TB – $9.99/mo", "plan", "billed monthly, cancel anytime", risk=True)
add(D("u011", "quantity_noun", "cloud_storage", "en",
      "'2 tb' names the plain 2 TB plan, not the 2 TB + VPN + family bundle; a question on the paid confirmation is not a yes, 'yep go' is.",
      [T("2 tb is plenty, i just need my photos backed up",
         [C("a", "1 TB – $1.99/mo", "plan"),
          C("b", "2 TB – $9.99/mo", "plan"),
          C("c", "2 TB + VPN + 5 family seats – $14.99/mo", "plan")],
         ex("b")),
       T("wait does that one have the vpn thing too?", [sub2tb], es("question_intent"), asked=CONF),
       T("ok dont need vpn anyway. yep go", [sub2tb], ex("b"), asked=CONF)]))

# ---------------------------------------------------------------- 5 everyday_verb
add(D("u012", "everyday_verb", "gym", "en",
      "'put on hold' is the everyday verb for Freeze membership (not Cancel); thanks closes.",
      [T("need to put my membership on hold for 2 months, going backpacking",
         [C("a", "Freeze membership", "membership_action", "1–3 months, €5/month"),
          C("b", "Cancel membership", "membership_action", "30 days notice", risk=True),
          C("c", "Change home club", "membership_action")],
         ex("a")),
       T("perfect thanks!",
         [C("a", "View freeze details", "membership_action"),
          C("b", "Back to account", "membership_action")],
         es("cancel"))]))

kick = C("a", "Remove Dave from group", "member_action", "Climbing crew 🧗", risk=True)
add(D("u013", "everyday_verb", "messaging", "en",
      "'kick out' means Remove, which is RISK_HIGH and not said whole: confirm first, then yes executes.",
      [T("kick dave out hes spamming crypto links again",
         [kick, C("b", "Mute Dave", "member_action", "Climbing crew 🧗"),
          C("c", "Make Dave admin", "member_action", "Climbing crew 🧗")],
         cl("a")),
       T("yes do it", [kick], ex("a"), asked=CONF)]))

player = [C("a", "Brano successivo", "comando"),
          C("b", "Ripeti brano", "comando"),
          C("c", "Aggiungi ai preferiti", "comando")]
add(D("u014", "everyday_verb", "music", "it",
      "'salta' (skip) means Brano successivo; 'salvamela' (save it) means Aggiungi ai preferiti.",
      [T("salta sta canzone che non la sopporto più", player, ex("a")),
       T("questa invece salvamela, è bellissima", player, ex("c"))]))

# ---------------------------------------------------------------- 6 value_other_way
add(D("u015", "value_other_way", "vet", "en",
      "'the 12th at 15:00' is Thu 12 Sep 3:00 PM in another form; then '2nd round of shots' is Vaccination, not item 2.",
      [T("the 12th at 15:00 works for us",
         [C("a", "Thu 12 Sep · 9:00 AM", "slot", "Dr. Okoye"),
          C("b", "Thu 12 Sep · 3:00 PM", "slot", "Dr. Okoye"),
          C("c", "Fri 13 Sep · 3:00 PM", "slot", "Dr. Okoye")],
         ex("b")),
       T("its his 2nd round of puppy shots",
         [C("a", "Vaccination", "visit_reason"),
          C("b", "Check-up", "visit_reason"),
          C("c", "Something else", "visit_reason")],
         ex("a"))]))

add(D("u016", "value_other_way", "hairdresser", "pt",
      "'às três e meia' is the 15h30 slot written in words; then a question about an add-on chooses nothing.",
      [T("pode ser às três e meia entao",
         [C("a", "Corte – sáb 14h00", "horário", "com a Jéssica"),
          C("b", "Corte – sáb 15h30", "horário", "com a Jéssica"),
          C("c", "Corte – sáb 17h00", "horário", "com a Jéssica")],
         ex("b")),
       T("quanto tempo leva a hidratação? tenho q sair umas 17h",
         [C("a", "Adicionar escova – R$ 40", "extra"),
          C("b", "Adicionar hidratação – R$ 60", "extra"),
          C("c", "Finalizar agendamento", "extra")],
         es("question_intent"))]))

add(D("u017", "value_other_way", "clothing", "nl",
      "'medium' is Maat M; 'dinsdagavond' is the Tuesday 18:00–22:00 window.",
      [T("medium graag, de L viel vorige keer veel te groot",
         [C("a", "Maat S", "maat"), C("b", "Maat M", "maat"),
          C("c", "Maat L", "maat"), C("d", "Maat XL", "maat")],
         ex("b")),
       T("dinsdagavond is prima, dan ben ik thuis",
         [C("a", "Di 8 okt · 08:00–12:00", "bezorgmoment"),
          C("b", "Di 8 okt · 18:00–22:00", "bezorgmoment"),
          C("c", "Wo 9 okt · 18:00–22:00", "bezorgmoment")],
         ex("b"))]))

# ---------------------------------------------------------------- 7 object_alone
files = [C("a", "Rename Q3_report.pdf", "file_action"),
         C("b", "Share Holiday photos", "file_action", "folder · 214 items"),
         C("c", "Delete old_backup.zip", "file_action", "4.2 GB", risk=True)]
add(D("u018", "object_alone", "files", "en",
      "Object alone picks Share Holiday photos; object alone of a RISK_HIGH delete must be confirmed before it runs.",
      [T("holiday photos", files, ex("b")),
       T("and get rid of the old backup zip while ur at it", files, cl("c")),
       T("yes delete it", [files[2]], ex("c"), asked=CONF)]))

loans = [C("a", "Renew 'The Overstory'", "loan", "due Mar 3"),
         C("b", "Reserve 'Tomorrow, and Tomorrow, and Tomorrow'", "loan", "3 holds ahead"),
         C("c", "Renew 'Piranesi'", "loan", "due Mar 1")]
add(D("u019", "object_alone", "library", "en",
      "Only the book title, each unique on screen: renew Piranesi, then renew The Overstory.",
      [T("piranesi", loans, ex("c")),
       T("and the overstory too pls", loans, ex("a"))]))

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
mixes = [C("a", "Chill Mix", "playlist"), C("b", "Workout Mix", "playlist"),
         C("c", "Focus Mix", "playlist"), C("d", "Release Radar", "playlist")]
add(D("u020", "distinguishing_word_plus_kind", "music", "en",
      "'the mix' fits three playlists: ask; then 'workout' + kind word 'playlist' picks Workout Mix.",
      [T("put on the mix", mixes, cl("a", "b", "c")),
       T("the workout playlist, leg day", mixes[:3], ex("b"), asked=CHOICE)]))

add(D("u021", "distinguishing_word_plus_kind", "banking", "de",
      "'Tagesgeldkonto' = distinguishing word Tagesgeld + kind word Konto; then a question.",
      [T("zeig mal das tagesgeldkonto",
         [C("a", "Girokonto", "Konto", "DE12 •••• 4410"),
          C("b", "Tagesgeld", "Konto", "DE98 •••• 7720"),
          C("c", "Depot", "Konto", "DE31 •••• 0935")],
         ex("b")),
       T("was krieg ich da grad an zinsen?",
         [C("a", "Umsätze anzeigen", "Aktion"),
          C("b", "Geld einzahlen", "Aktion"),
          C("c", "Auf Girokonto übertragen", "Aktion")],
         es("question_intent"))]))

# ---------------------------------------------------------------- 9 correction_after_execute
rides = [C("a", "Standard", "ride", "4 min · €12"),
         C("b", "Comfort", "ride", "6 min · €16"),
         C("c", "XL", "ride", "9 min · €21")]
add(D("u022", "correction_after_execute", "ride_hailing", "en",
      "Standard executed, then the user says it was wrong and names XL.",
      [T("standard", rides, ex("a"), rejected=True),
       T("no wait XL, forgot theres 5 of us + bags", rides, ex("c"))]))

bowls = [C("a", "Bowl de pollo teriyaki", "plato", "12,50 €"),
         C("b", "Bowl vegano de tofu", "plato", "11,00 €"),
         C("c", "Bowl de salmón", "plato", "13,90 €")]
add(D("u023", "correction_after_execute", "food_delivery", "es",
      "Chicken bowl executed, then 'me equivoqué, el vegano' names the bowl meant.",
      [T("el de pollo", bowls, ex("a"), rejected=True),
       T("uy no, me equivoqué, el vegano que es para mi hermana", bowls, ex("b"))]))

rooms = [C("a", "Double room – €120", "room", "queen bed"),
         C("b", "Twin room – €115", "room", "2 single beds"),
         C("c", "Double room with balcony – €140", "room", "queen bed, sea side")]
add(D("u024", "correction_after_execute", "hotel", "en",
      "Twin executed and rejected, but the correction ('one big bed') fits both doubles: ask, then balcony decides.",
      [T("twin pls", rooms, ex("b"), rejected=True),
       T("argh no not the twin, we need one big bed", rooms, cl("a", "c")),
       T("the balcony one", [rooms[0], rooms[2]], ex("c"), asked=CHOICE)]))

# ---------------------------------------------------------------- 10 self_correcting_reply
cancel_order = C("b", "Cancel order", "order_action", "#88213 · 2 items", risk=True)
add(D("u025", "self_correcting_reply", "shop", "en",
      "'track it.. no actually cancel it': the last choice stands, but Cancel order is RISK_HIGH and not said whole, so confirm.",
      [T("track it.. ugh no actually cancel it, found it cheaper somewhere else",
         [C("a", "Change delivery address", "order_action", "#88213 · 2 items"), cancel_order,
          C("c", "Track parcel", "order_action", "#88213 · 2 items")],
         cl("b")),
       T("yes cancel the order", [cancel_order], ex("b"), asked=CONF)]))

add(D("u026", "self_correcting_reply", "train", "de",
      "'den um 8:12... nee, doch den um 9:12' — the later pick stands; then yes to the purchase confirmation.",
      [T("den um 8:12... nee warte, doch lieber den um 9:12, sonst muss ich so früh raus",
         [C("a", "RE 4512 · 08:12 → 09:03", "Verbindung", "Gleis 3"),
          C("b", "ICE 598 · 08:40 → 09:18", "Verbindung", "Gleis 7"),
          C("c", "RE 4514 · 09:12 → 10:03", "Verbindung", "Gleis 3")],
         ex("c")),
       T("ja, kaufen",
         [C("a", "Ticket kaufen – 14,90 €", "Kauf", "RE 4514, 2. Klasse", risk=True)],
         ex("a"), asked=CONF)]))

add(D("u027", "self_correcting_reply", "coffee", "en",
      "'large... no, medium' — medium stands; then 'oat' is the oat milk option.",
      [T("large... hmm no make it medium, already had way too much coffee today",
         [C("a", "Small latte – $3.80", "drink"), C("b", "Medium latte – $4.40", "drink"),
          C("c", "Large latte – $4.90", "drink")],
         ex("b")),
       T("oat",
         [C("a", "Whole milk", "milk"), C("b", "Oat milk +$0.60", "milk"), C("c", "Skim milk", "milk")],
         ex("b"))]))

# ---------------------------------------------------------------- 11 closing_after_execute
park = [C("a", "Extend 30 min – $2", "parking_action", "Zone 14, ends 3:40pm"),
        C("b", "Extend 1 hour – $4", "parking_action", "Zone 14, ends 3:40pm"),
        C("c", "End parking now", "parking_action", "Zone 14, ends 3:40pm")]
park2 = [C("a", "Extend 30 min – $2", "parking_action", "Zone 14, ends 4:40pm"),
         C("b", "Extend 1 hour – $4", "parking_action", "Zone 14, ends 4:40pm"),
         C("c", "End parking now", "parking_action", "Zone 14, ends 4:40pm")]
add(D("u028", "closing_after_execute", "parking", "en",
      "Extend 1 hour, then 'thx! wait...' is a question (not a close), then 'thats everything, cheers' closes.",
      [T("add another hour pls, dentist is running late", park, ex("b")),
       T("thx! wait do i get a receipt for this somewhere", park2, es("question_intent")),
       T("ok great thats everything, cheers", park2, es("cancel"))]))

add(D("u029", "closing_after_execute", "pharmacy", "en",
      "Store pickup executed; 'great thank you so much' with nothing pending closes.",
      [T("i'll just grab it from the store later",
         [C("a", "Pick up in store", "fulfilment", "today after 5pm"),
          C("b", "Standard delivery", "fulfilment", "2–3 days"),
          C("c", "Express delivery", "fulfilment", "tomorrow, $6.99")],
         ex("a")),
       T("great thank you so much",
         [C("a", "View pickup details", "order_action"),
          C("b", "Add another prescription", "order_action")],
         es("cancel"))]))

# ---------------------------------------------------------------- 12 ack_then_new_request
bag = C("a", "Add checked bag (23 kg) – €35", "extra", "FR 2187, outbound", risk=True)
add(D("u030", "ack_then_new_request", "flights", "en",
      "'ok cool.' + a new question on a confirmation is not a yes; later 'ok fine add it' is.",
      [T("ok cool. whats the fee if i add it at the airport instead", [bag], es("question_intent"), asked=CONF),
       T("ok fine add it", [bag], ex("a"), asked=CONF)]))

add(D("u031", "ack_then_new_request", "garage", "fr",
      "'d'accord merci, et le samedi matin ?' acknowledges but asks something new: not a yes; then '9h' picks Samedi 9h00.",
      [T("d'accord merci, et le samedi matin vous avez quelque chose ?",
         [C("a", "Réserver vidange – mardi 10h00", "créneau", "Garage Martin, Clio IV")],
         es("question_intent"), asked=CONF),
       T("9h c'est parfait",
         [C("a", "Samedi 9h00", "créneau", "vidange"), C("b", "Samedi 11h30", "créneau", "vidange")],
         ex("a"), asked=CHOICE)]))

menu_cmd = [{"id": "main_menu", "label": "Main menu", "phrases": ["main menu", "back to menu", "start over"]}]
add(D("u032", "ack_then_new_request", "telecom", "en",
      "'alright.' then a turn command (main menu) on a plan-switch confirmation: command, not a yes.",
      [T("alright. take me back to the main menu",
         [C("a", "Switch to Unlimited plan – $45/mo", "plan_change", "from next billing cycle", risk=True)],
         es("command"), asked=CONF, commands=menu_cmd),
       T("roaming stuff, going to mexico next week",
         [C("a", "My plan", "menu"), C("b", "Billing", "menu"),
          C("c", "Roaming", "menu"), C("d", "Support", "menu")],
         ex("c"))]))

# ---------------------------------------------------------------- 13 choice_with_question
add(D("u033", "choice_with_question", "car_rental", "en",
      "Chooses the estate car and asks a question in the same message; then 'no extras' + continue picks Continue to payment, not an extra.",
      [T("the estate, can i take it across the border to switzerland?",
         [C("a", "Compact – VW Polo", "car", "€32/day"),
          C("b", "SUV – Kia Sportage", "car", "€55/day"),
          C("c", "Estate – Skoda Octavia", "car", "€41/day")],
         ex("c", "question")),
       T("cool ty. nah no extras, just continue to payment",
         [C("a", "Add child seat", "extra"), C("b", "Add second driver", "extra"),
          C("c", "Continue to payment", "extra")],
         ex("c"))]))

add(D("u034", "choice_with_question", "shipping", "en",
      "Chooses Express and asks for something more (invoice by email): execute with request follow-up; then yes to placing the order.",
      [T("express, and can u send the invoice to my work email not my personal one",
         [C("a", "Standard shipping", "shipping", "3–5 days, free"),
          C("b", "Express", "shipping", "tomorrow, $12"),
          C("c", "Click & collect", "shipping", "Elm St store")],
         ex("b", "request")),
       T("go ahead",
         [C("a", "Place order", "checkout", "$86.40 incl. Express", risk=True)],
         ex("a"), asked=CONF)]))

acct = [C("a", "Delete account permanently", "account_action", "cannot be undone", risk=True),
        C("b", "Deactivate account", "account_action", "reversible, log in to restore")]
add(D("u035", "choice_with_question", "account", "en",
      "'delete it i guess' + asking if it can be undone: RISK_HIGH not said whole and the question points at Deactivate, so ask between both.",
      [T("delete it i guess. can i get it back later if i change my mind?",
         acct + [C("c", "Download my data", "account_action")], cl("a", "b")),
       T("oh then deactivate, i might come back", acct, ex("b"), asked=CHOICE)]))

# ---------------------------------------------------------------- 14 shorthand
add(D("u036", "shorthand", "escape_room", "en",
      "'tmrw' is Tomorrow; '4 ppl' is 4 players.",
      [T("tmrw pls",
         [C("a", "Tonight · 8:00 pm", "slot", "The Lost Lab"),
          C("b", "Tomorrow · 8:00 pm", "slot", "The Lost Lab"),
          C("c", "Sat · 8:00 pm", "slot", "The Lost Lab")],
         ex("b")),
       T("4 ppl",
         [C("a", "2 players", "group_size"), C("b", "4 players", "group_size"),
          C("c", "6 players", "group_size")],
         ex("b"))]))

subs = [C("a", "Substitute with similar item", "item_action", "Oatly Barista 1L"),
        C("b", "Subscribe & save 10%", "item_action", "Oatly Barista 1L")]
add(D("u037", "shorthand", "grocery", "en",
      "'sub' is short for both Substitute and Subscribe: ask; then 'substitute' decides.",
      [T("sub pls", subs + [C("c", "Remove item", "item_action", "Oatly Barista 1L", risk=True)], cl("a", "b")),
       T("substitute, whatever's similar is fine", subs, ex("a"), asked=CHOICE)]))

draft = C("a", "Delete draft", "draft_action", "'Re: rent for march'", risk=True)
add(D("u038", "shorthand", "email", "en",
      "'del' is shorthand for the RISK_HIGH Delete draft: confirm first; texted 'ya' on the confirmation is a yes.",
      [T("del",
         [draft, C("b", "Send draft", "draft_action", "'Re: rent for march'"),
          C("c", "Edit draft", "draft_action", "'Re: rent for march'")],
         cl("a")),
       T("ya", [draft], ex("a"), asked=CONF)]))

# ---------------------------------------------------------------- 15 two_requests_in_order
photo = [C("a", "Crop", "photo_action"), C("b", "Auto-enhance", "photo_action"),
         C("c", "Share to Family album", "photo_action"),
         C("d", "Delete photo", "photo_action", risk=True)]
add(D("u039", "two_requests_in_order", "photos", "en",
      "'auto enhance it first, then share it' executes Auto-enhance with a request follow-up; the share comes next turn.",
      [T("auto enhance it first then share it to the family album, grandma wants to see",
         photo, ex("b", "request")),
       T("k now share it", photo, ex("c"))]))

add(D("u040", "two_requests_in_order", "food_delivery", "en",
      "'pad thai or the green curry' is an alternative, not a sequence: ask between both; then 'curry' picks Green curry.",
      [T("pad thai or the green curry, cant decide",
         [C("a", "Pad thai", "dish", "25 min · $14"),
          C("b", "Green curry", "dish", "25 min · $15"),
          C("c", "Massaman curry", "dish", "35 min · $16")],
         cl("a", "b")),
       T("ugh fine curry",
         [C("a", "Pad thai", "dish", "25 min · $14"), C("b", "Green curry", "dish", "25 min · $15")],
         ex("b"), asked=CHOICE)]))

SCORING = {
    # careful people could reasonably disagree here
    "debatable": ["u004#1",   # change request: declined vs question_intent
                  "u035#1",   # clarify [a] alone vs [a, b]
                  "u037#1"],  # in a grocery app 'sub' may lean to Substitute
    # needs world or language knowledge
    # (u004#1 also needs 'half 8' = 8:30; it is listed once, as debatable)
    "knowledge": ["u006#2",   # 'diez menos veinte' = 09:40
                  "u015#2"],  # 'puppy shots' = vaccination
}

with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
    for d in DIALOGUES:
        f.write(json.dumps(d, ensure_ascii=False) + "\n")
with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
    json.dump(SCORING, f, ensure_ascii=False, indent=1)
print(f"wrote {len(DIALOGUES)} dialogues")
