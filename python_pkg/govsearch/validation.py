"""Tool-call validation: JSON Schema decides, this module explains.

Whether a call is accepted is decided only by fastjsonschema running the
tool's schema (it loads in Pyodide; `jsonschema` does not). When it rejects,
each property is checked again with its own compiled sub-schema so that the
caller hears about every broken property at once, with a message naming the
field, the rule and what to send instead.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import fastjsonschema

from .tool_schemas import load_schema

ECHO_LIMIT = 40
# An error lists at most this many problems and counts the rest: 10,000
# unknown keys must not become a 2.6 MB answer.
MAX_PROBLEMS = 12

Check = Callable[[Any], Any]


@dataclass(frozen=True)
class Problem:
    path: str  # JSON Pointer into the arguments, "" for the whole object
    rule: str  # the JSON Schema keyword that failed
    message: str

    def as_dict(self) -> dict[str, str]:
        return {"path": self.path, "rule": self.rule, "message": self.message}


class Problems(list):
    """The problems listed (at most MAX_PROBLEMS), and how many more were found."""

    unlisted: int = 0


def echo(value: Any) -> str:
    """A short, escaped rendering of an offending value: never the whole input."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= ECHO_LIMIT else text[: ECHO_LIMIT - 1] + "…"


def _compile(schema: dict[str, Any]) -> Check:
    # use_default=False: fastjsonschema would otherwise write defaults into the
    # caller's arguments, changing input silently.
    return fastjsonschema.compile(schema, use_default=False)


class ToolValidator:
    """Validates one tool's arguments against its input schema."""

    def __init__(self, tool: str):
        self.tool = tool
        self.schema = load_schema(tool, "input")
        self._whole = _compile(self.schema)
        self.properties: dict[str, dict[str, Any]] = self.schema.get("properties", {})
        # Compiled when first needed (only a rejected call is explained): compiling them all took
        # 91 of a cold first search's 178 ms of Python in Pyodide. The worker compiles them while idle.
        self._property_checks: dict[str, Check] = {}
        self._item_checks: dict[str, Check] = {}

    def prepare_explanation(self, name: str) -> None:
        """Compile a property's checks now (while nobody waits), not at the first rejection."""
        self._property_check(name)
        self._item_check(name)

    def _property_check(self, name: str) -> Check:
        if name not in self._property_checks:
            self._property_checks[name] = _compile({**self._defs(), **self.properties[name]})
        return self._property_checks[name]

    def _item_check(self, name: str) -> Check | None:
        """The check of one item of an array property (None for other properties)."""
        items = self.properties[name].get("items")
        if items is None:
            return None
        if name not in self._item_checks:
            self._item_checks[name] = _compile({**self._defs(), **items})
        return self._item_checks[name]

    def _defs(self) -> dict[str, Any]:
        return {"$defs": self.schema.get("$defs", {})}

    def is_valid(self, arguments: Any) -> bool:
        try:
            self._whole(arguments)
        except fastjsonschema.JsonSchemaException:
            return False
        return True

    def problems(self, arguments: Any) -> Problems:
        """The problems with the arguments (the first MAX_PROBLEMS, with a count
        of the rest); empty exactly when the schema accepts them."""
        found = Problems()
        try:
            self._whole(arguments)
            return found
        except fastjsonschema.JsonSchemaException as whole_error:
            self._explain_all(arguments, found)
            if not found and not found.unlisted:
                found.append(self._explain(whole_error, "", arguments))
            return found

    def _explain_all(self, arguments: Any, found: Problems) -> None:
        if not isinstance(arguments, dict):
            found.append(
                Problem(
                    "",
                    "type",
                    f"The arguments must be a JSON object with the properties {self._allowed()}; got {echo(arguments)}.",
                )
            )
            return
        # In the schema's property order, then unknown keys by name: the same
        # arguments in any key order give the same answer, byte for byte.
        required = self.schema.get("required", [])
        for name in self.properties:
            if name in arguments:
                found.extend(self._property_problems(name, arguments[name]))
            elif name in required:
                found.append(self._missing(name))
        unknown = sorted(name for name in arguments if name not in self.properties)
        listed = max(0, min(len(unknown), MAX_PROBLEMS - len(found)))
        # Past the cap only count: explaining 100,000 keys is work nobody reads.
        found.extend(self._unknown(name) for name in unknown[:listed])
        found.unlisted += len(unknown) - listed
        if len(found) > MAX_PROBLEMS:
            found.unlisted += len(found) - MAX_PROBLEMS
            del found[MAX_PROBLEMS:]

    def _property_problems(self, name: str, value: Any) -> list[Problem]:
        pointer = "/" + _escape_pointer(name)
        try:
            self._property_check(name)(value)
            return []
        except fastjsonschema.JsonSchemaException as error:
            first = self._explain(error, pointer, value, name)
        item_check = self._item_check(name)
        if item_check is None or not isinstance(value, list) or first.path == pointer:
            return [first]
        # The first failure was an item: report every bad item, not only that one.
        found = []
        for index, item in enumerate(value):
            try:
                item_check(item)
            except fastjsonschema.JsonSchemaException as error:
                found.append(self._explain(error, f"{pointer}/{index}", item, name))
        return found or [first]

    def _allowed(self) -> str:
        return ", ".join(self.properties)

    def _missing(self, name: str) -> Problem:
        return Problem(
            "/" + _escape_pointer(name), "required", f"{name} is required (rule: required). {self._what_to_send(name)}"
        )

    def _unknown(self, name: str) -> Problem:
        return Problem(
            "/" + _escape_pointer(name),
            "additionalProperties",
            f"{echo(name)} is not a property of {self.tool} (rule: additionalProperties). "
            f"Remove it; the allowed properties are: {self._allowed()}.",
        )

    def _explain(self, error: fastjsonschema.JsonSchemaException, pointer: str, value: Any, name: str = "") -> Problem:
        """Turn fastjsonschema's first error into a Problem with advice."""
        rule = error.rule or "schema"
        # error.path is ["data", ...] relative to what that check was given.
        inner = [str(part) for part in (error.path or ["data"])[1:]]
        path = pointer + "".join("/" + _escape_pointer(part) for part in inner)
        offending = _dig(value, inner)
        field = _field_label(name, inner) if name else "The arguments"
        advice = self._what_to_send(name)
        definition = error.rule_definition
        if rule == "type":
            wanted = definition if isinstance(definition, str) else " or ".join(definition)
            text = f"{field} must be {_article(wanted)} {wanted} (rule: type); got {echo(offending)}."
        elif rule == "enum":
            text = f"{field} is {echo(offending)}, which is not an allowed value (rule: enum). Send one of these exact tokens: {', '.join(definition)}.{_suggest(offending, definition)}"
            advice = "" if name in self.schema.get("required", []) else "Or omit the property."
        elif rule in ("minLength", "maxLength"):
            text = f"{field} is {_length(offending)} characters long; {_bound(rule, definition)} (rule: {rule})."
        elif rule in ("minItems", "maxItems"):
            size = len(offending) if isinstance(offending, list) else "?"
            text = f"{field} has {size} items; {_bound(rule, definition, 'items')} (rule: {rule})."
        elif rule == "uniqueItems":
            text = f"{field} lists the same value more than once (rule: uniqueItems). Send each value once."
        elif rule in ("minimum", "maximum"):
            text = f"{field} is {echo(offending)}; {_bound(rule, definition)} (rule: {rule})."
        elif rule == "pattern":
            text = f"{field} is {echo(offending)}, which does not have the required form {definition} (rule: pattern)."
        else:
            text = f"{field} is not valid (rule: {rule})."
        return Problem(path, rule, f"{text} {advice}".strip())

    def _what_to_send(self, name: str) -> str:
        sub = self.properties.get(name)
        if not sub:
            return ""
        advice = sub.get("description", "")
        if name not in self.schema.get("required", []):
            advice += " Omit the property when unused." if "Omit" not in advice else ""
        return advice.strip()


