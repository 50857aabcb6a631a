"""A Ramsch as a table enters it, completed into the contract's deal (Skat and Schafkopf).

The contract asks a Ramsch for every seat's card points and tricks (ADJUDICATION.md), but the scoring
asks much less of the tricks: who took none (a Jungfrau), who took them all (a Durchmarsch) and, in
Schafkopf, which of the players tied on the most card points took more (RULES.md; `schafkopf._ramsch_losers`).
So a page asks the card points — one player may be left empty: he has the rest of the pack — and has the
players who took no trick or every trick tapped (`marks`, the inputs `NO_TRICK` and `EVERY_TRICK`); a
seat's tricks are typed only where they decide. `complete` turns that into the contract's ``points`` and
``tricks``: a share of the tricks that holds every seat's card points as the game's own reading checks
them (`Pack.holds`), or an `IllegalDeal` naming the input that cannot be. `as_entered` goes back, for a
stored deal a page corrects.

A seat no tap names took at least one trick and, unless every other player took none, not all of them:
otherwise the table would have tapped it, and the Ramsch would score differently.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import IllegalDeal
from .explain import Seat, Seats, Word, counted
from .inputs import Input, Kind

NO_TRICK, EVERY_TRICK = "no_trick", "every_trick"
"""The page's taps: the seats that took no trick (a list), the seat that took every trick."""


def _nobody_decides(points: Sequence[int], playing: Sequence[int]) -> tuple[int, ...]:
    return ()


@dataclass(frozen=True, slots=True)
class Pack:
    """A game's Ramsch: the pack's card points, the deal's tricks, `holds(points, tricks)` — whether one
    seat can hold those card points with that many tricks, the game's own check — and `decides(points,
    playing)`: the seats whose tricks decide the Ramsch for these card points beyond who took none or all
    (Schafkopf: the players tied on the most), none where nothing does."""

    points: int
    tricks: int
    holds: Callable[[int, int], bool]
    decides: Callable[[Sequence[int], Sequence[int]], tuple[int, ...]] = _nobody_decides


def marks(pack: Pack, playing: int) -> tuple[tuple[int, Input], ...]:
    """The taps a page may ask in place of typing the tricks: no trick (several players), every trick (one)."""
    return ((0, Input(NO_TRICK, Kind.SEATS, Word("Took no trick (Jungfrau)"), lo=0, hi=playing - 1)),
            (pack.tricks, Input(EVERY_TRICK, Kind.SEAT, Word("Took every trick (Durchmarsch)"),
                                empty=Word("nobody"))))


def complete(facts: Mapping[str, Any], pack: Pack, seats: int, playing: Sequence[int]) -> dict[str, Any]:
    """A Ramsch's facts as a page entered them — ``points`` and ``tricks`` with None where a seat was left
    empty, ``no_trick`` (seats) and ``every_trick`` (a seat) — as the contract's deal, both lists whole.
    Facts with both lists whole and no taps pass as they are, and so do facts with nothing entered or a
    list the contract refuses anyway (it says why); raises `IllegalDeal` where no completion exists.
    `seats`: the table's seats; `playing`: those that play the deal (not Skat's sitting dealer)."""
    out = {key: value for key, value in facts.items() if key not in (NO_TRICK, EVERY_TRICK)}
    no_trick, every_trick = facts.get(NO_TRICK) or [], facts.get(EVERY_TRICK)
    points = _entered(facts.get("points"), seats)
    tricks = _entered(facts.get("tricks"), seats)
    if points is None or tricks is None or not isinstance(no_trick, list) or not all(
            type(seat) is int for seat in [*no_trick, *([] if every_trick is None else [every_trick])]):
        return out
    marked = bool(no_trick) or every_trick is not None
    if not marked and (None not in points and None not in tricks or all(p is None for p in points)):
        return out
    whole_points, whole_tricks = complete_lists(points, tricks, tuple(no_trick), every_trick, pack, playing)
    return {**out, "points": list(whole_points), "tricks": list(whole_tricks)}


def _entered(value: object, seats: int) -> list[int | None] | None:
    """A per-seat list as a page sends it (None: left empty; left out: all empty); None when it is not one."""
    if value is None:
        return [None] * seats
    if isinstance(value, list) and len(value) == seats and all(v is None or type(v) is int for v in value):
        return list(value)
    return None


