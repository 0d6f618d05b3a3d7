# ruff: noqa: E501
"""1836Jr-56 facts: map, tiles, phases, trains, corporations and private companies.

Transcribed (facts only) from tobymao/18xx @111f7f698005a057d68877682486da3f1705e551 (MIT):
``lib/engine/game/g_1836_jr56/map.rb`` (tiles, location names, hexes, layout),
``lib/engine/game/g_1836_jr56/entities.rb`` (companies, corporations),
``lib/engine/game/g_1836_jr56/game.rb`` (bank, certificate limits, phases, trains,
destinations, the Régie des Postes and Paris/Channel-port revenue rules) and
``lib/engine/game/g_1856/game.rb`` (the market and the +20 port-token rule 1836Jr-56 inherits).
Rules: ``../shared/seeds/1836jr-rules.txt`` (1836Jr-56 part; everything it does not change
follows 1856).

One deliberate difference from map.rb: the port hexes lose 18xx.games' ``route:never``
flag (see the comment in ``HEXES``).
"""

import copy

from engine.games.g1836jr30 import data as _jr30

# Plain literals laid out by hand for reading; the formatter would only spread them out.
# fmt: off
SOURCE = (
    "tobymao/18xx lib/engine/game/g_1836_jr56/map.rb, entities.rb, game.rb, "
    "g_1856/game.rb @111f7f698005a057d68877682486da3f1705e551 (MIT); "
    "rules: 1836Jr-56 rulebook (seed)"
)
TITLE = "1836Jr56"  # as the 18xx.games records spell it (fixture directory: 1836jr56)
LAYOUT = "pointy"
AXES = {"x": "number", "y": "letter"}  # 18xx.games' default for a pointy map
CURRENCY = "F"  # francs or florins; 18xx.games formats as '%s F'

BANK_CASH = 6000
CERT_LIMIT = {2: 20, 3: 13, 4: 10}  # fixed: 1856's post-nationalisation limits do not apply
STARTING_CASH = {2: 450, 3: 300, 4: 225}

# 18xx.games optional rule "diesel_variant": the 8-trains (and phase 8) are replaced by
# F1100 diesels (phase D), and the 4-trains then rust on D instead of 8.
OPTIONAL_RULES = ["diesel_variant"]

# The map's names and its gray, white and red hexes are those of 1836Jr-30 (map.rb of
# g_1836_jr56 and g_1836_jr30 agree on them); only the yellow, blue and green hexes differ.
LOCATION_NAMES = copy.deepcopy(_jr30.LOCATION_NAMES)

HEXES = {
    **copy.deepcopy({c: _jr30.HEXES[c] for c in ("gray", "white", "red")}),
    "yellow": {
        "city=revenue:40;path=a:0,b:_0;path=a:_0,b:5;label=T;upgrade=cost:40,terrain:water": ["D6"],
        "city=revenue:0;city=revenue:0;label=OO;future_label=label:H,color:gray": ["E5"],
        "city=revenue:0;city=revenue:0;label=OO;upgrade=cost:40,terrain:water": ["E11", "H10"],
        "city=revenue:30;path=a:1,b:_0;path=a:_0,b:3;label=B-L;future_label=label:Lon,color:brown": ["H6"],
        "city=revenue:30;path=a:0,b:_0;path=a:_0,b:4;label=B-L;future_label=label:Bar,color:brown": ["I3"],
    },
    # The Channel ports and Paris: "+20/+30" is PORT_BONUS, and 18xx.games' "route:never"
    # is left out, as in 1836Jr-30 (the reasons are in the comment in its data.py HEXES).
    "blue": {
        "offboard=revenue:green_20|brown_30,format:+%s,groups:port;path=a:4,b:_0,terminal:1;path=a:5,b:_0,terminal:1": ["E3", "G1"],
    },
    "green": {
        "offboard=revenue:green_20|brown_30,format:+%s,groups:port;path=a:3,b:_0,terminal:1;path=a:4,b:_0,terminal:1": ["J2"],
    },
}

# Tile manifest (18xx.games names; the double-town yellows 1, 55 and 69 are removed by the
# rules).  "125" is given with its code in map.rb (the unlabelled brown "L" city).
TILES = {
    "2": 1, "3": 3, "4": 3, "5": 2, "6": 2, "7": 7, "8": 13, "9": 13,
    "14": 4, "15": 4, "16": 1, "17": 1, "18": 1, "19": 1, "20": 1, "23": 4, "24": 4,
    "25": 1, "26": 1, "27": 1, "28": 1, "29": 1,
    "39": 1, "40": 1, "41": 3, "42": 3, "43": 2, "44": 1, "45": 2, "46": 2, "47": 2,
    "56": 1, "57": 4, "58": 3, "59": 2,
    "63": 4, "64": 1, "65": 1, "66": 1, "67": 1, "68": 1, "70": 1,
    "120": 1, "121": 2, "122": 1, "123": 1, "124": 1,
    "125": {"count": 4, "color": "brown",
            "code": "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0"},
    "126": 1, "127": 1,
}

