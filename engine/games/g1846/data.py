"""1846: The Race for the Midwest -- title facts.

Transcribed (facts only, no code) from tobymao/18xx @111f7f69 (MIT licence):
``lib/engine/game/g_1846/map.rb`` (tiles, location names, hexes),
``lib/engine/game/g_1846/entities.rb`` (companies, corporations, minors),
``lib/engine/game/g_1846/game.rb`` (phases, trains, revenue bonuses, setup constants),
``lib/engine/game/g_1846/step/assign.rb`` and ``step/buy_company.rb`` (assignment and minor
purchase facts) and ``lib/engine/game/g_1846_two_player_variant/`` (the 2-player variant).
Cross-checked against the German rules summary ``1846-summary-de.txt``.
"""

SOURCE = (
    "tobymao/18xx lib/engine/game/g_1846/map.rb, entities.rb, game.rb, step/assign.rb, "
    "step/buy_company.rb, g_1846_two_player_variant/ @111f7f69 (MIT)"
)
TITLE = "1846"
LAYOUT = "pointy"
# AXES omitted: 18xx.games' pointy default (x numbers, y letters).

CURRENCY = "${}"

LOCATION_NAMES = {
    "B8": "Holland",
    "B16": "Port Huron",
    "B18": "Sarnia",
    "C5": "Chicago Connections",
    "C9": "South Bend",
    "C15": "Detroit",
    "C17": "Windsor",
    "D6": "Chicago",
    "D14": "Toledo",
    "D20": "Erie",
    "D22": "Buffalo",
    "E11": "Fort Wayne",
    "E17": "Cleveland",
    "E21": "Salamanca",
    "E23": "Binghamton",
    "F20": "Homewood",
    "G3": "Springfield",
    "G7": "Terre Haute",
    "G9": "Indianapolis",
    "G13": "Dayton",
    "G15": "Columbus",
    "G19": "Wheeling",
    "G21": "Pittsburgh",
    "H12": "Cincinnati",
    "H20": "Cumberland",
    "I1": "St. Louis",
    "I5": "Centralia",
    "I15": "Huntington",
    "I17": "Charleston",
    "J10": "Louisville",
    "K3": "Cairo",
}

