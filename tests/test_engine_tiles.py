"""Tile catalogue and tile-code parser."""

import pytest

from engine.model.tiles import TILES, standard_tile
from engine.model.tiles.parse import Edge, NodeRef, Revenue, parse_revenue, parse_tile


def test_catalogue_parses_completely():
    assert len(TILES) > 400
    for name in TILES:
        tile = standard_tile(name)
        assert tile.color in ("white", "yellow", "green", "brown", "gray")


def test_standard_tiles_match_18xx_games():
    t57 = standard_tile("57")
    assert t57.color == "yellow"
    assert len(t57.cities) == 1 and t57.cities[0].revenue == Revenue(20)
    assert t57.exits() == (0, 3)
    assert t57.exits(1) == (1, 4)
    t1 = standard_tile("1")
    assert len(t1.towns) == 2 and sorted(t1.exits()) == [0, 1, 3, 4]
    assert standard_tile("119").color == "green"  # green/brown striped tile counts as green


def test_city_parts():
    t = parse_tile(
        "X", "green", "city=revenue:40,slots:2,groups:Chi|E,loc:1;path=a:0,b:_0;label=Chi"
    )
    city = t.cities[0]
    assert city.slots == 2 and city.groups == ("Chi", "E") and city.loc == "1"
    assert t.label == "Chi"
    assert t.paths[0].a == Edge(0) and t.paths[0].b == NodeRef("city", 0)


def test_node_references_count_all_node_parts():
    t = parse_tile(
        "X", "yellow", "town=revenue:10;city=revenue:20;junction;path=a:0,b:_1;path=a:_0,b:_2"
    )
    assert t.paths[0].b == NodeRef("city", 0)
    assert t.paths[1].a == NodeRef("town", 0) and t.paths[1].b == NodeRef("junction", 0)
    assert t.junction


def test_offboard_revenue_by_colour():
    t = parse_tile("A1", "red", "offboard=revenue:yellow_40|brown_60,hide:1,groups:E;path=a:4,b:_0")
    off = t.offboards[0]
    assert off.hide and off.groups == ("E",)
    assert off.revenue.value(["yellow"]) == 40
    assert off.revenue.value(["yellow", "green"]) == 40
    assert off.revenue.value(["yellow", "green", "brown"]) == 60
    assert off.revenue.max == 60
    assert parse_revenue("30").value(["brown"]) == 30


def test_other_parts():
    t = parse_tile(
        "H",
        "white",
        "upgrade=cost:40,terrain:mountain|water;border=edge:5,type:impassable;border=edge:2,"
        "type:mountain,cost:40;icon=image:1846/meat,sticky:1;frame=color:red;stripes=color:gray;"
        "path=a:0,b:3,terminal:1,lanes:2;future_label=label:Z,color:brown",
    )
    assert t.upgrade_cost == 40 and t.terrains == ("mountain", "water")
    assert [b.impassable for b in t.borders] == [True, False]
    assert t.icons[0].name == "meat" and t.icons[0].sticky
    assert len(t.paths) == 2 and t.paths[0].terminal
    assert t.future_label == ("Z", "brown")


@pytest.mark.parametrize(
    "code, fragment",
    [
        ("city=revenue:abc", "revenue"),
        ("path=a:0", "needs 'b'"),
        ("path=a:0,b:_3", "names no node"),
        ("path=a:0,b:7", "not 0-5"),
        ("bogus=x:1", "unknown part"),
        ("city=revenue:20,slots", "has no ':'"),
        ("border=edge:9", "not 0-5"),
    ],
)
def test_malformed_codes_name_tile_and_part(code, fragment):
    with pytest.raises(ValueError) as err:
        parse_tile("T9", "yellow", code)
    msg = str(err.value)
    assert "'T9'" in msg and fragment in msg
