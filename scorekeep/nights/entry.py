"""The deal entry form of a table: the seam between the table page and the engine.

`DealForm` asks for exactly the fields the night's game, rule set and contract use
(`deal_fields` of the engine, less ``bock``, which the ledger derives), names every seat by the
player sitting in it, turns what was entered into the contract's ``deal`` object (engine seats)
and judges it in `clean()` for the preview; the engine's `IllegalDeal` lands at the input it names.

Inputs hold TABLE POSITIONS, not engine seats: when the scorer changes who dealt (and with it who
sits where), "Anna declared" keeps meaning Anna. The form translates to engine seats only when it
builds the facts, and back (`initial_from`) when a stored deal is corrected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from scorekeep.models import CardNight, CardTable, Deal
from scorekeep.nights import ledger
from scorekeep.nights.deal_inputs import TAP, DealInputs, People, Question, carries, initial_values, live_words, say
from scorekeep.rules import GAMES, IllegalDeal, Input, Kind, Table, Verdict, complete, entered, inputs, pack
from scorekeep.rules.cards import RED_SIGNS
from scorekeep.rules.explain import COMMA, Word
from scorekeep.rules.picker_words import short_rank
from scorekeep.web.fields import peek
from scorekeep.words.labels import CONTRACT_LABELS, in_game, listed, page_words, translated

SUIT_SIGNS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


def short_card(game: str, card: str) -> str:
    """A card in short as the game's table writes it, translated: the suit's sign and the rank, "♣A", "♠10",
    a Schafkopf table's "♣O" (the counting picker's and the dispute page's tricks)."""
    return SUIT_SIGNS.get(card[:1], card[:1]) + _short_rank(game, card[1:])


def _short_rank(game: str, rank: str) -> str:
    """A card's rank on the counting picker as the game's table writes it (Schafkopf's O and U), translated."""
    short = short_rank(game, rank)
    return str(translated(short)) if isinstance(short, Word) else short
DECLARER = "declarer"
GRID_PLAYERS = 3  # a grid of players and games where at most three play: three rows fit above the rest
GRID_GAMES = 6  # … and at most six games have a declarer: a row of them fits a phone beside a name
IN_GRID = "@"  # a grid's tap posts "hearts@1": the game, and the table position of its declarer
SHOWN_FOR = "inputs_for"  # the contract whose inputs the page shows (a hidden input of the entry, table.html)
FormData = QueryDict | dict[str, Any]  # a request's query or form; an unbound form's is Django's empty dict


def declared_apart(data: FormData | None) -> FormData | None:
    """A form's data with a grid's tap ("hearts@1") read as the game and its declarer; data that names them
    apart (the rows of other games, a page of before the grid, a deal queued offline) is left as it is."""
    if data is None or IN_GRID not in str(data.get("contract") or ""):
        return data
    contract, _at, position = str(data.get("contract")).partition(IN_GRID)
    apart = data.copy()  # a QueryDict's copy is mutable
    apart["contract"], apart[DECLARER] = contract, position
    return apart


@dataclass(frozen=True, slots=True)
class GridCell:
    """One tap of a grid of players and games: what it posts, its id, what it shows (a suit's sign, a game's
    name), what a screen reader says ("Bernd: Hearts"), whether it is chosen, whether it is a sign, and whether
    that sign is a red suit's."""

    value: str
    id: str
    shown: str
    label: str
    checked: bool
    sign: bool
    red: bool = False


@dataclass(frozen=True, slots=True)
class GridRow:
    name: str
    cells: list[GridCell]


@dataclass(frozen=True, slots=True)
class DeclarerGrid:
    """Who declared and what, in one tap (as a club's list writes each game in its declarer's column): a row
    of games per player who plays the deal, then the games without a declarer; the declarer's question (its
    messages) while a game of the grid is chosen, and the game's question (its messages)."""

    rows: list[GridRow]
    others: list[GridCell]
    swap: dict[str, str]
    declarer: Bound | None
    contract: Bound
    declarer_label: str  # what the offline check calls a declarer still to tap

    @property
    def invalid(self) -> bool:
        return bool(self.contract.errors or self.declarer is not None and self.declarer.errors)

    @property
    def described_by(self) -> str:
        """The message slots of the grid's taps: the game's, and the declarer's while a game of the grid is chosen."""
        return "err-contract err-declarer" if self.declarer is not None else "err-contract"


def seating_of(night: CardNight, players: int, dealer: int) -> tuple[list[int], Table]:
    """The table positions in engine seats for a deal dealt by `dealer`, and the engine's table."""
    seats = ledger.seating(night.game, players, dealer)
    return seats, Table(len(seats), ledger.engine_dealer(seats, dealer))


