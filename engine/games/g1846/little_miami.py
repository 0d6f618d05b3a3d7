"""Little Miami's connection checks (1846, 2nd edition private).

Facts from tobymao/18xx @111f7f69 (MIT; cited, never copied): ``g_1846/entities.rb`` (the
LM's ``tile_lay`` ability: two lays, ``must_lay_together``, ``connect: false``,
``reachable: false``, on H12 and G13 with the listed yellow and green city tiles, $20 off)
and ``g_1846/game.rb`` (``preprocess_little_miami``, ``postprocess_little_miami``,
``check_little_miami_graph_before!``/``_after!``,
``little_miami_a_new_path_used_for_connection?``):

- before the first lay, Cincinnati (H12) and Dayton (G13) must not be connected yet: a walk
  from H12's city over any track (``Graph`` with ``no_blocking`` and ``home_as_token``:
  tokens block nothing, a terminal path ends the walk) must not reach G13's city;
- the two lays go on different hexes (no lay and upgrade of the same hex);
- after the second lay, H12 and G13 must be connected, and on each hex the LM laid some
  new track (a path with an exit the hex did not have before the lay) must be used by the
  connection.  18xx.games checks this with a walk from the hex's city that must run over
  a new path, enter the other hex's city and leave it by a further path.  With the LM's
  tiles (single-city, every path from the city to an edge) that is: a new path of the hex
  leads, without passing the hex's own city again, to the other city, and that city has
  a second path.  (A walk that first reaches the other city and then comes back over a
  new path reversed is such a walk too, so it adds nothing.)
- the first lay alone is not checked beyond the first point: if the second lay is
  forfeited (another action comes first), nothing else is checked.
"""

from __future__ import annotations

from engine.game.track import walk
from engine.model.board import Board, PlacedTile
from engine.model.tiles.parse import Edge, NodeRef

__all__ = ["LM_HEXES", "LittleMiamiMixin", "hexes_connected", "new_track_used", "pair_ok"]

#: Cincinnati and Dayton (``LITTLE_MIAMI_HEXES``).
LM_HEXES = ("H12", "G13")

#: How the LM checks walk (``node.rb``/``path.rb`` ``walk`` over a ``Graph`` with
#: ``no_blocking``): over every path touching a reached one (:func:`walk` ``turns``), no
#: token blocks, offboards are passed, a terminal path ends the walk.
_OPTIONS = {"turns": "always", "pass_offboards": True, "pass_terminal": False}


def _placed(board: Board, overlay: dict[str, PlacedTile] | None, hex_: str) -> PlacedTile:
    found = (overlay or {}).get(hex_)
    return found if found is not None else board.placed(hex_)


#: The LM hexes' city (``tile.cities.first``).
_CITY = NodeRef("city", 0)


def _node_paths(placed: PlacedTile, ref: NodeRef) -> list[int]:
    return [i for i, p in enumerate(placed.paths) if ref in (p.a, p.b)]


def hexes_connected(board: Board, overlay: dict[str, PlacedTile] | None = None) -> bool:
    """Does track join H12's city to G13's city (``check_little_miami_graph_before!``)?

    Parameters
    ----------
    board : Board
        The 1846 board.
    overlay : dict, optional
        Hexes whose tile is replaced for the check (a lay being tried).
    """
    home, other = LM_HEXES
    tile = _placed(board, overlay, home).tile
    # ``home_hex_nodes``: every city and town of the home hex's tile
    starts = [(home, NodeRef("city", i)) for i in range(len(tile.cities))]
    starts += [(home, NodeRef("town", i)) for i in range(len(tile.towns))]
    found = walk(board, starts, overlay=overlay, goal={(other, "city", 0)}, **_OPTIONS)
    return any(h == other for h, _kind, _i in found.nodes)


