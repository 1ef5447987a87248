"""The bundled rulesets' folder: the package's own directory when installed as files, and
``importlib.resources``' answer otherwise (a package without a file path, as in a zip
import); both give the same rulesets and the same labels."""

from __future__ import annotations

from importlib import resources

import nomicpoker.rules
from nomicpoker.shell.storage import rulesets


def test_the_package_directory_is_what_importlib_resources_finds():
    assert rulesets._bundled() == resources.files("nomicpoker.rules")
    assert rulesets.bundled_rulesets() == ["blognomic-2008", "roberts-nlhe"]


def test_without_a_file_path_importlib_resources_answers(monkeypatch):
    monkeypatch.setattr(nomicpoker.rules, "__file__", None)
    assert rulesets._bundled() == resources.files("nomicpoker.rules")
    rulesets._load_bundled.cache_clear()
    try:
        assert rulesets.load_ruleset("roberts-nlhe").name == "roberts-nlhe"
        assert rulesets.read_ruleset("blognomic-2008").ruleset.name == "blognomic-2008"
    finally:
        rulesets._load_bundled.cache_clear()
