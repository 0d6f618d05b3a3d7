"""1846 setup removals, the private draft, the 2-player variant and 18xx.games records.

Facts from tobymao/18xx @111f7f69 (MIT), cited per rule, never copied:

- ``g_1846/game.rb`` ``setup``, ``num_removals``, ``remove_from_group!``: the game's own
  random draws (:func:`engine.game.draws.lcg_draws`) shuffle the draft deck (3-5
  players), then remove privates (one per group per missing player below five, plus one in
  the 2nd edition) and corporations (``5 - players``; their home token stays);
- options (``meta.rb`` ``OPTIONAL_RULES``): ``first_ed`` (``init_companies``: Boomtown and
  Little Miami are out, each group keeps its first three, no extra removal),
  ``second_ed_co`` (``remove_from_group!``: Boomtown, Little Miami and the C&O are never
  removed); they exclude each other;
- ``step/draft_distribution.rb``: players in reverse seat order take one card of the first
  ``players + 2``, the rest go back reshuffled; blank "Pass" cards; a last lone private may
  be passed, getting $10 cheaper each time, until it is free (or the minors' floor price);
  everything is paid when the draft ends; minors float then;
- the 2-player variant (``g_1846_two_player_variant/game.rb``, a ``G1846::Game`` with
  ``two_player?``; option ``two_player`` here, the site's variant symbol): $7000 in the
  bank, $600 each (``BANK_CASH``, ``STARTING_CASH``), 70% per player
  (``corporation_opts``), no Pass cards and no draw for the deck
  (``num_pass_companies``), one private per group removed (plus the 2nd-edition one),
  one corporation of the north group (ERIE GT NYC PRR) and one of the south group
  (B&O C&O IC) removed (``corporation_removal_groups``), each leaving a second token
  (``REMOVED_CORP_SECOND_TOKEN``, ``place_second_token``: ERIE's in D20 at once, the others
  when that city is upgraded to green, ``place_token_on_upgrade``); the draft
  (``step/draft_2p_distribution.rb``): players in reverse seat order buy one of the
  unowned privates (cheapest first, then by name) at once, or pass (not before anyone
  owns one; a bid clears the bidder's pass); the draft round ends when no private is left
  or both have passed in a row; then (``next_round!``) a set of operating rounds in turn 0
  (privates pay, drafted minors operate) and another draft round, until every private is
  owned, then stock round 1; game end also when the last train is bought
  (``GAME_END_CHECK`` ``final_train: :one_more_full_or_set``); a corporation may not buy
  another's only train once the depot is empty (``step/buy_train.rb``).
"""

from __future__ import annotations

from engine.game.base import BANK
from engine.game.draws import lcg_draws
from engine.games.g1846 import data as facts

__all__ = ["SetupMixin1846", "OPTIONS", "SEED_BIG4"]

#: Game options: ``first_ed`` leaves out the 2nd-edition privates (Boomtown, Little Miami);
#: ``second_ed_co`` keeps them and the C&O in the game; ``two_player`` is the 2-player variant;
#: ``allow_west_west`` lifts the seed summary's West-West ban (18xx.games' rule, which every
#: 18xx.games record is played with).  The seed summary's readings (``shared/seeds/1846-summary-
#: de.txt``; the defaults are the published rules, docs/TITLE_DATA.md "1846: the seed summary and
#: the published rules"): ``seed_sale_keeps_price`` ("Bei Verkauf fällt Kurs nicht": no sale moves
#: the price), ``seed_big4_140`` (Big 4 as the Michigan Southern: 140$ with 60$ in its treasury),
#: ``seed_bankruptcy_ends_game`` ("Spiel endet auch bei Bankrott": the first bankruptcy ends the
#: game at once).
OPTIONS = ("first_ed", "second_ed_co", "two_player", "allow_west_west", "seed_sale_keeps_price",
           "seed_big4_140", "seed_bankruptcy_ends_game")  # fmt: skip

#: ``seed_big4_140``: the summary's Big 4 ("140$ ... kl. Firma mit 2er-Lok, 60$", the
#: Michigan Southern's line): face value 60 and a draft price of 60 + 80 = 140 (the
#: published 40 + 60 = 100), a 60 treasury (published 40).
SEED_BIG4 = {"value": 60, "discount": -80, "cash": 60}

