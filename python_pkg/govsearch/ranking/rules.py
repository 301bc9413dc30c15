"""The ranking's rules and settings, in one place: what each piece of
evidence multiplies a record's score by, and the one function that applies
them, which the runtime (ranking.scoring) and the build (a common word's
best records, govsearch_build.postings_writer) both call, so their floats agree.

Other modules read the settings as `rules.NAME` at call time: a test may
change one (monkeypatch) and the next call follows it.
"""

from __future__ import annotations

import heapq
import math
from itertools import compress

from ..engine import SCORE_PLACES
from ..terms import MAX_POSTINGS, MAX_SHARD_BYTES

TIER_TARGET = 20  # looser modes are added until the answer holds this many (the largest limit)
POOL = 20  # records whose rows are read for phrase evidence (the same for every limit)
# Series (ranking.series) stand behind their best-placed record; while they leave an answer
# fewer than WINDOW_TARGET results (the tool's default limit), it reads the next window of
# POOL, up to WINDOWS in all.
WINDOW_TARGET = 8
WINDOWS = 2
RARE = 3  # a word in fewer records than this (in its commonest field) may be a typo
# A misspelt word of this many letters (its stem) may differ by two edits when no
# term is one edit from it; shorter words would reach too many others that way.
TWO_EDITS_FROM, TWO_EDITS_TO = 6, 16
# Two-edit matching builds a large automaton per word (about 20 ms in CPython for
# 16 letters): the work budget allows it for this many words of a call, letters only.
MAX_TWO_EDIT_WORDS = 2
# A word the index holds (in a few records' own typos) is read as one a typed edit away
# (ranking.respelling) only when that one is in at least this many times as many records.
COMMONER = 20

# The fields lunr indexes and how much each counts (lunr's field boosts):
# the title most, then its keywords (the words people type for a record that
# its title and summary do not say, docs/meaning.md), then who publishes it,
# then the summary, then the body. The build indexes them in this dict's order (the index's
# own, not the order of weight); the runtime reports matched fields in it.
FIELD_BOOSTS = {"title": 10, "publisher": 5, "keywords": 8, "summary": 3, "body": 1}
FIELDS = tuple(FIELD_BOOSTS)

