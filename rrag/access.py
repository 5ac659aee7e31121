"""Who may do what: roles, the permission table, the roles file, and the engine as one user sees it.

Roles are assigned in a small TOML file (`RRAG_ROLES_FILE`, default `.streamlit/roles.toml`):

    groups_claim = "groups"          # the ID-token claim that lists a user's groups (optional)
    [users]                          # by e-mail, case-insensitive; wins over any group
    "ann@example.com" = "admin"
    [groups]                         # by group; the highest role of a user's groups counts
    "rag-reviewers" = "reviewer"

The limits are enforced here, in the engine calls, so a page that forgets to hide a button still
cannot act beyond its user's role.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rrag.errors import AccessDeniedError, ConfigError

if TYPE_CHECKING:
    from rrag.pipeline import ReliableRAG


class Role(StrEnum):
    VIEWER = "viewer"
    ANALYST = "analyst"
    REVIEWER = "reviewer"
    ADMIN = "admin"


class Permission(StrEnum):
    READ = "read documents, answers, reviews and runs"
    ASK = "ask or verify questions"
    INGEST = "add or re-index documents"
    REVIEW = "record reviews"
    DELETE = "delete documents"
    CONFIGURE = "change settings"


ROLE_PERMISSIONS: Mapping[Role, frozenset[Permission]] = {
    Role.VIEWER: frozenset({Permission.READ}),
    Role.ANALYST: frozenset({Permission.READ, Permission.ASK, Permission.INGEST}),
    Role.REVIEWER: frozenset({Permission.READ, Permission.ASK, Permission.INGEST, Permission.REVIEW}),
    Role.ADMIN: frozenset(Permission),
}
_RANK = {role: rank for rank, role in enumerate(Role)}  # declaration order: viewer lowest

# Every public facade method of ReliableRAG and what it needs. A method missing here is refused
# (tests check the table covers the facade), so a new engine call cannot slip past the roles.
METHOD_PERMISSIONS: Mapping[str, Permission] = {
    "documents": Permission.READ,
    "document_chunks": Permission.READ,
    "report": Permission.READ,
    "sessions": Permission.READ,
    "has_sessions": Permission.READ,
    "review_queue": Permission.READ,
    "reviews": Permission.READ,
    "pending_sessions": Permission.READ,
    "interrupted_sessions": Permission.READ,
    "saved_settings": Permission.READ,
    "session_records": Permission.READ,
    "claim_records": Permission.READ,
    "question_set_runs": Permission.READ,
    "question_set_run": Permission.READ,
    "find_session": Permission.READ,
    "failed_sessions": Permission.READ,
    "missing_from_index": Permission.READ,
    "require_sound_storage": Permission.READ,
    "storage_notes": Permission.READ,
    "retrieval_gate": Permission.READ,
    "ask": Permission.ASK,
    "ask_stream": Permission.ASK,
    "verify": Permission.ASK,
    "save_question_set_run": Permission.ASK,
    "save_retrieval_gate": Permission.ASK,
    "first_stage": Permission.ASK,
    "rerank": Permission.ASK,
    "ingest": Permission.INGEST,
    "ingest_bytes": Permission.INGEST,
    "reindex": Permission.INGEST,
    "ingest_each": Permission.INGEST,
    "repair_index": Permission.INGEST,
    "add_review": Permission.REVIEW,
    "delete_document": Permission.DELETE,
    "configure": Permission.CONFIGURE,
    "save_settings": Permission.CONFIGURE,
    "test_llm_connection": Permission.CONFIGURE,
    "close": Permission.CONFIGURE,
}


@dataclass(frozen=True)
class Identity:
    """Who is using the engine. `email` is None for the single-user local app (no sign-in)."""

    email: str | None
    role: Role

    @property
    def signed_in(self) -> bool:
        return self.email is not None

    def may(self, permission: Permission) -> bool:
        return permission in ROLE_PERMISSIONS[self.role]


LOCAL_USER = Identity(email=None, role=Role.ADMIN)  # without sign-in the app is one person's own


@dataclass(frozen=True)
class RoleTable:
    """Roles by e-mail and by group, as read from the roles file."""

    users: Mapping[str, Role] = field(default_factory=dict)
    groups: Mapping[str, Role] = field(default_factory=dict)
    groups_claim: str = "groups"

    @classmethod
    def load(cls, path: Path) -> RoleTable:
        """The table in `path`; a missing file is an empty table (every signed-in user refused)."""
        if not path.is_file():
            return cls()
        try:
            raw = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"roles file {path} cannot be read: {exc}") from exc
        return cls.from_dict(raw, source=str(path))

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any], *, source: str = "roles") -> RoleTable:
        unknown = set(raw) - {"users", "groups", "groups_claim"}
        if unknown:
            raise ConfigError(f"{source}: unknown key(s) {sorted(unknown)}; use users, groups, groups_claim")
        return cls(
            users={k.strip().lower(): _role(v, source) for k, v in raw.get("users", {}).items()},
            groups={k: _role(v, source) for k, v in raw.get("groups", {}).items()},
            groups_claim=str(raw.get("groups_claim", "groups")),
        )

    def role_for(self, claims: Mapping[str, Any]) -> Role | None:
        """The role of a signed-in user from the provider's claims (e-mail, groups), or None.
        An e-mail the provider says is unverified assigns nothing: anyone could claim it."""
        email = str(claims.get("email") or "").strip().lower()
        if email and claims.get("email_verified", True) is not False and email in self.users:
            return self.users[email]
        groups = claims.get(self.groups_claim) or []
        if isinstance(groups, str):
            groups = [groups]
        roles = [self.groups[g] for g in groups if isinstance(g, str) and g in self.groups]
        return max(roles, key=_RANK.__getitem__, default=None)


def _role(value: Any, source: str) -> Role:
    try:
        return Role(str(value).strip().lower())
    except ValueError:
        raise ConfigError(f"{source}: unknown role {value!r}; use one of {[r.value for r in Role]}") from None


class UserEngine:
    """The engine as one identity may use it: the facade's methods, each checked against the role
    first; reviews are recorded under the signed-in identity, whatever name a caller passes."""

    def __init__(self, rag: ReliableRAG, identity: Identity) -> None:
        self._rag = rag
        self.identity = identity

    @property
    def settings(self) -> Any:
        return self._rag.settings

    def require(self, permission: Permission) -> None:
        if not self.identity.may(permission):
            who = self.identity.email or "this user"
            raise AccessDeniedError(
                f"{who} ({self.identity.role.value}) may not {permission.value}; ask an admin for a role "
                "that allows it."
            )

    def add_review(self, session_id: str, **review: Any) -> Any:
        self.require(Permission.REVIEW)
        if self.identity.signed_in:
            review["reviewer"] = self.identity.email  # the audit trail names who signed in
        return self._rag.add_review(session_id, **review)

    def __getattr__(self, name: str) -> Any:
        permission = METHOD_PERMISSIONS.get(name)
        if permission is None:
            raise AttributeError(f"{name!r} is not an engine call a user may make")
        method = getattr(self._rag, name)

        def checked(*args: Any, **kwargs: Any) -> Any:
            self.require(permission)
            return method(*args, **kwargs)

        return checked
