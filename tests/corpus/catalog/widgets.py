"""Apps built from widget libraries and games on npm, each with the behaviours a tester would list (written before the
studio was run on them) and faults planted into the package's own built files, never into our host pages."""

from __future__ import annotations

from tests.corpus.apps import Behaviour, CaseMatcher, CorpusApp, Mount
from tests.corpus.catalog.stub_api import pet_shelter
from tests.corpus.faults import Fault, Patch
from tests.corpus.npm_apps import PinnedPackage

GAME_2048 = PinnedPackage("2048-webcomponent", "1.1.0", "sha512-RglRjMvK0Olw+iXLaZe4SHdbxlOU/MF36QME9eLrUdI04vzjB2YH4Z"
                                                       "mQQvrzOUUxzUkDo4iIHwyjvAWgHt1+WQ==")
GRIDJS = PinnedPackage("gridjs", "6.2.0", "sha512-EAGGfHjyEXWh12Txs6DjTGnWTo226wbowtMrLI+yNZQaJpvs0m7yDcyM7r+D4RA7rZQV"
                                          "j/cfmwEaRz/rlxg8LA==")
JSONEDITOR = PinnedPackage("jsoneditor", "10.4.3", "sha512-XBVYLkhgiHySC0PkGlac/Mbk738EpNnqBnxCJD4ttKKJ1JRIRngV8bf2zgw/J0"
                                                   "25jp4AqxOf2G3uDs/27cWHTQ==")
SWAGGER_UI = PinnedPackage("swagger-ui-dist", "5.35.0", "sha512-U06rpMtW9V3XPGOBeamTUSr0Z09jMX4IJuANpE/EZbAhw0G8CgwrzU4"
                                                        "YmXkn/h0wCDNsXdGarTNNHC3sU8yVUQ==")
SORTABLE = PinnedPackage("sortablejs", "1.15.7", "sha512-Kk8wLQPlS+yi1ZEf48a4+fzHa4yxjC30M/Sr2AnQu+f/MPwvvX9XjZ6OWejiz8cr"
                                                 "BsLwSq8GHqaxaET7u6ux0A==")
REVEAL = PinnedPackage("reveal.js", "6.0.2", "sha512-JYIg5D9aoxoaLeb84O+OvAwsKWdIavVgEDScxtYEXFCT6t6TQrhNtSgogcjdCpdLsWgl"
                                             "hJn3zyE3fUOwiH5KEg==")
PRISTINE = PinnedPackage("pristinejs", "1.1.0", "sha512-ardy/YEaZr5E1l0YM2eOkeQx0KoenQjBa7HkfX4Dt0PmqKhZUfyAIT9Qk23vGv4vv"
                                                "vWy/zb/eBe6sSsKUtahrg==")


def _returns_at_once(file: str, opening: str) -> Patch:
    return Patch(file, opening, opening + " return;")


GAME_JS = "node_modules/2048-webcomponent/dist/custom-element.js"
GAME = CorpusApp(
    name="2048", title="2048 (a web component, in a shadow root)", host="game2048",
    mounts=(Mount(GAME_2048, at="node_modules/2048-webcomponent"),), entry="/", ready="game-2048 .field",
    faults=(
        Fault("left_ignored", "ArrowLeft does nothing", (Patch(GAME_JS, "case 'ArrowLeft': {",
                                                               "case 'ArrowLeft': { break;"),)),
        Fault("up_ignored", "ArrowUp does nothing", (Patch(GAME_JS, "case 'ArrowUp': {", "case 'ArrowUp': { break;"),)),
        Fault("no_new_tile", "no new tile appears after a move", (Patch(GAME_JS, '"f").spawnNewField();', '"f");'),)),
        Fault("score_not_updated", "merging tiles never raises the score",
              (Patch(GAME_JS, "if (delta > 0) {", "if (false) {"),)),
        Fault("restart_noop", "New game does nothing", (_returns_at_once(GAME_JS, "restartGame() {"),)),
    ),
    behaviours=(
        Behaviour("A new game shows a 4x4 board with two tiles", matcher=CaseMatcher(("navigate",), r"\bfields?\b|\btiles?\b")),
        Behaviour("ArrowLeft slides the tiles left", faults=("left_ignored",)),
        Behaviour("ArrowUp slides the tiles up", faults=("up_ignored",)),
        Behaviour("ArrowRight and ArrowDown slide the tiles", matcher=CaseMatcher(("press",), r"arrow(right|down)")),
        Behaviour("A new tile appears after every move", faults=("no_new_tile",)),
        Behaviour("Equal tiles merge and the score rises by their sum", faults=("score_not_updated",)),
        Behaviour("New game starts a fresh board with score 0", faults=("restart_noop",)),
    ),
)