def complete_lists(points: Sequence[int | None], tricks: Sequence[int | None], no_trick: Sequence[int],
                   every_trick: int | None, pack: Pack, playing: Sequence[int]) -> tuple[tuple[int, ...],
                                                                                      tuple[int, ...]]:
    """Every seat's card points and tricks from the card points entered (one playing seat may be None: it
    has the rest of `pack.points`; a seat that took no trick may be None: it has none), the tricks typed
    (None where not), the seats that took no trick and the one that took every trick. Seats not `playing`
    (Skat's sitting dealer) have nothing. Of the shares of the tricks that fit, the one nearest to the card
    points' proportions is taken; where the shares that fit would score differently (`Pack.decides`), the
    tricks that decide are asked for."""
    seats = range(len(points))
    given: list[int | None] = [None] * len(points)
    source: dict[int, str] = {}  # the input each fixed trick count comes from
    known = list(points)
    for seat in seats:
        if seat in playing:
            continue
        if points[seat] or tricks[seat]:
            raise IllegalDeal(f"deal.points.{seat}", "{seat} sits this deal out: its card points and tricks are 0",
                              seat=Seat(seat))
        known[seat], given[seat] = 0, 0
    _check_marks(no_trick, every_trick, playing)
    for seat in playing:
        if tricks[seat] is not None:
            given[seat], source[seat] = tricks[seat], f"deal.tricks.{seat}"
    for seat in no_trick:
        if given[seat] not in (None, 0):
            raise IllegalDeal("deal.no_trick", _NO_TRICK_BUT, seat=Seat(seat), tricks=given[seat])
        given[seat], source[seat] = 0, "deal.no_trick"
    if every_trick is not None:
        if given[every_trick] not in (None, pack.tricks):
            raise IllegalDeal("deal.every_trick", _EVERY_TRICK_BUT, seat=Seat(every_trick), tricks=given[every_trick])
        given[every_trick], source[every_trick] = pack.tricks, "deal.every_trick"
        for seat in playing:
            if seat == every_trick:
                continue
            if given[seat] not in (None, 0):
                raise IllegalDeal("deal.every_trick", "{seat} took every trick, so {other} took none, not {tricks}",
                                  seat=Seat(every_trick), other=Seat(seat), tricks=given[seat])
            if given[seat] is None:
                given[seat], source[seat] = 0, "deal.every_trick"
    for seat in playing:  # no trick, no card points: they need not be typed
        if given[seat] == 0 and known[seat] is None:
            known[seat] = 0
    whole = _whole_points(known, points, pack, playing)
    options = _options(whole, given, source, pack, playing)
    shares = list(_shares(options, pack.tricks))
    if not shares:
        raise _no_share(options, given, source, no_trick, every_trick, pack)
    tied = pack.decides(whole, playing)
    if tied:
        outcomes = {frozenset(s for s in tied if share[s] == max(share[t] for t in tied)) for share in shares}
        if len(outcomes) > 1:
            unknown = next(s for s in tied if given[s] is None)
            raise IllegalDeal(f"deal.tricks.{unknown}", "{seats} tie on {points} card points, and the tricks "
                              "decide who loses: enter their tricks", seats=Seats(tied), points=whole[tied[0]])
    share = min(shares, key=lambda share: (_distance(share, whole, pack), share))
    return whole, share


def _check_marks(no_trick: Sequence[int], every_trick: int | None, playing: Sequence[int]) -> None:
    for seat in no_trick:
        if seat not in playing:
            raise IllegalDeal("deal.no_trick", "{seat} does not play this deal", seat=Seat(seat))
    if every_trick is not None:
        if every_trick not in playing:
            raise IllegalDeal("deal.every_trick", "{seat} does not play this deal", seat=Seat(every_trick))
        if every_trick in no_trick:
            raise IllegalDeal("deal.every_trick", "{seat} cannot take every trick and no trick", seat=Seat(every_trick))
    if set(playing) <= set(no_trick):
        raise IllegalDeal("deal.no_trick", "somebody took the tricks: not every player can be without one")


def _whole_points(known: list[int | None], entered: Sequence[int | None], pack: Pack,
                  playing: Sequence[int]) -> tuple[int, ...]:
    """Every seat's card points: the one playing seat left empty has the rest of the pack's."""
    missing = [seat for seat in playing if known[seat] is None]
    if len(missing) > 1:
        raise IllegalDeal(f"deal.points.{missing[1]}", "enter the card points of every player but one (that one "
                          "has the rest of the {total})", total=pack.points)
    total = sum(p for p in known if p is not None)
    typed = [seat for seat in playing if entered[seat] is not None]
    if missing:
        if total > pack.points:
            raise IllegalDeal(f"deal.points.{typed[0]}", "the card points entered add up to {got}, more than the "
                              "{total} of the pack", got=total, total=pack.points)
        known[missing[0]] = pack.points - total
    elif total != pack.points:
        raise IllegalDeal(f"deal.points.{typed[0]}" if typed else "deal.points", "the card points add up to "
                          "{got}, not {total}: leave one player empty for the rest", got=total,
                          total=pack.points)
    return tuple(p if p is not None else 0 for p in known)


