"""How the visibility fact reads, in `studio observe` lines and in the window's observation sentences."""

from __future__ import annotations

from studio.models.race import OBSERVATIONS, VisibilityObservation
from studio.race.fact_lines import fact_line
from studio.ui.observations_dock import fact_sentence


def visibility(**changes) -> VisibilityObservation:
    fact = {"type": "visibility", "ref": "e39", "observedAt": 1.0, "isVisible": False, "display": "inline-block",
            "visibility": "visible", "opacity": "1", "size": {"width": 0, "height": 0},
            "hiddenBy": {"ref": "e40", "tag": "div", "testId": "collapsed-panel", "display": "none",
                         "visibility": "visible", "isTarget": False}}
    fact.update(changes)
    (parsed,) = OBSERVATIONS.validate_python([fact])  # the JSON the page library sends is the contract
    assert isinstance(parsed, VisibilityObservation)
    return parsed


def test_a_hidden_ancestor_is_named_with_what_hides_it():
    fact = visibility()
    assert fact_sentence(fact) == "Not visible: its ancestor div [data-testid=collapsed-panel] e40 has display: none"
    assert fact_line(fact) == ("visibility: hidden by ancestor div [data-testid=collapsed-panel] (e40) (display none, "
                               "visibility visible); display inline-block, visibility visible, opacity 1, box 0x0")


def test_an_element_hidden_by_its_own_style_an_empty_box_and_a_visible_one():
    own = visibility(visibility="hidden", size={"width": 69, "height": 40}, hiddenBy={
        "ref": "e39", "tag": "button", "testId": "invisible", "display": "inline-block", "visibility": "hidden",
        "isTarget": True})
    assert fact_sentence(own) == "Not visible: it has visibility: hidden"
    assert fact_line(own).startswith("visibility: hidden by itself (display inline-block, visibility hidden)")
    empty = visibility(hiddenBy=None)
    assert fact_sentence(empty) == "Not visible: its box is 0×0"
    assert fact_line(empty).startswith("visibility: not visible (an empty box)")
    shown = visibility(isVisible=True, hiddenBy=None, size={"width": 120, "height": 38}, opacity="0")
    assert fact_sentence(shown) == "Visible: a 120×38 box, opacity 0"


def test_a_role_link_without_href_reads_as_no_href_not_none():
    (fact,) = OBSERVATIONS.validate_python([{
        "type": "navigation", "ref": "e5", "observedAt": 1.0, "element": {"ref": "e5", "tag": "span"},
        "linkAncestor": {"ref": "e5", "tag": "span", "href": None, "target": None, "role": "link", "isTarget": True}}])
    assert fact_line(fact) == "navigation: the element is a link to (no href)"
