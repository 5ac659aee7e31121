# ruff: noqa: E501  (scenes: each sentence reads best on one line)
"""Paraphrase-split scenes about meaning: negations said with another verb, obligations and
permissions, opposites, another name in the same slot, swapped roles, quantifiers and conditions
(rrag/tools/paraphrase_split.py says what the split is). A TEST set: never training data."""

from __future__ import annotations

from random import Random

from rrag.tools.paraphrase_kit import (
    FIRMS,
    PEOPLE,
    TEAMS,
    TOWNS,
    Draft,
    SceneBook,
    capital,
    draft,
    other,
    words,
)

book = SceneBook()

# --------------------------------------------------------------------------------------------
# negation: a yes said as a no (or the reverse) with another verb


@book.scene("negation", "public services")
def planning_permission(rng: Random) -> Draft:
    person = rng.choice(PEOPLE)
    build = rng.choice(["garden studio", "bike shed", "conservatory", "loft extension"])
    return draft(
        f"The council approved {person}'s application to build a {build}.",
        [
            f"{person} was given permission by the council for the {build}.",
            f"The {build} {person} applied for has been granted by the council.",
        ],
        [
            f"The council refused {person} permission for the {build}.",
            f"{person}'s request for a {build} was turned down by the council.",
        ],
        [f"{person} must finish the {build} within a year."],
    )


@book.scene("negation", "culture")
def museum_sundays(rng: Random) -> Draft:
    place = rng.choice(["city museum", "botanical garden", "maritime gallery"])
    return draft(
        f"The {place} does not charge for entry on Sundays.",
        [
            f"Entry to the {place} is free on Sundays.",
            f"On Sundays, visitors get into the {place} without paying.",
        ],
        [
            f"On Sundays, visitors have to buy a ticket for the {place}.",
            f"An entrance fee is collected at the {place} every Sunday.",
        ],
        [f"The {place} offers guided tours on Sundays."],
    )


@book.scene("negation", "sports")
def host_final(rng: Random) -> Draft:
    team = rng.choice(TEAMS)
    return draft(
        f"{capital(team)} declined the offer to host the cup final.",
        [
            f"The invitation to stage the cup final was turned down by {team}.",
            f"Asked to stage the cup final, {team} said no.",
        ],
        [
            f"{capital(team)} accepted the invitation to stage the cup final.",
            f"{capital(team)} agreed to be the hosts of the cup final.",
        ],
        [f"{capital(team)} have won the cup twice before."],
    )


@book.scene("negation", "shopping")
def worn_shoes(rng: Random) -> Draft:
    days = rng.choice([14, 28, 30])
    return draft(
        f"We accept returns of unworn shoes within {days} days of purchase.",
        [
            f"Shoes that have not been worn can be brought back up to {words(days)} days after they were bought.",
            f"Unworn shoes may be returned for {words(days)} days from the date you bought them.",
        ],
        [
            "The shop refuses to take back shoes, even unworn ones.",
            "Returns of unworn shoes are not possible at this shop.",
        ],
        ["Returned shoes are refunded in cash."],
    )


# --------------------------------------------------------------------------------------------
# modality: must, may and need not


@book.scene("modality", "travel")
def passport_gate(rng: Random) -> Draft:
    document = rng.choice(["valid passport", "passport", "national identity card"])
    return draft(
        f"Passengers must show a {document} at the gate.",
        [
            f"At the gate, travellers are required to present a {document}.",
            f"A {document} has to be presented by every traveller before boarding.",
        ],
        [
            f"Presenting a {document} when boarding is up to each traveller.",
            "Travellers do not need to present any document at the gate.",
        ],
        ["Passengers must be at the gate an hour before departure."],
    )


@book.scene("modality", "sports")
def helmets(rng: Random) -> Draft:
    event = rng.choice(["cycle race", "skateboard contest", "horse-riding trial"])
    return draft(
        f"Helmets are compulsory for every rider in the {event}.",
        [
            f"No rider may take part in the {event} without a helmet.",
            f"Each competitor in the {event} has to wear a helmet.",
        ],
        [
            f"Riders in the {event} can choose whether or not to wear a helmet.",
            f"Wearing a helmet in the {event} is up to each rider.",
        ],
        [f"Riders in the {event} must also wear gloves."],
    )


