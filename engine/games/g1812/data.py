# ruff: noqa: E501
"""1812: The Cradle of Steam Railways (Ian D. Wilson, Golden Spike): facts only.

Sources
-------
* Rulebook v1.0a (seed text ``../shared/seeds/1812-rules.txt``): phases §2, routes §7.1,
  running trains §7.3.4, train purchase §7.3.8, private companies §1.4.1/§14.2, minor
  companies §14.3.  The rulebook wins wherever it and 18xx.games differ (notes below).
* tobymao/18xx ``lib/engine/game/g_1812/map.rb``, ``entities.rb``, ``game.rb`` @111f7f69
  (MIT licence; the title is *prealpha* there): map hexes and tile codes, tile manifest,
  phases, train table, companies, minors, mine/port/North/South hex lists, and the two map
  tables (North–South bonus at I1, mine value at I3).

Only facts are transcribed (coordinates, tile codes in 18xx.games notation, values, tables).

Differences between the rulebook and 18xx.games, resolved for the rulebook
----------------------------------------------------------------------------
* North–South bonus: §7.3.4 pays it when one *end* of a run is an N area and the other an S
  area, both counted.  18xx.games tests "any stop in N and any stop in a mine hex" (its
  ``south_hexes?`` reads the mine list).  We follow the rulebook.
* 3D counts "any 3 cities or Red Off-board Areas" (§7.3.4; "cities" covers small and large
  ones, see §7.3.4 "Intermediate small cities may be skipped") and may skip any stop.
  18xx.games lets the 3D count large cities and offboards only.
* 2+2GD counts "any 2 large cities or Red Off-board Areas plus 2 small cities and a mine"
  (§7.3.4) and may skip any stop.  18xx.games lets towns fill the first row too.
* Routes may not visit one Red Off-board Area twice (§7.1); Carlisle is one area printed on
  two hexes (A4, A8, same name and values), so both hexes are one area here.  The Newcastle &
  Carlisle bonus (P10) is read as "runs to Carlisle" for both hexes; 18xx.games names A8 only.
  (The seed's private table stops after #4, so the P5–P12 rows come from 18xx.games.)
* Hartlepool Docks (P12): 18xx.games' ability pays +10 while its description says +£20;
  the ability amount (+10, as for the other port privates) is used.  Open question.
* Private companies #1–#10 close at the start of Phase 5; #11 and #12 are permanent (§1.4.1,
  §2.4; 18xx.games agrees via ``close_companies`` and ``on_phase: 'never'``).
"""

SOURCE = (
    "1812 rulebook v1.0a (seed 1812-rules.txt); tobymao/18xx lib/engine/game/g_1812/"
    "map.rb, entities.rb, game.rb @111f7f69 (MIT)"
)
TITLE = "1812"
LAYOUT = "flat"

LOCATION_NAMES = {
    "A4": "Carlisle",
    "A8": "Carlisle",
    "A12": "Preston",
    "A16": "Manchester",
    "C12": "Harrogate",
    "C14": "Leeds",
    "C16": "Barnsley",
    "C18": "Sheffield",
    "C20": "Derby",
    "D9": "Darlington",
    "D11": "Northallerton",
    "D17": "Doncaster",
    "E4": "Newcastle",
    "E6": "Durham",
    "E8": "Middlesbrough",
    "E14": "York",
    "E16": "Selby",
    "E20": "Newark",
    "F1": "Berwick",
    "F5": "Sunderland",
    "F7": "Hartlepool",
    "F19": "Lincoln",
    "G10": "Whitby",
    "G12": "Scarborough",
    "G16": "Hull",
    # The two map tables (no track reaches them): see NORTH_SOUTH_BONUS and MINE_VALUES.
    "I1": "North-South Bonus",
    "I3": "Mine to Port Bonus",
}

