"""The Python and TypeScript writers: the code a reviewer reads, and that it always parses."""

from __future__ import annotations

import ast
import re
import shutil
import subprocess

import esprima
import pytest
from export_samples import SECRET, add_to_cart, follow_link, sign_in, step

from studio.export import render_test
from studio.models.recording import RequestRecord, StepOutcome

H = "http://shop.test:8080"
SLEEPS = re.compile(r"wait_for_timeout|waitForTimeout|time\.sleep|setTimeout")
RECORDINGS = {"add_to_cart": add_to_cart(H), "sign_in": sign_in(H, "ada@example.com"), "follow_link": follow_link(H)}

PYTHON_ADD_TO_CART = '''\
"""Exported by Preflight Studio from session s1 (recorded on http://shop.test:8080).

Run it with `pytest`; README.md says how to point it at another server.
"""

from playwright.sync_api import Page, expect


def test_add_iphone_15_pro_to_cart(page: Page) -> None:
    """Add iPhone 15 Pro to cart."""
    page.goto("/products")

    add_to_cart = (
        page.get_by_test_id("product-card")
        .filter(has_text="iPhone 15 Pro")
        .get_by_role("button", name="Add to Cart", exact=True)
    )
    # The loading scrim covered the "Add to Cart" button when it was recorded (coverage
    # observation).
    expect(page.get_by_test_id("loading-scrim")).to_be_hidden()
    # Clicking the "Add to Cart" button sends POST /api/cart/add (recorded answer: 200);
    # wait for the response before checking the page.
    with page.expect_response(
        lambda r: "/api/cart/add" in r.url and r.request.method == "POST"
    ) as response_info:
        add_to_cart.click()
    assert response_info.value.ok
    expect(
        page.get_by_role("status").filter(has_text="iPhone 15 Pro added to cart")
    ).to_be_visible()
'''

TYPESCRIPT_ADD_TO_CART = '''\
// Exported by Preflight Studio from session s1 (recorded on
// http://shop.test:8080). Run it with `npx playwright test`; README.md says how
// to point it at another server.

import { test, expect } from "@playwright/test";

test("add iPhone 15 Pro to cart", async ({ page }) => {
  await page.goto("/products");

  const addToCart = page
    .getByTestId("product-card")
    .filter({ hasText: "iPhone 15 Pro" })
    .getByRole("button", { name: "Add to Cart", exact: true });
  // The loading scrim covered the "Add to Cart" button when it was recorded
  // (coverage observation).
  await expect(page.getByTestId("loading-scrim")).toBeHidden();
  // Clicking the "Add to Cart" button sends POST /api/cart/add (recorded
  // answer: 200); wait for the response before checking the page.
  const responsePromise = page.waitForResponse(
    (r) => r.url().includes("/api/cart/add") && r.request().method() === "POST",
  );
  await addToCart.click();
  const response = await responsePromise;
  expect(response.ok()).toBeTruthy();
  await expect(
    page.getByRole("status").filter({ hasText: "iPhone 15 Pro added to cart" }),
  ).toBeVisible();
});
'''


def test_the_add_to_cart_recording_reads_like_a_reviewed_python_test():
    assert render_test(add_to_cart(H), "python", "add iPhone 15 Pro to cart") == PYTHON_ADD_TO_CART


def test_the_add_to_cart_recording_reads_like_a_reviewed_typescript_test():
    assert render_test(add_to_cart(H), "typescript", "add iPhone 15 Pro to cart") == TYPESCRIPT_ADD_TO_CART


@pytest.mark.parametrize("name", RECORDINGS)
def test_every_recording_parses_has_no_sleeps_no_secret_and_short_lines(name):
    python = render_test(RECORDINGS[name], "python")
    typescript = render_test(RECORDINGS[name], "typescript")
    ast.parse(python)
    esprima.parseModule(typescript)
    for source, width in ((python, 88), (typescript, 80)):
        assert not SLEEPS.search(source)
        assert SECRET not in source
        assert "nth(" not in source and "http://shop.test" not in source.split("\n", 3)[-1]
        assert max(len(line) for line in source.splitlines()) <= width
        body = re.split(r"^def test_|^test\(", source, flags=re.M)[1]
        assert "\n\n\n" not in body  # one blank line between steps, never two


def test_secrets_are_read_from_the_environment_in_both_languages():
    python = render_test(RECORDINGS["sign_in"], "python")
    assert 'page.get_by_label("Password").fill(os.environ["STUDIO_PASSWORD"])' in python
    assert 'page.get_by_label("Email").fill("ada@example.com")' in python
    assert 'assert os.environ.get("STUDIO_PASSWORD"), "Set STUDIO_PASSWORD (see README.md)."' in python
    assert python.index("import os") < python.index("import re") < python.index("from playwright")
    typescript = render_test(RECORDINGS["sign_in"], "typescript")
    assert 'await page.getByLabel("Password").fill(process.env.STUDIO_PASSWORD || "");' in typescript
    assert "await expect(page).toHaveURL(/\\/dashboard$/);" in typescript


def test_a_followed_link_asserts_its_url_after_the_click():
    python = render_test(RECORDINGS["follow_link"], "python")
    assert python.count('page.goto("/products")') == 1  # the duplicate navigation collapsed
    click, comment, check = python.splitlines()[-3:]
    assert click.strip() == 'page.get_by_role("link", name="View cart").click()'
    assert comment.strip() == '# The "View cart" link goes to /cart (navigation observation).'
    assert check.strip() == 'expect(page).to_have_url(re.compile(r"/cart$"))'


