# ruff: noqa: E501
"""1842 Hamburg/Schleswig-Holstein economic facts (non-route rules) — partly RECONSTRUCTED.

Source: the rulebook ``../shared/seeds/1842-schleswig-holstein-rules.txt`` (section numbers
as printed).  18xx.games does not implement 1842 (no ``g_1842`` in tobymao/18xx @111f7f69), so
there is no second source.  The rulebook's text lacks the printed stock market, the face
values of the corporations and the charters; everything the text does not state is listed in
:data:`ECONOMY_GUESSES` and is marked ``# GUESS`` where it is defined.  Facts the route side
already needs (bank, starting cash, certificate limits, phases, trains, companies) stay in
:mod:`.data` and are re-exported here so that the economy reads from one module.
"""

from __future__ import annotations

from engine.games.g1842.data import (
    BANK_CASH,
    CERT_LIMIT,
    CERT_LIMIT_WITH_UEE_FKE,
    CORPORATIONS,
    HAV_PER_ROUTE,
    HAV_SIMPLIFIED_PER_SHARE,
    MINORS,
    PHASES,
    STARTING_CASH,
    TOKEN_COST_FACTOR,
    TRAINS,
    VOGELFLUGLINIE,
)

__all__ = [
    "BANK_CASH", "STARTING_CASH", "CERT_LIMIT", "CERT_LIMIT_WITH_UEE_FKE", "CORPORATIONS",
    "MINORS", "PHASES", "TRAINS", "HAV_PER_ROUTE", "HAV_SIMPLIFIED_PER_SHARE",
    "TOKEN_COST_FACTOR", "VOGELFLUGLINIE",
    "ECONOMY_RULEBOOK_FACTS", "ECONOMY_GUESSES", "MARKET", "MARKET_ZONES", "FACE_VALUE",
    "HAV", "HAV_START_PRICE", "HOLDING_LIMIT", "POOL_LIMIT", "START_PERCENT",
    "CAPITAL_MULTIPLE", "SUCCESSOR_CAPITAL_MULTIPLE", "SALE_ONE_STEP_MAX", "AVAILABILITY",
    "STARTING_PACKAGE", "PRIVATES", "PREDECESSORS", "SUCCESSOR", "TWO_TRAIN_PRICE",
    "AUCTION_STEP", "DEMOLITION_CHARGE", "MINOR_OWNER_PERCENT", "MINOR_FORBIDDEN_TRAINS",
    "AKE_SIX_PLAYER_INCOME", "COMPANY_TRAIN_MIN_PRICE", "HAV_TOKENS_PER_TILE",
    "HAV_DIVIDEND_ROUNDING", "HAV_TRADING_AFTER_STARTED", "HAV_ONLY_TILES", "HAV_GREY_TILES",
    "PHASE_COLOUR", "FIRST_OR_TILE_LAYS", "OPTIONS", "GAME_END",
]

