"""Settling a card night in money: each player's balance and the fewest transfers that pay it
("Clara pays Anna €4.20"), in the night's currency, rounded the way players round.

How the issue is read here (every amount is an integer number of the minor unit of the night's
currency — "cents" below; whole yen for JPY, scorekeep/words/money.py — or an exact `Fraction` of it before
rounding, never a float):

- **What a player's points are worth.** Schafkopf and Kop are played zero-sum: every payment one
  player gets another pays, so a player's total times the rate is his balance (Schafkopf amounts
  are cents already, rate 1 by default; Kop small points need a rate). A Skat list and a Fipsen
  score sheet are not zero-sum (only the declarer scores), so they are settled as clubs settle a
  list played for money: *each pays each the difference* at the table — a player's balance is
  ``rate × (n × his points − the table's sum)`` for the `n` players at his table (the sitting
  dealer included). A Skat list settles on its list points by default; ``basis="performance"``
  settles on the performance (list points + Seeger-Fabian points, RULES.md) instead.
- **A night with several tables.** Each table is settled on its own (people pay those they
  played against); a player who sat at two tables gets the sum of both balances. The transfers are
  then found for the whole night, so one payment may cross tables: fewer transfers that way.
- **Tournament extras** (`Extras`): an entry fee from every player of the night and a fee for
  every lost game (the ledger's `lost`: games a player declared and lost) go into a pot, which is
  split by the night's final placing (`prize_split` in percent, e.g. ``(50, 30, 20)``; players
  tied on a place share the prizes of the places they occupy together, as RULES.md's placings
  do). The placing follows the same numbers the money does, summed over a player's tables —
  except at Kop nights with round placings, which are placed by their placing points. So::

      balance = points money − entry fee − lost games × fee per lost game + prize

- **Rounding the way players round.** Nobody hands over 3 cents: each balance is rounded to a
  step (`STEPS`: 1, 5, 10, 50 cents or one whole unit; 10 cents by default) so that the rounded
  balances still sum to zero. Each balance is first rounded down to a multiple of the step; the
  steps this leaves over go, one each, to the players with the *largest remainders* (ties: in
  name order, case-folded). So every balance moves by less than one step, an exact multiple is
  never moved, and nothing is lost: the transfers pay the rounded balances to the cent.
- **Fewest transfers.** `n` players with a balance settle in ``n − g`` transfers, where `g` is the
  largest number of disjoint groups whose balances sum to zero; finding `g` is NP-hard in
  general. Up to `EXACT_LIMIT` players with a balance it is found exactly (a dynamic programme
  over the subsets); beyond, equal debts and credits are paired first and then the largest debtor
  pays the largest creditor until all are even — at most ``n − 1`` transfers, not always the
  fewest. Transfers come out in payer, then payee name order.

Use::

    result = settle_night(night, rate=Fraction(1), step=10, extras=Extras(entry_fee=500))
    for t in result.transfers:
        f"{t.payer} pays {t.payee} {format_money(t.cents, result.currency)}"

`settle` does the same for plain numbers (`TableScore` per table), `round_balances` and
`fewest_transfers` are the two steps on their own. Bad input raises `SettlementError` naming the
field (``rate``, ``step``, ``basis``, ``entry_fee``, ``lost_game_fee``, ``prize_split``,
``balances``) and what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from typing import Any, Literal

from django.utils.translation import gettext

from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.words.labels import listed
from scorekeep.words.money import MINUS, currency_exponent, format_money, format_units, in_units, parse_units

# Rounding steps in the currency's minor unit that players use: exact, 5, 10, 50 of it, a hundred (a euro
# of cents; 100 yen, a coin).
STEPS = (1, 5, 10, 50, 100)

# Up to this many players with a balance the fewest transfers are found exactly (2^n subsets).
EXACT_LIMIT = 12

__all__ = ["MINUS", "format_money"]  # the money helpers the pages import from here too

Basis = Literal["list", "performance"]
Amount = int | Fraction | Decimal | str


class SettlementError(ValueError):
    """Input a settlement cannot use: the field at fault and a sentence saying what is allowed."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}")

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}


