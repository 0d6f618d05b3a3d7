"""1842 certificates: mixed 10% and 20% certificates, sold whole (rulebook 2, 3.3.1, 6.2).

:class:`ShareBook` keeps the data layout of :class:`engine.game.shares.ShareRegistry`
(``certs``, ``by_corp``, ``presidents``, what :func:`engine.game.invariants` reads) but has
its own rules, every one the 1842 rulebook's (3.3.6, 6.2), for the 1842 structures
(``data.CORPORATIONS`` ``shares``: 20% + 8x10%, 20% + 20% + 6x10%, the HAV's 20% + 6x10%
+ 20%):

- a certificate is sold whole, so a sale is a sum of the seller's certificates (6.2);
- the director certificate never goes to the pool by a sale; it changes hands when another
  holder then has strictly more, that holder handing over ordinary certificates worth
  20%, "two ordinary shares" (two 10% ones where held, else one 20%); ties go to the
  holder nearest the old director's left (3.3.6);
- holders may be players or, for the HAV, corporations too (3.4.1): presidency is decided
  among the ``holders`` the book is made with.

Certificates still in the initial offering are held by the corporation symbol, in stack
order (certificate No. 1, the director's, on top; 4).
"""

from __future__ import annotations

from engine.game.shares import POOL, Certificate, ShareRegistry

__all__ = ["ShareBook", "POOL"]


