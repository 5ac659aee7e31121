"""The question-passage model on our question sets, as the pipeline reads them, for one model folder or
several side by side (the shipped one and a candidate): the ship rule of a new model reads these
beside the held-out article's figures (training/README.md).

For each question of a set (its documents ingested into a temporary store): the first stage's
candidates reranked as for a corpus whose recall gate passed (`rrag.retrieval.judged.judge`), and the
best P(answers) among them; then the set's ROC AUC of its answerable questions against its
unanswerable ones, and how many of each the pipeline's thresholds would refuse (below NOT_ANSWERING)
or flag (below ANSWERS_THRESHOLD) on the model's word alone: the answerer, the verifier and the
relevance check refuse more, so `rrag evaluate` counts fewer unanswerable questions answered. A
candidate's own thresholds are derived on the held-out article when it is exported (`train_qa
--export`); here every model is read with the shipped ones.

    python -m training.measure_qa [--model DIR]... [--set FOLDER QUESTIONS]...
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rrag.backends.question_passage import MODEL_DIR, QuestionPassageModel
from rrag.engine.pipeline import ReliableRAG
from rrag.retrieval.gate import RecallGate
from rrag.retrieval.hybrid import HybridRetriever
from rrag.retrieval.judged import ANSWERS_THRESHOLD, NOT_ANSWERING, judge
from rrag.settings import Settings
from rrag.tools.question_sets import read_question_set
from training.qa_data import roc_auc
from training.qa_pairs import REPO

SETS = (
    ("data/trust", "data/trust/questions.jsonl"),
    ("data/leisure", "data/leisure/questions.jsonl"),
    ("data/demo", "data/demo/questions/handbook.jsonl"),  # not marked answerable or not
)
PASSED = RecallGate(1.0, 1, "measure_qa", "2026-11-30T00:00:00+00:00", 1.0, 1.0)


@dataclass(frozen=True)
class Asked:
    question: str
    answerable: bool | None  # None: the set does not say
    best: list[float]  # the best P(answers) of the candidates, one per model


def asked(folder: Path, questions: Path, models: Sequence[QuestionPassageModel]) -> list[Asked]:
    items = read_question_set(questions.name, questions.read_bytes())
    with tempfile.TemporaryDirectory() as tmp:
        rag = ReliableRAG(Settings(data_dir=Path(tmp)))
        try:
            failed = [r for r in rag.ingest([folder]) if not r.ok]
            if failed:
                raise SystemExit(f"{folder}: {failed[0].source} could not be ingested: {failed[0].error}")
            retriever, top_k = HybridRetriever(rag.index, rag.store, rag.settings), rag.settings.top_k
            return [
                Asked(
                    item.question,
                    item.answerable,
                    [judge(model, retriever, item.question, top_k, PASSED).best for model in models],
                )
                for item in items
            ]
        finally:
            rag.close()


def report(name: str, rows: list[Asked], labels: Sequence[str]) -> None:
    answerable = [r for r in rows if r.answerable]
    unanswerable = [r for r in rows if r.answerable is False]
    models = range(len(labels))

    def count(of: list[Asked], test: Callable[[float], bool]) -> list[int]:
        return [sum(test(r.best[m]) for r in of) for m in models]

    lines: dict[str, list[float | None] | list[int]] = {
        "ROC AUC, answerable against unanswerable": [
            roc_auc([r.best[m] for r in answerable], [r.best[m] for r in unanswerable]) for m in models
        ],
        f"answerable it would refuse (best < {NOT_ANSWERING})": count(
            answerable, lambda p: p < NOT_ANSWERING
        ),
        f"answerable it would flag (best < {ANSWERS_THRESHOLD})": count(
            answerable, lambda p: p < ANSWERS_THRESHOLD
        ),
        f"unanswerable it lets through (best >= {NOT_ANSWERING})": count(
            unanswerable, lambda p: p >= NOT_ANSWERING
        ),
        f"unanswerable it lets through unflagged (best >= {ANSWERS_THRESHOLD})": count(
            unanswerable, lambda p: p >= ANSWERS_THRESHOLD
        ),
    }
    unmarked = len(rows) - len(answerable) - len(unanswerable)
    print(
        f"\n{name}: {len(answerable)} answerable, {len(unanswerable)} unanswerable questions"
        + (f", {unmarked} not marked either way (not counted)" if unmarked else "")
    )
    print(f"  {'':<62}" + "".join(f"{label:>12}" for label in labels))
    for what, figures in lines.items():
        print(f"  {what:<62}" + "".join(f"{_shown(f):>12}" for f in figures))
    for r in rows:
        kind = {True: "answerable  ", False: "unanswerable", None: "not marked  "}[r.answerable]
        print(f"  {kind} {r.question[:60]:<60}" + "".join(f"{p:>12.2f}" for p in r.best))


def _shown(figure: float | None) -> str:
    """A count as it is, a share to three places."""
    return "-" if figure is None else str(figure) if isinstance(figure, int) else f"{figure:.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "--model", type=Path, action="append", help=f"a folder of the model's files (default {MODEL_DIR})"
    )
    ap.add_argument(
        "--set",
        nargs=2,
        action="append",
        metavar=("FOLDER", "QUESTIONS"),
        help="documents and their questions (default: the trust, leisure and demo sets)",
    )
    args = ap.parse_args()
    folders = args.model or [MODEL_DIR]
    models = [QuestionPassageModel(folder) for folder in folders]
    labels = [
        "shipped" if folder.resolve() == MODEL_DIR else f"model {i + 1}" for i, folder in enumerate(folders)
    ]
    for label, folder in zip(labels, folders):
        print(f"{label}: {folder}")
    for folder, questions in args.set or SETS:
        report(folder, asked(REPO / folder, REPO / questions, models), labels)


if __name__ == "__main__":
    main()