# Phase 6 on ("upgradeable_towns", g_1856/game.rb upgrades_to?): a town tile may be replaced
# by these tiles (a yellow city or plain track; a double town by a green city), keeping its
# exits.  1 and 55 are not in this manifest.
TOWN_UPGRADES = {
    "3": ("5", "7"), "4": ("57", "9"), "58": ("6", "8"),
    "1": ("14",), "55": ("14",), "2": ("15",), "56": ("15",),
}

# 1856's market (1836Jr-56 does not replace it).
MARKET = [
    ["70", "75", "80", "90", "100p", "110", "125", "150", "175", "200", "225", "250", "275", "300", "325", "350", "375", "400", "425", "450"],
    ["65", "70", "75", "80", "90p", "100", "110", "125", "150", "175", "200", "225", "250", "275", "300", "325", "350", "375", "400", "425"],
    ["60", "65", "70", "75", "80p", "90", "100", "110", "125", "150", "175", "200", "225", "250", "275"],
    ["55", "60", "65", "70", "75p", "80", "90", "100", "110", "125", "150", "175", "200"],
    ["50y", "55", "60", "65", "70p", "75", "80", "90", "100", "110", "125"],
    ["45y", "50y", "55", "60", "65p", "70", "75", "80", "90"],
    ["40o", "45y", "50y", "55", "60", "65", "70"],
    ["35o", "40o", "45y", "50y", "55", "60"],
    ["30o", "35o", "40o", "45y", "50y"],
    ["0c", "30o", "35o", "40o", "45y"],
    ["0c", "0c", "30o", "35o", "40o"],
]

# Phases 8 and D are alternatives: "8" without, "D" with the diesel_variant optional rule.
PHASES = [
    {"name": "2", "on": None, "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 1, "status": ["escrow", "facing_2"]},
    {"name": "3", "on": "3", "train_limit": 4, "tiles": ["yellow", "green"], "operating_rounds": 2, "status": ["escrow", "facing_3", "can_buy_companies"]},
    {"name": "4", "on": "4", "train_limit": 3, "tiles": ["yellow", "green"], "operating_rounds": 2, "status": ["escrow", "facing_4", "can_buy_companies"]},
    {"name": "5", "on": "5", "train_limit": 2, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3, "status": ["incremental", "facing_5"]},
    {"name": "6", "on": "6", "train_limit": 2, "tiles": ["yellow", "green", "brown", "gray"], "operating_rounds": 3, "status": ["fullcap", "facing_6", "upgradeable_towns", "no_loans"]},
    {"name": "8", "on": "8", "train_limit": 2, "tiles": ["yellow", "green", "brown", "gray", "black"], "operating_rounds": 3, "status": ["fullcap", "facing_6", "upgradeable_towns", "no_loans"], "excluded_by": "diesel_variant"},
    {"name": "D", "on": "D", "train_limit": 2, "tiles": ["yellow", "green", "brown", "gray", "black"], "operating_rounds": 3, "status": ["fullcap", "facing_6", "upgradeable_towns", "no_loans"], "optional_rule": "diesel_variant"},
]

# The 8 and D trains are alternatives like their phases.  A distance of 999 is 18xx.games' way
# of writing the unlimited diesel (rules.py: Train.unlimited).  The 6-train's "remove_tokens"
# event removes the Régie des Postes token.
TRAINS = [
    {"name": "2", "distance": 2, "price": 100, "num": 5, "rusts_on": "4",
     "events": [{"type": "change_float", "when": 5, "hidden": True}]},
    {"name": "3", "distance": 3, "price": 225, "num": 4, "rusts_on": "6",
     "events": [{"type": "change_float", "when": 4, "hidden": True}]},
    {"name": "4", "distance": 4, "price": 350, "num": 3, "rusts_on": "8", "rusts_on_diesel_variant": "D",
     "events": [{"type": "no_more_escrow_corps", "when": 3}, {"type": "change_float", "when": 3, "hidden": True}]},
    {"name": "5", "distance": 5, "price": 550, "num": 2,
     "events": [{"type": "close_companies"}, {"type": "no_more_incremental_corps", "when": 2},
                {"type": "change_float", "when": 2, "hidden": True}]},
    {"name": "6", "distance": 6, "price": 700, "num": 2,
     "events": [{"type": "nationalization"}, {"type": "remove_tokens"}]},
    {"name": "8", "distance": 8, "price": 1000, "num": 5, "available_on": "6",
     "discount": {"4": 350, "5": 350, "6": 350}, "excluded_by": "diesel_variant"},
    {"name": "D", "distance": 999, "price": 1100, "num": 22, "available_on": "6",
     "discount": {"4": 350, "5": 350, "6": 350}, "optional_rule": "diesel_variant"},
]

# Home cities: NBDS (E11) chooses one of the two OO cities (the 1856 THB rule).  MESS is the
# national (1856's CGR): no tokens of its own until corporations merge into it.
# The six corporations are 1836Jr-30's (the same in both entities.rb); MESS is new.
CORPORATIONS = [
    *copy.deepcopy(_jr30.CORPORATIONS),
    {"sym": "MESS", "name": "Maatschappij tot Exploitie van de Staats-Spoorwegen", "tokens": [], "color": "#fff", "text_color": "#000",
     "abilities": [{"type": "train_buy", "face_value": True},
                   {"type": "train_limit", "increase": 99},
                   {"type": "borrow_train", "train_types": ["8", "D"]}]},
]
MINORS = []

# Destinations (hex each corporation must connect its home to; capital, not revenue).
DESTINATIONS = {"NBDS": "E5", "HSM": "E11", "NFL": "D6", "B": "H10", "Nord": "I9", "GCL": "K13"}

# Private companies; abilities as 18xx.games records them.
COMPANIES = [
    {"sym": "ACC", "name": "Amsterdam Canal Company", "value": 20, "revenue": 5,
     "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["D6"]}]},
    {"sym": "E-SF", "name": "Enkhuizen-Stavoren Ferry", "value": 40, "revenue": 10,
     "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["B8"]},
                   {"type": "tile_lay", "owner_type": "corporation", "free": True, "hexes": ["B8"],
                    "tiles": ["2", "56"], "when": "owning_corp_or_turn", "count": 1}]},
    {"sym": "CdH", "name": "Charbonnages du Hainaut", "value": 50, "revenue": 10,
     "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["J8"]},
                   {"type": "teleport", "owner_type": "corporation", "tiles": ["6", "5", "57"], "hexes": ["J8"]}]},
    {"sym": "RdP", "name": "Régie des Postes", "value": 70, "revenue": 15,
     "abilities": [{"type": "assign_hexes", "when": "owning_corp_or_turn", "count": 1, "owner_type": "corporation",
                    "hexes": ["A9", "B8", "B10", "D6", "E5", "E11", "F4", "F10", "G7", "H2", "H4", "H6", "H10", "I3", "I9", "J6", "J8", "K11"]},
                   {"type": "assign_corporation", "when": "sold", "count": 1, "owner_type": "corporation"}]},
]

