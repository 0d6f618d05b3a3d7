# ruff: noqa: E501
"""1836Jr-30 facts: map, tiles, phases, trains, corporations and private companies.

Transcribed (facts only) from tobymao/18xx @111f7f698005a057d68877682486da3f1705e551 (MIT):
``lib/engine/game/g_1836_jr30/map.rb`` (tiles, location names, hexes, layout),
``lib/engine/game/g_1836_jr30/entities.rb`` (companies, corporations) and
``lib/engine/game/g_1836_jr30/game.rb`` (bank, certificate limits, market, phases, trains, the
Paris/Channel-port revenue rule).  Rules: ``../shared/seeds/1836jr-rules.txt`` (1836Jr-30
part; everything it does not change follows 1830).

One deliberate difference from map.rb: the port hexes lose 18xx.games' ``route:never``
flag (see the comment in ``HEXES``).
"""

# Plain literals laid out by hand for reading; the formatter would only spread them out.
# fmt: off
SOURCE = (
    "tobymao/18xx lib/engine/game/g_1836_jr30/map.rb, entities.rb, game.rb "
    "@111f7f698005a057d68877682486da3f1705e551 (MIT); rules: 1836Jr-30 rulebook (seed)"
)
TITLE = "1836Jr30"
LAYOUT = "pointy"
AXES = {"x": "number", "y": "letter"}  # 18xx.games' default for a pointy map
CURRENCY = "F"  # francs or florins; 18xx.games formats as '%s F'

BANK_CASH = 6000
CERT_LIMIT = {2: 20, 3: 13, 4: 10}
STARTING_CASH = {2: 900, 3: 600, 4: 450}

LOCATION_NAMES = {
    "A9": "Leeuwarden",
    "A13": "Hamburg",
    "B8": "Enkhuizen & Stavoren",
    "B10": "Groningen",
    "D6": "Amsterdam",
    "E5": "Rotterdam & Den Haag",
    "E7": "Utrecht",
    "E11": "Arnhem & Nijmegen",
    "F4": "Hoek van Holland",
    "F10": "Eindhoven",
    "G7": "Antwerp",
    "H2": "Bruges",
    "H4": "Gand",
    "H6": "Brussels",
    "H10": "Maastricht & Liège",
    "I3": "Lille",
    "I9": "Namur",
    "J6": "Charleroi",
    "J8": "Hainaut Coalfields",
    "E3": "Harwich",
    "G1": "Dover",
    "J2": "Paris",
    "E13": "Dortmund",
    "H12": "Cologne",
    "K11": "Arlon & Luxembourg",
    "K13": "Strasbourg",
}

HEXES = {
    "gray": {
        "city=revenue:10;path=a:0,b:_0;path=a:_0,b:5": ["A9"],
    },
    "white": {
        "": ["A11", "B12", "C11", "D12", "E9", "H8", "I5", "I7", "K5", "J4"],
        "border=edge:4,type:impassable,color:blue": ["C7"],
        "border=edge:1,type:impassable,color:blue": ["C9"],
        "border=edge:3,type:impassable,color:blue": ["G3"],
        "border=edge:2,type:impassable,color:blue;border=edge:3,type:impassable,color:blue": ["G5"],
        "town=revenue:0;town=revenue:0;upgrade=cost:80,terrain:water": ["B8"],
        "city=revenue:0": ["B10", "E7", "G7", "H4", "J6"],
        "upgrade=cost:40,terrain:water": ["D8", "D10", "F8", "G9", "G11"],
        "town=revenue:0;upgrade=cost:40,terrain:water;border=edge:0,type:impassable,color:blue;border=edge:5,type:impassable,color:blue": ["F4"],
        "upgrade=cost:80,terrain:water;border=edge:0,type:impassable,color:blue": ["F6"],
        "town=revenue:0": ["F10", "H2"],
        "upgrade=cost:60,terrain:mountain": ["I11", "J10", "J12", "K7", "K9"],
        "city=revenue:0;upgrade=cost:40,terrain:water": ["I9"],
        "city=revenue:0;upgrade=cost:60,terrain:mountain": ["J8"],
        "town=revenue:0;town=revenue:0;upgrade=cost:60,terrain:mountain": ["K11"],
    },
    "red": {
        "offboard=revenue:yellow_40|brown_70;path=a:0,b:_0;path=a:1,b:_0": ["A13"],
        "offboard=revenue:yellow_30|brown_50;path=a:1,b:_0": ["E13", "H12"],
        "offboard=revenue:yellow_40|brown_70;path=a:1,b:_0;path=a:2,b:_0": ["K13"],
    },
    "yellow": {
        "city=revenue:40;path=a:0,b:_0;path=a:_0,b:5;label=NY;upgrade=cost:40,terrain:water": ["D6"],
        "city=revenue:0;city=revenue:0;label=OO": ["E5"],
        "city=revenue:0;city=revenue:0;label=OO;upgrade=cost:40,terrain:water": ["E11", "H10"],
        "city=revenue:30;path=a:1,b:_0;path=a:_0,b:3;label=B": ["H6"],
        "city=revenue:30;path=a:0,b:_0;path=a:_0,b:4;label=B": ["I3"],
    },
    # The Channel ports and Paris: their printed "+20/+30" is not a stop value but the
    # per-token bonus of PORT_BONUS below (the group forbids two of them on one route).
    # 18xx.games also marks them "route:never", which there only means that a route to them
    # alone does not oblige a company to buy a train (graph.rb); they are route stops that
    # count towards a train's length (route.rb visited_stops, check_distance, game.rb
    # revenue_for).  The flag is left out here because engine/model/network_build.py drops
    # route:never parts from the network.
    "blue": {
        "offboard=revenue:green_20|brown_30,format:+%s,groups:port;path=a:4,b:_0;path=a:5,b:_0": ["E3", "G1"],
    },
    "green": {
        "offboard=revenue:green_20|brown_30,format:+%s,groups:port;path=a:3,b:_0;path=a:4,b:_0": ["J2"],
    },
}

