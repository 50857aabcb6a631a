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
from django.utils.translation import gettext_noop

from scorekeep.words.labels import in_game


@dataclass(frozen=True, slots=True)
class Term:
    original: str  # the word as the game's home region writes it, never translated
    term: str  # the message id the pages use; translated in the game's own words (`in_game`)
    meaning: Promise

    def in_words_of(self, game: str) -> tuple[str, str, str]:
        """The term as a page of `game` writes it in the page's language, the original, and the meaning."""
        return in_game(self.term, game), self.original, str(self.meaning)


SKAT = (
    Term("Reizen", gettext_noop("Bidding"),
         _("The players bid game values (18, 20, 22, 23, 24, 27, 30 …); the highest bidder "
           "becomes the declarer and plays alone against the other two.")),
    Term("Alleinspieler", gettext_noop("Declarer"),
         _("The player who won the bidding and plays alone.")),
    Term("Grand", gettext_noop("Grand"),
         _("Only the four jacks are trumps; base value 24.")),
    Term("Null", gettext_noop("Null"),
         _("The declarer must take no trick at all; fixed values 23, 35 (Hand), 46 (Ouvert), "
           "59 (Ouvert Hand).")),
    Term("mit / ohne", gettext_noop("with / without"),
         _("Matadors: the unbroken run of top trumps from the jack of clubs "
           "that the declarer holds (with) or lacks (without); each counts one "
           "level.")),
    Term("Hand", gettext_noop("Hand"),
         _("Played without picking up the skat: one more level.")),
    Term("Schneider", gettext_noop("Schneider"),
         _("A side with 30 card points or fewer is Schneider: one more level (two if "
           "announced).")),
    Term("Schwarz", gettext_noop("Schwarz"),
         _("A side that takes no trick is Schwarz: one more level (two if announced).")),
    Term("Ouvert", gettext_noop("Ouvert"),
         _("The declarer plays with his cards open on the table.")),
    Term("Kontra", gettext_noop("Kontra"),
         _("An opponent doubts the game before the first card: the value is doubled.")),
    Term("Re", gettext_noop("Re"),
         _("The declarer answers Kontra: doubled again.")),
    Term("Bock", gettext_noop("Bock deal"),
         _("A deal after a special event (60:60, a lost Kontra …) that counts double.")),
    Term("Ramsch", gettext_noop("Ramsch"),
         _("When everyone passes: each plays for himself, and whoever takes the most card "
           "points loses.")),
    Term("Seeger-Fabian", gettext_noop("Seeger-Fabian"),
         _("The tournament count: +50 for each won game, −50 for each lost "
           "one, and +40 (three at the table) or +30 (four) to the others "
           "for each game a declarer loses.")),
)

SCHAFKOPF = (
    Term("Spieler", gettext_noop("Declarer"),
         _("The player who plays the game: in a Sauspiel with the holder of the called "
           "ace as partner, in a solo alone against three.")),
    Term("Sauspiel", gettext_noop("Sauspiel"),
         _("The declarer calls an ace (Sau) and plays with its unknown holder as "
           "partner.")),
    Term("Solo", gettext_noop("Solo"),
         _("The declarer plays alone against three, in his chosen trump suit.")),
    Term("Wenz", gettext_noop("Wenz"),
         _("A solo in which only the four Unter are trumps.")),
    Term("Geier", gettext_noop("Geier"),
         _("A solo in which only the four Ober are trumps.")),
    Term("Tout", gettext_noop("Tout"),
         _("A solo announced to take every trick; one trick to the others loses it.")),
    Term("Sie", gettext_noop("Sie"),
         _("All four Ober and all four Unter in one hand: won without play.")),
    Term("Bettel", gettext_noop("Bettel"),
         _("The declarer must take no trick.")),
    Term("Laufende", gettext_noop("Laufende"),
         _("The unbroken run of top trumps one side holds; paid on top where the "
           "rule set pays them (usually from three on).")),
    Term("Schneider", gettext_noop("Schneider"),
         _("The losers took 30 card points or fewer: a surcharge.")),
    Term("Schwarz", gettext_noop("Schwarz"),
         _("The losers took no trick: a further surcharge.")),
    Term("Stoß", gettext_noop("Stoß"),
         _("A player doubles the game before the play (Kontra); a Gegenstoß doubles it again.")),
    Term("Klopfen", gettext_noop("Klopfen"),
         _("Knocking after the first cards: each knock doubles the deal.")),
    Term("Ramsch", gettext_noop("Ramsch"),
         _("When everyone passes: whoever takes the most card points pays.")),
)

KOP = (
    Term("stara / młoda", gettext_noop("old side / young side"),
         _("In a normal game the two holders of the black queens "
           "(the old side) play against the other two (the young "
           "side); 53 of the 104 card points win.")),
    Term("wesele", gettext_noop("Wesele"),
         _("One player holds both black queens and plays with the holder of the highest "
           "jack he lacks.")),
    Term("cicha", gettext_noop("Cicha"),
         _("One player holds both black queens and plays alone without saying so.")),
    Term("zolo", gettext_noop("Zolo"),
         _("A lone game of one player against three.")),
    Term("zolo du", gettext_noop("Zolo du"),
         _("A lone game won only with all four tricks.")),
    Term("kontra", gettext_noop("Kontra"),
         _("A doubling: it counts when it comes from the other side than the last one.")),
    Term("lokata", gettext_noop("round placing"),
         _("After a round the players are placed by their totals and get placing "
           "points, e.g. 4, 3, 2, 1; tied players share.")),
)

FIPSEN = (
    Term("Spieler", gettext_noop("Declarer"),
         _("The player with the highest bid, who must take the tricks he bid.")),
    Term("Stich", gettext_noop("trick bid"),
         _("The declarer bids how many of the five tricks he will take.")),
    Term("Hand", gettext_noop("Hand"),
         _("An add-on to a bid: each add-on doubles its value.")),
    Term("Ruten", gettext_noop("Ruten"),
         _("An add-on to a bid: doubles its value; a Kieker with Ruten is worth 20.")),
    Term("Durch", gettext_noop("Durch"),
         _("An add-on: all five tricks must be taken; a bid of five always carries it.")),
    Term("Kieker", gettext_noop("Kieker"),
         _("A bid ranked between four and five, worth 10, won only with all five tricks; "
           "surrendered, it costs 5.")),
    Term("Siebener Fips", gettext_noop("Siebener Fips"),
         _("Its holder scores +30 and the deal ends at once.")),
)

GAMES = {"skat": SKAT, "schafkopf": SCHAFKOPF, "kop": KOP, "fipsen": FIPSEN}
