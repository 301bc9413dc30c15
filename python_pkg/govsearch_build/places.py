"""Place names the estate itself knows: the distinctive words of its local
authorities' names ("Bristol" of "Bristol City Council", "Camden" of "London
Borough of Camden").

A query naming a place ("population of Bristol", "schools in Leeds") wants
records about that place first, but a national record without the place's
name can still be the answer: the runtime makes a place word optional when
the query has other words, so records holding it rank higher without being
the only ones found (docs/ranking.md, "Questions and places"). Built from the
records, so a new council's catalogue brings its name with it.

Towns and counties that publish nothing are places too: "population of
Inverness" read "inverness" as a typo of "intertidal" and led with mudflats.
The gazetteer (`towns.txt`, GeoNames: the UK's towns of 15,000 people or
more; `areas.txt`, its counties and council areas) adds their names. Most of
them the records never write, so the councils' test (not written in lower
case) cannot tell a town from a word: the towns named by ordinary words
("Barking", "Fleet", "Reading", "March") are listed and left out, and a name
of several words is left out when the records' prose writes each of its
words in lower case ("New Cross": "new cross-border rules").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path

from govsearch.ranking.nearby import (
    GENERIC_NAME_WORDS,
    council_area,
    council_place,
    joined_places,
    name_key,
    possessive_joined,
)

from .records import Record

# Size and landform words of councils' names ("Great Yarmouth", "High Peak", "Vale of Glamorgan",
# "Derbyshire Dales", "Isle of Wight", "Castle Point") mean something else alone in a query ("Great
# Britain", "high court", "the heath"): no place alone; the name as a whole still is.
_LANDFORM = frozenset(
    "great little high vale vales hill hills castle heath isle isles dale dales point valley moor moors".split()
)
# "King's Lynn" (its council: "Borough Council of King's Lynn and West Norfolk"): "king" and "kings"
# alone are the monarch's ("King's Birthday Honours", "Kings Cross"), no place.
_NO_PLACE_ALONE = GENERIC_NAME_WORDS | _LANDFORM | {"king", "kings"}
_WORD = re.compile(r"[A-Za-z]+")
# An email address, web address or domain: its words are no prose.
_ADDRESS = re.compile(r"\S*(?:@|://|www\.|\.(?:gov|org|co|com|net|ac|nhs|police)\b)\S*", re.IGNORECASE)
# A word in this many authorities' names is a compass point or a landform ("North", "Forest"), not a
# place, unless one authority is named by it alone ("Devon" of Devon County Council: place_names).
SHARED_BY = 4
# A place name is written with a capital: a word the estate's summaries write in lower case this
# often ("new", "under", "wells") is an ordinary word too, and stays required.
LOWER_CASE_SHARE = 0.05
MIN_LENGTH = 3
_STANDS_ON = re.compile(r"\W(?:upon|on|under)\W", re.IGNORECASE)
# GeoNames' towns of 15,000 people or more; the counties and council areas, from the statutory lists.
GAZETTEER = (Path(__file__).with_name("towns.txt"), Path(__file__).with_name("areas.txt"))
# Gazetteer towns named by an ordinary word or a month ("dog barking complaint", "vehicle fleet",
# "March 2024"): in a query the word is meant. The councils' names need no such list: the estate's
# prose names its councils, so their test reads how it writes them.
_ORDINARY = frozenset(
    "archway barking bow deal down felling fleet flint grays hale hook lancing leek reading rugby sale ware welling"
    " january february march april may june july august september october november december".split()
)


def gazetteer(paths: Iterable[Path] = GAZETTEER) -> list[str]:
    """The gazetteer's place names, as written (towns.txt, areas.txt)."""
    return [line.split("\t")[0] for line in _lines(paths)]


def gazetteer_areas(paths: Iterable[Path] = GAZETTEER[:1]) -> dict[str, str]:
    """Each gazetteer town with the council area GeoNames places it in, as written (towns.txt)."""
    return dict(line.split("\t", 1) for line in _lines(paths) if "\t" in line)


