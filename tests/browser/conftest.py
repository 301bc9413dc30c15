"""Shared fixtures for the browser tests: build the site once, serve it on
127.0.0.1, and drive Debian's Chromium (never a downloaded browser) with
Playwright. Every page a test opens fails the test on any request to another
origin and on any console error.
"""

from __future__ import annotations

import re
import shutil
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    HOSTILE_ID,
    HOSTILE_RECORD,
    REPO,
    Served,
    build_site,
    council_records,
    series_records,
    serving,
    wait_for_ready,
)

from needs import need


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site(tmp_path_factory.mktemp("site") / "_site")


def _config_copy(work: Path, content: Path, extra: str = "") -> Path:
    """site/site.toml with content_dir pointing at `content` (and extra settings)."""
    raw = (REPO / "site" / "site.toml").read_text("utf-8")
    tomllib.loads(raw)  # the original must parse
    lines = []
    for line in raw.splitlines():
        if line.startswith("content_dir"):
            lines.append(f'content_dir = "{content.as_posix()}"')
            lines.extend(extra.splitlines())
        else:
            lines.append(line)
    config = work / "site.toml"
    config.write_text("\n".join(lines) + "\n", "utf-8")
    assert tomllib.loads(config.read_text("utf-8"))["content_dir"] == content.as_posix()
    return config


@pytest.fixture(scope="session")
def hostile_site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real content plus records it lacks on purpose, built with a copied
    config: one full of markup, and a series long enough to span three pages."""
    work = tmp_path_factory.mktemp("hostile")
    content = work / "content"
    shutil.copytree(REPO / "site" / "content", content)
    (content / "uk-living" / f"{HOSTILE_ID}.md").write_text(HOSTILE_RECORD, "utf-8")
    for name, text in {**series_records(), **council_records()}.items():
        (content / "uk-living" / name).write_text(text, "utf-8")
    return build_site(work / "_site", _config_copy(work, content))


@pytest.fixture(scope="session")
def sharded_site_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real content built with the sharded data layout large sites use."""
    work = tmp_path_factory.mktemp("sharded")
    return build_site(work / "_site", _config_copy(work, REPO / "site" / "content", 'index_layout = "sharded"'))


@pytest.fixture(scope="session")
def served(site_dir: Path) -> Iterator[Served]:
    yield from serving(site_dir)


@pytest.fixture(scope="session")
def hostile_served(hostile_site_dir: Path) -> Iterator[Served]:
    yield from serving(hostile_site_dir)


@pytest.fixture(scope="session")
def sharded_served(sharded_site_dir: Path) -> Iterator[Served]:
    yield from serving(sharded_site_dir)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    need(Path(CHROMIUM).exists(), f"Chromium ({CHROMIUM})")
    from playwright import sync_api

    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@dataclass
class Guard:
    """What a page did that a test must fail on."""

    origin: str
    foreign: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    expected_errors: list[str] = field(default_factory=list)

    def expect_console_errors(self, *patterns: str) -> None:
        """Tests that cause faults on purpose: console errors matching a regex are not failures."""
        self.expected_errors.extend(patterns)

    def unexpected_console_errors(self) -> list[str]:
        return [
            text
            for text in self.console_errors
            if not any(re.search(pattern, text) for pattern in self.expected_errors)
        ]

    def check(self) -> None:
        assert not self.foreign, f"requests to other origins: {self.foreign}"
        unexpected = self.unexpected_console_errors()
        assert not unexpected, f"console errors: {unexpected}"


@pytest.fixture
def open_page(browser: Any, served: Served) -> Iterator[Any]:
    """open_page(path, served=..., js=True) -> (page, guard); checks the guard afterwards."""
    contexts: list[tuple[Any, Guard]] = []

    def make(
        path: str | None = "",
        *,
        site: Served | None = None,
        js: bool = True,
        viewport: dict | None = None,
        wait_ready: bool = False,
        bypass_csp: bool = False,
        touch: bool = False,
    ):
        site = site or served
        context = browser.new_context(
            java_script_enabled=js,
            viewport=viewport or {"width": 1280, "height": 900},
            service_workers="block",
            bypass_csp=bypass_csp,
            is_mobile=touch,
            has_touch=touch,
        )
        guard = Guard(site.origin)

        def route(route: Any) -> None:
            url = route.request.url
            guard.requests.append(url)
            if url.startswith(site.origin + "/") or url == site.origin:
                route.continue_()
            else:
                guard.foreign.append(url)
                route.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on(
            "console", lambda message: guard.console_errors.append(message.text) if message.type == "error" else None
        )
        page.on("pageerror", lambda error: guard.console_errors.append(f"page error: {error}"))
        contexts.append((context, guard))
        if path is not None:
            page.goto(site.url(path))
            if wait_ready:
                wait_for_ready(page)
        return page, guard

    yield make
    for context, _ in contexts:
        context.close()
    for _, guard in contexts:
        guard.check()
