"""The navigation graph path optimality is measured on: pages (normalised paths, as a run's urlHistory holds them) as
nodes, "one action gets you from here to there" as edges — built by the studio itself, not written by hand.

- A bounded same-origin crawl from the scenarios' start pages, on a page of its own the runtime hands out (a fresh
  context): every link (a[href]) is followed, breadth first, and the edge goes to the page it *lands on* (a link to a
  page behind a sign-in that lands on the sign-in page is no shortcut); then, while the budget lasts, buttons outside
  forms that navigate are found by clicking them (through the action layer, PageDriver.do), the page loaded again
  after each one that navigated. Limits: depth, pages loaded, a time budget. Sign-out links and buttons that look
  like they change data are never used.
- A second crawl with a signed-in storage state, when the public crawl met pages it was turned away from: it adds the
  edges of pages the public crawl could not see (a page the public reaches keeps the edges the public has, so a
  cold sign-in run is not measured against shortcuts only a signed-in user has).
- The preflight's UI map, when the project has one for the app's origin: top navigation and each surveyed page's
  navigation links.

The union of these edges and the transitions the runs made is the graph; the edges go into the run's JSONL log
(`navGraph`), so `studio report` recomputes optimality from the log alone.
"""

from __future__ import annotations

import re
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit, urlunsplit

from studio.browser.contexts import ContextOptions
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.scenarios.driver import OpenPage
from studio.wording import plural

Edge = tuple[str, str]

LEAVES = re.compile(r"(log|sign)[\s_-]?(out|off)", re.IGNORECASE)
CHANGES_DATA = re.compile(r"\b(delete|remove|cancel|close|pay|buy|purchase|order|checkout|submit|confirm|send|reset|"
                          r"clear|dismiss|mark|archive|apply|save|accept|decline|add|unsubscribe)\b", re.IGNORECASE)
LINKS_JS = "els => els.map(e => [e.getAttribute('href') || '', (e.textContent || '').trim().slice(0, 80)])"
BUTTONS_JS = """(limit) => {
  const found = [];
  for (const el of document.querySelectorAll('button, [role="button"], [role="link"]:not(a), [onclick]')) {
    if (found.length >= limit) break;
    const r = el.getBoundingClientRect();
    if (el.closest('form') || el.disabled || r.width === 0 || r.height === 0) continue;
    el.setAttribute('data-pfs-crawl', String(found.length));
    found.push((el.getAttribute('aria-label') || el.textContent || '').replace(/\\s+/g, ' ').trim().slice(0, 80));
  }
  return found;
}"""


class CrawlError(Exception):
    """The crawl reached no page at all; str() says why."""


@dataclass
class CrawlLimits:
    depth: int = 4
    pages: int = 60  # page loads, links and button clicks together
    seconds: float = 30.0
    buttons_per_page: int = 6
    click_wait_ms: int = 400


@dataclass
class NavGraph:
    """What a crawl (or the UI map) found: its pages and edges, and a sentence on how it went."""

    edges: set[Edge] = field(default_factory=set)
    pages: set[str] = field(default_factory=set)
    gated: set[str] = field(default_factory=set)  # URLs that landed on another page (e.g. a sign-in)
    sources: list[str] = field(default_factory=list)
    note: str = ""

    def add(self, other: NavGraph) -> None:
        self.edges |= other.edges
        self.pages |= other.pages
        self.gated |= other.gated
        self.sources += [s for s in other.sources if s not in self.sources]
        self.note = "; ".join(n for n in (self.note, other.note) if n)

    def as_json(self) -> dict[str, Any]:
        return {"sources": self.sources, "pages": sorted(self.pages), "edges": [list(e) for e in sorted(self.edges)],
                "note": self.note}


def path_of(url: str) -> str:
    return urlsplit(url).path or "/"


def edges_in(records: Iterable[dict[str, Any]]) -> set[Edge]:
    """Every edge of every `navGraph` a log's records hold (run_start: the crawl before the scenarios; run_end: the
    whole graph, with what was crawled after them)."""
    found: set[Edge] = set()
    for record in records:
        graph = record.get("navGraph")
        if isinstance(graph, dict):
            found |= {(str(a), str(b)) for a, b in graph.get("edges") or [] if a != b}
    return found


