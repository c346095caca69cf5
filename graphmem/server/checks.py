"""Each tool's arguments checked before its verb runs: by pydantic, against a model made from the very
schema a client is shown (:data:`graphmem.server.schemas.TOOLS`), with the memory's own argument rules.

Why a model made from the schema, and not a model the schema is made from: the schema is the whole
contract a model reads before it calls a tool, written for it (:mod:`graphmem.server.schemas` says
why), and a checker derived from that same dict cannot drift from it. Why pydantic rather than a
checker of our own: it is the MCP SDK's own validator, maintained, and it coerces as it checks, so
``as_of`` comes out a datetime (read once, here: the memory takes it as it is) and ``k`` an int.
The fields the memory has a rule for (``k``, ``as_of``, ``user``, ``conversation``) carry that rule
(:mod:`graphmem.memory.arguments`: the same :data:`Count` and :func:`moment` the API and the command
line apply, the same name rule), narrowed by the schema's bounds (``k`` from 1 to 100).

What is ours is the wording: the first violation becomes one ``DataError`` line, in the words the
command line uses (``search: k must be a whole number from 1 to 100, not "x"``), never pydantic's
report, which a model cannot act on.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, create_model
from pydantic_core import ErrorDetails

from graphmem.errors import DataError
from graphmem.memory.arguments import Count, moment, name
from graphmem.server.schemas import TOOLS, Spec

__all__ = ["checked"]


def _unicode(value: str) -> None:
    """Where a string pydantic refuses as not Unicode holds a lone surrogate (JSON allows ``\\ud800``)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as e:
        raise ValueError(f"not valid Unicode (a lone surrogate at character {e.start})") from None


def _filled(value: str) -> str:
    if not value.strip():
        raise ValueError("blank")
    return value


def _as_of(value: str) -> datetime | None:
    return moment(value, "as_of")


def _named(field: str) -> AfterValidator:
    return AfterValidator(lambda value: name(value, field))


RULES: dict[str, tuple[Any, ...]] = {"as_of": (AfterValidator(_as_of),), "user": (_named("user"),),
                                     "conversation": (_named("conversation"),)}
"""The memory's rules for the fields that have one, applied after the schema's own checks."""


def _kind(schema: Spec, field: str = "") -> Any:
    """The annotated type that checks a value against ``schema`` (and ``field``'s rule, if it has one)."""
    kind = schema["type"]
    if kind == "integer":
        base: Any = Count if field == "k" else Annotated[int, Field(strict=True)]
        return Annotated[base, Field(ge=schema.get("minimum"), le=schema.get("maximum"))]
    if kind == "boolean":
        return Annotated[bool, Field(strict=True)]
    if kind == "string":
        filled = (AfterValidator(_filled),) if schema.get("minLength") else ()
        marks = (str, Field(strict=True, max_length=schema.get("maxLength")), *filled, *RULES.get(field, ()))
        return Annotated[marks]  # a tuple subscript is the same as the items written out
    if kind == "array":
        return Annotated[list[_kind(schema["items"])],  # type: ignore[misc]
                         Field(strict=True, min_length=schema.get("minItems", 0), max_length=schema.get("maxItems"))]
    if schema.get("additionalProperties") is True:  # an open object (metadata, a filter): the memory checks it
        return Annotated[dict[str, Any], Field(strict=True)]
    return _model(schema, "Object")


def _model(schema: Spec, title: str) -> type[BaseModel]:
    """A closed object: every property optional but the required ones, no other name taken."""
    required = set(schema.get("required", ()))
    fields: dict[str, Any] = {key: (_kind(spec, key), ... if key in required else None)
                              for key, spec in schema["properties"].items()}
    return create_model(title, __config__=ConfigDict(extra="forbid", strict=True), **fields)


MODELS: dict[str, type[BaseModel]] = {tool: _model(spec["input_schema"], f"{tool.title()}Arguments")
                                      for tool, spec in TOOLS.items()}
"""Each tool's arguments as a model, made from its input schema."""


def checked(tool: str, arguments: Any) -> dict[str, Any]:
    """The arguments of a call to ``tool``, each checked against the tool's input schema (type, range,
    length, required, no unknown names) and the memory's rules; the given ones only, as the model
    read them. The first violation is one ``DataError`` line."""
    if arguments is None:
        arguments = {}
    schema = TOOLS[tool]["input_schema"]
    if not isinstance(arguments, dict):
        raise DataError(f"{tool}: the arguments must be an object with {', '.join(schema['properties'])}, "
                        f"not {_shown(arguments)}")
    try:
        return MODELS[tool].model_validate(arguments).model_dump(exclude_unset=True, warnings=False)  # as_of: a datetime
    except ValidationError as e:
        order = list(arguments)
        first = min(e.errors(), key=lambda d: (_rank(d), order.index(d["loc"][0]) if d["loc"][0] in order else 0))
        raise DataError(_said(tool, schema, arguments, first)) from None


def _rank(error: ErrorDetails) -> int:
    """Which violation is told first: an unknown name, then a missing one, then a wrong value."""
    return {"extra_forbidden": 0, "missing": 1}.get(error["type"], 2)


def _said(tool: str, schema: Spec, arguments: Any, error: ErrorDetails) -> str:
    """The violation in one line, worded by the schema of the value at its place."""
    loc, node, value, where = error["loc"], schema, arguments, "the arguments"
    for step in loc[:-1] if error["type"] in ("extra_forbidden", "missing") else loc:
        node, value = (node["items"], value[step]) if isinstance(step, int) else (node["properties"][step], value[step])
        where = f"{where}[{step}]" if isinstance(step, int) else step if where == "the arguments" else f"{where}.{step}"
    top, last = where == "the arguments", loc[-1]
    if error["type"] == "extra_forbidden":
        what = f"unknown argument {last!r}; {tool}" if top else f"unknown field {last!r} in {where}; it"
        return f"{tool}: {what} takes {', '.join(node['properties'])}"
    if error["type"] == "missing":
        return f"{tool}: missing {last}" + ("" if top else f" in {where}")
    return f"{tool}: {where} {_wrong(node, value, error)}"


def _wrong(schema: Spec, value: Any, error: ErrorDetails) -> str:
    """What a value of ``schema`` must be, said of ``value``."""
    kind = schema["type"]
    if kind == "integer":
        low, high = schema.get("minimum"), schema.get("maximum")
        return f"must be a whole number {f'from {low} to {high}' if high is not None else f'from {low} up'}, " \
               f"not {_shown(value)}"
    if kind == "array":
        return f"must be a list of {schema.get('minItems', 0)} to {schema.get('maxItems')} items, not {_shown(value)}"
    if kind == "boolean":
        return f"must be true or false, not {_shown(value)}"
    if kind == "string":
        if error["type"] == "string_too_long":
            return f"must be at most {schema['maxLength']} characters, not {len(value)}"
        if error["type"] == "string_unicode":  # pydantic's own refusal of a lone surrogate, placed
            try:
                _unicode(value)
            except ValueError as e:
                return f"is {e}"
        return f"must be a {'non-empty ' if schema.get('minLength') else ''}string, not {_shown(value)}"
    if schema.get("additionalProperties") is True:
        return f"must be an object of names to values, not {_shown(value)}"
    return f"must be an object with {', '.join(schema['properties'])}, not {_shown(value)}"


def _shown(value: Any) -> str:
    """A value as an error names it: its JSON, cut short."""
    text = json.dumps(value, ensure_ascii=True, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
