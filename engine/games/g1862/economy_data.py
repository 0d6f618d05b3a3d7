# ruff: noqa: E501
"""1862 USA/Canada (Ohley): economic facts (money, shares, market, limits, trains, game end).

Facts only, as plain literals; the rules that use them are in :mod:`.economy` and
:mod:`.economy_initial`.  The route-side facts (map, tiles, companies' homes) stay in
:mod:`.data`; the private companies' prices and revenues are there too (``data.COMPANIES``)
and are not repeated here.

Sources
-------
- ``shared/seeds/1862-usa-canada-ohley-rules.txt`` (the Ohley rulebook; the oracle).  Each
  fact names its section ("§Share Redemption" ...).
- Where the seed is cut short (the certificate-limit table stops at 10 companies, the
  company table at CPR, the train cards have no prices) the gap is said so and the value
  used is marked ``NOT RULEBOOK`` with where it came from: tobymao/18xx
  ``lib/engine/game/g_1862_usa_canada/game.rb`` / ``entities.rb`` @111f7f69 (MIT; its
  "1862 USA Canada 2025 Version", a different edition) or an explicit assumption.
"""

from __future__ import annotations

SOURCE = (
    "shared/seeds/1862-usa-canada-ohley-rules.txt (rulebook); gaps from tobymao/18xx "
    "lib/engine/game/g_1862_usa_canada/game.rb, entities.rb @111f7f69 (MIT) where marked"
)

# fmt: off

# --------------------------------------------------------------------------- players, money
# §Preparation to Play / Player Starting Capital: 4-7 players.  (18xx.games adds 3 players
# at 750; the rulebook has no 3-player setup and its certificate table has "-" for 3 players
# with all 13 companies, so 3 players only arise after a bankruptcy.)
PLAYER_COUNTS = (4, 5, 6, 7)
STARTING_CAPITAL = {4: 600, 5: 500, 6: 440, 7: 400}

# §General (components): "paper money ... for a total value of 22.000$".  All the money in
# the game; the players' starting capital is dealt from it, so the bank opens with
# BANK_TOTAL - players * STARTING_CAPITAL[players].
BANK_TOTAL = 22000

# --------------------------------------------------------------------------- stock market
# §Share Price Index (companion table), rows top (row 1) to bottom, in 18xx.games cell codes
# ("100p" par cell, "380e" game-end cell, "0c" the closed square, "" no square).
#
# The seed lists each row's values left to right and says only that row 1 starts with three
# blank squares.  The columns below put the six par squares (§Buying Shares: 100 in row 1,
# 92 row 2, 85 row 3, 80 row 4, 75 row 5, 70 row 6) in one column (column 5), which needs 3,
# 2 and 1 leading blanks in rows 1-3 and none below.  Every column then rises by exactly one
# price step per row upwards (checked in the tests), which is how 2-D markets are drawn; no
# other offset of rows 2-3 keeps the par squares aligned.
MARKET = [
    ["", "", "", "85", "92", "100p", "110", "120", "132", "146", "162", "180", "200", "225", "255", "290", "330", "375", "425e", "480e", "540e"],
    ["", "", "70", "80", "85", "92p", "100", "110", "120", "132", "146", "162", "180", "200", "225", "255", "290", "330", "380e", "440e", "510e"],
    ["", "55", "65", "75", "80", "85p", "92", "100", "110", "120", "132", "146", "162", "180", "200", "225", "255", "290"],
    ["40", "50", "60", "70", "75", "80p", "85", "92", "100", "110", "120", "132", "146", "162", "180"],
    ["35", "45", "55", "65", "70", "75p", "80", "85", "92", "100", "110", "120"],
    ["30", "40", "50", "60", "65", "70p", "75", "80", "85", "92"],
    ["25", "35", "45", "55", "62", "68", "72", "75"],
    ["20", "30", "40", "50", "60", "65", "70"],
    ["15", "25", "35", "45", "55", "62"],
    ["10", "20", "30", "40", "50"],
    ["0c", "10", "25", "35"],
]
# §Buying Shares: par value -> market row (0-based here; the rulebook counts from 1).
PAR_ROWS = {100: 0, 92: 1, 85: 2, 80: 3, 75: 4, 70: 5}

# §Ending the Game / Timing: "as soon as a company's share price reaches a value greater
# than 379$" (the "e" squares above: 380, 425, 440, 480, 510, 540).
GAME_END_PRICE_ABOVE = 379