def merge(*graphs: Iterable[Edge]) -> set[Edge]:
    """The union of edge sets, without self-loops (staying on a page is no transition)."""
    return {(a, b) for graph in graphs for a, b in graph if a != b}


def _same_origin(base: str, href: str, here: str) -> str | None:
    """The absolute URL (no fragment) of a link on `here` when it stays on `base`'s origin, else None."""
    if not href or href.startswith(("#", "mailto:", "tel:", "javascript:", "data:")):
        return None
    url = urlsplit(urljoin(here, href))
    if (url.scheme, url.netloc) != urlsplit(base)[:2]:
        return None
    return urlunsplit((url.scheme, url.netloc, url.path or "/", url.query, ""))


class Crawler:
    """A breadth-first crawl on one page of its own context; `public` says which pages keep their edges."""

    def __init__(self, open_page: OpenPage, base_url: str, limits: CrawlLimits, storage_state: str | None = None,
                 public: set[str] | None = None) -> None:
        self.open_page, self.base, self.limits, self.state = open_page, base_url, limits, storage_state
        self.public = public or set()  # pages a public crawl saw: a signed-in crawl adds no edges from them
        self.graph = NavGraph()
        self.loads = 0
        self.deadline = 0.0
        self.landed: dict[str, str] = {}  # URL -> the page it lands on
        self.failure = ""  # the last load that failed, and why
        self.to_click: list[tuple[str, str]] = []  # (URL, page) of the pages whose buttons are tried

    def _spent(self) -> bool:
        return self.loads >= self.limits.pages or time.monotonic() > self.deadline

    async def _load(self, page: PageDriver, url: str) -> str | None:
        self.loads += 1
        try:
            await page.navigate(url, wait_until="load", timeout_ms=10_000)
        except RaceError as error:
            if error.kind == "context_closed":
                raise
            self.failure = f"{url}: {(error.message.strip().splitlines() or ['no answer'])[0]}"
            return None
        landed = path_of(page.url)
        self.landed[url] = landed
        if landed != path_of(url):
            self.graph.gated.add(url)
        return landed

    async def _links(self, page: PageDriver) -> list[str]:
        found = await page.evaluate_on("a[href]", LINKS_JS, every=True) or []
        urls = [_same_origin(self.base, href, page.url) for href, text in found
                if not LEAVES.search(href) and not LEAVES.search(text)]
        return list(dict.fromkeys(u for u in urls if u))

    async def run(self, starts: list[str]) -> NavGraph:
        self.deadline = time.monotonic() + self.limits.seconds
        page = await self.open_page(ContextOptions(storage_state=self.state))
        try:
            queue: deque[tuple[str, int]] = deque()
            expanded: set[str] = set()
            for url in starts:
                if self._spent():
                    break
                landed = await self._load(page, url)
                if landed is not None and landed not in expanded:
                    expanded.add(landed)
                    self.graph.pages.add(landed)
                    await self._expand(page, url, landed, 0, queue, expanded)
            while queue and not self._spent():
                url, depth = queue.popleft()
                landed = await self._load(page, url)
                if landed is not None:
                    await self._expand(page, url, landed, depth, queue, expanded)
            for url, here in self.to_click:  # buttons after every link: they cost a load each, links come first
                if self._spent():
                    break
                for landed in await self._buttons(page, url, here):
                    self.graph.pages.add(landed)
                    self.graph.edges.add((here, landed))
        finally:
            await page.close()
        return self.graph

    async def _expand(self, page: PageDriver, url: str, here: str, depth: int,
                      queue: deque[tuple[str, int]], expanded: set[str]) -> None:
        """Follow the links of `page` (loaded from `url`, on path `here`); its buttons are tried after the links."""
        adds_edges = here not in self.public
        links = await self._links(page)
        for link in links:
            if self._spent():
                return
            landed = self.landed.get(link)
            if landed is None:
                landed = await self._load(page, link)
                if landed is None:
                    continue
                if landed not in expanded:
                    expanded.add(landed)
                    self.graph.pages.add(landed)
                    if depth + 1 < self.limits.depth:
                        queue.append((link, depth + 1))
            if adds_edges and landed != here:
                self.graph.edges.add((here, landed))
        if adds_edges and self.limits.buttons_per_page > 0:
            self.to_click.append((url, here))

    async def _buttons(self, page: PageDriver, url: str, here: str) -> set[str]:
        """The pages buttons of `url` lead to, clicked one by one (the page loaded again after a navigation); the
        crawl's page is free for them once every link was followed."""
        found: set[str] = set()
        names: list[str] = []
        fresh = True
        for index in range(self.limits.buttons_per_page):
            if self._spent():
                break
            if fresh:
                if await self._load(page, url) != here:
                    break
                try:
                    names = await page.evaluate(BUTTONS_JS, self.limits.buttons_per_page, during="listing buttons")
                except RaceError as error:
                    if error.kind == "context_closed":
                        raise
                    break
                fresh = False
            if index >= len(names):
                break
            if LEAVES.search(names[index]) or CHANGES_DATA.search(names[index]):
                continue
            try:
                clicked = await page.do("click", f'[data-pfs-crawl="{index}"]', timeout_ms=1_000)
            except RaceError as error:
                if error.kind == "context_closed":
                    raise
                continue
            if not clicked.acted or not await page.wait_for_url(lambda u: path_of(u) != here,
                                                                 timeout_ms=self.limits.click_wait_ms):
                continue  # it did not navigate (an accordion, a menu, a dialog)
            if _same_origin(self.base, page.url, page.url):
                found.add(path_of(page.url))
            fresh = True
        return found


