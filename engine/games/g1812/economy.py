"""1812 economy: stock market, dividends, shares, loans, rounds and final scoring.

Pure functions and small frozen dataclasses; nothing here holds game state.  Facts come from
:mod:`.economy_data` (and :mod:`.data` for phases); the rulebook is the seed text
``../shared/seeds/1812-rules.txt`` (v1.0a).  Costs of trains, privates, station markers
and new public companies are in :mod:`.economy_costs`, auctions in :mod:`.auction`, mergers,
conversions and take-overs in :mod:`.merger`.

Bad input raises :class:`ValueError` naming the item; a legal-looking request that breaks a
rule raises :class:`RuleViolation` (a ``ValueError``) naming the rulebook section.

Rulebook sections implemented
-----------------------------
============================  ===================================================
function                      rule
============================  ===================================================
:class:`Market`, ``place``    §4 price markers; piles (new arrivals at the bottom)
``move``, ``shift_price``     §4.2 Closed box below £40; §7.3.5 minor cap £150,
                              top cell; a marker that does not move keeps its place
``remove``                    §4.2, §8.4 markers leaving the chart
``cell_at_or_below``          §6.2.1, §8.3 "rounded down" to a market value
``operating_order``           §7 minors, then publics, by price, top of pile first
``minor_dividend``            §7.3.5 half to owner, half to treasury; up or down
``public_dividend``           §7.3.5 payout / half (rounded up to £10) / withhold;
                              treasury shares pay the company, pool shares the bank
``director_after``            §6.1, §6.2.2 change of Director (≥ 2 shares, more than
                              the Director; ties: next in Player Order)
``sell_shares``               §6.1 sale limits, Director change, one space down
                              when the Director sells
``check_share_purchase``      §6.2.2 (and §4.1 60%, §6.2 Phase 3)
``certificate_count``         §4.1 each certificate counts one
``player_order_after_stock``  §6.3 Place Cards by cash
``loans_needed``              §7.2 minimum loans, limit, net £45 a loan
``take_loans``                §7.2 interest paid on taking
``pay_interest``              §7.3.6 interest, further loan, or all cash + down
``repay_loans``               §7.3.7 repay as many as possible
``check_train_loans``         §7.2, §7.3.8 loans only for a trainless company
                              buying from the Bank or Bank Pool
``next_round``                §2, §5, §8 SR, OR, (MR from Phase 3), OR, (MR)
``bank_broken``/``bank_pays`` §9 bank out of money, IOUs
``game_ends_after``           §9 end after the OR completed after the break
``final_price``               §9 one space down per loan; Closed box = 0
``player_value``/``scores``   §9 cash + shares + privates at face + minors x2
``all_players_lose``          §9 last paragraph
============================  ===================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from engine.games.checks import whole_number
from engine.games.g1812 import data
from engine.games.g1812 import economy_data as ed
from engine.games.g1812.market import Market1812

__all__ = [
    "POOL",
    "TREASURY",
    "RuleViolation",
    "Market",
    "MinorPayout",
    "PublicPayout",
    "SaleResult",
    "InterestResult",
    "Holdings",
    "phase_number",
    "cell_at_or_below",
    "shift_price",
    "place",
    "move",
    "remove",
    "operating_order",
    "minor_dividend",
    "public_dividend",
    "director_after",
    "sell_shares",
    "check_share_purchase",
    "certificate_count",
    "cert_limit",
    "player_order_after_stock",
    "loan_limit",
    "loans_needed",
    "take_loans",
    "pay_interest",
    "repay_loans",
    "check_train_loans",
    "next_round",
    "bank_broken",
    "bank_pays",
    "game_ends_after",
    "final_price",
    "player_value",
    "scores",
    "all_players_lose",
]

#: Holder keys for shares in a public company's own treasury and in the Bank Pool.
TREASURY = "treasury"
POOL = "pool"

_KINDS = ("minor", "public")
_PHASES = tuple(p["name"] for p in data.PHASES)


class RuleViolation(ValueError):  # noqa: N818 - reads as the rule that was broken
    """A request the 1812 rules forbid; the message names the section."""


# ----------------------------------------------------------------------------- checks
def company_kind(kind: str) -> str:
    if kind not in _KINDS:
        raise ValueError(f"company kind must be 'minor' or 'public', got {kind!r}")
    return kind


def phase_number(phase) -> int:
    """Phase ``"2"``..``"6"`` (or the int) as an int; ``ValueError`` otherwise."""
    if str(phase) not in _PHASES:
        raise ValueError(f"phase must be one of {', '.join(_PHASES)}, got {phase!r}")
    return int(phase)


def player_count(n_players) -> int:
    lo, hi = ed.PLAYER_RANGE
    n = whole_number(n_players, "n_players", lo)
    if n > hi:
        raise ValueError(f"n_players must be {lo}-{hi}, got {n}")
    return n


# ----------------------------------------------------------------------------- market (§4)
def _index(price) -> int:
    try:
        return ed.MARKET.index(whole_number(price, "price", ed.CLOSE_BELOW))
    except ValueError:
        raise ValueError(f"price {price!r} is not a stock-market value") from None


def cell_at_or_below(amount: int) -> int:
    """The highest market value not above ``amount`` (§6.2.1, §8.3 "rounded down")."""
    amount = whole_number(amount, "amount", ed.CLOSE_BELOW)
    return max(p for p in ed.MARKET if p <= amount)


def shift_price(price: int, steps: int, minor: bool = False) -> int | None:
    """Price ``steps`` spaces up (+) or down (-) from ``price``; ``None`` = Closed box.

    Up stops at the top cell, and for a minor at £150 (§7.3.5).  Down past £40 is the
    Closed box (§4.2, §9).  The moves are :class:`.market.Market1812`'s.
    """
    i = _index(price)
    steps = whole_number(steps, "steps", None)
    grid = Market1812()
    grid.place("marker", 0, 1 + i)
    return None if grid.shift("marker", steps, minor) else grid.price("marker")


@dataclass(frozen=True)
class Market:
    """Price markers on the stock market: one pile per cell, top of the pile first.

    ``closed`` lists companies whose marker fell into the Closed box, in order.
    """

    cells: tuple[tuple[str, ...], ...] = ((),) * len(ed.MARKET)
    closed: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if len(self.cells) != len(ed.MARKET):
            raise ValueError(f"market needs {len(ed.MARKET)} cells, got {len(self.cells)}")
        seen = [c for pile in self.cells for c in pile]
        if len(seen) != len(set(seen)):
            raise ValueError("a company has two markers on the market")

    def price(self, company: str) -> int:
        """Current price of ``company``."""
        for i, pile in enumerate(self.cells):
            if company in pile:
                return ed.MARKET[i]
        raise ValueError(f"company {company!r} has no marker on the market")

    def pile(self, price: int) -> tuple[str, ...]:
        """Markers on the ``price`` cell, top first."""
        return self.cells[_index(price)]

    def companies(self) -> tuple[str, ...]:
        return tuple(c for pile in self.cells for c in pile)


def _grid(market: Market) -> Market1812:
    """``market`` as a :class:`.market.Market1812` (the piles in their order)."""
    grid = Market1812()
    for i, pile in enumerate(market.cells):
        for company in pile:
            grid.place(company, 0, 1 + i)
    grid.closed = list(market.closed)
    return grid


def _snapshot(grid: Market1812) -> Market:
    cells = tuple(grid.pile(p) for p in ed.MARKET)
    return Market(cells, tuple(grid.closed))


def place(market: Market, company: str, price: int) -> Market:
    """Put ``company``'s marker on ``price``, under any markers already there (§6.2.1)."""
    if not isinstance(company, str) or not company:
        raise ValueError(f"company must be a non-empty string, got {company!r}")
    if company in market.companies():
        raise ValueError(f"company {company!r} already has a marker on the market")
    _index(price)
    grid = _grid(market)
    grid.place_at(company, price)
    return _snapshot(grid)


