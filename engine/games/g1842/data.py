# ruff: noqa: E501
"""1842 Hamburg/Schleswig-Holstein facts — **THE MAP IS RECONSTRUCTED**.

RECONSTRUCTED: no public map of 1842 exists and 18xx.games does not implement the title.
The board below is *our* reconstruction from the hexes and places the rulebook names
(``../shared/seeds/1842-schleswig-holstein-rules.txt``), laid out on an 18xx.games pointy
grid so that every coordinate the rulebook gives lands where the real place is.  Everything
not listed in :data:`RULEBOOK_FACTS` is a guess (see :data:`GUESSES`); positions and revenues
computed on this map are *illustrative*, not those of the published game.

Grid: pointy hexes, letters are rows (north to south), numbers are columns (west to east),
18xx.games' default axes for a pointy map.  This is the only orientation in which the
rulebook's coordinates fit the real geography: Harburg (M9) lies south-south-west of Hamburg
(L10), the Vogelfluglinie hex G17 (Fehmarn) north-east of it, Lauenburg (M15) east-south-east
of it, the three blocked hexsides (D8-E9, M7-L8, M9-L8) fall on the Flensburger Förde and on
the Elbe below Hamburg, and N14 joins Lauenburg (M15) to O13 (Lüneburg) across the Elbe.
One row is about 19 km, one column about 11 km.

No other source: the facts here come from the rulebook; standard tile codes from
``engine/model/tiles/catalog.py`` (tobymao/18xx ``lib/engine/config/tile.rb`` @111f7f69, MIT).
1842-specific tiles (Hamburg, Harburg, Kiel, Lübeck, grey 5028/5029) are our custom tiles
built from the rulebook's description.
"""

# fmt: off
SOURCE = (
    "RECONSTRUCTED from the 1842 Hamburg/Schleswig-Holstein rulebook "
    "(shared/seeds/1842-schleswig-holstein-rules.txt); no public map exists. Standard tile "
    "codes: tobymao/18xx lib/engine/config/tile.rb @111f7f69 (MIT) via engine/model/tiles/catalog.py"
)
TITLE = "1842"
DISPLAY_TITLE = "1842 Hamburg/Schleswig-Holstein (reconstructed map)"
RECONSTRUCTED = True
LAYOUT = "pointy"
AXES = {"x": "number", "y": "letter"}
CURRENCY = "M"  # Mark

# ----------------------------------------------------------------------------------- provenance
#: What the rulebook states (section numbers as printed).
RULEBOOK_FACTS = (
    "Hamburg is L10 and Harburg M9 (7.2.3); only the HAV lays or replaces tiles there (3.4.2.1, 7.2.3)",
    "Hamburg has separate stations; a route may not include Hamburg twice (7.4.1)",
    "labelled hexes take tiles with the same letter; Hamburg is 'HH', Harburg 'H' (3.4.2.1, 7.2.1)",
    "the HAV's first tile links Hamburg and Harburg, the director choosing which Hamburg station; "
    "after it no yellow tile is left for the two hexes (3.4.2.1)",
    "grey tiles 5028 (a grey station space marked HAV, no corporation token there; all "
    "corporations may run through Hamburg) and 5029 (a fourth station space) upgrade brown "
    "Hamburg once Hamburg and Harburg are brown (3.4.2.1)",
    "blocked hexsides D8-E9, M7-L8 and M9-L8 (4)",
    "Vogelfluglinie: +60 M for the first tile on G17 (4, 7.2.3)",
    "Lauenburger Privileg: the tile on N14 joining M15 to O13 gives a free station on M15 (4, 7.2.3)",
    "some hexes and tiles show two values; the higher one counts for a company with a station "
    "there, the lower one for everyone else and for token costs (7.3, 7.4.2)",
    "Bergedorf and Stade: two values; their station tokens sit beside the track and never "
    "block (7.4.1, 7.4.2, 11.2.1)",
    "North Sea and Baltic coastal towns; a route containing both earns +30 M and need not end "
    "at either (7.4.2; German 'muss nicht')",
    "Dänemark has two station places, counted as different hexes for tokens (7.3)",
    "Flensburg can hold at least two station tokens (11.2.2)",
    "one route must include the company's home station (1, 7.4.1)",
    "GEE marker '1 train runs 2x': one train runs a second time, possibly on the same route (3.2.1)",
    "HAV earns 10 M from the bank for each route of another company that includes a Hamburg "
    "station (3.4.2.2); simplified variant: always 5 M per share (10.3 as printed)",
    "private railways 1 HBE (Hamburg-Bergedorfer), 2 KE (Klosterburger), 3 RE "
    "(Rendsburg-Neumünstersche); predecessors 4 GEE (Glückstadt-Elmshorner) -> HMBG and "
    "5 SSE (Südschleswigsche) -> SE (3.1, 3.2)",
    "corporations AKE, BHE, LBE, WHE, ELE, SE, HMBG and the HAV; optional UEE (home Stade, "
    "left bank of the Elbe only) and FKE (home Flensburg) (3.3.1, 11.2)",
    "station tokens: AKE 4 + 1 exchange, BHE/LBE/WHE 3 + 1; UEE and FKE have no exchange "
    "token; 31 station and 7 exchange tokens in the box (2, 3.3.1, 11.2)",
    "token cost is three times the city's (lower) value (7.3)",
    "train types 2, 3, 4, 5 and 8 exist; a 2-train costs 100 M; green tiles on the first "
    "3-train, brown on the first 5-train, grey on the first 8-train (3.1, 7.2)",
    "N-trains: at most N towns/cities, none skipped; at least two revenue hexes (7.4.1)",
    "tile box: 57 yellow, 47 green, 20 brown, 6 grey (2)",
    "HAV share price starts at 30 M (3.4.2)",
)

