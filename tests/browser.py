"""A real headless browser for the page tests: the system's Chromium (Debian package
``chromium``, ``/usr/bin/chromium``, or ``CATBOX_CHROMIUM``) driven by Playwright for Python.
Nothing is downloaded: Playwright is pointed at the system browser.

Without the browser (or the playwright package) the browser tests are skipped on a developer's
machine and FAIL under CI (``CI=true``): ``.ci/run`` installs the browser, and the tests must run
there. Use it from a test module::

    @pytest.fixture(scope="module")
    def browser() -> Iterator[Browser]:
        with chromium() as b:
            yield b

and open pages with :func:`open_page`, which refuses every network request.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Response

CHROMIUM = Path(os.environ.get("CATBOX_CHROMIUM", "/usr/bin/chromium"))
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def _missing(what: str) -> None:
    message = f"{what} (install it: apt-get install -y chromium; pip install playwright)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests must run in CI: {message}", pytrace=False)
    pytest.skip(message)


@contextmanager
def chromium() -> Iterator[Browser]:
    """The system Chromium, headless, for one test module."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed")
    if not CHROMIUM.is_file():
        _missing(f"no browser at {CHROMIUM}")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def open_page(
    browser: Browser, url: str, *, width: int = 1200, init_script: str | None = None
) -> Iterator[tuple[Page, list[str]]]:
    """A fresh page at ``url`` (a ``file:`` or ``http://127.0.0.1`` address) with every other
    request refused; yields the page and the list of refused addresses (a test asserts it stays
    empty). JavaScript errors on the page fail the test. ``init_script`` runs in the page
    before any of its own scripts."""
    refused: list[str] = []
    errors: list[str] = []
    context = browser.new_context(viewport={"width": width, "height": 1000})
    page = context.new_page()

    def guard(route: object) -> None:
        from playwright.sync_api import Route

        assert isinstance(route, Route)
        target = route.request.url
        if target.startswith(("file:", "http://127.0.0.1", "data:")):
            route.continue_()
        else:
            refused.append(target)
            route.abort()

    page.route("**/*", guard)
    page.on("pageerror", lambda e: errors.append(str(e)))
    posted: list[Response] = []  # the served board's jobs, cancelled when the page closes
    page.on("response", lambda r: posted.append(r) if _a_new_job(r) else None)
    if init_script is not None:
        page.add_init_script(init_script)
    try:
        page.goto(url)
        yield page, refused
        assert not errors, errors
    finally:
        _cancel_jobs(context, posted)
        context.close()


def _a_new_job(r: Response) -> bool:
    return r.request.method == "POST" and r.url.endswith("/api/jobs") and r.ok


def _cancel_jobs(context: BrowserContext, posted: list[Response]) -> None:
    """Cancel every job the page started on the served board (one already ended is left as
    it is), whatever becomes of the page's own cancel on ``pagehide`` while the test closes it
    (its requests are routed through this process): a job left running would hold one of the
    server's workers until its time limit, and the next test's jobs would queue behind it."""
    for r in posted:
        try:
            job = r.json()["id"]
            origin = r.url[: -len("/api/jobs")]
            context.request.delete(f"{origin}/api/jobs/{job}", timeout=5_000)
        except Exception:  # a page or server already gone: nothing left to cancel
            pass
