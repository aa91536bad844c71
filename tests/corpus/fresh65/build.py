#!/usr/bin/env python3
"""Builds the fresh65 blind test set: corpus.jsonl + scoring.json.

Written blind from BRIEF.md only. Every expectation is what a careful human
assistant would do with the message and the screen, nothing else.
"""
import json, os

HERE = os.path.dirname(os.path.abspath(__file__))


# ---------- small helpers -------------------------------------------------

def C(cid, label, kind, sub=None, risk=False):
    c = {"id": cid, "label": label}
    if sub:
        c["sublabel"] = sub
    c["kind"] = kind
    if risk:
        c["risk"] = "RISK_HIGH"
    return c


def ex(cid, follow_up=None):
    e = {"execute": cid}
    if follow_up:
        e["follow_up"] = follow_up
    return e


def cl(*ids):
    return {"clarify": list(ids)}


def esc(reason):
    return {"escape": reason}


def T(inp, cands=None, expect=None, asked=None, rejected=False, commands=None):
    """cands=None means: the screen the app shows after the previous clarify
    (exactly the offered ids, in that order, ASKED_CHOICE / ASKED_CONFIRMATION)."""
    return {"input": inp, "cands": cands, "expect": expect, "asked": asked,
            "rejected": rejected, "commands": commands}


DIALOGUES = []


def D(did, category, domain, language, note, turns):
    out = []
    prev_cands, prev_expect = None, None
    for n, t in enumerate(turns, 1):
        cands, asked = t["cands"], t["asked"]
        if cands is None:
            assert prev_expect and "clarify" in prev_expect, (did, n)
            by_id = {c["id"]: c for c in prev_cands}
            cands = [by_id[i] for i in prev_expect["clarify"]]
            asked = "ASKED_CONFIRMATION" if len(cands) == 1 else "ASKED_CHOICE"
        opts = {"optionSetId": f"{did}-os{n}", "scope": "SCOPE_CHAT", "candidates": cands}
        if asked:
            opts["asked"] = asked
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
        prev_cands, prev_expect = cands, t["expect"]
    DIALOGUES.append({"id": did, "category": category, "domain": domain,
                      "language": language, "note": note, "dialogue": out})


CONF = "ASKED_CONFIRMATION"
CHOICE = "ASKED_CHOICE"

# ---------- 1. signed_numbers ---------------------------------------------

tz = [C("a", "UTC−5 · New York", "timezone"), C("b", "UTC+1 · Lagos", "timezone"),
      C("c", "UTC+2 · Helsinki", "timezone"), C("d", "UTC+9 · Tokyo", "timezone")]
rem = [C("a", "10 min before", "reminder"), C("b", "30 min before", "reminder"),
       C("c", "1 day before", "reminder")]
D("s001", "signed_numbers", "calendar", "en",
  "'+2' is the UTC+2 zone (3rd), not the 2nd row; '-30' is an offset meaning 30 min before.",
  [T("put the invite in +2, that's where she is", tz, ex("c"), CHOICE),
   T("-30 is fine", rem, ex("b"), CHOICE)])

lv = [C("a", "Level −2", "parking_level", "14 free"), C("b", "Level −1", "parking_level", "3 free"),
      C("c", "Ground", "parking_level", "full"), C("d", "Level 1", "parking_level", "22 free"),
      C("e", "Level 2", "parking_level", "40 free")]
extend = [C("a", "Extend +30 min", "extension", "€1.00", risk=True),
          C("b", "Extend +1 h", "extension", "€2.00", risk=True),
          C("c", "Extend +2 h", "extension", "€3.50", risk=True)]
D("s002", "signed_numbers", "parking", "en",
  "'-1' is Level −1 (not the last row); '+2' is the +2 h extension (3rd, not 2nd), which pays, so it is confirmed first.",
  [T("-1", lv, ex("b"), CHOICE),
   T("+2", extend, cl("c")),
   T("yep", None, ex("c"))])

cup = [C("a", "Cupón -10% en calzado", "coupon", "hasta el 31/05"),
       C("b", "Cupón -10% en bolsos", "coupon", "hasta el 31/05"),
       C("c", "Cupón -20% primera compra", "coupon", "solo clientes nuevos"),
       C("d", "Envío gratis", "coupon")]
