"""The inputs of one deal, built from the engine's own description of a contract (`scorekeep.rules.inputs`).

Both deal forms use it — the table's entry form (`scorekeep.nights.entry.DealForm`) and the dispute page
(`scorekeep.dispute.forms.DisputeForm`) — so neither knows what a contract needs: the engine says which fields,
of which kind, in which range, required or not, and in which words; this module turns that into Django
form fields, reads what was entered back into the contract's ``deal`` object, and maps the engine's
refusals (``deal.points.2``) back to the input they concern.

Two styles: ``TAP`` for the phone at the table (radio rows and checkboxes to tap, small counts as
buttons, every number checked against its range at once) and ``PLAIN`` for the dispute page (selects
and number inputs; the engine alone judges the values, so its sentence is what the page shows).

Seats: an input holds a `People` value — on the table page a table position (a player), on the dispute
page the engine seat itself. `People` translates between the two, so "Anna declared" keeps meaning Anna
when who dealt changes.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext, ngettext
from django_stubs_ext import StrOrPromise

from scorekeep.rules import Input, Kind
from scorekeep.rules.explain import in_words
from scorekeep.words.labels import page_words

TAP, PLAIN = "tap", "plain"
TAP_MAX = 10  # small counts are tapped, not typed: one tap instead of opening the keyboard
COMMON = 6  # a tap row longer than this shows its first COMMON choices and "Other" (one row on a phone)
SPLIT = re.compile(r"[\s,;]+")

Label = StrOrPromise  # str | Promise, typed as a lazy *string* (gettext_lazy's)
AddError = Callable[[str, str], None]


def say(word: object) -> str:
    """An engine label (a `Word` or `Phrase`) in the page's language."""
    return in_words(word, page_words)


def meaning(field: Input) -> str:
    """What a value of `field` means, as a short tag: its kind and words — not its range, nor whether it is
    required or folded away. Where two contracts describe a field alike (a Skat declarer or matadors, a
    Schafkopf trump suit), a value typed for one stands for the other (if the other's range takes it); where
    their words differ (Kop's old side: the black-queen holders of a normal game, the wesele pair, the lone
    player; a Sauspiel's partner and a Hochzeit's), a value typed for one contract says nothing about the
    other, so a switch of contract drops it."""
    said = (field.key, field.kind.value, str(field.label), str(field.help or ""), field.total, str(field.empty or ""),
            tuple((value, mark.key) for value, mark in field.marks))
    return hashlib.sha256(repr(said).encode()).hexdigest()[:12]


def live_words() -> dict[str, str]:
    """The sentences a number's checks say, as templates (%(lo)s, %(hi)s, %(n)s …): the server's field checks
    write them (`number_field`), and the table page hands them to static/js/app.js, which says the same at
    the input while it is typed, from the limits the input carries (never from a game's rules of its own)."""
    return {"range": gettext("a whole number from %(lo)s to %(hi)s"),
            "not-number": gettext("not a number: a whole number from %(lo)s to %(hi)s"),
            "impossible": gettext("cannot be %(n)s: no side can make that total; the nearest possible totals "
                                  "are %(below)s and %(above)s"),
            "over-total": gettext("together %(sum)s: more than the %(total)s there are"),
            "off-total": gettext("together %(sum)s, not %(total)s")}


def number_field(field: Input, tap: bool, label: str | None = None) -> forms.IntegerField:
    """A typed whole number for `field` (a COUNT, or one seat's number of a PER_SEAT list). A text input with a
    numeric keyboard on the table's page (`tap`), not type=number: that one drops letters, so "7o" arrived as
    nothing ("needed") instead of "not a number". There it is checked at once against its range and the values no
    deal can have (`Input.impossible`); the limits ride on the input for the checks while typing."""
    attrs: dict[str, Any] = {"inputmode": "numeric", "min": field.lo, "max": field.hi, "autocomplete": "off"}
    if not tap:  # the dispute page: the engine alone judges the values
        return forms.IntegerField(required=False, label=label, widget=forms.NumberInput(attrs=attrs))
    attrs["pattern"] = "[0-9]*"
    words = live_words()
    bounds = {"lo": field.lo, "hi": field.hi}
    attrs["data-live"] = "number"
    if field.impossible and field.kind is Kind.COUNT:
        attrs["data-impossible"] = " ".join(map(str, field.impossible))
    made = forms.IntegerField(
        required=False, min_value=field.lo, max_value=field.hi, label=label, widget=forms.TextInput(attrs=attrs),
        error_messages={"invalid": words["not-number"] % bounds, "min_value": words["range"] % bounds,
                        "max_value": words["range"] % bounds})
    if field.impossible and field.kind is Kind.COUNT:
        made.validators.append(lambda n: possible(field, n))
    return made


