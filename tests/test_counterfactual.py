"""Values and names checked by a counterfactual the judge confirms (rrag/verify/counterfactual.py)."""

import numpy as np

from rrag.settings import Settings
from rrag.text import content_words
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk
from rrag.verify.counterfactual import confirm, swaps, written_alike
from rrag.verify.registry import VERIFIERS


def test_a_value_the_sentence_gives_otherwise_is_swapped_for_each_of_its_values_of_that_measure():
    found = swaps("Set your oven to 400°F and bake for 25 minutes.", "Bake at 350°F for 25 minutes.")
    assert [(s.said, s.instead) for s in found] == [("400°F", "350°F")]
    assert found[0].applied("Set your oven to 400°F and bake for 25 minutes.") == (
        "Set your oven to 350°F and bake for 25 minutes."
    )


def test_a_value_between_two_of_the_sentences_values_is_swapped_for_the_one_of_its_rate():
    sentence = "For Small, the weekly price is £19 and the monthly price is £76."
    assert [s.instead for s in swaps("A Small unit costs £32 a week.", sentence)] == ["£19"]
    # within a range the sentence gives, the value is no other value
    assert swaps("The crossing takes 30 minutes.", "The crossing takes 20 to 40 minutes.") == []


def test_a_value_the_claim_states_of_another_thing_is_not_put_in_its_place():
    # the checklist's paraphrase split said "the documents say '€10,000'" for the bonus
    claim = "A bonus of five hundred euros goes to anyone who pays in ten thousand euros before March."
    sentence = "Savers who deposit €10,000 before March receive a €50 bonus."
    assert [(s.said, s.instead) for s in swaps(claim, sentence)] == [("five hundred euros", "€50")]


def test_the_same_amount_at_another_rate_is_put_at_the_sentences_rate():
    sentence = "For Goods cover, per £1,000 of value, the price is £1.50 a week."
    found = swaps("Goods cover costs £1.50 a month for each £1,000 of value.", sentence)
    assert [(s.said, s.instead) for s in found] == [("£1.50 a month", "£1.50 a week")]
    assert swaps("Goods cover costs £1.50 a week for each £1,000 of value.", sentence) == []


def test_a_value_said_in_words_is_the_same_value():
    assert swaps("The parcel weighs six and a half kilograms.", "The parcel weighs 6.5 kg.") == []
    assert swaps("The warranty lasts one year.", "The warranty lasts 12 months.") == []


def test_a_name_the_sentence_does_not_write_is_swapped_for_its_names():
    found = swaps("The head office moved to Leeds in 2015.", "The head office moved to Manchester in 2015.")
    assert [(s.said, s.instead, s.is_value) for s in found] == [("Leeds", "Manchester", False)]


def test_a_name_the_documents_write_elsewhere_is_no_wrong_name():
    claim, sentence = "Ultra is an album from Depeche Mode.", "Ultra (UK CD album booklet)."
    assert [s.instead for s in swaps(claim, sentence)] == ["UK CD"]
    assert swaps(claim, sentence, written=frozenset(content_words("Depeche Mode released Ultra."))) == []


def test_a_rank_is_no_amount_to_put_in_its_place():
    sentence = "In 2011 Ireland had about 6.6 million people, the second-most populous island."
    assert swaps("It is the 2nd most populous island.", sentence) == []
    assert [s.instead for s in swaps("It is on the 3rd floor.", "It is on the 4th floor.")] == ["4th floor"]
    # "thousand" ends as "2nd" does, and is no rank
    assert [s.instead for s in swaps("Pay in six thousand euros.", "Pay in €5,000.")] == ["€5,000"]


