"""The site's form renderer writes the widget templates it takes over exactly as Django's templates write them."""

import re
from datetime import date
from decimal import Decimal
from typing import Any

import pytest
from django import forms
from django.forms.renderers import DjangoTemplates
from django.test import Client, override_settings
from django.utils import translation
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from hypothesis import given
from hypothesis import strategies as st

from scorekeep.nights import writes as nights
from scorekeep.web.form_renderer import WRITTEN, Renderer

DJANGO, OURS = DjangoTemplates(), Renderer()
FOUR = ["Anna", "Bernd", "Clara", "Dieter"]
HTML_HEAVY = mark_safe("<b>safe</b>")
CHOICES = [("a", "A & B"), ("", "—"), (3, gettext_lazy("Game")), ("x\"y", HTML_HEAVY)]
GROUPED = [("First", [("1", "one"), ("2", "<two>")]), ("3", "three"), ("Second", [("4", "four")])]


class Everything(forms.Form):
    text = forms.CharField(widget=forms.TextInput(attrs={"list": "scorers", "autocomplete": "off", "x": True,
                                                         "off": False, "none": None, "n": 0, "q": 'a"<b>'}))
    number = forms.IntegerField(widget=forms.NumberInput(attrs={"min": -3, "max": Decimal("1.5"), "step": 0.5}))
    when = forms.DateField()
    hidden = forms.CharField(widget=forms.HiddenInput)
    secret = forms.CharField(widget=forms.PasswordInput(render_value=True))
    mail = forms.EmailField()
    flag = forms.BooleanField(widget=forms.CheckboxInput(attrs={"hx-get": "/x/?a=1&b=2"}))
    radios = forms.ChoiceField(choices=CHOICES, widget=forms.RadioSelect(attrs={"hx-trigger": "change consume"}))
    grouped = forms.ChoiceField(choices=GROUPED, widget=forms.RadioSelect)
    checks = forms.MultipleChoiceField(choices=CHOICES, widget=forms.CheckboxSelectMultiple)
    select = forms.ChoiceField(choices=CHOICES)
    optgroups = forms.ChoiceField(choices=GROUPED, widget=forms.Select(attrs={"class": "c"}))
    several = forms.MultipleChoiceField(choices=GROUPED)
    typed = forms.TypedChoiceField(choices=[(1, 1), (2.5, 2.5)], coerce=int)


DATA: list[dict[str, Any] | None] = [
    None,
    {"text": "<script>&", "number": "7", "when": "2026-11-25", "hidden": 'h"', "secret": "pw", "mail": "a@b",
     "flag": "on", "radios": "3", "grouped": "2", "checks": ["a", 'x"y'], "select": "", "optgroups": "4",
     "several": ["1", "3"], "typed": "2.5"},
    {"number": "not a number", "radios": "nope"},
]


def rendered(renderer: Any, data: dict[str, Any] | None, initial: dict[str, Any] | None = None) -> list[str]:
    """Every field of the form whole, and every choice as the table page renders it (tag) and as a list does."""
    form = Everything(data, initial=initial, renderer=renderer)
    out = []
    for field in form:
        out.append(str(field))
        for choice in field.subwidgets:
            out += [choice.tag(), choice.tag(wrap_label=True), str(choice)]
    return out


@pytest.mark.parametrize("language", ["en", "de", "ja"])
@pytest.mark.parametrize("data", DATA, ids=["unbound", "bound", "invalid"])
def test_every_widget_is_written_as_djangos_templates_write_it(data: dict[str, Any] | None, language: str) -> None:
    initial = {"when": date(2026, 11, 25), "number": 1234567, "typed": 2.5, "text": mark_safe("<i>x</i>")}
    with translation.override(language):
        assert rendered(OURS, data, initial) == rendered(DJANGO, data, initial)


