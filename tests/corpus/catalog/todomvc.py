"""TodoMVC (`todomvc@0.1.1`): the same to-do list in several frameworks, each served from its example folder.

The behaviours are the sections of TodoMVC's own specification (app-spec.md: no todos, new todo, mark all as
complete, item, editing, counter, clear completed, persistence, routing), as a tester would list them; written
before the studio was run on these apps."""

from __future__ import annotations

from tests.corpus.apps import Behaviour, CaseMatcher, CorpusApp, Mount
from tests.corpus.faults import Fault, Patch
from tests.corpus.npm_apps import PinnedPackage

TODOMVC = PinnedPackage("todomvc", "0.1.1", "sha512-gd6+DoObD0yzXEpbvHvkSoOd9/krxd/wvUTbzvKe7uTjAM2v9wG6zy4Icl6aUcMpDof53Cz2l5O/"
                                            "9mdN3Jk+ag==")
NEW_TODO = r"needs to be done|new.todo"
ITEM = r"\btodo|item|listitem"

# Fault name -> what a user sees. Each framework plants the ones its code allows by one anchored edit.
SUMMARIES = {
    "no_persist": "todos are kept in memory only: all gone after a reload",
    "counter_counts_all": "the 'items left' counter counts completed items too",
    "clear_completed_noop": "Clear completed does nothing",
    "toggle_noop": "ticking an item's checkbox does nothing",
    "toggle_all_noop": "Mark all as complete does nothing",
    "delete_noop": "an item's delete button does nothing",
    "edit_not_saved": "an edited title is not saved (the old title stays)",
    "new_todo_not_cleared": "the new-todo field keeps its text after the todo is added",
    "blank_todo_added": "an empty new todo is added as a blank item",
    "main_shown_when_empty": "the list and footer are shown while there are no todos",
    "active_filter_shows_all": "the Active filter shows completed items too",
}


def _behaviours(planted: set[str]) -> tuple[Behaviour, ...]:
    """The spec's behaviours; each judged by its fault where this framework plants it, else by its matcher."""

    def judge(name: str, fault: str | None, actions: tuple[str, ...], target: str) -> Behaviour:
        return Behaviour(name, faults=(fault,) if fault in planted else (), matcher=CaseMatcher(actions, target))

    return (
        judge("No todos: the list and its footer are hidden", "main_shown_when_empty", ("navigate",),
              r"main|footer|toggle-all|clear completed|items? left"),
        judge("New todo: Enter adds it to the list", None, ("fill", "press"), NEW_TODO),
        judge("New todo: the field is cleared after adding", "new_todo_not_cleared", ("fill", "press"), NEW_TODO),
        judge("New todo: an empty title is not added", "blank_todo_added", ("press",), NEW_TODO),
        judge("Mark all as complete checks every item", "toggle_all_noop", ("check",), r"mark all|toggle-all"),
        judge("Item: ticking it marks it completed", "toggle_noop", ("check",), ITEM),
        judge("Item: the delete button removes it", "delete_noop", ("click",), r"destroy|delete|remove|×"),
        judge("Editing: double-click, type and Enter saves the new title", "edit_not_saved", ("dblclick", "fill"),
              ITEM),
        judge("Editing: Escape cancels the edit", None, ("dblclick", "press"), r"escape"),
        judge("Counter: shows how many items are left, pluralised", "counter_counts_all", ("press",),
              r"items? left|todo-count"),
        judge("Clear completed removes the completed items", "clear_completed_noop", ("click",), r"clear completed"),
        judge("Persistence: todos are still there after a reload", "no_persist", ("reload",), ITEM),
        judge("Routing: Active shows only the active items", "active_filter_shows_all", ("click",),
              r"#/active|\bactive\b"),
        judge("Routing: Completed shows only the completed items", None, ("click",), r"#/completed|\bcompleted\b"),
    )


def _fault(name: str, *patches: Patch) -> Fault:
    return Fault(name, SUMMARIES[name], patches, data_loss=name == "no_persist")


def _return_first(file: str, opening: str) -> Patch:
    """The function that starts with `opening` returns at once (its handler does nothing)."""
    return Patch(file, opening, opening + " return;")


