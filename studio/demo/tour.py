"""The `studio demo` main job: sign in to the demo app through its UI (TOTP included), visit every page,
add a product to the cart, and leave a complete record in the project file."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

import pyotp
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, expect

from studio.browser.errors import BrowserError, SessionClosedError, first_line
from studio.browser.session import BrowserSession
from studio.browser.urls import path_of
from studio.models.events import NoticeEvent, ProgressEvent

JOB = "demo"
PRODUCT = "iPhone 15 Pro"

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

    def __init__(self, session: BrowserSession, base_url: str, user: DemoUser) -> None:
        self.session = session
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
            except (PlaywrightError, BrowserError, AssertionError) as error:
                if not self.session.alive:
                    raise SessionClosedError(self.session.end_message or "The browser session ended.") from error
                sentence = f"{title} failed: {first_line(error)}"
                self.result.failures.append(sentence)
                self.session.publish(NoticeEvent(level="warning", message=sentence))
        self.result.finished_at = time.time() * 1000
        return self.result

    # -- steps -------------------------------------------------------------------------------------

    @property
    def page(self) -> Page:
        return self.session.page

    async def _goto(self, path: str) -> None:
        await self.session.goto(self.base_url + path)
        self.result.visited.append(path_of(self.page.url))

    async def _open_login(self) -> None:
        await self._goto("/login")
        await expect(self.page.get_by_role("heading", name="Sign in")).to_be_visible()

    async def _sign_in(self) -> None:
        await self.page.get_by_test_id("email-input").fill(self.user.email)
        await self.page.get_by_test_id("password-input").fill(self.user.password)
        await self.page.get_by_test_id("login-button").click()
        if not self.user.otp_secret:
            await self.page.wait_for_url("**/dashboard")

    async def _two_factor(self) -> None:
        otp_input = self.page.get_by_test_id("otp-input")
        await expect(otp_input).to_be_visible()
        await otp_input.fill(pyotp.TOTP(self.user.otp_secret or "").now())
        await self.page.get_by_test_id("verify-button").click()
        await self.page.wait_for_url("**/dashboard")
        self.result.visited.append(path_of(self.page.url))

    def _visit_step(
        self, path: str, heading: str, then: Callable[[], Awaitable[None]] | None
    ) -> Callable[[], Awaitable[None]]:
        async def visit() -> None:
            if path_of(self.page.url) != path:  # signing in already landed on the dashboard
                await self._goto(path)
            if heading:
                await expect(self.page.get_by_role("heading", level=1)).to_contain_text(heading)
            else:
                await expect(self.page.get_by_role("heading", level=1)).to_be_visible()
            if path == "/products":
                await expect(self.page.get_by_test_id("loading-scrim")).to_be_hidden()
            await self.session.screenshot(path.strip("/") or "home")
            if then is not None:
                await then()

        return visit

    async def _add_to_cart(self) -> None:
        card = self.page.get_by_test_id("product-card").filter(has_text=PRODUCT)
        async with self.page.expect_response(
            lambda r: r.url.endswith("/api/cart/add") and r.request.method == "POST"
        ) as reply:
            await card.get_by_role("button", name="Add to Cart").click()
        body = await (await reply.value).json()
        self.result.cart_count = int(body.get("cart", {}).get("count", 0))
        await expect(self.page.get_by_role("status")).to_contain_text(f"{PRODUCT} added to cart")
        await self.session.screenshot("products-added-to-cart")

    async def _open_offer(self) -> None:
        offer = self.page.get_by_test_id("offer-card").first
        name = (await offer.get_attribute("aria-labelledby")) or ""
        title = await self.page.locator(f"#{name}").inner_text() if name else ""
        await offer.get_by_test_id("learn-more").click()
        await self.page.wait_for_url("**/offers/*")
        self.result.visited.append(path_of(self.page.url))
        if title:
            await expect(self.page.get_by_role("heading", level=1)).to_have_text(title)
        await self.session.screenshot("offer-details")

    async def _check_cart(self) -> None:
        await expect(self.page.get_by_test_id("cart-row").filter(has_text=PRODUCT)).to_be_visible()

    async def _play_game(self) -> None:
        await self.page.get_by_test_id("play-button").click()
        for key in ("ArrowLeft", "ArrowLeft", "Space", "ArrowRight", "ArrowRight", "Space"):
            await self.page.keyboard.press(key)
            await self.page.wait_for_timeout(120)  # let the game run a few frames between keys, as a player would
        await self.session.screenshot("game-playing")

    async def _sign_out(self) -> None:
        await self.page.get_by_test_id("logout-button").click()
        await self.page.wait_for_url("**/login**")
        self.result.visited.append(path_of(self.page.url))