@dataclass(frozen=True, slots=True)
class Bound:
    """A question bound to what was entered, with its messages (shown at its inputs)."""

    question: Question
    fields: list[forms.BoundField]
    errors: list[str]
    rest: str = ""  # a per-seat list with a total: what the player left empty has (`DealForm.rest_of`)

    @property
    def folded_choice(self) -> str:
        """The words of the value chosen when it is among the folded-away choices ("" otherwise): the fold
        stays closed and its "Other" says it ("Other: 30"), so the inputs below keep their place."""
        if not self.question.common:
            return ""
        field = self.fields[0]
        value = field.value()
        choices = field.field.choices  # type: ignore[attr-defined]
        in_view = {str(v) for v, _label in choices[:self.question.common]}
        if value in (None, "") or str(value) in in_view:
            return ""
        return next((str(label) for v, label in choices if str(v) == str(value)), "")

    @property
    def chain(self) -> list[str]:
        """The players named in a chain's selects, in order (Kop's doublings: "Anna", "Bernd", "Anna")."""
        if self.question.layout != "chain":
            return []
        named = []
        for field in self.fields:
            value = field.value()
            labels = {str(v): label for v, label in field.field.choices}  # type: ignore[attr-defined]
            if value not in (None, "") and str(value) in labels:
                named.append(str(labels[str(value)]))
        return named


def _number(value: object) -> int | None:
    """What a number input holds, as a whole number (None: empty or not a number)."""
    text = str(value).strip() if value is not None else ""
    return int(text) if text.isdecimal() and len(text) < 6 else None