D("s003", "signed_numbers", "shopping", "es",
  "'-10%' is a discount value, and two coupons carry it: ask; then 'zapatos' picks footwear.",
  [T("ponme el de -10%", cup, cl("a", "b")),
   T("el de zapatos", None, ex("a"))])

# ---------- 2. changed_value_not_yes --------------------------------------

D("s004", "changed_value_not_yes", "restaurant", "en",
  "Confirmation at 7:30 pm answered with 8 is a change (declined); then 20:00 confirmed as 8 pm is a yes.",
  [T("hmm 8 would work better for us", [C("a", "Table for 4 · Fri 7:30 pm", "reservation", "Trattoria Nonna Lia")],
     esc("declined"), CONF),
   T("20:00 friday, perfect yes", [C("a", "Table for 4 · Fri 8:00 pm", "reservation", "Trattoria Nonna Lia")],
     ex("a"), CONF)])

D("s005", "changed_value_not_yes", "banking", "en",
  "Same amount in words is a yes even for a RISK_HIGH transfer; a different amount (150 vs 120) is not.",
  [T("yes two hundred fifty to maria", [C("a", "Send $250.00 to Maria López", "transfer", "from Checking ••4821", risk=True)],
     ex("a"), CONF),
   T("send jake 150", [C("a", "Send $120.00 to Jake Chen", "transfer", "from Checking ••4821", risk=True)],
     esc("declined"), CONF)])

D("s006", "changed_value_not_yes", "hair-salon", "de",
  "'halb vier' (15:30) against a 15:00 slot is a change; against the 15:30 slot it is a yes.",
  [T("nee, lieber halb vier", [C("a", "Haarschnitt · Di 14.05., 15:00", "appointment", "bei Jana")],
     esc("declined"), CONF),
   T("halb vier, ja passt", [C("a", "Haarschnitt · Di 14.05., 15:30", "appointment", "bei Jana")],
     ex("a"), CONF)])

# ---------- 3. ordinal_word_in_labels -------------------------------------

fares = [C("a", "Economy", "fare", "€189"), C("b", "Premium Economy", "fare", "€412"),
         C("c", "Business", "fare", "€1,240"), C("d", "First", "fare", "€3,900")]
seats = [C("a", "Last row · 4A", "seat", "window"), C("b", "Middle · 2D", "seat", "aisle"),
         C("c", "Front row · 1A", "seat", "window")]
D("s007", "ordinal_word_in_labels", "airline", "en",
  "'first class' is the label First (4th row); 'the last one' is both the last row of the list (Front row) and the 'Last row' seat: ask.",
  [T("first class, treat yourself 😎", fares, ex("d"), CHOICE),
   T("the last one", seats, cl("a", "c"), CHOICE),
   T("1A", None, ex("c"))])

halves = [C("a", "Second half only", "ticket", "from 46' · €18"), C("b", "Full match", "ticket", "€30"),
          C("c", "First half only", "ticket", "until 45' · €18")]
D("s008", "ordinal_word_in_labels", "sports-tickets", "en",
  "'the second' fits both the 2nd row (Full match) and 'Second half only': ask; 'second half' then decides.",
  [T("the second", halves, cl("a", "b"), CHOICE),
   T("second half", None, ex("a"))])

visits = [C("a", "Visite · premier étage, 2 pièces", "visit", "rue des Tanneurs"),
          C("b", "Visite · rez-de-chaussée, studio", "visit", "rue Sainte-Anne"),
          C("c", "Visite · deuxième étage, 3 pièces", "visit", "bd Voltaire")]
slots_fr = [C("a", "Samedi 10h", "slot"), C("b", "Samedi 11h30", "slot"), C("c", "Lundi 18h", "slot")]
D("s009", "ordinal_word_in_labels", "real-estate", "fr",
  "'le deuxième étage' names the 3rd option by its label, not the 2nd row; then a plain 'la première' is position 1.",
  [T("le deuxième étage", visits, ex("c"), CHOICE),
   T("la première", slots_fr, ex("a"), CHOICE)])

# ---------- 4. quantity_noun ----------------------------------------------

