# ruff: noqa: E501
"""1862 USA/Canada (Helmut Ohley): facts only.

Sources
-------
- Map, location names, tile manifest and custom tile codes, corporation homes, colours and
  groups, bonus-station hexes: tobymao/18xx ``lib/engine/game/g_1862_usa_canada/map.rb``,
  ``entities.rb``, ``game.rb`` and ``meta.rb`` @111f7f698005a057d68877682486da3f1705e551
  (MIT licence).  That implementation is the "1862 USA Canada 2025 Version", dev stage
  ``prealpha``.
- Rules, trains, phases, private companies, token costs, bonus-route arithmetic, offboard
  value timing and the Salt Lake City bonus: ``shared/seeds/1862-usa-canada-ohley-rules.txt``
  (the Ohley rulebook).  **Where the two differ the rulebook wins**; every such place is
  marked ``RULEBOOK`` below.  Facts the rulebook does not give (it has no map, and its
  company and private tables are cut short) come from 18xx.games and are marked as such.
- Bonus distances are *derived* here, not transcribed: the company charters that print them
  are not available.  See :data:`BONUS_DISTANCE_METHOD`.

Differences noted between the rulebook and 18xx.games (rulebook kept):

- Trains: rulebook 2, 3, 4, 5, 6, 8, 10 plus 5E, 6E, 8E, 10E; 18xx.games 2-7 each with an E
  variant and an unlimited "8".
- Bonus routes: rulebook ``k * distance - 10 * hexes`` (k = 20 yellow/green, 30 brown/gray);
  18xx.games uses one-off cash / permanent route-bonus markers (``CORP_BONUSES``).
- Salt Lake City: rulebook +20 to the city's value for CPR and UP; 18xx.games a +30 route
  bonus (15 while SOC is open).
- Private companies 2 and 3: rulebook Erie Steamship Company and Baltimore & Ohio Railroad;
  18xx.games Toronto Steamship Company (TOR) and Bahnhoflizenz (BHL).  Prices and revenues of
  4 (RMC) and 5 (PSC) differ too; FNY gives two NYC shares in the rulebook, one on 18xx.games.
- Station markers: rulebook costs 0 / 40 / 100 (x1.5 across the border); 18xx.games
  0 / 40 / 80 / 120.
- Groups: rulebook four groups with 30 % presidencies for group 1 only; 18xx.games three
  groups and 30 % presidencies for TP, ORN and WP as well.
"""

SOURCE = (
    "tobymao/18xx lib/engine/game/g_1862_usa_canada/map.rb, entities.rb, game.rb, meta.rb "
    "@111f7f69 (MIT); shared/seeds/1862-usa-canada-ohley-rules.txt (rulebook wins)"
)
TITLE = "1862UsaCanada"  # meta.rb GAME_TITLE
ALIASES = ("1862",)  # also reachable by the short name
DISPLAY_TITLE = "1862 USA/Canada (Ohley)"
LAYOUT = "pointy"
AXES = {"x": "number", "y": "letter"}

# The tables below keep one fact per line or one row per entity, as in the sources.
# fmt: off