class DealForm(forms.Form):
    """One deal of a table, as the table declared it; for a new deal or a correction.

    `data` is the submitted form (None: unbound, filled from `initial`). After `is_valid()`,
    `facts` holds the contract's ``deal`` object, `verdict` the engine's verdict for the preview,
    and the errors sit at their inputs. The inputs are the engine's description of the contract
    (`scorekeep.nights.deal_inputs`), tapped: seats by the players' names.
    """

    data: FormData

    def __init__(self, data: FormData | None, *, night: CardNight, names: Sequence[str], dealer: int,
                 url: str, initial: Mapping[str, Any] | None = None, bock: bool = False,
                 correcting: bool = False, scorer: str = "", saving: bool = False) -> None:
        initial = dict(initial or {})
        tapped = data is not None and IN_GRID in str(data.get("contract") or "")
        data = declared_apart(data)
        # A save marks every input still empty; a preview (typing, choosing) names them only in the preview,
        # so nothing is shown as wrong before the scorer has done anything wrong.
        self.saving = saving
        self.needed: list[str] = []
        initial.setdefault("by", scorer)
        super().__init__(data, initial=initial)
        self.night, self.names, self.url = night, list(names), url
        self.game = night.game
        self.bock = bock
        self.correcting = correcting
        self.facts: dict[str, Any] | None = None
        self.verdict: Verdict | None = None
        self.judged: ledger.Judged | None = None  # the verdict and what it was judged with, for the save
        self.rules = GAMES[self.game].parse_rules(night.rules_request)
        players = len(self.names)

        position = range(players)
        # Empty means "as the rotation says", worked out when the form is read: two scorers saving at
        # once then each get the dealer their deal really had, not the one their page showed.
        usual = gettext("as entered: %(name)s") if correcting else gettext("next in turn: %(name)s")
        self.fields["dealer"] = forms.TypedChoiceField(
            label=_("Someone else dealt?"), coerce=int, empty_value=None, required=False,
            choices=[("", usual % {"name": self.names[dealer]}), *((str(p), self.names[p]) for p in position)],
            widget=forms.Select(attrs=self._swap_entry()))
        chosen = self._peek("dealer") if self.is_bound else None
        self.dealer = chosen if chosen is not None else dealer
        self.seats, self.table = seating_of(night, players, self.dealer)
        self.out = ledger.sits_out(night.game, self.seats, self.dealer, players)
        self.playing = [p for p in self.seats if p not in self.out]

        self.contracts = [str(c) for c in GAMES[self.game].contracts(self.rules)]
        # The contracts most deals are first; the seldom played ones (the engine says which) after them,
        # folded under "Other" on the page.
        seldom = GAMES[self.game].SELDOM_PLAYED
        offered = [c for c in self.contracts if c not in seldom] + [c for c in self.contracts if c in seldom]
        self.common_contracts = len(offered) - sum(c in seldom for c in offered)
        self.fields["contract"] = forms.ChoiceField(
            label=_("Game"), required=False, choices=[(c, CONTRACT_LABELS.get(c, c)) for c in offered],
            widget=forms.RadioSelect(attrs=self._swap_entry()))
        contract = self._peek("contract") or self.initial.get("contract")
        self.contract = contract if contract in self.contracts else self.contracts[0]
        if not self.is_bound:
            self.initial["contract"] = self.contract
        # At a table where at most three play, who declared and what is one tap in a grid of players and
        # games, as a list writes each game in its declarer's column (`DeclarerGrid`).
        self.offered = offered
        self.declarer_word = ""
        self.grid_contracts = self._grid_contracts(offered[:self.common_contracts])
        # The ledger derives what it derives (Bock): the table is not asked it.
        described = [field for field in inputs(self.game, self.contract, self.rules, self.table)
                     if field.key not in ledger.DERIVED]
        people = People(tuple(self.seats), tuple((p, self.names[p]) for p in self.playing))
        self.inputs = DealInputs(described, people, TAP)
        self.described: dict[str, Input] = self.inputs.described
        self.questions: list[Question] = self.inputs.questions
        self.fields.update(self.inputs.fields)
        # The contract was switched on a page that showed another contract's inputs: what was typed for
        # those stands only where the new contract asks the same (`deal_inputs.meaning`).
        self.switched = self._switched(described, people, keep=(DECLARER,) if tapped else ())
        for question in self.questions:  # each input names its message slot (table.html#slot)
            for name in question.names:
                self.fields[name].widget.attrs["aria-describedby"] = f"err-{question.key}"
        if not self.is_bound:
            for field in described:  # a count chosen from a list starts at its lowest value (Skat's bid 18)
                if field.values and field.required:
                    self.initial.setdefault(field.key, str(field.values[0]))
        if "card_points" in self.described and pack(self.game):
            # Counting by tapping the captured cards: used when the number is left empty.
            self.fields["captured"] = forms.MultipleChoiceField(
                label=_("Or tick the cards the side took"), required=False,
                choices=[(card, short_card(self.game, card)) for card, _points in pack(self.game)],
                widget=forms.CheckboxSelectMultiple)

        self.fields["by"] = forms.CharField(label=_("Your name"), required=False, max_length=40,
                                            widget=forms.TextInput(attrs={"list": "scorers", "autocomplete": "off"}))
        if correcting:
            self.fields["reason"] = forms.CharField(label=_("Why (optional)"), required=False, max_length=200)

    # --- building ---------------------------------------------------------------------------------

    def _swap_entry(self) -> dict[str, str]:
        """An input that changes which inputs there are re-renders the whole entry (htmx)."""
        # replace: arrowing through the games sends a request per key; only the last one's answer counts.
        return {"hx-get": self.url, "hx-trigger": "change consume", "hx-target": "#entry",
                "hx-swap": "outerHTML", "hx-include": "closest form", "hx-sync": "closest form:replace"}

    def _grid_contracts(self, common: Sequence[str]) -> list[str]:
        """The games a grid of players and games offers: the common ones whose first question is the
        declarer, where at most three play and at most `GRID_GAMES` such games are common (a row of them fits
        a phone beside a name); none where that does not hold (the game row and the declarer's row then)."""
        if len(self.playing) > GRID_PLAYERS:
            return []
        declared = []
        for contract in common:
            asked = [field for field in inputs(self.game, contract, self.rules, self.table)
                     if field.key not in ledger.DERIVED]
            if asked and asked[0].key == DECLARER and asked[0].kind is Kind.SEAT and not asked[0].empty:
                declared.append(contract)
                self.declarer_word = say(asked[0].label)  # the game's own word (Fipsen's "Spieler")
        return declared if 2 <= len(declared) <= GRID_GAMES else []

    def _switched(self, described: Sequence[Input], people: People, keep: tuple[str, ...]) -> bool:
        """Whether the inputs on the page were another contract's (`SHOWN_FOR`); if so, drop from the data
        every value of an input the new contract does not take with the same meaning (Kop's old side of a
        normal game is not a wesele pair, nor a lone player), so that what the re-rendered form shows is
        exactly what a save sends. `keep`: what the contract's own tap posted (a grid's declarer)."""
        shown = str(self.data.get(SHOWN_FOR) or "") if self.is_bound else ""
        if not shown or shown == self.contract or shown not in self.contracts:
            return False
        if not self._peek("contract"):
            # No game chosen (a tap cleared when the deal moved on, the declarer sitting out): the form is the
            # first game's as a fresh one is, and says "tap the game" — not that the scorer chose that game.
            return False
        before = [field for field in inputs(self.game, shown, self.rules, self.table)
                  if field.key not in ledger.DERIVED]
        meant = {q.key: q.meaning for q in DealInputs(before, people, TAP).questions}
        same = meant == {q.key: q.meaning for q in self.questions}
        dropped = [name for q in self.questions if meant.get(q.key) != q.meaning and q.key not in keep
                   for name in q.names]
        if "card_points" in dropped or "card_points" not in self.inputs.described:
            dropped.append("captured")  # the cards ticked stand for the card points
        data: Any = self.data.copy()
        for name in dropped:
            data.pop(name, None)
        # A value meant alike but outside the new contract's choices (a suit game's "with 6" in a Grand) is
        # not tapped in the new form, so it is not sent either.
        for name in {name for q in self.questions for name in q.names} - set(dropped):
            field = self.fields[name]
            posted = data.getlist(name) if hasattr(data, "getlist") else [data.get(name)]
            if isinstance(field, forms.ChoiceField) and any(
                    value not in (None, "") and not field.valid_value(str(value)) for value in posted):
                data.pop(name, None)
                same = False
        self.data = data
        # The new game asks exactly what the page showed, every value still one of its choices (♥ after ♣):
        # what a save sends is what the scorer saw, so it is saved at once — without JavaScript too.
        return not same

    def _peek(self, name: str) -> Any:
        """One input's cleaned value before validation (None when missing or invalid)."""
        return peek(self, name) if self.is_bound else self.initial.get(name)

    # --- judging -------------------------------------------------------------------------------------

    def full_clean(self) -> None:
        super().full_clean()
        if self.is_bound:
            self._say_who_does_not_play()
        if self.saving or not self.is_bound:
            return
        labels = {name: str(q.label) for q in self.questions for name in q.names}
        for name, errors in list(self.errors.items()):
            kept = [e for e in errors.as_data() if e.code != "needed"]
            if len(kept) < len(errors):
                label = labels.get(name, "")
                if label and label not in self.needed:
                    self.needed.append(label)
                if kept:
                    self.errors[name] = self.error_class(kept, renderer=self.renderer)
                else:
                    del self.errors[name]

    def _say_who_does_not_play(self) -> None:
        """A player input naming someone who does not play this deal — a form kept for another deal (typed
        offline, or before another phone's deal took its number) — says so in the players' words, not as
        "Select a valid choice. 2 is not one of the available choices"."""
        seat_kinds = (Kind.SEAT, Kind.SEATS, Kind.SEAT_ORDER)
        for question in self.questions:
            field = self.described.get(question.key)
            if field is None or field.kind not in seat_kinds:
                continue
            for name in question.names:
                errors = self.errors.get(name)
                if not errors or not any(e.code == "invalid_choice" for e in errors.as_data()):
                    continue
                sent = self.data.getlist(name) if hasattr(self.data, "getlist") else [self.data.get(name)]
                # Only a seat of this table is read as one (a number of 5,000 digits is no seat, and int() of it
                # raises): compared as text, never converted.
                seats = {str(seat): seat for seat in range(len(self.names))}
                out = [self.names[seats[str(v)]] for v in sent if str(v) in seats and seats[str(v)] not in self.playing]
                if not out:
                    continue
                message = gettext("Not in this deal: %(names)s (%(dealer)s deals) — tap one of %(players)s.") % {
                    "names": listed(out), "dealer": self.names[self.dealer],
                    "players": listed(self.names[p] for p in self.playing)}
                self.errors[name] = self.error_class([ValidationError(message, code="invalid_choice")],
                                                      renderer=self.renderer)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        if "dealer" in self.errors or "contract" in self.errors:
            return cleaned
        if self.switched and self.saving:
            # Saved from a page that still showed another game's inputs (no JavaScript, or the tap's answer
            # not in yet): nothing is stored that the scorer has not seen; the form is now the new game's.
            self.add_error(None, gettext("The form now asks what %(game)s needs: check it, then save again.")
                           % {"game": CONTRACT_LABELS.get(self.contract, self.contract)})
            return cleaned
        facts = self.inputs.facts(self.contract, cleaned, self.add_error, gettext("enter a number for every player"))
        if facts is None:
            return cleaned
        if "card_points" in self.described and "card_points" not in facts and cleaned.get("captured"):
            facts["card_points"] = self.captured_points
        try:
            # The entries as the contract's deal: what they settle filled in (a Ramsch's tricks, the card
            # points of the player left empty), or the engine's word on what cannot be.
            self.facts = facts = complete(self.game, facts, self.rules, self.table)
            self.verdict = ledger.judge_deal(self.night, self.seats, self.dealer, facts, self.bock)
        except IllegalDeal as err:
            self.engine_error(err)
        else:
            self.judged = ledger.Judged(dict(facts), tuple(self.seats), self.dealer, self.bock, self.verdict)
        return cleaned

    @property
    def captured_points(self) -> int | None:
        """The card points of the ticked cards (None when none is ticked)."""
        ticked = self.cleaned_data.get("captured") if hasattr(self, "cleaned_data") else None
        if not ticked:
            return None
        points = dict(pack(self.game))
        return sum(points[card] for card in ticked)

    def seat_name(self, seat: int) -> str:
        """An engine seat of this deal, named by the player in it."""
        return self.names[self.seats[seat]] if 0 <= seat < len(self.seats) else gettext("Seat %(n)s") % {"n": seat}

    def engine_error(self, err: IllegalDeal) -> None:
        """The engine's sentence, seats named by players, at the input its field names (or at the top)."""
        # A refusal worded for the contract's keys has the game's own words for a page (`IllegalDeal.on_page`).
        message = err.render(self.seat_name, gettext(err.on_page or err.text), page_words)
        name = self.input_for(err.field)
        if name is None:
            self.add_error(None, message)
            return
        if name in self.errors:
            return  # the input's own check already said what is wrong with what was typed (e.g. 125 of 120)
        # Asking for an input still empty is a prompt, not a mistake (card points may come from the cards).
        value = (self.facts or {}).get(name) if name == "card_points" else self.cleaned_data.get(name)
        needed = not carries(value)
        field = self.described.get(name)
        # One player's empty number the entries cannot do without (a Ramsch's tie decided by tricks, a second
        # player's card points left empty): the engine's sentence says why, in the players' names.
        parts = err.field.split(".")
        listed = self.described.get(parts[1]) if len(parts) == 3 else None
        per_seat = listed is not None and listed.kind is Kind.PER_SEAT
        if needed and not per_seat:
            # A prompt for an empty input, in the page's words: the engine's sentence for a missing field
            # speaks the contract's (seat numbers, JSON lists, option keys) — a scorer only needs to know
            # what to fill in.
            kind = field.kind if field is not None else None
            message = (gettext("tap the game in the declarer's row") if name == DECLARER
                       and self.contract in self.grid_contracts
                       else gettext("tap the player's name") if kind is Kind.SEAT
                       else gettext("tap the players' names") if kind is Kind.SEATS
                       else gettext("tap one") if isinstance(self.fields.get(name), forms.TypedChoiceField)
                       and isinstance(self.fields[name].widget, forms.RadioSelect)
                       else gettext("needed for this game"))
        elif field is not None and field.kind is Kind.SEATS and err.field == f"deal.{name}":
            message = (gettext("tick only the lone player") if field.hi == 1
                       else gettext("tick the two players of the old side"))
        self.add_error(name, ValidationError(message, code="needed" if needed else "illegal"))

    def input_for(self, path: str) -> str | None:
        """The input for the engine's dotted field path: ``deal.points.2`` is the input of the player in
        engine seat 2; ``deal.old.1`` is the old-side checkboxes; ``dealer`` is who dealt."""
        if path.split(".")[0] == "dealer":
            return "dealer"
        name = self.inputs.input_for(path)
        if name is None and path.startswith("deal.") and path.split(".")[1] in self.fields:
            return path.split(".")[1]
        return name

    # --- what the template shows -------------------------------------------------------------------

    @property
    def inputs_for(self) -> str:
        """The contract the inputs are for (the page's hidden `SHOWN_FOR`; `form.contract` is its radio row)."""
        return self.contract

    @property
    def live_words(self) -> dict[str, str]:
        """The sentences of the checks made while a number is typed (static/js/app.js), in the page's language."""
        return live_words()

    @property
    def header(self) -> dict[str, str]:
        """Who deals, who is forehand, who sits out — the facts every scorer checks before entering."""
        forehand = self.seats[(self.table.dealer + 1) % self.table.players]
        # "is forehand" is Skat's word; a Schafkopf or Fipsen table says it in its own (ディーラーの左隣).
        pattern = in_game("%(name)s is forehand", self.game)
        return {"dealer": self.names[self.dealer], "forehand": self.names[forehand],
                "forehand_line": pattern % {"name": self.names[forehand]}, "forehand_pattern": pattern,
                "out": listed(self.names[p] for p in self.out)}

    def rows(self, rare: bool) -> list[Bound]:
        rows = []
        # A grid of players and games asks the declarer with the game.
        in_grid = DECLARER if self.contract in self.grid_contracts else None
        for q in self.questions:
            if q.rare == rare and q.key != in_grid:
                fields, errors = [self[name] for name in q.names], self.errors_at(q)
                rows.append(Bound(q, fields, errors, self.rest_of(q, fields, errors)))
        return rows

    def rest_of(self, question: Question, fields: Sequence[forms.BoundField], errors: Sequence[str]) -> str:
        """A per-seat list with a total (a Ramsch's card points): what the players left empty have, as the
        deal was completed (a player who took no trick has none), or else the total less the numbers typed;
        nothing while the numbers are wrong. With no number typed yet: one player may be left empty."""
        total = question.total
        if total is None:
            return ""
        numbers = {field.html_name: _number(field.value()) for field in fields}
        empty = [field for field in fields if numbers[field.html_name] is None]
        if not empty or len(empty) == len(fields):
            return gettext("Leave one player empty for the rest of %(total)s.") % {"total": total} if empty else ""
        completed = (self.facts or {}).get(question.key)
        if isinstance(completed, list):  # as the engine completed the deal
            shares = [(field.label, completed[self.inputs.seat_of(question.key, field.html_name)]) for field in empty]
        elif errors or len(empty) > 1:
            return ""
        else:
            shares = [(empty[0].label, total - sum(n for n in numbers.values() if n is not None))]
        said = say(COMMA).join(gettext("%(name)s %(points)s") % {"name": name, "points": points}
                               for name, points in shares)
        return gettext("%(shares)s: the rest of %(total)s") % {"shares": said, "total": total}

    @property
    def main_rows(self) -> list[Bound]:
        return self.rows(False)

    @property
    def rare_rows(self) -> list[Bound]:
        return self.rows(True)

    @property
    def main_groups(self) -> list[list[Bound]]:
        return grouped(self.main_rows)

    @property
    def rare_groups(self) -> list[list[Bound]]:
        return grouped(self.rare_rows)

    @property
    def more_label(self) -> str:
        """"More: tricks, Kontra, cards" — what the folded section holds in this game and contract."""
        shown: list[str] = []
        for row in self.rare_rows:
            word = str(row.question.short or row.question.label)
            if word not in shown:
                shown.append(word)
        return gettext("More: %(what)s") % {"what": listed(shown)}

    @property
    def rare_open(self) -> bool:
        """Open "More" when something in it carries a value or a message."""
        return any(row.errors or any(carries(b.value()) for b in row.fields) for row in self.rare_rows)

    def errors_at(self, question: Question) -> list[str]:
        if not self.is_bound:
            return []
        return [str(message) for name in question.names for message in self.errors.get(name, [])]

    @property
    def slots(self) -> list[tuple[str, list[str]]]:
        """Every question's message slot (id, messages), refreshed with the preview (htmx)."""
        return [(q.key, self.errors_at(q)) for q in self.questions]

    @property
    def contract_row(self) -> Bound:
        common = self.common_contracts if self.common_contracts < len(self.contracts) else 0
        question = Question("contract", _("Game"), "", "radios", ("contract",), common=common)
        return Bound(question, [self["contract"]], self.errors_at(question))

    @cached_property
    def grid(self) -> DeclarerGrid | None:
        """Who declared and what as one tap: a row of the games per player; the games without a declarer (a
        Ramsch) and any seldom one as taps beside the legend (None: the game's row and the declarer's row)."""
        if not self.grid_contracts:
            return None
        in_grid = self.contract in self.grid_contracts
        chosen = self._peek(DECLARER) if in_grid else None
        signs = GAMES[self.game].CONTRACT_SIGNS
        rows = []
        for position, name in self.inputs.people.named:
            cells = [GridCell(f"{c}{IN_GRID}{position}", f"id_contract_{c}_{position}",
                              signs.get(c) or str(CONTRACT_LABELS[c]),
                              gettext("%(name)s: %(game)s") % {"name": name, "game": CONTRACT_LABELS[c]},
                              in_grid and c == self.contract and chosen == position, c in signs,
                              signs.get(c) in RED_SIGNS)
                     for c in self.grid_contracts]
            rows.append(GridRow(name, cells))
        others = [GridCell(c, f"id_contract_{c}", str(CONTRACT_LABELS[c]), str(CONTRACT_LABELS[c]),
                           c == self.contract, False)
                  for c in self.offered if c not in self.grid_contracts]
        declarer = next((Bound(q, [self[name] for name in q.names], self.errors_at(q))
                         for q in self.questions if q.key == DECLARER), None) if in_grid else None
        return DeclarerGrid(rows, others, self._swap_entry(), declarer, self.contract_row, self.declarer_word)

    @property
    def problems(self) -> list[tuple[str, str]]:
        """(label, message) of everything that keeps the deal from being judged, for the preview."""
        if not self.is_bound:
            return []
        labels = {name: q.label for q in self.questions for name in q.names}
        return [(str(labels.get(name, "")), str(message)) for name, messages in self.errors.items()
                for message in messages if name != "__all__"]

    def _coded(self, needed: bool) -> list[tuple[str, str]]:
        if not self.is_bound:
            return []
        labels = {name: q.label for q in self.questions for name in q.names}
        return [(str(labels.get(name, "")), str(error.message % (error.params or {})))
                for name, errors in self.errors.as_data().items() if name != "__all__"
                for error in errors if (error.code == "needed") == needed]

    @property
    def impossible(self) -> list[tuple[str, str]]:
        """What was entered that cannot be: (label, message), for the preview."""
        return self._coded(needed=False)

    @property
    def still_needed(self) -> list[str]:
        """The labels of the inputs still empty that the deal needs (a preview's words, not errors)."""
        labels = list(self.needed)
        for label, _message in self._coded(needed=True):
            if label not in labels:
                labels.append(label)
        return labels

    @property
    def top_errors(self) -> list[str]:
        return [str(message) for message in self.non_field_errors()] if self.is_bound else []

    @property
    def complement(self) -> str:
        """The other side's card points, for the live hint beside the card points."""
        field = self.described.get("card_points")
        if field is None or not self.is_bound:
            return ""
        points = self._peek("card_points")
        counted = points is None and hasattr(self, "cleaned_data") and self.captured_points is not None
        if counted:
            points = self.captured_points
        if points is None or not 0 <= points <= field.hi:
            return ""
        opponents = gettext("Opponents: %(points)s") % {"points": field.hi - points}
        if counted:
            return gettext("Ticked cards: %(points)s") % {"points": points} + " · " + opponents
        return opponents

    @property
    def dealer_chosen(self) -> bool:
        """Whether the scorer picked the dealer (then "Someone else dealt?" stays open)."""
        return self.is_bound and self._peek("dealer") is not None

    @property
    def captured_field(self) -> forms.BoundField | None:
        return self["captured"] if "captured" in self.fields else None

    @property
    def outcome(self) -> tuple[str, str] | None:
        if self.verdict is None:
            return None
        if self.verdict.won is None:
            return "none", in_game(gettext_noop("No declaring side"), self.game)
        return ("won", gettext("Won")) if self.verdict.won else ("lost", gettext("Lost"))

    @property
    def entries(self) -> list[tuple[str, int | None]]:
        """Each player's entry for this deal (None: sits out)."""
        if self.verdict is None:
            return []
        by_position = {p: self.verdict.scores[seat] for seat, p in enumerate(self.seats) if p not in self.out}
        return [(name, by_position.get(p)) for p, name in enumerate(self.names)]

    @property
    def explanation(self) -> list[str]:
        return self.verdict.explain(self.seat_name, page_words) if self.verdict is not None else []


