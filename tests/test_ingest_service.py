"""The Ingestor end to end on real files, a real SQLite store and a real Chroma index in tmp."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest
from fixtures_docs import HANDBOOK, make_docx, make_pdf, write_handbook

from rrag.backends.embedding import MiniLMEmbedder, get_embedder
from rrag.errors import NotFoundError
from rrag.ingest.extract import extract
from rrag.ingest.service import Ingestor
from rrag.ingest.sources import doc_id_for, safe_filename
from rrag.retrieval.hybrid import HybridRetriever
from rrag.retrieval.index import ChunkIndex
from rrag.settings import Settings
from rrag.store import Store

PARAGRAPH = (
    "Northwind Robotics reimburses hotel costs up to 150 euros per night in most cities and up to 220 "
    "euros per night in London, Paris and New York, provided the booking was made through the travel desk."
)


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    with Store(settings) as store:
        yield store


@pytest.fixture
def index(settings: Settings) -> ChunkIndex:
    return ChunkIndex(settings, get_embedder())


@pytest.fixture
def ingestor(settings: Settings, index: ChunkIndex, store: Store) -> Ingestor:
    return Ingestor(settings, index, store)


def test_every_format_is_indexed_with_exact_offsets(
    tmp_path: Path, ingestor: Ingestor, index: ChunkIndex, store: Store
) -> None:
    files = write_handbook(tmp_path / "docs")
    docs = tmp_path / "docs"
    files.append(make_pdf(docs / "handbook.pdf", ["Page one: leave is 25 days.", "Page two: pensions."]))
    files.append(make_docx(docs / "grades.docx", ["Grades:", [["Grade", "Days"], ["Senior", "30"]]]))
    for path in files:
        result = ingestor.ingest_file(path)
        assert (result.status, result.error, result.source) == ("added", None, path.name)
        assert result.chunks_added >= 1 and result.doc_id == doc_id_for(path.name)
        text = extract(path, max_bytes=ingestor.max_bytes).text
        chunks = index.get_chunks(result.doc_id)
        assert [c.chunk_id for c in chunks] == [f"{result.doc_id}:v1:{n}" for n in range(len(chunks))]
        for chunk in chunks:
            assert text[chunk.start : chunk.end] == chunk.text and chunk.source == path.name
        info = store.get_document(result.doc_id)
        assert (info.source, info.chunks, info.size_bytes) == (path.name, len(chunks), path.stat().st_size)
    pdf_chunks = index.get_chunks(doc_id_for("handbook.pdf"))
    assert [c.page for c in pdf_chunks] == [1]
    assert ingestor.ingest_file(files[-2]).pages is None
    assert len(store.list_documents()) == len(files)


def test_the_same_file_again_adds_nothing(tmp_path: Path, ingestor: Ingestor, index: ChunkIndex) -> None:
    path = write_handbook(tmp_path / "docs")[0]
    first = ingestor.ingest_file(path)
    count, version = index.count(), index.version
    again = ingestor.ingest_file(path)
    assert (again.status, again.chunks_added, again.doc_id) == ("unchanged", 0, first.doc_id)
    assert (index.count(), index.version) == (count, version)


def test_a_changed_file_replaces_its_old_chunks(
    tmp_path: Path, settings: Settings, index: ChunkIndex, store: Store
) -> None:
    ingestor = Ingestor(settings.replace(chunk_size=200, chunk_overlap=0), index, store)
    path = tmp_path / "travel.md"
    path.write_text("# Travel\n\n" + " ".join(f"Rule {i}: hotels cost {100 + i} euros." for i in range(30)))
    first = ingestor.ingest_file(path)
    path.write_text("# Travel\n\nHotels now cost at most 180 euros per night.")
    second = ingestor.ingest_file(path)
    assert (second.status, second.doc_id) == ("replaced", first.doc_id)
    assert first.chunks_added > 3 and second.chunks_added == 1
    texts = [c.text for c in index.get_chunks(first.doc_id)]
    assert texts == ["Travel\n\nHotels now cost at most 180 euros per night."]
    assert index.count() == 1
    assert store.get_document(first.doc_id).chunks == 1


def test_an_index_that_lost_the_chunks_gets_them_back(
    tmp_path: Path, ingestor: Ingestor, index: ChunkIndex
) -> None:
    path = write_handbook(tmp_path / "docs")[0]
    result = ingestor.ingest_file(path)
    index.delete_document(result.doc_id)  # e.g. the Chroma folder was wiped
    again = ingestor.ingest_file(path)
    assert again.status == "replaced" and len(index.get_chunks(result.doc_id)) == result.chunks_added


def test_delete_removes_chunks_original_and_record(
    tmp_path: Path, ingestor: Ingestor, index: ChunkIndex, store: Store, settings: Settings
) -> None:
    keep, gone = write_handbook(tmp_path / "docs")[:2]
    ingestor.ingest_file(keep)
    result = ingestor.ingest_file(gone)
    original = settings.data_dir / "documents" / result.doc_id / gone.name
    assert original.read_bytes() == gone.read_bytes()
    ingestor.delete(result.doc_id)
    assert index.get_chunks(result.doc_id) == [] and not original.exists()
    assert [d.source for d in store.list_documents()] == [keep.name]
    with pytest.raises(NotFoundError):
        ingestor.delete(result.doc_id)
    # Deleting it made room again: the same text is no longer a duplicate of anything.
    assert ingestor.ingest_file(gone).chunks_added == result.chunks_added


def test_reindex_uses_the_kept_original_and_current_settings(
    settings: Settings, ingestor: Ingestor, index: ChunkIndex, store: Store
) -> None:
    text = " ".join(f"Clause {i} sets a limit of {i * 10} euros for item {i}." for i in range(60))
    uploaded = ingestor.ingest_bytes("limits.txt", text.encode())
    assert uploaded.status == "added" and not any((settings.data_dir / "uploads").iterdir())
    smaller = Ingestor(settings.replace(chunk_size=300, chunk_overlap=50), index, store)
    redone = smaller.reindex(uploaded.doc_id)
    assert redone.status == "replaced" and redone.chunks_added > uploaded.chunks_added
    assert len(index.get_chunks(uploaded.doc_id)) == redone.chunks_added
    with pytest.raises(NotFoundError):
        smaller.reindex("no-such-doc")


def test_reindex_without_the_original_fails_cleanly(ingestor: Ingestor, settings: Settings) -> None:
    result = ingestor.ingest_bytes("memo.txt", b"The office closes at 18:00 on Fridays.")
    (settings.data_dir / "documents" / result.doc_id / "memo.txt").unlink()
    redone = ingestor.reindex(result.doc_id)
    assert redone.status == "failed" and "no longer kept" in (redone.error or "")


def test_upload_names_cannot_escape_the_data_folder(
    ingestor: Ingestor, settings: Settings, tmp_path: Path
) -> None:
    result = ingestor.ingest_bytes("../../../evil.txt", b"Harmless text about leave.")
    assert result.ok and result.source == "evil.txt"
    assert (settings.data_dir / "documents" / result.doc_id / "evil.txt").is_file()
    assert not (tmp_path / "evil.txt").exists() and not (settings.data_dir.parent / "evil.txt").exists()
    assert safe_filename("C:\\Users\\me\\report.md") == "report.md"
    assert ingestor.ingest_bytes("..", b"x").status == "failed"


def test_near_duplicates_of_other_documents_are_dropped_and_counted(
    tmp_path: Path, ingestor: Ingestor, index: ChunkIndex, store: Store
) -> None:
    original = tmp_path / "expenses.txt"
    original.write_text(PARAGRAPH)
    copy = tmp_path / "expenses_copy.md"
    filler = "\n\n".join(f"Filler rule {i} about meals." for i in range(80))
    copy.write_text(f"# Copy\n\n{PARAGRAPH}\n\n{filler}")
    assert ingestor.ingest_file(original).chunks_added == 1
    result = ingestor.ingest_file(copy)
    assert result.duplicates_dropped == 0  # its one chunk holding the paragraph also holds more text
    exact = tmp_path / "expenses_again.txt"
    exact.write_text(PARAGRAPH.replace("travel desk", "travel team"))  # as long as the indexed one
    dup = ingestor.ingest_file(exact)
    assert (dup.status, dup.chunks_added, dup.duplicates_dropped) == ("duplicate", 0, 1)
    assert store.get_document(dup.doc_id).duplicates_dropped == 1
    assert index.get_chunks(dup.doc_id) == []


POLICY_SECTIONS = [
    "1. Bookings\nBookings are made online or by phone at least 24 hours before the visit.\n"
    "Commercial contracts require a deposit of 20% of the first month's fee.\n"
    "Our cleaners arrive within a one-hour window agreed at booking.",
    "2. Workmanship guarantee\nEvery clean carries a workmanship guarantee of 30 days from the visit.\n"
    "If any area does not meet our checklist, we return and clean it again at no charge.\n"
    "The guarantee does not cover damage caused by pets or building works after the visit.",
    "3. Cancellations and refunds\nA booking can be cancelled free of charge up to 48 hours before.\n"
    "Cancellations made later than that are charged at half the price of the booked service.\n"
    "Refunds are paid to the original card within 10 working days of the request.\n"
    "Refunds above 200 GBP must be approved by the Operations Director.",
    "4. Staff and safety\nAll cleaners are vetted, insured and trained in the safe use of chemicals.\n"
    "Cleaners do not move furniture heavier than 20 kg or work at heights above 2 metres.\n"
    "Customers must tell us about any pets, alarms or hazards when they book.",
]


def test_a_text_copy_of_one_pdf_section_is_dropped_and_names_the_pdf(
    tmp_path: Path, ingestor: Ingestor, index: ChunkIndex, store: Store
) -> None:
    # One page of four sections: the PDF's chunks each hold much more than the copied section (its
    # similarity to any of them is low) and the section may straddle two chunks.
    pdf = make_pdf(tmp_path / "policy.pdf", ["\n".join(POLICY_SECTIONS)])
    assert ingestor.ingest_file(pdf).chunks_added >= 2
    copy = tmp_path / "refunds.txt"
    copy.write_text(POLICY_SECTIONS[2].replace("\n", " ") + "\n", encoding="utf-8")
    result = ingestor.ingest_file(copy)
    assert (result.status, result.chunks_added, result.duplicates_dropped) == ("duplicate", 0, 1)
    assert result.already_in == {"policy.pdf": 1}
    assert result.copies_note == "1 passage already in policy.pdf"
    assert index.get_chunks(result.doc_id) == []
    assert store.get_document(result.doc_id).duplicates_dropped == 1
    # Text that only shares some sentences with the policy is not a copy of it.
    mixed = tmp_path / "notes.txt"
    mixed.write_text(
        POLICY_SECTIONS[2].split("\n")[1] + " " + PARAGRAPH + " Our vans are serviced every spring.",
        encoding="utf-8",
    )
    kept = ingestor.ingest_file(mixed)
    assert (kept.chunks_added, kept.duplicates_dropped, kept.already_in) == (1, 0, {})


def test_duplicates_within_one_document_are_dropped(
    settings: Settings, index: ChunkIndex, store: Store
) -> None:
    ingestor = Ingestor(settings.replace(chunk_size=200, chunk_overlap=0), index, store)
    text = "\n\n".join([PARAGRAPH, "The travel desk answers in a day.", PARAGRAPH, "Meals cost 45 euros."])
    result = ingestor.ingest_bytes("repeated.txt", text.encode())
    assert (result.chunks_added, result.duplicates_dropped) == (3, 1)
    assert [c.text for c in index.get_chunks(result.doc_id)].count(PARAGRAPH) == 1


def test_script_text_never_reaches_the_index(ingestor: Ingestor, index: ChunkIndex) -> None:
    html = b"<html><body><p>Visible policy text.</p><script>exfiltrate('secret')</script></body></html>"
    result = ingestor.ingest_bytes("page.html", html)
    texts = " ".join(c.text for c in index.all_chunks())
    assert result.ok and "Visible policy text." in texts and "exfiltrate" not in texts


def _bad_files(folder: Path) -> dict[str, str]:
    """File name -> a phrase its error message must contain."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "corrupt.pdf").write_bytes(b"%PDF-1.4\nthis is not a pdf at all")
    make_pdf(folder / "locked.pdf", ["Salaries."], password="s3cret")
    (folder / "empty.txt").write_bytes(b"")
    (folder / "garbage.txt").write_bytes(bytes(range(256)) * 8)
    (folder / "big.txt").write_bytes(b"a" * 2_000_001)
    (folder / "slides.pptx").write_bytes(b"PK\x03\x04")
    (folder / "broken.docx").write_bytes(b"not a zip")
    return {
        "corrupt.pdf": "corrupt",
        "locked.pdf": "password",
        "empty.txt": "empty",
        "garbage.txt": "binary",
        "big.txt": "limit",
        "slides.pptx": "unsupported",
        "broken.docx": "corrupt",
    }


