"""Extract real 1846 positions from 18xx.games action logs into ``benchmarks/positions/``.

A record (``tests/data/records/1846/*.json``) is the full action log of a game played on
18xx.games.  This module replays the parts of it that shape a route search -- tile lays,
tokens, pars, train purchases, company purchases, assignments and the phase events -- and
takes a snapshot of the board just before each ``run_routes`` action.  The replay follows the
18xx.games engine (tobymao/18xx @111f7f69, MIT; facts only, no code copied):

* undo/redo as ``Game::Base.filtered_actions`` (an undo drops every live action since its
  target, a redo restores the last undo, any other action clears the redo stack);
* 1846 floats a corporation with its 20 % president's certificate, so the home token goes
  down at ``par`` (``HOME_TOKEN_TIMING = :float``);
* the minors MS and BIG4 start with the first two 2-trains and a home token; a corporation
  that buys one gets its train and its token (or loses the token if it already has one there,
  ``step/buy_company.rb``);
* the first 5 closes every private except the Mail Contract and both minors, and obsoletes the
  2s; the first 6 rusts the 2s, obsoletes the 4s (3/5 included) and removes the assignment
  bonuses; an obsolete train runs once more and rusts at its owner's next ``dividend``;
* Steamboat, Meat Packing and Boomtown assignments: a hex and a corporation each, the company
  assigned to its buyer on purchase (``step/assign.rb``, ``step/buy_company.rb``); a
  player-owned Steamboat loses both at the first 5;
* with fewer than five players 18xx.games removes ``5 - players`` of C&O/ERIE/PRR at random
  and leaves their home tokens on the map.  The random draw cannot be replayed, so a game is
  used only when exactly that many of the three are never parred.

A snapshot is kept only if the extraction checks out: every train the company ran is one it
holds, the position loads, the routes the players ran are legal on the extracted board under
our rules, and -- where the record stores revenue -- they score what 18xx.games paid.  Every
rejected snapshot is listed with its reason in ``positions/index.json`` (``skipped``).

Run ``python -m benchmarks.extract_positions`` (``--help`` for options).
"""

from __future__ import annotations

import argparse
import itertools
import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import routing
from engine.games import build_problem, get_title, load_position
from engine.model.board import Board
from engine.model.position import save_position
from engine.model.tiles.parse import Edge, NodeRef

RECORDS = Path("tests/data/records/1846")
HERE = Path(__file__).resolve().parent
POSITIONS = HERE / "positions"
EXAMPLES = HERE.parent / "engine" / "examples"

GREEN_GROUP = ("C&O", "ERIE", "PRR")
MINOR_TRAINS = {"MS": "2-0", "BIG4": "2-1"}  # setup: the depot's first 2s, minors in order
ASSIGNABLE = {"SC": "steamboat", "MPC": "meat_packing", "BT": "boomtown"}
PHASE_ON = {"4": "II", "5": "III", "6": "IV"}


# ------------------------------------------------------------------------------ undo/redo
def filtered_actions(actions: list[dict]) -> list[dict]:
    """The live actions of a log, as ``Game::Base.filtered_actions`` computes them."""
    live: list[dict | None] = [None] * len(actions)
    undos: list[list[tuple[dict, int]]] = []
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            target = action.get("action_id")
            if target is None:
                undo_to = max(
                    (i for i, a in enumerate(live) if a and a["type"] != "message"), default=0
                )
            elif target == 0:
                undo_to = 0
            else:
                undo_to = next(i for i, a in enumerate(actions) if a["id"] == target) + 1
            dropped = []
            for i in range(undo_to, index):
                a = live[i]
                if a and a["type"] != "message":
                    live[i] = None
                    dropped.append((a, i))
            undos.append(dropped)
        elif kind == "redo":
            for a, i in undos.pop():
                live[i] = a
        elif kind == "message":
            live[index] = action
        else:
            undos.clear()
            live[index] = action
    return [a for a in live if a is not None]