async def crawl(open_page: OpenPage, base_url: str, starts: list[str], limits: CrawlLimits | None = None,
                storage_state: str | None = None, public: set[str] | None = None) -> NavGraph:
    """Crawl from the start URLs on a page `open_page` hands out; with `storage_state` (a signed-in state) only pages
    not in `public` add edges. Raises CrawlError when no start page loads (BrowserError when no page can be opened)."""
    crawler = Crawler(open_page, base_url, limits or CrawlLimits(), storage_state, public)
    started = time.monotonic()
    graph = await crawler.run(starts)
    if not graph.pages:
        raise CrawlError(f"no start page could be loaded ({crawler.failure or 'out of time'})")
    graph.sources = ["signed-in crawl" if storage_state else "crawl"]
    ran_out = " (stopped at its limits)" if crawler._spent() else ""
    graph.note = (f"{graph.sources[0]}: {plural(len(graph.pages), 'page')}, {plural(len(graph.edges), 'edge')} from "
                  f"{plural(crawler.loads, 'load')} in {time.monotonic() - started:.1f} s{ran_out}")
    return graph


def ui_map_graph(cached: dict[str, Any]) -> NavGraph:
    """The edges a preflight's cached site shows: each page it surveyed (the home page and the key pages of its UI
    map) to the same-site pages its navigation links to."""
    graph = NavGraph(sources=["preflight UI map"])
    catalogs = cached.get("catalogs") or []
    for catalog in catalogs:
        here = str(catalog.get("path") or "")
        if not here:
            continue
        graph.pages.add(here)
        for item in catalog.get("nav") or []:
            href = str(item.get("href") or "")
            if href.startswith("/") and not href.startswith("//") and not LEAVES.search(href):
                target = path_of(href)
                graph.pages.add(target)
                if target != here:
                    graph.edges.add((here, target))
    graph.note = f"preflight UI map: {plural(len(graph.pages), 'page')}, {plural(len(graph.edges), 'edge')}"
    return graph


def project_ui_map(project: str, base_url: str) -> NavGraph | None:
    """The UI-map graph a project file keeps for `base_url`'s origin (None when it has none for it)."""
    from studio.store.project import ProjectFile

    parts = urlsplit(base_url)
    with ProjectFile.open(project, writable=False) as opened:
        cached = opened.jobs.cached_site(f"{parts.scheme}://{parts.netloc}")
    return ui_map_graph(cached[1]) if cached else None
