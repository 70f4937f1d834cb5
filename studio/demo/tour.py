"""The `studio demo` main job: sign in to the demo app through its UI (TOTP included), visit every page,
add a product to the cart, and leave a complete record in the project file."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pyotp

from studio.browser.errors import BrowserError, SessionClosedError, first_line
from studio.browser.session import BrowserSession
from studio.browser.urls import path_of
from studio.models.events import NoticeEvent, ProgressEvent
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.race.targets import State
from studio.runtime.live import LivePage

JOB = "demo"
PRODUCT = "iPhone 15 Pro"
NAVIGATION_WAIT_MS = 10_000

# Each stop: path, heading that proves the page rendered, and an optional interaction on it.
PAGES: tuple[tuple[str, str], ...] = (
    ("/dashboard", "Dashboard"),
    ("/credit-report", "Credit Report"),
    ("/disputes", "Dispute"),
    ("/alerts", "Alerts"),
    ("/offers", "Offers"),
    ("/help", "Help"),
    ("/privacy", "Privacy"),
    ("/products", "Products"),
    ("/cart", "Your cart"),
    ("/profile", "Profile"),
    ("/game", ""),
    ("/admin", ""),
)


@dataclass
class DemoUser:
    """The account the tour signs in with (created through the demo app's data endpoint)."""

    email: str
    password: str
    otp_secret: str | None


@dataclass
class TourResult:
    """What the tour did: visited paths in order, steps that failed (with sentences), cart size at the end."""

    visited: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    cart_count: int = 0
    started_at: float = field(default_factory=lambda: time.time() * 1000)
    finished_at: float = 0.0


class DemoTour:
    """Runs the tour on a live BrowserSession, publishing a ProgressEvent per step and a screenshot per page."""

    def __init__(self, session: BrowserSession, base_url: str, user: DemoUser, live: LivePage) -> None:
        self.session = session
        self.live = live
        self.base_url = base_url.rstrip("/")
        self.user = user
        self.result = TourResult()
        self._steps: list[tuple[str, Callable[[], Awaitable[None]]]] = self._plan()

    @property
    def total_steps(self) -> int:
        return len(self._steps)

    def _plan(self) -> list[tuple[str, Callable[[], Awaitable[None]]]]:
        steps: list[tuple[str, Callable[[], Awaitable[None]]]] = [
            ("Opening the sign-in page", self._open_login),
            (f"Signing in as {self.user.email}", self._sign_in),
        ]
        if self.user.otp_secret:
            steps.append(("Entering the two-factor code", self._two_factor))
        extra = {
            "/offers": (" and opening an offer's details", self._open_offer),
            "/products": (f" and adding {PRODUCT} to the cart", self._add_to_cart),
            "/cart": (f" to see {PRODUCT} in it", self._check_cart),
            "/game": (" and playing it for a moment", self._play_game),
        }
        for path, heading in PAGES:
            suffix, then = extra.get(path, ("", None))
            steps.append((f"Visiting {path}{suffix}", self._visit_step(path, heading, then)))
        steps.append(("Signing out", self._sign_out))
        return steps

    async def run(self) -> TourResult:
        """Run every step; a failing step is reported and the tour goes on, unless the session has ended."""
        for index, (title, step) in enumerate(self._steps, start=1):
            self.session.publish(ProgressEvent(job=JOB, step=index, total=self.total_steps, message=title))
            try:
                await step()
            except SessionClosedError:
                raise
            except (RaceError, BrowserError, AssertionError) as error:
                if not self.session.alive:
                    raise SessionClosedError(self.session.end_message or "The browser session ended.") from error
                sentence = f"{title} failed: {first_line(error)}"
                self.result.failures.append(sentence)
                self.session.publish(NoticeEvent(level="warning", message=sentence))
        self.result.finished_at = time.time() * 1000
        return self.result

    # -- steps -------------------------------------------------------------------------------------
    # The tour acts like any agent: through the live page's PageDriver (race preflight before each action).

    @property
    def driver(self) -> PageDriver:
        return self.live.driver

    async def _see(self, selector: str, what: str, state: State = "visible", timeout_ms: float = 5000) -> None:
        """Wait for what a step proves (a heading, a toast, the scrim gone), as Playwright's expect would."""
        if not await self.driver.wait_for(selector, state, timeout_ms):
            raise AssertionError(f"{what} was not {state} within {timeout_ms / 1000:g} s on {self.driver.url}")

    async def _arrive(self, pattern: str) -> None:
        if not await self.driver.wait_for_url(pattern, NAVIGATION_WAIT_MS):
            raise AssertionError(f"the page did not reach {pattern} (it is on {self.driver.url})")

    async def _goto(self, path: str) -> None:
        await self.session.goto(self.base_url + path)
        self.result.visited.append(path_of(self.driver.url))

    async def _open_login(self) -> None:
        await self._goto("/login")
        await self._see('role=heading[name="Sign in"]', "The 'Sign in' heading")

    async def _sign_in(self) -> None:
        await self.driver.must("fill", _test_id("email-input"), self.user.email)
        await self.driver.must("fill", _test_id("password-input"), self.user.password)
        await self.driver.must("click", _test_id("login-button"))
        if not self.user.otp_secret:
            await self._arrive("**/dashboard")

    async def _two_factor(self) -> None:
        await self._see(_test_id("otp-input"), "The one-time code field")
        await self.driver.must("fill", _test_id("otp-input"), pyotp.TOTP(self.user.otp_secret or "").now())
        await self.driver.must("click", _test_id("verify-button"))
        await self._arrive("**/dashboard")
        self.result.visited.append(path_of(self.driver.url))

    def _visit_step(
        self, path: str, heading: str, then: Callable[[], Awaitable[None]] | None
    ) -> Callable[[], Awaitable[None]]:
        async def visit() -> None:
            if path_of(self.driver.url) != path:  # signing in already landed on the dashboard
                await self._goto(path)
            if heading:
                await self._see(f"h1:has-text({json.dumps(heading)})", f"The heading {heading!r}")
            else:
                await self._see("h1", "The page's heading")
            if path == "/products":
                await self._see(_test_id("loading-scrim"), "The loading scrim", state="hidden")
            await self.session.screenshot(path.strip("/") or "home")
            if then is not None:
                await then()

        return visit

    async def _add_to_cart(self) -> None:
        card = f"{_test_id('product-card')}:has-text({json.dumps(PRODUCT)})"
        await self.driver.must("click", f'{card} >> role=button[name="Add to Cart"]')
        await self._see(f"role=status >> text={json.dumps(PRODUCT + ' added to cart')}", "The added-to-cart toast")
        cart = await self.driver.evaluate("() => fetch('/api/cart').then((reply) => reply.json())",
                                          during="reading the cart")
        self.result.cart_count = int((cart or {}).get("cart", {}).get("count", 0))
        await self.session.screenshot("products-added-to-cart")

    async def _open_offer(self) -> None:
        offer = f"{_test_id('offer-card')} >> nth=0"
        name = await self.driver.evaluate_on(offer, "(el) => el.getAttribute('aria-labelledby') || ''") or ""
        title = (await self.driver.evaluate_on(f"#{name}", "(el) => el.innerText") or "") if name else ""
        await self.driver.must("click", f"{offer} >> {_test_id('learn-more')}")
        await self._arrive("**/offers/*")
        self.result.visited.append(path_of(self.driver.url))
        if title:
            await self._see(f"h1:text-is({json.dumps(title.strip())})", f"The offer's heading {title!r}")
        await self.session.screenshot("offer-details")

    async def _check_cart(self) -> None:
        await self._see(f"{_test_id('cart-row')}:has-text({json.dumps(PRODUCT)})", f"The cart row of {PRODUCT}")

    async def _play_game(self) -> None:
        await self.driver.must("click", _test_id("play-button"))
        for key in ("ArrowLeft", "ArrowLeft", "Space", "ArrowRight", "ArrowRight", "Space"):
            await self.driver.press(key)
            await asyncio.sleep(0.12)  # let the game run a few frames between keys, as a player would
        await self.session.screenshot("game-playing")

    async def _sign_out(self) -> None:
        await self.driver.must("click", _test_id("logout-button"))
        await self._arrive("**/login**")
        self.result.visited.append(path_of(self.driver.url))


def _test_id(value: str) -> str:
    return f"[data-testid={json.dumps(value)}]"
