"""Backups: `manage.py export` writes all data as JSON and `manage.py import` restores it exactly —
the same rows with the same ids, the same verdicts, history and ledgers — or refuses with one line
naming what does not fit, leaving the database as it was."""

from __future__ import annotations

import importlib
import io
import json
import os
import re
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import authenticate
from django.contrib.auth.models import Group, Permission, User
from django.core.management import call_command
from django.core.management.base import CommandError
from django.core.management.color import no_style
from django.db import connection
from django.db.models import Max, Model
from django.test import Client
from django.urls import reverse

from scorekeep.clubs import seasons
from scorekeep.models import (
    Attempt,
    CardNight,
    CardTable,
    Club,
    Deal,
    DealRevision,
    NightRevision,
    Player,
    Tournament,
)
from scorekeep.nights import ledger
from scorekeep.nights import writes as nights
from scorekeep.tournaments import writes as tournaments

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parent.parent
ODD_NAMES = ['<b>Ann</b> & "Bo" \'C\'', "Jürgen Groß", "山田 太郎", "Zoë 🂡🃏"]
ODD_PLACE = 'Zum "Goldenen" <Löwen> & \'Krug\' · 🍺 居酒屋'


def grand(declarer: int, card_points: int) -> dict[str, Any]:
    """A Skat Grand without 1, bid 18 (game value 48)."""
    return {"contract": "grand", "declarer": declarer, "bid": 18, "matadors": -1, "card_points": card_points}


def data_models() -> list[type[Model]]:
    """What a backup holds: the user accounts and groups and every model of the scorekeep app but the
    throttles' counts of recent attempts (not card-night data)."""
    return [Group, User, *(model for model in apps.get_app_config("scorekeep").get_models() if model is not Attempt)]


def stored() -> dict[str, Any]:
    """Everything stored, ids included: every row of every model of the backup, the accounts' groups
    and permissions, and every table's ledger as `ledger.build` derives it."""
    rows = {model._meta.label_lower: list(model._base_manager.order_by("pk").values()) for model in data_models()}
    memberships = {user.pk: (sorted(user.groups.values_list("pk", flat=True)),
                             sorted(user.user_permissions.values_list("pk", flat=True)))
                   for user in User.objects.order_by("pk")}
    group_permissions = {group.pk: sorted(group.permissions.values_list("pk", flat=True))
                         for group in Group.objects.order_by("pk")}
    ledgers = {}
    for table in CardTable.objects.order_by("pk"):
        book = ledger.build(table)
        ledgers[table.pk] = (book.names, book.totals, book.seeger_fabian_totals, book.performance, book.won,
                             book.lost, book.placing_totals, book.series_complete,
                             [(row.number, row.deal.pk, row.deal.verdict, row.entries, row.totals, row.bock_started,
                               row.placing) for row in book.rows])
    return {"rows": rows, "memberships": memberships, "group_permissions": group_permissions, "ledgers": ledgers}


def delete_everything() -> None:
    """Empty the database as a fresh one would be, id sequences included (so a restore that forgot to
    move them on would hand out ids it restored)."""
    CardNight.objects.all().delete()
    Tournament.objects.all().delete()  # its entrants protect the club's players
    Club.objects.all().delete()  # its players with it
    User.objects.all().delete()
    Group.objects.all().delete()
    statements = connection.ops.sequence_reset_sql(no_style(), data_models())
    with connection.cursor() as cursor:
        for statement in statements:
            cursor.execute(statement)
        if connection.vendor == "sqlite":
            cursor.execute("DELETE FROM sqlite_sequence")


