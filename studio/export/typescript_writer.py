"""Write an ExportPlan as a @playwright/test spec: 2-space indents, Prettier-style breaks, no type annotations.

Without annotations the file is also a valid JavaScript module, so it is syntax-checked as one.
"""

from __future__ import annotations

from studio.export.literals import camel_case, comment_lines, javascript_regex, string_literal, words
from studio.export.statements import (
    Act,
    Declare,
    ExpectChecked,
    ExpectCount,
    ExpectNoAttribute,
    ExpectNoPageErrors,
    ExpectState,
    ExpectText,
    ExpectTexts,
    ExpectUrl,
    ExpectValue,
    ExportPlan,
    GoBack,
    Goto,
    Note,
    Reload,
    RequireEnv,
    ResponseWait,
    Statement,
    Subject,
    Unchecked,
    expected_failure,
    known_defect,
)
from studio.models.race import DRAG_STEPS

WIDTH = 80  # Prettier's default print width
INDENT = "  "
_METHODS = {"click": "click", "dblclick": "dblclick", "fill": "fill", "press": "press", "hover": "hover",
            "check": "check", "uncheck": "uncheck", "select_option": "selectOption", "drag_to": "dragTo"}
_STATES = {"hidden": "toBeHidden", "visible": "toBeVisible", "enabled": "toBeEnabled", "editable": "toBeEditable"}


def file_name(plan: ExportPlan) -> str:
    return "-".join(words(plan.title)[:10] or ["recorded-session"]) + ".spec.ts"