# Tile codes exactly as map.rb prints them.  Offboard values ``yellow_X|brown_Y`` resolve
# per phase as 18xx.games does: the latest phase tile colour that has a value (phases I-II
# pay the yellow value, III-IV the brown one).  The numeric icons ``1846/20``, ``1846/30`` and
# ``1846/50`` on the E and W offboards are their East-West bonus amounts (see EAST_BONUS).
HEXES = {
    "white": {
        "": [
            "B14",
            "C11",
            "C13",
            "D8",
            "D10",
            "D12",
            "E7",
            "E9",
            "E13",
            "E15",
            "F4",
            "F8",
            "F10",
            "F12",
            "G11",
            "H2",
            "H4",
            "H8",
            "H10",
            "I3",
            "I7",
            "I9",
            "J8",
            "D18",
            "B10",
            "B12",
            "F14",
            "F16",
        ],
        "border=edge:5,type:mountain,cost:40": ["E19"],
        "icon=image:1846/ic": ["E5", "F6", "G5", "H6"],
        "border=edge:4,type:water,cost:40;icon=image:1846/ic": ["J4"],
        "border=edge:1,type:water,cost:40": ["J6"],
        "border=edge:3,type:water,cost:40": ["I11"],
        "city=revenue:0": ["C9", "E11", "G3", "G7", "G9", "G15"],
        "city=revenue:0;icon=image:1846/lm,sticky:1": ["G13"],
        "city=revenue:0;border=edge:4,type:mountain,cost:40": ["B16"],
        "city=revenue:0;icon=image:port,sticky:1;icon=image:1846/lsl,sticky:1": ["D14"],
        "city=revenue:0;label=Z;icon=image:1846/lsl,sticky:1": ["E17"],
        "city=revenue:0;label=Z;border=edge:0,type:water,cost:40;"
        "icon=image:1846/lm,sticky:1;icon=image:1846/boom,sticky:1": ["H12"],
        "upgrade=cost:40,terrain:mountain;border=edge:5,type:water,cost:40": ["F18"],
        "upgrade=cost:40,terrain:mountain": ["H16"],
        "upgrade=cost:40,terrain:mountain;border=edge:4,type:water,cost:20": ["G17"],
        "upgrade=cost:60,terrain:mountain": ["H14"],
    },
    "gray": {
        "path=a:0,b:5": ["A15", "C7"],
        "city=revenue:10;path=a:1,b:_0;path=a:2,b:_0;path=a:4,b:_0;path=a:5,b:_0;"
        "border=edge:2,type:mountain,cost:40": ["F20"],
        "city=revenue:10,slots:2;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:0,b:_0": ["I5"],
        "city=revenue:20;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0": ["I15"],
        "city=revenue:10;path=a:1,b:_0;path=a:2,b:_0;path=a:4,b:_0": ["E21"],
        "city=revenue:20;path=a:3,b:_0": ["K3"],
    },
    "red": {
        "offboard=revenue:yellow_40|brown_10;path=a:4,b:_0;icon=image:port;icon=image:port": ["B8"],
        "offboard=revenue:yellow_30|brown_50,groups:E;icon=image:1846/20;"
        "path=a:1,b:_0;label=E;border=edge:1,type:mountain,cost:40": ["B18"],
        "offboard=revenue:yellow_20|brown_40;icon=image:1846/50;path=a:5,b:_0;label=W;"
        "icon=image:port": ["C5"],
        "offboard=revenue:yellow_40|brown_60,groups:E;icon=image:1846/30;"
        "path=a:1,b:_0;label=E;border=edge:1,type:mountain,cost:60": ["C17"],
        "offboard=revenue:yellow_30|brown_60,hide:1,groups:E;icon=image:1846/30;"
        "path=a:0,b:_0;border=edge:5": ["C21"],
        "offboard=revenue:yellow_30|brown_60,groups:E;icon=image:1846/30;"
        "path=a:1,b:_0;label=E;border=edge:2": ["D22"],
        "offboard=revenue:yellow_20|brown_50,groups:E;icon=image:1846/30;path=a:1,b:_0;label=E": [
            "E23"
        ],
        "offboard=revenue:yellow_20|brown_50,groups:E;icon=image:1846/20;path=a:1,b:_0;label=E": [
            "I17"
        ],
        "offboard=revenue:yellow_30|brown_70,hide:1,groups:E;icon=image:1846/20;"
        "path=a:1,b:_0;border=edge:0": ["F22"],
        "offboard=revenue:yellow_30|brown_70,groups:E;"
        "border=edge:1,type:mountain,cost:20;icon=image:1846/20;path=a:1,b:_0;"
        "path=a:2,b:_0;label=E;border=edge:3": ["G21"],
        "offboard=revenue:yellow_20|brown_40,groups:E;icon=image:1846/30;path=a:2,b:_0;label=E": [
            "H20"
        ],
        "offboard=revenue:yellow_50|brown_70,groups:St. Louis;path=a:3,b:_0;"
        "path=a:4,b:_0;label=W;icon=image:port;icon=image:1846/meat;icon=image:1846/20": ["I1"],
        "offboard=revenue:yellow_50|brown_70,groups:Louisville;path=a:2,b:_0;path=a:3,b:_0": [
            "J10"
        ],
    },
    "yellow": {
        "city=revenue:40,slots:2;path=a:1,b:_0;path=a:3,b:_0;label=Z;"
        "upgrade=cost:40,terrain:water;border=edge:4,type:mountain,cost:60": ["C15"],
        # Chicago: four one-slot cities, one per entrance (edges 0, 3, 4, 5).
        "city=revenue:10,groups:Chicago;city=revenue:10,groups:Chicago;"
        "city=revenue:10,groups:Chicago;city=revenue:10,groups:Chicago;path=a:0,b:_0;"
        "path=a:3,b:_1;path=a:4,b:_2;path=a:5,b:_3;label=Chi;"
        "icon=image:1846/meat,sticky:1": ["D6"],
        "city=revenue:10,slots:2;path=a:1,b:_0;path=a:3,b:_0;path=a:0,b:_0": ["D20"],
        "city=revenue:10;path=a:5,b:_0;border=edge:1,type:water,cost:20;"
        "border=edge:2,type:water,cost:40;border=edge:4,type:mountain,cost:20;"
        "icon=image:port,sticky:1;icon=image:port,sticky:1": ["G19"],
    },
    "blue": {"": ["D16"]},
}