def new_track_used(board: Board, hex_: str, new_exits, overlay=None) -> bool:
    """Is new track of ``hex_`` (paths with an exit in ``new_exits``) used to join its city
    to the other LM city (``little_miami_a_new_path_used_for_connection?``)?"""
    if hex_ not in LM_HEXES:
        raise ValueError(f"hex {hex_!r} is not a Little Miami hex {LM_HEXES}")
    mine = (hex_, "city", 0)
    other = next(h for h in LM_HEXES if h != hex_)
    if len(_node_paths(_placed(board, overlay, other), _CITY)) < 2:
        return False  # the walk must leave the other city by a further path
    new_exits = set(new_exits)
    placed = _placed(board, overlay, hex_)
    for i in _node_paths(placed, _CITY):
        path = placed.paths[i]
        if not any(isinstance(e, Edge) and e.num in new_exits for e in (path.a, path.b)):
            continue
        # the new path, walked both ways, without passing its city again
        found = walk(board, [(hex_, i)], overlay=overlay, no_pass={mine},
                     goal={(other, "city", 0)}, **_OPTIONS)  # fmt: skip
        if found.done:
            return True
    return False


def pair_ok(board: Board, first: tuple[str, frozenset], second: tuple[str, str, int],
            overlay: dict[str, PlacedTile] | None = None) -> bool:  # fmt: skip
    """Would the second LM lay ``(hex, tile, rotation)`` pass the after-checks, the first
    lay ``(hex, new exits)`` being on the board already (or in ``overlay``)?"""
    hex_, tile, rotation = second
    if hex_ == first[0]:
        return False  # 'Cannot lay and upgrade a tile in the same hex with Little Miami'
    placed = PlacedTile(board.manifest_tile(tile), rotation, False)
    overlay = {**(overlay or {}), hex_: placed}
    new_exits = set(placed.exits) - set(board.placed(hex_).exits)
    return (
        hexes_connected(board, overlay)
        and new_track_used(board, first[0], first[1], overlay)
        and new_track_used(board, hex_, new_exits, overlay)
    )


class LittleMiamiMixin:
    """The LM's checks in :class:`~engine.games.g1846.game.Game1846` (``together`` is the
    half-done pair lay, ``lm_first`` the first LM lay's hex and added exits)."""

    def legal_operating(self) -> list[dict]:
        acts = super().legal_operating()
        if self.together is None or self.together[0] != "LM":
            return acts
        # step/special_track.rb: after the first lay the step blocks on the LM (only steps
        # before it act: Assign, SpecialToken, the other private lays, all forfeiting the
        # second lay, game.rb check_special_tile_lay); the LM's pass runs the after-check
        # on the one lay (postprocess_little_miami), so it is legal only if that connects
        keep = [a for a in acts if a["entity"] in self.state.companies]
        board = self.state.board
        if hexes_connected(board) and new_track_used(board, *self.lm_first):
            keep.append({"type": "pass", "entity": "LM"})
        # with nothing left 18xx.games would leave the player to undo; the first lays are
        # chosen so that this does not happen (lm_lay_ok), the full list is a safety net
        return keep or acts

    def lm_lay_ok(self, op: str, hex_: str, opt, others: bool) -> bool:
        """May the LM lay ``opt`` on ``hex_`` now?  The second lay must pass the
        after-check; a first lay needs a way on: a second lay or a pass that passes it,
        unless another private's action (``others``) can forfeit the second lay."""
        board = self.state.board
        if self.together is not None:
            return pair_ok(board, self.lm_first, (hex_, opt.tile, opt.rotation))
        if others:
            return True
        key = (self.state.board_version, hex_, opt.tile, opt.rotation)
        cache = self.__dict__.setdefault("_lm_finish", {})
        if key not in cache:
            if len(cache) > 256:
                cache.clear()
            cache[key] = self._lm_can_finish(op, hex_, opt)
        return cache[key]

    def _lm_can_finish(self, op: str, hex_: str, opt) -> bool:
        board = self.state.board
        placed = PlacedTile(board.manifest_tile(opt.tile), opt.rotation, False)
        overlay = {hex_: placed}
        first = (hex_, frozenset(set(placed.exits) - set(board.placed(hex_).exits)))
        if hexes_connected(board, overlay) and new_track_used(board, *first, overlay):
            return True  # the LM may pass after this lay
        other = next(h for h in LM_HEXES if h != hex_)
        tiles = self.LM_TILES
        in_use = board.tiles_in_use()
        for h, second in self.lay_options(op, [other]):
            if second.tile not in tiles:
                continue
            # the first lay takes a copy of the tile too
            if second.tile == opt.tile and in_use[opt.tile] + 2 > board.manifest[opt.tile][1]:
                continue
            if pair_ok(board, first, (h, second.tile, second.rotation), overlay):
                return True
        return False