def remove(market: Market, company: str) -> Market:
    """Take ``company``'s marker off the chart (§4.2 closure, §8.4 merged minors)."""
    market.price(company)
    grid = _grid(market)
    grid.remove(company)
    return _snapshot(grid)


def move(market: Market, company: str, steps: int, minor: bool = False) -> Market:
    """Move ``company``'s marker ``steps`` spaces (+ up, - down).

    A marker that reaches a new cell goes to the bottom of its pile; one that cannot move
    (at the top, or a minor at £150) keeps its place (§7.3.5).  Falling below £40 closes
    the company: its marker leaves the chart and it is appended to ``closed`` (§4.2).
    The moves are :meth:`.market.Market1812.shift`'s.
    """
    _index(market.price(company))
    steps = whole_number(steps, "steps", None)
    grid = _grid(market)
    grid.shift(company, steps, minor)
    return _snapshot(grid)


def operating_order(market: Market, minors: Iterable[str]) -> tuple[str, ...]:
    """Order of operation (§7): minors by falling price, then public companies; a pile
    operates top first.  ``minors`` names the minors among the markers."""
    minors = set(minors)
    on_chart = market.companies()
    unknown = minors - set(on_chart)
    if unknown:
        raise ValueError(f"minor(s) {sorted(unknown)} have no marker on the market")
    return tuple(_grid(market).order(on_chart, minors))


