"""The sharded layout answers exactly as the single lunr index does.

Same refs, order, scores, totals and facets for hundreds of queries, with and
without filters; and a tampered shard fails closed mid-query.
"""

import gc
import hashlib
import json
import random
import re
import shutil
from pathlib import Path

import pytest

from govsearch import Catalogue, DirectoryLoader, FetchingLoader, to_json
from govsearch import sharded as sharded_module
from govsearch.format import decode_column
from govsearch.loaders import MissingFiles
from govsearch.ranking import identifier_key, rules, series
from govsearch.ranking.query import MATCH_MODES, Term, clauses_for, query_terms
from govsearch.session import Session
from govsearch.terms import Clause
from govsearch_build import data_writer, postings_writer, shard_writer
from govsearch_build.config import load_config
from govsearch_build.data_files import ROW_FIELDS
from govsearch_build.data_writer import write_data
from govsearch_build.records import Record, load_content
from sitefixture import curated_record

REPO = Path(__file__).resolve().parents[1]
FILTERS = [
    {},
    {"collections": ["ons", "government-apis"]},
    {"resourceTypes": ["api", "dataset"], "limit": 20},
    {"accessStatuses": ["public"], "publishers": ["HM Land Registry", "Office for National Statistics"]},
]


@pytest.fixture(scope="module")
def layouts(tmp_path_factory):
    loaded = load_content(REPO / "site" / "content")
    assert len(loaded.records) >= 400 and not loaded.rejected
    config = load_config(REPO / "site" / "site.toml")
    sites = {}
    # Small pages and profile chunks, so a few hundred records span many of each, as an estate does;
    # and words in 20 records summarised (their best 25, and 20 a value), so every test
    # comparing the layouts checks the summaries too. Every record here is curated, so none has
    # its row read ahead, or no search would read a row shard (an estate's imports do; the rows
    # read ahead have a test of their own).
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(shard_writer, "PAGE", 4)
        patch.setattr(shard_writer, "AHEAD_ROWS", 0)
        patch.setattr(data_writer, "PROFILES_PER_CHUNK", 37)
        patch.setattr(postings_writer, "SUMMARY_FROM", 20)
        patch.setattr(postings_writer, "SUMMARY_BEST", 25)  # fewer than most summarised words' records
        for layout in ("single", "sharded"):
            site = tmp_path_factory.mktemp(layout)
            manifest = write_data(config, loaded.records, site / "data", layout=layout)
            assert manifest["layout"] == layout
            sites[layout] = site
    directory = json.loads((sites["sharded"] / "data" / manifest["files"]["directory"]["path"]).read_bytes())
    assert len(directory["postings"]["pages"]) > 2 and len(directory["rows"]["pages"]) > 2
    return sites, loaded.records


def queries(records, count=220):
    """Words, pairs, typos and prefixes drawn from the corpus's own titles."""
    rng = random.Random(2026)
    words = sorted({w for r in records for w in re.findall(r"[A-Za-z]{3,}", r.data["title"])})
    picked = rng.sample(words, 90)
    pairs = [" ".join(rng.sample(words, 2)) for _ in range(60)]
    typos = []
    for word in rng.sample([w for w in words if len(w) >= 6], 50):
        at = rng.randrange(1, len(word) - 1)
        typos.append(word[:at] + word[at + 1 :])
    prefixes = [w[:4] for w in rng.sample(words, 30)]
    extra = ["the of", "api:key +vat -land", "house~1 price^2", '"land registry"']
    return (picked + pairs + typos + prefixes + extra)[: count + len(extra)]


def test_sharded_answers_equal_single(layouts):
    sites, records = layouts
    single = Catalogue.open(DirectoryLoader(sites["single"]))
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))
    compared = found = 0
    modes = set()
    for text in queries(records):
        for filters in FILTERS:
            for prefix_last in (False, True):
                arguments = {"query": text, **filters}
                expected = to_json(single.call("search_government_knowledge", arguments, prefix_last=prefix_last))
                assert (
                    to_json(sharded.call("search_government_knowledge", arguments, prefix_last=prefix_last)) == expected
                ), (arguments, prefix_last)
                result = json.loads(expected)
                compared += 1
                found += result["total"] > 0
                modes.add(result["match_mode"])
    assert compared >= 200 * len(FILTERS) and found > compared // 3
    assert modes == {"all_terms", "any_term", "fuzzy"}


def test_a_common_word_answered_from_its_summary_equals_scoring_every_record(layouts, monkeypatch):
    """The build summarises a word in many records (its best records ranked,
    its records per profile): a one-word search for it answers from that,
    exactly as the single layout's full scoring does, with filters too, and
    scores nothing unless the summary cannot tell (a later page, filters
    leaving too few of its best)."""
    from govsearch.ranking import tiers

    sites, _ = layouts
    single = Catalogue.open(DirectoryLoader(sites["single"]))
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))
    words = list(summarised_words(sharded))
    assert len(words) >= 20
    answered = []
    summarised = tiers.summarised

    beyond_the_best = []  # answers taking records the summary holds for a filter's value

    def counting(state, terms, clauses):
        tier = summarised(state, terms, clauses)
        engine = state.engine
        answered.append(tier is not None and tier.matches._scores is None)
        if tier is not None:
            summary = engine.matcher.summary(clauses[0])
            general = {number for number, _, _ in summary.best[: summary.general]}
            beyond_the_best.append(any(item.number not in general for item in tier.best))
        return tier

    monkeypatch.setattr(tiers, "summarised", counting)
    one_value = [{"resourceTypes": ["dataset"]}, {"collections": ["land-registry"]}, {"accessStatuses": ["public"]}]
    for word in words:
        for filters in FILTERS + one_value:
            for offset in (0, 20):
                arguments = {"query": word, **filters}
                got = sharded.call("search_government_knowledge", arguments, offset=offset)
                assert got == single.call("search_government_knowledge", arguments, offset=offset), (arguments, offset)
    assert sum(answered) >= len(words)  # at least the unfiltered first pages, unscored
    assert not all(answered)  # and the other cases were met too
    assert sum(beyond_the_best) >= 5


def test_any_term_shares_left_out_change_no_answer(layouts, monkeypatch):
    """The any-term tier works out shares only for records that can reach
    the answer (ranking.coverage.Coverage.scored): working out every share answers the same."""
    from operator import mul

    from govsearch.ranking.coverage import Coverage

    sites, records = layouts
    rng = random.Random(11)
    words = sorted({w for r in records for w in re.findall(r"[A-Za-z]{3,}", r.data["title"])})
    texts = [" ".join(rng.sample(words, rng.choice((2, 3))) + rng.choice(([], ["api"], ["data"]))) for _ in range(150)]
    pruned_records = []
    scored = Coverage.scored

    def counting(self, numbers, base, room, boost):
        kept = scored(self, numbers, base, room, boost)
        pruned_records.append(len(numbers) - len(kept[0]))
        return kept

    def answers():
        catalogue = Catalogue.open(DirectoryLoader(sites["sharded"]))
        return [to_json(catalogue.call("search_government_knowledge", {"query": text, "limit": 20})) for text in texts]

    monkeypatch.setattr(Coverage, "scored", counting)
    pruned = answers()
    assert sum(pruned_records) > 1000  # the rule left many records out
    monkeypatch.setattr(
        Coverage,
        "scored",
        lambda self, numbers, base, room, boost: (numbers, list(map(mul, base, self.shares(numbers)))),
    )
    assert answers() == pruned


