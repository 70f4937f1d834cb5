"""What the scenario agent sees of a page (seed 004's ui.observe): the top 50 visible interactive elements as UINodes
(role, accessible name, test id, bounds, landmark, href, value, checked), then the page's visible headings (role
"heading") and its landmarks and named regions (role "region") as nodes too, each node with the seed's `parentId`
(the nearest node that contains it) and `children` (the nodes it contains); and the headings' texts, URL and title —
and whether a goal condition holds on it.

Each node gets an id the page keeps (`data-pfs-node`, cleared from the previous observation's nodes), so an action
names a node and the agent never writes a selector: the test id when the page has one, else n1, n2, … for interactive
elements, heading-1, … and region-1, … for the others. Headings and regions are context, not click candidates: the
deterministic planner clicks only interactive roles.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

from studio.models.locator import LocatorSpec, LocatorStep
from studio.race.driver import PageDriver
from studio.race.errors import RaceError
from studio.scenarios.spec import Condition, ElementRef

MAX_NODES = 50  # interactive elements; headings and regions come on top, MAX_CONTEXT of each
MAX_CONTEXT = 20
CONTEXT_ROLES = frozenset({"heading", "region"})
# Seed 004's UINode roles. An observation keeps the precise ARIA role (the planner fills a combobox, checks a radio);
# the MCP tools answer the seed's role and the precise one as `ariaRole` (seed_node), and studio run's MCP driver
# reads it back (precise_roles).
SEED_ROLES = ("link", "button", "textbox", "checkbox", "heading", "region")
SEED_ROLE_OF = {
    # what one checks or unchecks (ui.act.check)
    "radio": "checkbox", "switch": "checkbox", "menuitemcheckbox": "checkbox", "menuitemradio": "checkbox",
    # what one gives a value (ui.act.type; on a <select> it chooses the option of that label or value)
    "combobox": "textbox", "searchbox": "textbox", "spinbutton": "textbox", "slider": "textbox",
    "listbox": "textbox",
}
OBSERVE_JS = """([limit, most]) => {
  const INTERACTIVE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], '
    + '[role="link"], [role="tab"], [role="checkbox"], [role="menuitem"], [role="switch"], [onclick], [tabindex="0"]';
  const ROLES = { A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox', SUMMARY: 'button' };
  const INPUTS = { checkbox: 'checkbox', radio: 'radio', submit: 'button', button: 'button', search: 'searchbox',
    range: 'slider', number: 'spinbutton' };
  const clean = (s, n = 80) => (s || '').replace(/\\s+/g, ' ').trim().slice(0, n);
  const shown = (el) => {
    const r = el.getBoundingClientRect(); const st = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && st.visibility !== 'hidden' && st.display !== 'none' && !el.closest('[hidden], [inert]');
  };
  const nameOf = (el) => {
    const by = el.getAttribute('aria-labelledby');
    if (by) return clean(by.split(/\\s+/).map((id) => (document.getElementById(id) || {}).textContent || '').join(' '));
    if (el.getAttribute('aria-label')) return clean(el.getAttribute('aria-label'));
    if (el.labels && el.labels.length) return clean(el.labels[0].textContent);
    if (el.tagName === 'INPUT' && ['submit', 'button'].includes(el.type)) return clean(el.value);
    return clean(el.innerText || el.textContent || el.getAttribute('placeholder') || el.getAttribute('title') || '');
  };
  const landmarkOf = (el) => {
    const mark = el.closest('header, nav, main, footer, aside, [role="banner"], [role="navigation"], [role="main"], [role="contentinfo"], [role="complementary"]');
    if (!mark) return null;
    const tag = mark.tagName.toLowerCase(); const role = mark.getAttribute('role');
    return { header: 'header', nav: 'nav', main: 'main', footer: 'footer', aside: 'complementary', banner: 'header',
      navigation: 'nav', contentinfo: 'footer', complementary: 'complementary' }[role || tag] || null;
  };
  for (const el of document.querySelectorAll('[data-pfs-node]')) el.removeAttribute('data-pfs-node');
  const seen = new Set(); const nodes = []; const ids = new Set(); const byElement = new Map();
  const boundsOf = (el) => {
    const r = el.getBoundingClientRect();
    return { x: Math.round(r.x), y: Math.round(r.y), w: Math.round(r.width), h: Math.round(r.height) };
  };
  const claim = (el, wanted, fallback) => {
    let id = wanted && !ids.has(wanted) ? wanted : fallback;
    while (ids.has(id)) id = id + '_';
    ids.add(id); el.setAttribute('data-pfs-node', id);
    return id;
  };
  for (const el of document.querySelectorAll(INTERACTIVE)) {
    if (nodes.length >= limit) break;
    if (seen.has(el) || !shown(el) || el.closest('[aria-hidden="true"]')) continue;
    seen.add(el);
    const tag = el.tagName; const type = (el.getAttribute('type') || '').toLowerCase();
    let role = el.getAttribute('role') || (tag === 'INPUT' ? (INPUTS[type] || 'textbox') : ROLES[tag] || 'button');
    const testId = el.getAttribute('data-testid');
    const id = claim(el, testId, 'n' + (nodes.length + 1));
    const node = { id, role, name: nameOf(el), testId, enabled: !el.disabled && el.getAttribute('aria-disabled') !== 'true',
      visible: true, focused: document.activeElement === el, landmark: landmarkOf(el), bounds: boundsOf(el) };
    if (tag === 'A') node.href = el.getAttribute('href');
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(tag) && !['checkbox', 'radio', 'submit', 'button'].includes(type)) {
      node.value = type === 'password' ? (el.value ? '••••' : '') : clean(el.value, 200);
      node.inputType = tag === 'INPUT' ? (type || 'text') : tag.toLowerCase();
      if (tag === 'SELECT') node.options = [...el.options].map((o) => clean(o.textContent)).slice(0, 20);
    }
    if (['checkbox', 'radio'].includes(type) || ['checkbox', 'switch'].includes(role)) node.checked = !!el.checked || el.getAttribute('aria-checked') === 'true';
    const form = el.closest('form');
    const holder = form || el.closest('[role="form"], section, [data-testid]');
    if (form) node.form = form.getAttribute('aria-label') || form.id || form.getAttribute('action') || 'form';
    else if (holder && holder !== document.body) node.form = holder.getAttribute('data-testid') || holder.id || null;
    nodes.push(node); byElement.set(el, node);
  }
  // Headings, then landmarks and named regions: nodes for context (what the page says, where a node sits).
  const context = (selector, role, prefix, describe) => {
    let count = 0;
    for (const el of document.querySelectorAll(selector)) {
      if (count >= most) break;
      if (byElement.has(el) || !shown(el) || el.closest('[aria-hidden="true"]')) continue;
      const extra = describe(el);
      if (extra === null) continue;
      count += 1;
      const testId = el.getAttribute('data-testid');
      const node = { id: claim(el, testId, prefix + count), role, testId, enabled: true, visible: true,
        focused: document.activeElement === el, landmark: landmarkOf(el), bounds: boundsOf(el), ...extra };
      nodes.push(node); byElement.set(el, node);
    }
  };
  context('h1, h2, h3, h4, h5, h6, [role="heading"]', 'heading', 'heading-', (el) => {
    const name = clean(el.textContent);
    const level = Number(el.getAttribute('aria-level') || (/^H[1-6]$/.test(el.tagName) ? el.tagName[1] : 2));
    return name ? { name, level } : null;
  });
  context('header, nav, main, footer, aside, [role="banner"], [role="navigation"], [role="main"], [role="contentinfo"], '
    + '[role="complementary"], [role="region"], [role="search"], section[aria-label], section[aria-labelledby]',
    'region', 'region-', (el) => ({ name: el.getAttribute('aria-labelledby') || el.getAttribute('aria-label')
      ? nameOf(el) : '' }));
  // The hierarchy: each node's parent is the nearest node that contains it.
  for (const [el, node] of byElement) {
    for (let up = el.parentElement; up; up = up.parentElement) {
      const parent = byElement.get(up);
      if (parent) { node.parentId = parent.id; (parent.children = parent.children || []).push(node.id); break; }
    }
  }
  for (const node of nodes) if (node.role === 'region' && !node.children) node.children = [];
  const headings = [...document.querySelectorAll('h1, h2, h3, [role="heading"]')].filter(shown).map((h) => clean(h.textContent)).filter(Boolean).slice(0, 20);
  return { url: location.href, title: document.title, nodes, headings };
}"""


class UINode(BaseModel):
    """Seed 004's UINode, with what a form field needs besides (its type, a select's options, its form) and a
    heading's level."""

    id: str
    role: str
    name: str = ""
    bounds: dict[str, int] = Field(default_factory=dict)
    enabled: bool = True
    visible: bool = True
    focused: bool = False
    landmark: str | None = None
    href: str | None = None
    value: str | None = None
    checked: bool | None = None
    parentId: str | None = None
    children: list[str] | None = None
    testId: str | None = None
    level: int | None = None  # a heading's level (1-6)
    inputType: str | None = None
    options: list[str] | None = None
    form: str | None = None


