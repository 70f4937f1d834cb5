"""Export folders: what is written, what is refused, and that a failed export leaves nothing behind."""

from __future__ import annotations

import ast
import configparser
import json
import re
import subprocess
import sys

import esprima
import pytest
from export_samples import SECRET, add_to_cart, all_text, sign_in

from studio.export import DestinationRefused, ExportError, GeneratedSyntaxError, export_session, render_test
from studio.export.project_writer import MARKER, ExportMarker, write_project

H = "http://shop.test:8080"
SLEEPS = re.compile(r"wait_for_timeout|waitForTimeout|time\.sleep|setTimeout")


def test_a_python_export_is_a_runnable_pytest_project(tmp_path):
    out = tmp_path / "cart-test"
    result = export_session(add_to_cart(H), "python", out, title="add iPhone 15 Pro to cart")
    names = sorted(p.name for p in out.iterdir())
    assert names == sorted([".gitignore", MARKER, "README.md", "conftest.py", "pytest.ini", "requirements.txt",
                            "test_add_iphone_15_pro_to_cart.py"])
    assert result.test_file == out / "test_add_iphone_15_pro_to_cart.py" and result.env_vars == []
    assert sorted(p.name for p in result.files) == sorted(n for n in names if n != MARKER)
    assert result.test_file.read_text() == render_test(add_to_cart(H), "python", "add iPhone 15 Pro to cart")
    ini = configparser.ConfigParser()
    ini.read(out / "pytest.ini")
    assert ini["pytest"]["base_url"] == H  # the recorded origin is the default base URL
    conftest = (out / "conftest.py").read_text()
    ast.parse(conftest)
    assert 'os.environ.get("PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH")' in conftest and "os.geteuid() == 0" in conftest
    readme = (out / "README.md").read_text()
    assert "pytest --base-url" in readme and "BASE_URL" in readme and "pip install -r requirements.txt" in readme
    marker = ExportMarker.model_validate_json((out / MARKER).read_text())
    assert (marker.session_id, marker.language, marker.title) == ("s1", "python", "add iPhone 15 Pro to cart")
    assert not SLEEPS.search(all_text(out))


def test_a_typescript_export_is_a_playwright_test_project(tmp_path):
    out = tmp_path / "ts"
    result = export_session(add_to_cart(H), "typescript", out, title="add iPhone 15 Pro to cart")
    assert result.test_file.name == "add-iphone-15-pro-to-cart.spec.ts"
    package = json.loads((out / "package.json").read_text())
    assert "@playwright/test" in package["devDependencies"] and package["scripts"]["test"] == "playwright test"
    config = (out / "playwright.config.ts").read_text()
    esprima.parseModule(config)
    assert f'baseURL: process.env.BASE_URL || "{H}"' in config
    assert "process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH" in config and '"--no-sandbox"' in config
    assert "node_modules/" in (out / ".gitignore").read_text()
    assert "npx playwright test" in (out / "README.md").read_text()
    assert not SLEEPS.search(all_text(out))


@pytest.mark.parametrize("lang", ["python", "typescript"])
def test_a_secret_never_reaches_any_exported_file_and_the_readme_names_its_variable(tmp_path, lang):
    result = export_session(sign_in(H, "ada@example.com"), lang, tmp_path / lang)
    assert result.env_vars == ["STUDIO_PASSWORD"]
    text = all_text(tmp_path / lang)
    assert SECRET not in text
    assert "`STUDIO_PASSWORD`" in (tmp_path / lang / "README.md").read_text()


def test_a_generated_file_that_does_not_parse_is_refused_and_nothing_is_written(tmp_path):
    out = tmp_path / "broken"
    marker = ExportMarker(session_id="s1", language="python", title="t", exported_at="now", files=["test_t.py"])
    with pytest.raises(GeneratedSyntaxError, match=r"test_t\.py is not valid code \(line 2: .*nothing was written"):
        write_project(out, {"conftest.py": "import os\n", "test_t.py": "def test_t(page):\n    page.goto(\n"},
                      marker)
    with pytest.raises(GeneratedSyntaxError, match=r"x\.spec\.ts is not valid code \(Line 1: Unexpected"):
        write_project(out, {"x.spec.ts": "test('x', async ({ page }) => { await page.goto('/') ;"},
                      marker.model_copy(update={"language": "typescript"}))
    assert list(tmp_path.iterdir()) == []  # no folder, no staging leftovers


def test_a_folder_that_is_not_an_export_is_refused_unchanged(tmp_path):
    mine = tmp_path / "notes"
    mine.mkdir()
    (mine / "todo.txt").write_text("keep me\n")
    with pytest.raises(DestinationRefused, match="holds files that are not a Preflight Studio export"):
        export_session(add_to_cart(H), "python", mine)
    assert [p.name for p in mine.iterdir()] == ["todo.txt"] and (mine / "todo.txt").read_text() == "keep me\n"
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    with pytest.raises(DestinationRefused, match="it is a file, not a folder"):
        export_session(add_to_cart(H), "python", a_file)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "notes"]


def test_an_empty_folder_is_used_and_an_export_in_another_language_is_refused(tmp_path):
    out = tmp_path / "empty"
    out.mkdir()
    export_session(add_to_cart(H), "python", out)
    with pytest.raises(DestinationRefused, match="holds a Python export. Choose another folder for the TypeScript"):
        export_session(add_to_cart(H), "typescript", out)


def test_exporting_again_replaces_only_what_the_last_export_wrote(tmp_path):
    out = tmp_path / "ts"
    export_session(add_to_cart(H), "typescript", out, title="first title")
    (out / "node_modules").mkdir()
    (out / "node_modules" / "keep.js").write_text("1")
    (out / "my-notes.md").write_text("mine")
    result = export_session(add_to_cart(H), "typescript", out, title="second title")
    names = sorted(p.name for p in out.iterdir())
    assert "first-title.spec.ts" not in names and "second-title.spec.ts" in names
    assert "node_modules" in names and (out / "my-notes.md").read_text() == "mine"
    assert json.loads((out / MARKER).read_text())["title"] == "second title"
    assert result.test_file.read_text().count('test("second title"') == 1
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # the staging folder is gone


def test_an_unknown_language_and_an_empty_session_are_refused(tmp_path):
    with pytest.raises(ExportError, match="choose python or typescript"):
        export_session(add_to_cart(H), "java", tmp_path / "x")  # type: ignore[arg-type]
    with pytest.raises(ExportError, match="no recorded steps"):
        export_session([], "python", tmp_path / "x")
    assert list(tmp_path.iterdir()) == []


def test_the_export_package_loads_without_qt():
    code = ("import sys, studio.export, studio.cli.export_command; "
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'qasync', 'pyqtgraph', 'playwright')]; "
            "print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