def test_one_bad_file_among_good_ones_the_good_ones_are_indexed(
    tmp_path: Path, settings: Settings, index: ChunkIndex, store: Store
) -> None:
    ingestor = Ingestor(settings.replace(max_file_mb=2.0), index, store)
    good = write_handbook(tmp_path / "good")
    (tmp_path / "good" / "cp1252.txt").write_bytes("Caf\xe9 allowance: 12 \u20ac per day.".encode("cp1252"))
    (tmp_path / "good" / "utf16.txt").write_bytes("Gr\xfc\xdfe: the office opens at 08:00.".encode("utf-16"))
    good += [tmp_path / "good" / "cp1252.txt", tmp_path / "good" / "utf16.txt"]
    bad = _bad_files(tmp_path / "bad")
    paths = [tmp_path / "bad" / name for name in bad]
    mixed = [p for pair in zip(good, paths) for p in pair] + good[len(paths) :]
    results = {r.source: r for r in (ingestor.ingest_file(p) for p in mixed)}
    for name, phrase in bad.items():
        assert results[name].status == "failed" and results[name].chunks_added == 0
        assert name in (results[name].error or "") and phrase in (results[name].error or "").lower()
    for path in good:
        assert results[path.name].status == "added" and results[path.name].ok
    assert {d.source for d in store.list_documents()} == {p.name for p in good}
    assert {c.source for c in index.all_chunks()} == {p.name for p in good}
    euro = [c.text for c in index.all_chunks() if c.source == "cp1252.txt"]
    assert euro == ["Caf\xe9 allowance: 12 \u20ac per day."]


