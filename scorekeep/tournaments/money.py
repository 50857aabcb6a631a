"""A tournament's money (issue 18): entry fees, lost-game money, the pot, the prizes and a payout sheet that
adds up. Every amount is an integer in the currency's minor unit (`scorekeep.words.money`).

- Entry fees: the tournament's fee for each entrant, paid or still owed (the pot counts every fee due; the
  sheet shows what is still to collect).
- Lost-game money (Verlustspielgeld): for each series, each player pays for the games he lost as declarer
  (`TableStanding.lost` of his table — for Schafkopf and Kop the declaring side's games, as the ledger credits
  them), tiered by the count within the series: ``[{"from": 1, "amount": 50}, {"from": 4, "amount": 100}]``
  is 0.50 for each of the first three and 1.00 from the fourth.
- The pot: fees + lost-game money − the organiser's retention (a share of fees and lost-game money, typed in
  per cent and kept in per mille, rounded down to the minor unit, or a fixed amount).
- The prizes: amounts per place, or shares of the pot (typed in per cent with at most one decimal, kept in
  per mille; each rounded down to the minor unit: the remainder is stated and stays with what is left).
  Players tied on a prize place (a tie no lot broke) share the prizes of the places they occupy together,
  rounded down; that remainder is stated too.
- The payout sheet: pot = prizes paid + left over, as a check line; prizes above the pot leave a negative
  left-over, shown as a shortfall, never hidden.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from scorekeep.models import Tournament, TournamentRevision
from scorekeep.rules.ranking import UNRANKED
from scorekeep.tournaments import standings
from scorekeep.words.money import format_money, parse_units


class MoneyError(ValueError):
    """Money settings refused: the field and a sentence saying what is allowed."""

    def __init__(self, field_name: str, message: str) -> None:
        super().__init__(message)
        self.field = field_name
        self.message = message


# --- the settings, as typed and as kept --------------------------------------------------------------

def text(amount: int, tournament: Tournament, *, plus: bool = False) -> str:
    """An amount of the tournament's money as its pages and printouts write it ("12,50 €"), in its currency."""
    return format_money(amount, tournament.currency, exponent=tournament.exponent, plus=plus)


def units(amount: int, exponent: int) -> str:
    """An amount in minor units written in units for a form ("0.50"), without the currency."""
    return f"{Decimal(amount).scaleb(-exponent):.{exponent}f}"


def minor(text: str, exponent: int, field_name: str, currency: str) -> int:
    """Money typed in units ("0.50", "0,50", "5") as minor units; `MoneyError` naming the field otherwise (the
    tournament's forms read every amount so: the entry fee, the lost-game tiers, the prizes, the retention)."""
    value = parse_units(text, exponent)
    if value is None:
        raise MoneyError(field_name, gettext(
            "Write an amount in %(currency)s with at most %(n)s decimals, e.g. %(example)s — not “%(value)s”.")
            % {"currency": currency, "n": exponent, "example": units(50 * 10 ** max(exponent - 2, 0), exponent),
               "value": text})
    return int(value.scaleb(exponent))


TIER = re.compile(r"\s*(\d{1,3})(?:\s*:\s*|\s+)([^;\s]+)\s*")


def parse_tiers(text: str, exponent: int, currency: str) -> list[dict[str, int]]:
    """Tiers typed as "1: 0.50, 4: 1.00" or one a line, "1 0.50" (from the nth lost game of a series: the amount
    for each), kept as ``[{"from": 1, "amount": 50}, {"from": 4, "amount": 100}]``. Empty: no lost-game money."""
    if not text.strip():
        return []
    tiers = []
    # A comma is a decimal comma unless a new tier ("4:", "4 1.00") follows it.
    for part in re.split(r";|\n|,(?=\s*\d+\s*:|\s*\d+\s+\d)", text.strip().rstrip(",;")):
        if not part.strip():
            continue
        match = TIER.fullmatch(part)
        if match is None:
            raise MoneyError("lost_game_money", gettext(
                "Write the tiers as “from which lost game: amount”, separated by commas, e.g. “1: 0.50, 4: 1.00” — "
                "“%(part)s” is not such a tier.") % {"part": part.strip()})
        start = int(match.group(1))
        tiers.append({"from": start, "amount": minor(match.group(2), exponent, "lost_game_money", currency)})
    starts = [t["from"] for t in tiers]
    if starts[0] != 1 or starts != sorted(set(starts)):
        raise MoneyError("lost_game_money", gettext(
            "The first tier starts at the 1st lost game, and each further tier at a later game than the one "
            "before, e.g. “1: 0.50, 4: 1.00”."))
    return tiers


