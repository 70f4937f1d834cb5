"""The step-aware diff: steps are matched by what they do, so renumbered steps are unchanged, a step that went
elsewhere is moved, an edited one is changed with its words, and only the rest is added or removed."""

from __future__ import annotations

from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.testcase import CaseStep, TestCase
from studio.playground.step_diff import diff_case, diff_lines, diff_steps, word_diff


def button(name: str) -> LocatorSpec:
    return LocatorSpec(strategy="role", steps=[LocatorStep(kind="role", role="button", name=name, exact=True)])


def field(label: str) -> LocatorSpec:
    return LocatorSpec(strategy="label", steps=[LocatorStep(kind="label", value=label, exact=True)])


OPEN = CaseStep(action="navigate", url="/disputes", expected="The wizard opens at step 1")
ACCOUNT = CaseStep(action="select", target="Account", locator=field("Account"), data="Checking ••4411")
REASON = CaseStep(action="select", target="Reason", locator=field("Reason"), data="Unrecognised charge")
DESCRIBE = CaseStep(action="fill", target="Description", locator=field("Description"), data="I never bought this")
NEXT = CaseStep(action="click", target="the Next button", locator=button("Next"), expected="Step 2 of 3 shows")
SUBMIT = CaseStep(action="click", target="the Submit button", locator=button("Submit"), expected="A dispute id shows")


def kinds(changes) -> list[tuple[str, int | None, int | None]]:
    return [(c.kind, c.old_number, c.new_number) for c in changes]


def test_renumbered_steps_are_unchanged_when_a_step_is_added_first():
    changes = diff_steps([ACCOUNT, REASON, NEXT], [OPEN, ACCOUNT, REASON, NEXT])
    assert kinds(changes) == [("added", None, 1), ("unchanged", 1, 2), ("unchanged", 2, 3), ("unchanged", 3, 4)]
    assert [c.renumbered for c in changes] == [False, True, True, True]


def test_a_step_inserted_in_the_middle_is_the_only_addition():
    changes = diff_steps([OPEN, ACCOUNT, NEXT, SUBMIT], [OPEN, ACCOUNT, DESCRIBE, NEXT, SUBMIT])
    assert kinds(changes) == [("unchanged", 1, 1), ("unchanged", 2, 2), ("added", None, 3), ("unchanged", 3, 4),
                              ("unchanged", 4, 5)]
    assert changes[2].new == DESCRIBE


def test_a_removed_step_sits_where_it_was_and_the_rest_move_up():
    changes = diff_steps([OPEN, ACCOUNT, REASON, NEXT], [OPEN, REASON, NEXT])
    assert kinds(changes) == [("unchanged", 1, 1), ("removed", 2, None), ("unchanged", 3, 2), ("unchanged", 4, 3)]
    assert changes[1].old == ACCOUNT


def test_a_step_moved_elsewhere_is_moved_and_the_others_stay_unchanged():
    changes = diff_steps([OPEN, ACCOUNT, REASON, DESCRIBE, NEXT], [OPEN, DESCRIBE, ACCOUNT, REASON, NEXT])
    assert kinds(changes) == [("unchanged", 1, 1), ("moved", 4, 2), ("unchanged", 2, 3), ("unchanged", 3, 4),
                              ("unchanged", 5, 5)]
    assert changes[1].fields == () and changes[1].direction == "up"


def test_an_edited_step_is_changed_with_the_words_that_changed():
    renamed = NEXT.model_copy(update={"target": "the Continue button", "locator": button("Continue")})
    changes = diff_steps([OPEN, ACCOUNT, NEXT, SUBMIT], [OPEN, ACCOUNT, renamed, SUBMIT])
    assert kinds(changes) == [("unchanged", 1, 1), ("unchanged", 2, 2), ("changed", 3, 3), ("unchanged", 4, 4)]
    assert changes[2].fields == ("target", "locator") and changes[2].old == NEXT and changes[2].new == renamed
    assert word_diff(NEXT.target, renamed.target) == [("same", "the "), ("removed", "Next"), ("added", "Continue"),
                                                      ("same", " button")]


