"""Roles, the roles file, and the engine as one user sees it: every limit enforced in the engine call,
against a real engine (Chroma + SQLite under tmp)."""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rrag import ReliableRAG
from rrag.engine.access import (
    LOCAL_USER,
    ROLE_PERMISSIONS,
    Identity,
    Permission,
    Role,
    RoleTable,
    normalise_email,
    sign_in_key,
)
from rrag.engine.user import Checked, UserEngine
from rrag.errors import AccessDeniedError, ConfigError
from rrag.settings import Settings
from rrag.store import Store
from rrag.tools.question_sets import QuestionItem, run_question_set
from rrag.types import ClaimStatus

LEAVE = b"Full-time employees receive 25 days of paid annual leave per calendar year.\n"
QUESTION = "How many days of annual leave do full-time employees get?"
ANSWER = "Full-time employees receive 30 days of paid annual leave per calendar year."


# -- the permission table ---------------------------------------------------------------------------


def test_each_role_has_exactly_its_permissions() -> None:
    assert ROLE_PERMISSIONS[Role.VIEWER] == {Permission.READ}
    assert ROLE_PERMISSIONS[Role.ANALYST] == {Permission.READ, Permission.ASK, Permission.INGEST}
    assert ROLE_PERMISSIONS[Role.REVIEWER] == ROLE_PERMISSIONS[Role.ANALYST] | {Permission.REVIEW}
    assert ROLE_PERMISSIONS[Role.ADMIN] == set(Permission)


def test_every_facade_method_is_a_checked_call_and_the_user_engine_adds_no_other() -> None:
    public = {n for n, v in inspect.getmembers(ReliableRAG) if callable(v) and not n.startswith("_")}
    checked = {n for n, v in vars(UserEngine).items() if isinstance(v, Checked)}
    assert checked | {"add_review"} == public and "add_review" not in checked  # add_review names the user
    own = {n for n in vars(UserEngine) if not n.startswith("_")}
    assert own - {"require", "settings"} == public  # no call that is not the engine's


def test_each_checked_call_forwards_to_the_method_of_its_own_name() -> None:
    assert all(v.name == n for n, v in vars(UserEngine).items() if isinstance(v, Checked))


# -- the roles file ---------------------------------------------------------------------------------


def test_roles_by_email_case_insensitive_and_email_wins_over_groups(tmp_path: Path) -> None:
    path = tmp_path / "roles.toml"
    path.write_text(
        '[users]\n"Ann@Example.com" = "viewer"\n[groups]\nops = "admin"\nrag = "analyst"\n', encoding="utf-8"
    )
    table = RoleTable.load(path)
    verified = {"email_verified": True}
    assert table.role_for({"email": "ann@example.COM", "groups": ["ops"]} | verified) is Role.VIEWER
    assert table.role_for({"email": "bob@example.com", "groups": ["rag", "ops"]} | verified) is Role.ADMIN
    assert table.role_for({"email": "bob@example.com", "groups": "rag"} | verified) is Role.ANALYST
    assert table.role_for({"email": "eve@example.com", "groups": ["other"]} | verified) is None
    assert table.role_for({}) is None


@pytest.mark.parametrize(
    "claims",
    [
        {"email_verified": False},
        {"email_verified": "false"},  # as some providers send it
        {"email_verified": "true"},  # a string is not the provider's assertion either
        {"email_verified": 1},
        {},  # as some providers never send it
    ],
)
def test_only_an_email_the_provider_asserts_as_verified_assigns_a_role(claims: dict[str, Any]) -> None:
    # Issue 46, item 2: RoleTable.from_dict({'users': {'a@x.com': 'admin'}}).role_for({'email': 'a@x.com',
    # 'email_verified': 'false'}) returned admin; a group role came with any e-mail.
    table = RoleTable.from_dict({"users": {"ann@example.com": "admin"}, "groups": {"ops": "admin"}})
    assert table.role_for({"email": "ann@example.com"} | claims) is None
    assert table.role_for({"email": "eve@example.com", "groups": ["ops"]} | claims) is None
    assert table.identity_for({"email": "ann@example.com"} | claims) is None
    verified = {"email": "ann@example.com", "email_verified": True}
    assert table.identity_for(verified) == Identity("ann@example.com", Role.ADMIN)