tacos = [C("a", "Taco al pastor", "dish", "€3.50"), C("b", "3 Tacos combo + drink", "dish", "€11.00"),
         C("c", "Burrito de carnitas", "dish", "€9.50")]
drinks = [C("a", "Jarritos mango", "drink", "€2.50"), C("b", "Jarritos 4-pack", "drink", "€8.00"),
          C("c", "Still water", "drink", "€1.50")]
D("s010", "quantity_noun", "food-delivery", "en",
  "'2 tacos al pastor' is the single taco option (twice), not the 3-taco combo; then the user abandons the whole order.",
  [T("2 tacos al pastor", tacos, ex("a"), CHOICE),
   T("actually scrap the whole order, I'll cook", drinks, esc("cancel"), CHOICE)])

tix = [C("a", "Adult", "ticket", "€12"), C("b", "Family (2 adults + 2 kids)", "ticket", "€38"),
       C("c", "Child (4–14)", "ticket", "€7"), C("d", "Student", "ticket", "€9")]
D("s011", "quantity_noun", "museum", "en",
  "'2 adults' is the Adult ticket, not the Family bundle whose label also says 2 adults; '1 kid' is the Child ticket.",
  [T("2 adults", tix, ex("a"), CHOICE),
   T("and 1 kid", tix, ex("c"), CHOICE)])

cox = [C("a", "Coxinha", "salgado", "R$ 6,00"), C("b", "Combo 2 coxinhas + refrigerante", "salgado", "R$ 15,00"),
       C("c", "Pastel de carne", "salgado", "R$ 8,00")]
beb = [C("a", "Guaraná lata", "bebida", "R$ 5,00"), C("b", "Suco de laranja", "bebida", "R$ 7,00")]
D("s012", "quantity_noun", "bakery", "pt",
  "'2 coxinhas' is the Coxinha item, not the combo that adds a soda; then 'no drink, that's all' declines the drink question.",
  [T("quero 2 coxinhas, por favor", cox, ex("a"), CHOICE),
   T("bebida não, deixa, só isso mesmo", beb, esc("declined"), CHOICE)])

# ---------- 5. everyday_verb ----------------------------------------------

song = [C("a", "Add to queue", "action"), C("b", "Save to Liked Songs", "action"),
        C("c", "Share", "action"), C("d", "Go to artist", "action")]
pl = [C("a", "Delete playlist", "action", "Gym 2024 · 58 songs", risk=True),
      C("b", "Remove from this playlist", "action"), C("c", "Hide song", "action")]
D("s013", "everyday_verb", "music", "en",
  "'send this to my sister' means Share; 'get this song out of the playlist' means remove the song, not delete the playlist.",
  [T("send this to my sister", song, ex("c")),
   T("get this song out of the playlist, it's awful", pl, ex("b"))])

filea = [C("a", "Duplicate", "file_action"), C("b", "Rename", "file_action"),
         C("c", "Download", "file_action"), C("d", "Delete permanently", "file_action", risk=True)]
D("s014", "everyday_verb", "cloud-files", "en",
  "'make a copy' is Duplicate; 'nuke the original' is Delete permanently, RISK_HIGH, so confirm first, then the yes executes it.",
  [T("make a copy of this first", filea, ex("a")),
   T("ok now nuke the original", filea, cl("d")),
   T("yes", None, ex("d"))])

casa = [C("a", "Luci soggiorno: On", "device"), C("b", "Luci soggiorno: Off", "device"),
        C("c", "Tapparelle: Su", "device"), C("d", "Tapparelle: Giù", "device")]
D("s015", "everyday_verb", "smart-home", "it",
  "'spegni' (switch off) the lounge lights is Off; 'abbassa' (lower) the shutters is Giù; neither verb is in the label.",
  [T("spegni le luci in salotto", casa, ex("b")),
   T("e abbassa le tapparelle", casa, ex("d"))])

# ---------- 6. value_other_way --------------------------------------------

gym = [C("a", "Spin · Tue 18:00", "class", "Studio 2"), C("b", "Yoga · Tue 19:30", "class", "Studio 1"),
       C("c", "Spin · Thu 18:00", "class", "Studio 2"), C("d", "Pilates · Sat 09:00", "class", "Studio 1")]
