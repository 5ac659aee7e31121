"""Builds the leisure corpus: a second multi-format document set of our own, in another domain than
data/trust (a leisure centre: pools, studios, memberships), for `python -m rrag evaluate`. Its
questions catch answers that do not answer the question: unanswerable ones that share the documents'
words (the pools', studios' and memberships' names), and answerable ones whose answer is a fragment,
a place, a time, an amount or a table cell. The generated files are committed, so the app needs
neither reportlab nor this script; run it again after editing the text:

    .venv/bin/python -m data.leisure.make_corpus
"""

from __future__ import annotations

from pathlib import Path

from data.corpus_documents import write_docx, write_pdf

HERE = Path(__file__).resolve().parent

FEES_TABLE = [
    ["Membership", "Monthly fee (GBP)", "Joining fee (GBP)", "Guest passes per month"],
    ["Off-Peak", "24", "15", "0"],
    ["Standard", "36", "15", "2"],
    ["Premium", "52", "none", "4"],
    ["Junior (11-15)", "14", "none", "0"],
]

CLASSES_TABLE = [
    ["Class", "Day", "Start", "Room"],
    ["Spin 45", "Monday", "07:00", "Studio Cedar"],
    ["Yoga Flow", "Monday", "19:30", "Studio Birch"],
    ["Aqua Fit", "Tuesday", "18:30", "Otter Pool"],
    ["Spin 45", "Thursday", "18:00", "Studio Cedar"],
    ["Yoga Flow", "Wednesday", "12:15", "Studio Birch"],
    ["Parent and toddler splash", "Saturday", "09:30", "Minnow Pool"],
]

# The membership terms, one PDF page per entry; lines are drawn as written (reportlab does not wrap).
TERMS_SECTIONS = {
    "bookings": """3. Lane and class bookings
Lanes in the Otter Pool and places in classes are booked in the Larkfield app up to 7 days ahead.
Swimmers must arrive at least 20 minutes before a booked lane session to change and shower.
A booking not cancelled 2 hours before its start counts as a missed session.
Members who miss three sessions in a calendar month cannot book for the next 14 days.
Members may bring a guest to a class only if the guest holds a day pass.""",
}
TERMS_PAGES = [
    """Larkfield Leisure Centre - Membership terms
Issue 7, effective 1 April 2026

1. Memberships
Every membership runs month to month and is paid by direct debit on the 1st of the month.
A membership is cancelled with one calendar month's notice, given in writing at reception.
A membership can be frozen for up to 3 months in any 12 months, for a fee of 5 GBP a month.
Members aged 14 or 15 may use the gym only with a parent or guardian present.
From the age of 16, members may use the gym unsupervised after an induction.""",
    TERMS_SECTIONS["bookings"],
    """4. The centre
The Otter Pool is 25 metres long, with six lanes; the Minnow Pool is the learner pool.
The centre is run by its manager, Priya Natarajan, who answers complaints within 10 working days.
Lost property is kept at reception for 30 days and then given to charity.""",
]

FAQ_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Larkfield FAQ</title></head><body>
<h1>Frequently asked questions</h1>
<h2>When is the centre open?</h2>
<p>The centre is open from 06:00 to 22:00 on weekdays and from 08:00 to 18:00 at weekends.
The Minnow Pool closes at 16:00 on Sundays for cleaning.</p>
<h2>Can I pause my membership?</h2>
<p>Yes. You can freeze your membership for up to 2 months in any 12 months, for example for travel
or an injury.</p>
<h2>When do lane bookings close?</h2>
<p>Online lane bookings close 30 minutes before the session starts.</p>
<h2>Where can I leave my bike?</h2>
<p>Bikes can be left in the covered rack beside the main entrance, which is watched by CCTV.</p>
<h2>Do I need a padlock?</h2>
<p>The changing rooms have lockers that take a 1 GBP coin, which is returned when you open the
locker again.</p>
</body></html>
"""

SAFETY_MD = """# Pool safety procedures

## Pool evacuation procedure

1. Sound three long blasts on the whistle and raise both arms.
2. Direct every swimmer to the nearest pool exit and out of the water.
3. Lead swimmers to the fire assembly point on the front lawn, wrapped in foil blankets.
4. Count the swimmers against the booking list and report the count to the duty manager.

## Water quality

The pool water is tested every two hours during opening times.
Chlorine is kept between 1.0 and 1.5 mg per litre in the Otter Pool.

## First aid

The first aid room is next to the Minnow Pool changing rooms, and the defibrillator hangs at
reception.
"""


def main() -> None:
    write_docx(
        HERE / "fees-and-timetable.docx",
        "Larkfield fees and class timetable 2026",
        "Fees are per member. Day passes are sold at reception.",
        [FEES_TABLE, CLASSES_TABLE],
        "Classes last 45 minutes unless their name says otherwise.",
    )
    write_pdf(HERE / "membership-terms.pdf", TERMS_PAGES)
    (HERE / "faq.html").write_text(FAQ_HTML, encoding="utf-8")
    (HERE / "pool-safety.md").write_text(SAFETY_MD, encoding="utf-8")
    # A verbatim copy of one section, as someone pasted it into a text file; its name sorts after the
    # PDF, so that a folder ingest (in name order) indexes the original first.
    (HERE / "terms-bookings-copy.txt").write_text(TERMS_SECTIONS["bookings"] + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
