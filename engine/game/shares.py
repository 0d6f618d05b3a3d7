"""Share certificates, who holds them, and the presidency.

A corporation's shares are certificates: one president's certificate (``SYM_0``, usually
20%) and ordinary ones (``SYM_1`` ...).  Holders are player ids, the corporation's own
treasury (the holder is the corporation symbol) or the market pool (:data:`POOL`).

The presidency follows the standard 18xx rule as 18xx.games applies it (tobymao/18xx
@111f7f69 ``lib/engine/share_pool.rb`` ``transfer_shares``/``change_president``,
``share_bundle.rb`` ``can_dump?``, ``game/base.rb`` ``all_bundles_for_corporation``):

- the president keeps the office on a tie; another player takes it only by holding strictly
  more, and needs at least the president's certificate's percentage;
- on a change the new president hands ordinary certificates worth the president's
  certificate to the old one (or to the pool when the old one no longer holds that much)
  and receives the president's certificate;
- a sale is a percentage (a multiple of the ordinary share); a president may sell part of the
  president's certificate only when another player can take the presidency;
- with no president (receivership) the first player reaching the president's percentage
  becomes president, swapping ordinary certificates into the pool.

Certificates move one by one as in 18xx.games (``move_share``: a certificate joins the end
of its new holder's list), so the certificate ids a record names stay in step: the shares a
new president hands over are the first ones he got, a partial sale's surplus comes back as
the pool's first certificate (``handle_partial``).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["POOL", "Certificate", "ShareRegistry"]

#: The market pool (shares sold by players or issued by corporations).
POOL = "market"


@dataclass
class Certificate:
    """One share certificate."""

    id: str
    corp: str
    percent: int
    president: bool
    owner: str
    seq: int = 0  # when the holder got it: a holder's certificates in acquisition order


class ShareRegistry:
    """All certificates of a game and their holders.

    Parameters
    ----------
    players : list of str
        Player ids in seat order (presidency ties go to the nearest player after the
        outgoing president).
    """

    def __init__(self, players: list[str]) -> None:
        self.players = list(players)
        self.certs: dict[str, Certificate] = {}
        self.by_corp: dict[str, list[Certificate]] = {}
        self.presidents: dict[str, str | None] = {}
        self.share_percent: dict[str, int] = {}
        self._seq = 0

    # ------------------------------------------------------------------ setup
    def add_corporation(
        self, corp: str, president_percent: int = 20, share_percent: int = 10, total: int = 100
    ) -> None:
        """Create ``corp``'s certificates, all in its treasury (``owner == corp``)."""
        if corp in self.by_corp:
            raise ValueError(f"corporation {corp!r} already has certificates")
        if (total - president_percent) % share_percent:
            raise ValueError(f"{corp}: {total}% does not split into {share_percent}% shares")
        certs = [Certificate(f"{corp}_0", corp, president_percent, True, corp)]
        for i in range((total - president_percent) // share_percent):
            certs.append(Certificate(f"{corp}_{i + 1}", corp, share_percent, False, corp))
        self.by_corp[corp] = certs
        for c in certs:
            self.certs[c.id] = c
            self._put(c, corp)
        self.presidents[corp] = None
        self.share_percent[corp] = share_percent

    def remove_corporation(self, corp: str) -> None:
        """A closed corporation's certificates leave the game."""
        for c in self.by_corp.pop(corp, []):
            del self.certs[c.id]
        self.presidents.pop(corp, None)

    def copy(self) -> ShareRegistry:
        other = ShareRegistry(self.players)
        for corp, certs in self.by_corp.items():
            mine = [Certificate(c.id, c.corp, c.percent, c.president, c.owner, c.seq)
                    for c in certs]  # fmt: skip
            other.by_corp[corp] = mine
            for c in mine:
                other.certs[c.id] = c
        other.presidents = dict(self.presidents)
        other.share_percent = dict(self.share_percent)
        other._seq = self._seq
        return other

    # ------------------------------------------------------------------ queries
    def corporations(self) -> list[str]:
        return list(self.by_corp)

    def percent(self, corp: str, holder: str) -> int:
        return sum(c.percent for c in self.by_corp.get(corp, ()) if c.owner == holder)

    def player_percent(self, corp: str) -> int:
        players = set(self.players)
        return sum(c.percent for c in self.by_corp.get(corp, ()) if c.owner in players)

    def num_shares(self, corp: str, holder: str) -> int:
        """Held percentage in ordinary-share units (a 20% certificate counts 2)."""
        return self.percent(corp, holder) // self.share_percent[corp]

    def certs_of(self, holder: str, corp: str | None = None) -> list[Certificate]:
        corps = [corp] if corp is not None else list(self.by_corp)
        return [c for k in corps for c in self.by_corp.get(k, ()) if c.owner == holder]

    def president(self, corp: str) -> str | None:
        return self.presidents.get(corp)

    def president_cert(self, corp: str) -> Certificate:
        return self.by_corp[corp][0]

    def holding(self, corp: str, holder: str) -> list[Certificate]:
        """``holder``'s certificates of ``corp`` in the order it got them (18xx.games
        ``shares_by_corporation``)."""
        return sorted(
            (c for c in self.by_corp.get(corp, ()) if c.owner == holder), key=lambda c: c.seq
        )

    def ordinary(self, corp: str, holder: str) -> list[Certificate]:
        """``holder``'s ordinary certificates of ``corp`` in acquisition order (a treasury
        starts in certificate order)."""
        return [c for c in self.holding(corp, holder) if not c.president]

    def total(self, corp: str) -> int:
        return sum(c.percent for c in self.by_corp.get(corp, ()))

    # ------------------------------------------------------------------ presidency
    def _put(self, cert: Certificate, to: str) -> None:
        """``move_share``: the certificate joins the end of its new holder's list."""
        self._seq += 1
        cert.owner = to
        cert.seq = self._seq

    def _distance(self, a: str | None, b: str) -> int:
        """``share_pool.rb`` ``distance``: seats from ``a`` round to ``b`` (0 from the
        pool)."""
        if a not in self.players:
            return 0
        n = len(self.players)
        return (self.players.index(b) - self.players.index(a)) % n or n

    def _change_president(self, corp: str, new: str, swap_to: str) -> None:
        """``change_president``: the new president's first shares worth the president's
        certificate go to ``swap_to``; the certificate goes to the new president."""
        pres = self.president_cert(corp)
        n = pres.percent // self.share_percent[corp]
        for c in self.holding(corp, new)[:n]:
            self._put(c, swap_to)
        self._put(pres, new)
        self.presidents[corp] = new

    def check_president(self, corp: str) -> None:
        """Move the presidency after certificates changed hands outside :meth:`transfer`
        (a tie keeps it; the old president receives the swapped shares while holding the
        certificate's worth, else they go to the pool)."""
        pres_pct = self.president_cert(corp).percent
        held = {p: self.percent(corp, p) for p in self.players}
        best = max(held.values(), default=0)
        prev = self.presidents.get(corp)
        if prev is not None and held.get(prev, 0) >= best:
            return
        if best < pres_pct:
            return
        candidates = [p for p in self.players if held[p] == best]
        new = min(candidates, key=lambda p: self._distance(prev, p))
        if prev is None:
            self._change_president(corp, new, POOL)
            return
        self._change_president(corp, new, prev if held[prev] >= pres_pct else POOL)

    # ------------------------------------------------------------------ transfers
    def par(self, corp: str, player: str) -> None:
        """``player`` takes the president's certificate from the treasury."""
        self._put(self.president_cert(corp), player)
        self.presidents[corp] = player

    def transfer(self, corp: str, ids: list[str], to: str, percent: int | None = None) -> None:
        """``share_pool.rb`` ``transfer_shares``: move the certificates ``ids`` (a bundle
        worth ``percent``, less than their sum when part of the president's certificate is
        sold) to ``to``, then pass the presidency on as 18xx.games does, certificate by
        certificate."""
        certs = [self.certs[i] for i in ids]
        owner = certs[0].owner
        total = sum(c.percent for c in certs)
        percent = total if percent is None else percent
        pres = self.president_cert(corp)
        bundle_pres = pres in certs
        previous = self.presidents.get(corp) or POOL
        for c in certs:
            self._put(c, to)
        physical: dict[str, int] = {}
        for c in self.by_corp[corp]:
            physical[c.owner] = physical.get(c.owner, 0) + c.percent
        # presidency counts the share_holders ledger: a partial bundle moved its percent
        ledger = {p: physical.get(p, 0) for p in self.players}
        if owner in ledger:
            ledger[owner] += total - percent
        if to in ledger:
            ledger[to] -= total - percent
        best = max(ledger.values(), default=0)
        majority = [p for p in self.players if ledger[p] == best]
        if previous in majority:
            return
        candidates = [p for p in majority if physical.get(p, 0) >= pres.percent]
        if not candidates:
            return
        new = min(candidates, key=lambda p: self._distance(previous, p))
        self.presidents[corp] = new
        if to == new and previous == owner and bundle_pres and total == percent:
            return  # the whole president's certificate changed hands with the office
        if owner == new:
            return
        if not bundle_pres and pres.owner != previous:
            return  # no president's certificate to swap
        if owner in self.players and to in self.players and bundle_pres:
            transfer_to = swap_to = to
        else:
            transfer_to = POOL
            swap_to = previous if physical.get(previous, 0) >= pres.percent else transfer_to
        self._change_president(corp, new, swap_to)
        if total > percent:
            self._partial(corp, total - percent, transfer_to, owner)

    def _partial(self, corp: str, extra: int, source: str, to: str) -> None:
        """``handle_partial``: a partial bundle's surplus comes back to the seller, the
        first certificates of ``source``."""
        for _ in range(extra // self.share_percent[corp]):
            first = self.holding(corp, source)
            if first:
                self._put(first[0], to)

    def buy(self, buyer: str, cert_id: str) -> None:
        """``buyer`` takes one certificate: an ordinary one, or (1846 receivership,
        ``g_1846/step/buy_sell_par_shares.rb``) the president's certificate from the pool
        counted as one share."""
        cert = self.certs[cert_id]
        if cert.president:
            self.transfer(cert.corp, [cert_id], buyer, self.share_percent[cert.corp])
            if self.presidents.get(cert.corp) is None and cert.owner == buyer:
                self.presidents[cert.corp] = buyer
            return
        self.transfer(cert.corp, [cert_id], buyer)

    def sale_bundle(self, seller: str, corp: str, percent: int) -> list[str]:
        """The certificates 18xx.games sells for ``percent`` (``bundles_for_corporation``:
        ordinary ones first, the president's last, the shortest prefix worth it)."""
        certs = sorted(self.holding(corp, seller), key=lambda c: (c.president, c.percent))
        out, got = [], 0
        for c in certs:
            if got >= percent:
                break
            out.append(c.id)
            got += c.percent
        if got < percent:
            raise ValueError(f"{seller} cannot sell {percent}% of {corp}")
        return out

    def sell(self, seller: str, corp: str, percent: int, ids: list[str] | None = None) -> list[str]:
        """``seller`` sells ``percent`` of ``corp`` to the pool (the certificates ``ids``
        if given, else :meth:`sale_bundle`); returns the certificates moved.  The caller
        checks legality (:meth:`sale_sizes`)."""
        ids = list(ids) if ids else self.sale_bundle(seller, corp, percent)
        self.transfer(corp, ids, POOL, percent)
        return ids

    def dump(self, seller: str, corp: str) -> None:
        """Every certificate of ``seller`` goes to the pool, the presidency passing on or
        the corporation entering receivership (``g_1846/step/bankrupt.rb``)."""
        ids = [c.id for c in self.holding(corp, seller)]
        if not ids:
            return
        self.transfer(corp, ids, POOL)
        if self.presidents.get(corp) == seller:
            self.presidents[corp] = None

    def move(self, cert_ids: list[str], to: str) -> None:
        """Move certificates without presidency checks (issue and redeem)."""
        for cid in cert_ids:
            self._put(self.certs[cid], to)

    def check_ids(self, ids, corp: str, holder: str, percent: int, president_ok=False) -> list:
        """The certificates an action names (18xx.games records name them): all of
        ``corp``, held by ``holder``, worth ``percent`` (more only by part of the
        president's certificate when ``president_ok``).

        Raises
        ------
        ValueError
            Naming the certificate or the mismatch.
        """
        if not isinstance(ids, list | tuple) or not ids:
            raise ValueError(f"'shares' must be a list of certificate ids, got {ids!r}")
        certs = []
        for cid in ids:
            cert = self.certs.get(cid) if isinstance(cid, str) else None
            if cert is None or cert.corp != corp:
                raise ValueError(f"{cid!r} is not a certificate of {corp}")
            if cert.owner != holder:
                raise ValueError(f"certificate {cid} is held by {cert.owner}, not {holder}")
            if cert.president and not president_ok:
                raise ValueError(f"certificate {cid} is the president's certificate")
            certs.append(cert)
        if len(set(ids)) != len(ids):
            raise ValueError(f"certificates {ids} repeat")
        total = sum(c.percent for c in certs)
        surplus = total - percent
        pres = any(c.president for c in certs)
        if surplus < 0 or (surplus and (not pres or surplus >= self.president_cert(corp).percent)):
            raise ValueError(f"certificates {ids} are worth {total}%, not {percent}%")
        return list(ids)

    # ------------------------------------------------------------------ sale rules
    def sale_sizes(self, seller: str, corp: str) -> list[int]:
        """Percentages ``seller`` could sell of ``corp`` as far as the certificates go:
        every multiple of the share size up to the holding, a president's part only when
        another player holds at least the president's percentage (``can_dump?``)."""
        share = self.share_percent.get(corp)
        if share is None:
            return []
        held = self.percent(corp, seller)
        if not held:
            return []
        sizes = list(range(share, held + 1, share))
        if self.presidents.get(corp) != seller:
            return sizes
        pres_pct = self.president_cert(corp).percent
        others = max((self.percent(corp, p) for p in self.players if p != seller), default=0)
        free = held - pres_pct
        return [s for s in sizes if s <= free or others >= pres_pct]

    def swaps_president(self, seller: str, corp: str, percent: int) -> bool:
        """Would selling ``percent`` hand the presidency to another player?"""
        if self.presidents.get(corp) != seller:
            return False
        remaining = self.percent(corp, seller) - percent
        others = max((self.percent(corp, p) for p in self.players if p != seller), default=0)
        return others > remaining