GRID_JS = "node_modules/gridjs/dist/gridjs.umd.js"
GRID = CorpusApp(
    name="gridjs", title="Grid.js table (search, sort, pagination)", host="gridjs",
    mounts=(Mount(GRIDJS, at="node_modules/gridjs"),), entry="/", ready=".gridjs-tbody tr",
    faults=(
        Fault("search_ignored", "typing in the search box filters nothing",
              (Patch(GRID_JS, "return this.props.keyword?(", "return false?("),)),
        Fault("sort_noop", "clicking a column header does not sort",
              (Patch(GRID_JS, "n.sort(this.compareWrapper.bind(this));", "void 0;"),)),
        Fault("sort_descending_ignored", "sorting descending sorts ascending",
              (Patch(GRID_JS, ":this.compare(u,s)*i.direction", ":this.compare(u,s)"),)),
        Fault("next_page_noop", "Next does not change the page",
              (Patch(GRID_JS, "onClick:function(){return I(y+1)}", "onClick:function(){}"),)),
        Fault("previous_page_noop", "Previous does not go back",
              (Patch(GRID_JS, "onClick:function(){return I(y-1)}", "onClick:function(){}"),)),
        Fault("no_match_message_missing", "a search with no match shows an empty table without a word",
              (Patch(GRID_JS, 'noRecordsFound:"No matching records found"', 'noRecordsFound:""'),)),
        Fault("summary_overshoots", "the summary says 'to 15 of 12' on the last page",
              (Patch(GRID_JS, 'N(""+Math.min((y+1)*p,k))', 'N(""+(y+1)*p)'),)),
    ),
    behaviours=(
        Behaviour("The table shows the first 5 of 12 people",
                  matcher=CaseMatcher(("navigate",), r"\brows?\b|\bcells?\b|ada lovelace")),
        Behaviour("Search keeps only the matching rows", faults=("search_ignored",)),
        Behaviour("Search with no match says no matching records", faults=("no_match_message_missing",)),
        Behaviour("A header click sorts the column ascending", faults=("sort_noop",)),
        Behaviour("A second header click sorts it descending", faults=("sort_descending_ignored",)),
        Behaviour("Next shows the following page", faults=("next_page_noop",)),
        Behaviour("Previous goes back a page", faults=("previous_page_noop",)),
        Behaviour("The summary counts what is shown (Showing 11 to 12 of 12)", faults=("summary_overshoots",)),
    ),
)

