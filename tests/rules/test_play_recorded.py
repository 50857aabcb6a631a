"""Recorded real games (issue 19): Skat games played on the International Skat Server (ISS), as their
records are quoted in public code (JSkat's MessageParserTest, the go-skat notes, ISS data analyses). Each
record holds the deal, the bidding, the game declared with the skat put away, every card played with its
player, and the server's result (won/lost, list value, matadors, declarer's card points and tricks).

The engine gets the cards only (trick by trick, without their players) and must find the same players,
the same card points, tricks and matadors, and the same list entry (ISS scores by the ISkO).
"""

import re

import pytest

from scorekeep.rules import adjudicate

# (source, the record's MV[...] moves, its R[...] result)
RECORDS = [
    ("JSkat MessageParserTest, ISS game 541932",
     "w HA.SK.SJ.SA.CQ.S8.C9.H7.H9.DQ.CJ.S9.DJ.S7.D9.SQ.C8.HQ.DK.CA.D8.D7.DT.CT.ST.C7.HK.DA.HT.HJ.H8.CK 1 p 2 18 "
     "0 p 2 s w H8.CK 2 D.ST.H8 0 SA 1 S7 2 DA 2 HJ 0 SJ 1 D9 0 DQ 1 DJ 2 D7 1 CJ 2 D8 0 CQ 1 CA 2 C7 0 C9 1 S9 2 "
     "DT 0 S8 2 CT 0 H7 1 C8 2 CK 0 H9 1 HQ 2 HK 0 HA 1 SQ 0 SK 1 DK 2 HT",
     "d:2 loss v:-54 m:-2 bidok p:59 t:4 s:0 z:0"),
    ("go-skat notes, ISS game 4947663",
     "w HQ.CJ.ST.HK.D8.S7.SQ.H8.SA.C8.SJ.HJ.CA.S8.HA.DK.H7.CT.C7.C9.DA.D7.CK.HT.DJ.S9.CQ.DT.D9.H9.SK.DQ 1 18 0 p 2 p "
     "1 s w SK.DQ 1 C.S8.SK 0 SA 1 CA 2 S9 1 HA 2 H9 0 H8 1 HJ 2 CQ 0 CJ 0 ST 1 CT 2 DJ 2 HT 0 HQ 1 H7 2 DA 0 D8 1 DQ "
     "2 DT 0 C8 1 DK 0 HK 1 SJ 2 D9 1 C9 2 CK 0 SQ 2 D7 0 S7 1 C7",
     "d:1 loss v:-48 m:-1 bidok p:43 t:4 s:0 z:0"),
    ("ISS games 2019 (data analysis notebook), ISS game 5557737",
     "w HJ.DT.D7.HQ.DA.CJ.HK.CQ.C7.DQ.CT.DK.C8.S8.SA.SK.SQ.HA.DJ.H8.D8.C9.H7.S7.ST.HT.H9.CK.S9.CA.SJ.D9 1 18 0 y 1 20 "
     "0 y 1 22 0 y 1 p 2 p 0 s w SJ.D9 0 G.HK.HQ 0 HJ 1 DJ 2 H7 0 C7 1 CT 2 CA 2 CK 0 CQ 1 C8 2 C9 0 SJ 1 DK 0 DA 1 "
     "S8 2 D8 0 DT 1 SQ 2 S7 0 DQ 1 SK 2 H9 0 D9 1 SA 2 S9 0 D7 1 H8 2 HT 0 CJ 1 HA 2 ST",
     "d:0 win v:120 m:3 bidok p:92 t:8 s:1 z:0"),
    ("ISS game 6997010 (an ISS parser's test)",
     "w HQ.HA.H7.CT.ST.SK.SA.HJ.CJ.CK.C8.DQ.S9.SQ.D9.C7.HK.DT.HT.CA.CQ.D7.DK.H9.SJ.DJ.H8.S7.D8.S8.DA.C9 1 p 2 18 0 y "
     "2 20 0 y 2 22 0 y 2 23 0 y 2 24 0 y 2 27 0 y 2 30 0 y 2 33 0 y 2 35 0 y 2 36 0 y 2 40 0 y 2 44 0 y 2 45 0 y "
     "2 46 0 y 2 p 0 s w DA.C9 0 G.H7.HQ 0 CJ 1 S9 2 DJ 0 ST 1 SQ 2 S7 0 SA 1 D9 2 S8 0 HA 1 HK 2 H8 0 CK 1 C7 2 CQ "
     "0 C9 1 C8 2 H9 0 HJ 1 DQ 2 SJ 2 D7 0 DA 1 DT 0 SK 1 HT 2 D8 0 CT 1 CA 2 DK",
     "d:0 win v:48 m:1 bidok p:88 t:8 s:0 z:0"),
    ("go-skat source comment, ISS game 4940313",
     "w HK.CA.H8.CK.CQ.HT.CJ.SK.DA.D7.HJ.ST.SJ.S8.C9.H9.S9.D8.H7.CT.HA.D9.DK.S7.SQ.SA.DJ.C8.C7.DQ.DT.HQ 1 p 2 p 0 18 "
     "0 s w DT.HQ 0 H.SK.D7 0 H8 1 H9 2 HA 2 SA 0 HK 1 S9 0 DA 1 D8 2 D9 0 CA 1 C9 2 C8 0 CQ 1 CT 2 C7 1 S8 2 SQ 0 HT "
     "0 DT 1 H7 2 DK 1 SJ 2 DJ 0 CJ 0 CK 1 HJ 2 DQ 1 ST 2 S7 0 HQ",
     "d:0 win v:20 m:1 bidok p:73 t:6 s:0 z:0"),
]
GAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds", "G": "grand", "N": "null"}