def test_a_stable_subject_named_in_the_roles_file_gets_its_role_whatever_the_email(tmp_path: Path) -> None:
    path = tmp_path / "roles.toml"
    path.write_text(
        '[users]\n"ann@example.com" = "viewer"\n'
        '[subjects."https://idp.example.com"]\n"248289761001" = "reviewer"\n',
        encoding="utf-8",
    )
    table = RoleTable.load(path)
    subject = {"iss": "https://idp.example.com", "sub": "248289761001"}
    assert table.role_for(subject) is Role.REVIEWER  # no e-mail at all
    assert table.role_for(subject | {"email": "ann@example.com", "email_verified": True}) is Role.REVIEWER
    # Named in the audit trail by its subject unless the e-mail is verified.
    assert table.identity_for(subject | {"email": "boss@example.com", "email_verified": "true"}) == Identity(
        "248289761001 (https://idp.example.com)", Role.REVIEWER
    )
    assert table.role_for({"iss": "https://evil.example.com", "sub": "248289761001"}) is None
    with pytest.raises(ConfigError, match="under their issuer"):
        RoleTable.from_dict({"subjects": {"248289761001": "admin"}})


def test_emails_are_normalised_alike_in_the_roles_file_and_the_claims() -> None:
    table = RoleTable.from_dict({"users": {" Ann@ＥＸＡＭＰＬＥ.com ": "reviewer"}})  # full-width letters
    for email in ("ann@example.com", "ANN@EXAMPLE.COM", "ａｎｎ@example.com\t"):
        identity = table.identity_for({"email": email, "email_verified": True})
        assert identity == Identity("ann@example.com", Role.REVIEWER), email
    assert normalise_email("Straße@Example.com") == normalise_email("STRASSE@example.com")


def test_the_groups_claim_is_configurable() -> None:
    table = RoleTable.from_dict({"groups_claim": "roles", "groups": {"rag-review": "reviewer"}})
    verified = {"email": "rob@example.com", "email_verified": True}
    assert table.role_for({"roles": ["rag-review"]} | verified) is Role.REVIEWER
    assert table.role_for({"groups": ["rag-review"]} | verified) is None


def test_an_ended_sign_in_is_refused_by_every_replica_and_only_that_one(db_settings: Settings) -> None:
    claims = {"iss": "https://idp.example.com", "sub": "rita", "iat": 1764000000, "nonce": "n1"}
    with Store(db_settings) as first, Store(db_settings) as other:  # two replicas, one database
        assert not other.sign_in_ended(sign_in_key(claims))
        first.end_sign_in(sign_in_key(claims))
        assert other.sign_in_ended(sign_in_key(claims))
        assert not other.sign_in_ended(sign_in_key(claims | {"iat": 1764000600, "nonce": "n2"}))
        first.end_sign_in(sign_in_key(claims))  # twice (two tabs) is the same


