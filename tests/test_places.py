"""The estate's place names (govsearch_build.places): the distinctive words of
its local authorities' names, never an ordinary word or a national body."""

import pytest

from govsearch_build.places import gazetteer, gazetteer_areas, place_names, town_areas
from govsearch_build.records import Record


def record(number, publisher, summary="", title=None, kind="dataset", url=None):
    data = {"id": f"r{number}", "title": title or f"Record {number}", "publisher": publisher, "summary": summary}
    data["resourceType"] = kind
    data["url"] = url or f"https://www.data.gov.uk/dataset/r{number}"
    return Record(data, "", f"r{number}.md")


def test_local_authority_names_give_their_places():
    records = [
        record(1, "Bristol City Council", "Parks in Bristol."),
        record(2, "London Borough of Camden", "Camden's libraries."),
        record(3, "Royal Borough of Kensington and Chelsea"),
        record(4, "Peak District National Park Authority"),
    ]
    # "district" is generic; a name of several words holding a place is a place as well
    assert place_names(records) == ["bristol", "camden", "chelsea", "kensington", "kensington and chelsea", "peak"]
    assert "bristol" not in place_names(records[1:])


def test_a_word_written_in_lower_case_is_no_place():
    records = [record(1, "Tunbridge Wells Borough Council")]
    records += [record(n, "Environment Agency", "Water from wells and boreholes.") for n in range(2, 6)]
    assert place_names(records) == ["tunbridge", "tunbridge wells"]  # "wells" alone is a word to find


def test_a_national_body_named_council_and_compass_words_are_no_places():
    records = [
        record(1, "Design Council"),
        record(
            2,
            "Design Council",
            title="Design Council",
            kind="organisation",
            url="https://www.gov.uk/government/organisations/design-council",
        ),
        *(record(n, f"North {place} Council") for n, place in enumerate(["Devon", "Kent", "Norfolk", "Somerset"], 3)),
        # A council's own record (its homepage, not a page of GOV.UK's) leaves it a council.
        record(
            7,
            "North Devon Council",
            title="North Devon Council",
            kind="organisation",
            url="https://www.northdevon.gov.uk/",
        ),
    ]
    words = ["devon", "kent", "norfolk", "somerset"]
    assert place_names(records) == sorted(words + [f"north {word}" for word in words])


def test_a_word_many_councils_share_is_a_place_where_one_council_is_named_by_it_alone():
    districts = [record(n, f"{side} Devon District Council") for n, side in enumerate(["North", "Mid", "East", "West"])]
    # Four councils' names share "devon", as they share "north" or "forest": no place alone ...
    assert "devon" not in place_names(districts)
    # ... but Devon County Council is named by it alone: "libraries in devon" names the county,
    # and the districts' names of several words are places with it; a compass word stays none.
    places = place_names([*districts, record(9, "Devon County Council")])
    assert {"devon", "north devon", "mid devon"} <= set(places)
    norths = [record(n, f"North {place} Council") for n, place in enumerate(["Kent", "Norfolk", "Somerset"], 10)]
    assert "north" not in place_names([*districts, *norths, record(9, "Devon County Council")])


def test_lower_case_counts_in_prose_by_others_only():
    # An address is no prose, and a council writing its own name in lower case makes it no ordinary word.
    wigan = [record(n, "Wigan Metropolitan Borough Council", "Queries to roads@wigan.gov.uk.") for n in range(1, 5)]
    lambeth = [record(n, "London Borough of Lambeth", "Heritage assets in lambeth.") for n in range(5, 9)]
    assert place_names(wigan + lambeth) == ["lambeth", "wigan"]
    others = [record(n, "Environment Agency", "Sites in lambeth and wigan.") for n in range(9, 13)]
    assert place_names(wigan + lambeth + others) == []


def test_the_river_a_place_stands_on_is_no_place_alone():
    # "Thames Water" and "Thames Barrier" are about no London borough; the borough's whole name still is.
    records = [record(1, "London Borough of Richmond Upon Thames"), record(2, "Southend-on-Sea Borough Council")]
    assert place_names(records) == ["richmond", "richmond upon thames", "southend", "southend on sea"]


def test_a_name_written_with_an_ampersand_is_the_name_with_and():
    # Searched as "Telford and Wrekin" or "Telford & Wrekin" (vocabulary.SearchTerms reads both).
    records = [record(1, "Telford & Wrekin Council"), record(2, "Southwark London Borough Council")]
    assert place_names(records) == ["southwark", "telford", "telford and wrekin", "wrekin"]