# Map hexes by colour, tile code -> coordinates, as in map.rb.  Values of red areas (and of
# the two red-area cities Derby and Newark) run yellow|green|brown|gray = Phase 2|3|4|5-6.
# fmt: off
HEXES = {
    "red": {
        "offboard=revenue:yellow_10|green_20|brown_30|gray_30;path=a:4,b:_0;icon=image:1812/north": ["A4"],
        "offboard=revenue:yellow_10|green_20|brown_30|gray_30;path=a:5,b:_0;icon=image:1812/north": ["A8"],
        "offboard=revenue:yellow_20|green_30|brown_40|gray_40;path=a:5,b:_0": ["A12"],
        "offboard=revenue:yellow_40|green_50|brown_60|gray_70;path=a:4,b:_0;path=a:5,b:_0": ["A16"],
        "city=revenue:yellow_30|green_40|brown_50|gray_50;path=a:3,b:_0;path=a:4,b:_0;icon=image:18_gb/south": ["C20"],
        "city=revenue:yellow_20|green_30|brown_40|gray_50;path=a:2,b:_0;path=a:3,b:_0;icon=image:18_gb/south": ["E20"],
        "offboard=revenue:yellow_10|green_30|brown_40|gray_40;path=a:1,b:_0;icon=image:1812/north": ["F1"],
        "offboard=revenue:yellow_20|green_30|brown_40|gray_40;path=a:2,b:_0;path=a:3,b:_0;icon=image:18_gb/south": ["F19"],
        # Map table, not a place: the North-South bonus by phase.
        "offboard=revenue:yellow_40|green_50|brown_60|gray_70;icon=image:18_gb/south;icon=image:1812/north": ["I1"],
    },
    "gray": {
        "path=a:2,b:4": ["F9"],
    },
    "white": {
        "": ["B3", "B13", "C4", "D13", "D15", "D19", "E10", "E12", "F13", "F15", "G14", "H15"],
        "border=edge:3,type:impassable": ["G18", "H13"],
        "border=edge:0,type:impassable": ["H11"],
        "icon=image:mine,sticky:1": ["D7", "E2"],
        "upgrade=cost:40,terrain:mountain": ["B17", "C2", "C6", "C8", "C10", "D1", "D5", "F11"],
        "upgrade=cost:40,terrain:mountain;icon=image:mine,sticky:1": ["B15"],
        "upgrade=cost:60,terrain:mountain": ["B9", "B11", "B19"],
        "upgrade=cost:80,terrain:mountain": ["B5", "B7"],
        "upgrade=cost:20,terrain:water": ["D3", "E18"],
        "upgrade=cost:40,terrain:water": ["F17"],
        "town=revenue:0": ["C12", "D11", "F7", "G12"],
        "town=revenue:0;upgrade=cost:20,terrain:water": ["D9", "E16"],
        "town=revenue:0;upgrade=cost:40,terrain:mountain": ["G10"],
        "town=revenue:0;icon=image:mine,sticky:1": ["D17", "E6"],
        "city=revenue:0": ["C16", "F5"],
        "city=revenue:0;label=Y": ["C18"],
        "city=revenue:0;upgrade=cost:20,terrain:water": ["E8"],
        "city=revenue:0;border=edge:0,type:impassable;label=Y": ["G16"],
    },
    "blue": {
        "offboard=revenue:yellow_0,visit_cost:0;path=a:1,b:_0;icon=image:port": ["F3", "G4", "G6", "G8", "H9"],
        "offboard=revenue:yellow_0,visit_cost:0;path=a:2,b:_0;icon=image:port": ["H17", "H19"],
        # Map table, not a place: the mine value by phase.
        "offboard=revenue:yellow_30|green_40|brown_50|gray_60,visit_cost:0;icon=image:port;icon=image:mine,sticky:1": ["I3"],
    },
    "yellow": {
        # Leeds, Newcastle and York: two separate large-city circles in yellow (§7.1).
        "city=revenue:30;city=revenue:30;path=a:1,b:_0;path=a:3,b:_1;label=Y": ["C14"],
        "city=revenue:30;city=revenue:30;path=a:0,b:_0;path=a:4,b:_0;path=a:3,b:_1;path=a:4,b:_1;label=Y;upgrade=cost:20,terrain:water": ["E4"],
        "city=revenue:30;city=revenue:30;path=a:0,b:_0;path=a:3,b:_1;label=Y": ["E14"],
    },
}
# fmt: on