# ---------------------------------------------------------------------------------- replay
class DoubtfulError(Exception):
    """The replay reached something it does not model; later snapshots are not trusted."""


@dataclass
class Snapshot:
    action: dict
    position: dict
    train_ids: list[str]


@dataclass
class Replay:
    players: int
    optional_rules: list[str]
    data: object = None
    board: Board = None
    tiles: dict[str, tuple[str, int]] = field(default_factory=dict)  # hex -> (name, rotation)
    tile_hex: dict[str, str] = field(default_factory=dict)  # 18xx.games tile id -> hex
    tokens: dict[tuple[str, int], list[str]] = field(default_factory=dict)
    trains: dict[str, list[str]] = field(default_factory=dict)  # entity -> train ids
    train_name: dict[str, str] = field(default_factory=dict)  # train id -> variant name
    obsolete: set[str] = field(default_factory=set)
    owner: dict[str, str] = field(default_factory=dict)  # company -> owner (player id or sym)
    closed: set[str] = field(default_factory=set)
    hex_of: dict[str, str] = field(default_factory=dict)  # assignable company -> hex
    corp_of: dict[str, str] = field(default_factory=dict)  # assignable company -> entity
    phase: str = "I"
    removed: list[str] = field(default_factory=list)
    minors: set[str] = field(default_factory=lambda: {"MS", "BIG4"})

    def __post_init__(self) -> None:
        title = get_title("1846")
        self.data = title.data
        self.board = Board.from_data(self.data)
        self.homes = {
            c["sym"]: (c["coordinates"], int(c.get("city", 0)))
            for c in (*self.data.CORPORATIONS, *self.data.MINORS)
        }
        self.corporations = {c["sym"] for c in self.data.CORPORATIONS}
        for minor, train in MINOR_TRAINS.items():
            self._token(minor, *self.homes[minor])
            self._give(minor, train, "2")

    # -- helpers
    def _token(self, company: str, hex_: str, city: int) -> None:
        for (h, _c), owners in self.tokens.items():
            if h == hex_ and company in owners:
                raise DoubtfulError(f"{company} has a second token on {hex_}")
        self.tokens.setdefault((hex_, city), []).append(company)

    def _drop_tokens(self, company: str) -> None:
        for owners in self.tokens.values():
            while company in owners:
                owners.remove(company)

    def _give(self, entity: str, train_id: str, name: str) -> None:
        for held in self.trains.values():
            if train_id in held:
                held.remove(train_id)
        self.trains.setdefault(entity, []).append(train_id)
        self.train_name[train_id] = name

    def _rust(self, prefix: str) -> None:
        for held in self.trains.values():
            held[:] = [t for t in held if t.split("-")[0] != prefix]

    def _city_exits(self, hex_: str) -> list[frozenset[int]]:
        placed = self.board.placed(hex_)
        n = len(placed.tile.cities)
        out: list[set[int]] = [set() for _ in range(n)]
        for path in placed.paths:
            ends = path.ends()
            for mine, other in (ends, ends[::-1]):
                if isinstance(mine, NodeRef) and mine.kind == "city" and isinstance(other, Edge):
                    out[mine.index].add(other.num)
        return [frozenset(s) for s in out]

    def _hex_of_city(self, city_id: str) -> tuple[str, int]:
        tile_id, index = city_id.rsplit("-", 1)
        if tile_id in self.tile_hex:
            return self.tile_hex[tile_id], int(index)
        hex_ = tile_id.rsplit("-", 1)[0]  # a printed tile: "<hex>-<n>"
        if hex_ not in self.board or hex_ in self.tiles:
            raise DoubtfulError(f"cannot place city {city_id}")
        return hex_, int(index)

    def _company_owner(self, entity: str) -> str:
        return self.owner.get(entity, entity)

    # -- events
    def _phase_event(self, sym: str) -> None:
        new = PHASE_ON.get(sym)
        order = ["I", "II", "III", "IV"]
        if new is None or order.index(new) <= order.index(self.phase):
            return
        self.phase = new
        if new == "III":
            for company in list(self.owner):
                if company != "MAIL":
                    self.closed.add(company)
            for minor in list(self.minors):
                self._drop_tokens(minor)
                self.trains.pop(minor, None)
            self.minors.clear()
            if self.owner.get("SC") not in self.corporations:
                self.hex_of.pop("SC", None)
                self.corp_of.pop("SC", None)
            for held in self.trains.values():
                self.obsolete.update(t for t in held if t.startswith("2-"))
        if new == "IV":
            self._rust("2")
            self.hex_of.clear()
            self.corp_of.clear()
            for held in self.trains.values():
                self.obsolete.update(t for t in held if t.startswith("4-"))

    # -- actions
    def apply(self, a: dict) -> None:
        kind = a["type"]
        entity = a.get("entity")
        if kind == "par":
            corp = a["corporation"]
            self._token(corp, *self.homes[corp])
        elif kind == "lay_tile":
            self._lay(a["hex"], a["tile"], int(a.get("rotation", 0)))
        elif kind == "place_token":
            company = entity
            if a.get("entity_type") == "company":
                company = self._company_owner(entity)
            self._token(company, *self._hex_of_city(a["city"]))
        elif kind == "buy_train":
            train_id = a["train"]
            # a train bought from another corporation keeps its variant (no "variant" key)
            name = a.get("variant") or self.train_name.get(train_id) or train_id.split("-")[0]
            self._give(entity, train_id, str(name))
            self._phase_event(train_id.split("-")[0])
        elif kind in ("bid", "buy_company"):
            self._buy_company(entity, a["company"])
        elif kind == "assign":
            target, ttype = a["target"], a.get("target_type")
            if ttype == "hex":
                self.hex_of[entity] = target
            else:
                self.corp_of[entity] = target
        elif kind == "dividend":
            held = self.trains.get(entity, [])
            held[:] = [t for t in held if t not in self.obsolete]
        elif kind in ("bankrupt", "discard_train"):
            raise DoubtfulError(f"{kind} is not replayed")

    def _lay(self, hex_: str, tile_id: str, rotation: int) -> None:
        name = tile_id.rsplit("-", 1)[0]
        old = self._city_exits(hex_) if self.board.placed(hex_).tile.cities else []
        self.board.lay(hex_, name, rotation, check=False)
        self.tiles[hex_] = (name, rotation)
        self.tile_hex[tile_id] = hex_
        new = self._city_exits(hex_)
        if len(old) > 1:  # multi-city hex (Chicago): carry each token by its exits
            moved: dict[tuple[str, int], list[str]] = {}
            for i, exits in enumerate(old):
                owners = self.tokens.pop((hex_, i), [])
                if not owners:
                    continue
                match = [j for j, e in enumerate(new) if exits <= e]
                if len(match) != 1:
                    raise DoubtfulError(f"cannot carry tokens of {hex_} city {i} onto {name}")
                moved[(hex_, match[0])] = owners
            self.tokens.update(moved)

    def _buy_company(self, entity, company: str) -> None:
        self.owner[company] = entity
        if company in self.minors and entity in self.corporations:
            for train in self.trains.pop(company, []):
                self._give(entity, train, self.train_name[train])
            home = self.homes[company]
            owners = self.tokens.get(home, [])
            if entity in owners:
                owners.remove(company)
            else:
                owners[owners.index(company)] = entity
            self.minors.discard(company)
            self.closed.add(company)
        if company in ASSIGNABLE and entity in self.corporations:
            self.corp_of[company] = entity

    # -- snapshot
    def snapshot(self, a: dict) -> Snapshot:
        company = a["entity"]
        held = list(self.trains.get(company, []))
        tokens = [
            {"hex": h, "city": c, "company": owner}
            for (h, c), owners in sorted(self.tokens.items())
            for owner in owners
        ]
        owned = sorted(
            c
            for c, o in self.owner.items()
            if o == company and c not in self.closed and c not in MINOR_TRAINS
        )
        assignments = [
            {"hex": self.hex_of[c], "ability": ASSIGNABLE[c], "company": self.corp_of[c]}
            for c in sorted(ASSIGNABLE)
            if c in self.hex_of and c in self.corp_of
        ]
        position = {
            "title": "1846",
            "phase": self.phase,
            "tiles": [
                {"hex": h, "tile": t, "rotation": r} for h, (t, r) in sorted(self.tiles.items())
            ],
            "tokens": tokens,
            "company": company,
            "trains": [self.train_name[t] for t in held],
            "owned_companies": owned,
            "assignments": assignments,
            "extras": {"removed_corporations": list(self.removed)} if self.removed else {},
        }
        return Snapshot(a, position, held)


