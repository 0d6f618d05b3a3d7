"""1862 USA/Canada (Ohley): the economic rules as pure functions.

Everything here is a pure function of its arguments (or a small frozen dataclass); the
game engine keeps the state and calls these.  Facts come from :mod:`.economy_data`; the
initial stock round, the private companies and group availability are in
:mod:`.economy_initial`.  Holders of certificates are any hashable (player names) plus the
bank's :data:`IPO` (initial offering) and :data:`POOL` (bankpool) and the company itself,
:data:`COMPANY` (its redeemed 50 % share).

Rulebook section (``shared/seeds/1862-usa-canada-ohley-rules.txt``) per function:

==============================  ============================================================
:data:`MARKET` moves            Share Price Movement; Share Value Changes; Share Price Changes
:func:`par_position`            Buying Shares (par values by row); Starting a Public Company
:func:`move_after_operating`    Share Price Movement (right if paid, else left; up/down at the end)
:func:`move_after_sale`         Share Price Changes (one row down per sale, not per share)
:func:`move_after_sold_out`     Stock Rounds / Share Value Changes (up one row)
:func:`is_closed`               Share Price Movement; Share Price 0 (the "closed" square)
:func:`ends_game_price`         Ending the Game / Timing (price greater than 379$)
:func:`operating_order`         Operating Round / Sequence (price, then uppermost, then right)
:func:`certificate_price`       Buying Shares (2x/3x president; 5 % rounded up)
:func:`sale`                    Selling Shares (price before/after the move) + Share Price Changes
:func:`sale_refusal`            Selling Shares (exceptions); Purchasing Trains (forced sale)
:func:`holding_limit`           Certificate Limit (60 % / 70 %)
:func:`certificate_limit`       Certificate Limit (table by players and companies); Bankruptcy
:func:`certificate_count`       Certificate Limit (private and public certificates count)
:func:`president_after`         Transfer of Presidency
:func:`may_give_up_presidency`  Transfer of Presidency (voluntary, by selling)
:func:`is_floated`              Starting a Public Company (60 % sold)
:func:`float_capital`           Starting a Public Company (10 x par from the bank)
:func:`distribute_dividend`     Income Reckoning and Payment (5 % rounding, redeemed share)
:func:`debt_for`                Share Redemption (debt certificates, 60/80/90 per 100)
:func:`redeem`                  Share Redemption / Procedure and Example
:func:`debt_settlement`         Ending the Game / General (debt paid back, president tops up)
:func:`closure_settlement`      Share Price 0 (treasury and debt back to the bank)
:func:`bankruptcy_compensation` Bankruptcy (other shareholders paid at current price)
:func:`player_value`            Winning the Game; Bankruptcy (final score less debt)
:func:`game_end_reasons`        Ending the Game / Timing
:func:`final_or_set`            Ending the Game / General ("current set ... completed")
:func:`phase_colour`            Effects of Purchasing New Trains
:func:`operating_rounds`        Stock Rounds / General; Effects of Purchasing New Trains
:func:`train_limit`             Effects of Purchasing New Trains
:func:`phase_after_purchase`    Effects of Purchasing New Trains
:func:`scrapped_by`             Effects of Purchasing New Trains; Purchasing Trains
:func:`trains_for_sale`         Purchasing Trains (in order; E-trains; returned trains)
==============================  ============================================================
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from engine.game.market import Cell, StockGrid
from engine.games.checks import checked_int
from engine.games.g1862 import economy_data as ed

__all__ = [
    "IPO", "POOL", "COMPANY", "Pos", "MARKET", "square", "price_at",
    "par_position", "move_after_operating", "move_after_sale", "move_after_sold_out",
    "is_closed", "ends_game_price", "operating_order",
    "certificate_price", "Sale", "sale", "sale_refusal", "holding_limit",
    "certificate_limit", "certificate_count", "president_after", "may_give_up_presidency",
    "is_floated", "float_capital", "Payout", "distribute_dividend",
    "Cert", "Redemption", "debt_for", "redeem", "debt_settlement", "Closure",
    "closure_settlement", "bankruptcy_compensation", "player_value", "game_end_reasons",
    "final_or_set", "phase_colour", "operating_rounds", "train_limit",
    "phase_after_purchase", "scrapped_by", "trains_for_sale",
]  # fmt: skip

#: The bank's initial offering, the bankpool and the company's own (redeemed) share.
IPO = "ipo"
POOL = "pool"
COMPANY = "company"

Pos = tuple[int, int]


_int = checked_int  # ``value`` as an int (bools refused), at least ``low``


# ============================================================================ stock market
#: The share price index (row 0 is the rulebook's row 1): the engine's
#: :class:`~engine.game.market.StockGrid`, whose two-dimensional moves are the rulebook's
#: (right, else up at the end of a row; left, else down at its start; a move onto a
#: missing square does not happen, which is the "no further adjustments" at the top and
#: bottom rows).  The functions below read it by ``(row, column)`` position.
MARKET = StockGrid(ed.MARKET)


def square(pos: Pos, market: StockGrid = MARKET) -> Cell:
    """The square at ``pos``; ValueError if there is none."""
    if not (isinstance(pos, tuple) and len(pos) == 2 and all(type(x) is int for x in pos)):
        raise ValueError(f"market position must be a (row, column) pair, got {pos!r}")
    found = market.cell(*pos)
    if found is None:
        raise ValueError(f"no market square at row {pos[0]}, column {pos[1]}")
    return found


def price_at(pos: Pos, market: StockGrid = MARKET) -> int:
    """The share price of the square at ``pos``."""
    return square(pos, market).price


def par_position(par: int, market: StockGrid = MARKET) -> Pos:
    """Market square of par value ``par`` (its row per the rulebook's par table)."""
    if par not in ed.PAR_ROWS:
        raise ValueError(f"par value {par!r} is not one of {sorted(ed.PAR_ROWS)}")
    row = ed.PAR_ROWS[par]
    for sq in market.cells[row]:
        if sq is not None and sq.par and sq.price == par:
            return (sq.row, sq.col)
    raise ValueError(f"market has no par square {par} in row {row + 1}")


def move_after_operating(pos: Pos, revenue: int, pays: bool, market: StockGrid = MARKET) -> Pos:
    """Share price after a floated company's turn: right if it pays a dividend, else left.

    A company with no income cannot pay; it "fails to pay a dividend" and falls (literal
    reading, also for a company's first turn, in which it can earn nothing).
    """
    _int(revenue, "revenue")
    if not isinstance(pays, bool):
        raise ValueError(f"pays must be True or False, got {pays!r}")
    if pays and revenue == 0:
        raise ValueError("revenue 0 cannot be paid out as a dividend")
    square(pos, market)
    return market.step(None, "right" if pays else "left", pos)


def move_after_sale(pos: Pos, market: StockGrid = MARKET) -> Pos:
    """One row down for one sale, however many shares it includes."""
    square(pos, market)
    return market.step(None, "down", pos)


def move_after_sold_out(pos: Pos, market: StockGrid = MARKET) -> Pos:
    """End of a stock round, no share left in the initial offering or bankpool: one row up."""
    square(pos, market)
    return market.step(None, "up", pos)


def is_closed(pos: Pos, market: StockGrid = MARKET) -> bool:
    """Is ``pos`` the bottom-left "closed" square (the company is out of the game)?"""
    return square(pos, market).close


def ends_game_price(price: int) -> bool:
    """Does a share price of ``price`` end the game (greater than 379$)?"""
    return _int(price, "price") > ed.GAME_END_PRICE_ABOVE


def operating_order(
    markers: Mapping[str, tuple[Pos, int]], market: StockGrid = MARKET
) -> list[str]:
    """Companies in operating order.

    Parameters
    ----------
    markers : mapping
        Company -> (market position, arrival stamp).  A marker that arrives on an occupied
        square goes underneath, so a smaller stamp lies higher in the stack.

    Highest price first; on one square the uppermost marker first; equal prices on
    different squares: the square further right first.
    """
    arrivals = {}
    for sym, value in markers.items():
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], tuple)):
            raise ValueError(f"marker of {sym!r} must be (position, arrival), got {value!r}")
        pos, stamp = value
        square(pos, market)
        arrivals[sym] = (pos, _int(stamp, f"arrival of {sym!r}", None))
    # the market's own order (StockGrid.operating_order) of the markers stacked as they came
    grid = StockGrid(ed.MARKET)
    for sym, (pos, _stamp) in sorted(arrivals.items(), key=lambda item: item[1][1]):
        grid.place(sym, *pos)
    return grid.operating_order(arrivals)