@dataclass(frozen=True, slots=True)
class Transfer:
    """One payment: `payer` hands `payee` `cents` (always more than zero)."""

    payer: str
    payee: str
    cents: int


@dataclass(frozen=True, slots=True)
class Extras:
    """Tournament extras, in cents: an entry fee per player and a fee per lost game, both paid into
    the pot, and how the pot is split by final placing (percent per place, first place first)."""

    entry_fee: int = 0
    lost_game_fee: int = 0
    prize_split: tuple[int, ...] = ()


NO_EXTRAS = Extras()


@dataclass(frozen=True, slots=True)
class TableScore:
    """What one table's ledger gives a settlement, per player name: the points the money follows,
    the games lost, and (if it differs from the points) what the placing follows."""

    points: Mapping[str, int]
    lost: Mapping[str, int] = field(default_factory=dict)
    standing: Mapping[str, Fraction | int] | None = None


@dataclass(frozen=True, slots=True)
class Line:
    """One player's part of the settlement: where his balance comes from, and the rounded balance."""

    name: str
    points: int  # summed over his tables
    from_points: Fraction  # cents his points are worth against the others at his tables
    entry_fee: int
    lost: int
    lost_fees: int
    prize: Fraction
    balance: int  # rounded to the step; what the transfers pay

    @property
    def exact(self) -> Fraction:
        """The balance before rounding."""
        return self.from_points - self.entry_fee - self.lost_fees + self.prize


@dataclass(frozen=True, slots=True)
class Settlement:
    """A settled night: one line per player (highest balance first, then by name), the transfers,
    the pot of the extras, and whether the transfers are proven to be the fewest possible."""

    currency: str
    step: int
    lines: list[Line]
    transfers: list[Transfer]
    pot: int
    minimal: bool
    exponent: int = 2  # the decimals of the amounts' unit (the night's `amount_exponent`)

    @property
    def balances(self) -> dict[str, int]:
        return {line.name: line.balance for line in self.lines}


# --- helpers -----------------------------------------------------------------------------------

def _name_key(name: str) -> tuple[str, str]:
    return name.casefold(), name


def _fraction(value: object, field: str) -> Fraction:
    """An exact number from an int, Fraction, Decimal or a decimal string; floats are refused,
    because 0.1 as a float is not a tenth and money must come out to the cent."""
    if isinstance(value, bool) or isinstance(value, float):
        raise SettlementError(field, gettext("give an exact number (an integer, a decimal or a fraction), "
                                             "not a floating-point number"))
    if isinstance(value, str):
        try:
            return Fraction(value.strip())
        except (ValueError, ZeroDivisionError):
            raise SettlementError(field, gettext("“%(value)s” is not a number; write it like 0.5")
                                  % {"value": value}) from None
    if isinstance(value, Rational | Decimal):
        try:
            return Fraction(value)
        except (ValueError, OverflowError):  # Decimal NaN or Infinity
            raise SettlementError(field, gettext("give a finite number")) from None
    raise SettlementError(field, gettext("give a number"))