def seed_role(role: str, href: str | None = None) -> str:
    """The seed's role for an ARIA role: itself when it is one of the six; radio and switch are checkboxes;
    combobox, searchbox, spinbutton and slider are textboxes; anything else one acts on (tab, menuitem, option, …)
    is a link when it has an href, else a button."""
    if role in SEED_ROLES:
        return role
    return SEED_ROLE_OF.get(role) or ("link" if href else "button")


def seed_node(node: UINode) -> dict[str, Any]:
    """The node as the MCP tools answer it: the seed's role, and the precise ARIA role as `ariaRole` when it
    differs (a radio is {"role": "checkbox", "ariaRole": "radio"})."""
    shown = node.model_dump(exclude_none=True)
    role = seed_role(node.role, node.href)
    if role != node.role:
        shown["role"], shown["ariaRole"] = role, node.role
    return shown


def precise_roles(reply: dict[str, Any]) -> dict[str, Any]:
    """An MCP ui.observe / ui.query reply with each node's precise role back from `ariaRole` (a server that sends
    only the seed's six roles leaves them as they are)."""
    nodes = reply.get("nodes")
    if not isinstance(nodes, list):
        return reply
    restored = []
    for node in nodes:
        if isinstance(node, dict) and isinstance(node.get("ariaRole"), str) and node["ariaRole"]:
            node = {**node, "role": node["ariaRole"]}
            node.pop("ariaRole")
        restored.append(node)
    return {**reply, "nodes": restored}


