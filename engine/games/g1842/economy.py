"""1842 Hamburg/Schleswig-Holstein: the corporations' economy as pure functions.

Oracle: the rulebook ``../shared/seeds/1842-schleswig-holstein-rules.txt`` (section numbers
as printed); 18xx.games has no 1842.  Facts come from :mod:`.economy_data`, whose stock
market and face values are reconstructed (see ``economy_data.ECONOMY_GUESSES``).  Every public
function validates its input and raises :class:`ValueError` naming the bad item; nothing here
holds state.  Operating-round economics (trains, forced purchase, bankruptcy, tile lays,
tokens, phases) are in :mod:`.economy_ops`; the starting round, private and predecessor
railways in :mod:`.economy_minors`; the HAV in :mod:`.economy_hav`.

=======================================  ====================================================
function                                 rule
=======================================  ====================================================
:func:`price`, :func:`zone`,             8 stock market (a field's value and colour zone)
:func:`start_cell`, :func:`top_right`    3.2 a.5, 3.3.2, 3.4.2, 8, 9 (start fields, end field)
:func:`after_dividend`                   8 dividend: right, up at a row's end
:func:`after_withhold`                   8 no dividend: left, down at a row's start, not blue
:func:`sale_steps`, :func:`after_sale`   8 sale: <= 20% one field down, >= 30% two
:func:`after_stock_round`                8 the 100% rule
:func:`operating_order`                  7.1 (4) highest value first; top token, rightmost
:func:`corporation_starts`,              3.3.2 start at 50% sold, treasury 10x face value
:func:`starting_capital`
:func:`available_corporations`           3.3.1, 4, 11.2 availability chain
:func:`certificate_limit`,               6.3, 6.4, 11.2.3 limits; yellow/brown zones exempt
:func:`certificate_count`,
:func:`holding_limit_applies`
:func:`sell_refusal`,                    6.1, 6.2, 6.3 what a stock-round turn allows
:func:`buy_refusal`
:func:`pay_dividend`                     3.3.4, 7.4.3 payout: pool to treasury, IPO to none
:func:`director_after`,                  3.3.6 change of director, ties to the old
:func:`director_swap`,                   director's left; the swap; selling the
:func:`director_certificate_sale`        director certificate
:func:`priority_after`                   6.1, 6.2 priority deal: left of the last buyer
:func:`game_end_reason`,                 9 end conditions and when the game stops;
:func:`game_end_timing`,                 final value (an assumption: cash plus shares
:func:`player_value`                     at market value)
:func:`parse_options`                    11.x and "10.3 HAV simplified" as game options
:func:`shares_of`                        2, 3.3.1 certificates of a corporation
=======================================  ====================================================
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from engine.game.market import StockGrid
from engine.games.checks import whole_number
from engine.games.g1842 import economy_data as ed

__all__ = [
    "Cell", "Grid1842", "price", "zone", "start_cell", "top_right", "after_dividend",
    "after_withhold",
    "sale_steps", "after_sale", "after_stock_round", "operating_order", "corporation_starts",
    "starting_capital", "available_corporations", "certificate_limit", "certificate_count",
    "holding_limit_applies", "sell_refusal", "buy_refusal", "Payout", "pay_dividend",
    "director_after", "director_swap", "DirectorSale", "director_certificate_sale",
    "priority_after", "game_end_reason", "game_end_timing", "player_value", "parse_options",
    "shares_of",
]


# ----------------------------------------------------------------------------- validation
def share_percent(value, name: str) -> int:
    whole_number(value, name)
    if value % 10 or value > 100:
        raise ValueError(f"{name} must be a multiple of 10 between 0 and 100, got {value}")
    return value


def known_corporation(corp, name: str = "corporation") -> str:
    if corp not in ed.FACE_VALUE:
        raise ValueError(f"unknown {name} {corp!r} (known: {', '.join(ed.FACE_VALUE)})")
    return corp


def known_phase(phase) -> str:
    if phase not in ed.PHASE_COLOUR:
        raise ValueError(f"unknown phase {phase!r} (phases: {', '.join(ed.PHASE_COLOUR)})")
    return phase


def shares_of(corp: str) -> tuple[int, ...]:
    """Certificates of ``corp`` in stack order, director's first (2, 3.3.1; ``data``)."""
    known_corporation(corp)
    for c in ed.CORPORATIONS:
        if c["sym"] == corp:
            return tuple(c["shares"])
    raise ValueError(f"corporation {corp!r} has no share structure")  # pragma: no cover