D("s016", "value_other_way", "gym", "en",
  "'6pm spin' matches two classes (18:00 Tue and Thu): ask; 'tuesday' then picks one.",
  [T("book me the 6pm spin", gym, cl("a", "c")),
   T("tuesday", None, ex("a"))])

pick = [C("a", "Pickup 07:15", "pickup_time"), C("b", "Pickup 07:45", "pickup_time"),
        C("c", "Pickup 08:15", "pickup_time")]
tip = [C("a", "$2", "tip"), C("b", "$5", "tip"), C("c", "$10", "tip"), C("d", "No tip", "tip")]
D("s017", "value_other_way", "ride-hailing", "en",
  "'quarter past seven' is 07:15; 'five bucks' is $5.",
  [T("quarter past seven tmrw", pick, ex("a"), CHOICE),
   T("five bucks", tip, ex("b"), CHOICE)])

trein = [C("a", "IC 08:15 → Utrecht Centraal", "train", "spoor 5"),
         C("b", "Sprinter 08:30 → Utrecht Centraal", "train", "spoor 7"),
         C("c", "IC 08:45 → Utrecht Centraal", "train", "spoor 5")]
klas = [C("a", "1e klas", "class", "+ € 4,10"), C("b", "2e klas", "class")]
D("s018", "value_other_way", "train", "nl",
  "Dutch 'half negen' is 08:30 (not 09:30); 'tweede klas' is '2e klas'.",
  [T("doe maar die van half negen", trein, ex("b"), CHOICE),
   T("tweede klas graag", klas, ex("b"), CHOICE)])

# ---------- 7. object_alone -----------------------------------------------

mail = [C("a", "Archive thread", "mail_action"), C("b", "Mark as unread", "mail_action"),
        C("c", "Forward attachment", "mail_action", "invoice_0419.pdf"),
        C("d", "Snooze until tomorrow", "mail_action")]
draft = [C("a", "Send draft", "mail_action", "to: landlord", risk=True), C("b", "Edit draft", "mail_action"),
         C("c", "Delete draft", "mail_action", risk=True)]
D("s019", "object_alone", "email", "en",
  "'the attachment' is the object of only one label; 'the draft' is the object of all three, so ask; then 'edit'.",
  [T("the attachment", mail, ex("c")),
   T("the draft", draft, cl("a", "b", "c")),
   T("edit", None, ex("b"))])

photo = [C("a", "Print photo", "photo_action", "10×15 cm · $0.39"), C("b", "Create album", "photo_action"),
         C("c", "Set as wallpaper", "photo_action"),
         C("d", "Order canvas", "photo_action", "40×60 cm · $39", risk=True)]
D("s020", "object_alone", "photos", "en",
  "'wallpaper' alone executes; 'canvas' alone names one option but it pays, so confirm first; then the yes.",
  [T("wallpaper", photo, ex("c")),
   T("canvas", photo, cl("d")),
   T("yes order it", None, ex("d"))])

rent = [C("a", "Add child seat", "extra", "+€8/day"), C("b", "Add GPS", "extra", "+€6/day"),
        C("c", "Add second driver", "extra", "+€10/day"), C("d", "Upgrade to SUV", "extra", "+€22/day")]
D("s021", "object_alone", "car-rental", "en",
  "'child seat' and 'the GPS' each name the object of exactly one add-on label.",
  [T("child seat pls, my kid's 3", rent, ex("a")),
   T("the GPS too", rent, ex("b"))])

# ---------- 8. distinguishing_word_plus_kind ------------------------------

eps1 = [C("a", "Ep. 112 · The Salt Trade", "episode", "48 min"), C("b", "Ep. 113 · Ghost Ships", "episode", "52 min"),
        C("c", "Ep. 114 · The Salt Marsh", "episode", "41 min")]
eps2 = [C("a", "Ep. 40 · Bread Basics", "episode", "33 min"), C("b", "Ep. 41 · Sourdough Starter", "episode", "29 min"),
        C("c", "Ep. 42 · Bread Ovens", "episode", "37 min")]
D("s022", "distinguishing_word_plus_kind", "podcasts", "en",
  "'ghost ships episode' = unique word + kind word; 'the bread episode' fits two episodes, so ask; 'ovens' decides.",
  [T("put on the ghost ships episode", eps1, ex("b"), CHOICE),
   T("now the bread episode", eps2, cl("a", "c"), CHOICE),
   T("ovens", None, ex("c"))])

