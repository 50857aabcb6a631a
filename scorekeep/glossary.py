"""The games' vocabulary, as players say it, for the glossary pages (one per game and language).

Each term is one message id — the very string the forms, the ledger and the engine's explanations use
("Hand", "Schneider", "Kontra" …) — so a term is translated once and reads the same everywhere: German
players see the German word, Japanese players the katakana their clubs use (ハンド, シュナイダー …). The
original word stays beside the translation, so a player who learned the game from German rules finds it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True, slots=True)
class Term:
    original: str  # the word as the game's home region writes it, never translated
    term: Promise  # the catalogue entry the pages use
    meaning: Promise


SKAT = (
    Term("Reizen", _("Bidding"), _("The players bid game values (18, 20, 22, 23, 24, 27, 30 …); the highest bidder "
                                  "becomes the declarer and plays alone against the other two.")),
    Term("Alleinspieler", _("Declarer"), _("The player who won the bidding and plays alone.")),
    Term("Grand", _("Grand"), _("Only the four jacks are trumps; base value 24.")),
    Term("Null", _("Null"), _("The declarer must take no trick at all; fixed values 23, 35 (Hand), 46 (Ouvert), "
                              "59 (Ouvert Hand).")),
    Term("mit / ohne", _("with / without"), _("Matadors: the unbroken run of top trumps from the jack of clubs "
                                                "that the declarer holds (with) or lacks (without); each counts one "
                                                "level.")),
    Term("Hand", _("Hand"), _("Played without picking up the skat: one more level.")),
    Term("Schneider", _("Schneider"), _("A side with 30 card points or fewer is Schneider: one more level (two if "
                                        "announced).")),
    Term("Schwarz", _("Schwarz"), _("A side that takes no trick is Schwarz: one more level (two if announced).")),
    Term("Ouvert", _("Ouvert"), _("The declarer plays with his cards open on the table.")),
    Term("Kontra", _("Kontra"), _("An opponent doubts the game before the first card: the value is doubled.")),
    Term("Re", _("Re"), _("The declarer answers Kontra: doubled again.")),
    Term("Bock", _("Bock deal"), _("A deal after a special event (60:60, a lost Kontra …) that counts double.")),
    Term("Ramsch", _("Ramsch"), _("When everyone passes: each plays for himself, and whoever takes the most card "
                                  "points loses.")),
    Term("Seeger-Fabian", _("Seeger-Fabian"), _("The tournament count: +50 for each won game, −50 for each lost "
                                                "one, and +40 (three at the table) or +30 (four) to the others "
                                                "for each game a declarer loses.")),
)

SCHAFKOPF = (
    Term("Sauspiel", _("Sauspiel"), _("The declarer calls an ace (Sau) and plays with its unknown holder as "
                                      "partner.")),
    Term("Solo", _("Solo"), _("The declarer plays alone against three, in his chosen trump suit.")),
    Term("Wenz", _("Wenz"), _("A solo in which only the four Unter are trumps.")),
    Term("Geier", _("Geier"), _("A solo in which only the four Ober are trumps.")),
    Term("Tout", _("Tout"), _("A solo announced to take every trick; one trick to the others loses it.")),
    Term("Sie", _("Sie"), _("All four Ober and all four Unter in one hand: won without play.")),
    Term("Bettel", _("Bettel"), _("The declarer must take no trick.")),
    Term("Laufende", _("Laufende"), _("The unbroken run of top trumps one side holds; paid on top where the "
                                      "rule set pays them (usually from three on).")),
    Term("Schneider", _("Schneider"), _("The losers took 30 card points or fewer: a surcharge.")),
    Term("Schwarz", _("Schwarz"), _("The losers took no trick: a further surcharge.")),
    Term("Stoß", _("Stoß"), _("A player doubles the game before the play (Kontra); Retour doubles it again.")),
    Term("Klopfen", _("Klopfen"), _("Knocking after the first cards: each knock doubles the deal.")),
    Term("Ramsch", _("Ramsch"), _("When everyone passes: whoever takes the most card points pays.")),
)

KOP = (
    Term("stara / młoda", _("old side / young side"), _("In a normal game the two holders of the black queens "
                                                         "(the old side) play against the other two (the young "
                                                         "side); 53 of the 104 card points win.")),
    Term("wesele", _("Wesele"), _("One player holds both black queens and plays with the holder of the highest "
                                  "jack he lacks.")),
    Term("cicha", _("Cicha"), _("One player holds both black queens and plays alone without saying so.")),
    Term("zolo", _("Zolo"), _("A lone game of one player against three.")),
    Term("zolo du", _("Zolo du"), _("A lone game won only with all four tricks.")),
    Term("kontra", _("Kontra"), _("A doubling: it counts when it comes from the other side than the last one.")),
    Term("lokata", _("round placing"), _("After a round the players are placed by their totals and get placing "
                                         "points, e.g. 4, 3, 2, 1; tied players share.")),
)

FIPSEN = (
    Term("Stich", _("trick bid"), _("The declarer bids how many of the five tricks he will take.")),
    Term("Hand", _("Hand"), _("An add-on to a bid: each add-on doubles its value.")),
    Term("Ruten", _("Ruten"), _("An add-on to a bid: doubles its value; a Kieker with Ruten is worth 20.")),
    Term("Durch", _("Durch"), _("An add-on: all five tricks must be taken; a bid of five always carries it.")),
    Term("Kieker", _("Kieker"), _("A bid ranked between four and five, worth 10, won only with all five tricks; "
                                  "surrendered, it costs 5.")),
    Term("Siebener Fips", _("Siebener Fips"), _("Its holder scores +30 and the deal ends at once.")),
)

GAMES = {"skat": SKAT, "schafkopf": SCHAFKOPF, "kop": KOP, "fipsen": FIPSEN}