def test_a_select_whose_options_have_a_template_of_their_own_is_left_to_the_templates() -> None:
    class Own(forms.Select):
        option_template_name = "django/forms/widgets/input_option.html"

    html = Own(choices=CHOICES).render("s", "a", renderer=OURS)
    assert html == Own(choices=CHOICES).render("s", "a", renderer=DJANGO) and '<input type="select"' in html


def test_the_templates_written_here_are_djangos_own() -> None:
    """An app overriding one of them would not be followed: none does."""
    for name in WRITTEN:
        origin = DJANGO.get_template(name).origin.name
        assert origin.replace("\\", "/").endswith(f"django/forms/templates/{name}"), origin


values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8),
                   st.text(max_size=8).map(mark_safe), st.tuples(st.integers()), st.lists(st.integers(), max_size=2))


@given(attrs=st.dictionaries(st.text(min_size=1, max_size=6), values, max_size=4), value=values)
def test_any_attributes_and_value_are_written_alike(attrs: dict[str, Any], value: Any) -> None:
    for widget in (forms.TextInput(attrs=attrs), forms.NumberInput(attrs=attrs), forms.CheckboxInput(attrs=attrs)):
        assert widget.render("n", value, renderer=OURS) == widget.render("n", value, renderer=DJANGO)


# The entry form's rows of taps as the template wrote them before `{% taps %}` (scorekeep.templatetags.entry_tags).
TAP_LOOPS = {
    "row": '{% for field in fields %}{% for choice in field %}{% if not common or forloop.counter <= common %}'
           '<label class="tap" for="{{ choice.id_for_label }}">{{ choice.tag }}<span>{{ choice.choice_label }}</span>'
           '</label>{% endif %}{% endfor %}{% endfor %}',
    "folded": '{% for choice in field %}{% if forloop.counter > common %}'
              '<label class="tap" for="{{ choice.id_for_label }}">{{ choice.tag }}'
              '<span>{{ choice.choice_label }}</span></label>{% endif %}{% endfor %}',
    "cards": '{% for choice in field %}<label class="card-tap suit-{{ choice.data.value|slice:":1" }}" '
             'for="{{ choice.id_for_label }}">{{ choice.tag }}<span>{{ choice.choice_label }}</span></label>'
             '{% endfor %}',
}
TAPS = {"row": "{% taps fields common %}", "folded": "{% taps field common folded=True %}",
        "cards": "{% taps field cards=True %}"}


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("data", DATA, ids=["unbound", "bound", "invalid"])
@pytest.mark.parametrize("common", [0, 1, 2, 9])
def test_the_rows_of_taps_are_written_as_the_templates_loop_wrote_them(
        data: dict[str, Any] | None, language: str, common: int) -> None:
    from django.template import Context, Template

    form = Everything(data, renderer=OURS)
    for name in ("radios", "grouped", "checks"):
        field = form[name]
        context = {"fields": [field, form["radios"]], "field": field, "common": common}
        with translation.override(language):
            for kind, loop in TAP_LOOPS.items():
                if kind == "folded" and not common:
                    continue  # the template asks for the folded choices only where a question has common ones
                ours = Template("{% load entry_tags %}" + TAPS[kind]).render(Context(context))
                assert ours == Template(loop).render(Context(context)), (name, kind)
                assert ours.count("<label") >= (1 if kind != "folded" or common < 4 else 0)


GRID_LOOPS = {  # the grid of players and games as the template wrote it before `{% grid_taps %}`
    True: '{% for cell in cells %}<label class="tap{% if cell.sign %} sign{% endif %}{% if cell.red %} red{% endif %}" '
          'for="{{ cell.id }}"><input type="radio" name="contract" value="{{ cell.value }}" id="{{ cell.id }}"'
          '{% if cell.checked %} checked{% endif %}{% if grid.invalid %} aria-invalid="true"{% endif %} '
          'aria-describedby="{{ grid.described_by }}"{% for name, value in grid.swap.items %} {{ name }}="{{ value }}"'
          '{% endfor %}><span aria-hidden="true">{{ cell.shown }}</span><span class="visually-hidden">{{ cell.label }}'
          '</span></label>{% endfor %}',
    False: '{% for cell in cells %}<label class="tap" for="{{ cell.id }}"><input type="radio" name="contract" '
           'value="{{ cell.value }}" id="{{ cell.id }}"{% if cell.checked %} checked{% endif %}{% if grid.invalid %} '
           'aria-invalid="true"{% endif %} aria-describedby="{{ grid.described_by }}"{% for name, value in '
           'grid.swap.items %} {{ name }}="{{ value }}"{% endfor %}><span>{{ cell.shown }}</span></label>{% endfor %}',
}