#: The 2-player variant's second tokens of removed corporations (game.rb
#: ``REMOVED_CORP_SECOND_TOKEN``).
_SECOND_TOKEN = facts.TWO_PLAYER["removed_second_token"]


class SetupMixin1846:
    """Setup, the drafts and the record hooks of :class:`~engine.games.g1846.game.Game1846`."""

    @property
    def two_player(self) -> bool:
        return "two_player" in self.options

    def check_options(self) -> None:
        """Known options only, ``first_ed`` without ``second_ed_co``, 2 players exactly with
        ``two_player``."""
        unknown = sorted(set(self.options) - set(OPTIONS))
        if unknown:
            raise ValueError(f"1846: unknown option {unknown[0]!r} (known: {', '.join(OPTIONS)})")
        if "first_ed" in self.options and "second_ed_co" in self.options:
            raise ValueError("1846: options 'first_ed' and 'second_ed_co' exclude each other")
        n = len(self.seats)
        if self.two_player and n != 2:
            raise ValueError(f"1846 option 'two_player' takes 2 players, got {n}")
        if n == 2 and not self.two_player:
            raise ValueError("1846 takes 3-5 players, got 2 (2 players: option 'two_player')")

    # ------------------------------------------------------------------ setup
    def setup_removals_and_draft(self) -> None:
        """Removals, minors, reservations and the first draft round (``setup``)."""
        data, n = facts, len(self.seats)
        first_ed, two = "first_ed" in self.options, self.two_player
        draws = lcg_draws(self.seed)
        out_1st = set(data.FIRST_EDITION_ONLY_EXCLUDES) if first_ed else set()
        for sym in out_1st:
            self.state.companies[sym]["closed"] = True
        deck = []
        if not two:
            real = [c["sym"] for c in data.COMPANIES if c["sym"] not in out_1st]
            deck = real + [f"Pass ({i + 1})" for i in range(n)]
            keys = [next(draws) for _ in deck]
            deck = [deck[i] for i in sorted(range(len(deck)), key=lambda i: keys[i])]
        removed = []
        base = 1 if two else 5 - n
        for group in (data.ORANGE_GROUP, data.BLUE_GROUP):
            group = list(group)[:3] if first_ed else list(group)
            removed += self._draw(self._removable(group), base + (0 if first_ed else 1), draws)
        for sym in removed:
            self.state.companies[sym]["closed"] = True
        groups = data.TWO_PLAYER["removal_groups"] if two else [data.GREEN_GROUP]
        corps_out = []
        self.second_tokens: dict[str, str] = {}
        for group in groups:
            for sym in self._draw(self._removable(list(group)), base, draws):
                corps_out.append(sym)
                self.state.operator(sym).removed = True
                self.state.place_home(sym)
                if not two:
                    continue
                if sym == "ERIE":
                    self.state.place_token(_SECOND_TOKEN[sym], 0, sym, check=False)
                else:
                    self.second_tokens[_SECOND_TOKEN[sym]] = sym
        for ent in (*data.CORPORATIONS, *data.COMPANIES):
            if ent["sym"] in corps_out:
                continue
            for ab in ent.get("abilities", []) or []:
                if ab.get("type") == "reservation":
                    key = (ab["hex"], int(ab.get("city", 0)))
                    self.state.reservations.setdefault(key, []).append(ent["sym"])
                    self.ability_reservations.append((key, ent["sym"]))
        if "seed_big4_140" in self.options:
            info = self.state.companies["BIG4"]
            info["spec"] = {**info["spec"], "value": SEED_BIG4["value"],
                            "discount": SEED_BIG4["discount"]}  # fmt: skip
        for minor in data.MINORS:
            card = self.state.trains[self.state.depot.pop(0)]
            card.owner = minor["sym"]
            self.state.place_home(minor["sym"])
        self.removed_companies, self.removed_corporations = removed, corps_out
        self.draft_deck = [c for c in deck if c not in removed]
        # the draft's reshuffles continue the same sequence (draft_distribution.rb)
        self._draft_rand = draws
        self.draft_extra: dict[str, int] = {}
        self.draft_finished = False
        if two:
            self.turn = 0  # setup_turn: the draft rounds and their ORs are turn 0
            self.passes_closed = True  # no Pass cards
            self.GAME_END = {**self.GAME_END, "final_train": "one_more_full_or_set"}
        self.note(f"privates removed: {', '.join(removed)}; corporations removed: "
                  f"{', '.join(corps_out) or 'none'}")  # fmt: skip
        self.start_draft()

    def _removable(self, group: list[str]) -> list[str]:
        """second_ed_co (``remove_from_group!``): Boomtown, Little Miami and the C&O stay."""
        if "second_ed_co" in self.options:
            return [g for g in group if g not in ("BT", "LM", "C&O")]
        return group

    @staticmethod
    def _draw(group: list[str], count: int, draws) -> list[str]:
        """``group.sort_by { rand }.take(count)`` with the game's generator."""
        keys = [next(draws) for _ in group]
        order = sorted(range(len(group)), key=lambda i: keys[i])
        return [group[i] for i in order[:count]]

    def place_second_token(self, hex_: str) -> None:
        """2 players: a removed corporation's deferred token goes into ``hex_``'s first city
        once the tile there is green (``place_token_on_upgrade``)."""
        sym = self.second_tokens.get(hex_) if self.two_player else None
        if sym is None or self.state.board.color(hex_) != "green":
            return
        del self.second_tokens[hex_]
        self.state.place_token(hex_, 0, sym, check=False)
        self.note(f"{sym} places its second token in {hex_}")

    def holding_limit(self, corp: str) -> int:
        return 70 if self.two_player else self.MAX_OWNERSHIP

    # ------------------------------------------------------------------ draft
    def start_draft(self) -> None:
        self.round = type(self.round)("draft", list(reversed(self.players)), 0, 1, {
            "choices": {}, "extra_discount": self.draft_extra, "passed": set(),
        })  # fmt: skip
        self.note("-- private draft --")

    def _min_bid(self, sym: str) -> int:
        spec = self.state.companies[sym]["spec"]
        extra = self.round.data["extra_discount"].get(sym, 0)
        return int(spec["value"]) - int(spec.get("discount", 0)) - extra

    def _draft_size(self) -> int:
        return len(self.seats) + 2

    def _only_one(self) -> bool:
        if self.two_player:
            return len(self._open_privates()) == 1
        deck = self.draft_deck
        return len(deck) == 1 and not deck[0].startswith("Pass")

    def _open_privates(self) -> list[str]:
        """2 players: the privates nobody owns, cheapest first, then by name (``Company``
        ordering)."""
        companies = self.state.companies
        open_ = [c for c, i in companies.items() if not i["closed"] and i["owner"] is None]
        return sorted(open_, key=lambda c: (self._min_bid(c), companies[c]["spec"]["name"]))

    def other_round_finished(self) -> bool:
        if self.two_player:
            r = self.round
            return not self._open_privates() or len(r.data["passed"]) >= len(r.entities)
        deck = self.draft_deck
        avail = deck[: self._draft_size()]
        return not deck or (
            len(deck) < self._draft_size() and all(c.startswith("Pass") for c in avail)
        )

    def legal_other_round(self) -> list[dict]:
        p = self.round.current
        if self.two_player:
            acts = [{"type": "bid", "entity": p, "company": c, "price": self._min_bid(c)}
                    for c in self._open_privates() if self._min_bid(c) <= self.cash(p)]  # fmt: skip
            if any(i["owner"] in self.seats for i in self.state.companies.values()):
                acts.append({"type": "pass", "entity": p})  # not before anyone owns one
            return acts
        avail = self.draft_deck[: self._draft_size()]
        acts = [{"type": "bid", "entity": p, "company": c, "price": 0 if c.startswith("Pass")
                 else self._min_bid(c)} for c in avail]  # fmt: skip
        if self._only_one():
            acts.append({"type": "pass", "entity": p})
        return acts

    def draft_bid(self, action: dict) -> None:
        if self.two_player:
            self.round.data["passed"].discard(action["entity"])
        self._choose(action["entity"], action["company"])
        r = self.round
        r.index = (r.index + 1) % len(r.entities)

    def _choose(self, player: str, company: str) -> None:
        if self.two_player:
            self._buy_private(player, company)  # draft_2p_distribution.rb: bought at once
            return
        r = self.round
        r.data["choices"].setdefault(player, []).append(company)
        if self._only_one():
            self.draft_deck = []
        else:
            avail = self.draft_deck[: self._draft_size()]
            rest = self.draft_deck[len(avail) :]
            keys = [next(self._draft_rand) for _ in avail]
            back = [avail[i] for i in sorted(range(len(avail)), key=lambda i: keys[i])]
            back.remove(company)
            self.draft_deck = rest + back
        self.note(f"{player} chooses a card")

    def draft_pass(self, action: dict) -> None:
        r = self.round
        if self.two_player and not self._only_one():
            r.data["passed"].add(action["entity"])
            r.index = (r.index + 1) % len(r.entities)
            return
        company = self._open_privates()[0] if self.two_player else self.draft_deck[0]
        extra = r.data["extra_discount"]
        extra[company] = extra.get(company, 0) + 10
        r.index = (r.index + 1) % len(r.entities)
        spec = self.state.companies[company]["spec"]
        if self._min_bid(company) == -int(spec.get("discount", 0)):
            self._choose(r.current, company)

    def _buy_private(self, player: str, company: str) -> None:
        """``player`` pays for ``company``; a minor floats with its treasury
        (``float_minor``)."""
        price = self._min_bid(company)
        self.state.companies[company]["owner"] = player
        self.pay(player, BANK, price, f"draft {company}")
        self.note(f"{player} buys {company} for {price}")
        minor = next((m for m in facts.MINORS if m["sym"] == company), None)
        if minor is not None:
            self.state.operator(company).floated = True
            self.pay(BANK, company, self.minor_cash(company), f"{company} treasury")

    def minor_cash(self, minor: str) -> int:
        """A minor's starting treasury (``entities.rb`` MS 60, BIG4 40; ``seed_big4_140``:
        BIG4 60)."""
        if minor == "BIG4" and "seed_big4_140" in self.options:
            return SEED_BIG4["cash"]
        return int(next(m for m in facts.MINORS if m["sym"] == minor)["cash"])

    def end_other_round(self) -> None:
        """Pay for the drafted privates; minors float (``action_finalized``).  2 players:
        operating rounds, then another draft round, until every private is owned."""
        if self.two_player:
            if self._open_privates():
                self.start_operating_round(1)
                return
            self.draft_finished = True
            self.turn = 1
            self.start_stock_round()
            return
        for player, cards in self.round.data["choices"].items():
            for c in cards:
                if not c.startswith("Pass"):
                    self._buy_private(player, c)
        self.draft_deck = []
        self.start_stock_round()

    def next_round(self) -> None:
        """2 players (``next_round!``): the operating rounds of the draft lead back to the
        draft, not to a stock round."""
        r = self.round
        if not self.two_player or self.draft_finished or r.kind != "operating":
            return super().next_round()
        self.end_operating_round()
        if self.finished:
            return None
        if r.num < r.data["of"]:
            return self.start_operating_round(r.num + 1)
        return self.start_draft()

    # ------------------------------------------------------------------ records
    @classmethod
    def record_options(cls, record) -> list[str]:
        """Options of an 18xx.games record (:mod:`engine.games.records`): its optional
        rules, ``two_player`` for the 2-player variant, and ``allow_west_west``: 18xx.games
        does not apply the seed summary's West-West ban, and a record is scored under the
        rules it was played with."""
        two = ["two_player"] if record.variant == "2p" else []
        return [*record.optional_rules, *two, "allow_west_west"]

    def record_action(self, raw: dict, action: dict | None) -> dict | None:
        """An 18xx.games action in our form (:mod:`engine.games.records`): a draft pick's
        price is the card's (informative only)."""
        if action is None:
            return None
        if action["type"] == "bid":
            action.pop("price", None)
        return action
