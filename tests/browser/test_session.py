"""BrowserSession against the demo app in a real Chromium: capture, evidence, state, tracing, and every way it ends."""

from __future__ import annotations

import asyncio
import zipfile

import pytest

from studio.browser.errors import BrowserError, NavigationError, SessionClosedError
from studio.browser.input import InputAction, PageInput
from studio.browser.screencast import LiveScreencast
from studio.browser.session import BrowserSession
from studio.events import EventBus
from studio.models.browser import SessionOptions
from studio.models.events import (
    ConsoleEvent,
    NavigationEvent,
    NetworkEvent,
    PageErrorEvent,
    ScreenshotEvent,
    SessionEnded,
    SessionStarted,
)

pytestmark = pytest.mark.browser


class Recorded(list):
    def of(self, kind):
        return [event for event in self if isinstance(event, kind)]


@pytest.fixture
async def bus_and_events():
    bus = EventBus()
    events = Recorded()
    bus.subscribe(events.append)
    return bus, events


@pytest.fixture
async def session(bus_and_events):
    bus, _ = bus_and_events
    browser_session = BrowserSession(bus, SessionOptions(viewport=(1280, 720)))
    await browser_session.start()
    yield browser_session
    await browser_session.close()


async def _wait_for(predicate, timeout=10.0):
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.02)


async def test_start_publishes_the_session_with_its_settings(session, bus_and_events):
    _, events = bus_and_events
    started = events.of(SessionStarted)[0]
    assert started.session_id == session.id
    assert started.viewport == (1280, 720) and started.headless
    assert "HeadlessChrome" not in started.user_agent and "Chrome/" in started.user_agent
    assert await session.page.evaluate("[innerWidth, innerHeight]") == [1280, 720]


async def test_records_navigations_console_errors_and_failed_requests(demo, session, bus_and_events):
    _, events = bus_and_events
    demo.configure(game_fault="failed_request")
    assert await session.goto(demo.base_url + "/game") == 200
    await session.page.get_by_test_id("play-button").click()
    await _wait_for(lambda: any(e.status and e.status >= 500 for e in events.of(NetworkEvent)))
    failed = [e for e in events.of(NetworkEvent) if e.failed]
    assert any("/api/game/assets/sprites.json" in e.url and e.status == 500 for e in failed)
    assert [e.url for e in events.of(NavigationEvent)] == [demo.base_url + "/game"]
    assert all(e.session_id == session.id for e in events)

    demo.configure(game_fault="console_errors")
    await session.goto(demo.base_url + "/game")
    await session.page.get_by_test_id("play-button").click()
    await _wait_for(lambda: any(e.level == "error" for e in events.of(ConsoleEvent)))
    await _wait_for(lambda: events.of(PageErrorEvent))
    assert events.of(PageErrorEvent)[0].url.endswith("/game")


async def test_a_clean_page_produces_no_errors(demo, session, bus_and_events):
    _, events = bus_and_events
    await session.goto(demo.base_url + "/products")
    await session.page.get_by_test_id("loading-scrim").wait_for(state="hidden")
    assert [e for e in events.of(ConsoleEvent) if e.level == "error"] == []
    assert [e for e in events.of(NetworkEvent) if e.failed] == []
    assert any(e.url.endswith("/api/products") and e.status == 200 for e in events.of(NetworkEvent))


async def test_screenshot_is_published_as_evidence(demo, session, bus_and_events):
    _, events = bus_and_events
    await session.goto(demo.base_url + "/privacy")
    png = await session.screenshot("privacy")
    assert png.startswith(b"\x89PNG")
    shot = events.of(ScreenshotEvent)[0]
    assert (shot.label, shot.width, shot.height, shot.png) == ("privacy", 1280, 720, png)
    full = await session.screenshot("privacy-full", full_page=True)
    assert int.from_bytes(full[20:24], "big") > 720  # the privacy page is several screens tall


