"""A tiny synthetic title for the engine tests (invented facts, pointy layout).

Map (pointy, x = number, y = letter)::

    A2(red)  A4(border to B3)  A6(blue)
       B3(city)   B5   B7(gray city)
    C2(mountain)  C4(town)  C6(red)
"""

SOURCE = "synthetic test data"
TITLE = "tiny"
LAYOUT = "pointy"
LOCATION_NAMES = {"A2": "West", "B3": "Home", "B7": "Far", "C4": "Dit", "C6": "South"}
HEXES = {
    "red": {
        "offboard=revenue:yellow_30|brown_60,groups:W;path=a:5,b:_0;label=W": ["A2"],
        "offboard=revenue:20;path=a:2,b:_0": ["C6"],
    },
    "white": {
        "city=revenue:0": ["B3"],
        "": ["B5"],
        "border=edge:0,type:impassable": ["A4"],
        "town=revenue:0": ["C4"],
        "upgrade=cost:40,terrain:mountain;icon=image:mine,sticky:1": ["C2"],
    },
    "gray": {"city=revenue:30,slots:2;path=a:1,b:_0;path=a:4,b:_0": ["B7"]},
    "blue": {"": ["A6"]},
}
TILES = {
    "3": 2,
    "7": 1,
    "8": 2,
    "9": "unlimited",
    "57": 1,
    "14": 1,
    "X1": {
        "count": 1,
        "color": "green",
        "code": "city=revenue:40,slots:2;path=a:0,b:_0;path=a:3,b:_0;path=a:2,b:_0;path=a:5,b:_0",
    },
}
PHASES = [
    {"name": "2", "train_limit": 4, "tiles": ["yellow"], "operating_rounds": 1},
    {"name": "3", "train_limit": 4, "tiles": ["yellow", "green"], "operating_rounds": 2},
    {"name": "5", "train_limit": 3, "tiles": ["yellow", "green", "brown"], "operating_rounds": 3},
]
TRAINS = [
    {"name": "2", "distance": 2, "price": 80, "num": 5},
    {"name": "3", "distance": 3, "price": 180, "num": 4},
    {
        "name": "4",
        "distance": 4,
        "price": 300,
        "num": 3,
        "variants": [
            {
                "name": "4/6",
                "distance": [{"nodes": ["city", "offboard", "town"], "pay": 4, "visit": 6}],
            }
        ],
    },
]
CORPORATIONS = [
    {"sym": "AA", "name": "Alpha", "tokens": [0, 40], "coordinates": "B3", "city": 0},
    {"sym": "BB", "name": "Beta", "tokens": [0, 40], "coordinates": "B7"},
    {"sym": "CC", "name": "Gamma", "tokens": [0, 40]},
]
MINORS = []
COMPANIES = [{"sym": "MC", "name": "Mail", "value": 80, "revenue": 0, "abilities": []}]


def register():
    """Register this module as title ``tiny`` with the engine's default rules."""
    import sys

    from engine.games import register_title
    from engine.model.title import Title, default_route_spec

    title = Title("tiny", sys.modules[__name__], default_route_spec)
    register_title("tiny", title)
    return title
