"""Fixtures for the demo app's tests: an HTTP client on the demo, signing a browser in, and an a11y walker."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import aiohttp
import pytest

SignIn = Callable[..., Awaitable[dict[str, Any]]]

INTERACTIVE_ROLES = {
    "button", "link", "textbox", "searchbox", "combobox", "checkbox", "radio", "spinbutton",
    "slider", "switch", "tab", "menuitem", "listbox",
}

# Elements a user can click, type into or focus, found from the DOM side so that a widget without any ARIA role
# (a focusable div, a clickable span) is caught too.
_DOM_INTERACTIVE = """(roles) => {
  const native = 'a[href], button, input:not([type=hidden]), select, textarea, summary';
  const roleSelector = roles.map((r) => `[role=${r}]`).join(', ');
  const selector = `${native}, ${roleSelector}, [tabindex]:not([tabindex="-1"]), [onclick]`;
  const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  return Array.from(document.querySelectorAll(selector)).filter(visible).map((el) => ({
    testid: el.getAttribute('data-testid'),
    hasRole: el.matches(native) || el.hasAttribute('role'),
    html: el.outerHTML.slice(0, 120),
  }));
}"""


@pytest.fixture
async def api(demo) -> AsyncIterator[aiohttp.ClientSession]:
    """An HTTP client on the demo app; its cookie jar accepts the loopback host's cookies."""
    async with aiohttp.ClientSession(base_url=demo.base_url, cookie_jar=aiohttp.CookieJar(unsafe=True)) as session:
        yield session


async def data_login(demo, email: str, password: str, otp: str | None = None) -> str:
    body = {"email": email, "password": password, **({"otp": otp} if otp else {})}
    async with aiohttp.ClientSession() as session:
        async with session.post(f"{demo.base_url}/_data/login", json=body) as response:
            assert response.status == 200, await response.text()
            return (await response.json())["token"]


@pytest.fixture
def sign_in(demo, page) -> SignIn:
    """Create a user and sign the test's browser context in as them, without going through the login page."""

    async def _sign_in(**user_kwargs: Any) -> dict[str, Any]:
        user = demo.create_user(**user_kwargs)
        token = await data_login(demo, user["email"], user["password"])
        await page.context.add_cookies([{"name": "demo_session", "value": token, "url": demo.base_url}])
        user["token"] = token
        return user

    return _sign_in


@pytest.fixture
def accessibility_problems(page) -> Callable[[], Awaitable[list[str]]]:
    """Audits the test's page as it is now; see `audit_interactive_elements`."""
    return lambda: audit_interactive_elements(page)


async def audit_interactive_elements(page) -> list[str]:
    """Interactive elements lacking a data-testid or an ARIA role (DOM side) or an accessible name (Chromium's own
    accessibility tree, so names come from labels, aria-labelledby and text exactly as assistive tech sees them)."""
    problems: list[str] = []
    for element in await page.evaluate(_DOM_INTERACTIVE, sorted(INTERACTIVE_ROLES)):
        if not element["testid"]:
            problems.append(f"no data-testid: {element['html']}")
        if not element["hasRole"]:
            problems.append(f"no ARIA role: {element['html']}")
    cdp = await page.context.new_cdp_session(page)
    try:
        await cdp.send("DOM.getDocument", {"depth": 0})
        tree = await cdp.send("Accessibility.getFullAXTree")
        for node in tree["nodes"]:
            role = node.get("role", {}).get("value")
            if node.get("ignored") or role not in INTERACTIVE_ROLES or "backendDOMNodeId" not in node:
                continue
            if str(node.get("name", {}).get("value", "")).strip():
                continue
            described = await cdp.send("DOM.describeNode", {"backendNodeId": node["backendDOMNodeId"]})
            flat = described["node"].get("attributes", [])
            attributes = dict(zip(flat[::2], flat[1::2], strict=True))
            problems.append(f"no accessible name: {role} {described['node']['localName']} {attributes}")
    finally:
        await cdp.detach()
    return problems
