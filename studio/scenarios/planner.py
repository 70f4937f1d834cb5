"""The deterministic planner: the next action toward a scenario's goal with no model configured.

It reads only the observation (never the page's text as instructions) and the scenario: a sign-in form is filled
with the stored test user (and its TOTP code); a quoted phrase of the goal is typed into a search box and sent;
otherwise the clickable node whose name, test id or link best matches the goal's words and success conditions (and
the hints given so far) is clicked, nodes already tried losing out, so a wrong turn is not repeated.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urljoin, urlsplit

import pyotp

from studio.scenarios.observe import Observation, UINode
from studio.scenarios.spec import Scenario

CLICKABLE = {"link", "button", "tab", "menuitem", "checkbox", "switch"}
FIELDS = {"textbox", "searchbox", "combobox", "spinbutton"}
EMAIL = re.compile(r"e-?mail|user(name)?|login", re.IGNORECASE)
PASSWORD = re.compile(r"password|passphrase", re.IGNORECASE)
CODE = re.compile(r"code|otp|2fa|one-time|verification|authenticat", re.IGNORECASE)
SUBMIT = re.compile(r"^(sign ?in|log ?in|continue|submit|verify|next)\b", re.IGNORECASE)
LEAVES = re.compile(r"\b(log ?out|sign ?out|delete|remove|close account)\b", re.IGNORECASE)
SEARCH = re.compile(r"search|find|query", re.IGNORECASE)
QUOTED = re.compile(r"[\"“'‘]([^\"”'’]{2,60})[\"”'’]")
WORD = re.compile(r"[a-z0-9]+")
SAMPLE_TEXT = "Sample text written by the scenario agent for this field."
SAMPLE_BY_TYPE = {"email": "sample@example.com", "tel": "5550100", "number": "42.50", "url": "https://example.com",
                  "date": "2026-01-15", "text": "Sample text written by the scenario agent for this field."}
STOP = {"the", "a", "an", "and", "or", "to", "of", "on", "in", "for", "its", "it", "with", "page", "view", "open",
        "successfully", "go", "find", "see", "from", "by", "is", "be", "that", "this", "your", "you", "after", "use"}


@dataclass(frozen=True)
class Action:
    """One step in the seed's action protocol: {"type": "ui.act.click", "params": {"nodeId": "..."}}."""

    type: str
    params: dict[str, Any]
    reasoning: str = ""

    def as_json(self) -> dict[str, Any]:
        return {"type": self.type, "params": dict(self.params)}


@dataclass
class PlannerMemory:
    """What the planner remembers across steps of one scenario run."""

    clicked: dict[str, int] = field(default_factory=dict)  # node key -> times clicked
    typed: dict[str, str] = field(default_factory=dict)  # node key (URL + node) -> text typed
    hints: list[str] = field(default_factory=list)


def words(text: str) -> set[str]:
    return {w for w in WORD.findall(text.lower().replace("_", " ").replace("-", " ")) if w not in STOP and len(w) > 1}


def goal_words(scenario: Scenario, hints: list[str]) -> set[str]:
    said = [scenario.goal.description, scenario.name, *hints]
    for condition in scenario.goal.success.conditions:
        if condition.url_contains:
            said.append(condition.url_contains.replace("/", " "))
        if condition.heading_text:
            said.append(condition.heading_text)
        ref = condition.element_visible
        if ref is not None:
            said += [ref.testId or "", ref.name or "", ref.text or ""]
    return set().union(*(words(text) for text in said))


def credentials(variables: dict[str, Any]) -> dict[str, Any] | None:
    """The stored test user: the first stored value with an email and a password (or holding one as `user`, as
    data.user.get returns it)."""
    for value in variables.values():
        for candidate in (value, value.get("user") if isinstance(value, dict) else None):
            if isinstance(candidate, dict) and candidate.get("email") and candidate.get("password"):
                return candidate
    return None


def _key(observation: Observation, node: UINode) -> str:
    parts = urlsplit(observation.url)
    return f"{parts.path}#{node.testId or node.name or node.id}"