#: What we made up because the rulebook does not say it.
GUESSES = (
    "the whole map apart from the coordinates above: which hexes exist, every town, city, "
    "offboard, water hex, terrain cost and preprinted track",
    "place names and their hexes other than Hamburg L10 and Harburg M9; M15 = Lauenburg and "
    "O13 = Lüneburg follow from the 'Lauenburger Privileg'",
    "which places are coastal towns (North Sea: Husum, Tönning, Büsum, Cuxhaven; Baltic: "
    "Flensburg, Kappeln, Eckernförde, Kiel, Heiligenhafen, Neustadt, Lübeck)",
    "which cities have two values besides Bergedorf and Stade (we chose Kiel and Lübeck, "
    "labels K and L) and all the values themselves",
    "the Hamburg layout: station 0 (Hauptbahnhof, 2 slots) and station 1 (Altona, 1 slot); "
    "yellow tiles HH1A/HH1B are the two choices of station for the link to Harburg",
    "every revenue, offboard value and custom tile layout",
    "the tile manifest (counts per tile; the colour totals are the rulebook's)",
    "phases beyond their tile colours, train limits, operating-round counts, the 6-train, "
    "train counts (36 cards in all), prices except the 2-train, and rusting",
    "home hexes: AKE Altona, BHE Hamburg Hbf, LBE Lübeck, WHE Heide, ELE Eutin, SE Schleswig "
    "(SSE's station), HMBG Glückstadt (GEE's station), UEE Stade, FKE Flensburg; bases of "
    "HBE (Bergedorf, from its name), KE (Itzehoe), RE (Rendsburg)",
    "token counts of ELE, SE, HMBG, UEE and FKE, share splits of SE/HMBG/HAV, private values",
    "Dänemark's two places are one destination for routes (one group), like Hamburg",
)

# ----------------------------------------------------------------------------------- map
LOCATION_NAMES = {
    "C3": "Dänemark (Tondern)",
    "C7": "Dänemark (Apenrade)",
    "E3": "Niebüll",
    "E7": "Flensburg",
    "F4": "Husum",
    "F8": "Schleswig",
    "F10": "Kappeln",
    "G5": "Friedrichstadt",
    "G9": "Eckernförde",
    "G11": "Kiel",
    "G17": "Heiligenhafen / Fehmarn",
    "H4": "Tönning",
    "H8": "Rendsburg",
    "H12": "Preetz & Plön",
    "H16": "Oldenburg",
    "I3": "Büsum",
    "I5": "Heide",
    "I9": "Neumünster",
    "I13": "Eutin",
    "I15": "Neustadt",
    "J4": "Brunsbüttel",
    "J8": "Itzehoe",
    "J10": "Bad Bramstedt",
    "J12": "Bad Segeberg",
    "J14": "Lübeck",
    "J18": "Mecklenburg",
    "K7": "Glückstadt",
    "K9": "Elmshorn",
    "K11": "Ahrensburg",
    "K13": "Bad Oldesloe",
    "K15": "Ratzeburg",
    "L4": "Cuxhaven",
    "L8": "Pinneberg",
    "L10": "Hamburg",
    "L12": "Bergedorf",
    "L14": "Büchen",
    "L18": "Berlin",
    "M7": "Stade",
    "M9": "Harburg",
    "M13": "Geesthacht",
    "M15": "Lauenburg",
    "N8": "Buxtehude",
    "N12": "Winsen",
    "O5": "Bremen",
    "O9": "Hannover",
    "O13": "Lüneburg",
}

