"""One frozen settings object, read from `RRAG_*` environment variables, passed into constructors.

`Settings(...)` is pydantic-settings: the arguments given, then `RRAG_<FIELD>` variables, then the
defaults below, each value validated (choices, bounds); any error is a `ConfigError` that names the
variable. Backend names are the keys of each backend kind's registry (see `rrag.registry`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_args
from urllib.parse import urlsplit

from pydantic import Field, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from rrag.errors import ConfigError

ENV_PREFIX = "RRAG_"

DEFAULT_DATA_DIR = Path("data")
DEFAULT_ROLES_FILE = Path(".streamlit/roles.toml")  # read only when sign-in is configured
DEFAULT_COLLECTION = "rrag_chunks"
DEFAULT_CHUNK_SIZE = 1000
DEFAULT_CHUNK_OVERLAP = 200
DEFAULT_DEDUP_THRESHOLD = 0.85
DEFAULT_MAX_FILE_MB = 50.0
DEFAULT_TOP_K = 5
DEFAULT_RELEVANCE_FLOOR = 0.33  # calibrated in rrag/retrieval/hybrid.py and tests/test_retrieve.py
DEFAULT_LLM_TIMEOUT_S = 60.0
# The longest one call to the vector index may take (chunks arrive embedded: Chroma only stores them).
DEFAULT_INDEX_TIMEOUT_S = 60.0
DEFAULT_LLM_MAX_RETRIES = 2
DEFAULT_LLM_DEADLINE_S = 90.0  # all LLM calls of one question together, retries included
# Where OPENAI_API_KEY may go when no base URL is configured beside it: the service it is named after.
DEFAULT_KEY_ORIGIN = "https://api.openai.com"
DEFAULT_ALLOW_ANONYMOUS_NETWORK = False  # serving beyond loopback without sign-in (ui/network.py)
DEFAULT_LLM_CONTEXT_TOKENS = 4096  # the model's context window: prompt and reply must fit in it
# Reply budgets (`max_tokens`) per kind of call: an answer with its citations, a claim list, a verdict.
DEFAULT_LLM_MAX_TOKENS_ANSWER = 512
DEFAULT_LLM_MAX_TOKENS_CLAIMS = 384
DEFAULT_LLM_MAX_TOKENS_JUDGE = 256
# Settings named "...tokens" that count a model's tokens: no credential (the store's secret guard lets
# them through, as whole numbers only).
TOKEN_COUNT_FIELDS = frozenset(
    {"llm_context_tokens", "llm_max_tokens_answer", "llm_max_tokens_claims", "llm_max_tokens_judge"}
)

# Hallucination-rate thresholds a user picks from; strict mode refuses above the threshold.
RISK_PRESETS: Mapping[str, float] = {"high-risk": 0.05, "enterprise": 0.20, "general": 0.30}
DEFAULT_RISK_PRESET = "enterprise"

AnswererName = Literal["extractive", "openai"]
ClaimExtractorName = Literal["rules", "llm"]
VerifierStageName = Literal["quote", "nli", "llm"]
ANSWERERS: tuple[AnswererName, ...] = get_args(AnswererName)
CLAIM_EXTRACTORS: tuple[ClaimExtractorName, ...] = get_args(ClaimExtractorName)
VERIFIER_STAGES: tuple[VerifierStageName, ...] = get_args(VerifierStageName)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=ENV_PREFIX, frozen=True, extra="forbid", env_ignore_empty=True
    )

    data_dir: Path = DEFAULT_DATA_DIR
    database_url: str | None = None  # any SQLAlchemy URL; default SQLite in data_dir
    chroma_host: str | None = None  # server mode when set
    chroma_port: int = Field(8000, ge=1, le=65535)
    collection: str = DEFAULT_COLLECTION
    index_timeout_s: float = Field(DEFAULT_INDEX_TIMEOUT_S, gt=0.0)
    roles_file: Path = DEFAULT_ROLES_FILE

    chunk_size: int = Field(DEFAULT_CHUNK_SIZE, ge=100)
    chunk_overlap: int = Field(DEFAULT_CHUNK_OVERLAP, ge=0)
    dedup_threshold: float = Field(DEFAULT_DEDUP_THRESHOLD, gt=0.0, le=1.0)
    max_file_mb: float = Field(DEFAULT_MAX_FILE_MB, gt=0.0)

    top_k: int = Field(DEFAULT_TOP_K, ge=1)
    relevance_floor: float = Field(DEFAULT_RELEVANCE_FLOOR, ge=0.0, le=1.0)

    answerer: AnswererName = "extractive"
    claim_extractor: ClaimExtractorName = "rules"
    verifiers: Annotated[tuple[VerifierStageName, ...], NoDecode] = Field(("quote", "nli"), min_length=1)

    llm_base_url: str | None = None
    llm_model: str | None = None
    llm_api_key: str | None = Field(None, repr=False)  # never logged, never stored
    # The only origin the key is sent to: the base URL's configured with it (key_for). A URL changed
    # later (the Settings page, saved settings) does not take the key along.
    llm_key_origin: str | None = None
    llm_timeout_s: float = Field(DEFAULT_LLM_TIMEOUT_S, gt=0.0)
    llm_max_retries: int = Field(DEFAULT_LLM_MAX_RETRIES, ge=0)
    llm_deadline_s: float = Field(DEFAULT_LLM_DEADLINE_S, gt=0.0)
    llm_context_tokens: int = Field(DEFAULT_LLM_CONTEXT_TOKENS, ge=256)
    llm_max_tokens_answer: int = Field(DEFAULT_LLM_MAX_TOKENS_ANSWER, ge=16)
    llm_max_tokens_claims: int = Field(DEFAULT_LLM_MAX_TOKENS_CLAIMS, ge=16)
    llm_max_tokens_judge: int = Field(DEFAULT_LLM_MAX_TOKENS_JUDGE, ge=16)

    risk_threshold: float = Field(RISK_PRESETS[DEFAULT_RISK_PRESET], ge=0.0, le=1.0)
    strict: bool = False

    allow_anonymous_network: bool = DEFAULT_ALLOW_ANONYMOUS_NETWORK

    def __init__(self, **values: Any) -> None:
        try:
            super().__init__(**values)
        except ValidationError as exc:
            raise ConfigError(_explain(exc)) from None

    @field_validator("verifiers", mode="before")
    @classmethod
    def _comma_separated(cls, value: Any) -> Any:
        return (
            tuple(part.strip() for part in value.split(",") if part.strip())
            if isinstance(value, str)
            else value
        )

    @model_validator(mode="before")
    @classmethod
    def _key_stays_home(cls, values: Any) -> Any:
        if isinstance(values, dict) and values.get("llm_api_key") and not values.get("llm_key_origin"):
            values = values | {"llm_key_origin": url_origin(values.get("llm_base_url")) or DEFAULT_KEY_ORIGIN}
        return values

    @model_validator(mode="after")
    def _overlap_within_chunk(self) -> Settings:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunk_overlap must be between 0 and chunk_size")
        budgets = (self.llm_max_tokens_answer, self.llm_max_tokens_claims, self.llm_max_tokens_judge)
        if 2 * max(budgets) >= self.llm_context_tokens:
            raise ValueError(
                "each RRAG_LLM_MAX_TOKENS_* must be less than half of RRAG_LLM_CONTEXT_TOKENS "
                "(a reply and its one repair must fit beside the prompt)"
            )
        return self

    @property
    def llm_configured(self) -> bool:
        return bool(self.llm_base_url and self.llm_model)

    @property
    def sqlalchemy_url(self) -> str:
        return self.database_url or f"sqlite:///{(self.data_dir / 'rrag.db').resolve()}"

    @property
    def chroma_dir(self) -> Path:
        return self.data_dir / "chroma"

    def key_for(self, url: str | None) -> str | None:
        """The API key, if `url` is on the origin it was configured for; else None (keys stay home)."""
        return self.llm_api_key if url_origin(url) == self.llm_key_origin else None

    def replace(self, **changes: Any) -> Settings:
        """A copy with `changes`, validated like any new settings. A new key belongs to the base URL
        given with it (or kept), as a key configured from the start does."""
        values = self.model_dump() | changes
        if "llm_api_key" in changes and "llm_key_origin" not in changes:
            values.pop("llm_key_origin")
        return type(self)(**values)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from `RRAG_<FIELD>` variables of `environ` (default: the process's), `OPENAI_API_KEY`
        and `RRAG_RISK_PRESET`, then `overrides`."""
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {
            name: env[ENV_PREFIX + name.upper()]
            for name in cls.model_fields
            if env.get(ENV_PREFIX + name.upper())
        }
        if "llm_api_key" not in values and env.get("OPENAI_API_KEY"):
            values["llm_api_key"] = env["OPENAI_API_KEY"]
        preset = overrides.pop("risk_preset", None) or env.get(ENV_PREFIX + "RISK_PRESET")
        if preset:
            if preset not in RISK_PRESETS:
                raise ConfigError(f"risk preset must be one of {tuple(RISK_PRESETS)}")
            values["risk_threshold"] = RISK_PRESETS[preset]
        # The values found are passed as arguments, so a mapping other than os.environ is read the same.
        return cls(**(values | overrides))


def url_origin(url: str | None) -> str | None:
    """`scheme://host[:port]` of a URL, lower-case, without a default port; None for none or a URL
    without a host."""
    parts = urlsplit(url or "")
    if not parts.hostname:
        return None
    scheme = parts.scheme.lower()
    try:
        port = parts.port
    except ValueError:
        return None
    default = {"http": 80, "https": 443}.get(scheme)
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def _explain(exc: ValidationError) -> str:
    """One line per error, naming the environment variable that sets the field."""
    lines = []
    for error in exc.errors():
        field = ".".join(str(part) for part in error["loc"][:1])
        where = f"{ENV_PREFIX}{field.upper()} ({field})" if field else "settings"
        lines.append(f"{where}: {error['msg']}")
    return "; ".join(lines)