# Tile manifest.  Standard tiles resolve through engine/model/tiles/catalog.py; 290-300 are
# 1846's own (Z cities and Chicago).  18xx.games carries Chicago's ``groups:Chicago`` over
# from the old cities on upgrade, so 298-300 do not repeat it; rules.py groups Chicago's
# cities itself.
# fmt: off
TILES = {
    "5": 3, "6": 4, "7": "unlimited", "8": "unlimited", "9": "unlimited",
    "14": 4, "15": 5, "16": 2, "17": 1, "18": 1, "19": 2, "20": 2, "21": 1, "22": 1,
    "23": 4, "24": 4, "25": 2, "26": 1, "27": 1, "28": 1, "29": 1, "30": 1, "31": 1,
    "39": 1, "40": 1, "41": 2, "42": 2, "43": 2, "44": 1, "45": 2, "46": 2, "47": 2,
    "51": 2, "57": 4, "70": 1,
    "290": {
        "count": 1,
        "color": "gray",
        "code": "city=revenue:70,slots:3;label=Z;"
        "path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0",
    },
    "291": {
        "count": 1,
        "color": "yellow",
        "code": "city=revenue:40;path=a:0,b:_0;path=a:1,b:_0;label=Z",
    },
    "292": {
        "count": 1,
        "color": "yellow",
        "code": "city=revenue:40;path=a:0,b:_0;path=a:2,b:_0;label=Z",
    },
    "293": {
        "count": 1,
        "color": "yellow",
        "code": "city=revenue:40;path=a:0,b:_0;path=a:3,b:_0;label=Z",
    },
    "294": {
        "count": 2,
        "color": "green",
        "code": "city=revenue:50,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;label=Z",
    },
    "295": {
        "count": 2,
        "color": "green",
        "code": "city=revenue:50,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
        "path=a:3,b:_0;label=Z",
    },
    "296": {
        "count": 1,
        "color": "green",
        "code": "city=revenue:50,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
        "path=a:4,b:_0;label=Z",
    },
    "297": {
        "count": 2,
        "color": "brown",
        "code": "city=revenue:60,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
        "path=a:3,b:_0;path=a:4,b:_0;label=Z",
    },
    # Chicago upgrades: each city keeps its own entrance and all four reach edge 2.
    "298": {
        "count": 1,
        "color": "green",
        "code": "city=revenue:40;city=revenue:40;city=revenue:40;city=revenue:40;"
        "path=a:0,b:_0;path=a:_0,b:2;path=a:3,b:_1;path=a:_1,b:2;path=a:4,b:_2;"
        "path=a:_2,b:2;path=a:5,b:_3;path=a:_3,b:2;label=Chi",
    },
    "299": {
        "count": 1,
        "color": "brown",
        "code": "city=revenue:70;city=revenue:70;city=revenue:70;city=revenue:70;"
        "path=a:0,b:_0;path=a:_0,b:2;path=a:3,b:_1;path=a:_1,b:2;path=a:4,b:_2;"
        "path=a:_2,b:2;path=a:5,b:_3;path=a:_3,b:2;label=Chi",
    },
    "300": {
        "count": 1,
        "color": "gray",
        "code": "city=revenue:90;city=revenue:90;city=revenue:90;city=revenue:90;"
        "path=a:0,b:_0;path=a:_0,b:2;path=a:3,b:_1;path=a:_1,b:2;path=a:4,b:_2;"
        "path=a:_2,b:2;path=a:5,b:_3;path=a:_3,b:2;label=Chi",
    },
    "611": 4, "619": 3,
}
# fmt: on