# ============================================================================ shares
def certificate_price(price: int, percent: int) -> int:
    """Price of a ``percent`` certificate when a 10 % share costs ``price``.

    A 30 % or 20 % president's share costs 3 or 2 times as much, a 5 % share half
    (rounded up).  Any multiple of 5 % is priced the same way (15 % = 1.5 x, rounded up).
    """
    _int(price, "price", 1)
    _int(percent, "percent", 5)
    if percent % 5:
        raise ValueError(f"percent must be a multiple of 5, got {percent}")
    return -(-price * percent // 10)


@dataclass(frozen=True)
class Sale:
    """A sale of some shares of one company to the bankpool."""

    price: int  # per 10 % share, the price the seller gets
    proceeds: int
    position: Pos  # the company's market position after the sale


def sale(pos: Pos, percents: Sequence[int], floated: bool, market: StockGrid = MARKET) -> Sale:
    """Sell ordinary certificates (``percents``, 10 or 5 each) of one company at once.

    The marker moves one row down for the sale; the seller gets the price before the move
    for a floated company, the price after it for one not yet floated.
    """
    if isinstance(percents, int | str) or not percents:
        raise ValueError("percents must be a non-empty list of certificate percentages")
    for p in percents:
        if p not in (5, 10):
            raise ValueError(f"only 10 % and 5 % shares can be sold, got a {p!r} % certificate")
    if not isinstance(floated, bool):
        raise ValueError(f"floated must be True or False, got {floated!r}")
    after = move_after_sale(pos, market)
    price = price_at(pos if floated else after, market)
    return Sale(price, sum(certificate_price(price, p) for p in percents), after)


def sale_refusal(
    *,
    initial_round: bool,
    parred: bool,
    pool_certificates: int,
    selling: int,
    president_share: bool = False,
    forced: bool = False,
    changes_presidency: bool = False,
) -> str | None:
    """Why a sale may not happen (``None``: it may).

    Parameters
    ----------
    initial_round : bool
        It is an initial stock round.
    parred : bool
        The company's president's share has been bought (it has a par value).
    pool_certificates : int
        Certificates of the company in the bankpool now.
    selling : int
        Certificates to sell (each one goes to the bankpool).
    president_share : bool
        The sale includes the president's certificate.
    forced, changes_presidency : bool
        A forced sale (train purchase, debt) that would change any company's presidency.
    """
    _int(pool_certificates, "pool_certificates")
    _int(selling, "selling", 1)
    if initial_round:
        return "no certificate may be sold in an initial stock round"
    if not parred:
        return "the company has no par value yet (its president's share is unsold)"
    if president_share:
        return "a president's share cannot be sold (presidency passes only by the holdings)"
    if pool_certificates + selling > ed.POOL_CERTIFICATE_LIMIT:
        return (
            f"the bankpool may hold at most {ed.POOL_CERTIFICATE_LIMIT} shares of a company "
            f"({pool_certificates} there, {selling} offered)"
        )
    if forced and changes_presidency:
        return "a forced sale may not change the presidency of any company"
    return None


def holding_limit(players: int) -> int:
    """Most percent of one company a player may hold with ``players`` in the game."""
    _int(players, "players", 1)
    return ed.HOLDING_LIMIT_MANY if players >= ed.HOLDING_LIMIT_FEW_BELOW else ed.HOLDING_LIMIT_FEW


def certificate_limit(players: int, companies: int, strict: bool = False) -> int:
    """Certificate limit with ``players`` and ``companies`` still in the game.

    The rulebook's table covers 10-13 companies; below 10 the 10-company row is held
    (``strict=True`` raises instead).  See ``economy_data.CERT_LIMIT_BELOW_TABLE``.
    """
    _int(players, "players", 1)
    _int(companies, "companies", 1)
    if companies > ed.COMPANIES_IN_GAME:
        raise ValueError(f"companies must be at most {ed.COMPANIES_IN_GAME}, got {companies}")
    row = companies
    if row not in ed.CERT_LIMITS:
        if strict:
            raise ValueError(
                f"the rulebook's certificate table has no row for {companies} companies"
            )
        row = min(ed.CERT_LIMITS)
    if players not in ed.CERT_LIMITS[row]:
        raise ValueError(
            f"no certificate limit for {players} players with {companies} companies "
            f"(table columns: {sorted(ed.CERT_LIMITS[row])})"
        )
    return ed.CERT_LIMITS[row][players]


def certificate_count(certificates: Mapping[str, Sequence[int]], privates: int) -> int:
    """Certificates a player holds against the limit: every share certificate (president's
    and 5 % ones each count one) plus every private company still open."""
    _int(privates, "privates")
    total = privates
    for corp, certs in certificates.items():
        for p in certs:
            if not isinstance(p, int) or isinstance(p, bool) or p not in (5, 10, 20, 30):
                raise ValueError(f"{corp}: bad certificate percentage {p!r}")
        total += len(certs)
    return total


def president_after(
    holdings: Mapping[Hashable, int], seat_order: Sequence[Hashable], president: Hashable
) -> Hashable:
    """Who presides after a change in holdings (percent per player).

    The presidency moves only to a player holding strictly more than the president; among
    several such players with the same highest share, the first to the outgoing president's
    left (next in ``seat_order``) takes over.
    """
    if president not in seat_order:
        raise ValueError(f"president {president!r} is not in seat_order")
    for player, pct in holdings.items():
        if player not in seat_order:
            raise ValueError(f"holder {player!r} is not in seat_order")
        _int(pct, f"percent of {player!r}")
    own = holdings.get(president, 0)
    best = max(holdings.values(), default=0)
    if best <= own:
        return president
    i = list(seat_order).index(president)
    n = len(seat_order)
    for k in range(1, n):
        player = seat_order[(i + k) % n]
        if holdings.get(player, 0) == best:
            return player
    raise AssertionError("unreachable: a higher holder exists")


def may_give_up_presidency(
    holdings: Mapping[Hashable, int], president: Hashable, president_percent: int
) -> bool:
    """May the president sell his way out of the presidency?  Only if another player holds
    at least the president's certificate's percentage (30/20 %, 10 % after redemption)."""
    if president_percent not in (10, 20, 30):
        raise ValueError(f"president_percent must be 10, 20 or 30, got {president_percent!r}")
    return any(p != president and pct >= president_percent for p, pct in holdings.items())


def is_floated(ipo_percent: int) -> bool:
    """Has at least 60 % left the initial offering (the company floats the first time)?"""
    _int(ipo_percent, "ipo_percent")
    if ipo_percent > 100:
        raise ValueError(f"ipo_percent must be at most 100, got {ipo_percent}")
    return 100 - ipo_percent >= ed.FLOAT_PERCENT


def float_capital(par: int) -> int:
    """What the bank pays a company that floats: 10 x its par value."""
    if par not in ed.PAR_ROWS:
        raise ValueError(f"par value {par!r} is not one of {sorted(ed.PAR_ROWS)}")
    return ed.CAPITAL_PAR_MULTIPLE * par


# ============================================================================ dividends
def _check_holdings(holdings: Mapping[Hashable, Sequence[int]]) -> bool:
    """Validate a company's holdings; return True if it has redeemed its shares."""
    if not isinstance(holdings, Mapping) or not holdings:
        raise ValueError("holdings must be a non-empty mapping of holder -> certificate percents")
    redeemed = COMPANY in holdings
    if redeemed and list(holdings[COMPANY]) != [ed.COMPANY_REDEEMED_PERCENT]:
        raise ValueError(f"the company's own holding must be [50], got {holdings[COMPANY]!r}")
    allowed = (5, 10) if redeemed else (10, 20, 30)
    presidents = 0
    for holder, certs in holdings.items():
        if isinstance(certs, int | str):
            raise ValueError(f"{holder!r}: certificates must be a list of percents")
        if holder == COMPANY:
            continue
        for p in certs:
            if p not in allowed:
                state = "after" if redeemed else "before"
                raise ValueError(
                    f"{holder!r}: a {p!r} % certificate cannot exist {state} redemption"
                )
            presidents += p in (20, 30)
    total = sum(sum(c) for c in holdings.values())
    if total != 100:
        raise ValueError(f"holdings add up to {total} %, not 100 %")
    if not redeemed and presidents != 1:
        raise ValueError(
            f"holdings must contain one 30 % or 20 % president's share, found {presidents}"
        )
    return redeemed


@dataclass(frozen=True)
class Payout:
    """A dividend shared out.  ``amounts`` has every holder, :data:`IPO` and :data:`POOL`
    included (their part stays in the bank) and :data:`COMPANY` for a redeemed share."""

    revenue: int
    unit: int  # smallest certificate in play: 10 % before redemption, 5 % after
    per_unit: int
    amounts: Mapping[Hashable, int]

    @property
    def bank_pays(self) -> int:
        """Cash leaving the bank: everything but the initial offering's and pool's part."""
        return sum(v for h, v in self.amounts.items() if h not in (IPO, POOL))


def distribute_dividend(revenue: int, holdings: Mapping[Hashable, Sequence[int]]) -> Payout:
    """Share a paid-out ``revenue`` among the certificates of one company.

    Every certificate gets its percentage.  After redemption each 5 % of a non-company
    certificate gets the dividend's 5 % rounded up (the president's 10 % counts as two
    5 %), and the company's 50 % share gets the rest: of 150$, 8$ per 5 % and 70$ to the
    company (§Income Reckoning's example).  Every 1862 income is a multiple of 10$
    (station and off-board values, bonus 20/30 x distance - 10 x hexes), so the 10 %
    shares of an unredeemed company never need rounding; other revenues are refused.
    """
    _int(revenue, "revenue")
    if revenue % 10:
        raise ValueError(f"revenue must be a multiple of 10, got {revenue}")
    redeemed = _check_holdings(holdings)
    unit = 5 if redeemed else 10
    per_unit = -(-revenue * unit // 100)
    amounts = {h: sum(p // unit for p in c) * per_unit for h, c in holdings.items() if h != COMPANY}
    if redeemed:
        amounts[COMPANY] = revenue - (100 - ed.COMPANY_REDEEMED_PERCENT) // unit * per_unit
    return Payout(revenue, unit, per_unit, amounts)


# ============================================================================ redemption, debt
@dataclass(frozen=True)
class Cert:
    """A certificate after redemption."""

    percent: int
    president: bool = False


def debt_for(cost: int, colour: str) -> tuple[int, int]:
    """The smallest debt (in whole 100$) whose payment covers ``cost``: (debt, payment).

    Per 100$ owed at game end the company gets 60$ (green), 80$ (brown), 90$ (gray).
    """
    _int(cost, "cost")
    if colour not in ed.DEBT_PAYMENT_PER_100:
        raise ValueError(f"no share redemption (debt) in phase colour {colour!r}")
    rate = ed.DEBT_PAYMENT_PER_100[colour]
    units = -(-cost // rate)
    return units * ed.DEBT_UNIT, units * rate


@dataclass(frozen=True)
class Redemption:
    """The outcome of a share redemption."""

    cost: int  # cash the company pays the holders (IPO's and pool's part to the bank)
    payments: Mapping[Hashable, int]
    holdings: Mapping[Hashable, tuple[Cert, ...]]  # after; COMPANY holds its 50 % share
    debt: int  # debt certificate(s) taken, owed at game end
    debt_payment: int  # what the bank pays the company for that debt
    treasury_change: int  # debt_payment - cost with debt, -cost without


def redeem(
    price: int,
    holdings: Mapping[Hashable, Sequence[int]],
    colour: str,
    use_debt: bool,
    treasury: int = 0,
) -> Redemption:
    """Buy back half of every share at the current ``price`` (§Share Redemption).

    A 10 % holder gets a 5 % share and 5 %'s worth of cash, the 30 % president a 10 %
    president's share, a 5 % share and 15 %'s worth, the 20 % president a 10 % president's
    share and 10 %'s worth (5 % worths rounded up, as share prices are).  With ``use_debt``
    the company takes the debt whose payment covers the whole cost (the next higher one if
    none is exact) and keeps the excess; without it the treasury must pay.
    """
    _int(price, "price", 1)
    _int(treasury, "treasury")
    if not isinstance(use_debt, bool):
        raise ValueError(f"use_debt must be True or False, got {use_debt!r}")
    if colour not in ed.DEBT_PAYMENT_PER_100:
        raise ValueError(f"share redemption is not possible in the {colour!r} phase")
    if _check_holdings(holdings):
        raise ValueError("the company has already redeemed its shares")
    payments: dict[Hashable, int] = {}
    after: dict[Hashable, tuple[Cert, ...]] = {}
    for holder, certs in holdings.items():
        cash, new = 0, []
        for p in sorted(certs, reverse=True):
            if p == 30:
                new += [Cert(10, True), Cert(5)]
            elif p == 20:
                new.append(Cert(10, True))
            else:
                new.append(Cert(5))
            cash += certificate_price(price, p // 2)
        payments[holder] = cash
        after[holder] = tuple(new)
    after[COMPANY] = (Cert(ed.COMPANY_REDEEMED_PERCENT),)
    cost = sum(payments.values())
    if use_debt:
        debt, paid = debt_for(cost, colour)
        change = paid - cost
    else:
        if treasury < cost:
            raise ValueError(f"treasury {treasury} cannot pay the redemption cost {cost}")
        debt, paid, change = 0, 0, -cost
    return Redemption(cost, payments, after, debt, paid, change)


def debt_settlement(debt: int, treasury: int) -> tuple[int, int]:
    """Debt paid back at game end: (from the treasury, from the president)."""
    _int(debt, "debt")
    _int(treasury, "treasury")
    from_treasury = min(debt, treasury)
    return from_treasury, debt - from_treasury


@dataclass(frozen=True)
class Closure:
    """Money moved when a company reaches the closed square."""

    treasury_to_bank: int  # the whole treasury goes back to the bank
    president_pays: int  # the part of the debt the treasury does not cover


def closure_settlement(treasury: int, debt: int) -> Closure:
    """§Share Price 0: treasury and debt certificates are paid back to the bank at once;
    what the treasury cannot cover of the debt the president pays (else bankruptcy)."""
    _int(treasury, "treasury")
    _int(debt, "debt")
    return Closure(treasury, max(0, debt - treasury))


def bankruptcy_compensation(price: int, holdings: Mapping[Hashable, Sequence[int]]) -> dict:
    """Cash the bank pays each other shareholder of a bankrupt president's company: their
    certificates at the current price (after the bankrupt player's forced sale)."""
    _int(price, "price", 1)
    return {
        h: sum(certificate_price(price, p) for p in certs)
        for h, certs in holdings.items()
        if h not in (IPO, POOL, COMPANY)
    }


def player_value(cash: int, shares: Iterable[tuple[int, int]], debt: int = 0) -> int:
    """A player's final score: cash plus each certificate (price, percent) at its current
    price, less any debt left from a bankruptcy.  Private companies count 0."""
    _int(cash, "cash")
    _int(debt, "debt")
    return cash + sum(certificate_price(price, pct) for price, pct in shares) - debt


def game_end_reasons(
    bank_cash: int, prices: Iterable[int], companies_out: int, players_in: int
) -> tuple[str, ...]:
    """Which game-end conditions hold (empty: none).  Bank cash may be negative."""
    _int(bank_cash, "bank_cash", None)
    _int(companies_out, "companies_out")
    _int(players_in, "players_in")
    reasons = []
    if bank_cash <= 0:
        reasons.append("bank")
    if any(ends_game_price(p) for p in prices):
        reasons.append("share price")
    if companies_out >= ed.GAME_END_COMPANIES_OUT:
        reasons.append("companies out")
    if players_in < ed.GAME_END_PLAYERS_BELOW:
        reasons.append("players")
    return tuple(reasons)


def final_or_set(triggered_in: str) -> str:
    """Which set of operating rounds is the last once the end is triggered.

    The current set is always completed.  A trigger in a stock round (a sold-out rise past
    379$) has no current set; the set after it is played, as 18xx.games' ``:full_or``
    timing does (tobymao/18xx @111f7f69 ``lib/engine/game/base.rb`` ``end_now?``).
    """
    if triggered_in == "operating":
        return "current"
    if triggered_in == "stock":
        return "next"
    raise ValueError(f"triggered_in must be 'operating' or 'stock', got {triggered_in!r}")


# ============================================================================ phases, trains
def phase_colour(phase: str) -> str:
    """Colour of ``phase`` (named by the train that starts it)."""
    if phase not in ed.PHASE_COLOUR:
        raise ValueError(f"unknown phase {phase!r} (phases: {', '.join(ed.PHASE_ORDER)})")
    return ed.PHASE_COLOUR[phase]


def operating_rounds(phase: str) -> int:
    """Operating rounds in the set that follows a stock round ending in ``phase``.

    The number is fixed when the set starts, as 18xx.games does (``base.rb``
    ``next_round!`` sets ``@operating_rounds`` from the phase after the stock round).
    """
    return ed.OPERATING_ROUNDS[phase_colour(phase)]


def train_limit(phase: str) -> int:
    """Trains a company may own in ``phase``."""
    phase_colour(phase)
    return ed.TRAIN_LIMIT[phase]


def _check_train(train: str) -> None:
    if train not in ed.TRAINS:
        raise ValueError(f"unknown train {train!r} (trains: {', '.join(ed.TRAINS)})")


def phase_after_purchase(phase: str, train: str) -> str:
    """Phase after buying a ``train`` from the bank in ``phase`` (a first train of a newer
    series starts its phase; E-trains never change the phase)."""
    phase_colour(phase)
    _check_train(train)
    if train in ed.PHASE_ORDER and ed.PHASE_ORDER.index(train) > ed.PHASE_ORDER.index(phase):
        return train
    return phase


def scrapped_by(phase: str, train: str) -> tuple[str, ...]:
    """Series scrapped when ``train`` is bought in ``phase`` (empty: none).

    Series are bought in order, so one purchase crosses at most one phase; every phase
    crossed is applied all the same.
    """
    new = phase_after_purchase(phase, train)
    crossed = ed.PHASE_ORDER[ed.PHASE_ORDER.index(phase) + 1 : ed.PHASE_ORDER.index(new) + 1]
    return tuple(ed.SCRAPS[p] for p in crossed if p in ed.SCRAPS)


def trains_for_sale(
    bank: Mapping[str, int], phase: str, returned: Mapping[str, int] | None = None
) -> tuple[str, ...]:
    """Trains a company may buy from the bank now.

    Parameters
    ----------
    bank : mapping
        Unsold train cards left per train name.
    phase : str
        Current phase; the series up to it have had their first train bought.
    returned : mapping, optional
        Excess trains given back after a phase change (again for sale at full price).

    New plain trains in order of size (only the smallest series left); each E-train once
    the first train of its series was bought; returned trains as alternatives.
    """
    phase_colour(phase)
    for name, n in bank.items():
        _check_train(name)
        _int(n, f"bank count of {name!r}")
    bought = set(ed.PHASE_ORDER[: ed.PHASE_ORDER.index(phase) + 1])
    out = []
    for series in ed.TRAIN_SERIES:
        if bank.get(series, 0) > 0:
            out.append(series)
            break
    out += [e for e, s in ed.E_TRAINS.items() if s in bought and bank.get(e, 0) > 0]
    scrapped = {ed.SCRAPS[p] for p in bought if p in ed.SCRAPS}
    for name, n in (returned or {}).items():
        _check_train(name)
        _int(n, f"returned count of {name!r}")
        if name in scrapped:
            raise ValueError(f"returned train {name!r} is of a scrapped series")
        if n > 0 and name not in out:
            out.append(name)
    return tuple(out)
