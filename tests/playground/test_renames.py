"""The rewording an edit applies to a case's own words: whole routes and whole names only, once per text, and never
the words of a step whose control kept its old name."""

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.testcase import CaseStep, Grounding, TestCase
from studio.playground.renames import Rewording, renamed, reword_case, route_moved

MOVED = route_moved("/alerts", "/notifications")


def button(name: str) -> LocatorSpec:
    return LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="button", name=name)])


def test_a_route_is_renamed_only_where_a_text_names_that_very_route():
    reword = Rewording([MOVED], origin="http://127.0.0.1:8000")
    assert reword("After signing in, returns to /alerts.") == "After signing in, returns to /notifications."
    assert reword("Opens /alerts?filter=unread (or '/alerts').") == \
        "Opens /notifications?filter=unread (or '/notifications')."
    assert reword("Opens http://127.0.0.1:8000/alerts.") == "Opens http://127.0.0.1:8000/notifications."
    for other in ("Calls /api/alerts.", "Opens /alerts-archive.", "Opens /alerts/42.", "Opens http://elsewhere/alerts.",
                  "Shows the Alerts list."):
        assert reword(other) == other
    assert reword.used == [MOVED]
    assert route_moved("/", "/dashboard") is None  # a lone "/" in a sentence is rarely the root route


def test_a_name_is_renamed_as_a_whole_word_and_only_once():
    reword = Rewording([renamed("Next", "Next step"), renamed("Alerts", "Notifications")])
    assert reword("Press Next; the Alerts tile updates.") == "Press Next step; the Notifications tile updates."
    assert reword("Nextcloud and unread alerts stay.") == "Nextcloud and unread alerts stay."
    assert renamed("Alerts", "Alerts") is None and renamed(None, "Notifications") is None


def test_a_step_whose_control_kept_its_name_keeps_its_words():
    case = TestCase(id="t", title="Next twice", priority="P2", gap_type="happy_path", status="active",
                    origin="tester", updated_at=0, grounding=Grounding(page_url="http://127.0.0.1:8000/wizard"),
                    steps=[CaseStep(action="click", target="the Continue button", locator=button("Continue"),
                                    expected="Step 2 of 3 opens."),
                           CaseStep(action="click", target="the Next button", locator=button("Next"),
                                    expected="Step 3 of 3 opens after Next.")],
                    expected_results=["Next moves on twice."], preconditions=["Nothing to do with it."])
    used = reword_case(case, [renamed("Next", "Continue")])
    assert [s.target for s in case.steps] == ["the Continue button", "the Next button"]  # step 2's Next is there
    assert case.steps[1].expected == "Step 3 of 3 opens after Next."
    assert case.expected_results == ["Continue moves on twice."] and case.preconditions == ["Nothing to do with it."]
    assert case.title == "Next twice" and [r.new for r in used] == ["Continue"]
