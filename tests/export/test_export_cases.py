"""Test cases exported as Playwright tests: their expected results become assertions (or comments naming the ones
that could not be asserted and why), from the command line too; and a case's test fails when the app breaks."""

from __future__ import annotations

import pytest

from studio.cli.main import main
from studio.export import case_steps, render_test
from studio.export.expectations import expectation_checks, quoted_texts
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.outcomes import VisibleOutcome
from studio.models.testcase import CaseStep, TestCase
from studio.store.project import ProjectFile

H = "http://127.0.0.1:8123/"
NEW_ITEM = LocatorSpec(strategy="placeholder", steps=[LocatorStep(kind="placeholder", value="What needs to be done?",
                                                                  exact=True)])


def add_an_errand(case_id: str = "tc-add", title: str = "Add an errand") -> TestCase:
    return TestCase(id=case_id, title=title, steps=[
        CaseStep(action="navigate", url="/", target="the list"),
        CaseStep(action="fill", target="the new item field", locator=NEW_ITEM, data="Buy milk"),
        CaseStep(action="press", target="the new item field", locator=NEW_ITEM, data="Enter",
                 expected='The list shows "Buy milk"'),
        CaseStep(action="expect_text", target="the counter", data="1 item left"),
        CaseStep(action="expect_visible", target="the Clear completed button"),
    ], expected_results=["The counter reads “1 item left”", "The item is saved", "The page stays on /"])


def prose(code: str) -> str:
    """The code with its comments joined into running text (they are wrapped at the line width)."""
    return " ".join(line.strip().removeprefix("#").removeprefix("//").strip() for line in code.splitlines())


def test_expected_results_become_assertions_or_say_why_not():
    code = prose(render_test(case_steps(add_an_errand(), H), "python"))
    assert 'expect(page.get_by_text("Buy milk").first).to_be_visible()' in code  # a quoted text
    assert 'expect(page).to_have_url(re.compile(r"://[^/]+/(?:[?#].*)?$"))' in code  # a page path
    assert "Expected: The counter reads “1 item left” — checked by the expect step above." in code
    assert 'Expected result not asserted: "The item is saved" names no text to see' in code
    assert "the step expecting the Clear completed button to be visible: it has no locator" in code


def test_a_case_that_can_check_nothing_says_so_imports_no_expect_and_ends_skipped():
    case = TestCase(id="tc-2", title="Click around", steps=[
        CaseStep(action="navigate", url="/"), CaseStep(action="click", locator=NEW_ITEM)], expected_results=["It works"])
    python, typescript = (render_test(case_steps(case, H), lang) for lang in ("python", "typescript"))
    assert "from playwright.sync_api import Page\n" in python and "expect(" not in python
    assert 'import { test } from "@playwright/test";' in typescript and "expect(" not in typescript
    for code in (prose(python), prose(typescript)):
        assert "This test checks nothing" in code and 'not asserted: "It works"' in code
    # A run reports it skipped, never passed: a test that cannot fail on a broken app is not a test.
    assert "import pytest\n" in python
    assert python.rstrip().endswith('pytest.skip(\n        "checks nothing: no step has an outcome or expected result it can assert"\n    )')
    assert typescript.rstrip().endswith('test.skip(\n    true,\n    "checks nothing: no step has an outcome or expected '
                                        'result it can assert",\n  );\n});')
    compile(python, "exported.py", "exec")


def test_quoted_texts_and_apostrophes():
    assert quoted_texts('Shows "Saved" and “Done”, not the user\'s name') == ["Saved", "Done"]
    assert quoted_texts("The 'Dispute filed' banner") == ["Dispute filed"]
    [note] = expectation_checks('A toast "Saved at 12:30" appears', [])
    assert "it looks like a time of day" in note.why  # never an assertion that flakes


# -- the command line ------------------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path):
    path = tmp_path / "cases.studio"
    with ProjectFile.create(path) as project:
        project.cases.save_case(add_an_errand(), "tester", "written")
        project.cases.save_case(add_an_errand("tc-two", "Add another errand"), "tester", "written")
    return path