def test_each_response_wait_has_its_own_names_and_a_failed_answer_is_expected_as_recorded():
    first, second = (step(i, "click", f"{H}/cart", locator=add_to_cart(H)[1].locator,
                          requests=[RequestRecord(method="POST", url=f"{H}/api/cart/add", status=status)])
                     for i, status in ((1, 200), (2, 409)))
    steps = [step(0, "navigate", f"{H}/cart"), first, second]
    typescript = render_test(steps, "typescript")
    assert "const responsePromise = " in typescript and "const responsePromise2 = " in typescript
    # The second click reuses the first one's variable (a second `const` of the same name would not compile).
    assert typescript.count("const addToCart = ") == 1 and "addToCart2" not in typescript
    assert typescript.count("await addToCart.click();") == 2
    assert "expect(response2.status()).toBe(409);" in typescript
    assert "assert response_info.value.status == 409" in render_test(steps, "python")
    _node_check(typescript)


def test_text_from_the_page_cannot_break_out_of_strings_or_comments():
    hostile = 'Done"); page.close(); //\n# """\u2028x'
    steps = add_to_cart(H)
    steps[1].outcome = StepOutcome(url_before=f"{H}/products", url_after=f"{H}/products", status_texts=[hostile])
    steps[1].observations[0].elementAtPoint.testId = "scrim\nimport os"
    title = 'tricky """ title \\ with \n newline'
    python = render_test(steps, "python", title)
    typescript = render_test(steps, "typescript", title)
    tree = ast.parse(python)
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert not any(getattr(c.func, "attr", "") == "close" for c in calls)  # the text stayed a string
    assert not any(isinstance(node, ast.Import) for node in tree.body)  # no `import os` smuggled in
    program = esprima.parseModule(typescript)
    assert len(program.body) == 2  # the import and the test() call, nothing injected
    _node_check(typescript)


def test_a_press_without_a_locator_uses_the_keyboard():
    steps = [step(0, "navigate", f"{H}/products"), step(1, "press", f"{H}/products", key="Escape")]
    assert 'page.keyboard.press("Escape")' in render_test(steps, "python")
    assert 'await page.keyboard.press("Escape");' in render_test(steps, "typescript")


def _node_check(typescript: str) -> None:
    """With Node.js present, also let V8 parse the spec as a module (it catches redeclared consts)."""
    node = shutil.which("node")
    if node is None:
        return
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "spec.mjs"
        copy.write_text(typescript, encoding="utf-8")
        done = subprocess.run([node, "--check", str(copy)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("name", RECORDINGS)
def test_node_accepts_every_typescript_export_as_a_javascript_module(name):
    _node_check(render_test(RECORDINGS[name], "typescript"))


def test_alert_texts_are_checked_with_the_alert_role():
    from export_samples import SIGN_IN, step

    from studio.export import render_test
    from studio.models.recording import StepOutcome

    origin = "http://app.test"
    steps = [step(0, "navigate", origin + "/login"),
             step(1, "click", origin + "/login", locator=SIGN_IN,
                  outcome=StepOutcome(url_before=origin + "/login", url_after=origin + "/login",
                                      alert_texts=["Invalid email or password."]))]
    python = render_test(steps, "python", "wrong password")
    assert 'get_by_role("alert").filter(has_text="Invalid email or password.")' in python
    typescript = render_test(steps, "typescript", "wrong password")
    assert 'getByRole("alert").filter({ hasText: "Invalid email or password." })' in typescript


def test_a_text_read_as_a_person_reads_it_is_asserted_so_and_a_plain_one_as_before():
    """A pilot verify's text (reads_as) is asserted on its inner text, in any letter case unless it was exact; an
    assertion step without reads_as keeps Playwright's defaults (text content, exact case)."""
    from studio.pilot.to_steps import css

    progress = css("[data-testid=wizard-progress]", first=True)
    steps = [step(0, "navigate", f"{H}/disputes"),
             step(1, "expect_text", f"{H}/disputes", locator=progress, value="Step 1 of 3", reads_as="any_case"),
             step(2, "expect_text", f"{H}/disputes", locator=css("h1", first=True), value="STEP 1 OF 3",
                  reads_as="exact_case"),
             step(3, "expect_text", f"{H}/disputes", locator=css("body"), value="File a dispute " * 6,
                  reads_as="any_case"),
             step(4, "expect_text", f"{H}/disputes", locator=css("h2"), value="Account")]
    python = render_test(steps, "python", "wizard progress")
    assert ('    expect(page.locator("[data-testid=wizard-progress]").first).to_contain_text(\n'
            '        "Step 1 of 3", ignore_case=True, use_inner_text=True\n    )\n') in python
    assert '    expect(page.locator("h1").first).to_contain_text("STEP 1 OF 3", use_inner_text=True)\n' in python
    # too long for one line: one argument a line, as black writes it
    assert (f'    expect(page.locator("body")).to_contain_text(\n        "{"File a dispute " * 6}",\n'
            '        ignore_case=True,\n        use_inner_text=True,\n    )\n') in python
    assert '    expect(page.locator("h2")).to_contain_text("Account")\n' in python
    typescript = render_test(steps, "typescript", "wizard progress")
    assert ('  await expect(\n    page.locator("[data-testid=wizard-progress]").first(),\n'
            '  ).toContainText("Step 1 of 3", { ignoreCase: true, useInnerText: true });\n') in typescript
    assert ('  await expect(page.locator("h1").first()).toContainText("STEP 1 OF 3", {\n'
            '    useInnerText: true,\n  });\n') in typescript
    assert ('  await expect(page.locator("body")).toContainText(\n'
            f'    "{"File a dispute " * 6}",\n    {{ ignoreCase: true, useInnerText: true }},\n  );\n') in typescript
    assert '  await expect(page.locator("h2")).toContainText("Account");\n' in typescript
    ast.parse(python)
    esprima.parseModule(typescript)
    _node_check(typescript)