def test_a_data_folder_that_cannot_be_written_fails_the_file_and_changes_nothing(
    settings: Settings, ingestor: Ingestor, index: ChunkIndex, store: Store
) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    (settings.data_dir / "documents").write_text("a file where the folder should be")
    result = ingestor.ingest_bytes("memo.txt", b"The office closes at 18:00 on Fridays.")
    assert result.status == "failed" and (result.error or "").startswith("memo.txt: ")
    assert index.count() == 0 and store.list_documents() == []


def test_an_upload_over_the_limit_is_refused_before_it_is_written(
    settings: Settings, index: ChunkIndex, store: Store
) -> None:
    ingestor = Ingestor(settings.replace(max_file_mb=0.001), index, store)
    result = ingestor.ingest_bytes("large.txt", b"x " * 1000)
    assert result.status == "failed" and "limit" in (result.error or "")
    assert not (settings.data_dir / "uploads").exists() and index.count() == 0


def test_handbook_fixture_has_every_text_format() -> None:
    assert {Path(name).suffix for name in HANDBOOK} == {".md", ".txt", ".html"}


OPENING_HOURS = (
    "The office opens at eight and closes at six on weekdays; visitors sign in at the front desk, "
    "wear a badge at all times and are accompanied by their host."
)


def test_deleting_a_document_gives_back_the_near_copies_other_documents_dropped(
    tmp_path: Path, ingestor: Ingestor, index: ChunkIndex, store: Store, settings: Settings
) -> None:
    original = tmp_path / "expenses.txt"
    original.write_text(PARAGRAPH)
    copy = tmp_path / "expenses_again.txt"
    copy.write_text(PARAGRAPH.replace("travel desk", "travel team"))
    repeats = Ingestor(settings.replace(chunk_size=200, chunk_overlap=0), index, store).ingest_bytes(
        "repeated.txt", "\n\n".join([OPENING_HOURS, "Meals cost 45 euros.", OPENING_HOURS]).encode()
    )
    assert repeats.duplicates_dropped == 1
    kept = ingestor.ingest_file(original)
    dropped = ingestor.ingest_file(copy)
    assert (dropped.chunks_added, dropped.duplicates_dropped) == (0, 1)

    restored = ingestor.delete(kept.doc_id)

    # The copy's text is back; the document whose only copies were of its own chunks is left alone.
    assert [(r.doc_id, r.status, r.chunks_added) for r in restored] == [(dropped.doc_id, "replaced", 1)]
    assert [c.text for c in index.get_chunks(dropped.doc_id)] == [copy.read_text()]
    assert store.get_document(dropped.doc_id).duplicates_dropped == 0
    assert len(index.get_chunks(repeats.doc_id)) == repeats.chunks_added