PHASES = [
    {
        "name": "I",
        "train_limit": 4,
        "tiles": ["yellow"],
        "operating_rounds": 2,
        "on": None,
        "status": ["can_buy_companies"],
    },
    {
        "name": "II",
        "train_limit": 4,
        "tiles": ["yellow", "green"],
        "operating_rounds": 2,
        "on": "4",
        "status": ["can_buy_companies"],
    },
    {
        "name": "III",
        "train_limit": 3,
        "tiles": ["yellow", "green", "brown"],
        "operating_rounds": 2,
        "on": "5",
        "status": [],
    },
    {
        "name": "IV",
        "train_limit": 2,
        "tiles": ["yellow", "green", "brown", "gray"],
        "operating_rounds": 2,
        "on": "6",
        "status": [],
    },
]

# Train counts depend on the player count (game.rb ``num_trains``); "num" maps players to
# count.  Plain N trains count every stop they visit; the N/M variants visit up to M cities or
# offboards and count the best N.  From its ``obsolete_on`` phase a train no longer counts
# against the train limit and runs once more: it rusts in its owner's next dividend step
# (step/dividend.rb ``rust_obsolete_trains!``), whatever ``rusts_on`` says.
TRAINS = [
    {
        "name": "2",
        "distance": 2,
        "price": 80,
        "num": {2: 7, 3: 7, 4: 8, 5: 9},
        "obsolete_on": "5",
        "rusts_on": "6",
    },
    {
        "name": "4",
        "distance": 4,
        "price": 180,
        "num": {2: 5, 3: 4, 4: 5, 5: 6},
        "obsolete_on": "6",
        "variants": [
            {
                "name": "3/5",
                "distance": [{"nodes": ["city", "offboard"], "pay": 3, "visit": 5}],
                "price": 160,
            },
        ],
    },
    {
        "name": "5",
        "distance": 5,
        "price": 500,
        "num": {2: 3, 3: 3, 4: 4, 5: 5},
        "variants": [
            {
                "name": "4/6",
                "distance": [{"nodes": ["city", "offboard"], "pay": 4, "visit": 6}],
                "price": 450,
            },
        ],
        "events": ["close_companies"],
    },
    {
        "name": "6",
        "distance": 6,
        "price": 800,
        "num": {2: 4, 3: 9, 4: 9, 5: 9},
        "variants": [
            {
                "name": "7/8",
                "distance": [{"nodes": ["city", "offboard"], "pay": 7, "visit": 8}],
                "price": 900,
            },
        ],
        "events": ["remove_bonuses", "remove_reservations"],
    },
]