# ----------------------------------------------------------------------------------- provenance
ECONOMY_RULEBOOK_FACTS = (
    "bank 11,000 M; starting cash 3/4/5/6 players: 730/550/440/370 M (4)",
    "certificate limit 13/11/10/9, 17/14/12/11 with UEE and FKE; 60% per corporation (6.3, 11.2.3)",
    "certificates of a corporation in the yellow zone do not count; in the brown zone the 60% limit is lifted too (6.4)",
    "the stock market column of the 6.4 example: 67 above 61 above a yellow field (6.4)",
    "sale: up to 20% one field down, 30% or more two; never below a column's foot or into the blue area (8)",
    "dividend: one field right, up at a row's end; withhold: one left, down at a row's start, never into blue (8)",
    "100% rule: all shares held by players at the end of a stock round: one field up (8)",
    "a corporation starts when 50% is sold; treasury 10x the face value of a 10% share (3.3.2)",
    "a successor (SE, HMBG) receives 8x the face value when its predecessor transforms (3.2 a.6)",
    "pool at most 50% of a corporation; certificates sold to the pool only (6.2)",
    "share structures: 4 corporations 20% + 8x10%, 3 corporations 20% + 20% + 6x10%, one 20% + 6x10% + 20%, two optional 20% + 2x20% + 4x10% (2)",
    "availability: AKE after the starting package; BHE after 50% of AKE; LBE, WHE, ELE after 50% of BHE; SE/HMBG card below the last 4-train; UEE/FKE once SE has started (3.3.1, 4, 11.2)",
    "private and predecessor railways: price includes a 2-train worth 100 M; revenue half to treasury, half to owner (3.1, 7.4.3)",
    "auction of a private railway among corporations: minimum = its treasury, raises of 10 M, cap = bidder's money + HAV certificates (3.1.4.1)",
    "liquidation: demolition charge 40 M from the private's treasury, the owner pays any shortfall (3.1.4.2)",
    "HAV: starts at the marked 30 M field; 1 building token per 10% sold from the initial offering; 2 tokens per tile; 10 M per route through Hamburg; dividend rounded down to 5 M per 10% among purchased shares; pool dividends to the bank (3.4)",
    "HAV certificates: corporations only in the yellow and green phases, once three corporations have started; players from the brown phase (3.4.1, 7.5)",
    "6 players: the player without a starting company buys the AKE director certificate and gets 20 M per OR while the AKE owns no train (5.1)",
    "a train bought from another company costs at least 10 M (7.6)",
    "game end: a token on the top-right field (finish the OR); bank broken in an OR (finish the set); bank broken in a stock round (one more set) (9)",
)

ECONOMY_GUESSES = (
    "the stock market grid: its values, shape, zone boundaries, the red start fields and the blue HAV area (only the 6.4 column 67/61/yellow, the HAV's 30 field and 'top right ends the game' are the rulebook's)",
    "the face value of every corporation's 10% share (except the HAV's 30 M)",
    "which of ELE/SE/HMBG has which share structure (the 3.3.1 table is truncated; the component counts of section 2 fix the multiset only), as guessed in data.CORPORATIONS",
    "the purchase prices, building tokens and train limits of the five starting companies (data.MINORS)",
    "the tile colour of each phase name and the operating rounds per set (data.PHASES)",
)

# ----------------------------------------------------------------------------------- stock market
#: GUESS (shape and values).  Rows top to bottom, fields left to right; suffixes:
#: ``p`` red start field, ``y`` yellow zone, ``b`` brown zone, ``u`` blue area (HAV only),
#: ``h`` the HAV's marked start field (blue), ``e`` the top-right field that ends the game.
#: Every 61 sits below a 67 and above a yellow field, as the 6.4 example needs.
MARKET = (
    ("80", "86", "92", "100", "108", "116", "125", "135", "146", "158", "170", "185", "200", "220", "240e"),
    ("73", "80", "86", "92", "100", "108", "116", "125", "135", "146", "158", "170", "185", "200"),
    ("67", "73", "80", "86p", "92p", "100p", "108", "116", "125", "135", "146", "158"),
    ("61", "67", "73p", "80p", "86", "92", "100", "108", "116", "125"),
    ("55y", "61", "67", "73", "80", "86", "92", "100"),
    ("50y", "55y", "61", "67", "73", "80"),
    ("45y", "50y", "55y", "61", "67"),
    ("40b", "45b", "50y", "55y"),
    ("35b", "40b", "45b"),
    ("25u", "30h", "35u"),
)
MARKET_ZONES = {"": "plain", "p": "start", "y": "yellow", "b": "brown", "u": "blue", "h": "blue", "e": "end"}

#: Face value of a 10% share (printed on the certificate, 3.3.2, 8).  GUESS except the HAV (3.4.2).
FACE_VALUE = {
    "AKE": 100, "BHE": 92, "LBE": 86, "WHE": 80, "ELE": 80, "SE": 86, "HMBG": 80,  # GUESS
    "UEE": 73, "FKE": 73,  # GUESS (optional corporations, 11.2)
    "HAV": 30,  # 3.4.2: "the especially marked 30 Mark-field"
}
HAV = "HAV"
HAV_START_PRICE = 30  # 3.4.2