# map.rb LOCATION_NAMES, verbatim.  18xx.games names both I9 and H10 "Phoenix" and calls
# J10 "Santa Fe" here but "El Paso" in its UP bonus; kept as given.
LOCATION_NAMES = {
    "B2": "Vancouver",
    "C1": "Victoria",
    "C3": "Seattle",
    "C5": "Spokane",
    "D2": "Portland",
    "A7": "Calgary",
    "B10": "Regina",
    "B14": "Winnipeg",
    "B20": "Thunder Bay",
    "E6": "Boise",
    "D10": "Billings",
    "E11": "Rapid City",
    "F8": "Ogden",
    "G9": "Salt Lake City / SLC",
    "G11": "Denver",
    "G3": "San Francisco / Sacramento",
    "I5": "Los Angeles",
    "J6": "San Diego",
    "D16": "Minneapolis",
    "D18": "Duluth",
    "G17": "Kansas City",
    "F14": "Omaha",
    "G19": "St. Louis",
    "F20": "Chicago",
    "G23": "Columbus",
    "E25": "Toronto",
    "D26": "Ottawa",
    "C29": "Quebec",
    "D28": "Montreal",
    "F28": "New York",
    "F30": "Boston",
    "I9": "Phoenix",
    "J8": "Tucson",
    "J10": "Santa Fe",
    "H10": "Phoenix",
    "I15": "Oklahoma City",
    "J16": "Dallas",
    "I17": "Little Rock",
    "K15": "Austin",
    "K17": "Houston",
    "J18": "Jackson",
    "I23": "Atlanta",
    "I21": "Chattanooga",
    "H26": "Richmond",
    "K19": "New Orleans",
    "J20": "Mobile",
    "A29": "Labrador",
    "K9": "Mexico",
    "K11": "Mexico",
    "L24": "Florida",
}

# map.rb HEXES.  Terrain costs are 18xx.games' (mountain 80, hill 40 as "mountain", river 40);
# the rulebook prices a different edition's map (coast 40, river 80, mountain 120,
# mountain + river 160) whose hexes cannot be matched to these, so the map's costs stay.
HEXES = {
    "white": {
        "": [
            "A11", "A13", "A17", "A19", "A21", "A23", "A25", "A27", "B12", "B16", "B18",
            "B22", "B24", "B26", "C13", "C15", "C17", "C19", "C21", "C23", "C25", "C27",
            "D4", "D14", "D20", "D24", "E19", "E27", "F22",
            "F24", "G15", "G21", "H14", "H16", "H18", "H22", "I25", "J14", "J22", "K13", "K23",
        ],
        "upgrade=cost:80,terrain:mountain": [
            "A3", "A5", "B4", "B6", "B8", "C7", "C9", "D6", "D8", "E3", "E7", "E9", "F4", "F6",
            "F10", "G5", "G7", "H8", "I7",
        ],
        "upgrade=cost:40,terrain:mountain": [
            "A9", "C11", "D12", "F12", "F26", "G13", "G25", "H12", "H24", "I11", "I13", "J12",
        ],
        "upgrade=cost:40,terrain:river": [
            "A15", "B28", "D30", "E1", "E13", "E15", "E17", "F2", "F16", "H4", "H20", "I19",
            "J24", "K21",
        ],
        "city=revenue:0;upgrade=cost:40,terrain:river": ["F18", "G17"],
        "town=revenue:0;upgrade=cost:40,terrain:river": ["G19", "J18"],
        "city=revenue:0": [
            "A7", "B10", "B14", "C29", "D16", "D26", "E11", "G11", "G23", "G27", "H10", "I15",
            "I23", "J6", "J10", "J16", "J20", "K15",
            "C3",  # Seattle, ORN home
        ],
        "town=revenue:0": [
            "C5", "B20", "D10", "D18", "E5", "E29", "F8", "H6", "H26", "I9", "I17", "I21", "J8",
            "K17",
        ],
        "city=revenue:0;label=V": ["B2"],  # Vancouver
        "city=revenue:0;label=P": ["D2"],  # Portland
        "city=revenue:10;path=a:2,b:_0;label=M": ["D28"],  # Montreal, CP home
        "city=revenue:10;path=a:1,b:_0": ["F14"],  # Omaha, UP home (RULEBOOK: a yellow tile must be laid here first)
        "city=revenue:0;label=L": ["I5"],  # Los Angeles
        "city=revenue:0;label=SLC": ["G9"],  # Salt Lake City
    },
    "gray": {
        "town=revenue:20;path=a:3,b:_0": ["C1"],  # Victoria
        "": ["D22", "E21"],  # Great Lakes: no track
        "path=a:4,b:0": ["E23"],
        "city=revenue:20;path=a:1,b:_0": ["E25", "F30"],  # Toronto, Boston
        "town=revenue:20;path=a:2,b:_0": ["K7"],
    },
    "yellow": {
        "city=revenue:20;path=a:1,b:_0;path=a:0,b:_0;label=C": ["F20"],  # Chicago
        "city=revenue:20;path=a:1,b:_0;path=a:2,b:_0;label=NO": ["K19"],  # New Orleans
        # Sacramento: two separate stations (CPR city 0, WP city 1).
        "city=revenue:20;city=revenue:20,loc:0;path=a:4,b:_0;path=a:5,b:_1;label=S": ["G3"],
        # New York: two separate stations (NYC city 0, NYH city 1).
        "city=revenue:20;city=revenue:20;path=a:0,b:_0;path=a:4,b:_0;path=a:1,b:_1;path=a:3,b:_1;label=NY": ["F28"],
    },
    "red": {
        # RULEBOOK: the first value counts in the yellow and green phases, the second in the
        # brown and gray phases, which is how these yellow_/brown_ codes resolve.
        "offboard=revenue:yellow_20|brown_40;path=a:0,b:_0;path=a:1,b:_0": ["A29"],  # Labrador
        "offboard=revenue:yellow_40|brown_80;path=a:2,b:_0;path=a:3,b:_0": ["K9"],  # Mexico
        "offboard=revenue:yellow_40|brown_80;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0": ["K11"],  # Mexico
        "offboard=revenue:yellow_30|brown_60;path=a:2,b:_0": ["L24"],  # Florida
    },
}

