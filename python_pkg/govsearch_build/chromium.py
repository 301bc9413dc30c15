"""How the project starts Chromium, for the tests and the benchmarks alike.

Debian's own `chromium` (never a downloaded browser), with nothing reaching
beyond the site under test: no background networking, updates, sync or QUIC.
`--enable-features=WebMCP` gives pages `document.modelContext`, so the page's
tools are the browser's own, as an agent would meet them.
"""

CHROMIUM = "/usr/bin/chromium"
FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--enable-features=WebMCP",
)
