"""Messages shown on the next page ("Welcome, …"), in the language of the page that shows them.

Django's message storage keeps a message as the text it was given, so a message queued while the reader read
English stayed English on the German page they switched to. A message queued as `later(msgid, **params)` is
stored as its message id and parameters and translated when a page shows it (`TranslatedWhenShown`, the site's
MESSAGE_STORAGE). The ids are marked with `gettext_noop` where they are queued, so that makemessages finds them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.fallback import FallbackStorage
from django.utils.translation import gettext

# A stored message that is to be translated when shown starts with this (a character no typed text has).
_MARK = "\x1ftranslate:"


class Later(str):
    """A message id and its parameters, translated into the language active when it is shown. As a `str` it is
    the English text (what a storage without this module would show), so it goes wherever a message goes."""

    msgid: str
    params: dict[str, str | int]

    def __new__(cls, msgid: str, params: dict[str, str | int] | None = None) -> Later:
        params = dict(params or {})
        made = super().__new__(cls, msgid % params if params else msgid)
        made.msgid, made.params = msgid, params
        return made

    def shown(self) -> str:
        text = gettext(self.msgid)
        return text % self.params if self.params else text

    def stored(self) -> str:
        return _MARK + json.dumps([self.msgid, self.params], ensure_ascii=False)

    @classmethod
    def from_stored(cls, text: str) -> Later | None:
        if not text.startswith(_MARK):
            return None
        try:
            msgid, params = json.loads(text[len(_MARK):])
        except (ValueError, TypeError):
            return None
        return cls(str(msgid), dict(params)) if isinstance(params, dict) else None


def later(msgid: str, **params: str | int) -> Later:
    """A message for `messages.success(request, later(gettext_noop("…%(name)s…"), name=…))`."""
    return Later(msgid, params)


class TranslatedWhenShown(FallbackStorage):
    """Django's storage (a cookie, the session when the cookie is full) with `Later` messages kept as their ids."""

    def add(self, level: int, message: str, extra_tags: str | None = "") -> None:
        # Stored as its id and parameters: Django would keep the text of this request's language.
        super().add(level, message.stored() if isinstance(message, Later) else message, extra_tags)

    def __iter__(self) -> Iterator[Message]:
        for message in super().__iter__():
            text = message.message
            later = Later.from_stored(text) if isinstance(text, str) else None
            yield Message(message.level, later.shown(), message.extra_tags) if later is not None else message