rec = [C("a", "Lemon drizzle cake", "recipe", "1 h 10"), C("b", "Carrot cake", "recipe", "1 h 30"),
       C("c", "Lemon chicken traybake", "recipe", "45 min")]
recact = [C("a", "Print recipe", "action"), C("b", "Add ingredients to shopping list", "action"),
          C("c", "Start cooking mode", "action")]
D("s023", "distinguishing_word_plus_kind", "recipes", "en",
  "'the carrot recipe' = the only word that tells Carrot cake apart + 'recipe', the kind of every option.",
  [T("the carrot recipe", rec, ex("b"), CHOICE),
   T("chuck the ingredients on my shopping list", recact, ex("b"))])

tar = [C("a", "Tarifa Solo Móvil", "tarifa", "20 GB · 12 €/mes"),
       C("b", "Tarifa Solo Fibra", "tarifa", "600 Mb · 28 €/mes"),
       C("c", "Tarifa Fibra + Móvil", "tarifa", "600 Mb + 50 GB · 39 €/mes")]
D("s024", "distinguishing_word_plus_kind", "telecom", "es",
  "'la tarifa de fibra': 'fibra' is in two labels, 'tarifa' in all: ask; 'solo fibra' decides.",
  [T("me interesa la tarifa de fibra", tar, cl("b", "c"), CHOICE),
   T("solo fibra", None, ex("b"))])

# ---------- 9. correction_after_execute -----------------------------------

milk = [C("a", "Oat milk 1 L", "product", "$3.49"), C("b", "Whole milk 1 L", "product", "$1.99"),
        C("c", "Almond milk 1 L", "product", "$3.79")]
D("s025", "correction_after_execute", "grocery", "en",
  "Execute rejected by 'wrong milk' without naming the right one: ask among the others; then 'almond'.",
  [T("oat", milk, ex("a"), CHOICE, rejected=True),
   T("argh wrong milk", milk, cl("b", "c")),
   T("almond", None, ex("c"))])

rooms = [C("a", "Double · city view", "room", "€142/night"), C("b", "Double · garden view", "room", "€128/night"),
         C("c", "Twin · garden view", "room", "€128/night")]
D("s026", "correction_after_execute", "hotel", "en",
  "After executing the city-view double, the user says it was wrong and names the garden-view double.",
  [T("city view double", rooms, ex("a"), CHOICE, rejected=True),
   T("no no not that one, the double facing the garden", rooms, ex("b"), CHOICE)])

subs = [C("a", "Portuguese (Brazil)", "subtitles"), C("b", "Portuguese (Portugal)", "subtitles"),
        C("c", "English", "subtitles"), C("d", "Spanish (Latin America)", "subtitles"),
        C("e", "Spanish (Spain)", "subtitles")]
D("s027", "correction_after_execute", "streaming", "en",
  "Brazilian subtitles executed, then 'wrong one, the european portuguese' names Portuguese (Portugal).",
  [T("brazilian portuguese subs", subs, ex("a"), CHOICE, rejected=True),
   T("ugh wrong one, I wanted the european portuguese", subs, ex("b"), CHOICE)])

# ---------- 10. self_correcting_reply -------------------------------------

shows = [C("a", "5:15 pm", "showtime", "Dune: Part Two · Screen 3"),
         C("b", "7:40 pm", "showtime", "Dune: Part Two · Screen 3"),
         C("c", "10:05 pm", "showtime", "Dune: Part Two · IMAX")]
D("s028", "self_correcting_reply", "cinema", "en",
  "Picks 7:40 then takes it back for the late one; the last choice stands. Then a yes to the paying confirmation.",
  [T("7:40 – no wait, the late one", shows, ex("c"), CHOICE),
   T("go ahead", [C("a", "Buy 2 tickets · $31.00", "payment", "10:05 pm · IMAX", risk=True)], ex("a"), CONF)])

vet = [C("a", "Dr. Patel · Mon 9:00", "appointment"), C("b", "Dr. Okafor · Mon 11:30", "appointment"),
       C("c", "Dr. Patel · Wed 16:00", "appointment")]