REFUNDS = (
    "Refunds above 200 GBP must be approved by the Operations Director before they are paid. Refunds "
    "are paid to the original card within 10 working days of the request being made by the customer."
)
EQUIPMENT = " ".join(
    f"Rule {i}: cleaners bring their own equipment number {i} to every visit." for i in range(6)
)


def test_deduplication_follows_a_delete_and_the_documents_return(
    tmp_path: Path, index: ChunkIndex, store: Store, settings: Settings
) -> None:
    # Issue 46, item 8: delete a document another file copies in part, upload it again, and both copies
    # stayed indexed (answers cited the copy). Now the index holds what it held before the delete.
    ingestor = Ingestor(settings.replace(chunk_size=400, chunk_overlap=0), index, store)
    policy = tmp_path / "policy.txt"
    policy.write_text(f"{REFUNDS}\n\n{EQUIPMENT}")
    faq = tmp_path / "faq.txt"
    faq.write_text(f"Questions customers ask about the service.\n\n{REFUNDS}")
    original = ingestor.ingest_file(policy)
    copy = ingestor.ingest_file(faq)
    assert (copy.status, copy.chunks_added) == ("duplicate", 0)
    before = sorted(c.text for c in index.all_chunks())

    assert [(r.doc_id, r.chunks_added) for r in ingestor.delete(original.doc_id)] == [(copy.doc_id, 1)]
    assert ingestor.ingest_file(policy).status == "added"

    assert sorted(c.text for c in index.all_chunks()) == before
    assert store.get_document(copy.doc_id).duplicates_dropped == 1
    hits = HybridRetriever(index, store, settings).retrieve("Who approves refunds above 200 GBP?")
    assert {hit.chunk.source for hit in hits} == {"policy.txt"}
    # And the other way round: the copy first, then the document it copies.
    assert [r.doc_id for r in ingestor.delete(original.doc_id)] == [copy.doc_id]
    assert ingestor.ingest_file(policy).status == "added"
    assert sorted(c.text for c in index.all_chunks()) == before


