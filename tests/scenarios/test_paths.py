"""The path tree's layout (pure): pages by distance along the runs' own transitions, the shortest path searched in
the crawled navigation graph too (its untaken edges kept with a count of 0), and no forward step drawn as a step
back because a crawled shortcut exists."""

from __future__ import annotations

from studio.scenarios.paths import path_tree


def end(history: list[str], status: str = "success") -> dict:
    return {"type": "scenario_end", "scenarioId": "s", "status": status, "urlHistory": history}


def test_a_crawled_shortcut_is_the_shortest_path_but_does_not_make_the_run_step_back():
    tree = path_tree([end(["/a", "/b", "/c", "/d"]), end(["/a", "/b", "/c", "/d"])], graph={("/b", "/d")})
    assert tree.depth == {"/a": 0, "/b": 1, "/c": 2, "/d": 3}
    assert tree.edges[("/a", "/b")] == 2 and tree.edges[("/b", "/d")] == 0
    assert tree.best == {("/a", "/b"), ("/b", "/d")}
    assert not tree.is_backtrack(("/c", "/d")) and not tree.is_backtrack(("/b", "/c"))
    assert tree.starts == ["/a"] and tree.goals == ["/d"] and tree.seen["/b"] == 2


def test_a_return_to_an_earlier_page_is_a_step_back_and_pages_only_the_graph_knows_are_placed():
    tree = path_tree([end(["/a", "/b", "/a", "/c"])], graph={("/c", "/x")})
    assert tree.is_backtrack(("/b", "/a"))
    assert tree.best == {("/a", "/c")}
    assert "/x" not in tree.depth  # not on a shortest path: the graph's other edges are not drawn
    failed = path_tree([end(["/a", "/b"], status="failure")])
    assert failed.goals == [] and failed.best == set() and failed.columns == {0: ["/a"], 1: ["/b"]}