# map.rb TILES.  18xx.games gives 85 yellow, 41 green, 26 brown and 8 gray (TOR included);
# the rulebook lists 85 yellow, 47 green, 24 brown, 8 gray plus the special Erie tile, whose
# layout is not known (see COMPANIES, ERIE).  The trailing ';' of 18xx.games' 204_B code is
# dropped.
TILES = {
    # yellow
    "3": 4, "4": 10, "6": 10, "7": 4, "8": 12, "9": 22, "57": 10, "58": 8,
    # green
    "14": 4, "15": 4, "16": 2, "19": 2, "20": 2, "23": 4, "24": 4, "25": 2, "26": 2, "27": 2,
    "28": 2, "29": 2,
    # brown
    "39": 1, "40": 1, "41": 1, "42": 1, "43": 1, "44": 1, "45": 1, "46": 1, "47": 1, "70": 1,
    "611": 7,
    # gray
    "895": 3,
    "899": {"count": 1, "color": "gray", "code": "city=revenue:80,slots:3;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=NO"},
    "204_B": {"count": 2, "color": "brown", "code": "town=revenue:10;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:4,b:_0;path=a:5,b:_0"},
    "TOR": {"count": 1, "color": "gray", "code": "city=revenue:30;path=a:1,b:_0;path=a:3,b:_0;path=a:5,b:_0;label=T"},
    "MTL_Y": {"count": 1, "color": "yellow", "code": "city=revenue:20;path=a:1,b:_0;path=a:2,b:_0;label=M"},
    "MTL_G": {"count": 1, "color": "green", "code": "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;label=M"},
    "MTL_B": {"count": 1, "color": "brown", "code": "city=revenue:60,slots:3;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=M"},
    "NY_G": {"count": 1, "color": "green", "code": "city=revenue:40;city=revenue:40;path=a:0,b:_0;path=a:4,b:_0;path=a:1,b:_1;path=a:3,b:_1;label=NY"},
    "NY_B": {"count": 1, "color": "brown", "code": "city=revenue:60,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=NY"},
    # One gray tile serves Montreal or New York, not both.
    "MTL_GR": {"count": 1, "color": "gray", "code": "city=revenue:80,slots:3;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=M;label=NY"},
    "SLC_Y": {"count": 1, "color": "yellow", "code": "city=revenue:20;path=a:1,b:_0;path=a:3,b:_0;label=SLC"},
    "SLC_G": {"count": 1, "color": "green", "code": "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=SLC"},
    "SLC_B": {"count": 1, "color": "brown", "code": "city=revenue:60,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=SLC"},
    "V_Y": {"count": 1, "color": "yellow", "code": "city=revenue:20;path=a:5,b:_0;path=a:3,b:_0;label=V"},
    "P_Y": {"count": 1, "color": "yellow", "code": "city=revenue:20;path=a:0,b:_0;path=a:3,b:_0;label=P"},
    "L_Y": {"count": 1, "color": "yellow", "code": "city=revenue:20;path=a:5,b:_0;path=a:2,b:_0;label=L"},
    "P_G": {"count": 1, "color": "green", "code": "city=revenue:40,slots:2;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=P"},
    "V_G": {"count": 1, "color": "green", "code": "city=revenue:40,slots:2;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=V"},
    "L_G": {"count": 1, "color": "green", "code": "city=revenue:40,slots:2;path=a:5,b:_0;path=a:2,b:_0;path=a:4,b:_0;label=L"},
    "S_G": {"count": 1, "color": "green", "code": "city=revenue:40;city=revenue:40;path=a:5,b:_0;path=a:2,b:_1;path=a:4,b:_1;label=S"},
    "VSPL_B": {"count": 2, "color": "brown", "code": "city=revenue:60,slots:3;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=V;label=S;label=P;label=L"},
    "VSPL_G": {"count": 1, "color": "gray", "code": "city=revenue:80,slots:3;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=V;label=S;label=P;label=L"},
    "C_G": {"count": 1, "color": "green", "code": "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;label=C"},
    "C_B": {"count": 1, "color": "brown", "code": "city=revenue:60,slots:3;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=C"},
    "NO_G": {"count": 1, "color": "green", "code": "city=revenue:40,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;label=NO"},
    "NO_B": {"count": 1, "color": "brown", "code": "city=revenue:60,slots:3;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=NO"},
    "C_GR": {"count": 1, "color": "gray", "code": "city=revenue:80,slots:3;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;label=C"},
}

