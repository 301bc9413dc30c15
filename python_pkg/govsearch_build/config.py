"""The site configuration (`site/site.toml`), read once and checked."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from govsearch.ranking.analysis import analysed
from govsearch.tool_schemas import COLLECTIONS as COLLECTION_IDS
from govsearch.tool_schemas import RESOURCE_TYPES


class ConfigError(Exception):
    """The configuration file is missing or wrong; the message names file and key."""


@dataclass(frozen=True)
class Collection:
    id: str
    title: str
    description: str


@dataclass(frozen=True)
class Source:
    kind: str
    path: Path
    collection: str | None = None
    revision: str | None = None  # upstream commit, kept in each record's provenance
    observed: str | None = None  # YYYY-MM-DD the export was taken


@dataclass(frozen=True)
class SiteConfig:
    file: Path
    title: str
    tagline: str
    site_url: str
    base_path: str
    content_dir: Path
    collections: tuple[Collection, ...]
    sources: tuple[Source, ...] = ()
    http_allowed_hosts: tuple[str, ...] = ()
    index_layout: str = "auto"  # "single", "sharded", or "auto" (sharded for large sites)
    sources_dir: Path | None = None  # where [[sources]] paths start: ../shared/data or the fetched cache
    sources_lock: Path | None = None  # the lock pinning the bytes sources_dir must hold
    # Annotated records (docs/record-format.md): our words for imported records, read
    # beside content_dir by a build that imports their exports (the full estate).
    annotations_dir: Path | None = None
    # [search]: ranking data kept out of code (docs/ranking.md). Synonym
    # groups, each led by the one word the others are indexed and searched
    # as; intent words -> the resource types they ask for.
    synonyms: tuple[tuple[str, ...], ...] = ()
    intents: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fillers: tuple[str, ...] = ()  # words or phrases that say how, where or when someone asks ("near", "latest")
    optional_words: tuple[str, ...] = ()  # words a record need not hold beside the query's others ("search")
    common_words: tuple[str, ...] = ()  # English's commonest words ("need", "time"): little of a question's topic
    framing_words: tuple[str, ...] = ()  # how an agent's sentence frames its need ("user", "wants"): no topic there
    # A question's opening words -> the words that say what it asks about, searched instead.
    openings: tuple[tuple[str, str], ...] = ()
    # Intent words that name their kind of resource and nothing else ("api"): the first result is of that kind.
    leading_intents: tuple[str, ...] = ()
    contact_url: str = ""  # where people report problems (the accessibility statement links to it)

    def collection(self, collection_id: str) -> Collection:
        return next(c for c in self.collections if c.id == collection_id)

    def url_for(self, path: str) -> str:
        """A site-relative link under the base path, for example 'records/x/'."""
        return self.base_path + path.lstrip("/")


def load_config(path: Path, sources_dir: Path | None = None) -> SiteConfig:
    """Read and check `path`; `sources_dir` replaces the file's `sources_dir` (for example the fetched cache)."""
    try:
        raw = tomllib.loads(path.read_text("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: file not found") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: {error}") from None
    where = path.parent

    def need(key: str, kind: type = str) -> Any:
        value = raw.get(key)
        if not isinstance(value, kind):
            raise ConfigError(f"{path}: '{key}' must be a {kind.__name__}")
        return value

    base_path = need("base_path")
    if not (base_path.startswith("/") and base_path.endswith("/")):
        raise ConfigError(f"{path}: 'base_path' must start and end with '/' (for example '/' or '/REPO/')")
    collections = tuple(_collection(path, item) for item in raw.get("collections", []))
    if tuple(c.id for c in collections) != COLLECTION_IDS:
        raise ConfigError(f"{path}: [[collections]] must list exactly {', '.join(COLLECTION_IDS)} in that order")
    if sources_dir is None and raw.get("sources_dir") is not None:
        sources_dir = where / need("sources_dir")
    lock = need("sources_lock") if "sources_lock" in raw else None
    sources = tuple(_source(path, sources_dir or where, item) for item in raw.get("sources", []))
    return SiteConfig(
        file=path,
        title=need("title"),
        tagline=raw.get("tagline", ""),
        site_url=need("site_url").rstrip("/"),
        base_path=base_path,
        content_dir=where / raw.get("content_dir", "content"),
        collections=collections,
        sources=sources,
        http_allowed_hosts=tuple(raw.get("http_allowed_hosts", [])),
        index_layout=_layout(path, raw.get("index_layout", "auto")),
        sources_dir=Path(sources_dir).resolve() if sources_dir is not None else None,
        sources_lock=(where / lock).resolve() if lock else None,
        annotations_dir=where / raw["annotations_dir"] if raw.get("annotations_dir") else None,
        **_search(path, raw.get("search", {})),
        contact_url=_contact(path, raw.get("contact_url", "")),
    )


def _search(path: Path, table: Any) -> dict[str, Any]:
    """The [search] table: synonym groups, intent words (and those that lead), fillers, optional words and question
    openings, checked."""
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [search] must be a table")
    groups = table.get("synonyms", [])
    if not isinstance(groups, list) or not all(
        isinstance(group, list) and len(group) >= 2 and all(isinstance(word, str) and word.strip() for word in group)
        for group in groups
    ):
        raise ConfigError(
            f"{path}: search.synonyms must be a list of groups, each a list of two or more words or phrases"
        )
    for group in groups:
        if len(group[0].split()) != 1:
            raise ConfigError(
                f"{path}: search.synonyms group {group!r} must start with a single word (what the others are indexed as)"
            )
    intents = table.get("intents", {})
    if not isinstance(intents, dict):
        raise ConfigError(f"{path}: [search.intents] must be a table of word = [resource types]")
    for word, types in intents.items():
        if not isinstance(types, list) or not types or any(kind not in RESOURCE_TYPES for kind in types):
            raise ConfigError(
                f"{path}: search.intents.{word} must list resource types from {', '.join(RESOURCE_TYPES)}"
            )
    leading = table.get("leading_intents", [])
    # A question word ("who") is a stop word, read only where it opens a query: it names no kind to lead with.
    if not isinstance(leading, list) or not all(word in intents and analysed(word) for word in leading):
        raise ConfigError(
            f"{path}: search.leading_intents must be a list of words from [search.intents], not question words"
        )
    fillers = table.get("fillers", [])
    if not isinstance(fillers, list) or not all(isinstance(w, str) and w.strip() for w in fillers):
        raise ConfigError(f"{path}: search.fillers must be a list of words or phrases")
    # Optional and common words are each read as typed, one word (not a stop word: lunr drops it),
    # and read no other way: a filler is left out, an intent word asks for types (and counts in no
    # share) and a synonym is its group's token; a common word is no optional word (that is no topic).
    taken = {" ".join(words.lower().split()) for words in [*fillers, *intents, *(w for g in groups for w in g)]}
    optional = _single_words(path, table, "optional_words", taken, "a filler, an intent word or a synonym")
    common = _single_words(
        path, table, "common_words", {*taken, *optional}, "a filler, an intent word, a synonym or an optional word"
    )
    framing = _single_words(
        path,
        table,
        "framing_words",
        {*taken, *optional, *common},
        "a filler, an intent word, a synonym, an optional word or a common word",
    )
    openings = table.get("openings", {})
    if not isinstance(openings, dict) or not all(
        isinstance(words, str) and len(words.split()) >= 2 and isinstance(asks, str) for words, asks in openings.items()
    ):
        raise ConfigError(
            f'{path}: [search.openings] must be a table of "opening words" = "what they ask about" '
            "(two or more words each; the value may be empty)"
        )
    return {
        "synonyms": tuple(tuple(word.strip() for word in group) for group in groups),
        "intents": tuple((word, tuple(types)) for word, types in intents.items()),
        "leading_intents": tuple(leading),
        "fillers": tuple(" ".join(words.lower().split()) for words in fillers),
        "optional_words": tuple(optional),
        "common_words": tuple(common),
        "framing_words": tuple(framing),
        "openings": tuple(
            (" ".join(words.lower().split()), " ".join(asks.split())) for words, asks in openings.items()
        ),
    }


def _single_words(path: Path, table: dict[str, Any], key: str, taken: set[str], what: str) -> list[str]:
    """The [search] table's list `key` of single lower-case words as typed, none a stop word nor
    one of `taken` (`what` names them in the error)."""
    words = table.get(key, [])
    wrong = (
        [repr(word) for word in words if not _single_word(word) or word in taken]
        if isinstance(words, list)
        else ["not a list"]
    )
    if wrong:
        raise ConfigError(
            f"{path}: search.{key} must be a list of single lower-case words, none a stop word, {what}"
            f" ({', '.join(wrong[:5])})"
        )
    return words


def _single_word(word: Any) -> bool:
    return isinstance(word, str) and [typed for typed, _ in analysed(word)] == [word]


def _contact(path: Path, value: Any) -> str:
    if not isinstance(value, str) or (value and not value.startswith(("https://", "mailto:"))):
        raise ConfigError(f"{path}: 'contact_url' must be an https:// or mailto: address")
    return value


def _layout(path: Path, value: Any) -> str:
    if value not in ("auto", "single", "sharded"):
        raise ConfigError(f'{path}: \'index_layout\' must be "auto", "single" or "sharded"')
    return value


def _collection(path: Path, item: Any) -> Collection:
    try:
        return Collection(id=item["id"], title=item["title"], description=item["description"])
    except (KeyError, TypeError):
        raise ConfigError(f"{path}: each [[collections]] entry needs id, title and description") from None


def _source(path: Path, where: Path, item: Any) -> Source:
    try:
        return Source(
            kind=item["kind"],
            path=(where / item["path"]).resolve(),
            collection=item.get("collection"),
            revision=item.get("revision"),
            observed=item.get("observed"),
        )
    except (KeyError, TypeError):
        raise ConfigError(f"{path}: each [[sources]] entry needs kind and path") from None