# Hamburg (L10): city 0 = Hauptbahnhof (exits NE to Lübeck, E to Bergedorf), city 1 = Altona
# (exits W to Pinneberg, NW to Elmshorn).  Neither reaches Harburg (edge 0) until the HAV's
# first tile.  Both carry the group "Hamburg": a route never includes both (7.4.1).
_HAMBURG = (
    "city=revenue:30,slots:2,groups:Hamburg;city=revenue:30,groups:Hamburg;"
    "path=a:3,b:_0;path=a:4,b:_0;path=a:1,b:_1;path=a:2,b:_1;label=HH"
)

HEXES = {
    "red": {
        # Dänemark: two station places (7.3), tokenable, so cities on red hexes; terminal paths
        # because nothing runs through an off-board area.
        "city=revenue:yellow_20|green_30|brown_40|gray_50,groups:Daenemark;path=a:5,b:_0,terminal:1": ["C3"],
        "city=revenue:yellow_30|green_40|brown_50|gray_60,groups:Daenemark;path=a:0,b:_0,terminal:1;path=a:5,b:_0,terminal:1": ["C7"],
        "offboard=revenue:yellow_20|green_30|brown_40|gray_50;path=a:0,b:_0;path=a:1,b:_0": ["J18"],
        "offboard=revenue:yellow_40|green_50|brown_70|gray_90;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0": ["L18"],
        "offboard=revenue:yellow_30|green_40|brown_50|gray_60;path=a:2,b:_0;path=a:3,b:_0": ["O5"],
        "offboard=revenue:yellow_30|green_40|brown_50|gray_70;path=a:2,b:_0;path=a:3,b:_0": ["O9"],
        "offboard=revenue:yellow_20|green_30|brown_40|gray_50;path=a:2,b:_0;path=a:3,b:_0": ["O13"],
    },
    "gray": {
        # Bergedorf and Stade: the station sits beside the line (never blocks); two values.
        "city=revenue:20;path=a:1,b:_0;path=a:4,b:_0;path=a:5,b:_0": ["L12"],
        "city=revenue:20;path=a:0,b:_0;path=a:1,b:_0;path=a:4,b:_0;border=edge:3,type:impassable": ["M7"],
    },
    "yellow": {
        "city=revenue:20;path=a:1,b:_0;path=a:3,b:_0;path=a:5,b:_0;border=edge:2,type:impassable;label=H": ["M9"],
        "city=revenue:30;path=a:0,b:_0;path=a:1,b:_0;label=K": ["G11"],
        "city=revenue:30;path=a:0,b:_0;path=a:2,b:_0;label=L": ["J14"],
    },
    "white": {
        _HAMBURG: ["L10"],
        "": ["D4", "D6", "E5", "E11", "F6", "G7", "G13", "G15", "H10", "H14", "I7", "I11",
             "J16", "K17", "L16", "M3", "M17", "N4", "N6", "N16"],
        "city=revenue:0": ["E7", "F4", "F8", "I5", "I9", "I13", "J8", "K7", "K9", "L4", "M15"],
        "city=revenue:0;upgrade=cost:40,terrain:water": ["H8"],  # Rendsburg on the Eider
        "town=revenue:0": ["E3", "F10", "G5", "G9", "G17", "H4", "H16", "I3", "I15", "J4",
                           "J10", "J12", "K11", "K13", "K15", "L14", "M13", "N8", "N12"],
        "town=revenue:0;town=revenue:0": ["H12"],
        # Pinneberg: the Elbe sticks M7-L8 and M9-L8 (4)
        "town=revenue:0;border=edge:0,type:impassable;border=edge:5,type:impassable": ["L8"],
        "border=edge:5,type:impassable": ["D8"],  # Flensburger Förde stick D8-E9 (4)
        "border=edge:2,type:impassable": ["E9"],
        "upgrade=cost:40,terrain:water": ["H6", "N14"],  # Eider; Elbe at Lauenburg
        "upgrade=cost:20,terrain:water": ["J6", "M5", "M11"],  # marshes
        "upgrade=cost:40,terrain:hill": ["N10"],  # Harburger Berge
    },
    "blue": {"": ["K3", "K5", "L6"]},  # Elbe estuary
}

