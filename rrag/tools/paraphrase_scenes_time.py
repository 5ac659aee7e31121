# ruff: noqa: E501  (scenes: each sentence reads best on one line)
"""Paraphrase-split scenes about time and places in a sequence: frequencies, dates, references and
ordinals, and passages whose sentences hold values a claim may take from the wrong one
(rrag/tools/paraphrase_split.py says what the split is). A TEST set: never training data."""

from __future__ import annotations

from random import Random

from rrag.tools.paraphrase_kit import (
    DAYS,
    MONTHS,
    PEOPLE,
    TOWNS,
    Draft,
    SceneBook,
    capital,
    draft,
    number,
    ordinal,
    other,
    words,
    year_words,
)

book = SceneBook()

# --------------------------------------------------------------------------------------------
# frequency: how often, said another way


@book.scene("frequency", "health")
def tablets(rng: Random) -> Draft:
    hours, per_day = rng.choice([(6, "four times"), (8, "three times"), (12, "twice")])
    wrong_hours = other(rng, [4, 24, 48], hours)
    medicine = rng.choice(["antibiotic", "painkiller", "antacid"])
    return draft(
        f"Take one {medicine} tablet every {hours} hours.",
        [
            f"A single {medicine} tablet should be swallowed {per_day} a day, at even intervals.",
            f"Leave {words(hours)} hours between one {medicine} tablet and the next.",
        ],
        [
            f"Leave {words(wrong_hours)} hours between one {medicine} tablet and the next.",
            f"The {medicine} is taken as one tablet a week.",
        ],
        [f"The {medicine} tablets should be swallowed with milk."],
    )


@book.scene("frequency", "transport")
def bus_service(rng: Random) -> Draft:
    gap, per_hour = rng.choice([(10, "six"), (15, "four"), (20, "three"), (30, "two")])
    route = rng.choice([7, 12, 31, 48])
    wrong = other(rng, ["one", "two", "three", "four", "six", "eight"], per_hour)
    return draft(
        f"During the day, the number {route} bus runs every {gap} minutes.",
        [
            f"In the daytime {per_hour} buses an hour operate on route {words(route)}.",
            f"There is a route {words(route)} bus at {words(gap)}-minute intervals through the day.",
        ],
        [
            f"In the daytime {wrong} bus{'es' * (wrong != 'one')} an hour operate on route {words(route)}.",
            f"Route {words(route)} has only one bus each day.",
        ],
        [f"Route {words(route)} buses are free for pensioners."],
    )


@book.scene("frequency", "sports")
def training_nights(rng: Random) -> Draft:
    first, second = sorted(rng.sample(range(5), 2))
    club = rng.choice(["rowing club", "athletics club", "chess club"])
    wrong = other(rng, DAYS[:5], DAYS[first], DAYS[second])
    return draft(
        f"The {club} meets every {DAYS[first]} and {DAYS[second]} evening.",
        [
            f"Twice a week, on {DAYS[first]}s and {DAYS[second]}s, members of the {club} get together in the evening.",
            f"{DAYS[second]} evenings and {DAYS[first]} evenings are when the {club} gets together.",
        ],
        [
            f"Members of the {club} get together just once a month.",
            f"The {club} gets together only on {wrong} evenings.",
        ],
        [f"Each meeting of the {club} lasts ninety minutes."],
    )


# --------------------------------------------------------------------------------------------
# date: a day, a month or a year said in words or in another order


@book.scene("date", "leases")
def lease_start(rng: Random) -> Draft:
    day, month, year = rng.randint(2, 28), rng.randrange(12), rng.choice([2025, 2026, 2027])
    wrong_month = other(rng, range(12), month, (month + 1) % 12, (month - 1) % 12)
    return draft(
        f"The lease begins on {day} {MONTHS[month]} {year}.",
        [
            f"The tenancy starts on the {ordinal(day)} of {MONTHS[month]} {year}.",
            f"{MONTHS[month]} {day}, {year} is the first day of the tenancy.",
        ],
        [
            f"The tenancy starts on the {ordinal(day)} of {MONTHS[wrong_month]} {year}.",
            f"{MONTHS[month]} {day}, {year + 1} is the first day of the tenancy.",
        ],
        ["The tenancy is for twelve months."],
    )


@book.scene("date", "history")
def bridge_opening(rng: Random) -> Draft:
    year = rng.randint(1890, 1975)
    wrong = year + rng.choice([-20, -12, 10, 31])
    town = rng.choice(TOWNS)
    return draft(
        f"The suspension bridge at {town} opened to traffic in {year}.",
        [
            f"Vehicles first crossed {town}'s suspension bridge in {year_words(year)}.",
            f"It was in {year} that cars could first drive over the suspension bridge in {town}.",
        ],
        [
            f"Vehicles first crossed {town}'s suspension bridge in {year_words(wrong)}.",
            f"{town}'s suspension bridge has never been open to traffic.",
        ],
        [f"{town}'s suspension bridge was designed by a local engineer."],
    )


@book.scene("date", "finance")
def tax_deadline(rng: Random) -> Draft:
    day, month = rng.randint(5, 28), rng.randrange(12)
    wrong_day = other(rng, range(1, 29), *range(day - 2, day + 3))
    return draft(
        f"Payment of the property tax is due by {day} {MONTHS[month]}.",
        [
            f"You have until the {ordinal(day)} of {MONTHS[month]} to pay the property tax.",
            f"The property tax must be paid on or before {MONTHS[month]} {day}.",
        ],
        [
            f"You have until the {ordinal(wrong_day)} of {MONTHS[month]} to pay the property tax.",
            "The property tax may be paid at any time of the year without a deadline.",
        ],
        ["Late payment of the property tax costs a fine of ten per cent."],
    )


