"""The second ranking stage: lunr finds and scores, this package orders what it found.

lunr stays the first stage (its scores are lunr.js's, to the last bit). Over
its candidates this package adds, deterministically and in every layout alike
(docs/ranking.md):

- match modes that keep good answers: every word (`all_terms`), then every
  word with misspelt ones corrected (`fuzzy`), then any word (`any_term`);
  a looser mode's records come below the stricter ones', and looser modes
  are tried while the answer has fewer than TIER_TARGET records;
- a record prior from the build (reviewed, official and national records
  above bulk local catalogue rows and format-named rows);
- title evidence (every word in the title), phrase evidence (words adjacent
  as typed) and intent words (`api`, `dataset` ...) preferring resource types;
- which fields matched which words, and the rules that applied, per result.

Its rooms: `rules` (every setting and the one scoring function the build
calls too), `prior` (record flags), `identifiers`, `analysis` and `query`
(words, synonym groups, intents, places, fillers, clauses), `budget`,
`tiers`, `index_evidence`, `coverage`, `scoring`, `evidence` (rows),
`suggestions`, `learned` (the first page re-weighed last, by weights fitted on
judged queries), and `stages`, which runs them all.
"""

from .identifiers import identifier_key, identifier_keys, name_key
from .index_evidence import read_areas, titles_a_body
from .prior import RankingData, flag_code
from .stages import answer
from .state import Answer, QueryState, Ranked
from .suggestions import matched_fields, suggestion

__all__ = [
    "Answer",
    "QueryState",
    "Ranked",
    "RankingData",
    "answer",
    "flag_code",
    "identifier_key",
    "identifier_keys",
    "name_key",
    "read_areas",
    "titles_a_body",
    "matched_fields",
    "suggestion",
]