# ----------------------------------------------------------------------------------- tiles
TILES = {
    # yellow: 57 (55 standard + the two Hamburg link tiles)
    "1": 1, "2": 1, "55": 1, "56": 1, "69": 1,
    "3": 4, "4": 4, "58": 5,
    "5": 4, "6": 4, "57": 5,
    "7": 6, "8": 10, "9": 8,
    # Hamburg's link to Harburg from Altona (A) or from the Hauptbahnhof (B): the director's
    # choice of station (3.4.2.1).  One of them fits; afterwards no yellow tile is left.
    "HH1A": {"count": 1, "color": "yellow",
             "code": "city=revenue:40,slots:2,groups:Hamburg;city=revenue:40,slots:1,groups:Hamburg;path=a:3,b:_0;path=a:4,b:_0;path=a:0,b:_1;path=a:1,b:_1;path=a:2,b:_1;label=HH"},
    "HH1B": {"count": 1, "color": "yellow",
             "code": "city=revenue:40,slots:2,groups:Hamburg;city=revenue:40,slots:1,groups:Hamburg;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:1,b:_1;path=a:2,b:_1;label=HH"},
    # green: 47 (43 standard + Hamburg, Harburg, Kiel, Lübeck)
    "12": 2, "13": 2, "14": 3, "15": 3, "619": 3,
    "87": 3, "88": 3,
    "16": 2, "17": 1, "18": 1, "19": 2, "20": 2, "23": 3, "24": 3, "25": 2, "26": 2,
    "27": 2, "28": 2, "29": 2,
    "HH2": {"count": 1, "color": "green", "code": "city=revenue:50,slots:2,groups:Hamburg;city=revenue:50,slots:1,groups:Hamburg;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;path=a:0,b:_1;path=a:1,b:_1;path=a:2,b:_1;label=HH"},
    "H2": {"count": 1, "color": "green",
           "code": "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=H"},
    "K2": {"count": 1, "color": "green",
           "code": "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=K"},
    "L2": {"count": 1, "color": "green",
           "code": "city=revenue:40,slots:2;path=a:0,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:5,b:_0;label=L"},
    # brown: 20 (16 standard + Hamburg, Harburg, Kiel, Lübeck)
    "63": 3, "611": 3, "448": 2,
    "39": 1, "40": 1, "41": 1, "42": 1, "43": 1, "44": 1, "45": 1, "46": 1,
    "HH3": {"count": 1, "color": "brown", "code": "city=revenue:60,slots:2,groups:Hamburg;city=revenue:60,slots:1,groups:Hamburg;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;path=a:0,b:_1;path=a:1,b:_1;path=a:2,b:_1;label=HH"},
    "H3": {"count": 1, "color": "brown",
           "code": "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=H"},
    "K3": {"count": 1, "color": "brown",
           "code": "city=revenue:50,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:4,b:_0;path=a:5,b:_0;label=K"},
    "L3": {"count": 1, "color": "brown",
           "code": "city=revenue:50,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;path=a:5,b:_0;label=L"},
    # grey: 6.  5028: Altona's second slot is the HAV's grey space (see HAV_SLOTS);
    # 5029: a fourth station space open to everyone (3.4.2.1).
    "5028": {"count": 1, "color": "gray", "code": "city=revenue:80,slots:2,groups:Hamburg;city=revenue:80,slots:2,groups:Hamburg;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;path=a:0,b:_1;path=a:1,b:_1;path=a:2,b:_1;label=HH"},
    "5029": {"count": 1, "color": "gray", "code": "city=revenue:80,slots:2,groups:Hamburg;city=revenue:80,slots:2,groups:Hamburg;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0;path=a:0,b:_1;path=a:1,b:_1;path=a:2,b:_1;label=HH"},
    "51": 2, "895": 2,
}

#: 5028's grey station space marked HAV: tile -> (city index, slot index).  No corporation
#: token may occupy it, and while 5028 lies, Hamburg never blocks a route (3.4.2.1).
HAV_SLOTS = {"5028": (1, 1)}

#: Tiles under which "all Corporations may run their trains through Hamburg" (3.4.2.1).
HAMBURG_OPEN_TILES = ("5028",)

# ----------------------------------------------------------------------------------- rules
HAMBURG_HEX = "L10"  # 7.2.3
HARBURG_HEX = "M9"  # 7.2.3
HAV_ONLY_HEXES = ("L10", "M9")  # 3.4.2.1: only the HAV lays or replaces tiles there