# RULEBOOK "Effects of Purchasing New Trains".  Phase names follow the train that starts them
# (18xx.games style).  Yellow 1 OR, green 2, brown and gray 3 (the brown paragraph says both
# "one" and "three"; the stock-round section settles it at three).
PHASES = [
    {"name": "2", "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 1, "on": None},
    {"name": "3", "train_limit": 4, "tiles": ["yellow", "green"], "operating_rounds": 2, "on": "3"},
    {"name": "4", "train_limit": 3, "tiles": ["yellow", "green"], "operating_rounds": 2, "on": "4"},
    {"name": "5", "train_limit": 2, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3, "on": "5"},
    {"name": "6", "train_limit": 2, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3, "on": "6"},
    {"name": "8", "train_limit": 2, "tiles": ["yellow", "green", "brown", "gray"], "operating_rounds": 3, "on": "8"},
    {"name": "10", "train_limit": 2, "tiles": ["yellow", "green", "brown", "gray"], "operating_rounds": 3, "on": "10"},
]


# RULEBOOK train series 2, 3, 4, 5, 6, 8, 10; E-trains 5E, 6E, 8E, 10E become available with
# the first train of their series and are not scrapped.  4 scraps 2, 6 scraps 3, 8 scraps 4.
# The rulebook gives no prices or counts (42 cards in all).  Prices and counts of 2-6, 5E and
# 6E are 18xx.games' (2025 version); the others are unknown (None).  An E-train counts its
# best N stops and may omit any (RULEBOOK "Operating Trains"): visit 99 = no limit.
TRAINS = [
    {"name": "2", "distance": 2, "price": 100, "num": 7, "rusts_on": "4"},
    {"name": "3", "distance": 3, "price": 200, "num": 6, "rusts_on": "6"},
    {"name": "4", "distance": 4, "price": 300, "num": 5, "rusts_on": "8"},
    {"name": "5", "distance": 5, "price": 550, "num": 4,
     "variants": [{"name": "5E", "distance": [{"nodes": ["city", "offboard", "town"], "pay": 5, "visit": 99}], "price": 700}]},
    {"name": "6", "distance": 6, "price": 650, "num": 3,
     "variants": [{"name": "6E", "distance": [{"nodes": ["city", "offboard", "town"], "pay": 6, "visit": 99}], "price": 800}]},
    {"name": "8", "distance": 8, "price": None, "num": None,
     "variants": [{"name": "8E", "distance": [{"nodes": ["city", "offboard", "town"], "pay": 8, "visit": 99}], "price": None}]},
    {"name": "10", "distance": 10, "price": None, "num": None,
     "variants": [{"name": "10E", "distance": [{"nodes": ["city", "offboard", "town"], "pay": 10, "visit": 99}], "price": None}]},
]

# entities.rb CORPORATIONS (homes, colours) with RULEBOOK token costs (home free, then 40,
# then 100 each).  Marker counts: rulebook for NYH, NYC, CP (4) and CPR (3); 18xx.games for
# the rest.  Shares: RULEBOOK 30 % presidency for group 1 only.  Groups: 18xx.games
# (the rulebook's own four-group split is cut short after CPR in the seed).
#
# bonus_stations: RULEBOOK "Bonus Routes".  Which stations are bonus stations is taken from
# 18xx.games game.rb CORP_BONUSES; its "V/P/S/L" entry lists B2 C1 G3 I5 but names the
# V, P, S, L labelled cities, which are B2, D2, G3, I5 (the VSPL tiles carry exactly those
# labels), so D2 (Portland) is used instead of C1 (Victoria, a town).  ``distance`` is
# derived, see BONUS_DISTANCE_METHOD.  ``set`` names the 18xx.games entry a station came from.
_G1 = [30, 10, 10, 10, 10, 10, 10, 10]
_G2 = [20, 10, 10, 10, 10, 10, 10, 10, 10]
CORPORATIONS = [
    {"sym": "NYH", "name": "New York New Haven", "group": 1, "shares": _G1, "float_percent": 60,
     "tokens": [0, 40, 100, 100], "coordinates": "F28", "city": 1, "color": "#d1232a", "text_color": "white",
     "bonus_stations": [
         {"hex": "F20", "name": "Chicago", "distance": 4},
         {"hex": "K19", "name": "New Orleans", "distance": 7},
     ]},
    {"sym": "NYC", "name": "New York Central", "group": 1, "shares": _G1, "float_percent": 60,
     "tokens": [0, 40, 100, 100], "coordinates": "F28", "city": 0, "color": "#110a0c", "text_color": "white",
     "bonus_stations": []},
    {"sym": "CP", "name": "Canadian Pacific", "group": 1, "shares": _G1, "float_percent": 60,
     "tokens": [0, 40, 100, 100], "coordinates": "D28", "city": 0, "color": "#d88e39", "text_color": "black",
     "bonus_stations": [
         {"hex": "E25", "name": "Toronto", "distance": 2},
         {"hex": "B20", "name": "Thunder Bay", "distance": 5},
         {"hex": "B2", "name": "Vancouver", "distance": 14, "set": "V/P/S/L"},
         {"hex": "D2", "name": "Portland", "distance": 14, "set": "V/P/S/L"},
         {"hex": "G3", "name": "Sacramento", "distance": 14, "set": "V/P/S/L"},
         {"hex": "I5", "name": "Los Angeles", "distance": 14, "set": "V/P/S/L"},
     ]},
    {"sym": "CPR", "name": "Central Pacific Railroad", "group": 2, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40, 100], "coordinates": "G3", "city": 0, "color": "#f48221", "text_color": "black",
     "bonus_stations": [
         {"hex": "F14", "name": "Omaha", "distance": 6},
     ]},
    {"sym": "UP", "name": "Union Pacific", "group": 2, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40, 100], "coordinates": "F14", "city": 0, "color": "#025aaa", "text_color": "white",
     "bonus_stations": [
         {"hex": "K19", "name": "New Orleans", "distance": 5},
         {"hex": "J10", "name": "El Paso", "distance": 4},
     ]},
    {"sym": "ATS", "name": "Atchison Topeka & Santa Fe", "group": 2, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40, 100], "coordinates": "F20", "city": 0, "color": "#32763f", "text_color": "white",
     "bonus_stations": [
         {"hex": "B2", "name": "Vancouver", "distance": 11, "set": "V/P/S/L"},
         {"hex": "D2", "name": "Portland", "distance": 10, "set": "V/P/S/L"},
         {"hex": "G3", "name": "Sacramento", "distance": 9, "set": "V/P/S/L"},
         {"hex": "I5", "name": "Los Angeles", "distance": 9, "set": "V/P/S/L"},
     ]},
    {"sym": "SP", "name": "Southern Pacific", "group": 2, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40, 100], "coordinates": "K19", "city": 0, "color": "#76a042", "text_color": "black",
     "bonus_stations": []},
    {"sym": "NP", "name": "Northern Pacific", "group": 3, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40], "coordinates": "D16", "city": 0, "color": "#95c054", "text_color": "black",
     "bonus_stations": [
         {"hex": "F20", "name": "Chicago", "distance": 3},
     ]},
    {"sym": "CN", "name": "Canadian National", "group": 3, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40], "coordinates": "B14", "city": 0, "color": "#add8e6", "text_color": "black",
     "bonus_stations": [
         {"hex": "B2", "name": "Vancouver", "distance": 6, "set": "V/P/S/L"},
         {"hex": "D2", "name": "Portland", "distance": 7, "set": "V/P/S/L"},
         {"hex": "G3", "name": "Sacramento", "distance": 8, "set": "V/P/S/L"},
         {"hex": "I5", "name": "Los Angeles", "distance": 8, "set": "V/P/S/L"},
         {"hex": "B10", "name": "Regina", "distance": 2},
     ]},
    # 18xx.games leaves the TP bonus out ("El Paso bonus amount unconfirmed"); SP, ORN, WP
    # and GMO have none there either.
    {"sym": "TP", "name": "Texas Pacific", "group": 3, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40], "coordinates": "J16", "city": 0, "color": "#7b352a", "text_color": "white",
     "bonus_stations": []},
    {"sym": "ORN", "name": "Oregon Railroad & Navigation", "group": 3, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40], "coordinates": "C3", "city": 0, "color": "#FFF500", "text_color": "black",
     "bonus_stations": []},
    {"sym": "WP", "name": "Western Pacific", "group": 3, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40], "coordinates": "G3", "city": 1, "color": "#8dd7f6", "text_color": "black",
     "bonus_stations": []},
    {"sym": "GMO", "name": "Gulf Mobile & Ohio", "group": 3, "shares": _G2, "float_percent": 60,
     "tokens": [0, 40], "coordinates": "J20", "city": 0, "color": "#6ec037", "text_color": "black",
     "bonus_stations": []},
]
MINORS = []

