"""The running-totals chart (scorekeep/nights/charts.py): the plotted points are the ledger's totals, and the
SVG's lines really are drawn at them — read back from the markup with an XML parser, mapped to
numbers through the gridlines' and deal ticks' own positions; names are escaped; screen readers get
a title and a description; lines differ without colour.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest
from django.utils.safestring import SafeString
from hypothesis import given
from hypothesis import strategies as st

from scorekeep.models import CardNight
from scorekeep.nights import ledger
from scorekeep.nights.charts import Series, nice_step, points, running_totals_svg

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def read_back(root: ET.Element) -> list[list[tuple[float, float]]]:
    """Each polyline's points as (deal, total), through the linear maps the gridlines (data-value at
    y) and deal ticks (data-deal at x) give — not through the chart module's own arithmetic."""
    grid = [(float(line.get("data-value")), float(line.get("y1")))
            for line in root.iter(f"{SVG}line") if line.get("class") == "gridline"]
    ticks = [(float(line.get("data-deal")), float(line.get("x1")))
             for line in root.iter(f"{SVG}line") if line.get("class") == "deal-tick"]
    assert len(grid) >= 2 and len(ticks) >= 2
    (v0, y0), (v1, y1) = grid[0], grid[-1]
    (d0, x0), (d1, x1) = ticks[0], ticks[-1]
    lines = []
    for polyline in root.iter(f"{SVG}polyline"):
        pairs = [tuple(map(float, pair.split(","))) for pair in polyline.get("points").split()]
        lines.append([(d0 + (x - x0) * (d1 - d0) / (x1 - x0), v0 + (y - y0) * (v1 - v0) / (y1 - y0))
                      for x, y in pairs])
    return lines


def assert_drawn_at(svg: str, expected: list[list[tuple[int, int]]]) -> None:
    """The polylines sit at the expected points to within a hundredth of a unit of the drawing."""
    root = parse(svg)
    grid = sorted(float(line.get("y1")) for line in root.iter(f"{SVG}line") if line.get("class") == "gridline")
    values = sorted(int(line.get("data-value")) for line in root.iter(f"{SVG}line") if line.get("class") == "gridline")
    per_unit = (grid[-1] - grid[0]) / (values[-1] - values[0])  # drawing units a point (or cent) is tall
    drawn = read_back(root)
    assert len(drawn) == len(expected)
    for line, points_of_player in zip(drawn, expected, strict=True):
        assert len(line) == len(points_of_player)
        for (deal, total), (want_deal, want_total) in zip(line, points_of_player, strict=True):
            assert deal == pytest.approx(want_deal, abs=0.01)
            assert abs(total - want_total) * per_unit <= 0.011


@pytest.fixture
def demo(db: None, demo_nights: tuple[dict[str, int], int]) -> list[CardNight]:
    """The demo nights (loaded once for the module, tests/conftest.py), oldest first."""
    ids, _host = demo_nights
    return list(CardNight.objects.filter(pk__in=ids.values()).order_by("date"))


def test_the_points_are_the_ledgers_running_totals_on_every_demo_night(demo: list[CardNight]) -> None:
    assert {night.game for night in demo} == {"skat", "schafkopf", "kop", "fipsen"}
    for night in demo:
        sheet = ledger.build(night.tables.get())
        plotted = points(sheet)
        assert len(plotted) == len(sheet.names)
        for position, line in enumerate(plotted):
            assert line[0] == (0, 0)
            assert line[1:] == [(row.number, row.totals[position]) for row in sheet.rows]
            assert line[-1][1] == sheet.totals[position]


def test_the_svg_lines_are_drawn_at_the_ledgers_totals(demo: list[CardNight]) -> None:
    for night in demo:
        sheet = ledger.build(night.tables.get())
        svg = running_totals_svg(sheet)
        assert isinstance(svg, SafeString)
        assert_drawn_at(svg, points(sheet))
        legend = [text for text in parse(svg).iter(f"{SVG}text") if text.get("class") == "legend-entry"]
        assert [text.find(f"{SVG}tspan").text for text in legend] == sheet.names


def test_a_schafkopf_chart_writes_money_and_a_skat_chart_spans_its_series(demo: list[CardNight]) -> None:
    by_game = {night.game: night for night in demo}
    schafkopf = running_totals_svg(ledger.build(by_game["schafkopf"].tables.get()))
    assert "€" in schafkopf
    skat_sheet = ledger.build(by_game["skat"].tables.get())
    ticks = [int(line.get("data-deal")) for line in parse(running_totals_svg(skat_sheet)).iter(f"{SVG}line")
             if line.get("class") == "deal-tick"]
    assert ticks[0] == 0 and ticks[-1] <= 36 < ticks[-1] + (ticks[1] - ticks[0])


