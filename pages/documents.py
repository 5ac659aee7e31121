"""Documents: upload many files at once, see what each one gave, inspect chunks, delete, re-index."""

from __future__ import annotations

import streamlit as st

from rrag import DocumentInfo, IngestResult, Permission, UserEngine, supported_suffixes
from rrag.tools.demo import set_up_demo
from ui.engine import documents, engine_errors, invalidate_reads, user_engine
from ui.highlight import escaped_block, md_escape
from ui.navigation import require_app
from ui.state import PageState
from ui.status import style_tag
from ui.tables import NOT_MEASURED, document_label, documents_table, ingest_table

require_app()

FORMATS = "PDF, Word (.docx), HTML, Markdown and plain text"
CHUNKS_SHOWN = 200  # a long manual has thousands; the first ones are enough to judge the chunking


def _render_upload(rag: UserEngine, state: PageState) -> None:
    st.subheader("Add documents")
    if not rag.identity.may(Permission.INGEST):
        st.info(
            f"Your role ({rag.identity.role.value}) can read documents but not add them.",
            icon=":material/lock:",
        )
        return
    with st.form(state.key("upload_form"), clear_on_submit=True):
        files = st.file_uploader(
            f"Files to index ({FORMATS})",
            # With their dots: a bare "text" would mean any text/* file to Streamlit.
            type=supported_suffixes(),
            accept_multiple_files=True,
            key=state.key("files"),
            help="Each file is indexed on its own: a file that cannot be read is reported, the others go on.",
        )
        submitted = st.form_submit_button("Index files", type="primary")
    if submitted and not files:
        st.warning("Choose one or more files first.")
    if submitted and files:
        bar = st.progress(0.0, text="Starting…")
        results: list[IngestResult] = []
        for done, upload in enumerate(files):
            shown = md_escape(upload.name)  # a file name is the uploader's text: shown, never parsed
            bar.progress(done / len(files), text=f"Indexing {shown} ({done + 1} of {len(files)})")
            # ingest_bytes reports a bad file in its result instead of raising; engine_errors covers the
            # index or database failing, and the files already indexed stay indexed.
            with engine_errors(f"Indexing {upload.name}"):
                results.append(rag.ingest_bytes(upload.name, upload.getvalue()))
        bar.progress(1.0, text=f"Done: {len(files)} file(s)")
        state["results"] = results
        invalidate_reads()
    results = state["results"]
    if results:
        failed = sum(not r.ok for r in results)
        added = sum(r.chunks_added for r in results)
        copies = sum(r.status == "duplicate" for r in results)
        message = f"{len(results) - failed} of {len(results)} file(s) indexed, {added} chunk(s) added."
        if copies:
            message += (
                f" {copies} file(s) only repeat text already indexed: kept aside, they come back "
                "if the documents they copy are deleted."
            )
        for r in results:
            if r.copies_note:  # which documents already held the dropped text
                message += f" {md_escape(r.source)}: {md_escape(r.copies_note)}."
        (st.warning if failed else st.success if added else st.info)(
            message + (f" {failed} failed: see the table." if failed else "")
        )
        st.dataframe(ingest_table(results), hide_index=True, width="stretch", placeholder=NOT_MEASURED)


def _render_deleted(state: PageState) -> None:
    """What the last delete did, shown once after the page reloads."""
    if state["deleted"] is None:
        return
    source, restored = state["deleted"]
    state["deleted"] = None
    st.success(f"Deleted {md_escape(source)}.")
    for result in restored:
        if result.ok:
            st.info(
                f"{md_escape(result.source)} had dropped chunks as copies of it: "
                f"re-indexed, {result.chunks_added} chunk(s)."
            )
        else:
            st.error(
                f"Restoring {md_escape(result.source)} failed: {md_escape(result.error or '')}; re-index it."
            )


def _render_library(rag: UserEngine, state: PageState) -> None:
    _render_deleted(state)
    docs = documents()
    st.subheader(f"Indexed documents ({len(docs)})")
    if not docs:
        st.info("Nothing is indexed yet: add files above, or load the demo handbook to try the app.")
        if rag.identity.may(Permission.INGEST) and st.button(
            "Load the demo handbook", icon=":material/menu_book:", key=state.key("demo")
        ):
            with engine_errors("Loading the demo"), st.spinner("Indexing the demo handbook…"):
                set_up_demo(rag)  # a fictional company's policies, and audited example answers
                invalidate_reads()
                st.rerun()
        return
    st.dataframe(documents_table(docs), hide_index=True, width="stretch", placeholder=NOT_MEASURED)
    by_id = {d.doc_id: d for d in docs}
    if state["selected"] not in by_id:
        state["selected"] = docs[0].doc_id
    doc_id = st.selectbox(
        "Inspect a document",
        list(by_id),
        key=state.key("selected"),
        format_func=lambda i: f"{document_label(by_id[i])} · {by_id[i].chunks} chunks",
    )
    _render_actions(rag, state, by_id[doc_id])
    _render_chunks(rag, by_id[doc_id])