class ShareBook(ShareRegistry):
    """Certificates of several corporations; ``players`` (the holders who may direct a
    corporation) decide presidencies, ties going round from the old director's left."""

    def add_structure(self, corp: str, percents: list[int]) -> None:
        """Create ``corp``'s certificates (director's first), all in the offering."""
        if corp in self.by_corp:
            raise ValueError(f"corporation {corp!r} already has certificates")
        if sum(percents) != 100 or any(p not in (10, 20) for p in percents):
            raise ValueError(f"{corp}: certificates {percents} must be 10/20% summing to 100")
        certs = [Certificate(f"{corp}_{i}", corp, p, i == 0, corp) for i, p in enumerate(percents)]
        self.by_corp[corp] = certs
        for c in certs:
            self.certs[c.id] = c
        self.presidents[corp] = None
        self.share_percent[corp] = 10

    def adopt(self, corp: str, other: ShareBook) -> None:
        """Move ``corp``'s certificates from ``other`` into this book (a successor starts)."""
        certs = other.by_corp.pop(corp)
        for c in certs:
            del other.certs[c.id]
            self.certs[c.id] = c
        self.by_corp[corp] = certs
        self.presidents[corp] = other.presidents.pop(corp, None)
        self.share_percent[corp] = other.share_percent.pop(corp, 10)

    def copy(self) -> ShareBook:
        other = ShareBook(self.players)
        for corp, certs in self.by_corp.items():
            mine = [Certificate(c.id, c.corp, c.percent, c.president, c.owner) for c in certs]
            other.by_corp[corp] = mine
            for c in mine:
                other.certs[c.id] = c
        other.presidents = dict(self.presidents)
        other.share_percent = dict(self.share_percent)
        return other

    # ------------------------------------------------------------------ queries
    def percent(self, corp: str, holder: str) -> int:
        return sum(c.percent for c in self.by_corp.get(corp, ()) if c.owner == holder)

    def certs_of(self, holder: str, corp: str | None = None) -> list[Certificate]:
        corps = [corp] if corp is not None else list(self.by_corp)
        return [c for k in corps for c in self.by_corp.get(k, ()) if c.owner == holder]

    def ordinary(self, corp: str, holder: str) -> list[Certificate]:
        """``holder``'s ordinary certificates of ``corp``, in stack order."""
        return [c for c in self.by_corp.get(corp, ()) if c.owner == holder and not c.president]

    def offering(self, corp: str) -> list[Certificate]:
        """Certificates still in the initial offering, top of the stack first."""
        return [c for c in self.by_corp.get(corp, ()) if c.owner == corp]

    def holders_percent(self, corp: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for c in self.by_corp.get(corp, ()):
            out[c.owner] = out.get(c.owner, 0) + c.percent
        return out

    def _left_of(self, a: str | None, b: str) -> int:
        """Seats from ``a`` round to ``b`` (3.3.6: the old director's left first)."""
        if a not in self.players:
            return self.players.index(b)
        n = len(self.players)
        return (self.players.index(b) - self.players.index(a)) % n or n

    # ------------------------------------------------------------------ director
    @staticmethod
    def _twenty(certs: list[Certificate]) -> list[Certificate] | None:
        """Ordinary certificates worth exactly 20%: two 10% ones, else one 20% (3.3.6)."""
        tens = [c for c in certs if c.percent == 10]
        if len(tens) >= 2:
            return tens[:2]
        twenties = [c for c in certs if c.percent == 20]
        return twenties[:1] or None

    def _swap(self, corp: str, new: str, swap_to: str) -> None:
        """``new`` hands 20% of ordinary certificates to ``swap_to`` and takes the
        director certificate (3.3.6)."""
        give = self._twenty(self.ordinary(corp, new))
        if give is None:  # cannot happen for a holder of > 20% in 10/20 certificates
            raise ValueError(f"{new} cannot hand over 20% of {corp} for the director certificate")
        for c in give:
            c.owner = swap_to
        self.president_cert(corp).owner = new
        self.presidents[corp] = new

    def check_president(self, corp: str) -> None:
        """After a purchase: another holder with strictly more (and at least 20%) becomes
        director, the old one (or, holding less than 20%, the pool) taking the 20% handed
        over; with no director the first holder reaching 20% takes the certificate from
        the pool (10.4)."""
        pres_pct = self.president_cert(corp).percent
        held = {p: self.percent(corp, p) for p in self.players}
        best = max(held.values(), default=0)
        prev = self.presidents.get(corp)
        if (prev is not None and held.get(prev, 0) >= best) or best < pres_pct:
            return
        if prev is None and self.president_cert(corp).owner != POOL:
            return  # not parred yet (the director certificate still lies in the offering)
        new = min((p for p in self.players if held[p] == best),
                  key=lambda p: self._left_of(prev, p))  # fmt: skip
        swap_to = prev if prev is not None and held[prev] >= pres_pct else POOL
        self._swap(corp, new, swap_to)

    # ------------------------------------------------------------------ sales
    @staticmethod
    def _pick(certs: list[Certificate], percent: int) -> list[Certificate] | None:
        """Whole certificates summing to ``percent``, largest first (exact for 10/20)."""
        out, need = [], percent
        for c in sorted(certs, key=lambda c: (-c.percent, c.id)):
            if c.percent <= need:
                out.append(c)
                need -= c.percent
        return out if need == 0 else None

    def _sale_plan(self, seller: str, corp: str, percent: int):
        """(new director or None, the certificates that go to the pool) or None."""
        held = self.percent(corp, seller)
        if percent <= 0 or percent > held:
            return None
        own = self.ordinary(corp, seller)
        if self.presidents.get(corp) != seller:
            picked = self._pick(own, percent)
            return None if picked is None else (None, picked)
        others = {p: self.percent(corp, p) for p in self.players if p != seller}
        best = max(others.values(), default=0)
        if best <= held - percent:  # the director stays: ordinary certificates only
            picked = self._pick(own, percent)
            return None if picked is None else (None, picked)
        if best < self.president_cert(corp).percent:
            return None  # nobody can take the director certificate (3.3.6)
        new = min((p for p in self.players if p != seller and others[p] == best),
                  key=lambda p: self._left_of(seller, p))  # fmt: skip
        give = self._twenty(self.ordinary(corp, new))
        if give is None:
            return None
        picked = self._pick(own + give, percent)
        return None if picked is None else (new, picked)

    def sale_sizes(self, seller: str, corp: str) -> list[int]:
        """Percentages ``seller`` can sell of ``corp`` in whole certificates (6.2, 3.3.6)."""
        held = self.percent(corp, seller)
        return [p for p in range(10, held + 1, 10) if self._sale_plan(seller, corp, p)]

    def swaps_president(self, seller: str, corp: str, percent: int) -> bool:
        plan = self._sale_plan(seller, corp, percent)
        return plan is not None and plan[0] is not None

    def sell(self, seller: str, corp: str, percent: int, ids=None) -> list[str]:
        """``seller`` sells ``percent`` of ``corp`` to the pool (whole certificates)."""
        plan = self._sale_plan(seller, corp, percent)
        if plan is None:
            raise ValueError(f"{seller} cannot sell {percent}% of {corp} in whole certificates")
        new, picked = plan
        if new is not None:
            self._swap(corp, new, seller)
        for c in picked:
            c.owner = POOL
        return [c.id for c in picked]

    def dump(self, seller: str, corp: str) -> None:
        """Every certificate of ``seller`` goes to the pool (10.4); a director's office
        passes to the holder with the most (at least 20%), else nobody directs."""
        if self.presidents.get(corp) == seller:
            others = {p: self.percent(corp, p) for p in self.players if p != seller}
            best = max(others.values(), default=0)
            if best >= self.president_cert(corp).percent:
                new = min((p for p in self.players if p != seller and others[p] == best),
                          key=lambda p: self._left_of(seller, p))  # fmt: skip
                self._swap(corp, new, POOL)
            else:
                self.presidents[corp] = None
        for c in self.by_corp.get(corp, ()):
            if c.owner == seller:
                c.owner = POOL

    def take(self, buyer: str, cert_id: str, check: bool = True) -> None:
        """``buyer`` takes one certificate (the offering's top, or one from the pool); a
        director certificate makes the buyer director; then presidency is checked."""
        cert = self.certs[cert_id]
        cert.owner = buyer
        if cert.president:
            self.presidents[cert.corp] = buyer
        if check:
            self.check_president(cert.corp)

    def move(self, cert_ids: list[str], to: str) -> None:
        for cid in cert_ids:
            self.certs[cid].owner = to
