"""The one exception the rules engine raises for input it cannot score."""

from collections.abc import Mapping

from .explain import SeatName, Step, Translate


class IllegalDeal(ValueError):
    """A request the rules cannot score: the field at fault and a sentence a player understands.

    `field` is the dotted path from the request's top (``deal.card_points``, ``rules.kontra``,
    ``compare.1.bid``). `text` is an English template in ``str.format`` style and `params` its
    values, so the web pages can translate the template and fill in the same numbers; `message`
    is the English sentence the contract returns. Seats among the params are `Seat` and `Seats`
    values, as in an explanation step, so `render` can write them the way a page names them.
    """

    def __init__(self, field: str, text: str, *, on_page: str | None = None, **params: object) -> None:
        self.field = field
        self.text = text
        self.on_page = on_page
        self.params: Mapping[str, object] = params
        self.message = text.format(**params) if params else text
        super().__init__(f"{field}: {self.message}")

    def render(self, seat_name: SeatName, text: str | None = None, translate: Translate | None = None) -> str:
        """The message with every seat written by `seat_name` (a player's name, a 1-based label),
        optionally a translated `text`, and its `Word`s translated — as `Step.render` does."""
        return Step(self.text, self.params).render(seat_name, text, translate)

    def to_json(self) -> dict[str, str]:
        return {"field": self.field, "message": self.message}
