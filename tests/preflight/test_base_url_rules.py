"""Where an app's root is, from the address that answered (pure rules; the browser side is in test_preflight.py)."""

from studio.preflight.base_url import _app_root, parent_paths


def test_a_folder_the_tester_gave_that_answered_directly_is_the_apps_root():
    # An app served from a folder (TodoMVC's examples): its parent is another app, or a directory listing.
    assert _app_root("http://h/examples/vanillajs/", directly=True) == "http://h/examples/vanillajs/"


def test_a_page_reached_by_a_redirect_keeps_only_its_prefix():
    assert _app_root("http://h/app/login") == "http://h/app/"
    assert _app_root("http://h/accounts/login/") == "http://h/accounts/"
    assert _app_root("http://h/login") == "http://h/"


def test_a_folders_index_given_directly_keeps_its_folder():
    assert _app_root("http://h/shop/index.html", directly=True) == "http://h/shop/"


def test_a_named_page_given_directly_is_the_app_itself_not_its_folder():
    # jsoneditor's examples/01_basic_usage.html: its folder is a directory listing of other examples.
    assert _app_root("http://h/examples/01_basic_usage.html", directly=True) == "http://h/examples/01_basic_usage.html"
    assert _app_root("http://h/demo.html?theme=dark", directly=True) == "http://h/demo.html?theme=dark"
    assert _app_root("http://h/examples/01_basic_usage.html") == "http://h/examples/"  # reached by a redirect


def test_parent_paths_walk_up_to_the_origin():
    assert parent_paths("http://h/a/b/c") == ["http://h/a/b/c", "http://h/a/b/", "http://h/a/", "http://h/"]
