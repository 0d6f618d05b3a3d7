"""1842: the Hamburg-Altonaer-Verbindungsbahn (HAV) as pure functions.

Companion of :mod:`.economy` (same conventions: the rulebook
``../shared/seeds/1842-schleswig-holstein-rules.txt`` is the oracle, section numbers as
printed; every function validates its input and raises :class:`ValueError` naming the bad
item).  The HAV owns no train and no station: it builds the tiles of Hamburg (L10) and
Harburg (M9) with building tokens, earns 10 M from the bank for every route of another
company through a Hamburg station and pays its whole treasury out.

=======================================  ====================================================
function                                 rule
=======================================  ====================================================
:func:`hav_income`                       3.4.2.2 10 M per route through Hamburg
:func:`hav_dividend`                     3.4.2.2 payout rounded down to 5 M per 10% among the
                                         purchased shares; pool shares' part to the bank;
                                         the rest stays in the treasury
:func:`hav_simplified_dividend`          "10.3 HAV simplified" (as printed): 5 M per share
:func:`hav_after_operating`              3.4.1, 3.4.2.2, 8 price move (none if simplified)
:func:`hav_ipo_purchase`                 3.4 one building token per 10% from the offering
:func:`hav_buy_refusal`,                 3.4.1, 7.5 who may trade HAV certificates, when
:func:`hav_sell_refusal`
:func:`hav_sale`                         7.5, 8 proceeds and price of a HAV sale
:func:`hav_build_options`,               3.4.2.1 what the HAV may build: first the Hamburg
:func:`hav_must_build`,                  tile linking Harburg; 2 tokens per tile; grey
:func:`hav_build`                        5028/5029 on brown Hamburg (free) once Harburg is
                                         brown; it must build when it can (not the grey)
:func:`hav_grey_tile`                    3.4.2.1 what 5028 and 5029 change
=======================================  ====================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engine.games.g1842 import data
from engine.games.g1842 import economy_data as ed
from engine.games.g1842.economy import (
    Cell,
    after_dividend,
    after_sale,
    after_withhold,
    price,
    share_percent,
    whole_number,
)
from engine.games.g1842.economy_ops import phase_colour

__all__ = [
    "hav_income", "HavDividend", "hav_dividend", "hav_simplified_dividend",
    "hav_after_operating", "hav_ipo_purchase", "hav_buy_refusal", "hav_sell_refusal",
    "hav_sale", "HavBuild", "hav_build_options", "hav_must_build", "hav_build",
    "hav_grey_tile",
]

_NEXT_COLOUR = {"yellow": "green", "green": "brown"}


def hav_income(routes: int) -> int:
    """The bank pays the HAV 10 M per route of another company that includes one or more
    Hamburg stations (3.4.2.2); :func:`.rules.hav_routes` counts them from a solution."""
    return ed.HAV_PER_ROUTE * whole_number(routes, "routes")


@dataclass(frozen=True)
class HavDividend:
    """A HAV payout (3.4.2.2).

    ``to_holders`` (corporations, and players from the brown phase) and ``to_bank`` (the
    pool shares) are paid from the HAV treasury; ``retained`` stays there.  ``paid`` says
    whether a dividend was paid (the token moves right) or not (left).
    """

    per_share: int
    to_holders: Mapping[str, int]
    to_bank: int
    retained: int
    paid: bool


def _holdings(holders: Mapping[str, int], pool_percent: int, ipo_percent: int) -> int:
    total = share_percent(pool_percent, "pool_percent") + share_percent(ipo_percent, "ipo_percent")
    for who, pct in holders.items():
        total += share_percent(pct, f"holders[{who!r}]")
    if total != 100:
        raise ValueError(f"HAV holdings must sum to 100%, got {total}%")
    purchased = 100 - ipo_percent
    if purchased == 0:
        raise ValueError("no HAV share has been purchased")
    return purchased // 10


def hav_dividend(
    treasury: int, holders: Mapping[str, int], pool_percent: int, ipo_percent: int
) -> HavDividend:
    """Pay the HAV treasury out among the purchased shares (3.4.2.2).

    Each purchased 10% (held or in the pool) earns treasury / purchased tenths rounded
    down to a multiple of 5 M; unsold shares earn nothing; the pool's part goes to the bank;
    the remainder stays in the treasury.  A treasury too small for 5 M per share pays
    nothing (our reading: then no dividend is paid and the token moves left).
    """
    whole_number(treasury, "treasury")
    tenths = _holdings(holders, pool_percent, ipo_percent)
    step = ed.HAV_DIVIDEND_ROUNDING
    per = treasury // tenths // step * step
    to_holders = {who: per * pct // 10 for who, pct in holders.items() if pct}
    to_bank = per * pool_percent // 10
    retained = treasury - sum(to_holders.values()) - to_bank
    return HavDividend(per, to_holders, to_bank, retained, per > 0)


def hav_simplified_dividend(
    holders: Mapping[str, int], pool_percent: int, ipo_percent: int
) -> HavDividend:
    """"10.3 HAV simplified" (as printed): the bank pays 5 M per 10% held, whatever the
    routes; the HAV has no money, so nothing is retained (pool shares: the bank would pay
    itself)."""
    _holdings(holders, pool_percent, ipo_percent)
    per = ed.HAV_SIMPLIFIED_PER_SHARE
    return HavDividend(per, {w: per * p // 10 for w, p in holders.items() if p}, 0, 0, True)


def hav_after_operating(cell: Cell, paid: bool, simplified: bool = False) -> Cell:
    """The HAV's token after its payout: right if paid, left if not, by the normal rules in
    the whole market including the blue area (3.4.1, 8); under the simplified HAV it stays
    on its 30 field (10.3 as printed)."""
    if simplified:
        price(cell)  # validates
        return cell
    return after_dividend(cell, hav=True) if paid else after_withhold(cell, hav=True)


def hav_ipo_purchase(certificate_percent: int, box_tokens: int) -> tuple[int, int]:
    """(box after, tokens gained): a HAV certificate from the initial offering moves one
    building token per 10% from the "Building Token" box to the HAV (3.4).

    Our reading: the box must hold tokens for the whole certificate (the rulebook says
    only that an empty box stops sales).
    """
    if share_percent(certificate_percent, "certificate_percent") not in (10, 20):
        raise ValueError(f"HAV certificates are 10 or 20%, got {certificate_percent}")
    whole_number(box_tokens, "box_tokens")
    need = certificate_percent // 10
    if box_tokens < need:
        raise ValueError(f"the building-token box holds {box_tokens}, the certificate needs {need}")
    return box_tokens - need, need


def hav_buy_refusal(
    *,
    buyer: str,
    phase: str,
    corporations_started: int,
    bought_this_turn: bool = False,
    sold_this_turn: bool = False,
    from_ipo: bool,
    certificate_percent: int = 10,
    box_tokens: int = 0,
) -> str | None:
    """Why ``buyer`` (``"corporation"`` in its operating turn or ``"player"`` in a stock
    round) may not buy a HAV certificate now; None if it may (3.4, 3.4.1, 7.5).

    Corporations trade once three corporations have started; each buys at most one per
    turn and, by 3.4.1's "or", not in a turn in which it sold.  Players buy from the brown
    phase on.  From the offering the box must hold the tokens (:func:`hav_ipo_purchase`).
    """
    colour = phase_colour(phase)
    whole_number(corporations_started, "corporations_started")
    if buyer == "player":
        if colour in ("yellow", "green"):
            return "players may buy HAV certificates from the brown phase on (3.4.1)"
    elif buyer == "corporation":
        if corporations_started < ed.HAV_TRADING_AFTER_STARTED:
            return "HAV certificates are traded once three corporations have started (7.5)"
        if bought_this_turn:
            return "a corporation buys at most one HAV certificate per turn (3.4.1, 7.5)"
        if sold_this_turn:
            return "a corporation buys or sells HAV certificates in a turn, not both (3.4.1)"
    else:
        raise ValueError(f"buyer must be 'corporation' or 'player', got {buyer!r}")
    if from_ipo:
        try:
            hav_ipo_purchase(certificate_percent, box_tokens)
        except ValueError as exc:
            return f"{exc} (3.4)"
    return None


def hav_sell_refusal(
    *, percent: int, pool_percent: int, bought_this_turn: bool = False
) -> str | None:
    """Why a corporation may not sell these HAV certificates; None if it may: any number,
    but the pool never above 50% (7.5), and not in a turn it bought one (3.4.1 "or")."""
    if share_percent(percent, "percent") == 0:
        raise ValueError("percent must be positive")
    share_percent(pool_percent, "pool_percent")
    if bought_this_turn:
        return "a corporation buys or sells HAV certificates in a turn, not both (3.4.1)"
    if pool_percent + percent > ed.POOL_LIMIT:
        return f"the pool would hold {pool_percent + percent}% of the HAV > {ed.POOL_LIMIT}% (7.5)"
    return None


def hav_sale(cell: Cell, percent: int, simplified: bool = False) -> tuple[int, Cell]:
    """(proceeds, field after): HAV certificates sold to the pool at the current value,
    the token then moving by the sale rule of 8 (3.4.1); fixed at 30 if simplified."""
    if share_percent(percent, "percent") == 0:
        raise ValueError("percent must be positive")
    if simplified:
        return percent // 10 * ed.HAV_START_PRICE, cell
    return percent // 10 * price(cell), after_sale(cell, percent, hav=True)


@dataclass(frozen=True)
class HavBuild:
    """One tile the HAV may lay: the hex, the new tile colour and the tokens it costs."""

    hex: str
    colour: str
    tokens: int


def _phase_tiles(phase: str) -> set[str]:
    phase_colour(phase)  # validates
    for p in data.PHASES:
        if p["name"] == phase:
            return {"grey" if t == "gray" else t for t in p["tiles"]}
    raise ValueError(f"phase {phase!r} has no tile colours")  # pragma: no cover


def hav_build_options(
    tokens: int, phase: str, hamburg: str | None, harburg: str
) -> tuple[HavBuild, ...]:
    """What the HAV may build this turn (3.4.2.1).

    Parameters
    ----------
    tokens : int
        Building tokens on the HAV charter.
    hamburg : str or None
        Colour of the Hamburg tile (None while the printed hex has none).
    harburg : str
        Colour of Harburg (printed yellow).

    Notes
    -----
    The first tile links Hamburg to Harburg, so it is a yellow Hamburg tile; after it the
    yellow phase leaves nothing to build (3.4.2.1).  Each lay or upgrade costs two tokens;
    a grey tile (5028 or 5029) on a brown Hamburg is free once Harburg is brown too, in
    the grey phase.
    """
    whole_number(tokens, "tokens")
    for name, colour in (("hamburg", hamburg), ("harburg", harburg)):
        if colour is not None and colour not in ("yellow", "green", "brown", "grey"):
            raise ValueError(f"{name} colour must be yellow/green/brown/grey, got {colour!r}")
    if harburg is None or harburg == "grey":
        raise ValueError(f"Harburg is printed yellow and has no grey tile, got {harburg!r}")
    avail = _phase_tiles(phase)
    cost = ed.HAV_TOKENS_PER_TILE
    out = []
    if hamburg is None:
        if tokens >= cost:
            out.append(HavBuild(data.HAMBURG_HEX, "yellow", cost))
        return tuple(out)
    for hex_id, colour in ((data.HAMBURG_HEX, hamburg), (data.HARBURG_HEX, harburg)):
        nxt = _NEXT_COLOUR.get(colour)
        if nxt in avail and tokens >= cost:
            out.append(HavBuild(hex_id, nxt, cost))
    if hamburg == "brown" and harburg == "brown" and "grey" in avail:
        out.append(HavBuild(data.HAMBURG_HEX, "grey", 0))
    return tuple(out)


def hav_must_build(options: tuple[HavBuild, ...]) -> bool:
    """The HAV must build when it has the tokens and a tile fits (3.4.2.1); the free grey
    upgrade is optional ("may")."""
    for o in options:
        if not isinstance(o, HavBuild):
            raise ValueError(f"options must be HavBuild, got {o!r}")
    return any(o.tokens > 0 for o in options)


def hav_build(tokens: int, option: HavBuild) -> int:
    """Tokens left after ``option``; spent tokens leave the game (3.4.2.1)."""
    whole_number(tokens, "tokens")
    if not isinstance(option, HavBuild):
        raise ValueError(f"option must be a HavBuild, got {option!r}")
    if option.tokens > tokens:
        raise ValueError(
            f"the HAV has {tokens} building tokens, {option.hex} needs {option.tokens}"
        )
    return tokens - option.tokens


def hav_grey_tile(tile: str) -> tuple[bool, bool]:
    """(every corporation runs through Hamburg, a fourth station space) for a grey Hamburg
    tile: 5028 opens Hamburg (its grey space is the HAV's), 5029 adds a space (3.4.2.1)."""
    if tile not in ed.HAV_GREY_TILES:
        raise ValueError(f"grey Hamburg tiles are {', '.join(ed.HAV_GREY_TILES)}, got {tile!r}")
    return tile in data.HAMBURG_OPEN_TILES, tile not in data.HAMBURG_OPEN_TILES
