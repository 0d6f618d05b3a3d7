"""A rules-engine game put into the state a position file describes.

:func:`game_at_position` starts a game of the position's title and sets it up as the
position says, so that the engine itself lists what the position's company may do next
(:meth:`engine.game.base.BaseGame.legal_actions`):

- the phase is reached by buying the depot's trains in sale order through the title's own
  purchase rule (price 0, so phase changes, rusting, obsolescence, train events and the
  title's purchase side effects follow the rules); those trains go to unknown owners;
- the position's tiles are laid and its tokens placed (operators with a token in a home hex
  have placed their home token);
- the company and every other company with a token on the board (or listed under
  ``extras.companies``) float with a president (the company's is the first seat, every other
  company's the second), the company with its trains and private companies, the others with
  the trains ``extras.companies`` gives them;
- private companies the position gives nobody belong to the second seat unless a train
  event of the phase closed them (their blocked hexes stay blocked, as in the record
  replayer's positions);
- the company's treasury holds the position's ``cash`` (top-level, else ``extras.cash``;
  without one a large sum, so every legal move is affordable);
- the round is that company's operating turn at its first stage, with what the position's
  ``turn`` object says it already did (``tiles_laid``, ``tokens_placed``,
  ``trains_bought``); stages without a choice are skipped as in play.

What a position cannot say is chosen and listed in ``game.position_notes``: the number of
players (``extras.players``, else the title's largest), the seed (0), whether this is a
corporation's first operating round (it is not), ability uses and 1842 building tokens
(none used).

Titles differ in how a company floats (1812 minors and publics, 1842 minors and successors,
1836Jr-56 capitalisation); those parts are the small per-title builders at the end.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from engine.game.base import BANK, BaseGame, Round
from engine.game.operating import Turn
from engine.game.state import DEPOT
from engine.games import game_class, get_title, load_position
from engine.model.position import Position, PositionError
from engine.model.tiles import COLOR_ORDER

__all__ = ["game_at_position", "LARGE_CASH", "PositionGame"]

#: The company's treasury when the position gives no cash (every legal move affordable).
LARGE_CASH = 100_000
#: Owner of the trains sold to reach the phase (unknown companies); ``None`` once built.
_SOLD = "~sold"
#: Ledger account that funds a treasury beyond what the bank holds.
_FUND = "~position"


@dataclass
class PositionGame:
    """What :func:`game_at_position` chose where the position says nothing.

    Attributes
    ----------
    players : int
    cash_given : bool
        Whether the position gave the company's cash.
    other_trains : tuple of str
        Other companies whose trains the position gives (``extras.companies``).
    notes : list of str
    """

    players: int
    cash_given: bool
    other_trains: tuple[str, ...]
    notes: list[str]


def game_at_position(position: Position | str | dict, players: int | None = None) -> BaseGame:
    """A game of ``position``'s title in the state the position describes.

    Parameters
    ----------
    position : Position, path, JSON text or dict
    players : int, optional
        Number of players (default ``extras.players``, else the title's largest).

    Returns
    -------
    BaseGame
        At the company's operating turn; ``game.position_info`` is a :class:`PositionGame`.

    Raises
    ------
    PositionError
        An impossible position (checked against its title first), a title without a rules
        engine, or trains the title does not have.
    """
    if not isinstance(position, Position):
        position = load_position(position)
    else:
        load_position(position.to_dict())  # the position checks, naming the bad item
    title = get_title(position.title)
    try:
        cls = game_class(position.title)
    except ValueError as exc:
        raise PositionError(str(exc)) from None
    builder = _BUILDERS.get(cls.TITLE, _Builder)
    return builder(cls, title, position, players).build()


def _position_cash(position: Position) -> int | None:
    cash = getattr(position, "cash", None)
    if cash is None:
        cash = position.extras.get("cash")
    return None if cash is None else int(cash)


def _position_turn(position: Position) -> dict:
    turn = getattr(position, "turn", None)
    if turn is None:
        turn = position.extras.get("turn")
    if turn is None:
        return {}
    if not isinstance(turn, dict):
        turn = {k: getattr(turn, k) for k in ("tiles_laid", "tokens_placed", "trains_bought")
                if hasattr(turn, k)}  # fmt: skip
    return {k: [str(v) for v in (turn.get(k) or [])]
            for k in ("tiles_laid", "tokens_placed", "trains_bought")}  # fmt: skip


def _position_options(position: Position) -> list[str]:
    """The game options: the record's ``extras.optional_rules`` and the position's route
    ``options`` (``allow_west_west``)."""
    rules = [str(o) for o in position.extras.get("optional_rules") or []]
    return list(dict.fromkeys([*rules, *(str(o) for o in position.options)]))


class _Builder:
    """The generic builder (see the module docstring); titles override the hooks."""

    #: Stage names that hold tokens and train purchases.
    TOKEN, TRAIN = "token", "train"

    def __init__(self, cls, title, position: Position, players: int | None) -> None:
        self.cls, self.title, self.position = cls, title, position
        self.sym = position.company
        self.notes: list[str] = []
        self.players = self._players(players)

    # ------------------------------------------------------------------ the steps
    def build(self) -> BaseGame:
        pos, sym = self.position, self.sym
        seats = [f"player{i + 1}" for i in range(self.players)]
        options = self.options()
        try:
            game = self.cls(seats, 0, options)
        except ValueError as exc:
            if not options:
                raise PositionError(f"{pos.title}: {exc}") from None
            game = self.cls(seats, 0, [])  # an option the rules engine does not know
            self.notes.append(f"options {', '.join(options)} ignored ({exc})")
        self.game = game
        state = game.state
        if sym not in state.operators:
            raise PositionError(f"company: {sym!r} is not a corporation or minor of {pos.title}")
        self.president, self.others_president = seats[0], seats[1 % len(seats)]
        self.prepare()
        self.reset_board_and_trains()
        self.open_privates()
        self.start_turn()
        self.float(sym, self.president)
        self.reach_phase()
        for other in self.other_companies():
            op = state.operators[other]
            if op.closed or op.removed:
                continue
            self.float(other, self.others_president)
        for op in state.operators.values():
            if op.floated:
                op.operated = True  # not a first operating round (1842 3.3.3: two lays)
        self.lay_tiles()
        self.place_tokens()
        self.own_privates()
        for a in pos.assignments:
            if not self.assign(a):
                self.notes.append(f"assignment {a.ability} on {a.hex} for {a.company}: not "
                                  f"modelled by the {self.title.id} builder, ignored")  # fmt: skip
        self.give_trains(sym, list(pos.trains), strict=True)
        for other, info in self.other_info().items():
            if other in state.operators and not state.operators[other].closed:
                self.give_trains(other, [str(t) for t in info.get("trains", [])], strict=False)
        for card in state.trains.values():
            if card.owner == _SOLD:
                card.owner = None  # sold to companies the position does not know
        for other in pos.extras.get("closed") or ():
            # closed in the game the position was taken from (bought minors, companies at
            # the bottom of the market): their reservations and tokens are gone
            if other in state.operators and other != sym:
                state.close_operator(other)
        self.after_build()
        cash = _position_cash(pos)
        self.set_cash(sym, LARGE_CASH if cash is None else cash)
        if cash is None:
            self.notes.append("no cash given: every legal move is listed")
        known = tuple(o for o in self.other_info() if o in state.operators and o != sym)
        game.position_info = PositionGame(self.players, cash is not None, known, self.notes)
        game.position_notes = self.notes
        self.finish_turn(_position_turn(pos))
        return game

    def _players(self, players: int | None) -> int:
        cls = self.cls
        given = players if players is not None else self.position.extras.get("players")
        if isinstance(given, list):
            given = len(given)  # the players' names
        if isinstance(given, int) and not isinstance(given, bool):
            if not cls.MIN_PLAYERS <= given <= cls.MAX_PLAYERS:
                raise PositionError(
                    f"players: {cls.TITLE} takes {cls.MIN_PLAYERS}-{cls.MAX_PLAYERS}, not {given}"
                )
            return given
        self.notes.append(f"no player count given: {cls.MAX_PLAYERS} players")
        return cls.MAX_PLAYERS

    def options(self) -> list[str]:
        return _position_options(self.position)

    def prepare(self) -> None:
        """Title state the generic steps need (hooks)."""

    def other_info(self) -> dict[str, dict]:
        info = self.position.extras.get("companies") or {}
        return {str(k): v for k, v in info.items() if isinstance(v, dict)}

    def other_companies(self) -> list[str]:
        """Companies other than the position's with a token on the board or listed in
        ``extras.companies``, in map order of their first token."""
        seen: dict[str, None] = {}
        for t in self.position.tokens:
            if t.company != self.sym:
                seen.setdefault(t.company, None)
        for other in self.other_info():
            if other != self.sym and other in self.game.state.operators:
                seen.setdefault(other, None)
        removed = set(self.position.extras.get("removed_corporations") or ())
        return [s for s in seen if s not in removed]

    def reset_board_and_trains(self) -> None:
        """No tokens on the map; every train back in the depot (set-up hands some out)."""
        state = self.game.state
        state.tokens.clear()
        for op in state.operators.values():
            op.home_placed = False
        for card in state.trains.values():
            if card.owner not in (DEPOT, None):
                card.owner = DEPOT
                card.name = card.sym
                if card.id not in state.depot and card.id not in state.discarded:
                    state.depot.append(card.id)
        state.depot.sort(key=lambda i: state.trains[i].order)

    def open_privates(self) -> None:
        """Every private open, the company's its own, the others' theirs, the rest with the
        second seat (until a train event of the phase closes them)."""
        state = self.game.state
        owners = {c: self.sym for c in self.position.owned_companies}
        for other, info in self.other_info().items():
            for c in info.get("owned_companies", []):
                owners.setdefault(str(c), other)
        for c in owners:
            if c not in state.companies:
                raise PositionError(f"owned_companies: {c!r} is not a private of {self.title.id}")
        for c, info in state.companies.items():
            if c in state.operators:
                continue  # a minor's charter (1846): its owner is set when it floats
            info["owner"] = owners.get(c, self.others_president)
            info["closed"] = False

    def start_turn(self) -> None:
        """The company's operating turn, first stage (its flags set in :meth:`finish_turn`)."""
        game = self.game
        phase_rounds = int(game.state.phase.get("operating_rounds", 1))
        game.round = Round("operating", [self.sym], 0, 1, {"of": phase_rounds})
        game.operated_trains = set()
        game._net_cache = {}
        game.or_turn = Turn(self.sym, ())
        game.or_turn.flags = defaultdict(set)  # what train purchases note, until the turn starts

    def float(self, sym: str, president: str) -> None:
        """``sym`` floats with ``president`` (generic: the title's par hooks)."""
        game = self.game
        op = game.state.operators[sym]
        if op.kind == "minor":
            self.float_minor(sym, president)
        else:
            if sym not in game.shares.by_corp:
                game.create_shares(sym)
                game.market_par(sym, president, self.par_price(sym))
                game.shares.par(sym, president)
        op.floated = True
        op.closed = False
        op.removed = False

    def float_minor(self, sym: str, owner: str) -> None:
        info = self.game.state.companies.get(sym)
        if info is not None:
            info["owner"] = owner
            info["closed"] = False

    def par_price(self, sym: str) -> int:
        prices = sorted(self.game.par_prices())
        return prices[len(prices) // 2]

    def fund(self, sym: str, amount: int) -> None:
        """Give ``sym`` ``amount`` more cash, from the bank while it has it."""
        ledger = self.game.ledger
        if amount <= 0:
            return
        from_bank = max(0, min(amount, ledger.cash(BANK)))
        if from_bank:
            ledger.pay(BANK, sym, from_bank, "position")
        rest = amount - from_bank
        if rest:
            if _FUND not in ledger.balances:
                ledger.open(_FUND)
                ledger.may_go_negative.add(_FUND)
            ledger.pay(_FUND, sym, rest, "position")

    def set_cash(self, sym: str, cash: int) -> None:
        ledger = self.game.ledger
        now = ledger.cash(sym)
        if cash > now:
            self.fund(sym, cash - now)
        elif cash < now:
            ledger.pay(sym, BANK, now - cash, "position")

    # ------------------------------------------------------------------ phase and trains
    def reach_phase(self) -> None:
        """Buy the depot's trains in sale order until the position's phase has begun."""
        state = self.game.state
        names = [str(p["name"]) for p in state.phases]
        if self.position.phase not in names:
            raise PositionError(
                f"phase: {self.position.phase!r} is not a phase of {self.title.id} ({names})"
            )
        target = names.index(self.position.phase)
        for _ in range(10_000):
            if state.phase_index >= target:
                break
            card = self.next_phase_card()
            if card is None:
                raise PositionError(f"phase: no train left to reach phase {self.position.phase}")
            self.buy(card)
        if state.phase_index != target:
            raise PositionError(
                f"phase: buying the trains in order passes phase {self.position.phase} "
                f"(reached {state.phase_name})"
            )

    def next_phase_card(self):
        """The depot's next train in sale order (trains offered only from a phase on
        aside); once only those, or only a type without a fixed number, are left, the train
        that begins the next phase."""
        state = self.game.state
        unlimited = {s["name"] for s in self.title.data.TRAINS if s.get("num", 0) is None}
        nxt = next((state.trains[i] for i in state.depot if not state.trains[i].available_on),
                   None)  # fmt: skip
        if nxt is not None and nxt.sym not in unlimited:
            return nxt
        trigger = str(state.phases[state.phase_index + 1].get("on"))
        for card in state.depot_trains():
            if card.sym == trigger and card.id in state.depot:
                return card
        return nxt

    def buy(self, card) -> None:
        """The company buys ``card`` for 0 by the title's rule; it goes to unknown owners."""
        game = self.game
        action = {"type": "buy_train", "entity": self.sym, "train": card.id,
                  "variant": card.name, "price": 0}  # fmt: skip
        game.operating_buy_train(action)
        if card.owner == self.sym:
            card.owner = _SOLD
        self.after_buy(card)

    def after_buy(self, card) -> None:
        """Title bookkeeping after a purchase for the phase (hooks)."""

    def give_trains(self, sym: str, names: list[str], strict: bool) -> None:
        """``sym`` holds trains called ``names``: cards sold for the phase first (the first
        train of the type that began the phase among them), else the depot's next."""
        state = self.game.state
        reached = [str(p["on"]) for p in state.phases[1 : state.phase_index + 1] if p.get("on")]
        for i, name in enumerate(names):
            card = self._free_card(name)
            if card is None:
                if strict:
                    raise PositionError(f"trains[{i}]: no {name!r} train left for {sym}")
                self.notes.append(f"no {name} train left for {sym}: not given")
                continue
            state._take(card)
            card.owner = sym
            card.name = name
            spec = state.train_spec(card)
            card.obsolete = spec.get("obsolete_on") in reached
            card.events = []

    def _free_card(self, name: str):
        state = self.game.state
        fits = [c for c in state.trains.values() if name in state.variant_names(c)]
        for card in sorted(fits, key=lambda c: c.order):
            if card.owner == _SOLD:
                return card
        for ident in state.depot:
            if state.trains[ident] in fits:
                return state.trains[ident]
        return self.mint(name)

    def mint(self, name: str):
        """A new card for a train type without a fixed number (hooks; None: none)."""
        return None

    # ------------------------------------------------------------------ board
    def lay_tiles(self) -> None:
        game = self.game
        state = game.state
        self.printed_colors = {lay.hex: state.board.color(lay.hex) for lay in self.position.tiles}
        for lay in self.position.tiles:
            tile_id = game.tile_id({"tile": lay.tile})
            state.lay_tile(lay.hex, tile_id, lay.rotation, check=False)

    def place_tokens(self) -> None:
        state = self.game.state
        state.tokens.clear()
        for t in self.position.tokens:
            state.tokens.setdefault((t.hex, t.city), []).append(t.company)
            op = state.operators.get(t.company)
            if op is not None and t.hex in op.home:
                op.home_placed = True
        state.changed()

    def own_privates(self) -> None:
        """The position's privates are the company's and open, whatever the phase closed."""
        state = self.game.state
        for c in self.position.owned_companies:
            info = state.companies[c]
            if info["closed"]:
                self.notes.append(f"a train event closes {c} by phase {state.phase_name}; "
                                  f"kept open, as the position gives it to {self.sym}")  # fmt: skip
            info["owner"], info["closed"] = self.sym, False

    def assign(self, assignment) -> bool:
        """Put a position's marker (``assignments``) into the title's state; False when the
        title has no such marker (hooks)."""
        return False

    def after_build(self) -> None:
        """Title bookkeeping once the board, privates and trains are set (hooks)."""

    # ------------------------------------------------------------------ the turn
    def finish_turn(self, turn: dict) -> None:
        """The company's turn begins; what ``turn`` says it did is done."""
        game = self.game
        sym = self.sym
        game.or_turn = Turn(sym, tuple(game.stages_for(sym)))
        game._version += 1
        game._legal_cache = None
        for key in ("_legal_index", "_net_last", "_last_run", "_routes", "_route_base"):
            game.__dict__.pop(key, None)
        game.turn_started(sym)
        t = game.or_turn
        stages = t.stages
        board = game.state.board
        for hex_ in turn.get("tiles_laid", []):
            if hex_ not in board:
                raise PositionError(f"turn.tiles_laid: hex {hex_!r} is not on the map")
            printed = self.printed_colors.get(hex_, board.color(hex_))
            now = board.color(hex_)
            upgrade = printed != "white" or (
                now in COLOR_ORDER and COLOR_ORDER.index(now) > COLOR_ORDER.index("yellow")
            )
            t.lays.append((hex_, upgrade))
        if turn.get("tokens_placed"):
            t.tokened = True
            if self.TOKEN in stages and t.index <= stages.index(self.TOKEN):
                t.index = stages.index(self.TOKEN) + 1
        if turn.get("trains_bought"):
            if self.TRAIN in stages:
                t.index = max(t.index, stages.index(self.TRAIN))
            bought = t.flags.get("bought_types")
            for name in turn["trains_bought"]:
                sym_ = next((c.sym for c in game.state.trains.values()
                             if name in game.state.variant_names(c)), name)  # fmt: skip
                if isinstance(bought, set):
                    bought.add(sym_)  # 1836Jr: one train of a type from the bank a turn
        game._version += 1
        game._legal_cache = None
        game._advance()


# ---------------------------------------------------------------------------------- 1846
class _Builder1846(_Builder):
    def options(self) -> list[str]:
        from engine.games.g1846.game import OPTIONS

        known = {o for o in OPTIONS}
        return [o for o in super().options() if o in known]

    def prepare(self) -> None:
        self.game.__dict__.pop("_draft_rand", None)  # the draft is over
        state = self.game.state
        self.removed = [s for s in self.position.extras.get("removed_corporations") or ()
                        if s in state.operators and s != self.sym]  # fmt: skip
        for op in state.operators.values():
            op.removed = op.sym in self.removed

    def par_price(self, sym: str) -> int:
        return 100

    #: Position ability name -> the 1846 private that assigns it (``assign.rb``).
    ASSIGNERS = {"meat_packing": "MPC", "steamboat": "SC", "boomtown": "BT"}

    def assign(self, assignment) -> bool:
        company = self.ASSIGNERS.get(assignment.ability)
        if company is None:
            return False
        game = self.game
        game.assigned_hex[company] = assignment.hex
        game.assigned_corp[company] = assignment.company
        if company != "SC":
            game.ability_uses[company] = 1  # a one-time assignment, made
        return True

    def after_build(self) -> None:
        """A border both of whose sides have track was paid by the lay that joined them
        (``remove_border_calculate_cost!``).  The C&WI's Chicago token is an extra token
        (``special_token.rb``); a token in a corporation's own token-ability hex used the
        ability."""
        game, state = self.game, self.game.state
        board = state.board
        for other in self.removed:
            # set-up: a removed corporation's home token stays (``remove_from_group!``); a
            # position read from the actions does not show it
            if not state.tokens_of(other) and state.place_home(other):
                where = state.tokens_of(other)[0][0]
                self.notes.append(f"{other} is removed: its home token stays on {where}")
        for key in list(state.reservations):
            state.reservations[key] = [r for r in state.reservations[key] if r not in self.removed]
        for hex_ in board.laid:
            for b in game._cost_borders(hex_):
                nb = board.neighbours(hex_).get(b.edge)
                if (nb is not None and b.edge in board.placed(hex_).exits
                        and (b.edge + 3) % 6 in board.placed(nb).exits):  # fmt: skip
                    game.paid_borders.add((hex_, b.edge))
                    game.paid_borders.add((nb, (b.edge + 3) % 6))
        for op in state.operators:
            spec = game.entity_spec(op)
            for ab in spec.get("abilities", []):
                if ab["type"] == "token" and any(h in ab["hexes"] for h, _c in state.tokens_of(op)):
                    game.ability_uses[f"{op}/token"] = 1
        owner = state.companies.get("C&WI", {}).get("owner")
        if owner in state.operators and owner in state.tokens.get(("D6", 3), []):
            game.token_adjust[owner] = game.token_adjust.get(owner, 0) + 1
            game.ability_uses["C&WI"] = 1


# ---------------------------------------------------------------------------------- 1836Jr
class _Builder1836Jr30(_Builder):
    def par_price(self, sym: str) -> int:
        return 100

    def prepare(self) -> None:
        self.game.pending_tokens = []

    def after_build(self) -> None:
        self.game.pending_tokens = []


class _Builder1836Jr56(_Builder1836Jr30):
    def assign(self, assignment) -> bool:
        """The Régie des Postes' +20 token (its private closes when it is placed)."""
        game = self.game
        if assignment.ability != game.data.POST_COMPANY:
            return False
        game.post_token = (assignment.hex, assignment.company)
        info = game.state.companies.get(game.data.POST_COMPANY)
        if info is not None and game.data.POST_COMPANY not in self.position.owned_companies:
            info["closed"] = True
        return True

    def float(self, sym: str, president: str) -> None:
        game = self.game
        if sym not in game.shares.by_corp:
            cap = game.cap[sym] = game.cap_type(sym)
            game.escrow[sym] = 0 if cap == "escrow" else None
        super().float(sym, president)
        game.start(sym)


# ---------------------------------------------------------------------------------- 1812
class _Builder1812(_Builder):
    def prepare(self) -> None:
        game = self.game
        game.privates_in_play = [c["sym"] for c in game.data.COMPANIES]
        for op in game.state.operators.values():
            op.removed = False

    def float(self, sym: str, president: str) -> None:
        game = self.game
        op = game.state.operators[sym]
        if op.kind == "minor":
            game.minor_owner[sym] = president
            if not game.market.has(sym):
                game.market.place_at(sym, self.minor_price())
            if sym not in game.minors_in_play:
                game.minors_in_play.append(sym)
        elif sym not in game.shares.by_corp:
            game.open_public(sym)
            game.shares.par(sym, president)
            game.market.place_at(sym, self.public_price())
        op.floated = True
        op.closed = False

    def minor_price(self) -> int:
        from engine.games.g1812 import economy_data as ed

        prices = sorted(ed.MINOR_START_PRICES)
        return prices[len(prices) // 2]

    def public_price(self) -> int:
        from engine.games.g1812 import economy_data as ed

        prices = sorted(ed.PUBLIC_START_PRICES)
        return prices[len(prices) // 2]

    def mint(self, name: str):
        from engine.games.g1812.game_support import UNLIMITED

        state = self.game.state
        for spec in state.data.TRAINS:
            names = [spec["name"]] + [v["name"] for v in spec.get("variants", [])]
            if name in names and spec["name"] in UNLIMITED:
                return self.game.mint_train(spec["name"])
        return None

    def after_buy(self, card) -> None:
        # §7.3.8: the unsold trains of a type leave (2/1G) or convert (3/2G) before the
        # next stock round once one was bought
        self.game.refresh_train_supply()


# ---------------------------------------------------------------------------------- 1842
class _Builder1842(_Builder):
    def float(self, sym: str, president: str) -> None:
        from engine.games.g1842 import economy_data as ed
        from engine.games.g1842 import economy_minors as em

        game = self.game
        op = game.state.operators[sym]
        if sym == ed.HAV:
            raise PositionError("company: the HAV's turn is not a position's (1842 3.4)")
        if game.is_minor(sym):
            game.minor_owner[sym] = president
            start = em.minor_start(sym)
            game.building[sym] = start.building_tokens
            game.markers[sym] = set(start.markers)
        elif sym not in game.shares.by_corp:
            if sym in game.pre.by_corp:  # a successor (SE, HMBG)
                game.shares.adopt(sym, game.pre)
                game.shares.president_cert(sym).owner = president
                game.shares.presidents[sym] = president
            else:
                game.shares.add_structure(sym, list(game.entity_spec(sym)["shares"]))
                game.shares.take(president, f"{sym}_0")
            if sym not in game.market:
                game.market.start(sym)
        op.floated = True
        op.closed = False

    def after_build(self) -> None:
        """Stations placed so far come off the charter first, then the exchange tokens."""
        game, state = self.game, self.game.state
        for sym, op in state.operators.items():
            if op.kind != "corporation" or game.is_minor(sym):
                continue
            placed = len(state.tokens_of(sym))
            normal = len(game.entity_spec(sym).get("tokens", []))
            game.token_used[sym] = min(placed, normal)
            game.exchange_used[sym] = max(0, placed - normal)


_BUILDERS: dict[str, type[_Builder]] = {
    "1846": _Builder1846,
    "1836Jr30": _Builder1836Jr30,
    "1836Jr56": _Builder1836Jr56,
    "1812": _Builder1812,
    "1842": _Builder1842,
}
