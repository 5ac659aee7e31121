"""Status styles: every status and decision has a distinct colour, an icon and a word."""

from __future__ import annotations

from rrag.settings import ANSWERERS, CLAIM_EXTRACTORS, VERIFIER_STAGES
from rrag.types import ClaimStatus, Decision, Level, Verdict
from ui.status import (
    ANSWERER_LABELS,
    DECISION_STYLES,
    EXTRACTOR_LABELS,
    LEVEL_STYLES,
    NOT_VERIFIED,
    STATUS_ORDER,
    STATUS_STYLES,
    VERIFIER_LABELS,
    badge_html,
    display_status,
    legend_html,
    level_style,
    status_style,
)


def test_every_engine_status_has_a_style_and_a_place_in_the_order() -> None:
    for status in ClaimStatus:
        assert status.value in STATUS_STYLES
        assert status.value in STATUS_ORDER
    assert set(STATUS_ORDER) == set(STATUS_STYLES)
    assert set(DECISION_STYLES) == {d.value for d in Decision}
    assert set(LEVEL_STYLES) == {lv.value for lv in Level}


def test_every_backend_choice_has_a_label_and_no_label_names_another() -> None:
    # The pages show each choice by its label (`LABELS.__getitem__`): a choice without one would fail.
    assert set(ANSWERER_LABELS) == set(ANSWERERS)
    assert set(EXTRACTOR_LABELS) == set(CLAIM_EXTRACTORS)
    assert set(VERIFIER_LABELS) == set(VERIFIER_STAGES)


def test_the_specified_colour_families() -> None:
    # supported green, partial amber, unsupported orange, contradicted red, not checkable grey
    def rgb(hex_colour: str) -> tuple[int, int, int]:
        return int(hex_colour[1:3], 16), int(hex_colour[3:5], 16), int(hex_colour[5:7], 16)

    r, g, b = rgb(STATUS_STYLES["supported"].colour)
    assert g > r and g > b
    r, g, b = rgb(STATUS_STYLES["contradicted"].colour)
    assert r > 2 * g and r > 2 * b
    amber, orange = rgb(STATUS_STYLES["partial"].colour), rgb(STATUS_STYLES["unsupported"].colour)
    assert amber[0] > amber[2] and orange[0] > orange[2]
    assert amber[1] / amber[0] > orange[1] / orange[0]  # amber is yellower than orange
    r, g, b = rgb(STATUS_STYLES["not_checkable"].colour)
    assert max(r, g, b) - min(r, g, b) < 30  # grey


def test_no_two_statuses_share_a_colour_icon_or_label_except_the_two_greys() -> None:
    decided = [s for s in STATUS_ORDER if s != NOT_VERIFIED]
    assert len({STATUS_STYLES[s].colour for s in decided}) == len(decided)
    assert len({STATUS_STYLES[s].icon for s in STATUS_ORDER}) == len(STATUS_ORDER)
    assert len({STATUS_STYLES[s].label for s in STATUS_ORDER}) == len(STATUS_ORDER)


def test_unverified_checkable_claims_display_as_not_verified() -> None:
    unverified = Verdict(ClaimStatus.UNSUPPORTED, 0.0, "llm", "timed out", verified=False)
    assert display_status(unverified) == NOT_VERIFIED
    assert display_status(Verdict(ClaimStatus.SUPPORTED, 0.9, "quote", "")) == "supported"
    assert display_status(Verdict(ClaimStatus.NOT_VERIFIED, 0.0, "llm", "timed out")) == NOT_VERIFIED
    assert display_status(Verdict(ClaimStatus.NOT_CHECKABLE, 1.0, "claims", "greeting")) == "not_checkable"


def test_legend_lists_every_status_with_icon_label_and_meaning() -> None:
    legend = legend_html()
    for status in STATUS_ORDER:
        style = STATUS_STYLES[status]
        assert style.label in legend and style.icon in legend and style.meaning in legend


def test_unknown_values_fall_back_to_neutral_styles() -> None:
    assert status_style("bogus") == STATUS_STYLES[NOT_VERIFIED]
    assert level_style(None).label == "n/a"
    assert "n/a" in badge_html(level_style("bogus"))