def possible(field: Input, n: int) -> None:
    """Refuses a number `field` says no deal can have, naming the nearest that can be."""
    if n not in field.impossible:
        return
    can = [v for v in range(field.lo, field.hi + 1) if v not in field.impossible]
    below, above = max((v for v in can if v < n), default=None), min((v for v in can if v > n), default=None)
    raise forms.ValidationError(live_words()["impossible"] % {"n": n, "below": below, "above": above},
                                code="impossible")


def carries(value: object) -> bool:
    """Whether an input carries a value for the request (0 does; an empty input or unticked box not)."""
    return value is not None and value is not False and value != "" and value != []


@dataclass(frozen=True, slots=True)
class People:
    """Who can be named in a deal's seat inputs: `seats[s]` is the value an input holds for engine seat s
    (a table position, or s itself), `named` the values offered with their labels (the sitting-out
    dealer of a 4-seat Skat table is not offered)."""

    seats: tuple[int, ...]
    named: tuple[tuple[int, str], ...]

    def seat(self, value: int | None) -> int | None:
        return None if value is None or value not in self.seats else self.seats.index(value)

    def choices(self, empty: str | None = None) -> list[tuple[str, str]]:
        offered = [(str(value), label) for value, label in self.named]
        return [("", empty), *offered] if empty is not None else offered

    @property
    def offered(self) -> list[int]:
        return [value for value, _label in self.named]


@dataclass(frozen=True, slots=True)
class Question:
    """One question on a form: a field of the deal, its inputs (`names`) and how they are laid out:
    radios, checks, check, select, number, text, per_seat, order (a select per call), chain (the same
    selects, filled by tapping the players in turn). `rare`: folded away under "More"; `common`: how many
    choices a tap row shows before "Other"; `typed`: typed on a keyboard; `total`: what a per-seat list
    adds up to, where one seat may be left empty to have the rest."""

    key: str
    label: Label
    help: Label
    layout: str
    names: tuple[str, ...]
    rare: bool = False
    common: int = 0
    typed: bool = False
    short: Label = ""
    short_taps: bool = False  # every choice a number: the taps may be narrow
    count_words: bool = False  # counts in words ("with 2", "without 3"): four a row, "Other" beside them
    total: int | None = None
    empty: Label = ""  # a chain with no one in it ("no doubling")
    meaning: str = ""  # what a value means (`meaning`): a switch of contract keeps only the values meant alike