# --------------------------------------------------------------------------- companies' shares
# §General (components) and §Presidency: group 1 (NYH, NYC, CP) 30 % president's share +
# 7 x 10 %; groups 2-4 20 % + 8 x 10 %.  Every company also has the post-redemption set:
# one 10 % president's share, 8 x 5 % and the 50 % share the company itself holds.
_G1 = (30, 10, 10, 10, 10, 10, 10, 10)
_G2 = (20, 10, 10, 10, 10, 10, 10, 10, 10)
SHARES_BEFORE_REDEMPTION = {1: _G1, 2: _G2, 3: _G2, 4: _G2}
PRESIDENT_PERCENT = {1: 30, 2: 20, 3: 20, 4: 20}
SHARES_AFTER_REDEMPTION = (10, 5, 5, 5, 5, 5, 5, 5, 5)  # players' half; the company holds 50
COMPANY_REDEEMED_PERCENT = 50

# §Starting a Public Company: floated when, for the first time, at least 60 % has been sold;
# the bank then pays the company 10 x par value.
FLOAT_PERCENT = 60
CAPITAL_PAR_MULTIPLE = 10

# §Certificate Limit: most of one company a player may hold - 60 % while more than 4 players
# are in the game, 70 % as soon as fewer than 5 are.
HOLDING_LIMIT_MANY = 60
HOLDING_LIMIT_FEW = 70
HOLDING_LIMIT_FEW_BELOW = 5  # "fewer than 5 players"

# §Selling Shares: no sale while 5 of the company's shares (50 %, 25 % after redemption)
# are in the bankpool.  (Exceeded only by a bankrupt player's leftover shares, §Bankruptcy.)
POOL_CERTIFICATE_LIMIT = 5

# §Certificate Limit table: companies still in the game -> players still in the game -> limit.
# "-" (13 companies, 3 players) is left out.  The seed's table stops after the 10-company
# row (its 9-company row is cut off); see CERT_LIMIT_BELOW_TABLE.
CERT_LIMITS = {
    13: {4: 22, 5: 18, 6: 15, 7: 13},
    12: {3: 26, 4: 20, 5: 16, 6: 14, 7: 12},
    11: {3: 23, 4: 18, 5: 15, 6: 12, 7: 11},
    10: {3: 21, 4: 16, 5: 13, 6: 11, 7: 10},
}
# NOT RULEBOOK: with fewer than 10 companies in the game the 10-company row is used (the limit
# stops falling).  The game ends once 8 companies are out (§Timing), so 5-9 companies can
# occur; a linear extrapolation of the known columns is not monotone in players, holding the
# last row is.  economy.certificate_limit(strict=True) refuses instead.
CERT_LIMIT_BELOW_TABLE = "hold the 10-company row"
COMPANIES_IN_GAME = 13

# --------------------------------------------------------------------------- phases, rounds
# §Effects of Purchasing New Trains: phase (named by the train that starts it, as in
# data.PHASES) -> colour.  Colour decides redemption rates and operating rounds.
PHASE_COLOUR = {"2": "yellow", "3": "green", "4": "green", "5": "brown", "6": "brown", "8": "gray", "10": "gray"}
PHASE_ORDER = ("2", "3", "4", "5", "6", "8", "10")
# §Stock Rounds / General: 1 OR after each SR (yellow), 2 once a 3-train was bought, 3 once a
# 5-train was bought.  (The brown paragraph of §Effects lists both "one" and "three"; the
# stock-round section and the gray phase settle it at three.)
OPERATING_ROUNDS = {"yellow": 1, "green": 2, "brown": 3, "gray": 3}
# §Effects: train limit 4, 3 after the first 4-train, 2 after the first 5-train.
TRAIN_LIMIT = {"2": 4, "3": 4, "4": 3, "5": 2, "6": 2, "8": 2, "10": 2}
# §Effects: the first train of a series scraps an older series.
SCRAPS = {"4": "2", "6": "3", "8": "4"}