# ----------------------------------------------------------------------------- market
@dataclass(frozen=True, order=True)
class Cell:
    """A stock-market field: ``row`` 0 is the top row, ``col`` 0 the leftmost field."""

    row: int
    col: int


class Grid1842(StockGrid):
    """The 1842 stock market (8) on :class:`~engine.game.market.StockGrid`: cells are
    :data:`.economy_data.MARKET` with the zones of :data:`.economy_data.MARKET_ZONES` as
    their types; only the HAV may enter a blue field, and a right move with no field to
    enter goes one up, as from a row's last field (8)."""

    GAP_RIGHT = "up"

    def __init__(self) -> None:
        super().__init__(ed.MARKET, {k: v for k, v in ed.MARKET_ZONES.items() if k})
        for r, row in enumerate(ed.MARKET):
            if r and len(row) > len(ed.MARKET[r - 1]):
                raise ValueError(f"MARKET row {r} is longer than the row above it")

    def may_enter(self, sym: str | None, row: int, col: int) -> bool:
        """A field a token may enter: on the board and, unless it is the HAV's, not blue."""
        cell = self.cell(row, col)
        return cell is not None and (sym == ed.HAV or "blue" not in cell.types)

    def zone_at(self, row: int, col: int) -> str:
        types = self.cells[row][col].types
        return types[0] if types else ed.MARKET_ZONES[""]


@lru_cache(maxsize=1)
def _grid() -> Grid1842:
    """The market's geometry (no tokens on it)."""
    return Grid1842()


def _cell(cell) -> Cell:
    if not isinstance(cell, Cell):
        raise ValueError(f"cell must be a Cell, got {cell!r}")
    if _grid().cell(cell.row, cell.col) is None:
        raise ValueError(f"cell {cell} is not on the stock market")
    return cell


def _token(hav: bool) -> str | None:
    """The token whose moves are asked for: the HAV's, or any corporation's."""
    return ed.HAV if hav else None


def price(cell: Cell) -> int:
    """Value of a market field (8)."""
    _cell(cell)
    return _grid().cells[cell.row][cell.col].price


def zone(cell: Cell) -> str:
    """Zone of a field: plain, start (red), yellow, brown, blue (HAV only) or end (6.4, 8)."""
    _cell(cell)
    return _grid().zone_at(cell.row, cell.col)


def start_cell(corp: str) -> Cell:
    """Where ``corp``'s token enters: the red field of its face value; the HAV's 30 (3.4.2, 8)."""
    known_corporation(corp)
    for r, row in enumerate(ed.MARKET):
        for c, text in enumerate(row):
            if corp == ed.HAV and text.endswith("h"):
                return Cell(r, c)
            if corp != ed.HAV and text.endswith("p") and int(text[:-1]) == ed.FACE_VALUE[corp]:
                return Cell(r, c)
    raise ValueError(f"no start field for {corp!r} at {ed.FACE_VALUE[corp]}")


def top_right() -> Cell:
    """The top-right field: a token reaching it ends the game (9)."""
    return Cell(0, len(_grid().cells[0]) - 1)


def _step(cell: Cell, direction: str, hav: bool) -> Cell:
    return Cell(*_grid().step(_token(hav), direction, (cell.row, cell.col)))


def after_dividend(cell: Cell, hav: bool = False) -> Cell:
    """A dividend was paid: one field right; from a row's last field one up (8)."""
    return _step(_cell(cell), "right", hav)