# --------------------------------------------------------------------------------------------
# reference: chapters, verses, platforms, floors, places in a race


@book.scene("reference", "culture")
def scripture(rng: Random) -> Draft:
    chapter, verse = rng.randint(2, 12), rng.randint(5, 60)
    wrong_chapter = other(rng, range(2, 13), chapter)
    wrong_verse = other(rng, range(5, 61), *range(verse - 3, verse + 4))
    return draft(
        f"The saying is found in Chapter {chapter}, Verse {verse}.",
        [
            f"You can read the saying in verse {words(verse)} of the {ordinal(chapter)} chapter.",
            f"The {ordinal(chapter)} chapter contains the saying, at verse {verse}.",
        ],
        [
            f"You can read the saying in verse {words(verse)} of the {ordinal(wrong_chapter)} chapter.",
            f"The {ordinal(chapter)} chapter contains the saying, at verse {wrong_verse}.",
        ],
        ["The saying is often read aloud at weddings."],
    )


@book.scene("reference", "transport")
def platform(rng: Random) -> Draft:
    number_, town = rng.randint(2, 14), rng.choice(TOWNS)
    wrong = other(rng, range(1, 16), number_)
    return draft(
        f"Trains to {town} leave from platform {number_}.",
        [
            f"Passengers for {town} should board at platform {words(number_)}.",
            f"Platform {words(number_)} is where the {town} service departs.",
        ],
        [
            f"Passengers for {town} should board at platform {words(wrong)}.",
            f"The {town} service departs from the {ordinal(wrong)} platform.",
        ],
        [f"The trains to {town} have a buffet car."],
    )


@book.scene("reference", "sports")
def marathon(rng: Random) -> Draft:
    runner, place = rng.choice(PEOPLE), rng.randint(2, 9)
    wrong = other(rng, range(2, 12), place)
    return draft(
        f"{runner} finished {ordinal(place)} in the city marathon.",
        [
            f"In the city marathon, {runner} came in {ordinal(place)} place.",
            f"{capital(words(place - 1))} runner{'s' * (place > 2)} crossed the line ahead of {runner} in the city marathon.",
        ],
        [
            f"Nobody finished the city marathon ahead of {runner}.",
            f"In the city marathon, {runner} came in {ordinal(wrong)} place.",
        ],
        [f"{runner} ran the city marathon in under three hours."],
    )


# --------------------------------------------------------------------------------------------
# passage: two sentences with values of the same kind; a claim takes one to the other's subject


@book.scene("passage", "prices")
def day_pass(rng: Random) -> Draft:
    adult = rng.choice([14, 16, 18, 20])
    student = adult - rng.choice([4, 6])
    return draft(
        f"A day pass for the zoo costs {adult} dollars for adults. Students pay {student} dollars, "
        "and children under five get in free.",
        [
            f"Students can visit the zoo for the day for {words(student)} dollars.",
            "Kids younger than five pay nothing to enter the zoo.",
        ],
        [
            f"Students can visit the zoo for the day for {words(adult)} dollars.",
            f"Grown-ups are charged {words(student)} dollars for a day at the zoo.",
            f"Children under five are charged {words(student)} dollars to enter the zoo.",
        ],
        ["Pensioners get into the zoo for half price."],
    )


@book.scene("passage", "manuals")
def fridge_freezer(rng: Random) -> Draft:
    fridge = rng.choice([180, 220, 250, 300])
    freezer = rng.choice([60, 80, 100, 120])
    return draft(
        f"The fridge compartment holds {fridge} litres. The freezer below it holds {freezer} litres.",
        [
            f"There are {words(freezer)} litres of space in the freezer.",
            f"The fridge part has room for {words(fridge)} litres.",
        ],
        [
            f"There are {words(fridge)} litres of space in the freezer.",
            f"The fridge part has room for only {words(freezer)} litres.",
        ],
        ["The freezer has a built-in ice maker."],
    )


@book.scene("passage", "schools")
def school_day(rng: Random) -> Draft:
    start, start_said = rng.choice([("8:30", "half past eight"), ("8:45", "a quarter to nine")])
    after, after_said = rng.choice([("1:15", "a quarter past one"), ("1:30", "half past one")])
    return draft(
        f"Morning lessons begin at {start}. After lunch, lessons start again at {after}.",
        [
            f"The first lesson of the morning starts at {start_said}.",
            f"Afternoon classes get going at {after_said}.",
        ],
        [
            f"The first lesson of the morning starts at {after_said}.",
            f"Afternoon classes get going at {start_said}.",
        ],
        ["Lunch is served in the school hall."],
    )


@book.scene("passage", "sports")
def race_distances(rng: Random) -> Draft:
    long_km, short_km = rng.choice([(42, 21), (21, 10), (10, 5)])
    town = rng.choice(TOWNS)
    return draft(
        f"The main race through {town} covers {long_km} km. The fun run is {short_km} km long.",
        [
            f"Fun runners in {town} cover {number(short_km * 1000)} metres.",
            f"The main {town} race is {words(long_km)} kilometres long.",
        ],
        [
            f"Fun runners in {town} cover {number(long_km * 1000)} metres.",
            f"The main {town} race is {words(short_km)} kilometres long.",
        ],
        [f"The {town} fun run starts an hour after the main race."],
    )
