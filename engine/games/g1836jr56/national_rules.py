"""The 1856 national's formation arithmetic: its par price and who gets its shares.

Facts from tobymao/18xx @111f7f69 (MIT) ``lib/engine/game/g_1856/game.rb``
(``national_price``, ``national_share_swap``); no code copied.
"""

from __future__ import annotations

__all__ = ["national_price", "national_awards"]


def national_price(prices: list[int]) -> int:
    """The national's par from the merging corporations' prices (18xx.games ``g_1856``
    ``national_price``): drop the lowest of three or more, average, round down to a
    multiple of 5, then 100 below 105, 110 up to 115, else the nearest multiple of 25."""
    prices = list(prices)
    if len(prices) > 2:
        prices.remove(min(prices))
    ave = int(0.2 * sum(prices) / len(prices)) * 5
    if ave < 105:
        return 100
    if ave <= 115:
        return 110
    delta = ave % 25
    return ave - delta if delta < 12.5 else ave - delta + 25


def national_awards(seats, pre_percent, pre_market: int, limit: int) -> tuple:
    """Who gets the national's shares (18xx.games ``g_1856`` ``national_share_swap``): in
    seat order each player one share per 20% held of the merged corporations, up to
    ``limit`` shares in all; the odd percentages and the market's pool into shares for the
    market.  Returns ``(president, false_president, market_shares, shares_left)``; the
    president is the first player with the most shares, "false" if that is only one."""
    left, best, president, false_pres = limit, 0, None, False
    market = pre_market
    for p in seats:
        if p not in pre_percent:
            continue
        awarded = min(pre_percent[p] // 20, left)
        market += pre_percent[p] % 20
        left -= awarded
        if awarded > best:
            false_pres, best, president = awarded == 1, awarded, p
    market_count = min(market // 20, left)
    return president, false_pres, market_count, left - market_count