VANILLA_FAULTS = (
    _fault("no_persist", Patch("js/store.js", "\tfunction Store(name, callback) {",
                               "\tvar localStorage = {};\n\n\tfunction Store(name, callback) {")),
    _fault("counter_counts_all", Patch("js/controller.js", "that.view.render('updateElementCount', todos.active);",
                                       "that.view.render('updateElementCount', todos.total);")),
    _fault("clear_completed_noop", _return_first("js/controller.js", "that.view.bind('removeCompleted', function () {")),
    _fault("toggle_noop", _return_first("js/controller.js", "that.view.bind('itemToggle', function (item) {")),
    _fault("toggle_all_noop", _return_first("js/controller.js", "that.view.bind('toggleAll', function (status) {")),
    _fault("delete_noop", _return_first("js/controller.js", "that.view.bind('itemRemove', function (item) {")),
    _fault("edit_not_saved", Patch("js/controller.js", "that.editItemSave(item.id, item.title);",
                                   "that.editItemCancel(item.id);")),
    _fault("new_todo_not_cleared", Patch("js/view.js", "that.$newTodo.value = '';", "void 0;")),
    _fault("blank_todo_added", Patch("js/controller.js", "if (title.trim() === '') {", "if (false) {")),
    _fault("main_shown_when_empty", Patch("js/view.js", "parameter.visible ? 'block' : 'none'", "'block'")),
    _fault("active_filter_shows_all", Patch("js/controller.js", "that.model.read({ completed: false }, ",
                                            "that.model.read({}, ")),
)

VUE_FAULTS = (
    _fault("no_persist", Patch("js/store.js", "localStorage.setItem(STORAGE_KEY, JSON.stringify(todos));",
                               "void todos;")),
    _fault("counter_counts_all", Patch("js/app.js", "return this.todos.filter(filters.active).length;",
                                       "return this.todos.length;")),
    _fault("clear_completed_noop", Patch("js/app.js", "this.todos = this.todos.filter(filters.active);", "void 0;")),
    _fault("toggle_all_noop", Patch("js/app.js", "todo.completed = value;", "void value;")),
    _fault("delete_noop", Patch("js/app.js", "this.todos.$remove(todo.$data);", "void todo;")),
    _fault("edit_not_saved", Patch("js/app.js", "todo.title = todo.title.trim();", "todo.title = this.beforeEditCache;")),
    _fault("new_todo_not_cleared", Patch("js/app.js", "this.newTodo = '';", "void 0;")),
    _fault("blank_todo_added", Patch("js/app.js", "var value = this.newTodo && this.newTodo.trim();\n\t\t\t\tif (!value) {",
                                     "var value = this.newTodo && this.newTodo.trim();\n\t\t\t\tif (false) {")),
)

BACKBONE_FAULTS = (
    _fault("no_persist", _return_first("bower_components/backbone.localStorage/backbone.localStorage.js",
                                       "save: function() {")),
    _fault("counter_counts_all", Patch("js/views/app-view.js", "remaining: remaining\n",
                                       "remaining: app.todos.length\n")),
    _fault("clear_completed_noop", Patch("js/views/app-view.js", "_.invoke(app.todos.completed(), 'destroy');", "")),
    _fault("toggle_noop", Patch("js/views/todo-view.js", "this.model.toggle();", "void 0;")),
    _fault("toggle_all_noop", _return_first("js/views/app-view.js", "toggleAllComplete: function () {")),
    _fault("delete_noop", Patch("js/views/todo-view.js", "'click .destroy': 'clear',", "")),
    _fault("edit_not_saved", Patch("js/views/todo-view.js", "this.model.save({ title: trimmedValue });",
                                   "void trimmedValue;")),
    _fault("new_todo_not_cleared", Patch("js/views/app-view.js", "this.$input.val('');", "void 0;")),
    _fault("active_filter_shows_all", Patch("js/views/todo-view.js", "app.TodoFilter === 'active' :", "false :")),
)


def _todomvc(framework: str, faults: tuple[Fault, ...]) -> CorpusApp:
    return CorpusApp(
        name=f"todomvc-{framework}", title=f"TodoMVC ({framework})",
        mounts=(Mount(TODOMVC, f"examples/{framework}"),), entry="/", ready="#new-todo",
        behaviours=_behaviours({fault.name for fault in faults}), faults=faults)


APPS = (
    _todomvc("vanillajs", VANILLA_FAULTS),
    # The jquery example of this package ships without its bower_components (jQuery itself): not served.
    _todomvc("vue", VUE_FAULTS),
    _todomvc("backbone", BACKBONE_FAULTS),
)
