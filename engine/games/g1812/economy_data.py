"""1812 economy facts: bank, cash, limits, stock market, shares, loans, rounds, game end.

Facts only (plain literals, no logic).  The rules that use them are in :mod:`.economy`,
:mod:`.auction` and :mod:`.merger`.  Private companies (face value, minimum bid, income),
trains (prices, counts by player number, obsolescence) and phases (train limits) are in
:mod:`.data` and are not repeated here.

Sources
-------
* Rulebook v1.0a, seed text ``../shared/seeds/1812-rules.txt`` (the oracle); the section
  of each fact is named beside it.
* tobymao/18xx ``lib/engine/game/g_1812/game.rb`` @111f7f69 (MIT; *prealpha* there) for the
  stock-market cells, which the seed text does not reproduce (its market is a board
  component).  Its ``COLUMN_MARKET`` marks 50-60 minor-only par, 65-100 minor/public par,
  110-135 public-only par, 100-135 "convert range" and 150 the minor maximum; every one of
  those marks agrees with the rulebook's ranges (§6.2.1 £50-£100, §6.2.3/§8.4 £65-£135,
  §7.3.5 £150), and "£100 moved four spaces down" lands exactly on the lowest red-outlined
  cell, £65 (§8.3, §8.4), which confirms the cell list.

Where the rulebook and 18xx.games differ, the rulebook is used (see docs/TITLE_DATA.md):
the bank holds £8,000 whatever the player number (§1.1; 18xx.games scales it), and a minor
priced £150 may still convert (§8.2 "at least £100"; 18xx.games' convert range stops at 135).
"""

SOURCE = (
    "1812 rulebook v1.0a (seed 1812-rules.txt); stock-market cells from tobymao/18xx "
    "lib/engine/game/g_1812/game.rb @111f7f69 (MIT)"
)

# ------------------------------------------------------------------ players, bank, limits
#: Players (§1: "Two to four players").
PLAYER_RANGE = (2, 4)

#: Money in the bank at the start, before the players' capital is handed out (§1.1: "eight
#: thousand pounds (£8,000) ... the amount of money in the Bank").
BANK_CASH = 8000
#: 18xx.games' bank by player number (game.rb ``BANK_CASH``); not used, kept for comparison.
BANK_CASH_18XX_GAMES = {2: 4000, 3: 6000, 4: 8000}

#: Starting capital per player, any player number (§3.1 "Distribute the starting capital
#: (£195) to each player"; game.rb ``STARTING_CASH = 195`` agrees).
STARTING_CASH = {2: 195, 3: 195, 4: 195}

#: Certificate limit by player number (§4.1 table; game.rb ``CERT_LIMIT`` agrees).
CERT_LIMIT = {2: 15, 3: 10, 4: 10}

#: A player may not *buy* past 60% of a public company (§4.1, §6.2.2, §8.4); exchanges of
#: minors (mergers, conversions, take-overs) may take him past it (§4.1, §8.5).
MAX_BUY_PERCENT = 60
#: At most 50% of a public company may be in the Bank Pool (§6.1).
POOL_LIMIT_PERCENT = 50

# ------------------------------------------------------------------ stock market (§4)
#: Stock-market cells, lowest first (game.rb ``COLUMN_MARKET``).  Below the first cell is
#: the Closed box (§4.2 "falls below £40 ... closed"; §9 "into the Closed box").
MARKET = (
    40, 45, 50, 55, 60, 65, 70, 80, 90, 100, 110, 120, 135,
    150, 165, 180, 200, 220, 245, 270, 300, 330, 360, 400,
)  # fmt: skip
#: Lowest price a company may hold; one space below it is the Closed box (§4.2).
CLOSE_BELOW = 40
#: Yellow spaces where an auctioned minor starts (§6.2.1 "£50 to £100").
MINOR_START_PRICES = (50, 55, 60, 65, 70, 80, 90, 100)
#: Red-outlined spaces where a public company starts (§6.2.3, §8.4 "between £65 and £135").
PUBLIC_START_PRICES = (65, 70, 80, 90, 100, 110, 120, 135)
#: A minor's price may not go above £150 (§7.3.5 "dashed red line").
MINOR_MAX_PRICE = 150

# ------------------------------------------------------------------ companies and shares
#: A public company: ten shares, the Director's Certificate is two of them (20%), the other
#: eight are single-share certificates (§1.4.3).  Each certificate counts one towards the
#: certificate limit whatever its size (§4.1).
PUBLIC_SHARES = 10
DIRECTOR_SHARES = 2
ORDINARY_CERTIFICATES = 8
#: A minor's charter is one certificate of two shares; its price is half its value (§4, §4.1).
MINOR_SHARES = 2
#: A public company operates once its Director's Certificate is owned (§6.2.3); shares
#: bought from its treasury pay the company, from the pool the bank (§6.2.2).
FLOAT_SHARES = DIRECTOR_SHARES

