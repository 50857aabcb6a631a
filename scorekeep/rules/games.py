"""The registry: each game's name and the module that knows its rules."""

from types import ModuleType

from . import fipsen, kop, schafkopf, skat

GAMES: dict[str, ModuleType] = {"skat": skat, "schafkopf": schafkopf, "kop": kop, "fipsen": fipsen}
