"""Tables for `st.dataframe` (documents, ingest results, sessions, audit trail) and the review-queue filters.

`st.dataframe` draws cells as text on a canvas, so untrusted strings need no escaping here; statuses
still carry an icon and a word, as everywhere else.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import pandas as pd

from rrag.audit.scoring import NOT_VERIFIED_KEY
from rrag.ingest.sources import UPLOAD_IDENTITY_PREFIX
from rrag.lang.detect import language_name
from rrag.store import PendingSession, ReviewRecord, SessionSummary
from rrag.types import Decision, DocumentInfo, IngestResult
from ui.status import badge_text, decision_style, level_style, status_style

INGEST_ICONS = {
    "added": "✔ added",
    "replaced": "↻ replaced",
    "duplicate": "≡ copy of indexed text: nothing new",
    "unchanged": "= unchanged",
    "failed": "✖ failed",
}
NOT_MEASURED = "–"  # what a table shows for a figure nothing measured (st.dataframe's placeholder)
REVIEW_LABELS = {
    "": "–",
    "open": "● open",
    "approved": "✔ approved",
    "corrected": "✎ corrected",
    "escalated": "⬆ escalated",
}


def when(iso_time: str) -> str:
    """'2026-11-22 10:00 UTC' from an ISO 8601 time (shown in UTC: the store keeps UTC)."""
    try:
        moment = datetime.fromisoformat(iso_time)
    except ValueError:
        return iso_time
    return moment.strftime("%Y-%m-%d %H:%M UTC")


def _refused(s: SessionSummary) -> bool:
    return s.decision == Decision.REFUSE.value


def _score(value: float | None) -> float | None:
    return None if value is None else round(value, 2)


def identity_label(document: DocumentInfo) -> str:
    """What tells this document apart from others of the same name: its path relative to the folder
    that was ingested, or for an upload its content hash."""
    if document.identity.startswith(UPLOAD_IDENTITY_PREFIX):
        return f"upload, sha256 {document.identity.removeprefix(UPLOAD_IDENTITY_PREFIX)[:12]}…"
    return document.identity or document.source


def document_label(document: DocumentInfo) -> str:
    """The name shown for a document, with what tells it apart where the name alone does not."""
    identity = identity_label(document)
    return document.source if identity == document.source else f"{document.source} ({identity})"


def language_label(code: str) -> str | None:
    """ "German (de)"; None (the table's "not measured") where it was not detected."""
    return f"{language_name(code)} ({code})" if code else None


def documents_table(documents: Sequence[DocumentInfo]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "Document": d.source,
                "Identity": identity_label(d),
                "Language": language_label(d.language),
                "Chunks": d.chunks,
                "Near-duplicates dropped": d.duplicates_dropped,
                "Size (KB)": round(d.size_bytes / 1024, 1),
                "Indexed": when(d.created_at),
            }
            for d in documents
        ],
        columns=[
            "Document",
            "Identity",
            "Language",
            "Chunks",
            "Near-duplicates dropped",
            "Size (KB)",
            "Indexed",
        ],
    )


def ingest_table(results: Sequence[IngestResult]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "File": r.source,
                "Result": INGEST_ICONS.get(r.status, r.status) if r.ok else INGEST_ICONS["failed"],
                "Chunks added": r.chunks_added,
                "Near-duplicates dropped": r.duplicates_dropped,
                "Error": r.error or "",
            }
            for r in results
        ],
        columns=["File", "Result", "Chunks added", "Near-duplicates dropped", "Error"],
    )


def session_label(summary: SessionSummary) -> str:
    """One line for select boxes: when, decision, level and the question."""
    question = " ".join(summary.question.split())
    return (
        f"{when(summary.created_at)} · {badge_text(decision_style(summary.decision))} · "
        f"{badge_text(level_style(summary.level))} · {question[:90]}"
    )


def sessions_table(summaries: Sequence[SessionSummary]) -> pd.DataFrame:
    rows = []
    for s in summaries:
        counts = ", ".join(
            f"{badge_text(status_style(status))} {n}" for status, n in s.status_counts.items() if n
        )
        rows.append(
            {
                "When": when(s.created_at),
                "Question": s.question,
                "Mode": s.mode,
                "Decision": badge_text(decision_style(s.decision)),
                # A refused answer gave nothing to rely on: no level, no reliability score.
                "Level": badge_text(level_style(None if _refused(s) else s.level)),
                "Reliability": None if _refused(s) else _score(s.reliability),
                "Hallucination rate": _score(s.hallucination_rate),
                "Claims": counts or "none",
                "Flags": "; ".join(s.review_reasons),
                "Review": REVIEW_LABELS.get(s.review_status, s.review_status)
                + (f" by {s.last_reviewer}" if s.last_reviewer else ""),
            }
        )
    columns = [
        "When",
        "Question",
        "Mode",
        "Decision",
        "Level",
        "Reliability",
        "Hallucination rate",
        "Claims",
        "Flags",
        "Review",
    ]
    return pd.DataFrame(rows, columns=columns)


