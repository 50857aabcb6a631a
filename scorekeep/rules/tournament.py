"""What a game's rules say of a tournament: the tables it is played at, a series' length at each, and what
a table's list is checked for when its series closes.

**Tables.** Skat is a game of three: a tournament seats four at a table where it can (the dealer sits out
each deal) and three at the rest, so any count of players from three up is seated — 13 players are one
table of four and three of three, 6 are two tables of three (DSkV/ISkV tournament practice, ISkO 4.1's
Seeger-Fabian figures for the 3- and the 4-table). Fipsen is seated the same way (three or four play).
Schafkopf and Kop are games of four: every table has four (a Preisschafkopf "wird jeweils zu viert gespielt",
Schwäbische Zeitung on the Meckenbeuren tournament, 2024; Kop's regulations play the round of 32 deals at
tables of four).

**Byes.** Players the tables cannot take (Schafkopf and Kop: the count beyond a multiple of four; Skat and
Fipsen only with five players, who are one table of four and one left over) sit the series out: a bye
(Freilos). A bye is credited with nothing for that series — neither won nor lost: Schafkopf's list is
zero-sum, so 0 is the neutral result; Kop's bye scores no placing points; a Skat bye adds no Seeger-Fabian
points. So that byes go round, the draw gives them to the players with the fewest byes so far (among those,
by lot; in a draw by standings, the lowest ranked), and reports them.

**Length.** A series is given by its length at a full table of four; at a table of three it is three
quarters of that, so every player deals the same number of times at every table (Skat: 48 deals at a
4-table, 36 at a 3-table, each player dealing 12 times). A series' length is therefore a multiple of four.

**Closing a table's list.** When a series closes, each table's list is checked (issue 18 after the DSkV's
list check): every game checks that all the series' deals are there; Skat and Fipsen also that each player
dealt their share (a dealer missed or dealing twice shows a deal lost or written at the wrong place; while
deals are still missing, only a player who dealt more than their share is reported);
Schafkopf that the list sums to zero (what one side wins the other pays); Kop's round needs its deals only.

**What a part is called.** Skat, Schafkopf and Fipsen tournaments are played in series (Skat's "Serie" of
the DSkV/ISkV, Preisschafkopf's); a Kop tournament is played in rounds of 32 deals (Kop's regulations,
RULES.md's Wolsztyn and Kościan presets): `Format.unit` gives the words a page and a printout use.

**A table without a phone** keeps a paper list (issue 31); the organiser types its series result per player
from the list's foot: `Format.paper`'s columns — Skat's evaluation by Seeger-Fabian points (list points,
games won, games lost, and the list's own Seeger-Fabian total, held against what the others give), the
others' totals and games (Schafkopf also its Soli won, its tie-break) — and `check_paper` holds them to what
any paper list carries: the deals played within the series' length, each player's games within the deals,
a declarer alone at most once a deal, a zero-sum game's totals balancing, Seeger-Fabian points that add up.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from .errors import IllegalDeal
from .explain import Phrase, Seat, Word
from .games import GAMES


class Check(StrEnum):
    """What a closing table's list is checked for."""

    DEALS = "deals"  # all the series' deals are entered
    TURNS = "turns"  # each player dealt the same share of them
    ZERO_SUM = "zero_sum"  # the list's totals sum to zero


@dataclass(frozen=True, slots=True)
class Unit:
    """What a game calls one part of its tournament (a series, Kop's round), as message ids with ``{n}``
    for its number: the word alone (in a sentence), a heading for all of them ("Series", "Rounds"), one
    numbered as a heading ("Series 2") and inside a sentence ("after series 2"), and a column's short head
    ("S2"). No plural in a sentence: English "series" is both, and would be one message id for two words."""

    word: Word
    heading: Word
    numbered: Word
    in_text: Word
    short: Word


SERIES = Unit(Word("series"), Word("Series"), Word("Series {n}"), Word("series {n}"), Word("S{n}"))
ROUND = Unit(Word("round"), Word("Rounds"), Word("Round {n}"), Word("round {n}"), Word("R{n}"))


@dataclass(frozen=True, slots=True)
class PaperColumn:
    """A column of a paper list's foot that the organiser types per player: a figure of the table's standing
    (``total``, ``won``, ``lost``, ``soli_won``), or — `checked` — the list's own evaluation
    (``performance``: Skat's Seeger-Fabian points), which is not kept but held against the others."""

    key: str
    label: Word
    checked: bool = False


_WON = PaperColumn("won", Word("games won"))
_LOST = PaperColumn("lost", Word("games lost"))