def _cents(value: object, field: str) -> int:
    """A fee: a whole number of cents, zero or more."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise SettlementError(field, gettext("give a whole number of cents, zero or more"))
    return value


def _check_step(step: object) -> int:
    if step not in STEPS or isinstance(step, bool):
        allowed = listed(str(s) for s in STEPS)
        raise SettlementError("step", gettext("round to one of %(allowed)s cents") % {"allowed": allowed})
    assert isinstance(step, int)
    return step


def _check_zero_sum(balances: Mapping[str, Fraction | int], field: str = "balances") -> None:
    total = sum(balances.values(), Fraction(0))
    if total != 0:
        raise SettlementError(field, gettext("the balances must add up to zero, not %(total)s")
                              % {"total": total})


# --- rounding ----------------------------------------------------------------------------------

def round_balances(balances: Mapping[str, Fraction | int], step: int = 10) -> dict[str, int]:
    """Each balance rounded to a multiple of `step` cents, the rounded balances still summing to zero.

    Largest remainders: each balance is rounded down, and the steps that leaves over go to the
    players with the largest remainders (ties in name order), so each balance moves by less than
    one step and an exact multiple stays as it is.
    """
    step = _check_step(step)
    exact = {name: _fraction(value, "balances") for name, value in balances.items()}
    _check_zero_sum(exact)
    floors = {name: math.floor(value / step) for name, value in exact.items()}
    remainders = {name: exact[name] / step - floors[name] for name in exact}
    left_over = -sum(floors.values())  # the remainders sum to this whole number of steps
    up = set(sorted(exact, key=lambda name: (-remainders[name], _name_key(name)))[:left_over])
    return {name: (floors[name] + (name in up)) * step for name in exact}


# --- fewest transfers --------------------------------------------------------------------------

def _settle_group(balances: dict[str, int]) -> list[Transfer]:
    """Largest debtor pays largest creditor until all are even: each payment clears at least one of
    the two, so a group of `n` that sums to zero needs at most ``n − 1`` payments."""
    left = {name: cents for name, cents in balances.items() if cents}
    transfers = []
    while left:
        payer = min(left, key=lambda name: (left[name], _name_key(name)))
        payee = min(left, key=lambda name: (-left[name], _name_key(name)))
        cents = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, cents))
        for name, change in ((payer, cents), (payee, -cents)):
            left[name] += change
            if not left[name]:
                del left[name]
    return transfers


def zero_sum_groups(balances: Mapping[str, int]) -> list[list[str]]:
    """The largest number of disjoint groups of players whose balances each sum to zero (players
    with no balance left out), found exactly over the subsets; each group in name order.

    best[S] = the most zero-sum groups a chain of subsets down from S passes through: removing one
    player at a time from S, every subset on the way that sums to zero closes a group.
    """
    names = sorted((name for name, cents in balances.items() if cents), key=_name_key)
    amounts = [balances[name] for name in names]
    size = 1 << len(names)
    total = [0] * size
    best = [0] * size
    for mask in range(1, size):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + amounts[low]
        best[mask] = max(best[mask & ~(1 << i)] for i in range(len(names)) if mask >> i & 1) + (total[mask] == 0)
    groups: list[list[str]] = []
    current: list[str] = []
    mask = size - 1
    while mask:
        if total[mask] == 0 and current:
            groups.append(current)
            current = []
        closes = total[mask] == 0
        i = next(i for i in range(len(names)) if mask >> i & 1 and best[mask & ~(1 << i)] + closes == best[mask])
        current.append(names[i])
        mask &= ~(1 << i)
    if current:
        groups.append(current)
    return [sorted(group, key=_name_key) for group in groups]


def _pair_equal(balances: dict[str, int]) -> list[Transfer]:
    """Pay off every debt that one creditor's credit matches exactly (one transfer clears two)."""
    transfers = []
    creditors: dict[int, list[str]] = {}
    for name in sorted(balances, key=_name_key):
        if balances[name] > 0:
            creditors.setdefault(balances[name], []).append(name)
    for payer in sorted(balances, key=_name_key):
        cents = -balances[payer]
        if cents > 0 and creditors.get(cents):
            payee = creditors[cents].pop(0)
            transfers.append(Transfer(payer, payee, cents))
            balances[payer] = balances[payee] = 0
    return transfers


def fewest_transfers(balances: Mapping[str, int]) -> tuple[list[Transfer], bool]:
    """Transfers that settle `balances` (whole cents per name, summing to zero), and whether they are
    proven to be the fewest: exactly so up to `EXACT_LIMIT` players with a balance, otherwise equal
    amounts paired and then largest debtor to largest creditor (at most ``n − 1`` transfers)."""
    for value in balances.values():
        if isinstance(value, bool) or not isinstance(value, int):
            raise SettlementError("balances", gettext("give every balance in whole cents"))
    _check_zero_sum(balances)
    owing = {name: cents for name, cents in balances.items() if cents}
    if len(owing) <= EXACT_LIMIT:
        transfers = [t for group in zero_sum_groups(owing) for t in _settle_group({n: owing[n] for n in group})]
        minimal = True
    else:
        transfers = _pair_equal(owing)
        transfers += _settle_group(owing)
        minimal = False
    transfers.sort(key=lambda t: (_name_key(t.payer), _name_key(t.payee)))
    return transfers, minimal


# --- from points to balances -------------------------------------------------------------------