def test_a_missing_roles_file_refuses_everyone_and_a_bad_one_is_an_error(tmp_path: Path) -> None:
    verified = {"email": "a@b.c", "email_verified": True}
    assert RoleTable.load(tmp_path / "absent.toml").role_for(verified) is None
    bad = tmp_path / "bad.toml"
    bad.write_text('[users]\n"a@b.c" = "superuser"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown role 'superuser'"):
        RoleTable.load(bad)
    bad.write_text('[user]\n"a@b.c" = "admin"\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="unknown key"):
        RoleTable.load(bad)
    bad.write_text("[users\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="cannot be read"):
        RoleTable.load(bad)


# -- the engine wrapper, on a real engine -----------------------------------------------------------


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ReliableRAG]:
    rag = ReliableRAG(Settings(data_dir=tmp_path_factory.mktemp("access") / "data"))
    assert rag.ingest_bytes("leave.txt", LEAVE).ok
    yield rag
    rag.close()


def test_a_viewer_reads_but_cannot_ask_verify_ingest_review_delete_or_configure(engine: ReliableRAG) -> None:
    session_id = engine.verify(QUESTION, ANSWER).session_id
    viewer = UserEngine(engine, Identity(email="v@example.com", role=Role.VIEWER))
    doc = viewer.documents()[0]
    assert viewer.report(session_id).question == QUESTION and viewer.reviews(session_id) == []
    before = len(engine.sessions())
    for call in (
        lambda: viewer.ask(QUESTION),
        lambda: viewer.verify(QUESTION, ANSWER),
        lambda: viewer.ingest_bytes("more.txt", b"Some more text about leave and holidays.\n"),
        lambda: viewer.add_review(session_id, reviewer="v", outcome="approved"),
        lambda: viewer.delete_document(doc.doc_id),
        lambda: viewer.save_settings({"top_k": 3}),
        lambda: viewer.configure(engine.settings),
    ):
        with pytest.raises(AccessDeniedError, match=r"v@example.com \(viewer\) may not"):
            call()
    assert len(engine.sessions()) == before and [d.doc_id for d in engine.documents()] == [doc.doc_id]
    assert engine.reviews(session_id) == [] and "top_k" not in engine.saved_settings()


def test_a_viewer_running_a_question_set_is_refused_once_and_nothing_is_saved(engine: ReliableRAG) -> None:
    viewer = UserEngine(engine, Identity(email="v@example.com", role=Role.VIEWER))
    items = [QuestionItem(QUESTION), QuestionItem("Who approves leave requests?")]
    before = len(engine.sessions())
    progress: list[tuple[int, int, str]] = []
    with pytest.raises(AccessDeniedError, match="may not ask"):
        run_question_set(viewer, items, progress=lambda *step: progress.append(step))
    assert progress == [(0, 2, QUESTION)]  # stopped at the first question, not one refusal per question
    assert viewer.question_set_runs() == [] and len(engine.sessions()) == before


def test_an_analyst_asks_and_ingests_but_cannot_review_delete_or_configure(engine: ReliableRAG) -> None:
    analyst = UserEngine(engine, Identity(email="a@example.com", role=Role.ANALYST))
    report = analyst.ask(QUESTION)
    assert report.session_id in {s.session_id for s in engine.sessions()}
    added = analyst.ingest_bytes("remote.txt", b"Remote work is allowed two days per week with approval.\n")
    assert added.ok
    with pytest.raises(AccessDeniedError, match="may not record reviews"):
        analyst.add_review(report.session_id, reviewer="a", outcome="approved")
    with pytest.raises(AccessDeniedError, match="may not delete documents"):
        analyst.delete_document(added.doc_id)
    with pytest.raises(AccessDeniedError, match="may not change settings"):
        analyst.save_settings({"top_k": 3})
    assert engine.reviews(report.session_id) == []
    assert added.doc_id in {d.doc_id for d in engine.documents()}


def test_a_reviewer_is_recorded_as_the_signed_in_identity_whatever_name_is_passed(
    engine: ReliableRAG,
) -> None:
    session_id = engine.verify(QUESTION, ANSWER).session_id
    reviewer = UserEngine(engine, Identity(email="rita@example.com", role=Role.REVIEWER))
    record = reviewer.add_review(
        session_id,
        reviewer="Somebody Else",
        outcome="corrected",
        note="",
        claim_overrides={0: ClaimStatus.CONTRADICTED},
    )
    assert record.reviewer == "rita@example.com"
    assert [r.reviewer for r in engine.reviews(session_id)] == ["rita@example.com"]
    with pytest.raises(AccessDeniedError, match="may not delete documents"):
        reviewer.delete_document(engine.documents()[0].doc_id)


def test_only_an_admin_deletes_and_changes_settings(engine: ReliableRAG) -> None:
    admin = UserEngine(engine, Identity(email="root@example.com", role=Role.ADMIN))
    extra = admin.ingest_bytes("parking.txt", b"The staff car park opens at 6 am on weekdays.\n")
    admin.save_settings({"top_k": 4})
    assert engine.saved_settings()["top_k"] == 4
    admin.delete_document(extra.doc_id)
    assert extra.doc_id not in {d.doc_id for d in engine.documents()}


def test_without_sign_in_the_local_user_has_full_rights_and_names_the_reviewer(engine: ReliableRAG) -> None:
    local = UserEngine(engine, LOCAL_USER)
    session_id = local.verify(QUESTION, ANSWER).session_id
    record = local.add_review(session_id, reviewer="Dana", outcome="escalated", note="", claim_overrides={})
    assert record.reviewer == "Dana"


def test_the_wrapper_exposes_no_way_around_the_checks(engine: ReliableRAG) -> None:
    viewer = UserEngine(engine, Identity(email="v@example.com", role=Role.VIEWER))
    for name in ("store", "index", "_ingestor", "_backends"):
        with pytest.raises(AttributeError):
            getattr(viewer, name)