def test_cases_export_from_the_command_line(project, tmp_path, capsys):
    out = tmp_path / "all"
    assert main(["export", "--project", str(project), "--cases", "all", "--lang", "python", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "Exported 2 cases (tc-add, tc-two) as python" in printed
    tests = sorted(p.name for p in out.glob("test_*.py"))
    assert tests == ["test_add_an_errand.py", "test_add_another_errand.py"]
    assert "test_add_an_errand.py`: Add an errand (from test case `tc-add`)" in (out / "README.md").read_text()
    one = tmp_path / "one"
    assert main(["export", "--project", str(project), "--cases", "tc-two", "--lang", "typescript",
                 "--out", str(one)]) == 0
    spec = (one / "add-another-errand.spec.ts").read_text()
    assert 'await expect(page.getByText("Buy milk").first()).toBeVisible();' in spec


def test_unknown_case_ids_are_refused_with_a_sentence(project, tmp_path, capsys):
    code = main(["export", "--project", str(project), "--cases", "tc-add,tc-nope", "--lang", "python",
                 "--out", str(tmp_path / "x")])
    assert code == 2 and not (tmp_path / "x").exists()
    assert capsys.readouterr().err.strip() == ("The project has no case 'tc-nope'. Known cases: tc-add, tc-two; "
                                               "or give --cases all.")


def test_session_and_cases_are_one_or_the_other(project, tmp_path, capsys):
    with pytest.raises(SystemExit) as exited:
        main(["export", "--project", str(project), "--session", "s1", "--cases", "all", "--lang", "python",
              "--out", str(tmp_path / "x")])
    assert exited.value.code == 2 and "not allowed with argument" in capsys.readouterr().err


# -- a case's test fails when the app breaks -----------------------------------------------------------------------


@pytest.mark.slow
async def test_an_exported_case_passes_on_the_list_app_and_fails_when_adding_breaks(project, browser_info, tmp_path):
    from exported_runs import kill_matrix

    from tests.apps.list_app import ListApp

    with ProjectFile.open(project) as file:  # the case's page: the list app (its preflight would have said so)
        case = file.cases.case("tc-add")
        case.grounding.page_url = "http://127.0.0.1:9/"
        file.cases.save_case(case, "tester", "grounded")
    out = tmp_path / "case"
    assert main(["export", "--project", str(project), "--cases", "tc-add", "--lang", "python", "--out", str(out)]) == 0
    with ListApp() as app:
        results = await kill_matrix(ListApp, out, browser_info.path, app,
                                    faults=("add_on_enter_broken", "counter_wrong", "delete_noop"))
    assert results[None][0] == 0, results[None][1][-3000:]
    assert results["add_on_enter_broken"][0] == 1  # "Buy milk" never shows
    # Adding one item cannot tell a counter of all items from one of active items, and nothing is deleted: the
    # case's test passes there, as it should.
    assert results["counter_wrong"][0] == 0 and results["delete_noop"][0] == 0


def test_going_back_is_exported_with_what_the_page_showed_then():
    """A case that removes a record goes back to its page and reloads it: both are steps of the exported test."""
    heading = LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="heading", name="Error response",
                                                               exact=True)])
    case = TestCase(id="tc-back", title="Delete it, then its page is gone", steps=[
        CaseStep(action="navigate", url="/items/new"),
        CaseStep(action="back", target="the record's page"),
        CaseStep(action="reload", target="the record's page", outcomes=[VisibleOutcome(locator=heading)])])
    python, typescript = (render_test(case_steps(case, H), lang) for lang in ("python", "typescript"))
    assert "    page.go_back()\n\n    page.reload()\n    expect(\n        page.get_by_role(\"heading\"" in python
    assert "  await page.goBack();\n\n  await page.reload();\n  await expect(" in typescript
    compile(python, "exported.py", "exec")


def test_a_case_opens_its_page_under_a_base_that_is_a_folder_a_prefix_or_a_named_page():
    def opened(base: str, url: str | None) -> str:
        case = TestCase(id="tc-open", title="Open", steps=[CaseStep(action="navigate", url=url, target="the page")])
        return case_steps(case, base)[0].url

    assert opened("http://h/examples/01_basic_usage.html", "/examples/01_basic_usage.html") == \
        "http://h/examples/01_basic_usage.html"  # the page's own pathname, under a named page's folder
    assert opened("http://h/examples/01_basic_usage.html", None) == "http://h/examples/01_basic_usage.html"
    assert opened("http://h/app/", "/app/items") == "http://h/app/items"
    assert opened("http://h/app/", "/items") == "http://h/app/items"  # relative to the app's prefix
    assert opened("http://h/app", "items") == "http://h/app/items"
    assert opened(H, "/") == H


def test_a_drag_step_drags_onto_its_drop_in_the_moves_the_preflight_made():
    item = LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value="Write the report", exact=True)])
    onto = LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value="Review pull requests", exact=True)])
    case = TestCase(id="tc-drag", title="Reorder", steps=[
        CaseStep(action="navigate", url="/", target="the list"),
        CaseStep(action="drag", target="'Write the report'", locator=item, drop=onto, outcomes=[
            VisibleOutcome(locator=item, why="The item is still listed.")])])
    python, typescript = (prose(render_test(case_steps(case, H), lang)) for lang in ("python", "typescript"))
    assert 'drag_to( page.get_by_text("Review pull requests", exact=True), steps=5 )' in python  # wrapped
    assert "dragTo(" in typescript and "{ steps: 5 }" in typescript