def _lines(paths: Iterable[Path]) -> list[str]:
    lines = (line.strip() for path in paths for line in path.read_text("utf-8").splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def place_names(
    records: Iterable[Record], towns: Iterable[str] = (), areas: Mapping[str, str] | None = None
) -> list[str]:
    """The place words of the records' local-authority publishers and of the
    gazetteer's `towns`, then the authorities' names of several words holding
    one ("north east lincolnshire") and the towns' ("milton keynes"): sorted,
    lower case. A town's word its own area's council writes in lower case (`areas`,
    gazetteer_areas: Lambeth's "the borough has two - brixton and streatham") is a place
    still, as a council's own name is."""
    records, towns = list(records), list(towns)
    authorities = _authorities(records)
    named_by = _named_by(authorities)
    # A word many councils' names share is a compass point or a landform, and one of the ordinary
    # words ("barking" of Barking and Dagenham: "dog barking complaint") a word, unless one council
    # is named by it alone: Devon County Council's "devon", Reading Borough Council's "reading".
    candidates = {
        word: named
        for word, named in named_by.items()
        if (len(named) < SHARED_BY and word not in _ORDINARY)
        or any(name_key(authorities[publisher]) == word for publisher in named)
    }
    town_words, town_names = _towns(towns)
    councils_of = _councils_of_towns(authorities, towns, areas or {})
    for word in town_words - named_by.keys():  # a town no council names: every other publisher's prose counts
        candidates[word] = councils_of.get(word, set())
    # The words of the towns' longer names are counted too, to tell "new cross" from a place.
    phrase_words = {word for name in town_names for word in name.split()} - named_by.keys()
    lower, upper = _cases(records, {**dict.fromkeys(phrase_words, set()), **candidates})
    words = {word for word in candidates if lower[word] <= max(2, LOWER_CASE_SHARE * (lower[word] + upper[word]))}
    # A town's name of several ordinary words ("new cross", "manor park") is no place.
    town_names = {name for name in town_names if not all(lower[word] for word in name.split())}
    return sorted(words | _names_of_several_words(authorities.values(), words) | town_names)


def _councils_of_towns(
    authorities: Mapping[str, str], towns: Iterable[str], areas: Mapping[str, str]
) -> dict[str, set[str]]:
    """Each town word (_towns) -> the publishers that are its area's council."""
    by_area: dict[str, set[str]] = defaultdict(set)
    for publisher in authorities:
        by_area[council_area(publisher)].add(publisher)
    found: dict[str, set[str]] = defaultdict(set)
    for town in towns:
        if town in areas:
            for word in _towns([town])[0]:
                found[word] |= by_area.get(name_key(areas[town]), set())
    return found


def town_areas(records: Iterable[Record], areas: Mapping[str, str], places: Collection[str]) -> dict[str, str]:
    """The towns a query names (`places`, place_names) that no council whose website the estate
    holds is named after, each with the council area it lies in (`areas`, gazetteer_areas) as a name key
    (nearby.name_key), where the estate holds that area's council's records (rows or website): "skegness" ->
    "lincolnshire", "bognor regis" -> "west sussex". A query naming the town is about the
    area's records and its council ("report a pothole skegness": Lincolnshire County
    Council's); the estate writes no town's council, and Skegness publishes nothing. A town
    named by a word of its own area's council's name is that council's ("bath" -> "bath and
    north east somerset"), not one named by another council's ("st albans"), nor one of the
    places a council's name joins ("kings lynn" of Kings Lynn and West Norfolk: that council's,
    councils._names). A name two towns share in different areas ("walton": on Thames, in Surrey,
    and on the Naze, in Essex) has none, as the gazetteer gives none to a name two of its rows
    place apart ("Ashford"); a town's whole name wins over another's one place word ("stamford":
    Stamford's, Lincolnshire, not Stamford Hill's)."""
    records = list(records)
    councils = {council_area(publisher) for publisher in _authorities(records)} - {""}
    # A council the estate holds a website of: a town named by an abolished one (Kettering Borough
    # Council's old rows, now North Northamptonshire's) is its area's town, as one none names.
    standing_councils = {council_area(r.data["title"]) for r in records if _is_councils_own(r)} - {""}
    # The councils whose names hold each word ("st" and "albans" alike): a town named by a word of
    # another council's name is not that council's; one named by a word of its own area's council's
    # name is ("bath": Bath and North East Somerset, "brighton": Brighton and Hove).
    named_by = _named_by({council: council for council in standing_councils})
    # A place one of several a council's name joins is that council's, as its own name is ("kings
    # lynn" of "Kings Lynn and West Norfolk": not Norfolk's, where GeoNames places the town).
    joined = _named_by(
        {council: council for council in standing_councils},
        lambda council: [possessive_joined(part) for part in joined_places(council)],
    )
    by_whole: dict[str, set[str]] = defaultdict(set)  # each town's whole name -> its areas
    by_word: dict[str, set[str]] = defaultdict(set)  # the one place word of a longer name -> its areas
    for town, area in areas.items():
        key = name_key(area)
        if key not in councils:
            continue  # no council of the estate's is the area's ("Greater London")
        whole = " ".join(_name_words(town))
        if whole in standing_councils or joined.get(possessive_joined(whole), {key}) != {key}:
            continue  # the town is its own council's place ("st helens": not "helens" in St Helens; "kings lynn")
        word = _one_place_word(town)
        for named, name in ((by_whole, whole), *([(by_word, word)] if word else [])):
            if name in places and name not in standing_councils and named_by.get(name, {key}) == {key}:
                named[name].add(key)
    # A town's whole name wins over another town's one place word: "stamford" is Stamford's
    # (Lincolnshire), not Stamford Hill's (Hackney).
    return {name: keys.pop() for name, keys in sorted({**by_word, **by_whole}.items()) if len(keys) == 1}


def _named_by(places: Mapping[str, str], words: Callable[[str], Iterable[str]] | None = None) -> dict[str, set[str]]:
    """Each place word of the places' names (`places`: each name by its key; or each of the
    `words` given of a name) -> the keys whose names hold it."""
    named_by: dict[str, set[str]] = defaultdict(set)
    for key, place in places.items():
        for word in (words or _place_words)(place):
            named_by[word].add(key)
    return named_by


def _is_councils_own(record: Record) -> bool:
    """Whether a record is a council's own website: an organisation it publishes, not a body's
    page on GOV.UK (the British Council, a National Park Authority: see _authorities)."""
    data = record.data
    return (
        data.get("resourceType") == "organisation"
        and data["title"] == data["publisher"]
        and not data["url"].startswith("https://www.gov.uk/")
        and bool(council_place(data["publisher"]))
    )


def _authorities(records: list[Record]) -> dict[str, str]:
    """Each local authority publisher with its place as its name writes it (council_place;
    other publishers have none). A body GOV.UK lists as an organisation (its page on
    www.gov.uk) is no local authority, whatever its name ("Arts Council England"); a
    council's own record (its homepage) leaves it one."""
    organisations = {
        r.data["title"]
        for r in records
        if r.data.get("resourceType") == "organisation" and r.data["url"].startswith("https://www.gov.uk/")
    }
    return {
        publisher: place
        for publisher in {r.data["publisher"] for r in records} - organisations
        if (place := council_place(publisher)) is not None
    }


def _towns(towns: Iterable[str]) -> tuple[set[str], set[str]]:
    """The towns' place words and names of several words. A name of one word is
    a place word; one of several is a place as a whole ("canary wharf"), its
    words alone are not ("wharf"), but for the town before the river or sea it
    stands on ("stoke" of "Stoke-on-Trent")."""
    words, names = set(), set()
    for town in towns:
        whole = _name_words(town)
        word = whole[0] if len(whole) == 1 else _one_place_word(town)
        if word and word not in _ORDINARY and len(word) >= MIN_LENGTH:
            words.add(word)
        if len(whole) > 1:
            names.add(" ".join(whole))
    return words, names


def _one_place_word(town: str) -> str | None:
    """The one word a town's name of several is known by alone, the rest being landforms or
    generic words or the river it stands on ("stoke" of Stoke-on-Trent); None for others."""
    whole, standing = _name_words(town), _place_words(town)
    return standing[0] if len(whole) > 1 and len(standing) == 1 else None


def _names_of_several_words(places: Iterable[str], words: set[str]) -> set[str]:
    """The authorities' names of several words that hold a place word: a query
    naming one ("libraries in North Yorkshire") names one place, though "north"
    alone is no place (SHARED_BY) and stays a word the records must hold."""
    names = set()
    for place in places:
        typed = _name_words(place)
        if len(typed) > 1 and (not words.isdisjoint(typed) or _LANDFORM.issuperset(typed)):
            names.add(" ".join(typed))
    return names


def _name_words(place: str) -> list[str]:
    """A place's name as lower-case words. "City of York" is York, "Bridgend
    County" Bridgend: a generic word opens or ends no name (nearby.name_key)."""
    return name_key(place).split()


def _place_words(place: str) -> list[str]:
    """The distinctive words of a local authority's place ("Bristol" of "Bristol City Council")."""
    # What follows "upon", "on" or "under" is the river or sea a place stands on ("Richmond upon
    # Thames"): "Thames Water" names no place. The whole name still does (_names_of_several_words).
    place = _STANDS_ON.split(place, maxsplit=1)[0]
    words = (word.lower() for word in _WORD.findall(place))
    return [word for word in words if word not in _NO_PLACE_ALONE and len(word) >= MIN_LENGTH]


def _cases(records: list[Record], named_by: Mapping[str, set[str]]) -> tuple[Counter[str], Counter[str]]:
    """How often the summaries write each word in lower case, and with a
    capital: as prose, so not inside an address ("networkmanagement@wigan.gov.uk"),
    and by other publishers than the councils it names, or whose area a town of it
    lies in (`named_by`: a council writing "in lambeth" or "brixton and streatham"
    makes its places no ordinary words)."""
    lower: Counter[str] = Counter()
    upper: Counter[str] = Counter()
    for record in records:
        summary = _ADDRESS.sub(" ", str(record.data.get("summary", "")))
        for word in _WORD.findall(summary):
            low = word.lower()
            if low in named_by and record.data["publisher"] not in named_by[low]:
                (upper if word[0].isupper() else lower)[low] += 1
    return lower, upper