class DealInputs:
    """The form fields and questions for one contract's deal fields (`described`, the engine's
    `inputs(contract, rules, table)`), in `style`, seats named by `people`.

    On the table's page (TAP) a per-seat list with a `total` may leave seats empty and one with `marks`
    is asked by its marks (tap rows of players: a Ramsch's "took no trick", "took every trick"), its own
    numbers folded away: the facts then carry None for each seat left empty and the marks under their own
    keys, and the game's `complete` makes the contract's lists of them (or says what cannot be)."""

    def __init__(self, described: Sequence[Input], people: People, style: str) -> None:
        # The table is not asked what its rule set gives no weight (the dispute page shows every field).
        self.described = {field.key: field for field in described if not (field.idle and style == TAP)}
        self.people = people
        self.style = style
        self.fields: dict[str, forms.Field] = {}
        self.questions: list[Question] = []
        self.marks: dict[str, Input] = {}  # the tap rows standing in for a per-seat list's values, by key
        for field in self.described.values():
            self._add(field)

    # --- building -------------------------------------------------------------------------------------

    def _add(self, field: Input) -> None:
        tap = self.style == TAP
        marked = tap and bool(field.marks)  # asked by its marks: the numbers only where they do not follow
        rare = field.seldom and not field.required or marked
        label, short = say(field.label), say(field.short) if field.short else ""
        # A field the contract needs here drops help that calls it optional ("optional, except …").
        help_text = say(field.help) if field.help and not (tap and field.required) else ""
        key = field.key

        def question(layout: str, names: tuple[str, ...] = (key,), **more: Any) -> None:
            self.questions.append(Question(key, label, help_text, layout, names, rare, short=short,
                                           meaning=meaning(field), **more))

        if field.kind is Kind.PER_SEAT:
            if marked:  # the tap rows first, in view; the numbers folded away under "More"
                for _value, mark in field.marks:
                    self.marks[mark.key] = mark
                    self._add(mark)
                help_text = say(field.help) if field.help else ""
            names = tuple(f"{key}-{value}" for value in self.people.offered)
            for (_value, name_label), name in zip(self.people.named, names, strict=True):
                self.fields[name] = number_field(field, tap, label=name_label)
            total = field.total if tap and not marked else None
            question("per_seat", names, typed=True, total=total)
            return
        if field.kind is Kind.SEAT_ORDER:
            if tap:
                # One select per call, in the order they were said (empty ones are ignored): without
                # JavaScript the selects are the input; with it they are filled by tapping the players in
                # turn (static/js/app.js), as many calls as count and two that do not.
                names = tuple(f"{key}-{i}" for i in range(field.hi + 2))
                for i, name in enumerate(names):
                    self.fields[name] = forms.TypedChoiceField(
                        label=gettext("Call %(n)s") % {"n": i + 1}, coerce=int, empty_value=None, required=False,
                        choices=self.people.choices("—"))
                counted = ngettext("who doubled, in the order said; at most %(n)s doubling counts",
                                   "who doubled, in the order said; at most %(n)s doublings count",
                                   field.hi) % {"n": field.hi}
                self.questions.append(Question(key, label, counted, "chain", names, short=short,
                                               empty=say(field.empty) if field.empty else "—",
                                               meaning=meaning(field)))
            else:
                self.fields[key] = forms.CharField(required=False, max_length=200, label=label,
                                                   widget=forms.TextInput(attrs={
                                                       "inputmode": "numeric", "autocomplete": "off",
                                                       "placeholder": "2 1 4"}))
                question("text", typed=True)
            return
        layout, typed = "select", False
        if field.kind is Kind.SEAT:
            if tap:  # a named "nobody" (`empty`) is a tap of its own, first
                made: forms.Field = forms.TypedChoiceField(
                    choices=self.people.choices(say(field.empty) if field.empty else None), coerce=int,
                    empty_value=None, required=False, widget=forms.RadioSelect)
                if field.empty:  # one tap more than there are players: narrower, so a row of five fits a phone
                    made.label = label
                    self.fields[key] = made
                    question("radios", short_taps=True)
                    return
                layout = "radios"
            else:
                made = forms.TypedChoiceField(choices=self.people.choices("—"), coerce=int, empty_value=None,
                                              required=False)
        elif field.kind is Kind.SEATS:
            made = forms.TypedMultipleChoiceField(choices=self.people.choices(), coerce=int, required=False,
                                                  widget=forms.CheckboxSelectMultiple)
            layout = "checks"
        elif field.kind is Kind.FLAG:
            made, layout = forms.BooleanField(required=False), "check"
        elif field.kind is Kind.CHOICE:
            choices = [(value, say(words)) for value, words in field.choices]
            if tap:  # a radio row needs no "—" button: untapped is empty; a named "nothing" stays choosable
                if field.empty:
                    choices.insert(0, ("", say(field.empty)))
                made, layout = forms.TypedChoiceField(choices=choices, empty_value=None, required=False,
                                                      widget=forms.RadioSelect), "radios"
            else:
                made = forms.TypedChoiceField(choices=[("", say(field.empty) if field.empty else "—"), *choices],
                                              empty_value=None, required=False)
        elif field.kind is Kind.COUNT and field.choices:
            # Counts players name (Skat's "with 2", "without 3"): tapped like the players, the rarer
            # choices folded away; leaving it empty says what stands in for it (the cards).
            choices = [(str(value), say(words)) for value, words in field.choices]
            empty = say(field.empty) if field.empty else "—"
            if tap:  # the engine's common values first (Skat's ±1…±3 matadors), else the first COMMON
                first = [c for v in field.common for c in choices if c[0] == str(v)]
                choices = [*first, *(c for c in choices if c not in first)]
                common = len(first) or COMMON
                made = forms.TypedChoiceField(choices=[*choices, ("", empty)], coerce=int, empty_value=None,
                                              required=False, widget=forms.RadioSelect)
                self.fields[key] = made
                made.label = label
                # "None: count them from the cards" is the last choice: folded with the rarer ones.
                question("radios", common=common if len(choices) + 1 > common else 0, count_words=True)
                return
            made = forms.TypedChoiceField(choices=[("", empty), *choices], coerce=int, empty_value=None, required=False)
        elif field.kind is Kind.COUNT and field.values and tap:
            # Tapped, not a 63-entry list: the values most deals take first (Skat's lowest bids), the rest
            # folded under "Other" in their order.
            often = [v for v in field.common if v in field.values]
            ordered = [*often, *(v for v in field.values if v not in often)]
            made = forms.TypedChoiceField(choices=[(str(v), str(v)) for v in ordered], coerce=int, empty_value=None,
                                          required=False, widget=forms.RadioSelect)
            made.label = label
            self.fields[key] = made
            question("radios", common=len(often) if often and len(often) < len(ordered) else 0, short_taps=True)
            return
        elif field.kind is Kind.COUNT and field.values:
            made = forms.TypedChoiceField(choices=[("", "—"), *((str(v), str(v)) for v in field.values)], coerce=int,
                                          empty_value=None, required=False)
        elif field.kind is Kind.COUNT and tap and field.hi - field.lo <= TAP_MAX:
            choices = [(str(n), str(n)) for n in range(field.lo, field.hi + 1)]
            # The engine's common values first (a Null's tricks: 0 won, a few lost), the rest under "Other".
            first = [c for v in field.common for c in choices if c[0] == str(v)]
            choices = [*first, *(c for c in choices if c not in first)]
            if rare:  # optional: "not given" must stay choosable once a number was tapped
                choices.insert(0, ("", "—"))
            common = len(first) + rare if first and len(first) + rare < len(choices) else 0
            made = forms.TypedChoiceField(choices=choices, coerce=int, empty_value=None, required=False,
                                          widget=forms.RadioSelect)
            made.label = label
            self.fields[key] = made
            question("radios", short_taps=True, common=common)  # numbers: narrow taps, up to seven a row
            return
        elif field.kind is Kind.COUNT:
            made, layout, typed = number_field(field, tap), "number", True
        else:  # cards
            made, layout, typed = forms.CharField(required=False, max_length=200, widget=forms.TextInput(attrs={
                "autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false",
                "placeholder": "CJ SJ HA H10 …"})), "text", True
        made.label = label
        self.fields[key] = made
        question(layout, typed=typed)

    # --- reading what was entered ---------------------------------------------------------------------

    def names_of(self, key: str) -> tuple[str, ...]:
        return next(q.names for q in self.questions if q.key == key)

    def seat_of(self, key: str, name: str) -> int:
        """The engine seat of one input of a per-seat list (``points-2``: the player at table position 2)."""
        value = self.people.offered[self.names_of(key).index(name)]
        return self.people.seats.index(value)

    def facts(self, contract: str, cleaned: Mapping[str, Any], add_error: AddError,
              every: str) -> dict[str, Any] | None:
        """The contract's ``deal`` object (engine seats): the contract and every input that carries a
        value. None when an input cannot be read (a per-seat list half filled, seats mistyped); the
        message is then at its input (`every`: "enter a number for every player")."""
        facts: dict[str, Any] = {"contract": contract}
        readable = True
        people = self.people
        for key, field in [*self.described.items(), *self.marks.items()]:
            value: Any
            if field.kind is Kind.PER_SEAT:
                by_value = {p: cleaned.get(f"{key}-{p}") for p in people.offered}
                if all(v is None for v in by_value.values()):
                    continue
                if self.style == TAP and (field.total is not None or field.marks):
                    # Seats left empty are the game's to complete (the rest of the total, the tricks that fit).
                    facts[key] = [by_value[p] if p in by_value else 0 for p in people.seats]
                    continue
                missing = [p for p, v in by_value.items() if v is None]
                for p in missing:
                    add_error(f"{key}-{p}", every)
                if missing:
                    readable = False
                    continue
                value = [by_value.get(p, 0) for p in people.seats]  # whoever sits the deal out took nothing
            elif field.kind is Kind.SEAT_ORDER:
                if self.style == TAP:
                    value = [people.seat(cleaned.get(name)) for name in self.names_of(key)
                             if cleaned.get(name) is not None]
                else:
                    value = self._typed_order(key, cleaned.get(key) or "", add_error)
                    if value is None:
                        readable = False
                        continue
            elif field.kind is Kind.SEAT:
                value = people.seat(cleaned.get(key))
            elif field.kind is Kind.SEATS:
                value = sorted(people.seat(int(p)) for p in cleaned.get(key) or [])
            elif field.kind is Kind.CARDS:
                text = (cleaned.get(key) or "").upper().strip()
                value = [card for card in SPLIT.split(text) if card] if text else None
            else:
                value = cleaned.get(key)
            if carries(value):
                facts[key] = value
        return facts if readable else None

    def _typed_order(self, key: str, text: str, add_error: AddError) -> list[int] | None:
        """Seats typed as the page numbers them (1 … n), in order, as the contract's 0-based list."""
        tokens = [t for t in SPLIT.split(text.strip()) if t]
        n = len(self.people.seats)
        if not all(t.isdecimal() and len(t) < 3 and 1 <= int(t) <= n for t in tokens):
            add_error(key, gettext("Write the seats as numbers from 1 to %(n)s in the order the calls "
                                   "were made, e.g. 2 1 4") % {"n": n})
            return None
        return [int(t) - 1 for t in tokens]

    def input_for(self, path: str) -> str | None:
        """The input for the engine's dotted field path: ``deal.points.2`` is the input of engine seat 2,
        ``deal.doublings.1`` the second call; None for a path outside the deal's fields."""
        head, *rest = path.split(".")
        if head == "deal" and rest and rest[0] in self.marks:
            return rest[0]
        if head != "deal" or not rest or rest[0] not in self.described:
            return None
        key, field = rest[0], self.described[rest[0]]
        index = int(rest[1]) if len(rest) > 1 and rest[1].isdecimal() and len(rest[1]) < 3 else None
        if field.kind is Kind.PER_SEAT:
            names = self.names_of(key)
            if index is not None and index < len(self.people.seats):
                name = f"{key}-{self.people.seats[index]}"
                if name in self.fields:
                    return name
            return names[0]
        if field.kind is Kind.SEAT_ORDER and self.style == TAP:
            names = self.names_of(key)
            return names[min(index, len(names) - 1)] if index is not None else names[0]
        return key

    def initial(self, facts: Mapping[str, Any]) -> dict[str, Any]:
        """A stored deal's facts as the inputs' initial values (engine seats back to what the inputs hold)."""
        return initial_values(self.described, facts, self.people.seats, self.style)


