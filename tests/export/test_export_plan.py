"""The export plan: how recorded steps and their race observations become waits, actions and checks."""

from __future__ import annotations

import pytest
from export_samples import ADD_TO_CART, EMAIL, SCRIM, add_to_cart, follow_link, scrim_coverage, sign_in, step

from studio.export import ExportError
from studio.export.plan import build_plan
from studio.export.statements import (
    Act,
    Declare,
    ExpectNoAttribute,
    ExpectState,
    ExpectUrl,
    Goto,
    Note,
    RequireEnv,
)
from studio.models.locator import LocatorSpec, LocatorStep
from studio.models.race import (
    AnimationObservation,
    AriaStateObservation,
    AttachmentObservation,
    InputStateObservation,
    PointerEventsObservation,
    ViewportObservation,
)
from studio.models.recording import RequestRecord, StepOutcome

H = "http://shop.test:8080"
PRODUCTS = f"{H}/products"
STYLE = {"transition": "none", "transitionProperty": "all", "transitionDuration": "0s",
         "animation": "fadeIn 300ms ease-in", "animationName": "fadeIn", "animationDuration": "300ms"}


def kinds(statements) -> list[str]:
    return [s.kind for s in statements]


def click(**fields):
    return step(1, "click", PRODUCTS, locator=fields.pop("locator", ADD_TO_CART), **fields)


def recorded(plan):
    """The plans of the recorded steps (without the preamble and the test's closing checks)."""
    return [p for p in plan.steps if p.index is not None]


def statements_of(*steps):
    """The statements of the last step's plan."""
    return recorded(build_plan([step(0, "navigate", PRODUCTS), *steps]))[-1].statements


def test_add_to_cart_waits_for_the_scrim_and_the_cart_call_then_checks_the_toast():
    plan = build_plan(add_to_cart(H), title="add iPhone 15 Pro to cart")
    assert plan.origin == H and plan.title == "add iPhone 15 Pro to cart" and plan.env_vars == []
    opening, adding = plan.steps
    assert opening.statements == [Goto(url="/products")]
    declare, scrim, act, toast = adding.statements
    assert declare == Declare(variable="add_to_cart", locator=ADD_TO_CART)
    assert scrim.state == "hidden" and scrim.subject.locator == SCRIM
    assert scrim.why == ('The loading scrim covered the "Add to Cart" button when it was recorded '
                         "(coverage observation).")
    assert isinstance(act, Act) and act.action == "click" and act.subject.variable == "add_to_cart"
    # The spinner image is a static asset: only the POST is waited for, matched by path, not host.
    assert (act.wait.path, act.wait.method, act.wait.status) == ("/api/cart/add", "POST", 200)
    assert toast.state == "visible"
    assert toast.subject.locator.python() == 'page.get_by_role("status").filter(has_text="iPhone 15 Pro added to cart")'


def test_a_covering_element_without_a_stored_locator_falls_back_to_its_test_id_or_id():
    by_test_id = statements_of(click(observations=[scrim_coverage()]))
    assert by_test_id[1].subject.locator.python() == 'page.get_by_test_id("loading-scrim")'
    by_id = statements_of(click(observations=[scrim_coverage(testId=None, id="cookie-banner")]))
    assert by_id[1].subject.locator.python() == 'page.locator("#cookie-banner")'
    assert by_id[1].why.startswith("The #cookie-banner element covered")
    odd_id = statements_of(click(observations=[scrim_coverage(testId=None, id="1 modal")]))
    assert odd_id[1].subject.locator.python() == 'page.locator("[id=\\"1 modal\\"]")'
    anonymous = statements_of(click(observations=[scrim_coverage(testId=None)]))
    assert kinds(anonymous) == ["declare", "note", "act"]
    assert "no test id, id or stored locator" in anonymous[1].why


def test_coverage_by_the_target_itself_or_twice_by_the_same_element_waits_once_or_not_at_all():
    own_child = scrim_coverage().model_copy(update={"isTargetOrDescendant": True})
    assert kinds(statements_of(click(observations=[own_child]))) == ["declare", "act"]
    twice = statements_of(click(observations=[scrim_coverage(), scrim_coverage()], related_locators={"e15": SCRIM}))
    assert kinds(twice) == ["declare", "expect_state", "act"]


def test_a_running_animation_waits_for_visibility_once_and_a_finished_one_not_at_all():
    def animation(state):
        return AnimationObservation(ref="e42", observedAt=1.0, computedStyle=STYLE, animations=[
            {"playState": state, "animationName": "fadeIn", "startTime": 1.0, "currentTime": 50.0}])

    running = statements_of(click(observations=[animation("running"), animation("running")]))
    assert kinds(running) == ["declare", "expect_state", "act"]
    assert running[1].state == "visible" and running[1].subject.variable == "add_to_cart"
    assert "still animating (fadeIn)" in running[1].why
    assert kinds(statements_of(click(observations=[animation("finished")]))) == ["declare", "act"]