async def test_a_screenshot_waits_out_chromiums_transient_capture_failure(demo, session, bus_and_events):
    # A headed window with no composited frame yet answers "Unable to capture screenshot" for a moment.
    from playwright.async_api import Error as PlaywrightError

    await session.goto(demo.base_url + "/help")
    real, calls = session.page.screenshot, []

    async def not_ready_twice(**kwargs):
        calls.append(kwargs)
        if len(calls) <= 2:
            raise PlaywrightError("Page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot")
        return await real(**kwargs)

    session.page.screenshot = not_ready_twice
    png = await session.screenshot("after a retry")
    assert png.startswith(b"\x89PNG") and len(calls) == 3

    async def never_ready(**kwargs):
        raise PlaywrightError("Page.screenshot: Protocol error (Page.captureScreenshot): Unable to capture screenshot")

    session.page.screenshot = never_ready
    with pytest.raises(BrowserError, match="Could not take a screenshot"):
        await session.screenshot("never")


async def test_unreachable_and_invalid_urls_give_sentences(session, demo):
    with pytest.raises(NavigationError, match=r"Could not open http://127\.0\.0\.1:9/.*Check that the app is running"):
        await session.goto("http://127.0.0.1:9/")
    with pytest.raises(NavigationError, match="not a valid URL"):
        await session.goto("http://exa mple.com:99999/")
    assert await session.goto(demo.base_url + "/nowhere") == 404  # a 404 page is a page, not an error


async def test_storage_state_round_trip_keeps_the_login(demo, session, bus_and_events, tmp_path):
    bus, _ = bus_and_events
    user = demo.create_user(requires_2fa=False)
    await session.goto(demo.base_url + "/login")
    reply = await session.page.request.post(
        demo.base_url + "/api/login", data={"email": user["email"], "password": user["password"]}
    )
    assert reply.ok
    state_file = await session.save_storage_state(tmp_path / "state.json")
    assert any(c["name"] == "demo_session" for c in state_file["cookies"])

    again = BrowserSession(bus, SessionOptions(storage_state=tmp_path / "state.json"))
    await again.start()
    try:
        await again.goto(demo.base_url + "/dashboard")
        assert again.page.url.endswith("/dashboard")
    finally:
        await again.close()


async def test_bad_storage_state_is_refused_before_launch(bus_and_events, tmp_path):
    bus, _ = bus_and_events
    bad = tmp_path / "state.json"
    bad.write_text("{not json")
    with pytest.raises(BrowserError, match="not valid JSON"):
        await BrowserSession(bus, SessionOptions(storage_state=bad)).start()
    with pytest.raises(BrowserError, match="does not exist"):
        await BrowserSession(bus, SessionOptions(storage_state=tmp_path / "gone.json")).start()


async def test_tracing_writes_a_trace_zip(demo, bus_and_events, tmp_path):
    bus, _ = bus_and_events
    traced = BrowserSession(bus, SessionOptions(trace_path=tmp_path / "trace.zip"))
    await traced.start()
    await traced.goto(demo.base_url + "/help")
    await traced.close()
    with zipfile.ZipFile(tmp_path / "trace.zip") as archive:
        assert any(name.endswith(".trace") for name in archive.namelist())
    on_request = BrowserSession(bus)
    await on_request.start()
    try:
        with pytest.raises(BrowserError, match="No trace is being recorded"):
            await on_request.stop_tracing(tmp_path / "t2.zip")
        await on_request.start_tracing()
        await on_request.goto(demo.base_url + "/privacy")
        assert (await on_request.stop_tracing(tmp_path / "t2.zip")).stat().st_size > 1000
    finally:
        await on_request.close()


@pytest.mark.own_browser  # it crashes the browser: its own, not the worker's
async def test_killed_browser_ends_the_session_without_hanging(demo, session, bus_and_events):
    _, events = bus_and_events
    await session.goto(demo.base_url + "/products")
    cdp = await session.context.browser.new_browser_cdp_session()
    try:
        await cdp.send("Browser.crash")
    except Exception:
        pass  # the connection dies with the browser
    await asyncio.wait_for(session.ended.wait(), 10)
    ended = events.of(SessionEnded)
    assert [e.reason for e in ended] == ["browser_disconnected"]
    assert "recorded so far is kept" in ended[0].message
    with pytest.raises(SessionClosedError):
        await asyncio.wait_for(session.goto(demo.base_url + "/help"), 5)
    await asyncio.wait_for(session.close(), 10)