# Tile manifest (18xx.games names; the double-town yellows 1, 55 and 69 are removed by the rules).
TILES = {
    "2": 1, "3": 2, "4": 2, "7": 4, "8": 8, "9": 7,
    "14": 3, "15": 2, "16": 1, "18": 1, "19": 1, "20": 1, "23": 3, "24": 3, "25": 1,
    "26": 1, "27": 1, "28": 1, "29": 1,
    "39": 1, "40": 1, "41": 2, "42": 2, "43": 2, "44": 1, "45": 2, "46": 2, "47": 1,
    "53": 2, "54": 1, "56": 1, "57": 4, "58": 2, "59": 2,
    "61": 2, "62": 1, "63": 3, "64": 1, "65": 1, "66": 1, "67": 1, "68": 1, "70": 1,
}

MARKET = [
    ["60y", "67", "71", "76", "82", "90", "100p", "112", "126", "142", "160", "180", "200", "225", "250", "275", "300", "325", "350"],
    ["53y", "60y", "66", "70", "76", "82", "90p", "100", "112", "126", "142", "160", "180", "200", "220", "240", "260", "280", "300"],
    ["46y", "55y", "60y", "65", "70", "76", "82p", "90", "100", "111", "125", "140", "155", "170", "185", "200"],
    ["39o", "48y", "54y", "60y", "66", "71", "76p", "82", "90", "100", "110", "120", "130"],
    ["32o", "41o", "48y", "55y", "62", "67", "71p", "76", "82", "90", "100"],
    ["25b", "34o", "42o", "50y", "58y", "65", "67p", "71", "75", "80"],
    ["18b", "27b", "36o", "45o", "54y", "63", "67", "69", "70"],
    ["10b", "20b", "30b", "40o", "50y", "60y", "67", "68"],
    ["", "10b", "20b", "30b", "40o", "50y", "60y"],
    ["", "", "10b", "20b", "30b", "40o", "50y"],
    ["", "", "", "10b", "20b", "30b", "40o"],
]