@dataclass(frozen=True, slots=True)
class Format:
    """How a game is played at a tournament: the table sizes, the largest first (it is filled first), the
    checks of a closing table's list, what one part of the tournament is called, and the columns of a
    table's paper list the organiser types (`check_paper`)."""

    table_sizes: tuple[int, ...]
    checks: tuple[Check, ...]
    unit: Unit = SERIES
    paper: tuple[PaperColumn, ...] = ()


FULL_TABLE = 4  # a series' length is given at a table of four

FORMATS: dict[str, Format] = {
    "skat": Format((4, 3), (Check.DEALS, Check.TURNS), paper=(
        PaperColumn("total", Word("list points")), _WON, _LOST,
        PaperColumn("performance", Word("Seeger-Fabian points"), checked=True))),
    "fipsen": Format((4, 3), (Check.DEALS, Check.TURNS), paper=(PaperColumn("total", Word("points")), _WON, _LOST)),
    "schafkopf": Format((4,), (Check.DEALS, Check.ZERO_SUM), paper=(
        PaperColumn("total", Word("money won")), _WON, _LOST, PaperColumn("soli_won", Word("Soli won")))),
    "kop": Format((4,), (Check.DEALS,), ROUND, paper=(PaperColumn("total", Word("small points")), _WON, _LOST)),
}


def format_of(game: str) -> Format:
    return FORMATS[game]


