"""Position files: one operating company's situation, as JSON (see docs/POSITIONS.md).

.. code-block:: json

    {"title": "1846", "phase": "III",
     "tiles": [{"hex": "D6", "tile": "298", "rotation": 0}],
     "tokens": [{"hex": "D6", "city": 1, "company": "PRR"}],
     "company": "PRR", "trains": ["4/6", "2"], "owned_companies": ["MC"],
     "assignments": [{"hex": "D6", "ability": "meat_packing", "company": "PRR"}],
     "extras": {}}

:func:`load_position` parses and checks; :func:`save_position` writes the canonical form, which
loads back to an equal :class:`Position` (and saves to the same text).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.model.jsonio import JSONInputError, parse_json, read_text

__all__ = [
    "PositionError",
    "Position",
    "TileLay",
    "Token",
    "Assignment",
    "load_position",
    "save_position",
    "position_from_dict",
    "check_position",
    "position_board",
]

_TOP_KEYS = (
    "title",
    "phase",
    "tiles",
    "tokens",
    "company",
    "trains",
    "owned_companies",
    "assignments",
    "cash",
    "turn",
    "options",
    "extras",
)

#: Fields of ``turn``: what the company already did in the operating turn under way.
_TURN_KEYS = ("stage", "tiles_laid", "tokens_placed", "trains_bought")


class PositionError(ValueError):
    """An impossible or malformed position; the message names the item (and file)."""


@dataclass(frozen=True)
class TileLay:
    hex: str
    tile: str
    rotation: int = 0

    def to_dict(self) -> dict:
        return {"hex": self.hex, "tile": self.tile, "rotation": self.rotation}


@dataclass(frozen=True)
class Token:
    hex: str
    company: str
    city: int = 0

    def to_dict(self) -> dict:
        return {"hex": self.hex, "city": self.city, "company": self.company}


@dataclass(frozen=True)
class Assignment:
    """A marker or ability placed on a hex (meat packing, port token, mine claim ...).

    ``extra`` keeps any further keys the title uses (e.g. ``city``), in file order.
    """

    hex: str
    ability: str
    company: str
    extra: tuple[tuple[str, Any], ...] = ()

    def to_dict(self) -> dict:
        return {
            "hex": self.hex,
            "ability": self.ability,
            "company": self.company,
            **dict(self.extra),
        }

    def get(self, key: str, default: Any = None) -> Any:
        return dict(self.extra).get(key, default)


@dataclass
class Position:
    """One operating company's position.  ``source`` (the file) is not serialised."""

    title: str
    phase: str
    company: str
    trains: list[str] = field(default_factory=list)
    tiles: list[TileLay] = field(default_factory=list)
    tokens: list[Token] = field(default_factory=list)
    owned_companies: list[str] = field(default_factory=list)
    assignments: list[Assignment] = field(default_factory=list)
    #: The company's treasury (None: not known; analyses then list every legal move).
    cash: int | None = None
    #: The operating turn under way: ``stage`` and what the company already did in it
    #: (``tiles_laid``, ``tokens_placed``: hexes; ``trains_bought``: train names).  None: the
    #: position is the start of the company's turn.
    turn: dict[str, Any] | None = None
    #: Title options in effect for the route rules (``allow_west_west`` in 1846 ...).
    options: list[str] = field(default_factory=list)
    extras: dict[str, Any] = field(default_factory=dict)
    source: str | None = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict:
        out = {
            "title": self.title,
            "phase": self.phase,
            "tiles": [t.to_dict() for t in self.tiles],
            "tokens": [t.to_dict() for t in self.tokens],
            "company": self.company,
            "trains": list(self.trains),
            "owned_companies": list(self.owned_companies),
            "assignments": [a.to_dict() for a in self.assignments],
        }
        # the optional fields only where set, so older files save back to the same text
        if self.cash is not None:
            out["cash"] = self.cash
        if self.turn is not None:
            out["turn"] = {k: v if isinstance(v, str) else list(v) for k, v in self.turn.items()}
        if self.options:
            out["options"] = list(self.options)
        out["extras"] = self.extras
        return out

    def to_json(self) -> str:
        return save_position(self)

    def tokens_by_city(self) -> dict[tuple[str, int], list[str]]:
        out: dict[tuple[str, int], list[str]] = {}
        for t in self.tokens:
            out.setdefault((t.hex, t.city), []).append(t.company)
        return out