def test_a_card_fading_in_around_the_button_is_named_in_the_wait_and_a_transition_by_its_properties():
    fade_style = {**STYLE, "transition": "opacity 0.3s", "transitionProperty": "opacity", "animation": "none",
                  "animationName": "none"}
    card = AnimationObservation(ref="e42", observedAt=1.0, computedStyle=fade_style,
                                animatedElement={"ref": "e35", "tag": "article", "testId": "product-card"},
                                animations=[{"playState": "running", "animationName": None, "currentTime": 50.0}])
    running = statements_of(click(observations=[card]))
    assert kinds(running) == ["declare", "expect_state", "act"]
    assert "still animating with its enclosing <article> product-card (a transition of opacity)" in running[1].why


def test_a_detached_target_gets_a_comment_that_the_locator_re_queries():
    detached = AttachmentObservation(ref="e42", observedAt=1.0, isConnected=False)
    statements = statements_of(click(observations=[detached]))
    assert kinds(statements) == ["declare", "note", "act"]
    assert "re-queries the page" in statements[1].why


def test_disabled_busy_and_pointer_events_become_enabled_checks_on_controls_and_comments_elsewhere():
    disabled = AriaStateObservation(ref="e42", observedAt=1.0, ariaBusy=True, ariaDisabled=True, ariaHidden=False,
                                    inert=False)
    none = PointerEventsObservation(ref="e42", observedAt=1.0, pointerEvents="none")
    on_button = statements_of(click(observations=[disabled, none]))
    assert kinds(on_button) == ["declare", "expect_state", "act"]
    assert on_button[1].state == "enabled"
    assert "busy (aria-busy) and disabled (aria-disabled) and not taking pointer events" in on_button[1].why
    text = LocatorSpec(strategy="text", steps=[LocatorStep(kind="text", value="Show more")])
    on_text = statements_of(click(locator=text, observations=[none]))
    assert kinds(on_text) == ["note", "act"] and "not a form control" in on_text[0].why


def test_a_busy_ancestor_is_waited_for_through_its_stored_locator():
    grid = LocatorSpec(strategy="test_id", steps=[LocatorStep(kind="test_id", value="product-grid")])
    busy = AriaStateObservation(ref="e42", observedAt=1.0, ariaBusy=True, ariaDisabled=False, ariaHidden=False,
                                inert=False, setBy="e9")
    statements = statements_of(click(observations=[busy], related_locators={"e9": grid}))
    wait = statements[1]
    assert isinstance(wait, ExpectNoAttribute) and wait.subject.locator == grid
    assert (wait.name, wait.value) == ("aria-busy", "true")
    assert isinstance(statements_of(click(observations=[busy]))[1], Note)


def test_disabled_and_read_only_inputs_wait_until_enabled_and_editable_before_fill():
    state = InputStateObservation(ref="e3", observedAt=1.0, tag="input", inputType="email", disabled=True,
                                  readOnly=True, value="")
    statements = statements_of(step(1, "fill", PRODUCTS, locator=EMAIL, value="a@b.test", observations=[state]))
    assert [s.state for s in statements if isinstance(s, ExpectState)] == ["enabled", "editable"]
    assert isinstance(statements[0], Declare) and statements[0].variable == "email"  # used three times: named
    assert {s.subject.variable for s in statements[1:]} == {"email"}


def test_the_viewport_observation_needs_no_code():
    viewport = ViewportObservation(ref="e42", observedAt=1.0, inViewport=False, intersectionRatio=0.0,
                                   boundingBox={"x": 0, "y": 900, "width": 10, "height": 10},
                                   viewport={"width": 1280, "height": 720}, scroll={"x": 0, "y": 0})
    assert kinds(statements_of(click(observations=[viewport]))) == ["declare", "act"]


def test_a_followed_link_checks_the_url_from_its_href_and_duplicate_navigations_collapse():
    plan = build_plan(follow_link(H))
    assert [kinds(s.statements) for s in plan.steps] == [["goto"], ["act", "expect_url"]]
    url = plan.steps[1].statements[1]
    assert url.pattern == "/cart$" and url.why == 'The "View cart" link goes to /cart (navigation observation).'
    # A document GET is the navigation itself, not a backend call to wait for.
    assert plan.steps[1].statements[0].wait is None


def test_a_link_that_redirects_is_checked_against_where_the_page_ended():
    steps = follow_link(H)
    steps[2].outcome.url_after = f"{H}/login?next=%2Fcart"
    url = build_plan(steps).steps[1].statements[1]
    assert url.pattern == r"/login\?next=%2Fcart$" and "ended on /login?next=%2Fcart" in url.why


def test_a_link_to_a_new_tab_and_a_link_that_did_not_navigate():
    steps = follow_link(H)
    steps[2].observations[0].linkAncestor.target = "_blank"
    assert kinds(build_plan(steps).steps[1].statements) == ["act", "note"]
    steps = follow_link(H)
    steps[2].outcome.url_after = PRODUCTS
    assert kinds(build_plan(steps).steps[1].statements) == ["act"]


def test_a_url_change_without_a_link_is_checked_by_path():
    steps = sign_in(H, "ada@example.com")
    assert build_plan(steps).steps[-1].statements[-1] == ExpectUrl(pattern="/dashboard$")