def after_withhold(cell: Cell, hav: bool = False) -> Cell:
    """No dividend: one field left; from a row's first field one down, never into blue (8)."""
    return _step(_cell(cell), "left", hav)


def sale_steps(percent: int) -> int:
    """Fields down for one sale of ``percent`` of one corporation: 1 up to 20%, else 2 (8)."""
    share_percent(percent, "percent sold")
    if percent == 0:
        raise ValueError("percent sold must be positive")
    return 1 if percent <= ed.SALE_ONE_STEP_MAX else 2


def after_sale(cell: Cell, percent: int, hav: bool = False) -> Cell:
    """After one sale: down :func:`sale_steps` fields, stopping at the column's foot (8)."""
    _cell(cell)
    for _ in range(sale_steps(percent)):
        cell = _step(cell, "down", hav)
    return cell


def after_stock_round(cell: Cell, player_percent: int, hav: bool = False) -> Cell:
    """The 100% rule: all shares held by players at a stock round's end -> one up (8)."""
    _cell(cell)
    full = share_percent(player_percent, "player_percent") == 100
    return _step(cell, "up", hav) if full else cell


def operating_order(tokens: Mapping[str, tuple[Cell, int]]) -> tuple[str, ...]:
    """Corporations in operating order (7.1 step 4).

    Parameters
    ----------
    tokens : mapping
        Corporation -> (field, place in the field's stack, 0 = top).  A token entering an
        occupied field goes to the bottom of the stack (8).

    Returns
    -------
    tuple of str
        Highest value first; equal values: the rightmost field first, then the top token.
    """
    places = {}
    for corp, entry in tokens.items():
        known_corporation(corp)
        if not (isinstance(entry, tuple) and len(entry) == 2):
            raise ValueError(f"{corp}: token must be (Cell, stack index), got {entry!r}")
        cell, depth = entry
        places[corp] = (_cell(cell), whole_number(depth, f"{corp} stack index"))
    if len(set(places.values())) < len(places):
        raise ValueError("two tokens share a field and a stack index")
    # the market's own order (StockGrid.operating_order) of the tokens stacked as given
    grid = Grid1842()
    for corp, (cell, _depth) in sorted(places.items(), key=lambda item: item[1][1]):
        grid.place(corp, cell.row, cell.col)
    return tuple(grid.operating_order(places))


# ----------------------------------------------------------------------------- corporations
def corporation_starts(sold_percent: int) -> bool:
    """A corporation starts once 50% of it is sold (3.3.2; the HAV floats alike, 3.4.2)."""
    return share_percent(sold_percent, "sold_percent") >= ed.START_PERCENT


def starting_capital(corp: str) -> int:
    """Treasury handed over at the start: 10x the face value of a 10% share (3.3.2).

    The HAV receives no money (3.4); SE and HMBG start by transformation (3.2 a.6:
    :func:`.economy_minors.transform_predecessor`).
    """
    known_corporation(corp)
    if corp == ed.HAV:
        return 0
    return ed.CAPITAL_MULTIPLE * ed.FACE_VALUE[corp]


def parse_options(options: Iterable[str] = ()) -> frozenset[str]:
    """Validate game options (11.1, 11.2, "10.3 HAV simplified")."""
    if isinstance(options, str):
        raise ValueError("options must be a list of option names, not a string")
    out = set()
    for opt in options:
        if opt not in ed.OPTIONS:
            raise ValueError(f"unknown 1842 option {opt!r} (known: {', '.join(ed.OPTIONS)})")
        out.add(opt)
    return frozenset(out)