class ChangeNote(forms.Form):
    """Who deletes or restores a deal, and why (both optional; stored in the deal's history)."""

    by = forms.CharField(label=_("Your name"), max_length=40, required=False)
    reason = forms.CharField(label=_("Why (optional)"), max_length=200, required=False)


def initial_from(facts: Mapping[str, Any], seating: Sequence[int], night: CardNight, dealer: int) -> dict[str, Any]:
    """A stored deal's facts as the form's initial values: as the table page enters them (`entered`: a
    Ramsch's taps for who took no trick or every trick, its tricks only where they do not follow), engine
    seats back to table positions."""
    game = night.game
    table = Table(len(seating), ledger.engine_dealer(seating, dealer))
    shown = entered(game, dict(facts), GAMES[game].parse_rules(night.rules_request), table)
    return {"contract": facts.get("contract"), **initial_values(GAMES[game].FIELDS, shown, seating, TAP)}


# --- a deal in words, and its history ------------------------------------------------------------

def fact_label(game: str, key: str) -> str:
    if key == "contract":
        return gettext("Game")
    field = GAMES[game].FIELDS.get(key)
    return say(field.label) if field else key


def fact_text(game: str, key: str, value: Any, seating: Sequence[int], names: Sequence[str]) -> str:
    """One stored fact as people say it, seats named by the players in them."""
    def name(seat: object) -> str:
        if isinstance(seat, int) and 0 <= seat < len(seating) and seating[seat] < len(names):
            return names[seating[seat]]
        return str(seat)

    if key == "contract":
        return str(CONTRACT_LABELS.get(value, value))
    field = GAMES[game].FIELDS.get(key)
    kind = field.kind if field else (Kind.FLAG if isinstance(value, bool) else None)
    if kind is Kind.SEAT:
        return name(value)
    if kind is Kind.SEATS and isinstance(value, list):
        return listed(name(s) for s in value)
    if kind is Kind.SEAT_ORDER and isinstance(value, list):
        return " → ".join(name(s) for s in value) or gettext("none")
    if kind is Kind.PER_SEAT and isinstance(value, list):
        return listed(f"{name(seat)} {number}" for seat, number in enumerate(value))
    if kind is Kind.FLAG or isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if field is not None and field.choices:
        return say(dict(field.choices).get(value, str(value)))
    if kind is Kind.CARDS and isinstance(value, list):
        return " ".join(map(str, value))
    return str(value)