# Build-time record flags (govsearch_build.data_writer.record_flags) and what
# each does to a record's lunr score. Reasons name the flags that applied.
FLAG_WEIGHTS = (
    ("reviewed", 1.6),  # curated or deep-evidence: facts checked by us
    ("official_page", 1.1),  # a GOV.UK page or an official service on service.gov.uk
    ("national_api_catalogue", 1.3),  # listed in the government's API catalogue
    ("local_authority_row", 0.6),  # a local council's catalogue row
    ("format_only_title", 0.5),  # titled only by its file format ("CSV", "GeoJSON")
    ("restricted_access", 0.7),  # only eligible people or organisations may use it (accessStatus "restricted")
)
# A page among GOV.UK's most visited (govsearch_build.most_visited) is what most people who type
# its words want, where the words alone cannot tell the service's own page from one about a
# corner of it ("Universal Credit" from "Universal Credit advances"): its prior is raised by its
# place on the list, x(1 + VISITED_BOOST) for the first, less by the log of its place, x1 at VISITED_PAGES.
VISITED_BOOST = 0.75
VISITED_PAGES = 1000
# ... but not where an intent word asks for these: the visits are people doing a task on GOV.UK,
# not looking for data or an API ("DVLA vehicle enquiry API" wants the API, not the service page).
# Not for "api-documentation" alone: "api" asks for both kinds anyway, and this was measured when
# "documentation" was read by its stem, every "document" ("travel document"); since session 40
# an intent word counts only as typed (SearchTerms.intent_of).
VISITS_NOT_FOR = frozenset({"dataset", "api"})
TITLE_BOOST = 1.3  # every (non-intent) query word is in the title
# any_term: the title holds TITLE_WORDS or more of the query's (topic) words, as typed: a record
# titled by two of the words is about them, where one holding more of them scattered through
# its text is often not ("EV Charging Points In Chelmsford" for "electric car charging points").
TITLE_WORDS = 2
TITLE_WORDS_BOOST = 2.0
PHRASE_BOOST = 1.25  # all adjacent pairs of the query's words adjacent in the title or summary
# A title of projections where the query names no future and no date (ranking.evidence): below
# the estimates of what is, which it otherwise ties with.
PROJECTION_FACTOR = 0.8
# A record of one devolved nation alone (evidence.of_one_devolved_nation), for a query naming no
# nation and no place: most people asking live in England, which GOV.UK's own pages cover.
DEVOLVED_FACTOR = 0.7
# A title that is a run of a long query's words (evidence._title_is_a_run): the question names it.
TITLE_RUN_FROM = 5
TITLE_RUN_BOOST = 1.5
# A query of this many words or more (stop words aside, fillers counted) is a sentence: its
# framing words are fillers there (the site's search.framing_words: "the user wants to find ...").
SENTENCE_FROM = 8
EXACT_TITLE_BOOST = 2.0  # the title is the query: its words and no others ("HMLR" and "HM Land Registry")
INTENT_BOOST = 2.0  # the record's type is one an intent word asks for: above a reviewed page's prior (1.6 x 1.1)
PLACE_BOOST = 6.0  # the record holds the place the query names beside its topic (any mode)
# Where the catalogue holds nothing local (a place none of the first results is about: LOCAL_AMONG;
# or "near me" naming none), a record whose title or summary says it finds, searches, maps or
# looks up is the answer for any place ("Find and compare schools in England" for "schools in
# Manchester"): ranking.nearby.finders_first.
FINDER_BOOST = 2.0
# Where nothing is local for a place named and no record says the council does it, the place's
# own council comes after this many results, unless one of them finds any place (ranking.councils).
COUNCIL_AFTER = 3
# ... or after this many where the answer leads with a service, not a figure (ranking.councils):
# "hmo licence brixton", "Kendal planning applications search" are done at the council.
COUNCIL_AFTER_SERVICE = 1
# Nothing is local (for the finders above and the council) unless a record about the place is
# among the first window's first this many (as the index ranks them, past any identified record):
# a place's record further down holds only part of the topic (where other councils' rows hold all
# of it), and the council's website and the finders for any place answer before it ("bin
# collection day Belfast": Belfast's record of something else).
LOCAL_AMONG = 3
# A question asking which body does something: the organisation publishing most of the answer's
# first this many results leads (ranking.kinds.body_first).
BODY_FROM = 5
# "Did you mean" offers a word only if most letters of the longer of it and the word typed are
# in both, in order ("reduncy" -> "redundancy", 7 of 10; never "harrogate" -> "harlow", 4 of 9).
SPELLING_KEEPS = 0.7
# ... and a place beside a topic counts for lunr's score this much (its clause boost): nothing.
# It ranks by PLACE_BOOST alone: a place name is a rare word, so its idf in a title would
# otherwise lift a record that names the place (a council's brownfield register) above
# the topic's own records ("population of Cornwall").
PLACE_WEIGHT = 0.0
# ... and so does an optional word ("search") beside a required one: it says what the asker wants
# done with the answer, and HM Land Registry's "Official Search" APIs, holding it as their topic,
# led "dudley planning applications search" by it (docs/ranking.md).
OPTIONAL_WEIGHT = 0.0
# any_term: each word of the query a record lacks divides its share by this (coordination),
# once for a word of average information: a record holding more of the words mostly comes
# first, its words' idf orders records holding as many.
COVERAGE = 2.0
# ... where a lacking word counts as (1 - this) of a word, plus this much of its share of the
# query's information (n words x its idf weight): a record lacking the rare word of "can i get
# universal credit if i work part time" lacks more than one lacking "work", "part" and "time".
# Between 0 and 1, so no word's lack is below 0 and no share above 1 (Coverage.scored's bound).
LACKING_BY_INFORMATION = 0.5
# ... and a word among English's commonest (search.common_words: "need", "time", "new") weighs
# this much of its idf: the estate's short texts hold it less often than speech does, so its
# idf overstates what it says of a question's topic ("can i get universal credit if i work part
# time": "work" and "time" carried "Maximum weekly working hours" above Universal Credit).
COMMON_WORD_WEIGHT = 0.5
# any_term: a related word of a query word (ranking.related) counts for lunr's score this
# much of what the word itself would (lunr's clause boost).
ALTERNATIVE_BOOST = 0.5
# Their share of the call's work: words searched (each a postings shard of its own to
# download, on a phone too), and postings scored. Counted alike in both data layouts.
ALTERNATIVES = 4
ALTERNATIVE_POSTINGS = 2_000  # 4,000 scored the same (docs/meaning.md) and cost more Python
# Only while the stricter tiers hold fewer records than a first page (the tool's default 8,
# the judged set's 10): beyond it they order records after the page, for the rows of the records they bring.
RELATED_WHILE_FEWER = 10
TIER_ORDER = {"identifier": 0, "all_terms": 1, "fuzzy": 2, "any_term": 3}