# ----------------------------------------------------------------------------- dividends
@dataclass(frozen=True)
class MinorPayout:
    """A minor's earnings split (§7.3.5) and its price move in spaces."""

    owner: int
    treasury: int
    steps: int


def _earnings(earnings) -> int:
    earnings = whole_number(earnings, "earnings")
    if earnings % 10:
        # Every 1812 value (cities, towns, red areas, mines, bonuses, doubling) is a
        # multiple of £10, so anything else is a routing error, not a dividend to round.
        raise ValueError(f"earnings must be a multiple of £10 in 1812, got {earnings}")
    return earnings


def minor_dividend(earnings: int) -> MinorPayout:
    """§7.3.5: half to the owner, half to the treasury; up one space if earnings > 0,
    else down one (the £150 cap is applied by :func:`move` with ``minor=True``)."""
    earnings = _earnings(earnings)
    half = earnings // 2
    return MinorPayout(owner=half, treasury=earnings - half, steps=1 if earnings else -1)


@dataclass(frozen=True)
class PublicPayout:
    """A public company's earnings split (§7.3.5).

    ``players`` maps each shareholder to its dividend; ``company`` is what the company's
    treasury receives (the kept part plus dividends on treasury shares); ``bank`` is the
    dividend on Bank Pool shares, which the bank keeps.  ``players + company + bank``
    equals the earnings.
    """

    dividend: int
    per_share: int
    players: Mapping[str, int]
    company: int
    bank: int
    steps: int


