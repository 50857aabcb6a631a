"""The one exception the rules engine raises for input it cannot score."""

from collections.abc import Mapping


class IllegalDeal(ValueError):
    """A request the rules cannot score: the field at fault and a sentence a player understands.

    `field` is the dotted path from the request's top (``deal.card_points``, ``rules.kontra``,
    ``compare.1.bid``). `text` is an English template in ``str.format`` style and `params` its
    values, so the web pages can translate the template and fill in the same numbers; `message`
    is the English sentence the contract returns.
    """

    def __init__(self, field: str, text: str, **params: object) -> None:
        self.field = field
        self.text = text
        self.params: Mapping[str, object] = params
        self.message = text.format(**params) if params else text
        super().__init__(f"{field}: {self.message}")

    def to_json(self) -> dict:
        return {"field": self.field, "message": self.message}