def test_a_changed_expectation_is_a_changed_step():
    later = NEXT.model_copy(update={"expected": "Step 2 of 4 shows"})
    changes = diff_steps([OPEN, NEXT], [OPEN, later])
    assert kinds(changes) == [("unchanged", 1, 1), ("changed", 2, 2)] and changes[1].fields == ("expected",)


def test_renumbered_moved_and_edited_together():
    """The agent filled a new required field before Next, moved Description up and renamed Submit."""
    renamed = SUBMIT.model_copy(update={"target": "the Send button", "locator": button("Send")})
    consent = CaseStep(action="check", target="I confirm", locator=field("I confirm"))
    before = [OPEN, ACCOUNT, REASON, DESCRIBE, NEXT, SUBMIT]
    after = [OPEN, DESCRIBE, ACCOUNT, REASON, consent, NEXT, renamed]
    changes = diff_steps(before, after)
    assert kinds(changes) == [("unchanged", 1, 1), ("moved", 4, 2), ("unchanged", 2, 3), ("unchanged", 3, 4),
                              ("added", None, 5), ("unchanged", 5, 6), ("changed", 6, 7)]
    assert [c.renumbered for c in changes if c.kind == "unchanged"] == [False, True, True, True]


def test_two_steps_that_swapped_and_changed_are_moved_not_edited_in_place():
    a2 = ACCOUNT.model_copy(update={"data": "Savings ••9012"})
    r2 = REASON.model_copy(update={"data": "Charged twice"})
    changes = diff_steps([OPEN, ACCOUNT, REASON, NEXT], [OPEN, r2, a2, NEXT])
    assert [(c.kind, c.direction) for c in changes] == [("unchanged", ""), ("moved", "up"), ("changed", ""),
                                                        ("unchanged", "")]
    assert {(c.old_number, c.new_number) for c in changes[1:3]} == {(3, 2), (2, 3)}
    assert all(c.fields == ("data",) for c in changes[1:3])


def test_unrelated_steps_are_removed_and_added_not_paired():
    changes = diff_steps([OPEN, ACCOUNT], [OPEN, SUBMIT])
    assert kinds(changes) == [("unchanged", 1, 1), ("removed", 2, None), ("added", None, 2)]


def test_expected_results_are_matched_as_steps_are():
    before = ["The wizard shows Step 2 of 3", "No error is shown", "The dispute is listed"]
    after = ["No error is shown", "The wizard shows Step 2 of 4", "The dispute is listed", "A confirmation mail goes"]
    changes = diff_lines(before, after)
    assert [(c.kind, c.old, c.new) for c in changes] == [
        ("unchanged", "No error is shown", "No error is shown"),
        ("moved", "The wizard shows Step 2 of 3", "The wizard shows Step 2 of 4"),  # down, below "No error"
        ("unchanged", "The dispute is listed", "The dispute is listed"),
        ("added", None, "A confirmation mail goes")]
    assert changes[1].direction == "down"


def test_the_case_diff_names_the_fields_and_counts_the_steps():
    before = TestCase(id="c", title="File a dispute", priority="P2", steps=[OPEN, ACCOUNT, NEXT],
                      expected_results=["Step 2 of 3 shows"])
    after = before.model_copy(update={"priority": "P1", "steps": [OPEN, REASON, ACCOUNT, NEXT],
                                      "expected_results": ["Step 2 of 4 shows"]})
    diff = diff_case(before, after)
    assert diff.fields == [("Priority", "P2", "P1")]
    assert diff.counts() == {"renumbered": 2, "moved": 0, "changed": 0, "added": 1, "removed": 0}
    assert [(c.kind, c.old, c.new) for c in diff.expected_results] == [
        ("changed", "Step 2 of 3 shows", "Step 2 of 4 shows")]
