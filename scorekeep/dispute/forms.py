"""The dispute form: the seam between the /adjudicate/ page and the rules engine.

`DisputeForm` builds its inputs from the engine itself — the game's presets, its options'
validators (`kind`), the contracts a rule set allows and the deal fields a contract uses — turns
what was entered into a request of the adjudication contract (``shared/spec/ADJUDICATION.md``)
holding only the fields that carry a value, calls `scorekeep.rules.judge` in `clean()`, and puts
the engine's `IllegalDeal` at the input it names. The view binds it and renders; nothing else.

Input names mirror the contract's dotted paths so errors map back plainly: ``deal.card_points``
is the input ``card_points``, ``deal.points.2`` the input ``points-2``, ``rules.kontra`` the input
``rule-kontra``, ``compare.1.seat`` the input ``compare-1-seat``.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import QueryDict
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from scorekeep.dispute.play import Item, Message, ReplayRow, Row, Slot, at_trick, pack_of, play_from, play_inputs
from scorekeep.nights.deal_inputs import PLAIN, DealInputs, People, carries
from scorekeep.rules import DEFAULT_GAME, GAMES, Comparison, IllegalDeal, Table, Verdict, inputs, judge, settles_bidding
from scorekeep.rules import play as played
from scorekeep.rules.explain import Word, signed
from scorekeep.rules.games import Game
from scorekeep.web.fields import HouseRulesMixin, engine_message, peek, seat_label
from scorekeep.words.labels import (
    CONTRACT_LABELS,
    GAME_LABELS,
    OPTION_LABELS,
    OPTION_WORD_LABELS,
    PRESET_LABELS,
    Label,
    in_game,
    listed,
    page_words,
)
from scorekeep.words.labels import translated as word_label

BID_LABELS: tuple[Label, ...] = (_("First bid"), _("Second bid"))
COMPARE_ADD_ONS: tuple[tuple[str, Label], ...] = (("hand", _("Hand")), ("ruten", _("Ruten")), ("durch", _("Durch")))

# htmx: an input that changes which inputs there are re-renders the region they are in — the game,
# rule set and table size everything (#dispute); the dealer, a house rule or the contract the deal
# (#deal), so the open "House rules" section stays as it is. While such a request is under way the
# inputs it will replace are disabled (after htmx has read their values), so nothing chosen in that
# moment is lost to the swap. Typing in a number or text input re-renders only the verdict, so the
# input keeps its focus and text.
REGIONS = {"page": ("#dispute", "#dispute fieldset"), "deal": ("#deal", "#deal fieldset")}
LIVE_DELAY = "input changed delay:500ms"

# How the page lays out each kind of deal input (the template's row layouts).
DEAL_LAYOUTS = {"check": "check", "per_seat": "seats", "checks": "choices"}


class DisputeForm(HouseRulesMixin, forms.Form):
    """The whole dispute page: table, house rules, deal and (Fipsen) a bidding dispute.

    Always bound: the query is completed with the defaults (the first game, its default preset,
    the preset's options) so what the page shows is exactly what the next submit sends. It is
    judged only once there is something to judge (a deal value, or "Show verdict" pressed).
    """

    data: QueryDict  # a mutable copy of the query, completed as the inputs are built

    def __init__(self, query: QueryDict | None, url: str) -> None:
        self.submitted = bool(query)
        data = query.copy() if query is not None else QueryDict(mutable=True)
        super().__init__(data)
        self.url = url
        self.items: dict[str, list[Item]] = defaultdict(list)
        self.slot_of: dict[str, str] = {}
        self.verdict: Verdict | None = None
        self.comparison: Comparison | None = None
        self.request_obj: dict[str, Any] | None = None
        self.compare_request: dict[str, Any] | None = None
        self.section_of: dict[str, str] = {}
        self.hidden_slots: set[str] = set()
        # The engine names a Kieker by its own key; the page chooses it in the bid's select.
        self.alias = {f"compare-{i}-kieker": f"compare-{i}-bid" for i in range(len(BID_LABELS))}

        # The game and preset decide every other input; an unknown one is reported at its input
        # and the page is built for the default meanwhile.
        game = data.get("game") or DEFAULT_GAME
        self.game = game if game in GAMES else DEFAULT_GAME
        self.module: Game = GAMES[self.game]
        shown_game, _sep, _preset = data.get("shown", "").partition(":")
        if shown_game and shown_game != self.game:
            # Another game was on the page: its preset, table and deal mean nothing here.
            data = QueryDict(mutable=True)
            data["game"] = game
            self.data = data
        data.setdefault("game", self.game)
        self._choose_rules(data, self.game, linked=True)

        self._add_table_fields(data)
        self._add_house_rules()
        self.rules = self._peek_rules()
        self._add_deal_fields()
        self._add_play_fields()
        if settles_bidding(self.game):
            self._add_compare_fields()

    # --- building the inputs ------------------------------------------------------------------

    def _add(self, section: str, item: Item, fields: Mapping[str, forms.Field], role: str = "") -> None:
        """Register an item's fields with their htmx wiring and accessibility attributes."""
        described = f"err-{item.slot}" + (f" help-{item.slot}" if item.help else "")
        for name, field in fields.items():
            attrs = field.widget.attrs
            if not field.widget.is_hidden:
                attrs["aria-describedby"] = described
            if role in REGIONS:
                target, replaced = REGIONS[role]
                attrs.update({"hx-get": self.url, "hx-trigger": "change consume", "hx-target": target,
                              "hx-disabled-elt": replaced})
            elif role == "typed":
                attrs.update({"hx-get": self.url, "hx-trigger": LIVE_DELAY})
            self.fields[name] = field
            self.slot_of[name] = item.slot
            self.section_of[name] = section
        self.slot_of[item.slot] = item.slot
        if item.layout == "hidden":
            self.hidden_slots.add(item.slot)
        self.items[section].append(item)

    def _add_table_fields(self, data: QueryDict) -> None:
        module = self.module
        self._add("table", Item("game", _("Game"), "", "field", ("game",)), {
            "game": forms.ChoiceField(choices=list(GAME_LABELS.items()), label=_("Game")),
        }, "page")
        self._add("table", Item("preset", _("Rule set"), "", "field", ("preset",)), {
            "preset": forms.ChoiceField(
                choices=[(p, PRESET_LABELS.get((self.game, p), p)) for p in module.PRESETS], label=_("Rule set")),
        }, "page")
        seats = module.SEATS
        # Compared as text: int() of a 5,000-digit value raises (Python's limit on digits).
        by_text = {str(n): n for n in seats}
        self.players = by_text.get(data.get("players", ""), module.DEFAULT_SEATS)
        data.setdefault("players", str(self.players))
        # A dealer beyond a smaller table (players changed) moves to the last seat, as by default.
        dealer = data.get("dealer", "")
        if not dealer or (dealer.isdecimal() and dealer not in {str(n) for n in range(self.players)}):
            dealer = data["dealer"] = str(self.players - 1)
        self.dealer = int(dealer) if dealer.isdecimal() else self.players - 1
        one_size = len(seats) == 1
        self._add("table", Item("players", _("Players"), "", "hidden" if one_size else "field", ("players",)), {
            "players": forms.TypedChoiceField(
                choices=[(n, gettext("%(n)s players") % {"n": n}) for n in seats], coerce=int, label=_("Players"),
                widget=forms.HiddenInput if one_size else forms.Select),
        }, "page")
        self._add("table", Item("dealer", _("Dealer"), "", "field", ("dealer",)), {
            "dealer": forms.TypedChoiceField(choices=self._seats(), coerce=int, label=_("Dealer")),
        }, "deal")
        self._add("table", Item("shown", "", "", "hidden", ("shown",)), {
            "shown": forms.CharField(widget=forms.HiddenInput, required=False),
        })

    def _add_house_rules(self) -> None:
        for rule in self.house_rules:
            # An option whose engine label lists its values' codes (a Sie's "4x_solo") is named in words.
            label = OPTION_WORD_LABELS.get(rule.key) or OPTION_LABELS.get(rule.key, rule.key)
            item = Item(rule.name, label, "", rule.layout, rule.names)
            self._add("rules", item, rule.fields(), "deal")

    def _peek(self, name: str) -> Any:
        return peek(self, name)

    def _seats(self, empty: Label | None = None) -> list[tuple[str, str]]:
        seats = [(str(seat), seat_label(seat)) for seat in range(self.players)]
        return [("", str(empty)), *seats] if empty is not None else seats

    def _add_deal_fields(self) -> None:
        contracts = [str(c) for c in self.module.contracts(self.rules)]
        self._add("contract", Item("contract", _("Contract"), "", "field", ("contract",)), {
            "contract": forms.ChoiceField(choices=[(c, CONTRACT_LABELS.get(c, c)) for c in contracts],
                                          label=_("Contract")),
        }, "deal")
        self.data.setdefault("contract", contracts[0])
        contract = self.data.get("contract")
        self.contract = contract if contract in contracts else contracts[0]
        table = Table(self.players, min(max(self.dealer, 0), self.players - 1))
        people = People(tuple(range(self.players)), tuple((seat, seat_label(seat)) for seat in range(self.players)))
        self.deal_inputs = DealInputs(inputs(self.game, self.contract, self.rules, table), people, PLAIN)
        self.rare: list[tuple[str, str]] = []  # the questions most deals leave alone (the engine's `seldom`)
        for question in self.deal_inputs.questions:
            fields = {name: self.deal_inputs.fields[name] for name in question.names}
            item = Item(question.key, question.label, question.help, DEAL_LAYOUTS.get(question.layout, "field"),
                        question.names)
            self._add("deal", item, fields, "typed" if question.typed else "")
            if question.rare:
                self.rare.append((question.key, str(question.short or question.label)))

    def _add_play_fields(self) -> None:
        """The cards as played (issue 19, docs/PLAY.md): typed as codes, one trick a line — a card picker
        (static/js/play.js) types them for a phone; the engine checks every card and counts."""
        for item, fields in play_inputs(self.game, self.players):
            self._add("play", item, fields, "" if item.slot == "play-trump" else "typed")

    def _play(self, cleaned: Mapping[str, Any]) -> dict[str, Any] | None:
        """``deal.play`` from the typed cards, or None when no card was typed."""
        try:
            return play_from(cleaned, self.players)
        except ValidationError as err:
            self.add_error("play-hands", err)
            return None

    def _compare_bids(self) -> list[tuple[str, Label]]:
        """The bids a bidding dispute compares, as the game offers them (`COMPARE_BIDS` of a game that settles
        bidding disputes: each trick bid, and a Kieker)."""
        return [("", "—"), *((value, word_label(words)) for value, _fields, words in self._offered_bids())]

    def _offered_bids(self) -> tuple[tuple[str, Mapping[str, object], Word], ...]:
        """The engine's bids of a bidding dispute (only a game that settles them has any)."""
        offered: tuple[tuple[str, Mapping[str, object], Word], ...] = getattr(self.module, "COMPARE_BIDS", ())
        return offered

    def _add_compare_fields(self) -> None:
        self._add("compare", Item("compare", _("Which bid is higher?"), "", "group", ()), {})
        for index, legend in enumerate(BID_LABELS):
            section = f"compare-{index}"
            self._add(section, Item(section, legend, "", "group", ()), {})
            self._add(section, Item(f"{section}-bid", _("Bid"), "", "field", (f"{section}-bid",)), {
                f"{section}-bid": forms.ChoiceField(choices=self._compare_bids(), required=False, label=_("Bid")),
            })
            for add_on, label in COMPARE_ADD_ONS:
                name = f"{section}-{add_on}"
                self._add(section, Item(name, label, "", "check", (name,)), {
                    name: forms.BooleanField(required=False, label=label)})
            self._add(section, Item(f"{section}-seat", _("Seat"), "", "field", (f"{section}-seat",)), {
                f"{section}-seat": forms.TypedChoiceField(choices=self._seats("—"), coerce=int, empty_value=None,
                                                          required=False, label=_("Seat")),
            })

    # --- judging --------------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or self.cleaned_data  # None: Django keeps cleaned_data
        failed = {self.section_of.get(name) for name in self.errors}
        if failed & {"table", "rules", "contract"}:
            return cleaned
        rules_complete = True
        for rule in self.house_rules:
            try:
                rule.value(cleaned)
            except ValidationError as err:
                self.add_error(rule.name, err)
                rules_complete = False
        if not rules_complete:
            return cleaned
        envelope = {"game": self.game, "rules": self._rules_request(cleaned),
                    "players": cleaned["players"], "dealer": cleaned["dealer"]}
        try:
            self.module.parse_rules(envelope["rules"])
        except IllegalDeal as err:
            self._engine_error(err)
            return cleaned
        if not self.submitted:
            return cleaned
        deal = None
        if "deal" not in failed:
            deal = self.deal_inputs.facts(self.contract, cleaned, self.add_error,
                                          gettext("enter a number for every seat"))
        if deal is not None and "play" not in failed:
            play = self._play(cleaned)
            if play is not None:
                deal["play"] = play
        if deal is not None and ("show" in self.data or len(deal) > 1 or not self.deal_inputs.questions):
            self.request_obj = {**envelope, "deal": deal}
            try:
                self.verdict = judge(self.request_obj)  # type: ignore[assignment]
            except IllegalDeal as err:
                self._engine_error(err)
        if self.compares and not failed & {"compare-0", "compare-1"}:
            bids = self._compare(cleaned)
            if any(bids) or "compare" in self.data:
                self.compare_request = {**envelope, "compare": bids}
                try:
                    self.comparison = judge(self.compare_request)  # type: ignore[assignment]
                except IllegalDeal as err:
                    self._engine_error(err)
        return cleaned

    def _compare(self, cleaned: Mapping[str, Any]) -> list[dict[str, Any]]:
        bids = []
        for index in range(len(BID_LABELS)):
            prefix = f"compare-{index}-"
            bid: dict[str, Any] = {}
            chosen = cleaned.get(prefix + "bid")
            bid.update(next((fields for value, fields, _words in self._offered_bids() if value == chosen), {}))
            for add_on, _label in COMPARE_ADD_ONS:
                if cleaned.get(prefix + add_on):
                    bid[add_on] = True
            if cleaned.get(prefix + "seat") is not None:
                bid["seat"] = cleaned[prefix + "seat"]
            bids.append(bid)
        return bids

    def _engine_error(self, err: IllegalDeal) -> None:
        """Put the engine's message at the input its field names, or at the top of the page."""
        name = self.input_for(err.field)
        message = at_trick(err.field, engine_message(err))
        if name is None:
            self.add_error(None, f"{err.field}: {message}")
        elif name in self.fields:
            needed = not carries(self.cleaned_data.get(name))
            self.add_error(name, ValidationError(message, code="needed" if needed else "illegal"))
        else:  # a group without an input of its own: a per-seat list, a compared bid, the comparison
            self.add_error(None, ValidationError(message, code=f"slot:{name}"))

    def input_for(self, path: str) -> str | None:
        """The input (or group) for a contract field path, trying the most specific name first."""
        head, *rest = path.split(".")
        if head == "rules":
            candidates = ["preset"] if rest == ["preset"] else [f"rule-{rest[0]}"] if rest else []
        elif head == "deal":
            candidates = ["-".join(rest[:i]) for i in range(len(rest), 0, -1)]
        elif head == "compare":
            candidates = ["-".join(["compare", *rest[:i]]) for i in range(len(rest), -1, -1)]
        else:
            candidates = [path]
        for name in candidates:
            name = self.alias.get(name, name)
            if name in self.slot_of:
                return name
        return None

    # --- what the template shows -------------------------------------------------------------

    def _errors_by_slot(self) -> dict[str, list[Message]]:
        slots: dict[str, list[Message]] = defaultdict(list)
        for name, errors in self.errors.as_data().items():
            for error in errors:
                needed = error.code == "needed"
                for text in error.messages:
                    if name != "__all__":
                        slot = self.slot_of.get(name, "top")
                        if slot in self.hidden_slots:  # an input not shown: say it at the top
                            slot = "top"
                        label = self.fields[name].label
                        text = f"{label}: {text}" if slot != name and label else text
                    elif error.code and error.code.startswith("slot:"):
                        slot = error.code[5:]
                    else:
                        slot = "top"
                    slots[slot].append(Message(text, needed))
        return slots

    def rows(self, section: str) -> list[Row]:
        errors = self.slot_errors
        return [Row(item.slot, item.label, item.help, item.layout, [self[name] for name in item.names],
                    errors.get(item.slot, [])) for item in self.items.get(section, [])]

    @property
    def slot_errors(self) -> dict[str, list[Message]]:
        if not hasattr(self, "_slot_errors"):
            self._slot_errors = self._errors_by_slot()
        return self._slot_errors

    @property
    def table_rows(self) -> list[Row]:
        return self.rows("table")

    @property
    def rule_rows(self) -> list[Row]:
        return self.rows("rules")

    @property
    def deal_rows(self) -> list[Row]:
        """The questions every deal of the contract answers; the rarer ones fold away (`more_rows`), as on a
        card night's entry, so that a deal settled from the cards fits a phone (issue 33)."""
        rare = {slot for slot, _ in self.rare}
        return self.rows("contract") + [row for row in self.rows("deal") if row.slot not in rare]

    @property
    def more_rows(self) -> list[Row]:
        rare = {slot for slot, _ in self.rare}
        return [row for row in self.rows("deal") if row.slot in rare]

    @property
    def more_open(self) -> bool:
        """"More" is open when something in it carries a value or a message (a shared link with Ouvert)."""
        return any(row.errors or any(carries(field.value()) for field in row.fields) for row in self.more_rows)

    @property
    def more_label(self) -> str:
        """"More: tricks, announced, Ouvert" — what the folded part holds for this game and contract."""
        return gettext("More: %(what)s") % {"what": listed(list(dict.fromkeys(word for _, word in self.rare)))}

    @property
    def play_rows(self) -> list[Row]:
        return self.rows("play")

    @property
    def pack(self) -> list[tuple[str, str, list[tuple[str, str, str]]]]:
        """The card picker's pack: per suit its name as the game's table says it, and its cards."""
        return pack_of(self.game)

    @property
    def replay(self) -> list[ReplayRow]:
        """The played deal trick by trick (the engine's `play.replay`), seats named as the page names them."""
        if self.verdict is None:
            return []
        return [ReplayRow(trick.number, [(card, seat_label(seat)) for card, seat in trick.cards],
                          seat_label(trick.winner), trick.points, trick.declaring, trick.defending,
                          gettext(trick.broken_rule) if trick.broken_rule else "", trick.broken_card or "",
                          trick.after_end, self.game)
                for trick in played.replay(self.verdict)]

    @property
    def compare_sections(self) -> list[tuple[Row, list[Row]]]:
        """Each compared bid: its fieldset (legend and errors) and its inputs."""
        sections = []
        for index in range(len(BID_LABELS)):
            head, *rows = self.rows(f"compare-{index}")
            sections.append((head, rows))
        return sections

    @property
    def compare_row(self) -> Row | None:
        rows = self.rows("compare")
        return rows[0] if rows else None

    @property
    def all_slots(self) -> list[Slot]:
        """Every error slot on the page with its messages: the verdict update refreshes them all."""
        errors = self.slot_errors
        return [self.top_slot] + [Slot(item.slot, errors.get(item.slot, []))
                                  for items in self.items.values() for item in items
                                  if item.slot not in self.hidden_slots]

    @property
    def slots_outside_deal(self) -> list[Slot]:
        """The error slots a #deal swap does not replace: the top, the table and the house rules."""
        errors = self.slot_errors
        return [self.top_slot] + [Slot(item.slot, errors.get(item.slot, []))
                                  for section in ("table", "rules") for item in self.items[section]
                                  if item.slot not in self.hidden_slots]

    @property
    def top_slot(self) -> Slot:
        return Slot("top", self.slot_errors.get("top", []))

    @property
    def rules_open(self) -> bool:
        """Show the house rules when they differ from the rule set's or hold an error."""
        changed = len(self._rules_request(getattr(self, "cleaned_data", {}))) > 1
        return changed or any(self.slot_errors.get(item.slot) for item in self.items["rules"])

    @property
    def error_summary(self) -> list[tuple[str, str, str]]:
        """(label, message, anchor) for every problem outside the bidding dispute, to list with the verdict."""
        labels = {item.slot: item.label for items in self.items.values() for item in items}
        compare = {item.slot for section, items in self.items.items() if section.startswith("compare")
                   for item in items}
        return [(str(labels.get(slot, "")), message.text, f"row-{slot}" if slot in labels else "dispute")
                for slot, messages in self.slot_errors.items() if slot not in compare for message in messages]

    @property
    def compares(self) -> bool:
        return "compare" in self.items

    @property
    def outcome(self) -> tuple[str, str] | None:
        if self.verdict is None:
            return None
        won = self.verdict.won
        if won is None:
            return "none", in_game(gettext_noop("No declaring side"), self.game)
        return ("won", gettext("Won")) if won else ("lost", gettext("Lost"))

    @property
    def score_rows(self) -> list[tuple[str, str, str | None]]:
        """Each seat's score and (Skat) Seeger-Fabian points."""
        if self.verdict is None:
            return []
        seeger_fabian = self.verdict.extra.get("seeger_fabian")
        return [(seat_label(seat), signed(score), signed(seeger_fabian[seat]) if seeger_fabian else None)
                for seat, score in enumerate(self.verdict.scores)]

    @property
    def has_seeger_fabian(self) -> bool:
        return self.verdict is not None and "seeger_fabian" in self.verdict.extra

    @property
    def explanation(self) -> list[str]:
        return translated(self.verdict)

    @property
    def comparison_explanation(self) -> list[str]:
        return translated(self.comparison)

    @property
    def higher_bid(self) -> str:
        if self.comparison is None:
            return ""
        return gettext("%(bid)s is higher") % {"bid": BID_LABELS[self.comparison.higher]}

    @property
    def share_url(self) -> str:
        """This page as a link to share: the game, the rule set and only the house rules that differ from it
        (`short_rules`), then every other input that holds something. Without ``shown`` it opens as a link:
        the options it leaves out take the rule set's values, so it gives the same verdict as the whole query.
        An old link with every option still opens as it did."""
        rules = set(self.house_rule_names)
        query = QueryDict(mutable=True)
        for key in ("game", "preset"):
            query[key] = self.data.get(key, "")
        for name, value in self.short_rules():
            query.appendlist(name, value)
        for key, values in self.data.lists():
            if key in ("game", "preset", "shown") or key in rules:
                continue
            for value in values:
                if value.strip():
                    query.appendlist(key, value)
        return f"{self.url}?{query.urlencode()}"

    @property
    def house_rule_names(self) -> list[str]:
        return [name for rule in self.house_rules for name in rule.names]

    @property
    def request_json(self) -> str:
        return json.dumps(self.request_obj, indent=2, ensure_ascii=False) if self.request_obj else ""

    @property
    def compare_json(self) -> str:
        return json.dumps(self.compare_request, indent=2, ensure_ascii=False) if self.compare_request else ""


def translated(result: Verdict | Comparison | None) -> list[str]:
    """The explanation lines, each template translated and filled with the engine's values, each
    seat named as the page names it."""
    if result is None:
        return []
    return result.explain(seat_label, page_words)