def test_a_redirected_navigation_is_checked_and_other_origins_stay_absolute():
    redirected = step(0, "navigate", f"{H}/account", outcome=StepOutcome(url_before="about:blank",
                                                                         url_after=f"{H}/login?next=%2Faccount"))
    elsewhere = step(1, "navigate", "https://docs.example.org/help")
    plan = build_plan([redirected, elsewhere])
    assert kinds(plan.steps[0].statements) == ["goto", "expect_url"]
    assert plan.steps[1].statements == [Goto(url="https://docs.example.org/help")]


def test_only_consecutive_duplicate_navigations_collapse():
    steps = [step(0, "navigate", PRODUCTS), step(1, "navigate", f"{H}/cart"), step(2, "navigate", PRODUCTS)]
    assert [s.statements[0].url for s in recorded(build_plan(steps))] == ["/products", "/cart", "/products"]


def test_a_recording_that_starts_mid_page_opens_that_page_first():
    plan = build_plan([click()])
    assert plan.steps[0].statements == [Goto(url="/products", why="The recording started on this page.")]


def test_which_request_is_waited_for():
    def wait_for(*requests):
        return statements_of(click(requests=list(requests)))[-1].wait

    xhr = RequestRecord(method="GET", url=f"{H}/api/products?seed=3", status=200, resource_type="xhr")
    beacon = RequestRecord(method="POST", url="https://analytics.example/collect", status=204)
    assert wait_for(xhr).path == "/api/products" and wait_for(xhr).method == "GET"
    assert wait_for(xhr, RequestRecord(method="DELETE", url=f"{H}/api/cart/1", status=409)).method == "DELETE"
    assert wait_for(beacon, xhr).path == "/api/products"  # the app's own backend before a third party
    assert wait_for(beacon).path == "/collect"
    for asset in ("script", "stylesheet", "image", "font"):
        assert wait_for(RequestRecord(method="GET", url=f"{H}/a", status=200, resource_type=asset)) is None


def test_status_texts_are_checked_but_progress_messages_are_not():
    outcome = StepOutcome(url_before=PRODUCTS, url_after=PRODUCTS,
                          status_texts=["Loading products…", "Saved", "Saved", "Syncing..."])
    statements = statements_of(click(outcome=outcome))
    assert kinds(statements) == ["declare", "act", "note", "expect_state", "note"]
    assert statements[3].subject.locator.python() == 'page.get_by_role("status").filter(has_text="Saved")'


def test_secrets_become_environment_variables_and_their_values_are_never_read():
    plan = build_plan(sign_in(H, "ada@example.com"))
    assert plan.env_vars == ["STUDIO_PASSWORD"]
    assert plan.steps[0].statements == [RequireEnv(name="STUDIO_PASSWORD", why=(
        "Secrets come from the environment, never from this file."))]
    password = plan.steps[3].statements[0]
    assert password.secret_env == "STUDIO_PASSWORD" and password.text is None
    assert "Correct-Horse" not in plan.model_dump_json()
    assert plan.steps[2].statements[0].text == "ada@example.com"  # a non-secret value stays a literal


def test_press_without_a_locator_uses_the_keyboard():
    act = statements_of(step(1, "press", PRODUCTS, key="Escape"))[0]
    assert act.subject.locator is None and act.text == "Escape"


def test_default_titles_come_from_the_steps():
    assert build_plan(add_to_cart(H)).title == "click Add to Cart (iPhone 15 Pro)"
    assert build_plan(sign_in(H, "a@b.test")).title == "fill Email, fill Password, click Sign in"
    assert build_plan([step(0, "navigate", PRODUCTS)]).title == "open /products"
    assert build_plan(add_to_cart(H), title="  add\n  to cart ").title == "add to cart"


@pytest.mark.parametrize("steps, message", [
    ([], "no recorded steps"),
    ([step(0, "click", PRODUCTS)], r"Step 0 \(click\) has no stored locator"),
    ([step(0, "fill", PRODUCTS, locator=EMAIL, secret_env="PASS WORD")], "not a valid environment variable name"),
])
def test_recordings_no_test_can_be_written_from_are_refused_with_a_sentence(steps, message):
    with pytest.raises(ExportError, match=message):
        build_plan(steps)


def test_variable_names_stay_unique_in_one_test():
    other_card = ADD_TO_CART.model_copy(update={"steps": [ADD_TO_CART.steps[0].model_copy(update={"value": "tile"}),
                                                          *ADD_TO_CART.steps[1:]]})
    steps = [step(0, "navigate", PRODUCTS), click(), click(), click(locator=other_card)]
    steps = [steps[0], *(s.model_copy(update={"index": i + 1}) for i, s in enumerate(steps[1:]))]
    first, again, other = recorded(build_plan(steps))[1:]
    # The same locator keeps the variable an earlier step declared; another one with the same label gets its own.
    assert first.statements[0] == Declare(variable="add_to_cart", locator=ADD_TO_CART)
    assert kinds(again.statements) == ["act"] and again.statements[0].subject.variable == "add_to_cart"
    assert other.statements[0].variable == "add_to_cart_2"
