from govsearch_build.records import validate_record


def assert_all_valid(result, http_hosts=()):
    for record in result.records:
        assert validate_record(record.data, record.file, http_allowed_hosts=http_hosts) == [], record.file
        assert record.data["source"]["kind"] == result.report["kind"]
        assert record.data["source"]["file"]
        assert record.data["source"]["nativeId"]
    ids = [r.id for r in result.records]
    assert len(ids) == len(set(ids))
    urls = [(r.data["collection"], r.data["url"]) for r in result.records]
    assert len(urls) == len(set(urls))


def assert_accounted(result):
    acc = result.report["accounting"]
    assert acc["inputs"] == acc["built_primary"] + acc["merged"] + acc["left_out"] + acc["rejected"], acc
    assert result.report["built"] == acc["built_primary"] + result.report["derived"]["built"]
    assert result.report["rejected"] == acc["rejected"]


def by_id(result):
    return {r.id: r.data for r in result.records}
