"""Write an ExportPlan as a pytest-playwright test: sync API, the `page` fixture, black-style line breaks."""

from __future__ import annotations

from studio.export.literals import comment_lines, python_regex, sentence_start, string_literal
from studio.export.plan import python_function_name
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

WIDTH = 88  # black's default line length
INDENT = "    "


def file_name(plan: ExportPlan) -> str:
    return python_function_name(plan.title) + ".py"


def render_python(plan: ExportPlan) -> str:
    """The whole test module as text."""
    origin = f" (recorded on {plan.origin})" if plan.origin else ""
    lines = [*_docstring(f"Exported by Preflight Studio from {plan.source}{origin}.", "",
                         "Run it with `pytest`; README.md says how to point it at another server."), ""]
    imports = (["import os"] if plan.env_vars else []) + (["import re"] if plan.uses_regex else [])
    if imports:
        lines += [*imports, ""]
    suspected = plan.defect is not None and plan.defect.status == "suspected"
    if plan.unchecked or suspected:
        lines += ["import pytest", ""]
    body: list[str] = []
    if plan.watches_page_errors:
        body += [f"{INDENT}page_errors = []  # uncaught errors the page throws, checked at the end",
                 f'{INDENT}page.on("pageerror", lambda error: page_errors.append(error.message))', ""]
    for number, step in enumerate(plan.steps):
        if number:
            body.append("")
        for statement in step.statements:
            body += _comment(statement.why, INDENT) + _code(statement, INDENT)
    # Import expect only when a line uses it: an unused import says "checks" where nothing is checked.
    uses_expect = any(line.lstrip().startswith("expect(") or " expect(" in line for line in body)
    lines += [f"from playwright.sync_api import Page{', expect' if uses_expect else ''}", "", "",
              *_defect_lines(plan),
              f"def {python_function_name(plan.title)}(page: Page) -> None:",
              *_docstring(sentence_start(plan.title.rstrip(".")) + ".", INDENT), *body]
    return "\n".join(lines) + "\n"


def _defect_lines(plan: ExportPlan) -> list[str]:
    """A suspected defect's strict xfail (green while the defect is there, red once the app is fixed); a confirmed
    one's comment (the test fails until the app is fixed)."""
    if plan.defect is None:
        return []
    if plan.defect.status == "confirmed":
        return _comment(known_defect(plan.defect), "")
    reason = [string_literal(part + " ") for part in comment_lines(expected_failure(plan.defect), WIDTH - 12)]
    reason[-1] = reason[-1][:-2] + '"'  # no space after the last part
    return ["@pytest.mark.xfail(", f"{INDENT}reason=(", *(INDENT * 2 + part for part in reason), f"{INDENT}),",
            f"{INDENT}strict=True,", ")"]


def _docstring(text: str, indent: str, extra: str | None = None) -> list[str]:
    """A docstring that no text can end early: backslashes and quotes are escaped, long text wrapped."""
    safe = text.replace("\\", "\\\\").replace('"', '\\"')
    wrapped = comment_lines(safe, WIDTH - len(indent) - 6)
    if len(wrapped) == 1 and extra is None:
        return [f'{indent}"""{wrapped[0]}"""']
    tail = ["", indent + extra] if extra else []
    return [f'{indent}"""{wrapped[0]}', *(indent + line for line in wrapped[1:]), *tail, f'{indent}"""']


def _comment(text: str | None, indent: str) -> list[str]:
    if not text:
        return []
    return [f"{indent}# {line}" for line in comment_lines(text, WIDTH - len(indent) - 2)]


def _code(statement: Statement, indent: str) -> list[str]:
    match statement:
        case Note():
            return []
        case Unchecked(reason=reason):
            return _call(indent, "pytest.skip", string_literal(reason))
        case RequireEnv(name=name):
            return [f"{indent}assert os.environ.get({string_literal(name)}), "
                    f"{string_literal(f'Set {name} (see README.md).')}"]
        case Reload():
            return [f"{indent}page.reload()"]
        case GoBack():
            return [f"{indent}page.go_back()"]
        case Goto(url=url):
            return _call(indent, "page.goto", string_literal(url))
        case Declare(variable=variable, locator=locator):
            chain = _chain(Subject(locator=locator))
            one = f"{indent}{variable} = {''.join(chain)}"
            if _fits(one):
                return [one]
            if _fits(indent + INDENT + "".join(chain)):
                return [f"{indent}{variable} = (", indent + INDENT + "".join(chain), f"{indent})"]
            return [f"{indent}{variable} = (", *(indent + INDENT + link for link in chain), f"{indent})"]
        case ExpectState(subject=subject, state=state, timeout_ms=timeout_ms):
            return _expect(indent, subject, f".to_be_{state}", f"timeout={timeout_ms:_}" if timeout_ms else "")
        case ExpectNoAttribute(subject=subject, name=name, value=value):
            return _expect(indent, subject, ".not_to_have_attribute", f"{string_literal(name)}, {string_literal(value)}")
        case ExpectUrl(pattern=pattern):
            return _call(indent, "expect(page).to_have_url", python_regex(pattern))
        case ExpectText(subject=subject, text=text, contains=contains):
            arguments = [string_literal(text), *_text_options(statement)]
            return _expect(indent, subject, f".{'to_contain_text' if contains else 'to_have_text'}",
                           ", ".join(arguments), spread=arguments)
        case ExpectTexts(subject=subject, texts=texts):
            return _expect(indent, subject, ".to_have_text", "[" + ", ".join(map(string_literal, texts)) + "]",
                           [f"{string_literal(text)}," for text in texts])
        case ExpectCount(subject=subject, count=count, after_frames=after_frames):
            frames = [f"{indent}# The page draws what the step changed before its absence is checked.",
                      f"{indent}page.evaluate(",
                      f'{indent}{INDENT}"new Promise((f) => requestAnimationFrame(() => requestAnimationFrame(f)))"',
                      f"{indent})"] if after_frames else []
            return [*frames, *_expect(indent, subject, ".to_have_count", str(count))]
        case ExpectChecked(subject=subject, checked=checked):
            return _expect(indent, subject, ".to_be_checked" if checked else ".not_to_be_checked", "")
        case ExpectValue(subject=subject, value=value):
            return _expect(indent, subject, ".to_have_value", string_literal(value))
        case ExpectNoPageErrors():
            return [f'{indent}assert page_errors == [], f"The page threw: {{page_errors}}"']
        case Act():
            return _act(statement, indent)
    raise TypeError(f"no Python for {statement!r}")