def facts_in_words(game: str, facts: Mapping[str, Any], seating: Sequence[int],
                   names: Sequence[str]) -> list[tuple[str, str]]:
    """Every stored fact of a deal as (label, words)."""
    return [(fact_label(game, key), fact_text(game, key, value, seating, names)) for key, value in facts.items()]


def changes(game: str, old: Mapping[str, Any], new: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """What a correction changed, key by key: "Declarer's card points 58 → 62"; who dealt too."""
    old_facts, new_facts = old.get("facts") or {}, new.get("facts") or {}
    out = []
    for key in [*old_facts, *(k for k in new_facts if k not in old_facts)]:
        before = fact_text(game, key, old_facts[key], old["seating"], names) if key in old_facts else "—"
        after = fact_text(game, key, new_facts[key], new["seating"], names) if key in new_facts else "—"
        if before != after:
            out.append(f"{fact_label(game, key)} {before} → {after}")
    if old.get("dealer") != new.get("dealer"):
        out.append(gettext("dealer %(old)s → %(new)s") % {"old": names[old["dealer"]], "new": names[new["dealer"]]})
    return out


def deal_history(game: str, number: int | None, revisions: Sequence[Any], names: Sequence[str],
                 night_date: date | None = None) -> list[str]:
    """The deal's history in plain words, oldest first: "deal 17 changed by Anna at 21:14: …"; a change
    made on another day than the night's (a correction the morning after) says the day too: "at 22 Nov, 21:14"."""
    what = gettext("deal %(number)s") % {"number": number} if number else gettext("this deal")
    verbs = {"created": gettext("entered"), "changed": gettext("changed"), "deleted": gettext("deleted"),
             "restored": gettext("restored")}
    lines = []
    for revision in revisions:
        at = timezone.localtime(revision.at)
        when = date_format(at, "H:i")
        if at.date() != night_date:
            when = gettext("%(day)s, %(time)s") % {"day": date_format(at, "j M"), "time": when}
        verb = verbs.get(revision.kind, revision.kind)
        if revision.kind == "play":  # the cards as played, attached for the record (nights.attach_play)
            before, after = (revision.old or {}).get("play"), (revision.new or {}).get("play")
            verb = (gettext("given its played cards") if before is None else
                    gettext("cleared of its played cards") if after is None else gettext("given other played cards"))
        params = {"deal": what, "verb": verb, "by": revision.by, "at": when}
        line = (gettext("%(deal)s %(verb)s by %(by)s at %(at)s") if revision.by
                else gettext("%(deal)s %(verb)s at %(at)s")) % params
        if revision.kind == "changed" and revision.old and revision.new:
            line += ": " + "; ".join(changes(game, revision.old, revision.new, names))
        if revision.reason:
            line += " " + gettext("(reason: %(reason)s)") % {"reason": revision.reason}
        if revision.after_finish:  # a change to a finished list, confirmed (issue 33)
            line += " — " + gettext("made after the finish")
        lines.append(line[0].upper() + line[1:])
    return lines


def deal_bock_words(night: CardNight, deal: Deal) -> str:
    """What the Bock round did to a stored deal, true for every contract: a Bock deal is used up by
    whatever is played in it, but only the contracts that take Bock count double (a passed deal
    stays 0, a Schafkopf Sie keeps its fixed value). The engine says which: the deal judged again
    without Bock scores the same when Bock did not double it."""
    if not deal.bock:
        return gettext("no")
    try:
        plain = ledger.judge_deal(night, deal.seating, deal.dealer, deal.facts, False)
    except IllegalDeal:  # a stored deal the rules no longer allow: say only what is known
        return gettext("a Bock deal")
    if tuple(plain.scores) != deal.result.scores:
        return gettext("a Bock deal (the value counts double)")
    return gettext("a Bock round was running; this contract is not doubled")


# --- refusals --------------------------------------------------------------------------------------

# SQLite answers "database is locked" when two phones save at the same instant: the write rolled back.
BUSY = _("The database was busy; nothing was saved — tap Save again.")


def refusal(err: ledger.LedgerError) -> str:
    """Why a change was refused because a deal would no longer be allowed: the deal by its number
    (and its table, where the night has more than one) and the engine's sentence, with the seats it
    names written as the players who sat there in that deal."""
    deal = err.deal
    names: list[str] = []
    seating: list[int] = []
    table: CardTable | None = None
    if deal is not None:
        table = deal.table
        names = [place.player.name for place in table.places.select_related("player")]
        seating = list(deal.seating)

    def name(seat: int) -> str:
        ok = 0 <= seat < len(seating) and seating[seat] < len(names)
        return names[seating[seat]] if ok else gettext("Seat %(n)s") % {"n": seat}

    params = {"number": err.number, "message": err.error.render(name, gettext(err.error.text), page_words)}
    if table is not None and CardTable.objects.filter(night_id=table.night_id).count() > 1:
        return gettext("Deal %(number)s at table %(table)s would no longer be allowed, so nothing was changed: "
                       "%(message)s") % {**params, "table": table.number}
    return gettext("Deal %(number)s would no longer be allowed, so nothing was changed: %(message)s") % params


def grouped(rows: list[Bound]) -> list[list[Bound]]:
    """Rows in groups: questions answered yes or no (Hand, Ruten, Durch) that follow each other share a
    group, which the page lays out in one row; every other question is a group of its own."""
    groups: list[list[Bound]] = []
    for row in rows:
        if groups and row.question.layout == "check" and groups[-1][-1].question.layout == "check":
            groups[-1].append(row)
        else:
            groups.append([row])
    return groups