def export(*args: str) -> str:
    out = io.StringIO()
    call_command("export", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def import_(*args: str) -> str:
    out = io.StringIO()
    call_command("import", *args, stdout=out)
    return out.getvalue()


def without_timestamp(backup: str) -> str:
    return re.sub(r'"exported_at": "[^"]*"', '"exported_at": ""', backup, count=1)


def a_host_with_a_group(night: CardNight) -> User:
    """An account that hosts `night`, in a group, with a permission of its own (natural keys in the file)."""
    host = User.objects.create_user("jürgen", email="j@example.org", password="korrekt-Pferd-Batterie",
                                    first_name="太郎")
    group = Group.objects.create(name="Vorstand <&>")
    group.permissions.add(Permission.objects.get(codename="view_cardnight"))
    host.groups.add(group)
    host.user_permissions.add(Permission.objects.get(codename="change_player"))
    CardNight.objects.filter(pk=night.pk).update(host=host)
    Club.objects.get(pk=night.club_id).cohosts.add(host)  # a many-to-many of the app's own, in the backup too
    return host


@pytest.fixture
def demo() -> list[CardNight]:
    call_command("loaddemo", stdout=io.StringIO())
    nights_ = list(CardNight.objects.order_by("pk"))
    a_host_with_a_group(nights_[0])
    return nights_


# A Grand played out (the cards as played, attached for the record: docs/PLAY.md), every card following suit.
GRAND_TRICKS = [["CJ", "SJ", "HJ"], ["DJ", "S7", "H7"], ["CA", "S8", "H8"], ["C10", "S9", "H9"], ["CK", "SQ", "HQ"],
                ["CQ", "SK", "DQ"], ["C9", "S10", "D9"], ["C8", "HK", "DK"], ["C7", "H10", "D10"], ["SA", "HA", "DA"]]


@pytest.fixture
def odd_night() -> CardNight:
    """A night with names and text that need escaping, a corrected, a deleted and a restored deal, and a
    change of settings: every kind of history is in."""
    night = nights.start_night(game="skat", preset="classic", players=ODD_NAMES[:3], place=ODD_PLACE)
    table = night.tables.get()
    first = nights.enter_deal(table, grand(0, 70), by=ODD_NAMES[2])
    second = nights.enter_deal(table, grand(1, 55), by=ODD_NAMES[0])
    third = nights.enter_deal(table, grand(2, 90), by="Zoë 🂡🃏")
    nights.correct_deal(second, grand(1, 62), by=ODD_NAMES[1], reason='Zählfehler <b>&</b> "🙈"')
    nights.delete_deal(third, by=ODD_NAMES[2], reason="doppelt eingegeben ✗")
    nights.delete_deal(first, by=ODD_NAMES[0], reason="?")
    nights.restore_deal(first, by=ODD_NAMES[0], reason="doch nicht ¯\\_(ツ)_/¯")
    nights.attach_play(first, {"tricks": GRAND_TRICKS, "skat": ["D7", "D8"]}, by=ODD_NAMES[1],
                       reason="Stiche <gezählt>")
    nights.seat_table(night, ODD_NAMES[1:])
    night = nights.change_settings(night, place=ODD_PLACE + " 2", by="山田 太郎", reason="umgezogen <→>")
    a_host_with_a_group(night)
    seasons.start_season(night.club, name="Saison <2026> 🂡", game="skat", start=night.date, end=night.date,
                         basis="seeger_fabian_per_series", best_of=10, absence_penalty=50)
    # A tournament with a team, a guest, a drawn series (each table a night of its own) and a deal entered.
    tournament = tournaments.create_tournament(club=night.club, name="Preisskat <&> 🂡", game="skat", preset="isko",
                                               series_count=2, series_length=48, teams=True, entry_fee=1000,
                                               lost_game_money=[{"from": 1, "amount": 50}])
    for i, name in enumerate(ODD_NAMES[:3]):
        tournaments.register(tournament, name=name, team="Kreuz <Bube>" if i else "")
    tournaments.register(tournament, name="Gast 客", guest=True, home_club="SC «Grand»")
    series = tournaments.draw_series(tournament, 1, seed="backup")
    nights.enter_deal(CardTable.objects.get(night__series=series), grand(1, 70), by="Gast 客")
    return night


# --- round trips ---------------------------------------------------------------------------------

def test_the_demo_nights_round_trip_exactly(demo: list[CardNight], tmp_path: Path) -> None:
    before = stored()
    assert len(before["rows"]["scorekeep.deal"]) == 95 and len(before["rows"]["scorekeep.dealrevision"]) == 95
    path = tmp_path / "backup.json"
    assert "4 card nights" in export("--output", str(path))
    delete_everything()
    assert not any(stored()["rows"].values())

    assert "95 deals" in import_(str(path))

    assert stored() == before
    assert without_timestamp(export()) == without_timestamp(path.read_text(encoding="utf-8"))


def test_odd_text_and_the_whole_history_round_trip(odd_night: CardNight) -> None:
    revisions = [r.kind for r in DealRevision.objects.order_by("pk")]
    assert revisions.count("changed") == 1 and revisions.count("deleted") == 2 and revisions.count("restored") == 1
    assert revisions.count("play") == 1
    assert NightRevision.objects.count() == 1
    before = stored()
    backup = export()
    # Readable UTF-8, not \u escapes; and the JSON parser, not a text search, gives back every name.
    assert "山田 太郎" in backup and "🂡🃏" in backup
    assert {r["fields"]["name"] for r in json.loads(backup)["objects"] if r["model"] == "scorekeep.player"} \
        == {*ODD_NAMES, "Gast 客"}
    delete_everything()

    call_command("import", "-", stdin=io.BytesIO(backup.encode("utf-8")), stdout=io.StringIO())

    assert stored() == before
    assert without_timestamp(export()) == without_timestamp(backup)
    assert authenticate(username="jürgen", password="korrekt-Pferd-Batterie") is not None
    night = CardNight.objects.get(pk=odd_night.pk)
    assert night.place == ODD_PLACE + " 2" and night.host is not None and night.host.first_name == "太郎"
    assert [deal.deleted for deal in night.tables.get(number=1).deals.all()] == [False, False, True]
    # The tournament comes back whole: its entrants (the guest with the club they came from), the draw, its
    # tables' nights and their deals.
    tournament = Tournament.objects.get()
    assert tournament.entrants.get(guest=True).home_club == "SC «Grand»"
    assert tournament.series_set.get().seed == "backup" and tournament.revisions.count() == 6
    assert CardTable.objects.get(night__series__tournament=tournament).deals.count() == 1
    assert night.tables.get(number=1).deals.get(sequence=1).play == {"tricks": GRAND_TRICKS, "skat": ["D7", "D8"]}


def test_datetimes_keep_their_microseconds(odd_night: CardNight) -> None:
    backup = json.loads(export())
    entered = {r["pk"]: r["fields"]["entered_at"] for r in backup["objects"] if r["model"] == "scorekeep.deal"}
    for deal in Deal.objects.all():
        assert entered[deal.pk] == deal.entered_at.isoformat().replace("+00:00", "Z")


def test_play_goes_on_after_an_import_without_reusing_an_id(demo: list[CardNight], tmp_path: Path) -> None:
    path = tmp_path / "backup.json"
    export("--output", str(path))
    delete_everything()
    import_(str(path))
    highest = {model: model._base_manager.aggregate(n=Max("pk"))["n"]
               for model in (User, Group, Player, CardNight, CardTable, Deal, DealRevision)}

    night = nights.start_night(game="skat", preset="classic", players=["Anna", "Neu", "Clara"])
    deal = nights.enter_deal(night.tables.get(), grand(0, 70), by="Neu")
    nights.change_settings(night, place="Nach dem Import")
    user = User.objects.create_user("neu")
    group = Group.objects.create(name="neu")

    made = {User: user, Group: group, Player: Player.objects.get(name="Neu"), CardNight: night,
            CardTable: night.tables.get(), Deal: deal, DealRevision: deal.revisions.get()}
    assert all(made[model].pk > highest[model] for model in highest)
    assert NightRevision.objects.get(night=night).new["place"] == "Nach dem Import"
    assert ledger.build(night.tables.get()).totals == [48, 0, 0]  # without 1, game 2 × 24


def test_an_older_backup_is_read_with_defaults_for_what_came_since(odd_night: CardNight, tmp_path: Path) -> None:
    backup = json.loads(export())
    latest = backup["migrations"]["scorekeep"].pop()
    for record in backup["objects"]:
        if record["model"] == "scorekeep.cardnight":
            del record["fields"]["place"]  # as if the field had come with that migration
    delete_everything()
    path = tmp_path / "old.json"
    path.write_text(json.dumps(backup), encoding="utf-8")

    output = import_(str(path))

    assert f"predates scorekeep.{latest}" in output
    assert CardNight.objects.get(pk=odd_night.pk).place == ""
    assert CardNight.objects.get(pk=odd_night.pk).tables.count() == 2


# --- what is in a backup -----------------------------------------------------------------------------

def test_a_backup_holds_the_app_and_the_accounts_and_nothing_else(odd_night: CardNight, client: Any) -> None:
    client.force_login(User.objects.get(username="jürgen"))  # a session and a content type exist
    backup = json.loads(export())
    assert (backup["format"], backup["format_version"]) == ("scorekeep-backup", 1)
    assert "0001_cardnights" in backup["migrations"]["scorekeep"] and "0001_initial" in backup["migrations"]["auth"]
    labels = [record["model"] for record in backup["objects"]]
    assert set(labels) == {model._meta.label_lower for model in data_models()}
    first = {label: labels.index(label) for label in labels}
    assert first["auth.user"] < first["scorekeep.cardnight"] < first["scorekeep.cardtable"] < first["scorekeep.deal"]
    user = next(r for r in backup["objects"] if r["model"] == "auth.user")
    assert user["fields"]["password"].startswith(("pbkdf2_", "argon2", "bcrypt", "scrypt", "md5"))
    assert user["fields"]["user_permissions"] == [["change_player", "scorekeep", "player"]]
    assert user["fields"]["groups"] == [["Vorstand <&>"]]


def test_the_throttles_counts_are_left_out_of_a_backup_and_out_of_its_way(odd_night: CardNight, tmp_path: Path) -> None:
    # Who guessed a password in the last minutes is no card night's data.
    assert Client().post(reverse("login"), {"username": "jürgen", "password": "wrong"}).status_code == 200
    assert Attempt.objects.filter(scope="login").count() == 2  # the address and the account
    backup = export()
    assert "scorekeep.attempt" not in backup
    (tmp_path / "backup.json").write_text(backup, encoding="utf-8")
    delete_everything()
    import_(str(tmp_path / "backup.json"))  # a database holding counts takes a restore
    import_("--replace", str(tmp_path / "backup.json"))
    assert Attempt.objects.filter(scope="login").count() == 2  # and keeps them


def test_the_output_file_appears_only_complete_and_private(demo: list[CardNight], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "backup.json"
    path.write_text("the previous backup", encoding="utf-8")
    module = importlib.import_module("scorekeep.management.commands.export")
    real_dumps, calls = module.dumps, []

    def failing_dumps(value: Any) -> str:
        calls.append(1)
        if len(calls) == 100:
            raise KeyboardInterrupt  # the export is stopped halfway
        return real_dumps(value)

    monkeypatch.setattr(module, "dumps", failing_dumps)
    with pytest.raises(KeyboardInterrupt):
        export("--output", str(path))
    assert path.read_text(encoding="utf-8") == "the previous backup"
    assert [p.name for p in tmp_path.iterdir()] == ["backup.json"]

    monkeypatch.setattr(module, "dumps", real_dumps)
    export("--output", str(path))
    assert without_timestamp(path.read_text(encoding="utf-8")) == without_timestamp(export())
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # it holds password hashes
    assert [p.name for p in tmp_path.iterdir()] == ["backup.json"]


def test_an_export_into_a_missing_folder_says_so(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"cannot write .*nowhere.*: No such file or directory"):
        export("--output", str(tmp_path / "nowhere" / "backup.json"))


# --- refusals ------------------------------------------------------------------------------------

def test_a_database_with_data_is_not_overwritten_unless_replace(demo: list[CardNight], tmp_path: Path) -> None:
    path = tmp_path / "backup.json"
    export("--output", str(path))
    before = stored()
    nights.start_night(game="fipsen", preset="classic", players=["Xaver", "Yvonne", "Zora"])
    after_more_play = stored()

    with pytest.raises(CommandError, match=r"already holds .*5 card nights.*--replace"):
        import_(str(path))
    assert stored() == after_more_play

    import_("--replace", str(path))
    assert stored() == before
    assert not Player.objects.filter(name="Xaver").exists()


Mutation = Callable[[list[Any]], str]


def first(objects: list[Any], label: str, nth: int = 0) -> dict[str, Any]:
    return [record for record in objects if record.get("model") == label][nth]


def too_long_name(objects: list[Any]) -> str:
    player = first(objects, "scorekeep.player")
    player["fields"]["name"] = "x" * 41
    return f"scorekeep.player {player['pk']}, field name: Ensure this value has at most 40 characters (it has 41)."


def no_datetime(objects: list[Any]) -> str:
    deal = first(objects, "scorekeep.deal", 1)
    deal["fields"]["entered_at"] = "yesterday"
    return f"scorekeep.deal {deal['pk']}, field entered_at: “yesterday” value has an invalid format."


def unknown_kind(objects: list[Any]) -> str:
    revision = first(objects, "scorekeep.dealrevision", 2)
    revision["fields"]["kind"] = "eaten"
    return f"scorekeep.dealrevision {revision['pk']}, field kind: Value 'eaten' is not a valid choice."


def negative_sequence(objects: list[Any]) -> str:
    deal = first(objects, "scorekeep.deal")
    deal["fields"]["sequence"] = -1
    return f"scorekeep.deal {deal['pk']}, field sequence: Ensure this value is greater than or equal to 0."


def missing_table(objects: list[Any]) -> str:
    deal = first(objects, "scorekeep.deal", 1)
    deal["fields"]["table"] = 10**9
    return f"scorekeep.deal {deal['pk']}, field table: there is no scorekeep.cardtable 1000000000 in the backup"


def unknown_host(objects: list[Any]) -> str:
    night = first(objects, "scorekeep.cardnight")
    night["fields"]["host"] = ["nobody"]
    return f"scorekeep.cardnight {night['pk']}, field host: User matching query does not exist."


def not_a_number(objects: list[Any]) -> str:
    place = first(objects, "scorekeep.tableplayer")
    place["fields"]["position"] = "first"
    return f"scorekeep.tableplayer {place['pk']}, field position: must be a whole number, not a text"


# A value of another JSON type than the export writes for the field is refused, not coerced (Django's
# deserializer took a name {"a": [1, 2]} as the text "{'a': [1, 2]}", "3" as 3, true as 1).
WRONG_TYPES = [
    ("scorekeep.player", "name", {"a": [1, 2]}, "must be a text, not an object"),
    ("scorekeep.player", "name", ["Anna"], "must be a text, not a list"),
    ("scorekeep.player", "name", 17, "must be a text, not a whole number"),
    ("scorekeep.player", "name", None, "must be a text, not null"),
    ("scorekeep.cardnight", "place", True, "must be a text, not true or false"),
    ("scorekeep.cardnight", "date", 20250307, "must be a date or time written as a text, not a whole number"),
    ("scorekeep.cardnight", "finished", 0, "must be true or false, not a whole number"),
    ("scorekeep.cardnight", "finished", "false", "must be true or false, not a text"),
    ("scorekeep.cardnight", "series_length", "36", "must be a whole number, not a text"),
    ("scorekeep.cardnight", "series_length", 36.5, "must be a whole number, not a number with a fraction"),
    ("scorekeep.deal", "sequence", True, "must be a whole number, not true or false"),
    ("scorekeep.deal", "entered_at", {"at": "now"}, "must be a date or time written as a text, not an object"),
    ("scorekeep.deal", "table", "1", "must be an id (a whole number) or a natural key (a list of texts), not a text"),
    ("scorekeep.deal", "table", [1], "must be an id (a whole number) or a natural key (a list of texts), not a list"),
    ("scorekeep.cardnight", "host", {"username": "x"}, "must be an id (a whole number) or a natural key"),
    ("scorekeep.club", "cohosts", "1", "must be a list of ids (whole numbers) or natural keys (lists of texts)"),
    ("scorekeep.club", "cohosts", [True], "must be a list of ids (whole numbers) or natural keys"),
    ("auth.user", "is_staff", "yes", "must be true or false, not a text"),
    ("auth.user", "groups", {}, "must be a list of ids"),
    ("scorekeep.deal", "facts", {"card_points": "7\x000"}, "holds a NUL character, which no text may hold"),
]


@pytest.mark.parametrize(("label", "name", "value", "expected"), WRONG_TYPES,
                         ids=[f"{label}.{name}={json.dumps(value)[:20]}" for label, name, value, _e in WRONG_TYPES])
def test_a_value_of_another_type_is_refused_whole_naming_the_object_and_field(
        odd_night: CardNight, tmp_path: Path, label: str, name: str, value: Any, expected: str) -> None:
    backup = json.loads(export())
    record = first(backup["objects"], label)
    assert name in record["fields"], f"{label} has no field {name} in a backup"
    record["fields"][name] = value
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    before = stored()

    with pytest.raises(CommandError) as refused:
        import_("--replace", str(path))

    assert str(refused.value).startswith(f"{label} {record['pk']}, field {name}: {expected}")
    assert "\n" not in str(refused.value)
    assert stored() == before


def test_a_name_that_is_an_object_is_refused_on_the_command_line_and_nothing_is_stored(tmp_path: Path) -> None:
    """The issue's file: exit status 1, one line naming the player and the field, an empty database after."""
    nights.start_night(game="skat", preset="classic", players=["Anna", "Bernd", "Clara"])
    backup = json.loads(export())
    player = first(backup["objects"], "scorekeep.player")
    player["fields"]["name"] = {"a": [1, 2]}
    path, database = tmp_path / "hostile.json", tmp_path / "empty.sqlite3"
    path.write_text(json.dumps(backup), encoding="utf-8")
    assert manage(database, "migrate", "-v0").returncode == 0

    refused = manage(database, "import", str(path))

    assert refused.returncode == 1
    assert refused.stderr == (f"CommandError: scorekeep.player {player['pk']}, field name: must be a text, "
                              "not an object\n")
    counted = manage(database, "shell", "-c", "from scorekeep.models import Player, CardNight; "
                                              "print(Player.objects.count(), CardNight.objects.count())")
    assert counted.stdout.splitlines()[-1].split() == ["0", "0"]


def unknown_field(objects: list[Any]) -> str:
    deal = first(objects, "scorekeep.deal")
    deal["fields"]["colour"] = "red"
    return f'scorekeep.deal {deal["pk"]} has a field "colour", which scorekeep.deal does not have here'


def same_name_twice(objects: list[Any]) -> str:
    anna, bernd = first(objects, "scorekeep.player"), first(objects, "scorekeep.player", 1)
    bernd["fields"].update(name=anna["fields"]["name"], key=anna["fields"]["key"])
    return f"scorekeep.player {bernd['pk']} does not fit: "


def twice(objects: list[Any]) -> str:
    deal = first(objects, "scorekeep.deal", 1)
    objects.append(json.loads(json.dumps(deal)))
    return f"scorekeep.deal {deal['pk']} appears twice in the backup"


def no_pk(objects: list[Any]) -> str:
    del first(objects, "scorekeep.deal")["pk"]
    return "(scorekeep.deal) has no id (pk)"


def sessions(objects: list[Any]) -> str:
    objects.append({"model": "sessions.session", "pk": "abc", "fields": {}})
    return f"record {len(objects)} of the backup is a sessions.session, which is not part of a scorekeep backup"


def pk_true(objects: list[Any]) -> str:
    first(objects, "scorekeep.deal")["pk"] = True
    return "(scorekeep.deal) has an invalid id true: ids are whole numbers"


def pk_fraction(objects: list[Any]) -> str:
    first(objects, "scorekeep.player")["pk"] = 1.5
    return "(scorekeep.player) has an invalid id 1.5: ids are whole numbers"


def nul_in_a_name(objects: list[Any]) -> str:
    player = first(objects, "scorekeep.player")
    player["fields"]["name"] = "An\x00na"
    return f"scorekeep.player {player['pk']}, field name: holds a NUL character, which no text may hold"


def facts_the_rules_refuse(objects: list[Any]) -> str:
    deal = first(objects, "scorekeep.deal")
    deal["fields"]["facts"] = {**deal["fields"]["facts"], "card_points": 121}
    return "deal 1 of table 1 of card night"


def not_a_record(objects: list[Any]) -> str:
    objects.insert(3, ["scorekeep.deal", 1])
    return 'record 4 of the backup is not a record: an object with "model", "pk" and "fields"'


@pytest.mark.parametrize("mutate", [too_long_name, no_datetime, unknown_kind, negative_sequence, missing_table,
                                    unknown_host, not_a_number, unknown_field, same_name_twice, twice, no_pk,
                                    sessions, not_a_record, pk_true, pk_fraction, nul_in_a_name,
                                    facts_the_rules_refuse], ids=lambda mutate: mutate.__name__)
def test_a_record_that_does_not_fit_is_named_and_changes_nothing(odd_night: CardNight, tmp_path: Path,
                                                                 mutate: Mutation) -> None:
    backup = json.loads(export())
    expected = mutate(backup["objects"])
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    before = stored()

    with pytest.raises(CommandError) as refused:
        import_("--replace", str(path))  # the deleting is undone too

    assert expected in str(refused.value)
    assert "\n" not in str(refused.value)
    assert stored() == before


@pytest.mark.parametrize(("content", "expected"), [
    (None, r"cannot read .*missing\.json: No such file or directory"),
    (b"\xff\xfe{}", r"is not UTF-8 text \(byte 1\)"),
    (b'{"format": "scorekeep-backup",\n "objects": [}', r"is not JSON: Expecting value at line 2, column 14"),
    (b"[]", r'is not a scorekeep backup: it has no "format": "scorekeep-backup"'),
    (b'{"format": "scorekeep-backup", "format_version": "1"}', r'has no valid "format_version"'),
    (b'{"format": "scorekeep-backup", "format_version": 2, "migrations": {}, "objects": []}',
     r"written by a newer scorekeep \(backup format 2; this one reads format 1\): update scorekeep first"),
    (b'{"format": "scorekeep-backup", "format_version": 1, "migrations": {"scorekeep": "0001"}, "objects": []}',
     r'no valid "migrations"'),
    (b'{"format": "scorekeep-backup", "format_version": 1, "migrations": {}, "objects": {}}',
     r'has no "objects" list'),
    (b'{"format": "scorekeep-backup", "format_version": 1, "migrations": {"scorekeep": ["0001_cardnights", '
     b'"0999_from_the_future"]}, "objects": []}',
     r"newer scorekeep: its database has migration scorekeep\.0999_from_the_future, unknown here"),
    (b'{"format": "scorekeep-backup", "objects": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     r"is not a backup scorekeep can read: it is nested too deeply for a request"),
    (b'{"format": "scorekeep-backup", "format_version": 1, "migrations": {}, "objects": [], "note": "\\ud800"}',
     r"is not a backup scorekeep can read: a text in it holds a lone surrogate"),
], ids=["missing", "not-utf8", "not-json", "a-list", "version-text", "newer-format", "bad-migrations",
        "objects-not-a-list", "newer-migration", "nested-deeply", "lone-surrogate"])
def test_a_file_that_is_no_backup_of_ours_is_refused(odd_night: CardNight, tmp_path: Path, content: bytes | None,
                                                     expected: str) -> None:
    path = tmp_path / "missing.json"
    if content is not None:
        path.write_bytes(content)
    before = stored()
    with pytest.raises(CommandError, match=expected):
        import_("--replace", str(path))
    assert stored() == before


# --- the command line, as a person runs it ----------------------------------------------------------

def manage(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}"}
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env=env, capture_output=True,
                          text=True, encoding="utf-8", timeout=120, check=False)


def test_into_another_database_on_the_command_line(demo: list[CardNight], tmp_path: Path) -> None:
    database, path = tmp_path / "another.sqlite3", tmp_path / "backup.json"
    export("--output", str(path))  # from the test database (PostgreSQL in CI), into SQLite

    for args, message in [(("import", str(path)), "the database is not fully migrated: run manage.py migrate"),
                          (("import", str(tmp_path / "nope.json")), "cannot read"),
                          (("import",), "import: the following arguments are required: FILE (usage:")]:
        refused = manage(database, *args)
        assert refused.returncode != 0 and message in refused.stderr
        assert "Traceback" not in refused.stderr and refused.stderr.count("\n") == 1

    assert manage(database, "migrate", "-v0").returncode == 0
    restored = manage(database, "import", str(path))
    assert restored.returncode == 0, restored.stderr
    assert "Imported" in restored.stdout and "95 deals" in restored.stdout
    again = manage(database, "export")
    assert again.returncode == 0 and "95 deals" in again.stderr
    assert without_timestamp(again.stdout) == without_timestamp(path.read_text(encoding="utf-8"))
    assert manage(database, "import", str(path)).stderr.startswith("CommandError: the database already holds")


def test_a_name_whose_case_folded_key_is_longer_than_the_name_is_stored_and_round_trips() -> None:
    """ß folds to ss: 39 characters make a key of 44 (PostgreSQL refused it; a backup of it was refused)."""
    name = "Hans-Jürgen Großmann-Weißenfels-Straßer"
    assert len(name) <= 40 < len(Player.key_of(name))
    night = nights.start_night(game="skat", preset="classic", players=[name, "Anna", "Bernd"])
    nights.enter_deal(night.tables.get(), {"contract": "grand", "declarer": 0, "bid": 48, "matadors": 2,
                                           "card_points": 70})
    before = stored()
    backup = export()
    delete_everything()
    call_command("import", "-", stdin=io.BytesIO(backup.encode("utf-8")), stdout=io.StringIO())
    assert stored() == before and Player.objects.get(key=Player.key_of(name)).name == name


def test_a_verdict_in_the_file_is_judged_again_not_taken_on_trust(odd_night: CardNight, tmp_path: Path) -> None:
    """A verdict stored as "x" made every page of its night answer 500: the facts decide, the engine judges."""
    backup = json.loads(export())
    deal = first(backup["objects"], "scorekeep.deal")
    good = dict(deal["fields"]["verdict"])
    deal["fields"]["verdict"] = "x"
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(backup), encoding="utf-8")
    import_("--replace", str(path))
    assert Deal.objects.get(pk=deal["pk"]).verdict == good