class CountingEmbedder(MiniLMEmbedder):
    """The real embedder, keeping each text it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.embedded: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.embedded.extend(texts)
        return super().embed(texts)


def test_a_document_filtered_anew_keeps_the_vectors_of_its_texts(
    tmp_path: Path, store: Store, settings: Settings
) -> None:
    # A later document holds a longer near-copy of the first one's opening hours: the first is filtered
    # anew without its copy, and its other text keeps the vectors it had (nothing is embedded twice).
    settings = settings.replace(chunk_size=200, chunk_overlap=0)
    embedder = CountingEmbedder()
    index = ChunkIndex(settings, embedder)
    ingestor = Ingestor(settings, index, store)
    meals = "Meals cost 45 euros a day in every city, and taxis are paid only after ten at night."
    first = ingestor.ingest_bytes("first.txt", f"{OPENING_HOURS}\n\n{meals}".encode())
    assert [c.text for c in index.get_chunks(first.doc_id)] == [OPENING_HOURS, meals]
    before = _stored_sentence_vectors(index, store, first.doc_id, meals)
    later = ingestor.ingest_bytes("later.txt", f"{OPENING_HOURS} Visitors leave by six.".encode())

    assert later.chunks_added == 1
    assert [c.text for c in index.get_chunks(first.doc_id)] == [meals]
    assert embedder.embedded.count(meals) == 1
    assert _stored_sentence_vectors(index, store, first.doc_id, meals) == before


def _stored_sentence_vectors(index: ChunkIndex, store: Store, doc_id: str, text: str) -> bytes:
    chunk = next(c for c in index.get_chunks(doc_id) if c.text == text)
    return store.sentence_vectors([chunk.chunk_id])[chunk.chunk_id]