def table_money(points: Mapping[str, int], rate: Amount, *, zero_sum: bool) -> dict[str, Fraction]:
    """What each player at one table gets (+) or pays (−), in cents, for his points at `rate` cents a
    point: zero-sum scores (Schafkopf, Kop) as they stand; a list (Skat, Fipsen) each pays each the
    difference: ``rate × (n × points − the table's sum)``."""
    rate = _fraction(rate, "rate")
    if rate < 0:
        raise SettlementError("rate", gettext("the rate per point cannot be negative"))
    if zero_sum:
        _check_zero_sum(points, "points")
        return {name: rate * value for name, value in points.items()}
    n, table_sum = len(points), sum(points.values())
    return {name: rate * (n * value - table_sum) for name, value in points.items()}


def prizes(standing: Mapping[str, Fraction | int], pot: int, split: Sequence[int]) -> dict[str, Fraction]:
    """The pot shared out by placing (highest standing first), `split` in percent per place; players
    tied on a place share the prizes of the places they occupy together."""
    order = sorted(standing, key=lambda name: (-standing[name], _name_key(name)))
    place_prizes = [Fraction(pot * percent, 100) for percent in split] + [Fraction(0)] * len(order)
    out = {name: Fraction(0) for name in order}
    place = 0
    while place < len(order):
        tied = [name for name in order[place:] if standing[name] == standing[order[place]]]
        share = sum(place_prizes[place:place + len(tied)], Fraction(0)) / len(tied)
        for name in tied:
            out[name] = share
        place += len(tied)
    return out


def _check_extras(extras: Extras) -> Extras:
    entry_fee = _cents(extras.entry_fee, "entry_fee")
    lost_game_fee = _cents(extras.lost_game_fee, "lost_game_fee")
    split = tuple(extras.prize_split)
    if any(isinstance(p, bool) or not isinstance(p, int) or p < 0 for p in split):
        raise SettlementError("prize_split", gettext("give each place's share as a whole percent, zero or more"))
    if split and sum(split) != 100:
        raise SettlementError("prize_split", gettext("the shares of the places must add up to 100 %%, not %(sum)s %%")
                              % {"sum": sum(split)})
    return Extras(entry_fee, lost_game_fee, split)


def _check_pot(pot: int, split: Sequence[int], players: int) -> None:
    """A pot needs places to go to, no more of them than there are players."""
    if pot and not split:
        raise SettlementError("prize_split", gettext("with an entry fee or a fee per lost game, say how the pot "
                                                     "is split (percent per place, e.g. 50, 30, 20)"))
    if pot and len(split) > players:
        raise SettlementError("prize_split", gettext("%(places)s places paid but only %(players)s players")
                              % {"places": len(split), "players": players})


def settle(tables: Iterable[TableScore], *, zero_sum: bool, rate: Amount, step: int = 10,
           extras: Extras = NO_EXTRAS, currency: str = "EUR", exponent: int | None = None) -> Settlement:
    """Settle the tables of a night: each table's points in money (`table_money`), summed per player,
    the extras, rounded (`round_balances`) and paid in the fewest transfers (`fewest_transfers`)."""
    step = _check_step(step)
    extras = _check_extras(extras)
    points: dict[str, int] = {}
    money: dict[str, Fraction] = {}
    lost: dict[str, int] = {}
    standing: dict[str, Fraction] = {}
    for table in tables:
        for name, cents in table_money(table.points, rate, zero_sum=zero_sum).items():
            money[name] = money.get(name, Fraction(0)) + cents
            points[name] = points.get(name, 0) + table.points[name]
            lost[name] = lost.get(name, 0) + table.lost.get(name, 0)
            placed = table.standing[name] if table.standing is not None else table.points[name]
            standing[name] = standing.get(name, Fraction(0)) + placed
    pot = extras.entry_fee * len(money) + extras.lost_game_fee * sum(lost.values())
    _check_pot(pot, extras.prize_split, len(money))
    prize = prizes(standing, pot, extras.prize_split) if pot else {name: Fraction(0) for name in money}
    exact = {name: money[name] - extras.entry_fee - lost[name] * extras.lost_game_fee + prize[name]
             for name in money}
    balances = round_balances(exact, step)
    transfers, minimal = fewest_transfers(balances)
    lines = [Line(name, points[name], money[name], extras.entry_fee, lost[name], lost[name] * extras.lost_game_fee,
                  prize[name], balances[name]) for name in money]
    lines.sort(key=lambda line: (-line.balance, _name_key(line.name)))
    return Settlement(currency, step, lines, transfers, pot, minimal,
                      currency_exponent(currency) if exponent is None else exponent)


