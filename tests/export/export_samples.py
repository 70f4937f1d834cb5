"""Recorded sessions as the recorder stores them (the shapes of tests/store/test_store_steps.py), on any origin."""

from __future__ import annotations

from pathlib import Path

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.race import CoverageObservation, NavigationObservation
from studio.models.recording import RecordedStep, RequestRecord, StepOutcome

SCRIM = LocatorSpec(strategy="test_id", steps=[LocatorStep(kind="test_id", value="loading-scrim")])
ADD_TO_CART = LocatorSpec(strategy="scoped", steps=[
    LocatorStep(kind="test_id", value="product-card"), LocatorStep(kind="filter_text", value="iPhone 15 Pro"),
    LocatorStep(kind="role", role="button", name="Add to Cart", exact=True)])
EMAIL = LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value="Email")])
PASSWORD = LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value="Password")])
SIGN_IN = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="button", name="Sign in")])
VIEW_CART = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="link", name="View cart")])

SECRET = "Correct-Horse-9!"  # what a careless recorder might keep; no exported file may contain it


def step(index: int, action: str, url: str, **fields) -> RecordedStep:
    return RecordedStep(session_id="s1", index=index, at=1000.0 + index, action=action, url=url, **fields)


def scrim_coverage(ref: str = "e42", **cover) -> CoverageObservation:
    return CoverageObservation(
        ref=ref, observedAt=1.0, elementCenter={"x": 512, "y": 438},
        elementAtPoint={"ref": "e15", "tag": "div", "testId": "loading-scrim", "zIndex": "9999", "opacity": "0.8",
                        "display": "block", **cover},
        targetElement={"ref": ref, "tag": "button", "testId": "add-to-cart"}, isTargetOrDescendant=False)


def add_to_cart(origin: str) -> list[RecordedStep]:
    """Open /products and add the iPhone 15 Pro while the loading scrim still covers the grid."""
    products = f"{origin}/products"
    return [
        step(0, "navigate", products,
             requests=[RequestRecord(method="GET", url=products, status=200, resource_type="document"),
                       RequestRecord(method="GET", url=f"{origin}/static/js/products.js", status=200,
                                     resource_type="script")]),
        step(1, "click", products, ref="e42", locator=ADD_TO_CART, observations=[scrim_coverage()],
             related_locators={"e15": SCRIM},
             requests=[RequestRecord(method="GET", url=f"{origin}/static/img/spinner.svg", status=200,
                                     resource_type="image"),
                       RequestRecord(method="POST", url=f"{origin}/api/cart/add", status=200)],
             outcome=StepOutcome(url_before=products, url_after=products,
                                 status_texts=["iPhone 15 Pro added to cart"])),
    ]


def sign_in(origin: str, email: str) -> list[RecordedStep]:
    """Sign in with a password that lives in STUDIO_PASSWORD; the recorder kept the value by mistake."""
    login = f"{origin}/login"
    return [
        step(0, "navigate", login),
        step(1, "fill", login, locator=EMAIL, value=email),
        step(2, "fill", login, locator=PASSWORD, value=SECRET, secret_env="STUDIO_PASSWORD"),
        step(3, "click", login, locator=SIGN_IN,
             requests=[RequestRecord(method="POST", url=f"{origin}/api/login", status=200)],
             outcome=StepOutcome(url_before=login, url_after=f"{origin}/dashboard")),
    ]


def follow_link(origin: str) -> list[RecordedStep]:
    """Click the "View cart" link, which the navigation observation saw pointing at /cart."""
    products = f"{origin}/products"
    link = NavigationObservation(ref="e7", observedAt=2.0, element={"ref": "e7", "tag": "a"},
                                 linkAncestor={"ref": "e7", "tag": "a", "href": "/cart", "isTarget": True})
    return [
        step(0, "navigate", products),
        step(1, "navigate", products),  # a reload the recorder saw as a second navigation
        step(2, "click", products, locator=VIEW_CART, observations=[link],
             requests=[RequestRecord(method="GET", url=f"{origin}/cart", status=200, resource_type="document")],
             outcome=StepOutcome(url_before=products, url_after=f"{origin}/cart")),
    ]


def all_text(folder: Path) -> str:
    """Every file of an export, as one string, for leak and sleep checks."""
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(folder.rglob("*")) if path.is_file())