def raw_scores(catalogue, records, three_word_queries):
    """Unrounded lunr scores of every clause list the tool would try."""
    answers = []
    for text in queries(records) + three_word_queries:
        for prefix_last in (False, True):
            terms = query_terms(text, prefix_last=prefix_last)
            for mode in MATCH_MODES:
                if terms:
                    answers.append(catalogue.engine.matcher.match(clauses_for(terms, mode)))
    return answers


def test_a_lone_term_weighed_zero_scores_zero_as_lunr_does(layouts):
    """A clause can weigh 0 in lunr's query (a place word beside a word being
    typed that reaches no index term: "Glens which"). lunr scores such a
    query 0 for every record it matches (its query vector has no length); the
    sharded matcher's one-term shortcut must not score it by the term's
    weights, or the browser would rank what the command line does not."""
    sites, _ = layouts
    single, sharded = (
        Catalogue.open(DirectoryLoader(sites[layout])).engine.matcher for layout in ("single", "sharded")
    )
    for term in ("glen", "land", "flood"):
        for reaching_nothing in ([], [Clause("which", "optional", wildcard=True)]):
            clauses = [Clause(term, "optional", boost=0.0), *reaching_nothing]
            expected = single.match(clauses)
            assert expected and set(expected.values()) == {0}, term
            assert sharded.match(clauses) == expected, term


@pytest.mark.parametrize("query", ["Epping Forest District Council", "forest epping district"])
def test_a_rare_place_whose_stem_is_short_is_not_read_as_a_typo_in_either_layout(layouts, query):
    """ "epping" is stemmed "ep": one edit from it reaches "e", "et" and "up",
    no typo of the place. Read as a possible typo, that reach cost more shard
    bytes than the sharded layout's budget allowed, so the place was left out
    there, with a notice that it was "in too many records", and the order
    differed from the single layout's."""
    sites, _ = layouts
    arguments = {"query": query, "limit": 20}
    single, sharded = (
        to_json(Catalogue.open(DirectoryLoader(sites[layout])).call("search_government_knowledge", arguments))
        for layout in ("single", "sharded")
    )
    assert sharded == single
    answer = json.loads(single)
    assert answer["results"][0]["title"] == "Epping Forest District Council"
    assert not [notice for notice in answer.get("notices", []) if "epping" in notice["message"]]


@pytest.mark.parametrize("search_from", [0, 16, 10**9])  # first ranks by set intersection, both ways, by bisection
def test_sharded_scores_equal_lunr_to_the_last_bit(layouts, monkeypatch, search_from):
    """Not just to six places: lunr adds a record's field scores in the order
    it first meets them, and the sharded matcher must add them in that order."""
    monkeypatch.setattr(sharded_module.matcher, "SEARCH_FROM", search_from)
    sites, records = layouts
    rng = random.Random(9)
    words = sorted({w for r in records for w in re.findall(r"[A-Za-z]{4,}", r.data["summary"])})
    three = [" ".join(rng.sample(words, 3)) for _ in range(150)]
    expected = raw_scores(Catalogue.open(DirectoryLoader(sites["single"])), records, three)
    assert raw_scores(Catalogue.open(DirectoryLoader(sites["sharded"])), records, three) == expected
    # Summing in plain field order instead differs for some record: the test can see the order.
    monkeypatch.setattr(sharded_module.matcher, "_resum_out_of_order", lambda *args: None)
    assert raw_scores(Catalogue.open(DirectoryLoader(sites["sharded"])), records, three) != expected


def test_record_lookups_agree(layouts):
    sites, records = layouts
    single = Catalogue.open(DirectoryLoader(sites["single"]))
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))

    def answer(catalogue, layout, arguments):
        # A citation names its own build's manifest (the snapshot): the one thing two layouts of
        # the same records may not share. Everything else must be the same.
        digest = hashlib.sha256((sites[layout] / "data" / "manifest.json").read_bytes()).hexdigest()
        text = json.dumps(catalogue.call("get_resource_record", arguments))
        assert "error" in text or digest in text
        return text.replace(digest, "MANIFEST").replace(digest[:12], "MANIFEST")

    for record in records:
        arguments = {"recordId": record.id}
        assert answer(sharded, "sharded", arguments) == answer(single, "single", arguments)
    assert sharded.call("get_resource_record", {"recordId": "zzz-not-here"})["error"]["code"] == "not_found"


class CountingLoader(DirectoryLoader):
    def __init__(self, site):
        super().__init__(site)
        self.read_bytes = 0
        self.names = []

    def read(self, name):
        data = super().read(name)
        self.read_bytes += len(data)
        self.names.append(name)
        return data


def test_a_query_reads_a_small_part_of_the_data(layouts):
    sites, _ = layouts
    loader = CountingLoader(sites["sharded"])
    catalogue = Catalogue.open(loader)
    catalogue.call("search_government_knowledge", {"query": "land registry price"})
    # What the single layout must fetch before it can answer anything.
    whole = sum(path.stat().st_size for path in (sites["single"] / "data").glob("*.json"))
    assert loader.read_bytes < whole / 2, (loader.read_bytes, whole)


def test_tampered_shard_fails_closed_mid_query(layouts, tmp_path):
    sites, _ = layouts
    copy = tmp_path / "site"
    shutil.copytree(sites["sharded"], copy)
    for shard in (copy / "data" / "postings").glob("*.json"):
        shard.write_bytes(shard.read_bytes().replace(b'"i":', b'"i": '))
    catalogue = Catalogue.open(DirectoryLoader(copy))  # the directory itself is intact
    result = catalogue.call("search_government_knowledge", {"query": "land registry"})
    assert result["ok"] is False and result["error"]["code"] == "site_unavailable"
    assert "integrity" in result["error"]["message"]


def test_a_small_shard_cache_keeps_its_budget_and_the_answers(layouts):
    sites, records = layouts
    single = Catalogue.open(DirectoryLoader(sites["single"]))
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))
    shards = sharded.store.shards
    shards.cache_bytes = 64 * 1024  # a few shards: most reads evict
    evicted = 0
    for text in queries(records)[:80]:
        arguments = {"query": text, "limit": 20}
        before = len(shards._cache)
        assert to_json(sharded.call("search_government_knowledge", arguments)) == to_json(
            single.call("search_government_knowledge", arguments)
        )
        assert shards.cached_bytes <= shards.cache_bytes or len(shards._cache) == 1
        evicted += before >= len(shards._cache)
    assert evicted > 10