PHASES = [
    {"name": "2", "on": None, "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 1},
    {"name": "3", "on": "3", "train_limit": 4, "tiles": ["yellow", "green"], "operating_rounds": 2, "status": ["can_buy_companies"]},
    {"name": "4", "on": "4", "train_limit": 3, "tiles": ["yellow", "green"], "operating_rounds": 2, "status": ["can_buy_companies"]},
    {"name": "5", "on": "5", "train_limit": 2, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3},
    {"name": "6", "on": "6", "train_limit": 2, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3},
    {"name": "D", "on": "D", "train_limit": 2, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3},
]

# A distance of 999 is 18xx.games' way of writing the unlimited diesel (rules.py: Train.unlimited).
TRAINS = [
    {"name": "2", "distance": 2, "price": 80, "num": 5, "rusts_on": "4"},
    {"name": "3", "distance": 3, "price": 180, "num": 4, "rusts_on": "6"},
    {"name": "4", "distance": 4, "price": 300, "num": 3, "rusts_on": "D"},
    {"name": "5", "distance": 5, "price": 450, "num": 2, "events": [{"type": "close_companies"}]},
    {"name": "6", "distance": 6, "price": 630, "num": 2},
    {"name": "D", "distance": 999, "price": 1100, "num": 5, "available_on": "6",
     "discount": {"4": 300, "5": 300, "6": 300}},
]

# Home cities: "city" is omitted where the hex has one city; NBDS (E11) chooses one of the two
# OO cities when it places its home token (the 1830 Erie rule).
CORPORATIONS = [
    {"sym": "B", "name": "Chemins de Fer de L'État Belge", "tokens": [0, 40, 100, 100], "coordinates": "H6", "color": "black"},
    {"sym": "GCL", "name": "Grande Compagnie du Luxembourg", "tokens": [0, 40, 100, 100], "coordinates": "I9", "color": "green"},
    {"sym": "Nord", "name": "Chemin de Fer du Nord", "tokens": [0, 40, 100], "coordinates": "I3", "color": "darkblue"},
    {"sym": "NBDS", "name": "Noord-Brabantsch-Duitsche Spoorweg-Maatschappij", "tokens": [0, 40, 100], "coordinates": "E11", "color": "#ffcd05", "text_color": "black"},
    {"sym": "HSM", "name": "Hollandsche IJzeren Spoorweg Maatschappij", "tokens": [0, 40], "coordinates": "D6", "color": "#f26722"},
    {"sym": "NFL", "name": "Noord-Friesche Locaal", "tokens": [0, 40], "coordinates": "A9", "color": "#90ee90", "text_color": "black"},
]
MINORS = []

# Private companies; abilities as 18xx.games records them.  None of them changes route revenue.
COMPANIES = [
    {"sym": "ACC", "name": "Amsterdam Canal Company", "value": 20, "revenue": 5,
     "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["D6"]}]},
    {"sym": "E-SF", "name": "Enkhuizen-Stavoren Ferry", "value": 40, "revenue": 10,
     "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["B8"]},
                   {"type": "tile_lay", "owner_type": "corporation", "free": True, "hexes": ["B8"],
                    "tiles": ["2", "56"], "when": "owning_corp_or_turn", "count": 1}]},
    {"sym": "CdH", "name": "Charbonnages du Hainaut", "value": 70, "revenue": 15,
     "abilities": [{"type": "blocks_hexes", "owner_type": "player", "hexes": ["J8"]},
                   {"type": "teleport", "owner_type": "corporation", "tiles": ["57"], "hexes": ["J8"]}]},
    {"sym": "GCB", "name": "Grand Central Belge", "value": 110, "revenue": 20,
     "abilities": [{"type": "exchange", "corporations": ["B"], "owner_type": "player", "from": ["ipo", "market"]},
                   {"type": "blocks_hexes", "owner_type": "player", "hexes": ["G7", "G9", "H10"]}]},
    {"sym": "CFL", "name": "Chemins de Fer Luxembourgeois", "value": 160, "revenue": 25,
     "abilities": [{"type": "shares", "shares": "GCL_1"},
                   {"type": "blocks_hexes", "owner_type": "player", "hexes": ["K11", "J12"]}]},
    {"sym": "CFLV", "name": "Chemin de Fer de Lille à Valenciennes", "value": 220, "revenue": 30,
     "abilities": [{"type": "shares", "shares": "Nord_0"},
                   {"type": "close", "when": "bought_train", "corporation": "Nord"},
                   {"type": "no_buy"},
                   {"type": "blocks_hexes", "owner_type": "player", "hexes": ["I3", "J4"]}]},
]

# --- Revenue-rule facts (used by rules.py) -------------------------------------------------

# Paris and the Channel ports: a route with one of them at an end earns, per station token of
# the running company on the route's cities, 20 while the newest tile colour is green and 30
# once brown (nothing in the yellow phase: there is no yellow value).  At most one of them per
# route (18xx.games group "port"); the route needs at least two other stops, so a 2-train can
# never use one.  The port itself earns nothing.  Seed "Paris and the Channel Ports";
# game.rb revenue_for.
PORT_HEXES = ["E3", "G1", "J2"]
PORT_BONUS = {"green": 20, "brown": 30}
PORT_MIN_OTHER_STOPS = 2

# --- Money facts (used by engine/money_1836jr.py) ---------------------------------------------
# tobymao/18xx @111f7f69 lib/engine/corporation.rb (SHARES: a 20% president's certificate and
# eight 10% shares; float_percent 60) and game/base.rb (MARKET_SHARE_LIMIT: at most 50% of a
# company in the market).  The seed keeps 1830's rules here.
SHARES = [20, 10, 10, 10, 10, 10, 10, 10, 10]
FLOAT_PERCENT = 60
MARKET_SHARE_LIMIT = 50

# Amsterdam's green/brown NY tiles (54, 62) have two cities; one train may score both (seed:
# "as per the rules for New York City"), so they are never grouped.
AMSTERDAM_HEX = "D6"
# fmt: on
