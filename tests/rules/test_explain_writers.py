"""The compiled writers of explanation templates (`WRITERS`) write exactly what ``format_map`` writes."""

import pytest

from scorekeep.rules.explain import WRITERS, Listing, Phrase, Seat, Seats, Step, Word, explanation

VALUES = {"a": Seat(2), "b": Word("won"), "c": 7, "d": Seats((0, 2)), "e": Phrase("with {n}", n=3),
          "f": Listing([1, 2, 3]), "g": "text", "h": True, "i": None, "j": 1.5, "ä": "umlaut"}


@pytest.mark.parametrize("template", [
    "{a} and {b}", "{c}", "no fields at all", "{{literal}} {c} {{", "}} {a}}}", "{a}{a}{a}", "quotes ' \" ''' \"\"\"",
    "back\\slash \\n {c} \\{{", "new\nline\t{b}", "Japanese {a}が{c}点を取った", "{d}: {e}; {f}", "{h} {i} {j}",
    "{ä} is a field too", "\u200b{c}\x00", "{a!r}", "{c:>5}", "{c:{c}}", "{f.items}", "{g[0]}",
], ids=repr)
def test_a_writer_writes_what_format_map_writes(template):
    assert WRITERS[template](VALUES) == template.format_map(VALUES)


@pytest.mark.parametrize("template", ["{0}", "{}", "{a", "a}", "{a!x}", "{missing}"], ids=repr)
def test_a_template_format_map_refuses_is_refused_alike(template):
    with pytest.raises(Exception) as expected:
        template.format_map(VALUES)
    with pytest.raises(expected.type):
        WRITERS[template](VALUES)


def test_each_template_is_compiled_once():
    template = "compiled once: {c}"
    assert WRITERS[template] is WRITERS[template]


def test_steps_said_come_out_in_order_as_steps():
    say, steps = explanation()
    say("{seat} took {n}", seat=Seat(1), n=3)
    say("no values")
    assert steps == [Step("{seat} took {n}", {"seat": Seat(1), "n": 3}), Step("no values", {})]
    assert [str(step) for step in steps] == ["seat 1 took 3", "no values"]
    assert type(steps[0]) is Step and steps[1].params == {}