def marks_of(described: Mapping[str, Input]) -> dict[str, Input]:
    """The tap rows that stand in for the values of per-seat lists (`Input.marks`), by key."""
    return {mark.key: mark for field in described.values() for _value, mark in field.marks}


def initial_values(described: Mapping[str, Input], facts: Mapping[str, Any], seats: Sequence[int],
                   style: str) -> dict[str, Any]:
    """Facts (engine seats) as the initial values of inputs of `style` whose seat inputs hold `seats[s]`
    for engine seat s; facts that are no input (``bock``, which the ledger derives) are left out. Facts
    as a page enters them (`scorekeep.rules.entered`) may carry marks, tap rows of their own."""
    initial: dict[str, Any] = {}
    marks = marks_of(described)
    for key, value in facts.items():
        field = described.get(key) or marks.get(key)
        if field is None:
            continue
        if field.kind is Kind.SEAT:
            initial[key] = seats[value]
        elif field.kind is Kind.SEATS:
            initial[key] = [str(seats[s]) for s in value]
        elif field.kind is Kind.PER_SEAT:
            for seat, number in enumerate(value):
                initial[f"{key}-{seats[seat]}"] = number
        elif field.kind is Kind.SEAT_ORDER:
            if style == TAP:
                for i, seat in enumerate(value):
                    initial[f"{key}-{i}"] = seats[seat]
            else:
                initial[key] = " ".join(str(seats[seat] + 1) for seat in value)
        elif field.kind is Kind.CARDS:
            initial[key] = " ".join(value)
        else:
            initial[key] = value
    return initial
