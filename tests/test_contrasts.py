# ruff: noqa: E501  (tables of sentence pairs: one pair reads best on one line)
"""Contradictions beyond values and negation (issue 23): opposite words, modality, quantifiers, swapped
names, roles and ordinals, values given to another qualifier, prices read from table rows. The rules
read each one and quote both sides; each has a faithful control of the same sentence, and a shape of
real sentence seen on the dev data that it must not fire on (written here, not copied). These tables
are the rules' regression data.

Whether a contradiction stands against the model is measured, not declared: a kind overrules a yes
only where its rules were measured precise on text the team did not write (issue 43 item 3,
precision.json); the others explain a model's no. So the rules' reading is asserted under a model that
rejects every claim (`Rejects`), and the policy under one that accepts every claim (`SureYes`).
"""

from __future__ import annotations

import pytest

from rrag.text import quantities, stem
from rrag.types import Chunk, Claim, ClaimStatus, RetrievedChunk, Verdict
from rrag.verify.base import Verifier
from rrag.verify.guarded import GuardedVerifier
from rrag.verify.lexical import LexicalVerifier
from rrag.verify.quote import QuoteVerifier
from rrag.verify.rules import HARD_EVIDENCE, RULES
from rrag.verify.rules.contrasts import ROLE
from tests.fake_judges import Rejects, SureYes


def contexts(*texts: str) -> list[RetrievedChunk]:
    return [
        RetrievedChunk(Chunk(f"c{i}", f"d{i}", f"doc{i}.txt", t, 0, len(t)), 1.0) for i, t in enumerate(texts)
    ]


def guarded(evidence: str, claim: str, *more: str, model: Verifier | None = None) -> Verdict:
    """The guard's verdict over `model` (one that accepts every claim by default)."""
    return GuardedVerifier(model or SureYes()).verify(Claim(claim, 0, len(claim)), contexts(evidence, *more))


def read(evidence: str, claim: str, *more: str) -> tuple[Verdict, str | None]:
    """The rules' verdict alone, and the kind of evidence against the claim it rests on."""
    [found] = LexicalVerifier().assess([Claim(claim, 0, len(claim))], contexts(evidence, *more))
    return found


def kind_of(evidence: str, claim: str) -> str | None:
    return read(evidence, claim)[1]