@book.scene("modality", "leases")
def pets_consent(rng: Random) -> Draft:
    pet = rng.choice(["cat", "rabbit", "small dog"])
    return draft(
        f"Tenants may keep a {pet} with the landlord's written consent.",
        [
            f"With the landlord's permission in writing, a tenant is allowed a {pet}.",
            f"A {pet} can live in the flat if the landlord agrees to it in writing.",
        ],
        [
            f"Tenants are forbidden from keeping a {pet}, whatever the landlord says.",
            f"A {pet} can live in the flat without the landlord being asked.",
        ],
        [f"Tenants with a {pet} pay a higher deposit."],
    )


# --------------------------------------------------------------------------------------------
# antonym: the opposite word, or the comparison turned round


@book.scene("antonym", "finance")
def quarterly_sales(rng: Random) -> Draft:
    firm, share = rng.choice(FIRMS), rng.choice([4, 7, 12, 15])
    return draft(
        f"{firm} reported that its sales rose by {share}% last year.",
        [
            f"Last year {firm} saw a {words(share)} per cent increase in sales.",
            f"According to {firm}, it sold {words(share)} per cent more last year.",
        ],
        [
            f"Last year {firm} saw its sales fall by {words(share)} per cent.",
            f"According to {firm}, it sold less last year than the year before.",
        ],
        [f"{firm} plans to open new shops this year."],
    )


@book.scene("antonym", "travel")
def coastal_road(rng: Random) -> Draft:
    road = rng.choice(["cliff road", "mountain pass", "causeway"])
    cause = rng.choice(["flooding", "a landslide", "storm damage"])
    return draft(
        f"The {road} is closed because of {cause}.",
        [
            f"{capital(cause)} has shut the {road}.",
            f"Nobody can drive along the {road} at the moment, owing to {cause}.",
        ],
        [
            f"The {road} is open and traffic is moving normally.",
            f"Drivers can use the {road} as usual.",
        ],
        [f"The {road} will reopen on Monday."],
    )


@book.scene("antonym", "shopping")
def cheaper_model(rng: Random) -> Draft:
    cheap, dear = rng.sample(["Vela", "Nimbus", "Corvo", "Atlas"], 2)
    item = rng.choice(["hair dryer", "rice cooker", "electric toothbrush"])
    return draft(
        f"The {cheap} {item} is cheaper than the {dear}.",
        [
            f"The {dear} {item} costs more than the {cheap}.",
            f"You pay less for the {cheap} {item} than for the {dear} one.",
        ],
        [
            f"Buying the {cheap} {item} costs you more than buying the {dear}.",
            f"You pay less for the {dear} {item} than for the {cheap} one.",
        ],
        [f"The {cheap} {item} comes in three colours."],
    )


@book.scene("antonym", "health")
def worse_symptoms(rng: Random) -> Draft:
    cure = rng.choice(["new cream", "herbal remedy", "trial drug"])
    return draft(
        f"In the study, the {cure} made most patients' symptoms worse.",
        [
            f"Most of the patients in the study got worse on the {cure}.",
            f"According to the study, the {cure} aggravated the symptoms of the majority of patients.",
        ],
        [
            f"Most of the patients in the study got better on the {cure}.",
            f"According to the study, the {cure} relieved the symptoms of the majority of patients.",
        ],
        [f"The {cure} is sold without a prescription."],
    )


# --------------------------------------------------------------------------------------------
# entity_swap: another name in the same slot


@book.scene("entity_swap", "public services")
def housing_officer(rng: Random) -> Draft:
    officer, town = rng.choice(PEOPLE), rng.choice(TOWNS)
    wrong = other(rng, PEOPLE, officer)
    return draft(
        f"Residents of {town} with questions about housing should contact {officer}, the housing officer.",
        [
            f"{officer} is the person people living in {town} ask about housing.",
            f"The housing officer for {town} residents is {officer}.",
        ],
        [
            f"The housing officer for {town} residents is {wrong}.",
            f"People living in {town} should take housing questions to {wrong}.",
        ],
        [f"{officer} answers housing questions by phone on Mondays."],
    )