def available_corporations(
    *,
    package_sold: bool,
    sold_percent: Mapping[str, int],
    last_four_train_sold: bool,
    started: Iterable[str] = (),
    options: Iterable[str] = (),
) -> tuple[str, ...]:
    """Corporations whose shares are on sale (3.3.1, 4, 11.2; the HAV always, 3.4.1).

    ``sold_percent`` maps a corporation to the percentage sold from the initial offering
    (missing = 0).  UEE and FKE exist only with ``additional_corporations`` (11.2).
    """
    opts = parse_options(options)
    started = set(started)
    for corp in (*sold_percent, *started):
        known_corporation(corp)
    for corp, pct in sold_percent.items():
        share_percent(pct, f"sold_percent[{corp}]")
    out = []
    for corp, (kind, *arg) in ed.AVAILABILITY.items():
        if corp in ("UEE", "FKE") and "additional_corporations" not in opts:
            continue
        if kind == "package":
            ok = bool(package_sold)
        elif kind == "sold":
            ok = sold_percent.get(arg[0], 0) >= ed.START_PERCENT
        elif kind == "train":
            ok = bool(last_four_train_sold)
        elif kind == "started":
            ok = arg[0] in started
        else:
            ok = True
        if ok:
            out.append(corp)
    return tuple(out)


# ----------------------------------------------------------------------------- certificates
def certificate_limit(players: int, options: Iterable[str] = ()) -> int:
    """Certificate limit (6.3; 11.2.3 with the additional corporations)."""
    whole_number(players, "players")
    table = (
        ed.CERT_LIMIT_WITH_UEE_FKE
        if "additional_corporations" in parse_options(options)
        else ed.CERT_LIMIT
    )
    if players not in table:
        raise ValueError(f"1842 is for {min(table)}-{max(table)} players, got {players}")
    return table[players]


def certificate_count(
    certificates: Mapping[str, Sequence[int]],
    cells: Mapping[str, Cell],
    minors: int = 0,
) -> int:
    """Certificates counting against a player's limit (6.3, 6.4).

    Parameters
    ----------
    certificates : mapping
        Corporation -> the percentages of the certificates the player holds (a 20%
        certificate counts as one).
    cells : mapping
        Corporation -> its market field; a corporation without one (not started) counts.
    minors : int
        Private and predecessor railways the player owns (each counts one).
    """
    count = whole_number(minors, "minors")
    for corp, certs in certificates.items():
        known_corporation(corp)
        for pct in certs:
            if share_percent(pct, f"{corp} certificate") not in (10, 20):
                raise ValueError(f"{corp} certificate must be 10 or 20%, got {pct}")
        cell = cells.get(corp)
        if cell is None or zone(cell) not in ("yellow", "brown"):
            count += len(certs)
    return count


def holding_limit_applies(cell: Cell | None) -> bool:
    """Whether the 60% limit binds: not while the token is in the brown zone (6.4)."""
    return cell is None or zone(cell) != "brown"


def sell_refusal(
    *,
    started: bool,
    first_stock_round: bool,
    bought_this_turn: bool,
    percent: int,
    pool_percent: int,
    director_certificate: bool = False,
    others_max_percent: int = 0,
) -> str | None:
    """Why a player may not sell these certificates of one corporation now (6.1, 6.2, 3.3.6).

    Returns None when the sale is allowed.  ``percent`` is the sale's size,
    ``pool_percent`` the pool's holding before it, ``others_max_percent`` the largest holding
    of another player (a director certificate goes to such a player, 3.3.6).
    """
    share_percent(percent, "percent")
    share_percent(pool_percent, "pool_percent")
    share_percent(others_max_percent, "others_max_percent")
    if percent == 0:
        raise ValueError("percent must be positive")
    if first_stock_round:
        return "no certificates may be sold in the first stock round (6.1)"
    if not started:
        return "the corporation has not started (6.2)"
    if bought_this_turn:
        return "a certificate bought this turn may be sold from the next turn on (6.2)"
    if pool_percent + percent > ed.POOL_LIMIT:
        return f"the pool would hold {pool_percent + percent}% > {ed.POOL_LIMIT}% (6.2)"
    if director_certificate and others_max_percent < 20:
        return "the director certificate needs another player holding 20% (3.3.6, 6.2)"
    return None