def test_the_browser_loader_keeps_no_second_copy_of_a_file(layouts, tmp_path):
    """In the worker, downloaded files sit on Pyodide's in-memory disk: read once, they go."""
    sites, _ = layouts
    copy = tmp_path / "site"
    shutil.copytree(sites["sharded"], copy)
    loader = FetchingLoader(copy, "http://127.0.0.1:9/data/")
    catalogue = Catalogue.open(loader)
    before = {p for p in (copy / "data").rglob("*.json")}
    assert catalogue.call("search_government_knowledge", {"query": "land registry"})["ok"]
    read = before - {p for p in (copy / "data").rglob("*.json")}
    assert any("postings" in p.parts for p in read)
    assert not (copy / "data" / "manifest.json").exists()
    # Gone from disk and dropped from the cache: the next read asks for a download.
    shards = catalogue.store.shards
    shards._cache.clear()
    catalogue.engine.forget()
    loader.deferring = True
    with pytest.raises(MissingFiles):
        catalogue.call("search_government_knowledge", {"query": "land registry"})


def test_warming_comes_in_small_pieces_and_ends(layouts):
    """The worker warms one piece per idle moment, so a call waits for one piece at most."""
    sites, _ = layouts
    session = Session(DirectoryLoader(sites["sharded"]))
    pieces = 1
    while session.warm():
        pieces += 1
    assert pieces >= 3 and session.warm() is False
    engine = session.catalogue.engine
    assert engine.matcher._token_set is not None
    assert gc.get_freeze_count() > 0  # the last piece took what was built out of the collector's walks


def rare_word(catalogue):
    """A word in a few records: its postings carry no rows, so results come from row shards."""
    shards = catalogue.store.shards
    for entry in shards.postings:
        for term, posting in shards.read(entry, "postings")["terms"].items():
            if "r" not in posting and [t.indexed for t in query_terms(term)] == [term] and len(posting["f"]) > 1:
                return term
    raise AssertionError("no rare word")


@pytest.mark.parametrize("kind", ["rows", "records", "pools"])
def test_tampered_row_or_record_shard_fails_closed(layouts, tmp_path, kind):
    """Row and record shards are listed by a 128-bit sha256 prefix, pools files by
    their summary's full sha256: one added byte is still refused."""
    sites, _ = layouts
    copy = tmp_path / "site"
    shutil.copytree(sites["sharded"], copy)
    for shard in (copy / "data" / kind).glob("*.json"):
        shard.write_bytes(shard.read_bytes() + b" ")  # still valid JSON
    catalogue = Catalogue.open(DirectoryLoader(copy))
    if kind == "rows":
        result = catalogue.call("search_government_knowledge", {"query": rare_word(catalogue)})
    elif kind == "pools":
        words = summarised_words(catalogue)
        word = max(words, key=lambda w: (len(words[w]["n"]), w))  # its later page needs its pools file
        result = catalogue.call("search_government_knowledge", {"query": word, "limit": 20}, offset=20)
    else:
        result = catalogue.call("get_resource_record", {"recordId": "companies-house-api"})
    assert result["ok"] is False and result["error"]["code"] == "site_unavailable"
    assert "integrity" in result["error"]["message"]


def test_a_tampered_profile_chunk_fails_closed(layouts, tmp_path):
    """Each record's profile comes in a chunk the facets file vouches for: a changed chunk is refused."""
    sites, _ = layouts
    copy = tmp_path / "site"
    shutil.copytree(sites["sharded"], copy)
    chunks = sorted((copy / "data" / "profiles").glob("*.json"))
    assert len(chunks) > 2
    for chunk in chunks:
        chunk.write_bytes(chunk.read_bytes() + b" ")
    result = Catalogue.open(DirectoryLoader(copy)).call("search_government_knowledge", {"query": "land registry"})
    assert result["ok"] is False and result["error"]["code"] == "site_unavailable"
    assert "integrity" in result["error"]["message"]


def test_shards_listed_without_enough_of_a_sha256_are_refused(layouts, tmp_path):
    sites, _ = layouts
    copy = tmp_path / "site"
    shutil.copytree(sites["sharded"], copy)
    catalogue = Catalogue.open(DirectoryLoader(copy))
    hashes = catalogue.store.shards.listed["rows"].hashes  # the pages listing the row shards
    hashes[:] = [digest[:31] for digest in hashes]  # 124 bits: not enough to vouch
    result = catalogue.call("search_government_knowledge", {"query": rare_word(catalogue)})
    assert result["ok"] is False and result["error"]["code"] == "site_unavailable"
    assert "does not vouch" in result["error"]["message"]


def test_warming_prepares_expansion_without_changing_answers(layouts):
    sites, _ = layouts
    loader = CountingLoader(sites["sharded"])
    catalogue = Catalogue.open(loader)
    before = loader.read_bytes
    catalogue.engine.warm()
    assert loader.read_bytes > before  # the vocabulary was read now, not at the first keystroke
    cold = Catalogue.open(DirectoryLoader(sites["sharded"]))
    arguments = {"query": "hous"}
    assert catalogue.call("search_government_knowledge", arguments, prefix_last=True) == cold.call(
        "search_government_knowledge", arguments, prefix_last=True
    )


@pytest.mark.parametrize(
    ("tool", "arguments", "prefix_last"),
    [
        ("search_government_knowledge", {"query": "land registry price data"}, False),
        ("search_government_knowledge", {"query": "statistcs populaton"}, False),
        ("search_government_knowledge", {"query": "house pri"}, True),
        ("get_resource_record", {"recordId": "about-price-paid-data"}, False),
    ],
)
def test_the_browser_path_fetches_a_calls_files_in_few_parallel_rounds(layouts, tmp_path, tool, arguments, prefix_last):
    """Session.attempt names every missing file of a step at once; the answer equals the direct one."""
    sites, _ = layouts
    rounds, answer = browser_rounds(sites["sharded"], tmp_path, tool, arguments, prefix_last)
    asked = [name for names in rounds for name in names]
    assert all(rounds) and len(asked) == len(set(asked)), "a file was asked for twice"
    # Rounds: directory page, postings, (vocabulary,) the matches' profile chunks, row
    # page, rows. Pages and chunks keep the first answer's bytes flat at any estate size.
    assert len(rounds) <= 6
    expected = Session(DirectoryLoader(sites["sharded"])).answer_sync(tool, json.dumps(arguments), prefix_last)
    assert answer == expected and json.loads(answer)["ok"] is True


def test_a_towns_council_area_comes_in_the_rounds_of_the_querys_own_words(layouts, tmp_path):
    """A query naming a town reads its council area's words too ("skegness": Lincolnshire's,
    ranking.read_areas): with the query's, so naming a town costs the visitor no extra round."""
    sites, _ = layouts
    search = "search_government_knowledge"
    town, answer = browser_rounds(sites["sharded"], tmp_path, search, {"query": "report a pothole skegness"})
    plain, _ = browser_rounds(sites["sharded"], tmp_path, search, {"query": "report a pothole"})
    assert "Lincolnshire County Council" in [item["title"] for item in json.loads(answer)["results"][:3]]
    assert len(town) <= len(plain), (town, plain)


