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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from . import ledger
from .forms import CONTRACT_LABELS, DEAL_SPECS, GAME_SPECS, Spec, bid_choices, carries, matador_choices, peek
from .models import CardNight, CardTable, Deal
from .rules import GAMES, IllegalDeal, Table, Verdict, kop
from .rules import cards as skat_cards

# Sensible first choices for a new deal (issue 3: "sensible defaults"): the lowest Skat bid.
DEFAULTS: dict[tuple[str, str], str] = {("skat", "bid"): "18"}

# The fields most deals leave alone go in a "More" section, so a typical deal is a few taps.
RARE = {"cards", "declarer_tricks", "conceded", "kontra", "re", "ouvert", "called_ace", "old_tricks",
        "announced"}

# How "More" names what it holds, per field (the full labels are long).
RARE_SHORT: dict[str, str | Promise] = {
    "cards": _("cards"), "declarer_tricks": _("tricks"), "conceded": _("conceded"), "kontra": _("Kontra"),
    "re": _("Re"), "ouvert": _("Ouvert"), "called_ace": _("called ace"), "old_tricks": _("tricks"),
    "announced": _("announced"), "surrendered": _("surrendered"), "doublings": _("doublings"),
}

# Small counts are tapped, not typed: one tap instead of opening the keyboard and typing.
TAP_MAX = 10

LIVE_DELAY = "input changed delay:400ms"
SPLIT = re.compile(r"[\s,;]+")
SUIT_SIGNS = {"C": "♣", "S": "♠", "H": "♥", "D": "♦"}


@dataclass(frozen=True, slots=True)
class Question:
    """One question on the form: a field of the deal, its inputs and where its messages go."""

    key: str
    label: str | Promise
    help: str | Promise
    layout: str  # radios, checks, check, select, number, text, per_seat, order, cards
    names: tuple[str, ...]
    rare: bool = False
    common: int = 0  # radios: how many choices the tap row shows; the rest fold away (0: all)


def pack(game: str) -> list[tuple[str, int]]:
    """The cards a side can capture, each with its card points (Skat/Schafkopf 32, Kop 16)."""
    module = GAMES[game]
    points = getattr(module, "CARD_POINTS", skat_cards.CARD_POINTS)
    suits = getattr(module, "SUITS", skat_cards.SUITS)
    return [(suit + rank, value) for suit in suits for rank, value in points.items()]


def seating_of(night: CardNight, players: int, dealer: int) -> tuple[list[int], Table]:
    """The table positions in engine seats for a deal dealt by `dealer`, and the engine's table."""
    seats = ledger.seating(night.game, players, dealer)
    return seats, Table(len(seats), ledger.engine_dealer(seats, dealer))


@dataclass(frozen=True, slots=True)
class Bound:
    """A question bound to what was entered, with its messages (`quiet`: they only ask for what is empty)."""

    question: Question
    fields: list[forms.BoundField]
    errors: list[str]
    quiet: bool

    @property
    def fold_open(self) -> bool:
        """Whether the value chosen is among the folded-away choices (they are then shown open)."""
        if not self.question.common:
            return False
        field = self.fields[0]
        value = field.value()
        in_view = {str(v) for v, _label in field.field.choices[:self.question.common]}  # type: ignore[attr-defined]
        return value not in (None, "") and str(value) not in in_view