#: Two-value cities (7.4.2): preprinted hex -> (low, high) per city index, used while no tile
#: is laid there.  Bergedorf and Stade are grey and keep their values.
TWO_VALUE_HEXES = {
    "L12": [(20, 30)],  # Bergedorf
    "M7": [(20, 30)],  # Stade
    "G11": [(30, 40)],  # Kiel
    "J14": [(30, 40)],  # Lübeck
}
#: Two-value tiles (7.4.2): tile name -> (low, high) per city index; low is the tile's revenue.
TWO_VALUE_TILES = {
    "K2": [(40, 60)],
    "K3": [(50, 70)],
    "L2": [(40, 60)],
    "L3": [(50, 70)],
}

#: Station tokens beside the track that never block (7.4.1, 11.2.1).
NON_BLOCKING_HEXES = ("L12", "M7")

#: Coastal towns (7.4.2).  A route containing one of each earns PORT_BONUS.
NORTH_SEA_PORTS = ("F4", "H4", "I3", "L4")
BALTIC_PORTS = ("E7", "F10", "G9", "G11", "G17", "I15", "J14")
PORT_BONUS = 30

#: HAV income per route of another company that includes a Hamburg station (3.4.2.2).
HAV_PER_ROUTE = 10
#: Simplified HAV (10.3 as printed): 5 M per share whatever the routes.
HAV_SIMPLIFIED_PER_SHARE = 5

#: Dänemark's two station places (7.3): different hexes for tokens, one destination for routes.
DAENEMARK_HEXES = ("C3", "C7")

VOGELFLUGLINIE = {"hex": "G17", "bonus": 60}  # first tile on G17 (4, 7.2.3)
LAUENBURGER_PRIVILEG = {"tile_hex": "N14", "token_hex": "M15", "joins": ("M15", "O13")}  # 7.2.3
TOKEN_COST_FACTOR = 3  # 7.3: three times the (lower) city value

# ----------------------------------------------------------------------------------- phases/trains
BANK_CASH = 11000  # 4
STARTING_CASH = {3: 730, 4: 550, 5: 440, 6: 370}  # 4
CERT_LIMIT = {3: 13, 4: 11, 5: 10, 6: 9}  # 6.3
CERT_LIMIT_WITH_UEE_FKE = {3: 17, 4: 14, 5: 12, 6: 11}  # 11.2.3