def visit_factor(place: int) -> float:
    """What a page's place on GOV.UK's most visited list (1 the most) multiplies its prior by."""
    if place >= VISITED_PAGES:
        return 1.0
    return 1 + VISITED_BOOST * (1 - math.log(place) / math.log(VISITED_PAGES))


def evidence_score(base: float, in_title: bool, intended: bool, placed: bool = False) -> float:
    """A record's score from its base (lunr's score x prior, x its share in
    any_term) and the index's evidence: every word in the title, a resource
    type an intent word asks for, the place the query names. The one place
    these boosts are applied, in this order, so the build's ranking of a
    common word and the runtime's give the same floats."""
    if in_title:
        base *= TITLE_BOOST
    if intended:
        base *= INTENT_BOOST
    if placed:
        base *= PLACE_BOOST
    return base


def largest_boost(intents: bool, places: bool) -> float:
    """The most evidence_score can multiply a base by, given whether the
    query has intent words and places that apply."""
    return TITLE_BOOST * (INTENT_BOOST if intents else 1) * (PLACE_BOOST if places else 1)


def rank_key(score: float, number: int) -> tuple[float, int]:
    """The order of records: score rounded to SCORE_PLACES (the same on every
    platform), then record number (title, then id)."""
    return -round(score, SCORE_PLACES), number


def settings() -> tuple[float, ...]:
    """The settings the first stage reads (a test may change them between calls)."""
    return (
        MAX_POSTINGS,
        MAX_SHARD_BYTES,
        RARE,
        TWO_EDITS_FROM,
        TWO_EDITS_TO,
        MAX_TWO_EDIT_WORDS,
        COMMONER,
        TIER_TARGET,
        POOL,
        COVERAGE,
        LACKING_BY_INFORMATION,
        COMMON_WORD_WEIGHT,
        ALTERNATIVE_BOOST,
        ALTERNATIVES,
        ALTERNATIVE_POSTINGS,
        RELATED_WHILE_FEWER,
        PLACE_BOOST,
        PLACE_WEIGHT,
        OPTIONAL_WEIGHT,
        TITLE_WORDS,
        TITLE_WORDS_BOOST,
    )


def evidence_settings() -> tuple[float, ...]:
    """The settings the second stage reads (ranking.evidence, stages._nothing_local,
    nearby.finders_first, councils.put_council_in, kinds.body_first), for the same reason
    as `settings`."""
    return (
        EXACT_TITLE_BOOST,
        PHRASE_BOOST,
        FINDER_BOOST,
        PROJECTION_FACTOR,
        DEVOLVED_FACTOR,
        TITLE_RUN_FROM,
        TITLE_RUN_BOOST,
        COUNCIL_AFTER,
        COUNCIL_AFTER_SERVICE,
        LOCAL_AMONG,
        BODY_FROM,
    )


def near_top(numbers: list[int], scores: list[float], room: int, bound: float) -> tuple[list[int], list[float]]:
    """The records whose score times `bound` reaches the room-th best score
    (before rounding): no other can be among the `room` best by rank_key."""
    threshold = heapq.nlargest(room, scores)[-1] / bound - 2 * 10**-SCORE_PLACES
    keep = [score >= threshold for score in scores]
    return list(compress(numbers, keep)), list(compress(scores, keep))