def test_a_value_the_sentence_states_is_written_as_the_sentence_writes_it():
    assert written_alike("On the scales it comes to 8,500 grams.", "The mixer weighs 8.5 kg.") == (
        "On the scales it comes to 8.5 kg."
    )
    assert written_alike(
        "Pay in five thousand euros for a bonus of one hundred and fifty euros.",
        "Savers who deposit €5,000 receive a €150 bonus.",
    ) == ("Pay in €5,000 for a bonus of €150.")
    assert written_alike(
        "The dough rises for ninety minutes.", "Leave it to rise for one and a half hours."
    ) == ("The dough rises for one and a half hours.")
    assert written_alike("The station is one and a quarter kilometres away.", "It is 1.25 km away.") == (
        "The station is 1.25 km away."
    )
    # one temperature in the other scale, as precise as the claim writes it
    assert written_alike("Heat the oven to about 218 degrees Celsius.", "Bake at 425°F.") == (
        "Heat the oven to about 425°F."
    )
    assert written_alike("A fever is 100.4 degrees Fahrenheit or more.", "A fever is 38°C or higher.") == (
        "A fever is 38°C or more."
    )
    # the same day of the same month
    assert written_alike("May 2, 2025 is the first day.", "The lease begins on 2 May 2025.") == (
        "2 May, 2025 is the first day."
    )
    assert written_alike("It starts on the thirteenth of February.", "It begins on 13 February.") == (
        "It starts on the 13 February."
    )
    # a range's ends as the sentence writes them, the claim's words between them kept; a range it does
    # not state, and years, as the claim says them
    assert written_alike("The museum is open from 10am to 5:30pm on Sundays.", "Sunday: 10:00 to 17:30.") == (
        "The museum is open from 10:00 to 17:30 on Sundays."
    )
    assert written_alike("It is open between 10am and 5:30pm on Sundays.", "Sunday: 10:00 to 17:30.") == (
        "It is open between 10:00 and 17:30 on Sundays."
    )
    assert (
        written_alike("It is open from 9am to 5pm.", "Sunday: 10:00 to 17:30.")
        == "It is open from 9am to 5pm."
    )
    assert written_alike("The war lasted from 1939 to 1945.", "The war ran 1939-1945.") == (
        "The war lasted from 1939 to 1945."
    )
    # a bare number takes the sentence's number, not its unit
    assert written_alike(
        "Nobody under twenty-five can rent a van.", "You must be at least 25 years old."
    ) == ("Nobody under 25 can rent a van.")
    assert written_alike("Team Falcon sits in room twelve.", "Team Falcon sits in room 12.") == (
        "Team Falcon sits in room 12."
    )


def test_a_value_the_sentence_does_not_state_stays_as_the_claim_says_it():
    for claim, sentence in [
        ("On the scales it comes to 850 grams.", "The mixer weighs 8.5 kg."),  # another amount
        ("12 March is the last day of the offer.", "The offer ends on 12 April."),  # a date's day alone
        (
            "Membership costs £120 a year.",
            "Membership costs £10 per month.",
        ),  # the same rate, per another time
        ("It takes three to five days.", "It takes 3 days, or 5 at most."),  # an end of a range
        ("The tour lasts two hours.", "The tour costs $2."),  # another measure
        ("Bake it at 180°C.", "Bake it at 350°F."),  # 176.7 °C: a conversion rounded past its digits
        ("A fever is 100.4°F or more.", "A fever is 37.5°C or higher."),  # 38 °C
    ]:
        assert written_alike(claim, sentence) == claim


def _judge(entailed: dict[str, float]):
    """The judge's probabilities as given per claim text (entailment, then the rest as neutral)."""

    def judge(pairs):
        return np.array([[entailed.get(claim, 0.1), 1 - entailed.get(claim, 0.1), 0.0] for _, claim in pairs])

    return judge


def test_confirmed_only_where_the_swap_follows_and_the_claim_does_not_by_a_margin():
    claim, evidence = "Breakfast is served from 8:00.", "Breakfast is served from 7:00."
    swapped = "Breakfast is served from 7:00."
    assert confirm(_judge({swapped: 0.9, claim: 0.1}), claim, evidence).swap.instead == "7:00"
    assert confirm(_judge({swapped: 0.9, claim: 0.7}), claim, evidence) is None  # the claim follows too
    assert confirm(_judge({swapped: 0.55, claim: 0.45}), claim, evidence) is None  # no margin
    assert confirm(_judge({swapped: 0.3, claim: 0.1}), claim, evidence) is None  # nothing follows


def test_no_swap_is_confirmed_where_another_sentence_of_the_window_says_the_claim():
    window = "A day pass costs 16 dollars for adults. Students pay 12 dollars."
    claim = "Students pay twelve dollars."
    # read with the second sentence, the claim is written as it writes its value, and follows
    judge = _judge({"Students pay 16 dollars.": 0.9, "Students pay 12 dollars.": 0.8})
    assert confirm(judge, claim, window) is None
    assert confirm(_judge({"Students pay 16 dollars.": 0.9}), claim, window).swap.instead == "16 dollars"


