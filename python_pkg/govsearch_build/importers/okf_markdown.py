"""`okf-markdown`: OKF Markdown bundles (one record per `.md` file with YAML front matter).

Read with `records.parse_record_text`, as the build reads records. id
`okfmd-<file stem>`.

| source field | record field |
|---|---|
| file stem | id `okfmd-<stem>`; `nativeId` |
| title | title |
| description | summary (plain text) |
| resource (absolute URL), else the first link under "## Official routes" not already used by another record of the bundle, else the first `sources[].resource` that is an absolute URL | url |
| type | resourceType by the url: `govuk-content` on www.gov.uk, else `guidance` (types other than Service Family / Public Service Route are reported under `unmapped`) |
| providers / provider (slugs), else the owner of the url in the bundle's `resources-*.json` index (found next to or above the Markdown folder), else the `organisation:` author of a source with an absolute URL | publisher through the authority |
| observed_at (else timestamp) | observed, source.observed |
| jurisdiction, tags, service_family | keywords |
| "## Official routes" links | body: the list of official routes (links only) |
| - | accessStatus `public` (the routes are public pages); no licence |

Collection `uk-living` (unless a collection is given). Files without front
matter named index/README are left out (`not-a-record`); other files that
cannot be read, or have no title, description or absolute URL, are rejected;
except a service family with no address of its own whose body links other
service files of the bundle ("Register a death" linking the nations' routes):
its title and summary become other names (`alsoKnownAs`) of each service it
links, and it is counted as merged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from ..records import parse_record_text
from .cleaning import MAX_ALIASES
from .common import ImportBuilder, expand, iso_date, keywords, make_id, page_type, shown

DEFAULT_COLLECTION = "uk-living"
KNOWN_TYPES = {"Service Family", "Public Service Route"}
_ROUTES = re.compile(r"^##\s+Official routes\s*$(.*?)(?=^##\s|\Z)", re.M | re.S)
_LINK = re.compile(r"\[([^\]]+)\]\((https?://[^)\s]+)\)")


def _owner_index(files: list[Path]) -> dict[str, str]:
    index: dict[str, str] = {}
    folders = {f.parent for f in files} | {f.parent.parent for f in files}
    for folder in sorted(folders):
        for path in sorted(folder.glob("resources-*.json")):
            try:
                data = json.loads(path.read_text("utf-8"))
            except (OSError, ValueError):
                continue
            for item in data if isinstance(data, list) else []:
                if isinstance(item, dict) and isinstance(item.get("provenance"), dict):
                    owner = item["provenance"].get("owner")
                    if item.get("url") and owner:
                        index.setdefault(item["url"], owner)
    return index


def import_paths(paths: list[Path], builder: ImportBuilder) -> None:
    files = expand(paths, ("*.md",))
    owners = _owner_index(files)
    used: set[str] = set()
    families: list[tuple[str, dict[str, str], list[str]]] = []
    builder.input(len(files))
    for path in files:
        _one(path, shown(path), owners, used, builder, families)
    for file, name, members in families:
        _family_names(file, name, members, builder)


# a link to another service file of the bundle: "[England and Wales](england-wales-death-registration.md)"
_SIBLING = re.compile(r"\]\(([A-Za-z0-9_-]+)\.md\)")


def _family_names(file: str, name: dict[str, str], members: list[str], builder: ImportBuilder) -> None:
    """A service family with no address of its own ("Register a death", whose body links
    the nations' routes) is another name of each service it links: its title and
    summary go into their `alsoKnownAs`, and the file counts as merged into the first."""
    found = [c for c in builder.candidates if c.data.get("source", {}).get("nativeId") in members]
    if not found:
        builder.reject(file, "url", "no absolute URL: no resource, official route or source link")
        return
    for candidate in found:
        aliases = candidate.data.setdefault("alsoKnownAs", [])
        if len(aliases) < MAX_ALIASES:
            aliases.append(dict(name))
    builder.merged_before_build(
        file, found[0].file, "a service family with no address: another name of the services it links"
    )


def _as_list(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [str(v) for v in value if v]
    return []


def _one(
    path: Path,
    file: str,
    owners: dict[str, str],
    used: set[str],
    builder: ImportBuilder,
    families: list[tuple[str, dict[str, str], list[str]]],
) -> None:
    try:
        text = path.read_text("utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        builder.reject(file, "(file)", f"cannot read: {error}")
        return
    data, body, problems = parse_record_text(text, file)
    if data is None:
        if path.stem.lower() in ("index", "readme") and not text.startswith("---"):
            builder.leave_out("not-a-record", file)
        else:
            for problem in problems:
                builder.reject(problem.file, problem.field, problem.reason)
        return
    title = builder.text(data.get("title"), "title")
    summary = builder.text(data.get("description"), "summary")
    if not title:
        builder.reject(file, "title", "the front matter has no title")
        return
    if not summary:
        builder.reject(file, "description", "the front matter has no description")
        return
    kind = str(data.get("type") or "")
    if kind not in KNOWN_TYPES:
        builder.note_unmapped("type", kind, file)
    routes_match = _ROUTES.search(body)
    routes = _LINK.findall(routes_match.group(1)) if routes_match else []
    sources = [s for s in data.get("sources") or [] if isinstance(s, dict)]
    url = _first_unused_url(_url_candidates(data, routes, sources), used, builder)
    if url is None:
        members = _SIBLING.findall(body)
        if members:  # decided once every file is read (_family_names)
            name = {"title": title, "summary": summary, "source": f"{builder.kind}: {file}"}
            families.append((file, name, members))
        else:
            builder.reject(file, "url", "no absolute URL: no resource, official route or source link")
        return
    used.add(url)
    publisher = _publisher(data, sources, routes, url, owners, builder)
    if not publisher:
        builder.reject(file, "publisher", "no provider, resource owner or source author names a publisher")
        return
    observed = iso_date(data.get("observed_at")) or iso_date(data.get("timestamp"))
    route_body = _route_list(routes, builder)
    builder.add(
        {
            "id": make_id("okfmd", path.stem),
            "title": title,
            "summary": summary,
            "url": url,
            "resourceType": page_type(url),
            "publisher": publisher,
            "accessStatus": "public",
            "collection": builder.collection or DEFAULT_COLLECTION,
            "keywords": _keywords(data, kind),
            "source": builder.provenance(file, path.stem, observed=observed),
        },
        file,
        body=route_body,
    )


def _keywords(data: dict[str, Any], kind: str) -> list[str]:
    """Jurisdiction, tags, service family and page type from the front matter."""
    family = str(data.get("service_family", "")).replace("-", " ") or None
    return keywords([data.get("jurisdiction"), *(_as_list(data.get("tags"))), family, kind or None])


def _url_candidates(data: dict[str, Any], routes: list[tuple[str, str]], sources: list[dict[str, Any]]) -> list[str]:
    """Where the record could point, best first: its resource, its official routes, its sources' resources."""
    web = ("http://", "https://")
    candidates = [str(data["resource"])] if str(data.get("resource", "")).startswith(web) else []
    candidates += [link for _, link in routes]
    candidates += [str(s["resource"]) for s in sources if str(s.get("resource", "")).startswith(web)]
    return candidates


def _route_list(routes: list[tuple[str, str]], builder: ImportBuilder) -> str:
    """The record body: the service's official routes as a Markdown list (empty when it has none)."""
    if not routes:
        return ""
    return "Official routes:\n\n" + "\n".join(f"- [{builder.text(label, 'title')}]({link})" for label, link in routes)


def _first_unused_url(candidates: list[str], used: set[str], builder: ImportBuilder) -> str | None:
    """The first usable candidate URL no other record of the bundle has taken, else the first usable one."""
    fallback = None
    for candidate in candidates:
        fixed, _ = builder.url(candidate)
        if fixed and fallback is None:
            fallback = fixed
        if fixed and fixed not in used:
            return fixed
    return fallback


def _publisher(
    data: dict[str, Any],
    sources: list[dict[str, Any]],
    routes: list[tuple[str, str]],
    url: str,
    owners: dict[str, str],
    builder: ImportBuilder,
) -> str | None:
    """The providers named, else the owner of the url or a route in the bundle's index,
    else the author of a source with a web link; failing those, any source's author."""
    authors = [
        str(s.get("author", "")).removeprefix("organisation:")
        for s in sources
        if str(s.get("resource", "")).startswith("http")
    ]
    names = (
        _as_list(data.get("providers"))
        + _as_list(data.get("provider"))
        + [owners.get(url, "")]
        + [owners.get(link, "") for _, link in routes]
        + authors
    )
    publisher = builder.publisher(*[n for n in names if n])
    if not publisher:
        author = next((str(s.get("author", "")).removeprefix("organisation:") for s in sources if s.get("author")), "")
        publisher = builder.publisher(author) if author else None
    return publisher
