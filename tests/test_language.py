"""Languages said out loud (issue 44, item 5): each document's language is detected at ingest and kept;
the offline verifier, which reads English only, leaves claims and passages in other languages "not
verified" and says why; the report names the checks that did not run; English is judged as before."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from fake_llm import FakeLLM

from rrag import ReliableRAG
from rrag.lang.detect import _identifier, detect_language, foreign_language, language_name, names_of
from rrag.settings import Settings
from rrag.types import Chunk, Claim, ClaimStatus, Decision, Report, RetrievedChunk
from rrag.verify.cascade import CascadeVerifier, build_verifier
from rrag.verify.language_gate import LanguageGate
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.llm_judge import LLMJudge
from rrag.verify.quote import QuoteVerifier

GERMAN = """# Urlaubsregelung

Vollzeitbeschäftigte erhalten 30 Tage bezahlten Jahresurlaub pro Kalenderjahr.
Bis zu fünf nicht genommene Urlaubstage können in das nächste Jahr übertragen werden.
Übertragene Tage verfallen am 31. März des Folgejahres.

# Homeoffice

Mitarbeiter dürfen an zwei Tagen pro Woche von zu Hause arbeiten.
Die Arbeit im Homeoffice muss vorher von der Teamleitung genehmigt werden.
"""
FRENCH = """# Politique de remboursement

Les frais de déplacement sont remboursés dans un délai de quatorze jours.
Les notes de frais doivent être soumises avec les justificatifs originaux.
Les repas d'affaires sont remboursés jusqu'à quarante euros par personne.

# Sécurité

Les mots de passe doivent comporter au moins douze caractères.
Tout incident de sécurité doit être signalé au service informatique dans les vingt-quatre heures.
"""
ENGLISH = """# Annual leave

Full-time employees receive 25 days of paid annual leave per calendar year.
Up to 5 unused days may be carried over into the next year.

# Parental leave