# Tile manifest (map.rb TILES).  X20 and X30 carry no location label in 18xx.games; the
# rulebook (§7.3.2) names "Hull in brown" and "Leeds in grey" as city-specific tiles, which
# these two match (X20 has no edge 0, Hull's impassable side): see NAMED_TILES.
TILES = {
    # yellow
    "3": 3,
    "4": 5,
    "5": 2,
    "6": 2,
    "7": 4,
    "8": 10,
    "9": 10,
    "57": 2,
    "58": 7,
    "201": 2,
    "202": 2,
    "621": 2,
    # green
    "14": 2,
    "15": 2,
    "16": 1,
    "17": 1,
    "18": 1,
    "19": 1,
    "20": 1,
    "21": 1,
    "22": 1,
    "23": 4,
    "24": 4,
    "25": 2,
    "26": 1,
    "27": 1,
    "28": 1,
    "29": 1,
    "30": 1,
    "31": 1,
    "87": 4,
    "88": 2,
    "204": 2,
    "207": 2,
    "208": 2,
    "619": 2,
    "622": 2,
    # brown
    "39": 1,
    "40": 1,
    "41": 1,
    "42": 1,
    "43": 2,
    "44": 1,
    "45": 2,
    "46": 2,
    "47": 2,
    "70": 1,
    "611": 3,
    "623": 3,
    "911": 3,
    "X20": {
        "count": 1,
        "color": "brown",
        "code": "city=revenue:50,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=Y",
    },
    # gray
    "X30": {
        "count": 1,
        "color": "gray",
        "code": "city=revenue:60,slots:2;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;path=a:0,b:_0;label=Y",
    },
}

#: City-specific tiles (§7.3.2: "Leeds in grey and Hull in brown").  Inferred pairing, see TILES.
NAMED_TILES = {"X20": "G16", "X30": "C14"}

# Phases (game.rb PHASES; §2).  train_limit per company type.  "on" is the train whose first
# purchase starts the phase.  Phase 6 uses the same tiles and limits as Phase 5.
PHASES = [
    {
        "name": "2",
        "on": None,
        "train_limit": {"minor": 2, "major": 4},
        "tiles": ["yellow"],
        "operating_rounds": 2,
    },
    {
        "name": "3",
        "on": "3",
        "train_limit": {"minor": 2, "major": 4},
        "tiles": ["yellow", "green"],
        "operating_rounds": 2,
    },
    {
        "name": "4",
        "on": "4",
        "train_limit": {"minor": 1, "major": 3},
        "tiles": ["yellow", "green", "brown"],
        "operating_rounds": 2,
    },
    {
        "name": "5",
        "on": "5",
        "train_limit": {"minor": 0, "major": 2},
        "tiles": ["yellow", "green", "brown", "gray"],
        "operating_rounds": 2,
    },
    {
        "name": "6",
        "on": "3D",
        "train_limit": {"minor": 0, "major": 2},
        "tiles": ["yellow", "green", "brown", "gray"],
        "operating_rounds": 2,
    },
]

#: Which of the four printed values (red areas, Derby/Newark, mines, N–S bonus) a phase uses
#: (§2: lowest in Phase 2, second in 3, third in 4, highest in 5 and 6).
PHASE_VALUE_INDEX = {"2": 0, "3": 1, "4": 2, "5": 3, "6": 3}