def public_dividend(
    earnings: int, kind: str, price: int, holdings: Mapping[str, int]
) -> PublicPayout:
    """Distribute a public company's earnings (§7.3.5).

    Parameters
    ----------
    earnings : int
        The run's value (a multiple of £10).
    kind : {"payout", "half", "withhold"}
        Pay all, pay half rounded up to the next £10 and keep the rest, or keep all.
    price : int
        Current share price (moves up one when ten times the dividend per share reaches it).
    holdings : mapping
        Shares per holder: players, :data:`TREASURY` and :data:`POOL`; they sum to 10.
    """
    earnings = _earnings(earnings)
    _index(price)
    if kind not in ("payout", "half", "withhold"):
        raise ValueError(f"dividend kind must be payout, half or withhold, got {kind!r}")
    held = {str(h): whole_number(n, f"shares held by {h!r}") for h, n in holdings.items()}
    total = sum(held.values())
    if total != ed.PUBLIC_SHARES:
        raise ValueError(f"holdings must sum to {ed.PUBLIC_SHARES} shares, got {total}")
    if kind == "payout":
        dividend = earnings
    elif kind == "half":
        dividend = -(-earnings // 20) * 10  # half, rounded up to the next £10
    else:
        dividend = 0
    per_share = dividend // ed.PUBLIC_SHARES
    players = {
        h: n * per_share for h, n in held.items() if h not in (TREASURY, POOL) and n * per_share
    }
    company = earnings - dividend + held.get(TREASURY, 0) * per_share
    if kind == "withhold" or earnings == 0:
        steps = -1
    else:
        steps = 1 if ed.PUBLIC_SHARES * per_share >= price else 0
    return PublicPayout(dividend, per_share, players, company, held.get(POOL, 0) * per_share, steps)


# ----------------------------------------------------------------------------- shares
def _holdings(holdings: Mapping[str, int]) -> dict[str, int]:
    out = {str(p): whole_number(n, f"shares held by {p!r}") for p, n in holdings.items()}
    if sum(out.values()) > ed.PUBLIC_SHARES:
        raise ValueError(f"players hold {sum(out.values())} shares, more than {ed.PUBLIC_SHARES}")
    return out


def director_after(holdings: Mapping[str, int], director: str, order: Iterable[str]) -> str:
    """The Director after holdings changed (§6.1, §6.2.2).

    Another player takes over only with at least two shares and strictly more than the
    Director; among several, the largest holding, ties to the first in Player Order after
    the Director.
    """
    held = _holdings(holdings)
    order = list(order)
    if director not in order:
        raise ValueError(f"director {director!r} is not in the player order")
    if set(held) - set(order):
        raise ValueError(f"holders {sorted(set(held) - set(order))} are not in the player order")
    mine = held.get(director, 0)
    k = order.index(director)
    after = order[k + 1 :] + order[:k]
    rivals = [p for p in after if held.get(p, 0) >= ed.DIRECTOR_SHARES and held[p] > mine]
    if not rivals:
        return director
    best = max(held[p] for p in rivals)
    return next(p for p in rivals if held[p] == best)


@dataclass(frozen=True)
class SaleResult:
    """Proceeds at the pre-sale price, price move in spaces, and the Director after."""

    proceeds: int
    steps: int
    director: str


def sell_shares(
    *,
    kind: str,
    operated: bool,
    price: int,
    seller: str,
    shares: int,
    holdings: Mapping[str, int],
    director: str,
    pool: int,
    order: Iterable[str],
) -> SaleResult:
    """Sell ``shares`` of a public company to the Bank Pool (§6.1).

    Private companies and minors may not be sold; nor shares of a company that has not yet
    operated; the pool may not exceed 50%; the Director's Certificate never goes to the
    pool (a Director may sell below two shares only if another player then takes over).
    The seller receives the price before any move; the price drops one space if the
    (outgoing) Director sold, whatever the number of shares.
    """
    if kind in ("private", "minor"):
        raise RuleViolation(f"§6.1: {kind} companies may never be sold")
    if kind != "public":
        raise ValueError(f"kind must be 'public', 'private' or 'minor', got {kind!r}")
    _index(price)
    shares = whole_number(shares, "shares", 1)
    pool = whole_number(pool, "pool")
    held = _holdings(holdings)
    if not operated:
        raise RuleViolation("§6.1: the company has not yet completed an operating turn")
    if held.get(seller, 0) < shares:
        raise ValueError(f"seller {seller!r} holds {held.get(seller, 0)} shares, not {shares}")
    if (pool + shares) * 10 > ed.POOL_LIMIT_PERCENT:
        raise RuleViolation(
            f"§6.1: the Bank Pool would hold {(pool + shares) * 10}%, more than 50%"
        )
    held[seller] -= shares
    new_director = director_after(held, director, order)
    if held.get(new_director, 0) < ed.DIRECTOR_SHARES:
        raise RuleViolation("§6.1: the Director's Certificate may never end up in the Bank Pool")
    return SaleResult(price * shares, -1 if seller == director else 0, new_director)


def check_share_purchase(
    *,
    phase,
    buyer_shares: int,
    buyer_certificates: int,
    n_players: int,
    sold_this_round: bool,
    director_owned: bool,
    source: str,
    available: int,
) -> str:
    """Check a Stock Round purchase of one 10% certificate (§6.2.2); return the payee.

    ``source`` is :data:`TREASURY` (the company is paid: incremental capitalisation) or
    :data:`POOL` (the bank is paid); ``available`` is the shares there.
    """
    if phase_number(phase) < int(ed.PUBLIC_SHARES_FROM_PHASE):
        raise RuleViolation("§6.2: public shares may be bought from Phase 3")
    if source not in (TREASURY, POOL):
        raise ValueError(f"source must be {TREASURY!r} or {POOL!r}, got {source!r}")
    if whole_number(buyer_certificates, "buyer_certificates") >= cert_limit(n_players):
        raise RuleViolation("§6.2: the buyer is at the Certificate Limit")
    if whole_number(buyer_shares, "buyer_shares") * 10 >= ed.MAX_BUY_PERCENT:
        raise RuleViolation("§6.2.2: the buyer already owns 60% or more")
    if sold_this_round:
        raise RuleViolation("§6.2.2: the buyer sold this company earlier in this Stock Round")
    if not director_owned:
        raise RuleViolation("§6.2.2: the Director's Certificate is not owned by a player")
    if whole_number(available, "available") < 1:
        raise RuleViolation(f"§6.2.2: no share in the {source}")
    return "company" if source == TREASURY else "bank"


def certificate_count(
    privates: int, minors: int, shares: Mapping[str, int], directorships: Iterable[str] = ()
) -> int:
    """Certificates a player holds (§4.1): a private, a minor charter, the Director's
    Certificate (two shares) and an ordinary share each count one."""
    held = {c: whole_number(n, f"shares of {c!r}") for c, n in shares.items()}
    count = whole_number(privates, "privates") + whole_number(minors, "minors") + sum(held.values())
    for corp in set(directorships):
        if held.get(corp, 0) < ed.DIRECTOR_SHARES:
            raise ValueError(f"director of {corp!r} must hold at least {ed.DIRECTOR_SHARES} shares")
        count -= 1
    return count


def cert_limit(n_players: int) -> int:
    """Certificate limit (§4.1)."""
    return ed.CERT_LIMIT[player_count(n_players)]


def player_order_after_stock(cash: Mapping[str, int], previous: Iterable[str]) -> tuple[str, ...]:
    """New Player Order (§6.3): most cash first; ties keep the previous order."""
    previous = list(previous)
    if sorted(previous) != sorted(cash) or len(set(previous)) != len(previous):
        raise ValueError("cash and previous order must name the same players once each")
    for p, c in cash.items():
        whole_number(c, f"cash of {p!r}", None)
    return tuple(sorted(previous, key=lambda p: (-cash[p], previous.index(p))))


# ----------------------------------------------------------------------------- loans (§7.2)
def loan_limit(kind: str) -> int:
    """Loans a minor (2) or public company (5) may take itself to (§7.2)."""
    return ed.LOAN_LIMIT[company_kind(kind)]


def loans_needed(cash: int, cost: int, loans: int, kind: str) -> int:
    """Fewest loans that let a company with ``cash`` pay ``cost`` (§7.2).

    Each loan adds £50 and costs £5 interest at once (net £45).  Zero when the cash
    suffices; :class:`RuleViolation` when even the loans up to the limit do not.
    """
    cash = whole_number(cash, "cash")
    cost = whole_number(cost, "cost")
    loans = whole_number(loans, "loans")
    if cash >= cost:
        return 0
    net = ed.LOAN_VALUE - ed.LOAN_INTEREST
    need = -(-(cost - cash) // net)
    room = loan_limit(kind) - loans
    if need > room:
        raise RuleViolation(
            f"§7.2: paying {cost} from {cash} needs {need} loans; only {max(room, 0)} allowed"
        )
    return need


def take_loans(cash: int, n: int) -> int:
    """Cash after taking ``n`` loans and paying their first interest (§7.2)."""
    return whole_number(cash, "cash") + whole_number(n, "n") * (ed.LOAN_VALUE - ed.LOAN_INTEREST)


@dataclass(frozen=True)
class InterestResult:
    """After §7.3.6: cash, loans, interest paid, loans taken, price move in spaces."""

    cash: int
    loans: int
    paid: int
    new_loans: int
    steps: int


def pay_interest(cash: int, loans_at_start: int, loans: int, kind: str) -> InterestResult:
    """Pay £5 on each loan held at the start of the turn (§7.3.6).

    Short of cash, the company takes the fewest further loans that cover it (their own
    interest is paid on taking them); if it may not, it pays all its cash and its price
    drops one space.  ``paid`` counts interest on old and new loans alike.
    """
    cash = whole_number(cash, "cash")
    start = whole_number(loans_at_start, "loans_at_start")
    loans = whole_number(loans, "loans")
    if start > loans:
        raise ValueError(f"loans_at_start ({start}) exceeds loans ({loans})")
    owed = start * ed.LOAN_INTEREST
    try:
        n = loans_needed(cash, owed, loans, kind)
    except RuleViolation:
        # A company that may still borrow owes at most 4 x £5 (public) or 1 x £5 (minor),
        # which one loan covers, so "cannot borrow enough" means "cannot borrow at all".
        return InterestResult(0, loans, cash, 0, -1)
    cash = take_loans(cash, n) - owed
    return InterestResult(cash, loans + n, owed + n * ed.LOAN_INTEREST, n, 0)


def repay_loans(cash: int, loans: int) -> tuple[int, int]:
    """§7.3.7: repay as many £50 loans as the cash allows; return (repaid, cash left)."""
    cash = whole_number(cash, "cash")
    n = min(whole_number(loans, "loans"), cash // ed.LOAN_VALUE)
    return n, cash - n * ed.LOAN_VALUE


def check_train_loans(has_train: bool, source: str) -> None:
    """Loans for a train only when trainless and buying from the Bank or Bank Pool (§7.2,
    §7.3.8)."""
    if source not in ("bank", "pool", "company"):
        raise ValueError(f"train source must be 'bank', 'pool' or 'company', got {source!r}")
    if has_train:
        raise RuleViolation("§7.2: only a company without a train may borrow for one")
    if source == "company":
        raise RuleViolation("§7.2: loans may not pay for a train from another company")


# ----------------------------------------------------------------------------- rounds
def next_round(kind: str, number: int, phase) -> tuple[str, int]:
    """Round after ``kind`` number ``number`` in ``phase`` (§2, §5, §8).

    Stock -> Operating 1 -> (Merger 1 from Phase 3) -> Operating 2 -> (Merger 2) -> Stock.
    """
    p = phase_number(phase)
    number = whole_number(number, "number", 1)
    if kind == "stock":
        return ("operating", 1)
    if kind not in ("operating", "merger"):
        raise ValueError(f"round kind must be stock, operating or merger, got {kind!r}")
    if number > ed.OPERATING_ROUNDS_PER_SET:
        raise ValueError(f"round number must be 1-{ed.OPERATING_ROUNDS_PER_SET}, got {number}")
    if kind == "operating" and p >= int(ed.MERGER_FROM_PHASE):
        return ("merger", number)
    if number < ed.OPERATING_ROUNDS_PER_SET:
        return ("operating", number + 1)
    return ("stock", 1)


# ----------------------------------------------------------------------------- game end (§9)
def bank_broken(bank_cash: int) -> bool:
    """The bank has run out of money (§9): nothing left, or IOUs outstanding."""
    return whole_number(bank_cash, "bank_cash", None) <= 0


def bank_pays(bank_cash: int, amount: int) -> tuple[int, int]:
    """Split a payment of ``amount`` into bank cash and IOUs (§9 "Issue players with IOUs")."""
    bank_cash = whole_number(bank_cash, "bank_cash", None)
    amount = whole_number(amount, "amount")
    cash = min(amount, max(bank_cash, 0))
    return cash, amount - cash


def game_ends_after(kind: str, broken: bool) -> bool:
    """Does the game end when this round of ``kind`` finishes (§9)?

    It ends at the end of the first Operating Round completed once the bank has broken:
    the current one if it broke during an OR, else the next one; a bank that becomes
    solvent again does not cancel it (``broken`` stays set).
    """
    if kind not in ("stock", "operating", "merger"):
        raise ValueError(f"round kind must be stock, operating or merger, got {kind!r}")
    return bool(broken) and kind == "operating"


def final_price(price: int, loans: int, minor: bool = False) -> int:
    """End-of-game price: one space down per outstanding loan; the Closed box is 0 (§9)."""
    new = shift_price(price, -whole_number(loans, "loans"), minor)
    return 0 if new is None else new


@dataclass(frozen=True)
class Holdings:
    """What a player owns at the end: cash (IOUs included), private symbols, minor names
    and shares per public company."""

    cash: int
    privates: tuple[str, ...] = ()
    minors: tuple[str, ...] = ()
    shares: Mapping[str, int] = field(default_factory=dict)


_FACE = {c["sym"]: c["value"] for c in data.COMPANIES}


def player_value(holdings: Holdings, prices: Mapping[str, int]) -> int:
    """Net worth (§9): cash + shares at ``prices`` + privates at face value + each minor
    at twice its price.  ``prices`` are final prices (see :func:`final_price`)."""
    total = whole_number(holdings.cash, "cash", None)
    for sym in holdings.privates:
        if sym not in _FACE:
            raise ValueError(f"unknown private company {sym!r}")
        total += _FACE[sym]
    for name in list(holdings.minors) + list(holdings.shares):
        if name not in prices:
            raise ValueError(f"no final price for {name!r}")
        whole_number(prices[name], f"price of {name!r}")
    total += sum(ed.MINOR_SHARES * prices[m] for m in holdings.minors)
    total += sum(
        whole_number(n, f"shares of {c!r}") * prices[c] for c, n in holdings.shares.items()
    )
    return total


def scores(
    players: Mapping[str, Holdings], prices: Mapping[str, int], loans: Mapping[str, int]
) -> tuple[dict[str, int], tuple[str, ...]]:
    """Final values per player and the winner(s) (§9).

    ``prices`` are market prices (0 for a company already closed), ``loans`` outstanding
    loans per company; each price first drops one space per loan (:func:`final_price`).
    """
    final = {c: 0 if p == 0 else final_price(p, loans.get(c, 0)) for c, p in prices.items()}
    unknown = set(loans) - set(prices)
    if unknown:
        raise ValueError(f"loans given for companies without a price: {sorted(unknown)}")
    values = {p: player_value(h, final) for p, h in players.items()}
    if not values:
        raise ValueError("no players to score")
    best = max(values.values())
    return values, tuple(p for p, v in values.items() if v == best)


def all_players_lose(
    open_companies: int, player_privates: int, richest_cash: int, cheapest_start: int
) -> bool:
    """§9: every company closed, no private held by a player and nobody able to start a
    company -- the game ends and everyone loses."""
    return (
        whole_number(open_companies, "open_companies") == 0
        and whole_number(player_privates, "player_privates") == 0
        and whole_number(richest_cash, "richest_cash", None)
        < whole_number(cheapest_start, "cheapest_start")
    )