# --- a card night ------------------------------------------------------------------------------

def night_tables(night: CardNight, basis: Basis = "list",
                 ledgers: Sequence[ledger.Ledger] | None = None) -> list[TableScore]:
    """Each table's ledger (`ledger.build`, or the `ledgers` a page built already) as a settlement
    reads it: list points (or, Skat only, the performance), games lost, and the placing (Kop round
    placings where the night has them)."""
    if basis not in ("list", "performance"):
        raise SettlementError("basis", gettext("settle on the list or on the performance"))
    if basis == "performance" and not night.seeger_fabian:
        raise SettlementError("basis", gettext("only a Skat list has a performance (Seeger-Fabian)"))
    scores = []
    for sheet in (ledgers if ledgers is not None else [ledger.build(table) for table in night.tables.all()]):
        numbers = sheet.performance if basis == "performance" else sheet.totals
        standing = (dict(zip(sheet.names, sheet.placing_totals, strict=True))
                    if sheet.placing_totals is not None else None)
        scores.append(TableScore(dict(zip(sheet.names, numbers, strict=True)),
                                 dict(zip(sheet.names, sheet.lost, strict=True)), standing))
    return scores


def settle_night(night: CardNight, *, rate: Amount | None = None, basis: Basis = "list", step: int = 10,
                 extras: Extras = NO_EXTRAS, ledgers: Sequence[ledger.Ledger] | None = None,
                 exponent: int | None = None) -> Settlement:
    """Settle a night in its currency. `rate`: minor units (cents, yen) a point is worth — Schafkopf amounts
    are money already (rate 1 unless given); Skat, Kop and Fipsen need one (0 settles the extras alone).
    `exponent`: the decimals of the amounts' unit, the night's unless given."""
    if rate is None:
        if not night.money:
            raise SettlementError("rate", gettext("give the cents a point is worth, e.g. 1 (0 settles only the "
                                                  "entry fees and prizes)"))
        rate = 1
    return settle(night_tables(night, basis, ledgers), zero_sum=night.zero_sum, rate=rate, step=step,
                  extras=extras, currency=night.currency, exponent=night.exponent if exponent is None else exponent)


# --- the options stored with a night (its settlement page sets them) ---------------------------------

DEFAULT_STEP = 10

# --- money as text --------------------------------------------------------------------------------

def plain(value: Decimal, min_decimals: int = 0) -> str:
    """A decimal in plain notation (never 5E+1), trailing zeros dropped down to `min_decimals`."""
    text = format(value, "f")
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    whole, _point, decimals = text.partition(".")
    if len(decimals) < min_decimals:
        decimals = decimals.ljust(min_decimals, "0")
    return f"{whole}.{decimals}" if decimals else whole


def units(amount: Decimal | int, currency: str, exponent: int | None = None) -> str:
    """An amount of minor units (a rate may be a fraction of one) with at least the currency's decimals:
    0.5 cents → €0.005, 500 → 5.00 CHF, 20 yen → ¥20."""
    return format_units(in_units(Decimal(amount), currency_exponent(currency) if exponent is None else exponent),
                        currency)


def money_text(value: Fraction | int, currency: str, *, exponent: int | None = None, plus: bool = False) -> str:
    """An amount of minor units to the unit; an amount between two is marked as rounded (≈)."""
    value = Fraction(value)
    text = format_money(round(value), currency, exponent=exponent, plus=plus)
    return text if value.denominator == 1 else f"≈\u00a0{text}"


def parse_money(text: str, decimals: int, exponent: int = 2) -> Decimal:
    """Money typed in units of the currency ("0.05", "0,05", "5") as minor units (`exponent` decimals, cents by
    default); ValueError if it is not a number with at most `decimals` decimals."""
    value = parse_units(text, decimals)
    if value is None:
        raise ValueError(text)
    return value.scaleb(exponent)