@pytest.mark.parametrize("invalid", [False, True])
@pytest.mark.parametrize("spoken", [False, True])
def test_the_grid_of_players_and_games_is_written_as_the_templates_loop_wrote_it(invalid: bool, spoken: bool) -> None:
    from types import SimpleNamespace

    from django.template import Context, Template

    from scorekeep.nights.entry import GridCell

    cells = [GridCell("hearts@1", "id_c_1", "♥", 'Bernd "B" <&>: Hearts', checked=False, sign=True, red=True),
             GridCell("grand@2", "id_c_2", gettext_lazy("Game"), "Clara: Grand", checked=True, sign=False),
             GridCell("ramsch", "id<x>", mark_safe("<b>R</b>"), HTML_HEAVY, checked=False, sign=True)]
    grid = SimpleNamespace(invalid=invalid, described_by="err-contract err-declarer",
                           swap={"hx-get": "/nights/1/tables/1/deals/new/?a=1&b=2", "hx-vals": '{"x": "<y>"}'})
    context = {"cells": cells, "grid": grid}
    for language in ("en", "de"):
        with translation.override(language):
            ours = Template("{% load entry_tags %}{% grid_taps cells grid spoken=spoken %}").render(
                Context({**context, "spoken": spoken}))
            assert ours == Template(GRID_LOOPS[spoken]).render(Context(context))
            assert ours.count("<label") == 3 and ("visually-hidden" in ours) == spoken


# What differs from one rendering to the next: the forms' idempotency keys and the CSRF tokens.
KEYS = re.compile(r'(name="(?:key|csrfmiddlewaretoken|change_key)" value=")[^"]*"|("X-CSRFToken": ")[^"]*"')


def page(client: Client, url: str, **headers: str) -> str:
    response = client.get(url, headers=headers)
    assert response.status_code == 200
    return KEYS.sub(lambda m: (m.group(1) or m.group(2)) + '"', response.content.decode())


@pytest.mark.parametrize(("game", "players", "deal"), [
    ("skat", FOUR[:3], {"contract": "grand", "declarer": 1, "bid": 48, "matadors": 2, "card_points": 70}),
    ("schafkopf", FOUR, {"contract": "sauspiel", "declarer": 1, "partner": 3, "card_points": 70}),
    ("kop", FOUR, {"contract": "normal", "old": [0, 2], "card_points": 60, "old_tricks": 2}),
    ("fipsen", FOUR, {"contract": "tricks", "declarer": 1, "bid": 4, "hand": True, "tricks_taken": 4}),
])
def test_the_table_and_deal_pages_are_the_same_with_djangos_renderer(
        client: Client, game: str, players: list[str], deal: dict[str, Any]) -> None:
    night = nights.start_night(game=game, preset="classic" if game != "kop" else "wolsztyn", players=players)
    nights.enter_deal(night.tables.get(), deal)
    base = f"/nights/{night.pk}/tables/1/"
    urls = [base, base + "deals/1/", base + "deals/new/?contract=" + deal["contract"]]
    for language in ("en", "de"):
        with translation.override(language):
            ours = [page(client, url) for url in urls]
            with override_settings(FORM_RENDERER="django.forms.renderers.DjangoTemplates"):
                for url, html in zip(urls, ours, strict=True):
                    assert page(client, url).splitlines() == html.splitlines(), url