def removed_corporations(record: dict, live: list[dict]) -> list[str] | None:
    """Home tokens 18xx.games left for corporations removed at setup, if they are certain."""
    n_players = len(record["players"])
    need = max(0, 5 - n_players)
    if need == 0:
        return []
    parred = {a["corporation"] for a in live if a["type"] == "par"}
    never = [c for c in GREEN_GROUP if c not in parred]
    return never if len(never) == need else None


def replay(record: dict) -> tuple[list[Snapshot], str | None]:
    """Snapshots before each ``run_routes`` and, if the replay stopped early, why."""
    live = filtered_actions(record["actions"])
    if any(a.get("skip") for a in live):
        return [], "an action marked skip survives the undo filter"
    removed = removed_corporations(record, live)
    if removed is None:
        return [], "cannot tell which corporations 18xx.games removed at setup"
    state = Replay(len(record["players"]), record["settings"].get("optional_rules") or [])
    state.removed = list(removed)
    for corp in removed:
        state._token(corp, *state.homes[corp])
    out: list[Snapshot] = []
    for a in live:
        try:
            if a["type"] == "run_routes":
                out.append(state.snapshot(a))
            state.apply(a)
        except DoubtfulError as exc:
            return out, f"action {a['id']}: {exc}"
    return out, None


