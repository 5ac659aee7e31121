"""Backend registries: one name -> factory table per backend kind, kept beside that kind's base class
(`ANSWERERS` in rrag/answer/answerers.py, `CLAIM_EXTRACTORS` in rrag/audit/claims.py, `VERIFIERS` in
rrag/verify/registry.py). The pipeline, the cascade and `rrag eval` build backends through these, and
the settings' choices are checked against them (tests/test_registry.py), so a name means one thing
everywhere.

Every factory takes the settings and the configured LLM (None when no server is configured).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Generic, TypeVar

from rrag.errors import ConfigError
from rrag.settings import Settings

if TYPE_CHECKING:
    from rrag.backends.llm import LLM

T = TypeVar("T")
Factory = Callable[[Settings, "LLM | None"], T]


class Registry(Generic[T]):
    def __init__(self, kind: str, factories: Mapping[str, Factory[T]]) -> None:
        self.kind = kind
        self._factories = dict(factories)

    def names(self) -> tuple[str, ...]:
        return tuple(self._factories)

    def create(self, name: str, settings: Settings, llm: LLM | None = None) -> T:
        factory = self._factories.get(name)
        if factory is None:
            raise ConfigError(f"unknown {self.kind} {name!r}; choose from {', '.join(self.names())}")
        return factory(settings, llm)


def require_llm(llm: LLM | None, what: str) -> LLM:
    """The LLM a backend needs, or the configuration error that says how to give it one."""
    if llm is None:
        raise ConfigError(f"{what} needs an LLM: set RRAG_LLM_BASE_URL and RRAG_LLM_MODEL")
    return llm