def _text_options(check: ExpectText) -> list[str]:
    """Keyword arguments of a text assertion that reads the text as a person does (a pilot verify's)."""
    return (["ignore_case=True"] if check.ignore_case else []) + (["use_inner_text=True"] if check.inner_text else [])


def _act(act: Act, indent: str) -> list[str]:
    receiver = "page.keyboard" if act.subject.locator is None else _inline(act.subject)
    if act.secret_env:
        argument = f"os.environ[{string_literal(act.secret_env)}]"
    elif act.target is not None:
        argument = f"{_inline(Subject(locator=act.target))}, steps={DRAG_STEPS}"
    else:
        argument = string_literal(act.text) if act.text is not None else ""
    # Act.action names are Playwright's Python method names.
    if act.wait is None:
        return _call(indent, f"{receiver}.{act.action}", argument)
    return [*_expect_response(act.wait, indent),
            *_call(indent + INDENT, f"{receiver}.{act.action}", argument),
            *_response_check(act.wait, indent)]


def _expect_response(wait: ResponseWait, indent: str) -> list[str]:
    predicate = (f"lambda r: {string_literal(wait.path)} in r.url "
                 f"and r.request.method == {string_literal(wait.method)}")
    one = f"{indent}with page.expect_response({predicate}) as response_info:"
    if _fits(one):
        return [one]
    return [f"{indent}with page.expect_response(", f"{indent}{INDENT}{predicate}", f"{indent}) as response_info:"]


def _response_check(wait: ResponseWait, indent: str) -> list[str]:
    if wait.status is None:
        return []
    if 200 <= wait.status < 300:
        return [f"{indent}assert response_info.value.ok"]
    # The recording saw this status (a validation error, a redirect); the test expects the same answer.
    return [f"{indent}assert response_info.value.status == {wait.status}"]


def _expect(indent: str, subject: Subject, method: str, argument: str, exploded: list[str] | None = None,
            spread: list[str] | None = None) -> list[str]:
    """`expect(subject).method(argument)`, broken the way black breaks it when it is too long; `exploded` is the
    argument one item a line (a list), and `spread` the arguments one a line (with black's trailing comma), for
    when even that does not fit."""
    tail = f"{method}({argument})"
    one = f"{indent}expect({_inline(subject)}){tail}"
    if _fits(one):
        return [one]
    inner = indent + INDENT
    opening = f"{indent}expect({_inline(subject)}){method}("
    spread = spread if spread and len(spread) > 1 else None
    if argument and _fits(opening):
        if _fits(inner + argument) or not (exploded or spread):
            return [opening, inner + argument, f"{indent})"]
        if spread:
            return [opening, *(f"{inner}{item}," for item in spread), f"{indent})"]
        return [opening, f"{inner}[", *(inner + INDENT + item for item in exploded or []), f"{inner}]",
                f"{indent})"]
    if subject.variable or subject.locator is None or _fits(inner + _inline(subject)):
        head = [f"{indent}expect(", inner + _inline(subject)]
    else:
        head = [f"{indent}expect(", *(inner + link for link in _chain(subject))]
    if _fits(f"{indent}){tail}") or not argument:
        return [*head, f"{indent}){tail}"]
    if exploded and not _fits(inner + argument):
        return [*head, f"{indent}){method}(", f"{inner}[", *(inner + INDENT + item for item in exploded),
                f"{inner}]", f"{indent})"]
    if spread and not _fits(inner + argument):
        return [*head, f"{indent}){method}(", *(f"{inner}{item}," for item in spread), f"{indent})"]
    return [*head, f"{indent}){method}(", inner + argument, f"{indent})"]


def _call(indent: str, callee: str, argument: str) -> list[str]:
    one = f"{indent}{callee}({argument})"
    if _fits(one) or not argument:
        return [one]
    return [f"{indent}{callee}(", f"{indent}{INDENT}{argument}", f"{indent})"]


def _inline(subject: Subject) -> str:
    if subject.variable:
        return subject.variable
    return "".join(_chain(subject))


def _chain(subject: Subject) -> list[str]:
    """The locator as links: ['page.get_by_test_id("card")', '.filter(has_text="x")', …]."""
    if subject.locator is None:
        return ["page"]
    links = [link.python() for link in subject.locator.steps]
    return [f"page.{links[0]}", *(f".{link}" for link in links[1:])] if links else ["page"]


def _fits(line: str) -> bool:
    return len(line) <= WIDTH
