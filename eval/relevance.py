"""Relevance metrics over one ranked list of URLs and a query's graded URLs.

Grades are keyed by URL, not record id, so a judgment survives records being
merged or renamed. Both sides are compared after `normalise_url`. A result
whose URL was not judged counts as grade 0, and a URL that appears again
lower in the same list gains nothing the second time: showing one resource
twice is a wasted slot, not a second right answer.

nDCG uses the exponential gain 2^grade - 1 (a grade-3 answer is worth seven
grade-1 mentions) and log2(rank + 1) discounting. The ideal list is built
from the judged grades the caller passes as reachable (by default all of
them); a query with no positive grade has no nDCG (None).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from urllib.parse import urlsplit

RELEVANT = 2  # recall and MRR count results graded at least this


def normalise_url(url: str) -> str:
    """One spelling per resource: http and https alike, host lower-cased, no
    trailing slash or `=` (the importers' seams), fragment kept."""
    parts = urlsplit(url.strip())
    text = parts.netloc.lower() + parts.path
    if parts.query:
        text += "?" + parts.query
    if parts.fragment:
        text += "#" + parts.fragment
    return text.rstrip("/=")


def normalise_grades(grades: Mapping[str, int]) -> dict[str, int]:
    """Grades keyed by normalised URL; two spellings of one URL must agree."""
    out: dict[str, int] = {}
    for url, grade in grades.items():
        key = normalise_url(url)
        if key in out and out[key] != grade:
            raise ValueError(f"{url} is graded twice ({out[key]} and {grade}) under one normalised URL")
        out[key] = grade
    return out


def keys(result: str | Sequence[str]) -> list[str]:
    """A result's normalised URLs: its own, or the several links of one
    resource (an API and its documentation page are one result)."""
    return [normalise_url(result)] if isinstance(result, str) else [normalise_url(url) for url in result]


def grade_of(result: str | Sequence[str], grades: Mapping[str, int]) -> int:
    """The best grade of a result's URLs (unjudged 0)."""
    return max((grades.get(key) or 0 for key in keys(result)), default=0)


def gains(results: Sequence[str | Sequence[str]], grades: Mapping[str, int]) -> list[int]:
    """The grade each ranked result earns: its best-graded URL not already
    shown (unjudged 0, a repeated URL 0)."""
    seen: set[str] = set()
    earned = []
    for result in results:
        fresh = [key for key in keys(result) if key not in seen]
        earned.append(max((grades.get(key, 0) for key in fresh), default=0))
        seen.update(fresh)
    return earned


def ideal_grades(
    grades: Mapping[str, int], linked: Iterable[Sequence[str]] = (), reachable: set[str] | None = None
) -> list[int]:
    """The grades a perfect list could earn. A result earns the best grade of
    its several links once (`gains`), so judged URLs one record links together
    (an API, its documentation page, the URLs of records merged into it:
    `linked`) are one ideal result, at their best grade; others (held or
    missing) count alone. Records can share a link (several operations of one
    API link its documentation page), so the ideal list is built as `gains`
    scores one: each next result is the record (or lone URL) that earns most
    of what is not yet shown, the one linking more judged URLs first."""
    graded = {url: grade for url, grade in grades.items() if reachable is None or url in reachable}
    groups = [found for found in ({key for key in keys(list(links)) if key in graded} for links in linked) if found]
    groups += [{url} for url in graded]
    seen: set[str] = set()
    earned = []
    while groups:
        fresh = [(max((graded[url] for url in group - seen), default=0), len(group), group) for group in groups]
        gain, _, best = max(fresh, key=lambda item: item[:2])
        if gain == 0:
            break
        earned.append(gain)
        seen |= best
        groups = [group for _, _, group in fresh if group - seen]
    return earned


def dcg(earned: Iterable[int], k: int) -> float:
    return sum((2**grade - 1) / math.log2(rank + 2) for rank, grade in enumerate(list(earned)[:k]))


def ndcg(
    urls: Sequence[str | Sequence[str]], grades: Mapping[str, int], k: int = 10, ideal: Iterable[int] | None = None
) -> float | None:
    """nDCG@k of the ranked URLs; `ideal` is the grades a perfect list could show.
    `ideal_grades` builds that list greedily, and where records share links a
    list can earn more than it ("Bank Wizard" holding only an API catalogue's
    documentation page, shown before "Citizen Claims" linking the catalogue
    and that page: two results at 3 where the greedy ideal shows one); a list
    that earns more is itself a better ideal, so no answer scores above 1."""
    best = dcg(sorted(grades.values() if ideal is None else ideal, reverse=True), k)
    if best == 0:
        return None
    earned = dcg(gains(urls, grades), k)
    return earned / max(best, earned)


def recall(urls: Sequence[str | Sequence[str]], grades: Mapping[str, int], k: int = 10) -> float | None:
    """Share of the relevant URLs (grade >= 2) in the top k, out of at most k."""
    relevant = {url for url, grade in grades.items() if grade >= RELEVANT}
    if not relevant:
        return None
    # A result listed under two relevant URLs (one resource, two addresses) is found once.
    found = sum(1 for result in urls[:k] if relevant & set(keys(result)))
    return min(found, len(relevant)) / min(len(relevant), k)


def reciprocal_rank(urls: Sequence[str | Sequence[str]], grades: Mapping[str, int], k: int = 10) -> float | None:
    """1 / rank of the first relevant result in the top k (0 when there is none)."""
    if not any(grade >= RELEVANT for grade in grades.values()):
        return None
    for rank, grade in enumerate(gains(urls[:k], grades), start=1):
        if grade >= RELEVANT:
            return 1 / rank
    return 0.0


def mean(values: Iterable[float | None]) -> float | None:
    numbers = [value for value in values if value is not None]
    return sum(numbers) / len(numbers) if numbers else None