# RULEBOOK "Private Companies" (numbers 1-8).  Its table stops after number 6; the price and
# revenue of 7 (SOC) and 8 (NYSH) are 18xx.games'.  Abilities are facts, not code.
COMPANIES = [
    {"sym": "BOM", "name": "Butterfield Overland Mail", "value": 20, "revenue": 5, "abilities": []},
    {"sym": "ERIE", "name": "Erie Steamship Company", "value": 40, "revenue": 10,
     "abilities": [{"type": "tile_lay", "tile": "ERIE", "color": "gray", "hex": "E28",
                    "from_phase": "2", "closes": True,
                    "note": "rulebook hex E 28 belongs to the rulebook's map; the 18xx.games grid has no E28 and the Erie tile's layout is not known"}]},
    {"sym": "BO", "name": "Baltimore & Ohio Railroad", "value": 70, "revenue": 15,
     "abilities": [{"type": "token", "city": "Baltimore", "on_purchase": True,
                    "removed_on_close": True,
                    "note": "Baltimore is not named on the 18xx.games map"}]},
    {"sym": "RMC", "name": "Rocky Mountain Company", "value": 100, "revenue": 15,
     "abilities": [{"type": "tile_lay", "extra_yellow": 1, "discount": 160, "closes": True}]},
    {"sym": "PSC", "name": "Pacific Steamship Company", "value": 150, "revenue": 25,
     "abilities": [{"type": "shares", "corporation": "WP", "percent": [10],
                    "closes_when": "WP pays its first revenue"}]},
    {"sym": "FNY", "name": "First New York Steamship Company", "value": 180, "revenue": 30,
     "abilities": [{"type": "shares", "corporation": "NYC", "percent": [10, 10],
                    "closes_when": "NYC pays its first revenue"}]},
    {"sym": "SOC", "name": "Sacramento - Omaha Company", "value": 220, "revenue": 35,
     "abilities": [{"type": "shares", "corporation": ["CPR", "UP"], "percent": [10, 10],
                    "revenue_after_first_float": 15,
                    "closes_when": "both CPR and UP have floated"}]},
    {"sym": "NYSH", "name": "New Haven Steamship Company", "value": 270, "revenue": 40,
     "abilities": [{"type": "shares", "corporation": "NYH", "percent": [30], "president": True,
                    "closes_when": "NYH floats"}]},
]