def tiers_text(tiers: Sequence[dict[str, int]], exponent: int) -> str:
    return ", ".join(f"{t['from']}: {units(t['amount'], exponent)}" for t in tiers)


def lost_game_money(lost: int, tiers: Sequence[dict[str, int]]) -> int:
    """What `lost` lost games of one series cost: each game at the tier it falls in."""
    total = 0
    for game in range(1, lost + 1):
        total += max((t for t in tiers if t["from"] <= game), key=lambda t: t["from"], default={"amount": 0})["amount"]
    return total


@transaction.atomic
def change(tournament: Tournament, *, entry_fee: int, lost_game_money: list[dict[str, int]],
           prizes: dict[str, Any], by: str = "") -> Tournament:
    """Store new money settings (their history kept as a revision) and move the version on."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    old = {"entry_fee": tournament.entry_fee, "lost_game_money": tournament.lost_game_money,
           "prizes": tournament.prizes}
    new = {"entry_fee": entry_fee, "lost_game_money": lost_game_money, "prizes": prizes}
    if old == new:
        return tournament
    Tournament.objects.filter(pk=tournament.pk).update(**new, version=F("version") + 1)
    TournamentRevision.objects.create(tournament=tournament, kind="money", old=old, new=new, by=by)
    tournament.refresh_from_db()
    return tournament


# --- the sheet ---------------------------------------------------------------------------------------

@dataclass(slots=True)
class Payer:
    """One entrant's money: the fee (paid or not) and the lost-game money of each series."""

    line: standings.Line
    fee: int
    paid: bool
    lost: list[int | None]  # games lost per series (None: not seated)
    lost_money: list[int | None]

    @property
    def lost_total(self) -> int:
        return sum(m for m in self.lost_money if m is not None)


@dataclass(slots=True)
class Prize:
    """A prize paid: the places it covers, who shares it, each one's amount and what rounding kept back."""

    places: tuple[int, int]  # first and last place covered
    winners: list[standings.Line]
    each: int
    remainder: int = 0

    @property
    def paid(self) -> int:
        return self.each * len(self.winners)


@dataclass(slots=True)
class Sheet:
    tournament: Tournament
    payers: list[Payer]
    fees: int
    fees_outstanding: int
    lost_money: int
    gross: int
    retention: int
    pot: int
    place_amounts: list[int]  # the prize of each place (shares worked out)
    share_remainder: int  # what rounding the shares down kept back
    prizes: list[Prize] = field(default_factory=list)

    @property
    def prizes_paid(self) -> int:
        return sum(p.paid for p in self.prizes)

    @property
    def tie_remainder(self) -> int:
        return sum(p.remainder for p in self.prizes)

    @property
    def left(self) -> int:
        """What the pot keeps after the prizes (negative: the prizes exceed the pot)."""
        return self.pot - self.prizes_paid

    @property
    def adds_up(self) -> bool:
        """The check line: fees + lost-game money − retention = pot = prizes paid + left, and no prize
        paid beyond the pot."""
        return (self.fees + self.lost_money - self.retention == self.pot == self.prizes_paid + self.left
                and self.left >= 0)


