"""Row evidence: what the rows of the POOL best records show that the
index cannot (the title is the query, the query's words adjacent as typed),
and editions of one title newest first. Applied within each mode, after the
first stage, to the rows the answer shows anyway."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from . import rules
from .analysis import analysed, index_terms_near
from .query import Term
from .series import names_a_date
from .state import Ranked, in_answer_order
from .vocabulary import GROUP_MARK, NO_SEARCH_TERMS, SearchTerms


def row_evidence(
    terms: list[Term],
    ranked: list[Ranked],
    rows: list[dict[str, Any]],
    search_terms: SearchTerms,
    misspelt: frozenset[str] = frozenset(),
    here: bool = False,
) -> None:
    """Boost records whose title is the query (its words, no others) or whose
    title or summary has the query's words adjacent as typed; then reorder
    within each mode (a boost never crosses modes). A `fuzzy` record is
    compared with the query as it corrects it (each misspelt word read as
    the word of its title or summary one edit away). With an intent word in
    the query, only a record of a type it asks for, or whose title names the
    intent word, can be the query's title: `companies house api` names the
    API, not the organisation."""
    has_intent = any(term.intent for term in terms)
    present = asks_for_the_present(terms)
    nowhere = not here and names_no_nation(terms)
    for item, row in zip(ranked, rows):
        if item.mode not in ("all_terms", "fuzzy", "any_term"):
            continue  # an identifier needs no evidence
        if present and _PROJECTED.search(row.get("title", "")):
            item.score *= rules.PROJECTION_FACTOR
        if nowhere and of_one_devolved_nation(row):
            item.score *= rules.DEVOLVED_FACTOR
        texts = (row.get("title", ""), row.get("summary", ""))
        words = (
            _corrected(terms, misspelt, texts)
            if item.mode == "fuzzy"
            else [(term.typed, term.indexed) for term in terms]
        )
        named = has_intent and _names_intent(row.get("title", ""), terms, search_terms)
        if named or not has_intent or "type_matches_intent" in item.reasons:
            _exact_title(item, row, exact_words(terms, search_terms, words, with_intent=named), search_terms)
        plain = [
            indexed
            for (_, indexed), term in zip(words, terms)
            if not term.intent and not term.prefix and not term.synonym
        ]
        _adjacent_words(item, texts, plain)
        if len(terms) >= rules.TITLE_RUN_FROM and _title_is_a_run(row.get("title", ""), words, search_terms):
            item.score *= rules.TITLE_RUN_BOOST
            item.reasons.append("title_in_query")
    in_answer_order(ranked)


def _title_is_a_run(title: str, words: Sequence[tuple[str, str]], search_terms: SearchTerms) -> bool:
    """Whether the title's words (two or more; group phrases as their token) are a run of the
    query's words in their order: the question names the service ("A sole trader ... wants to
    know when they have to register for VAT" names "Register for VAT")."""
    pairs = analysed(title)
    if len(pairs) < 2 or len(pairs) >= len(words):
        return False
    own = search_terms.in_order(pairs)
    query = [indexed for _, indexed in words]
    return any(query[start : start + len(own)] == own for start in range(len(query) - len(own) + 1))


# A record of projections answers what will be ("population projections 2040"); a query naming no
# future and no date asks what is, which estimates answer: "population of Bristol" led with
# "National population projections" above "Population estimates".
_PROJECTED = re.compile(r"\b(?:projections?|projected)\b", re.IGNORECASE)
_AHEAD = frozenset({"project", "forecast", "futur", "predict"})  # index terms: "projections", "future" ...


# A nation of the UK other than England, named by a record's title or publisher ("Childcare in
# Wales", the Scottish Government's "When you need an EPC"); and a name of the UK or England,
# which a record covering them names too ("Births in England and Wales").
_DEVOLVED = re.compile(r"\b(?:Scotland|Scottish|Wales|Welsh|Northern Ireland|Cymru)\b")
_WHOLE = re.compile(r"\b(?:England|English|Britain|British|United Kingdom|UK)\b")
_NATION_WORDS = frozenset({"scotland", "scottish", "wales", "welsh", "northern", "ireland", "cymru", "ni", "nation"})


def names_no_nation(terms: Sequence[Term]) -> bool:
    """Whether the query names no nation of the UK and no place (which may lie in one)."""
    return not any(term.place or term.typed in _NATION_WORDS for term in terms)


def of_one_devolved_nation(row: Mapping[str, Any]) -> bool:
    """Whether a record is Scotland's, Wales's or Northern Ireland's alone: its title or
    publisher names that nation, and neither names the UK, Britain or England."""
    text = f"{row.get('title', '')} {row.get('publisher', '')}"
    return bool(_DEVOLVED.search(text)) and not _WHOLE.search(text)


def asks_for_the_present(terms: Sequence[Term]) -> bool:
    """Whether the query names no future ("projected", "forecast", "future") and no year or
    month; a word still being typed names the future while it may grow into one ("proj")."""
    return not names_a_date(terms) and not any(
        term.indexed in _AHEAD or (term.prefix and any(ahead.startswith(term.indexed) for ahead in _AHEAD))
        for term in terms
    )


