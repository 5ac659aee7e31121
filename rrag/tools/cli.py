"""`python -m rrag`: ingest, ask, verify, sessions, documents, demo, evaluate, eval, checklist and rules
from the shell."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

from rrag.errors import RRAGError, StoreDamagedError
from rrag.lang.detect import language_name
from rrag.settings import RISK_PRESETS, Settings
from rrag.tools.progress import AskProgress, ProgressLine
from rrag.types import IngestResult, Report


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args))
    except RRAGError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a file the engine could not read or write: a message, not a traceback
        where = f": {exc.filename}" if exc.filename else ""
        print(f"error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


def _build_parser() -> argparse.ArgumentParser:
    from rrag.tools import checklist, rule_precision, verifier_eval

    parser = argparse.ArgumentParser(prog="python -m rrag", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("ingest", help="index documents (files or folders)")
    p.add_argument("paths", nargs="+", type=Path)
    _add_json(p)
    p.set_defaults(handler=_cmd_ingest)

    p = sub.add_parser("ask", help="answer a question and audit every claim")
    p.add_argument("question")
    _add_decision_options(p)
    p.set_defaults(handler=_cmd_ask)

    p = sub.add_parser("verify", help="audit an answer written elsewhere against the indexed documents")
    p.add_argument("--question", required=True)
    p.add_argument("--answer-file", required=True, help="file with the answer text, or - for stdin")
    _add_decision_options(p)
    p.set_defaults(handler=_cmd_verify)

    p = sub.add_parser("sessions", help="list saved sessions, flagged first")
    p.add_argument("--flagged", action="store_true", help="only sessions that need review")
    p.add_argument("--limit", type=int, default=50)
    _add_json(p)
    p.set_defaults(handler=_cmd_sessions)

    p = sub.add_parser("documents", help="list indexed documents")
    _add_json(p)
    p.set_defaults(handler=_cmd_documents)

    p = sub.add_parser("delete", help="remove a document and its chunks")
    p.add_argument("doc_id")
    p.set_defaults(handler=_cmd_delete)

    p = sub.add_parser(
        "repair", help="re-index, from the kept originals, the listed documents the index lacks"
    )
    p.set_defaults(handler=_cmd_repair)

    p = sub.add_parser("demo", help="index the demo corpus and audit its example answers")
    _add_json(p)
    p.set_defaults(handler=_cmd_demo)

    p = sub.add_parser(
        "evaluate",
        help="ask a question set (CSV or JSONL) through the pipeline and measure the answers",
        description="Ask every question of FILE (columns: question, optional reference, optional "
        "expected_source), save the run, print per-question results and the aggregates. "
        "Not `eval`, which measures the verifier alone on labelled claims.",
    )
    p.add_argument("file", type=Path)
    p.add_argument("--name", default="", help="a name for the run (default: its date and time)")
    p.add_argument(
        "--fail-above",
        type=float,
        metavar="RATE",
        help="exit 1 when the hallucination rate is above RATE (0..1), or could not be measured",
    )
    _add_json(p)
    p.set_defaults(handler=_cmd_evaluate)

    verifier_eval.register(sub)
    checklist.register(sub)
    rule_precision.register(sub)
    return parser


def _add_json(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")


def _add_decision_options(p: argparse.ArgumentParser) -> None:
    _add_json(p)
    p.add_argument("--top-k", type=int)
    p.add_argument("--preset", choices=sorted(RISK_PRESETS), help="risk threshold preset")
    p.add_argument("--threshold", type=float, help="hallucination-rate threshold, 0..1")
    p.add_argument("--strict", action="store_true", help="refuse whenever the rate exceeds the threshold")


def _engine(args: argparse.Namespace) -> Any:
    from rrag.engine.pipeline import ReliableRAG  # heavy imports only for commands that need the engine

    overrides: dict[str, Any] = {}
    if getattr(args, "top_k", None):
        overrides["top_k"] = args.top_k
    if getattr(args, "preset", None):
        overrides["risk_preset"] = args.preset
    if getattr(args, "threshold", None) is not None:
        overrides["risk_threshold"] = args.threshold
    if getattr(args, "strict", False):
        overrides["strict"] = True
    return ReliableRAG(Settings.from_env(**overrides))


def _cmd_ingest(args: argparse.Namespace) -> int:
    rag = _engine(args)
    bar = ProgressLine("files")
    results: list[IngestResult] = []
    try:
        for total, source, result in rag.ingest_each(args.paths):
            results.append(result)
            bar.update(len(results), total, source, chunks=sum(r.chunks_added for r in results))
    except KeyboardInterrupt:
        bar.interrupted(
            f"{_ingest_counts(results)}. The file being indexed was rolled back; run the same command "
            "again to go on (files already indexed are skipped as unchanged)."
        )
        raise
    _print_ingest(results, args.json)
    return 0 if all(r.ok for r in results) else 1


def _ingest_counts(results: Sequence[IngestResult]) -> str:
    statuses = Counter(r.status for r in results)
    done = ", ".join(f"{n} {status}" for status, n in sorted(statuses.items())) or "nothing indexed"
    return f"{done}; {sum(r.chunks_added for r in results)} chunks added"


def _cmd_repair(args: argparse.Namespace) -> int:
    rag = _engine(args)
    if rag.store.damage is not None:
        raise StoreDamagedError(
            f"the database is damaged ({rag.store.damage}); repair re-indexes documents only"
        )
    bar = ProgressLine("files")
    results = rag.repair_index(progress=lambda done, total, source: bar.update(done, total, source))
    if not results:
        print("the index holds every listed document: nothing to repair")
        return 0
    _print_ingest(results, as_json=False)
    return 0 if all(r.ok for r in results) else 1


def _print_ingest(results: Sequence[IngestResult], as_json: bool) -> None:
    if as_json:
        print(json.dumps([asdict(r) | {"ok": r.ok} for r in results], indent=2))
        return
    for r in results:
        if r.status == "skipped":
            print(f"skipped   {r.source}: symlink, not followed")
        elif r.ok:
            copies = f" ({r.copies_note})" if r.copies_note else ""
            print(
                f"{r.status:<9} {r.source}: {r.chunks_added} chunks, "
                f"{r.duplicates_dropped} near-duplicates dropped{copies}"
            )
        else:
            print(f"failed    {r.source}: {r.error}")


def _cmd_ask(args: argparse.Namespace) -> int:
    rag = _engine(args)
    _warn_about_storage(rag)
    shown = AskProgress()  # stderr: stdout holds only the report
    stream = rag.ask_stream(args.question, progress=shown.stage, on_claim=shown.claim)
    for piece in stream:
        shown.text(piece)
    _print_report(stream.result(), args.json)
    return 0


def _warn_about_storage(rag: Any) -> None:
    """What the checks on open found: a damaged database, documents the index lacks."""
    for note in rag.storage_notes():
        print(f"note: {note}", file=sys.stderr)
    if rag.store.damage is not None:
        print(f"warning: the database is damaged ({rag.store.damage}); writes are refused", file=sys.stderr)
    missing = rag.missing_from_index()
    if missing:
        print(
            f"warning: {len(missing)} listed document(s) are missing from the index: "
            + ", ".join(d.source for d in missing[:5])
            + ("..." if len(missing) > 5 else "")
            + ". Answers cannot find their text; run `python -m rrag repair` to re-index them from the "
            "kept originals.",
            file=sys.stderr,
        )


def _cmd_verify(args: argparse.Namespace) -> int:
    source = sys.stdin if args.answer_file == "-" else None
    if source is None and Path(args.answer_file).is_dir():
        raise RRAGError(f"the answer file {args.answer_file} is a folder; name a text file, or - for stdin")
    try:
        answer = source.read() if source else Path(args.answer_file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RRAGError(f"cannot read the answer file {args.answer_file}: {exc}") from exc
    _print_report(_engine(args).verify(args.question, answer), args.json)
    return 0


def _print_report(report: Report, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        return
    rate = "n/a" if report.hallucination_rate is None else f"{report.hallucination_rate:.0%}"
    reliability = "n/a" if report.reliability is None else f"{report.reliability:.2f}"
    level = report.level.value if report.level else "n/a"
    print(f"Answer: {report.answer}\n")
    for claim in report.claims:
        v = claim.verdict
        print(f"  [{v.status.value.upper():<13} {v.confidence:.2f} {v.verifier}] {claim.claim.text}")
        if v.evidence:
            page = f" p.{v.evidence.page}" if v.evidence.page else ""
            print(f'      evidence ({v.evidence.source}{page}): "{v.evidence.quote}"')
        print(f"      {v.reason}")
    print(
        f"\nDecision: {report.decision.value}   level: {level}   reliability: {reliability}"
        f"   hallucination rate: {rate}"
    )
    if not report.verified:
        print(f"Not verified: {report.not_verified_reason}")
    for check in report.checks_not_run:
        print(f"Did not run: {check}")
    if report.needs_review:
        print("Needs review: " + "; ".join(report.review_reasons))
    for note in report.notes:
        print(f"Note: {note}")
    print(f"\nFinal answer: {report.final_answer}\nSession: {report.session_id}")


def _cmd_sessions(args: argparse.Namespace) -> int:
    rag = _engine(args)
    sessions = rag.sessions(flagged_only=args.flagged, limit=args.limit)
    sessions = sorted(sessions, key=lambda s: not s.needs_review)  # stable: newest first within each group
    # Questions never answered (a closed tab, a crash) or whose LLM server failed, as History lists them.
    unanswered = [("interrupted", p) for p in rag.interrupted_sessions()]
    unanswered += [("failed", p) for p in rag.failed_sessions()]
    if args.json:
        listed = [asdict(s) | {"state": "saved"} for s in sessions]
        listed += [asdict(p) | {"state": state, "needs_review": True} for state, p in unanswered]
        print(json.dumps(listed, indent=2, ensure_ascii=False))
        return 0
    for s in sessions:
        flag = "FLAGGED" if s.needs_review else "       "
        print(
            f"{flag} {s.created_at}  {s.session_id[:12]}  {s.decision:<6} {s.level or 'n/a':<6} {s.question}"
        )
    for state, p in unanswered:
        why = f"  ({p.failure})" if p.failure else ""
        print(f"{state.upper():<11} {p.created_at}  {p.session_id[:12]}  {p.mode:<6} {p.question}{why}")
    return 0


def _cmd_documents(args: argparse.Namespace) -> int:
    rag = _engine(args)
    docs = rag.documents()
    _warn_about_storage(rag)
    if args.json:
        print(json.dumps([asdict(d) for d in docs], indent=2))
        return 0
    for d in docs:
        print(f"{d.doc_id}  {d.chunks:>4} chunks  {language_name(d.language) or '-':<10}  {d.source}")
    return 0


def _cmd_delete(args: argparse.Namespace) -> int:
    restored = _engine(args).delete_document(args.doc_id)
    print(f"deleted {args.doc_id}")
    for result in restored:  # documents that had dropped chunks as copies of the deleted one
        print(
            f"re-indexed {result.doc_id}: " + (f"{result.chunks_added} chunks" if result.ok else result.error)
        )
    return 0 if all(r.ok for r in restored) else 1


def _cmd_evaluate(args: argparse.Namespace) -> int:
    from rrag.tools import question_sets

    if args.fail_above is not None and not 0 <= args.fail_above <= 1:
        raise RRAGError(f"--fail-above must be a rate between 0 and 1, not {args.fail_above}")
    try:
        data = args.file.read_bytes()
    except OSError as exc:
        raise RRAGError(f"cannot read the question set {args.file}: {exc.strerror or exc}") from exc
    items = question_sets.read_question_set(args.file.name, data)
    bar = ProgressLine("questions")
    try:
        run = question_sets.run_question_set(
            _engine(args),
            items,
            name=args.name or args.file.stem,
            progress=lambda done, total, question: bar.update(done, total, question),
        )
    except KeyboardInterrupt:
        bar.interrupted(
            "The run was not saved: a run is saved whole, so that its rates cover every question. Each "
            "answered question's session is saved and listed by `sessions`."
        )
        raise
    if args.json:
        print(json.dumps(run.to_dict(), indent=2, ensure_ascii=False))
    else:
        _print_run(run)
    failures = [] if args.fail_above is None else question_sets.gate_failures(run.summary, args.fail_above)
    for failure in failures:
        print(f"FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


def _print_run(run: Any) -> None:
    from rrag.retrieval.gate import RERANK_CANDIDATES

    def rate(value: float | None) -> str:
        return "n/a" if value is None else f"{value:.0%}"

    for o in run.outcomes:
        if o.error:
            print(f"error   {o.question}\n        {o.error}")
            continue
        source = "" if o.source_found is None else ("  source found" if o.source_found else "  SOURCE MISSED")
        if o.conflicts:
            source += f"  {o.conflicts} conflict(s)" + ("" if o.expected_conflict else " UNEXPECTED")
        if o.off_target:
            source += "  OFF-TARGET"
        if o.answerable is not None and o.refused == o.answerable:
            source += "  ANSWERABLE, REFUSED" if o.answerable else "  UNANSWERABLE, ANSWERED"
        print(
            f"{o.decision:<7} hallucination {rate(o.hallucination_rate):>4}  relevance "
            f"{rate(o.answer_relevance):>4}{source}  {o.question}"
        )
    s = run.summary
    print(
        f'\nRun {run.run_id} "{run.name}": {s.questions} questions, {s.errors} errors, '
        f"{s.not_verified} not verified"
    )
    print(f"  faithfulness        {rate(s.faithfulness)}")
    print(f"  answer relevance    {rate(s.answer_relevance)} ({s.relevance_measured} with a reference)")
    print(f"  refusal rate        {rate(s.refusal_rate)} ({s.refused} refused)")
    print(
        f"  hallucination rate  {rate(s.hallucination_rate)} "
        f"({s.hallucinated_claims} of {s.checked_claims} checked claims)"
    )
    if s.sources_expected:
        print(
            f"  expected source     {rate(s.source_hit_rate)} retrieved, {rate(s.source_cited_rate)} cited "
            f"({s.sources_expected} expected)"
        )
    if s.answerable or s.unanswerable:
        print(
            f"  answerable refused  {rate(s.answerable_refusal_rate)} ({s.answerable_refused} of "
            f"{s.answerable}; target 0)"
        )
        unflagged = (
            "" if s.unanswerable_unflagged is None else f"{s.unanswerable_unflagged} not flagged for review; "
        )
        print(f"  unanswerable answered  {s.unanswerable_answered} of {s.unanswerable} ({unflagged}target 0)")
        print(f"  answers flagged off-target  {s.answerable_off_target} of {s.answerable} (target 0)")
    if any(o.expected_conflict is not None for o in run.outcomes):
        print(f"  false conflicts     {s.false_conflicts} (target 0)")
        print(f"  real conflicts      {s.conflicts_found} of {s.conflicts_expected} found")
    if s.recall_at_5 is not None:
        print(
            f"  first stage         recall@5 {rate(s.recall_at_5)}, @20 {rate(s.recall_at_20)}, "
            f"@50 {rate(s.recall_at_50)}; MRR {s.mrr_first_stage:.2f}, reranked {s.mrr_reranked:.2f}"
        )
        gate = "passed: answers are reranked" if s.gate_passed else "not passed: answers are not reranked"
        print(
            f"  recall gate         {gate} (recall@{RERANK_CANDIDATES} {rate(s.gate_recall)}, at least "
            "80%; reranking must raise the MRR)"
        )


def _cmd_demo(args: argparse.Namespace) -> int:
    from rrag.tools.demo import set_up_demo

    setup = set_up_demo(_engine(args))
    if args.json:
        print(
            json.dumps(
                {
                    "ingested": [asdict(r) for r in setup.ingested],
                    "examples": [r.to_dict() for r in setup.examples],
                },
                indent=2,
            )
        )
        return 0
    _print_ingest(setup.ingested, as_json=False)
    for report in setup.examples:
        level = report.level.value if report.level else "n/a"
        print(f"example   {report.decision.value:<6} {level:<6} {report.question}")
    return 0 if all(r.ok for r in setup.ingested) else 1