CORPORATIONS = [
    {
        "sym": "PRR",
        "name": "Pennsylvania Railroad",
        "tokens": [0, 80, 80, 80, 80],
        "coordinates": "F20",
        "city": 0,
        "color": "#FF0000",
        "float_percent": 20,
        # Reserved slot until phase IV; $40 if connected, $60 without a connection.
        "reservation": {"hex": "E11", "city": 0, "remove": "IV"},
        "abilities": [
            {"type": "token", "hexes": ["E11"], "price": 40, "teleport_price": 60},
            {"type": "reservation", "hex": "E11", "remove": "IV"},
        ],
    },
    {
        "sym": "NYC",
        "name": "New York Central Railroad",
        "tokens": [0, 80, 80, 80],
        "coordinates": "D20",
        "city": 0,
        "color": "#110a0c",
        "float_percent": 20,
    },
    {
        "sym": "B&O",
        "name": "Baltimore & Ohio Railroad",
        "tokens": [0, 80, 80, 80],
        "coordinates": "G19",
        "city": 0,
        "color": "#025aaa",
        "float_percent": 20,
        "reservation": {"hex": "H12", "city": 0, "remove": "IV"},
        "abilities": [
            {"type": "token", "hexes": ["H12"], "price": 40, "teleport_price": 100, "count": 1},
            {"type": "reservation", "hex": "H12", "remove": "IV"},
        ],
    },
    {
        "sym": "C&O",
        "name": "Chesapeake & Ohio Railroad",
        "tokens": [0, 80, 80, 80],
        "coordinates": "I15",
        "city": 0,
        "color": "#ADD8E6",
        "float_percent": 20,
    },
    {
        "sym": "ERIE",
        "name": "Erie Railroad",
        "tokens": [0, 80, 80, 80],
        "coordinates": "E21",
        "city": 0,
        "color": "#FFF500",
        "float_percent": 20,
        # Slot 1 of Erie (D20, NYC's home) is reserved; $40, connection required.
        "reservation": {"hex": "D20", "city": 0, "slot": 1, "remove": "IV"},
        "abilities": [
            {"type": "token", "hexes": ["D20"], "price": 40, "count": 1},
            {"type": "reservation", "hex": "D20", "slot": 1, "remove": "IV"},
        ],
    },
    {
        "sym": "GT",
        "name": "Grand Trunk Railway",
        "tokens": [0, 80, 80],
        "coordinates": "B16",
        "city": 0,
        "color": "#f58121",
        "float_percent": 20,
    },
    {
        "sym": "IC",
        "name": "Illinois Central Railroad",
        "tokens": [0, 80, 80, 80],
        "coordinates": "K3",
        "city": 0,
        "color": "#32763f",
        "float_percent": 20,
        "reservation": {"hex": "I5", "city": 0, "remove": "IV"},
        "abilities": [
            # One-time subsidy of its par price when floated.
            {"type": "base", "subsidy": "par"},
            # Free yellow tiles on the IC-icon hexes.
            {
                "type": "tile_lay",
                "discount": 20,
                "hexes": ["E5", "F6", "G5", "H6", "J4"],
                "tiles": ["7", "8", "9"],
            },
            {"type": "token", "hexes": ["I5"], "price": 40, "count": 1},
            {"type": "reservation", "hex": "I5", "remove": "IV"},
        ],
    },
]

# The two minors (privates MS and BIG4) start with a 2-train and a home token; both close on
# the first 5-train (phase III).  A corporation buying one takes its cash, train and token.
MINORS = [
    {
        "sym": "MS",
        "name": "Michigan Southern",
        "tokens": [0],
        "coordinates": "C15",
        "city": 0,
        "color": "pink",
        "cash": 60,
        "trains": ["2"],
    },
    {
        "sym": "BIG4",
        "name": "Big 4",
        "tokens": [0],
        "coordinates": "G9",
        "city": 0,
        "color": "cyan",
        "cash": 40,
        "trains": ["2"],
    },
]