@book.scene("entity_swap", "travel")
def flight_gate(rng: Random) -> Draft:
    town = rng.choice(TOWNS)
    wrong = other(rng, TOWNS, town)
    code = f"{rng.choice(['EW', 'KL', 'TP'])}{rng.randint(100, 899)}"
    return draft(
        f"Flight {code} to {town} departs from Terminal 2.",
        [
            f"The {town} flight, {code}, leaves from the second terminal.",
            f"Passengers for {town} on {code} fly out of terminal two.",
        ],
        [
            f"Flight {code} is bound for {wrong}.",
            f"Passengers for {wrong} on {code} fly out of terminal two.",
        ],
        [f"Flight {code} is run by a partner airline."],
    )


@book.scene("entity_swap", "culture")
def novel_author(rng: Random) -> Draft:
    author = rng.choice(PEOPLE)
    wrong = other(rng, PEOPLE, author)
    title = rng.choice(["The Salt Road", "Winter Orchard", "A House of Glass"])
    return draft(
        f"{title} is a novel by {author}.",
        [
            f"{author} wrote the novel {title}.",
            f"The author of {title} is {author}.",
        ],
        [
            f"{wrong} wrote the novel {title}.",
            f"The author of {title} is {wrong}.",
        ],
        [f"{title} won a national book prize."],
    )


# --------------------------------------------------------------------------------------------
# role_swap: who does what to whom, turned round


@book.scene("role_swap", "leases")
def deposit(rng: Random) -> Draft:
    amount = rng.choice([800, 1500, 2000, 2500])
    return draft(
        f"Before moving in, the tenant hands the landlord a deposit of ${amount:,}.",
        [
            f"A deposit of {words(amount)} dollars is paid by the tenant to the landlord before moving in.",
            f"The landlord receives {words(amount)} dollars from the tenant as a deposit ahead of the move.",
        ],
        [
            f"The landlord pays the tenant a deposit of {words(amount)} dollars before the move.",
            f"A deposit of {words(amount)} dollars goes from the landlord to the tenant ahead of the move.",
        ],
        ["The deposit is returned within a month of the tenancy ending."],
    )


@book.scene("role_swap", "finance")
def takeover(rng: Random) -> Draft:
    buyer, bought = rng.sample(FIRMS, 2)
    year = rng.randint(2008, 2024)
    return draft(
        f"{buyer} acquired {bought} in {year}.",
        [
            f"{bought} was bought by {buyer} in {year}.",
            f"In {year}, {buyer} took over {bought}.",
        ],
        [
            f"{bought} bought {buyer} in {year}.",
            f"In {year}, {buyer} was taken over by {bought}.",
        ],
        [f"{bought} kept its own name after the deal."],
    )


@book.scene("role_swap", "employment")
def interview(rng: Random) -> Draft:
    manager, candidate = rng.sample(PEOPLE, 2)
    return draft(
        f"{manager}, the manager, interviewed {candidate} for the job.",
        [
            f"{candidate} was questioned for the post by {manager}, the manager.",
            f"For the job, {candidate} had an interview with {manager}, who is the manager.",
        ],
        [
            f"It was {candidate} who interviewed {manager} for the post.",
            f"{manager} was interviewed for the job by {candidate}.",
        ],
        [f"{candidate} was offered the job."],
    )


@book.scene("role_swap", "finance")
def bank_loan(rng: Random) -> Draft:
    firm, millions = rng.choice(FIRMS), rng.choice([2, 3, 5, 8])
    return draft(
        f"The regional bank lent {firm} {millions} million euros.",
        [
            f"{firm} borrowed {words(millions)} million euros from the regional bank.",
            f"A loan of {words(millions)} million euros was made to {firm} by the regional bank.",
        ],
        [
            f"{firm} lent the regional bank {words(millions)} million euros.",
            f"The regional bank borrowed {words(millions)} million euros from {firm}.",
        ],
        [f"{firm} must repay the loan within five years."],
    )


# --------------------------------------------------------------------------------------------
# quantifier: all, most, some, few, none


