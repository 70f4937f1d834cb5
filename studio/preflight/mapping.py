"""Objective 3: a minimal UI map — the top navigation and the key pages behind it, and how to reach each.

The map (with the pages' catalogues) is cached per origin in the project file and reused by the next job
until navigation fails, i.e. until the home page's navigation no longer matches the cached one.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from studio.models.catalog import PageCatalog
from studio.models.context import KeyPage, UIMap
from studio.preflight.app_kind import classify
from studio.preflight.naming import area_name, clean_title, stable_heading
from studio.preflight.run import PreflightRun, origin_of
from studio.preflight.survey import survey_page
from studio.race.errors import RaceError
from studio.wording import plural

MAX_KEY_PAGES = 14


def _internal(run: PreflightRun, href: str | None) -> str | None:
    if not href or href.startswith(("#", "mailto:", "tel:", "javascript:")):
        return None
    url = run.url(href)
    return url if origin_of(url) == origin_of(run.context.resolved_base_url) else None


async def build_ui_map(run: PreflightRun, survey_all: bool) -> None:
    """Read the top navigation; survey the key pages behind it when the whole app is in scope."""
    run.objective = "build_ui_map"
    context = run.context
    earlier = dict(run.catalogs)  # the pages as an earlier load showed them (reaching a stable state opened the home)
    status, home = await run.visit(context.resolved_base_url, reached_by="the home page", screenshot=True)
    if home is None:
        return
    kind = classify(home.game, home.catalog.keyboard.where)
    run.job.state["app_kind"] = kind.model_dump()
    if kind.is_game:
        run.note(kind.sentence(home.catalog.path))
        run.progress(f"This looks like a browser game: {'; '.join(kind.evidence)}")
    found = [(item.name, _internal(run, item.href)) for item in home.catalog.nav]
    links = [(name, url) for name, url in found if name and url]
    context.ui_map = UIMap(top_nav=[name for name, _ in links])
    if not links:
        # A single-page app: no navigation between pages, but views of this one (client-side routes, e.g. the
        # filters of a list) and the page itself with what it lets you do.
        name = await _stable_name(run, home.catalog, earlier.get(home.catalog.path))
        _single_page_map(run, home.catalog, name)
        return
    origin = origin_of(context.resolved_base_url)
    project = run.project
    cached = project.jobs.cached_site(origin) if project else None
    if cached and cached[1].get("ui_map", {}).get("top_nav") == context.ui_map.top_nav:
        _reuse(run, cached[1])
        run.note(f"Reused the UI map cached for {origin} (its navigation is unchanged).")
        return
    if project is not None and cached:
        project.jobs.forget_site(origin)  # the navigation changed: the cached map no longer holds
        run.note(f"The navigation of {origin} changed since the UI map was cached; it is mapped again.")
    run.progress(f"Top navigation: {', '.join(context.ui_map.top_nav) or 'none found'}")
    for name, url in links[:MAX_KEY_PAGES]:
        path = urlsplit(url).path or "/"
        reach = f"Top nav › {name}"
        if survey_all and path not in run.catalogs:
            run.progress(f"Surveying {path}")
            status, survey = await run.visit(url, reached_by=reach)
            if survey is None or survey.catalog.is_error_page:
                run.note(f"{reach} ({path}) answered {status}.")
                continue
            context.ui_map.key_pages.append(KeyPage(name=survey.catalog.heading or name, url=survey.catalog.path,
                                                    how_to_reach=reach))
        else:
            context.ui_map.key_pages.append(KeyPage(name=name, url=path, how_to_reach=reach))
    if survey_all and run.project is not None:
        run.project.jobs.cache_site(origin, context.resolved_base_url, {
            "ui_map": context.ui_map.model_dump(),
            "catalogs": [catalog.model_dump(mode="json") for catalog in run.catalogs.values()],
        })


async def _stable_name(run: PreflightRun, home: PageCatalog, earlier: PageCatalog | None) -> str:
    """The page's name from what a second load shows too (the earlier load, else a reload now): a heading that is
    the same both times, else a title that is, else its address. The catalogue's heading becomes that heading."""
    if earlier is None or earlier is home:
        try:
            run.budget.charge_step()
            await run.driver.reload(wait_until="load")
            await run.driver.wait_for_load("networkidle", timeout_ms=3000)
            earlier = (await survey_page(run.driver)).catalog
        except RaceError as error:
            run.note(f"Reloading {home.path} to tell its stable headings from changing ones failed: {error}")
            earlier = None
    heading = stable_heading(home, earlier)
    if heading != home.heading:
        if home.heading:
            run.note(f"{home.path}: the heading '{home.heading}' changed on a reload; it does not name the page.")
        for catalog in {id(c): c for c in (home, run.catalogs.get(home.path)) if c is not None}.values():
            catalog.heading = heading
            if run.project is not None:
                run.project.jobs.save_catalog(run.job.id, catalog)
    title_holds = earlier is None or clean_title(earlier.title) == clean_title(home.title)
    if heading or title_holds:
        return area_name(home)
    return area_name(home.model_copy(update={"title": ""}))


def _single_page_map(run: PreflightRun, home: PageCatalog, name: str) -> None:
    context = run.context
    context.ui_map.key_pages.append(KeyPage(name=name, url=home.path, how_to_reach="the base URL"))
    for view in home.views:
        if not view.href or not view.name:
            continue
        where = (view.place or "page").capitalize()
        context.ui_map.top_nav.append(view.name)
        context.ui_map.key_pages.append(KeyPage(name=f"{name} › {view.name}", url=f"{home.path}{view.href}",
                                                how_to_reach=f"{where} › {view.name}"))
    keys = f" It listens to the keyboard ({', '.join(home.keyboard.where)})." if home.keyboard.listening else ""
    run.note(f"{home.path} is a single-page app: no navigation between pages; {plural(len(home.views), 'view')} "
             f"({', '.join(v.name for v in home.views) or 'none'}) and {plural(home.control_count, 'control')} on the page "
             f"itself.{keys}")
    run.progress(f"Single-page app: views {', '.join(context.ui_map.top_nav) or 'none'}")


def _reuse(run: PreflightRun, cached: dict) -> None:
    run.context.ui_map = UIMap.model_validate(cached["ui_map"])
    for raw in cached.get("catalogs", []):
        catalog = PageCatalog.model_validate(raw)
        run.catalogs.setdefault(catalog.path, catalog)
    run.job.state["ui_map_cached"] = True