def browser_rounds(site, work, tool, arguments, prefix_last=False, with_up_front=True, idle=False, offset=0):
    """Answer a call as the worker does (in a copy under `work` that starts with what
    the worker downloads at start): the files each round asks for, then the answer.
    `idle`: first warm, fetch the files later searches need and read them, as the
    worker does while nobody waits; the files warming asked for come first in the list of rounds."""
    data = site / "data"
    partial = work / "partial-site"
    shutil.rmtree(partial, ignore_errors=True)
    (partial / "data").mkdir(parents=True)
    manifest = json.loads((data / "manifest.json").read_text("utf-8"))
    up_front = [entry["path"] for entry in manifest.get("upFront", [])] if with_up_front else []

    def download(names):
        for name in names:
            (partial / "data" / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(data / name, partial / "data" / name)

    download(["manifest.json"] + [entry["path"] for entry in manifest["files"].values()] + up_front)
    session = Session(FetchingLoader(partial, "https://unused.invalid/data/"))
    rounds = []
    while idle and (more := session.warm()):
        if isinstance(more, list):
            rounds.append(more)
            download(more)
    if idle:
        download(name for name in session.later_files() if not (partial / "data" / name).exists())
        while session.read_ahead():
            pass
    text = json.dumps(arguments)
    answer = session.attempt(tool, text, prefix_last, offset)
    while isinstance(answer, list):
        rounds.append(answer)
        download(answer)
        answer = session.attempt(tool, text, prefix_last, offset)
    return rounds, answer


def test_while_idle_the_worker_fetches_what_later_searches_need_so_they_take_fewer_rounds(layouts, tmp_path):
    """Every record's profile and the pages locating postings, row and identifier shards
    come while nobody waits: a later search downloads only its own shards."""
    sites, _ = layouts
    site = sites["sharded"]
    data = site / "data"
    later = Session(DirectoryLoader(site)).later_files()
    assert sorted(name for name in later if name.startswith("profiles/")) == sorted(
        path.relative_to(data).as_posix() for path in (data / "profiles").glob("*.json")
    )
    assert {name.split("/")[1] for name in later if name.startswith("directory/")} == {
        "postings",
        "rows",
        "identifiers",
    }
    # A filtered search whose answer needs row evidence (some, such as "land registry price data",
    # find every row they show beside their postings: one round).
    arguments = {"query": "companies house data", "collections": ["land-registry"]}
    cold, expected = browser_rounds(site, tmp_path, "search_government_knowledge", arguments, with_up_front=False)
    rounds, answer = browser_rounds(
        site, tmp_path, "search_government_knowledge", arguments, with_up_front=False, idle=True
    )
    assert answer == expected
    vocabulary = Catalogue.open(DirectoryLoader(site)).store.shards.directory["vocabulary"]["path"]
    assert rounds[0] == [vocabulary]  # warming's own round
    # Then only its own shards: its words' postings (which carry the postings of their related
    # words, searched as it falls to any_term), then the rows it shows.
    kinds = [sorted({name.split("/")[0] for name in names}) for names in rounds[1:]]
    assert kinds == [["postings"], ["rows"]], rounds
    assert len(cold) >= 4, cold  # directory page, postings, profile chunks, row page, rows


def test_after_idle_a_query_naming_a_body_takes_no_round_for_a_directory_page(layouts, tmp_path):
    """A body's whole name is looked up in an identifier shard once its words' postings say
    a body is so titled (tools._may_name_a_body). The page locating that shard comes while
    nobody waits, as the postings' and rows' pages do: the query's rounds are its own shards."""
    sites, _ = layouts
    site = sites["sharded"]
    assert any(name.startswith("directory/identifiers/") for name in Session(DirectoryLoader(site)).later_files())
    arguments = {"query": "Companies House"}
    cold, expected = browser_rounds(site, tmp_path, "search_government_knowledge", arguments, with_up_front=False)
    rounds, answer = browser_rounds(
        site, tmp_path, "search_government_knowledge", arguments, with_up_front=False, idle=True
    )
    assert answer == expected and json.loads(answer)["results"][0]["resourceType"] == "organisation"
    assert any(name.startswith("directory/identifiers/") for names in cold for name in names), cold
    kinds = [sorted({name.split("/")[0] for name in names}) for names in rounds[1:]]
    assert "directory" not in {kind for names in kinds for kind in names} and ["identifiers"] in kinds, rounds


def test_rows_of_authored_records_are_read_ahead_so_a_later_search_fetches_row_shards_only_for_imports(
    tmp_path, monkeypatch
):
    """Our authored records fill about half of the answers' places: once the
    worker has read their rows while idle, a search downloads row shards for
    the imported records it shows alone, and answers as it would have."""

    def flood_record(number, title, kind):
        data = {
            "id": f"{kind}-{number:02d}",
            "title": f"{title} {number:02d}",
            "summary": "Flood warnings and river levels.",
            "url": f"https://www.gov.uk/{kind}-{number:02d}",
            "resourceType": "guidance",
            "publisher": "Environment Agency",
            "accessStatus": "public",
            "collection": "uk-living",
            "source": {"kind": kind},
        }
        return Record(file=f"{kind}-{number:02d}.md", data=data, body="")

    # Numbered by title: the curated records fill row shard 0, the imported ones shard 1.
    per_shard = shard_writer.ROWS_PER_SHARD
    records = [flood_record(n, "Apple flood guide", "curated") for n in range(per_shard)]
    records += [flood_record(n, "Zebra flood data", "okf-search-shards") for n in range(per_shard)]
    site = tmp_path / "site"
    monkeypatch.setattr(postings_writer, "TOP_ROWS_FROM", len(records) + 1)  # no word's postings carry rows
    write_data(load_config(REPO / "site" / "site.toml"), records, site / "data", layout="sharded")
    arguments = {"query": "flood", "limit": 20}
    rows_fetched, answers = {}, {}
    for idle in (False, True):
        rounds, answers[idle] = browser_rounds(
            site, tmp_path, "search_government_knowledge", arguments, with_up_front=False, idle=idle
        )
        rows_fetched[idle] = sorted(
            name.split(".")[0] for names in rounds for name in names if name.startswith("rows/")
        )
    shown = {result["id"].split("-")[0] for result in json.loads(answers[True])["results"]}
    assert answers[True] == answers[False] and shown == {"curated", "okf"}
    assert rows_fetched == {False: ["rows/00000", "rows/00001"], True: ["rows/00001"]}
    ahead = sorted(path.relative_to(site / "data").as_posix() for path in (site / "data" / "ahead").glob("*.json"))
    assert (
        ahead and [name for name in Session(DirectoryLoader(site)).later_files() if name.startswith("ahead/")] == ahead
    )
    rounds, _ = browser_rounds(
        site, tmp_path, "search_government_knowledge", {"query": "apple"}, with_up_front=False, idle=True
    )
    assert not [name for names in rounds for name in names if name.startswith("rows/")]


def test_reading_ahead_while_idle_leaves_a_later_search_only_its_own_shards_to_read(layouts):
    """Once fetched ahead, the profile chunks and the pages locating shards are
    read (checked and decoded) while nobody waits, a few per piece: a later
    search then reads its postings and rows only, and answers the same."""
    sites, _ = layouts
    site = sites["sharded"]
    arguments = json.dumps({"query": "land registry price data", "collections": ["land-registry"]})
    expected = Session(DirectoryLoader(site)).answer_sync("search_government_knowledge", arguments)
    read = {}
    for ahead in (False, True):
        loader = CountingLoader(site)
        session = Session(loader)
        while session.warm():
            pass
        pieces = 0
        while ahead and session.read_ahead():
            pieces += 1
        before = len(loader.names)
        assert session.answer_sync("search_government_knowledge", arguments) == expected
        read[ahead] = {name.split("/")[0] for name in loader.names[before:]}
        if ahead:
            assert pieces >= 2 and session.later_files() == []
    assert {"profiles", "directory"} <= read[False]
    assert read[True] and read[True] <= {"postings", "rows", "pools"}, read[True]


def test_reading_ahead_leaves_a_file_that_never_arrived_for_the_search_that_needs_it(layouts, tmp_path):
    sites, _ = layouts
    copy = tmp_path / "site"
    shutil.copytree(sites["sharded"], copy)
    chunk = sorted((copy / "data" / "profiles").glob("*.json"))[1]
    chunk.unlink()
    session = Session(FetchingLoader(copy, "https://unused.invalid/data/"))
    while session.read_ahead():
        pass
    assert session.later_files() == [chunk.relative_to(copy / "data").as_posix()]


def test_warming_fetches_the_vocabulary_in_its_own_round_and_leaves_out_a_file_that_never_arrives(layouts, tmp_path):
    sites, _ = layouts
    partial = tmp_path / "site"
    shutil.copytree(sites["sharded"], partial)
    session = Session(FetchingLoader(partial, "https://unused.invalid/data/"))
    directory = session.catalogue.store.shards.directory
    (partial / "data" / directory["vocabulary"]["path"]).unlink()
    asked = []
    while more := session.warm():
        if isinstance(more, list):
            asked.append(more)
            assert len(asked) < 10, "warming asks for the same files again and again"
    assert asked == [[directory["vocabulary"]["path"]]]  # once; not again once its download failed
    assert gc.get_freeze_count() > 0  # the later pieces still ran


def test_a_small_sharded_site_sends_its_indexes_up_front_and_a_search_skips_their_rounds(layouts, tmp_path):
    sites, _ = layouts
    manifest = json.loads((sites["sharded"] / "data" / "manifest.json").read_text("utf-8"))
    sent = [entry["path"] for entry in manifest["upFront"]]
    assert any(name.startswith("profiles/") for name in sent) and any(
        name.startswith("directory/postings/") for name in sent
    )
    arguments = {"query": "land registry price data"}
    before, answer_before = browser_rounds(
        sites["sharded"], tmp_path, "search_government_knowledge", arguments, with_up_front=False
    )
    after, answer_after = browser_rounds(sites["sharded"], tmp_path, "search_government_knowledge", arguments)
    assert answer_after == answer_before
    assert not {name for names in after for name in names} & set(sent)
    assert len(after) <= len(before) - 2, (before, after)


def test_only_small_indexes_go_up_front():
    def entry(size):
        return {"path": "x", "sha256": "0" * 64, "size": size}

    written = [
        ("facets", entry(500)),
        ("profiles/00000", entry(100)),
        ("directory/postings/00000", entry(100)),
        ("directory/rows/00000", entry(100)),
        ("directory/records/00000", entry(100)),
        ("postings/00000", entry(100)),
    ]
    assert data_writer.small_indexes(written) == [written[1][1], written[2][1], written[3][1]]
    written[1] = ("profiles/00000", entry(data_writer.UP_FRONT_BYTES))
    assert data_writer.small_indexes(written) == []


def test_a_common_words_postings_carry_its_best_rows(layouts, tmp_path):
    """A one-word search for a word in many records downloads its postings and
    nothing more (a summarised word: its summary file, its postings without the columns)."""
    sites, _ = layouts
    site = tmp_path / "sharded"
    shutil.copytree(sites["sharded"], site)
    directory = Catalogue.open(DirectoryLoader(site)).store.shards
    postings = {
        term: posting
        for entry in directory.postings
        for term, posting in directory.read(entry, "postings")["terms"].items()
    }
    for term, posting in postings.items():
        # every word in TOP_ROWS_FROM records or more carries its best rows; a rarer one carries none
        holders = {n for column in posting["f"].values() for n in decode_column(column)[0]}
        expected = min(len(holders), postings_writer.TOP_ROWS) if len(holders) >= postings_writer.TOP_ROWS_FROM else 0
        carried = posting.get("r", ())
        assert len(carried) >= expected, term
        # Beyond its best: its next window, when its first is mostly one series (series_sites, below),
        # or the newest edition of a carried record's series (a row's last field names it).
        first = [series.group_of(dict(zip(ROW_FIELDS, row[1:]))) for row in carried[: rules.POOL]]
        next_window = len(series.grouped(first)) < rules.WINDOW_TARGET <= len(holders)
        for at in range(expected, len(carried)):
            assert next_window or carried[at][0] in {row[-1] for row in carried[:at]}, term
    carrying = [term for term, posting in postings.items() if len(posting.get("r", ())) == postings_writer.TOP_ROWS]
    # (not a word that could be an identifier, such as a year: its search looks identifiers up too)
    words = [term for term in carrying if [t.indexed for t in query_terms(term)] == [term] and not identifier_key(term)]
    assert len(words) >= 3
    for word in words[:5]:
        arguments = {"query": word, "limit": 20}
        rounds, answer = browser_rounds(site, tmp_path, "search_government_knowledge", arguments)
        # its postings only (the directory pages and profile chunks came up front): no row shard
        kind = "summaries" if "s" in postings[word] else "postings"
        assert [sorted({name.split("/")[0] for name in names}) for names in rounds] == [[kind]], (word, rounds)
        without, _ = browser_rounds(site, tmp_path, "search_government_knowledge", arguments, with_up_front=False)
        assert [sorted({name.split("/")[0] for name in names}) for names in without] == [
            ["directory"],
            [kind],
            ["profiles"],
        ], (word, without)
        result = json.loads(answer)
        # the 20 best records: results, or the rest of a result's series behind it
        assert result["returned"] + sum(item.get("more", 0) for item in result["results"]) == 20
        assert answer == Session(DirectoryLoader(sites["single"])).answer_sync(
            "search_government_knowledge", json.dumps(arguments)
        )
    # With a filter the best rows may lie beyond the word's own 20: they come from row shards.
    rounds, answer = browser_rounds(
        site,
        tmp_path,
        "search_government_knowledge",
        {"query": words[0], "collections": ["land-registry"], "limit": 20},
    )
    assert answer == Session(DirectoryLoader(sites["single"])).answer_sync(
        "search_government_knowledge", json.dumps({"query": words[0], "collections": ["land-registry"], "limit": 20})
    )


def test_an_intent_words_carried_rows_are_its_answers(tmp_path, monkeypatch):
    """The build ranks a common word's best rows with the priors its search reads: for "data"
    (asking for datasets) without GOV.UK's visits (rules.VISITS_NOT_FOR), so the 20 carried are
    the 20 its answer shows and the search downloads no row shard. Of 25 tables alike, the last
    by title is at one of GOV.UK's most visited addresses: with the visits it would be carried
    and the 20th not."""
    monkeypatch.setattr(shard_writer, "PAGE", 4)
    monkeypatch.setattr(shard_writer, "AHEAD_ROWS", 0)
    monkeypatch.setattr(data_writer, "UP_FRONT_BYTES", 0)
    # Titles alike in length, none a series (an edition's number would group them): "Data on apple" ...
    topics = "apple birch cedar daisy eagle fable grape hazel ivory jewel koala lemon mango".split()
    topics += "nutmeg olive pearl quail raven salmon tiger umber viola walnut xenon yacht".split()
    records = []
    for number, topic in enumerate(sorted(topics), 1):
        url = "https://www.gov.uk/get-a-passport-urgently" if number == 25 else f"https://www.gov.uk/t{number}"
        records.append(curated_record(number, f"Data on {topic}", id=f"t{number:02d}", url=url, collection="ons"))
    site = tmp_path / "site"
    write_data(load_config(REPO / "site" / "site.toml"), records, site / "data", layout="sharded")
    rounds, answer = browser_rounds(site, tmp_path, "search_government_knowledge", {"query": "data", "limit": 20})
    assert not any(name.startswith("rows/") for names in rounds for name in names), rounds
    assert [result["id"] for result in json.loads(answer)["results"]] == [f"t{n:02d}" for n in range(1, 21)]


SERIES_RECORD = """---
id: {id}
title: {title}
summary: Figures on {topic} for one month.
url: https://www.gov.uk/government/statistics/{id}
resourceType: govuk-content
publisher: {publisher}
accessStatus: public
collection: ons
licence: Open Government Licence v3.0
observed: '2026-07-14'
source:
  kind: curated
---
Monthly figures on {topic}.
"""
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October")


def series_sites(tmp_path, years=(2023, 2024, 2025)):
    """A monthly bulletin's editions (30 by default) and 24 other records,
    built in both layouts: (sites by layout, editions)."""
    content = tmp_path / "content"
    content.mkdir()
    editions = [(month, year) for year in years for month in MONTHS]
    for month, year in editions:
        record_id = f"retail-{year}-{month.lower()}"
        title = f"Retail footfall bulletin for {month} {year}"
        topic = "retail footfall"
        text = SERIES_RECORD.format(id=record_id, title=title, topic=topic, publisher="Office for National Statistics")
        (content / f"{record_id}.md").write_text(text, "utf-8")
    for number in range(24):  # other records, each its own result
        record_id = f"footfall-study-{number}"
        title = f"Footfall study of town centre {number} and its shops"
        text = SERIES_RECORD.format(id=record_id, title=title, topic="footfall", publisher=f"Footfall Survey {number}")
        (content / f"{record_id}.md").write_text(text, "utf-8")
    loaded = load_content(content)
    assert not loaded.rejected
    config = load_config(REPO / "site" / "site.toml")
    sites = {}
    for layout in ("single", "sharded"):
        sites[layout] = tmp_path / layout
        write_data(config, loaded.records, sites[layout] / "data", layout=layout)
    return sites, editions


def test_a_word_that_is_mostly_one_series_carries_its_second_windows_rows(tmp_path):
    """A one-word search whose best records are one series' editions groups
    them into one result, so the answer reads the word's next window of
    records too: their rows come with the word's postings, not from a round
    of row shards, and the answer is the single layout's."""
    sites, editions = series_sites(tmp_path)
    arguments = {"query": "bulletin", "limit": 20}
    rounds, answer = browser_rounds(sites["sharded"], tmp_path, "search_government_knowledge", arguments)
    assert [sorted({name.split("/")[0] for name in names}) for names in rounds] == [["postings"]]
    assert answer == Session(DirectoryLoader(sites["single"])).answer_sync(
        "search_government_knowledge", json.dumps(arguments)
    )
    result = json.loads(answer)
    # the series grouped: fewer results than the tool's default limit, so the second window was read
    assert result["returned"] + sum(item.get("more", 0) for item in result["results"]) == len(editions)
    # the word's postings carry both windows' rows; a word of the other records, only its best
    directory = Catalogue.open(DirectoryLoader(sites["sharded"])).store.shards
    postings = {
        term: posting
        for entry in directory.postings
        for term, posting in directory.read(entry, "postings")["terms"].items()
    }
    assert len(postings["bulletin"]["r"]) == len(editions)  # all 30: both windows
    assert len(postings["centr"]["r"]) == postings_writer.TOP_ROWS


def test_a_summarised_word_that_is_mostly_one_series_answers_from_its_summary_alone(tmp_path, monkeypatch):
    """A common word's one-word search reads its summary file: when its best
    records group into fewer results than a window, the second window's rows
    come in that file too, not in a round of their own (its pools file, which
    holds the rows beyond its best records, or row shards)."""
    monkeypatch.setattr(postings_writer, "SUMMARY_FROM", 60)  # "bulletin" (the 70 editions) is summarised
    sites, editions = series_sites(tmp_path, years=range(2019, 2026))
    arguments = {"query": "bulletin", "limit": 20}
    rounds, answer = browser_rounds(sites["sharded"], tmp_path, "search_government_knowledge", arguments)
    assert [sorted({name.split("/")[0] for name in names}) for names in rounds] == [["summaries"]]
    assert answer == Session(DirectoryLoader(sites["single"])).answer_sync(
        "search_government_knowledge", json.dumps(arguments)
    )
    assert len(editions) == 70 and json.loads(answer)["results"][0]["more"] > 20  # one result: the series


def test_the_series_table_brings_a_second_windows_rows_with_the_first(tmp_path, monkeypatch):
    """A search whose first window is mostly one series reads a second
    window. With the series table read while idle, the second window's
    rows come in the first window's round of row shards; without it they
    take a round of their own. The answer is the same either way, and the
    single layout's."""
    monkeypatch.setattr(postings_writer, "TOP_ROWS_FROM", 10**6)  # no postings carry rows: every row is a download
    monkeypatch.setattr(shard_writer, "AHEAD_ROWS", 0)  # nor are any read ahead (the editions are curated)
    sites, editions = series_sites(tmp_path)
    arguments = {"query": "retail bulletin", "limit": 20}
    expected = Session(DirectoryLoader(sites["single"])).answer_sync(
        "search_government_knowledge", json.dumps(arguments)
    )
    assert json.loads(expected)["returned"] + sum(
        item.get("more", 0) for item in json.loads(expected)["results"]
    ) == len(editions)
    for idle, row_rounds in ((False, 2), (True, 1)):
        rounds, answer = browser_rounds(sites["sharded"], tmp_path, "search_government_knowledge", arguments, idle=idle)
        assert answer == expected
        assert sum(all(name.startswith("rows/") for name in names) for names in rounds) == row_rounds, (idle, rounds)
    # Foretold or not, every call answers as the single layout does and reads the same rows.
    single = Session(DirectoryLoader(sites["single"]))
    for query, extra in [
        ("retail bulletin", {"offset": 20}),
        ("footfall study", {}),
        ("bulletin", {"resourceTypes": ["govuk-content"]}),
        ("centre", {}),
    ]:
        offset = extra.pop("offset", 0)
        call = {"query": query, "limit": 20, **extra}
        want = single.answer_sync("search_government_knowledge", json.dumps(call), offset=offset)
        fetched = []
        for idle in (False, True):
            rounds, answer = browser_rounds(
                sites["sharded"], tmp_path, "search_government_knowledge", call, idle=idle, offset=offset
            )
            assert answer == want, (query, idle)
            fetched.append({name for names in rounds for name in names if name.startswith("rows/")})
        assert fetched[0] == fetched[1], query
    later = Session(DirectoryLoader(sites["sharded"])).later_files()
    assert any(name.startswith("series.") for name in later)


def test_the_series_table_brings_a_newest_editions_row_with_its_windows(tmp_path, monkeypatch):
    """A yearly bulletin's 45 older editions say "regional breakdown" twice,
    the newest once: the older ones fill both windows the answer reads, and
    the newest edition leads their group in their place
    (ranking.stages._newest_leads). With the series table read while idle,
    its row comes in the windows' round of row shards; without it, in
    rounds of its own. The same answer either way, and the single layout's."""
    monkeypatch.setattr(postings_writer, "TOP_ROWS_FROM", 10**6)  # no postings carry rows: every row is a download
    monkeypatch.setattr(shard_writer, "AHEAD_ROWS", 0)
    monkeypatch.setattr(shard_writer, "ROWS_PER_SHARD", 2)  # the newest's row in a shard of its own
    content = tmp_path / "content"
    content.mkdir()
    for year in [*range(1980, 2025), 2026]:
        topic = "regional breakdown" if year == 2026 else "regional breakdown, regional"
        text = SERIES_RECORD.format(
            id=f"bulletin-{year}",
            title=f"Retail bulletin {year}",
            topic=topic,
            publisher="Office for National Statistics",
        )
        (content / f"bulletin-{year}.md").write_text(text, "utf-8")
    config = load_config(REPO / "site" / "site.toml")
    records = load_content(content).records
    sites = {layout: tmp_path / layout for layout in ("single", "sharded")}
    for layout, site in sites.items():
        write_data(config, records, site / "data", layout=layout)
    arguments = {"query": "regional breakdown", "limit": 20}
    expected = Session(DirectoryLoader(sites["single"])).answer_sync(
        "search_government_knowledge", json.dumps(arguments)
    )
    lead = json.loads(expected)["results"][0]
    assert lead["id"] == "bulletin-2026" and lead["reasons"] == ["newest_edition"]
    row_rounds = {}
    for idle in (False, True):
        rounds, answer = browser_rounds(sites["sharded"], tmp_path, "search_government_knowledge", arguments, idle=idle)
        assert answer == expected
        row_rounds[idle] = sum(all(name.startswith("rows/") for name in names) for names in rounds)
    assert row_rounds == {False: 3, True: 1}, row_rounds  # first window, second window, newest edition


def test_the_stricter_tiers_rows_come_with_a_looser_tiers_downloads(layouts, tmp_path, monkeypatch):
    """A query of several words whose every-word records are few tries looser
    modes; when one needs downloads (the fuzzy tier's readings of a rare
    word), the every-word records' rows (certain to lead the first window)
    come in that round, beside its postings, not in a later one. The rows
    read apart are read, the same answer given, in no more rounds. (On the
    full estate's bench queries this saves a round: "land registry january",
    three rounds to two; docs/ranking.md, Cost.)"""
    sites, records = layouts
    # Three words of one title: its record holds them all, and few others do, so looser modes
    # are tried. Only a few such queries download in a looser mode with every-word rows unknown
    # (related words' postings come with their words', and no longer take a round), so the
    # sample is wide enough that content changes keep some.
    rng = random.Random(34)
    titles = [re.findall(r"[A-Za-z]{4,}", record.data["title"]) for record in rng.sample(records, 900)]
    triples = sorted({" ".join(rng.sample(words, 3)) for words in titles if len(words) >= 3})[:240]
    single = Session(DirectoryLoader(sites["single"]))

    def run(query):
        arguments = {"query": query, "limit": 20}
        rounds, answer = browser_rounds(sites["sharded"], tmp_path, "search_government_knowledge", arguments, idle=True)
        assert answer == single.answer_sync("search_government_knowledge", json.dumps(arguments)), query
        rows = {name for names in rounds for name in names if name.startswith("rows/")}
        beside_postings = any({name.split("/")[0] for name in names} >= {"rows", "postings"} for names in rounds)
        return len(rounds), rows, beside_postings

    together = {query: run(query) for query in triples}
    monkeypatch.setattr(sharded_module.store.ShardedStore, "rows_missing", lambda self, numbers, after=None: [])
    apart = {query: run(query) for query in triples}
    # The rows read apart are read together too. Together may read a row shard more: a record's row
    # that a posting read in the same round turns out to carry.
    assert all(together[query][1] >= apart[query][1] for query in triples)
    assert sum(len(together[query][1] - apart[query][1]) for query in triples) <= len(triples) // 10
    assert all(together[query][0] <= apart[query][0] for query in triples)
    assert any(together[query][2] for query in triples) and not any(apart[query][2] for query in triples)


def test_a_words_posting_carries_its_related_words_postings_as_their_own_shards_hold_them(layouts):
    """The related words' postings a word's posting carries are their own
    (term index and columns), or, past what a call's related words may reach,
    how many postings they have: searching them needs no shard of theirs."""
    sites, _ = layouts
    shards = Catalogue.open(DirectoryLoader(sites["sharded"])).store.shards
    postings = {
        term: posting for entry in shards.postings for term, posting in shards.read(entry, "postings")["terms"].items()
    }
    carried = [(other, copy) for posting in postings.values() for other, copy in posting.get("a", {}).items()]
    assert len(carried) > 50 and all(
        set(posting.get("a", {})) == set(posting.get("w", [])) for posting in postings.values()
    )
    for other, copy in carried:
        own = postings[other]
        count = sum(len(decode_column(column)[0]) for column in own["f"].values())
        if "p" in copy:
            assert copy == {"p": count} and count > rules.ALTERNATIVE_POSTINGS
        else:
            assert copy == {"i": own["i"], "f": own["f"]} and count <= rules.ALTERNATIVE_POSTINGS


def summarised_words(catalogue):
    """One-word queries for words the build summarised, with their summaries (not a
    word that could be an identifier, such as a year: its search looks identifiers up too)."""
    shards = catalogue.store.shards
    return {
        term: posting["s"]
        for entry in shards.postings
        for term, posting in shards.read(entry, "postings")["terms"].items()
        if "s" in posting
        and query_terms(term, search_terms=catalogue.ranking.search_terms) == [Term(term, term)]
        and not identifier_key(term)
    }


@pytest.mark.parametrize(
    ("filters", "offset"),
    [
        ({"resourceTypes": ["dataset"]}, 0),
        ({"collections": ["land-registry"]}, 0),
        ({"accessStatuses": ["public"]}, 0),
        ({}, 20),
    ],
)
def test_a_summarised_words_filtered_or_later_results_take_their_rows_from_one_file(layouts, tmp_path, filters, offset):
    """A filter (or a later page) takes a common word's results from beyond its
    best 20, whose rows its postings carry: the summary offers the others' rows
    in one pools file, downloaded instead of a row shard per result."""
    sites, _ = layouts
    catalogue = Catalogue.open(DirectoryLoader(sites["sharded"]))
    single = Session(DirectoryLoader(sites["single"]))
    words = summarised_words(catalogue)
    # a summary of more records than the postings carry rows for offers the rest in a file
    assert all(("r" in summary) == (len(summary["n"]) > postings_writer.TOP_ROWS) for summary in words.values())
    # the commonest words: a filter reaches furthest beyond their best 20
    pooled = sorted((word for word, summary in words.items() if "r" in summary), key=lambda w: -len(words[w]["n"]))
    assert len(pooled) >= 6
    shards = catalogue.store.shards
    per_shard = shards.directory["rows"]["perShard"]
    from_pools = 0
    for word in pooled[:10]:
        arguments = {"query": word, "limit": 20, **filters}
        expected = single.answer_sync("search_government_knowledge", json.dumps(arguments), offset=offset)
        rounds, answer = browser_rounds(
            sites["sharded"], tmp_path, "search_government_knowledge", arguments, offset=offset
        )
        assert answer == expected, arguments
        # a result's series members ("others") are shown by their rows too
        listed = [one for item in json.loads(answer)["results"] for one in (item, *item.get("others", []))]
        shown = {shards.ids.shard(one["id"], "ids")["ids"][one["id"]] for one in listed}
        carried = {row[0] for row in shards.posting(word)["r"]}
        in_pool = set(words[word]["n"]) - carried
        asked = [name for names in rounds for name in names]
        row_shards = {int(name.split("/")[1].split(".")[0]) for name in asked if name.startswith("rows/")}
        # the pools file comes when it saves POOLS_FROM row shards or more; a row shard for any other result
        pooled = len({number // per_shard for number in shown & in_pool}) >= sharded_module.POOLS_FROM
        assert any(name.startswith("pools/") for name in asked) == pooled, (word, rounds)
        expected_shards = {number // per_shard for number in shown - carried - (in_pool if pooled else set())}
        assert row_shards == expected_shards, (word, rounds)
        from_pools += pooled
    assert from_pools >= 2


def test_a_word_missing_from_the_warmed_vocabulary_fetches_no_shard(layouts):
    sites, _ = layouts
    loader = CountingLoader(sites["sharded"])
    catalogue = Catalogue.open(loader)
    catalogue.engine.warm()
    before = len(loader.names)
    result = catalogue.call("search_government_knowledge", {"query": "qqqzzz"})
    # at most the directory page that gives the budget its shard size
    assert result["total"] == 0 and all(name.startswith("directory/") for name in loader.names[before:])


def test_bench_locality_counts_the_row_shards_holding_a_querys_results(layouts):
    # bench/locality.py's figure (row shards per result) behind docs/startup.md's
    # reading of the 300,000-record p95: the shards of the results the answer shows.
    import sys

    sys.path.insert(0, str(REPO / "bench"))
    import locality

    sites, records = layouts
    number_of = {record.id: number for number, record in enumerate(data_writer.in_number_order(records))}
    session = Session(DirectoryLoader(sites["sharded"]))
    for query in ("land registry", "house price index", "companies", "transport statistics"):
        shards, results = locality.shards_per_result(session, query)
        answer = json.loads(
            session.answer_sync("search_government_knowledge", json.dumps({"query": query, "limit": 20}))
        )
        # The records it shows: its results and the rest of their series behind them.
        shown = [item["id"] for result in answer["results"] for item in [result, *result.get("others", ())]]
        numbers = {number_of[record_id] for record_id in shown}
        assert results == len(numbers) == len(shown) >= answer["returned"] > 0, query
        assert shards == len({number // session.catalogue.store.per_row_shard for number in numbers}), query


def test_a_common_word_alone_reads_its_summary_file_and_with_another_word_its_shard(layouts, tmp_path):
    """A summarised word's shard holds its columns (hundreds of KB for the
    commonest words at scale); a one-word search needs only the summary, so it
    reads the summary file. The same word with another reads its shard in the
    one postings round; a filter the summary cannot answer reads the shard in
    a second round. Every answer is the single layout's."""
    sites, _ = layouts
    catalogue = Catalogue.open(DirectoryLoader(sites["sharded"]))
    single = Session(DirectoryLoader(sites["single"]))
    words = summarised_words(catalogue)
    assert len(words) >= 6
    shards = catalogue.store.shards
    fell_back = 0
    for word in sorted(words)[:6]:
        shard = shards.posting_entry(word)
        summary_file = shard["summaries"][word]
        assert summary_file["size"] < shard["size"]

        def rounds_of(arguments):
            rounds, answer = browser_rounds(sites["sharded"], tmp_path, "search_government_knowledge", arguments)
            assert answer == single.answer_sync("search_government_knowledge", json.dumps(arguments)), arguments
            return rounds

        assert rounds_of({"query": word, "limit": 20}) == [[summary_file["path"]]]
        both = rounds_of({"query": f"{word} land", "limit": 20})
        assert shard["path"] in both[0] and not any(name.startswith("summaries/") for names in both for name in names)
        narrow = rounds_of({"query": word, "publishers": ["Ofsted"]})  # a publisher few of its records have
        assert narrow[0] == [summary_file["path"]], narrow
        fell_back += any(shard["path"] in names for names in narrow[1:])
    assert fell_back >= 1


def test_a_tampered_summary_file_fails_closed(layouts, tmp_path):
    sites, _ = layouts
    copy = tmp_path / "site"
    shutil.copytree(sites["sharded"], copy)
    for path in (copy / "data" / "summaries").glob("*.json"):
        path.write_bytes(path.read_bytes() + b" ")
    word = sorted(summarised_words(Catalogue.open(DirectoryLoader(sites["sharded"]))))[0]
    result = Catalogue.open(DirectoryLoader(copy)).call("search_government_knowledge", {"query": word})
    assert result["ok"] is False and result["error"]["code"] == "site_unavailable"
    assert "integrity" in result["error"]["message"]