class DealForm(forms.Form):
    """One deal of a table, as the table declared it; for a new deal or a correction.

    `data` is the submitted form (None: unbound, filled from `initial`). After `is_valid()`,
    `facts` holds the contract's ``deal`` object, `verdict` the engine's verdict for the preview,
    and the errors sit at their inputs.
    """

    def __init__(self, data: Mapping[str, Any] | None, *, night: CardNight, names: Sequence[str], dealer: int,
                 url: str, initial: Mapping[str, Any] | None = None, bock: bool = False,
                 correcting: bool = False, scorer: str = "") -> None:
        initial = dict(initial or {})
        initial.setdefault("by", scorer)
        super().__init__(data, initial=initial)
        self.night, self.names, self.url = night, list(names), url
        self.game = night.game
        self.module = GAMES[self.game]
        self.bock = bock
        self.correcting = correcting
        self.facts: dict[str, Any] | None = None
        self.verdict: Verdict | None = None
        self.questions: list[Question] = []
        self.rules = self.module.parse_rules(night.rules_request)
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

        self.contracts = [str(c) for c in self.module.contracts(self.rules)]
        self.fields["contract"] = forms.ChoiceField(
            label=_("Game"), required=False, choices=[(c, CONTRACT_LABELS.get(c, c)) for c in self.contracts],
            widget=forms.RadioSelect(attrs=self._swap_entry()))
        contract = self._peek("contract") or self.initial.get("contract")
        self.contract = contract if contract in self.contracts else self.contracts[0]
        if not self.is_bound:
            self.initial["contract"] = self.contract
        self.keys = [k for k in self.module.deal_fields(self.contract, self.rules, self.table)
                     if k != "bock" and not self._never_counts(k)]
        self.specs: dict[str, Spec] = {}
        for key in self.keys:
            self._add_question(key, GAME_SPECS.get((self.game, key)) or DEAL_SPECS.get(key) or Spec("json", key))
        if not self.is_bound:
            for (game, key), value in DEFAULTS.items():
                if game == self.game and key in self.keys:
                    self.initial.setdefault(key, value)

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

    def _peek(self, name: str) -> Any:
        """One input's cleaned value before validation (None when missing or invalid)."""
        return peek(self, name) if self.is_bound else self.initial.get(name)

    def _never_counts(self, key: str) -> bool:
        """A field whose value this rule set never uses, so the scorer is not asked it: Laufende where
        they are paid nothing (Schafkopf classic: per_laufender 0; a Sie's 8 are fixed)."""
        return key == "laufende" and getattr(self.rules, "per_laufender", None) == 0

    def _tap_range(self, key: str, spec: Spec) -> tuple[int, int] | None:
        """The numbers to offer as tap buttons for a small count, or None to type it."""
        hi = spec.hi
        if key == "doublings":
            limit = getattr(self.rules, "max_doublings", None)
            hi = limit if isinstance(limit, int) else hi
        return (spec.lo, hi) if key != "card_points" and hi - spec.lo <= TAP_MAX else None

    def _required(self, key: str) -> bool:
        """Fields the contract cannot do without stay out of "More" (ADJUDICATION.md): a Null game's
        and a Tout's or Bettel's tricks; Kop's old-side tricks for a zolo du and where the rule set
        values a trickless side."""
        if key == "declarer_tricks":
            return (self.game, self.contract) == ("skat", "null") or (
                self.game == "schafkopf" and (self.contract.endswith("_tout") or self.contract == "bettel"))
        if key == "old_tricks" and self.game == "kop":
            return kop.tricks_required(kop.Contract(self.contract), self.rules)
        return False

    def _people(self, positions: Sequence[int]) -> list[tuple[str, str]]:
        return [(str(p), self.names[p]) for p in positions]

    def _add_question(self, key: str, spec: Spec) -> None:
        self.specs[key] = spec
        number = {"inputmode": "numeric", "min": spec.lo, "max": spec.hi, "autocomplete": "off"}
        rare = key in RARE and not self._required(key)
        if spec.kind == "per_seat":
            names = tuple(f"{key}-{p}" for p in self.playing)
            for p, name in zip(self.playing, names, strict=True):
                self.fields[name] = forms.IntegerField(label=self.names[p], required=False, min_value=spec.lo,
                                                       max_value=spec.hi, widget=forms.NumberInput(attrs=number))
            self.questions.append(Question(key, spec.label, spec.help, "per_seat", names))
            return
        if spec.kind == "seat_order":
            # Kop doublings: one select per call, in the order they were said; empty ones are ignored.
            limit = getattr(getattr(self.rules, "max_doublings", None), self.contract, 4)
            names = tuple(f"{key}-{i}" for i in range(limit + 2))
            for i, name in enumerate(names):
                self.fields[name] = forms.TypedChoiceField(
                    label=gettext("Call %(n)s") % {"n": i + 1}, coerce=int, empty_value=None, required=False,
                    choices=[("", "—"), *self._people(self.playing)])
            self.questions.append(Question(key, spec.label, _("who doubled, in the order they said it"), "order",
                                           names, rare=True))
            return
        layout = "select"
        if spec.kind == "seat":
            choices = self._people([p for p in self.playing])
            field: forms.Field = forms.TypedChoiceField(choices=choices, coerce=int, empty_value=None, required=False,
                                                        widget=forms.RadioSelect)
            layout = "radios"
        elif spec.kind == "seat_set":
            field = forms.TypedMultipleChoiceField(choices=self._people(self.playing), coerce=int, required=False,
                                                   widget=forms.CheckboxSelectMultiple)
            layout = "checks"
        elif spec.kind == "boolean":
            field, layout = forms.BooleanField(required=False), "check"
        elif spec.kind == "number" and self._tap_range(key, spec) is not None:
            lo, hi = self._tap_range(key, spec)  # type: ignore[misc]
            choices = [(str(n), str(n)) for n in range(lo, hi + 1)]
            if rare:  # optional: "not given" must stay choosable once a number was tapped
                choices.insert(0, ("", "—"))
            field = forms.TypedChoiceField(choices=choices, coerce=int, empty_value=None, required=False,
                                           widget=forms.RadioSelect)
            layout = "radios"
        elif spec.kind == "number":
            range_text = gettext("a whole number from %(lo)s to %(hi)s") % {"lo": spec.lo, "hi": spec.hi}
            field, layout = forms.IntegerField(
                required=False, min_value=spec.lo, max_value=spec.hi, widget=forms.NumberInput(attrs=number),
                error_messages={"invalid": range_text, "min_value": range_text, "max_value": range_text}), "number"
        elif spec.kind == "choice":
            # A radio row needs no "—" button: untapped is empty (the tester found "—" beside the suits).
            choices = [(value, label) for value, label in spec.choices if value != "" or str(label) != "—"]
            field = forms.TypedChoiceField(choices=choices, empty_value=None, required=False,
                                           widget=forms.RadioSelect)
            layout = "radios"
        elif spec.kind == "matadors":
            # Tapped like the players: "with 1" … "with 4" and "without 1" … "without 4" in view (nearly
            # every game), the rare longer runs and "none: count them from the cards" folded away.
            by_value = dict(matador_choices())
            runs = [*range(1, 5), *range(-1, -5, -1), *range(5, 12), *range(-5, -12, -1)]
            field = forms.TypedChoiceField(
                choices=[*((str(n), by_value[str(n)]) for n in runs), ("", gettext("none: count them from the cards"))],
                coerce=int, empty_value=None, required=False, widget=forms.RadioSelect)
            field.label = spec.label
            self.fields[key] = field
            self.questions.append(Question(key, spec.label, "", "radios", (key,), rare=rare, common=8))
            return
        elif spec.kind == "bid":
            field = forms.TypedChoiceField(choices=bid_choices(self.module), coerce=int, empty_value=None,
                                           required=False)
        elif spec.kind == "cards":
            field, layout = forms.CharField(required=False, max_length=200, widget=forms.TextInput(attrs={
                "autocapitalize": "characters", "autocomplete": "off", "spellcheck": "false",
                "placeholder": "CJ SJ HA H10 …"})), "text"
        else:
            field, layout = forms.CharField(required=False, max_length=500), "text"
        field.label = spec.label
        self.fields[key] = field
        # A field the contract needs here drops help that calls it optional ("optional, except …").
        help_text = "" if self._required(key) else spec.help
        self.questions.append(Question(key, spec.label, help_text, layout, (key,), rare=rare))
        if key == "card_points":
            # Counting by tapping the captured cards: used when the number is left empty.
            self.fields["captured"] = forms.MultipleChoiceField(
                label=_("Or tick the cards the side took"), required=False,
                choices=[(card, SUIT_SIGNS[card[0]] + card[1:]) for card, _points in pack(self.game)],
                widget=forms.CheckboxSelectMultiple)

    # --- judging -------------------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if "dealer" in self.errors or "contract" in self.errors:
            return cleaned
        facts = self._facts(cleaned)
        if facts is None:
            return cleaned
        self.facts = facts
        try:
            self.verdict = ledger.judge_deal(self.night, self.seats, self.dealer, facts, self.bock)
        except IllegalDeal as err:
            self.engine_error(err)
        return cleaned

    def _seat(self, position: int | None) -> int | None:
        return None if position is None else self.seats.index(position)

    def _facts(self, cleaned: Mapping[str, Any]) -> dict[str, Any] | None:
        """The contract's ``deal`` object (engine seats), or None when an input cannot be read."""
        facts: dict[str, Any] = {"contract": self.contract}
        readable = True
        for key in self.keys:
            spec = self.specs[key]
            value: Any
            if spec.kind == "per_seat":
                by_position = {p: cleaned.get(f"{key}-{p}") for p in self.playing}
                if all(v is None for v in by_position.values()):
                    continue
                missing = [p for p, v in by_position.items() if v is None]
                for p in missing:
                    self.add_error(f"{key}-{p}", gettext("enter a number for every player"))
                if missing:
                    readable = False
                    continue
                # Whoever sits the deal out at a 4-seat Skat table took no cards.
                value = [by_position.get(p, 0) for p in self.seats]
            elif spec.kind == "seat_order":
                value = [self._seat(cleaned.get(name)) for name in self._names(key)
                         if cleaned.get(name) is not None]
            elif spec.kind == "seat":
                value = self._seat(cleaned.get(key))
            elif spec.kind == "seat_set":
                value = sorted(self._seat(int(p)) for p in cleaned.get(key) or [])
            elif spec.kind == "cards":
                text = (cleaned.get(key) or "").upper().strip()
                value = [card for card in SPLIT.split(text) if card] if text else None
            else:
                value = cleaned.get(key)
            if key == "card_points" and value is None and cleaned.get("captured"):
                value = self.captured_points
            if carries(value):
                facts[key] = value
        if self.game == "kop" and "old_tricks" in self.keys and "old_tricks" not in facts:
            # Every Kop card scores: most totals leave one possible trick count, which then needs no tap.
            settled = kop.tricks_for(facts["card_points"]) if isinstance(facts.get("card_points"), int) else ()
            if len(settled) == 1:
                facts["old_tricks"] = settled[0]
        return facts if readable else None

    def _names(self, key: str) -> tuple[str, ...]:
        return next(q.names for q in self.questions if q.key == key)

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
        message = err.render(self.seat_name, gettext(err.text), gettext)
        name = self.input_for(err.field)
        if name is None:
            self.add_error(None, message)
            return
        if name in self.errors:
            return  # the input's own check already said what is wrong with what was typed (e.g. 125 of 120)
        # Asking for an input still empty is a prompt, not a mistake (card points may come from the cards).
        value = (self.facts or {}).get(name) if name == "card_points" else self.cleaned_data.get(name)
        needed = not carries(value)
        spec = self.specs.get(name)
        if needed:
            # A prompt for an empty input, in the page's words: the engine's sentence for a missing field
            # speaks the contract's (seat numbers, JSON lists, option keys) — a scorer only needs to know
            # what to fill in.
            kind = spec.kind if spec is not None else ""
            message = (gettext("tap the player's name") if kind == "seat"
                       else gettext("tap the players' names") if kind == "seat_set"
                       else gettext("tap one") if isinstance(self.fields.get(name), forms.TypedChoiceField)
                       and isinstance(self.fields[name].widget, forms.RadioSelect)
                       else gettext("needed for this game"))
        elif spec is not None and spec.kind == "seat_set" and err.field == f"deal.{name}":
            lone = self.game == "kop" and self.contract in ("cicha", "zolo", "zolo_du")
            message = gettext("tick only the lone player") if lone else gettext("tick the two players of the old side")
        self.add_error(name, ValidationError(message, code="needed" if needed else "illegal"))

    def input_for(self, path: str) -> str | None:
        """The input for the engine's dotted field path: ``deal.points.2`` is the input of the player in
        engine seat 2; ``deal.old.1`` is the old-side checkboxes; ``dealer`` is who dealt."""
        head, *rest = path.split(".")
        if head == "dealer":
            return "dealer"
        if head != "deal" or not rest:
            return None
        key = rest[0]
        spec = self.specs.get(key)
        if spec is None:
            return key if key in self.fields else None
        if spec.kind == "per_seat":
            if len(rest) > 1 and rest[1].isdecimal() and int(rest[1]) < len(self.seats):
                name = f"{key}-{self.seats[int(rest[1])]}"
                if name in self.fields:
                    return name
            return self._names(key)[0]
        if spec.kind == "seat_order":
            if len(rest) > 1 and rest[1].isdecimal():
                return self._names(key)[min(int(rest[1]), len(self._names(key)) - 1)]
            return self._names(key)[0]
        return key

    # --- what the template shows -------------------------------------------------------------------

    @property
    def header(self) -> dict[str, str]:
        """Who deals, who is forehand, who sits out — the facts every scorer checks before entering."""
        forehand = self.seats[(self.table.dealer + 1) % self.table.players]
        return {"dealer": self.names[self.dealer], "forehand": self.names[forehand],
                "out": ", ".join(self.names[p] for p in self.out)}

    def rows(self, rare: bool) -> list[Bound]:
        return [Bound(q, [self[name] for name in q.names], self.errors_at(q), self.is_needed(q))
                for q in self.questions if q.rare == rare]

    @property
    def main_rows(self) -> list[Bound]:
        return self.rows(False)

    @property
    def rare_rows(self) -> list[Bound]:
        return self.rows(True)

    @property
    def more_label(self) -> str:
        """"More: tricks, Kontra, cards" — what the folded section holds in this game and contract."""
        shown: list[str] = []
        for row in self.rare_rows:
            word = str(RARE_SHORT.get(row.question.key, row.question.label))
            if word not in shown:
                shown.append(word)
        return gettext("More: %(what)s") % {"what": ", ".join(shown)}

    @property
    def rare_open(self) -> bool:
        """Open "More" when something in it carries a value or a message."""
        return any(row.errors or any(carries(b.value()) for b in row.fields) for row in self.rare_rows)

    def errors_at(self, question: Question) -> list[str]:
        if not self.is_bound:
            return []
        return [message for name in question.names for message in self.errors.get(name, [])]

    def is_needed(self, question: Question) -> bool:
        """Whether the messages at a question only ask for what is still empty (shown quietly)."""
        data = self.errors.as_data() if self.is_bound else {}
        codes = [e.code for name in question.names for e in data.get(name, [])]
        return bool(codes) and all(code == "needed" for code in codes)

    @property
    def slots(self) -> list[tuple[str, list[str], bool]]:
        """Every question's message slot (id, messages, quiet), refreshed with the preview (htmx)."""
        return [(q.key, self.errors_at(q), self.is_needed(q)) for q in self.questions]

    @property
    def contract_row(self) -> Bound:
        question = Question("contract", _("Game"), "", "radios", ("contract",))
        return Bound(question, [self["contract"]], self.errors_at(question), False)

    @property
    def problems(self) -> list[tuple[str, str]]:
        """(label, message) of everything that keeps the deal from being judged, for the preview."""
        if not self.is_bound:
            return []
        labels = {name: q.label for q in self.questions for name in q.names}
        return [(str(labels.get(name, "")), str(message)) for name, messages in self.errors.items()
                for message in messages if name != "__all__"]

    @property
    def top_errors(self) -> list[str]:
        return list(self.non_field_errors()) if self.is_bound else []

    @property
    def complement(self) -> str:
        """The other side's card points, for the live hint beside the card points."""
        spec = self.specs.get("card_points")
        if spec is None or not self.is_bound:
            return ""
        points = self._peek("card_points")
        counted = points is None and hasattr(self, "cleaned_data") and self.captured_points is not None
        if counted:
            points = self.captured_points
        if points is None or not 0 <= points <= spec.hi:
            return ""
        opponents = gettext("Opponents: %(points)s") % {"points": spec.hi - points}
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
            return "none", gettext("No declaring side")
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
        return self.verdict.explain(self.seat_name, gettext) if self.verdict is not None else []