class DeterministicPlanner:
    name = "deterministic"

    def __init__(self, scenario: Scenario, variables: dict[str, Any]) -> None:
        self.scenario = scenario
        self.variables = variables
        self.memory = PlannerMemory()

    def next_action(self, observation: Observation, hints: list[str]) -> Action | None:
        self.memory.hints = hints
        return (self._sign_in(observation) or self._one_time_code(observation) or self._search(observation)
                or self._fill_form(observation) or self._best_click(observation))

    def remember(self, observation: Observation, action: Action) -> None:
        node = observation.node(str(action.params.get("nodeId", "")))
        if node is None:
            return
        key = _key(observation, node)
        if action.type == "ui.act.click":
            self.memory.clicked[key] = self.memory.clicked.get(key, 0) + 1
        elif action.type == "ui.act.type":
            self.memory.typed[key] = str(action.params.get("text", ""))
        elif action.type == "ui.act.select":
            self.memory.typed[key] = str(action.params.get("option", ""))

    # -- the tactics -------------------------------------------------------------------------------

    def _type_once(self, observation: Observation, node: UINode, text: str, why: str, **extra: Any) -> Action | None:
        """Type `text` unless the field already holds it (a page loaded anew empties what was typed before)."""
        if not node.enabled:
            return None
        if node.value is not None:
            holds = bool(node.value) if node.inputType == "password" else node.value == text
            if holds:
                return None
        elif self.memory.typed.get(_key(observation, node)) == text:
            return None
        return Action("ui.act.type", {"nodeId": node.id, "text": text, "clear": True, **extra}, why)

    def _submit(self, observation: Observation, form: str | None) -> Action | None:
        buttons = [n for n in observation.nodes if n.role == "button" and n.enabled and SUBMIT.match(n.name)
                   and (form is None or n.form == form)]
        return Action("ui.act.click", {"nodeId": buttons[0].id}, f"send the form with '{buttons[0].name}'") \
            if buttons else None

    def _sign_in(self, observation: Observation) -> Action | None:
        user = credentials(self.variables)
        password = next((n for n in observation.nodes if n.inputType == "password"), None)
        if user is None or password is None:
            return None
        email = next((n for n in observation.nodes if n.role == "textbox" and n.form == password.form
                      and n.inputType != "password" and (EMAIL.search(n.name) or n.inputType == "email")), None)
        if email is not None and (step := self._type_once(observation, email, str(user["email"]),
                                                          "sign in with the stored test user")):
            return step
        if step := self._type_once(observation, password, str(user["password"]), "the test user's password"):
            return step
        return self._submit(observation, password.form)

    def _one_time_code(self, observation: Observation) -> Action | None:
        user = credentials(self.variables)
        secret = user.get("otpSecret") if user else None
        field_ = next((n for n in observation.nodes if n.role == "textbox" and CODE.search(n.name)), None)
        if not secret or field_ is None:
            return None
        code = pyotp.TOTP(str(secret)).now()
        if step := self._type_once(observation, field_, code, "the one-time code from the test user's secret"):
            return step
        return self._submit(observation, field_.form)

    def _search(self, observation: Observation) -> Action | None:
        quoted = QUOTED.findall(self.scenario.goal.description)
        box = next((n for n in observation.nodes if n.role in ("searchbox", "textbox") and n.inputType != "password"
                    and (n.role == "searchbox" or SEARCH.search(n.name))), None)
        if not quoted or box is None:
            return None
        return self._type_once(observation, box, quoted[0], f"search for '{quoted[0]}'", submit=True)

    def _fill_form(self, observation: Observation) -> Action | None:
        """A form on the way to the goal (a wizard step): each empty field gets a plausible value by its type, one
        radio of a group is chosen, then the form's Next / Submit / Continue button is pressed."""
        forms = {n.form for n in observation.nodes if n.form and n.role == "button" and SUBMIT.match(n.name)}
        for form in sorted(f for f in forms if f):
            fields = [n for n in observation.nodes if n.form == form and n.enabled]
            for node in fields:
                if node.role == "combobox" and node.options and node.value in (None, "", *node.options[:1]):
                    choices = [o for o in node.options[1:] if o] or node.options
                    action = Action("ui.act.select", {"nodeId": node.id, "option": choices[0]},
                                    f"choose '{choices[0]}' in '{node.name}'")
                    if self.memory.typed.get(_key(observation, node)) != choices[0]:
                        return action
                elif node.role in ("textbox", "spinbutton") and not node.value:
                    if step := self._type_once(observation, node, SAMPLE_BY_TYPE.get(node.inputType or "",
                                                                                      SAMPLE_TEXT),
                                               f"fill '{node.name}' in"):
                        return step
            radios = [n for n in fields if n.role == "radio"]
            if radios and not any(n.checked for n in radios):
                return Action("ui.act.check", {"nodeId": radios[0].id, "checked": True},
                              f"choose '{radios[0].name}'")
            if any(n.role in FIELDS or n.role == "radio" for n in fields):
                submit = self._submit(observation, form)
                button = observation.node(str(submit.params["nodeId"])) if submit else None
                if submit is not None and button is not None and self.memory.clicked.get(
                        _key(observation, button), 0) < 2:
                    return submit
        return None

    def _best_click(self, observation: Observation) -> Action | None:
        wanted = goal_words(self.scenario, self.memory.hints)
        targets = [c.url_contains for c in self.scenario.goal.success.conditions if c.url_contains]
        best: tuple[float, UINode] | None = None
        here = urlsplit(observation.url).path
        for node in observation.nodes:
            if node.role not in CLICKABLE or not node.enabled or LEAVES.search(node.name):
                continue
            if node.href and urlsplit(urljoin(observation.url, node.href)).path == here and "#" not in node.href:
                continue  # a link to the page it is on goes nowhere
            score = _score(node, wanted, targets) - 3.0 * self.memory.clicked.get(_key(observation, node), 0)
            if best is None or score > best[0]:
                best = (score, node)
        if best is None or best[0] <= 0:
            return None
        node = best[1]
        return Action("ui.act.click", {"nodeId": node.id}, f"'{node.name or node.id}' matches the goal best")


def _score(node: UINode, wanted: set[str], targets: list[str]) -> float:
    own = words(f"{node.name} {node.testId or ''}") | words(urlsplit(node.href or "").path)
    score = float(len(own & wanted))
    if node.href and any(target in node.href for target in targets):
        score += 5.0
    if node.landmark == "nav":
        score += 0.25  # the navigation is where a first-time visitor looks
    return score


def redacted(action: Action, observation: Observation) -> Action:
    """The action as logs and the model keep it: text typed into a password or one-time-code field is hidden."""
    node = observation.node(str(action.params.get("nodeId", "")))
    if action.type != "ui.act.type" or node is None or not (node.inputType == "password" or CODE.search(node.name)):
        return action
    return Action(action.type, {**action.params, "text": "•" * 8}, action.reasoning)
