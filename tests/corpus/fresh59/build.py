#!/usr/bin/env python3
"""Builds corpus.jsonl and scoring.json for the fresh59 blind test set.

Written blind from BRIEF.md only. Every expectation is what a careful human
assistant would do with the screen and the message, not what any program does.
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


def X(id, fu=None, rejected=False):
    e = {"execute": id}
    if fu:
        e["follow_up"] = fu
    return ("x", e, rejected)


def Q(*ids):
    return ("c", {"clarify": list(ids)}, False)


def ESC(reason):
    return ("e", {"escape": reason}, False)


def T(text, cands, exp, asked=None, commands=None):
    return {"text": text, "cands": cands, "exp": exp, "asked": asked, "commands": commands}


DIALOGUES = []


def D(id, cat, domain, lang, note, *turns):
    DIALOGUES.append({"id": id, "cat": cat, "domain": domain, "lang": lang, "note": note, "turns": turns})


CH, CF = "ASKED_CHOICE", "ASKED_CONFIRMATION"

# ---------------------------------------------------------------- 1 signed_numbers
D("k001", "signed_numbers", "world_clock", "en",
  "'+2' is the UTC offset of Athens (3rd in the list), not position 2 (Berlin). Then a no to the home-zone question.",
  T("the +2 one", [C("a", "London", "time_zone", "UTC+0"), C("b", "Berlin", "time_zone", "UTC+1"),
                   C("c", "Athens", "time_zone", "UTC+2"), C("d", "Dubai", "time_zone", "UTC+4")],
    X("c"), CH),
  T("nah keep london as home, just want the extra clock",
    [C("a", "Make Athens your home time zone", "setting")], ESC("declined"), CF),
)

D("k002", "signed_numbers", "parking", "en",
  "'-1' is the garage level -1 (3rd item), not item 1 (Level 2). Paying is RISK_HIGH and 'start it' is not its whole label, so confirm first.",
  T("-1 pls, closer to the exit", [C("a", "Level 2", "parking_level", "3 free"), C("b", "Level 1", "parking_level", "11 free"),
                                   C("c", "Level -1", "parking_level", "25 free"), C("d", "Level -2", "parking_level", "40 free")],
    X("c")),
  T("ok start it", [C("a", "Start parking · 2 h · €4.60", "payment", risk=True), C("b", "Change duration", "action")],
    Q("a")),
  T("yes go", [C("a", "Start parking · 2 h · €4.60", "payment", risk=True)], X("a"), CF),
)

D("k003", "signed_numbers", "hotel", "es",
  "The 2 is inside a booking code: only ZT9B2 ends in 2 (3rd item); position 2 would be Casa Azul. Then 'cancelala' targets the RISK_HIGH cancel, which needs a confirm.",
  T("la del código q acaba en 2",
    [C("a", "Hotel Miramar, Valencia", "booking", "Ref. KX4Q1 · 12 jun"),
     C("b", "Casa Azul, Sevilla", "booking", "Ref. PL2M7 · 3 jul"),
     C("c", "Hostal Sol, Cádiz", "booking", "Ref. ZT9B2 · 20 ago")],
    X("c"), CH),
  T("cancelala xfa, al final no vamos",
    [C("a", "Cambiar fechas", "action"), C("b", "Añadir desayuno", "extra"),
     C("c", "Cancelar reserva", "action", risk=True)],
    Q("c")),
  T("sí, cancela", [C("c", "Cancelar reserva", "action", risk=True)], X("c"), CF),
)

# ---------------------------------------------------------------- 2 changed_value_not_yes
D("k004", "changed_value_not_yes", "restaurant", "en",
  "Answering a 7:30 confirmation with 8 is a change, not a yes (no option for it: declined). The new 8:00 screen is then confirmed with 'eight' in words.",
  T("make it 8 instead, we cant get there by 7:30",
    [C("a", "Table for 4 · Fri 7:30 pm", "reservation", "Osteria Nonna")], ESC("declined"), CF),
  T("eight's perfect 👍",
    [C("a", "Table for 4 · Fri 8:00 pm", "reservation", "Osteria Nonna")], X("a"), CF),
)

D("k005", "changed_value_not_yes", "banking", "en",
  "Confirm asks $250; the user says 25 -> change, not a yes. Second confirm is $25 and 'twenty-five' in words is the same value -> yes to a RISK_HIGH confirmation.",
  T("its 25 bucks, for the pizza lol",
    [C("a", "Send $250.00 to Jake Morales", "transfer", risk=True)], ESC("declined"), CF),
  T("yep twenty-five, send it",
    [C("a", "Send $25.00 to Jake Morales", "transfer", risk=True)], X("a"), CF),
)

D("k006", "changed_value_not_yes", "clinic", "de",
  "'viertel nach neun' = 9:15, the same time in words -> yes. Then a reminder confirm for 1 day before answered with 2 hours before -> change, not a yes.",
  T("ja viertel nach neun passt mir",
    [C("a", "Termin: Di 11.03., 9:15 Uhr", "appointment", "Praxis Dr. Öztürk")], X("a"), CF),
  T("lieber 2 std vorher, einen tag vorher vergess ich das eh",
    [C("a", "Erinnerung 1 Tag vorher", "reminder")], ESC("declined"), CF),
)

# ---------------------------------------------------------------- 3 ordinal_word_in_labels
D("k007", "ordinal_word_in_labels", "train", "en",
  "'first' is position 1 (Standard) and a word of 'First Class' -> ask between the two. Then the user says first class.",
  T("first", [C("a", "Standard", "fare", "£42"), C("b", "Standard Premium", "fare", "£58"),
              C("c", "First Class", "fare", "£89")], Q("a", "c"), CH),
  T("first class, works paying 😎", [C("a", "Standard", "fare", "£42"), C("c", "First Class", "fare", "£89")],
    X("c"), CH),
)

D("k008", "ordinal_word_in_labels", "marketplace", "en",
  "'second hand' is the label word of the 3rd item, not position 2 (New). Then 'save it' picks Save for later.",
  T("second hand is fine tbh", [C("a", "Refurbished", "condition", "$390"), C("b", "New", "condition", "$499"),
                                C("c", "Second-hand", "condition", "$320")], X("c")),
  T("save it, ill decide tonight", [C("a", "Buy now · $320", "purchase", risk=True),
                                    C("b", "Message seller", "action"), C("c", "Save for later", "action")],
    X("c")),
)

D("k009", "ordinal_word_in_labels", "music", "it",
  "'la prima' = the first song (Sei tu) but 'Prima o poi' also carries the word -> ask. Then the title settles it.",
  T("metti la prima", [C("a", "Sei tu", "song", "Live 2019"), C("b", "Non ora", "song"),
                       C("c", "Prima o poi", "song")], Q("a", "c"), CH),
  T("prima o poi dai", [C("a", "Sei tu", "song", "Live 2019"), C("c", "Prima o poi", "song")], X("c"), CH),
)

# ---------------------------------------------------------------- 4 quantity_noun
D("k010", "quantity_noun", "food_delivery", "en",
  "'2 cokes' names the Coke item (qty 2), not the deal that says 2 Cokes; '2 pizzas' likewise names the pizza, not the deal. Then a command.",
  T("2 cokes pls", [C("a", "Margherita pizza", "menu_item", "$13"), C("b", "Coke (can)", "menu_item", "$2"),
                    C("c", "Game night deal: 2 pizzas + 2 Cokes", "menu_item", "$29")], X("b")),
  T("also 2 pizzas", [C("a", "Margherita pizza", "menu_item", "$13"), C("b", "Coke (can)", "menu_item", "$2"),
                      C("c", "Game night deal: 2 pizzas + 2 Cokes", "menu_item", "$29")], X("a")),
  T("ok checkout", [C("a", "Margherita pizza", "menu_item", "$13"), C("b", "Coke (can)", "menu_item", "$2"),
                    C("c", "Game night deal: 2 pizzas + 2 Cokes", "menu_item", "$29")], ESC("command"),
    commands=[{"id": "checkout", "label": "Checkout", "phrases": ["checkout", "go to checkout"]},
              {"id": "clear_cart", "label": "Clear cart", "phrases": ["clear cart", "empty my cart"]}]),
)

D("k011", "quantity_noun", "cinema", "en",
  "'2 adults' is two Adult tickets, not the Family ticket that mentions 2 adults. A 10-year-old fits Child (under 12) by the sublabel.",
  T("2 adults", [C("a", "Adult", "ticket", "£12.50"), C("b", "Child (under 12)", "ticket", "£8"),
                 C("c", "Family (2 adults + 2 kids)", "ticket", "£36")], X("a"), CH),
  T("and one for my son hes 10", [C("a", "Adult", "ticket", "£12.50"), C("b", "Child (under 12)", "ticket", "£8"),
                                  C("c", "Family (2 adults + 2 kids)", "ticket", "£36")], X("b")),
)

D("k012", "quantity_noun", "grocery", "pt",
  "'12 ovos' is the 12-egg box, not the breakfast kit that contains 12 eggs. Then a question about bread outside the kit.",
  T("12 ovos", [C("a", "Ovos (6 un.)", "product", "R$ 9,90"), C("b", "Ovos (12 un.)", "product", "R$ 17,50"),
                C("c", "Kit café da manhã: 12 ovos + pão + leite", "product", "R$ 34,90")], X("b")),
  T("vcs tem pão avulso? sem ser o kit", [C("a", "Ovos (6 un.)", "product", "R$ 9,90"),
                                          C("b", "Ovos (12 un.)", "product", "R$ 17,50"),
                                          C("c", "Kit café da manhã: 12 ovos + pão + leite", "product", "R$ 34,90")],
    ESC("question_intent")),
)

# ---------------------------------------------------------------- 5 everyday_verb
D("k013", "everyday_verb", "smart_home", "en",
  "'kill the lights' = switch off; two scenes switch lights off -> ask. Then the room settles it.",
  T("kill the lights", [C("a", "Living room · Off", "scene"), C("b", "Living room · Movie night", "scene"),
                        C("c", "Hallway · Off", "scene")], Q("a", "c")),
  T("just the living room", [C("a", "Living room · Off", "scene"), C("c", "Hallway · Off", "scene")], X("a"), CH),
)

D("k014", "everyday_verb", "email", "en",
  "'bin it' = Move to Trash (not the RISK_HIGH permanent delete). Then 'nuke it for good' = permanent delete, RISK_HIGH, not said whole -> confirm.",
  T("bin it", [C("a", "Archive", "action"), C("b", "Move to Trash", "action"),
               C("c", "Delete permanently", "action", risk=True)], X("b")),
  T("actually nuke it for good", [C("a", "Undo", "action"), C("b", "Delete permanently", "action", risk=True)],
    Q("b")),
)

D("k015", "everyday_verb", "banking", "fr",
  "'bloque ma carte' is what 'Faire opposition sur la carte' does; it is RISK_HIGH and the label is not said -> confirm, then oui.",
  T("bloque ma carte stp je l'ai perdue 😩",
    [C("a", "Virement vers Livret A", "transfer"), C("b", "Faire opposition sur la carte", "card_action", risk=True),
     C("c", "Télécharger le RIB", "document")], Q("b")),
  T("oui vite", [C("b", "Faire opposition sur la carte", "card_action", risk=True)], X("b"), CF),
)

# ---------------------------------------------------------------- 6 value_other_way
D("k016", "value_other_way", "flights", "en",
  "'2:05pm' = 14:05. Then 'window' fits two seats -> ask; 'row fourteen' = 14A.",
  T("the 2:05pm one", [C("a", "Tue 18 Mar · 06:40", "flight", "arr. 09:05"),
                       C("b", "Tue 18 Mar · 14:05", "flight", "arr. 16:30"),
                       C("c", "Wed 19 Mar · 06:40", "flight", "arr. 09:05")], X("b"), CH),
  T("window pls", [C("a", "14A", "seat", "window"), C("b", "14C", "seat", "aisle"), C("c", "22F", "seat", "window")],
    Q("a", "c")),
  T("row fourteen", [C("a", "14A", "seat", "window"), C("c", "22F", "seat", "window")], X("a"), CH),
)

D("k017", "value_other_way", "hair_salon", "nl",
  "Dutch 'half 3' = 14:30 (half an hour before three). Then a plain yes to the booking confirm.",
  T("zaterdag half 3", [C("a", "za 12 apr · 10:00", "slot"), C("b", "za 12 apr · 14:30", "slot"),
                        C("c", "di 15 apr · 10:00", "slot")], X("b"), CH),
  T("ja top", [C("a", "Knippen + föhnen bij Sanne · za 12 apr 14:30", "booking")], X("a"), CF),
)

D("k018", "value_other_way", "mobile_topup", "en",
  "'twenty five' in words = $25. Then yes to the RISK_HIGH payment confirmation.",
  T("twenty five", [C("a", "$10", "amount"), C("b", "$25", "amount"), C("c", "$50", "amount")], X("b"), CH),
  T("yup", [C("a", "Pay $25 with Visa •• 4411", "payment", risk=True)], X("a"), CF),
)

# ---------------------------------------------------------------- 7 object_alone
D("k019", "object_alone", "cloud_files", "en",
  "'invoice' is the object of only one action -> Download. Then 'report_final' is the object of two actions (one RISK_HIGH) -> ask; 'restore' settles it.",
  T("invoice", [C("a", "Download invoice_march.pdf", "file_action"), C("b", "Share folder Holiday 2024", "file_action"),
                C("c", "Rename notes.txt", "file_action")], X("a")),
  T("report_final", [C("a", "Restore report_final.docx", "file_action"),
                     C("b", "Delete report_final.docx forever", "file_action", risk=True),
                     C("c", "Restore budget.xlsx", "file_action")], Q("a", "b")),
  T("restore", [C("a", "Restore report_final.docx", "file_action"),
                C("b", "Delete report_final.docx forever", "file_action", risk=True)], X("a"), CH),
)

D("k020", "object_alone", "pet_shop", "en",
  "'the flea stuff' is the object of only the flea refill. Then 'kibble' is shared by two orders -> ask.",
  T("the flea stuff", [C("a", "Reorder dog food (Chicken 12kg)", "order"), C("b", "Book nail trim for Biscuit", "booking"),
                       C("c", "Refill flea treatment", "order")], X("c")),
  T("kibble too", [C("a", "Order Chicken kibble 3kg", "order"), C("b", "Order Salmon kibble 3kg", "order"),
                   C("c", "Order cat litter 10L", "order")], Q("a", "b")),
)

# ---------------------------------------------------------------- 8 distinguishing_word_plus_kind
D("k021", "distinguishing_word_plus_kind", "music", "en",
  "'run' + 'playlist' (kind word): two playlists have 'Run' -> ask; 'morning' settles it.",
  T("put on the run playlist", [C("a", "Chill Vibes", "playlist"), C("b", "Morning Run", "playlist"),
                                C("c", "Evening Run Mix", "playlist"), C("d", "Focus Flow", "playlist")], Q("b", "c")),
  T("morning", [C("b", "Morning Run", "playlist"), C("c", "Evening Run Mix", "playlist")], X("b"), CH),
)

D("k022", "distinguishing_word_plus_kind", "hotel", "en",
  "'suite' tells the room apart, 'room' is just the kind. Then a yes to the RISK_HIGH booking confirm.",
  T("the suite room pls", [C("a", "Garden View Double", "room", "€180/night"), C("b", "Sea View Double", "room", "€240/night"),
                           C("c", "Sea View Suite", "room", "€310/night")], X("c"), CH),
  T("sounds good yes", [C("a", "Book Sea View Suite · 2 nights · €620", "payment", risk=True)], X("a"), CF),
)

D("k023", "distinguishing_word_plus_kind", "car_rental", "de",
  "'Kombi' tells the car apart, 'Wagen' only says it is a car. Then a question instead of confirming the paid booking.",
  T("den kombi wagen bitte", [C("a", "VW Golf", "car", "ab 38 €/Tag"), C("b", "Skoda Octavia Kombi", "car", "ab 45 €/Tag"),
                              C("c", "BMW 3er Limousine", "car", "ab 69 €/Tag")], X("b"), CH),
  T("moment, ist da vollkasko mit drin?", [C("a", "Kostenpflichtig buchen · 214 €", "payment", risk=True)],
    ESC("question_intent"), CF),
)

# ---------------------------------------------------------------- 9 correction_after_execute
D("k024", "correction_after_execute", "rideshare", "en",
  "Work was executed, the user says it was wrong and names the gym.",
  T("take me to work", [C("a", "Home", "destination", "12 Elm St"), C("b", "Work", "destination", "Harbor Tower"),
                        C("c", "Gym", "destination", "FitBox, Kent St")], X("b", rejected=True)),
  T("ugh no not work, gym!!", [C("a", "Home", "destination", "12 Elm St"), C("b", "Work", "destination", "Harbor Tower"),
                               C("c", "Gym", "destination", "FitBox, Kent St")], X("c")),
)

D("k025", "correction_after_execute", "streaming", "en",
  "Episode 3 was played, user has seen it and wants 4.",
  T("ep 3", [C("a", "S2 E1 · Homecoming", "episode"), C("b", "S2 E2 · The Flood", "episode"),
             C("c", "S2 E3 · Ashes", "episode"), C("d", "S2 E4 · Embers", "episode")], X("c", rejected=True)),
  T("wait no seen that one already, 4", [C("a", "S2 E1 · Homecoming", "episode"), C("b", "S2 E2 · The Flood", "episode"),
                                         C("c", "S2 E3 · Ashes", "episode"), C("d", "S2 E4 · Embers", "episode")],
    X("d")),
)

D("k026", "correction_after_execute", "calendar", "en",
  "Thursday was executed; the correction says Friday, which fits two slots -> ask; 'afternoon' settles it.",
  T("thursday", [C("a", "Move to Thu 3:00 pm", "slot"), C("b", "Move to Fri 10:00 am", "slot"),
                 C("c", "Move to Fri 3:00 pm", "slot")], X("a", rejected=True)),
  T("oh no i meant friday sorry", [C("a", "Move to Thu 3:00 pm", "slot"), C("b", "Move to Fri 10:00 am", "slot"),
                                   C("c", "Move to Fri 3:00 pm", "slot")], Q("b", "c")),
  T("the afternoon one", [C("b", "Move to Fri 10:00 am", "slot"), C("c", "Move to Fri 3:00 pm", "slot")], X("c"), CH),
)

# ---------------------------------------------------------------- 10 self_correcting_reply
D("k027", "self_correcting_reply", "food_delivery", "en",
  "Pad thai then taken back for massaman: the last choice stands.",
  T("pad thai pls.. actually no, massaman", [C("a", "Pad thai", "dish", "$14"), C("b", "Green curry", "dish", "$15"),
                                             C("c", "Massaman curry", "dish", "$16")], X("c"), CH),
  T("thats it thx", [C("a", "Add a drink", "upsell"), C("b", "Go to cart", "action")], ESC("cancel")),
)

D("k028", "self_correcting_reply", "cinema", "fr",
  "18h taken back for 21h15; the last choice stands.",
  T("celle de 18h.. ah non attends, plutôt 21h15 je finis tard",
    [C("a", "La Nuit bleue · 18h00", "showtime"), C("b", "La Nuit bleue · 21h15", "showtime"),
     C("c", "Les Mouettes · 20h30", "showtime")], X("b"), CH),
  T("2 places", [C("a", "1 place", "quantity"), C("b", "2 places", "quantity"), C("c", "3 places", "quantity")],
    X("b"), CH),
)

D("k029", "self_correcting_reply", "messaging", "en",
  "Archive taken back for delete; the last choice is RISK_HIGH and 'delete it' is not its whole label -> confirm, then yes.",
  T("archive it... nah actually just delete it", [C("a", "Mute chat", "action"), C("b", "Archive chat", "action"),
                                                   C("c", "Delete chat", "action", risk=True)], Q("c")),
  T("yes", [C("c", "Delete chat", "action", risk=True)], X("c"), CF),
)

# ---------------------------------------------------------------- 11 closing_after_execute
D("k030", "closing_after_execute", "laundry", "en",
  "'tonight' = today 6-8 pm; then thanks with nothing asked -> cancel (done).",
  T("tonight", [C("a", "Today · 6–8 pm", "pickup_slot"), C("b", "Tomorrow · 8–10 am", "pickup_slot"),
                C("c", "Tomorrow · 6–8 pm", "pickup_slot")], X("a"), CH),
  T("perfect thank u, thats all", [C("a", "Add note for driver", "action"), C("b", "Track pickup", "action")],
    ESC("cancel")),
)

D("k031", "closing_after_execute", "pharmacy", "en",
  "Trap: the thanks comes while the app asks a yes/no question, so it is a no to that question (declined), not a plain closing.",
  T("ill grab it from main st", [C("a", "Pick up at Main St pharmacy", "fulfilment"),
                                 C("b", "Home delivery", "fulfilment", "+$4.99")], X("a"), CH),
  T("no thanks, all good", [C("a", "Text me when it's ready", "notification")], ESC("declined"), CF),
)

# ---------------------------------------------------------------- 12 ack_then_new_request
D("k032", "ack_then_new_request", "car_service", "en",
  "'ok cool' acknowledges, then a new question -> not a yes. The next confirm is answered with a real yes.",
  T("ok cool. do u guys also do tyre rotation?",
    [C("a", "Oil change · Sat 9:00 am", "booking", "QuickLube, Dover Rd")], ESC("question_intent"), CF),
  T("yes book that", [C("a", "Oil change + tyre rotation · Sat 9:00 am", "booking", "QuickLube, Dover Rd")],
    X("a"), CF),
)

D("k033", "ack_then_new_request", "food_delivery", "es",
  "'vale' then a new question about gluten-free -> not a yes. Then a choice from the new list.",
  T("vale, y tenéis algo sin gluten?", [C("a", "Añadir tarta de queso · 4,50 €", "add_on")],
    ESC("question_intent"), CF),
  T("vale el brownie entonces", [C("a", "Tarta de queso · 4,50 €", "add_on"), C("b", "Brownie sin gluten · 5,00 €", "add_on")],
    X("b"), CH),
)

D("k034", "ack_then_new_request", "travel_insurance", "en",
  "'k noted' acknowledges, then asks what is covered -> not a yes to the RISK_HIGH add. The second confirm gets a yes.",
  T("k noted. does it cover it if my flight gets cancelled?",
    [C("a", "Add trip insurance · $19", "add_on", risk=True)], ESC("question_intent"), CF),
  T("fine, add it", [C("a", "Add trip insurance · $19", "add_on", risk=True)], X("a"), CF),
)

# ---------------------------------------------------------------- 13 choice_with_question
D("k035", "choice_with_question", "pet_grooming", "en",
  "First a pure question (no choice) -> question_intent. Then a choice plus a question -> execute with follow_up question.",
  T("is the full groom worth it for a poodle?", [C("a", "Basic wash", "service", "$35"), C("b", "Wash & trim", "service", "$55"),
                                                 C("c", "Full groom", "service", "$80")], ESC("question_intent"), CH),
  T("ok full groom then. can i drop her off at 8?", [C("a", "Basic wash", "service", "$35"),
                                                      C("b", "Wash & trim", "service", "$55"),
                                                      C("c", "Full groom", "service", "$80")], X("c", fu="question"), CH),
)

D("k036", "choice_with_question", "grocery", "de",
  "Oat milk chosen plus a request for bananas -> execute with follow_up request. Then 'die normalen' picks the plain bananas.",
  T("die hafermilch, und pack noch 2 bananen dazu", [C("a", "Hafermilch 1 L", "product"), C("b", "Vollmilch 1 L", "product"),
                                                     C("c", "Laktosefreie Milch 1 L", "product")], X("a", fu="request")),
  T("egal, die normalen", [C("a", "Bananen (Bund, ca. 1 kg)", "product"), C("b", "Bio-Bananen (Bund)", "product")],
    X("a"), CH),
)

# ---------------------------------------------------------------- 14 shorthand
D("k037", "shorthand", "calendar", "en",
  "'retro' is short for retrospective -> execute. 'rvw' fits both reviews -> ask; 'design' settles it.",
  T("open the retro", [C("a", "Design review · Wed 2 pm", "meeting"), C("b", "Code review · Thu 11 am", "meeting"),
                       C("c", "Sprint retrospective · Fri 4 pm", "meeting")], X("c")),
  T("n the rvw one too", [C("a", "Design review · Wed 2 pm", "meeting"), C("b", "Code review · Thu 11 am", "meeting"),
                          C("c", "Sprint retrospective · Fri 4 pm", "meeting")], Q("a", "b")),
  T("design", [C("a", "Design review · Wed 2 pm", "meeting"), C("b", "Code review · Thu 11 am", "meeting")], X("a"), CH),
)

D("k038", "shorthand", "shopping", "pt",
  "'expr' = expressa, 'pfv' = por favor. 'pd mandar' (pode mandar) is a yes to the RISK_HIGH payment confirm.",
  T("expr pfv", [C("a", "Entrega normal", "shipping", "5–7 dias úteis · grátis"),
                 C("b", "Entrega expressa", "shipping", "1–2 dias · R$ 19,90"),
                 C("c", "Retirar na loja", "shipping")], X("b"), CH),
  T("pd mandar", [C("a", "Pagar R$ 109,80 no cartão •• 3021", "payment", risk=True)], X("a"), CF),
)

# ---------------------------------------------------------------- 15 two_requests_in_order
D("k039", "two_requests_in_order", "robot_vacuum", "en",
  "'vacuum first, then mop' -> execute the vacuum with a request follow-up. Then a yes to the mop confirm.",
  T("do the kitchen vacuum first then mop it after", [C("a", "Vacuum kitchen", "cleaning_job"),
                                                      C("b", "Vacuum living room", "cleaning_job"),
                                                      C("c", "Mop kitchen", "cleaning_job")], X("a", fu="request")),
  T("yep", [C("c", "Mop kitchen", "cleaning_job", "after current job")], X("c"), CF),
)

D("k040", "two_requests_in_order", "transit", "en",
  "'the 7:10 or the 7:40' are alternatives, not a sequence -> ask between the two. Then the user picks.",
  T("the 7:10 or the 7:40, either works", [C("a", "Bus 42 · 7:10", "departure"), C("b", "Bus 42 · 7:40", "departure"),
                                           C("c", "Bus 17 · 7:25", "departure")], Q("a", "b"), CH),
  T("7:40 then", [C("a", "Bus 42 · 7:10", "departure"), C("b", "Bus 42 · 7:40", "departure")], X("b"), CH),
)

SCORING = {
    # careful people could disagree here
    "debatable": [
        "k004#1",  # a changed time: declined is our reading; could also be read as a question/new request
        "k029#1",  # 'delete it' vs label 'Delete chat': is that saying the label whole?
        "k040#1",  # 'either works' could let a person just pick one
        "k017#2",  # 'ja top' as a yes
    ],
    # needs world or language knowledge
    "knowledge": [
        "k017#1",  # Dutch 'half 3' = 14:30
        "k015#1",  # 'faire opposition' is how a card gets blocked
    ],
}


def build():
    out = []
    for d in DIALOGUES:
        turns = []
        for n, t in enumerate(d["turns"], 1):
            kind, exp, rejected = t["exp"]
            opts = {"optionSetId": f"{d['id']}-os{n}", "scope": "SCOPE_CHAT", "candidates": t["cands"]}
            if t["asked"]:
                opts["asked"] = t["asked"]
            turn = {"input": t["text"],
                    "activeScope": {"scope": "SCOPE_CHAT", "instanceId": f"chat-{d['domain']}"},
                    "options": opts}
            if t["commands"]:
                turn["commands"] = t["commands"]
            turn["expect"] = exp
            if kind == "x":
                turn["record_outcome"] = {"kind": "OUTCOME_KIND_REJECTED" if rejected else "OUTCOME_KIND_EXECUTED",
                                          "choiceId": exp["execute"]}
            turns.append(turn)
        out.append({"id": d["id"], "category": d["cat"], "domain": d["domain"], "language": d["lang"],
                    "note": d["note"], "dialogue": turns})
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in out:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    build()
