"""`${env.NAME}` in a pre- or postcondition's params is the environment variable NAME when the call is made (studio
validate accepts it without a precondition storing `env`); an unset one ends the run with a sentence naming the
variable and saying to set it."""

from __future__ import annotations

import pytest

from studio.browser.errors import first_line
from studio.scenarios.runner import MissingValue, resolve_references


def test_an_environment_reference_reads_the_variable(monkeypatch):
    monkeypatch.setenv("QA_TENANT", "qa-7")
    monkeypatch.setenv("QA_DOMAIN", "example.org")
    params = {"tenant": "${env.QA_TENANT}", "email": "tester@${env.QA_DOMAIN}", "plan": "${testUser.plan}",
              "list": ["${env.QA_TENANT}"]}
    assert resolve_references(params, {"testUser": {"plan": "plus"}}) == {
        "tenant": "qa-7", "email": "tester@example.org", "plan": "plus", "list": ["qa-7"]}


def test_an_unset_variable_is_a_sentence_naming_it(monkeypatch):
    monkeypatch.delenv("QA_TENANT", raising=False)
    with pytest.raises(MissingValue) as caught:
        resolve_references({"tenant": "${env.QA_TENANT}"}, {})
    assert first_line(caught.value) == ("${env.QA_TENANT} needs the environment variable QA_TENANT, which is not set; "
                                        "set it before the run (export QA_TENANT=...)")
    with pytest.raises(KeyError, match=r"does not name one environment variable; write \$\{env.NAME\}"):
        resolve_references("${env}", {})  # a KeyError still, which the runner ends the run with
    with pytest.raises(MissingValue) as stored:
        resolve_references("${testUser.email}", {"testUser": {}})
    assert str(stored.value).startswith("${testUser.email} has no value")  # a sentence, not a quoted KeyError