QUEUE_COLUMNS = ["Why flagged", "Question", "Asked", "Level", "Hallucination rate", "When", "Review"]


def latest_per_question(summaries: Sequence[SessionSummary]) -> tuple[list[SessionSummary], dict[str, int]]:
    """One session per question (its first in `summaries`' order) and, by its id, how many sessions
    asked that question: the same question run three times is one answer to review, asked 3 times."""
    kept: dict[str, SessionSummary] = {}
    asked: dict[str, int] = {}
    for s in summaries:
        key = " ".join(s.question.lower().split())
        kept.setdefault(key, s)
        asked[key] = asked.get(key, 0) + 1
    return list(kept.values()), {s.session_id: asked[key] for key, s in kept.items()}


def queue_table(summaries: Sequence[SessionSummary], asked: dict[str, int] | None = None) -> pd.DataFrame:
    """The review queue in seven columns that fit a page, the reason for flagging first; `asked`: how
    many times each session's question was asked (latest_per_question)."""
    return pd.DataFrame(
        [
            {
                "Why flagged": "; ".join(s.review_reasons) or "marked for review",
                "Question": " ".join(s.question.split()),
                "Asked": f"{(asked or {}).get(s.session_id, 1)}×",
                "Level": badge_text(level_style(None if _refused(s) else s.level)),
                "Hallucination rate": _score(s.hallucination_rate),
                "When": when(s.created_at),
                "Review": REVIEW_LABELS.get(s.review_status, s.review_status),
            }
            for s in summaries
        ],
        columns=QUEUE_COLUMNS,
    )


def interrupted_table(pending: Sequence[PendingSession]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "When": when(p.created_at),
                "Question": " ".join(p.question.split()),
                "Mode": p.mode,
                "Status": f"✖ failed: {p.failure}" if p.failure else "⚠ interrupted: never answered",
            }
            for p in pending
        ],
        columns=["When", "Question", "Mode", "Status"],
    )


def unanswered_questions(sessions: pd.DataFrame) -> pd.DataFrame:
    """Questions the documents had no answer for: every refused question, verification having run
    (nothing retrieved answers it, an answer off the question, only unsupported claims, or too many of
    them); a refusal leaves the asker without an answer whatever its supported quotes were. The
    plainest gaps in the corpus, which claim-based charts miss. One row per question, most asked first."""
    nothing_found = (
        sessions["mode"].eq("ask")
        & sessions["decision"].eq(Decision.REFUSE.value)
        & sessions["status_counts"].map(lambda counts: not counts.get(NOT_VERIFIED_KEY))
    )
    asked = sessions[nothing_found]
    table = asked.groupby(asked["question"].str.strip()).agg(
        asked=("session_id", "size"), last=("created_at", "max")
    )
    table = table.sort_values(["asked", "last"], ascending=False).reset_index()
    return pd.DataFrame(
        {
            "Question": table["question"],
            "Times asked": table["asked"],
            "Last asked": table["last"].map(lambda t: t.strftime("%Y-%m-%d %H:%M UTC")),
        }
    )


def review_line(record: ReviewRecord) -> str:
    """One audit-trail entry as plain text: when, who, outcome, what changed, and the note."""
    parts = [when(record.created_at), record.reviewer, REVIEW_LABELS.get(record.outcome, record.outcome)]
    parts += [
        f"claim {c['claim_index'] + 1}: {badge_text(status_style(c['old_status']))} → "
        f"{badge_text(status_style(c['new_status']))}"
        for c in record.changes
    ]
    if record.note:
        parts.append(f"“{' '.join(record.note.split())}”")
    return " · ".join(parts)


# -- the review queue's filters and sort orders ------------------------------------------------------

SORTS = {
    "Most severe first": None,  # the store's own order
    "Newest first": (lambda s: s.created_at, True),
    "Oldest first": (lambda s: s.created_at, False),
    "Highest hallucination rate": (lambda s: s.hallucination_rate or 0.0, True),
    "Lowest reliability": (lambda s: 1.0 if s.reliability is None else s.reliability, False),
}


@dataclass(frozen=True)
class QueueFilter:
    levels: tuple[str, ...] = ()  # "LOW", "MEDIUM", "HIGH", "n/a"; empty: any
    contradicted_only: bool = False
    mismatch_only: bool = False
    search: str = ""

    def keeps(self, s: SessionSummary) -> bool:
        if self.levels and (s.level or "n/a") not in self.levels:
            return False
        if self.contradicted_only and not s.status_counts.get("contradicted"):
            return False
        if self.mismatch_only and not s.citation_mismatches:
            return False
        return self.search.casefold() in s.question.casefold()


def filter_and_sort(
    summaries: Sequence[SessionSummary], queue_filter: QueueFilter, sort: str
) -> list[SessionSummary]:
    kept = [s for s in summaries if queue_filter.keeps(s)]
    order = SORTS[sort]
    if order is None:
        return kept
    key, reverse = order
    return sorted(kept, key=key, reverse=reverse)
