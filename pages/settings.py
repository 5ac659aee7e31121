"""Settings: LLM endpoint (the key stays in the environment), chunking, retrieval and thresholds; saved."""

from __future__ import annotations

from typing import Any

import streamlit as st

from rrag import ANSWERERS, CLAIM_EXTRACTORS, RISK_PRESETS, VERIFIER_STAGES, Permission, Settings, UserEngine
from rrag.tools.locations import data_locations
from ui.app_settings import CUSTOM, preset_of, redact_url, to_saved, with_credentials
from ui.engine import engine_errors, invalidate_reads, redact, user_engine
from ui.highlight import escaped_block, md_escape
from ui.navigation import require_app
from ui.state import PageState
from ui.status import ANSWERER_LABELS, EXTRACTOR_LABELS, VERIFIER_LABELS, style_tag

require_app()


def _render_key_status(settings: Settings) -> None:
    if settings.llm_api_key:
        st.success(
            "API key: set in the environment (`OPENAI_API_KEY`). It is never shown or stored, and sent "
            f"only to {md_escape(settings.llm_key_origin or '')}, the server it was configured for.",
            icon=":material/key:",
        )
    else:
        st.info(
            "API key: not set. Servers that need one read it from the `OPENAI_API_KEY` environment "
            "variable; it is never stored in the database.",
            icon=":material/key:",
        )


def _render_form(state: PageState, settings: Settings) -> tuple[str, dict[str, Any]]:
    """The form; returns which button was pressed ("", "save" or "test") and the values entered."""
    s = settings
    with st.form(state.key("form")):
        st.markdown("#### LLM endpoint (optional)")
        st.caption(
            "Any OpenAI-compatible server: OpenAI, vLLM, Ollama, llama.cpp. Without one, answers are "
            "extractive and verification runs offline."
        )
        url, model = st.columns(2)
        values: dict[str, Any] = {
            # Shown without its password or query secrets: nothing of them reaches the browser.
            "llm_base_url": url.text_input(
                "Base URL", redact_url(s.llm_base_url or ""), placeholder="http://localhost:11434/v1"
            ),
            "llm_model": model.text_input("Model", s.llm_model or "", placeholder="e.g. llama3.1:8b"),
        }
        timeout, retries = st.columns(2)
        values["llm_timeout_s"] = timeout.number_input("Timeout (s)", 1.0, 600.0, float(s.llm_timeout_s), 5.0)
        values["llm_max_retries"] = retries.number_input("Retries", 0, 10, int(s.llm_max_retries))
        st.caption(
            "Token budgets: the model's context window (the server's own where it reports one: "
            "llama.cpp, vLLM) and the longest reply of each kind of call (`max_tokens`)."
        )
        context, answer, claims, judge = st.columns(4)
        values["llm_context_tokens"] = context.number_input(
            "Context window", 256, 1_000_000, int(s.llm_context_tokens), 256
        )
        for column, name, label in (
            (answer, "llm_max_tokens_answer", "Answer reply"),
            (claims, "llm_max_tokens_claims", "Claim list reply"),
            (judge, "llm_max_tokens_judge", "Verdict reply"),
        ):
            values[name] = column.number_input(f"{label} (tokens)", 16, 500_000, int(getattr(s, name)), 16)
        test_key = st.text_input(
            "API key for testing this URL (optional, never saved)",
            type="password",
            help="The environment's key is sent only to the server it was configured for "
            f"({s.llm_key_origin or 'none'}); a URL on another server is tested without a key, or "
            "with the one typed here.",
        )

        st.markdown("#### Chunking")
        st.caption("Applies to documents indexed from now on; re-index a document to apply it there.")
        size, overlap, dedup = st.columns(3)
        values["chunk_size"] = size.number_input("Chunk size (characters)", 100, 10000, s.chunk_size, 100)
        values["chunk_overlap"] = overlap.number_input("Overlap (characters)", 0, 5000, s.chunk_overlap, 50)
        values["dedup_threshold"] = dedup.slider(
            "Near-duplicate similarity",
            0.5,
            1.0,
            float(s.dedup_threshold),
            0.01,
            help="Chunks at least this similar are dropped as duplicates.",
        )

        st.markdown("#### Retrieval and answers")
        top_k, floor = st.columns(2)
        values["top_k"] = top_k.number_input("Passages to retrieve (top-k)", 1, 50, s.top_k)
        values["relevance_floor"] = floor.slider(
            "Relevance floor",
            0.0,
            1.0,
            float(s.relevance_floor),
            0.01,
            help="Below this score nothing is retrieved: the answer is a refusal.",
        )
        answerer, extractor = st.columns(2)
        values["answerer"] = answerer.selectbox(
            "Answer backend", ANSWERERS, ANSWERERS.index(s.answerer), format_func=ANSWERER_LABELS.__getitem__
        )
        values["claim_extractor"] = extractor.selectbox(
            "Claim extractor",
            CLAIM_EXTRACTORS,
            CLAIM_EXTRACTORS.index(s.claim_extractor),
            format_func=EXTRACTOR_LABELS.__getitem__,
        )
        values["verifiers"] = st.multiselect(
            "Verifier cascade", VERIFIER_STAGES, list(s.verifiers), format_func=VERIFIER_LABELS.__getitem__
        )

        st.markdown("#### Thresholds")
        preset, threshold, strict = st.columns(3)
        presets = [*RISK_PRESETS, CUSTOM]
        chosen_preset = preset.selectbox(
            "Risk preset",
            presets,
            presets.index(preset_of(s.risk_threshold)),
            help=" · ".join(f"{name} {value:.0%}" for name, value in RISK_PRESETS.items())
            + f" · {CUSTOM}: the threshold beside it",
        )
        values["risk_threshold"] = threshold.slider(
            "Hallucination-rate threshold",
            0.0,
            1.0,
            float(s.risk_threshold),
            0.01,
            format="percent",
            help="Used as set when the preset is custom; a preset sets its own.",
        )
        values["strict"] = strict.toggle("Strict mode: refuse above the threshold", s.strict)

        buttons = st.container(horizontal=True)
        with buttons:
            pressed = "save" if st.form_submit_button("Save", type="primary") else ""
            pressed = "test" if st.form_submit_button("Test LLM connection") else pressed
    values["llm_base_url"] = with_credentials(values["llm_base_url"].strip() or None, s.llm_base_url)
    values["llm_model"] = values["llm_model"].strip() or None
    values["verifiers"] = tuple(v for v in VERIFIER_STAGES if v in values["verifiers"])
    if chosen_preset in RISK_PRESETS:
        values["risk_threshold"] = RISK_PRESETS[chosen_preset]
    if pressed == "test" and test_key.strip():
        values["llm_api_key"] = test_key.strip()
    return pressed, values