class ChangeNote(forms.Form):
    """Who deletes or restores a deal, and why (both optional; stored in the deal's history)."""

    by = forms.CharField(label=_("Your name"), max_length=40, required=False)
    reason = forms.CharField(label=_("Why (optional)"), max_length=200, required=False)


def initial_from(facts: Mapping[str, Any], seating: Sequence[int], game: str) -> dict[str, Any]:
    """A stored deal's facts as the form's initial values (engine seats back to table positions)."""
    initial: dict[str, Any] = {"contract": facts.get("contract")}
    for key, value in facts.items():
        if key in ("contract", "bock"):
            continue
        spec = GAME_SPECS.get((game, key)) or DEAL_SPECS.get(key)
        kind = spec.kind if spec else ""
        if kind == "seat":
            initial[key] = seating[value]
        elif kind == "seat_set":
            initial[key] = [str(seating[s]) for s in value]
        elif kind == "per_seat":
            for seat, number in enumerate(value):
                initial[f"{key}-{seating[seat]}"] = number
        elif kind == "seat_order":
            for i, seat in enumerate(value):
                initial[f"{key}-{i}"] = seating[seat]
        elif kind == "cards":
            initial[key] = " ".join(value)
        else:
            initial[key] = value
    return initial


# --- a deal in words, and its history ------------------------------------------------------------