# Private companies.  ``discount`` as in entities.rb: the draft price is value - discount.
# fmt: off
COMPANIES = [
    {"sym": "MS", "name": "Michigan Southern (Minor)", "value": 60, "discount": -80,
     "revenue": 0, "minor": "MS"},
    {"sym": "BIG4", "name": "Big 4 (Minor)", "value": 40, "discount": -60, "revenue": 0,
     "minor": "BIG4"},
    {"sym": "C&WI", "name": "Chicago and Western Indiana", "value": 60, "revenue": 10,
     "abilities": [
         # Free extra token in Chicago's south-east city (index 3, next to E7).
         {"type": "token", "hexes": ["D6"], "city": 3, "price": 0, "teleport_price": 0,
          "count": 1, "extra_action": True, "owner_type": "corporation"},
         {"type": "reservation", "hex": "D6", "city": 3, "remove": "sold"},
     ]},
    {"sym": "MAIL", "name": "Mail Contract", "value": 80, "revenue": 0,
     "abilities": [
         # $10 per stop visited by the owning corporation's route with most stops.
         {"type": "revenue_bonus", "per_stop": 10, "scope": "longest_route"},
         {"type": "close", "on_phase": "never", "owner_type": "corporation"},
     ]},
    {"sym": "TBC", "name": "Tunnel Blasting Company", "value": 60, "revenue": 20,
     "abilities": [
         {"type": "tile_discount", "discount": 20, "terrain": "mountain",
          "owner_type": "corporation"},
     ]},
    {"sym": "MPC", "name": "Meat Packing Company", "value": 60, "revenue": 15,
     "abilities": [
         {"type": "assign_hexes", "hexes": ["I1", "D6"], "count": 1,
          "owner_type": "corporation", "bonus": 30},
         {"type": "assign_corporation", "when": "sold", "count": 1,
          "owner_type": "corporation"},
     ]},
    {"sym": "SC", "name": "Steamboat Company", "value": 40, "revenue": 10,
     "abilities": [
         # A player owner may reassign hex and corporation/minor at each OR start; once
         # sold to a corporation it is assigned to that corporation for good.
         {"type": "assign_hexes", "hexes": ["B8", "C5", "D14", "I1", "G19"],
          "count_per_or": 1, "when": "or_start", "owner_type": "player"},
         {"type": "assign_corporation", "count_per_or": 1, "when": "or_start",
          "owner_type": "player"},
         {"type": "assign_hexes", "hexes": ["B8", "C5", "D14", "I1", "G19"],
          "count_per_or": 1, "when": ["track_and_token", "route"],
          "owner_type": "corporation"},
         {"type": "assign_corporation", "when": "sold", "count": 1,
          "owner_type": "corporation"},
     ]},
    {"sym": "LSL", "name": "Lake Shore Line", "value": 40, "revenue": 15,
     "abilities": [
         {"type": "tile_lay", "free": True, "hexes": ["D14", "E17"],
          "tiles": ["14", "15", "619", "294", "295", "296"], "count": 1,
          "owner_type": "corporation"},
     ]},
    {"sym": "MC", "name": "Michigan Central", "value": 40, "revenue": 15,
     "abilities": [
         {"type": "blocks_hexes", "hexes": ["B10", "B12"], "owner_type": "player"},
         {"type": "tile_lay", "free": True, "must_lay_together": True,
          "hexes": ["B10", "B12"], "tiles": ["7", "8", "9"], "count": 2,
          "owner_type": "corporation"},
     ]},
    {"sym": "O&I", "name": "Ohio & Indiana", "value": 40, "revenue": 15,
     "abilities": [
         {"type": "blocks_hexes", "hexes": ["F14", "F16"], "owner_type": "player"},
         {"type": "tile_lay", "free": True, "must_lay_together": True,
          "hexes": ["F14", "F16"], "tiles": ["7", "8", "9"], "count": 2,
          "owner_type": "corporation"},
     ]},
    # Second-edition privates (left out with the "first_ed" optional rule).
    {"sym": "BT", "name": "Boomtown", "value": 40, "revenue": 10,
     "abilities": [
         {"type": "assign_hexes", "hexes": ["H12"], "count": 1,
          "owner_type": "corporation", "bonus": 20},
         {"type": "assign_corporation", "when": "sold", "count": 1,
          "owner_type": "corporation"},
     ]},
    {"sym": "LM", "name": "Little Miami", "value": 40, "revenue": 15,
     "abilities": [
         {"type": "tile_lay", "discount": 20, "must_lay_together": True,
          "hexes": ["H12", "G13"],
          "tiles": ["5", "6", "57", "14", "15", "619", "291", "292", "293", "294", "295",
                    "296"],
          "count": 2, "owner_type": "corporation"},
     ]},
]
# fmt: on
FIRST_EDITION_ONLY_EXCLUDES = ["BT", "LM"]

# --- Revenue facts (game.rb revenue_for / east_west_bonus) --------------------------------

# East offboards: every offboard with ``groups:E``.  A route may use group E only once
# (no East-East route).  Bonus = the numeric icon on the offboard's tile.
EAST_BONUS = {
    "B18": 20,
    "C17": 30,
    "C21": 30,
    "D22": 30,
    "E23": 30,
    "F22": 20,
    "G21": 20,
    "H20": 30,
    "I17": 20,
}
# West offboards: every offboard with ``label=W``.
WEST_BONUS = {"C5": 50, "I1": 20}
# An East-West route earns EAST_BONUS[east] + WEST_BONUS[west]; with an N/M train both ends
# must be among the counted stops.  The German summary also forbids West-West routes
# ("nicht Ost-Ost oder West-West"); C5 and I1 share no group in 18xx.games, which therefore
# allows C5-I1.  The summary's ban is the default; the option ALLOW_WEST_WEST lifts it, and
# every 18xx.games record is played with it (DESIGN: a record is scored under the rule it was
# played with).
ALLOW_WEST_WEST = "allow_west_west"

