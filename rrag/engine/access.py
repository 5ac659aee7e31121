"""Who may do what: roles, the permission table and the roles file (the engine as one user sees it is
`rrag.engine.user.UserEngine`).

Roles are assigned in a small TOML file (`RRAG_ROLES_FILE`, default `.streamlit/roles.toml`):

    groups_claim = "groups"          # the ID-token claim that lists a user's groups (optional)
    [users]                          # by e-mail, case-insensitive; wins over any group
    "ann@example.com" = "admin"
    [groups]                         # by group; the highest role of a user's groups counts
    "rag-reviewers" = "reviewer"
    [subjects."https://idp.example.com"]   # by the provider's stable subject: issuer, then `sub`
    "248289761001" = "admin"

A role is granted only to an identity the provider vouches for: an e-mail it asserts as verified with
`email_verified` the JSON boolean true (not the string "true", not a token without the claim: some
providers let users type any e-mail), or a subject (`iss` + `sub`) named in `[subjects]`. Users and
groups both need the verified e-mail, which is also the name the audit trail records.

The limits are enforced in the engine calls (`UserEngine`), so a page that forgets to hide a button
still cannot act beyond its user's role.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from rrag.errors import ConfigError


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


def normalise_email(text: Any) -> str:
    """An e-mail as both the roles file and the provider's claims are compared: Unicode compatibility
    forms folded (a full-width letter is the letter), case folded, surrounding blanks removed."""
    return unicodedata.normalize("NFKC", str(text or "")).strip().casefold()


def sign_in_key(claims: Mapping[str, Any]) -> str:
    """What tells one sign-in apart from every other: its ID token's issuer, subject, issue time and
    nonce, hashed (the store keeps ended sign-ins by this key, never the claims themselves)."""
    parts = [str(claims.get(name, "")) for name in ("iss", "sub", "iat", "nonce")]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()


@dataclass(frozen=True)
class RoleTable:
    """Roles by e-mail, by group and by subject, as read from the roles file."""

    users: Mapping[str, Role] = field(default_factory=dict)
    groups: Mapping[str, Role] = field(default_factory=dict)
    groups_claim: str = "groups"
    subjects: Mapping[tuple[str, str], Role] = field(default_factory=dict)  # (iss, sub) -> role

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
        unknown = set(raw) - {"users", "groups", "groups_claim", "subjects"}
        if unknown:
            raise ConfigError(
                f"{source}: unknown key(s) {sorted(unknown)}; use users, groups, groups_claim, subjects"
            )
        subjects = raw.get("subjects", {})
        if not all(isinstance(subs, Mapping) for subs in subjects.values()):
            raise ConfigError(
                f'{source}: name subjects under their issuer: [subjects."ISSUER"] "SUB" = "ROLE"'
            )
        return cls(
            users={normalise_email(k): _role(v, source) for k, v in raw.get("users", {}).items()},
            groups={k: _role(v, source) for k, v in raw.get("groups", {}).items()},
            groups_claim=str(raw.get("groups_claim", "groups")),
            subjects={
                (issuer, str(sub)): _role(role, source)
                for issuer, subs in subjects.items()
                for sub, role in subs.items()
            },
        )

    def role_for(self, claims: Mapping[str, Any]) -> Role | None:
        """The role of a signed-in user from the provider's claims, or None (see the module docstring:
        a subject named in the file, else an e-mail the provider asserts as verified)."""
        subject = self.subjects.get((str(claims.get("iss") or ""), str(claims.get("sub") or "")))
        if subject is not None:
            return subject
        if not verified_email(claims):
            return None
        email = normalise_email(claims.get("email"))
        if email in self.users:
            return self.users[email]
        groups = claims.get(self.groups_claim) or []
        if isinstance(groups, str):
            groups = [groups]
        roles = [self.groups[g] for g in groups if isinstance(g, str) and g in self.groups]
        return max(roles, key=_RANK.__getitem__, default=None)

    def identity_for(self, claims: Mapping[str, Any]) -> Identity | None:
        """Who a signed-in user is, named as the audit trail records them (the verified e-mail, else
        the subject), or None without a role."""
        role = self.role_for(claims)
        if role is None:
            return None
        if verified_email(claims):
            return Identity(email=normalise_email(claims.get("email")), role=role)
        return Identity(email=f"{claims.get('sub')} ({claims.get('iss')})", role=role)


def verified_email(claims: Mapping[str, Any]) -> bool:
    """Whether the claims hold an e-mail the provider vouches for: `email_verified` is JSON true."""
    return bool(normalise_email(claims.get("email"))) and claims.get("email_verified") is True


def _role(value: Any, source: str) -> Role:
    try:
        return Role(str(value).strip().lower())
    except ValueError:
        raise ConfigError(f"{source}: unknown role {value!r}; use one of {[r.value for r in Role]}") from None