# ---------------------------------------------------------------------------- verification
def _route_stops(route: dict) -> list[str]:
    """Stop hexes of a run route, from its connections (each one stop to the next)."""
    conns = [list(c) for c in route["connections"]]
    if not conns:
        return []
    if len(conns) == 1:
        return [conns[0][0], conns[0][-1]]
    first, second = conns[0], conns[1]
    start = first[0] if first[-1] in (second[0], second[-1]) else first[-1]
    stops = [start]
    for conn in conns:
        a, b = conn[0], conn[-1]
        if a == stops[-1]:
            stops.append(b)
        elif b == stops[-1]:
            stops.append(a)
        else:
            raise ValueError(f"connections do not chain: {route['connections']}")
    return stops


def played_score(problem, view, snap: Snapshot) -> tuple[int, list[dict]]:
    """Score the routes the players ran on our board; raise ``RouteError`` if illegal."""
    routes = snap.action.get("routes") or []
    pending = []
    for r in routes:
        if r["train"] not in snap.train_ids:
            raise routing.RouteError(
                f"train {r['train']} is not held by {snap.position['company']}"
            )
        options = [list(view.stop_nodes(h)) for h in _route_stops(r)]
        pending.append((snap.train_ids.index(r["train"]), options))
    if not pending:
        return 0, []
    last_error: Exception | None = None
    per_route = [list(itertools.product(*opts)) for _, opts in pending]
    for combo in itertools.islice(itertools.product(*per_route), 4096):
        declared = [(t, list(stops)) for (t, _), stops in zip(pending, combo, strict=True)]
        try:
            scored = routing.validate(problem, declared)
        except routing.RouteError as exc:
            last_error = exc
            continue
        return scored.total, [
            {"train": r["train"], "connections": r["connections"]} for r in routes
        ]
    raise last_error or routing.RouteError("no stop choice")


