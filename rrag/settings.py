"""One frozen settings object, read from `RRAG_*` environment variables, passed into constructors."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rrag.errors import ConfigError

ENV_PREFIX = "RRAG_"

DEFAULT_DATA_DIR = Path("data")
DEFAULT_COLLECTION = "rrag_chunks"
DEFAULT_CHUNK_SIZE = 1000
DEFAULT_CHUNK_OVERLAP = 200
DEFAULT_DEDUP_THRESHOLD = 0.85
DEFAULT_MAX_FILE_MB = 50.0
DEFAULT_TOP_K = 5
DEFAULT_RELEVANCE_FLOOR = 0.18  # calibrated in rrag/retrieval/hybrid.py and tests/test_retrieve.py
DEFAULT_LLM_TIMEOUT_S = 60.0
DEFAULT_LLM_MAX_RETRIES = 2
DEFAULT_LLM_DEADLINE_S = 90.0  # all LLM calls of one question together, retries included
DEFAULT_LLM_CONTEXT_TOKENS = 4096  # the model's context window: prompt and reply must fit in it
# Reply budgets (`max_tokens`) per kind of call: an answer with its citations, a claim list, a verdict.
DEFAULT_LLM_MAX_TOKENS_ANSWER = 512
DEFAULT_LLM_MAX_TOKENS_CLAIMS = 384
DEFAULT_LLM_MAX_TOKENS_JUDGE = 256

# Hallucination-rate thresholds a user picks from; strict mode refuses above the threshold.
RISK_PRESETS: Mapping[str, float] = {"high-risk": 0.05, "enterprise": 0.20, "general": 0.30}
DEFAULT_RISK_PRESET = "enterprise"

ANSWERERS = ("extractive", "openai")
CLAIM_EXTRACTORS = ("rules", "llm")
VERIFIER_STAGES = ("quote", "nli", "llm")


@dataclass(frozen=True)
class Settings:
    data_dir: Path = DEFAULT_DATA_DIR
    database_url: str | None = None  # any SQLAlchemy URL; default SQLite in data_dir
    chroma_host: str | None = None  # server mode when set
    chroma_port: int = 8000
    collection: str = DEFAULT_COLLECTION

    chunk_size: int = DEFAULT_CHUNK_SIZE
    chunk_overlap: int = DEFAULT_CHUNK_OVERLAP
    dedup_threshold: float = DEFAULT_DEDUP_THRESHOLD
    max_file_mb: float = DEFAULT_MAX_FILE_MB

    top_k: int = DEFAULT_TOP_K
    relevance_floor: float = DEFAULT_RELEVANCE_FLOOR

    answerer: str = "extractive"
    claim_extractor: str = "rules"
    verifiers: tuple[str, ...] = ("quote", "nli")

    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = field(default=None, repr=False)  # never logged, never stored
    llm_timeout_s: float = DEFAULT_LLM_TIMEOUT_S
    llm_max_retries: int = DEFAULT_LLM_MAX_RETRIES
    llm_deadline_s: float = DEFAULT_LLM_DEADLINE_S
    llm_context_tokens: int = DEFAULT_LLM_CONTEXT_TOKENS
    llm_max_tokens_answer: int = DEFAULT_LLM_MAX_TOKENS_ANSWER
    llm_max_tokens_claims: int = DEFAULT_LLM_MAX_TOKENS_CLAIMS
    llm_max_tokens_judge: int = DEFAULT_LLM_MAX_TOKENS_JUDGE

    risk_threshold: float = RISK_PRESETS[DEFAULT_RISK_PRESET]
    strict: bool = False

    def __post_init__(self) -> None:
        if self.chunk_size < 100:
            raise ConfigError("chunk_size must be at least 100 characters")
        if not 0 <= self.chunk_overlap < self.chunk_size:
            raise ConfigError("chunk_overlap must be between 0 and chunk_size")
        if self.top_k < 1:
            raise ConfigError("top_k must be at least 1")
        if not self.llm_deadline_s > 0:
            raise ConfigError("llm_deadline_s must be more than 0 seconds")
        budgets = (self.llm_max_tokens_answer, self.llm_max_tokens_claims, self.llm_max_tokens_judge)
        if min(budgets) < 16 or 2 * max(budgets) >= self.llm_context_tokens:
            raise ConfigError(
                "each RRAG_LLM_MAX_TOKENS_* must be at least 16 and less than half of "
                "RRAG_LLM_CONTEXT_TOKENS (a reply and its one repair must fit beside the prompt)"
            )
        if not 0.0 <= self.risk_threshold <= 1.0:
            raise ConfigError("risk_threshold must be between 0 and 1")
        if self.answerer not in ANSWERERS:
            raise ConfigError(f"answerer must be one of {ANSWERERS}, not {self.answerer!r}")
        if self.claim_extractor not in CLAIM_EXTRACTORS:
            raise ConfigError(f"claim_extractor must be one of {CLAIM_EXTRACTORS}")
        unknown = [v for v in self.verifiers if v not in VERIFIER_STAGES]
        if unknown or not self.verifiers:
            raise ConfigError(f"verifiers must be a non-empty subset of {VERIFIER_STAGES}")

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url and self.llm_model)

    @property
    def sqlalchemy_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'rrag.db').resolve()}"

    @property
    def chroma_dir(self) -> Path:
        return self.data_dir / "chroma"

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Build settings from `RRAG_<FIELD>` variables (and `OPENAI_API_KEY`), then `overrides`."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {}
        for f in dataclasses.fields(cls):
            raw = env.get(ENV_PREFIX + f.name.upper())
            if raw is not None and raw != "":
                values[f.name] = _parse(f.name, f.type, raw)
        if "llm_api_key" not in values and env.get("OPENAI_API_KEY"):
            values["llm_api_key"] = env["OPENAI_API_KEY"]
        if "risk_preset" in overrides or env.get(ENV_PREFIX + "RISK_PRESET"):
            preset = overrides.pop("risk_preset", None) or env[ENV_PREFIX + "RISK_PRESET"]
            if preset not in RISK_PRESETS:
                raise ConfigError(f"risk preset must be one of {tuple(RISK_PRESETS)}")
            values["risk_threshold"] = RISK_PRESETS[preset]
        values.update(overrides)
        return cls(**values)


def _parse(name: str, annotation: Any, raw: str) -> Any:
    kind = str(annotation)
    try:
        if "Path" in kind:
            return Path(raw)
        if "tuple" in kind:
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if "bool" in kind:
            if raw.lower() not in {"1", "0", "true", "false", "yes", "no", "on", "off"}:
                raise ValueError(raw)
            return raw.lower() in {"1", "true", "yes", "on"}
        if "int" in kind and "str" not in kind:
            return int(raw)
        if "float" in kind:
            return float(raw)
    except ValueError as exc:
        raise ConfigError(f"{ENV_PREFIX}{name.upper()}={raw!r} is not a valid {kind}") from exc
    return raw