# (kind, evidence, claim, what the reason quotes of the evidence, and of the claim)
CONTRADICTIONS = [
    ("opposite", "Store the seedlings inside the greenhouse overnight.",
     "Store the seedlings outside the greenhouse overnight.", "inside", "outside"),
    ("opposite", "The maximum stay is 3 nights.", "Stays are for at least 3 nights.", "maximum", "at least"),
    ("opposite", "The rooftop bar is closed on Tuesdays.", "The rooftop bar is open on Tuesdays.", "closed", "open"),
    ("opposite", "Guest wifi is enabled in the lobby.", "Guest wifi is disabled in the lobby.", "enabled", "disabled"),
    # an opposite negated on both sides is still an opposite
    ("opposite", "Cycling is not permitted on the pier.", "Cycling is not prohibited on the pier.", "permitted", "prohibited"),
    ("modality", "Visitors must sign the register at reception.",
     "Visitors do not need to sign the register at reception.", "must", "do not need"),
    ("quantifier", "All guest rooms have a balcony.", "Only some guest rooms have a balcony.", "All", "Only some"),
    ("quantifier", "Only some cabins have a shower.", "There is no cabin without a shower.", "Only some", "no cabin"),
    ("quantifier", "Every trail in the park is open to cyclists.",
     "Only a few trails in the park are open to cyclists.", "Every", "Only a few"),
    ("opposite", "Entry to the gallery is free on the first Sunday of each month.",
     "Entry to the gallery is free every Sunday.", "first Sunday of each month", "every Sunday"),
    ("quantifier", "Half of the respondents agreed with the plan.", "Most respondents agreed with the plan.",
     "Half", "Most"),
    ("entity", "The footbridge was designed by Clara Holm.", "The footbridge was designed by Anton Weiss.",
     "Clara Holm", "Anton Weiss"),
    ("entity", "The lease was signed by Tomas Reyes on behalf of the school board.",
     "Tomas Ruiz signed the lease on behalf of the school board.", "Tomas Reyes", "Tomas Ruiz"),
    ("entity", "The footbridge was designed by Clara Holm.", "Anton Weiss designed the footbridge.",
     "Clara Holm", "Anton Weiss"),
    ("entity", "Refunds over $500 are approved by the Chief Financial Officer.",
     "The Operations Director approves refunds.", "Chief Financial Officer", "Operations Director"),
    # another doer of the same act, though the claim names none, and with an irregular verb
    ("entity", "Refunds above 200 GBP must be approved by the Operations Director.",
     "The staff and safety team must approve a refund above 200 GBP before the request is accepted.",
     "Operations Director", "staff and safety team"),
    ("entity", "Refunds above 200 GBP must be approved by the Operations Director.",
     "Refunds above 200 GBP must be approved by the finance team.", "Operations Director", "finance team"),
    ("entity", "The harbour ballad was written by Ivo Marsh.", "Lena Quist wrote the harbour ballad.",
     "Ivo Marsh", "Lena Quist"),
    ("entity", "The charger only works with the Vela 3 scooter.", "The charger only works with the Vela 5 scooter.",
     "Vela 3", "Vela 5"),
    # a name written in camel case ("iPhone") is a name
    ("entity", "The case only fits the iVolt 3.", "The case only fits the iVolt 5.", "iVolt 3", "iVolt 5"),
    ("role", "The landlord pays the letting agent a monthly fee.",
     "The letting agent pays the landlord a monthly fee.", "landlord pays the letting agent",
     "letting agent pays the landlord"),
    # the same amount on either side of its noun ("a deposit of $2,000", "a $2,000 deposit")
    ("role", "The tenant pays the landlord a deposit of $2,000.",
     "The landlord pays the tenant a $2,000 deposit.", "tenant pays the landlord", "landlord pays the tenant"),
    # the two ends of a way exchanged, one word each
    ("role", "The ferry sails from Dover to Calais.", "The ferry sails from Calais to Dover.", "Dover to Calais",
     "Calais to Dover"),
    ("order", "The bakery is on the third floor.", "The bakery is on the second floor.", "third", "second"),
    # an ordinal of the same noun, the sentence turned round
    ("order", "Ada Brennan was the seventh president of the Royal Botanical Society.",
     "The first president of the Royal Botanical Society was Ada Brennan.", "seventh", "first"),
    ("order", "The survey ran from March 2019 until June 2020.", "The survey ran from June 2019 until June 2020.",
     "March", "June"),
    ("order", "The footbridge opened in spring 2019.", "The footbridge opened in autumn 2019.", "spring", "autumn"),
    ("value", "The ferry costs £12 for adults and £5 for children.", "Children travel on the ferry for £12.",
     "£5", "£12"),
    ("value", "For Window cleaning, the price (GBP) is 40. For Gutter clearing, the price (GBP) is 75.",
     "Window cleaning costs £75.", "40", "£75"),
    ("negation", "The library no longer lends laptops to students.", "The library lends laptops to students.",
     "no longer lends", "lends laptops"),
    # a negation of the same rule in other words ("not allowed" against "permitted")
    # a short claim that denies what the evidence says and little else
    ("negation", "The coat is waterproof.", "The coat is not waterproof.",
     "The coat is waterproof", "is not waterproof"),
    # ... and the evidence gives no more than an amount besides
    ("negation", "The watch is waterproof to 50 metres.", "The watch is not waterproof.",
     "The watch is waterproof to 50 metres", "is not waterproof"),
    # ... or a condition
    ("negation", "Returns are accepted within 30 days of purchase.", "Returns are not accepted.",
     "Returns are accepted within 30 days of purchase", "are not accepted"),
    # a "-free" compound on both sides: its word is the compound's, and only the "not" denies
    ("negation", "The café serves dairy-free desserts.", "The café does not serve dairy-free desserts.",
     "The café serves dairy-free desserts", "does not serve"),
    # a verb denied in its irregular form
    ("negation", "Tap water in the old town is safe to drink.", "Tap water in the old town should not be drunk.",
     "safe to drink", "should not be drunk"),
    ("negation", "Photography is permitted in the main hall.", "Photography is not allowed in the main hall.",
     "permitted", "not allowed"),
    ("negation", "Photography is not allowed in the main hall.", "Photography is permitted in the main hall.",
     "not allowed", "permitted"),
    # the denied word only in other words on the other side (this one raised ValueError)
    ("negation", "Smoking in the inner courtyard is allowed.", "Smoking in the inner courtyard is not permitted.",
     "allowed", "not permitted"),
    ("negation", "A helmet is required on the trail.", "A helmet is not compulsory on the trail.",
     "required", "not compulsory"),
    # ... after a phrase the claim puts first (its comma ends no clause)
    ("negation", "Camping is permitted in the east wing.", "In the east wing, camping is not allowed.",
     "permitted", "not allowed"),
    # "but not X": the clause before gives the negator its verb
    ("negation", "The warranty covers parts but not labour.", "The warranty covers labour.", "but not labour",
     "The warranty covers labour"),
    # a short claim that is the whole clause the evidence denies
    ("negation", "Dogs are welcome, but cats are not allowed.", "Cats are allowed.", "are not allowed",
     "Cats are allowed"),
    ("negation", "The hotel has a pool but no gym.", "The hotel has a gym.", "but no gym", "The hotel has a gym"),
    # ... after a list and a comma: the claim names none of the list
    ("negation", "The printer connects over Wi-Fi and USB, but not Bluetooth.", "The printer connects over Bluetooth.",
     "but not Bluetooth", "The printer connects over Bluetooth"),
    # a word that denies by itself, turned round by a negator ("not prohibited" says it is allowed)
    ("negation", "Smoking is prohibited in the reading room.", "Smoking is not prohibited in the reading room.",
     "prohibited", "not prohibited"),
    ("negation", "Smoking is prohibited in the reading room.", "Smoking is not forbidden in the reading room.",
     "prohibited", "not forbidden"),
    ("negation", "The ladder failed the load test.", "The ladder did not fail the load test.", "failed", "not fail"),
    ("negation", "The service charge is not excluded from the total price.",
     "The service charge is excluded from the total price.", "not excluded", "excluded"),
    # ... where the synonym is a third of what the claim says
    ("negation", "Smoking is allowed in the courtyard.", "Smoking is not permitted in the courtyard.",
     "allowed", "not permitted"),
    ("opposite", "Interest rates were cut by 0.25 percentage points.",
     "Interest rates were raised by 0.25 percentage points.", "cut", "raised"),
    ("opposite", "The soup is served cold.", "The soup is served hot.", "cold", "hot"),
    ("opposite", "The licence permits commercial use.", "The licence prohibits commercial use.", "permits", "prohibits"),
    ("opposite", "The drug reduces blood pressure.", "The drug increases blood pressure.", "reduces", "increases"),
    ("opposite", "Patients over 65 should receive a lower dose.", "Patients over 65 should receive a higher dose.",
     "lower", "higher"),
    # what a thing is made with and without, whatever verb says so
    ("opposite", "The curry is cooked without chilli.", "The curry contains chilli.", "without chilli",
     "contains chilli"),
    ("opposite", "The bread is gluten-free.", "The bread contains gluten.", "gluten-free", "contains gluten"),
    # a bound of a measured value turned round (rrag.text.values)
    ("value", "Store the vaccine below 25 °C.", "Store the vaccine above 25 °C.", "below 25 °C", "above 25 °C"),
    ("opposite", "The deadline was extended by two weeks.", "The deadline was shortened by two weeks.", "extended",
     "shortened"),
    ("opposite", "The water should be changed weekly.", "The water should be changed monthly.", "weekly", "monthly"),
    # a fee waived is not paid
    ("opposite", "The booking fee is waived for students.", "Students must pay the booking fee.", "waived", "pay"),
    ("opposite", "The bill was passed by the Senate in March.", "The bill was rejected by the Senate in March.",
     "passed", "rejected"),
    # an opposite of the same noun, with words of its own between ("fixed interest rate" / "variable rate")
    ("opposite", "The mortgage has a fixed interest rate of 3%.", "A variable rate of 3% applies to the mortgage.",
     "fixed", "variable"),
    # phrases read as the word they mean
    ("opposite", "The 8:15 train to Leeds was on time.", "The 8:15 train to Leeds was delayed.", "on time",
     "delayed"),
    ("opposite", "The course is taught entirely online.", "The course is taught in person.", "online", "in person"),
    ("opposite", "The meeting was postponed.", "The meeting was brought forward.", "postponed", "brought forward"),
    # a name of as many words with another last word
    ("entity", "The contract was signed by Anna Borg.", "The contract was signed by Anna Berg.", "Anna Borg",
     "Anna Berg"),
    ("opposite", "Smoking is banned on all platforms.", "Smoking is allowed on all platforms.", "banned", "allowed"),
    ("opposite", "The subscription renews automatically.", "The subscription renews manually.", "automatically",
     "manually"),
    ("opposite", "Store the medicine in a cool place.", "Store the medicine in a warm place.", "cool", "warm"),
    # how often, in two words: one of a unit each ("every month" is every 1 month), or one word
    ("value", "The subscription renews every month.", "The subscription renews every year.", "every month",
     "every year"),
    ("opposite", "The subscription renews monthly.", "The subscription renews every year.", "monthly", "every year"),
    # a season after "in the"
    ("order", "The report was published in the spring.", "The report was published in the autumn.", "spring",
     "autumn"),
    # a season after "every"; a rank of the same superlative
    ("order", "The river floods every spring.", "The river floods every autumn.", "spring", "autumn"),
    ("order", "The footbridge is made of steel.", "The footbridge is made of wood.", "steel", "wood"),
    ("order", "Recycling goes in the blue bin.", "Recycling goes in the green bin.", "blue", "green"),
    ("opposite", "The water in the lake is too cold for swimming.",
     "The water in the lake is warm enough for swimming.", "cold", "warm"),
    # opposites of WordNet
    ("opposite", "The bridge was widened in 2019.", "The bridge was narrowed in 2019.", "widened", "narrowed"),
    ("opposite", "The home team won the final.", "The home team lost the final.", "won", "lost"),
    ("opposite", "The clinic is staffed by two male nurses.", "The clinic is staffed by two female nurses.",
     "male", "female"),
    ("opposite", "The show starts at 8 pm.", "The show ends at 8 pm.", "starts", "ends"),
    ("opposite", "The kettle weighs 1.2 kg when empty.", "The kettle weighs 1.2 kg when full.", "empty", "full"),
    # a word a prefix denies, either way round, and "non-" of its own
    ("opposite", "The storage room is kept locked at night.", "The storage room is kept unlocked at night.",
     "locked", "unlocked"),
    ("opposite", "The results were inconsistent across the trials.", "The results were consistent across the trials.",
     "inconsistent", "consistent"),
    ("opposite", "The board agreed with the proposal.", "The board disagreed with the proposal.", "agreed", "disagreed"),
    ("opposite", "Day tickets are refundable.", "Day tickets are non-refundable.", "refundable", "non-refundable"),
    ("role", "The bus stops at the station before the hospital.", "The bus stops at the hospital before the station.",
     "station before the hospital", "hospital before the station"),
    ("order", "The Nile is the longest river in Africa.", "The Nile is the second longest river in Africa.",
     "longest", "second longest"),
    # what may be done without doing something says that something is not required
    ("modality", "The glaze must dry for at least an hour.", "The glaze can be fired without drying.",
     "must dry", "can be fired without drying"),
    # a direction, and a direction of the same relation
    ("opposite", "The river flows north into the lake.", "The river flows south into the lake.", "north", "south"),
    ("opposite", "The village lies north of the river.", "The village lies south of the river.", "north", "south"),
    # something else where the evidence says "only"
    ("quantifier", "The drug is approved for adults only.", "The drug is approved for children.", "adults only",
     "children"),
    ("quantifier", "The app supports Android only.", "The app supports iPhone and Android.", "Android only",
     "iPhone"),
    ("quantifier", "Only cash is accepted at the kiosk.", "Cards are accepted at the kiosk.", "Only cash", "Cards"),
    ("quantifier", "All staff received the bonus.", "Only managers received the bonus.", "All staff",
     "Only managers"),
    # "all" of what the evidence states of some
    ("quantifier", "Shipping is free on orders over £50.", "Shipping is free on all orders.", "orders over £50",
     "all orders"),
    ("quantifier", "Bags over 7 kg must be checked in.", "All bags must be checked in.", "Bags over 7 kg",
     "All bags"),
    ("quantifier", "Shipping is free on international orders.", "Shipping is free on all orders.",
     "international orders", "all orders"),
    ("quantifier", "Loans of 30 days or longer carry a fee.", "All loans carry a fee.", "Loans of 30 days or longer",
     "All loans"),
    ("opposite", "Late fees are waived for the first offence.", "Late fees apply from the first offence.", "waived",
     "apply"),
    ("opposite", "The warranty is void if the seal is broken.", "The warranty remains valid if the seal is broken.",
     "void", "valid"),
    # free, and a price
    ("opposite", "Parking is free after 6 pm.", "Parking costs £2 after 6 pm.", "free", "£2"),
    ("opposite", "Entry costs £5.", "Entry costs nothing.", "£5", "costs nothing"),
    # a vote for or against, and who was defeated
    ("opposite", "Most of the staff voted against the proposal.", "Most of the staff voted for the proposal.",
     "voted against", "voted for"),
    ("opposite", "Napoleon was defeated at Waterloo in 1815.", "Napoleon won the battle of Waterloo in 1815.",
     "was defeated", "won"),
    ("opposite", "The patient's breathing improved after the first dose.",
     "The patient's breathing worsened after the first dose.", "improved", "worsened"),
    ("opposite", "Payment is due before delivery.", "Payment is due after delivery.", "before", "after"),
    # "every hour" is every 1 hour; a value opening its sentence before a comma is of the clause after it
    ("value", "The shuttle to the airport leaves every 20 minutes.", "The shuttle to the airport leaves every hour.",
     "20 minutes", "hour"),
    ("value", "The backup job runs every 4 hours.", "Every 6 hours, the backup job runs.", "4 hours", "6 hours"),
    ("value", "The museum opened in May 1990.", "In May 1995, the museum opened.", "1990", "1995"),
    ("value", "The call came in at 9:36.", "The call came in at 10:36 PM.", "9:36", "10:36 PM"),
    ("value", "The shop opens at 09:00.", "The shop opens at 9 pm.", "09:00", "9 pm"),
    ("value", "The band released its first album in 2007.", "The band released its first album before 2005.",
     "2007", "2005"),
    ("value", "Do not take more than 4 tablets a day.", "You can take 6 tablets a day.", "4 tablets", "6 tablets"),
    # a claim that says the evidence's denied word, or a kind of it, in WordNet's words
    ("negation", "The hotel does not accept pets.", "The hotel welcomes pets.", "does not accept pets", "welcomes"),
    ("negation", "The restaurant does not serve meat.", "The restaurant serves beef.", "does not serve meat", "beef"),
    ("negation", "The landlord does not permit smoking.", "The landlord allows smoking.", "does not permit", "allows"),
    # free against paid for, with or without a price
    ("opposite", "The hotel offers free parking for guests.", "The hotel charges guests for parking.", "free", "charges"),
    ("opposite", "Parking is free for members.", "Parking is charged at £6 for members.", "free", "£6"),
]  # fmt: skip


