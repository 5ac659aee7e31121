"""How well the audit catches an LLM answerer's hallucinations, on a saved `rrag evaluate` run:

    python benchmarks/llm_claims.py --data DIR --labels LABELS.json [--run RUN_ID] [--list]

LABELS.json maps each claim's text to "right", "wrong" or "conflict", written by a person who read
the claim against the documents (a model's own claims cannot be labelled by the reference answer
alone: it often says something true that the reference does not). "conflict": one document states
the claim and another says otherwise (a question the set marks `expected_conflict`); the right
verdict is partial, both sources named, so such a claim is neither right nor wrong. `--list` prints
every claim of the run with its question, reference, verdict and label, and names the claims the
labels file lacks; otherwise the table is printed: wrong claims caught (flagged unsupported,
contradicted or partial), right claims wrongly flagged, conflicts found partial, answers with a wrong
claim passed as written (decision pass), placeholder claims checked as claims ("...", "N/A":
`rrag.audit.grounding.is_placeholder`; a placeholder answer is refused, its one claim not
checkable), failed questions and seconds per question. The run defaults to the newest in DIR's store.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from rrag.audit.grounding import is_placeholder  # noqa: E402
from rrag.settings import Settings  # noqa: E402
from rrag.store.store import Store  # noqa: E402
from rrag.types import ClaimStatus, Decision, Report  # noqa: E402

FLAGGED = frozenset({ClaimStatus.UNSUPPORTED, ClaimStatus.CONTRADICTED, ClaimStatus.PARTIAL})
LABELS = ("right", "wrong", "conflict")


@dataclass
class Tally:
    questions: int = 0
    failed: int = 0  # questions that ended in an error: no answer, nothing to audit
    wrong: int = 0
    caught: int = 0
    right: int = 0
    right_flagged: int = 0
    conflicts: int = 0
    conflicts_partial: int = 0
    answers_with_wrong: int = 0
    passed_as_written: int = 0
    placeholders: int = 0
    seconds: list[float] = field(default_factory=list)  # per answered question
    missed: list[str] = field(default_factory=list)  # "status: claim" of each wrong claim not caught
    flagged_right: list[str] = field(default_factory=list)
    unlabelled: list[str] = field(default_factory=list)

    def rows(self) -> list[tuple[str, str]]:
        def share(part: int, whole: int) -> str:
            return f"{part} of {whole} ({part / whole:.0%})" if whole else "n/a (none)"

        mean = f"{statistics.mean(self.seconds):.0f} s" if self.seconds else "n/a"
        most = f"{max(self.seconds):.0f} s" if self.seconds else "n/a"
        return [
            ("Questions (failed)", f"{self.questions} ({self.failed})"),
            ("Hallucinated claims caught", share(self.caught, self.wrong)),
            ("Faithful claims wrongly flagged", share(self.right_flagged, self.right)),
            (
                "Claims two documents disagree on, found partial",
                share(self.conflicts_partial, self.conflicts),
            ),
            (
                "Answers with a hallucinated claim passed as written",
                share(self.passed_as_written, self.answers_with_wrong),
            ),
            ("Placeholder claims checked", str(self.placeholders)),
            ("Seconds per answered question (mean, max)", f"{mean}, {most}"),
        ]


def tally(reports: Sequence[Report], failed: int, labels: Mapping[str, str]) -> Tally:
    """The table's figures over a run's reports; a claim missing from `labels` is listed, not counted."""
    t = Tally(questions=len(reports) + failed, failed=failed)
    for report in reports:
        t.seconds.append(sum(report.timings_ms.values()) / 1000)
        has_wrong = False
        for result in report.claims:
            text, status = result.claim.text, result.verdict.status
            if is_placeholder(text):  # checked as if it stated something; a placeholder answer is refused
                t.placeholders += result.claim.checkable
                continue
            label = labels.get(text)
            if label is None:
                t.unlabelled.append(text)
            elif label == "wrong":
                has_wrong = True
                t.wrong += 1
                if status in FLAGGED:
                    t.caught += 1
                else:
                    t.missed.append(f"{status.value}: {text}")
            elif label == "conflict":
                t.conflicts += 1
                t.conflicts_partial += status is ClaimStatus.PARTIAL
            else:
                t.right += 1
                if status in FLAGGED:
                    t.right_flagged += 1
                    t.flagged_right.append(f"{status.value}: {text}")
        t.answers_with_wrong += has_wrong
        t.passed_as_written += has_wrong and report.decision is Decision.PASS
    return t


def read_labels(path: Path) -> dict[str, str]:
    """The labels file, checked: every value one of LABELS."""
    labels = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    if not isinstance(labels, dict):
        raise SystemExit(f"{path}: expected a JSON object of claim text -> label")
    bad = sorted(k for k, v in labels.items() if v not in LABELS)
    if bad:
        raise SystemExit(f"{path}: every label must be one of {LABELS}; not so for {bad[:3]}")
    return labels


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, required=True, help="the RRAG_DATA_DIR the run was saved in")
    ap.add_argument("--labels", type=Path, required=True)
    ap.add_argument("--run", help="a run id (default: the newest run)")
    ap.add_argument("--list", action="store_true", help="print every claim with its verdict and label")
    args = ap.parse_args()
    store = Store(Settings(data_dir=args.data))
    runs = store.list_question_set_runs()
    if not runs:
        raise SystemExit(f"no saved run in {args.data}")
    run = store.get_question_set_run(args.run or runs[0]["run_id"])
    outcomes = run["outcomes"]
    reports = [store.get_report(o["session_id"]) for o in outcomes if o.get("session_id")]
    labels = read_labels(args.labels)
    if args.list:
        _list(reports, outcomes, labels)
    t = tally(reports, sum(not o.get("session_id") for o in outcomes), labels)
    print(f'Run {run["run_id"]} "{run["name"]}"')
    for name, value in t.rows():
        print(f"| {name} | {value} |")
    for title, claims in (
        ("Missed", t.missed),
        ("Wrongly flagged", t.flagged_right),
        ("Unlabelled", t.unlabelled),
    ):
        for claim in claims:
            print(f"{title}: {claim}")


def _list(
    reports: Sequence[Report], outcomes: Sequence[Mapping[str, object]], labels: Mapping[str, str]
) -> None:
    references = {str(o["question"]): str(o.get("reference", "")) for o in outcomes}
    for o in outcomes:
        if not o.get("session_id"):
            print(f"\n## {o['question']}\nFAILED: {o.get('error', '')}")
    for report in reports:
        print(f"\n## {report.question}\nreference: {references.get(report.question, '')}")
        print(f"answer ({report.decision.value}): {report.answer}")
        for result in report.claims:
            verdict = result.verdict
            quote = verdict.evidence.quote[:160] if verdict.evidence else ""
            label = labels.get(result.claim.text, "UNLABELLED")
            print(f"- [{label}] {verdict.status.value}: {result.claim.text!r}")
            print(f"    {verdict.reason[:160]} | {quote!r}")


if __name__ == "__main__":
    main()