#: Public companies available, and station markers each, by player number (§1.4.3, §14.1).
PUBLIC_COMPANIES_IN_PLAY = {2: 4, 3: 4, 4: 5}
PUBLIC_STATION_MARKERS = {2: 4, 3: 4, 4: 3}
#: Minors in play: all ten (§1.4.2); variant §10 for 2-3 players: 2n + 2 chosen at random.
MINORS_IN_PLAY = {2: 10, 3: 10, 4: 10}
MINORS_IN_PLAY_VARIANT = {2: 6, 3: 8}

#: Private companies drawn for the game: twice the player number (§3.1, §14.1 4/6/8).
PRIVATES_PER_PLAYER = 2
#: A company buys a private from a player for £1 up to its face value (§1.4.1).
PRIVATE_MIN_PRICE = 1

# ------------------------------------------------------------------ auctions
#: Bids and raises are multiples of £5 (§3.2, §6.2.1).
BID_STEP = 5
#: Minimum opening bid for a minor (§6.2.1); minors may be auctioned before Phase 4 (§2.3).
MINOR_MIN_BID = 100
MINOR_LAST_START_PHASE = "3"

#: Public shares may be bought from Phase 3 (§6.2 "Only Minor Companies are available until
#: Phase 3"); public companies may be started without a minor from Phase 4 (§2.3, §6.2.3),
#: paying twice the start price for the Director's Certificate into the treasury and twice
#: the home city's value to the bank (§6.2.3).
PUBLIC_SHARES_FROM_PHASE = "3"
PUBLIC_START_FROM_PHASE = "4"
PUBLIC_START_MULTIPLIER = 2
HOME_STATION_MULTIPLIER = 2

# ------------------------------------------------------------------ loans (§7.2, §7.3.6-7)
LOAN_VALUE = 50
#: Interest per loan, paid when the loan is taken and in each later operating turn.
LOAN_INTEREST = 5
LOAN_LIMIT = {"minor": 2, "public": 5}

# ------------------------------------------------------------------ operating costs
#: A second tile operation in another hex costs £20 (§7.3.2).
SECOND_TILE_FEE = 20
#: Station markers after the first: £20 a hex from the only marker for the second, then
#: £40 a hex from the nearest (§7.3.3; distance in hexes, regardless of track).
STATION_COST_PER_HEX_SECOND = 20
STATION_COST_PER_HEX_LATER = 40
#: Stephenson's Engine Works (P6) surrendered for £40 off a bank train (§7.3.8).
STEPHENSON_DISCOUNT = 40
STEPHENSON = "P6"
#: Phases 5 and 6: a train may be traded in for a quarter of its original cost (rounded
#: down) off a train from the Bank or Bank Pool (§2.4, §7.3.8).
TRADE_IN_PHASES = ("5", "6")
TRADE_IN_DIVISOR = 4

# ------------------------------------------------------------------ mergers (§8)
MERGER_FROM_PHASE = "3"
CONVERT_MIN_PRICE = 100
MERGE_MIN_SUM = 100
MERGE_MIN_MINORS = 2
MERGE_MAX_MINORS = 6
MERGE_MAX_PER_PLAYER = 4
#: The new public company's marker is moved four spaces down, and a merged price is capped
#: at £135 (§8.2, §8.3).
FORMATION_STEPS_DOWN = 4
MERGED_MAX_PRICE = 135
#: Each merging minor's charter becomes one and a half shares (§8.3): three half shares.
HALF_SHARES_PER_MERGED_MINOR = 3
#: Conversion gives the owner the Director's Certificate and one 10% certificate (§8.2).
CONVERSION_SHARES = 3
#: A merged public company takes over at most two of the merging minors' markers (§8.3).
MERGER_STATION_MARKERS = 2

# ------------------------------------------------------------------ rounds and game end
#: Two operating rounds between stock rounds in every phase (§2, §7); from Phase 3 each is
#: followed by a merger round (§2.2, §5, §8).
OPERATING_ROUNDS_PER_SET = 2
#: The game ends at the end of the first operating round completed after (or during which)
#: the bank runs out of money; the bank issues IOUs meanwhile (§9).  At the end each company
#: moves one space down per outstanding loan (Closed box = 0); players score cash, shares at
#: market price, privates at face value and minors at twice their price (§9).
GAME_END = {"bank_broken": "end_of_current_or"}