def _render_gate(rag: UserEngine) -> None:
    """Read-only: whether answers are reranked, as the corpus's recall gate decides."""
    gate = rag.retrieval_gate()
    st.markdown("#### Reranking")
    if gate is None:
        st.info(
            "Off: no recall gate measured for this corpus. Run a question set with `expected_source` "
            "on the Evaluate page (or `python -m rrag evaluate`): answers are reranked by the "
            "question-passage model once the first stage finds at least 80% of the expected sources "
            "among its 10 best candidates.",
            icon=":material/filter_alt_off:",
        )
    elif gate.passed:
        st.success(f"On: recall gate {md_escape(gate.describe())}.", icon=":material/filter_alt:")
    else:
        st.warning(
            f"Off: recall gate {md_escape(gate.describe())}. Reranking cannot find what retrieval "
            "missed; improve the first stage (chunking, top-k, documents) and measure again.",
            icon=":material/filter_alt_off:",
        )


def _save(rag: UserEngine, values: dict[str, Any]) -> None:
    with engine_errors("Saving the settings"):
        new = rag.settings.replace(**values)  # validates before anything is applied
        rag.configure(new)  # all or nothing: a bad choice leaves the engine as it was
        rag.save_settings(to_saved(new))
        invalidate_reads()
        st.success("Saved. New questions use these settings.", icon=":material/check_circle:")


def _test(rag: UserEngine, values: dict[str, Any]) -> None:
    """Try the endpoint as entered, without saving and without touching the shared engine."""
    fields = ("llm_base_url", "llm_model", "llm_timeout_s", "llm_max_retries", "llm_api_key")
    endpoint = {k: values[k] for k in fields if k in values}
    if not (endpoint["llm_base_url"] and endpoint["llm_model"]):
        st.warning("Enter the Base URL and the Model above, then test the connection.")
        return
    with engine_errors("Testing the LLM connection"), st.spinner("Calling the LLM…"):
        check = rag.test_llm_connection(rag.settings.replace(**endpoint))
        served = check.model_served or "a model it did not name"
        st.success(
            f"{md_escape(check.server)} answered the pipeline's structured request with "
            f"{md_escape(served)} in output mode **{check.mode.value}**.",
            icon=":material/check_circle:",
        )
        if check.model_served and check.model_served != check.model_requested:
            st.warning(
                f"It was asked for {md_escape(check.model_requested)} but answered as {md_escape(served)}: "
                "some servers serve their own model whatever name is asked for.",
                icon=":material/warning:",
            )
        st.html(style_tag() + escaped_block(redact(check.answer)[:500]))


def _render_locations(settings: Settings) -> None:
    """Read-only: storage is chosen by the environment when the app starts, never from this page."""
    st.markdown("#### Where data lives")
    rows = [
        f"| {md_escape(place.what)} | {md_escape(place.backend)} | {md_escape(place.where)} | "
        + ", ".join(f"`{name}`" for name in place.variables)
        + " |"
        for place in data_locations(settings)
    ]
    st.markdown("\n".join(["| Data | Backend | Location | Set with |", "|---|---|---|---|", *rows]))
    st.caption(
        "Read-only here: set these environment variables before starting the app (credentials in a "
        "database URL are never shown). See docs/configuration.md."
    )


def main() -> None:
    st.title("Settings")
    st.caption(
        "Saved in the database and applied to the whole app. Storage locations and the API key come "
        "from the environment (`RRAG_*`, `OPENAI_API_KEY`)."
    )
    state = PageState("settings")
    with engine_errors("Opening the engine"):
        rag = user_engine()
        _render_key_status(rag.settings)
        if not rag.identity.may(Permission.CONFIGURE):
            st.info(
                f"Your role ({rag.identity.role.value}) cannot change settings; ask an admin.",
                icon=":material/lock:",
            )
            _render_gate(rag)
            _render_locations(rag.settings)
            return
        pressed, values = _render_form(state, rag.settings)
        if pressed == "save":
            _save(rag, values)
        elif pressed == "test":
            _test(rag, values)
        _render_gate(rag)
        _render_locations(rag.settings)


main()