@pytest.mark.parametrize(("kind", "evidence", "claim", "theirs", "ours"), CONTRADICTIONS)
def test_the_rules_read_the_contradiction_and_quote_both_sides(
    kind: str, evidence: str, claim: str, theirs: str, ours: str
) -> None:
    assert RULES.policy(kind).hard  # declared hard evidence; it stands against a model only if trusted
    assert kind_of(evidence, claim) == kind
    verdict = guarded(evidence, claim, model=Rejects())  # the rules' contradiction explains the no
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.verifier == "lexical", verdict.reason
    assert theirs in verdict.reason and ours in verdict.reason, verdict.reason


ROLE_SWAPS = [row for row in CONTRADICTIONS if row[0] == ROLE]


@pytest.mark.parametrize(("kind", "evidence", "claim", "theirs", "ours"), ROLE_SWAPS)
def test_a_role_swap_measured_precise_contradicts_even_a_sure_yes(
    kind: str, evidence: str, claim: str, theirs: str, ours: str
) -> None:
    assert kind in HARD_EVIDENCE  # 94 fires at 100 % on text the team did not write (precision.json)
    model = SureYes()
    verdict = guarded(evidence, claim, model=model)
    assert verdict.status is ClaimStatus.CONTRADICTED and verdict.verifier == "lexical", verdict.reason
    assert theirs in verdict.reason and ours in verdict.reason, verdict.reason
    assert model.asked == []  # decided before the model is asked


