"""The language gate around each offline stage: the rules and the judge read English only
(rrag/lang/en, an English cross-encoder), so they never decide on text in another language.

- A claim in another language is not verified: "the claim is in French; ...".
- Passages in another language are kept from the stage. With none left in English, the claim is not
  verified: "the passages are in German; ...". With some left, the stage judges against those; its
  "supported" or "contradicted" stands (quoted from an English passage), anything else is not verified,
  since the evidence may be in the passages it could not read.
- Where nothing is in another language, the stage runs on exactly what it was given: English verdicts
  are those it always gave.

A claim left not verified goes on to the next stage, as any other (rrag/verify/cascade.py): an LLM
judge, when configured, reads any language and may decide it.
"""

from __future__ import annotations

from collections.abc import Sequence

from rrag.lang.detect import ENGLISH, foreign_language, language_name, names_of
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.evidence import not_verified

ENGLISH_NAME = language_name(ENGLISH)
READS = f"the offline verifier reads {ENGLISH_NAME} only"
_STANDS = (ClaimStatus.SUPPORTED, ClaimStatus.CONTRADICTED)  # decided on the English passages alone


def foreign_passage(chunk: Chunk) -> str:
    """The language of a passage where it is one the rules do not read, else "": as detected at
    ingest, or now for a chunk indexed before that."""
    if chunk.language is None:
        return foreign_language(chunk.text)
    return "" if chunk.language == ENGLISH else chunk.language


class LanguageGate(Verifier):
    def __init__(self, stage: Verifier) -> None:
        self.stage = stage
        self.name = stage.name

    def verify(self, claim: Claim, contexts: Sequence[RetrievedChunk], question: str = "") -> Verdict:
        return self.verify_many([claim], contexts, question)[0]

    def verify_many(
        self, claims: Sequence[Claim], contexts: Sequence[RetrievedChunk], question: str = ""
    ) -> list[Verdict]:
        in_other = [foreign_passage(rc.chunk) for rc in contexts]
        english = [rc for rc, language in zip(contexts, in_other) if not language]
        unread = names_of(in_other)
        passages = f"the passages are in {unread}" if unread and not english else ""
        verdicts: dict[int, Verdict] = {}
        for i, claim in enumerate(claims):
            language = foreign_language(claim.text)
            if language or passages:
                said = [f"the claim is in {language_name(language)}" if language else "", passages]
                verdicts[i] = not_verified(self.name, f"{' and '.join(filter(None, said))}; {READS}")
        readable = [i for i in range(len(claims)) if i not in verdicts]
        if readable:
            judged = self.stage.verify_many([claims[i] for i in readable], english, question)
            unsure = f"the {ENGLISH_NAME} passages do not decide it, the others are in {unread}; {READS}"
            verdicts.update(
                (i, verdict if not unread or verdict.status in _STANDS else not_verified(self.name, unsure))
                for i, verdict in zip(readable, judged)
            )
        return [verdicts[i] for i in range(len(claims))]