class Observation(BaseModel):
    url: str
    title: str = ""
    nodes: list[UINode] = Field(default_factory=list)
    headings: list[str] = Field(default_factory=list)

    def node(self, node_id: str) -> UINode | None:
        return next((n for n in self.nodes if n.id == node_id), None)

    @property
    def interactive(self) -> list[UINode]:
        """The nodes one acts on (not the headings and regions given for context)."""
        return [n for n in self.nodes if n.role not in CONTEXT_ROLES]


async def observe(page: PageDriver, limit: int = MAX_NODES) -> Observation:
    """The page now; a page that is navigating is read once it has loaded (three tries). RaceError when it cannot be
    read (closed, not answering, or still between documents after the tries)."""
    for attempt in range(3):
        try:
            raw: dict[str, Any] = await page.evaluate(OBSERVE_JS, [limit, MAX_CONTEXT], during="observing the page")
            return Observation.model_validate(raw)
        except RaceError as error:
            if attempt == 2 or error.kind in ("context_closed", "page_unresponsive"):
                raise
            await page.wait_for_load("load", timeout_ms=5_000)
    raise AssertionError("unreachable")


def url_part(url: str, wanted: str) -> str:
    """The part of `url` a url_contains condition is matched in: its path, with the query only when the condition
    names one (?) and the fragment only when it names one (#) — a sign-in page's ?next=/credit-report is not the
    credit report."""
    parts = urlsplit(url)
    text = parts.path
    if "?" in wanted or "=" in wanted:
        text += f"?{parts.query}"
    if "#" in wanted:
        text += f"#{parts.fragment}"
    return text


def node_selector(node_id: str) -> str:
    return f'[data-pfs-node="{node_id}"]'


async def holds(page: PageDriver, observation: Observation, condition: Condition) -> bool:
    """Whether `condition` holds on the page now (headings compared without case, as a tester reads them)."""
    seen = holds_in(observation, condition)
    if seen is not None:
        return seen
    assert condition.element_visible is not None
    return await _visible(page, condition.element_visible)


def holds_in(observation: Observation, condition: Condition) -> bool | None:
    """Whether a URL or heading condition holds on the observed page; None for one the page must be asked about."""
    if condition.url_contains is not None:
        return condition.url_contains in url_part(observation.url, condition.url_contains)
    if condition.heading_text is not None:
        wanted = condition.heading_text.casefold().strip()
        return any(heading.casefold().strip() == wanted for heading in observation.headings)
    return None


def element_target(ref: ElementRef) -> LocatorSpec:
    """An element_visible condition's element as a locator: by test id, else by role (and name), else by text."""
    if ref.testId is not None:
        return LocatorSpec(steps=[LocatorStep(kind="test_id", value=ref.testId)], strategy="test_id")
    if ref.role is not None:
        return LocatorSpec(steps=[LocatorStep(kind="role", role=ref.role, name=ref.name or None)], strategy="role")
    return LocatorSpec(steps=[LocatorStep(kind="text", value=ref.text or "")], strategy="text")


def roles_meant(role: str) -> list[str]:
    """The ARIA roles a condition's role stands for: itself, and when it is one of the seed's six the precise roles
    the seed reads as it (`textbox` is also a searchbox or a combobox, `checkbox` a radio or a switch)."""
    return [role, *(aria for aria, seed in SEED_ROLE_OF.items() if seed == role)]


async def _visible(page: PageDriver, ref: ElementRef) -> bool:
    if ref.testId is not None or ref.role is None:
        return await page.is_visible(element_target(ref))
    for role in roles_meant(ref.role):
        if await page.is_visible(element_target(ref.model_copy(update={"role": role}))):
            return True
    return False