Parents are entitled to 16 weeks of fully paid parental leave.
Parental leave must be requested at least 8 weeks before it starts.
"""
DOCUMENTS = {"urlaub.md": GERMAN, "frais.md": FRENCH, "leave.md": ENGLISH}
READS_ENGLISH_ONLY = "the offline verifier reads English only"


def passage(name: str, text: str) -> RetrievedChunk:
    return RetrievedChunk(Chunk(f"{name}-0", name, name, text, 0, len(text)), 0.8)


def claim(text: str) -> Claim:
    return Claim(text, 0, len(text))


def _engine(tmp_path: Path, names: tuple[str, ...]) -> ReliableRAG:
    folder = tmp_path / "docs"
    folder.mkdir()
    for name in names:
        (folder / name).write_text(DOCUMENTS[name], encoding="utf-8")
    rag = ReliableRAG(Settings(data_dir=tmp_path / "data"))
    assert all(r.ok for r in rag.ingest(sorted(folder.iterdir())))
    return rag


@pytest.fixture
def rag(tmp_path: Path) -> Iterator[ReliableRAG]:
    engine = _engine(tmp_path, tuple(DOCUMENTS))
    yield engine
    engine.close()


# -- detection ----------------------------------------------------------------------------------------


def test_a_text_is_in_the_language_most_of_its_sentences_are_surely_in() -> None:
    assert [detect_language(text) for text in (GERMAN, FRENCH, ENGLISH)] == ["de", "fr", "en"]
    assert detect_language("Mitarbeiter dürfen zwei Tage pro Woche zu Hause arbeiten.") == "de"
    assert detect_language("25 Tage") == detect_language("12 345 6.7") == detect_language("") == ""
    # Written without spaces between words: each character counts as one.
    assert detect_language("従業員は週に二日まで在宅勤務をすることができます。") == "ja"
    assert detect_language("员工每周最多可以在家工作两天。") == "zh"
    assert detect_language("พนักงานสามารถทำงานจากที่บ้านได้สัปดาห์ละสองวัน") == "th"
    # English about a German ministry, its names German: the rules read its sentences.
    english_about_germany = (
        "The Bundesministerium für Arbeit und Soziales publishes the rules. "
        "Employees can read them on the website of the ministry. "
        "The rules are also printed in the handbook for new staff."
    )
    assert detect_language(english_about_germany) == "en" and foreign_language(english_about_germany) == ""
    assert (foreign_language(GERMAN), foreign_language(ENGLISH)) == ("de", "")


def test_english_the_detector_hears_as_an_english_creole_is_not_another_language() -> None:
    survey = "The survey ran from September 1906 until January 1908."
    assert _identifier().rank(survey)[0][0] == "pcm"  # Nigerian Pidgin, English close behind
    assert foreign_language(survey) == ""


def test_languages_are_named_for_people() -> None:
    assert (language_name("de"), language_name("fr"), language_name("")) == ("German", "French", "")
    assert names_of(["de", "fr", "de", ""]) == "German and French"
    assert names_of(["de", "fr", "nl"]) == "German, French and Dutch"


# -- ingest -------------------------------------------------------------------------------------------


def test_each_document_keeps_the_language_detected_at_ingest(rag: ReliableRAG, tmp_path: Path) -> None:
    languages = {d.source: d.language for d in rag.documents()}
    assert languages == {"urlaub.md": "de", "frais.md": "fr", "leave.md": "en"}
    german = next(d for d in rag.documents() if d.source == "urlaub.md")
    assert rag.reindex(german.doc_id).ok
    rag.close()
    reopened = ReliableRAG(Settings(data_dir=tmp_path / "data"))  # kept in the store
    try:
        assert {d.source: d.language for d in reopened.documents()} == languages
    finally:
        reopened.close()


def test_each_chunk_keeps_its_language_and_the_gate_reads_it_from_there(rag: ReliableRAG) -> None:
    # Detected once, at ingest: an audit reads each passage's language from the index, not again.
    chunks = {d.source: rag.document_chunks(d.doc_id) for d in rag.documents()}
    assert {source: {c.language for c in cs} for source, cs in chunks.items()} == {
        "urlaub.md": {"de"},
        "frais.md": {"fr"},
        "leave.md": {"en"},
    }
    english = chunks["leave.md"][0]
    said_german = RetrievedChunk(replace(english, language="de"), 0.9)
    [verdict] = LanguageGate(QuoteVerifier()).verify_many([claim(english.text[:80])], [said_german])
    assert verdict.status is ClaimStatus.NOT_VERIFIED and "the passages are in German" in verdict.reason


# -- the gate -----------------------------------------------------------------------------------------


def test_an_answer_against_german_passages_is_not_verified_and_says_why(tmp_path: Path) -> None:
    rag = _engine(tmp_path, ("urlaub.md", "frais.md"))
    try:
        # An English answer about the German handbook (its words retrieve it).
        english = rag.verify(
            "Who approves work in the Homeoffice?",
            "Work in the Homeoffice must be approved in advance by the Teamleitung.",
        )
        [result] = english.claims
        assert result.verdict.status is ClaimStatus.NOT_VERIFIED and not english.verified
        assert result.verdict.reason.startswith("not verified: the passages are in German")
        assert result.verdict.reason.endswith(READS_ENGLISH_ONLY)
        assert english.decision.value != "pass" and english.hallucination_rate is None

        german = rag.verify(
            "Wie viele Urlaubstage erhalten Vollzeitbeschäftigte pro Jahr?",
            "Vollzeitbeschäftigte erhalten 30 Tage Jahresurlaub.",
        )
        [result] = german.claims
        assert result.verdict.status is ClaimStatus.NOT_VERIFIED
        assert "the claim is in German and the passages are in German" in result.verdict.reason
        checks = "\n".join(german.checks_not_run)
        assert "Claim verification by the rules and the judge: the answer is in German" in checks
        assert "(urlaub.md" in checks and "Answer-relevance check: the question is in German" in checks
        assert rag.report(german.session_id).checks_not_run == german.checks_not_run  # saved with it
    finally:
        rag.close()


def test_a_french_answer_against_english_documents_is_not_verified(tmp_path: Path) -> None:
    rag = _engine(tmp_path, ("leave.md",))
    try:
        report = rag.verify(
            "How many days of leave?",
            "Les employés à temps plein reçoivent 25 jours de congés payés par année civile.",
        )
        [result] = report.claims
        assert result.verdict.status is ClaimStatus.NOT_VERIFIED
        assert result.verdict.reason == f"not verified: the claim is in French; {READS_ENGLISH_ONLY}"
        assert report.checks_not_run[0].startswith(
            "Claim verification by the rules and the judge: the answer"
        )
    finally:
        rag.close()


ENGLISH_CLAIMS = [
    "Full-time employees receive 25 days of paid annual leave per calendar year.",  # quoted
    "Full-time employees receive 30 days of paid annual leave per calendar year.",  # another value
    "Employees get 25 days of paid annual leave.",  # a paraphrase
    "Parents are entitled to 20 weeks of parental leave.",  # another value
    "Contractors receive a company car.",  # nothing says so
]


def test_english_verdicts_are_those_of_the_stages_without_the_gate(settings: Settings) -> None:
    gated = build_verifier(settings)
    assert isinstance(gated, CascadeVerifier)
    plain = CascadeVerifier([s.stage for s in gated.stages if isinstance(s, LanguageGate)])
    assert len(plain.stages) == len(gated.stages)
    contexts = [passage("leave.md", ENGLISH)]
    claims = [claim(text) for text in ENGLISH_CLAIMS]
    verdicts = gated.verify_many(claims, contexts)
    assert verdicts == plain.verify_many(claims, contexts)
    assert verdicts[0].status is ClaimStatus.SUPPORTED and verdicts[1].status is ClaimStatus.CONTRADICTED


def test_in_a_mixed_corpus_english_claims_are_judged_on_the_english_passages() -> None:
    gate = LanguageGate(LexicalVerifier())
    contexts = [passage("urlaub.md", GERMAN), passage("leave.md", ENGLISH)]
    quoted, other_value, only_in_german = gate.verify_many(
        [
            claim("Parents are entitled to 16 weeks of fully paid parental leave."),
            claim("Full-time employees receive 30 days of paid annual leave per calendar year."),
            claim("Employees may work from home on two days a week."),
        ],
        contexts,
    )
    assert quoted.status is ClaimStatus.SUPPORTED and quoted.evidence and quoted.evidence.source == "leave.md"
    assert other_value.status is ClaimStatus.CONTRADICTED  # 25 days, in the English passage
    assert only_in_german.status is ClaimStatus.NOT_VERIFIED
    assert only_in_german.reason == (
        f"not verified: the English passages do not decide it, the others are in German; {READS_ENGLISH_ONLY}"
    )


def test_two_gated_stages_say_why_once_and_an_llm_judge_may_still_decide() -> None:
    contexts = [passage("urlaub.md", GERMAN)]
    german = claim("Mitarbeiter dürfen an zwei Tagen pro Woche von zu Hause arbeiten.")
    offline = CascadeVerifier([LanguageGate(QuoteVerifier()), LanguageGate(LexicalVerifier())])
    verdict = offline.verify(german, contexts)
    assert verdict.reason == (
        f"not verified: the claim is in German and the passages are in German; {READS_ENGLISH_ONLY}"
    )
    llm = FakeLLM()
    llm.reply_json(
        {
            "status": "supported",
            "evidence_quote": "Mitarbeiter dürfen an zwei Tagen pro Woche von zu Hause arbeiten.",
            "passage": 1,
            "reason": "the passage says so",
        }
    )
    judged = CascadeVerifier([*offline.stages, LLMJudge(llm)]).verify(german, contexts)
    assert (judged.status, judged.verifier) == (ClaimStatus.SUPPORTED, "llm")
    assert judged.evidence and judged.evidence.source == "urlaub.md"


def test_the_report_keeps_the_checks_that_did_not_run() -> None:
    checks = ["Answer-relevance check: the question is in German; its rules read English only."]
    data = _minimal_report(checks).to_dict()
    assert data["checks_not_run"] == checks
    assert Report.from_dict(data).checks_not_run == checks
    del data["checks_not_run"]  # a report saved before languages were detected
    assert Report.from_dict(data).checks_not_run == []


def _minimal_report(checks: list[str]) -> Report:
    return Report(
        session_id="s",
        question="q",
        answer="a",
        final_answer="a",
        decision=Decision.PASS,
        level=None,
        reliability=None,
        hallucination_rate=None,
        needs_review=False,
        status_counts={},
        claims=[],
        contexts=[],
        timings_ms={},
        created_at="2026-11-29T00:00:00+00:00",
        checks_not_run=checks,
    )
