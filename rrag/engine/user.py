"""The engine as one user may use it: each `ReliableRAG` call the pages make, checked against the
user's role first (the roles and permissions are in `rrag.engine.access`).

Every call is declared here with the permission it needs and typed as the `ReliableRAG` method it
forwards to, so mypy checks the pages' calls. A method of `ReliableRAG` that is not declared here cannot
be called through a `UserEngine` (tests check the two lists match), so a new engine call cannot slip
past the roles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Concatenate, Generic, ParamSpec, TypeVar, overload

from rrag.engine.access import Identity, Permission
from rrag.engine.pipeline import ReliableRAG
from rrag.errors import AccessDeniedError
from rrag.settings import Settings
from rrag.store import ReviewRecord
from rrag.types import ClaimStatus

P = ParamSpec("P")
R = TypeVar("R")


class Checked(Generic[P, R]):
    """One engine call as a user makes it: the user's role is checked against `permission` when the
    call is made, then the engine's method of the same name runs."""

    def __init__(self, permission: Permission, method: Callable[Concatenate[ReliableRAG, P], R]) -> None:
        self.permission = permission
        self.name = method.__name__

    @overload
    def __get__(self, engine: None, owner: type) -> Checked[P, R]: ...
    @overload
    def __get__(self, engine: UserEngine, owner: type) -> Callable[P, R]: ...
    def __get__(self, engine: UserEngine | None, owner: type) -> Checked[P, R] | Callable[P, R]:
        if engine is None:
            return self
        # Looked up on the instance, as an attribute: a method replaced on the engine is the one called.
        method: Callable[P, R] = getattr(engine._rag, self.name)
        permission = self.permission

        def checked(*args: P.args, **kwargs: P.kwargs) -> R:
            engine.require(permission)
            return method(*args, **kwargs)

        return checked


class UserEngine:
    """The engine as one identity may use it: the facade's methods, each checked against the role
    first; reviews are recorded under the signed-in identity, whatever name a caller passes."""

    def __init__(self, rag: ReliableRAG, identity: Identity) -> None:
        self._rag = rag
        self.identity = identity

    @property
    def settings(self) -> Settings:
        return self._rag.settings

    def require(self, permission: Permission) -> None:
        if not self.identity.may(permission):
            who = self.identity.email or "this user"
            raise AccessDeniedError(
                f"{who} ({self.identity.role.value}) may not {permission.value}; ask an admin for a role "
                "that allows it."
            )

    def add_review(
        self,
        session_id: str,
        *,
        reviewer: str,
        outcome: str,
        note: str = "",
        claim_overrides: Mapping[int, ClaimStatus] | None = None,
        evidence_passages: Mapping[int, str] | None = None,
    ) -> ReviewRecord:
        self.require(Permission.REVIEW)
        if self.identity.email is not None:  # signed in: the audit trail names who signed in
            reviewer = self.identity.email
        return self._rag.add_review(
            session_id,
            reviewer=reviewer,
            outcome=outcome,
            note=note,
            claim_overrides=claim_overrides,
            evidence_passages=evidence_passages,
        )

    documents = Checked(Permission.READ, ReliableRAG.documents)
    document_chunks = Checked(Permission.READ, ReliableRAG.document_chunks)
    report = Checked(Permission.READ, ReliableRAG.report)
    sessions = Checked(Permission.READ, ReliableRAG.sessions)
    has_sessions = Checked(Permission.READ, ReliableRAG.has_sessions)
    review_queue = Checked(Permission.READ, ReliableRAG.review_queue)
    reviews = Checked(Permission.READ, ReliableRAG.reviews)
    pending_sessions = Checked(Permission.READ, ReliableRAG.pending_sessions)
    interrupted_sessions = Checked(Permission.READ, ReliableRAG.interrupted_sessions)
    saved_settings = Checked(Permission.READ, ReliableRAG.saved_settings)
    session_records = Checked(Permission.READ, ReliableRAG.session_records)
    claim_records = Checked(Permission.READ, ReliableRAG.claim_records)
    question_set_runs = Checked(Permission.READ, ReliableRAG.question_set_runs)
    question_set_run = Checked(Permission.READ, ReliableRAG.question_set_run)
    find_session = Checked(Permission.READ, ReliableRAG.find_session)
    failed_sessions = Checked(Permission.READ, ReliableRAG.failed_sessions)
    missing_from_index = Checked(Permission.READ, ReliableRAG.missing_from_index)
    require_sound_storage = Checked(Permission.READ, ReliableRAG.require_sound_storage)
    storage_notes = Checked(Permission.READ, ReliableRAG.storage_notes)
    end_sign_in = Checked(Permission.READ, ReliableRAG.end_sign_in)
    sign_in_ended = Checked(Permission.READ, ReliableRAG.sign_in_ended)
    retrieval_gate = Checked(Permission.READ, ReliableRAG.retrieval_gate)
    ask = Checked(Permission.ASK, ReliableRAG.ask)
    ask_stream = Checked(Permission.ASK, ReliableRAG.ask_stream)
    verify = Checked(Permission.ASK, ReliableRAG.verify)
    save_question_set_run = Checked(Permission.ASK, ReliableRAG.save_question_set_run)
    save_retrieval_gate = Checked(Permission.ASK, ReliableRAG.save_retrieval_gate)
    first_stage = Checked(Permission.ASK, ReliableRAG.first_stage)
    rerank = Checked(Permission.ASK, ReliableRAG.rerank)
    ingest = Checked(Permission.INGEST, ReliableRAG.ingest)
    ingest_bytes = Checked(Permission.INGEST, ReliableRAG.ingest_bytes)
    reindex = Checked(Permission.INGEST, ReliableRAG.reindex)
    ingest_each = Checked(Permission.INGEST, ReliableRAG.ingest_each)
    repair_index = Checked(Permission.INGEST, ReliableRAG.repair_index)
    delete_document = Checked(Permission.DELETE, ReliableRAG.delete_document)
    configure = Checked(Permission.CONFIGURE, ReliableRAG.configure)
    save_settings = Checked(Permission.CONFIGURE, ReliableRAG.save_settings)
    test_llm_connection = Checked(Permission.CONFIGURE, ReliableRAG.test_llm_connection)
    close = Checked(Permission.CONFIGURE, ReliableRAG.close)


Engine = ReliableRAG | UserEngine  # what the tools shared by the CLI (the engine) and the pages take