# --- Revenue-rule facts (used by rules.py) -------------------------------------------------

# Paris and the Channel ports: as in 1836Jr-30 (the -56 rulebook section is empty; 18xx.games
# game.rb revenue_for applies the same rule).  Per station token of the running company on the
# route's cities: 20 while green is the newest colour with a value, 30 from brown on (gray and
# black have none, so brown's 30 stays); nothing in the yellow phase.  At most one per route,
# at least two other stops; the port itself earns nothing.
PORT_HEXES = ["E3", "G1", "J2"]
PORT_BONUS = {"green": 20, "brown": 30}
PORT_MIN_OTHER_STOPS = 2

# Régie des Postes (1856's Great Lakes Shipping Company): placing its "+20" token on one of the
# hexes above closes the private; a route of the corporation it was sold to that stops in the
# token's hex earns +20 (once per route, however many of the hex's stops it counts; 18xx.games
# g_1856 game.rb revenue_for).  The token is removed when the first 6-train is bought.
POST_COMPANY = "RdP"
POST_BONUS = 20
POST_REMOVED_ON_TRAIN = "6"

# --- Money facts (used by engine/money_1856.py) ---------------------------------------------
# tobymao/18xx @111f7f69 g_1856/game.rb (1836Jr-56 keeps them): loans of 100 (loan_value),
# interest 10 per loan (interest_rate), the national's extra station tokens cost 100
# (national_token_price), an unstarted corporation needs 20% sold to operate at first
# (setup: @percent_to_operate), 10% more each time the last train of a type is sold
# (event_change_float!).  The national is 1856's CGR (g_1836_jr56/game.rb ``national``).
NATIONAL = "MESS"
SHARES = [20, 10, 10, 10, 10, 10, 10, 10, 10]  # corporation.rb SHARES
MARKET_SHARE_LIMIT = 50  # base.rb
LOAN_VALUE = 100
LOAN_INTEREST = 10
NATIONAL_TOKEN_PRICE = 100
START_PERCENT_TO_OPERATE = 20

# Amsterdam's green and brown T tiles (120, 122) have two cities; one train may score both
# (seed: "as per the rules for Toronto"), so they are never grouped.  The gray 124 has one.
AMSTERDAM_HEX = "D6"
# fmt: on


# The national's station tokens (18xx.games g_1856 ``national_token_limit``: 10); its charter
# lists none because it takes over the merging corporations' tokens.  Positions are checked
# against it.
TOKEN_LIMITS = {"MESS": 10}