D("s029", "self_correcting_reply", "pet-care", "en",
  "Patel → Okafor → Patel: the last choice stands, but Dr. Patel has two slots, so ask; then 'monday'.",
  [T("patel. no wait okafor. ugh actually patel, she knows biscuit", vet, cl("a", "c"), CHOICE),
   T("monday morning", None, ex("a"))])

velo = [C("a", "Vélo classique · 1 h", "location", "3 €"), C("b", "Vélo électrique · 1 h", "location", "6 €"),
        C("c", "Vélo électrique · journée", "location", "18 €")]
D("s030", "self_correcting_reply", "bike-rental", "fr",
  "'l'électrique à l'heure… ah non, plutôt la journée': the day rental stands; then 'oui' to the payment confirmation.",
  [T("l'électrique à l'heure… ah non, plutôt à la journée", velo, ex("c"), CHOICE),
   T("oui", [C("a", "Payer 18 €", "paiement", "Vélo électrique · journée", risk=True)], ex("a"), CONF)])

# ---------- 11. closing_after_execute -------------------------------------

lib = [C("a", "Renew 'The Overstory'", "loan", "due Mar 3 → Mar 24"),
       C("b", "Renew 'Piranesi'", "loan", "due Mar 5 → Mar 26"),
       C("c", "Renew all", "loan")]
lib2 = [C("a", "Renew 'The Overstory'", "loan", "due Mar 3 → Mar 24"), C("c", "Renew all", "loan")]
D("s031", "closing_after_execute", "library", "en",
  "Thanks followed by a new request is not a closing (execute); the later thanks with nothing pending is.",
  [T("renew piranesi pls", lib, ex("b")),
   T("ta! oh and the overstory too", lib2, ex("a")),
   T("perfect, that's everything, cheers", [C("a", "View my loans", "account"), C("b", "Search the catalogue", "account")], esc("cancel"))])

paket = [C("a", "Ablageort: Garage", "zustellung"), C("b", "Beim Nachbarn abgeben", "zustellung"),
         C("c", "Zustellung verschieben", "zustellung")]
paket2 = [C("a", "Sendung verfolgen", "sendung"), C("b", "Weitere Sendung bearbeiten", "sendung")]
D("s032", "closing_after_execute", "parcel-delivery", "de",
  "'stell's in die Garage' picks the garage drop-off; then a plain thank-you with nothing pending closes.",
  [T("stell's einfach in die Garage", paket, ex("a")),
   T("super, danke dir! das wär's", paket2, esc("cancel"))])

# ---------- 12. ack_then_new_request --------------------------------------

D("s033", "ack_then_new_request", "car-service", "en",
  "'ok cool' + a new question is not a yes to the booking; the later 'ok book it' is.",
  [T("ok cool — do you guys do tyre swaps too?",
     [C("a", "Book oil change · Thu 10:00", "appointment", "QuickLube Eastside")], esc("question_intent"), CONF),
   T("ok book it", [C("a", "Book oil change · Thu 10:00", "appointment", "QuickLube Eastside")], ex("a"), CONF)])

wind = [C("a", "Add windscreen cover · £4/month", "cover", "policy MX-20931", risk=True)]
D("s034", "ack_then_new_request", "insurance", "en",
  "'right, and what's the excess' acknowledges then asks: not a yes to a paying add-on; 'ok fine, add it' is.",
  [T("right, and what's the excess on that?", wind, esc("question_intent"), CONF),
   T("ok fine, add it", wind, ex("a"), CONF)])

# ---------- 13. choice_with_question --------------------------------------

tiers = [C("a", "Standing", "ticket", "€45"), C("b", "Seated Tier 1", "ticket", "€70"),
         C("c", "Seated Tier 2", "ticket", "€55")]
D("s035", "choice_with_question", "concerts", "en",
  "A bare question chooses nothing; 'tier 1 then, and send the tickets to my partner too' executes with a request.",
  [T("which seated tier is closer to the stage?", tiers, esc("question_intent"), CHOICE),
   T("ok tier 1 then, and send the tickets to my partner's email too", tiers, ex("b", "request"), CHOICE)])