def card(text: str) -> str:
    return text.replace("T", "10")


def parse(moves: str) -> tuple[dict, list[int]]:
    """The request (deal as played, ISkO) and the seat of every card as the record says, from ISS moves."""
    tokens = moves.split()
    bids = [int(t) for t in tokens[1:] if t.isdecimal() and int(t) >= 18]
    declared = next(i for i in range(1, len(tokens) - 1)
                    if tokens[i] in "012" and tokens[i + 1][0] in GAMES and "." in tokens[i + 1])
    declarer = int(tokens[declared])
    game, *put_away = tokens[declared + 1].split(".")
    plays = tokens[declared + 2:]
    seats = [int(s) for s in plays[0::2]]
    cards = [card(c) for c in plays[1::2]]
    tricks = [cards[i:i + 3] for i in range(0, len(cards), 3)]
    request = {"game": "skat", "rules": {"preset": "isko"}, "players": 3, "dealer": 2,
               "deal": {"contract": GAMES[game[0]], "declarer": declarer, "bid": max(bids, default=18),
                        "play": {"tricks": tricks, "skat": [card(c) for c in put_away]}}}
    return request, seats


def result(text: str) -> dict[str, int | bool]:
    fields = dict(re.findall(r"(\w+):(-?\d+)", text))
    return {"declarer": int(fields["d"]), "won": " win " in f" {text} ", "value": int(fields["v"]),
            "matadors": int(fields["m"]), "card_points": int(fields["p"]), "tricks": int(fields["t"])}


@pytest.mark.parametrize(("source", "moves", "outcome"), RECORDS, ids=[r[0].split("ISS game ")[-1] for r in RECORDS])
def test_a_recorded_iss_game_is_legal_and_counts_as_the_server_counted(source: str, moves: str, outcome: str) -> None:
    request, seats = parse(moves)
    expected = result(outcome)
    verdict = adjudicate(request)

    assert verdict["ok"] is True, verdict
    play = verdict["play"]
    assert play["break"] is None
    assert [seat for trick in play["tricks"] for seat in trick["seats"]] == seats  # who played which card
    assert play["derived"] == {"card_points": expected["card_points"], "declarer_tricks": expected["tricks"],
                               "matadors": expected["matadors"]}
    assert verdict["won"] is expected["won"]
    assert verdict["scores"][expected["declarer"]] == expected["value"]


def test_a_recorded_game_with_one_card_changed_is_a_revoke_named_at_that_card() -> None:
    """In game 541932 seat 1 follows S7 to forehand's SA; had he thrown D9 (played later) there, that is a revoke
    he shows himself when he later plays his other spade, S9."""
    request, _ = parse(RECORDS[0][1])
    tricks = request["deal"]["play"]["tricks"]
    assert tricks[0] == ["SA", "S7", "DA"] and tricks[1] == ["HJ", "SJ", "D9"]
    tricks[0][1], tricks[1][2] = "D9", "S7"
    verdict = adjudicate(request)
    assert verdict["play"]["break"]["field"] == "deal.play.tricks.0.1"
    assert verdict["play"]["break"]["rule"] == "must follow the suit led"
    assert verdict["won"] is True  # an opponent's revoke: the declarer's game is won (ISkO)