def place_amounts(prizes: dict[str, Any], pot: int) -> tuple[list[int], int]:
    """Each prize place's amount: as set, or its share (per mille) of the pot rounded down; and what the
    rounding kept back."""
    places = [int(p) for p in prizes.get("places", [])]
    if prizes.get("kind") != "shares":
        return places, 0
    amounts = [pot * share // 1000 for share in places]
    exact = pot * sum(places) // 1000
    return amounts, exact - sum(amounts)


def retention_of(prizes: dict[str, Any], gross: int) -> int:
    retention = prizes.get("retention") or {}
    value = int(retention.get("value", 0))
    return gross * value // 1000 if retention.get("kind") == "share" else value


def sheet(tournament: Tournament, now: standings.TournamentStandings | None = None) -> Sheet:
    """The tournament's money from its standings (the tables' kept standings; no deal is read)."""
    now = now or standings.standings(tournament)
    paid = dict(tournament.entrants.values_list("number", "paid"))
    tiers = tournament.lost_game_money or []
    payers = []
    for line in sorted(now.lines, key=lambda ln: ln.number):
        lost = [None if figures is None else int(figures["lost"]) for figures in line.series]
        payers.append(Payer(line, tournament.entry_fee, paid.get(line.number, False), lost,
                            [None if n is None else lost_game_money(n, tiers) for n in lost]))
    fees = tournament.entry_fee * len(payers)
    outstanding = tournament.entry_fee * sum(not p.paid for p in payers)
    lost_money = sum(p.lost_total for p in payers)
    gross = fees + lost_money
    retention = retention_of(tournament.prizes, gross)
    pot = gross - retention
    amounts, share_remainder = place_amounts(tournament.prizes, pot)
    result = Sheet(tournament, payers, fees, outstanding, lost_money, gross, retention, pot, amounts,
                   share_remainder)
    result.prizes = _prizes(now.lines, amounts)
    return result


def _prizes(lines: Sequence[standings.Line], amounts: Sequence[int]) -> list[Prize]:
    """The prizes by the ranking: a group sharing a place shares the prizes of the places it occupies."""
    groups: dict[int, list[standings.Line]] = {}
    for line in lines:
        groups.setdefault(line.place, []).append(line)
    out = []
    for place, group in sorted(groups.items()):
        if place == UNRANKED:  # a late entrant not ranked yet wins nothing yet
            continue
        if place > len(amounts):
            break
        last = place + len(group) - 1
        total = sum(amounts[place - 1:last])
        each = total // len(group)
        out.append(Prize((place, last), group, each, total - each * len(group)))
    return out


def share(text: str, field: str) -> int:
    """A share typed in per cent ("50", "12.5", "12,5": at most one decimal, 0 to 100) as kept: per mille."""
    value = parse_units(text, 1)
    if value is None or value > 100:
        raise MoneyError(field, gettext(
            "Write a share in per cent, from 0 to 100 with at most one decimal, e.g. 25 or 12.5 — not "
            "“%(value)s”.") % {"value": text})
    return int(value * 10)


def percent_text(per_mille: int) -> str:
    """A kept share (per mille) as it is typed: in per cent, "50" or "12.5"."""
    whole, tenth = divmod(per_mille, 10)
    return f"{whole}.{tenth}" if tenth else str(whole)


def parse_places(text: str, kind: str, exponent: int, currency: str) -> list[int]:
    """The prize places typed in order ("100, 50, 25.50" as amounts, "50, 30, 20" as per cent of the pot)."""
    parts = [p.strip() for p in re.split(r"[;\s]+|,\s+", text.strip()) if p.strip()] if text.strip() else []
    if kind != "shares":
        return [minor(p, exponent, "prize_places", currency) for p in parts]
    shares = [share(part, "prize_places") for part in parts]
    if sum(shares) > 1000:
        raise MoneyError("prize_places", gettext(
            "The shares add up to %(sum)s %%: at most 100 %% (the whole pot) can be paid out.")
            % {"sum": percent_text(sum(shares))})
    return shares


def parse_retention(text: str, kind: str, exponent: int, currency: str) -> int:
    if not text.strip():
        return 0
    if kind == "share":
        return share(text.strip(), "retention_value")
    return minor(text, exponent, "retention_value", currency)


def overview(tournament: Tournament) -> list[tuple[str, str]]:
    """The money settings in words for the tournament's overview (issue 31): the entry fee, the lost-game
    money's tiers, the prizes and the retention, and for a game played for money its tariff — each amount in
    the tournament's currency."""
    def m(amount: int) -> str:
        return text(amount, tournament)

    tiers = tournament.lost_game_money or []
    prizes = tournament.prizes or {}
    places = prizes.get("places", [])
    shares = prizes.get("kind") == "shares"
    retention = prizes.get("retention") or {"kind": "share", "value": 0}
    out = [(gettext("Entry fee"), m(tournament.entry_fee)),
           (gettext("Lost-game money per series"), "; ".join(
               gettext("from the %(n)s. lost game %(amount)s each") % {"n": t["from"], "amount": m(t["amount"])}
               for t in tiers) or gettext("none")),
           (gettext("Prizes"), ", ".join(
               f"{place}. {percent_text(p) + ' %' if shares else m(p)}" for place, p in enumerate(places, start=1))
            or gettext("none")),
           (gettext("Organiser's retention"), (percent_text(retention["value"]) + " %") if retention["kind"] == "share"
            else m(retention["value"]))]
    return out