@book.scene("quantifier", "finance")
def fund_equities(rng: Random) -> Draft:
    share, assets = rng.choice([5, 8, 10, 12]), rng.choice(["equities", "property", "government bonds"])
    return draft(
        f"Only a small portion of the pension fund, about {share}%, is invested in {assets}.",
        [
            f"Roughly {words(share)} per cent of the pension fund's money is put into {assets}.",
            f"The pension fund keeps most of its money out of {assets}.",
        ],
        [
            f"The bulk of the pension fund's money sits in {assets}.",
            f"The pension fund puts nearly all of its money into {assets}.",
        ],
        ["The pension fund is managed by a team of five."],
    )


@book.scene("quantifier", "travel")
def hotel_rooms(rng: Random) -> Draft:
    feature = rng.choice(["air conditioning", "a balcony", "a private bathroom"])
    return draft(
        f"All rooms at the hotel have {feature}.",
        [
            f"Every room at the hotel comes with {feature}.",
            f"There is no room at the hotel without {feature}.",
        ],
        [
            f"Only some of the hotel's rooms come with {feature}.",
            f"None of the hotel's rooms comes with {feature}.",
        ],
        ["Every room at the hotel has a minibar."],
    )


@book.scene("quantifier", "health")
def side_effects(rng: Random) -> Draft:
    drug = rng.choice(["the new inhaler", "the allergy tablets", "the nasal spray"])
    return draft(
        f"A few of the patients taking {drug} reported side effects.",
        [
            f"Side effects were reported by a small number of the patients on {drug}.",
            f"Some patients using {drug}, though not many, said they had side effects.",
        ],
        [
            f"The majority of people using {drug} had side effects.",
            f"Not a single patient on {drug} reported a side effect.",
        ],
        [f"The side effects of {drug} wore off within a day."],
    )


# --------------------------------------------------------------------------------------------
# condition: a condition dropped (said as "whatever", "at any time") or turned round


@book.scene("condition", "health")
def cancel_refund(rng: Random) -> Draft:
    hours, said = rng.choice([(24, "a full day"), (48, "two full days"), (72, "three full days")])
    visit = rng.choice(["physiotherapy session", "dental check-up", "massage"])
    return draft(
        f"Refunds are given only if you cancel your {visit} at least {hours} hours in advance.",
        [
            f"Cancel the {visit} {said} or more ahead and you get your money back.",
            f"You are refunded for a {visit} called off no later than {words(hours)} hours before it.",
        ],
        [
            f"You get your money back for a {visit} however late you cancel it.",
            f"Refunds for a {visit} are only given to people who cancel less than {words(hours)} hours before.",
        ],
        [f"A {visit} can be moved to another day online."],
    )


@book.scene("condition", "transport")
def children_free(rng: Random) -> Draft:
    under = rng.choice([5, 11, 12])
    return draft(
        f"Children under {under} travel free, but only with a paying adult.",
        [
            f"A child younger than {words(under)} who travels with a paying adult does not need a ticket.",
            f"With a paying adult, children below the age of {words(under)} ride for nothing.",
        ],
        [
            f"Children under {words(under)} ride for nothing even when they travel alone.",
            f"A child younger than {words(under)} with a paying adult must pay the full fare.",
        ],
        [f"Children under {words(under)} must carry a photo pass."],
    )


@book.scene("condition", "leases")
def landlord_entry(rng: Random) -> Draft:
    hours = rng.choice([24, 48])
    return draft(
        f"The landlord may enter the flat only after giving {hours} hours' notice.",
        [
            f"Without {words(hours)} hours' warning, the landlord cannot come into the flat.",
            f"The tenant must be told {words(hours)} hours ahead before the landlord comes in.",
        ],
        [
            "The landlord can come into the flat at any time without warning.",
            "The landlord needs to give no notice before coming into the flat.",
        ],
        ["The landlord must bring an agent when entering the flat."],
    )


@book.scene("condition", "employment")
def holiday_shift(rng: Random) -> Draft:
    staff = rng.choice(["Staff", "Porters", "Drivers"])
    return draft(
        f"Only {staff.lower()} who work on a public holiday get an extra day off.",
        [
            f"Working a public holiday earns {staff.lower()} an additional day of leave.",
            f"A day off is added for {staff.lower()} who are on duty on a public holiday.",
        ],
        [
            f"All {staff.lower()} get an additional day of leave, whether or not they work the public holiday.",
            f"{staff} on duty on a public holiday are given no extra time off.",
        ],
        [f"{staff} are paid twice the usual rate for holiday shifts."],
    )