def buy_refusal(
    *,
    available: bool,
    sold_this_round: bool,
    holding_percent: int,
    certificate_percent: int,
    cell: Cell | None,
    certificate_count: int,
    players: int,
    options: Iterable[str] = (),
) -> str | None:
    """Why a player may not buy this certificate now (6.2, 6.3, 6.4); None if allowed.

    ``cell`` is the corporation's market field (None before it starts);
    ``certificate_count`` the player's count from :func:`certificate_count`.
    """
    share_percent(holding_percent, "holding_percent")
    if share_percent(certificate_percent, "certificate_percent") not in (10, 20):
        raise ValueError(f"certificate_percent must be 10 or 20, got {certificate_percent}")
    whole_number(certificate_count, "certificate_count")
    if not available:
        return "the corporation's shares are not available yet (3.3.1)"
    if sold_this_round:
        return "the player sold this corporation in this stock round (6.2)"
    if holding_limit_applies(cell) and holding_percent + certificate_percent > ed.HOLDING_LIMIT:
        return f"the player would hold more than {ed.HOLDING_LIMIT}% (6.3)"
    exempt = cell is not None and zone(cell) in ("yellow", "brown")
    if not exempt and certificate_count >= certificate_limit(players, options):
        return "the player has reached the certificate limit (6.3)"
    return None


# ----------------------------------------------------------------------------- dividends
@dataclass(frozen=True)
class Payout:
    """A corporation's payout (3.3.4, 7.4.3).

    ``to_holders`` is paid by the bank to players; ``to_treasury`` (pool shares, plus any
    revenue left after whole Marks per 10%) to the corporation; ``unpaid`` is the IPO
    shares' part, which the bank keeps.  The three always sum to the revenue.
    """

    per_share: int
    to_holders: Mapping[str, int]
    to_treasury: int
    unpaid: int


