"""1842 operating rounds: order, track, stations, routes and revenue.

Rules (``../shared/seeds/1842-schleswig-holstein-rules.txt``, sections as printed):

- order (7.1): offers and auctions of private railways (:mod:`.game_minors`), the private
  and predecessor railways by number, the corporations by market value (highest first;
  equal: rightmost, then top of the stack; fixed at the round's start), the HAV last;
- track (3.1.1, 3.2.1, 3.3.3, 7.2): one lay or upgrade per turn, two (in different hexes)
  in a corporation's first operating round, a second one for the RE and GEE with their
  marker; private and predecessor railways spend a building token per tile, which goes to
  the box; no company but the HAV builds on Hamburg (L10) and Harburg (M9); in the yellow
  phase nobody builds on another company's home hex (7.2.1); terrain costs on a hex's
  first tile only (7.2.4); the Vogelfluglinie bonus of 60 M for the first tile on G17 and
  the Lauenburger Privileg (a free station on M15 for the corporation whose tile on N14
  joins M15 to O13, placed at once or lost) (7.2.3); a connection that is not blocked
  (Bergedorf and Stade never block, nor Hamburg under tile 5028; 7.4.1, 3.4.2.1);
- stations (7.3): one per turn, three times the city's (lower) value; exchange tokens only
  replace acquired privates before the grey phase; the HAV's grey space on 5028 takes no
  token (3.4.2.1); the UEE never builds on the Elbe's right bank (11.2.1);
- routes (7.4): the optimal revenue of :mod:`.rules` (home station, two values, the
  North Sea-Baltic bonus, GEE's "1 train runs 2x" marker) and the HAV's 10 M per route
  through Hamburg (3.4.2.2);
- revenue (3.1.2, 3.3.4, 7.4.3, 8): private and predecessor railways half to the treasury,
  half to the owner; corporations pay out (pool shares to the treasury, the offering's to
  nobody; token right) or withhold (token left); a bank loan is repaid first (10.4).
"""

from __future__ import annotations

from dataclasses import replace

import routing
from engine.game.base import BANK
from engine.game.track import reach
from engine.games.g1842 import data, rules
from engine.games.g1842 import economy as eco
from engine.games.g1842 import economy_data as ed
from engine.games.g1842 import economy_minors as em
from engine.games.g1842 import economy_ops as eo
from engine.games.g1842.game_shares import POOL
from engine.model.routes import fast_problem

__all__ = ["OpsMixin1842", "HAV_ONLY"]

HAV = ed.HAV
#: Why a company other than the HAV may not lay a tile on Hamburg or Harburg.
HAV_ONLY = "only the HAV builds on Hamburg and Harburg (7.2.3)"
PACKAGE = ed.STARTING_PACKAGE
#: Cities on the Elbe's left bank of the reconstructed map, where the UEE may build
#: (11.2.1): Cuxhaven, Stade, Harburg.  A GUESS like the map itself.
LEFT_BANK_CITIES = ("L4", "M7", "M9")