def render_typescript(plan: ExportPlan) -> str:
    """The whole spec file as text."""
    origin = f" (recorded on {plan.origin})" if plan.origin else ""
    body: list[str] = []
    if plan.defect is not None and plan.defect.status == "suspected":
        # Expected to fail: green while the defect is there; "expected to fail, but passed" once the app is fixed.
        body += [*_call(INDENT, "test.fail", ["true", string_literal(expected_failure(plan.defect))], ";"), ""]
    if plan.watches_page_errors:
        body += [f"{INDENT}const pageErrors = []; // uncaught errors the page throws, checked at the end",
                 f'{INDENT}page.on("pageerror", (error) => pageErrors.push(error.message));', ""]
    for number, step in enumerate(plan.steps):
        if number:
            body.append("")
        for statement in step.statements:
            body += _comment(statement.why, INDENT) + _code(statement, INDENT)
    # Import expect only when a line uses it: an unused import says "checks" where nothing is checked.
    uses_expect = any("expect(" in line for line in body if not line.lstrip().startswith("//"))
    lines = [*_comment(f"Exported by Preflight Studio from {plan.source}{origin}. "
                       "Run it with `npx playwright test`; README.md says how to point it at another server.", ""),
             "", f'import {{ test{", expect" if uses_expect else ""} }} from "@playwright/test";', "",
             *(_comment(known_defect(plan.defect), "") if plan.defect and plan.defect.status == "confirmed" else []),
             f"test({string_literal(plan.title)}, async ({{ page }}) => {{", *body, "});"]
    # JSON string literals (ours and LocatorSpec's) keep U+2028/U+2029 raw, which pre-ES2019 parsers read as line
    # breaks; they can only occur inside strings here (comments are cleaned), where the escape means the same.
    return ("\n".join(lines) + "\n").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def _comment(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    return [f"{indent}// {line}" for line in comment_lines(text, WIDTH - len(indent) - 3)]


def _code(statement: Statement, indent: str) -> list[str]:
    match statement:
        case Note():
            return []
        case Unchecked(reason=reason):
            return _call(indent, "test.skip", ["true", string_literal(reason)], ";")
        case RequireEnv(name=name):
            message = string_literal(f"Set {name} (see README.md).")
            return _call(indent, "expect", [f"process.env.{name}", message], ".toBeTruthy();")
        case Reload():
            return [f"{indent}await page.reload();"]
        case GoBack():
            return [f"{indent}await page.goBack();"]
        case Goto(url=url):
            return _call(indent, "await page.goto", string_literal(url), ";")
        case Declare(variable=variable, locator=locator):
            chain = _chain(Subject(locator=locator))
            one = f"{indent}const {camel_case(variable)} = {''.join(chain)};"
            if _fits(one):
                return [one]
            head, *links = _fluent(chain)
            return [f"{indent}const {camel_case(variable)} = {head}", *(indent + INDENT + link for link in links[:-1]),
                    f"{indent}{INDENT}{links[-1]};"]
        case ExpectState(subject=subject, state=state, timeout_ms=timeout_ms):
            options = f"{{ timeout: {timeout_ms} }}" if timeout_ms else ""
            return _expect(indent, subject, f".{_STATES[state]}({options});")
        case ExpectNoAttribute(subject=subject, name=name, value=value):
            return _expect(indent, subject, f".not.toHaveAttribute({string_literal(name)}, {string_literal(value)});")
        case ExpectUrl(pattern=pattern):
            return _call(indent, "await expect(page).toHaveURL", javascript_regex(pattern), ";")
        case ExpectText(subject=subject, text=text, contains=contains):
            call = f".{'toContainText' if contains else 'toHaveText'}("
            reading = _text_options(statement)
            if not reading:
                return _expect(indent, subject, f"{call}{string_literal(text)});")
            whole = _expect(indent, subject, f"{call}{string_literal(text)}, {{ {', '.join(reading)} }});")
            if len(whole) == 1:
                return whole
            # Prettier's layouts when the line is too long: the options object hugged (it opens on the line of the
            # call), else the subject broken out, else one argument a line with a trailing comma after the last.
            hugged = f"{indent}await expect({_inline(subject)}){call}{string_literal(text)}, {{"
            if _fits(hugged):
                return [hugged, *(f"{indent}{INDENT}{option}," for option in reading), f"{indent}}});"]
            if all(_fits(line) for line in whole):
                return whole
            return [*_expect(indent, subject, call), f"{indent}{INDENT}{string_literal(text)},",
                    f"{indent}{INDENT}{{ {', '.join(reading)} }},", f"{indent});"]
        case ExpectTexts(subject=subject, texts=texts):
            items = [string_literal(text) for text in texts]
            whole = _expect(indent, subject, f".toHaveText([{', '.join(items)}]);")
            if all(_fits(line) for line in whole):
                return whole
            # One text a line; the call's last line ends with the opening bracket.
            return [*_expect(indent, subject, ".toHaveText(["), *(f"{indent}{INDENT}{item}," for item in items),
                    f"{indent}]);"]
        case ExpectCount(subject=subject, count=count, after_frames=after_frames):
            frames = [f"{indent}// The page draws what the step changed before its absence is checked.",
                      f"{indent}await page.evaluate(",
                      f"{indent}{INDENT}() => new Promise((f) => requestAnimationFrame(() => requestAnimationFrame(f))),",
                      f"{indent});"] if after_frames else []
            return [*frames, *_expect(indent, subject, f".toHaveCount({count});")]
        case ExpectChecked(subject=subject, checked=checked):
            return _expect(indent, subject, ".toBeChecked();" if checked else ".not.toBeChecked();")
        case ExpectValue(subject=subject, value=value):
            return _expect(indent, subject, f".toHaveValue({string_literal(value)});")
        case ExpectNoPageErrors():
            return [f"{indent}expect(pageErrors).toEqual([]);"]
        case Act():
            return _act(statement, indent)
    raise TypeError(f"no TypeScript for {statement!r}")


def _text_options(check: ExpectText) -> list[str]:
    """The options of a text assertion that reads the text as a person does (a pilot verify's), if any."""
    return (["ignoreCase: true"] if check.ignore_case else []) + (["useInnerText: true"] if check.inner_text else [])


def _act(act: Act, indent: str) -> list[str]:
    receiver = "page.keyboard" if act.subject.locator is None else _inline(act.subject)
    if act.secret_env:
        # RequireEnv has already failed the test when it is unset; `|| ""` keeps the type a string for editors.
        argument = f'process.env.{act.secret_env} || ""'
    elif act.target is not None:
        argument = f"{_inline(Subject(locator=act.target))}, {{ steps: {DRAG_STEPS} }}"
    else:
        argument = string_literal(act.text) if act.text is not None else ""
    action = _call(indent, f"await {receiver}.{_METHODS[act.action]}", argument, ";")
    if act.wait is None:
        return action
    promise, response = _response_names(act.wait)
    predicate = (f"(r) => r.url().includes({string_literal(act.wait.path)}) && "
                 f"r.request().method() === {string_literal(act.wait.method)}")
    waiting = _call(indent, f"const {promise} = page.waitForResponse", predicate, ";")
    received = f"{indent}const {response} = await {promise};"
    return [*waiting, *action, received, *_response_check(act.wait, response, indent)]


def _response_names(wait: ResponseWait) -> tuple[str, str]:
    # Each wait gets its own consts: a second `const response` in the same test would not compile.
    suffix = "" if wait.ordinal == 1 else str(wait.ordinal)
    return f"responsePromise{suffix}", f"response{suffix}"


def _response_check(wait: ResponseWait, response: str, indent: str) -> list[str]:
    if wait.status is None:
        return []
    if 200 <= wait.status < 300:
        return [f"{indent}expect({response}.ok()).toBeTruthy();"]
    return [f"{indent}expect({response}.status()).toBe({wait.status});"]


def _expect(indent: str, subject: Subject, tail: str) -> list[str]:
    """`await expect(subject)tail`, broken the way Prettier breaks it when it is too long."""
    one = f"{indent}await expect({_inline(subject)}){tail}"
    if _fits(one):
        return [one]
    inner = indent + INDENT
    if subject.variable or subject.locator is None or _fits(inner + _inline(subject) + ","):
        return [f"{indent}await expect(", f"{inner}{_inline(subject)},", f"{indent}){tail}"]
    head, *links = _fluent(_chain(subject))
    return [f"{indent}await expect(", inner + head, *(inner + INDENT + link for link in links[:-1]),
            f"{inner}{INDENT}{links[-1]},", f"{indent}){tail}"]


def _call(indent: str, callee: str, arguments: str | list[str], tail: str) -> list[str]:
    arguments = [arguments] if isinstance(arguments, str) else arguments
    one = f"{indent}{callee}({', '.join(a for a in arguments if a)}){tail}"
    if _fits(one) or not any(arguments):
        return [one]
    # Prettier's layout: one argument per line, with a trailing comma after the last.
    return [f"{indent}{callee}(", *(f"{indent}{INDENT}{argument}," for argument in arguments), f"{indent}){tail}"]


def _inline(subject: Subject) -> str:
    if subject.variable:
        return camel_case(subject.variable)
    return "".join(_chain(subject))


def _chain(subject: Subject) -> list[str]:
    """The locator as links: ['page.getByTestId("card")', '.filter({ hasText: "x" })', …]."""
    if subject.locator is None or not subject.locator.steps:
        return ["page"]
    links = [link.typescript() for link in subject.locator.steps]
    return [f"page.{links[0]}", *(f".{link}" for link in links[1:])]


def _fluent(chain: list[str]) -> list[str]:
    """Prettier's member-chain layout: 'page' alone, then one '.call()' per line."""
    return ["page", f".{chain[0].removeprefix('page.')}", *chain[1:]]


def _fits(line: str) -> bool:
    return len(line) <= WIDTH
