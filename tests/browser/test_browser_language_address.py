"""The address names the language (``?lang=id``): how ``domeng --lang id`` opens the
browser and how docs/rules.md links the rules page in each language."""

from __future__ import annotations

from typing import Any


def test_lang_in_the_address_chooses_the_language_and_is_remembered(
    page: Any, service: Any
) -> None:
    page.goto(service.base + "/?lang=id#/rules")
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == "id"
    assert "Aturan Domeng" in page.locator("h1").first.inner_text()
    page.goto(service.base + "/?lang=hi#/rules")
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == "hi"
    page.goto(service.base + "/?lang=xx")  # not a language: the one remembered
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("document.documentElement.lang") == "hi"