class OpsMixin1842:
    """Operating-round rules of :class:`Game1842` (trains: :mod:`.game_trains`)."""

    # ------------------------------------------------------------------ order and turns
    def operating_order(self) -> list[str]:
        ops = self.state.operators
        minors = [m for m in PACKAGE if self.minor_open(m) and not ops[m].closed]
        if self.package_or:
            return minors
        corps = [c for c in self.corp_syms if c != HAV and ops[c].floated and not ops[c].closed]
        return minors + self.market.operating_order(corps) + [HAV]

    def receivership(self, op: str) -> bool:
        return op in self.shares.by_corp and self.started(op) and self.shares.president(op) is None

    def stages_for(self, op: str) -> tuple[str, ...]:
        if op == HAV:
            return ("hav_build", "hav_pay")
        if self.is_minor(op):
            if op in self.bank_managed:
                return ("route", "dividend")
            return ("track", "route", "dividend", "train")
        if self.receivership(op):
            return ("route", "dividend", "train")
        return ("track", "token", "route", "dividend", "hav", "train")

    def or_start(self) -> None:
        """Start of an OR: the six-player AKE income (5.1), then offers and auctions."""
        pres = self.shares.president("AKE") if "AKE" in self.shares.by_corp else None
        if pres is not None:
            income = em.ake_director_income(len(self.seats), len(self.state.trains_of("AKE")))
            self.pay(BANK, pres, income, "AKE director income (5.1)")
        self.build_or_queue()
        self._settle_queue()

    def turn_started(self, op: str) -> None:
        self.or_turn.flags.update(hav_bought=False, hav_sold=False)

    def turn_ended(self, op: str) -> None:
        self.state.operators[op].operated = True

    def end_operating_round(self) -> None:
        self.check_game_end()
        if self.end_trigger is not None and self.end_trigger[1] == "current_or":
            self.end_game(self.end_trigger[0])

    def pending_actions(self) -> list[dict] | None:
        discards = self.pending_discards()
        if discards:
            return discards
        if self.lauenburg_pending is not None:
            corp = self.lauenburg_pending
            hex_ = data.LAUENBURGER_PRIVILEG["token_hex"]
            return [{"type": "place_token", "entity": corp, "hex": hex_, "city": 0, "cost": 0},
                    {"type": "pass", "entity": corp, "auto": False}]  # fmt: skip
        if self.or_queue:
            return self.or_queue_actions()
        return None

    def operating_pass(self, action: dict) -> None:
        ent = action["entity"]
        if self.lauenburg_pending is not None and ent == self.lauenburg_pending:
            self.lauenburg_pending = None
            self.note(f"{ent} forgoes the Lauenburger Privileg")
            return
        if self.pending_pass(action):
            return
        super().operating_pass(action)

    # ------------------------------------------------------------------ the walk
    def reach_tokens(self, op: str) -> dict:
        """Tokens as they block ``op``'s walk: Bergedorf and Stade never block (7.4.1),
        nor Hamburg under 5028 (3.4.2.1)."""
        board = self.state.board
        hh = data.HAMBURG_HEX
        open_hh = hh in board.laid and board.tile(hh).name in data.HAMBURG_OPEN_TILES
        out = {}
        for (hex_, city), syms in self.state.tokens.items():
            if hex_ in data.NON_BLOCKING_HEXES or (open_hh and hex_ == hh):
                syms = [s for s in syms if s == op]
                if not syms:
                    continue
            out[(hex_, city)] = syms
        return out

    def network(self, op: str):
        key = (op, self.state.board_version)
        cache = self._net_cache
        if key not in cache:
            if len(cache) > 64:
                cache.clear()
            cache[key] = reach(self.state.board, self.reach_tokens(op), op)
        return cache[key]

    # ------------------------------------------------------------------ track
    def _lays_left(self, op: str) -> int:
        t = self.or_turn
        if self.is_minor(op):
            if op in self.bank_managed:
                return 0
            allowed = 2 if "2nd tile" in self.markers.get(op, ()) else 1
            return max(0, min(allowed - len(t.lays), self.building.get(op, 0)))
        if self.receivership(op):
            return 0
        allowed = ed.FIRST_OR_TILE_LAYS if not self.state.operators[op].operated else 1
        return max(0, allowed - len(t.lays))

    def _foreign_homes(self, op: str) -> set[str]:
        """Home hexes of the other companies in the game (7.2.1, yellow phase)."""
        ops = self.state.operators
        own = set(ops[op].home)
        out = set()
        for sym, other in ops.items():
            if sym == op or other.removed or other.closed or not other.home:
                continue
            if self.is_minor(sym) and not self.minor_open(sym):
                continue
            out.update(other.home)
        return out - own

    def lay_cost(self, hex_: str) -> int:
        """Terrain cost on a hex's first tile; upgrades are free (7.2.4)."""
        board = self.state.board
        return 0 if hex_ in board.laid else int(board.tile(hex_).upgrade_cost or 0)

    def legal_track(self, op: str) -> list[dict]:
        if self._lays_left(op) <= 0:
            return []
        t = self.or_turn
        laid = {h for h, _ in t.lays}
        yellow = eo.phase_colour(self.state.phase_name) == "yellow"
        homes = self._foreign_homes(op) if yellow else set()
        cash = self.cash(op)
        acts = []
        for hex_, opt in self.lay_options(op):
            if hex_ in laid or hex_ in data.HAV_ONLY_HEXES or hex_ in homes:
                continue
            cost = self.lay_cost(hex_)
            if cost <= cash:
                acts.append({"type": "lay_tile", "entity": op, "hex": hex_, "tile": opt.tile,
                             "rotation": opt.rotation, "cost": cost})  # fmt: skip
        if acts:
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def explain_lay(self, op: str, entity: str, hex_: str, tile: str, rotation: int) -> str | None:
        """The 1842 track limits (3.3.3, 7.2, 7.2.1, 7.2.3)."""
        t = self.or_turn
        if hex_ in data.HAV_ONLY_HEXES and entity != HAV:
            return HAV_ONLY
        if hex_ in {h for h, _up in t.lays}:
            return (
                f"{op} already laid a tile on {hex_} this turn (its two lays in its first "
                "operating round are in different hexes, 3.3.3)"
            )
        if self._lays_left(op) <= 0 and t.lays:
            n = len(t.lays)
            return (
                f"{op} has made its {n} tile lay{'s' if n > 1 else ''} this turn (one an "
                "operating round, two in a corporation's first, 7.2)"
            )
        if eo.phase_colour(self.state.phase_name) == "yellow" and hex_ in self._foreign_homes(op):
            owners = [s for s, o in self.state.operators.items() if hex_ in o.home and s != op]
            return (
                f"{hex_} is {owners[0] if owners else 'another company'}'s home hex: no other "
                "company lays a tile there in the yellow phase (7.2.1)"
            )
        return None

    def operating_lay_tile(self, action: dict) -> None:
        ent, hex_, tile, rot = action["entity"], action["hex"], action["tile"], action["rotation"]
        if ent == HAV:
            return self.hav_lay(action)
        t = self.or_turn
        board = self.state.board
        upgrade = board.color(hex_) != "white"
        first_tile = hex_ not in board.laid
        cost = int(action["cost"])
        self.pay(ent, BANK, cost, f"tile {tile} on {hex_}")
        self.state.lay_tile(hex_, f"{tile}-0", rot)
        t.lays.append((hex_, upgrade))
        if self.is_minor(ent):
            self.building[ent] -= 1
            self.box_tokens += 1  # 3.1.1: the token goes to the "Building Token" box
            if len(t.lays) == 2:
                self.markers[ent].discard("2nd tile")
        self.note(f"{ent} lays {tile} on {hex_} (rotation {rot}) for {cost}")
        bonus = eo.tile_bonus(hex_, first_tile and not self.vogel_done)
        if bonus:
            self.vogel_done = True
            self.pay(BANK, ent, bonus, "Vogelfluglinie (7.2.3)")
            self.note(f"{ent} receives the Vogelfluglinie bonus of {bonus}")
        self._lauenburg_check(ent, hex_)

    def _lauenburg_check(self, ent: str, hex_: str) -> None:
        priv = data.LAUENBURGER_PRIVILEG
        if not self.lauenburg_open or hex_ != priv["tile_hex"] or self.is_minor(ent):
            return
        board = self.state.board
        edges = {o: e for e, o in board.neighbours(hex_).items()}
        exits = set(board.placed(hex_).exits)
        if not all(edges.get(h) in exits for h in priv["joins"]):
            return
        self.lauenburg_open = False  # used or forfeited (7.2.3)
        token_hex = priv["token_hex"]
        mine = any(ent in syms for (h, _c), syms in self.state.tokens.items() if h == token_hex)
        if (not mine and self.normal_tokens_left(ent) > 0
                and self.state.city_room(token_hex, 0, ent) is None):  # fmt: skip
            self.lauenburg_pending = ent

    # ------------------------------------------------------------------ stations
    def normal_tokens_left(self, corp: str) -> int:
        return len(self.entity_spec(corp).get("tokens", [])) - self.token_used.get(corp, 0)

    def tokens_left(self, op: str) -> int:
        left = self.normal_tokens_left(op)
        if eo.phase_colour(self.state.phase_name) == "grey":
            left += self.exchange_left(op)
        return left

    def station_cost(self, hex_: str, city: int) -> int:
        """Three times the city's lower value now (7.3)."""
        rev = self.state.board.tile(hex_).cities[city].revenue
        return ed.TOKEN_COST_FACTOR * rev.value(self.state.phase.get("tiles", ()))

    def _token_room(self, corp: str, hex_: str, city: int) -> bool:
        board = self.state.board
        if hex_ == data.HAMBURG_HEX and board.tile(hex_).name in data.HAV_SLOTS:
            hav_city, _slot = data.HAV_SLOTS[board.tile(hex_).name]
            here = self.state.tokens.get((hex_, city), [])
            if city == hav_city and len(here) >= board.city_slots(hex_, city) - 1:
                return False  # 3.4.2.1: the grey HAV space takes no token
        return not (corp == "UEE" and hex_ not in LEFT_BANK_CITIES)

    def legal_token(self, op: str) -> list[dict]:
        t = self.or_turn
        if t.tokened or self.tokens_left(op) <= 0:
            return []

        def cost(hex_: str, city: int) -> int | None:
            return self.station_cost(hex_, city) if self._token_room(op, hex_, city) else None

        return self.priced_tokens(op, cost, auto=False)

    def operating_place_token(self, action: dict) -> None:
        ent, hex_, city = action["entity"], action["hex"], int(action["city"])
        cost = int(action["cost"])
        self.pay(ent, BANK, cost, f"station in {hex_}")
        self.state.place_token(hex_, city, ent)
        if self.normal_tokens_left(ent) > 0:
            self.token_used[ent] = self.token_used.get(ent, 0) + 1
        else:
            self.exchange_used[ent] = self.exchange_used.get(ent, 0) + 1
        if self.lauenburg_pending == ent and hex_ == data.LAUENBURGER_PRIVILEG["token_hex"]:
            self.lauenburg_pending = None
            self.note(f"{ent} places its free station on {hex_} (Lauenburger Privileg)")
            return
        self.or_turn.tokened = True
        self.note(f"{ent} places a station in {hex_} for {cost}")

    # ------------------------------------------------------------------ routes
    def optimal_run(self, op: str):
        revenue, solution, _hav = self.best_run(op)
        return revenue, solution

    def best_run(self, op: str, twice: bool = False) -> tuple[int, object, int]:
        """(revenue, solution, routes through Hamburg) of ``op``'s runnable trains; with
        ``twice`` the GEE's best train runs a second time (3.2.1)."""
        trains = self.runnable_trains(op)
        if not trains:
            return 0, None, 0
        cache = self._route_cache
        quick = (op, self.state.board_version, self.state.phase_index,
                 tuple(t.id for t in trains), twice)  # fmt: skip
        if quick in cache:
            return cache[quick]
        names = [t.name for t in trains]
        best = None
        for double in sorted(set(names)) if twice else [None]:
            extras = {data.GEE_RUNS_TWICE: double} if double else {}
            position = replace(self.state.position(op, extras), trains=names)
            problem, view = fast_problem(self.title, position, self.route_board(op))
            solution = routing.solve(problem, time_limit=self.ROUTE_TIME_LIMIT)
            found = (int(solution.total), solution, rules.hav_routes(view, solution, problem))
            if best is None or found[0] > best[0]:
                best = found
        if len(cache) > 256:
            cache.clear()
        cache[quick] = best
        return best

    def legal_route(self, op: str) -> list[dict]:
        if op in self.bank_managed or self.receivership(op):
            return []
        revenue, solution, _hav = self.best_run(op)
        if solution is None:
            return []
        acts = [{"type": "run_routes", "entity": op, "revenue": revenue}]
        if op == data.GEE and "1 train runs 2x" in self.markers.get(op, ()):
            twice, _s, _h = self.best_run(op, twice=True)
            acts.append({"type": "use_ability", "entity": op, "ability": "runs_twice",
                         "revenue": twice})  # fmt: skip
        return acts

    def skip_route(self, op: str) -> None:
        """No decision: a bank-run company or one in receivership runs (3.3.5.1, 10.4)."""
        self._run(op, twice=False)

    def _run(self, op: str, twice: bool) -> None:
        revenue, solution, hav_routes = self.best_run(op, twice)
        t = self.or_turn
        t.revenue = revenue
        trains = self.runnable_trains(op)
        for card in trains:
            self.operated_trains.add(card.id)
        if solution is None:
            return
        self.events.append({"type": "run", "turn": self.turn, "or": self.round.num,
                            "entity": op, "revenue": revenue,
                            "trains": [c.name for c in trains]})  # fmt: skip
        self.note(f"{op} runs for {revenue}" + (" (a train runs twice)" if twice else ""))
        self.hav_income(hav_routes)

    def operating_run_routes(self, action: dict) -> None:
        self._run(action["entity"], twice=False)
        self.or_turn.index += 1

    def operating_use_ability(self, action: dict) -> None:
        op = action["entity"]
        self.markers[op].discard("1 train runs 2x")
        self._run(op, twice=True)
        self.or_turn.index += 1

    # ------------------------------------------------------------------ revenue
    def legal_dividend(self, op: str) -> list[dict]:
        if self.is_minor(op) or self.receivership(op):
            return []
        if (self.or_turn.revenue or 0) <= self.loans.get(op, 0):
            return []
        return [{"type": "dividend", "entity": op, "kind": k} for k in ("payout", "withhold")]

    def _dividend(self, op: str, kind: str) -> None:
        revenue = int(self.or_turn.revenue or 0)
        if self.is_minor(op):
            if op in self.bank_managed:
                self.pay(BANK, op, revenue, f"{op} revenue (bank-run)")
                return
            treasury, owner = em.minor_revenue(revenue)
            self.pay(BANK, op, treasury, f"{op} revenue")
            self.pay(BANK, self.minor_owner[op], owner, f"{op} revenue")
            return
        loan = self.loans.get(op, 0)
        if loan:  # 10.4: the bank's loan is repaid before anything is saved
            repaid, revenue, left = eo.receivership_income(loan, revenue)
            self.loans[op] = left
            if not left:
                del self.loans[op]
            self.note(f"{op} repays {repaid} of its loan")
        if kind == "payout" and revenue > 0:
            self._payout(op, revenue)
            self.market.dividend(op)
        else:
            self.pay(BANK, op, revenue, f"{op} withholds")
            self.market.withhold(op)
        self.events.append({"type": "dividend", "entity": op, "kind": kind,
                            "revenue": revenue, "price": self.market.price(op)})  # fmt: skip
        self.note(f"{op} {kind} {revenue}; price now {self.market.price(op)}")

    def _payout(self, op: str, revenue: int) -> None:
        """Each 10% earns revenue / 10; the pool's part to the treasury, the offering's to
        nobody (3.3.4, 7.4.3)."""
        held = self.shares.holders_percent(op)
        holders = {p: held.get(p, 0) for p in self.seats}
        pool = held.get(POOL, 0)
        out = eco.pay_dividend(revenue, holders, pool, 100 - pool - sum(holders.values()))
        for p, amount in out.to_holders.items():
            self.pay(BANK, p, amount, f"dividend of {op}")
        self.pay(BANK, op, out.to_treasury, f"{op} pool dividend")
