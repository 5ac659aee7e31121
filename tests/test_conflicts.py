"""Conflicting sources: documents that give different values for the same thing are reported, the
claim is at most partial and the answer goes to a reviewer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from rrag.engine.pipeline import ReliableRAG
from rrag.settings import Settings
from rrag.types import (
    Chunk,
    Claim,
    ClaimResult,
    ClaimStatus,
    Decision,
    Level,
    Report,
    RetrievedChunk,
    Verdict,
)
from rrag.verify.conflicts import disagreement, flag_conflicts


def contexts(*sources: tuple[str, str]) -> list[RetrievedChunk]:
    return [
        RetrievedChunk(Chunk(f"c{i}", f"d{i}", name, text, 0, len(text)), 0.5)
        for i, (name, text) in enumerate(sources)
    ]


WARRANTY = contexts(
    (
        "policy.pdf",
        "Returns are accepted for 30 days. "
        "All products carry a warranty of 12 months from the date of purchase.",
    ),
    ("faq.html", "Our products come with a 2-year warranty. Shipping is free."),
)


@pytest.mark.parametrize(
    ("claim", "sources", "expected"),
    [
        (
            "All products carry a warranty of 12 months from the date of purchase.",
            WARRANTY,
            "sources disagree on the duration: 12 months (policy.pdf) vs 2-year (faq.html)",
        ),
        (
            "Our products come with a 2-year warranty.",
            WARRANTY,  # the sources in the order retrieved, as for the claim above: one pair, one text
            "sources disagree on the duration: 12 months (policy.pdf) vs 2-year (faq.html)",
        ),
        (
            "The X400 costs €899.",
            contexts(
                ("prices.html", "The X400 costs €899."), ("shop.pdf", "In our shop the X400 costs €949.")
            ),
            "sources disagree on the amount in EUR: €899 (prices.html) vs €949 (shop.pdf)",
        ),
        (
            "Employees contribute 5% of their salary to the pension.",
            contexts(
                ("hr.md", "Employees contribute 5% of their salary to the pension."),
                ("faq.md", "Employees contribute 7 percent of salary to the pension plan."),
            ),
            "sources disagree on the percentage: 5% (hr.md) vs 7 percent (faq.md)",
        ),
        (
            "Passwords must be at least 14 characters long.",
            contexts(
                ("policy.txt", "Passwords must be at least 14 characters long."),
                ("wiki.md", "Passwords need at least twelve characters."),
            ),
            "sources disagree: at least 14 characters (policy.txt) vs at least twelve characters (wiki.md)",
        ),
        # the same amount as opposite bounds
        (
            "Cabin bags may weigh up to 7 kg.",
            contexts(
                ("baggage.md", "Cabin bags may weigh up to 7 kg."),
                ("faq.html", "Cabin bags must weigh at least 7 kg."),
            ),
            "sources disagree: up to 7 kg (baggage.md) vs at least 7 kg (faq.html)",
        ),
    ],
)
def test_sources_that_give_different_values_for_the_same_thing_disagree(
    claim: str, sources: list[RetrievedChunk], expected: str
) -> None:
    assert disagreement(claim, sources) == expected


@pytest.mark.parametrize(
    ("claim", "sources"),
    [
        # the same value in other units
        (
            "All products carry a warranty of 12 months.",
            contexts(
                ("policy.pdf", "All products carry a warranty of 12 months."),
                ("faq.html", "Every product comes with a one-year warranty."),
            ),
        ),
        (
            "Incidents must be reported within 24 hours.",
            contexts(
                ("a.md", "Incidents must be reported within 24 hours."),
                ("b.md", "Incidents must be reported within one day."),
            ),
        ),
        # one document with two values for two groups, the other agreeing with one of them
        (
            "Full-time employees get 25 days of annual leave.",
            contexts(
                (
                    "leave.md",
                    "Full-time employees receive 25 days of annual leave. "
                    "Part-time employees receive 15 days of annual leave.",
                ),
                ("faq.html", "Full-time employees get 25 days of annual leave."),
            ),
        ),
        # other things with other values
        (
            "The X400 costs €899.",
            contexts(("prices.html", "The X400 costs €899."), ("other.md", "Delivery costs €5.")),
        ),
        # no value in the claim
        ("Every product has a warranty.", WARRANTY),
        # values of other things in sentences about the same people (the demo's remote-work answer)
        (
            "Employees may work remotely for up to 3 days per week.",
            contexts(
                (
                    "remote.docx",
                    "Employees may work remotely for up to 3 days per week. "
                    "Employees may work from abroad for up to 4 weeks per year.",
                ),
                ("leave.md", "Employees who work part-time receive 15 days of annual leave."),
            ),
        ),
        # a bound and an amount within it (a broadband provider's guarantee and its plans' table)
        (
            "Fibre 500 guarantees a download speed of at least 250 Mbps.",
            contexts(
                ("faults.md", "Fibre 500 has a minimum guaranteed download speed of 250 Mbps."),
                ("plans.docx", "For Fibre 500, the download speed is 500 Mbps and the monthly price is £34."),
            ),
        ),
        # two durations said "within", of two deadlines: a preposition tells no two things apart
        (
            "Claims must be made within 31 days of your return home.",
            contexts(
                ("claims.pdf", "Claims must be made within 31 days of your return home."),
                (
                    "plans.html",
                    "You can cancel within 14 days of buying a policy for a full refund, as long as you "
                    "have not travelled or made a claim.",
                ),
            ),
        ),
        # a difference between two prices is the price of neither (was "£46 vs £4": a right price trimmed)
        (
            "An automatic lesson costs £46 for an hour.",
            contexts(
                ("prices.txt", "An automatic lesson is £46."),
                ("faq.html", "Automatic lessons cost £4 more per hour than manual ones."),
            ),
        ),
    ],
)
def test_agreeing_or_unrelated_values_are_no_disagreement(claim: str, sources: list[RetrievedChunk]) -> None:
    assert disagreement(claim, sources) == ""


MANUAL_AND_FAQ = contexts(
    ("manual.md", "The descaler uses 2 tablets per wash."),
    ("faq.html", "The descaler monthly pack holds 30 tablets."),
)


@pytest.mark.parametrize(
    ("claim", "sources"),
    [
        # a quantity per operation and the size of a monthly pack of the same unit (issue 19)
        ("The descaler uses 2 tablets.", MANUAL_AND_FAQ),
        ("The descaler uses 2 tablets per wash.", MANUAL_AND_FAQ),
        ("The descaler monthly pack holds 30 tablets.", MANUAL_AND_FAQ),
        # the same measure on other days, or in another state
        (
            "The clinic opens at 07:30 on weekdays.",
            contexts(
                ("hours.md", "The clinic opens at 07:30 on weekdays."),
                ("faq.html", "The clinic opens at 09:00 on Saturdays."),
            ),
        ),
        (
            "The kettle weighs 1.2 kg when empty.",
            contexts(
                ("manual.md", "The kettle weighs 1.2 kg when empty."),
                ("shop.html", "The kettle weighs 2.9 kg when full."),
            ),
        ),
    ],
)
def test_values_of_the_same_unit_under_other_qualifiers_are_no_disagreement(
    claim: str, sources: list[RetrievedChunk]
) -> None:
    assert disagreement(claim, sources) == ""


def test_one_disagreement_is_reported_once_whichever_claim_states_it() -> None:
    texts = ["All products carry a warranty of 12 months.", "Our products come with a 2-year warranty."]
    results = [
        ClaimResult(Claim(t, 0, len(t)), Verdict(ClaimStatus.SUPPORTED, 0.99, "quote", "quoted"))
        for t in texts
    ]
    flagged = flag_conflicts(results, WARRANTY)
    assert {r.conflict for r in flagged} == {
        "sources disagree on the duration: 12 months (policy.pdf) vs 2-year (faq.html)"
    }


def test_a_supported_claim_over_disagreeing_sources_is_at_most_partial() -> None:
    text = "All products carry a warranty of 12 months from the date of purchase."
    supported = ClaimResult(
        Claim(text, 0, len(text)), Verdict(ClaimStatus.SUPPORTED, 0.99, "quote", "quoted exactly")
    )
    contradicted = ClaimResult(
        Claim(text, 0, len(text)), Verdict(ClaimStatus.CONTRADICTED, 0.8, "nli", "12 months")
    )
    [partial, still_contradicted] = flag_conflicts([supported, contradicted], WARRANTY)
    assert partial.verdict.status is ClaimStatus.PARTIAL and partial.verdict.reason.startswith(
        "sources disagree on the duration: 12 months"
    )
    assert partial.conflict == "sources disagree on the duration: 12 months (policy.pdf) vs 2-year (faq.html)"
    assert still_contradicted.verdict.status is ClaimStatus.CONTRADICTED and still_contradicted.conflict


@pytest.fixture
def rag(settings: Settings, tmp_path: Path) -> Iterator[ReliableRAG]:
    (tmp_path / "policy.txt").write_text(
        "Warranty policy\n\nAll products carry a warranty of 12 months from the date of purchase.\n",
        encoding="utf-8",
    )
    (tmp_path / "faq.html").write_text(
        "<html><body><p>Our products come with a 2-year warranty.</p></body></html>", encoding="utf-8"
    )
    engine = ReliableRAG(settings)
    assert all(r.ok for r in engine.ingest([tmp_path / "policy.txt", tmp_path / "faq.html"]))
    yield engine
    engine.close()


def test_an_answer_over_disagreeing_sources_is_flagged_and_saved(rag: ReliableRAG) -> None:
    report = rag.ask("How long is the warranty on products?")
    assert report.source_conflicts >= 1
    flagged = [r for r in report.claims if r.conflict]
    assert all(r.verdict.status is not ClaimStatus.SUPPORTED for r in flagged)
    found = "sources disagree on the duration: 12 months (policy.txt) vs 2-year (faq.html)"
    assert found in flagged[0].conflict
    assert report.level is not Level.HIGH and report.needs_review
    assert any(r.startswith("sources disagree") for r in report.review_reasons)
    assert report.decision is not Decision.REFUSE  # both values are shown, with the disagreement
    saved = rag.report(report.session_id)
    assert [r.conflict for r in saved.claims] == [r.conflict for r in report.claims]
    assert Report.from_dict(report.to_dict()).source_conflicts == report.source_conflicts
    [summary] = rag.sessions()
    assert summary.source_conflicts == report.source_conflicts


FERRY = contexts(
    ("policy.pdf", "Vehicles must arrive at least 45 minutes before departure."),
    ("faq.html", "Check-in closes 15 minutes before departure."),
)
FREEZE = contexts(
    ("terms.pdf", "A membership can be frozen for up to 3 months in any 12 months."),
    ("faq.html", "You can freeze your membership for up to 2 months in any 12 months."),
)


def _flag(claim: str, sources: list[RetrievedChunk], answers: Callable[[str], bool | None]) -> str:
    result = ClaimResult(Claim(claim, 0, len(claim)), Verdict(ClaimStatus.SUPPORTED, 0.99, "quote", "quoted"))
    return flag_conflicts([result], sources, lambda sentences: [answers(s) for s in sentences])[0].conflict


def test_only_sentences_that_answer_the_question_can_disagree_with_the_answer() -> None:
    # Asked how early to arrive, the check-in closing time is another measure, not a disagreement.
    arrive = "Vehicles must arrive at least 45 minutes before departure."
    assert _flag(arrive, FERRY, lambda sentence: "arrive" in sentence) == ""
    # Asked how long a membership can be frozen, both answer it in other words: a real disagreement,
    # named once with each value's source and the measure it is of.
    frozen = "A membership can be frozen for up to 3 months in any 12 months."
    assert disagreement(frozen, FREEZE) == ""  # by their words alone, two other subjects
    assert _flag(frozen, FREEZE, lambda sentence: None) == ""  # a judge unsure leaves it to the words
    assert _flag(frozen, FREEZE, lambda sentence: "membership" in sentence) == (
        "sources disagree on the duration: up to 3 months (terms.pdf) vs up to 2 months (faq.html)"
    )


TEAMS = contexts(
    ("a/readme.md", "Team Falcon sits in room 12 on the third floor."),
    ("b/readme.md", "Team Heron sits in room 40 on the ground floor."),
)


def _judge_entailing(*follows: str) -> Callable[[list[tuple[str, str]]], np.ndarray]:
    """A judge for the unit tests below: each claim in `follows` follows from any sentence, no other."""
    return lambda pairs: np.array(
        [[0.9, 0.05, 0.05] if c in follows else [0.05, 0.9, 0.05] for _, c in pairs]
    )


def test_the_judge_confirms_a_disagreement_by_the_other_sources_value_in_the_claim() -> None:
    falcon = "Team Falcon sits in room 12."
    assert disagreement(falcon, TEAMS).startswith("sources disagree")  # the words alone find a candidate
    # Room 40 is Team Heron's: "Team Falcon sits in room 40" does not follow from it.
    assert disagreement(falcon, TEAMS, _judge_entailing()) == ""
    # Nor would it whatever the judge said: the second source never writes the name "Team Falcon".
    assert disagreement(falcon, TEAMS, _judge_entailing("Team Falcon sits in room 40.")) == ""
    # Had the second sentence been about Team Falcon, the swapped claim would follow: a disagreement.
    moved = [
        TEAMS[0],
        *contexts(("b/readme.md", "Since May, Team Falcon sits in room 40 on the ground floor.")),
    ]
    assert disagreement(falcon, moved, _judge_entailing("Team Falcon sits in room 40.")) == (
        "sources disagree: room 12 (a/readme.md) vs room 40 (b/readme.md)"
    )
    # A bound is put in with its value ("at least 7 kg" for "up to 7 kg").
    bags = contexts(
        ("baggage.md", "Cabin bags may weigh up to 7 kg."),
        ("faq.html", "Cabin bags must weigh at least 7 kg."),
    )
    claim = "Cabin bags may weigh up to 7 kg."
    assert disagreement(claim, bags, _judge_entailing("Cabin bags may weigh at least 7 kg.")) == (
        "sources disagree: up to 7 kg (baggage.md) vs at least 7 kg (faq.html)"
    )


def test_values_of_two_compounds_of_one_word_are_no_disagreement() -> None:
    # A hotel's right "You can check in from 3pm." was trimmed LOW: "sources disagree on the time: 3pm
    # (booking-conditions.pdf) vs 2pm (rates-2027.docx)", the late check-out's hour; the two share
    # "check", and the judge took "You can check in from 2pm." to follow from the late check-out's row.
    hotel = contexts(
        ("booking-conditions.pdf", "Check-in is from 3pm and check-out is by 11am."),
        ("rates-2027.docx", "For Late check-out until 2pm, the price is £25."),
    )
    judge = _judge_entailing("You can check in from 2pm.")
    assert disagreement("You can check in from 3pm.", hotel, judge) == ""
    # the same compound in both sources still disagrees
    moved = [hotel[0], *contexts(("faq.html", "Since May, check-in is from 2pm."))]
    assert disagreement("You can check in from 3pm.", moved, judge).startswith("sources disagree")


def test_two_teams_in_two_rooms_are_no_disagreement_and_a_room_says_where(
    settings: Settings, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    for folder, text in (("a", TEAMS[0].chunk.text), ("b", TEAMS[1].chunk.text)):
        (docs / folder).mkdir(parents=True)
        (docs / folder / "readme.md").write_text(text + "\n", encoding="utf-8")
    rag = ReliableRAG(settings)
    try:
        assert all(r.ok for r in rag.ingest([docs]))
        report = rag.verify("Where does Team Falcon sit?", "Team Falcon sits in room 12.")
    finally:
        rag.close()
    [claim] = report.claims
    assert claim.verdict.status is ClaimStatus.SUPPORTED and claim.conflict == ""
    assert report.source_conflicts == 0 and not report.needs_review, report.review_reasons
    assert report.decision is Decision.PASS


def test_a_disagreement_in_other_words_is_found_whatever_else_the_claim_says(
    settings: Settings, tmp_path: Path
) -> None:
    # The terms and the FAQ give two limits for one freeze, in other words ("can be frozen", "freeze
    # your membership"); the claim also gives a fee the FAQ does not mention, which does not hide it.
    (tmp_path / "terms.md").write_text(
        "A membership can be frozen for up to 3 months in any 12 months, for a fee of 5 GBP a month.\n",
        encoding="utf-8",
    )
    (tmp_path / "faq.md").write_text(
        "Can I pause my membership? Yes. You can freeze your membership for up to 2 months in any "
        "12 months, for example for travel or illness.\n",
        encoding="utf-8",
    )
    rag = ReliableRAG(settings)
    try:
        assert all(r.ok for r in rag.ingest([tmp_path / "terms.md", tmp_path / "faq.md"]))
        report = rag.verify(
            "For how long can a membership be frozen?",
            "A membership can be frozen for up to 3 months in any 12 months, for a fee of 5 GBP a month.",
        )
    finally:
        rag.close()
    [claim] = report.claims
    assert claim.conflict == (
        "sources disagree on the duration: up to 3 months (terms.md) vs up to 2 months (faq.md)"
    )
    assert claim.verdict.status is ClaimStatus.PARTIAL and report.source_conflicts == 1


def test_a_value_of_another_kind_of_the_same_word_is_no_disagreement() -> None:
    # A nursery's right "A late payment charge of £10 applies ..." was trimmed LOW: "sources disagree on
    # the amount in GBP: £10 (terms.pdf) vs £15 (fees-copy.txt)", the late collection's charge; the
    # judge took the claim with £15 to follow from it. A late payment's charge is named by a kind the
    # other source never writes.
    nursery = contexts(
        ("terms.pdf", "A late payment charge of £10 is added to invoices unpaid after the 5th."),
        ("fees-copy.txt", "Late collection is charged at £15 for each 15 minutes after 18:00."),
    )
    claim = "A late payment charge of £10 applies to invoices unpaid after the 5th."
    judge = _judge_entailing("A late payment charge of £15 applies to invoices unpaid after the 5th.")
    assert disagreement(claim, nursery, judge) == ""
    # a source that names the same kind still disagrees
    moved = [nursery[0], *contexts(("faq.html", "Since May, late payments are charged £15."))]
    assert disagreement(claim, moved, judge).startswith("sources disagree")
