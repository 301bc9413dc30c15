"""One dataset, one record: the rows of a search-shard export that are only a
format or service of a dataset (its CSV, GeoJSON, WFS...) become links of the
dataset's own record (`formats-merged`), each link accounted for
(`links-accounted`); see okf_search_shards for the export."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..link_facts import format_name, is_file_download, service_kind
from ..titles import adds_nothing_to, is_generic_title, without_format
from ..url_identity import format_free_url
from .cleaning import MAX_ALIASES, MAX_LINKS
from .common import ImportBuilder


def fold_formats(
    rows: list[tuple[str, dict[str, Any]]], builder: ImportBuilder, codes: dict[str, str]
) -> tuple[
    list[tuple[str, dict[str, Any]]],
    dict[str, list[dict[str, str]]],
    dict[str, list[dict[str, str]]],
    dict[str, list[str]],
]:
    """One dataset's formats and services become links of its Data Product record.

    data.gov.uk lists each download (CSV, GeoJSON, KML...) and service (an
    Esri REST or WFS endpoint) of a dataset as a row titled only by its format,
    whose documentation page is the dataset's own page. Such a row is folded
    into the Data Product row with that page as its url: its link joins the
    product's links and the row is reported as merged. Rows of that page at one
    address but for a format are folded too, whatever their titles say: a layer
    offered as CSV, SHP and XLS is one thing, not three (`_format_variants`);
    what such a row calls its layer beyond its dataset's title ("Secondary
    Gritting Routes" of "Priority gritting routes") stays searchable as an alias,
    and a folded row's code title (`codes`, by file) as a keyword of the dataset.
    """
    # a dataset row whose own address cannot be used is rejected alone: nothing is folded into it
    products = {
        str(item.get("url")): (file, item)
        for file, item in rows
        if item.get("record_type") == "Data Product" and item.get("url") and builder.urls.usable(item.get("url"))
    }
    variants = _format_variants(rows, products)
    kept: list[tuple[str, dict[str, Any]]] = []
    links: dict[str, list[dict[str, str]]] = {}
    aliases: dict[str, list[dict[str, str]]] = defaultdict(list)
    folded_codes: dict[str, list[str]] = defaultdict(list)
    for file, item in rows:
        doc, raw_url, title = (
            str(item.get("documentation") or ""),
            str(item.get("url") or ""),
            builder.text(item.get("title"), "title"),
        )
        if file not in variants and (
            item.get("record_type") == "Data Product"
            or doc not in products
            or not raw_url
            or raw_url == doc
            or not _names_only_a_format_of(title, products[doc][1])
        ):
            kept.append((file, item))
            continue
        product = products[doc][0]
        url, problem = builder.urls.link(raw_url)
        _add_link(links.setdefault(doc, []), url, problem, title, products[doc][1], file, builder)
        _keep_layer_name(aliases[doc], title, products[doc][1])
        if file in codes:
            folded_codes[doc].append(codes[file])
        builder.merged_before_build(file, product, "a format or service of the dataset, listed as one of its links")
        builder.quality.note(
            "formats-merged",
            "merged",
            file,
            title,
            f"link of {product}" if url else f"merged; link not kept: {problem}",
        )
    return kept, links, {doc: found for doc, found in aliases.items() if found}, folded_codes


def _add_link(
    listed: list[dict[str, str]],
    url: str | None,
    problem: str | None,
    title: str,
    product: dict[str, Any],
    file: str,
    builder: ImportBuilder,
) -> None:
    """A folded row's link joins its dataset's links, or is counted as dropped with
    the reason (`links-accounted`): a URL that cannot be used, the same address as a
    link already listed, or the schema's limit of links reached."""
    if url is None:
        reason = f"dropped: {problem}"
    elif any(link["url"] == url for link in listed):
        reason = "dropped: the same address as a link already listed"
    elif len(listed) >= MAX_LINKS:
        reason = f"dropped: the record already lists {MAX_LINKS} links"
    else:
        link = {"title": _link_title(url, title, product), "url": url, "kind": _kind(url)}
        if url.startswith("http://"):
            link.update(title=f"{link['title']} (not encrypted)", linkSecurity="http-only")
        listed.append(link)
        kept = "kept (plain http, flagged)" if url.startswith("http://") else "kept"
        builder.quality.note_link_kept(kept, file, title, url)
        return
    builder.quality.note("links-accounted", reason, file, title, url or "")


def _keep_layer_name(aliases: list[dict[str, str]], title: str, product: dict[str, Any]) -> None:
    """A folded row's name for its layer, without its format, when it names more than its dataset."""
    name = without_format(title)
    if not _names_only_a_format_of(title, product) and len(aliases) < MAX_ALIASES:
        if all(alias["title"].lower() != name.lower() for alias in aliases):
            aliases.append({"title": name})


def _format_variants(
    rows: list[tuple[str, dict[str, Any]]], products: dict[str, tuple[str, dict[str, Any]]]
) -> set[str]:
    """The rows of a dataset's page whose address another of its rows shares but
    for a format (`url_identity.format_free_url`: GeoServer's outputFormat=csv and
    =shape-zip, ArcGIS's f=json and f=geojson): the same data in several formats,
    however each row's title names it ("Local Centre Boundaries - Local Plan
    Policy (download as SHP)" under the dataset "Local Centre Boundaries")."""
    urls: dict[tuple[str, str], set[str]] = defaultdict(set)
    files: dict[tuple[str, str], list[str]] = defaultdict(list)
    for file, item in rows:
        doc, url = str(item.get("documentation") or ""), str(item.get("url") or "")
        if item.get("record_type") != "Data Product" and doc in products and url and url != doc:
            key = (doc, format_free_url(url))
            urls[key].add(url)
            files[key].append(file)
    return {file for key, found in urls.items() if len(found) > 1 for file in files[key]}


def _link_title(url: str, title: str, product: dict[str, Any]) -> str:
    """A folded row's link is titled by its format or kind of service, unless its
    title names more than its dataset's (a layer of it): then by its own title."""
    if is_generic_title(title):
        return title
    if not _names_only_a_format_of(title, product):
        return title
    return (format_name(url) if is_file_download(url) else None) or service_kind(url, title) or title


def _kind(url: str) -> str:
    return "download" if is_file_download(url) else "service"


def _names_only_a_format_of(title: str, product: dict[str, Any]) -> bool:
    """A row whose title names only a format or its server, or its dataset again with
    a format ("Conservation Areas (download as CSV)"), is a way to get that dataset."""
    return is_generic_title(title) or adds_nothing_to(
        title, str(product.get("title") or ""), str(product.get("publisher_title") or "")
    )