# --------------------------------------------------------------------------- trains
# §Preparation / Miscellaneous and §Purchasing Trains: series 2, 3, 4, 5, 6, 8, 10 bought in
# order; E-trains 5E, 6E, 8E, 10E are separate cards ("sort the other train cards from type 3
# to type 10E"), available once the first train of their series was bought and never needed
# to be sold out first.  42 train cards in all (§General).
TRAIN_SERIES = ("2", "3", "4", "5", "6", "8", "10")
E_TRAINS = {"5E": "5", "6E": "6", "8E": "8", "10E": "10"}
TOTAL_TRAIN_CARDS = 42
# Prices and counts: the rulebook prints none.  NOT RULEBOOK - 2-6, 5E, 6E: 18xx.games
# game.rb TRAINS (its edition).  ASSUMED - 8/8E take 18xx.games' next series (7: 750, 7E:
# 900), 10 its last (8: 900), 10E = 10 + 150 (the E premium of 5E-7E); the counts of 8, 10
# and the E-cards are chosen so the manifest has the rulebook's 42 cards.
TRAINS = {
    "2": {"price": 100, "count": 7},
    "3": {"price": 200, "count": 6},
    "4": {"price": 300, "count": 5},
    "5": {"price": 550, "count": 4},
    "6": {"price": 650, "count": 3},
    "8": {"price": 750, "count": 2},
    "10": {"price": 900, "count": 7},
    "5E": {"price": 700, "count": 2},
    "6E": {"price": 800, "count": 2},
    "8E": {"price": 900, "count": 2},
    "10E": {"price": 1050, "count": 2},
}
TRAINS_ASSUMED = ("8", "10", "5E", "6E", "8E", "10E")  # count and/or price not from any source's edition

# --------------------------------------------------------------------------- debt, redemption
# §Share Redemption: a company buys back half of every share at the current price.  Debt
# certificates pay, per 100$ owed at game end, 60$ (green), 80$ (brown), 90$ (gray); not
# possible in the yellow phase.  Debt comes in whole 100$ (the example's 900$ debt).
DEBT_PAYMENT_PER_100 = {"green": 60, "brown": 80, "gray": 90}
DEBT_UNIT = 100

# --------------------------------------------------------------------------- stations, privates
# §Placing Station Markers: home free, next 40, any further 100; x1.5 across the US/Canadian
# border (60 / 150).  (Same facts as data.TOKEN_COSTS / data.BORDER_TOKEN_FACTOR.)
STATION_MARKER_COSTS = (0, 40, 100)
BORDER_COST_NUM, BORDER_COST_DEN = 3, 2

# §Special Abilities: RMC's extra yellow tile is discounted by up to 160$ of the printed cost.
RMC_DISCOUNT = 160

# §Special Abilities: privates that come with shares (corporation, percent, president?).
PRIVATE_SHARES = {
    "PSC": (("WP", 10, False),),
    "FNY": (("NYC", 10, False), ("NYC", 10, False)),
    "SOC": (("CPR", 10, False), ("UP", 10, False)),
    "NYSH": (("NYH", 30, True),),
}
# §Special Abilities: automatic closings.  "paid": closes when the company first pays a
# dividend; "floated": when it floats ("all": all listed must have floated).
PRIVATE_CLOSE_ON_FIRST_DIVIDEND = {"PSC": "WP", "FNY": "NYC"}
PRIVATE_CLOSE_ON_FLOAT = {"SOC": ("CPR", "UP"), "NYSH": ("NYH",)}
# SOC's revenue falls to 15$ when the first of CPR / UP floats.
SOC_REDUCED_REVENUE = 15
# Closed by using the ability (ERIE: the Erie tile; RMC: the extra tile) or, for B&O only,
# voluntarily by its owner; BOM never closes by itself.
PRIVATE_CLOSE_ON_USE = ("ERIE", "RMC")
PRIVATE_VOLUNTARY_CLOSE = ("BO",)

# --------------------------------------------------------------------------- initial stock round
# §Initial Stock Round: bids and auction raises in steps of at least 5$; an unsold "1"
# certificate is offered 5$ cheaper to each next player until someone must take it at 0$.
BID_STEP = 5
PRICE_DROP_STEP = 5

# §Buying Shares: group availability.  The rulebook has four groups; its company table is cut
# after CPR (group 2), so the split is NOT RULEBOOK: 18xx.games game.rb CORP_GROUPS
# (data.CORP_GROUPS, three groups; group 4 is then empty and its rule never applies).
GROUP_RULES = {
    1: "all private certificates sold",
    2: "no share of group 1 left in the initial offering",
    3: "every company of group 2 floated",
    4: "every president's share of group 3 bought",
}

# --------------------------------------------------------------------------- game end
# §Ending the Game / Timing.  The current set of operating rounds is always completed.
GAME_END_COMPANIES_OUT = 8
GAME_END_PLAYERS_BELOW = 3

# fmt: on
