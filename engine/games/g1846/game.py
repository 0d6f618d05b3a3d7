"""1846 rules engine: a whole game from the private draft to the final scores.

Facts follow the published 1846 rules as 18xx.games implements them (tobymao/18xx
@111f7f69, MIT; cited per rule below, never copied):

- setup (``g_1846/game.rb`` ``setup``, ``num_removals``, ``remove_from_group!``): the
  game's own random draws (:func:`engine.game.draws.lcg_draws`) shuffle the draft deck,
  then remove privates (one per group per missing player below five, plus one in the 2nd
  edition) and corporations (5 - players; their home token stays); the minors start with a
  2-train and a home token;
- private draft (``step/draft_distribution.rb``): players in reverse seat order take one
  card of the first ``players + 2``, the rest go back reshuffled; blank "Pass" cards; a
  last lone private may be passed, getting $10 cheaper each time, until it is free (or the
  minors' floor price); everything is paid when the draft ends; minors float then;
- stock round: :mod:`engine.game.stock` with 1846's sale timing (``:p_any_operate``),
  president-only price drop on a sale (``:left_block_pres``), par prices 40-150 (``p``
  cells), float at 20% (the par), IC's par-price subsidy (``action_processed``), the
  certificate limit by player count and corporations left (``init_cert_limit``);
- operating round (``round/operating.rb``, ``operating_round``): minors first, then
  corporations by share price (the very first OR lowest price first); a turn is track and
  token (two lays, at most one upgrade, the same hex twice allowed, $20 minimum per lay,
  ``TILE_LAYS``, ``upgrade_cost``; a border costs once, from either side,
  ``remove_border_calculate_cost!``; the Chicago and Western Indiana's token is an extra
  one, ``special_token.rb``), route, dividend (payout / half / withhold, ``step/dividend.rb``
  ``share_price_change``), trains (:mod:`engine.games.g1846.game_trains`) and private
  purchases (phases I-II, $1 to face value, ``CompanyPriceUpToFace``);
- private abilities (``entities.rb``), events (``event_close_companies!``,
  ``event_remove_bonuses!``, ``event_remove_reservations!``), closure at the 0 share price
  and game end (``GAME_END_CHECK``: bankruptcy of all but one player at once, a broken bank
  after the OR set, all corporations and privates closed at once).

Setup, the draft, the options (``first_ed``, ``second_ed_co``; the seed summary's readings
``seed_sale_keeps_price``, ``seed_big4_140``, ``seed_bankruptcy_ends_game``, used here in
``sell_movement`` and ``end_checks``) and the 2-player variant (option ``two_player``) are
in :mod:`engine.games.g1846.game_setup`; Little Miami's
connection checks (``preprocess_little_miami``/``postprocess_little_miami``) in
:mod:`engine.games.g1846.little_miami`.
"""

from __future__ import annotations

from engine.game.base import BANK, BaseGame
from engine.game.ledger import Ledger
from engine.games import g1846 as _package
from engine.games.g1846 import data as facts
from engine.games.g1846.game_setup import OPTIONS, SetupMixin1846
from engine.games.g1846.game_trains import TrainsMixin1846
from engine.games.g1846.little_miami import LittleMiamiMixin, hexes_connected
from engine.games.g1846.market import Market1846
from engine.model.position import Assignment

__all__ = ["Game1846", "OPTIONS"]

#: Ability names of assignable privates in positions (engine.games.g1846.rules).
_ASSIGN_ABILITY = {"MPC": "meat_packing", "SC": "steamboat", "BT": "boomtown"}
_ASSIGN_HEXES = {"MPC": tuple(facts.MEAT_HEXES), "SC": tuple(facts.STEAMBOAT_PORTS),
                 "BT": tuple(facts.BOOMTOWN_HEXES)}  # fmt: skip