# fmt: on

# -------------------------------------------------------------------- title-specific facts

# RULEBOOK "Bonus Routes": bonus = distance * BONUS_PER_DISTANCE[phase colour]
#                                   - BONUS_PER_HEX_TRAVELLED * hexes the train runs through.
# The phase colour is the newest tile colour of the phase.
BONUS_PER_DISTANCE = {"yellow": 20, "green": 20, "brown": 30, "gray": 30}
BONUS_PER_HEX_TRAVELLED = 10

# How the bonus distances above were obtained (the charters are not available): the fewest
# hex steps from the home hex to the bonus hex over hexes of this map, the gray Great Lakes
# hexes D22 and E21 excluded; adjacent hexes are 1 apart.  It equals the plain hex-grid
# distance everywhere except CP to Portland (grid 13, on-map 14).
BONUS_DISTANCE_METHOD = "on-map hex steps, D22/E21 excluded"

# RULEBOOK: "The printed value of Salt Lake City is raised by 20$ for both CPR and UP if both
# companies could run a train to Salt Lake City."
SLC_HEX = "G9"
SLC_BONUS = 20
SLC_COMPANIES = ("CPR", "UP")

# RULEBOOK "Operating Trains": a route may not include the same tile twice, except a tile
# with two separate stations.  These preprinted hexes carry two separate stations (their
# yellow and green tiles; the brown upgrades merge them into one).
TWO_STATION_HEXES = ("F28", "G3")

# Mexico is one off-board destination drawn over two hexes (both named "Mexico"); a route
# counts it once.  (Interpretation: neither source says it outright.)
OFFBOARD_GROUPS = {"Mexico": ("K9", "K11")}

# RULEBOOK "Placing Station Markers": second marker 40, any further 100; 1.5 times that
# across the US/Canadian border.
TOKEN_COSTS = (0, 40, 100)
BORDER_TOKEN_FACTOR = 1.5

# game.rb CORP_GROUPS (18xx.games; the rulebook has four groups, split unknown).
CORP_GROUPS = {
    1: ("NYH", "NYC", "CP"),
    2: ("CPR", "UP", "ATS", "SP"),
    3: ("NP", "CN", "TP", "ORN", "WP", "GMO"),
}

# RULEBOOK starting capital by player count; 18xx.games adds 3 players: 750.
STARTING_CASH = {3: 750, 4: 600, 5: 500, 6: 440, 7: 400}
BANK_CASH = 22000  # RULEBOOK ("a total value of 22.000$"); 18xx.games 12000

# Markers a position may carry that belong to no company: the blank station markers of
# companies not yet floated (rulebook, "Blank markers"; the game's ``assignments``), which
# block a city slot.
MARKER_OWNERS = ("BLANK",)
