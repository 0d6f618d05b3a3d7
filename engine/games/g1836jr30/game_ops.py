"""1836Jr-30 operating turns: track, station tokens, dividends, privates and their abilities.

Facts from tobymao/18xx @111f7f69 (MIT) and the seed (1830 rules with the 1836Jr changes):

- order (``game/base.rb`` ``operating_order``, ``round/operating.rb``): floated corporations
  by share price (higher first, then further right, higher row, earlier arrival), fixed at
  the start of each operating round; privates pay their revenue first (``payout_companies``);
- a turn (``g_1836_jr30/game.rb`` ``operating_round``): home token on the first turn
  (``HOME_TOKEN_TIMING = :operate``; NBDS picks one of the two Arnhem/Nijmegen cities once
  the hex has track, the Erie rule), one tile lay or upgrade paying the terrain printed on
  the replaced tile (``step/track.rb``, ``upgrade_cost``; ``TRACK_RESTRICTION =
  :permissive``: any lay meeting the network), one station token at the charter's next
  price (``step/token.rb``), the optimal run, pay out or withhold (``step/dividend.rb``:
  per share rounded up; market shares pay the corporation, IPO shares nobody; right on a
  payout, left otherwise), trains (:mod:`engine.games.g1836jr30.game_trains`) and privates
  bought from players in phases 3-4 for half to twice face value (``step/buy_company.rb``,
  ``company.rb`` ``min_price``/``max_price``; not the CFLV: ``no_buy``);
- a private owned by a player blocks tile lays on its hexes (``blocks_hexes``; the seed:
  Amsterdam may not be upgraded while the ACC is a player's);
- E-SF (``entities.rb`` ``tile_lay``): its corporation lays tile 2 or 56 on B8 free, once,
  on top of its own lay, anywhere in the turn, no connection needed;
- CdH (``teleport``, ``step/special_track.rb``, ``step/special_token.rb``): its corporation
  lays tile 57 on an empty J8 as the turn's lay, paying the F60 mountain, without a
  connection, then may put its next station token there for nothing (the turn's token);
- a tile with track on a trackless two-city hex lifts the tokens there; their owners place
  them again on the new tile (``step/tracker.rb`` ``update_token!``).
"""

from __future__ import annotations

import math

from engine.game.base import BANK
from engine.game.shares import POOL
from engine.game.track import tile_options
from engine.model.tiles.parse import NodeRef

__all__ = ["OperatingMixin1830"]


#: (old tile, old rotation, new tile, rotation) -> do the cities fit (``_cities_fit``)
_FIT: dict[tuple, bool] = {}


def _ct_edges(paths) -> list[frozenset[int]]:
    """The edges each city or town reaches by track (``tile.rb`` ``city_town_edges``)."""
    out: dict[tuple, set[int]] = {}
    for path in paths:
        for end in (path.a, path.b):
            if isinstance(end, NodeRef) and end.kind in ("city", "town"):
                out.setdefault((end.kind, end.index), set()).update(path.edges())
    return [frozenset(v) for v in out.values()]


def _cities_fit(placed, tile, rotation: int) -> bool:
    """``step/tracker.rb`` ``legal_tile_rotation?``: no more new cities than the tile adds
    (an old city's track may not be split off into a city of its own, 1836Jr's D6 -> 54
    adds one) and, between multi-city tiles, every old city inside exactly one new city."""
    key = (placed.tile.name, placed.tile.code, placed.rotation, tile.name, rotation)
    fit = _FIT.get(key)
    if fit is None:
        old, new = _ct_edges(placed.paths), _ct_edges(tile.rotated_paths(rotation))
        added = max(0, len(new) - len(old))
        fit = sum(1 for n in new if all(not n & o for o in old)) <= added
        if fit and len(tile.cities) > 1 and len(placed.tile.cities) > 1:
            fit = all(sum(1 for n in new if o <= n) == 1 for o in old)
        _FIT[key] = fit
    return fit


def _abilities(info: dict, kind: str) -> list[dict]:
    return [a for a in info["spec"].get("abilities", []) or [] if a.get("type") == kind]