# ---------------------------------------------------------------------------------- parsing
def _where(source: str | None, field_name: str) -> str:
    return f"{source}: {field_name}" if source else field_name


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value:
        raise PositionError(f"{where} must be a non-empty string, got {value!r}")
    return value


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{where} must be an integer, got {value!r}")
    return value


def _list(value: Any, where: str) -> list:
    if not isinstance(value, list):
        raise PositionError(f"{where} must be a list, got {type(value).__name__}")
    return value


def _obj(value: Any, where: str, keys: tuple[str, ...], required: tuple[str, ...]) -> dict:
    if not isinstance(value, dict):
        raise PositionError(f"{where} must be an object, got {type(value).__name__}")
    for key in required:
        if key not in value:
            raise PositionError(f"{where} is missing {key!r}")
    if keys:
        for key in value:
            if key not in keys:
                raise PositionError(f"{where} has unknown field {key!r} (expected {list(keys)})")
    return value


_TILE_KEYS = frozenset(("hex", "tile", "rotation"))
_TOKEN_KEYS = frozenset(("hex", "city", "company"))


def _plain(item: Any, keys: frozenset, first: str, second: str, number: str) -> bool:
    """Is ``item`` an object of ``keys`` only, with the non-empty strings ``first`` and
    ``second`` and a whole number or nothing at ``number``?  Such an item (nearly every
    one) is read at once; any other goes through the checks that name what is wrong."""
    if type(item) is not dict or not item.keys() <= keys:
        return False
    a, b, n = item.get(first), item.get(second), item.get(number, 0)
    return type(a) is str and type(b) is str and bool(a) and bool(b) and type(n) is int


def position_from_dict(data: Any, source: str | None = None) -> Position:
    """Build a :class:`Position` from parsed JSON, checking its shape only.

    Raises
    ------
    PositionError
        Naming the file (``source``) and the field.
    """
    w = lambda name: _where(source, name)  # noqa: E731 - short local helper
    top = _obj(data, w("position"), _TOP_KEYS, ("title", "phase", "company"))
    tiles = []
    for i, item in enumerate(_list(top.get("tiles", []), w("tiles"))):
        if _plain(item, _TILE_KEYS, "hex", "tile", "rotation"):
            tiles.append(TileLay(item["hex"], item["tile"], item.get("rotation", 0)))
            continue
        at = w(f"tiles[{i}]")
        item = _obj(item, at, ("hex", "tile", "rotation"), ("hex", "tile"))
        tile = item["tile"]
        if isinstance(tile, int) and not isinstance(tile, bool):
            tile = str(tile)  # "tile": 57 is a common slip for "57"
        tiles.append(
            TileLay(
                _str(item["hex"], f"{at}.hex"),
                _str(tile, f"{at}.tile"),
                _int(item.get("rotation", 0), f"{at}.rotation"),
            )
        )
    tokens = []
    for i, item in enumerate(_list(top.get("tokens", []), w("tokens"))):
        if _plain(item, _TOKEN_KEYS, "hex", "company", "city"):
            tokens.append(Token(item["hex"], item["company"], item.get("city", 0)))
            continue
        at = w(f"tokens[{i}]")
        item = _obj(item, at, ("hex", "city", "company"), ("hex", "company"))
        tokens.append(
            Token(
                _str(item["hex"], f"{at}.hex"),
                _str(item["company"], f"{at}.company"),
                _int(item.get("city", 0), f"{at}.city"),
            )
        )
    assignments = []
    for i, item in enumerate(_list(top.get("assignments", []), w("assignments"))):
        at = w(f"assignments[{i}]")
        item = _obj(item, at, (), ("hex", "ability", "company"))
        extra = tuple((k, v) for k, v in item.items() if k not in ("hex", "ability", "company"))
        assignments.append(
            Assignment(
                _str(item["hex"], f"{at}.hex"),
                _str(item["ability"], f"{at}.ability"),
                _str(item["company"], f"{at}.company"),
                extra,
            )
        )
    trains = [
        _str(t, w(f"trains[{i}]")) for i, t in enumerate(_list(top.get("trains", []), w("trains")))
    ]
    owned = [
        _str(c, w(f"owned_companies[{i}]"))
        for i, c in enumerate(_list(top.get("owned_companies", []), w("owned_companies")))
    ]
    extras = top.get("extras", {})
    if not isinstance(extras, dict):
        raise PositionError(f"{w('extras')} must be an object")
    _check_extras(extras, w)
    cash = top.get("cash")
    if cash is not None:
        cash = _int(cash, w("cash"))
        if cash < 0:
            raise PositionError(f"{w('cash')} must not be negative, got {cash}")
    turn = top.get("turn")
    if turn is not None:
        turn = dict(_obj(turn, w("turn"), _TURN_KEYS, ()))
        for key in _TURN_KEYS[1:]:
            turn[key] = [
                _str(x, w(f"turn.{key}[{i}]"))
                for i, x in enumerate(_list(turn.get(key, []), w(f"turn.{key}")))
            ]
        if "stage" in turn:
            _str(turn["stage"], w("turn.stage"))
    options = [
        _str(o, w(f"options[{i}]"))
        for i, o in enumerate(_list(top.get("options", []), w("options")))
    ]
    return Position(
        title=_str(top["title"], w("title")),
        phase=_str(
            str(top["phase"]) if isinstance(top["phase"], int) else top["phase"], w("phase")
        ),
        company=_str(top["company"], w("company")),
        trains=trains,
        tiles=tiles,
        tokens=tokens,
        owned_companies=owned,
        assignments=assignments,
        cash=cash,
        turn=turn,
        options=options,
        extras=extras,
        source=source,
    )


