"""Selector normalization: the mistakes models make in Playwright selectors, fixed before the action runs.

The seed's two rules are kept as they are (apps depend on them): a comma list of `text=` parts becomes a list of
`button:has-text(...)`, and `input:has-text(...)` becomes a placeholder match. The other rules fix what a model
writes from jQuery or XPath habits. Every fix is named, and the observation reports it (original -> normalized,
rules), so the AI can learn the right form instead of having its mistakes hidden.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

# Tag names: "#login form" is a descendant selector, "#first name" is an id with a space in it.
HTML_TAGS = frozenset(
    "a abbr address article aside audio b button canvas caption code dd details dialog div dl dt em fieldset figure "
    "footer form h1 h2 h3 h4 h5 h6 header i iframe img input label legend li main nav ol option p pre section select "
    "small span strong summary svg table tbody td textarea tfoot th thead tr ul video".split())


def quoted(text: str) -> str:
    """A selector string literal in single quotes (double quotes when the text holds a single quote)."""
    if "'" in text and '"' not in text:
        return f'"{text}"'
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _unquote(text: str) -> str:
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def split_outside_quotes(selector: str, separator: str = ",") -> list[str]:
    """Parts of a selector list; a separator inside quotes or brackets belongs to its part (a quote opens only where
    a string can start, so the apostrophe of "It's" opens nothing)."""
    parts, current, quote, depth = [], "", "", 0
    for char in selector:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"" and (not current.strip() or current[-1] in "=( ,[*^$|~"):
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char == separator and depth == 0:
            parts.append(current)
            current = ""
            continue
        current += char
    return [*parts, current]


def _trailing_chain(selector: str) -> str:
    """`button >> ` or `>> text=Save` (a chain with a missing side) -> the side that is there."""
    return re.sub(r"^\s*>>\s*|\s*>>\s*$", "", selector).rstrip(", ").strip()


def _bare_xpath(selector: str) -> str:
    """`//button[@id='x']` -> `xpath=//button[@id='x']` (an XPath needs its engine named after a mistake above)."""
    return f"xpath={selector}" if re.match(r"^\(?\.?//", selector) else selector


def _jquery_contains(selector: str) -> str:
    """jQuery's `:contains("Save")` -> Playwright's `:has-text("Save")`."""
    return re.sub(r":contains\(", ":has-text(", selector)


def _unquoted_has_text(selector: str) -> str:
    """`:has-text(Save draft)` -> `:has-text('Save draft')`."""
    return re.sub(r":has-text\(\s*([^'\")][^)]*?)\s*\)", lambda m: f":has-text({quoted(m.group(1))})", selector)


def _stray_quotes(selector: str) -> str:
    """`text="Sign in` or `text=""Sign in""` -> `text="Sign in"` (an unbalanced or doubled quote)."""
    match = re.fullmatch(r"text=(['\"]*)(.*?)(['\"]*)", selector.strip(), flags=re.S)
    if not match or not (match.group(1) or match.group(3)):
        return selector
    opening, body, closing = match.groups()
    if len(opening) == len(closing) == 1 and opening == closing:
        return selector  # text="Sign in" is Playwright's exact text match: already right
    return f'text="{body}"'


def _text_list_to_buttons(selector: str) -> str:
    """Seed rule: `text=A, text=B` -> `button:has-text('A'), button:has-text('B')` (a comma inside quotes belongs to
    its text)."""
    if "text=" not in selector or "," not in selector:
        return selector
    parts = [part.strip() for part in split_outside_quotes(selector)]
    if len(parts) < 2:
        return selector
    return ", ".join(f"button:has-text({quoted(_unquote(part[5:]))})" if part.startswith("text=") else part
                     for part in parts)


def _input_has_text(selector: str) -> str:
    """Seed rule: `input:has-text('Email')` -> `input[placeholder*='Email']` (an input has no text to match)."""
    if not selector.startswith("input:has-text"):
        return selector
    match = re.search(r":has-text\((['\"])(.+?)\1\)", selector)
    if not match:
        return selector
    return f"input[placeholder*={quoted(match.group(2))}]"


def _id_with_spaces(selector: str) -> str:
    """`#first name` -> `[id='first name']` when the words after the id are not tag names (`#login form` stays)."""
    match = re.fullmatch(r"#([\w-]+(?:\s+[\w-]+)+)", selector.strip())
    if not match or any(word.lower() in HTML_TAGS for word in match.group(1).split()[1:]):
        return selector
    return f"[id={quoted(match.group(1))}]"


@dataclass(frozen=True)
class NormalizationRule:
    """A named fix: `apply` returns the selector unchanged when the rule does not concern it."""

    name: str
    example: str
    apply: Callable[[str], str]


# In order: the chain and XPath fixes first (an XPath is left alone after them), jQuery and quoting fixes before the
# seed's rules (which expect quoted has-text and clean text= parts), the id rule last.
RULES: tuple[NormalizationRule, ...] = (
    NormalizationRule("trailing-chain", "button >>  ->  button", _trailing_chain),
    NormalizationRule("bare-xpath", "//button[@id='go']  ->  xpath=//button[@id='go']", _bare_xpath),
    NormalizationRule("jquery-contains", "a:contains('Help')  ->  a:has-text('Help')", _jquery_contains),
    NormalizationRule("unquoted-has-text", "button:has-text(Save)  ->  button:has-text('Save')", _unquoted_has_text),
    NormalizationRule("stray-quotes", "text=\"Sign in  ->  text=\"Sign in\"", _stray_quotes),
    NormalizationRule("text-list-to-buttons", "text=A, text=B  ->  button:has-text('A'), button:has-text('B')",
                      _text_list_to_buttons),
    NormalizationRule("input-has-text-to-placeholder", "input:has-text('Email')  ->  input[placeholder*='Email']",
                      _input_has_text),
    NormalizationRule("id-with-spaces", "#first name  ->  [id='first name']", _id_with_spaces),
)


def normalize_selector(selector: str) -> tuple[str, list[str]]:
    """The selector with every rule that concerns it applied, and the names of those rules (empty: unchanged)."""
    applied: list[str] = []
    current = selector.strip()
    for rule in RULES:
        if rule.name != "bare-xpath" and current.startswith("xpath="):
            break
        fixed = rule.apply(current)
        if fixed != current:
            applied.append(rule.name)
            current = fixed
    return current, applied