quartos = [C("a", "Quarto duplo · vista mar", "quarto", "R$ 320/noite"),
           C("b", "Quarto duplo · vista jardim", "quarto", "R$ 260/noite"),
           C("c", "Suíte", "quarto", "R$ 480/noite")]
D("s036", "choice_with_question", "hotel", "pt",
  "Picks the sea-view room and asks about breakfast (question follow-up); then says yes to the payment and asks about parking.",
  [T("o de vista mar — o café da manhã tá incluso?", quartos, ex("a", "question"), CHOICE),
   T("sim, pode reservar. tem estacionamento?",
     [C("a", "Reservar e pagar R$ 640", "pagamento", "2 noites · vista mar", risk=True)], ex("a", "question"), CONF)])

# ---------- 14. shorthand -------------------------------------------------

mute = [C("a", "Mute for 1 hour", "chat_setting"), C("b", "Mute for 8 hours", "chat_setting"),
        C("c", "Mute until I turn it back on", "chat_setting"), C("d", "Notification settings", "chat_setting")]
undo = [{"id": "undo", "label": "Undo", "phrases": ["undo", "undo that", "take that back"]}]
D("s037", "shorthand", "messaging", "en",
  "'8hrs' is 8 hours; 'undo' is the turn's command; 'notif settings' is Notification settings.",
  [T("mute 8hrs", mute, ex("b")),
   T("undo", mute, esc("command"), commands=undo),
   T("tbh just open notif settings", mute, ex("d"))])

bank = [C("a", "Transfer to savings", "bank_action"), C("b", "Pay credit card bill", "bank_action", "$612.40 due", risk=True),
        C("c", "View statement", "bank_action"), C("d", "Freeze card", "bank_action", risk=True)]
D("s038", "shorthand", "banking", "en",
  "'stmt' is statement; 'pay the cc' is the credit-card payment, RISK_HIGH and not said whole, so confirm; then 'yep'.",
  [T("stmt pls", bank, ex("c")),
   T("now pay the cc", bank, cl("b")),
   T("yep", None, ex("b"))])

# ---------- 15. two_requests_in_order -------------------------------------

extras = [C("a", "Add checked bag", "extra", "23 kg · €35"), C("b", "Choose seat", "extra", "from €9"),
          C("c", "Add travel insurance", "extra", "€14"), C("d", "Continue to payment", "extra")]
D("s039", "two_requests_in_order", "travel", "en",
  "'seat first, then a bag' executes the seat with a request follow-up; 'bag or insurance' is an alternative: ask.",
  [T("let me pick my seat first, then add a bag", extras, ex("b", "request")),
   T("hmm bag or insurance, idk", extras, cl("a", "c")),
   T("just the bag", None, ex("a"))])

edit = [C("a", "Crop", "edit_tool"), C("b", "Rotate", "edit_tool"), C("c", "Auto-enhance", "edit_tool"),
        C("d", "Export…", "edit_tool")]
D("s040", "two_requests_in_order", "photo-editing", "en",
  "'rotate it first, then crop' executes Rotate with a request; 'crop now and after that export' executes Crop with a request.",
  [T("rotate it first, then crop the edges", edit, ex("b", "request")),
   T("ok crop now and after that export it as jpg", edit, ex("a", "request"))])


# ---------- scoring -------------------------------------------------------

SCORING = {
    # careful people could disagree
    "debatable": [
        "s004#1",  # a changed time could be read as clarify [a] rather than declined
        "s012#1",  # some would offer the combo too (it holds exactly 2 coxinhas)
        "s007#2",  # 'the last one' might be read as purely positional
        "s012#2",  # 'no drink, that's all' could be read as cancel rather than declined
    ],
    # needs world / language knowledge
    "knowledge": [
        "s018#1",  # Dutch 'half negen' = 08:30
        "s006#1",  # German 'halb vier' = 15:30
        "s027#2",  # 'european portuguese' = Portugal
    ],
}


def main():
    with open(os.path.join(HERE, "corpus.jsonl"), "w", encoding="utf-8") as f:
        for d in DIALOGUES:
            f.write(json.dumps(d, ensure_ascii=False) + "\n")
    with open(os.path.join(HERE, "scoring.json"), "w", encoding="utf-8") as f:
        json.dump(SCORING, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(DIALOGUES)} dialogues")


if __name__ == "__main__":
    main()