def load_position(source: str | Path | dict, title=None) -> Position:
    """Load a position from a file path, a JSON string or a parsed dict.

    With ``title`` (a :class:`engine.model.title.Title`) the position is also checked against
    it (:func:`check_position`); :func:`engine.games.load_position` finds the title itself.

    Raises
    ------
    PositionError
        Malformed JSON or an impossible position; the message names the file and the item.
    """
    name: str | None = None
    if isinstance(source, dict):
        data = source
    else:
        text = None
        if isinstance(source, Path) or (
            isinstance(source, str) and not source.lstrip().startswith("{")
        ):
            name = str(source)
            try:
                text = read_text(source, "position file")
            except JSONInputError as exc:
                raise PositionError(str(exc)) from None
        else:
            text = source
        try:
            data = parse_json(text, name or "position")
        except JSONInputError as exc:
            raise PositionError(str(exc)) from None
    pos = position_from_dict(data, name)
    if title is not None:
        check_position(pos, title)
    return pos


def save_position(position: Position, path: str | Path | None = None) -> str:
    """Canonical JSON text of ``position`` (written to ``path`` if given)."""
    text = json.dumps(position.to_dict(), indent=2, ensure_ascii=False) + "\n"
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


# ---------------------------------------------------------------------------------- checking
#: The title data attributes :class:`_TitleFacts` is read from.
_FACT_ATTRIBUTES = ("PHASES", "CORPORATIONS", "MINORS", "COMPANIES", "TRAINS")


@dataclass(frozen=True)
class _TitleFacts:
    """What the checks read of a title's data, worked out once per title: every position
    asks again, and each of these costs as much as checking a position's trains."""

    phases: list[str]
    phase: dict[str, dict]
    phase_starts: list[str]  # the train that starts each phase (PHASES ``on``)
    operators: dict[str, dict]
    minors: dict[str, dict]
    companies: dict[str, dict]
    trains: frozenset[str]  # every train name, variants included
    bases: dict[str, dict]  # train name -> the spec it belongs to


#: id(data) -> (data, its fact attributes, facts): kept while those are the same objects
_FACTS: dict[int, tuple] = {}


def _title_facts(data) -> _TitleFacts:
    source = tuple(getattr(data, name, None) for name in _FACT_ATTRIBUTES)
    cached = _FACTS.get(id(data))
    if (cached is None or cached[0] is not data
            or any(a is not b for a, b in zip(cached[1], source, strict=True))):  # fmt: skip
        phases = list(getattr(data, "PHASES", []) or [])
        facts = _TitleFacts(
            phases=[str(p["name"]) for p in phases],
            phase={name: p for name, p in reversed([(str(p["name"]), p) for p in phases])},
            phase_starts=[str(p.get("on")) for p in phases],
            operators=_entities(data, "CORPORATIONS", "MINORS"),
            minors=_entities(data, "MINORS"),
            companies=_entities(data, "COMPANIES"),
            trains=frozenset(train_names(data)),
            bases=_base_trains(data),
        )
        cached = _FACTS[id(data)] = (data, source, facts)
    return cached[2]