def test_a_towns_name_is_a_place_as_the_councils_are():
    """The gazetteer's towns (towns.txt) that publish nothing: a name of one word,
    a name of several as a whole, and the town before the river it stands on."""
    records = [record(n, "Environment Agency", "Barley grows in March; reading rooms.") for n in range(1, 5)]
    gazetteer = ["Inverness", "Canary Wharf", "Stoke-on-Trent", "March", "Reading"]
    assert place_names(records, gazetteer) == ["canary wharf", "inverness", "stoke", "stoke on trent"]
    # "March" is a month, "Reading" a word the prose writes in lower case: neither is a place


def test_a_town_named_by_an_ordinary_word_is_no_place():
    """Most towns the records never write, so how the prose writes them cannot
    tell "Barking" from "dog barking": such towns are listed and left out, and a
    name of several words the prose writes in lower case is no place."""
    records = [
        record(n, "Environment Agency", "A new cross-border scheme for the old manor and its park.")
        for n in range(1, 5)
    ]
    gazetteer = ["Barking", "Fleet", "New Cross", "Manor Park", "Canary Wharf", "Inverness"]
    assert place_names(records, gazetteer) == ["canary wharf", "inverness"]


def test_the_gazetteer_holds_the_uks_towns_and_counties():
    names = gazetteer()
    assert len(names) > 900 and {"Inverness", "Milton Keynes", "Stoke-on-Trent", "Surrey", "Fife"} <= set(names)


def test_size_and_landform_words_of_a_councils_name_are_no_places_alone():
    # "Great Britain" and "high court" are not about Great Yarmouth or High Peak.
    records = [
        record(1, "Great Yarmouth Borough Council"),
        record(2, "High Peak Borough Council"),
        record(3, "Castle Point Borough Council"),
    ]
    assert place_names(records) == ["castle point", "great yarmouth", "high peak", "peak", "yarmouth"]


def test_a_town_no_council_is_named_after_is_in_its_areas_council():
    """towns.txt puts each town in its council area (GeoNames): a query naming the town is about
    that area's council and records, where the estate holds that council and none named after the
    town: "skegness" is Lincolnshire's, "eccles" Salford's (its council's name spelt otherwise);
    "harrogate" and "st albans" have councils of their own (their websites), "brixton" no council
    of its area ("Greater London"), and "walton" is two towns in two areas. "kettering" names a
    council abolished in 2021 whose old rows the estate keeps, and is North Northamptonshire's;
    "bath" is a word of its own council's name (Bath and North East Somerset), not a council's name;
    "stamford" is Stamford's (Lincolnshire), though it is the one place word of Stamford Hill's."""
    records = [
        record(1, "Lincolnshire County Council"),
        record(2, "Salford City Council"),
        record(3, "Harrogate Borough Council", title="Harrogate Borough Council", kind="organisation"),
        record(4, "North Lincolnshire Council"),
        record(5, "North Yorkshire Council"),
        record(
            6, "St Albans City and District Council", title="St Albans City and District Council", kind="organisation"
        ),
        record(7, "Hertfordshire County Council"),
        record(8, "Surrey County Council"),
        record(9, "Essex County Council"),
        record(10, "Wirral Council"),
        record(11, "Kettering Borough Council", "Car parks in Kettering."),
        record(12, "North Northamptonshire Council"),
        record(
            13,
            "Bath and North East Somerset Council",
            title="Bath and North East Somerset Council",
            kind="organisation",
        ),
        record(14, "London Borough of Hackney", title="London Borough of Hackney", kind="organisation"),
    ]
    areas = {
        "Skegness": "Lincolnshire",
        "Birkenhead": "Metropolitan Borough of Wirral",  # GeoNames's name for Wirral Council's area
        "Eccles": "City and Borough of Salford",
        "Harrogate": "North Yorkshire",
        "St Albans": "Hertfordshire",
        "Brixton": "Greater London",
        "Walton-on-Thames": "Surrey",
        "Walton-on-the-Naze": "Essex",
        "Kettering": "North Northamptonshire",
        "Bath": "Bath and North East Somerset",  # its council's name holds the town's word
        "Stamford": "Lincolnshire",
        "Stamford Hill": "Hackney",  # its one place word is another town's whole name
    }
    places = place_names(records, list(areas))
    assert {"harrogate", "st albans", "walton", "brixton"} <= set(places)
    found = town_areas(records, areas, places)
    assert found == {
        "bath": "bath and north east somerset",
        "birkenhead": "wirral",
        "eccles": "salford",
        "kettering": "north northamptonshire",
        "skegness": "lincolnshire",
        "stamford": "lincolnshire",  # Stamford's, not Stamford Hill's
        "stamford hill": "hackney",
        "walton on thames": "surrey",  # named in full, one town
        "walton on the naze": "essex",
    }
    assert "skegness" not in town_areas(records[1:], areas, places)  # no Lincolnshire County Council