EDITOR_JS = "dist/jsoneditor.js"
EDITOR = CorpusApp(
    name="jsoneditor", title="JSON Editor (its examples/01_basic_usage.html)",
    mounts=(Mount(JSONEDITOR),), entry="/examples/01_basic_usage.html", ready=".jsoneditor-tree",
    faults=(
        Fault("undo_noop", "Undo does nothing", (_returns_at_once(EDITOR_JS, "treemode._onUndo = function () {"),)),
        Fault("search_finds_nothing", "search never finds anything",
              (Patch(EDITOR_JS, "this.results = this.editor.search(text);", "this.results = [];"),)),
        Fault("expand_all_noop", "Expand all does nothing",
              (_returns_at_once(EDITOR_JS, "treemode.expandAll = function () {"),)),
    ),
    behaviours=(
        Behaviour("Set JSON shows the document's fields", matcher=CaseMatcher(("click",), r"set json")),
        Behaviour("Get JSON shows the document as text", matcher=CaseMatcher(("click",), r"get json")),
        Behaviour("Expand all opens every node", faults=("expand_all_noop",)),
        Behaviour("Collapse all closes every node", matcher=CaseMatcher(("click",), r"collapse")),
        Behaviour("A value edited in the tree is kept", matcher=CaseMatcher(("fill",), r"value|field")),
        Behaviour("Undo takes back the last change", faults=("undo_noop",)),
        Behaviour("Search counts and highlights the matches", faults=("search_finds_nothing",)),
        Behaviour("The context menu inserts and removes fields",
                  matcher=CaseMatcher(("click",), r"insert|append|remove|duplicate")),
    ),
)

SWAGGER_JS = "swagger-ui-bundle.js"
SWAGGER = CorpusApp(
    name="swagger-ui", title="Swagger UI on a pet shelter API (stub server)", host="swagger",
    mounts=(Mount(SWAGGER_UI),), entry="/", ready=".opblock", api=pet_shelter,
    faults=(
        Fault("try_it_out_noop", "Try it out does nothing",
              (Patch(SWAGGER_JS, '{className:"btn try-out__btn",onClick:s},"Try it out "',
                     '{className:"btn try-out__btn",onClick:()=>{}},"Try it out "'),)),
        Fault("execute_noop", "Execute sends nothing",
              (Patch(SWAGGER_JS, "s.execute({operation:o,path:i,method:a})", "void 0"),)),
        Fault("required_not_checked", "an empty required parameter is sent anyway",
              (Patch(SWAGGER_JS, "i=s&&o;this.handleValidationResult(i)", "i=!0;this.handleValidationResult(i)"),)),
    ),
    behaviours=(
        Behaviour("The API's operations are listed under their tag", matcher=CaseMatcher(("navigate",), r"pets")),
        Behaviour("Expanding an operation shows its parameters and responses",
                  matcher=CaseMatcher(("click",), r"/pets|list the pets|find a pet")),
        Behaviour("Try it out makes the parameters editable", faults=("try_it_out_noop",)),
        Behaviour("Execute sends the request and shows the server's response", faults=("execute_noop",)),
        Behaviour("An empty required parameter is refused before sending", faults=("required_not_checked",)),
        Behaviour("Cancel leaves Try it out", matcher=CaseMatcher(("click",), r"cancel")),
        Behaviour("The Schemas section shows the Pet model", matcher=CaseMatcher(("click",), r"schemas|pet\b")),
    ),
)

SORTABLE_JS = "node_modules/sortablejs/Sortable.js"
PRIORITIES = CorpusApp(
    name="sortable", title="A drag-to-sort priority list (SortableJS)", host="sortable",
    mounts=(Mount(SORTABLE, at="node_modules/sortablejs"),), entry="/", ready="#priorities li",
    faults=(
        Fault("order_not_saved", "the new order is not saved: the old order is back after a reload",
              (Patch(SORTABLE_JS, "store && store.set && store.set(this);", "void store;"),), data_loss=True),
        # _onMove's false cancels the move (undefined lets it through: an earlier `return;` planted nothing).
        Fault("drop_noop", "dragging an item never moves it",
              (Patch(SORTABLE_JS, "function _onMove(fromEl, toEl, dragEl, dragRect, targetEl, targetRect, "
                                  "originalEvent, willInsertAfter) {",
                     "function _onMove(fromEl, toEl, dragEl, dragRect, targetEl, targetRect, originalEvent, "
                     "willInsertAfter) { return false;"),)),
        Fault("update_event_missing", "the 'Moved ... from position ... to ...' line never appears",
              (Patch(SORTABLE_JS, "name: 'update',", "name: 'no-update',"),)),
    ),
    behaviours=(
        Behaviour("Dragging a task to another place reorders the list", faults=("drop_noop",)),
        Behaviour("A status line says which task moved from where to where", faults=("update_event_missing",)),
        Behaviour("The order is still there after a reload", faults=("order_not_saved",)),
    ),
)