def test_a_contradiction_of_a_kind_not_measured_precise_leaves_a_sure_yes_to_the_model() -> None:
    """Below 97 % precision, or fewer than 20 fires, on text the team did not write (precision.json):
    the rules' contradiction gives no verdict against the model's yes."""
    for kind, evidence, claim, *_ in CONTRADICTIONS:
        if kind not in HARD_EVIDENCE:
            assert guarded(evidence, claim).verifier == "sure-yes", (kind, claim)


# The same sentences said faithfully: the rules read nothing against them.
FAITHFUL = [
    ("Store the seedlings inside the greenhouse overnight.", "Overnight, store the seedlings inside the greenhouse."),
    ("Remove the filter before rinsing the jug.", "Prior to rinsing the jug, remove the filter."),
    ("Visitors must sign the register at reception.", "Visitors have to sign the register at reception."),
    ("Members can use the sauna without booking.", "Members do not need to book the sauna."),
    ("Half of the respondents agreed with the plan.", "Half the respondents agreed with the plan."),
    ("The farmers' market is held every Saturday.", "The farmers' market is held on Saturdays."),
    ("The bus stops at the station before the hospital.", "Before the hospital, the bus stops at the station."),
    ("None of the guest rooms have a balcony.", "No guest room has a balcony."),
    ("The footbridge was designed by Clara Holm.", "Clara Holm designed the footbridge."),
    ("The footbridge is made of steel and glass.", "The footbridge is made of glass and steel."),
    ("The lease was signed by Tomas Reyes on behalf of the school board.",
     "Tomas Reyes signed the lease on behalf of the school board."),
    ("Refunds over $500 are approved by the Chief Financial Officer.",
     "The Chief Financial Officer approves refunds over $500."),
    ("The landlord pays the letting agent a monthly fee.", "The letting agent is paid a monthly fee by the landlord."),
    ("Refunds above 200 GBP must be approved by the Operations Director.",
     "The Operations Director must approve refunds above 200 GBP."),
    ("Refunds above 200 GBP must be approved by the Operations Director.", "Refunds above 200 GBP need approval."),
    ("The bakery is on the third floor.", "You will find the bakery on the third floor."),
    ("Ada Brennan was the seventh president of the Royal Botanical Society.",
     "The seventh president of the Royal Botanical Society was Ada Brennan."),
    ("The ferry costs £12 for adults and £5 for children.", "Adults pay £12 for the ferry."),
    ("For Window cleaning, the price (GBP) is 40. For Gutter clearing, the price (GBP) is 75.",
     "Window cleaning costs £40."),
    ("The library no longer lends laptops to students.", "The library has stopped lending laptops to students."),
    ("The ladder is not suitable for outdoor use.", "The ladder is unsuitable for outdoor use."),
    ("The water from this tap is undrinkable.", "The water from this tap is not drinkable."),
    ("The home team won the final.", "The final was won by the home team."),
    ("The warranty does not cover water damage.", "The warranty excludes water damage."),
    ("The tour lasts 90 minutes.", "The tour lasts between 60 and 120 minutes."),
    ("Heat the grill to 200°C.", "Heat the grill to 200 degrees Celsius."),
    ("For the Lite plan the increase is £1.50 a month.", "The Lite plan goes up by one pound fifty a month."),
    # an opposite word negated on one side says the same ("not permitted" is "prohibited")
    ("Cycling is prohibited on the pier.", "Cycling is not permitted on the pier."),
    # a rule's "not" contracted onto its verb
    ("Children are not allowed to use the rotavator.", "Children aren't allowed to use the rotavator."),
    ("Dogs are not permitted to enter the play area.", "Dogs aren't permitted to enter the play area."),
    ("Visitors are not required to book the sauna.", "Visitors aren't required to book the sauna."),
    ("The service fee is excluded from the price.", "The service fee is not included in the price."),
    ("The rooftop bar is closed on Tuesdays.", "The rooftop bar is not open on Tuesdays."),
    # opening hours said from the other end
    ("The rooftop bar is open until 11 pm.", "The rooftop bar closes at 11 pm."),
    ("The rooftop bar is open from 5 pm to 11 pm.", "The rooftop bar is closed from 11 pm to 5 pm."),
    # a relation turned round with its arguments
    ("The village lies north of the river.", "The river lies south of the village."),
    # ... and the order of two events, where "after that" orders what was said before it
    ("Members may keep a laptop for 3 days; after that a late fee is charged.",
     "Members may keep a laptop for 3 days before a late fee is charged."),
    ("The first hour of parking is free; after that a charge of £2 applies.",
     "There is a free hour of parking before a charge of £2 applies."),
    # "every" of a thing restricted as the evidence restricts it
    ("Loans of 30 days or longer carry a fee.", "Every loan of 30 days or longer carries a fee."),
    # what one party keeps, the other loses
    ("If a tenant leaves before the end of the lease, the deposit is kept.",
     "A tenant who leaves before the end of the lease loses the deposit."),
    ("Only cash is accepted at the kiosk.", "Cash is accepted at the kiosk."),
    # "costs nothing" says free: no "not" of what follows it
    ("Delivery is free on orders above £35.", "Delivery costs nothing on orders above £35."),
    # a negation that is one of two choices denies nothing
    ("Children imagine events with little or no support from the real world.",
     "Children imagine events without support from the real world."),
    # a negation said in the passive, with an irregular participle; a relation and its converse
    ("The shop does not sell alcohol.", "Alcohol is not sold in the shop."),
    ("The library does not lend laptops.", "Laptops cannot be borrowed from the library."),
    # "every day" with no number written is said "daily" too; after an amount it is what a rate is per
    ("The backups run daily.", "The backups run every day."),
    ("Staff get 10 days of study leave per year.", "Staff get 10 days of study leave every year."),
    ("The shuttle to the airport leaves every hour.", "Every hour, a shuttle leaves for the airport."),
    ("Parking is free for members.", "Members do not pay for parking."),
    # a "no" and a "without" cancel out: every room has one
    ("Every guest room has a kettle.", "There is no guest room without a kettle."),
    ("Visitors need a badge to enter the laboratory.", "No visitor may enter the laboratory without a badge."),
]  # fmt: skip