async def test_crashed_page_ends_the_session(session, bus_and_events):
    _, events = bus_and_events
    try:
        await session.page.goto("chrome://crash", timeout=5000)
    except Exception:
        pass
    await asyncio.wait_for(session.ended.wait(), 10)
    assert events.of(SessionEnded)[0].reason == "page_crashed"


async def test_popups_become_active_and_closing_the_last_page_ends_the_session(demo, session, bus_and_events):
    _, events = bus_and_events
    first = session.page
    await session.goto(demo.base_url + "/help")
    switched = []
    session.on_active_page(switched.append)
    async with session.context.expect_page() as popup_info:
        await first.evaluate("window.open('/privacy')")
    popup = await popup_info.value
    await _wait_for(lambda: session.page is popup)
    await popup.close()
    await _wait_for(lambda: session.page is first)
    assert switched == [popup, first]
    await first.close()
    await asyncio.wait_for(session.ended.wait(), 5)
    assert events.of(SessionEnded)[0].reason == "page_closed"


async def test_screencast_streams_frames_and_input_reaches_the_page(demo, session):
    frames = []
    cast = LiveScreencast(session, frames.append)
    await cast.start()
    await session.goto(demo.base_url + "/help")
    await _wait_for(lambda: frames)
    assert frames[-1].viewport_width == 1280 and frames[-1].jpeg[:2] == b"\xff\xd8"
    box = await session.page.get_by_test_id("help-search").bounding_box()
    forwarder = PageInput(session)
    forwarder.start()
    x, y = box["x"] + 5, box["y"] + box["height"] / 2
    for action in (InputAction("move", x, y), InputAction("down", x, y), InputAction("up", x, y)):
        forwarder.push(action)
    forwarder.push(InputAction("text", text="password"))
    await forwarder.drain()
    assert await session.page.get_by_test_id("help-search").input_value() == "password"
    await forwarder.stop()
    await cast.stop()


SPINNER = ("<!doctype html><style>div{width:80px;height:80px;background:teal;animation:spin 1s linear infinite}"
           "@keyframes spin{to{transform:rotate(360deg)}}</style><div></div>")


async def test_a_capped_screencast_holds_its_acknowledgements_to_the_frame_rate(session):
    # A spinning square asks for a frame on every paint; the cap holds each acknowledgement, so Chromium sends at
    # most that many a second (it captures and encodes only what it sends).
    await session.page.set_content(SPINNER)
    counts = {}
    for cap in (None, 8):
        frames = []
        cast = LiveScreencast(session, frames.append, max_fps=cap)
        await cast.start()
        await asyncio.sleep(0.5)
        start = len(frames)
        await asyncio.sleep(2.0)
        counts[cap] = len(frames) - start
        await cast.stop()
    assert counts[8] <= 2 * 8 + 2, counts  # two seconds at 8 a second, a frame or two of slack
    assert counts[None] > 2 * counts[8], counts


async def _frames_settle(frames: list, quiet_s: float = 1.0, limit_s: float = 8.0) -> None:
    loop = asyncio.get_running_loop()
    deadline, seen, since = loop.time() + limit_s, len(frames), loop.time()
    while loop.time() < deadline and loop.time() - since < quiet_s:
        await asyncio.sleep(0.05)
        if len(frames) != seen:
            seen, since = len(frames), loop.time()


async def test_the_last_frame_shows_the_page_as_it_is(demo, session):
    # The products page removes its loading scrim after hydrating; the live view must end on the page
    # without it, even though frames reach us out of capture order.
    import io

    from PIL import Image, ImageChops

    demo.configure(hydration_ms=(800, 800))
    for _ in range(3):
        frames = []
        cast = LiveScreencast(session, frames.append)
        await cast.start()
        await session.goto(demo.base_url + "/products")
        await session.page.get_by_test_id("loading-scrim").wait_for(state="hidden")
        await asyncio.sleep(1.0)  # the cards' fade-in ends; no more frames after that
        await _frames_settle(frames)  # on a busy machine the last ones may still be on their way
        await cast.stop()
        last = Image.open(io.BytesIO(frames[-1].jpeg)).convert("L")
        truth = Image.open(io.BytesIO(await session.page.screenshot())).convert("L").resize(last.size)
        differing = sum(1 for value in ImageChops.difference(last, truth).get_flattened_data() if value > 40)
        assert differing < 2000, f"the live view is stale: {differing} pixels differ from the page"
