"""Turns at Python (site/static/js/worker/turns.js), run in Node: agent calls go cheapest
first, and a costly call that has waited long enough goes before fresh cheap ones, well
within the deadline after which an unstarted call answers "timeout"."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[1] / "site" / "static" / "js"

SCRIPT = """
const { DEADLINE_MS, estimate, grantSoon, takeTurn } = await import(process.argv[1]);
const { LANE } = await import(process.argv[2]);
// The order in which queued calls are given their turns; each gives its turn back at once.
async function order(calls) {
  const taken = [];
  await Promise.all(calls.map((call) => takeTurn(call).then(() => { taken.push(call.name); grantSoon(); })));
  return taken;
}
const now = performance.now();
const costliest = estimate("search_government_knowledge", JSON.stringify({
  query: "a b c d e f g h i j k l m n o p q r s t", publishers: ["1", "2", "3", "4", "5", "6", "7", "8"],
}));
const agent = (name, cost, waited) => ({ name, lane: LANE.AGENT, cost, arrived: now - waited });
console.log(JSON.stringify({
  costliest,
  fresh: await order([agent("heavy", 5, 0), agent("light", 2, 0)]),
  // Waited just over half the deadline, against a call that has just come.
  waited: await order([agent("light", 1, 0), agent("heavy", costliest, DEADLINE_MS / 2 + 100)]),
}));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_the_costliest_call_is_not_kept_past_its_deadline_by_fresh_cheap_ones():
    done = subprocess.run(
        ["node", "--input-type=module", "-e", SCRIPT, str(JS / "worker" / "turns.js"), str(JS / "messages.js")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found = json.loads(done.stdout)
    assert found["costliest"] == 1 + 16 + 4 * 8  # the work budget's terms and the schema's eight publishers
    assert found["fresh"] == ["light", "heavy"]  # cheapest first among calls that have just come
    assert found["waited"] == ["heavy", "light"]
