"""Messages shown on the next page ("Welcome, …"), in the language of the page that shows them.

Django's message storage keeps a message as the text it was given, so a message queued while the reader read
English stayed English on the German page they switched to. A message queued as `later(msgid, **params)` is
stored as its message id and parameters and translated when a page shows it (`TranslatedWhenShown`, the site's
MESSAGE_STORAGE). The ids are marked with `gettext_noop` where they are queued, so that makemessages finds them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.contrib.messages.storage.base import Message
from django.contrib.messages.storage.fallback import FallbackStorage
from django.utils.translation import gettext

# A stored message that is to be translated when shown starts with this (a character no typed text has).
_MARK = "\x1ftranslate:"


@dataclass(frozen=True, slots=True)
class Later:
    """A message id and its parameters, translated into the language active when it is shown."""

    msgid: str
    params: dict[str, str | int] = field(default_factory=dict)

    def __str__(self) -> str:
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

    def _prepare_messages(self, messages: list[Message]) -> None:
        for message in messages:
            if isinstance(message.message, Later):
                message.message = message.message.stored()
        super()._prepare_messages(messages)

    def __iter__(self) -> Iterator[Message]:
        for message in super().__iter__():
            text = message.message
            shown = text if isinstance(text, Later) else Later.from_stored(text) if isinstance(text, str) else None
            yield Message(message.level, str(shown), message.extra_tags) if shown is not None else message