def test_the_gazetteer_places_its_towns_in_their_council_areas():
    areas = gazetteer_areas()
    assert len(areas) > 700 and areas["Skegness"] == "Lincolnshire" and "Ashford" not in areas  # Kent and Surrey


def test_a_council_named_in_gaelic_is_a_council():
    """ "Comhairle nan Eilean Siar" is the Western Isles' council (GOV.UK's list names it in Gaelic):
    its place is a place, and the Isle of Lewis (GeoNames: Eilean Siar) is its."""
    records = [
        record(1, "Comhairle nan Eilean Siar", title="Comhairle nan Eilean Siar", kind="organisation"),
        record(2, "Comhairle nan Eilean Siar", "Bins in the Western Isles."),
    ]
    places = place_names(records, ["Isle of Lewis"])
    assert "eilean siar" in places
    assert town_areas(records, {"Isle of Lewis": "Eilean Siar"}, places) == {
        "isle of lewis": "eilean siar",
        "lewis": "eilean siar",
    }


def test_a_town_its_own_councils_prose_writes_in_lower_case_is_a_place():
    """Lambeth writes "the borough has two - brixton and streatham": its own towns, as a council
    writing "in lambeth" does its name. Another publisher's lower case still counts."""
    lambeth = "London Borough of Lambeth"
    records = [
        record(1, lambeth, title=lambeth, kind="organisation", url="https://www.lambeth.gov.uk/"),
        *(record(n, lambeth, "Town centres: the borough has two - brixton and streatham.") for n in (2, 3, 4)),
    ]
    areas = {"Brixton": "Lambeth"}
    assert "brixton" in place_names(records, list(areas), areas)
    assert "brixton" not in place_names(records, list(areas))  # no area: every publisher's prose counts
    others = [record(n, "Example Trust", "Tours of brixton and streatham.") for n in (5, 6, 7)]
    assert "brixton" not in place_names([*records, *others], list(areas), areas)


@pytest.mark.parametrize(
    "borough", ["Borough Council of Kings Lynn and West Norfolk", "Borough Council of King's Lynn and West Norfolk"]
)
def test_king_s_lynn_is_its_boroughs_and_king_no_place(borough):
    """GOV.UK names one council "Borough Council of Kings Lynn and West Norfolk" (its datasets
    write "King's") and another "Derby City": both are councils. "king" and "kings" alone are no
    places ("King's Birthday Honours"); King's Lynn, which GeoNames places in Norfolk, is its
    borough's, a place its name joins, however either writes the apostrophe."""
    records = [
        record(1, borough, title=borough, kind="organisation", url="https://www.west-norfolk.gov.uk"),
        record(2, "Borough Council of King's Lynn and West Norfolk", "Allotments in King's Lynn."),
        record(3, "Norfolk County Council", title="Norfolk County Council", kind="organisation"),
        record(4, "Derby City", title="Derby City", kind="organisation", url="https://www.derby.gov.uk/"),
    ]
    areas = {"King's Lynn": "Norfolk", "Cromer": "Norfolk", "Sinfin": "Derby"}
    places = place_names(records, list(areas), areas)
    assert {"king s lynn", "lynn", "derby", "cromer"} <= set(places) and not {"king", "kings"} & set(places)
    assert town_areas(records, areas, places) == {"cromer": "norfolk", "sinfin": "derby"}


def test_an_ordinary_word_of_a_councils_name_is_no_place_unless_the_council_is_named_by_it():
    """ "barking" of Barking and Dagenham is a dog's ("dog barking complaint"), as the gazetteer's
    town is; Reading Borough Council's "reading" is Reading's, the council's whole name."""
    records = [record(1, "London Borough of Barking and Dagenham"), record(2, "Reading Borough Council")]
    places = place_names(records)
    assert {"dagenham", "barking and dagenham", "reading"} <= set(places) and "barking" not in places