# Trains (game.rb TRAINS; §2, §7.3.4, §7.3.8, §14.1).  Each card has a passenger side (the
# train) and a goods side (the variant, "G"); the buyer picks the side for good (§1.1).
# Rows per §7.3.4, in 18xx.games distance notation plus:
#   "skip": stop kinds that may be passed without counting (intermediate small cities for
#           all trains; anything for 3D and 2+2GD),
#   "goods": ends at a port and scores one mine; neither counts towards the train's number,
#   "multiplier": the route value (bonuses included) is doubled.
# "obsolete_on" is the train whose first purchase discards this one (§2.3–2.5;
# 18xx.games "rusts_on").  num None = unlimited (§7.3.8: 2/1G, 5/4+2G and 3D/2+2GD; 18xx.games
# caps them at 8/10/10).  3/2G and 4/3+2G counts depend on players (§14.1).
TRAINS = [
    {
        "name": "2",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 2, "visit": 2}],
        "skip": ["town"],
        "price": 100,
        "num": None,
        "obsolete_on": "4",
        "variants": [
            {
                "name": "1G",
                "distance": [{"nodes": ["city", "offboard", "town"], "pay": 1, "visit": 1}],
                "skip": ["town"],
                "goods": True,
                "price": 90,
            }
        ],
    },
    {
        "name": "3",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 3, "visit": 3}],
        "skip": ["town"],
        "price": 200,
        "num": {2: 3, 3: 5, 4: 6},
        "obsolete_on": "5",
        "variants": [
            {
                "name": "2G",
                "distance": [{"nodes": ["city", "offboard", "town"], "pay": 2, "visit": 2}],
                "skip": ["town"],
                "goods": True,
                "price": 180,
            }
        ],
    },
    {
        # Replaces the unsold 3/2G trains one for one after the first 3/2G is bought (§7.3.8);
        # 18xx.games keeps 5 in reserve for that.
        "name": "3+1",
        "distance": [
            {"nodes": ["city", "offboard", "town"], "pay": 3, "visit": 3},
            {"nodes": ["town"], "pay": 1, "visit": 1},
        ],
        "skip": ["town"],
        "price": 220,
        "num": 5,
        "obsolete_on": "3D",
        "variants": [
            {
                "name": "2+1G",
                "distance": [
                    {"nodes": ["city", "offboard", "town"], "pay": 2, "visit": 2},
                    {"nodes": ["town"], "pay": 1, "visit": 1},
                ],
                "skip": ["town"],
                "goods": True,
                "price": 200,
            }
        ],
    },
    {
        "name": "4",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 4, "visit": 4}],
        "skip": ["town"],
        "price": 400,
        "num": {2: 2, 3: 3, 4: 4},
        "obsolete_on": None,
        "variants": [
            {
                # "up to five cities, up to three of which may be large cities or Red
                # Off-board Areas" (§7.3.4).
                "name": "3+2G",
                "distance": [
                    {"nodes": ["city", "offboard", "town"], "pay": 3, "visit": 3},
                    {"nodes": ["town"], "pay": 2, "visit": 2},
                ],
                "skip": ["town"],
                "goods": True,
                "price": 360,
            }
        ],
    },
    {
        "name": "5",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 5, "visit": 5}],
        "skip": ["town"],
        "price": 500,
        "num": None,
        "obsolete_on": None,
        "variants": [
            {
                "name": "4+2G",
                "distance": [
                    {"nodes": ["city", "offboard", "town"], "pay": 4, "visit": 4},
                    {"nodes": ["town"], "pay": 2, "visit": 2},
                ],
                "skip": ["town"],
                "goods": True,
                "price": 460,
            }
        ],
    },
    {
        # Available from Phase 5 (§2.4); its first purchase starts Phase 6.
        "name": "3D",
        "distance": [{"nodes": ["city", "offboard", "town"], "pay": 3, "visit": 3}],
        "skip": ["city", "offboard", "town"],
        "multiplier": 2,
        "price": 750,
        "num": None,
        "obsolete_on": None,
        "available_on": "5",
        "variants": [
            {
                "name": "2+2GD",
                "distance": [
                    {"nodes": ["city", "offboard"], "pay": 2, "visit": 2},
                    {"nodes": ["town"], "pay": 2, "visit": 2},
                ],
                "skip": ["city", "offboard", "town"],
                "multiplier": 2,
                "goods": True,
                "price": 460,
            }
        ],
    },
]

# Public companies (entities.rb; §1.4.3).  They have no fixed home: they form from minors or
# start on any unreserved city (§6.2.3).  Token costs in 18xx.games are [0, 40, 100, 100];
# the rulebook prices station markers by distance (§7.3.3) and gives 3-4 markers (§14.1).
CORPORATIONS = [
    {
        "sym": "GCR",
        "name": "Great Central Railway",
        "tokens": [0, 40, 100, 100],
        "coordinates": None,
        "color": "#025aaa",
    },
    {
        "sym": "GNR",
        "name": "Great Northern Railway",
        "tokens": [0, 40, 100, 100],
        "coordinates": None,
        "color": "#32763f",
    },
    {
        "sym": "LYR",
        "name": "Lancashire & Yorkshire Railway",
        "tokens": [0, 40, 100, 100],
        "coordinates": None,
        "color": "#ffffff",
    },
    {
        "sym": "MR",
        "name": "Midland Railway",
        "tokens": [0, 40, 100, 100],
        "coordinates": None,
        "color": "#d1232a",
    },
    {
        "sym": "NER",
        "name": "North Eastern Railway",
        "tokens": [0, 40, 100, 100],
        "coordinates": None,
        "color": "#fff500",
        "text_color": "black",
    },
]