def table_sizes(game: str, players: int) -> tuple[list[int], int]:
    """The table sizes `players` entrants are seated at (largest first) and how many have a bye.

    Skat/Fipsen: as many tables of four as the rest can still be filled with tables of three; Schafkopf/Kop:
    tables of four, the rest byes. Raises `IllegalDeal` (field ``entrants``) when not even one table fills.
    """
    sizes = FORMATS[game].table_sizes
    smallest = min(sizes)
    if players < smallest:
        raise IllegalDeal("entrants", "a table needs at least {need} players; {got} are entered",
                          need=smallest, got=players)
    if sizes == (4, 3):
        tables = -(-players // 4)
        threes = 4 * tables - players
        if threes <= tables:
            return [4] * (tables - threes) + [3] * threes, 0
        # Five: one table of four and a bye (no mix of threes and fours seats five).
        return [4], players - 4
    return [4] * (players // 4), players % 4


def series_length_at(game: str, length: int, seats: int) -> int:
    """A series' deals at a table of `seats`, given its `length` at a table of four: each player deals
    ``length / 4`` times (Skat 48 → 36 at three)."""
    return length * seats // FULL_TABLE


def check_series_length(game: str, length: object) -> int:
    """The series' length at a full table, or `IllegalDeal` (field ``series_length``): a positive multiple of
    four, so that every player deals as often as every other at a table of three or four."""
    if type(length) is not int or length <= 0 or length % FULL_TABLE or length > 400:
        raise IllegalDeal("series_length", "is the deals of a series at a table of four: a multiple of 4 "
                          "from 4 to 400, not {got}", got=length)
    return length


def check_table(game: str, length: int, dealers: Sequence[int] | None, totals: Sequence[int], *,
                deals: int = 0) -> list[Phrase]:
    """What is missing or wrong in a closing table's list, in words (empty: the list is complete).

    `length` is the series' deals at this table, `dealers` the position (0 … n−1) of each live deal's dealer,
    `totals` each player's total; seats in the phrases are `Seat` values (positions), so a page names them.
    A result typed from a paper list has no dealers (None) but its `deals`: the turns were the list keeper's
    to check, the deals' count and the balance are checked here.
    """
    players = len(totals)
    out: list[Phrase] = []
    checks = FORMATS[game].checks
    count = deals if dealers is None else len(dealers)
    if Check.DEALS in checks and count < length:
        out.append(Phrase("deals missing: {missing} of {length}", missing=length - count, length=length))
    elif Check.DEALS in checks and count > length:
        out.append(Phrase("deals beyond the series' {length}: {extra}", extra=count - length, length=length))
    if Check.TURNS in checks and players and dealers is not None:
        share = length // players
        complete = len(dealers) >= length
        for position in range(players):
            dealt = sum(1 for dealer in dealers if dealer == position)
            # While deals are missing, only who dealt more than their share is wrong already.
            if dealt > share or (complete and dealt != share):
                out.append(Phrase("{player} dealt {dealt} times, not {share}", player=Seat(position),
                                  dealt=dealt, share=share))
    if Check.ZERO_SUM in checks and sum(totals) != 0:
        out.append(Phrase("the list sums to {total}, not to zero", total=sum(totals)))
    return out


# --- a table's paper list ------------------------------------------------------------------------------

LARGEST_TOTAL = 10_000_000  # far beyond any series' list (a Schafkopf series in yen stays well below)


@dataclass(frozen=True, slots=True)
class PaperProblem:
    """What a typed paper result gets wrong: the player's row (None: the table's), the column, and why."""

    position: int | None
    key: str
    phrase: Phrase


def paper_seeger_fabian(game: str, won: Sequence[int], lost: Sequence[int]) -> list[int]:
    """Each player's Seeger-Fabian points beyond the list points, from the games alone (ISkO 4.1, the list's
    evaluation): +50 a game won, −50 a game lost, and for every game another player of the table lost +40 at a
    table of three, +30 at four (the sitting dealer too). 0 for a game whose list has no such evaluation."""
    paper = GAMES[game].PAPER
    others = paper.others_lost_points.get(len(won), 0)
    return [paper.won_points * w - paper.lost_points * n + others * (sum(lost) - n)
            for w, n in zip(won, lost, strict=True)]


def check_paper(game: str, length: int, deals: object, rows: Sequence[Mapping[str, object]]) -> list[PaperProblem]:
    """What is wrong with a series result typed from a table's paper list (empty: nothing).

    `length` is the series' deals at this table, `deals` the deals the list shows played, `rows` each
    player's figures by `Format.paper`'s keys. A paper list's own checks: the deals within the series; every
    count a whole number from 0 to the deals played, each player's games won and lost together too, the Soli
    among the games won; a game declared alone (Skat, Fipsen) counts for one player a deal, so all the games
    won and lost are at most the deals played; a zero-sum game's totals balance; Skat's Seeger-Fabian points
    are the list points plus what the games give (`paper_seeger_fabian`).
    """
    out: list[PaperProblem] = []
    if type(deals) is not int or not 1 <= deals <= length:
        out.append(PaperProblem(None, "deals", Phrase("the table played 1 to {length} deals of its series, not "
                                                      "{got}", length=length, got=deals)))
        return out
    columns = FORMATS[game].paper
    for position, row in enumerate(rows):
        for column in columns:
            value = row.get(column.key)
            if column.key in ("total", "performance"):
                if type(value) is not int or abs(value) > LARGEST_TOTAL:
                    out.append(PaperProblem(position, column.key, Phrase(
                        "{player}: a whole number from −{most} to {most}, not {got}", player=Seat(position),
                        most=LARGEST_TOTAL, got=value)))
            elif type(value) is not int or not 0 <= value <= deals:
                out.append(PaperProblem(position, column.key, Phrase(
                    "{player}: a count from 0 to the {deals} deals played, not {got}", player=Seat(position),
                    deals=deals, got=value)))
    if out:
        return out
    keys = {column.key for column in columns}
    won = [int(row.get("won", 0)) for row in rows]  # type: ignore[call-overload]
    lost = [int(row.get("lost", 0)) for row in rows]  # type: ignore[call-overload]
    totals = [int(row["total"]) for row in rows]  # type: ignore[call-overload]
    for position, row in enumerate(rows):
        if won[position] + lost[position] > deals:
            out.append(PaperProblem(position, "lost", Phrase(
                "{player}: {won} games won and {lost} lost are more than the {deals} deals played",
                player=Seat(position), won=won[position], lost=lost[position], deals=deals)))
        if "soli_won" in keys and int(row["soli_won"]) > won[position]:  # type: ignore[call-overload]
            out.append(PaperProblem(position, "soli_won", Phrase(
                "{player}: {soli} Soli won, but only {won} games won", player=Seat(position),
                soli=row["soli_won"], won=won[position])))
    if GAMES[game].DECLARER_ALONE and sum(won) + sum(lost) > deals:
        out.append(PaperProblem(None, "won", Phrase(
            "the games won and lost add up to {games}, but a deal has one declarer and {deals} deals were played",
            games=sum(won) + sum(lost), deals=deals)))
    if GAMES[game].ZERO_SUM and sum(totals) != 0:
        out.append(PaperProblem(None, "total", Phrase("the totals sum to {total}, not to zero", total=sum(totals))))
    if "performance" in keys and not any(p.key in ("won", "lost") for p in out):
        extra = paper_seeger_fabian(game, won, lost)
        for position, row in enumerate(rows):
            expected = totals[position] + extra[position]
            if row["performance"] != expected:
                out.append(PaperProblem(position, "performance", Phrase(
                    "{player}: {got} Seeger-Fabian points on the list, but the list points and the games give "
                    "{expected}", player=Seat(position), got=row["performance"], expected=expected)))
    return out
