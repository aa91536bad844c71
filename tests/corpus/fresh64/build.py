#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh64 blind set (written from BRIEF.md only)."""
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


def X(cid, follow=None):
    e = {"execute": cid}
    if follow:
        e["follow_up"] = follow
    return e


def Q(*ids):
    return {"clarify": list(ids)}


def E(reason):
    return {"escape": reason}


def T(text, cands, expect, asked=None, rejected=False, commands=None):
    return {"text": text, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


def D(did, category, domain, lang, note, turns):
    return {"id": did, "category": category, "domain": domain, "language": lang, "note": note, "turns": turns}


# ---------------------------------------------------------------- option sets reused inside a dialogue
HEAT = lambda room: [C("a", "Lower 1 °C", "setpoint_change", room), C("b", "Lower 2 °C", "setpoint_change", room),
                     C("c", "Raise 1 °C", "setpoint_change", room), C("d", "Raise 2 °C", "setpoint_change", room)]
BUS = [C("a", "Línea 24", "linea_bus", "Hospital General"), C("b", "Línea 3", "linea_bus", "Estación Norte"),
       C("c", "Línea 1", "linea_bus", "Playa de la Malvarrosa")]
FERRY = [C("a", "Seconda classe", "sistemazione", "poltrona reclinabile"),
         C("b", "Prima classe", "sistemazione", "cabina doppia"),
         C("c", "Passaggio ponte", "sistemazione", "posto libero sul ponte")]
BAKERY = [C("a", "Croissant", "product", "£1.80 each"), C("b", "Croissants – box of 6", "product", "£9.00"),
          C("c", "Pain au chocolat", "product", "£2.10 each")]
CINEMA = [C("a", "Adult", "ticket", "£11.50"), C("b", "Child (under 15)", "ticket", "£7.50"),
          C("c", "Family ticket", "ticket", "2 adults + 2 children, £32.00")]
DOOR = [C("a", "Chime on", "doorbell_action"), C("b", "Do not disturb (1 h)", "doorbell_action"),
        C("c", "Talk to visitor", "doorbell_action"), C("d", "Open gate", "doorbell_action", risk=True)]
PHOTO = [C("a", "Add to album", "photo_action"), C("b", "Share link", "photo_action"),
         C("c", "Rotate 90°", "photo_action"), C("d", "Move to Bin", "photo_action", "kept 30 days"),
         C("e", "Delete forever", "photo_action", risk=True)]
VET = [C("a", "Mon 09:00", "slot", "Dr Okafor"), C("b", "Mon 14:30", "slot", "Dr Okafor"),
       C("c", "Tue 09:00", "slot", "Dr Okafor"), C("d", "Tue 14:30", "slot", "Dr Okafor")]
TOPUP = [C(k, f"Top up £{v}", "top_up", risk=True) for k, v in (("a", 5), ("b", 10), ("c", 20), ("d", 50))]
THEATER = [C("a", "Vrijdag 7 maart", "voorstelling", "20:00"), C("b", "Zaterdag 8 maart", "voorstelling", "20:00"),
           C("c", "Zaterdag 8 maart", "voorstelling", "14:30 (matinee)")]
LIB = [C("a", "Renew ‘The Overstory’", "library_action", "due 14 May"),
       C("b", "Renew ‘Piranesi’", "library_action", "due 14 May"),
       C("c", "Pay fine (£1.20)", "library_action", risk=True),
       C("d", "Place hold on ‘Circe’", "library_action", "3 people ahead")]
YOGA = [C("a", "Vinyasa Flow", "class", "Wed 7:00 am"), C("b", "Yin Yoga", "class", "Wed 7:00 pm"),
        C("c", "Power Yoga", "class", "Thu 6:00 pm")]
SKI = [C("a", "Pacchetto Base", "pacchetto", "sci + bastoncini, 25 €/giorno"),
       C("b", "Pacchetto Premium", "pacchetto", "sci + scarponi + casco, 39 €/giorno"),
       C("c", "Pacchetto Junior", "pacchetto", "fino a 12 anni, 18 €/giorno")]
DESK = [C("a", "Hot desk", "space", "2nd floor, by the window"), C("b", "Quiet room", "space", "3rd floor, seats 4"),
        C("c", "Phone booth", "space", "2nd floor")]
RADIO = [C("a", "BBC Radio 4", "station"), C("b", "BBC Radio 3", "station"), C("c", "BBC Radio 4 Extra", "station")]
BLINDS = [C("a", "Living room blinds down", "blind_action"), C("b", "Bedroom blinds down", "blind_action"),
          C("c", "All blinds down", "blind_action")]
GYM = [C("a", "Spinning", "clase", "18:00, sala 2"), C("b", "Pilates", "clase", "19:00, sala 1"),
       C("c", "Zumba", "clase", "20:00, sala 2")]
WASTE = [C("a", "Book bulky waste pickup", "council_service"), C("b", "Order a new bin", "council_service"),
         C("c", "Report missed collection", "council_service")]
PRINT = [C("a", "Print double-sided", "print_job"), C("b", "Print single-sided", "print_job"),
         C("c", "Scan to email", "print_job"), C("d", "Staple", "print_job")]
OVEN = [C("a", "Bake 180 °C", "oven_mode"), C("b", "Grill", "oven_mode"), C("c", "Defrost", "oven_mode"),
        C("d", "Timer", "oven_mode")]
REMIND = [C("a", "Remind me tonight", "reminder", "8:00 pm"), C("b", "Remind me tomorrow", "reminder", "9:00 am"),
          C("c", "Remind me next week", "reminder", "Mon 9:00 am")]
MILK = [C("a", "Hafermilch 1 l", "ersatzartikel", "1,49 €"), C("b", "Hafermilch Barista 1 l", "ersatzartikel", "2,29 €"),
        C("c", "Mandelmilch 1 l", "ersatzartikel", "2,49 €")]


def pick(opts, *ids):
    return [c for i in ids for c in opts if c["id"] == i]


MAP_CMD = [{"id": "show_map", "label": "Show map", "phrases": ["show map", "show me the map", "map"]}]
BASKET_CMD = [{"id": "view_basket", "label": "View basket", "phrases": ["view basket", "show my basket", "show me my basket"]}]

DIALOGUES = [
    # ---------------------------------------------------------------- 1 signed_numbers
    D("r001", "signed_numbers", "heating", "en",
      "'+2' is an offset matching 'Raise 2 °C', not list position 2 ('Lower 2 °C'); '-1 or -2' is an open choice.",
      [T("+2 in here please, it's freezing", HEAT("Living room, now 18 °C"), X("d")),
       T("kids' room is roasting, -1 or -2, not sure which", HEAT("Kids' room, now 23 °C"), Q("a", "b")),
       T("just the one degree", pick(HEAT("Kids' room, now 23 °C"), "a", "b"), X("a"), asked="ASKED_CHOICE")]),
    D("r002", "signed_numbers", "parking", "en",
      "'-1' is a basement level, not the first row (Level 2) nor Level 1; second turn uses a command.",
      [T("take me to -1", [C("a", "Level 2", "parking_level", "14 free"), C("b", "Level -1", "parking_level", "3 free"),
                            C("c", "Level 1", "parking_level", "22 free"), C("d", "Level -2", "parking_level", "full")],
         X("b")),
       T("show me the map", [C("a", "Spot 12", "parking_spot"), C("b", "Spot 15", "parking_spot", "EV charger"),
                             C("c", "Spot 31", "parking_spot")], E("command"), commands=MAP_CMD)]),
    D("r003", "signed_numbers", "city_bus", "es",
      "'el 1' is the bus line number (Línea 1, listed third), not the first row; two lines named on the way back are asked.",
      [T("Quiero coger el 1", BUS, X("c")),
       T("Para volver, el 24 o el 3, no sé cuál me conviene", BUS, Q("a", "b"))]),

    # ---------------------------------------------------------------- 2 changed_value_not_yes
    D("r004", "changed_value_not_yes", "dentist", "en",
      "A different date inside a 'yes' is a change; the re-offered slot is then accepted with the date said in words.",
      [T("Yes please — but the 13th, if you can", [C("a", "Check-up & clean", "appointment", "Thu 12 June, 9:00")],
         E("declined"), asked="ASKED_CONFIRMATION"),
       T("Friday the thirteenth at nine, perfect", [C("b", "Check-up & clean", "appointment", "Fri 13 June, 9:00")],
         X("b"), asked="ASKED_CONFIRMATION")]),
    D("r005", "changed_value_not_yes", "money_transfer", "en",
      "Same amount in words confirms a RISK_HIGH transfer; 'fourteen' against £40 is a change even after 'yep'.",
      [T("yes, two hundred and fifty", [C("a", "Send £250.00 to Priya Shah", "transfer", "from Everyday account", risk=True)],
         X("a"), asked="ASKED_CONFIRMATION"),
       T("yep, fourteen quid", [C("b", "Send £40.00 to Tom Reilly", "transfer", "from Everyday account", risk=True)],
         E("declined"), asked="ASKED_CONFIRMATION")]),
    D("r006", "changed_value_not_yes", "hair_salon", "fr",
      "'Oui, mais à 16 h' against 14 h is a change; '16 h' said as 'quatre heures de l'après-midi' is a yes.",
      [T("Oui, mais plutôt à 16 h", [C("a", "Coupe + brushing", "rendez-vous", "samedi 14 h 00")],
         E("declined"), asked="ASKED_CONFIRMATION"),
       T("Parfait, samedi à quatre heures de l'après-midi", [C("b", "Coupe + brushing", "rendez-vous", "samedi 16 h 00")],
         X("b"), asked="ASKED_CONFIRMATION")]),

    # ---------------------------------------------------------------- 3 ordinal_word_in_labels
    D("r007", "ordinal_word_in_labels", "train_tickets", "en",
      "'first class' names the label, not row 1; 'the last one' fits both the 'Last train' label and the last row.",
      [T("first class, I'm treating myself", [C("a", "Second class", "fare", "£34"), C("b", "First class", "fare", "£61")],
         X("b")),
       T("the last one", [C("a", "Next train", "departure", "14:52, platform 4"),
                          C("b", "Last train", "departure", "23:10, platform 2"),
                          C("c", "Slow train", "departure", "17:30 via Derby")], Q("b", "c")),
       T("the 23:10", [C("b", "Last train", "departure", "23:10, platform 2"),
                       C("c", "Slow train", "departure", "17:30 via Derby")], X("b"), asked="ASKED_CHOICE")]),
    D("r008", "ordinal_word_in_labels", "bookshop", "en",
      "'the second one' = row 2 (First Person Singular) or the title with 'Second' in it; asked.",
      [T("the second one", [C("a", "The Second Mountain", "book", "David Brooks"),
                            C("b", "First Person Singular", "book", "Haruki Murakami"),
                            C("c", "The Last Tycoon", "book", "F. Scott Fitzgerald")], Q("a", "b")),
       T("the Murakami", [C("a", "The Second Mountain", "book", "David Brooks"),
                          C("b", "First Person Singular", "book", "Haruki Murakami")], X("b"), asked="ASKED_CHOICE")]),
    D("r009", "ordinal_word_in_labels", "ferry", "it",
      "'prima classe' names the label (row 2); 'la seconda' alone is row 2 (Prima) or Seconda classe (row 1): asked.",
      [T("Prima classe, grazie", FERRY, X("b")),
       T("Per il ritorno la seconda", FERRY, Q("a", "b")),
       T("La poltrona va benissimo", pick(FERRY, "a", "b"), X("a"), asked="ASKED_CHOICE")]),

    # ---------------------------------------------------------------- 4 quantity_noun
    D("r010", "quantity_noun", "bakery", "en",
      "'2 croissants' is two of the single croissant, not the box of 6; then a command.",
      [T("2 croissants please", BAKERY, X("a")),
       T("show me my basket", BAKERY, E("command"), commands=BASKET_CMD)]),
    D("r011", "quantity_noun", "cinema", "en",
      "'2 adults' picks the Adult ticket, not the family ticket that mentions 2 adults; then a question.",
      [T("2 adults", CINEMA, X("a")),
       T("would the family ticket work out cheaper for us?", CINEMA, E("question_intent"))]),
    D("r012", "quantity_noun", "pharmacy", "pt",
      "'Dez máscaras' is ten single masks, not the box of 50; then a plain add of the gel.",
      [T("Dez máscaras, por favor", [C("a", "Máscara cirúrgica", "produto", "0,50 € / unidade"),
                                      C("b", "Máscaras cirúrgicas – caixa de 50", "produto", "19,90 €"),
                                      C("c", "Álcool gel 500 ml", "produto", "4,20 €")], X("a")),
       T("E também um álcool gel", [C("a", "Máscara cirúrgica", "produto", "0,50 € / unidade"),
                                    C("b", "Máscaras cirúrgicas – caixa de 50", "produto", "19,90 €"),
                                    C("c", "Álcool gel 500 ml", "produto", "4,20 €")], X("c"))]),

    # ---------------------------------------------------------------- 5 everyday_verb
    D("r013", "everyday_verb", "doorbell", "en",
      "'speak to them' = Talk to visitor; 'let them in' = Open gate, RISK_HIGH and not named, so confirmed first.",
      [T("I'll speak to them", DOOR, X("c")),
       T("ok, let them in", DOOR, Q("d")),
       T("yep", pick(DOOR, "d"), X("d"), asked="ASKED_CONFIRMATION")]),
    D("r014", "everyday_verb", "photos", "en",
      "'send it to my sister' = Share link; 'get rid of it' fits Bin and Delete forever: asked.",
      [T("send this one to my sister", PHOTO, X("b")),
       T("this one's blurry, get rid of it", PHOTO, Q("d", "e")),
       T("just bin it", pick(PHOTO, "d", "e"), X("d"), asked="ASKED_CHOICE")]),
    D("r015", "everyday_verb", "washing_machine", "de",
      "'erst heute Nacht laufen lassen' = Startzeit verschieben; 'kurz anhalten' = Pausieren, not the RISK_HIGH abort.",
      [T("Lass sie erst heute Nacht laufen", [C("a", "Nur Schleudern", "aktion"), C("b", "Startzeit verschieben", "aktion"),
                                              C("c", "Pausieren", "aktion"),
                                              C("d", "Programm abbrechen", "aktion", risk=True)], X("b")),
       T("Die läuft schon – kurz anhalten, ich hab noch eine Socke gefunden",
         [C("a", "Nur Schleudern", "aktion"), C("c", "Pausieren", "aktion", "läuft: Baumwolle 40°, noch 1:12 h"),
          C("d", "Programm abbrechen", "aktion", risk=True)], X("c"))]),

    # ---------------------------------------------------------------- 6 value_other_way
    D("r016", "value_other_way", "vet", "en",
      "Two part-of-day spans fit two slots (asked); 'half two on Monday' = Mon 14:30.",
      [T("Monday afternoon or Tuesday morning", VET, Q("b", "c")),
       T("half two on Monday", pick(VET, "b", "c"), X("b"), asked="ASKED_CHOICE")]),
    D("r017", "value_other_way", "phone_top_up", "en",
      "'a tenner' = £10, but top-ups are RISK_HIGH and the label is not said, so confirmed first.",
      [T("stick a tenner on my phone", TOPUP, Q("b")),
       T("yes, ten pounds", pick(TOPUP, "b"), X("b"), asked="ASKED_CONFIRMATION")]),
    D("r018", "value_other_way", "theatre", "nl",
      "'zaterdag' fits two shows (asked); \"'s avonds om acht uur\" = 20:00.",
      [T("Zaterdag graag", THEATER, Q("b", "c")),
       T("'s Avonds om acht uur", pick(THEATER, "b", "c"), X("b"), asked="ASKED_CHOICE")]),

    # ---------------------------------------------------------------- 7 object_alone
    D("r019", "object_alone", "library", "en",
      "'Circe' is the object of one label only; 'the fine' is the object of a RISK_HIGH payment: confirmed first.",
      [T("Circe", LIB, X("d")),
       T("the fine", pick(LIB, "a", "b", "c"), Q("c")),
       T("go on then", pick(LIB, "c"), X("c"), asked="ASKED_CONFIRMATION")]),
    D("r020", "object_alone", "garden", "en",
      "'the tomatoes' is unique; 'the greenhouse' is the object of two actions: asked.",
      [T("the tomatoes", [C("a", "Water the tomatoes", "garden_action", "8 min"),
                          C("b", "Water the lawn", "garden_action", "20 min"),
                          C("c", "Turn on garden lights", "garden_action"),
                          C("d", "Open the side gate", "garden_action")], X("a")),
       T("the greenhouse", [C("a", "Water the greenhouse", "garden_action", "5 min"),
                            C("b", "Vent the greenhouse", "garden_action", "open roof windows"),
                            C("c", "Turn on garden lights", "garden_action")], Q("a", "b"))]),

    # ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
    D("r021", "distinguishing_word_plus_kind", "yoga", "en",
      "'the yin class' = one word plus the kind; 'the evening class' fits two; 'Thursday' settles it.",
      [T("the yin class", YOGA, X("b")),
       T("next week, the evening class", YOGA, Q("b", "c")),
       T("Thursday", pick(YOGA, "b", "c"), X("c"), asked="ASKED_CHOICE")]),
    D("r022", "distinguishing_word_plus_kind", "ski_rental", "it",
      "'il pacchetto premium' = distinguishing word + kind word shared by all; then a question.",
      [T("Il pacchetto premium", SKI, X("b")),
       T("C'è anche un pacchetto con gli occhiali da sole?", SKI, E("question_intent"))]),

    # ---------------------------------------------------------------- 9 correction_after_execute
    D("r023", "correction_after_execute", "coworking", "en",
      "'a desk' executes Hot desk; the user then says it was wrong and names the phone booth.",
      [T("grab me a desk for the afternoon", DESK, X("a"), rejected=True),
       T("ugh, wrong one — I need the phone booth, I've got a call at 3", DESK, X("c"))]),
    D("r024", "correction_after_execute", "radio", "en",
      "After 'Radio 4' is rejected, 'not that one' leaves two stations: asked; 'Extra' settles it.",
      [T("Radio 4", RADIO, X("a"), rejected=True),
       T("no, not that one", RADIO, Q("b", "c")),
       T("Extra", pick(RADIO, "b", "c"), X("c"), asked="ASKED_CHOICE")]),
    D("r025", "correction_after_execute", "blinds", "en",
      "Living room executed, then corrected to bedroom; closing thanks with nothing pending.",
      [T("living room down", BLINDS, X("a"), rejected=True),
       T("oops — bedroom, not living room", BLINDS, X("b")),
       T("that's it, thanks", BLINDS, E("cancel"))]),

    # ---------------------------------------------------------------- 10 self_correcting_reply
    D("r026", "self_correcting_reply", "laundry", "en",
      "Last choice stands (ironing); second message picks today then abandons the pickup altogether.",
      [T("wash and fold — no, actually just the ironing", [C("a", "Wash & fold", "laundry_service", "up to 5 kg"),
                                                           C("b", "Dry cleaning", "laundry_service", "priced per item"),
                                                           C("c", "Ironing only", "laundry_service", "up to 10 shirts")],
         X("c")),
       T("today — oh wait, I'm out tonight. Forget it, I'll drop the bag in myself",
         [C("a", "Pickup today", "pickup_slot", "6–8 pm"), C("b", "Pickup tomorrow", "pickup_slot", "8–10 am")],
         E("cancel"))]),
    D("r027", "self_correcting_reply", "dog_grooming", "en",
      "Full groom taken back for nail trim; 'pay now' (RISK_HIGH) taken back for pay at pickup.",
      [T("full groom for Biscuit — sorry, no, just his nails this time",
         [C("a", "Bath & brush", "grooming", "£25"), C("b", "Full groom", "grooming", "£45"),
          C("c", "Nail trim", "grooming", "£12")], X("c")),
       T("pay now… actually no, at pickup's easier",
         [C("a", "Pay now", "payment", "£12.00 by card", risk=True), C("b", "Pay at pickup", "payment")], X("b"))]),
    D("r028", "self_correcting_reply", "gym", "es",
      "Spinning taken back for zumba; next day two classes left open: asked.",
      [T("Apúntame a spinning… no, espera, mejor a zumba", GYM, X("c")),
       T("Mañana pilates o spinning, aún no lo tengo claro", GYM, Q("a", "b"))]),

    # ---------------------------------------------------------------- 11 closing_after_execute
    D("r029", "closing_after_execute", "tailor", "en",
      "'shorten the legs' = Hem trousers; thanks with only optional add-ons shown = cancel.",
      [T("shorten the legs please, they're dragging on the floor",
         [C("a", "Hem trousers", "alteration", "£12"), C("b", "Take in waist", "alteration", "£18"),
          C("c", "Replace zip", "alteration", "£15")], X("a")),
       T("brilliant, that's everything, cheers",
         [C("a", "Express (next day)", "add_on", "+£8"), C("b", "Press after alteration", "add_on", "+£4")],
         E("cancel"))]),
    D("r030", "closing_after_execute", "waste_collection", "en",
      "Everyday description executes the report; thanks followed by a question is a question, then plain thanks closes.",
      [T("they never emptied my bin this week", WASTE, X("c")),
       T("thanks, that's all — oh, when's glass day again?", WASTE, E("question_intent")),
       T("great, cheers", WASTE, E("cancel"))]),

    # ---------------------------------------------------------------- 12 ack_then_new_request
    D("r031", "ack_then_new_request", "plumber", "en",
      "'ok' + a question is not a yes to the RISK_HIGH booking; 'book it' on the re-asked confirmation is.",
      [T("ok — do they charge extra for parts?",
         [C("a", "Book plumber visit", "booking", "Wed 8:00–12:00, £65 call-out", risk=True)],
         E("question_intent"), asked="ASKED_CONFIRMATION"),
       T("right, book it", [C("a", "Book plumber visit", "booking", "Wed 8:00–12:00, £65 call-out", risk=True)],
         X("a"), asked="ASKED_CONFIRMATION")]),
    D("r032", "ack_then_new_request", "car_service", "en",
      "'Okay.' + a new ask is not a yes; then an explicit no.",
      [T("Okay. Could you have a look at the wiper blades as well?",
         [C("a", "Add wheel alignment", "extra", "£45")], E("question_intent"), asked="ASKED_CONFIRMATION"),
       T("no, skip the alignment", [C("a", "Add wheel alignment", "extra", "£45")], E("declined"),
         asked="ASKED_CONFIRMATION")]),
    D("r033", "ack_then_new_request", "moving_van", "en",
      "'Got it.' + a question about boxes is not a yes; then a clear yes.",
      [T("Got it. Do you rent out moving boxes too?",
         [C("a", "Book 3.5 t van", "booking", "Sat 9:00–17:00, £89", risk=True)],
         E("question_intent"), asked="ASKED_CONFIRMATION"),
       T("yes, go ahead and book it", [C("a", "Book 3.5 t van", "booking", "Sat 9:00–17:00, £89", risk=True)],
         X("a"), asked="ASKED_CONFIRMATION")]),

    # ---------------------------------------------------------------- 13 choice_with_question
    D("r034", "choice_with_question", "campsite", "en",
      "Choice by sublabel word + question; count + question.",
      [T("the riverside one — does it get any shade in the afternoon?",
         [C("a", "Pitch 14", "pitch", "riverside, electric hook-up"), C("b", "Pitch 22", "pitch", "woodland"),
          C("c", "Pitch 31", "pitch", "next to the showers")], X("a", "question")),
       T("3 nights, and can we bring our dog?",
         [C("a", "2 nights", "stay"), C("b", "3 nights", "stay"), C("c", "1 week", "stay")], X("b", "question"))]),
    D("r035", "choice_with_question", "mobile_plan", "en",
      "Choice of a RISK_HIGH option not named whole, with a question: confirmed first; then a question, then a no.",
      [T("I want out of my contract — how much is the fee, though?",
         [C("a", "Unlimited 5G", "plan", "£25/month"), C("b", "20 GB", "plan", "£15/month"),
          C("c", "Terminate contract", "plan", "early termination fee applies", risk=True)], Q("c")),
       T("hang on, how much is it first?",
         [C("c", "Terminate contract", "plan", "early termination fee applies", risk=True)],
         E("question_intent"), asked="ASKED_CONFIRMATION"),
       T("forget it, I'll stay where I am",
         [C("c", "Terminate contract", "plan", "early termination fee: £84", risk=True)],
         E("declined"), asked="ASKED_CONFIRMATION")]),
    D("r036", "choice_with_question", "museum", "fr",
      "Choice + question; then choice + request for something more.",
      [T("La visite de 15 h — on peut payer par carte ?",
         [C("a", "Audioguide en français", "prestation"), C("b", "Audioguide en anglais", "prestation"),
          C("c", "Visite guidée de 15 h", "prestation", "durée 1 h 30")], X("c", "question")),
       T("Le réduit, et ajoutez aussi un audioguide en anglais pour mon amie",
         [C("a", "Plein tarif", "tarif", "14 €"), C("b", "Tarif réduit", "tarif", "9 € (étudiants, moins de 26 ans)")],
         X("b", "request"))]),

    # ---------------------------------------------------------------- 14 shorthand
    D("r037", "shorthand", "reminders", "en",
      "Texted 'tmrw or nxt wk idk' leaves two: asked; 'tmrw' picks one.",
      [T("tmrw or nxt wk idk", REMIND, Q("b", "c")),
       T("tmrw", pick(REMIND, "b", "c"), X("b"), asked="ASKED_CHOICE")]),
    D("r038", "shorthand", "grocery", "de",
      "'Di abends' = Dienstag 18–20 Uhr; 'Hafer' fits two oat milks: asked; 'die normale' = the plain one.",
      [T("Di abends", [C("a", "Montag, 8–10 Uhr", "lieferfenster"), C("b", "Dienstag, 18–20 Uhr", "lieferfenster"),
                       C("c", "Abholung im Markt", "lieferfenster", "ab Montag 12 Uhr")], X("b")),
       T("Hafer", MILK, Q("a", "b")),
       T("die normale", pick(MILK, "a", "b"), X("a"), asked="ASKED_CHOICE")]),

    # ---------------------------------------------------------------- 15 two_requests_in_order
    D("r039", "two_requests_in_order", "print_shop", "en",
      "'X first, then Y' executes X with a request follow-up; Y is then done on its own.",
      [T("scan it to email first, then print it double-sided", PRINT, X("c", "request")),
       T("now the double-sided print", PRINT, X("a"))]),
    D("r040", "two_requests_in_order", "oven", "en",
      "'grill or bake' are alternatives: asked; 'bake first, then grill' executes bake with a request follow-up.",
      [T("grill or bake, not sure which for these potatoes", OVEN, Q("a", "b")),
       T("bake at 180 first, then grill the tops for the last five minutes", pick(OVEN, "a", "b"),
         X("a", "request"), asked="ASKED_CHOICE")]),
]

SCORING = {
    "debatable": ["r008#1", "r014#1", "r035#1", "r032#1"],
    "knowledge": ["r017#1"],
}


def render(d):
    turns = []
    nxt = d["turns"][1:] + [None]
    for n, (t, after) in enumerate(zip(d["turns"], nxt), 1):
        opts = {"optionSetId": f"{d['id']}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
        if t["asked"]:
            opts["asked"] = t["asked"]
        out = {"input": t["input"] if "input" in t else t["text"],
               "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
               "options": opts}
        if t["commands"]:
            out["commands"] = t["commands"]
        out["expect"] = t["expect"]
        if "execute" in t["expect"]:
            out["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if t["rejected"] else "OUTCOME_KIND_EXECUTED",
                                     "choiceId": t["expect"]["execute"]}
        turns.append(out)
    return {"id": d["id"], "category": d["category"], "domain": d["domain"], "language": d["language"],
            "note": d["note"], "dialogue": turns}


def main():
    ids = [d["id"] for d in DIALOGUES]
    assert ids == [f"r{i:03d}" for i in range(1, 41)], ids
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in DIALOGUES:
            f.write(json.dumps(render(d), ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