class OperatingMixin1830:
    """Operating-round rules of :class:`~engine.games.g1836jr30.game.Game1836Jr30`."""

    OPERATING_STAGES = ("track", "token", "route", "dividend", "train", "company")
    TRACK_RESTRICTION = "permissive"

    # ------------------------------------------------------------------ round flow
    def operating_order(self) -> list[str]:
        ops = self.state.operators
        return self.market.operating_order(
            c for c in self.live_corporations() if ops[c].floated and not ops[c].closed
        )

    def payout_companies(self) -> None:
        """Every owned, open private pays its revenue (``payout_companies``)."""
        for sym, info in self.state.companies.items():
            revenue = int(info["spec"].get("revenue", 0))
            if info["owner"] is not None and not info["closed"] and revenue > 0:
                self.pay(BANK, info["owner"], revenue, f"{sym} revenue")

    def or_start(self) -> None:
        self.payout_companies()

    def turn_started(self, op: str) -> None:
        self.or_turn.flags.update(bought_types=set(), sold=set(), last_sold=None)
        state = self.state
        home = state.operators[op]
        if not home.home_placed and not state.place_home(op) and not home.home_placed:
            self.pending_tokens.append((op, home.home[0]))  # the owner picks the city

    # ------------------------------------------------------------------ pending choices
    def pending_actions(self) -> list[dict] | None:
        while self.pending_tokens:
            sym, hex_ = self.pending_tokens[0]
            acts = [
                {"type": "place_token", "entity": sym, "hex": hex_, "city": c, "cost": 0}
                for c in range(len(self.state.board.tile(hex_).cities))
                if self.state.city_room(hex_, c, sym) is None
            ]
            if acts and not self.state.operators[sym].closed:
                return acts
            self.pending_tokens.pop(0)
        teleport = self.or_turn.flags.get("teleport") if self.or_turn else None
        if teleport:
            company, hex_ = teleport
            op = self.or_turn.op
            acts = [
                {"type": "place_token", "entity": company, "hex": hex_, "city": c, "cost": 0}
                for c in range(len(self.state.board.tile(hex_).cities))
                if self.state.city_room(hex_, c, op) is None
            ]
            if acts and self.tokens_left(op) > 0:
                return acts + [{"type": "pass", "entity": company}]
            self.or_turn.flags["teleport"] = None
        return self.pending_discards()

    # ------------------------------------------------------------------ track
    def _blocked_hexes(self) -> set[str]:
        out: set[str] = set()
        for info in self.state.companies.values():
            if not info["closed"] and info["owner"] in self.seats:
                for ab in _abilities(info, "blocks_hexes"):
                    out.update(ab["hexes"])
        return out

    def explain_lay(self, op: str, entity: str, hex_: str, tile: str, rotation: int) -> str | None:
        """A hex a player's private blocks; a tile whose cities do not fit the old ones."""
        for sym, info in self.state.companies.items():
            blocks = [ab for ab in _abilities(info, "blocks_hexes") if hex_ in ab["hexes"]]
            if blocks and not info["closed"] and info["owner"] in self.seats:
                return f"{hex_} is blocked by {sym}, a private a player owns (blocks_hexes)"
        board = self.state.board
        if not _cities_fit(board.placed(hex_), board.manifest_tile(tile), rotation):
            return (
                f"tile {tile} rotation {rotation} on {hex_} splits or merges the cities of "
                f"tile {board.placed(hex_).tile.name!r} (legal_tile_rotation?)"
            )
        return None

    def _owned(self, op: str, kind: str) -> list[tuple[str, dict]]:
        """(company, ability) of ``kind`` of the open privates ``op`` owns."""
        return [
            (sym, ab)
            for sym, info in self.state.companies.items()
            if info["owner"] == op and not info["closed"] and sym not in self.ability_used
            for ab in _abilities(info, kind)
        ]

    def lay_cost(self, hex_: str) -> int:
        """The terrain printed on the tile being replaced (``upgrade_cost``)."""
        return int(self.state.board.tile(hex_).upgrade_cost)

    def _lay_options(self, hexes, connected: dict | None) -> list[tuple[str, object]]:
        board = self.state.board
        in_use = board.tiles_in_use()
        out = []
        for hex_ in hexes:
            if hex_ not in board:
                continue
            edges = connected.get(hex_) if connected is not None else None
            placed = board.placed(hex_)
            for opt in tile_options(self.state, hex_):
                if in_use[opt.tile] >= board.tile_count(opt.tile):
                    continue
                if edges is not None and not opt.exits & edges:
                    continue  # permissive: the new tile must meet the network
                if not _cities_fit(placed, board.manifest_tile(opt.tile), opt.rotation):
                    continue
                out.append((hex_, opt))
        return out

    def legal_track(self, op: str) -> list[dict]:
        t = self.or_turn
        if t.lays:
            return []
        cash = self.cash(op)
        blocked = self._blocked_hexes()
        net = self.network(op).hexes
        acts = []
        # sorted: the walk's hex order depends on how it was cached (a full walk or one
        # extended after lays), and the legal list must not
        for hex_, opt in self._lay_options(sorted(h for h in net if h not in blocked), net):
            cost = self.lay_cost(hex_)
            if cost <= cash:
                acts.append(
                    {
                        "type": "lay_tile",
                        "entity": op,
                        "hex": hex_,
                        "tile": opt.tile,
                        "rotation": opt.rotation,
                        "cost": cost,
                    }
                )
        for company, ab in self._owned(op, "teleport"):
            for hex_, opt in self._lay_options(ab["hexes"], None):
                cost = self.lay_cost(hex_)
                if (
                    opt.tile in ab["tiles"]
                    and self.state.board.color(hex_) == "white"
                    and (cost <= cash)
                ):
                    acts.append(
                        {
                            "type": "lay_tile",
                            "entity": company,
                            "hex": hex_,
                            "tile": opt.tile,
                            "rotation": opt.rotation,
                            "cost": cost,
                        }
                    )
        # step/track.rb can_lay_tile?: the step is open at the start of every turn (a lay
        # left and money for it, not a legal spot): with nothing to lay, a lone pass
        acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def _free_lays(self, op: str) -> list[dict]:
        """The E-SF's free extra tile on B8."""
        acts = []
        for company, ab in self._owned(op, "tile_lay"):
            for hex_, opt in self._lay_options(ab["hexes"], None):
                if opt.tile in ab["tiles"]:
                    acts.append(
                        {
                            "type": "lay_tile",
                            "entity": company,
                            "hex": hex_,
                            "tile": opt.tile,
                            "rotation": opt.rotation,
                            "cost": 0,
                        }
                    )
        return acts

    def operating_lay_tile(self, action: dict) -> None:
        ent, hex_, tile, rot = action["entity"], action["hex"], action["tile"], action["rotation"]
        op = self.or_turn.op
        cost = int(action["cost"])
        old = self.state.board.tile(hex_)
        lifted = []
        if not old.paths and len(old.cities) > 1:
            lifted = [s for (h, _c), syms in self.state.tokens.items() if h == hex_ for s in syms]
        self.pay(op, BANK, cost, f"tile {tile} on {hex_}")
        # the physical copy (a record's "57-2"), so later actions can name its cities
        self.state.lay_tile(hex_, self.tile_id(action), rot, check=self.tile_checked(action))
        self.pending_tokens.extend((sym, hex_) for sym in lifted)
        if ent in self.state.companies:
            self.ability_used.add(ent)
            if _abilities(self.state.companies[ent], "teleport"):
                self.or_turn.lays.append((hex_, False))
                self.or_turn.flags["teleport"] = (ent, hex_)
                self.or_turn.index += 1  # the turn's lay is used
        else:
            self.or_turn.lays.append((hex_, old.color != "white"))
            self.or_turn.index += 1
        self.note(
            f"{op} lays {tile} on {hex_} (rotation {rot}) for {cost}"
            + (f" with {ent}" if ent != op else "")
        )

    def tile_checked(self, action: dict) -> bool:
        """Whether the board's tile check applies to a legal lay (a title's lays the check
        cannot judge, such as 1836Jr-56's phase-dependent town upgrades, skip it)."""
        return True

    # ------------------------------------------------------------------ tokens
    def next_token_price(self, op: str) -> int:
        prices = self.entity_spec(op).get("tokens", [])
        used = len(prices) - self.tokens_left(op)
        return int(prices[min(used, len(prices) - 1)]) if prices else 0

    def legal_token(self, op: str) -> list[dict]:
        t = self.or_turn
        if t.tokened or self.tokens_left(op) <= 0:
            return []
        price = self.next_token_price(op)
        if price > self.cash(op):
            return []
        held = self._homes_held_for(op)
        return self.priced_tokens(op, lambda h, _c: None if h in held else price, auto=False)

    def _homes_held_for(self, op: str) -> set[str]:
        """Home hexes of other corporations reserved as a whole (no city named: the NBDS
        in Arnhem/Nijmegen) until their home token is down: nobody else tokens there
        (``TILE_RESERVATION_BLOCKS_OTHERS = :always``, ``tile.rb``)."""
        out = set()
        for sym, other in self.state.operators.items():
            if sym != op and other.home and other.home_city is None and not other.closed:
                hex_ = other.home[0]
                if not other.home_placed and len(self.state.board.tile(hex_).cities) > 1:
                    out.add(hex_)
        return out

    def operating_place_token(self, action: dict) -> None:
        ent, hex_, city = action["entity"], action["hex"], int(action["city"])
        t = self.or_turn
        if self.pending_tokens and self.pending_tokens[0] == (ent, hex_):
            self.pending_tokens.pop(0)
            self.state.place_token(hex_, city, ent)
            self.note(f"{ent} places its token in {hex_} city {city}")
            return
        if ent in self.state.companies:  # the CdH teleport token
            t.flags["teleport"] = None
            self.state.place_token(hex_, city, t.op)
            t.tokened = True
            self.note(f"{t.op} places a token in {hex_} with {ent}")
            return
        price = int(action["cost"])
        self.pay(ent, BANK, price, f"token in {hex_}")
        self.state.place_token(hex_, city, ent)
        t.tokened = True
        t.index += 1
        self.note(f"{ent} places a token in {hex_} for {price}")

    def operating_pass(self, action: dict) -> None:
        t = self.or_turn
        if t is not None and t.flags.get("teleport") and action["entity"] == t.flags["teleport"][0]:
            t.flags["teleport"] = None  # declines the teleport token
            return
        super().operating_pass(action)

    # ------------------------------------------------------------------ dividends
    def legal_dividend(self, op: str) -> list[dict]:
        if not self.or_turn.revenue:
            return []
        return [{"type": "dividend", "entity": op, "kind": k} for k in ("payout", "withhold")]

    def _dividend(self, op: str, kind: str) -> None:
        revenue = int(self.or_turn.revenue or 0)
        for card in self.state.trains_of(op):
            self.operated_trains.add(card.id)
        self.state.operators[op].operated = True
        if kind == "payout" and revenue > 0:
            self.pay_dividend(op, revenue)
            self.market.move(op, "right")
        else:
            self.pay(BANK, op, revenue, f"{op} withholds")
            self.market.move(op, "left")
        self.note(f"{op} {kind} {revenue}; price now {self.market.price(op)}")
        self.events.append(
            {
                "type": "dividend",
                "entity": op,
                "kind": kind,
                "revenue": revenue,
                "price": self.market.price(op),
            }
        )

    def pay_dividend(self, op: str, paid: int) -> None:
        """Each holder gets its shares' part rounded up; market shares pay the corporation,
        IPO shares nobody (``holder_for_corporation``: the share pool)."""
        per_share = paid / 10
        for holder in self.seats:
            n = self.shares.percent(op, holder) // 10
            if n:
                self.pay(BANK, holder, math.ceil(n * per_share), f"dividend of {op}")
        n = self.shares.percent(op, POOL) // 10
        if n:
            self.pay(BANK, op, math.ceil(n * per_share), f"dividend of {op}'s market shares")

    # ------------------------------------------------------------------ privates
    def company_purchases(self, op: str) -> list[dict]:
        """Privates ``op`` may buy from players now (half to twice face value)."""
        if "can_buy_companies" not in self.state.phase.get("status", []):
            return []
        cash = self.cash(op)
        acts = []
        for sym, info in self.state.companies.items():
            if info["closed"] or info["owner"] not in self.seats or _abilities(info, "no_buy"):
                continue
            value = int(info["spec"]["value"])
            lo, hi = math.ceil(value / 2), min(2 * value, cash)
            if lo <= hi:
                acts.append(
                    {
                        "type": "buy_company",
                        "entity": op,
                        "company": sym,
                        "price": hi,
                        "min_price": lo,
                        "max_price": hi,
                    }
                )
        return acts

    def operating_buy_company(self, action: dict) -> None:
        op, company, price = action["entity"], action["company"], int(action["price"])
        info = self.state.companies[company]
        seller = info["owner"]
        self.pay(op, seller, price, company)
        info["owner"] = op
        self.note(f"{op} buys {company} from {seller} for {price}")

    def operating_buy_shares(self, action: dict) -> None:
        """The GCB's exchange during an operating round (``step/exchange.rb``)."""
        self._exchange(action["entity"], action["shares"][0])

    def legal_company(self, op: str) -> list[dict]:
        acts = self.company_purchases(op)
        if acts:
            acts.append({"type": "pass", "entity": op, "auto": False})
        return acts

    def anytime_actions(self, op: str, stage: str) -> list[dict]:
        acts = self._exchanges()  # the GCB's owner, between or during turns
        acts += self._free_lays(op)  # E-SF: when owning_corp_or_turn (the whole turn)
        if stage != "company":
            acts += self.company_purchases(op)
        return acts