def test_a_value_goes_before_a_name_that_would_only_say_whom_it_is_of():
    window = "Team Falcon sits in room 12. Team Heron sits in room 40."
    claim = "Team Falcon sits in room 40."
    judge = _judge({"Team Falcon sits in room 12.": 0.8, "Team Heron sits in room 40.": 0.95})
    found = confirm(judge, claim, window)
    assert (found.swap.said, found.swap.instead) == ("room 40", "room 12")
    assert found.reason == "the documents say 'room 12' where the claim says 'room 40'"


def _verify(claim: str, *texts: str):
    contexts = [
        RetrievedChunk(Chunk(f"c{i}", f"d{i}", f"doc{i}.md", t, 0, len(t)), 1.0) for i, t in enumerate(texts)
    ]
    return VERIFIERS.create("nli", Settings()).verify(Claim(claim, 0, len(claim)), contexts)


def test_the_app_stage_says_what_the_documents_say_instead():
    # The value rules find it first (hard evidence since they were measured precise), and the judge's
    # counterfactual would: 0.10 for the claim, 0.80 with the documents' value (the issue's oven
    # temperatures are in tests/test_quoted_pairs.py, short of the margin yet).
    verdict = _verify(
        "Our warranty lasts 24 months from delivery.", "The warranty lasts 12 months from delivery."
    )
    assert verdict.status is ClaimStatus.CONTRADICTED
    assert "'12 months' where the claim says '24 months'" in verdict.reason
    assert (verdict.clash.claim_value, verdict.clash.evidence_value) == ("24 months", "12 months")


def test_a_value_in_other_units_is_supported_and_another_amount_is_not():
    # The judge read "8,500 grams" against "8.5 kg" as not following (P(supported) 0.40 in the
    # checklist's paraphrase split); written alike, 0.82.
    sentence = "The stand mixer weighs 8.5 kg."
    assert (
        _verify("On the scales the stand mixer comes to 8,500 grams.", sentence).status
        is ClaimStatus.SUPPORTED
    )
    assert (
        _verify("On the scales the stand mixer comes to 850 grams.", sentence).status
        is not ClaimStatus.SUPPORTED
    )


def test_the_judge_reads_the_table_row_a_claim_names_not_another_rows_value():
    # Judged against the FAQ's "seven days a week" (the window covering most of its words), "A Small
    # unit costs £32 a week" passed, the Medium row's £32 in the context; read against the Small row,
    # the documents' £19 is put in its place.
    rows = (
        "For Small, the floor area is 25 sq ft, the weekly price is £19 and the monthly price is £76.\n\n"
        "For Medium, the floor area is 50 sq ft, the weekly price is £32 and the monthly price is £128."
    )
    faq = "Every customer can reach their unit from 06:00 to 22:00, seven days a week, with a PIN code."
    wrong = _verify("A Small unit costs £32 a week.", faq, rows)
    assert wrong.status is ClaimStatus.CONTRADICTED
    assert wrong.clash.evidence_value == "£19"
    assert _verify("A Small unit costs £19 a week.", faq, rows).status is ClaimStatus.SUPPORTED


def test_the_same_amount_at_another_rate_is_contradicted():
    # passed HIGH (0.74), the judge itself 0.13 against the sentence, 0.70 at its rate
    sentence = "For Goods cover, per £1,000 of value, the price is £1.50 a week."
    wrong = _verify("Goods cover costs £1.50 a month for each £1,000 of value.", sentence)
    assert wrong.status is ClaimStatus.CONTRADICTED
    assert wrong.clash.evidence_value == "£1.50 a week"
    assert _verify("Goods cover costs £1.50 a week for each £1,000 of value.", sentence).status is (
        ClaimStatus.SUPPORTED
    )


def test_two_teams_rooms_support_each_teams_own_room_and_contradict_the_other():
    texts = (
        "Team Falcon sits in room 12 on the third floor.",
        "Team Heron sits in room 40 on the ground floor.",
    )
    assert _verify("Team Falcon sits in room 12.", *texts).status is ClaimStatus.SUPPORTED
    wrong = _verify("Team Falcon sits in room 40.", *texts)
    assert wrong.status is ClaimStatus.CONTRADICTED
    assert wrong.clash.evidence_value == "room 12"
