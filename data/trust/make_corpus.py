"""Builds the trust corpus: a small multi-format document set for `python -m rrag evaluate`, with the
traits that mislead answer-level checks (docs/question-sets.md). The generated files are
committed, so the app needs neither reportlab nor this script; run it again after editing the text:

    .venv/bin/python -m data.trust.make_corpus
"""

from __future__ import annotations

from pathlib import Path

from data.corpus_documents import write_docx, write_pdf

HERE = Path(__file__).resolve().parent

PRICE_TABLE = [
    ["Service", "Price (GBP)", "Duration"],
    ["Regular clean", "18", "2 hours"],
    ["Deep clean", "25", "4 hours"],
    ["End of tenancy clean", "140", "6 hours"],
    ["Oven clean", "45", "90 minutes"],
    ["Carpet shampoo", "30", "1 hour"],
]

# The policy, one PDF page per entry; lines are drawn as written (reportlab does not wrap).
POLICY_SECTIONS = {
    "cancellation": """3. Cancellations and refunds
A booking can be cancelled free of charge up to 48 hours before the visit.
Cancellations made later than that are charged at half the price of the booked service.
If our team cannot access the property at the agreed time, the full price is charged.
Refunds are paid to the original card within 10 working days of the request.
Refunds above 200 GBP must be approved by the Operations Director.
Complaints about a visit must be raised within 7 days through the customer portal.""",
}
POLICY_PAGES = [
    """Brightwater Home Services - Customer Service Policy
Version 4, effective 1 March 2026

1. Bookings
Bookings are made online or by phone at least 24 hours before the visit.
Commercial contracts require a deposit of 20% of the first month's fee.
Our cleaners arrive within a one-hour window agreed at booking.

2. Workmanship guarantee
Every clean carries a workmanship guarantee of 30 days from the date of the visit.
If any area does not meet our checklist, we return and clean it again at no charge.
The guarantee does not cover damage caused by pets or building works after the visit.""",
    POLICY_SECTIONS["cancellation"],
    """4. Staff and safety
All cleaners are vetted, insured and trained in the safe use of cleaning chemicals.
Cleaners do not move furniture heavier than 20 kg or work at heights above 2 metres.
Customers must tell us about any pets, alarms or hazards when they book.""",
]

FAQ_HTML = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Brightwater FAQ</title></head><body>
<h1>Frequently asked questions</h1>
<h2>What if I am not happy with a clean?</h2>
<p>Tell us within the guarantee period. Our workmanship guarantee lasts 60 days from the date of the
visit, and we will come back and clean the area again at no charge.</p>
<h2>Do you sell detergent capsules?</h2>
<p>Yes. Customers on a subscription receive a monthly refill pack of 30 capsules of our
plant-based detergent, delivered on the first working day of each month.</p>
<h2>When is the office open?</h2>
<p>The customer office is open from 8:00 to 18:00 on weekdays and from 9:00 to 13:00 on Saturdays.
It is closed on Sundays and bank holidays.</p>
<h2>Do you bring your own equipment?</h2>
<p>Yes. Our teams bring their own vacuum cleaners, cloths and detergents to every visit.</p>
</body></html>
"""

MANUAL_MD = """# Brightwater team manual

## Washing machine for cloths

Load no more than 4 kg of microfibre cloths per wash cycle.
Use 2 detergent capsules per wash cycle and wash at 60 degrees.
Dry the cloths flat; never tumble dry microfibre.

## Oven cleaning procedure

1. Switch the oven off at the wall and let it cool for at least 30 minutes.
2. Remove the racks and trays and soak them in the degreasing tank.
3. Apply the oven gel to the inside of the door and leave it to work for 20 minutes.
4. Wipe the gel off with a damp cloth and rinse twice with clean water.
5. Refit the racks and run the oven empty at 100 degrees for 15 minutes to remove odours.

## Carpet shampoo procedure

1. Vacuum the carpet thoroughly in two directions.
2. Test the shampoo on a hidden corner and wait 10 minutes for colour changes.
3. Shampoo the carpet in overlapping strips, working towards the door.
4. Leave the windows open; the carpet needs about 6 hours to dry.

## Reporting

Report any breakage to the team leader on the same day, with a photo, in the team app.
"""


def main() -> None:
    write_docx(
        HERE / "price-list.docx",
        "Brightwater price list 2026",
        "All prices are per visit and include VAT. Materials are included.",
        [PRICE_TABLE],
        "Prices for commercial premises are quoted on request.",
    )
    write_pdf(HERE / "customer-policy.pdf", POLICY_PAGES)
    (HERE / "faq.html").write_text(FAQ_HTML, encoding="utf-8")
    (HERE / "team-manual.md").write_text(MANUAL_MD, encoding="utf-8")
    # A verbatim copy of one policy section, as someone pasted it into a text file; its name sorts after
    # the PDF, so that a folder ingest (in name order) indexes the original first.
    (HERE / "refunds-copy.txt").write_text(POLICY_SECTIONS["cancellation"] + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
