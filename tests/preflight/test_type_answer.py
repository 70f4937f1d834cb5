"""The preflight's answers (an email, a password, a code) are typed through the driver only into a field whose own
document is on the job's pinned origins; anywhere else nothing is typed and the refusal says where the field was."""

from __future__ import annotations

import pytest

from studio.browser.origins import OriginPolicy
from studio.models.locator import LocatorSpec, LocatorStep
from studio.race.driver import PageDriver
from studio.toolbelt import AnswerRefused, type_answer
from tests.mcp.conftest import StaticPages

pytestmark = pytest.mark.browser

LOGIN = """<!doctype html><title>Sign in</title><form>
<label>Email <input id="email" type="email"></label>
<label>Password <input id="password" type="password"></label>
<button type="submit">Sign in</button></form>"""


def label(text: str) -> LocatorSpec:
    return LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=text, exact=True)])


@pytest.fixture
async def login_page(fleet):
    pages = await StaticPages().start()
    context, _member = await fleet.open_context()
    driver = PageDriver(await context.new_page())
    await driver.navigate(pages.url("/login", LOGIN))
    yield driver, pages
    await context.close()
    await pages.stop()


async def test_an_answer_is_typed_into_a_field_on_the_pinned_origin(login_page):
    driver, pages = login_page
    await type_answer(driver, label("Password"), "s3cret", OriginPolicy([pages.base_url]), "password")
    assert await driver.evaluate("document.querySelector('#password').value") == "s3cret"


async def test_an_answer_is_never_typed_off_the_pinned_origin(login_page):
    driver, pages = login_page
    with pytest.raises(AnswerRefused) as refused:
        await type_answer(driver, label("Password"), "s3cret", OriginPolicy(["http://localhost:9"]), "password")
    said = str(refused.value)
    assert said.startswith(f"The password was not typed: the field is on {pages.base_url}, not on the app's origin "
                           "(http://localhost:9).")
    assert "Answers are only ever typed into the app's own pages." in said
    assert await driver.evaluate("document.querySelector('#password').value") == ""
