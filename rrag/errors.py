"""The one exception tree of the engine. Pages and the CLI convert these to messages at the edge.

RRAGError
 +-- ConfigError            settings that cannot work (bad URL, unknown backend)
 +-- IngestError            one file could not be read; the others go on
 |    +-- UnsupportedFormatError
 |    +-- EmptyDocumentError
 |    +-- FileTooLargeError
 |    +-- EncryptedDocumentError
 +-- IndexError_            the vector index is unreachable or refused an operation
 |    +-- IndexTimeoutError  a call did not return within RRAG_INDEX_TIMEOUT_S
 +-- LLMError               the configured LLM server failed
 |    +-- LLMTimeoutError
 |    +-- LLMResponseError  malformed, truncated or schema-violating output
 |    +-- OutputModeError   the server refuses the structured-output mode asked for
 |    +-- LLMContextError   the prompt cannot fit the model's context window
 +-- StoreError             the database failed
 |    +-- StoreLockedError
 |    +-- StoreDamagedError  the file is malformed (quick_check on open): writes refused
 |    +-- StoreFullError
 |    +-- StoreReadOnlyError
 +-- NotFoundError          a session, document or chunk id that does not exist
 +-- InputError             a question the engine refuses (too long)
 +-- QuestionSetError       a question set (CSV/JSONL) that cannot be read
 +-- AccessDeniedError      the signed-in user's role does not allow the call
"""


class RRAGError(Exception):
    """Root of every error the engine raises on purpose."""


class ConfigError(RRAGError):
    """Settings that cannot work."""


class IngestError(RRAGError):
    """A document could not be ingested."""


class UnsupportedFormatError(IngestError):
    """The file type is not one the engine reads."""


class EmptyDocumentError(IngestError):
    """The file holds no extractable text."""


class FileTooLargeError(IngestError):
    """The file is above the configured size limit."""


class EncryptedDocumentError(IngestError):
    """The file is encrypted and cannot be opened without a password."""


class IndexError_(RRAGError):  # noqa: N801 - trailing underscore avoids shadowing the builtin
    """The vector index failed."""


class IndexTimeoutError(IndexError_):
    """A call to the vector index did not return in time."""


class LLMError(RRAGError):
    """The LLM server failed."""


class LLMTimeoutError(LLMError):
    """The LLM server did not answer in time."""


class LLMResponseError(LLMError):
    """The LLM answered with malformed, truncated or invalid output."""


class OutputModeError(LLMError):
    """The LLM server refused the requested response format."""


class LLMContextError(LLMError):
    """The prompt does not fit the model's context window, even with every passage left out."""


class StoreError(RRAGError):
    """The database failed."""


class StoreLockedError(StoreError):
    """The database is locked by another writer."""


class NotFoundError(RRAGError):
    """The requested record does not exist."""


class InputError(RRAGError):
    """A question or answer the engine refuses to work on, with what to change."""


class QuestionSetError(RRAGError):
    """A question set file is malformed: its line or row is named."""


class StoreDamagedError(StoreError):
    """The database file is malformed: writes are refused, the message says how to recover."""


class StoreFullError(StoreError):
    """The disk holding the database is full."""


class StoreReadOnlyError(StoreError):
    """The database or its folder cannot be written: it is open for reading only."""


class AccessDeniedError(RRAGError):
    """The signed-in user's role does not allow this engine call."""