# Chicago (D6): four cities, at most one per route.
CHICAGO_HEX = "D6"
CHICAGO_CITIES = 4

# Meat Packing: +$30 at the assigned hex (D6 or I1) for the assigned corporation.
MEAT_HEXES = ["D6", "I1"]
MEAT_BONUS = 30
# Steamboat: +$20 per port icon on the assigned hex, for the assigned corporation or minor.
STEAMBOAT_PER_PORT = 20
STEAMBOAT_PORTS = {"B8": 2, "C5": 1, "D14": 1, "I1": 1, "G19": 2}
# Boomtown (2nd edition): +$20 at Cincinnati for the assigned corporation.
BOOMTOWN_HEXES = ["H12"]
BOOMTOWN_BONUS = 20
# Meat, Steamboat and Boomtown bonuses are removed by the first 6-train (phase IV);
# a player-owned Steamboat's assignment is already removed by the first 5-train (phase III).
ASSIGNMENT_BONUS_REMOVED_IN = "IV"
# Mail Contract: $10 per stop visited by the owning corporation's route with most stops.
MAIL_CONTRACT = "MAIL"
MAIL_PER_STOP = 10
# A route must contain a city with the corporation's token; for N/M trains that city must
# be among the counted stops (game.rb train_help; base.rb compute_stops honours it).
TOKEN_MUST_BE_COUNTED = True

# Tile lay cost: max($20, terrain cost) for every lay or upgrade (game.rb TILE_COST).
TILE_COST = 20

# --- Setup facts ---------------------------------------------------------------------------

BANK_CASH = {2: 7000, 3: 6500, 4: 7500, 5: 9000}
STARTING_CASH = {2: 600, 3: 400, 4: 400, 5: 400}
CERT_LIMIT = {
    2: {5: 19, 4: 16},
    3: {5: 14, 4: 11},
    4: {6: 12, 5: 10, 4: 8},
    5: {7: 11, 6: 10, 5: 8, 4: 6},
}
# fmt: off
MARKET = [
    "0c", "10", "20", "30", "40p", "50p", "60p", "70p", "80p", "90p", "100p", "112p", "124p",
    "137p", "150p", "165", "180", "195", "212", "230", "250", "270", "295", "320", "345",
    "375", "405", "440", "475", "510", "550",
]
# fmt: on
# Privates drawn out at random: one per group per missing player below five, plus one more
# in the 2nd edition.
ORANGE_GROUP = ["LSL", "MC", "O&I", "LM"]
BLUE_GROUP = ["SC", "MPC", "TBC", "BT"]
# Corporations drawn out at random (5 - players of them); a removed corporation's home
# token stays on the map.
GREEN_GROUP = ["C&O", "ERIE", "PRR"]

# The 2-player variant (g_1846_two_player_variant): same map, rules and revenue; these
# differ.
TWO_PLAYER = {
    "title": "1846 2p Variant",
    "bank_cash": 7000,
    "starting_cash": 600,
    "cert_limit": {5: 19, 4: 16},
    "max_ownership_percent": 70,
    "trains": {"2": 7, "4": 5, "5": 3, "6": 4},
    # One corporation drawn out of each group.
    "removal_groups": [["ERIE", "GT", "NYC", "PRR"], ["B&O", "C&O", "IC"]],
    # A removed corporation keeps its home token and gets a second token here (Erie's at
    # once, the others when the city turns green).
    "removed_second_token": {
        "B&O": "H12",
        "C&O": "H12",
        "ERIE": "D20",
        "GT": "D14",
        "IC": "G7",
        "NYC": "E17",
        "PRR": "E11",
    },
    "private_removals_per_group": 1,
    "game_end_on_final_train": True,
}


# Station tokens a corporation may hold beyond its charter: the token of each minor it buys
# (Michigan Southern, Big 4: the minor's token becomes the corporation's, 18xx.games
# g_1846 ``buy_company``) and the Chicago & Western Indiana's (``special_token.rb``: a new
# token, not one of the charter's).  Positions are checked against it.
EXTRA_TOKENS = 3
