"""Words the games say differently: one English message, a word of its own per game.

Japanese players learned each game from its own rule page (../shared/seeds): the declarer is 宣言者 in
Skat but デクレアラー in Schafkopf and Fipsen, Hand is ハンド in Skat but ハント in Fipsen. German lists
differ too: the Schafkopf and Fipsen declarer is the "Spieler", the Skat one the "Alleinspieler". Each
such message has the game as its context here (``msgctxt "fipsen"``); `labels.in_game` looks the word up
in the game a page speaks of (a night's pages, the dispute form, a glossary section) and falls back to
the plain message, which holds Skat's word. The list is only for makemessages: the pages never import it.
"""

from django.utils.translation import pgettext_lazy

CONTEXT_WORDS = [
    pgettext_lazy("schafkopf", "Declarer"),
    pgettext_lazy("fipsen", "Declarer"),
    pgettext_lazy("schafkopf", "Declarer's tricks"),
    pgettext_lazy("fipsen", "Declarer's tricks"),
    pgettext_lazy("fipsen", "Hand"),
    pgettext_lazy("fipsen", "hand"),
    # Who leads to the first trick: Skat's forehand; the Schafkopf and Fipsen pages say "the dealer's left".
    pgettext_lazy("schafkopf", "%(name)s is forehand"),
    pgettext_lazy("fipsen", "%(name)s is forehand"),
    pgettext_lazy("kop", "%(name)s is forehand"),  # the Kop page too: "the player to the dealer's left"
    pgettext_lazy("skat", "Value"),
    pgettext_lazy("schafkopf", "Value"),
    # The play check's rule (issue 19): Skat's page writes 切り札, the other pages 切札.
    pgettext_lazy("skat", "must follow trumps when a trump is led"),
    # A Ramsch has no declaring side; the Skat page's declarer is 宣言者, the others' デクレアラー.
    pgettext_lazy("skat", "No declaring side"),
    pgettext_lazy("skat", "so far: declaring side %(declaring)s, defending side %(defending)s"),
    # The dispute page's replay (forms.ReplayRow.running): Kop's sides are the old and the young side.
    pgettext_lazy("kop", "so far: declaring side %(declaring)s, defending side %(defending)s"),
    # The play check's consequence lines (rules/play.py) in Kop: the declaring side is the old side.
    pgettext_lazy("kop", "the declaring side"),
    pgettext_lazy("kop", "the defending side"),
    pgettext_lazy("kop", "As the cards fell instead: the declaring side {outcome}, value {value}, scores {scores}"),
    pgettext_lazy("kop", "{why}: scored first as the offending side losing ({side} broke it, so the declaring side "
                         "{outcome})"),
]
