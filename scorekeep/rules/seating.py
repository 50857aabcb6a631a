"""Who sits where in a deal: how many people a game's table takes, which of them play a deal dealt by
whom, and who sits it out.

As clubs do it: with exactly as many players as the engine's seats everyone plays in table order. With
more, the dealer and those beyond the seats sit out — the players to the dealer's left play, forehand
(the dealer's left) in seat 0. Where a game's dealer sits out at a full table (`DEALER_SITS_OUT_AT`:
Skat at four, ISkO 1.1), the engine's last seat is the sitting dealer (he scores only his Seeger-Fabian
points).
"""

from collections.abc import Sequence
from typing import Any

from .games import GAMES

PLAYERS: dict[str, range] = {game: module.PLAYERS for game, module in GAMES.items()}
"""How many people may sit at a table of each game; beyond the engine's seats they sit out in turn."""


def engine_seats(game: str, players: int) -> int:
    """The table size the engine scores for `players` people: all of them where the game is played at
    that size, otherwise its largest (Skat and Fipsen 3 or 4; Schafkopf and Kop 4)."""
    module = GAMES[game]
    if players not in module.PLAYERS:
        raise ValueError(f"{game} takes {module.PLAYERS.start}–{module.PLAYERS.stop - 1} players, not {players}")
    return players if players in module.SEATS else max(module.SEATS)


def _dealer_sits_out(game: str, seats: int) -> bool:
    return GAMES[game].DEALER_SITS_OUT_AT == seats


def seating(game: str, players: int, dealer: int) -> list[int]:
    """Who plays a deal dealt by position `dealer`: the table positions in the engine's seats 0 …, clockwise."""
    seats = engine_seats(game, players)
    sitting_dealer = _dealer_sits_out(game, seats)
    if players == seats and not sitting_dealer:
        return list(range(players))
    active = [(dealer + offset) % players for offset in range(1, seats + 1)]
    if sitting_dealer:  # the engine's last seat is the dealer, who sits the deal out
        active[-1] = dealer
    return active


def engine_dealer(seats: Sequence[int], dealer: int) -> int:
    """The engine's dealer seat: where the dealer sits, or the seat before forehand when he sits out."""
    return seats.index(dealer) if dealer in seats else len(seats) - 1


def sits_out(game: str, seating: Sequence[int], dealer: int, players: int) -> list[int]:
    """Table positions with no cards in a deal: those beyond the engine's seats, and a dealer who sits
    out at a full table (the engine's last seat at a 4-seat Skat table)."""
    out = set(range(players)) - set(seating)
    if _dealer_sits_out(game, len(seating)):
        out.add(dealer)
    return sorted(out)


def next_dealer(dealer: int, players: int) -> int:
    """Who deals after `dealer`: the player to his left (table positions run clockwise)."""
    return (dealer + 1) % players


def forehand(seats: Sequence[int], dealer: int) -> int:
    """The table position that leads the deal: the engine's seat after the dealer's."""
    return seats[(engine_dealer(seats, dealer) + 1) % len(seats)]


def rotation(game: str, players: int) -> dict[str, Any]:
    """The seating of every deal at a table of `players` people, as plain data a page evaluates without the
    engine (static/js/offline.js: deals entered offline across a rotation): for each dealer, in table
    position order, the positions in the engine's seats, the engine's dealer seat, who plays (forehand
    first), who sits out, who is forehand and who deals next. The same answers `seating`, `sits_out` and
    `next_dealer` give. `form` names the entry form the deal needs: deals with the same players in the same
    seats are asked the same questions whoever dealt (at a table of three, every deal), so a page keeps one
    form for each (tests/rules/test_seating.py holds every game's inputs to that)."""
    deals: list[dict[str, Any]] = []
    for dealer in range(players):
        seats = seating(game, players, dealer)
        out = sits_out(game, seats, dealer, players)
        dealer_seat = engine_dealer(seats, dealer)
        deals.append({"dealer": dealer, "seats": seats, "dealer_seat": dealer_seat,
                      "playing": [p for p in seats if p not in out], "out": out,
                      "forehand": forehand(seats, dealer), "next": next_dealer(dealer, players),
                      "form": ".".join(map(str, seats))})
    return {"players": players, "deals": deals}