# Tile colours per phase are the rulebook's (7.2); limits and round counts are guesses.
PHASES = [
    {"name": "2", "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 1, "on": None},
    {"name": "3", "train_limit": 4, "tiles": ["yellow", "green"], "operating_rounds": 2, "on": "3"},
    {"name": "4", "train_limit": 3, "tiles": ["yellow", "green"], "operating_rounds": 2, "on": "4"},
    {"name": "5", "train_limit": 3, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3, "on": "5"},
    {"name": "6", "train_limit": 2, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3, "on": "6"},
    {"name": "8", "train_limit": 2, "tiles": ["yellow", "green", "brown", "gray"], "operating_rounds": 3, "on": "8"},
]

# 36 cards in all (2); "optional" ones enter only with UEE and FKE (11.2.4).  Only the
# 2-train's price (100) is the rulebook's.
TRAINS = [
    {"name": "2", "distance": 2, "price": 100, "num": 8, "optional": 1, "rusts_on": "4"},
    {"name": "3", "distance": 3, "price": 200, "num": 7, "optional": 1, "rusts_on": "6"},
    {"name": "4", "distance": 4, "price": 300, "num": 6, "optional": 1, "rusts_on": "8"},
    {"name": "5", "distance": 5, "price": 450, "num": 5, "optional": 1},
    {"name": "6", "distance": 6, "price": 600, "num": 4, "optional": 1},
    {"name": "8", "distance": 8, "price": 800, "num": 6},
]

# ----------------------------------------------------------------------------------- companies
# Token lists: the home token is free; the others cost TOKEN_COST_FACTOR x the city's lower
# value (7.3), so their price is None here.  "exchange" counts the exchange tokens (3.3.1).
CORPORATIONS = [
    {"sym": "AKE", "name": "Altona-Kieler Eisenbahn", "tokens": [0, None, None, None], "exchange": 1,
     "coordinates": "L10", "city": 1, "color": "#1f4e9c", "shares": [20] + [10] * 8},
    {"sym": "BHE", "name": "Berlin-Hamburger Eisenbahn", "tokens": [0, None, None], "exchange": 1,
     "coordinates": "L10", "city": 0, "color": "#2e7d32", "shares": [20] + [10] * 8},
    {"sym": "LBE", "name": "Lübeck-Büchener Eisenbahn", "tokens": [0, None, None], "exchange": 1,
     "coordinates": "J14", "city": 0, "color": "#c62828", "shares": [20] + [10] * 8},
    {"sym": "WHE", "name": "Westholsteinische Eisenbahn", "tokens": [0, None, None], "exchange": 1,
     "coordinates": "I5", "city": 0, "color": "#6a1b9a", "shares": [20, 20] + [10] * 6},
    {"sym": "ELE", "name": "Eutin-Lübecker Eisenbahn", "tokens": [0, None, None], "exchange": 1,
     "coordinates": "I13", "city": 0, "color": "#ef6c00", "shares": [20, 20] + [10] * 6},
    {"sym": "SE", "name": "Schleswig'sche Eisenbahn", "tokens": [0, None, None], "exchange": 1,
     "coordinates": "F8", "city": 0, "color": "#00838f", "shares": [20] + [10] * 8,
     "predecessor": "SSE"},
    {"sym": "HMBG", "name": "Holsteinische Marschbahn-Gesellschaft", "tokens": [0, None, None], "exchange": 1,
     "coordinates": "K7", "city": 0, "color": "#795548", "shares": [20, 20] + [10] * 6,
     "predecessor": "GEE"},
    # The HAV owns no trains and no station (3.4); it operates after everyone else.
    {"sym": "HAV", "name": "Hamburg-Altonaer-Verbindungsbahn", "tokens": [], "color": "#37474f",
     "shares": [20] + [10] * 6 + [20], "par": 30},
    # Optional corporations (11.2): no exchange token, no private railway.
    {"sym": "UEE", "name": "Unterelbische Eisenbahn", "tokens": [0, None], "exchange": 0,
     "coordinates": "M7", "city": 0, "color": "#9e9d24", "shares": [20, 20, 20] + [10] * 4,
     "optional": True},
    {"sym": "FKE", "name": "Flensburg-Kieler Eisenbahn", "tokens": [0, None], "exchange": 0,
     "coordinates": "E7", "city": 0, "color": "#ad1457", "shares": [20, 20, 20] + [10] * 4,
     "optional": True},
]

# Private and predecessor railways run trains and hold one station token each (3.1, 3.2, 7.3).
# "building_tokens" = yellow hexes on the charter (unknown: guesses); "value" = purchase
# price (guesses; it includes the 100 M of the 2-train they start with).
MINORS = [
    {"sym": "HBE", "number": 1, "name": "Hamburg-Bergedorfer Eisenbahn", "tokens": [0],
     "coordinates": "L12", "city": 0, "value": 200, "building_tokens": 3, "train_limit": 1,
     "color": "#455a64"},
    {"sym": "KE", "number": 2, "name": "Klosterburger Eisenbahn", "tokens": [0],
     "coordinates": "J8", "city": 0, "value": 220, "building_tokens": 3, "train_limit": 1,
     "color": "#455a64"},
    {"sym": "RE", "number": 3, "name": "Rendsburg-Neumünstersche Eisenbahn", "tokens": [0],
     "coordinates": "H8", "city": 0, "value": 240, "building_tokens": 4, "train_limit": 2,
     "activity_markers": ["2nd tile"], "color": "#455a64"},
    {"sym": "GEE", "number": 4, "name": "Glückstadt-Elmshorner Eisenbahn", "tokens": [0],
     "coordinates": "K7", "city": 0, "value": 260, "building_tokens": 4, "train_limit": 2,
     "activity_markers": ["1 train runs 2x", "2nd tile"], "successor": "HMBG",
     "color": "#795548"},
    {"sym": "SSE", "number": 5, "name": "Südschleswigsche Eisenbahn", "tokens": [0],
     "coordinates": "F8", "city": 0, "value": 280, "building_tokens": 4, "train_limit": 2,
     "successor": "SE", "color": "#00838f"},
]

COMPANIES: list = []  # 1842 has no private companies in the 1830 sense; see MINORS

#: Position ``extras`` key: the GEE uses its "1 train runs 2x" marker on the named train.
GEE_RUNS_TWICE = "gee_runs_twice"
GEE = "GEE"
# fmt: on


# A corporation gains a station for the minor exchanged into it (economy_data CORPORATIONS
# ``exchange``: one each, rulebook §10); positions are checked against it.
EXTRA_TOKENS = 1
