"""Selector normalization: the seed's two rules exactly, and the other mistakes models make, each rule named."""

from __future__ import annotations

import pytest

from studio.pilot.normalize import RULES, normalize_selector


@pytest.mark.parametrize(("given", "expected", "rules"), [
    # The seed's rules, as the seed writes them.
    ("text=Login, text=Signup", "button:has-text('Login'), button:has-text('Signup')", ["text-list-to-buttons"]),
    ("text=Save, #cancel", "button:has-text('Save'), #cancel", ["text-list-to-buttons"]),
    ("input:has-text('Enter email')", "input[placeholder*='Enter email']", ["input-has-text-to-placeholder"]),
    ('input:has-text("Search")', "input[placeholder*='Search']", ["input-has-text-to-placeholder"]),
    # The seed's placeholder rule after quoting an unquoted has-text.
    ("input:has-text(Enter email)", "input[placeholder*='Enter email']",
     ["unquoted-has-text", "input-has-text-to-placeholder"]),
    ("a:contains('Help')", "a:has-text('Help')", ["jquery-contains"]),
    ("button:contains(Save draft)", "button:has-text('Save draft')", ["jquery-contains", "unquoted-has-text"]),
    ("button:has-text(Next)", "button:has-text('Next')", ["unquoted-has-text"]),
    ('text="Sign in', 'text="Sign in"', ["stray-quotes"]),
    ('text=""Sign in""', 'text="Sign in"', ["stray-quotes"]),
    ("//button[@type='submit']", "xpath=//button[@type='submit']", ["bare-xpath"]),
    ("(//a)[2]", "xpath=(//a)[2]", ["bare-xpath"]),
    ("#first name", "[id='first name']", ["id-with-spaces"]),
    ("button >>", "button", ["trailing-chain"]),
    (">> text=Save", "text=Save", ["trailing-chain"]),
    ("text=It's here, text=B", "button:has-text(\"It's here\"), button:has-text('B')", ["text-list-to-buttons"]),
])
def test_each_rule_fixes_its_mistake_and_is_named(given, expected, rules):
    assert normalize_selector(given) == (expected, rules)


@pytest.mark.parametrize("selector", [
    "button:has-text('Next')",
    'text="Sign in"',  # Playwright's exact match: already right
    "text=Sign in",
    'text="Hello, world"',  # the comma is inside the text
    "#login form",  # a descendant selector, not an id with a space
    "xpath=//div[contains(., 'a:contains(b)')]",  # an XPath is left alone
    "[data-testid=next-button]",
    "input[placeholder*='Email']",
])
def test_right_selectors_are_left_alone(selector):
    assert normalize_selector(selector) == (selector, [])


def test_every_rule_has_a_unique_name_and_an_example():
    assert len({rule.name for rule in RULES}) == len(RULES)
    assert all("->" in rule.example for rule in RULES)