def _render_actions(rag: UserEngine, state: PageState, doc: DocumentInfo) -> None:
    buttons = st.container(horizontal=True)
    if rag.identity.may(Permission.INGEST) and buttons.button(
        "Re-index",
        icon=":material/refresh:",
        key=state.key("reindex"),
        help="Chunk the kept original again with the current chunking settings.",
    ):
        with engine_errors(f"Re-indexing {doc.source}"):
            result = rag.reindex(doc.doc_id)
            invalidate_reads()
            if result.ok:
                st.success(f"Re-indexed {md_escape(doc.source)}: {result.chunks_added} chunk(s).")
            else:
                st.error(f"Re-indexing {md_escape(doc.source)} failed: {md_escape(result.error or '')}")
    if rag.identity.may(Permission.DELETE) and buttons.button(
        "Delete", icon=":material/delete:", key=state.key("delete")
    ):
        state["confirm_delete"] = doc.doc_id
    if state["confirm_delete"] == doc.doc_id:
        st.warning(
            f"Delete **{md_escape(doc.source)}** and its {doc.chunks} chunk(s) from the index? "
            "Saved sessions keep their evidence quotes."
        )
        confirm = st.container(horizontal=True)
        if confirm.button("Yes, delete", type="primary", key=state.key("confirm")):
            state["confirm_delete"] = None
            with engine_errors(f"Deleting {doc.source}"):
                restored = rag.delete_document(doc.doc_id)
                invalidate_reads()
                state["deleted"] = (doc.source, restored)
                st.rerun()
        if confirm.button("Cancel", key=state.key("cancel")):
            state["confirm_delete"] = None
            st.rerun()


def _render_chunks(rag: UserEngine, doc: DocumentInfo) -> None:
    chunks = rag.document_chunks(doc.doc_id)
    st.caption(
        f"{len(chunks)} chunk(s); showing the first {min(len(chunks), CHUNKS_SHOWN)}. "
        "Offsets are character positions in the extracted text."
    )
    # A scrolling box only when there is much to scroll; a short document shows in full.
    with st.container(height=520 if len(chunks) > 3 else "content"):
        for chunk in chunks[:CHUNKS_SHOWN]:
            page = "" if chunk.page is None else f" · page {chunk.page}"
            st.markdown(f"**Chunk {chunk.ordinal + 1}**{page} · characters {chunk.start}–{chunk.end}")
            st.html(style_tag() + escaped_block(chunk.text))


def _render_storage_health(rag: UserEngine, state: PageState) -> None:
    """What the checks on open found: a damaged database (writes refused), documents the index lacks."""
    with engine_errors("Checking the database"):
        rag.require_sound_storage()  # raises with the recovery hint, shown as an error
    for note in rag.storage_notes():
        st.info(md_escape(note), icon=":material/info:")
    missing = rag.missing_from_index()
    if not missing:
        return
    names = ", ".join(d.source for d in missing[:5]) + ("…" if len(missing) > 5 else "")
    st.warning(
        f"**{len(missing)} listed document(s) are missing from the index** ({md_escape(names)}): answers "
        "cannot find their text. Re-index them from the kept originals.",
        icon=":material/report:",
    )
    if rag.identity.may(Permission.INGEST) and st.button(
        "Re-index from the kept originals", key=state.key("repair"), type="primary"
    ):
        bar = st.progress(0.0, text="Starting…")

        def progress(done: int, total: int, source: str) -> None:
            text = (
                f"Re-indexing {source[:150]} ({done + 1} of {total})" if source else f"Done: {total} file(s)"
            )
            bar.progress(done / max(total, 1), text=md_escape(text))

        with engine_errors("Re-indexing"):
            state["results"] = rag.repair_index(progress=progress)
        invalidate_reads()
        st.rerun()


def main() -> None:
    st.title("Documents")
    st.caption(
        "The documents answers are drawn from and checked against. Re-adding an unchanged file adds "
        "nothing; a changed file replaces its old chunks."
    )
    state = PageState("documents", results=[], selected=None, confirm_delete=None, deleted=None)
    with engine_errors("Opening the engine"):
        rag = user_engine()
        _render_storage_health(rag, state)
        _render_upload(rag, state)
        st.divider()
        _render_library(rag, state)


main()