REVEAL_JS = "dist/reveal.js"
SLIDES = CorpusApp(
    name="reveal", title="reveal.js demo deck (keyboard only)",
    mounts=(Mount(REVEAL),), entry="/demo.html", ready=".reveal .slides section",
    faults=(
        Fault("right_ignored", "ArrowRight does not go to the next slide",
              (Patch(REVEAL_JS, "n===76||n===39?", "n===76?"),)),
        Fault("down_ignored", "ArrowDown does not go to the slide below", (Patch(REVEAL_JS, "n===74||n===40?", "n===74?"),)),
        Fault("position_lost_on_reload", "the URL does not follow the slide, so a reload goes back to the first",
              (Patch(REVEAL_JS, "replaceState(e){window.history.replaceState(null,null,e)", "replaceState(e){void e"),)),
    ),
    behaviours=(
        Behaviour("ArrowRight goes to the next slide", faults=("right_ignored",)),
        Behaviour("ArrowLeft goes back", matcher=CaseMatcher(("press",), r"arrowleft")),
        Behaviour("ArrowDown goes to the slide below", faults=("down_ignored",)),
        Behaviour("The URL names the slide, so a reload stays on it", faults=("position_lost_on_reload",)),
        Behaviour("Escape opens the overview of all slides", matcher=CaseMatcher(("press",), r"escape")),
        Behaviour("The progress bar and controls follow the slide", matcher=CaseMatcher(("press",), r"progress|controls")),
    ),
)

PRISTINE_JS = "node_modules/pristinejs/dist/pristine.js"
SIGNUP = CorpusApp(
    name="registration", title="A registration form with client-side validation (Pristine)", host="registration",
    mounts=(Mount(PRISTINE, at="node_modules/pristinejs"),), entry="/", ready="#signup",
    faults=(
        Fault("any_email_accepted", "any text is accepted as an e-mail address",
              (Patch(PRISTINE_JS, "return !val || EMAIL_REGEX.test(val);", "return true;"),)),
        Fault("password_match_removed", "different passwords are accepted",
              (Patch(PRISTINE_JS, "return other && (!val && !other.value || other.value === val);", "return true;"),)),
        Fault("minlength_ignored", "a too short name or password is accepted",
              (Patch(PRISTINE_JS, "return !val || val.length >= parseInt(length);", "return true;"),)),
        Fault("min_age_ignored", "an age under 18 is accepted",
              (Patch(PRISTINE_JS, "groupedElemCount(this) >= parseInt(limit) : parseFloat(val) >= parseFloat(limit)",
                     "true : true"),)),
        Fault("errors_never_shown", "a refused field gets no error message",
              (Patch(PRISTINE_JS, "errorTextElement.innerHTML = field.errors.join('<br/>');",
                     "errorTextElement.innerHTML = '';"),)),
    ),
    behaviours=(
        Behaviour("A complete, valid form creates the account and says so",
                  matcher=CaseMatcher(("fill", "click"), r"create account")),
        Behaviour("Empty required fields are refused, each with its message", faults=("errors_never_shown",)),
        Behaviour("An invalid e-mail address is refused", faults=("any_email_accepted",)),
        Behaviour("A password confirmation that differs is refused", faults=("password_match_removed",)),
        Behaviour("A too short name or password is refused", faults=("minlength_ignored",)),
        Behaviour("An age under 18 is refused", faults=("min_age_ignored",)),
        Behaviour("The terms must be accepted", matcher=CaseMatcher(("click",), r"terms")),
    ),
)

APPS = (GAME, GRID, EDITOR, SWAGGER, PRIORITIES, SLIDES, SIGNUP)