@pytest.mark.parametrize(("evidence", "claim"), FAITHFUL)
def test_the_rules_read_nothing_against_a_faithful_control(evidence: str, claim: str) -> None:
    verdict, kind = read(evidence, claim)
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason
    assert kind is None or not RULES.policy(kind).hard, (kind, verdict.reason)
    assert guarded(evidence, claim).verifier == "sure-yes", verdict.reason  # nor a measured-precise kind


# Shapes of dev sentences each detector first fired on while they were supported: written anew.
NOT_AGAINST = [
    # opposite: "before" and "after" of different events, the sentence reordered around them
    ("The juice is filtered after the pulp is pressed by the machine.",
     "The machine presses the pulp before the juice is filtered."),
    # modality: "must" and "may not" of the same verb in two different statements
    ("Guests may not park on the lawn.", "Guests must park on the gravel drive by the gate."),
    # quantifier: an idiom quantifies nothing ("above all" / "most of all")
    ("Most of all, keep the instructions simple.", "Above all, keep the instructions simple."),
    # ... nor does "all" after "half of"
    ("Nearly half of all voters back the plan.", "About half of all voters back the plan."),
    # order: a sentence of two ordinals of one noun, one of them the claim's
    ("The first president was Ada Brennan and the seventh president was Tom Ely.",
     "The first president was Ada Brennan."),
    # entity: a name written short ("US" for "United States"), and a name said elsewhere in the text
    ("The United States has 63 national parks.", "The US has 63 national parks."),
    ("The Kessel 2 pump was tested in Oslo.", "The Kessel 2 pump was tested in Norway."),
    # role: the same two parties joined by "and" ("between A and B" is no role)
    ("The final was played between Leeds and Hull.", "The final was played between Hull and Leeds."),
    # "but not X" says nothing against the clause before; "but no X" with a verb of its own neither
    ("The plan covers flights but not hotels.", "The plan covers flights."),
    ("The printer connects over Wi-Fi and USB, but not Bluetooth.", "The printer connects over USB."),
    ("He sold the film rights to the studio, but no remake has been produced.",
     "He sold the film rights to the studio."),
    # ... but not a short claim against a conditional or a double negation
    ("If the office is not open, parcels go to the depot.", "The office is open."),
    ("Reviewers did not say the results were not robust.", "The results were robust."),
    # "over" and "under" of an age or a count are no bounds of a measure
    ("Children under 12 travel free on the ferry.", "Children over 12 travel free on the ferry."),
    # a season that names a thing, not a time
    ("Guam took part in the Winter Olympics.", "Guam took part in the Summer Olympics."),
    ("The shop is having a sale on winter coats.", "The shop is having a sale on summer coats."),
    # with or without: both; "has no" is "without"
    ("Tea is served with or without milk.", "Tea is served without milk."),
    ("The cabin has no windows.", "The cabin is without windows."),
    # an open question states neither side
    ("I wonder whether the store is open today.", "I wonder whether the store is closed today."),
    # a doer followed by more words, the claim's name there too
    ("The lease was signed by Anna Berg in the presence of Anna Borg.", "Anna Borg signed the lease."),
    # a colour the evidence gives too, beside another one
    ("The player wearing red blocks a kick from the player wearing blue.", "A player is wearing red."),
    # a last word that names the kind of a thing, or writes it short
    ("The shop is on Baker Street.", "The shop is on Baker St."),
    ("The parts are made by Acme Corp.", "The parts are made by Acme Inc."),
    # a rank the evidence gives beside the same superlative unranked, or of another noun
    ("It is the highest-grossing animated film and the third-highest-grossing film in Japan.",
     "It is the highest-grossing animated film."),
    ("The Nile is the longest river in Africa.", "The Nile carries the second longest name in Africa."),
    # a comparison turned round by "than"
    ("The east tower is taller than the west tower.", "The west tower is shorter than the east tower."),
    # a day of each month is one of the days "every Sunday" names
    ("Entry to the gallery is free every Sunday.", "Entry to the gallery is free on the last Sunday of the month."),
    # how often, at the same rate in other words
    ("Take 2 tablets daily.", "Take 14 tablets weekly."),
    # ... and the ends of a way said the other way round, or a list of two
    ("The ferry sails from Dover to Calais.", "The ferry sails to Calais from Dover."),
    ("The ferry sails on Monday and Friday.", "The ferry sails on Friday and Monday."),
    # entity: the doer of another act ("approve" / "process"), a doer of "not", a pronoun for the doer
    ("Refunds must be approved by the Operations Director.", "The finance team processes refunds."),
    ("Refunds are not approved by the shop staff.", "The Operations Director approves refunds."),
    ("Refunds above 200 GBP must be approved by the Operations Director.", "We approve refunds above 200 GBP."),
    # order: another month in another slot of the sentence
    ("Tickets go on sale in April for the festival in June.", "The festival in June has tickets on sale in April."),
    # values: a claim that restates both ends of the evidence's range
    ("Revenue is expected between $3.1 billion and $3.3 billion.",
     "Revenue is expected to be between $3.1 billion and $3.3 billion."),
    # values: a bare number elsewhere states the claim's ("Three of the ... were rescued")
    ("Rescuers searched for five climbers on the ridge. Three of the climbers were rescued by helicopter.",
     "Rescuers rescued three climbers by helicopter."),
    # negation: a "don't" about other words, a two-word claim, a verb that denies itself
    ("I can't explain the bad ratings, but the staff were friendly.", "There were bad ratings."),
    ("The fog has not stopped flights from landing at the airport.", "Flights have been landing at the airport."),
    # ... not what the evidence says someone argues
    ("Some economists argue that the country is already in a recession.", "The country is not in a recession."),
    # "did not know" denies nothing of what is known
    ("The coach is known as the only coach with a losing record at the club.",
     "I didn't know he was the only coach with a losing record at the club."),
    # a word of denial both sides negate, one of them beyond the negation's reach
    ("The boxer has never been knocked out or stopped by strikes.", "The boxer has never been stopped by strikes."),
    # opposites of WordNet that turn round with their arguments, or are steps of one process
    ("The museum sold the painting to the city.", "The city bought the painting from the museum."),
    ("Click Apply to finish the sync.", "Click Apply to start the sync."),
    # a word that only starts like a denial: "improve" is no "not prove", "discover" no "not cover"
    ("The new layout should prove its worth.", "The new layout should improve its worth."),
    ("The inspector will discover the cause.", "The inspector will cover the cause."),
    # role: two words exchanged around an amount, no action ("get a 10% discount" / "10% off")
    ("Members get a 10% discount on all books.", "All books are 10% off for members."),
    # "only" of a condition, of the one there is, or with the claim's word a kind of what it limits
    ("Refunds are given only if the item is unused.", "Refunds are given if the box is unopened."),
    ("He was the only losing coach that season.", "He was a terrible coach that season."),
    ("The museum is open to members only.", "The museum is open to paying members."),
    # "all staff" leaves open whether others had it too
    ("All staff received the bonus.", "Only staff received the bonus."),
    ("Shipping is free on orders.", "Shipping is free on all orders."),
    # "free" of another word, or the price of another thing
    ("The bread is gluten-free and costs £3.", "The bread costs £3."),
    ("Children travel free; adults pay £12.", "Adults pay £12."),
    # negation: a "don't" in the next sentence of the window
    ("Do not plant the bulbs in a hurry. The soil should reach 10°C first.",
     "Wait until the soil reaches 10°C before you plant the bulbs."),
    # a claim's own "didn't know" is a turn of speech, not a denial of a kind of the evidence's word
    ("James Naismith is the only losing coach in the university's history.", "I didn't know he was a losing coach."),
    # a time with no "am" or "pm" may be of either half of the day
    ("The call came in at 9:36.", "At 9:36 PM, the call came in."),
    # a year a bound holds ("before 2005" holds 2001)
    ("The band released its first album in 2001.", "The band released its first album before 2005."),
    # a value a negation denies says nothing of the value it has
    ("The museum opened in 1990.", "The museum did not open in 1995."),
    ("The museum did not open in 1990.", "The museum opened in 1995."),
    # free: "cost" and "charge" are nouns too ("at reduced cost" is no price said of a free thing)
    ("These services are offered to students at reduced or no cost.", "These services are offered to students at reduced cost."),
    # negation: the verb denied ("does not cover") is no noun the claim says ("goods cover")
    ("Our goods cover pays up to £50,000 per unit and does not cover cash or jewellery.",
     "Our goods cover pays up to £50,000 per unit."),
]  # fmt: skip


