"""Plain words first (issue 15 item 5): every algorithm has a plain name and a line on what it is good for."""

from __future__ import annotations

import dataclasses

from dpgui.tasks.plain_words import GLOSSARY, PLAIN_WORDS, details, plain_words
from dpgui.tasks.registry import Guarantee, algorithms, get_algorithm


def test_every_registered_algorithm_has_plain_words_without_paper_jargon():
    for info in algorithms():
        words = PLAIN_WORDS.get(info.name)
        assert words is not None, f"{info.name} needs plain words in dpgui/tasks/plain_words.py"
        assert words.name != info.title and words.good_for.endswith(".")
        assert len(words.good_for) <= 110, info.name


def test_an_algorithm_without_an_entry_falls_back_to_its_title_and_first_sentence():
    info = dataclasses.replace(get_algorithm("em"), name="new-one", summary="Does a thing. Then more.")
    assert plain_words(info).name == info.title and plain_words(info).good_for == "Does a thing."


def test_details_keep_the_registered_name_paper_and_section():
    info = get_algorithm("pap")
    assert info.name in details(info) and info.paper in details(info) and info.section in details(info)


def test_the_glossary_explains_epsilon_delta_and_the_review():
    terms = dict(GLOSSARY)
    assert {"ε (epsilon)", "δ (delta)", "Review", "CDF"} <= set(terms)


def test_the_glossary_states_the_neighbouring_relation_every_guarantee_is_for():
    """The ledger books every release under replace one record (registry.REPLACE_ONE): a glossary that said
    add/remove would promise a guarantee under a relation the costs were not computed for."""
    relation = dict(GLOSSARY)["Neighbouring relation"]
    assert "replacing one record" in relation and "adding" not in relation and "removing" not in relation


def test_plain_words_that_name_a_guarantee_say_the_registered_one():
    """'Pure ε-DP' only for a pure algorithm; 'δ > 0' only for one that needs it."""
    for info in algorithms():
        words = PLAIN_WORDS[info.name].good_for
        if "Pure ε-DP" in words:
            assert info.guarantee is Guarantee.PURE, info.name
        if "δ > 0" in words:
            assert info.guarantee is not Guarantee.PURE, info.name
