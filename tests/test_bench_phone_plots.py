"""bench/phone.py's plots show what the table says: a bar per site and visit,
each labelled with its value, and each target as a line a bar can be seen to
cross. They are made from a results file alone (`--render NAME`)."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench"
sys.path.insert(0, str(BENCH))

import phone  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"
FAST, SLOW = list(phone.PROFILES)
# A site label is whatever --label said: it must reach the SVG escaped.
LABELS = ("before", "after <b>&</b>")


def found(first_result_ms: float, megabytes: float, marks: dict) -> dict:
    visit = {"marks": {**marks, "first_result": first_result_ms}, "files_before_first_answer": [["/x.wasm.gz", 1]]}
    median = {
        "first_result_ms": first_result_ms,
        "agent_first_result_ms": first_result_ms + 20,
        "bytes_before_first_result": megabytes * 1e6,
        "bytes_before_first_answer": megabytes * 1e6,
        "bytes_after_first_answer": 4.5e6,
    }
    return {"median": median, "visits": [visit]}


def report() -> dict:
    steps = {"worker_started": 500, "runtime_ready": 5000, "wheels_loaded": 5200, "catalogue_open": 5300}
    repeat = {"worker_started": 250, "runtime_ready": 900, "wheels_loaded": 910, "catalogue_open": 1000}
    sites = {}
    for label, fast_ms in zip(LABELS, (7200.0, 5930.0)):
        sites[label] = {
            "site": "_site-full",
            "profiles": {
                FAST: {"cold": found(fast_ms, 4.81, steps), "repeat": found(1170.0, 0.0, repeat)},
                SLOW: {"cold": found(26610.0, 4.81, steps), "repeat": found(1180.0, 0.0, repeat)},
            },
        }
    result = {"load_average": {"min": 0.8, "max": 1.3, "samples": [1.0]}, "sites": sites}
    return {"command": "bench/phone.py", "runs": 1, "machine": {"nproc": 2, "platform": "test"}, "result": result}


def panels(svg: str) -> list[dict]:
    """Each panel's title, target line (x and label) and bars (label, right end x, value label)."""
    root = ET.fromstring(svg)  # fails if anything was not escaped
    out = []
    for element in root:
        tag, cls = element.tag.removeprefix(SVG), element.get("class")
        if tag == "text" and element.get("font-weight") == "bold" and element.get("font-size") is None:
            out.append({"title": element.text, "target": None, "bars": [], "labels": []})
        elif not out:
            continue
        elif tag == "text" and element.get("text-anchor") == "end":
            out[-1]["labels"].append(element.text)
        elif tag == "rect" and cls == "bar":
            right = float(element.get("x")) + float(element.get("width"))
            if len(out[-1]["bars"]) < len(out[-1]["labels"]):
                out[-1]["bars"].append({"label": out[-1]["labels"][-1], "right": right})
            else:
                out[-1]["bars"][-1]["right"] = right  # a stacked bar's next segment
        elif tag == "text" and cls == "value":
            out[-1]["bars"][-1]["value"] = element.text
        elif tag == "line" and cls == "target":
            out[-1]["target"] = {"x": float(element.get("x1"))}
        elif tag == "text" and (element.text or "").startswith("target "):
            out[-1]["target"]["label"] = element.text
    return out


def test_first_result_plot_draws_each_target_and_a_labelled_bar_per_site_and_visit():
    shown = panels(phone.figures(report())["first_result"])
    assert [panel["title"] for panel in shown] == [f"{FAST}, cold visit", f"{SLOW}, cold visit", shown[2]["title"]]
    assert "repeat" in shown[2]["title"]
    assert [panel["target"]["label"] for panel in shown] == ["target 6 s", "target 30 s", "target 1.5 s"]
    fast = shown[0]
    assert [bar["label"] for bar in fast["bars"]] == list(LABELS)
    assert [bar["value"] for bar in fast["bars"]] == ["7.20 s", "5.93 s"]
    # The bar over its target ends right of the target's line, the one under it left of it.
    assert fast["bars"][0]["right"] > fast["target"]["x"] > fast["bars"][1]["right"]
    repeat = shown[2]
    assert [bar["label"] for bar in repeat["bars"]] == [f"{site}, {name}" for site in LABELS for name in (FAST, SLOW)]
    assert [bar["value"] for bar in repeat["bars"]] == ["1.17 s", "1.18 s"] * 2
    assert all(bar["right"] < repeat["target"]["x"] for bar in repeat["bars"])


def test_bytes_plot_has_the_5_mb_target_only_where_the_issue_sets_it():
    shown = panels(phone.figures(report())["bytes_before_first_result"])
    assert shown[0]["target"]["label"] == "target 5 MB"
    assert shown[1]["target"] is None and shown[2]["target"] is None
    assert [bar["value"] for bar in shown[0]["bars"]] == ["4.81 MB", "4.81 MB"]
    assert all(bar["right"] < shown[0]["target"]["x"] for bar in shown[0]["bars"])


def test_start_up_steps_are_stacked_to_the_first_result_with_a_legend():
    svg = phone.figures(report())["steps"]
    shown = panels(svg)
    assert [bar["value"] for bar in shown[0]["bars"]] == ["7.20 s", "5.93 s"]
    bars = ET.fromstring(svg).findall(f"{SVG}rect[@class='bar']")
    assert len(bars) == 8 * len(phone.STEPS)  # 2 sites x 4 visits, a segment a step
    legend = {element.text for element in ET.fromstring(svg).iter(f"{SVG}text")}
    assert set(phone.STEP_SPANS) <= legend
    # The runtime's segment of the first cold bar: worker started (0.5 s) to runtime ready (5 s).
    tips = [bar.find(f"{SVG}title").text for bar in bars[:5]]
    assert tips[1] == f"before: {phone.STEP_SPANS[1]}: 4.50 s"


def test_render_rewrites_the_page_and_plots_from_a_results_file(tmp_path: Path):
    (tmp_path / "run.json").write_text(json.dumps(report()), "utf-8")
    assert phone.main(["--render", "run", "--out", str(tmp_path)]) == 0
    page = (tmp_path / "run.md").read_text("utf-8")
    for figure in ("first_result", "bytes_before_first_result", "steps"):
        assert f"(run-{figure}.svg)" in page
        ET.fromstring((tmp_path / f"run-{figure}.svg").read_text("utf-8"))
    assert "| after <b>&</b> | 10 Mbit/s, 40 ms | cold | 5.93 s |" in page