def test_names_are_escaped() -> None:
    names = ["<script>alert(1)</script>", 'Bernd "B" & Co', "Clara'"]
    svg = running_totals_svg(Series(names, [[10, -5, -5], [30, -40, 10]]))
    assert "<script>" not in svg and 'Bernd "B"' not in svg
    root = parse(svg)
    assert [g.find(f"{SVG}title").text for g in root.iter(f"{SVG}g") if g.get("class") == "series"] == names
    assert names[0] in root.find(f"{SVG}desc").text


def test_screen_readers_get_a_title_and_a_description() -> None:
    svg = running_totals_svg(Series(["Anna", "Bernd"], [[48, 0], [48, -96]], title="Table 2"), id_prefix="t2")
    root = parse(svg)
    assert root.get("role") == "img"
    assert root.get("viewBox").startswith("0 0 ") and root.get("width") == "100%"
    title, desc = root.find(f"{SVG}title"), root.find(f"{SVG}desc")
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}" == "t2-title t2-desc"
    assert title.text == "Table 2"
    assert "Anna +48" in desc.text and "Bernd \u221296" in desc.text and " 2 deals" in desc.text


def test_lines_differ_by_dash_and_marker_not_by_colour_alone() -> None:
    names = [f"P{i}" for i in range(7)]
    svg = running_totals_svg(Series(names, [[i * (k + 1) for i in range(7)] for k in range(3)]))
    root = parse(svg)
    groups = [g for g in root.iter(f"{SVG}g") if g.get("class") == "series"]
    dashes = [g.find(f"{SVG}polyline").get("stroke-dasharray", "") for g in groups]
    shapes = [{path.get("data-shape") for path in g.iter(f"{SVG}path")} for g in groups]
    assert len(groups) == 7
    assert len(set(dashes)) == 7
    assert all(len(shape) == 1 for shape in shapes) and len(set.union(*shapes)) == 7


def test_a_table_with_no_deals_yet_draws_the_start() -> None:
    svg = running_totals_svg(Series(["Anna", "Bernd", "Clara"], []))
    assert_drawn_at(svg, [[(0, 0)]] * 3)


def test_the_chart_is_deterministic() -> None:
    series = Series(["Anna", "Bernd", "Clara"], [[23, 0, 0], [23, -96, 0], [23, -96, 120]])
    assert running_totals_svg(series) == running_totals_svg(series)


@pytest.mark.parametrize(("span", "ticks", "step"), [(1, 6, 1), (7, 6, 2), (96, 6, 20), (250, 6, 50),
                                                    (36, 12, 5), (48, 12, 5), (1000, 6, 200)])
def test_nice_steps(span: int, ticks: int, step: int) -> None:
    assert nice_step(span, ticks) == step


@given(st.integers(1, 7).flatmap(
    lambda n: st.lists(st.lists(st.integers(-5000, 5000), min_size=n, max_size=n), max_size=60)),
    st.one_of(st.none(), st.integers(0, 80)))
def test_any_series_is_drawn_where_its_points_are(totals: list[list[int]], deals: int | None) -> None:
    players = len(totals[0]) if totals else 3
    names = [f"Player {i}" for i in range(players)]
    series = Series(names, totals, deals=deals)
    assert points(series) == [[(0, 0)] + [(n, row[p]) for n, row in enumerate(totals, start=1)]
                              for p in range(players)]
    assert_drawn_at(running_totals_svg(series, format_value=str), points(series))


@pytest.mark.django_db
def test_after_a_deleted_deal_the_axis_says_it_counts_the_deals_that_count() -> None:
    """A Japanese table read the point at 12 as deal 12, but it was deal 13: deal 3 had been deleted."""
    from scorekeep.nights import writes as nights

    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"])
    table = night.tables.get()
    for declarer in (0, 1, 2):
        nights.enter_deal(table, {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": 1,
                                  "card_points": 70})
    assert ">Deal</text>" in running_totals_svg(ledger.build(table))
    nights.delete_deal(table.deals.get(sequence=2))
    drawn = running_totals_svg(ledger.build(table))
    assert ">Deals that count</text>" in drawn and ">Deal</text>" not in drawn