def _spec(game: str, key: str) -> Spec | None:
    return GAME_SPECS.get((game, key)) or DEAL_SPECS.get(key)


def fact_label(game: str, key: str) -> str:
    if key == "contract":
        return gettext("Game")
    if key == "bock":
        return gettext("Bock deal")
    spec = _spec(game, key)
    return str(spec.label) if spec else key


def fact_text(game: str, key: str, value: Any, seating: Sequence[int], names: Sequence[str]) -> str:
    """One stored fact as people say it, seats named by the players in them."""
    def name(seat: object) -> str:
        ok = isinstance(seat, int) and 0 <= seat < len(seating) and seating[seat] < len(names)
        return names[seating[seat]] if ok else str(seat)  # type: ignore[index]

    if key == "contract":
        return str(CONTRACT_LABELS.get(value, value))
    spec = _spec(game, key)
    kind = spec.kind if spec else ("boolean" if isinstance(value, bool) else "")
    if kind == "seat":
        return name(value)
    if kind == "seat_set" and isinstance(value, list):
        return ", ".join(name(s) for s in value)
    if kind == "seat_order" and isinstance(value, list):
        return " → ".join(name(s) for s in value) or gettext("none")
    if kind == "per_seat" and isinstance(value, list):
        return ", ".join(f"{name(seat)} {number}" for seat, number in enumerate(value))
    if kind == "boolean" or isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if kind == "matadors" and isinstance(value, int):
        return (gettext("with %(n)s") if value >= 0 else gettext("without %(n)s")) % {"n": abs(value)}
    if kind == "choice" and spec is not None:
        return str(dict(spec.choices).get(value, value))
    if kind == "cards" and isinstance(value, list):
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
        params = {"deal": what, "verb": verbs.get(revision.kind, revision.kind), "by": revision.by, "at": when}
        line = (gettext("%(deal)s %(verb)s by %(by)s at %(at)s") if revision.by
                else gettext("%(deal)s %(verb)s at %(at)s")) % params
        if revision.kind == "changed" and revision.old and revision.new:
            line += ": " + "; ".join(changes(game, revision.old, revision.new, names))
        if revision.reason:
            line += " " + gettext("(reason: %(reason)s)") % {"reason": revision.reason}
        lines.append(line[0].upper() + line[1:])
    return lines


def bock_in_words(night: CardNight, deal: Deal) -> str:
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
    if list(plain.scores) != list(deal.verdict.get("scores", [])):
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

    params = {"number": err.number, "message": err.error.render(name, gettext(err.error.text), gettext)}
    if table is not None and CardTable.objects.filter(night_id=table.night_id).count() > 1:
        return gettext("Deal %(number)s at table %(table)s would no longer be allowed, so nothing was changed: "
                       "%(message)s") % {**params, "table": table.number}
    return gettext("Deal %(number)s would no longer be allowed, so nothing was changed: %(message)s") % params