def _exact_title(item: Ranked, row: Mapping[str, Any], query: frozenset[str], search_terms: SearchTerms) -> None:
    """Boost a record whose title is the query (not in any_term: a record
    lacking words cannot be it), or else whose page's short name is, when
    its title does not hold every word."""
    if not query:
        return
    if item.mode != "any_term" and _is_query(row.get("title", ""), query, search_terms):
        item.score *= rules.EXACT_TITLE_BOOST
        item.reasons.append("title_is_query")
    elif "all_words_in_title" not in item.reasons and _is_query(_slug_text(row.get("url", "")), query, search_terms):
        # The page's short name stands in for a title that does not name it ("Routes a user to ..." at /register-a-death).
        item.score *= rules.EXACT_TITLE_BOOST
        item.reasons.append("url_is_query")


def _names_intent(title: str, terms: Sequence[Term], search_terms: SearchTerms) -> bool:
    """Whether a title names an intent word of the query as its own ("Universal Credit
    statistics", a GOV.UK page, for "universal credit statistics"): it is the kind asked for,
    whatever its resource type says."""
    wanted = {term.indexed for term in terms if term.intent and term.typed[:-2] in title.lower()}
    return bool(wanted) and not wanted.isdisjoint(search_terms.collapsed(title))


def _adjacent_words(item: Ranked, texts: Sequence[str], plain: list[str]) -> None:
    """Boost a record whose title or summary has every adjacent pair of the
    query's plain words (index terms) adjacent, the title read first."""
    pairs = set(zip(plain, plain[1:]))
    if not pairs:
        return
    found: set[tuple[str, str]] = set()
    for text in texts:
        if found == pairs:
            break  # the title has them all: no need to analyse the summary
        if not _may_hold(text, pairs - found):
            continue
        indexed = index_terms_near(text, plain)
        found.update(pair for pair in zip(indexed, indexed[1:]) if pair in pairs)
    if found == pairs:
        item.score *= rules.PHRASE_BOOST
        item.reasons.append("words_adjacent")


def _is_query(text: str, query: frozenset[str], search_terms: SearchTerms) -> bool:
    """Whether `text`'s index terms, each group phrase as its group's token,
    are exactly the query's. When the query holds no group token, a word
    that cannot stem to a query term settles it unstemmed (index_terms_near):
    most titles and page names hold one."""
    if not any(term.endswith(GROUP_MARK) for term in query) and "" in index_terms_near(text, query):
        return False
    return search_terms.collapsed(text) == query


def _may_hold(text: str, pairs: set[tuple[str, str]]) -> bool:
    """Whether any of these pairs of index terms could be adjacent words of
    `text`, read without analysing it: Porter's stemmer keeps all but at most
    the last two letters of a stem from its word (its rules swap a suffix for
    one that adds at most two letters; at most one over the 65,000 distinct
    words of the full estate), so a stem's word holds the stem less its last
    two letters. Analysing a summary (stemming its new words) costs several
    ms in Pyodide, and most summaries hold none of a query's pairs."""
    low = text.lower()
    return any(first[:-2] in low and second[:-2] in low for first, second in pairs)


def _slug_text(url: str) -> str:
    """The words of a URL's last path part ("/register-a-death" -> "register a death"):
    a page's own short name, where its title may say something else."""
    path = url.split("?", 1)[0].split("#", 1)[0].rstrip("/")
    return "" if path.count("/") < 3 else re.sub(r"[-_+.]+", " ", path.rsplit("/", 1)[-1])


def _corrected(terms: list[Term], misspelt: frozenset[str], texts: Sequence[str]) -> list[tuple[str, str]]:
    """(typed, indexed) of each query word, a misspelt one as the first word
    of the texts one edit from it (the word the fuzzy tier matched here)."""
    held = [pair for text in texts for pair in analysed(text)]
    words = []
    for term in terms:
        near = (
            next((pair for pair in held if pair[1] != term.indexed and one_edit_apart(term.indexed, pair[1])), None)
            if term.indexed in misspelt
            else None
        )
        words.append(near or (term.typed, term.indexed))
    return words


def one_edit_apart(first: str, second: str) -> bool:
    """Whether two words differ by one insertion, deletion, substitution or
    swap of neighbours (lunr's edit distance 1)."""
    if abs(len(first) - len(second)) > 1:
        return False
    start = 0
    while start < min(len(first), len(second)) and first[start] == second[start]:
        start += 1
    a, b = first[start:], second[start:]
    return a[1:] == b[1:] or a[1:] == b or a == b[1:] or (len(a) > 1 and a[1] + a[0] + a[2:] == b)


def exact_words(
    terms: list[Term],
    search_terms: SearchTerms = NO_SEARCH_TERMS,
    words: Sequence[tuple[str, str]] = (),
    with_intent: bool = False,
) -> frozenset[str]:
    """The query's words (index terms and group tokens) a title must be
    exactly, if it can be; `words`: the query's (typed, indexed) words as
    corrected, whose phrases of a synonym group become its token again.
    Intent words only `with_intent`: for a title that names its kind."""
    if any(term.prefix for term in terms):
        return frozenset()  # a word still being typed: no title is it yet
    pairs = list(words) or [(term.typed, term.indexed) for term in terms]
    kept = [pair for pair, term in zip(pairs, terms) if with_intent or not term.intent] or pairs
    return search_terms.collapsed_pairs(kept)


def phrase_words(terms: list[Term]) -> list[str]:
    """The query's words whose order the title or summary can show (as index terms)."""
    return [term.indexed for term in terms if not term.intent and not term.prefix and not term.synonym]