# --- the stored options -------------------------------------------------------------------------

def stored(night: CardNight) -> dict[str, Any]:
    return night.settlement if isinstance(night.settlement, dict) else {}


def played_for_money(night: CardNight) -> bool:
    """Schafkopf always is (its amounts are money); another game once the host has given a rate."""
    return night.money or stored(night).get("rate") is not None


def settle_as_stored(night: CardNight, ledgers: Sequence[ledger.Ledger] | None = None) -> Settlement:
    """The night settled under its stored options; `SettlementError` when they are not usable (the
    page says which option and why, and the host's form can fix it). `ledgers`: the tables' ledgers
    when the caller built them already (no queries then)."""
    options = stored(night)
    split = options.get("prize_split", [])
    if not isinstance(split, list | tuple):
        raise SettlementError("prize_split", gettext("give each place's share as a whole percent, zero or more"))
    extras = Extras(options.get("entry_fee", 0), options.get("lost_game_fee", 0), tuple(split))
    return settle_night(night, rate=options.get("rate"), basis=options.get("basis", "list"),
                        step=options.get("step", DEFAULT_STEP), extras=extras, ledgers=ledgers)


def options_in_words(options: dict[str, Any], currency: str, exponent: int | None = None) -> str:
    """Stored options as the settings history writes them: "€0.01 a point, rounded to €0.10, entry fee €5.00"."""
    parts = []
    if options.get("rate") is not None:
        parts.append(gettext("%(rate)s a point") % {"rate": units(Decimal(str(options["rate"])), currency, exponent)})
    if options.get("basis") == "performance":
        parts.append(gettext("on the performance (list + Seeger-Fabian)"))
    if options.get("step") is not None:
        parts.append(gettext("rounded to %(step)s") % {"step": units(int(options["step"]), currency, exponent)})
    if options.get("entry_fee"):
        parts.append(gettext("entry fee %(fee)s") % {"fee": units(int(options["entry_fee"]), currency, exponent)})
    if options.get("lost_game_fee"):
        fee = units(int(options["lost_game_fee"]), currency, exponent)
        parts.append(gettext("%(fee)s per lost game") % {"fee": fee})
    if options.get("prize_split"):
        parts.append(gettext("prizes %(split)s %%") % {"split": " / ".join(str(p) for p in options["prize_split"])})
    return listed(parts)


# --- what the night settled when it was finished (issue 33) ------------------------------------------------

def at_finish(night: CardNight, when: str) -> dict[str, Any]:
    """What to keep with the night as it is finished (`CardNight.finish`): when, and — where it is settled in
    money under its options — the transfers and each player's balance then, so a change made after the finish
    can be shown against what was settled."""
    kept: dict[str, Any] = {"at": when}
    if played_for_money(night):
        try:
            settled = settle_as_stored(night)
        except SettlementError:  # options that do not settle: nothing was settled at the finish
            return kept
        kept["transfers"] = [[t.payer, t.payee, t.cents] for t in settled.transfers]
        kept["balances"] = settled.balances
    return kept


@dataclass(frozen=True, slots=True)
class SinceFinish:
    """What the changes made after the finish did to the settlement: the transfers settled at the finish and
    those now, and each player whose balance moved (balance then, now)."""

    then: list[Transfer]
    now: list[Transfer]
    moved: list[tuple[str, int, int]]

    @property
    def changed(self) -> bool:
        return bool(self.moved) or self.then != self.now


def since_finish(night: CardNight, now: Settlement) -> SinceFinish | None:
    """The settlement now against the one kept at the finish (None: none was kept)."""
    kept = night.finish or {}
    if "transfers" not in kept:
        return None
    then = [Transfer(str(payer), str(payee), int(cents)) for payer, payee, cents in kept["transfers"]]
    before: dict[str, int] = {str(name): int(value) for name, value in kept.get("balances", {}).items()}
    after = now.balances
    moved = [(name, before.get(name, 0), after.get(name, 0)) for name in dict.fromkeys([*before, *after])
             if before.get(name, 0) != after.get(name, 0)]
    return SinceFinish(then, list(now.transfers), moved)