def _escape_pointer(part: str) -> str:
    """A JSON Pointer segment; a long one is cut to ECHO_LIMIT characters and
    ends with "…", so a 190,000-character key is not echoed back whole."""
    escaped = part.replace("~", "~0").replace("/", "~1")
    return escaped if len(escaped) <= ECHO_LIMIT else escaped[: ECHO_LIMIT - 1] + "…"


def _dig(value: Any, parts: list[str]) -> Any:
    for part in parts:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            break
    return value


def _field_label(name: str, inner: list[str]) -> str:
    return name + "".join(f"[{part}]" if part.isdigit() else f".{part}" for part in inner)


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _length(value: Any) -> str:
    return str(len(value)) if isinstance(value, str) else "?"


def _bound(rule: str, limit: Any, unit: str = "characters") -> str:
    if rule == "minLength":
        return (
            f"it must have at least {limit} {unit}; send non-empty text"
            if limit == 1
            else f"the minimum is {limit} {unit}"
        )
    if rule == "maxLength":
        return f"the limit is {limit} {unit}; send shorter text"
    if rule == "minItems":
        return f"at least {limit} {unit} are needed"
    if rule == "maxItems":
        return f"at most {limit} {unit} are allowed"
    if rule == "minimum":
        return f"the smallest allowed value is {limit}"
    return f"the largest allowed value is {limit}"


def _suggest(value: Any, tokens: list[str]) -> str:
    """Point a display label ("GOV.UK content") at its machine token."""
    if not isinstance(value, str):
        return ""
    squashed = re.sub(r"[^a-z0-9]+", "", value.lower())
    for token in tokens:
        if squashed and squashed == re.sub(r"[^a-z0-9]+", "", token):
            return f' Did you mean "{token}"?'
    return ""