def _options(points: Sequence[int], given: Sequence[int | None], source: Mapping[int, str], pack: Pack,
             playing: Sequence[int]) -> list[tuple[int, ...]]:
    """The trick counts each seat can have: the one given, or any that holds its card points, at least one."""
    options: list[tuple[int, ...]] = []
    for seat, (p, t) in enumerate(zip(points, given, strict=True)):
        if t is not None:
            if seat in playing and not pack.holds(p, t):
                if t == 0:
                    raise IllegalDeal(source[seat], "{seat} took no trick, so it has no card points, not {points}",
                                      seat=Seat(seat), points=p)
                raise IllegalDeal(source[seat], _CANNOT_HOLD, seat=Seat(seat), points=p, tricks=t)
            options.append((t,))
            continue
        fits = tuple(n for n in range(1, pack.tricks + 1) if pack.holds(p, n))
        if not fits:
            raise IllegalDeal(f"deal.points.{seat}", "{seat} cannot hold {points} card points with any number of "
                              "tricks", seat=Seat(seat), points=p)
        options.append(fits)
    return options


def _shares(options: Sequence[tuple[int, ...]], tricks: int) -> Iterator[tuple[int, ...]]:
    """Every choice of one trick count per seat from its `options` that adds up to `tricks`."""
    least = [min(o) for o in options]
    most = [max(o) for o in options]

    def go(seat: int, left: int) -> Iterator[tuple[int, ...]]:
        if seat == len(options):
            if left == 0:
                yield ()
            return
        rest_least, rest_most = sum(least[seat + 1:]), sum(most[seat + 1:])
        for n in options[seat]:
            if rest_least <= left - n <= rest_most:
                for tail in go(seat + 1, left - n):
                    yield (n, *tail)

    yield from go(0, tricks)


def _distance(share: Sequence[int], points: Sequence[int], pack: Pack) -> int:
    """How far a share of the tricks is from the card points' proportions (the likeliest share)."""
    return sum((t * pack.points - p * pack.tricks) ** 2 for t, p in zip(share, points, strict=True))


def _no_share(options: Sequence[tuple[int, ...]], given: Sequence[int | None], source: Mapping[int, str],
              no_trick: Sequence[int], every_trick: int | None, pack: Pack) -> IllegalDeal:
    """Why no share of the tricks fits, named at the input most likely at fault: tricks typed, then taps."""
    typed = [seat for seat in source if source[seat].startswith("deal.tricks.")]
    field = ("deal.tricks" if typed else "deal.no_trick" if no_trick else "deal.every_trick"
             if every_trick is not None else "deal.points")
    if all(t is not None for t in given):
        return IllegalDeal(field, "the tricks add up to {got}, not {tricks}", got=sum(t or 0 for t in given),
                           tricks=pack.tricks)
    least, most = sum(min(o) for o in options), sum(max(o) for o in options)
    if least > pack.tricks:
        return IllegalDeal(field, _NEED_AT_LEAST, least=least, tricks=pack.tricks)
    return IllegalDeal(field, "with the card points and tricks entered the players can have taken at most {most} of "
                       "the {tricks} tricks", most=most, tricks=pack.tricks)


def as_entered(facts: Mapping[str, Any], pack: Pack, seats: int, playing: Sequence[int]) -> dict[str, Any]:
    """A stored Ramsch as a page enters it: its card points, the seats that took no trick and the one that
    took every trick, and its tricks only where `complete` would not give them back as they are."""
    points, tricks = facts.get("points"), facts.get("tricks")
    whole = (isinstance(points, list) and isinstance(tricks, list) and len(points) == len(tricks) == seats
             and all(type(v) is int for v in [*points, *tricks]))
    if not whole:
        return dict(facts)
    assert isinstance(points, list) and isinstance(tricks, list)
    every_trick = next((seat for seat in playing if tricks[seat] == pack.tricks), None)
    no_trick = [seat for seat in playing if tricks[seat] == 0] if every_trick is None else []
    shown = {key: value for key, value in facts.items() if key != "tricks"}
    if no_trick:
        shown[NO_TRICK] = no_trick
    if every_trick is not None:
        shown[EVERY_TRICK] = every_trick
    try:
        _points, again = complete_lists(points, [None] * seats, no_trick, every_trick, pack, playing)
    except IllegalDeal:
        again = None
    if again != tuple(tricks):
        shown["tricks"] = list(tricks)
    return shown


# Refusals and lines that count something: their plural forms (explain.counted).
_NO_TRICK_BUT = counted("{seat} took no trick, but {tricks} trick is entered for it",
                        "{seat} took no trick, but {tricks} tricks are entered for it", "tricks")
_EVERY_TRICK_BUT = counted("{seat} took every trick, but {tricks} trick is entered for it",
                           "{seat} took every trick, but {tricks} tricks are entered for it", "tricks")
_CANNOT_HOLD = counted("{seat} cannot hold {points} card points with {tricks} trick",
                       "{seat} cannot hold {points} card points with {tricks} tricks", "tricks")
_NEED_AT_LEAST = counted("the card points and tricks entered need at least {least} trick, and a deal has {tricks}",
                         "the card points and tricks entered need at least {least} tricks, and a deal has {tricks}",
                         "least")