def _entities(data, *names: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for name in names:
        for ent in getattr(data, name, []) or []:
            out[str(ent["sym"])] = ent
    return out


def train_names(data) -> list[str]:
    """Every train name of a title, variants included."""
    names = []
    for t in getattr(data, "TRAINS", []) or []:
        names.append(str(t["name"]))
        for v in t.get("variants", []) or []:
            names.append(str(v["name"]))
    return names


def position_board(position: Position, title, check: bool = True):
    """The title's board with the position's tiles laid (checked unless ``check`` is False).

    Hex ids are matched case-insensitively: the position's are put in the map's spelling."""
    from engine.model.board import Board, PlacedTile

    board = Board.from_data(title.data)
    _canonical_hexes(position, board)
    src = f"{position.source}: " if position.source else ""
    cells, laid, manifest = board.cells, board.laid, board.manifest
    for i, lay in enumerate(position.tiles):
        if lay.hex not in cells:
            raise PositionError(f"{src}tiles[{i}]: hex {lay.hex!r} is not on the {title.id} map")
        if lay.hex in laid:
            raise PositionError(f"{src}tiles[{i}]: hex {lay.hex} has a second tile")
        if lay.tile not in manifest:
            raise PositionError(
                f"{src}tiles[{i}]: tile {lay.tile!r} is not in the {title.id} tile manifest"
            )
        if not 0 <= lay.rotation <= 5:
            raise PositionError(
                f"{src}tiles[{i}]: hex {lay.hex}: illegal rotation {lay.rotation} (0-5)"
            )
        tile = manifest[lay.tile][0]
        if check:
            problems = board.lay_problems(lay.hex, tile, lay.rotation)
            if title.check_tile is not None:
                problems = list(title.check_tile(board, lay.hex, tile, lay.rotation, problems))
            if problems:
                raise PositionError(
                    f"{src}tiles[{i}]: hex {lay.hex}: tile {lay.tile} rotation {lay.rotation}: "
                    f"{problems[0]}"
                )
        # what Board.lay does once the hex, tile and rotation are known good, as above
        laid[lay.hex] = PlacedTile(tile, lay.rotation, False)
    board.__dict__.pop("_in_use", None)
    if check:
        for name, used in board.tiles_in_use().items():
            if used > board.tile_count(name):
                raise PositionError(
                    f"{src}tiles: tile {name!r} is laid {used} times but the manifest has "
                    f"{board.tile_count(name)}"
                )
    return board


def check_position(position: Position, title):
    """Check ``position`` against its title; return the board with its tiles laid.

    Raises
    ------
    PositionError
        Naming the first impossible item: unknown title, phase, hex, tile, company or train,
        illegal rotation, track running off the map or into a cut side, a token in a missing
        slot or too many tokens, a tile over its manifest count.
    """
    src = f"{position.source}: " if position.source else ""
    data = title.data
    facts = _title_facts(data)
    if position.phase not in facts.phase:
        raise PositionError(f"{src}phase: unknown phase {position.phase!r} (known: {facts.phases})")
    operators = facts.operators
    everyone = {**operators, **facts.companies}
    if position.company not in operators:
        raise PositionError(
            f"{src}company: unknown company {position.company!r} (known: {sorted(operators)})"
        )
    known_trains = facts.trains
    for i, name in enumerate(position.trains):
        if name not in known_trains:
            raise PositionError(
                f"{src}trains[{i}]: unknown train {name!r} (known: {sorted(known_trains)})"
            )
    _check_trains(position, title, facts, src)
    for i, option in enumerate(position.options):
        if option not in title.options:
            known = ", ".join(title.options) or "none"
            raise PositionError(
                f"{src}options[{i}]: {title.id} has no route option {option!r} (known: {known})"
            )
    privates = facts.companies
    for i, sym in enumerate(position.owned_companies):
        if sym not in privates and sym not in operators:
            raise PositionError(f"{src}owned_companies[{i}]: unknown company {sym!r}")
    try:
        board = position_board(position, title)
    except PositionError:
        raise
    except ValueError as exc:
        raise PositionError(f"{src}{exc}") from None
    _check_tile_colours(position, board, facts.phase[position.phase], src)
    per_city: Counter = Counter()
    in_city: Counter = Counter()  # tokens so far in each (hex, city)
    for i, tok in enumerate(position.tokens):
        at = f"{src}tokens[{i}]"
        if tok.hex not in board:
            raise PositionError(f"{at}: hex {tok.hex!r} is not on the {title.id} map")
        if tok.company not in operators:
            raise PositionError(f"{at}: unknown company {tok.company!r}")
        try:
            slots = board.city_slots(tok.hex, tok.city)
        except ValueError as exc:
            raise PositionError(f"{at}: {exc}") from None
        if (tok.hex, tok.city, tok.company) in per_city:
            raise PositionError(
                f"{at}: {tok.company} already has a token in {tok.hex} city {tok.city}"
            )
        per_city[(tok.hex, tok.city, tok.company)] += 1
        in_city[(tok.hex, tok.city)] += 1
        here = in_city[(tok.hex, tok.city)]
        if here > slots:
            raise PositionError(
                f"{at}: too many tokens in {tok.hex} city {tok.city} ({here} for {slots} "
                f"slot{'s' if slots != 1 else ''})"
            )
    _check_token_count(position, operators, data, src)
    _check_owned_once(position, src)
    for i, a in enumerate(position.assignments):
        at = f"{src}assignments[{i}]"
        if a.hex not in board:
            raise PositionError(f"{at}: hex {a.hex!r} is not on the {title.id} map")
        if a.company not in everyone and a.company not in getattr(data, "MARKER_OWNERS", ()):
            raise PositionError(f"{at}: unknown company {a.company!r}")
    if title.check_position is not None:
        try:
            title.check_position(position, board)
        except PositionError:
            raise
        except ValueError as exc:
            raise PositionError(f"{src}{exc}") from None
    return board


def _base_trains(data) -> dict[str, dict]:
    """Train name (variants included) -> the train spec it belongs to."""
    out = {}
    for spec in getattr(data, "TRAINS", []) or []:
        out[str(spec["name"])] = spec
        for v in spec.get("variants", []) or []:
            out[str(v["name"])] = spec
    return out


def _reached(facts: _TitleFacts, train_name: str | None, phase: str) -> bool:
    """Has the phase that the first ``train_name`` starts come by ``phase``?"""
    if train_name is None:
        return False
    starts = facts.phase_starts
    if str(train_name) not in starts:
        return False
    return starts.index(str(train_name)) <= facts.phases.index(str(phase))


def _most_trains(spec: dict) -> int | None:
    """The most trains of ``spec`` a game of the title has (None: unlimited)."""
    num = spec.get("num")
    if isinstance(num, dict):
        return max(int(v) for v in num.values())
    return None if num is None or int(num) >= 99 else int(num)


def _check_trains(position: Position, title, facts: _TitleFacts, src: str) -> None:
    """Trains the title's phase allows: none rusted, no more of a kind than the game has,
    and no more counted trains than the phase's train limit (obsolete ones do not count).

    A position's trains are the company's trains that may run; a company never holds more
    than the limit after the purchase that brought it there (it must discard at once)."""
    bases = facts.bases
    phase = facts.phase[position.phase]
    counted = Counter()
    for i, name in enumerate(position.trains):
        spec = bases[name]
        if _reached(facts, spec.get("rusts_on"), position.phase):
            raise PositionError(
                f"{src}trains[{i}]: a {name} train has rusted by phase {position.phase}"
            )
        counted[str(spec["name"])] += 1
        most = _most_trains(spec)
        if most is not None and counted[str(spec["name"])] > most:
            raise PositionError(
                f"{src}trains[{i}]: no {spec['name']!r} train left for {position.company} "
                f"({title.id} has {most})"
            )
    limit = phase.get("train_limit")
    if isinstance(limit, dict):
        kind = "minor" if position.company in facts.minors else "major"
        limit = limit.get(kind)
    if not isinstance(limit, int):
        return
    live = sum(1 for name in position.trains
               if not _reached(facts, bases[name].get("obsolete_on"), position.phase))  # fmt: skip
    if live > limit:
        raise PositionError(
            f"{src}trains: {position.company} has {live} trains but phase {position.phase}'s "
            f"train limit is {limit}"
        )


def _check_tile_colours(position: Position, board, phase: dict, src: str) -> None:
    """Every laid tile's colour is one ``phase`` (the position's) allows (or an earlier
    phase allowed)."""
    allowed = set(phase.get("tiles", []) or [])
    if not allowed:
        return
    for i, lay in enumerate(position.tiles):
        color = board.placed(lay.hex).tile.color
        if color not in allowed:
            raise PositionError(
                f"{src}tiles[{i}]: hex {lay.hex}: tile {lay.tile} is {color}, which phase "
                f"{position.phase} does not allow (allowed: {', '.join(sorted(allowed))})"
            )


def _check_token_count(position: Position, operators: dict, data, src: str) -> None:
    """No company has more station tokens on the map than its charter gives it plus the
    tokens its title lets it gain (``data.EXTRA_TOKENS``: taken over from bought minors or
    given by privates; ``data.TOKEN_LIMITS``: a company's total where it is not its charter's,
    e.g. a national's)."""
    used = Counter(t.company for t in position.tokens)
    extra = int(getattr(data, "EXTRA_TOKENS", 0))
    limits = getattr(data, "TOKEN_LIMITS", {})
    for sym, n in used.items():
        spec = operators.get(sym, {})
        tokens = spec.get("tokens")
        if not isinstance(tokens, list):
            continue
        most = int(limits.get(sym, len(tokens) + extra))
        if n > most:
            raise PositionError(
                f"{src}tokens: {sym} has {n} station tokens on the map but only {most}"
            )


def _check_owned_once(position: Position, src: str) -> None:
    """A private company has one owner: not listed twice, nor by two companies."""
    seen: dict[str, str] = {}
    owners = [(position.company, position.owned_companies)]
    others = position.extras.get("companies") or {}
    if isinstance(others, dict):
        owners += [(str(s), (info or {}).get("owned_companies") or [])
                   for s, info in others.items() if isinstance(info, dict)]  # fmt: skip
    for owner, owned in owners:
        for sym in owned if isinstance(owned, list) else []:
            if sym in seen:
                raise PositionError(
                    f"{src}owned_companies: {sym} is owned twice ({seen[sym]} and {owner})"
                )
            seen[sym] = owner


def _check_extras(extras: dict, where) -> None:
    """The ``extras`` the engine reads have their shape: ``companies`` maps company symbols
    to objects with ``trains`` and ``owned_companies`` lists of names (and an optional
    ``cash``); ``cash`` is a whole number >= 0."""
    companies = extras.get("companies")
    if companies is not None:
        if not isinstance(companies, dict):
            raise PositionError(f"{where('extras.companies')} must be an object, "
                                f"got {type(companies).__name__}")  # fmt: skip
        for sym, info in companies.items():
            at = where(f"extras.companies.{sym}")
            if not isinstance(info, dict):
                raise PositionError(f"{at} must be an object, got {type(info).__name__}")
            for key in ("trains", "owned_companies"):
                for i, name in enumerate(_list(info.get(key, []), f"{at}.{key}")):
                    _str(name, f"{at}.{key}[{i}]")
            if info.get("cash") is not None and _int(info["cash"], f"{at}.cash") < 0:
                raise PositionError(f"{at}.cash must not be negative, got {info['cash']}")
    if "cash" in extras:
        cash = _int(extras["cash"], where("extras.cash"))
        if cash < 0:
            raise PositionError(f"{where('extras.cash')} must not be negative, got {cash}")


def _canonical_hexes(position: Position, board) -> None:
    """Put the position's hex ids in the map's spelling (``d6`` -> ``D6``)."""
    spelling = board.printed_facts("hex spellings")
    if not spelling:
        spelling.update({h.lower(): h for h in board.cells})
    cells = board.cells

    def fix(hex_: str) -> str:
        return hex_ if hex_ in cells else spelling.get(hex_.lower(), hex_)

    # most positions spell every hex as the map does: their items are kept as they are
    if not all(t.hex in cells for t in position.tiles):
        position.tiles = [TileLay(fix(t.hex), t.tile, t.rotation) for t in position.tiles]
    if not all(t.hex in cells for t in position.tokens):
        position.tokens = [Token(fix(t.hex), t.company, t.city) for t in position.tokens]
    if not all(a.hex in cells for a in position.assignments):
        position.assignments = [Assignment(fix(a.hex), a.ability, a.company, a.extra)
                                for a in position.assignments]  # fmt: skip