@dataclass
class Verdict:
    ok: bool
    reason: str = ""
    played_total: int = 0
    routes: list = field(default_factory=list)
    notes: list = field(default_factory=list)


def verify(snap: Snapshot, record: dict) -> Verdict:
    pos = snap.position
    if pos["company"] in MINOR_TRAINS and not pos["trains"]:
        return Verdict(False, "minor without a train")
    try:
        problem, view = build_problem(load_position(pos))
    except ValueError as exc:
        return Verdict(False, f"position does not load: {str(exc)[:160]}")
    notes = []
    try:
        total, routes = played_score(problem, view, snap)
    except (routing.RouteError, ValueError) as exc:
        # as 18xx.games plays it: without the seed summary's West-West ban
        ww = {**pos, "options": [*pos.get("options", []), "allow_west_west"]}
        problem_ww, view_ww = build_problem(load_position(ww))
        try:
            total, routes = played_score(problem_ww, view_ww, snap)
        except (routing.RouteError, ValueError):
            reason = f"played routes illegal on the extracted board: {str(exc)[:160]}"
            return Verdict(False, reason)
        notes.append(
            "west-west: a played route runs West to West (C5-I1), which 18xx.games "
            "allows and the seed summary forbids (option allow_west_west); played_total scores it "
            "without that ban"
        )
    recorded = [r.get("revenue") for r in snap.action.get("routes") or []]
    if recorded and all(v is not None for v in recorded) and sum(recorded) != total:
        paid = sum(recorded)
        nm = any("/" in t for t in pos["trains"])
        if not (nm and total > paid):
            return Verdict(False, f"played routes score {total}, 18xx.games paid {paid}")
        notes.append(
            f"token-counted: 18xx.games paid {paid}; our rules score the same routes "
            f"{total} because an N/M train need not count a token city "
            "(data.TOKEN_MUST_BE_COUNTED is not modelled)"
        )
    return Verdict(True, "", total, routes, notes)


# ------------------------------------------------------------------------------ selection
def stage_of(phase: str) -> str:
    return {"I": "early", "II": "early", "III": "mid", "IV": "late"}[phase]


def _key(pos: dict) -> tuple:
    return (pos["phase"], pos["company"], tuple(sorted(pos["trains"])))


#: Snapshots kept per record and phase: the corpus leans to fuller, later boards.
QUOTA = {"I": 1, "II": 1, "III": 2, "IV": 3}
#: Snapshots always kept: routes-18xx disagrees with us there (benchmarks/DISCREPANCIES.md).
ALWAYS = {("10264", 296), ("10264", 377), ("3099", 306)}
#: Record actions the bundled examples already are (engine/examples/1846-*.json).
EXAMPLE_ACTIONS = {("20381", 99), ("10264", 349), ("10264", 542)}


def select(candidates: list[tuple[str, Snapshot, Verdict]], scale: float = 1.0) -> list:
    """Spread a record's snapshots over its phases: distinct (company, trains), evenly in time,
    several trains preferred."""
    by_phase: dict[str, list] = {}
    seen = set()
    for item in candidates:
        pos = item[1].position
        if (item[0], item[1].action["id"]) in EXAMPLE_ACTIONS:
            continue
        if _key(pos) in seen or not pos["trains"] or pos["company"] in MINOR_TRAINS:
            continue
        seen.add(_key(pos))
        by_phase.setdefault(pos["phase"], []).append(item)
    chosen: list = []
    for phase, pool in by_phase.items():
        quota = max(1, round(QUOTA[phase] * scale))
        multi = [it for it in pool if len(it[1].position["trains"]) > 1]
        pool = multi if len(multi) >= quota else pool
        if len(pool) <= quota:
            chosen.extend(pool)
            continue
        picks = {round(i * (len(pool) - 1) / max(1, quota - 1)) for i in range(quota)}
        if quota == 1:
            picks = {len(pool) - 1}
        chosen.extend(pool[i] for i in sorted(picks))
    chosen.extend(it for it in candidates
                  if (it[0], it[1].action["id"]) in ALWAYS and it not in chosen)  # fmt: skip
    # the biggest searches: a 4/6 beside a 7/8 -- keep the latest one of each record
    big = [
        it
        for pool in by_phase.values()
        for it in pool
        if {"4/6", "7/8"} <= set(it[1].position["trains"])
    ]
    if big and not any(it in chosen for it in big):
        chosen.append(big[-1])
    return sorted(chosen, key=lambda item: item[1].action["id"])


