"""list_filter_values counts from the facet table alike in both index layouts,
and equal the records' own values (the curated corpus, 400+ records)."""

from collections import Counter

from govsearch import Catalogue, DirectoryLoader, to_json
from govsearch.engine import DIMENSIONS
from test_sharded_layout import layouts  # noqa: F401 (the fixture: the corpus built in both layouts)


def test_both_layouts_list_the_records_own_values_and_counts(layouts):  # noqa: F811
    sites, records = layouts
    single = Catalogue.open(DirectoryLoader(sites["single"]))
    sharded = Catalogue.open(DirectoryLoader(sites["sharded"]))
    for dimension, field in DIMENSIONS.items():
        expected = Counter(record.data[field] for record in records)
        for arguments in ({"dimension": dimension, "limit": 100}, {"dimension": dimension, "prefix": "O", "limit": 3}):
            answer = single.call("list_filter_values", arguments)
            assert to_json(sharded.call("list_filter_values", arguments)) == to_json(answer), arguments
            counted = {item["value"]: item["count"] for item in answer["values"]}
            assert all(expected[value] == count for value, count in counted.items()), arguments
            starting = [
                value for value in expected if value.casefold().startswith(arguments.get("prefix", "").casefold())
            ]
            assert answer["total"] == len(starting), arguments
        best = sorted(expected.items(), key=lambda item: (-item[1], item[0]))[:100]
        assert [
            (item["value"], item["count"])
            for item in single.call("list_filter_values", {"dimension": dimension, "limit": 100})["values"]
        ] == best