#: Privates that lay track for their owning corporation (entities.rb tile_lay abilities).
_TILE_ABILITIES = {
    c["sym"]: ab
    for c in facts.COMPANIES
    for ab in c.get("abilities", [])
    if ab["type"] == "tile_lay"
}
#: Hexes a player-owned private blocks (blocks_hexes).
_BLOCKS = {
    c["sym"]: tuple(ab["hexes"])
    for c in facts.COMPANIES
    for ab in c.get("abilities", [])
    if ab["type"] == "blocks_hexes"
}
_IC_LAY = next(a for c in facts.CORPORATIONS if c["sym"] == "IC" for a in c["abilities"]
               if a["type"] == "tile_lay")  # fmt: skip


class Game1846(LittleMiamiMixin, SetupMixin1846, TrainsMixin1846, BaseGame):
    """1846 for 3-5 players, or 2 with option ``two_player`` (see the module docstring)."""

    #: Tiles of the Little Miami's lays (entities.rb).
    LM_TILES = frozenset(_TILE_ABILITIES["LM"]["tiles"])

    TITLE = "1846"
    DEFINITION = _package.TITLE
    MIN_PLAYERS = 2  # 2 only with the 2-player variant (check_options)
    MAX_PLAYERS = 5
    HOME_TOKEN_TIMING = "float"
    GAME_END = {"bankrupt": "immediate", "bank": "full_or", "all_closed": "immediate"}
    OPERATING_STAGES = ("track", "route", "dividend", "train", "company")

    # ------------------------------------------------------------------ setup
    def setup(self) -> None:
        data, n = facts, len(self.seats)
        self.check_options()
        self.ledger = Ledger({BANK: int(data.BANK_CASH[n])}, {BANK}, keep_history=False)
        for p in self.seats:
            self.ledger.open(p)
            self.pay(BANK, p, int(data.STARTING_CASH[n]), "starting cash")
        for sym in self.state.operators:
            self.ledger.open(sym)
        self.market = Market1846(data.MARKET)
        self.token_adjust: dict[str, int] = {}
        self.assigned_hex: dict[str, str] = {}
        self.assigned_corp: dict[str, str] = {}
        self.ability_uses: dict[str, int] = {}
        self.ability_reservations: list[tuple[tuple[str, int], str]] = []
        self.paid_borders: set[tuple[str, int]] = set()
        self.passes_closed = False
        self.together: tuple[str, str] | None = None  # (company, hex) of a half-done pair lay
        #: Little Miami's first lay: (hex, exits it added), for the check of the second
        self.lm_first: tuple[str, frozenset[int]] | None = None
        self.setup_removals_and_draft()

    # ------------------------------------------------------------------ stock hooks
    def par_prices(self) -> list[int]:
        return [int(c[:-1]) for c in facts.MARKET if c.endswith("p")]

    def market_par(self, corp: str, player: str, price: int) -> None:
        self.market.par_at(corp, price)

    def sale_timing_ok(self, player: str, corp: str) -> bool:
        # SELL_AFTER = :p_any_operate
        return self.state.operators[corp].operated or self.shares.president(corp) == player

    def sell_movement(self, corp: str, was_president: bool) -> None:
        """SELL_MOVEMENT = :left_block_pres: a sale by the president moves the price one
        space left, others' sales do not; ``seed_sale_keeps_price`` (the seed summary's
        "Bei Verkauf fällt Kurs nicht"): no sale moves it."""
        if was_president and "seed_sale_keeps_price" not in self.options:
            self.market.left(corp)

    def after_par(self, corp: str, player: str, price: int) -> None:
        op = self.state.operator(corp)
        op.floated = True  # float at 20%: the par itself
        self.state.place_home(corp)
        if corp == "IC":
            self.pay(BANK, corp, price, "IC subsidy")

    def cert_limit(self, player: str) -> int:
        table = facts.CERT_LIMIT[len(self.seats)]
        live = sum(
            1
            for op in self.state.operators.values()
            if op.kind == "corporation" and not op.removed and not op.closed
        )
        keys = sorted(k for k in table if k >= live)
        return int(table[keys[0]] if keys else next(iter(table.values())))

    def close_at_zero(self) -> None:
        for corp in list(self.shares.by_corp):
            if not self.state.operators[corp].closed and self.market.at_close(corp):
                self.close_corporation(corp)

    def close_corporation(self, corp: str) -> None:
        """``close_corporation``: tokens, trains and privates go; cash to the bank."""
        self.note(f"{corp} closes")
        self.pay(corp, BANK, self.cash(corp), f"{corp} closes")
        self.state.close_operator(corp)
        self.shares.remove_corporation(corp)
        self.market.remove(corp)
        for company, target in list(self.assigned_corp.items()):
            if target == corp:
                del self.assigned_corp[company]
        if self.round.kind == "operating":
            self.recalculate_after_close(corp)

    def recalculate_after_close(self, corp: str) -> None:
        """A closing corporation's turn ends (``force_next_entity!``)."""
        t = self.or_turn
        if t is not None and t.op == corp:
            t.index = len(t.stages)

    def end_checks(self) -> dict[str, bool]:
        """``BANKRUPTCY_ENDS_GAME_AFTER = :all_but_one`` (a bankrupt president's
        corporation otherwise goes into receivership); ``seed_bankruptcy_ends_game`` (the
        seed summary's "Spiel endet auch bei Bankrott"): any bankruptcy ends it at once."""
        checks = super().end_checks()
        if "seed_bankruptcy_ends_game" in self.options:
            checks["bankrupt"] = bool(self.bankrupt)
        corps = [o for o in self.state.operators.values() if o.kind == "corporation"]
        checks["all_closed"] = (
            all(o.closed for o in corps if not o.removed)
            and all(info["closed"] for info in self.state.companies.values())
            and self.passes_closed
        )
        if self.two_player:  # game_end_check_final_train?: the depot is empty
            checks["final_train"] = not self.state.depot_trains()
        return checks

    def after_action(self, action: dict) -> None:
        self.close_at_zero()
        if self.together is not None and action.get("entity") != self.together[0]:
            self._forfeit_together()
        super().after_action(action)

    # ------------------------------------------------------------------ operating order
    def operating_order(self) -> list[str]:
        ops = self.state.operators
        minors = [m["sym"] for m in facts.MINORS if ops[m["sym"]].floated
                  and not ops[m["sym"]].closed]  # fmt: skip
        corps = [c for c in self.live_corporations() if ops[c].floated]
        if self.turn == 1 and self.round.num == 1:
            # game.rb operating_order: the first OR runs lowest price first
            def key(c):
                return (self.market.price(c), self.market.arrival(c))

            corps.sort(key=key)
        else:
            corps = self.market.operating_order(corps)
        return minors + corps

    def receivership(self, op: str) -> bool:
        return op in self.shares.by_corp and self.shares.president(op) is None

    def stages_for(self, op: str) -> tuple[str, ...]:
        if self.state.operators[op].kind == "minor":
            return ("track", "route", "dividend")
        return self.OPERATING_STAGES

    def or_start(self) -> None:
        """Private revenue; per-OR abilities reset; the Steamboat owner may reassign."""
        companies = []
        for sym, info in self.state.companies.items():
            spec = info["spec"]
            if info["owner"] and not info["closed"] and int(spec.get("revenue", 0)) > 0:
                companies.append(sym)
        for sym in companies:
            info = self.state.companies[sym]
            self.pay(BANK, info["owner"], int(info["spec"]["revenue"]), f"{sym} revenue")
        self.ability_uses.pop("SC/or", None)
        sc = self.state.companies.get("SC")
        self.sc_pending = set()
        if sc and not sc["closed"] and sc["owner"] in self.seats:
            self.sc_pending = {"hex", "corp"}

    def turn_started(self, op: str) -> None:
        self.or_turn.flags.update(emergency_issued=False, issued=False, sold=set())
        # a corporation in receivership: no track, its trains run (a player declares the
        # run, route.rb help), it withholds, buys a train if it has none (skip_train)

    # ------------------------------------------------------------------ pending choices
    def pending_actions(self) -> list[dict] | None:
        if getattr(self, "sc_pending", None):
            acts = self._steamboat_start_actions()
            if acts:
                return acts
            self.sc_pending = set()
        return self.pending_discards()

    def _assignable_ops(self) -> list[str]:
        ops = self.state.operators
        minors = [m["sym"] for m in facts.MINORS if ops[m["sym"]].floated
                  and not ops[m["sym"]].closed]  # fmt: skip
        return minors + [c for c in self.live_corporations() if ops[c].floated]

    def _steamboat_start_actions(self) -> list[dict]:
        acts = []
        if "corp" in self.sc_pending:
            for op in self._assignable_ops():
                if self.assigned_corp.get("SC") != op:
                    acts.append({"type": "assign", "entity": "SC", "target": op,
                                 "target_type": "corporation"})  # fmt: skip
        # assign.rb steamboat_assignable_to_hex?: assigned to a live operator, or one to
        # assign it to (no operator at all in the 2-player draft's operating rounds)
        if "hex" in self.sc_pending and (self.assigned_corp.get("SC") in self._assignable_ops()
                                         or acts):  # fmt: skip
            for hex_ in _ASSIGN_HEXES["SC"]:
                if self.assigned_hex.get("SC") != hex_:
                    acts.append({"type": "assign", "entity": "SC", "target": hex_,
                                 "target_type": "hex"})  # fmt: skip
        if acts:
            acts.append({"type": "pass", "entity": "SC"})
        return acts

    def operating_assign(self, action: dict) -> None:
        company, target = action["entity"], action["target"]
        if action.get("target_type") == "hex" or target in self.state.board:
            self.assigned_hex[company] = target
            kind = "hex"
        else:
            self.assigned_corp[company] = target
            kind = "corp"
        if company == "SC" and getattr(self, "sc_pending", None):
            self.sc_pending.discard(kind)
        elif company == "SC":
            self.ability_uses["SC/or"] = 1
        else:
            self.ability_uses[company] = 1
        self.note(f"{company} is assigned to {target}")

    def operating_pass(self, action: dict) -> None:
        if action["entity"] == "SC" and getattr(self, "sc_pending", None):
            self.sc_pending = set()
            return
        if self.together is not None:
            self._forfeit_together()
        super().operating_pass(action)

    # ------------------------------------------------------------------ track stage
    def legal_track(self, op: str) -> list[dict]:
        if self.receivership(op):
            return []
        t = self.or_turn
        acts = []
        cash = self.cash(op)
        if len(t.lays) < 2:
            upgraded = any(up for _, up in t.lays)
            blocked = self._blocked_hexes()
            for hex_, opt in self.lay_options(op):
                # the same hex twice (yellow, then its upgrade) is allowed: 1846's
                # TILE_LAYS do not set cannot_reuse_same_hex (step/tracker.rb)
                if hex_ in blocked or (opt.upgrade and upgraded):
                    continue
                cost = self.lay_cost(op, hex_, opt.tile, opt.rotation)
                if cost <= cash:
                    acts.append({"type": "lay_tile", "entity": op, "hex": hex_, "tile": opt.tile,
                                 "rotation": opt.rotation, "cost": cost})  # fmt: skip
        token_open = False
        if not t.tokened and self.tokens_left(op) > 0:
            choices = self._token_choices(op)
            for hex_, city, price in choices:
                if price <= cash:
                    acts.append({"type": "place_token", "entity": op, "hex": hex_,
                                 "city": city, "cost": price})  # fmt: skip
            token_open = bool(choices)
        # TrackAndToken stays open while a lay is left and affordable in principle
        # (tracker.rb can_lay_tile?: count and buying power, not a legal spot) or a token
        # could go down with the buying power (tokener.rb can_place_token?), so the turn's
        # other choices (issuing, buying privates) stay open with it
        power = self._track_power(op) if not acts else 0
        if (
            acts
            or (len(t.lays) < 2 and power >= int(facts.TILE_COST))
            or (token_open and power >= min(p for _h, _c, p in choices))
        ):
            acts.append({"type": "pass", "entity": op})
        return acts

    def _track_power(self, op: str) -> int:
        """``track_buying_power``: cash, the best issue, players' minors' cash (less $1)."""
        power = self.cash(op)
        if self.state.operators[op].kind != "corporation":
            return power
        issues = [a["price"] for a in self.issue_redeem_actions(op) if a["type"] == "sell_shares"]
        power += max(issues, default=0)
        if self.cash(op) > 0 and len(self.state.trains_of(op)) <= 3:
            for m in facts.MINORS:
                sym = m["sym"]
                info = self.state.companies[sym]
                if info["owner"] in self.seats and not self.state.operators[sym].closed:
                    power += max(self.cash(sym) - 1, 0)
        return power

    def _blocked_hexes(self) -> set[str]:
        out = set()
        for sym, hexes in _BLOCKS.items():
            info = self.state.companies[sym]
            if not info["closed"] and info["owner"] in self.seats:
                out.update(hexes)
        return out

    def _owns(self, op: str, company: str) -> bool:
        info = self.state.companies.get(company)
        return info is not None and info["owner"] == op and not info["closed"]

    def _cost_borders(self, hex_: str) -> list:
        """Printed borders of ``hex_`` that cost money (1846 tiles carry none)."""
        cache = self.__dict__.setdefault("_borders", {})
        if hex_ not in cache:
            cache[hex_] = [b for b in self.state.board.borders(hex_) if b.cost]
        return cache[hex_]

    def lay_cost(self, op: str, hex_: str, tile: str, rotation: int, discount: int = 0,
                 free: bool = False) -> int:  # fmt: skip
        """``upgrade_cost`` (at least $20, TBC's mountain discount) plus border costs
        (``remove_border_calculate_cost!``), less ability discounts (IC, Little Miami)."""
        board = self.state.board
        old = board.tile(hex_)
        tbc = self._owns(op, "TBC")
        border = 0
        costly = self._cost_borders(hex_)
        exits = board.manifest_tile(tile).exits(rotation) if costly else ()
        for b in costly:
            if b.edge not in exits or (hex_, b.edge) in self.paid_borders:
                continue
            nb = board.neighbours(hex_).get(b.edge)
            if nb is None or (b.edge + 3) % 6 not in board.placed(nb).exits:
                continue
            if (nb, (b.edge + 3) % 6) in self.paid_borders:
                continue  # paid from the other side (the neighbour's border went with it)
            border += b.cost - (min(20, b.cost) if tbc and b.type == "mountain" else 0)
        if free:
            return 0
        terrain = old.upgrade_cost
        if tbc and "mountain" in old.terrains:
            terrain -= min(20, terrain)
        cost = max(int(facts.TILE_COST), terrain) + border
        if op == "IC" and hex_ in _IC_LAY["hexes"] and tile in _IC_LAY["tiles"]:
            discount += int(_IC_LAY["discount"])
        return cost - min(cost, discount)

    def _pay_borders(self, hex_: str, tile: str, rotation: int) -> None:
        board = self.state.board
        exits = board.manifest_tile(tile).exits(rotation)
        for b in self._cost_borders(hex_):
            if b.edge in exits:
                nb = board.neighbours(hex_).get(b.edge)
                if nb is not None and (b.edge + 3) % 6 in board.placed(nb).exits:
                    # tracker.rb remove_border_calculate_cost!: the border goes on both sides
                    self.paid_borders.add((hex_, b.edge))
                    self.paid_borders.add((nb, (b.edge + 3) % 6))

    def _token_choices(self, op: str) -> list[tuple[str, int, int]]:
        """(hex, city, price): reachable cities at the next token's price, plus the
        corporation's own token abilities (PRR E11, B&O H12 also by teleport)."""
        spec = self.entity_spec(op)
        prices = spec.get("tokens", [])
        used = len(prices) - self.tokens_left(op)  # the charter's tokens placed so far
        normal = int(prices[min(used, len(prices) - 1)]) if prices else 0
        reachable = set(self.token_options(op))
        out = {(h, c): normal for h, c in reachable}
        for ab in spec.get("abilities", []):
            if ab["type"] != "token" or self.ability_uses.get(f"{op}/token", 0) >= ab.get(
                "count", 99
            ):
                continue
            for hex_ in ab["hexes"]:
                mine = any(op in syms for (h, _c), syms in self.state.tokens.items() if h == hex_)
                if mine or self.state.city_room(hex_, 0, op) is not None:
                    continue
                if (hex_, 0) in reachable:
                    out[(hex_, 0)] = int(ab["price"])
                elif "teleport_price" in ab:
                    out[(hex_, 0)] = int(ab["teleport_price"])
        return [(h, c, p) for (h, c), p in sorted(out.items())]

    def operating_lay_tile(self, action: dict) -> None:
        ent, hex_, tile, rot = action["entity"], action["hex"], action["tile"], action["rotation"]
        if ent not in self.state.operators:
            return self._company_lay(action)
        t = self.or_turn
        upgrade = self.state.board.color(hex_) != "white"
        cost = self.lay_cost(ent, hex_, tile, rot)
        self._pay_borders(hex_, tile, rot)
        self.pay(ent, BANK, cost, f"tile {tile} on {hex_}")
        self.state.lay_tile(hex_, self.tile_id(action), rot)
        self.place_second_token(hex_)
        t.lays.append((hex_, upgrade))
        self.note(f"{ent} lays {tile} on {hex_} (rotation {rot}) for {cost}")

    def operating_place_token(self, action: dict) -> None:
        ent, hex_, city = action["entity"], action["hex"], int(action["city"])
        if ent == "C&WI":
            corp = self.state.companies["C&WI"]["owner"]
            self.state.place_token(hex_, city, corp)
            self.ability_uses["C&WI"] = 1
            # special_token.rb available_tokens: a new token, not one of the charter's
            self.token_adjust[corp] = self.token_adjust.get(corp, 0) + 1
            self.note(f"{corp} places the C&WI token in {hex_}")
            return
        price = int(action["cost"])
        self.pay(ent, BANK, price, f"token in {hex_}")
        special = [ab for ab in self.entity_spec(ent).get("abilities", [])
                   if ab["type"] == "token" and hex_ in ab["hexes"]]  # fmt: skip
        if special:  # the corporation's token ability (count 1 for B&O, ERIE, IC)
            self.ability_uses[f"{ent}/token"] = self.ability_uses.get(f"{ent}/token", 0) + 1
        self.state.place_token(hex_, city, ent, check=False)
        self.or_turn.tokened = True
        self.note(f"{ent} places a token in {hex_} for {price}")

    # ------------------------------------------------------------------ private abilities
    def anytime_actions(self, op: str, stage: str) -> list[dict]:
        if self.receivership(op) or self.state.operators[op].kind != "corporation":
            return []
        # non-blocking steps of the 1846 operating round (operating_round): Assign,
        # SpecialToken, SpecialTrack and BuyCompany stay open all turn ("owning_corp_or_turn"),
        # IssueShares until the dividend step passes
        acts = []
        if stage in ("track", "route", "dividend"):
            acts += self.issue_redeem_actions(op)
        if stage != "company":
            acts += self.company_purchases(op)
        acts += self._ability_actions(op)
        return acts

    def _assign_hex_actions(self, company: str) -> list[dict]:
        return [{"type": "assign", "entity": company, "target": h, "target_type": "hex"}
                for h in _ASSIGN_HEXES[company] if self.assigned_hex.get(company) != h]  # fmt: skip

    def _ability_actions(self, op: str) -> list[dict]:
        acts = []
        for company in ("MPC", "BT"):
            if self._owns(op, company) and not self.ability_uses.get(company):
                acts += self._assign_hex_actions(company)
        if self._owns(op, "SC") and not self.ability_uses.get("SC/or"):
            acts += self._assign_hex_actions("SC")
        if (
            self._owns(op, "C&WI")
            and not self.ability_uses.get("C&WI")
            and self.tokens_left(op) > 0
            and not any(op in s for (h, _c), s in self.state.tokens.items() if h == "D6")
            and self.state.city_room("D6", 3, op) is None
        ):
            acts.append({"type": "place_token", "entity": "C&WI", "hex": "D6", "city": 3,
                         "cost": 0})  # fmt: skip
        for company, ab in _TILE_ABILITIES.items():
            if not self._owns(op, company):
                continue
            # the other private lays stay open during the LM's pair (special_track.rb)
            if self.together is not None and self.together[0] not in (company, "LM"):
                continue
            others = bool(acts)  # assigns, the C&WI token, MC/O&I lays (LM comes last)
            left = int(ab.get("count", 1)) - self.ability_uses.get(company, 0)
            if left <= 0:
                continue
            hexes = list(ab["hexes"])
            if self.together is not None and self.together[0] == company:
                hexes = [h for h in hexes if h != self.together[1]]
            if company == "LM" and self.together is None and hexes_connected(self.state.board):
                continue  # H12 and G13 already connected: no LM lays (little_miami.py)
            for hex_, opt in self.lay_options(op, hexes):
                if opt.tile not in ab["tiles"]:
                    continue
                if company == "LM" and not self.lm_lay_ok(op, hex_, opt, others):
                    continue
                cost = self.lay_cost(op, hex_, opt.tile, opt.rotation,
                                     discount=int(ab.get("discount", 0)),
                                     free=bool(ab.get("free")))  # fmt: skip
                if cost <= self.cash(op):
                    acts.append({"type": "lay_tile", "entity": company, "hex": hex_,
                                 "tile": opt.tile, "rotation": opt.rotation,
                                 "cost": cost})  # fmt: skip
        return acts

    def _company_lay(self, action: dict) -> None:
        company, hex_, tile, rot = (action["entity"], action["hex"], action["tile"],
                                    action["rotation"])  # fmt: skip
        op = self.state.companies[company]["owner"]
        ab = _TILE_ABILITIES[company]
        cost = int(action["cost"])
        if self.together is not None and self.together[0] != company:
            self._forfeit_together()  # another private's lay ends the LM's pair
        if company == "LM" and self.together is None:
            # game.rb preprocess_little_miami: the exits before the first lay, for the
            # after-check of the second (little_miami.py)
            old = set(self.state.board.placed(hex_).exits)
            new = self.state.board.manifest_tile(tile).exits(rot)
            self.lm_first = (hex_, frozenset(e for e in new if e not in old))
        self._pay_borders(hex_, tile, rot)
        self.pay(op, BANK, cost, f"{company} tile on {hex_}")
        self.state.lay_tile(hex_, self.tile_id(action), rot)
        self.place_second_token(hex_)
        self.ability_uses[company] = self.ability_uses.get(company, 0) + 1
        left = int(ab.get("count", 1)) - self.ability_uses[company]
        self.together = (company, hex_) if ab.get("must_lay_together") and left > 0 else None
        self.note(f"{op} lays {tile} on {hex_} with {company} for {cost}")

    def _forfeit_together(self) -> None:
        company = self.together[0]
        # game.rb check_special_tile_lay: another action forfeits the second lay
        self.ability_uses[company] = int(_TILE_ABILITIES[company].get("count", 1))
        self.together = None

    # ------------------------------------------------------------------ dividends
    def legal_dividend(self, op: str) -> list[dict]:
        t = self.or_turn
        if not t.revenue or self.state.operators[op].kind == "minor" or self.receivership(op):
            return []
        return [{"type": "dividend", "entity": op, "kind": k} for k in ("payout", "half",
                                                                          "withhold")]  # fmt: skip

    def skip_dividend(self, op: str) -> None:
        minor = self.state.operators[op].kind == "minor"
        kind = "payout" if minor and self.or_turn.revenue else "withhold"
        bare = self.receivership(op) and not self.state.trains_of(op)
        self._dividend(op, kind)
        if bare and not self.state.operators[op].closed and self.market.price(op):
            # g_1846 step/dividend.rb skip!: in receivership without a train, one more left
            self.market.left(op)
            self.close_at_zero()

    def _dividend(self, op: str, kind: str) -> None:
        revenue = int(self.or_turn.revenue or 0)
        state = self.state
        for card in state.trains_of(op):
            self.operated_trains.add(card.id)
            if card.obsolete:  # dividend.rb rust_obsolete_trains!
                state.rust(card)
        state.operators[op].operated = True
        if state.operators[op].kind == "minor":
            # minor_half_pay.rb: half to the minor, the rest to its owner
            half = revenue // 2
            self.pay(BANK, op, half, f"{op} revenue")
            self.pay(BANK, state.companies[op]["owner"], revenue - half, f"{op} revenue")
            return
        if kind == "withhold":
            retained = revenue
        elif kind == "half":
            retained = revenue // 2 // 10 * 10  # half_pay.rb: whole dollars per share
        else:
            retained = 0
        self.pay(BANK, op, retained, f"{op} withholds")
        self.pay_dividend(op, revenue - retained)
        self.market.dividend(op, kind, revenue)
        self.note(f"{op} {kind} {revenue}; price now {self.market.price(op)}")
        self.events.append({"type": "dividend", "entity": op, "kind": kind,
                            "revenue": revenue, "price": self.market.price(op)})  # fmt: skip
        self.close_at_zero()

    # ------------------------------------------------------------------ company stage
    def legal_company(self, op: str) -> list[dict]:
        acts = self.company_purchases(op)
        if acts:
            acts.append({"type": "pass", "entity": op})
        return acts

    # ------------------------------------------------------------------ events
    def train_event(self, name: str, train) -> None:
        state = self.state
        if name == "close_companies":
            for minor in facts.MINORS:
                sym = minor["sym"]
                if not state.operators[sym].closed:
                    self.pay(sym, BANK, self.cash(sym), f"{sym} closes")
                    state.close_operator(sym)
                    for c, target in list(self.assigned_corp.items()):
                        if target == sym:
                            del self.assigned_corp[c]
            sc = state.companies.get("SC")
            if sc and sc["owner"] not in state.operators:
                self.assigned_hex.pop("SC", None)
                self.assigned_corp.pop("SC", None)
            for sym, info in state.companies.items():
                keep = sym == facts.MAIL_CONTRACT and info["owner"] in state.operators
                if not keep:
                    info["closed"] = True
            self.passes_closed = True
            self.together = None
            self.note("-- event: privates close --")
        elif name == "remove_bonuses":
            self.assigned_hex.clear()
            self.assigned_corp.clear()
        elif name == "remove_reservations":
            for key, sym in self.ability_reservations:
                syms = state.reservations.get(key, [])
                if sym in syms:
                    syms.remove(sym)
            self.ability_reservations = []

    def assignments(self) -> list:
        out = []
        for company, ability in _ASSIGN_ABILITY.items():
            hex_, corp = self.assigned_hex.get(company), self.assigned_corp.get(company)
            if hex_ and corp and not self.state.operators[corp].closed:
                out.append(Assignment(hex_, ability, corp))
        return out

    def player_value(self, player: str) -> int:
        if player in self.bankrupt:
            return self.cash(player)
        return super().player_value(player)

    # ------------------------------------------------------------------ messages
    def explain_lay(self, op: str, entity: str, hex_: str, tile: str, rotation: int) -> str | None:
        """A hex a player's private blocks; TILE_LAYS: two lays a turn, one an upgrade."""
        if hex_ in self._blocked_hexes():
            by = ", ".join(s for s, hexes in _BLOCKS.items() if hex_ in hexes
                           and not self.state.companies[s]["closed"])  # fmt: skip
            return f"{hex_} is blocked by {by}, a private a player owns (blocks_hexes)"
        t = self.or_turn
        if entity != op:
            return None
        if len(t.lays) >= 2:
            return f"{op} has made its 2 tile lays this turn (two a turn)"
        upgraded = [h for h, up in t.lays if up]
        if upgraded and self.state.board.color(hex_) != "white":
            return (
                f"{op} may not lay an upgrade as its tile lay {len(t.lays) + 1} (one upgrade "
                f"a turn: it upgraded {upgraded[0]})"
            )
        return None


def new_game(players: list[str], seed: int = 0, options=(), actions=()) -> Game1846:
    """A new 1846 game (see :class:`Game1846`)."""
    return Game1846(players, seed, options, actions)


__all__ += ["new_game"]