def pay_dividend(
    revenue: int, holders: Mapping[str, int], pool_percent: int, ipo_percent: int
) -> Payout:
    """Pay ``revenue`` out: each 10% earns revenue / 10 (3.3.4, 7.4.3).

    Revenues are multiples of 10 on this board; should one not be, each 10% earns the
    whole Marks and the remainder stays in the treasury (our reading: the rulebook is
    silent).
    """
    whole_number(revenue, "revenue")
    total = share_percent(pool_percent, "pool_percent") + share_percent(ipo_percent, "ipo_percent")
    for who, pct in holders.items():
        total += share_percent(pct, f"holders[{who!r}]")
    if total != 100:
        raise ValueError(f"holdings must sum to 100%, got {total}%")
    per = revenue // 10
    paid = {who: per * pct // 10 for who, pct in holders.items() if pct}
    to_treasury = per * pool_percent // 10 + revenue - 10 * per
    return Payout(per, paid, to_treasury, per * ipo_percent // 10)


# ----------------------------------------------------------------------------- directors
def seat_order_from(seats: Sequence[str], player: str) -> list[str]:
    """Players to the left of ``player`` in seating order (``player`` itself last)."""
    i = list(seats).index(player)
    return [seats[(i + k) % len(seats)] for k in range(1, len(seats) + 1)]


def check_seats(seats: Sequence[str], *players: str) -> None:
    if len(set(seats)) != len(seats) or not seats:
        raise ValueError(f"seats must list distinct players, got {list(seats)!r}")
    for p in players:
        if p not in seats:
            raise ValueError(f"player {p!r} is not seated ({list(seats)!r})")


def director_after(percents: Mapping[str, int], seats: Sequence[str], director: str) -> str:
    """The director after a change of holdings (3.3.6).

    The director stays unless another player holds strictly more; among several with the
    same largest holding, the first to the old director's left takes over.
    """
    check_seats(seats, director, *percents)
    for p, pct in percents.items():
        share_percent(pct, f"percents[{p!r}]")
    best = max(percents.values(), default=0)
    if best <= percents.get(director, 0):
        return director
    for p in seat_order_from(seats, director):
        if percents.get(p, 0) == best:
            return p
    raise AssertionError("unreachable")  # pragma: no cover


def director_swap(new_director_certificates: Sequence[int]) -> tuple[int, ...]:
    """Certificates the new director hands over for the 20% director certificate (3.3.6).

    "Two ordinary shares": two 10% certificates when held, else one 20% certificate.
    """
    certs = list(new_director_certificates)
    for pct in certs:
        if pct not in (10, 20):
            raise ValueError(f"ordinary certificates are 10 or 20%, got {pct!r}")
    if certs.count(10) >= 2:
        return (10, 10)
    if 20 in certs:
        return (20,)
    raise ValueError(f"certificates {certs} cannot make up 20% for the director certificate")


@dataclass(frozen=True)
class DirectorSale:
    """The director certificate sold through another player (3.3.6, last paragraph)."""

    new_director: str
    to_pool_percent: int
    proceeds: int


def director_certificate_sale(
    percents: Mapping[str, int], seats: Sequence[str], director: str, share_price: int
) -> DirectorSale:
    """The director sells the director certificate (3.3.6).

    Another player holding 20% or more takes it (the largest holding; ties to the old
    director's left) and puts 20% of ordinary certificates into the pool; the bank pays the
    old director their stock value.
    """
    check_seats(seats, director, *percents)
    whole_number(share_price, "share_price", 1)
    others = {p: share_percent(v, f"percents[{p!r}]") for p, v in percents.items() if p != director}
    best = max(others.values(), default=0)
    if best < 20:
        raise ValueError("no other player holds 20%: the director certificate cannot be sold")
    for p in seat_order_from(seats, director):
        if others.get(p) == best:
            return DirectorSale(p, 20, 2 * share_price)
    raise AssertionError("unreachable")  # pragma: no cover


def priority_after(seats: Sequence[str], last_buyer: str) -> str:
    """The priority deal goes to the player left of the last buyer (6.1, 6.2)."""
    check_seats(seats, last_buyer)
    return seat_order_from(seats, last_buyer)[0]


# ----------------------------------------------------------------------------- game end
def game_end_reason(cells: Iterable[Cell], bank_cash: int, round_kind: str) -> str | None:
    """Which end condition (9) holds, if any: ``top_right``, ``bank_broken_or`` or
    ``bank_broken_sr``.  ``round_kind`` is ``"operating"`` or ``"stock"``; the bank is broken
    when it has no money left (``bank_cash <= 0``; it may go negative, 9)."""
    if round_kind not in ("operating", "stock"):
        raise ValueError(f"round_kind must be 'operating' or 'stock', got {round_kind!r}")
    if not isinstance(bank_cash, int) or isinstance(bank_cash, bool):
        raise ValueError(f"bank_cash must be an integer, got {bank_cash!r}")
    end = top_right()
    if any(_cell(c) == end for c in cells):
        return "top_right"
    if bank_cash <= 0:
        return "bank_broken_or" if round_kind == "operating" else "bank_broken_sr"
    return None


def game_end_timing(reason: str) -> str:
    """When the game stops after ``reason`` (9): ``current_or``, ``current_set`` or
    ``one_more_set``."""
    if reason not in ed.GAME_END:
        raise ValueError(f"unknown end reason {reason!r} (known: {', '.join(ed.GAME_END)})")
    return ed.GAME_END[reason]


def player_value(cash: int, holdings: Mapping[str, int], cells: Mapping[str, Cell]) -> int:
    """A player's final value: cash plus each holding at market value.

    The rulebook names no scoring (9); this is the usual 18xx reckoning (an assumption).
    The HAV's shares count at its market value (30 M under the simplified HAV, whose
    token stays on the 30 field).
    """
    total = whole_number(cash, "cash", None)
    for corp, pct in holdings.items():
        known_corporation(corp)
        if share_percent(pct, f"{corp} percent") and corp not in cells:
            raise ValueError(f"{corp}: no market field for a held share")
        if pct:
            total += pct // 10 * price(cells[corp])
    return total