# ----------------------------------------------------------------------------------- shares
HOLDING_LIMIT = 60  # 6.2, 6.3: at most 60% of one corporation
POOL_LIMIT = 50  # 6.2, 7.5: at most 50% of a corporation in the bank pool
START_PERCENT = 50  # 3.3.2: a corporation starts when 50% is sold (HAV: floats, 3.4.2)
CAPITAL_MULTIPLE = 10  # 3.3.2: treasury = 10x the face value of a 10% share
SUCCESSOR_CAPITAL_MULTIPLE = 8  # 3.2 a.6: 8x the face value on transformation
SALE_ONE_STEP_MAX = 20  # 8: up to 20% sold -> one field down; 30% or more -> two

#: Prerequisites for a corporation's shares to be on sale (3.3.1, 4, 11.2).
#: ``("package",)`` the starting package is sold; ``("sold", X)`` 50% of X sold;
#: ``("train", "4")`` the last 4-train is sold (the "SE - HMBG shares available" card lies
#: below it, 4); ``("started", X)`` X has started.
AVAILABILITY = {
    "AKE": ("package",),
    "BHE": ("sold", "AKE"),
    "LBE": ("sold", "BHE"),
    "WHE": ("sold", "BHE"),
    "ELE": ("sold", "BHE"),
    "SE": ("train", "4"),
    "HMBG": ("train", "4"),
    "UEE": ("started", "SE"),
    "FKE": ("started", "SE"),
    "HAV": ("always",),  # 3.4.1, 7.5 restrict who may buy, not when it is on sale
}

# ----------------------------------------------------------------------------------- minors
STARTING_PACKAGE = ("HBE", "KE", "RE", "GEE", "SSE")  # 3.1, 3.2, 4: numbers 1 to 5
PRIVATES = ("HBE", "KE", "RE")  # 3.1
PREDECESSORS = ("GEE", "SSE")  # 3.2
SUCCESSOR = {"GEE": "HMBG", "SSE": "SE"}  # 3.3.1 footnotes, 3.2.1
TWO_TRAIN_PRICE = 100  # 3.1: purchase price minus 100 M for the 2-train
AUCTION_STEP = 10  # 3.1.4.1
DEMOLITION_CHARGE = 40  # 3.1.4.2
MINOR_OWNER_PERCENT = 50  # 3.1.2, 7.4.3
MINOR_FORBIDDEN_TRAINS = ("5",)  # 3.1.3: "A Private Railway may not buy 5-train!"
AKE_SIX_PLAYER_INCOME = 20  # 5.1
COMPANY_TRAIN_MIN_PRICE = 10  # 7.6

# ----------------------------------------------------------------------------------- HAV
HAV_TOKENS_PER_TILE = 2  # 3.4.2.1 (a grey tile on Hamburg costs none)
HAV_DIVIDEND_ROUNDING = 5  # 3.4.2.2: rounded down to 5 M per 10%
HAV_TRADING_AFTER_STARTED = 3  # 7.5: once three corporations have started
HAV_ONLY_TILES = ("L10", "M9")  # 7.2.3: Hamburg and Harburg
HAV_GREY_TILES = ("5028", "5029")  # 3.4.2.1

# ----------------------------------------------------------------------------------- phases
#: Tile colour naming each phase (7.2: green on the first 3-train, brown on the first
#: 5-train, grey on the first 8-train); phase names are data.PHASES' (a GUESS beyond colours).
PHASE_COLOUR = {"2": "yellow", "3": "green", "4": "green", "5": "brown", "6": "brown", "8": "grey"}
FIRST_OR_TILE_LAYS = 2  # 3.3.3, 7.2

# ----------------------------------------------------------------------------------- options
#: Optional rules as game options (11, and "10.3 HAV simplified" as printed after 11.2.4).
OPTIONS = {
    "exchange_privates": "11.1 private railways are exchanged for 10% certificates, not auctioned",
    "additional_corporations": "11.2 UEE and FKE, certificate limit 17/14/12/11, optional trains",
    "hav_simplified": "10.3 (as printed) the HAV pays 5 M per share; its price stays 30 M",
}

# ----------------------------------------------------------------------------------- game end
GAME_END = {
    "top_right": "current_or",  # 9: a token reaches the top-right field
    "bank_broken_or": "current_set",  # 9: bank runs out during an operating round
    "bank_broken_sr": "one_more_set",  # 9: bank runs out during a stock round
}
