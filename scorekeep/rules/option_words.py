"""Pages' words for the options whose engine label lists the codes of its values.

A Schafkopf Tout or Sie costs a fixed amount or one of some named values ("double", "4x_solo",
"4x_solo_8_laufende", see `schafkopf._IntegerOr`); the form field, the night's rules and the printout name the
option and each named value in words instead ("Price of a Sie: 4 × the solo price"). Keyed like
`CHOICE_LABELS`: an option key means one thing in every game that has it.
"""

from .explain import Word

# The option itself, where its engine label (`OPTION_LABELS`) spells out its named values' codes.
OPTION_WORDS: dict[str, Word] = {
    "tout": Word("Price of a Tout"),
    "sie": Word("Price of a Sie"),
}

# Each named value of such an option, as a player says it (and may type it in the option's field).
NAMED_VALUE_WORDS: dict[tuple[str, str], Word] = {
    ("tout", "double"): Word("(solo + Laufende) × 2"),
    ("sie", "4x_solo"): Word("4 × the solo price"),
    ("sie", "4x_solo_8_laufende"): Word("4 × (solo + 8 Laufende)"),
}