def test_a_denied_noun_of_the_verbs_word_is_still_denied() -> None:
    # "nursing" of "no nursing assistant" is the noun's, not the verb "nursed" (as the parse reads it)
    verdict, kind = read(
        "The ward has 20 beds and 2 nursing assistants.",
        "The ward is nursed with no nursing assistant at all.",
    )
    assert verdict.status is ClaimStatus.CONTRADICTED, verdict.reason


@pytest.mark.parametrize(("evidence", "claim"), NOT_AGAINST)
def test_the_rules_read_no_contradiction_in_a_real_false_positive_shape(evidence: str, claim: str) -> None:
    extra = ("Norway is where the Kessel 2 pump is made.",) if "Kessel" in evidence else ()
    verdict, kind = read(evidence, claim, *extra)
    assert verdict.status is not ClaimStatus.CONTRADICTED, verdict.reason
    assert kind is None or not RULES.policy(kind).hard, (kind, verdict.reason)


def test_a_role_swap_is_not_a_near_exact_quote() -> None:
    evidence = "The employer reimburses the employee for parking fees."  # similarity 0.96
    claim = "The employee reimburses the employer for parking fees."
    verdict = QuoteVerifier().verify(Claim(claim, 0, len(claim)), contexts(evidence))
    assert not verdict.verified, verdict.reason


def test_amounts_read_as_their_measure() -> None:
    [once] = quantities("Apply the gel once a day.")
    [thrice] = quantities("Apply the gel three times a day.")
    assert once.unit == thrice.unit == stem("times")
    [celsius] = quantities("Heat it to 200 degrees Celsius.")
    [symbol] = quantities("Heat it to 200 °C.")
    assert celsius.measure == symbol.measure
    [price] = quantities("For Oven clean, the price (GBP) is 65.")
    assert (price.unit, price.value) == ("GBP", 65.0)