# Minor companies (entities.rb; §14.3): one station marker on a reserved home.  "city" is
# the circle index on the hex's tile; on the yellow two-circle hexes city 1 is the north
# circle (edge 3) and city 0 the south one ("C14-N" = city 1, "E4-S" = city 0, §14.3).
MINORS = [
    {
        "sym": "1",
        "name": "Doncaster & Peterborough Railway",
        "tokens": [0],
        "coordinates": "E20",
        "city": 0,
        "color": "#777777",
    },
    {
        "sym": "2",
        "name": "Hull & Selby Railway",
        "tokens": [0],
        "coordinates": "G16",
        "city": 0,
        "color": "#777777",
    },
    {
        "sym": "3",
        "name": "Leeds Northern Railway",
        "tokens": [0],
        "coordinates": "C14",
        "city": 1,
        "color": "#777777",
    },
    {
        "sym": "4",
        "name": "Manchester & Leeds Railway",
        "tokens": [0],
        "coordinates": "C14",
        "city": 0,
        "color": "#777777",
    },
    {
        "sym": "5",
        "name": "Newcastle & Berwick Railway",
        "tokens": [0],
        "coordinates": "E4",
        "city": 1,
        "color": "#777777",
    },
    {
        "sym": "6",
        "name": "Newcastle & Darlington Railway",
        "tokens": [0],
        "coordinates": "E4",
        "city": 0,
        "color": "#777777",
    },
    {
        "sym": "7",
        "name": "North Midland Railway",
        "tokens": [0],
        "coordinates": "C20",
        "city": 0,
        "color": "#777777",
    },
    {
        "sym": "8",
        "name": "Sheffield, Ashton & Manchester Railway",
        "tokens": [0],
        "coordinates": "C18",
        "city": 0,
        "color": "#777777",
    },
    {
        "sym": "9",
        "name": "York & Darlington Railway",
        "tokens": [0],
        "coordinates": "E14",
        "city": 1,
        "color": "#777777",
    },
    {
        "sym": "10",
        "name": "York & North Midland Railway",
        "tokens": [0],
        "coordinates": "E14",
        "city": 0,
        "color": "#777777",
    },
]

# Private companies (entities.rb; §14.2 for #1-#4).  Abilities as plain facts:
#   hex_bonus: +amount to the hex's value for the owning company's runs ("goods_only": for
#              G-train runs to that port), tile_lay: free extra yellow tiles in those hexes,
#   train_discount: surrendered for £40 off a new train, permanent: not closed in Phase 5.
COMPANIES = [
    {
        "sym": "P1",
        "name": "Tanfield Railway",
        "value": 15,
        "min_bid": 5,
        "revenue": 5,
        "abilities": [],
    },
    {
        "sym": "P2",
        "name": "Middleton Railway",
        "value": 20,
        "min_bid": 15,
        "revenue": 5,
        "abilities": [{"type": "hex_bonus", "hexes": ["C14"], "amount": 10}],
    },
    {
        "sym": "P3",
        "name": "Wylam Railway",
        "value": 20,
        "min_bid": 15,
        "revenue": 5,
        "abilities": [{"type": "hex_bonus", "hexes": ["F3"], "amount": 10, "goods_only": True}],
    },
    {
        "sym": "P4",
        "name": "Sheffield & Rotherham Railway",
        "value": 20,
        "min_bid": 15,
        "revenue": 5,
        "abilities": [{"type": "hex_bonus", "hexes": ["C18"], "amount": 10}],
    },
    {
        "sym": "P5",
        "name": "Leeds & Selby Railway",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [
            {"type": "hex_bonus", "hexes": ["E14"], "amount": 10},
            {"type": "tile_lay", "hexes": ["D15", "E17"], "count": 2, "cost": 0},
        ],
    },
    {
        "sym": "P6",
        "name": "Stephenson's Engine Works",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [{"type": "train_discount", "discount": 40, "count": 1}],
    },
    {
        "sym": "P7",
        "name": "Stockton & Darlington Railway",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [
            {"type": "hex_bonus", "hexes": ["E8"], "amount": 10},
            {"type": "tile_lay", "hexes": ["C8", "D9", "E8"], "count": 3, "cost": 0},
        ],
    },
    {
        "sym": "P8",
        "name": "Stanhope & Tyne Railway",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [
            {"type": "tile_lay", "hexes": ["C6", "D7"], "count": 2, "cost": 0},
            {"type": "hex_bonus", "hexes": ["F3"], "amount": 10, "goods_only": True},
        ],
    },
    {
        "sym": "P9",
        "name": "Whitby & Pickering Railway",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [
            {"type": "tile_lay", "hexes": ["F13", "G10", "G12"], "count": 3, "cost": 0},
            {"type": "hex_bonus", "hexes": ["H9"], "amount": 10, "goods_only": True},
        ],
    },
    # 18xx.games names A8 only; Carlisle is one area on A4 and A8 (see module notes).
    {
        "sym": "P10",
        "name": "Newcastle & Carlisle Railway",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [
            {"type": "hex_bonus", "hexes": ["A4", "A8"], "amount": 20},
            {"type": "tile_lay", "hexes": ["B3", "C4", "D3"], "count": 3, "cost": 0},
        ],
    },
    {
        "sym": "P11",
        "name": "Hull Docks Company",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [{"type": "hex_bonus", "hexes": ["G16"], "amount": 20}, {"type": "permanent"}],
    },
    # 18xx.games: ability +10, description "+£20" (see module notes).
    {
        "sym": "P12",
        "name": "Hartlepool Docks Company",
        "value": 40,
        "min_bid": 30,
        "revenue": 10,
        "abilities": [
            {"type": "tile_lay", "hexes": ["F7"], "count": 1, "cost": 0},
            {"type": "hex_bonus", "hexes": ["G6"], "amount": 10, "goods_only": True},
            {"type": "permanent"},
        ],
    },
]