def extract(records: list[Path], scale: float, out: Path) -> dict:
    index: dict = {"positions": [], "skipped": []}
    out.mkdir(parents=True, exist_ok=True)
    for path in records:
        record = json.loads(path.read_text())
        snaps, stop = replay(record)
        if stop:
            index["skipped"].append({"record": path.stem, "reason": f"replay stopped: {stop}"})
        good = []
        for snap in snaps:
            verdict = verify(snap, record)
            if verdict.ok:
                good.append((path.stem, snap, verdict))
            else:
                index["skipped"].append(
                    {
                        "record": path.stem,
                        "action": snap.action["id"],
                        "company": snap.position["company"],
                        "reason": verdict.reason,
                    }
                )
        for stem, snap, verdict in select(good, scale):
            pos = dict(snap.position)
            pos["extras"] = {
                **pos["extras"],
                "source": (
                    f"18xx.games record {stem} (tests/data/records/1846/{path.name}): the board "
                    f"just before action {snap.action['id']} (run_routes by {pos['company']}), "
                    "replayed by benchmarks/extract_positions.py, undo/redo honoured"
                ),
                "record": stem,
                "action": snap.action["id"],
                "players": len(record["players"]),
                "optional_rules": record["settings"].get("optional_rules") or [],
                "played_total": verdict.played_total,
                "played_routes": verdict.routes,
            }
            if verdict.notes:
                pos["extras"]["notes"] = verdict.notes
            name = f"1846-{stem}-a{snap.action['id']}-{pos['company'].replace('&', '')}.json"
            (out / name).write_text(save_position(load_position(pos)))
            index["positions"].append(entry(name, pos))
    return index


def entry(name: str, pos: dict) -> dict:
    return {
        "file": name,
        "title": pos["title"],
        "phase": pos["phase"],
        "stage": stage_of(pos["phase"]) if pos["title"] == "1846" else None,
        "company": pos["company"],
        "trains": pos["trains"],
        "source": "record" if "record" in pos.get("extras", {}) else "example",
    }


def copy_examples(out: Path) -> list[dict]:
    entries = []
    for path in sorted(EXAMPLES.glob("*.json")):
        shutil.copy(path, out / path.name)
        pos = json.loads(path.read_text())
        e = entry(path.name, pos)
        e["source"] = "example"
        e["stage"] = path.stem.rsplit("-", 1)[-1]
        entries.append(e)
    return entries


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=Path, default=RECORDS)
    ap.add_argument("--out", type=Path, default=POSITIONS)
    ap.add_argument("--scale", type=float, default=1.0, help="scale the per-phase quotas")
    args = ap.parse_args(argv)
    records = sorted(args.records.glob("*.json"))
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.json"):
        old.unlink()
    examples = copy_examples(args.out)
    index = extract(records, args.scale, args.out)
    index["positions"] = examples + index["positions"]
    (args.out / "index.json").write_text(json.dumps(index, indent=1) + "\n")
    kept = sum(1 for e in index["positions"] if e["source"] == "record")
    print(f"{len(examples)} examples + {kept} record positions; {len(index['skipped'])} skipped")


if __name__ == "__main__":
    main()