#: Privates still open in Phases 5 and 6 (§1.4.1, §2.4).
PERMANENT_COMPANIES = ["P11", "P12"]
#: First phase in which the other privates are closed.
COMPANIES_CLOSE_PHASE = "5"

# --------------------------------------------------------------------- title-specific facts
#: Ports (anchor icon; game.rb PORT_HEXES), each with the land hex its one track side faces
#: (from the path edge).  G-trains must end at one (§7.3.4); worth £0 unless a private above
#: gives the owning company a bonus there (Newcastle F3, Hartlepool G6, Whitby H9).
PORT_HEXES = {
    "F3": "E4",  # Newcastle port (P3, P8)
    "G4": "F5",  # faces Sunderland
    "G6": "F7",  # Hartlepool port (P12)
    "G8": "F9",  # faces the gray track F9 to Middlesbrough E8
    "H9": "G10",  # Whitby port (P9)
    "H17": "G16",  # faces Hull
    "H19": "G18",
}

#: Mine hexes (pickaxe icon; game.rb MINE_HEXES).  D17 (Doncaster) and E6 (Durham) also
#: hold a small city; a G-train there may include both (§7.3.4).  The I3 table is not a mine.
MINE_HEXES = ["B15", "D7", "D17", "E2", "E6"]

#: Value of the one mine a G-train scores, by PHASE_VALUE_INDEX (map table at I3).
MINE_VALUES = [30, 40, 50, 60]

#: North–South bonus by PHASE_VALUE_INDEX (map table at I1; §7.3.4): paid when one end of a
#: run is an N area and the other an S area, both counted; doubled by 3D.
NORTH_SOUTH_BONUS = [40, 50, 60, 70]
NORTH_HEXES = ["A4", "A8", "F1"]  # Carlisle (both hexes), Berwick
SOUTH_HEXES = ["C20", "E20", "F19"]  # Derby, Newark, Lincoln

#: Red areas holding a large city that routes may pass through (§7.1 "exception: Derby and
#: Newark"); every other red area and every port ends a route.
PASS_THROUGH_RED_CITIES = ["C20", "E20"]

#: One Red Off-board Area printed on several hexes: a route may reach it once (§7.1).
MULTI_HEX_AREAS = {"Carlisle": ["A4", "A8"]}

#: Yellow hexes with two separate large-city circles: a route may not include both (§7.1).
#: Upgrading links them into one city (§7.3.2).
TWO_CIRCLE_HEXES = ["C14", "E4", "E14"]

#: Terrain exception (§7.3.2): Newcastle's yellow-to-green upgrade pays its £20 water cost.
UPGRADE_COST_HEXES = {"E4": 20}
